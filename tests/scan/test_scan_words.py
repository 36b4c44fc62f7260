"""Facts stated in words: weekdays, value words, comparisons, superlatives, thresholds.

Each test states one rule of :mod:`vouched._scan._rules._words` on a small world; the
case suite (``cases/*_words.toml``) holds the answers phrased as an assistant
phrases them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vouched import Fact, FindingKind, InputError, Lexicon, Policy, Scanner, partition, scan

K = FindingKind
SEEN = "2026-12-01T09:00:00Z"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def fact(subject: str, attribute: str, value: Any, **extra: Any) -> Fact:
    fields: dict[str, Any] = {"source": "catalog", "observed_at": SEEN, "ttl": "P30D"}
    fields.update(extra)
    return Fact(subject=subject, attribute=attribute, value=value, **fields)


COURSES = [
    fact("Pottery", "date", "2026-12-09"),  # a Wednesday
    fact("Pottery", "format", "in person"),
    fact("Pottery", "fee_eur", 45, unit="EUR"),
    fact("Rust", "date", "2026-12-10"),  # a Thursday
    fact("Rust", "format", "online"),
    fact("Rust", "fee_eur", 120, unit="EUR"),
    Fact.silence("Bookbinding", "format", "source_error", source="catalog"),
    fact("Bookbinding", "fee_eur", 25, unit="EUR"),
]
COURSE_WORDS = Lexicon.from_json(
    {
        "attributes": {"fee_eur": ["fee", "costs"]},
        "subjects": {
            "Pottery": ["the pottery class"],
            "Rust": ["the Rust course"],
            "Bookbinding": ["the bookbinding taster"],
        },
        "values": {
            "format": {"online": "online", "in person": "in person", "on site": "in person"}
        },
        "comparisons": {"cheaper than": {"attribute": "fee_eur", "holds": "<"}},
        "superlatives": {"the most expensive": {"attribute": "fee_eur", "rank": "max"}},
        "thresholds": {"free": {"attributes": ["fee_eur"], "at_most": 0, "count": 1}},
    }
)


def kinds(
    text: str, facts: list[Fact] = COURSES, lexicon: Lexicon = COURSE_WORDS
) -> list[tuple[str, str]]:
    return [(str(f.kind), f.text) for f in scan(text, facts, lexicon).findings]


# -- weekdays and dates -------------------------------------------------------------


def test_the_weekday_of_the_subjects_date_passes() -> None:
    assert kinds("The pottery class meets on Wednesday.") == []


def test_another_weekday_is_value_mismatch_on_the_weekday() -> None:
    assert kinds("The pottery class meets on Thursday.") == [("value_mismatch", "Thursday")]


def test_a_weekday_is_checked_against_the_subject_it_follows() -> None:
    text = "The pottery class is on Wednesday and the Rust course on Wednesday too."
    assert kinds(text) == [("value_mismatch", "Wednesday")]
    assert scan(text, COURSES, COURSE_WORDS).findings[0].start == text.rindex("Wednesday")


def test_a_pronoun_carries_the_subject_of_a_weekday() -> None:
    assert kinds("The pottery class is popular. It meets on Thursday.") == [
        ("value_mismatch", "Thursday")
    ]


def test_a_weekday_in_a_sentence_that_names_no_subject_is_left_alone() -> None:
    assert kinds("The pottery class is popular. Booking closes on Friday.") == []


def test_a_weekday_no_date_speaks_for_is_left_alone() -> None:
    assert kinds("Our office is closed on Sunday.") == []


def test_relative_days_are_out_of_scope() -> None:
    assert kinds("The pottery class starts tomorrow.") == []


def test_a_denied_weekday_is_not_checked() -> None:
    assert kinds("The pottery class does not meet on Thursday.") == []


def test_a_silent_date_stated_is_silent_spoken() -> None:
    facts = [*COURSES, Fact.silence("Bookbinding", "date", "timeout", source="catalog")]
    assert kinds("The bookbinding taster is on Friday.", facts) == [("silent_spoken", "Friday")]


BOX_SCORE = [
    fact("Hawks", "GAME_DATE", "2017-02-03", observed_at="2017-02-03T00:00:00Z"),  # a Friday
    fact("Hawks", "TEAM-PTS", 110, observed_at="2017-02-03T00:00:00Z"),
    fact("Hawks", "HOME", False, observed_at="2017-02-03T00:00:00Z"),
    fact("Cavaliers", "GAME_DATE", "2017-02-03", observed_at="2017-02-03T00:00:00Z"),
    fact("Cavaliers", "TEAM-PTS", 106, observed_at="2017-02-03T00:00:00Z"),
    fact("Cavaliers", "HOME", True, observed_at="2017-02-03T00:00:00Z"),
]
BOX_WORDS = Lexicon.from_json(
    {
        "values": {"HOME": {"host": True, "on the road": False, "at home": True}},
        "comparisons": {
            "defeated": {"attribute": "TEAM-PTS", "holds": ">"},
            "lost to": {"attribute": "TEAM-PTS", "holds": "<"},
        },
    }
)


def test_a_weekday_of_a_later_occasion_after_a_past_box_score_is_ungrounded() -> None:
    # The facts describe a game that has been played; "their next game" is another one,
    # and the opponent it names is no fact's subject.
    text = "The Hawks defeated the Cavaliers on Friday. The Hawks will host the Bulls on Monday."
    read_after_the_game = datetime(2017, 2, 4, 12, 0, tzinfo=UTC)
    report = scan(text, BOX_SCORE, BOX_WORDS, now=read_after_the_game)
    assert sorted((f.start, str(f.kind), f.text) for f in report.findings) == [
        (text.index("host"), "ungrounded_claim", "host"),
        (text.index("Bulls"), "ungrounded_claim", "Bulls"),
        (text.index("Monday"), "ungrounded_claim", "Monday"),
    ]


def test_policy_leave_other_occasions_checks_no_word_of_a_later_occasion() -> None:
    text = "The Hawks defeated the Cavaliers on Friday. The Hawks will host the Bulls on Monday."
    read_after_the_game = datetime(2017, 2, 4, 12, 0, tzinfo=UTC)
    leave = Policy(other_occasions="leave")
    report = scan(text, BOX_SCORE, BOX_WORDS, policy=leave, now=read_after_the_game)
    assert report.findings == ()


def test_without_now_a_later_occasion_is_read_as_the_facts_occasion() -> None:
    text = "The Hawks will host the Bulls on Monday."
    assert kinds(text, BOX_SCORE, BOX_WORDS) == [
        ("value_mismatch", "host"),
        ("value_mismatch", "Monday"),
    ]


def test_a_later_occasion_is_checked_when_the_facts_speak_of_it() -> None:
    # Course dates lie ahead of their observation: "will" speaks of the same occasion.
    assert kinds("The Rust course will take place on Wednesday.") == [
        ("value_mismatch", "Wednesday")
    ]


# -- words that are values ----------------------------------------------------------


def test_another_subjects_value_word_is_value_mismatch_on_the_word() -> None:
    assert kinds("The Rust course is held in person.") == [("value_mismatch", "in person")]


def test_the_subjects_own_value_word_passes_in_any_of_its_phrases() -> None:
    assert kinds("The pottery class is held on site, the Rust course online.") == []


def test_a_value_phrase_in_a_sentence_without_its_subject_is_left_alone() -> None:
    assert kinds("The pottery class is popular. You can also book online.") == []


def test_a_value_word_for_a_silent_fact_is_silent_spoken() -> None:
    assert kinds("The bookbinding taster is online.") == [("silent_spoken", "online")]


def test_a_negated_value_word_is_not_checked() -> None:
    assert kinds("The Rust course is not held in person.") == []


def test_a_string_facts_value_needs_linking_words_to_its_subject() -> None:
    facts = [
        fact("Cousins", "TEAM", "Kings"),
        fact("Cousins", "PTS", 30),
        fact("Kings", "TEAM-PTS", 100),
        fact("Hawks", "TEAM-PTS", 90),
        fact("Schroder", "TEAM", "Hawks"),
    ]
    words = Lexicon.from_json({"attributes": {"PTS": ["points"]}})
    assert kinds("Cousins of the Hawks scored 30 points.", facts, words) == [
        ("value_mismatch", "Hawks")
    ]
    assert kinds("Cousins scored 30 points against the Hawks.", facts, words) == []
    assert kinds("Kings center Cousins scored 30 points.", facts, words) == []


def test_a_boolean_value_phrase_names_the_subject_after_it() -> None:
    assert kinds("The host Cavaliers were sharp.", BOX_SCORE, BOX_WORDS) == []
    assert kinds("The host Hawks were sharp.", BOX_SCORE, BOX_WORDS) == [("value_mismatch", "host")]


# -- comparisons, superlatives, thresholds ------------------------------------------


def test_a_comparison_that_holds_passes() -> None:
    assert kinds("The pottery class is cheaper than the Rust course.") == []


def test_a_comparison_that_does_not_hold_is_relation_mismatch_on_the_phrase() -> None:
    assert kinds("The Rust course is cheaper than the pottery class.") == [
        ("relation_mismatch", "cheaper than")
    ]


def test_a_result_verb_is_a_comparison_of_points() -> None:
    assert kinds("The Hawks defeated the Cavaliers 110 - 106.", BOX_SCORE, BOX_WORDS) == []
    assert kinds("The Cavaliers defeated the Hawks.", BOX_SCORE, BOX_WORDS) == [
        ("relation_mismatch", "defeated")
    ]
    assert kinds("The Cavaliers did not beat the Hawks.", BOX_SCORE, BOX_WORDS) == []


def test_a_comparison_with_a_silent_operand_is_silent_spoken() -> None:
    facts = [*COURSES, Fact.silence("Watercolour", "fee_eur", "timeout", source="catalog")]
    words = Lexicon.from_json(
        {**COURSE_WORDS.to_json(), "subjects": {"Watercolour": ["the watercolour class"]}}
    )
    assert kinds("The watercolour class is cheaper than the Rust course.", facts, words) == [
        ("silent_spoken", "cheaper than")
    ]


def test_a_superlative_holds_for_the_maximum_only() -> None:
    assert kinds("The Rust course is the most expensive.") == []
    assert kinds("The pottery class is the most expensive.") == [
        ("relation_mismatch", "the most expensive")
    ]


def test_a_hedged_superlative_is_not_checked() -> None:
    assert kinds("The pottery class is one of the most expensive.") == []


def test_a_superlative_ranks_within_the_subjects_group() -> None:
    facts = [
        fact("A", "REB", 9),
        fact("A", "TEAM", "Kings"),
        fact("B", "REB", 12),
        fact("B", "TEAM", "Hawks"),
        fact("C", "REB", 7),
        fact("C", "TEAM", "Kings"),
    ]
    words = Lexicon.from_json(
        {
            "attributes": {"REB": ["rebounds"]},
            "superlatives": {"team-high": {"rank": "max", "within": "TEAM"}},
        }
    )
    assert kinds("A grabbed a team-high 9 rebounds.", facts, words) == []
    assert kinds("C grabbed a team-high 7 rebounds.", facts, words) == [
        ("relation_mismatch", "team-high")
    ]


def test_a_superlative_among_a_named_group_needs_the_subject_in_it() -> None:
    facts = [
        fact("Ann", "PTS", 20),
        fact("Ann", "TEAM", "Kings"),
        fact("Ann", "STARTER", True),
        fact("Bo", "PTS", 12),
        fact("Bo", "TEAM", "Kings"),
        fact("Bo", "STARTER", False),
        fact("Cy", "PTS", 9),
        fact("Cy", "TEAM", "Kings"),
        fact("Cy", "STARTER", False),
    ]
    words = Lexicon.from_json(
        {
            "attributes": {"PTS": ["points"]},
            "superlatives": {
                "led the bench": {
                    "attribute": "PTS",
                    "rank": "max",
                    "within": ["TEAM"],
                    "among": {"STARTER": False},
                }
            },
        }
    )
    assert kinds("Bo led the bench with 12 points.", facts, words) == []
    # Cy is on the bench but Bo scored more: the verb of rank is the word that is wrong
    assert kinds("Cy led the bench with 9 points.", facts, words) == [("relation_mismatch", "led")]
    # Ann has the most points of all, but she started: she is not on the bench (the
    # group is wrong) and so led none of it (the verb is wrong too): two claims, two findings
    assert kinds("Ann led the bench with 20 points.", facts, words) == [
        ("relation_mismatch", "led"),
        ("relation_mismatch", "bench"),
    ]


def test_a_threshold_in_a_unit_converts_the_facts_values() -> None:
    facts = [
        fact("New York", "temperature", 30, unit="degF"),
        fact("Oslo", "temperature", 2, unit="degC"),
    ]
    words = Lexicon.from_json(
        {
            "thresholds": {
                "below freezing": {
                    "attributes": ["temperature"],
                    "at_most": 0,
                    "count": 1,
                    "unit": "degC",
                }
            }
        }
    )
    assert kinds("New York is below freezing.", facts, words) == []
    assert kinds("Oslo is below freezing.", facts, words) == [
        ("relation_mismatch", "below freezing")
    ]


def test_a_comparison_converts_units_before_it_compares() -> None:
    facts = [
        fact("New York", "temperature", 48.2, unit="degF"),
        fact("Munich", "temperature", 17.8, unit="degC"),
    ]
    words = Lexicon.from_json(
        {"comparisons": {"colder than": {"attribute": "temperature", "holds": "<"}}}
    )
    assert kinds("New York is colder than Munich.", facts, words) == []
    assert kinds("Munich is colder than New York.", facts, words) == [
        ("relation_mismatch", "colder than")
    ]


def test_a_threshold_counts_the_attributes_that_reach_the_bound() -> None:
    facts = [fact("Gordon", "PTS", 10), fact("Gordon", "REB", 12), fact("Gordon", "AST", 1)]
    words = Lexicon.from_json(
        {
            "thresholds": {
                "double-double": {"attributes": ["PTS", "REB", "AST"], "at_least": 10, "count": 2},
                "triple-double": {"attributes": ["PTS", "REB", "AST"], "at_least": 10, "count": 3},
            }
        }
    )
    assert kinds("Gordon recorded a double-double.", facts, words) == []
    assert kinds("Gordon recorded a triple-double.", facts, words) == [
        ("relation_mismatch", "triple-double")
    ]
    assert kinds("Gordon fell just short of a triple-double.", facts, words) == []
    # the ordinal that counts it is stated with it, and wrong with it
    assert kinds("Gordon was busy. It was his second triple-double in a row.", facts, words) == [
        ("relation_mismatch", "second triple-double")
    ]


def test_a_threshold_declared_exactly_is_wrong_when_more_reach_the_bound() -> None:
    # three stats in double digits make a triple-double: "a double-double" understates it
    facts = [fact("Gordon", "PTS", 24), fact("Gordon", "REB", 12), fact("Gordon", "AST", 11)]
    spec = {"attributes": ["PTS", "REB", "AST"], "at_least": 10, "count": 2}
    exact = Lexicon.from_json({"thresholds": {"double-double": {**spec, "exactly": True}}})
    at_least = Lexicon.from_json({"thresholds": {"double-double": spec}})
    assert kinds("Gordon recorded a double-double.", facts, exact) == [
        ("relation_mismatch", "double-double")
    ]
    assert kinds("Gordon recorded a double-double.", facts, at_least) == []
    assert Lexicon.from_json(exact.to_json()) == exact
    with pytest.raises(InputError, match="exactly"):
        Lexicon.from_json({"thresholds": {"double-double": {**spec, "exactly": "yes"}}})


def test_a_threshold_after_a_team_object_is_the_players() -> None:
    # "X led the Hawks with a triple-double": the team is what X led, the line is X's
    facts = [
        fact("Gordon", "PTS", 24),
        fact("Gordon", "REB", 12),
        fact("Gordon", "AST", 4),
        fact("Hawks", "TEAM-PTS", 101),
    ]
    words = Lexicon.from_json(
        {
            "thresholds": {
                "triple-double": {"attributes": ["PTS", "REB", "AST"], "at_least": 10, "count": 3}
            }
        }
    )
    assert kinds("Gordon led the Hawks with a triple-double.", facts, words) == [
        ("relation_mismatch", "triple-double")
    ]


def test_a_comparison_at_some_part_holds_on_a_running_total_before_the_last() -> None:
    # the Hawks led after every quarter before the last: 30-20, 50-45, 70-65
    quarters = {"Hawks": (30, 20, 20, 26), "Suns": (20, 25, 20, 25)}
    facts = [
        fact(team, f"PTS_Q{i}", points)
        for team, line in quarters.items()
        for i, points in enumerate(line, 1)
    ]
    facts += [fact("Hawks", "PTS", 96), fact("Suns", "PTS", 90)]
    spec = {"attribute": "PTS", "holds": "<", "versus": "other", "at_some_part": True}
    words = Lexicon.from_json(
        {
            "comparisons": {"battled back": spec},
            "periods": {
                "in the first half": {"PTS": ["PTS_Q1", "PTS_Q2"]},
                "in the second half": {"PTS": ["PTS_Q3", "PTS_Q4"]},
            },
        }
    )
    assert kinds("The Hawks battled back in the second half.", facts, words) == [
        ("relation_mismatch", "battled back")
    ]
    assert kinds("The Suns battled back in the second half.", facts, words) == []
    assert Lexicon.from_json(words.to_json()) == words
    with pytest.raises(InputError, match="at_some_part"):
        Lexicon.from_json({"comparisons": {"battled back": {**spec, "at_some_part": 1}}})


def test_a_comparison_and_overall_must_hold_over_the_whole_too() -> None:
    # the Suns won the fourth quarter 30-26 and lost the game 90-96
    facts = [
        fact("Hawks", "PTS_Q4", 26),
        fact("Suns", "PTS_Q4", 30),
        fact("Hawks", "PTS", 96),
        fact("Suns", "PTS", 90),
    ]
    spec = {"attribute": "PTS", "holds": ">", "versus": "other"}
    periods = {"in the fourth quarter": {"PTS": ["PTS_Q4"]}}
    plain = Lexicon.from_json({"comparisons": {"pulled away": spec}, "periods": periods})
    overall = Lexicon.from_json(
        {"comparisons": {"pulled away": {**spec, "and_overall": True}}, "periods": periods}
    )
    text = "The Suns pulled away in the fourth quarter."
    assert kinds(text, facts, plain) == []
    assert kinds(text, facts, overall) == [("relation_mismatch", "pulled away")]
    assert Lexicon.from_json(overall.to_json()) == overall
    with pytest.raises(InputError, match="and_overall"):
        Lexicon.from_json({"comparisons": {"pulled away": {**spec, "and_overall": "yes"}}})


def test_a_relation_whose_operand_is_not_grounded_is_ungrounded_claim() -> None:
    stale = fact("Weaving", "fee_eur", 0, unit="EUR", observed_at="2026-01-01T00:00:00Z", ttl=60)
    gated = partition([*COURSES, stale], Policy(), NOW)
    words = Lexicon.from_json(
        {**COURSE_WORDS.to_json(), "subjects": {"Weaving": ["the weaving class"]}}
    )
    found = [
        (str(f.kind), f.text) for f in scan("The weaving class is free.", gated, words).findings
    ]
    assert found == [("ungrounded_claim", "free")]


def test_a_relation_for_a_subject_of_the_same_kind_without_the_fact_is_ungrounded() -> None:
    # Weaving is a course (it has a date) with no fee fact: "free" is vouched by nothing.
    facts = [*COURSES, fact("Weaving", "date", "2026-12-11")]
    words = Lexicon.from_json(
        {**COURSE_WORDS.to_json(), "subjects": {"Weaving": ["the weaving class"]}}
    )
    assert kinds("The weaving class is free.", facts, words) == [("ungrounded_claim", "free")]


def test_a_relation_about_another_kind_of_subject_is_left_alone() -> None:
    # A room shares no attribute with the courses: "free" is not a statement of a fee.
    facts = [*COURSES, fact("Studio 4", "capacity", 12)]
    words = Lexicon.from_json({**COURSE_WORDS.to_json(), "subjects": {"Studio 4": ["the studio"]}})
    assert kinds("The studio is free on Mondays.", facts, words) == []


# -- the lexicon sections -------------------------------------------------------------


def test_the_new_sections_round_trip_through_json() -> None:
    assert Lexicon.from_json(COURSE_WORDS.to_json()) == COURSE_WORDS
    assert COURSE_WORDS.words["format"]["on site"] == "in person"
    assert "values" in COURSE_WORDS.to_json()


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ({"comparisons": {"colder than": {"attribute": "t", "holds": "<<"}}}, "holds"),
        ({"comparisons": {"colder than": ["t"]}}, "comparisons.colder than"),
        ({"superlatives": {"the coldest": {"attribute": "t", "rank": "top"}}}, "rank"),
        ({"thresholds": {"hot": {"attributes": ["t"], "count": 1}}}, "thresholds.hot"),
        ({"thresholds": {"hot": {"attributes": ["t"], "at_least": 1, "count": 2}}}, "count"),
        ({"values": {"format": {"online": None}}}, "values.format"),
        ({"superlatives": {"x": {"rank": "max", "colour": 1}}}, "colour"),
        ({"superlatives": {"x": {"rank": "max", "among": {"STARTER": 1}}}}, "among"),
        ({"thresholds": {"x": {"attributes": ["t"], "at_most": 0, "unit": 3}}}, "unit"),
        ({"thresholds": {"x": {"attributes": ["t"], "at_least": 3, "at_most": 2}}}, "thresholds.x"),
    ],
)
def test_a_wrong_relation_section_names_its_field(section: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        Lexicon.from_json(section)
    assert field in str(caught.value)


def test_a_lexicon_without_word_sections_compiles_no_word_matcher() -> None:
    numbers_only = [fact("Berlin", "temperature", 4, unit="degC")]
    scanner = Scanner(numbers_only, Lexicon.from_json({"attributes": {"temperature": ["temp"]}}))
    assert scanner._compiled.matchers.words is None


@given(st.text(max_size=300))
def test_scanning_words_never_raises_and_spans_are_the_text(text: str) -> None:
    report = scan(text, COURSES + BOX_SCORE, COURSE_WORDS)
    assert all(text[f.start : f.end] == f.text for f in report.findings)


@given(
    st.lists(
        st.sampled_from(
            [
                "The pottery class meets on Thursday.",
                "The Rust course is held in person.",
                "The Rust course is cheaper than the pottery class.",
                "The pottery class is the most expensive.",
                "It is on Friday.",
                "The Rust course is online.",
            ]
        ),
        max_size=6,
    )
)
def test_streamed_word_findings_equal_one_scan(sentences: list[str]) -> None:
    text = " ".join(sentences)
    stream = Scanner(COURSES, COURSE_WORDS).stream()
    for piece in (text[i : i + 7] for i in range(0, len(text), 7)):
        stream.feed(piece)
    assert stream.close().findings == scan(text, COURSES, COURSE_WORDS).findings
