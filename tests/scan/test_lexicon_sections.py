"""Lexicon sections of the wrong type are refused, naming the section (issue 22);
phrase matching without a regular expression still finds every mention."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vouched import InputError, Lexicon
from vouched._cli import main
from vouched._scan._lex._phrases import build_phrase_matcher, phrase_matcher

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

WRONG = [
    ("attributes", [], "must be an object of attribute -> list of phrases, got an array"),
    ("attributes", "", "must be an object of attribute -> list of phrases, got a string"),
    ("subjects", 0, "must be an object of subject -> list of aliases, got a number"),
    ("internal", {"humidity": "humidity"}, "must be a list of strings, got an object"),
    ("pairs", False, "must be a list of objects, got a boolean"),
    ("values", [], "got an array"),
    ("countable", {"steals": 1}, "must be a list of attribute names, got an object"),
    ("comparisons", [], "got an array"),
    ("superlatives", "", "got a string"),
    ("thresholds", 0, "got a number"),
]


@pytest.mark.parametrize(("section", "value", "message"), WRONG)
def test_a_wrongly_typed_section_is_an_error_naming_it(
    section: str, value: object, message: str
) -> None:
    with pytest.raises(InputError) as error:
        Lexicon.from_json({section: value})
    assert str(error.value).startswith(f"{section}: must be")
    assert message in str(error.value)


@pytest.mark.parametrize("section", ["attributes", "internal", "pairs", "comparisons"])
def test_null_means_the_section_is_absent(section: str) -> None:
    assert Lexicon.from_json({section: None}) == Lexicon()


def test_scan_exits_2_on_a_wrongly_typed_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative name: the line is compared whole
    lexicon = Path("lexicon.json")
    lexicon.write_text(json.dumps({"attributes": []}), encoding="utf-8")
    answer = Path("answer.txt")
    answer.write_text("The temperature in Berlin is 21.4 °C.", encoding="utf-8")
    argv = ["scan", "--facts", str(EXAMPLES / "facts.json"), "--lexicon", str(lexicon)]
    status = main([*argv, "--now", "2026-11-29T12:05:00Z", str(answer)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == (
        f"vouched scan: {lexicon}: attributes: must be an object of attribute -> "
        "list of phrases, got an array\n"
    )


def test_a_phrase_is_found_where_lowering_changes_the_length() -> None:
    matcher = phrase_matcher((("istanbul", "Istanbul"), ("the port", "Istanbul")))
    text = "İzmir and ISTANBUL: the port of İstanbul."
    found = [(text[start:end], names) for start, end, names in matcher.find(text)]
    assert found == [
        ("ISTANBUL", ("Istanbul",)),
        ("the port", ("Istanbul",)),
        ("İstanbul", ("Istanbul",)),
    ]


def test_a_phrase_shared_by_two_names_maps_to_both_in_order() -> None:
    matcher = build_phrase_matcher(iter([("the capital", "Paris"), ("The Capital", "Berlin")]))
    assert matcher.find("In the capital it rains.") == [(3, 14, ("Berlin", "Paris"))]


@pytest.mark.parametrize("place", [0, -1, 1.5, "2", True])
def test_a_superlative_place_must_be_a_whole_number_from_one(place: object) -> None:
    spec = {"second on the team": {"rank": "max", "attribute": "PTS", "place": place}}
    with pytest.raises(InputError) as error:
        Lexicon.from_json({"superlatives": spec})
    assert "place" in str(error.value)


def test_a_superlative_place_round_trips_through_json() -> None:
    spec = {"second on the team": {"rank": "max", "attribute": "PTS", "place": 2}}
    lexicon = Lexicon.from_json({"superlatives": spec})
    assert lexicon.to_json()["superlatives"] == spec
    assert Lexicon.from_json(lexicon.to_json()) == lexicon


def test_a_counted_count_round_trips_and_excludes_others() -> None:
    spec = {"players in": {"within": ["TEAM"], "counted": True}}
    lexicon = Lexicon.from_json({"counts": spec})
    assert lexicon.to_json()["counts"] == spec
    with pytest.raises(InputError) as error:
        Lexicon.from_json(
            {"counts": {"players": {"within": ["TEAM"], "counted": True, "others": 0}}}
        )
    assert "exactly one of others, every and counted" in str(error.value)
