"""Reading facts from JSON or JSON Lines, with errors that say where; writing
them back as text that reads equal."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from vouched._exceptions import InputError
from vouched._fact import Fact
from vouched._files import STDIN, input_lines, json_kind, parse_json
from vouched._jsonio import dumps, loads

__all__ = [
    "dump_facts",
    "fact_from_json",
    "facts_in_text",
    "iter_facts",
    "load_facts",
    "validation_message",
]


def validation_message(error: ValidationError) -> tuple[str | None, str]:
    """The first problem of a pydantic error as (field, one-line message)."""
    first = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or None
    message = str(first.get("msg", "invalid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    if first.get("type") == "extra_forbidden":
        message = "unknown field"
    elif first.get("type") == "missing":
        message = "is required"
    return field, " ".join(message.split())


def fact_from_json(data: Any) -> Fact:
    """One fact from parsed JSON, or an :class:`InputError` naming the field."""
    if not isinstance(data, Mapping):
        raise InputError(f"expected a JSON object for a fact, got {json_kind(data)}")
    try:
        return Fact.model_validate(data)
    except ValidationError as error:
        field, message = validation_message(error)
        raise InputError(message, field=field) from None


def iter_facts(path: str | Path, *, max_bytes: int | None = None) -> Iterator[Fact]:
    """Facts from a file or standard input (``-``), in order: a JSON array, one
    JSON object (even over several lines), or JSON Lines (streamed, one line in
    memory at a time). Only regular files are read, at most ``max_bytes``
    (default: :data:`vouched._files.INPUT_LIMITS` ``["facts"]``).

    Errors name the file, the line (JSON Lines) or index (array) and the field.
    """
    name = "<stdin>" if str(path) == STDIN else str(path)
    yield from _facts_from_lines(input_lines(path, kind="facts", max_bytes=max_bytes), name)


def facts_in_text(text: str, *, name: str) -> Iterator[Fact]:
    """Facts from text read elsewhere (as :func:`iter_facts` reads a file);
    errors name ``name`` as the file."""
    lines = enumerate(text.splitlines(keepends=True), start=1)
    yield from _facts_from_lines(lines, name)


def _facts_from_lines(lines: Iterable[tuple[int, str]], name: str) -> Iterator[Fact]:
    head: list[str] = []
    for number, line in lines:
        head.append(line)
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("[") and (not stripped.startswith("{") or _one_line(stripped)):
            # JSON Lines: this line is a whole document (or an error at it).
            yield _line_fact(stripped, name, number)
            for later, text in lines:
                if text.strip():
                    yield _line_fact(text, name, later)
            return
        # One document over several lines: an array, or one object.
        head.extend(text for _, text in lines)
        yield from _document_facts("".join(head), name)
        return
    raise InputError(
        "file is empty; expected a JSON array of facts, one object or JSON Lines", file=name
    )


def _one_line(text: str) -> bool:
    """True when the line alone is one JSON document, or wrong in a way more
    lines cannot fix (a repeated key, NaN): JSON Lines, read line by line."""
    try:
        loads(text)
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):
        return True
    return True


def _line_fact(text: str, name: str, number: int) -> Fact:
    item = parse_json(text, file=name, line=number)
    try:
        return fact_from_json(item)
    except InputError as error:
        raise error.at(file=name, line=number) from None


def _document_facts(text: str, name: str) -> Iterator[Fact]:
    data = parse_json(text, file=name)
    if isinstance(data, Mapping):
        data = [data]
        location = "line"
    elif isinstance(data, list):
        location = "index"
    else:
        raise InputError(
            f"expected a JSON array of facts, one object or JSON Lines, got {json_kind(data)}",
            file=name,
        )
    for index, item in enumerate(data):
        try:
            yield fact_from_json(item)
        except InputError as error:
            if location == "line":
                raise error.at(file=name) from None
            raise error.at(file=name, line=index, location="index") from None


def load_facts(path: str | Path, *, max_bytes: int | None = None) -> list[Fact]:
    """All facts of a file or ``-`` (see :func:`iter_facts`)."""
    return list(iter_facts(path, max_bytes=max_bytes))


def dump_facts(facts: Iterable[Fact], path: str | Path | None = None) -> str:
    """Facts as a JSON array (one fact a line), the text :func:`load_facts`
    reads back into equal facts: decimals exact, instants as UTC ``Z``,
    ``ttl`` in seconds. With ``path`` the text is also written there, whole
    or not at all (a temporary file beside it, renamed into place)."""
    lines = [dumps(fact.to_json()) for fact in facts]
    text = "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"
    if path is not None:
        target = Path(path)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent or ".", delete=False, suffix=".tmp"
        ) as handle:
            handle.write(text)
        os.replace(handle.name, target)
    return text
