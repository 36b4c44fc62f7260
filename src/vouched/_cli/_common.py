"""What every subcommand shares: exit codes, one-line errors, safe output files."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import IO, Any, NoReturn

from vouched._exceptions import InputError, VouchedError
from vouched._files import read_text
from vouched._jsonio import dumps
from vouched._time import SystemClock, parse_instant

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "CliParser",
    "atomic_output",
    "check_output_path",
    "console",
    "emit_json",
    "parse_now",
    "read_input",
    "run_guarded",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class CliParser(argparse.ArgumentParser):
    """argparse with one-line usage errors (the command's usage on the same
    line) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split()).removeprefix("usage: ")
        sys.stderr.write(
            f"{self.prog}: error: {' '.join(message.split())} "
            f"(usage: {usage}; see '{self.prog} --help')\n"
        )
        raise SystemExit(EXIT_USAGE)

    commands: Any = None  # the subparsers action, set by the top-level parser

    def subcommand(self, name: str) -> CliParser:
        """The parser of one subcommand."""
        found: CliParser = self.commands.choices[name]
        return found


def parse_now(text: str | None) -> datetime:
    """``--now`` as an aware UTC instant; the system clock when absent."""
    if text is None:
        return SystemClock().now()
    try:
        return parse_instant(text)
    except ValueError as error:
        raise InputError(str(error), field="--now") from None


def read_input(path: str) -> str:
    """A whole text file, or standard input for ``-``; errors name the file."""
    if path != "-":
        return read_text(path)
    try:
        return sys.stdin.read()
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file="<stdin>") from None


def console() -> Any:
    """The rich Console a command prints its table on (rich loaded on use).

    A reader that goes away (``| head``) silences the rest of the output and
    the command goes on to its real exit status, as JSON output does, instead
    of rich's own ``SystemExit(1)``, which reads as "something failed"."""
    from rich.console import Console  # noqa: PLC0415 - the CLI's renderer, loaded on use

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            silence_stdout()

    return _Console()


def silence_stdout() -> None:
    """The reader of our output went away (``| head``): send the rest nowhere.

    The command carries on, so its exit status still says what it found
    (``set -o pipefail`` in a CI job must still see a violation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def emit_json(document: Any, stream: IO[str] | None = None) -> None:
    out = stream or sys.stdout
    try:
        out.write(dumps(document))
        out.write("\n")
        out.flush()
    except BrokenPipeError:
        silence_stdout()


def run_guarded(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a subcommand; input errors become one line on stderr and exit 2."""
    try:
        return handler(args)
    except InputError as error:
        sys.stderr.write(f"vouched {args.command}: {error}\n")
        return EXIT_USAGE
    except VouchedError as error:
        sys.stderr.write(f"vouched {args.command}: {' '.join(str(error).split())}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write(f"vouched {args.command}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away somewhere output is not guarded: no traceback,
        # and since the result is unknown, do not claim success.
        silence_stdout()
        return EXIT_FAILED


def _temp_beside(target: Path, field: str | None) -> tuple[int, str]:
    """A new temporary file in the target's directory, or an InputError naming it."""
    if target.is_dir():
        raise InputError("is a directory, not a file", file=str(target), field=field)
    if not target.parent.is_dir():
        raise InputError("directory does not exist", file=str(target), field=field)
    try:
        return tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(f"cannot write: {reason}", file=str(target), field=field) from None


def check_output_path(path: str | Path, *, field: str | None = None) -> None:
    """Fail before any work when ``path`` cannot be written (a missing or
    read-only directory, a directory in its place): probes with a temporary file."""
    fd, temp = _temp_beside(Path(path), field)
    os.close(fd)
    Path(temp).unlink()


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def atomic_output(
    path: str | Path, mode: str = "wb", *, field: str | None = None
) -> Iterator[IO[Any]]:
    """Write a file completely or not at all (no partial output left behind).

    The file gets the permissions a plain ``open`` would give it (the umask's),
    not the private ones of a temporary file. Errors are InputErrors naming
    the path (and ``field``, the option that gave it).
    """
    target = Path(path)
    fd, temp = _temp_beside(target, field)
    try:
        os.fchmod(fd, _umask_mode())
        with os.fdopen(fd, mode) as handle:
            yield handle
        Path(temp).replace(target)
    except OSError as error:
        Path(temp).unlink(missing_ok=True)
        reason = error.strerror or type(error).__name__
        raise InputError(f"cannot write: {reason}", file=str(target), field=field) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
