"""Names a reader takes for a group or a value, not for the subject of a number (issue 37):
a player's team after his points, a train's destination after the train, and a catalog's
numbers written as text."""

from __future__ import annotations

from typing import Any

from vouched import Fact, scan

AT = "2026-12-06T12:00:00Z"


def _facts(rows: list[tuple[str, str, Any]], unit: dict[str, str] | None = None) -> list[Fact]:
    units = unit or {}
    return [Fact(subject=s, attribute=a, value=v, unit=units.get(a), source="s", observed_at=AT)
            for s, a, v in rows]  # fmt: skip


BOX = _facts([
    ("Kevin Durant", "PTS", 28), ("Kevin Durant", "TEAM", "Suns"),
    ("Devin Booker", "PTS", 25), ("Devin Booker", "TEAM", "Suns"),
    ("Suns", "TEAM-PTS", 109),
])  # fmt: skip
POINTS = {"attributes": {"PTS": ["points"], "TEAM-PTS": ["points"]}}


def _found(text: str, facts: list[Fact], lexicon: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f.kind, f.text) for f in scan(text, facts, lexicon).findings]


def test_the_team_after_a_players_points_is_his_team_not_the_subject() -> None:
    assert _found("Kevin Durant had 28 points for the Suns.", BOX, POINTS) == []


def test_a_players_wrong_points_for_his_team_are_still_his() -> None:
    assert _found("Devin Booker had 28 points for the Suns.", BOX, POINTS) == [
        ("value_mismatch", "28")
    ]


def test_a_one_player_box_score_still_names_his_team_as_a_group() -> None:
    # a Grounder asking about one player gathers his line, his team and the score: his
    # team is held by him alone, but it is a subject of the facts, so it names his side
    one = _facts([("Nikola Jokic", "PTS", 31), ("Nikola Jokic", "TEAM", "Nuggets"),
                  ("Nuggets", "TEAM-PTS", 118)])  # fmt: skip
    assert _found("Nikola Jokic scored 31 points for the Nuggets.", one, POINTS) == []
    assert _found("Nikola Jokic scored 118 points for the Nuggets.", one, POINTS) == [
        ("value_mismatch", "118")
    ]


TRAINS = _facts(
    [("IC 2213", "destination", "Stralsund Hbf"), ("IC 2213", "delay_minutes", 8)],
    {"delay_minutes": "min"},
)
DELAY = {"attributes": {"delay_minutes": ["late", "delay"]}}


def test_a_destination_named_after_the_train_is_no_unknown_subject() -> None:
    assert _found("IC 2213 to Stralsund is running 18 minutes late.", TRAINS, DELAY) == [
        ("value_mismatch", "18 minutes")
    ]
    assert _found("IC 2213 to Stralsund is running 8 minutes late.", TRAINS, DELAY) == []


def test_a_catalog_number_written_as_text_meets_a_threshold() -> None:
    stock = _facts([("KB-204", "stock", "14"), ("MS-118", "stock", "0")])
    lexicon = {"thresholds": {"in stock": {"attributes": ["stock"], "at_least": 1, "count": 1}}}
    assert _found("The KB-204 is in stock.", stock, lexicon) == []
    assert _found("The MS-118 is in stock.", stock, lexicon) == [("relation_mismatch", "in stock")]


def test_an_opponent_named_after_a_value_is_the_subject_not_a_group() -> None:
    game = _facts([
        ("Magic", "TEAM-TOV", 13), ("Magic", "OPPONENT", "Hawks"),
        ("Hawks", "TEAM-TOV", 15), ("Hawks", "OPPONENT", "Magic"),
    ])  # fmt: skip
    lexicon = {"attributes": {"TEAM-TOV": ["turnovers"]}}
    assert _found("The Magic forced 15 turnovers from the Hawks.", game, lexicon) == []


def test_ft_after_a_count_is_free_throws_not_feet() -> None:
    box = _facts([("Gordon Hayward", "FTM", 1), ("Gordon Hayward", "FTA", 2)])
    lexicon = {"attributes": {"FTM": ["FT"]},
               "pairs": [{"attributes": ["FTM", "FTA"], "phrases": ["FT"]}]}  # fmt: skip
    assert _found("Gordon Hayward went 1 - 2 FT.", box, lexicon) == []
