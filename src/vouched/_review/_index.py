"""What the review pages filter and count: one small summary row per snapshot.

The pages never parse 100,000 snapshots per request. :class:`ReviewIndex`
reads the store once through its read API (``iter_json``, ``get``,
``len``), keeps one :class:`Row` per snapshot (status, prompt version,
verdict counts, finding kinds, sources, subjects) plus the casefolded
texts (the output sent and every attempt of the model, as stored: redacted)
as UTF-8 for free-text search, and the per-day and
per-prompt-version tallies the overview draws. It follows the store: at
most every ``refresh_every`` seconds (its clock is injected) it counts the
store's rows; when there are new ones it reads the rows created at or after
the newest it has; when the store then still holds more rows than the index
(a snapshot written late, with an older ``created_at``) it reads everything
again.

Reviewers' verdicts (:class:`~vouched._review._precision.VerdictBook`) are
read from the store once; verdicts given on these pages are added as they
are stored. Nothing here writes to the store; a corrupt row is skipped and
counted.
"""

from __future__ import annotations

import bisect
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from vouched._gate import grounding_rate
from vouched._replay._metrics import abstains
from vouched._replay._snapshot import Snapshot
from vouched._replay._store import ReadableStore
from vouched._replay._verdicts import VerdictShelf
from vouched._review._precision import VerdictBook, Waiting
from vouched._time import Clock, SystemClock

__all__ = [
    "ALL_STATUSES",
    "PAGE_SIZE",
    "Filters",
    "Page",
    "ReadableStore",
    "ReviewIndex",
    "Row",
    "Tallies",
    "instant",
    "micros",
    "row_key",
]

PAGE_SIZE = 50
"""Answers on one page of the list."""

ALL_STATUSES = ("ok", "partial", "unavailable", "refused")
"""The statuses an answer can have (the list's status filter offers these)."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_US = 86_400 * 1_000_000
_CIRCUIT_OPEN = "circuit_open"


def micros(instant: datetime) -> int:
    """Microseconds since the epoch (the stores' ``created_us``)."""
    delta = instant - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def instant(us: int) -> datetime:
    return _EPOCH + timedelta(microseconds=us)


class Row(NamedTuple):
    """One snapshot as the list filters and shows it."""

    created_us: int
    id: str
    ordinal: int  # its place among the search texts
    status: str
    prompt_version: str
    passed: bool
    abstained: bool
    grounded: int
    silent: int
    violations: int
    kinds: frozenset[str]  # finding kinds of every attempt
    sources: frozenset[str]
    subjects: frozenset[str]  # casefolded: the subject filter ignores case
    breakers: frozenset[str]  # sources silent with circuit_open
    question: str
    findings: tuple[tuple[int, str, int, int], ...] = ()  # (attempt, kind, start, end)


@dataclass
class Tallies:
    """Counts for one bucket (a day or a prompt version)."""

    answers: int = 0
    failed: int = 0
    abstained: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)

    def add(self, row: Row) -> None:
        self.answers += 1
        self.failed += not row.passed
        self.abstained += row.abstained
        self.verdicts["grounded"] += row.grounded
        self.verdicts["silent"] += row.silent
        self.verdicts["violation"] += row.violations

    @property
    def grounding_rate(self) -> float:
        return grounding_rate(self.verdicts)

    @property
    def failure_share(self) -> float:
        return self.failed / self.answers if self.answers else 0.0

    @property
    def abstention(self) -> float:
        return self.abstained / self.answers if self.answers else 0.0


@dataclass(frozen=True)
class Filters:
    """The list's filters, as the query string gives them (all optional)."""

    status: str = ""
    kind: str = ""
    prompt_version: str = ""
    source: str = ""
    subject: str = ""
    since: datetime | None = None
    until: datetime | None = None
    text: str = ""

    def predicate(self) -> Callable[[Row], bool] | None:
        """One function testing a row against every filter (None: no filter);
        the window's edges are computed once, not per row."""
        status, kind, version = self.status, self.kind, self.prompt_version
        source, subject = self.source, self.subject.strip().casefold()
        low = None if self.since is None else micros(self.since)
        high = None if self.until is None else micros(self.until)
        if not (status or kind or version or source or subject) and low is None and high is None:
            return None

        def test(row: Row) -> bool:
            return (
                (not status or row.status == status)
                and (not kind or kind in row.kinds)
                and (not version or row.prompt_version == version)
                and (not source or source in row.sources)
                and (not subject or subject in row.subjects)
                and (low is None or row.created_us >= low)
                and (high is None or row.created_us < high)
            )

        return test


