"""Opening the store a command names: a path, a URL, or the JSON Lines export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vouched._exceptions import InputError

__all__ = ["open_store"]


def open_store(
    target: str, *, read_only: bool = True, skipped: list[InputError] | None = None
) -> Any:
    """The store ``target`` names. A ``.jsonl`` file (the export) is read into
    memory through the input layer (a regular file, each line capped), its
    reviewers' verdicts in the sidecar beside it. With ``skipped``, lines that
    are not snapshots are collected there and the rest read (the review page,
    as its index skips rows); without, the first is the error (``replay``:
    exit 2 naming the file and line). Writable (``read_only=False``: the
    review's verdicts), a SQLite store must exist already: the pages read a
    store; they never start an empty one by a typo."""
    if target.endswith(".jsonl") and "://" not in target:
        from vouched._replay._memory import open_jsonl  # noqa: PLC0415

        return open_jsonl(target, skipped=skipped)
    from vouched._replay._open import open_snapshot_store, sqlite_path  # noqa: PLC0415

    path = sqlite_path(target)
    if not read_only and path is not None and not Path(path).exists():
        raise InputError("no such snapshot store", file=path)
    return open_snapshot_store(target, read_only=read_only)
