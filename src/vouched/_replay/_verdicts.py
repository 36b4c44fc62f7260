"""Reviewers' verdicts on findings, kept beside the snapshots.

Not the gate's verdict on a fact (:class:`vouched.Verdict`): a
:class:`ReviewVerdict` is what a person reviewing an answer said about one
finding of one attempt of the model: ``right`` (a real mistake, the finding
is a confirmed catch), ``false_alarm`` (the text was right), or ``missed``
(a mistake on words the scanner found nothing on). Each names the snapshot,
the attempt (1 = the first), the finding's rule, kind and span (its text),
the reviewer, the time, and an optional note.

A verdict never changes its snapshot (whose id is a hash of its content).
Stores keep them in a ``review_verdicts`` table (SQLite, PostgreSQL) or in a
sidecar file beside a JSON Lines export (``NAME.verdicts.jsonl``,
:class:`SidecarVerdicts`). They are appended: the latest verdict on the same
finding (:attr:`ReviewVerdict.key`) is the one that counts, so a reviewer can
change their mind and the history stays.
"""

from __future__ import annotations

import enum
import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from vouched._exceptions import InputError
from vouched._time import to_utc

__all__ = [
    "COLUMNS",
    "MAX_NOTE",
    "VERDICTS_INDEX",
    "VERDICTS_TABLE",
    "Mark",
    "ReviewVerdict",
    "SidecarVerdicts",
    "VerdictShelf",
    "latest",
    "sidecar_path",
    "verdict_of_row",
    "verdict_row",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MAX_NOTE = 2000  # characters of a note kept
MAX_NAME = 200  # characters of a reviewer's name kept


class Mark(enum.StrEnum):
    """What a reviewer said about a finding (or about words with none)."""

    RIGHT = "right"
    FALSE_ALARM = "false_alarm"
    MISSED = "missed"


# ``{s}`` is the schema prefix ("" in SQLite, ``"name".`` in PostgreSQL);
# ``{serial}`` the auto-numbered key of each engine.
VERDICTS_TABLE = """CREATE TABLE {s}review_verdicts (
    seq {serial},
    snapshot_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    mark TEXT NOT NULL,
    rule TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_at INTEGER NOT NULL,
    end_at INTEGER NOT NULL,
    text TEXT NOT NULL,
    attribute TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    reviewer TEXT NOT NULL,
    at_us BIGINT NOT NULL,
    note TEXT NOT NULL
)"""
VERDICTS_INDEX = "CREATE INDEX review_verdicts_snapshot ON {s}review_verdicts (snapshot_id, seq)"
COLUMNS = (
    "snapshot_id, attempt, mark, rule, kind, start_at, end_at, text, attribute, "
    "prompt_version, created_us, reviewer, at_us, note"
)


def _micros(instant: datetime) -> int:
    delta = to_utc(instant) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


@dataclass(frozen=True, slots=True)
class ReviewVerdict:
    """One reviewer's verdict on one finding (see the module docs).

    ``rule``: the rule that made the finding when the finding names one,
    else its kind (findings stored today name their kind only).
    ``created_at`` and ``prompt_version`` are the snapshot's, kept here so
    precision can be charted over time and per prompt version without
    reading the snapshots again."""

    snapshot_id: str
    attempt: int
    mark: Mark
    kind: str
    start: int
    end: int
    text: str
    reviewer: str
    at: datetime
    rule: str = ""
    attribute: str = ""
    prompt_version: str = ""
    created_at: datetime = _EPOCH
    note: str = ""

    def __post_init__(self) -> None:
        if not self.rule:
            object.__setattr__(self, "rule", self.kind)
        object.__setattr__(self, "mark", Mark(self.mark))

    @property
    def key(self) -> tuple[str, int, int, int, str]:
        """The finding it is about: a later verdict with this key replaces it."""
        kind = "" if self.mark is Mark.MISSED else self.kind
        return (self.snapshot_id, self.attempt, self.start, self.end, kind)

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot_id": self.snapshot_id,
            "attempt": self.attempt,
            "mark": str(self.mark),
            "rule": self.rule,
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "attribute": self.attribute,
            "prompt_version": self.prompt_version,
            "created_at": to_utc(self.created_at).isoformat().replace("+00:00", "Z"),
            "reviewer": self.reviewer,
            "at": to_utc(self.at).isoformat().replace("+00:00", "Z"),
            "note": self.note,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReviewVerdict:
        try:
            return cls(
                snapshot_id=str(data["snapshot_id"]),
                attempt=int(data["attempt"]),
                mark=Mark(data["mark"]),
                rule=str(data.get("rule") or ""),
                kind=str(data["kind"]),
                start=int(data["start"]),
                end=int(data["end"]),
                text=str(data["text"]),
                attribute=str(data.get("attribute") or ""),
                prompt_version=str(data.get("prompt_version") or ""),
                created_at=datetime.fromisoformat(
                    str(data.get("created_at") or _EPOCH.isoformat())
                ),
                reviewer=str(data["reviewer"]),
                at=datetime.fromisoformat(str(data["at"])),
                note=str(data.get("note") or ""),
            )
        except KeyError as error:
            raise InputError("is required", field=str(error.args[0])) from None
        except (TypeError, ValueError) as error:
            raise InputError(f"not a review verdict ({error})") from None


def verdict_row(verdict: ReviewVerdict) -> tuple[Any, ...]:
    """The row of ``verdict``, in :data:`COLUMNS` order."""
    return (
        verdict.snapshot_id,
        verdict.attempt,
        str(verdict.mark),
        verdict.rule,
        verdict.kind,
        verdict.start,
        verdict.end,
        verdict.text,
        verdict.attribute,
        verdict.prompt_version,
        _micros(verdict.created_at),
        verdict.reviewer[:MAX_NAME],
        _micros(verdict.at),
        verdict.note[:MAX_NOTE],
    )


def verdict_of_row(row: tuple[Any, ...]) -> ReviewVerdict:
    (sid, attempt, mark, rule, kind, start, end, text, attribute, version) = row[:10]
    created, reviewer, at, note = row[10:]
    return ReviewVerdict(
        snapshot_id=sid,
        attempt=int(attempt),
        mark=Mark(mark),
        rule=rule,
        kind=kind,
        start=int(start),
        end=int(end),
        text=text,
        attribute=attribute,
        prompt_version=version,
        created_at=_EPOCH + timedelta(microseconds=int(created)),
        reviewer=reviewer,
        at=_EPOCH + timedelta(microseconds=int(at)),
        note=note,
    )


def latest(verdicts: Iterable[ReviewVerdict]) -> list[ReviewVerdict]:
    """The verdicts that count: the last one given on each finding, in the order given."""
    last: dict[tuple[str, int, int, int, str], ReviewVerdict] = {}
    for verdict in verdicts:
        last.pop(verdict.key, None)  # re-inserted: the dict keeps the order of the last word
        last[verdict.key] = verdict
    return list(last.values())


@runtime_checkable
class VerdictShelf(Protocol):
    """A store that keeps reviewers' verdicts beside its snapshots."""

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        """Append one verdict (the snapshot is never changed)."""
        ...

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        """Every verdict given (on one snapshot when ``snapshot_id``), oldest first."""
        ...


def sidecar_path(jsonl: str | Path) -> Path:
    """Where the verdicts on a JSON Lines export live: ``NAME.verdicts.jsonl``."""
    path = Path(jsonl)
    return path.with_name(path.name.removesuffix(".jsonl") + ".verdicts.jsonl")


class SidecarVerdicts:
    """Verdicts in a JSON Lines file beside an export, one verdict a line,
    appended (read whole on open; the file is created on the first verdict)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._verdicts: list[ReviewVerdict] = []
        if self.path.exists():
            with self.path.open(encoding="utf-8") as handle:
                for number, line in enumerate(handle, start=1):
                    if not line.strip():
                        continue
                    try:
                        self._verdicts.append(ReviewVerdict.from_json(json.loads(line)))
                    except InputError as error:
                        raise error.at(file=str(self.path), line=number) from None
                    except ValueError as error:
                        raise InputError(
                            f"not JSON ({error})", file=str(self.path), line=number
                        ) from None

    def write_verdict(self, verdict: ReviewVerdict) -> None:
        line = json.dumps(verdict.to_json(), sort_keys=True, ensure_ascii=False)
        with self._lock:
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
            self._verdicts.append(verdict)

    def review_verdicts(self, snapshot_id: str | None = None) -> Iterator[ReviewVerdict]:
        with self._lock:
            kept = list(self._verdicts)
        return iter(v for v in kept if snapshot_id is None or v.snapshot_id == snapshot_id)
