"""attribute_mismatch: the numbers are right, the words naming their column are wrong.

Shooting lines are written as box-score summaries print them ("6 - for - 9"); the
reader does not yet read the hyphenated "6-for-9" as two numbers (noted as a gap).
"""

from __future__ import annotations

from vouched import Fact, FindingKind, Lexicon, scan

LEXICON = Lexicon.from_json(
    {
        "attributes": {"PTS": ["points"]},
        "pairs": [
            {"attributes": ["FG3M", "FG3A"], "phrases": ["from three-point range", "from three"]},
            {
                "attributes": ["FTM", "FTA"],
                "phrases": ["from the free-throw line", "from the line"],
            },
        ],
    }
)


def _line(**stats: int) -> list[Fact]:
    return [
        Fact(
            subject="Jordan Clarkson",
            attribute=name,
            value=value,
            source="box-score",
            observed_at="2026-11-29T12:00:00Z",
        )
        for name, value in stats.items()
    ]


FACTS = _line(PTS=24, FG3M=2, FG3A=5, FTM=6, FTA=9)


def test_free_throws_named_as_three_pointers_are_one_finding_on_the_words() -> None:
    text = "Jordan Clarkson scored 24 points and went 6 - for - 9 from three-point range."
    (finding,) = scan(text, FACTS, LEXICON).findings
    assert finding.kind is FindingKind.ATTRIBUTE_MISMATCH
    assert finding.text == "from three-point range"
    assert "FTM-FTA" in finding.detail


def test_the_same_line_under_its_own_words_is_clean() -> None:
    text = "Jordan Clarkson scored 24 points and went 6 - for - 9 from the free-throw line."
    assert scan(text, FACTS, LEXICON).passed


def test_numbers_that_fit_no_column_stay_value_mismatches() -> None:
    text = "Jordan Clarkson scored 24 points and went 7 - for - 9 from three-point range."
    kinds = [f.kind for f in scan(text, FACTS, LEXICON).findings]
    assert FindingKind.ATTRIBUTE_MISMATCH not in kinds
    assert FindingKind.VALUE_MISMATCH in kinds


def test_a_pair_of_small_counts_is_too_likely_a_coincidence() -> None:
    facts = _line(PTS=24, FG3M=0, FG3A=0, FTM=1, FTA=3)
    text = "Jordan Clarkson scored 24 points and went 1 - for - 3 from three-point range."
    kinds = [f.kind for f in scan(text, facts, LEXICON).findings]
    assert kinds == [FindingKind.VALUE_MISMATCH, FindingKind.VALUE_MISMATCH]
