"""A football match body (API-Football's fixture with events) read into facts."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from adapterkit import fixture_json

from vouched import Fact, Lexicon, MalformedPayloadError, scan
from vouched_adapters.football import match_facts, match_subjects

BODY = fixture_json("football_match.json")
KICKOFF = datetime(2026, 3, 14, 15, 0, tzinfo=UTC)


def _values(facts: list[Fact], subject: str, attribute: str) -> list[object]:
    return [f.value for f in facts if f.subject == subject and f.attribute == attribute]


@pytest.fixture(scope="module")
def facts() -> list[Fact]:
    return match_facts(BODY)


def test_the_score_and_the_half_time_score_are_each_teams_goals(facts: list[Fact]) -> None:
    assert _values(facts, "Harbour Town", "goals") == [3]
    assert _values(facts, "Harbour Town", "goals_1h") == [1]
    assert _values(facts, "Harbour Town", "goals_2h") == [2]
    assert _values(facts, "Millbrook Rovers", "goals_conceded") == [3]


def test_the_result_is_a_word_for_each_team(facts: list[Fact]) -> None:
    assert _values(facts, "Harbour Town", "result") == ["win"]
    assert _values(facts, "Millbrook Rovers", "result") == ["loss"]
    assert _values(facts, "Millbrook Rovers", "home") == [False]


def test_in_a_substitution_the_player_leaves_and_the_assist_comes_on(facts: list[Fact]) -> None:
    assert _values(facts, "D. Reyes", "subbed_off_minute") == [46]
    assert _values(facts, "M. Castell", "subbed_on_minute") == [46]
    assert _values(facts, "Harbour Town", "goal_minute") == [27, 58, 90, 93]
    assert _values(facts, "Harbour Town", "substitutions") == [1]


def test_a_teams_changes_keep_their_minutes_apart_from_its_goals(facts: list[Fact]) -> None:
    assert _values(facts, "Harbour Town", "substitution_minute") == [46]
    assert _values(facts, "Millbrook Rovers", "substitution_minute") == [64]
    assert 46 not in _values(facts, "Harbour Town", "goal_minute")


def test_an_own_goal_counts_for_the_other_team_and_its_scorer_keeps_his_team(
    facts: list[Fact],
) -> None:
    assert _values(facts, "S. Varga", "team") == ["Millbrook Rovers"]
    assert _values(facts, "S. Varga", "own_goals") == [1]
    assert _values(facts, "S. Varga", "goals") == [0]
    assert _values(facts, "Millbrook Rovers", "own_goals") == [1]


def test_a_penalty_is_a_goal_and_a_missed_one_is_not(facts: list[Fact]) -> None:
    assert _values(facts, "P. Lindqvist", "goals") == [2]
    assert _values(facts, "P. Lindqvist", "penalty_goals") == [1]
    assert _values(facts, "P. Lindqvist", "missed_penalties") == [1]


def test_a_goal_in_added_time_keeps_both_minutes_a_reader_writes(facts: list[Fact]) -> None:
    assert _values(facts, "P. Lindqvist", "goal_minute") == [58, 90, 93]
    assert _values(facts, "P. Lindqvist", "goal_added_minutes") == [3]
    assert {f.unit for f in facts if f.attribute == "goal_minute"} == {"min"}


def test_cards_are_counted_per_player_and_per_team(facts: list[Fact]) -> None:
    assert _values(facts, "L. Brandt", "yellow_cards") == [1]
    assert _values(facts, "Millbrook Rovers", "red_cards") == [1]
    assert _values(facts, "Harbour Town", "yellow_cards") == [0]


def test_statistics_are_read_when_the_body_has_them(facts: list[Fact]) -> None:
    assert _values(facts, "Harbour Town", "possession") == [58]
    assert _values(facts, "Millbrook Rovers", "shots_on_target") == [3]
    assert _values(facts, "Millbrook Rovers", "corners") == []  # null is no fact


def test_a_var_event_makes_no_goal(facts: list[Fact]) -> None:
    assert _values(facts, "M. Castell", "goals") == [0]


def test_facts_are_observed_at_kick_off(facts: list[Fact]) -> None:
    assert {f.observed_at for f in facts} == {KICKOFF}


def test_a_player_is_also_his_surname_unless_two_share_it() -> None:
    subjects = match_subjects(BODY)
    assert subjects["P. Lindqvist"] == ["Lindqvist"]
    other = {
        **BODY,
        "events": [*BODY["events"], {**BODY["events"][0], "player": {"name": "K. Okafor"}}],
    }
    assert match_subjects(other)["T. Okafor"] == []


def test_a_body_without_teams_is_malformed() -> None:
    with pytest.raises(MalformedPayloadError, match="teams"):
        match_facts({"fixture": {"timestamp": 1}})


def test_a_possession_with_decimals_keeps_them() -> None:
    stats = [
        {
            "team": {"name": "Harbour Town"},
            "statistics": [{"type": "Ball Possession", "value": "57.5%"}],
        }
    ]
    facts = match_facts({**BODY, "statistics": stats})
    assert _values(facts, "Harbour Town", "possession") == [Decimal("57.5")]


def test_a_report_of_the_match_passes_with_the_football_lexicon(facts: list[Fact]) -> None:
    lexicon = Lexicon.from_json(
        {**Lexicon.shipped("football").to_json(), "subjects": match_subjects(BODY)}
    )
    report = scan(
        "Harbour Town beat Millbrook Rovers 3-1 at Quayside Park. It was 1-1 at half-time. "
        "Lindqvist scored twice, once from the penalty spot in the 58th minute.",
        facts,
        lexicon,
        now=KICKOFF,
    )
    assert report.passed, report.findings


def test_the_match_counts_both_teams_cards_and_changes_together(facts: list[Fact]) -> None:
    match = "Harbour Town v Millbrook Rovers"
    assert _values(facts, match, "match_yellow_cards") == [1]
    assert _values(facts, match, "match_red_cards") == [1]
    assert _values(facts, match, "match_substitutions") == [2]


def test_who_came_on_and_who_went_off_are_facts_of_their_own(facts: list[Fact]) -> None:
    assert _values(facts, "M. Castell", "came_on") == [True]
    assert _values(facts, "M. Castell", "went_off") == [False]
    assert _values(facts, "D. Reyes", "came_on") == [False]
    assert _values(facts, "D. Reyes", "went_off") == [True]
    assert _values(facts, "P. Lindqvist", "came_on") == [False]


def test_the_running_score_says_who_led_and_who_drew_level(facts: list[Fact]) -> None:
    # 0-1 (Okafor), 1-1 (an own goal for Harbour Town), 2-1, 3-1
    assert _values(facts, "Millbrook Rovers", "led") == [True]
    assert _values(facts, "Harbour Town", "led") == [True]
    assert _values(facts, "Harbour Town", "equalized") == [True]
    assert _values(facts, "Millbrook Rovers", "equalized") == [False]
    assert _values(facts, "S. Varga", "equalized") == [False]  # his own goal levelled it


def test_the_winner_is_the_goal_that_put_the_winners_ahead_for_good(facts: list[Fact]) -> None:
    assert _values(facts, "P. Lindqvist", "scored_winner") == [True]  # 2-1, the 58th minute
    assert _values(facts, "T. Okafor", "scored_winner") == [False]


def test_events_out_of_order_are_read_by_their_minutes() -> None:
    events = list(reversed(BODY["events"]))
    facts = match_facts({**BODY, "events": events})
    assert _values(facts, "Harbour Town", "equalized") == [True]
    assert _values(facts, "P. Lindqvist", "scored_winner") == [True]


def test_a_team_always_behind_never_led_and_a_draw_has_no_winner() -> None:
    late = [e for e in BODY["events"] if e["time"]["elapsed"] != 12]  # no Okafor goal
    facts = match_facts({**BODY, "events": late, "goals": {"home": 3, "away": 0}})
    assert _values(facts, "Millbrook Rovers", "led") == [False]
    assert _values(facts, "Harbour Town", "equalized") == [False]
    drawn = [e for e in BODY["events"] if e["time"]["elapsed"] not in (58, 90)]
    facts = match_facts({**BODY, "events": drawn, "goals": {"home": 1, "away": 1}})
    assert _values(facts, "P. Lindqvist", "scored_winner") == [False]
    assert _values(facts, "T. Okafor", "scored_winner") == [False]


def test_goals_that_do_not_add_up_to_the_score_tell_no_course() -> None:
    facts = match_facts({**BODY, "goals": {"home": 4, "away": 1}})  # a goal left out
    assert _values(facts, "Harbour Town", "led") == []
    assert _values(facts, "P. Lindqvist", "scored_winner") == []
    assert _values(facts, "M. Castell", "came_on") == [True]
