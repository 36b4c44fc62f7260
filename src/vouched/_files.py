"""Reading input files with errors that name the file (one place for it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from vouched._exceptions import InputError
from vouched._jsonio import loads

__all__ = ["input_errors", "json_kind", "parse_json", "read_text"]


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


def read_text(path: str | Path, *, encoding: str = "utf-8-sig") -> str:
    """A whole text file, or an InputError naming it.

    UTF-8, with a leading byte-order mark (as some Windows editors write)
    dropped, as the catalog and claims readers already do."""
    with input_errors(path):
        return Path(path).read_text(encoding=encoding)


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
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", file=file, line=line) from None
    except ValueError as error:  # NaN / Infinity
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
