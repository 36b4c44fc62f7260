"""The lexicons vouched ships load by name, and a path always wins over a name."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from vouched import InputError, Lexicon
from vouched._cli._common import load_lexicon
from vouched._scan._facts._lexicon import shipped_lexicons


def test_shipped_lexicons_are_listed_by_name() -> None:
    assert {"basketball", "weather"} <= set(shipped_lexicons())


@pytest.mark.parametrize("name", shipped_lexicons())
def test_every_shipped_lexicon_loads_and_round_trips(name: str) -> None:
    lexicon = Lexicon.shipped(name)
    assert lexicon.attributes
    assert Lexicon.from_json(lexicon.to_json()) == lexicon


def test_load_takes_a_bare_shipped_name() -> None:
    assert Lexicon.load("weather") == Lexicon.shipped("weather")


def test_a_file_of_the_same_name_wins_over_the_shipped_lexicon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "weather").write_text(json.dumps({"attributes": {"gust": ["gusts"]}}))
    monkeypatch.chdir(tmp_path)
    assert dict(Lexicon.load("weather").attributes) == {"gust": ("gusts",)}


def test_an_unknown_shipped_name_lists_the_names_there_are() -> None:
    with pytest.raises(InputError, match="weather"):
        Lexicon.shipped("cricket")


@pytest.mark.parametrize("load", [Lexicon.load, load_lexicon])
def test_a_mistyped_bare_name_lists_the_shipped_names(
    load: Callable[[str], object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no file named 'wether' here
    with pytest.raises(InputError, match=r"no file 'wether' .*there are: .*weather"):
        load("wether")


def test_a_missing_file_named_as_a_path_stays_a_file_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="no such file"):
        load_lexicon("wether.json")


def test_the_cli_takes_a_shipped_lexicon_by_name() -> None:
    assert load_lexicon("basketball") == Lexicon.shipped("basketball")
    assert Lexicon.shipped_names() == shipped_lexicons()


def test_with_subjects_adds_a_games_aliases_and_keeps_the_sports_words() -> None:
    lexicon = Lexicon.shipped("football").with_subjects({"P. Lindqvist": ["Lindqvist"]})
    assert lexicon.subjects["P. Lindqvist"] == ("Lindqvist",)
    assert lexicon.attributes == Lexicon.shipped("football").attributes