@dataclass(frozen=True)
class Page:
    """One page of the filtered list, newest first, cut by a key (stable links)."""

    rows: tuple[Row, ...]
    total: int
    older: str | None  # the key to pass as ``before`` for the next page
    newer: str | None  # the key to pass as ``after`` for the previous page


def row_key(row: Row) -> str:
    return f"{row.created_us}.{row.id}"


def parse_key(text: str) -> tuple[int, str] | None:
    """``MICROSECONDS.ID`` as written by :func:`row_key`; None for anything else
    (bounded before any arithmetic: at most 20 ASCII digits, an id of 64)."""
    us, _, snapshot_id = text.partition(".")
    if not (0 < len(us) <= 20 and us.isascii() and us.isdigit()):
        return None
    if not (snapshot_id.isascii() and snapshot_id.isalnum() and len(snapshot_id) <= 64):
        return None
    return int(us), snapshot_id


def _reviewable(
    trail: list[Any] | None, shown: list[Any], shared: Callable[[Any], Any]
) -> tuple[tuple[int, str, int, int], ...]:
    """Each finding a reviewer can mark: (attempt, kind, start, end), attempt 1 first
    (a snapshot without a trail: its output's findings, as attempt 1)."""
    attempts = [a["findings"] for a in trail] if trail else [shown]
    out = []
    for number, found in enumerate(attempts, start=1):
        seen = set()
        for f in found:
            key = (number, shared(str(f.get("kind"))), int(f["start"]), int(f["end"]))
            if key not in seen:
                seen.add(key)
                out.append(key)
    return tuple(out)


