"""Shared loaders for the scanner's tests: worlds (facts, lexicon, sources, now) and cases.

A world's lexicon may use every section the scanner reads, ``pairs``, ``values``
and ``countable`` included, or name a shipped lexicon to start from:
``{"shipped": "basketball", "subjects": {...}}`` (the sports worlds: the lexicon a user
loads with ``Lexicon.load("basketball")`` plus the game's aliases).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from vouched import Fact, GateResult, Lexicon, Policy, partition
from vouched._jsonio import loads
from vouched._time import parse_instant

HERE = Path(__file__).parent
WORLDS = HERE / "worlds"
CASES = HERE / "cases"


@dataclass(frozen=True)
class World:
    name: str
    gated: GateResult
    lexicon: Lexicon
    sources: tuple[str, ...]
    policy: Policy
    facts: tuple[Fact, ...]


@cache
def world(name: str) -> World:
    data: dict[str, Any] = loads((WORLDS / f"{name}.json").read_text(encoding="utf-8"))
    policy = Policy.from_json(data.get("policy", {}))
    facts = tuple(Fact.model_validate(item) for item in data["facts"])
    gated = partition(facts, policy, parse_instant(data["now"]))
    return World(
        name,
        gated,
        _lexicon(data.get("lexicon", {})),
        tuple(data.get("sources", ())),
        policy,
        facts,
    )


def _lexicon(section: dict[str, Any]) -> Lexicon:
    name = section.get("shipped")
    if name is None:
        return Lexicon.from_json(section)
    rest = {k: v for k, v in section.items() if k != "shipped"}
    return Lexicon.from_json({**Lexicon.shipped(name).to_json(), **rest})


@dataclass(frozen=True)
class Case:
    file: str
    world: str
    name: str
    pins: str
    text: str
    question: str | None
    findings: tuple[tuple[str, str], ...]
    lexicon: bool
    xfail: str | None = None  # what the scanner reads today, where the case waits for more

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CASES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        default_world = data.get("world", path.stem)
        for item in data["case"]:
            cases.append(
                Case(
                    file=path.stem,
                    world=item.get("world", default_world),
                    name=item["name"],
                    pins=item["pins"],
                    text=item["text"],
                    question=item.get("question"),
                    findings=tuple((kind, text) for kind, text in item.get("findings", [])),
                    lexicon=item.get("lexicon", True),
                    xfail=item.get("xfail"),
                )
            )
    return cases
