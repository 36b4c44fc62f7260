"""Opening the store a command names: a path, a URL, or the JSON Lines export."""

from __future__ import annotations

from typing import Any

from vouched._exceptions import InputError

__all__ = ["open_store"]


def open_store(target: str, *, skipped: list[InputError] | None = None) -> Any:
    """The store ``target`` names, opened read-only (a ``.jsonl`` file, the export:
    in memory, through the input layer: a regular file, each line capped). With
    ``skipped``, lines that are not snapshots are collected there and the rest
    read (the review page, as its index skips rows); without, the first is the
    error (``replay``: exit 2 naming the file and line)."""
    if target.endswith(".jsonl") and "://" not in target:
        from vouched._replay._jsonl import read_jsonl  # noqa: PLC0415
        from vouched.testing._stores import MemorySnapshotStore  # noqa: PLC0415

        store = MemorySnapshotStore()
        batch: list[Any] = []
        for snapshot in read_jsonl(target, skip=None if skipped is None else skipped.append):
            batch.append(snapshot)
            if len(batch) >= 1000:
                store.write_many(batch)
                batch = []
        store.write_many(batch)
        return store
    from vouched._replay._open import open_snapshot_store  # noqa: PLC0415

    return open_snapshot_store(target, read_only=True)