class ReviewIndex:
    """The summary of a store the pages read (see the module docs). Thread-safe."""

    def __init__(
        self, store: ReadableStore, *, clock: Clock | None = None, refresh_every: float = 2.0
    ) -> None:
        self.store = store
        self._clock = clock or SystemClock()
        self.refresh_every = refresh_every
        self._lock = threading.Lock()
        self._checked: float | None = None
        self.skipped = 0  # rows that could not be read
        self.book = VerdictBook()
        self._checked_verdicts: bool | None = None
        self._order_changes = 0  # rows read again or put before others: the queue restarts
        self._reset()

    def _reset(self) -> None:
        self.rows: list[Row] = []  # sorted by (created_us, id)
        self._ids: set[str] = set()
        self._texts: list[bytes] = []  # by ordinal: the casefolded texts, UTF-8
        self._strings: dict[Any, Any] = {}  # one copy of each repeated value
        self.days: dict[int, Tallies] = {}
        self.versions: dict[str, Tallies] = {}
        self.version_first: dict[str, int] = {}
        self.kinds: Counter[str] = Counter()
        self.sources: set[str] = set()
        self.breakers: Counter[str] = Counter()
        self.breakers_last: dict[str, int] = {}
        self.finding_kinds: Counter[str] = Counter()  # findings of every attempt, per kind
        self._queue_from = 0  # rows before this one have no finding waiting for a verdict
        self._order_changes += 1  # the queue's cursor from before means nothing now

    # -- following the store ------------------------------------------------------------

    def refresh(self, *, force: bool = False) -> None:
        """Read what the store gained since the last look (at most every
        ``refresh_every`` seconds unless ``force``)."""
        with self._lock:
            now = self._clock.monotonic()
            if not force and self._checked is not None and now - self._checked < self.refresh_every:
                return
            self._checked = now
            if len(self.store) == len(self.rows) + self.skipped:
                if self._checked_verdicts is None:
                    self._read_verdicts()
                return  # nothing new: one count, no stream opened
            since = instant(self.rows[-1].created_us) if self.rows else None
            self._add_all(self.store.iter_json(since=since))
            if len(self.store) != len(self.rows) + self.skipped:
                self._reset()
                self.skipped = 0
                self._add_all(self.store.iter_json())
            if self._checked_verdicts is None:
                self._read_verdicts()

    def _read_verdicts(self) -> None:
        """The verdicts the store holds (read once; the pages add the ones they take)."""
        self._checked_verdicts = True
        if isinstance(self.store, VerdictShelf):
            self.book = VerdictBook(self.store.review_verdicts())

    def queue(self, *, by: str = "oldest", size: int = 20) -> tuple[list[Waiting], Counter[str]]:
        """The first ``size`` findings no verdict covers, oldest answer first
        (``by="oldest"``) or the most frequent waiting kind first (``by="rule"``),
        and how many wait per kind.

        The counts come from tallies kept as rows and verdicts arrive; the walk
        starts at the oldest answer that still had a waiting finding last time
        (verdicts only ever cover more), so a page costs the rows it shows, not
        the store."""
        book = self.book
        with self._lock:
            rows = self.rows
            start = min(self._queue_from, len(rows))
            totals = Counter(self.finding_kinds)
            changes = self._order_changes
        reviewed = book.reviewed_per_kind()
        waiting = Counter({k: n - reviewed.get(k, 0) for k, n in totals.items()})
        waiting = +waiting  # drop kinds with nothing waiting
        ranked = sorted(waiting.items(), key=lambda item: (-item[1], item[0]))
        order = [None] if by == "oldest" else [k for k, _ in ranked]
        found: list[Waiting] = []
        first_open: int | None = None
        for kind in order:
            for index in range(start, len(rows)):
                row = rows[index]
                if not row.findings:
                    continue
                opened = False
                for attempt, found_kind, low, high in row.findings:
                    if book.covers((row.id, attempt, low, high, found_kind)):
                        continue
                    opened = True
                    if kind is None or found_kind == kind:
                        found.append(
                            Waiting(
                                row.created_us, row.id, attempt, found_kind, low, high, row.question
                            )
                        )
                if opened and first_open is None:
                    first_open = index
                if len(found) >= size:
                    break
            if len(found) >= size:
                break
        with self._lock:
            if first_open is not None and changes == self._order_changes:
                self._queue_from = max(self._queue_from, first_open)
        return found[:size], waiting

    def _add_all(self, bodies: Iterable[str]) -> None:
        for body in bodies:
            try:
                data = json.loads(body)
                snapshot_id = data["id"]
                if snapshot_id in self._ids:
                    continue
                row, output = self._row(data, body)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError):
                self.skipped += 1
                continue
            self._add(row, output)

    def _shared(self, value: Any) -> Any:
        return self._strings.setdefault(value, value)

    def _row(self, data: Mapping[str, Any], body: str) -> tuple[Row, str]:
        verdicts = Counter(v["kind"] for v in data["verdicts"])
        violations = verdicts["violation"]
        trail = data.get("trail")
        if trail is None:  # format 1: the snapshot reader rebuilds its attempts
            passed = Snapshot.from_canonical(body).passed
            findings = list(data["findings"])
            trail = None
        else:
            first = trail[0] if trail else None
            passed = not violations and (
                not data["findings"]
                if first is None
                else first["action"] == "accept" and not first["findings"]
            )
            findings = [f for attempt in trail for f in attempt["findings"]]
            findings.extend(data["findings"])
        reviewable = _reviewable(trail, data["findings"], self._shared)
        facts = data["facts"]
        shared = self._shared
        breakers = frozenset(
            str(f["source"]) for f in facts if f["silent_reason"] == _CIRCUIT_OPEN and f["source"]
        )
        row = Row(
            created_us=micros(datetime.fromisoformat(data["created_at"])),
            id=data["id"],
            ordinal=len(self._texts),
            status=shared(str(data["status"])),
            prompt_version=shared(str(data["prompt_version"])),
            passed=passed,
            abstained=abstains(str(data["status"]), verdicts.elements()),
            grounded=verdicts["grounded"],
            silent=verdicts["silent"],
            violations=violations,
            kinds=shared(frozenset(str(f.get("kind")) for f in findings)),
            sources=shared(frozenset(str(f["source"]) for f in facts if f["source"])),
            subjects=shared(frozenset(str(f["subject"]).casefold() for f in facts)),
            breakers=shared(breakers),
            question=shared(str(data["question"])[:200]),
            findings=reviewable,
        )
        texts = [str(data["output"])]
        texts.extend(str(a["text"]) for a in trail or () if a.get("text") and a["text"] != texts[0])
        return row, "\n".join(texts)

    def _add(self, row: Row, output: str) -> None:
        self._texts.append(output.casefold().encode("utf-8", "replace"))
        self._ids.add(row.id)
        if not self.rows or self.rows[-1] < row:
            self.rows.append(row)
        else:  # written late: keep the time order (and the queue looks from the start)
            bisect.insort(self.rows, row)
            self._queue_from = 0
            self._order_changes += 1
        for finding in row.findings:
            self.finding_kinds[finding[1]] += 1
        day = row.created_us // _DAY_US
        self.days.setdefault(day, Tallies()).add(row)
        self.versions.setdefault(row.prompt_version, Tallies()).add(row)
        first = self.version_first.get(row.prompt_version)
        if first is None or row.created_us < first:
            self.version_first[row.prompt_version] = row.created_us
        for kind in row.kinds:
            self.kinds[kind] += 1
        self.sources.update(row.sources)
        for source in row.breakers:
            self.breakers[source] += 1
            self.breakers_last[source] = max(self.breakers_last.get(source, 0), row.created_us)

    # -- reading -------------------------------------------------------------------------

    def day_tallies(self, last: int = 60) -> list[tuple[datetime, Tallies]]:
        """The last ``last`` days that have answers, oldest first (UTC days)."""
        with self._lock:
            days = sorted(self.days)[-last:]
            return [(instant(day * _DAY_US), self.days[day]) for day in days]

    def version_tallies(self) -> list[tuple[str, Tallies]]:
        """Every prompt version, in order of first use."""
        with self._lock:
            order = sorted(self.versions, key=lambda v: (self.version_first[v], v))
            return [(version, self.versions[version]) for version in order]

    def choices(self) -> dict[str, list[str]]:
        """The values the list's filters offer."""
        with self._lock:
            return {
                "prompt_version": sorted(self.versions),
                "kind": sorted(self.kinds),
                "source": sorted(self.sources),
            }

    def page(
        self, filters: Filters, *, before: str = "", after: str = "", size: int = PAGE_SIZE
    ) -> Page:
        """The ``size`` newest answers matching ``filters`` older than the key
        ``before`` (or the ``size`` oldest newer than ``after``)."""
        test = filters.predicate()
        with self._lock:
            matching = self.rows
            if test is not None:
                matching = [row for row in matching if test(row)]
            if filters.text:  # bytes.find per row: C speed, no per-match Python
                needle, texts = filters.text.casefold().encode("utf-8", "replace"), self._texts
                matching = [row for row in matching if needle in texts[row.ordinal]]
        total = len(matching)
        high = len(matching)
        after_key = parse_key(after) if after else None
        before_key = parse_key(before) if before else None
        if after_key is not None:
            low = bisect.bisect_right(matching, after_key, key=lambda r: (r.created_us, r.id))
            high = min(total, low + size)
        elif before_key is not None:
            high = bisect.bisect_left(matching, before_key, key=lambda r: (r.created_us, r.id))
        low = max(0, high - size)
        rows = tuple(reversed(matching[low:high]))
        older = row_key(matching[low]) if low > 0 else None
        newer = row_key(matching[high - 1]) if high < total and high > 0 else None
        return Page(rows=rows, total=total, older=older, newer=newer)

    def __len__(self) -> int:
        return len(self.rows)
