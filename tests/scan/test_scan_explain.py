"""The sentence explained (issue 28): names, periods, margins, counts, other occasions.

Each test states one rule on a small world; the case suite (``cases/*_explain.toml``)
holds the answers of the six worlds phrased as an assistant phrases them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from vouched import ConfigError, Fact, InputError, Lexicon, Policy, scan

SEEN = "2017-02-03T00:00:00Z"
AFTER_THE_GAME = datetime(2017, 2, 4, 12, 0, tzinfo=UTC)


def fact(subject: str, attribute: str, value: Any) -> Fact:
    return Fact(
        subject=subject,
        attribute=attribute,
        value=value,
        source="box",
        observed_at=SEEN,
        ttl="P3650D",
    )


def box(team: str, other: str, points: int, quarters: tuple[int, ...], home: bool) -> list[Fact]:
    facts = [
        fact(team, "TEAM-PTS", points),
        fact(team, "GAME_DATE", "2017-02-03"),
        fact(team, "HOME", home),
    ]
    facts += [fact(team, f"TEAM-PTS_QTR{i}", q) for i, q in enumerate(quarters, 1)]
    return facts


GAME = [
    *box("Hawks", "Cavaliers", 110, (30, 20, 25, 35), home=False),
    *box("Cavaliers", "Hawks", 106, (25, 30, 30, 21), home=True),
]
HALVES = {
    "in the first half": {"TEAM-PTS": ["TEAM-PTS_QTR1", "TEAM-PTS_QTR2"]},
    "in the second half": {"TEAM-PTS": ["TEAM-PTS_QTR3", "TEAM-PTS_QTR4"]},
}
RESULTS = Lexicon.from_json(
    {
        "comparisons": {
            "defeated": {"attribute": "TEAM-PTS", "holds": ">"},
            "edged": {"attribute": "TEAM-PTS", "holds": ">", "by_at_most": 5},
            "routed": {"attribute": "TEAM-PTS", "holds": ">", "by_at_least": 15},
            "outscored": {"attribute": "TEAM-PTS", "holds": ">"},
            "pulled away": {"attribute": "TEAM-PTS", "holds": ">", "versus": "other"},
            "pull away": {"attribute": "TEAM-PTS", "holds": ">", "versus": "other"},
        },
        "periods": HALVES,
    }
)


def kinds(
    text: str, facts: list[Fact] = GAME, lexicon: Lexicon = RESULTS, **kw: Any
) -> list[tuple[str, str]]:
    return [
        (str(f.kind), f.text) for f in scan(text, facts, lexicon, now=AFTER_THE_GAME, **kw).findings
    ]


# -- margins ---------------------------------------------------------------------


def test_a_margin_word_holds_within_its_size() -> None:
    assert kinds("The Hawks edged the Cavaliers on Friday.") == []


def test_a_margin_word_beyond_its_size_is_relation_mismatch() -> None:
    assert kinds("The Hawks routed the Cavaliers on Friday.") == [("relation_mismatch", "routed")]


def test_a_result_word_without_an_object_reads_the_other_subject() -> None:
    # "pulled away" names no opponent: the one other team with points is the other side
    assert kinds("The Hawks pulled away late.") == []
    assert kinds("The Cavaliers pulled away late.") == [("relation_mismatch", "pulled away")]


def test_a_result_word_after_a_pronoun_is_left_alone() -> None:
    # "allowing them to pull away": whom "them" names is a guess for a word with no object
    assert kinds("The Cavaliers scored 106, allowing them to pull away late.") == []


# -- periods ---------------------------------------------------------------------


def test_a_period_named_beside_a_comparison_sums_its_parts() -> None:
    # first half: Hawks 50, Cavaliers 55; second half: Hawks 60, Cavaliers 51
    assert kinds("The Hawks outscored the Cavaliers in the second half.") == []
    assert kinds("The Hawks outscored the Cavaliers in the first half.") == [
        ("relation_mismatch", "outscored")
    ]


def test_a_period_in_another_world_sums_its_parts() -> None:
    facts = [
        fact(shop, f"sales_q{i}", value)
        for shop, values in (("North", (10, 10, 40, 40)), ("South", (30, 30, 5, 5)))
        for i, value in enumerate(values, 1)
    ] + [fact("North", "sales", 100), fact("South", "sales", 70)]
    words = Lexicon.from_json(
        {
            "comparisons": {"outsold": {"attribute": "sales", "holds": ">"}},
            "periods": {"in the first half": {"sales": ["sales_q1", "sales_q2"]}},
        }
    )
    assert kinds("North outsold South over the year.", facts, words) == []
    assert kinds("North outsold South in the first half.", facts, words) == [
        ("relation_mismatch", "outsold")
    ]


# -- names -----------------------------------------------------------------------


def test_a_subject_compared_with_itself_is_one_changed_name() -> None:
    found = kinds("The Hawks defeated the Hawks on Friday.")
    assert found == [("subject_mismatch", "Hawks")]


def test_numbers_two_subjects_fit_alike_keep_the_name() -> None:
    # both Lyon and Geneva would explain the numbers: a coincidence points at no one
    facts = [
        fact("Berlin", "humidity", 63),
        fact("Berlin", "wind", 12),
        fact("Lyon", "humidity", 76),
        fact("Lyon", "wind", 23),
        fact("Geneva", "humidity", 76),
        fact("Geneva", "wind", 23),
    ]
    words = Lexicon.from_json({"attributes": {"humidity": ["humidity"], "wind": ["wind"]}})
    assert kinds("Berlin has 76 humidity and 23 wind.", facts, words) == [
        ("value_mismatch", "76"),
        ("value_mismatch", "23"),
    ]


# -- other occasions -------------------------------------------------------------


def test_the_opponent_of_a_later_game_is_an_ungrounded_claim() -> None:
    found = kinds("The Hawks defeated the Cavaliers. Next, the Hawks host the Toronto Raptors.")
    assert ("ungrounded_claim", "Toronto Raptors") in found


def test_a_season_average_is_an_ungrounded_claim() -> None:
    facts = [*GAME, fact("Smith", "PTS", 12)]
    words = Lexicon.from_json({"attributes": {"PTS": ["points"]}})
    assert kinds("Smith had 12 points. He is averaging 25 points on the season.", facts, words) == [
        ("ungrounded_claim", "25")
    ]


def test_policy_leave_passes_a_season_average_unchecked() -> None:
    facts = [*GAME, fact("Smith", "PTS", 12)]
    words = Lexicon.from_json({"attributes": {"PTS": ["points"]}})
    leave = Policy(other_occasions="leave")
    text = "Smith had 12 points. He is averaging 25 points on the season."
    assert kinds(text, facts, words, policy=leave) == []


def test_policy_other_occasions_takes_flag_or_leave() -> None:
    with pytest.raises(ConfigError, match="other_occasions"):
        Policy(other_occasions="ignore")
    assert Policy.from_json({"other_occasions": "leave"}).other_occasions == "leave"


# -- counts ----------------------------------------------------------------------

ROSTER = [
    fact(name, attribute, value)
    for name, team, starter, points in (
        ("Ann", "Hawks", True, 20),
        ("Bea", "Hawks", True, 14),
        ("Cy", "Hawks", True, 11),
        ("Dee", "Hawks", False, 4),
        ("Eve", "Cavaliers", True, 30),
    )
    for attribute, value in (("TEAM", team), ("STARTER", starter), ("PTS", points))
]
COUNTS = Lexicon.from_json(
    {
        "thresholds": {"double figures": {"attributes": ["PTS"], "at_least": 10}},
        "counts": {
            "the only other starter": {
                "within": ["TEAM"],
                "among": {"STARTER": True},
                "others": 0,
            },
            "all the starters": {"within": ["TEAM"], "among": {"STARTER": True}, "every": True},
        },
    }
)


def test_only_other_holds_when_every_other_member_was_named_before() -> None:
    text = "Ann and Bea led the Hawks. Cy was the only other starter in double figures."
    assert kinds(text, ROSTER, COUNTS) == []


def test_only_other_with_an_unnamed_member_is_relation_mismatch() -> None:
    text = "Ann led the Hawks. Cy was the only other starter in double figures."
    assert kinds(text, ROSTER, COUNTS) == [("relation_mismatch", "the only other starter")]


def test_every_member_count_holds_when_each_member_meets_it() -> None:
    text = "Ann scored 20 for the Hawks, with all the starters in double figures."
    assert kinds(text, ROSTER, COUNTS) == []


def test_every_member_count_with_one_short_is_relation_mismatch() -> None:
    short = [f for f in ROSTER if (f.subject, f.attribute) != ("Cy", "PTS")]
    short.append(fact("Cy", "PTS", 9))
    text = "Ann scored 20 for the Hawks, with all the starters in double figures."
    assert kinds(text, short, COUNTS) == [("relation_mismatch", "all the starters")]


# -- the lexicon sections are validated ----------------------------------------------


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ({"periods": {"at halftime": {"PTS": "PTS_QTR1"}}}, "periods.at halftime.PTS"),
        ({"periods": {"at halftime": {"PTS": ["PTS", "PTS_QTR1"]}}}, "periods.at halftime.PTS"),
        ({"periods": []}, "periods"),
        ({"counts": {"the only": {"others": -1}}}, "counts.the only.others"),
        ({"counts": {"the only": {"others": 0, "every": True}}}, "counts.the only"),
        ({"counts": {"the only": {"others": 0, "size": 2}}}, "counts.the only.size"),
        (
            {"comparisons": {"edged": {"attribute": "P", "holds": ">", "by_at_most": -3}}},
            "comparisons.edged.by_at_most",
        ),
        (
            {
                "comparisons": {
                    "x": {"attribute": "P", "holds": ">", "by_at_least": 9, "by_at_most": 3}
                }
            },
            "comparisons.x",
        ),
        (
            {"comparisons": {"x": {"attribute": "P", "holds": ">", "versus": "all"}}},
            "comparisons.x.versus",
        ),
    ],
)
def test_a_bad_section_is_an_error_naming_its_field(section: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        Lexicon.from_json(section)
    assert caught.value.field == field


def test_the_new_sections_survive_to_json() -> None:
    data = {
        "comparisons": {
            "edged": {"attribute": "P", "holds": ">", "by_at_most": 5, "versus": "other"}
        },
        "periods": {"at halftime": {"P": ["P1", "P2"]}},
        "counts": {"the only other": {"within": ["TEAM"], "others": 0}},
    }
    lexicon = Lexicon.from_json(data)
    assert Lexicon.from_json(lexicon.to_json()) == lexicon


def test_a_line_for_a_name_with_no_such_facts_is_one_finding_on_the_name() -> None:
    # Dee has a team and a role but no points or rebounds: he did not play. The line
    # stated for him is no fact's, whoever else's numbers it happens to be read for.
    facts = [
        *(f for f in ROSTER if (f.subject, f.attribute) != ("Dee", "PTS")),
        fact("Ann", "REB", 7),
    ]
    words = Lexicon.from_json({"attributes": {"PTS": ["points"], "REB": ["rebounds"]}})
    text = "Dee chipped in with 13 points and 5 rebounds, while Ann added 20 points."
    assert kinds(text, facts, words) == [("ungrounded_claim", "Dee")]


def test_a_name_further_on_in_the_clause_is_not_the_numbers_subject() -> None:
    facts = [
        fact("Berlin", "rain", 0.2),
        fact("Berlin", "temperature", 21.4),
        fact("Munich", "temperature", 17.8),
    ]
    words = Lexicon.from_json({"attributes": {"rain": ["mm of rain"]}})
    assert kinds("Berlin is wetter than Munich, with 0.2 mm of rain.", facts, words) == []
