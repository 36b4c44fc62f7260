"""The summary the pages filter and count: filters, pages, following the store."""

from __future__ import annotations

from datetime import timedelta

from review.population import GOOD, T0, answer
from vouched import Snapshot, SqliteSnapshotStore
from vouched._review._index import Filters, ReviewIndex
from vouched.testing import FakeClock


def _index(store: SqliteSnapshotStore, clock: FakeClock | None = None) -> ReviewIndex:
    index = ReviewIndex(store, clock=clock or FakeClock(T0), refresh_every=2.0)
    index.refresh(force=True)
    return index


def test_every_snapshot_gets_one_row(store: SqliteSnapshotStore) -> None:
    assert len(_index(store)) == len(store)


def test_status_and_kind_filters_pick_the_refused_wrong_answers(store: SqliteSnapshotStore) -> None:
    page = _index(store).page(Filters(status="refused", kind="value_mismatch"))
    assert page.total == 4
    assert all(row.status == "refused" and "value_mismatch" in row.kinds for row in page.rows)


def test_the_list_is_newest_first(store: SqliteSnapshotStore) -> None:
    rows = _index(store).page(Filters()).rows
    assert [r.created_us for r in rows] == sorted((r.created_us for r in rows), reverse=True)


def test_free_text_searches_what_the_model_said_ignoring_case(
    store: SqliteSnapshotStore,
) -> None:
    page = _index(store).page(Filters(text="ONERROR=ALERT"))
    assert [row.question.startswith("What is <script>") for row in page.rows] == [True]


def test_free_text_searches_the_output_sent(store: SqliteSnapshotStore) -> None:
    assert _index(store).page(Filters(text="could not be checked")).total == 5


def test_source_subject_and_time_filters_combine(store: SqliteSnapshotStore) -> None:
    page = _index(store).page(
        Filters(
            source="wind-api",
            subject="Berlin",
            since=T0 + timedelta(days=1),
            until=T0 + timedelta(days=2),
        )
    )
    assert page.total == 4


def test_a_page_cut_by_key_shows_the_same_rows_after_newer_answers_arrive(
    store: SqliteSnapshotStore,
) -> None:
    clock = FakeClock(T0)
    index = _index(store, clock)
    first = index.page(Filters(), size=5)
    assert first.older is not None
    second = index.page(Filters(), before=first.older, size=5)
    store.write(answer(T0 + timedelta(days=5), GOOD, version="p2"))
    clock.advance(2.0)
    index.refresh()
    assert index.page(Filters(), before=first.older, size=5).rows == second.rows


def test_the_index_looks_at_the_store_again_only_after_refresh_every(
    store: SqliteSnapshotStore,
) -> None:
    clock = FakeClock(T0)
    index = _index(store, clock)
    store.write(answer(T0 + timedelta(days=5), GOOD, version="p2"))
    clock.advance(1.9)
    index.refresh()
    assert len(index) == len(store) - 1
    clock.advance(0.1)
    index.refresh()
    assert len(index) == len(store)


def test_a_snapshot_written_late_with_an_older_time_is_found(store: SqliteSnapshotStore) -> None:
    clock = FakeClock(T0)
    index = _index(store, clock)
    late: Snapshot = answer(T0 - timedelta(days=3), GOOD, version="p0")
    store.write(late)
    clock.advance(2.0)
    index.refresh()
    assert index.page(Filters(prompt_version="p0")).rows[0].id == late.id


def test_overview_tallies_count_failures_and_abstention_per_day(store: SqliteSnapshotStore) -> None:
    days = _index(store).day_tallies()
    first_day = days[0][1]
    assert (first_day.answers, first_day.failed, first_day.abstained) == (4, 1, 1)


def test_breakers_name_the_sources_whose_circuit_was_open(store: SqliteSnapshotStore) -> None:
    assert dict(_index(store).breakers) == {"wind-api": 4}


class _Counting:
    """A store that counts the streams opened on it."""

    def __init__(self, store: SqliteSnapshotStore) -> None:
        self.store = store
        self.streams = 0

    def iter_json(self, **window: object) -> object:
        self.streams += 1
        return self.store.iter_json(**window)  # type: ignore[arg-type]

    def get(self, snapshot_id: str) -> object:
        return self.store.get(snapshot_id)

    def __len__(self) -> int:
        return len(self.store)


def test_a_refresh_with_nothing_new_opens_no_stream(store: SqliteSnapshotStore) -> None:
    clock = FakeClock(T0)
    counting = _Counting(store)
    index = ReviewIndex(counting, clock=clock)  # type: ignore[arg-type]
    index.refresh(force=True)
    opened = counting.streams
    clock.advance(10.0)
    index.refresh()
    assert counting.streams == opened


def test_a_corrupt_row_is_skipped_and_counted_not_read_again_and_again(
    store: SqliteSnapshotStore,
) -> None:
    import sqlite3  # noqa: PLC0415 - a row written behind the store's back

    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "INSERT INTO snapshots (id, created_us, prompt_version, body) VALUES (?, ?, ?, ?)",
            ("f" * 32, 1, "p1", "{not json"),
        )
    clock = FakeClock(T0)
    counting = _Counting(store)
    index = ReviewIndex(counting, clock=clock)  # type: ignore[arg-type]
    index.refresh(force=True)
    opened = counting.streams
    clock.advance(10.0)
    index.refresh()
    assert (index.skipped, len(index), counting.streams) == (1, len(store) - 1, opened)
