"""The ``vouched`` command line: a thin layer over the library.

Exit status everywhere: 0 all good; 1 the input was processed and something
failed; 2 usage or unreadable input (one line on stderr, no traceback).
Each subcommand lives in its own module with ``register(subparsers)``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from vouched._cli._common import CliParser, run_guarded

__all__ = ["main"]

_EPILOG = """\
exit status (every command):
  0  all good
  1  the input was processed and something failed
     (a violation, a finding, an unverified claim, a regression)
  2  usage error or unreadable input: one line on stderr naming the
     file, line and field

Run 'vouched COMMAND --help' for a command's arguments."""


def _build_parser() -> CliParser:
    # Imported here so `import vouched` never pays for the CLI.
    from vouched._cli import (  # noqa: PLC0415
        _demo,
        _gate,
        _replay,
        _review,
        _scan,
        _serve,
        _sources,
        _verify,
    )

    parser = CliParser(
        prog="vouched",
        description="Only vouched facts reach the model; everything else is typed silence.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"vouched {_version()}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=CliParser
    )
    for module in (_gate, _scan, _verify, _replay, _sources, _serve, _review, _demo):
        module.register(commands)
    for command in commands.choices.values():
        command.add_argument(
            "--debug", action="store_true", help="on an unexpected error, print the traceback"
        )
    parser.set_defaults(command_names=tuple(commands.choices))
    parser.commands = commands
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("vouched")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (the console script exits with it)."""
    parser = _build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Said by the command that was given, with its usage, not by the top level.
        command = getattr(args, "command", None)
        owner = parser if command is None else parser.subcommand(command)
        owner.error(f"unrecognized arguments: {' '.join(unknown)}")  # error() cuts it
    handler = getattr(args, "handler", None)
    if handler is None:
        names = ", ".join(args.command_names)
        parser.error(f"a COMMAND is required ({names}); see 'vouched --help'")
    return run_guarded(handler, args)
