"""``vouched prompt QUESTION --facts FACTS.json [--now ISO8601] [--policy FILE] [--json]``:
what the model would be sent for a question over gated facts, without sending it.

The facts are gated first, as an answer gates them: only grounded facts and silences
reach the prompt (a violation never does). Text output shows each chat message under
its role; ``--json`` prints ``{"version", "messages", "counts"}``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from vouched._answer._prompt import build_prompt
from vouched._cli._common import (
    EXIT_OK,
    add_input_limit,
    emit_json,
    load_policy,
    parse_now,
)
from vouched._factio import load_facts
from vouched._gate import partition

__all__ = ["register"]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "prompt",
        help="print what the model would be sent for a question and facts",
        description="Gate the facts and print the phrase-only prompt a model would be sent "
        "(nothing is sent). Exit 0; 2: bad input.",
    )
    parser.add_argument("question", metavar="QUESTION", help="the user's question")
    parser.add_argument(
        "--facts",
        required=True,
        help="facts: a JSON array, one object, or JSON Lines (- for stdin)",
    )
    parser.add_argument("--now", help="gate freshness at this ISO 8601 instant (default: now)")
    parser.add_argument(
        "--policy", metavar="FILE", help="a JSON file of policy settings (default: the defaults)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the messages as JSON instead of text"
    )
    add_input_limit(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    now = parse_now(args.now)
    policy = load_policy(args.policy, max_bytes=args.max_input_bytes)
    facts = load_facts(args.facts, max_bytes=args.max_input_bytes)
    gated = partition(facts, policy, now)
    prompt = build_prompt(args.question, gated.grounded, gated.silent)
    messages = prompt.messages()
    if args.json:
        emit_json({"version": prompt.version, "messages": messages, "counts": gated.counts})
        return EXIT_OK
    out = sys.stdout
    for message in messages:
        out.write(f"--- {message['role']} ---\n{message['content']}\n")
    counts = gated.counts
    out.write(
        f"--- prompt {prompt.version}: {counts['grounded']} grounded, {counts['silent']} "
        f"silent; {counts['violation']} violations left out ---\n"
    )
    return EXIT_OK
