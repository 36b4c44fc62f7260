"""The lexicons vouched ships load by name, and a path always wins over a name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vouched import InputError, Lexicon
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
