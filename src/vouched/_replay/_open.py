"""One way to name a snapshot store: a path, ``sqlite:///PATH`` or ``postgresql://...``,
or a JSON Lines export (``NAME.jsonl``, read into memory).

``sqlite:///snapshots.db`` is a path relative to the working directory and
``sqlite:////var/lib/vouched/snapshots.db`` an absolute one (the usual
convention). A ``postgresql://`` (or ``postgres://``) URL is handed to psycopg,
less one parameter of ours: ``?schema=NAME`` picks the PostgreSQL schema
holding the tables (default ``vouched``); every other parameter is passed on
exactly as written. Messages show the URL with its password removed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from vouched._exceptions import InputError
from vouched._replay._memory import JsonlExport, open_jsonl
from vouched._replay._postgres import PostgresSnapshotStore
from vouched._replay._store import SqliteSnapshotStore
from vouched._replay._urls import safe_url, split_parameter

__all__ = ["open_snapshot_store", "sqlite_path"]

_POSTGRES = ("postgresql://", "postgres://")


def open_snapshot_store(
    target: str, *, read_only: bool = False
) -> SqliteSnapshotStore | PostgresSnapshotStore | JsonlExport:
    """The store ``target`` names (see the module docstring); close it when done.

    A path ending in ``.jsonl`` is a JSON Lines export, read into memory (every
    line checked); reviewers' verdicts on it go to its sidecar file."""
    if target.endswith(".jsonl") and "://" not in target:
        return open_jsonl(target)
    if target.startswith(_POSTGRES):
        url, schema = _split_schema(target)
        if schema is None:
            return PostgresSnapshotStore(url, read_only=read_only)
        return PostgresSnapshotStore(url, schema=schema, read_only=read_only)
    if target.startswith("sqlite:"):
        if not target.startswith("sqlite:///") or target == "sqlite:///":
            raise InputError(
                "a SQLite URL is sqlite:///relative/path or sqlite:////absolute/path",
                field="--store",
            )
        return SqliteSnapshotStore(target.removeprefix("sqlite:///"), read_only=read_only)
    scheme = urlsplit(target).scheme
    if "://" in target and len(scheme) > 1:  # "C:\\x" is a Windows path, not a URL
        raise InputError(
            f"unknown store URL scheme {scheme!r} (a path, sqlite:/// or postgresql://)",
            field="--store",
        )
    return SqliteSnapshotStore(target, read_only=read_only)


def sqlite_path(target: str) -> str | None:
    """The file ``target`` names when it is a SQLite store (None for PostgreSQL)."""
    if target.startswith(_POSTGRES):
        return None
    if target.startswith("sqlite:///") and target != "sqlite:///":
        return target.removeprefix("sqlite:///")
    return target


def _split_schema(url: str) -> tuple[str, str | None]:
    rest, schemas = split_parameter(url, "schema")
    if not schemas:
        return url, None
    if len(schemas) > 1 or not schemas[0]:
        raise InputError(f"{safe_url(url)}: give one non-empty ?schema=", field="--store")
    return rest, schemas[0]
