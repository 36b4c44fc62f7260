"""Snapshots as JSON Lines: :func:`export_jsonl`, :func:`read_jsonl`, :func:`import_jsonl`.

Every file goes through the one input layer (:mod:`vouched._files`): a regular
file only, at most 1 GiB, a line at most 64 MiB, streamed; errors name the
file, line and field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO

from vouched._exceptions import InputError
from vouched._files import INPUT_LIMITS, LINE_LIMITS, open_regular, parse_json
from vouched._replay._lexicons import JSONL_LEXICON, LexiconRecord, LexiconShelf
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import ReadableStore, SnapshotStore, write_batch

__all__ = ["export_jsonl", "import_jsonl", "read_jsonl"]

_SKIP_CHUNK = 1 << 20  # bytes read at a time while skipping a line past the cap


def export_jsonl(
    store: SnapshotStore,
    out: IO[str],
    *,
    since: datetime | None = None,
    until: datetime | None = None,
) -> int:
    """Write each snapshot's canonical JSON as one line; returns the count.

    The lexicons the store keeps come first, one line each
    (``{"record": "vouched.lexicon/1", ...}``), so the export replays with
    each snapshot's own lexicon."""
    if isinstance(store, LexiconShelf):
        for record in store.lexicons():
            out.write(record.to_jsonl())
            out.write("\n")
    texts: Iterable[str]
    if isinstance(store, ReadableStore):  # the stored text as it is, not parsed again
        texts = store.iter_json(since=since, until=until)
    else:
        texts = (s.canonical_json() for s in store.iter(since=since, until=until))
    count = 0
    for text in texts:
        out.write(text)
        out.write("\n")
        count += 1
    return count


def read_jsonl(
    path: str | Path,
    *,
    skip: Callable[[InputError], object] | None = None,
    lexicons: list[LexiconRecord] | None = None,
) -> Iterator[Snapshot]:
    """Snapshots from a JSON Lines file, each checked (fields and content id),
    through the one input layer: a regular file only (a FIFO or ``/dev/zero``
    is refused at once), at most 1 GiB, a line at most 64 MiB, streamed.

    Errors are :class:`InputError` naming the file, line and field. With
    ``skip``, a line that is not a snapshot (too long, not UTF-8, not JSON,
    not the shape) is passed to ``skip`` and the rest is read, as the review
    page's index skips and counts rows it cannot read.

    Lexicon lines (see :func:`export_jsonl`) are checked and appended to
    ``lexicons`` when given, else passed over.
    """
    name = str(path)
    for number, line in _jsonl_lines(name, skip):
        try:
            if not line.strip():
                continue
            data = parse_json(line, file=name, line=number)
            if isinstance(data, dict) and data.get("record") == JSONL_LEXICON:
                if lexicons is not None:
                    try:
                        lexicons.append(LexiconRecord.from_jsonl(data))
                    except InputError as error:
                        raise error.at(file=name, line=number) from None
                continue
            try:
                yield Snapshot.from_json(data)
            except InputError as error:
                raise error.at(file=name, line=number) from None
            except ValueError as error:  # a value the snapshot reader refused
                raise InputError(str(error), file=name, line=number) from None
        except InputError as error:
            if skip is None:
                raise
            skip(error)


def _jsonl_lines(
    name: str, skip: Callable[[InputError], object] | None
) -> Iterator[tuple[int, str]]:
    """(number, text) of each line; a line past the cap or not UTF-8 is an
    InputError (passed to ``skip`` when given, the line skipped unread)."""
    limit, line_limit = INPUT_LIMITS["snapshots"], LINE_LIMITS["snapshots"]
    total = number = 0
    with open_regular(name) as handle:
        while raw := handle.readline(line_limit + 1):
            number += 1
            total += len(raw)
            problem: InputError | None = None
            if total > limit:
                raise InputError(f"larger than the {limit:,}-byte limit for snapshots", file=name)
            if len(raw) > line_limit and not raw.endswith(b"\n"):
                problem = InputError(f"line longer than {line_limit:,} bytes", file=name,
                                     line=number)  # fmt: skip
                while raw and not raw.endswith(b"\n"):  # the rest of it, unread
                    raw = handle.readline(_SKIP_CHUNK)
                    total += len(raw)
            else:
                try:
                    yield number, raw.decode("utf-8-sig" if number == 1 else "utf-8")
                    continue
                except UnicodeDecodeError:
                    problem = InputError("not UTF-8 text", file=name, line=number)
            if skip is None:
                raise problem
            skip(problem)


def import_jsonl(
    store: SnapshotStore,
    path: str | Path,
    *,
    batch: int = 1000,
    skip: Callable[[InputError], object] | None = None,
) -> int:
    """Read snapshots from JSON Lines into ``store``; returns how many were read.

    Lexicon lines go to the store when it keeps lexicons (:class:`LexiconShelf`),
    before the snapshots that follow them.
    The whole file is checked line by line as it streams; a bad line stops the
    import with an :class:`InputError` (earlier lines stay stored: importing
    again is harmless, ids are content hashes); with ``skip``, a bad line is
    passed to it and the rest imported (see :func:`read_jsonl`).
    """
    count = 0
    pending: list[Snapshot] = []
    records: list[LexiconRecord] = []
    for snapshot in read_jsonl(path, skip=skip, lexicons=records):
        if records:
            _shelve(store, records)
        pending.append(snapshot)
        count += 1
        if len(pending) >= batch:
            write_batch(store, pending)
            pending = []
    if pending:
        write_batch(store, pending)
    _shelve(store, records)
    return count


def _shelve(store: SnapshotStore, records: list[LexiconRecord]) -> None:
    """Keep the lexicon lines read so far in ``store`` (when it keeps lexicons)."""
    if isinstance(store, LexiconShelf):
        for record in records:
            store.write_lexicon(record)
    records.clear()
