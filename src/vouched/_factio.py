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
from vouched._files import json_kind, parse_json, read_text
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


def iter_facts(path: str | Path) -> Iterator[Fact]:
    """Facts from a JSON array file or a JSON Lines file, in order.

    Errors name the file, the line (JSON Lines) or index (array) and the field.
    """
    path = Path(path)
    yield from facts_in_text(read_text(path), name=str(path), jsonl=path.suffix == ".jsonl")


def facts_in_text(text: str, *, name: str, jsonl: bool = False) -> Iterator[Fact]:
    """Facts from text holding a JSON array or JSON Lines (``jsonl``: do not
    try the text as one document first); errors name ``name`` as the file."""
    stripped = text.lstrip()
    if not stripped:
        raise InputError("file is empty; expected a JSON array of facts or JSON Lines", file=name)
    if stripped.startswith("[") or (not jsonl and _single_document(stripped)):
        data = parse_json(text, file=name)
        if not isinstance(data, list):
            raise InputError(
                f"expected a JSON array of facts (or JSON Lines), got {json_kind(data)}",
                file=name,
            )
        for index, item in enumerate(data):
            try:
                yield fact_from_json(item)
            except InputError as error:
                raise error.at(file=name, line=index, location="index") from None
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        item = parse_json(line, file=name, line=number)
        try:
            yield fact_from_json(item)
        except InputError as error:
            raise error.at(file=name, line=number) from None


def _single_document(text: str) -> bool:
    """True when the text is one JSON document (not several JSON Lines)."""
    try:
        loads(text)
    except json.JSONDecodeError as error:
        return error.msg != "Extra data"
    except (RecursionError, ValueError):
        return True
    return True


def load_facts(path: str | Path) -> list[Fact]:
    """All facts of a JSON array or JSON Lines file (see :func:`iter_facts`)."""
    return list(iter_facts(path))


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
