"""``vouched prompt QUESTION (--facts FACTS.json | --config SERVE.toml [--query JSON])
[--now ISO8601] [--policy FILE] [--json]``: what the model would be sent for a question,
without sending it.

The facts come from a file, or from the sources a ``vouched serve`` config names, asked
with ``--query`` as an answer would ask them (each behind its breaker and deadline).
They are gated first, as an answer gates them: only grounded facts and silences reach
the prompt (a violation never does). Text output shows each chat message under its
role; ``--json`` prints ``{"version", "messages", "counts"}``.
"""

from __future__ import annotations

import argparse
import asyncio
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
from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._factio import load_facts
from vouched._files import parse_json
from vouched._gate import partition
from vouched._policy import Policy
from vouched._sources._source import gather

__all__ = ["register"]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "prompt",
        help="print what the model would be sent for a question and facts",
        description="Gate the facts and print the phrase-only prompt a model would be sent "
        "(nothing is sent). Exit 0; 2: bad input.",
    )
    parser.add_argument("question", metavar="QUESTION", help="the user's question")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument(
        "--facts", help="facts: a JSON array, one object, or JSON Lines (- for stdin)"
    )
    given.add_argument(
        "--config",
        metavar="SERVE.toml",
        help="ask the sources this vouched serve config names (its policy too)",
    )
    parser.add_argument(
        "--query",
        metavar="JSON",
        help='with --config: the query sent to every source, such as \'{"subject": "Berlin"}\'',
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
    if args.query is not None and args.config is None:
        raise InputError("is given without --config: there are no sources to ask", field="--query")
    if args.config is None:
        policy = load_policy(args.policy, max_bytes=args.max_input_bytes)
        facts = load_facts(args.facts, max_bytes=args.max_input_bytes)
    else:
        policy, facts = _from_sources(args)
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


def _from_sources(args: argparse.Namespace) -> tuple[Policy, list[Fact]]:
    """The config's policy (``--policy`` wins) and what its sources say for the query."""
    from vouched._server import _config  # noqa: PLC0415 - only when asked; no server extra

    query = parse_json(args.query or "{}", file="--query")
    if not isinstance(query, dict):
        raise InputError('expected a JSON object, such as {"subject": "Berlin"}', field="--query")
    config = _config.load_config(args.config)
    policy = config.policy if args.policy is None else load_policy(args.policy)
    facts = asyncio.run(gather(config.sources, query, deadline=config.deadline))
    return policy, list(facts)
