"""The one input layer: every file vouched reads goes through here.

- Only regular files are read (and ``-``, standard input, where a command
  allows it). A device (``/dev/zero``), a FIFO, a socket or a directory is
  refused at once: the file is opened without blocking and checked with
  ``fstat`` before a byte is read, so a FIFO with no writer never hangs.
- Every input has a size cap by kind (:data:`INPUT_LIMITS`, documented in the
  README); standard input is read with the same cap. ``max_bytes`` raises it
  (the CLI's ``--max-input-bytes``).
- JSON is read by :func:`vouched._jsonio.loads`: a repeated key in an object
  is an error naming the key, never a silent "last one wins".

Errors are :class:`InputError` values naming the file (and line, and field).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Final

from vouched._exceptions import InputError
from vouched._jsonio import DuplicateKeyError, loads

__all__ = [
    "INPUT_LIMITS",
    "LINE_LIMITS",
    "STDIN",
    "input_errors",
    "input_lines",
    "json_kind",
    "open_regular",
    "parse_json",
    "read_bytes",
    "read_text",
]

STDIN: Final = "-"

_MIB = 1024 * 1024
INPUT_LIMITS: Final = {
    "facts": 64 * _MIB,
    "output": 16 * _MIB,
    "sources": 16 * _MIB,
    "question": 1 * _MIB,
    "lexicon": 8 * _MIB,
    "policy": 1 * _MIB,
    "contract": 1 * _MIB,
    "config": 1 * _MIB,
    "catalog": 256 * _MIB,
    "claims": 1024 * _MIB,
    "snapshots": 1024 * _MIB,
    "text": 64 * _MIB,
}
"""Default size caps in bytes, by input kind. Streamed inputs (claims, JSON Lines
snapshots) keep memory flat whatever their size; the cap bounds the time."""

LINE_LIMITS: Final = {"claims": 16 * _MIB, "snapshots": 64 * _MIB}
"""Size caps in bytes of one line, for inputs read line by line whose lines are
small records (a claim is one model output: the cap of an ``output`` file; a
snapshot, one answer with its facts and attempts).
Memory holds one line, so this bounds it: ``verify - </dev/zero`` is refused
after 16 MiB, not after the 1 GiB of the whole file. A lower file cap
(``--max-input-bytes``) lowers it too."""

_CHUNK = 1 << 16


def _kind_limit(kind: str, max_bytes: int | None) -> int:
    return INPUT_LIMITS[kind] if max_bytes is None else max_bytes


def _too_big(kind: str, limit: int, *, file: str) -> InputError:
    return InputError(
        f"larger than the {limit:,}-byte limit for {kind} (raise it with --max-input-bytes)",
        file=file,
    )


@contextmanager
def input_errors(path: str | Path) -> Iterator[None]:
    """Turn the OS's file errors raised in the block into one-line InputErrors."""
    name = str(path)
    try:
        yield
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=name) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file=name) from None
    except PermissionError:
        raise InputError("permission denied", file=name) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", file=name) from None


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: str | Path) -> BinaryIO:
    """``path`` opened for reading in binary, refusing anything but a regular
    file without blocking (``O_NONBLOCK`` on open, then ``fstat``)."""
    name = str(path)
    with input_errors(name):
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise InputError("is a directory, not a file", file=name)
            if not stat.S_ISREG(mode):
                raise InputError(f"is {_what(mode)}, not a regular file", file=name)
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
            return os.fdopen(fd, "rb")
        except BaseException:
            os.close(fd)
            raise


def _stdin_bytes() -> BinaryIO:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        raise InputError("standard input is not readable", file="<stdin>")
    return buffer  # type: ignore[no-any-return]  # sys.stdin.buffer is a BinaryIO


def read_bytes(path: str | Path, *, kind: str, max_bytes: int | None = None) -> bytes:
    """All bytes of a regular file (or standard input for ``-``), at most the
    cap for ``kind``; an InputError naming the file otherwise."""
    limit = _kind_limit(kind, max_bytes)
    name = "<stdin>" if str(path) == STDIN else str(path)
    if str(path) == STDIN:
        data = _stdin_bytes().read(limit + 1)
    else:
        with open_regular(path) as handle, input_errors(name):
            if os.fstat(handle.fileno()).st_size > limit:
                raise _too_big(kind, limit, file=name)
            data = handle.read(limit + 1)  # the file may have grown since
    if len(data) > limit:
        raise _too_big(kind, limit, file=name)
    return data


def read_text(
    path: str | Path,
    *,
    kind: str = "text",
    max_bytes: int | None = None,
    encoding: str = "utf-8-sig",
) -> str:
    """A whole text file (or ``-``) through :func:`read_bytes`, decoded.

    UTF-8, with a leading byte-order mark (as some Windows editors write)
    dropped, as the catalog and claims readers already do."""
    data = read_bytes(path, kind=kind, max_bytes=max_bytes)
    name = "<stdin>" if str(path) == STDIN else str(path)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError("not UTF-8 text", file=name, line=line) from None


def input_lines(
    path: str | Path, *, kind: str, max_bytes: int | None = None
) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line of a regular file (or ``-``), streamed:
    memory holds one line at a time (a line is capped like the whole input, and
    by :data:`LINE_LIMITS` for its kind). A leading byte-order mark is dropped;
    undecodable lines name their number."""
    limit = _kind_limit(kind, max_bytes)
    line_limit = min(limit, LINE_LIMITS.get(kind, limit))
    name = "<stdin>" if str(path) == STDIN else str(path)
    own = str(path) != STDIN
    handle = open_regular(path) if own else _stdin_bytes()
    total = 0
    try:
        number = 0
        while True:
            raw = handle.readline(min(limit - total, line_limit) + 1)
            if not raw:
                return
            number += 1
            total += len(raw)
            if total > limit:
                raise _too_big(kind, limit, file=name)
            if len(raw) > line_limit:
                raise InputError(
                    f"line longer than the {line_limit:,}-byte limit for a line of {kind}",
                    file=name,
                    line=number,
                )
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError("not UTF-8 text", file=name, line=number) from None
            yield number, text
    finally:
        if own:
            handle.close()


def parse_json(text: str | bytes, *, file: str, line: int | None = None) -> Any:
    """JSON text as read by :func:`vouched._jsonio.loads`, or an InputError naming
    the file and the line: ``line`` when the text is one line of a JSON Lines file,
    else the line of the document the parser stopped at."""
    if line is None and not text.strip():
        raise InputError("file is empty; expected JSON", file=file)
    try:
        return loads(text)
    except json.JSONDecodeError as error:
        at = line if line is not None else error.lineno
        raise InputError(
            f"invalid JSON: {error.msg} (column {error.colno})", file=file, line=at
        ) from None
    except DuplicateKeyError as error:
        raise InputError(f"invalid JSON: {error}", file=file, line=line) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", file=file, line=line) from None
    except ValueError as error:  # NaN / Infinity, or an integer too long
        raise InputError(f"invalid JSON: {error}", file=file, line=line) from None


def json_kind(value: Any) -> str:
    """What a parsed JSON value is, for messages ("an object", "a string")."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return "a boolean" if isinstance(value, bool) else "a number"
