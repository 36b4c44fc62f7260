"""The review pages read stores the way the CLI reads files, and no request
can break a page: a link to /dev/zero or a FIFO named ``.jsonl`` is refused at
once, a bad line skipped and counted, a date at the end of time and a key of
5,000 digits are 4xx never 5xx, a store that does not answer is a 503 within
the store timeout, the 404 echo is cut short, another site cannot make the
service replay, and invisible characters show as escapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

from review.population import T0, population
from server._serving import InProcess
from vouched import Policy, Snapshot
from vouched._exceptions import printable
from vouched._review import create_review_app
from vouched.testing import FakeClock, MemorySnapshotStore

VOUCHED = [sys.executable, "-m", "vouched"]


def _pages(store: object, **options: object) -> InProcess:
    return InProcess(create_review_app(store, clock=FakeClock(T0), **options))  # type: ignore[arg-type]


def _review(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*VOUCHED, "review", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip


def test_a_jsonl_link_to_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    link = tmp_path / "z.jsonl"
    link.symlink_to("/dev/zero")
    done = _review(str(link))
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert "not a regular file" in done.stderr


def test_a_fifo_named_jsonl_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    done = _review(str(fifo))
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert "a FIFO" in done.stderr


def test_bad_lines_of_a_jsonl_store_are_skipped_and_counted(tmp_path: Path) -> None:
    from vouched._cli._stores import open_store  # noqa: PLC0415

    good = population()[:3]
    path = tmp_path / "s.jsonl"
    lines = [s.canonical_json() for s in good]
    path.write_bytes(b"\xff\xfe not utf-8\n{not json}\n" + "\n".join(lines).encode() + b"\n")
    skipped: list[object] = []
    store = open_store(str(path), skipped=skipped)
    assert len(store) == 3
    assert len(skipped) == 2


def test_a_line_past_the_cap_is_skipped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vouched import _files  # noqa: PLC0415
    from vouched._cli._stores import open_store  # noqa: PLC0415

    monkeypatch.setitem(_files.LINE_LIMITS, "snapshots", 10_000)
    path = tmp_path / "s.jsonl"
    good = population()[0].canonical_json()
    path.write_text("x" * 50_000 + "\n" + good + "\n", encoding="utf-8")
    skipped: list[object] = []
    assert len(open_store(str(path), skipped=skipped)) == 1
    assert "longer than 10,000 bytes" in str(skipped[0])


def test_replay_reads_the_jsonl_export(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    path.write_text("".join(s.canonical_json() + "\n" for s in population()), encoding="utf-8")
    done = subprocess.run([*VOUCHED, "replay", "--store", str(path), "--json"],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["snapshots"] == len(population())


def _at_the_end_of_time() -> Snapshot:
    return Snapshot.build(
        created_at=datetime(9999, 12, 31, 23, 0, tzinfo=UTC), question="Late?", facts=[],
        policy=Policy(), prompt_version="p1", phraser="t", output="ok", status="ok",
    )  # fmt: skip


def test_a_snapshot_created_on_the_last_day_there_is_leaves_the_overview_a_200() -> None:
    store = MemorySnapshotStore([*population()[:2], _at_the_end_of_time()])
    assert _pages(store).get("/").status_code == 200


@pytest.mark.parametrize(
    "query", ["before=" + "9" * 5000 + ".x", "after=" + "9" * 5000 + ".abc", "before=²³.x"]
)
def test_keys_are_bounded_before_arithmetic(query: str) -> None:
    store = MemorySnapshotStore(population()[:2])
    assert _pages(store).get(f"/answers?{query}").status_code < 500


def test_the_404_page_echoes_a_long_id_cut_short() -> None:
    page = _pages(MemorySnapshotStore()).get("/answers/" + "a" * 60_000)
    assert page.status_code == 404
    assert len(page.text) < 10_000
    assert "60,000 characters" in page.text


class _Down(MemorySnapshotStore):
    """A store whose server has gone: every read waits, then fails."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def iter_json(self, **kw: object) -> Iterator[str]:  # type: ignore[override]
        self.release.wait(30)
        raise OSError("connection refused")

    def __len__(self) -> int:
        self.release.wait(30)
        raise OSError("connection refused")


def test_a_store_that_does_not_answer_is_a_503_within_the_store_timeout() -> None:
    store = _Down()
    try:
        page = _pages(store, store_timeout=0.2).get("/")
    finally:
        store.release.set()
    assert page.status_code == 503
    assert "did not answer within 0.2 s" in page.text


def test_a_store_that_fails_is_a_503_page() -> None:
    store = _Down()
    store.release.set()
    page = _pages(store).get("/answers")
    assert page.status_code == 503
    assert "connection refused" in page.text


def test_the_replay_page_refuses_another_sites_request() -> None:
    pages = _pages(MemorySnapshotStore(population()[:2]))
    page = pages.get("/replay?policy=default&sample=1000", headers={"sec-fetch-site": "cross-site"})
    assert page.status_code == 403
    assert pages.get("/replay", headers={"sec-fetch-site": "same-origin"}).status_code == 200


def test_invisible_format_characters_show_as_visible_escapes() -> None:
    text = "ok\u200b\u2060\ufeff\U000e0069\U000e0067\u00ad"
    assert printable(text) == "ok\\u200b\\u2060\\ufeff\\U000e0069\\U000e0067\\xad"
    snapshot = Snapshot.build(
        created_at=T0, question="Hidden" + text, facts=[], policy=Policy(),
        prompt_version="p1", phraser="t", output="Fine" + text, status="ok",
    )  # fmt: skip
    html = _pages(MemorySnapshotStore([snapshot])).get(f"/answers/{snapshot.id}").text
    assert "\u200b" not in html
    assert "\U000e0069" not in html
    assert "\\U000e0069" in html
