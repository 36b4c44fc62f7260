"""Verdicts in a real browser (Debian's chromium, driven by Playwright; never a
downloaded browser): a reviewer marks findings with the keyboard, the
overview's precision changes, and ``vouched replay --verdicts`` catches a
change that brings back a finding the reviewer marked a false alarm.

The overview's precision screenshot is ``review-precision.png`` in the
screenshots folder (``docs/review-precision.png`` is a copy of it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from review.population import T0, population
from review.test_browser import browser, page, shots
from review.test_lexicon_recorded import INTERNAL, _answer
from server._serving import serving
from vouched import SqliteSnapshotStore
from vouched.testing import FakeClock, run_cli

__all__ = ["browser", "page", "shots"]  # the fixtures, shared with test_browser

INTERNAL_WORD = "The backend says the humidity in Berlin is 63%."


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The review population, and an answer refused for an internal word."""
    path = tmp_path / "answers.db"
    with SqliteSnapshotStore(path) as store:
        store.write_many(population())
        # Playwright's own event loop runs in this thread: answer in another one
        with ThreadPoolExecutor(1) as other:
            other.submit(_answer, store, INTERNAL, INTERNAL_WORD).result()
    return path


@pytest.fixture
def site(db: Path) -> Iterator[str]:
    from vouched._review import create_review_app  # noqa: PLC0415

    with SqliteSnapshotStore(db) as store:
        app = create_review_app(store, clock=FakeClock(T0), read_only=False, reviewer="ana")
        with serving(app, lifespan="off") as url:
            yield url


def _totals(page: Any, table: str) -> tuple[int, int, int]:
    """Reviewed, confirmed and false alarms, summed over a precision table's rows."""
    rows = page.locator(f"#{table} tbody tr").all()
    cells = [[int(c) for c in r.locator("td").all_inner_texts()[:3]] for r in rows]
    return (sum(c[0] for c in cells), sum(c[1] for c in cells), sum(c[2] for c in cells))


def test_a_reviewer_marks_findings_by_keyboard_and_the_precision_changes(
    site: str, page: Any, shots: Path
) -> None:
    page.goto(site + "/")
    assert "No verdict yet" in page.inner_text("#precision-h + *")
    page.goto(site + "/queue?order=rule")
    page.wait_for_load_state("load")
    for key in ("r", "r", "f"):  # right, right, a false alarm: each back to the queue
        with page.expect_navigation():
            page.keyboard.press(key)
        page.wait_for_load_state("load")
    page.keyboard.press("j")  # the next one is selected, not marked
    assert page.locator("li.queued").nth(1).get_attribute("class") == "queued selected"
    page.goto(site + "/")
    assert _totals(page, "precision-kinds") == (3, 2, 1)
    assert _totals(page, "precision-rules") == (3, 2, 1)
    page.locator("#precision-h").scroll_into_view_if_needed()
    page.locator("section[aria-labelledby=precision-h]").screenshot(
        path=shots / "review-precision.png"
    )
    assert page.errors == []


def test_replay_verdicts_catches_a_change_that_brings_back_a_false_alarm(
    site: str, page: Any, db: Path, tmp_path: Path
) -> None:
    page.goto(site + "/answers?q=backend")
    page.click("a.row-link >> nth=0")
    page.wait_for_load_state("load")
    page.keyboard.press("n")  # the first finding: the internal word
    assert page.evaluate("() => document.activeElement.textContent") == "backend"
    with page.expect_navigation():
        page.keyboard.press("f")  # a false alarm: "backend" is fine to say
    assert "false alarm (ana)" in page.inner_text("ol.findings")

    fixed = tmp_path / "fixed.json"  # the lexicon after the fix: "backend" is no term
    fixed.write_text(json.dumps({"attributes": {"humidity": ["humidity"]}}), encoding="utf-8")
    back = tmp_path / "back.json"  # a later change that lists it again
    back.write_text(json.dumps(INTERNAL.to_json()), encoding="utf-8")
    held = run_cli(["replay", "--store", str(db), "--verdicts", "--lexicon", str(fixed)])
    assert held.returncode == 0, held.stdout
    caught = run_cli(["replay", "--store", str(db), "--verdicts", "--lexicon", str(back)])
    assert caught.returncode == 1
    assert re.search(r"REGRESSION a false alarm fires again: internal_vocabulary", caught.stdout)
    assert page.errors == []
