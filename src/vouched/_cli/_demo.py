"""``vouched demo``: the offline end-to-end demo.

Until the full answer path lands, the demo gates the example facts that ship
with the package, at a fixed instant, so it runs the same on every machine.
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from vouched._cli._common import EXIT_OK
from vouched._cli._gate import render_table
from vouched._factio import fact_from_json
from vouched._gate import partition
from vouched._jsonio import loads
from vouched._policy import Policy
from vouched._time import parse_instant

__all__ = ["register"]

DEMO_NOW = "2026-11-29T12:10:00Z"


def register(commands: Any) -> None:
    parser = commands.add_parser("demo", help="run the offline end-to-end demo")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    del args
    text = resources.files("vouched").joinpath("_data/demo_facts.json").read_text("utf-8")
    facts = [fact_from_json(item) for item in loads(text)]
    result = partition(facts, Policy(demoted=frozenset({"uv_index"})), parse_instant(DEMO_NOW))
    render_table(result, title=f"vouched demo: the gate at {DEMO_NOW}")
    return EXIT_OK
