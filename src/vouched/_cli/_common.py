"""What every subcommand shares: exit codes, one-line errors, safe output files."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Final, NoReturn

from vouched._exceptions import InputError, VouchedError, one_line, printable, shown, shown_list
from vouched._files import parse_json, read_text
from vouched._jsonio import dumps
from vouched._policy import Policy
from vouched._scan._facts._lexicon import Lexicon
from vouched._time import SystemClock, parse_instant

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "PIPE_WIDTH",
    "CliParser",
    "add_input_limit",
    "atomic_output",
    "byte_size",
    "cell",
    "check_output_path",
    "console",
    "emit_json",
    "lexicon_help",
    "load_lexicon",
    "parse_now",
    "read_input",
    "run_guarded",
    "silence_stdout",
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
            f"{self.prog}: error: {one_line(message)} (usage: {usage}; see '{self.prog} --help')\n"
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


def read_input(path: str, *, kind: str, max_bytes: int | None = None) -> str:
    """A whole text file, or standard input for ``-``, through the one input
    layer (regular files only, capped by ``kind``); errors name the file."""
    return read_text(path, kind=kind, max_bytes=max_bytes)


_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def byte_size(text: str) -> int:
    """``--max-input-bytes`` as bytes: a whole number, optionally with K, M or G."""
    cleaned = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = cleaned[-1:] if cleaned[-1:] in _UNITS else ""
    number = cleaned[: len(cleaned) - len(unit)]
    if not number.isdigit() or len(number) > 15:
        raise argparse.ArgumentTypeError(f"not a size in bytes (such as 200M): {shown(text)}")
    return int(number) * _UNITS[unit]


def add_input_limit(parser: argparse.ArgumentParser) -> None:
    """``--max-input-bytes``: raise (or lower) the size cap of every input file."""
    parser.add_argument(
        "--max-input-bytes",
        type=byte_size,
        metavar="SIZE",
        help="size cap for each input file, such as 200M (default: a cap for each kind of "
        "input, listed in the command-line reference, docs/reference/cli.md)",
    )


def lexicon_help(what: str) -> str:
    """``--lexicon``'s help: a file, or one of the names vouched ships (read from the
    shipped folder, so a new lexicon is listed without touching the help)."""
    names = ", ".join(Lexicon.shipped_names())
    return f"{what}: a lexicon JSON file, or a shipped one by name ({names})"


def load_lexicon(path: str | None, *, max_bytes: int | None = None) -> Lexicon | None:
    """``--lexicon`` through the input layer; errors name the file and the field."""
    if path is None:
        return None
    if path != "-" and not Path(path).exists() and "/" not in path and "." not in path:
        return Lexicon.load(path)  # a bare name: a shipped lexicon, or an error listing them
    name = "<stdin>" if path == "-" else path
    data = parse_json(read_text(path, kind="lexicon", max_bytes=max_bytes), file=name)
    try:
        return Lexicon.from_json(data)
    except InputError as error:
        raise error.at(file=name) from None


def cell(text: object) -> Any:
    """A string for a table as plain rich Text: never read as markup (``[/]``),
    with terminal control characters (``ESC[2J``) and bidi controls (U+202E)
    shown as escapes, not sent (:func:`vouched._exceptions.printable`)."""
    from rich.text import Text  # noqa: PLC0415 - the CLI's renderer, loaded on use

    return Text(printable("" if text is None else str(text)))


PIPE_WIDTH: Final = 100
"""The width tables are laid out in when standard output is not a terminal
(a pipe, a file, a CI log) and ``COLUMNS`` is not set: a page a reader can read
(long cells fold onto more lines, never cut with "…"). Machines read ``--json``;
``COLUMNS=1000`` lays a table out one row a line for ``| grep``."""


def console(file: IO[str] | None = None) -> Any:
    """The rich Console a command prints its table on (rich loaded on use).

    On a terminal, the terminal's width; into a pipe or a file,
    :data:`PIPE_WIDTH` (or ``COLUMNS`` when set), never rich's 80 columns.
    ``file``: where to write instead (a spool), laid out for standard output.

    A reader that goes away (``| head``) silences the rest of the output and
    the command goes on to its real exit status, as JSON output does, instead
    of rich's own ``SystemExit(1)``, which reads as "something failed"."""
    from rich.console import Console  # noqa: PLC0415 - the CLI's renderer, loaded on use

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            silence_stdout()

    out = _Console()
    if not out.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        out.width = PIPE_WIDTH
    if file is None:
        return out
    return _Console(
        file=file, width=out.width, force_terminal=out.is_terminal, no_color=out.no_color
    )


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
    """Run a subcommand; input errors become one line on stderr and exit 2.

    Anything unexpected is one line too, naming the command and the error's
    type, with exit 2 (exit 1 means "checked, and something failed"); the
    traceback only with ``--debug``."""
    try:
        status = handler(args)
        sys.stdout.flush()  # a full disk (ENOSPC) is reported here, not at exit
        return status
    except InputError as error:
        sys.stderr.write(f"vouched {args.command}: {error}\n")
        return EXIT_USAGE
    except VouchedError as error:
        sys.stderr.write(f"vouched {args.command}: {one_line(str(error))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write(f"vouched {args.command}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away somewhere output is not guarded: no traceback,
        # and since the result is unknown, do not claim success.
        silence_stdout()
        return EXIT_FAILED
    except OSError as error:
        if error.errno not in _WRITE_ERRORS:
            return _unexpected(args, error)
        silence_stdout()
        reason = error.strerror or type(error).__name__
        sys.stderr.write(f"vouched {args.command}: cannot write output: {reason}\n")
        return EXIT_USAGE
    except Exception as error:  # noqa: BLE001 - one line, never a traceback (see --debug)
        return _unexpected(args, error)


_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO})


def _unexpected(args: argparse.Namespace, error: Exception) -> int:
    if getattr(args, "debug", False):
        traceback.print_exception(error)
    detail = one_line(str(error), 120)
    sys.stderr.write(
        f"vouched {args.command}: unexpected {type(error).__name__}: {detail} "
        "(run with --debug for the traceback)\n"
    )
    return EXIT_USAGE


def _temp_beside(target: Path, field: str | None) -> tuple[int, str]:
    """A new temporary file in the target's directory, or an InputError naming it."""
    if target.is_dir():
        raise InputError("is a directory, not a file", file=str(target), field=field)
    if target.exists() and not target.is_file():
        # A device or FIFO at the path: renaming over it would replace it.
        raise InputError("exists and is not a regular file", file=str(target), field=field)
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


def load_policy(path: str | None, *, max_bytes: int | None = None) -> Policy:
    """Today's policy from a JSON file; errors name the file and the setting."""
    if path is None:
        return Policy()
    data = parse_json(read_text(path, kind="policy", max_bytes=max_bytes), file=path)
    if not isinstance(data, dict):
        raise InputError("expected a JSON object of policy settings", file=path)
    known = Policy.settings()
    for name in data:
        if name not in known:
            raise InputError(
                f"unknown policy setting (known: {shown_list(list(known))})", file=path, field=name
            )
    for name, value in data.items():
        try:
            Policy.from_json({name: value})
        except (TypeError, ValueError) as error:
            # The field is named once, by the InputError ("min_confidence: must be ...").
            message = str(error).removeprefix(f"Policy.{name} ")
            raise InputError(message, file=path, field=name) from None
    return Policy.from_json({str(k): v for k, v in data.items()})
