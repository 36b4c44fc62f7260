"""The ``vouched`` command line: a thin layer over the library.

Exit status everywhere: 0 all good; 1 the input was processed and something
failed; 2 usage or unreadable input (one line on stderr, no traceback).
Each subcommand lives in its own module with ``register(subparsers)``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vouched._cli._common import CliParser

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
    # Imported here so `import vouched` (and `vouched --version`) never pays for the CLI.
    from vouched._cli import (  # noqa: PLC0415
        _demo,
        _gate,
        _prompt,
        _replay,
        _review,
        _scan,
        _serve,
        _sources,
        _verify,
    )
    from vouched._cli._common import CliParser  # noqa: PLC0415

    parser = CliParser(
        prog="vouched",
        description="Only vouched facts reach the model; everything else is typed silence.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=version_line())
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=CliParser
    )
    for module in (_gate, _scan, _prompt, _verify, _replay, _sources, _serve, _review, _demo):
        module.register(commands)
    for command in commands.choices.values():
        command.add_argument(
            "--debug", action="store_true", help="on an unexpected error, print the traceback"
        )
    parser.set_defaults(command_names=tuple(commands.choices))
    parser.commands = commands
    return parser


def _version() -> str:
    # The package's own constant, not importlib.metadata (which costs more than the rest
    # of `vouched --version` together); tests/test_public_api.py holds it to the
    # installed distribution's version.
    import vouched  # noqa: PLC0415

    return vouched.__version__


def _scanner_build() -> str:
    """Which scanner runs: the compiled modules found beside the pure ones (an
    extension module wins the import over the .py of the same name), counted on disk
    so that nothing of the scanner is imported to say it."""
    import importlib.machinery  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    import vouched  # noqa: PLC0415

    scanner = Path(vouched.__file__).parent / "_scan"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = sum(1 for path in scanner.rglob("*") if path.name.endswith(suffixes))
    if compiled == 0:
        return "scanner: pure Python"
    total = sum(1 for _ in scanner.rglob("*.py"))
    return f"scanner: compiled (mypyc, {compiled} of {total} modules)"


def version_line() -> str:
    """``vouched 0.1.0 (scanner: pure Python)``: what ``vouched --version`` prints."""
    return f"vouched {_version()} ({_scanner_build()})"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (the console script exits with it)."""
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        # Said without building the parser, which imports every command's module.
        sys.stdout.write(version_line() + "\n")
        return 0
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
        parser.error(f"a COMMAND is required ({names})")  # error() adds the --help hint
    from vouched._cli._common import run_guarded  # noqa: PLC0415

    return run_guarded(handler, args)
