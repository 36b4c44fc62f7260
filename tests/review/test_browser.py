"""The review pages in a real browser: Debian's chromium driven by Playwright.

Never a downloaded browser: ``executable_path`` is the system's chromium.
Outside CI a missing chromium (or playwright) skips these tests with one
line; in CI (``CI`` set) it fails them. Each page's screenshot is written
to a folder this module prints (``VOUCHED_SCREENSHOTS`` picks it).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from review.population import T0
from server._serving import serving
from vouched import Policy, SqliteSnapshotStore
from vouched.testing import FakeClock

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI needs it: .ci/run installs chromium with apt)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    if not Path(CHROMIUM).is_file():
        _missing("no chromium at /usr/bin/chromium (apt-get install chromium)")
    pytest.importorskip("jinja2", reason="the review pages need vouched[server]")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shots(pytestconfig: pytest.Config) -> Path:
    folder = Path(
        os.environ.get("VOUCHED_SCREENSHOTS") or tempfile.mkdtemp(prefix="vouched-review-")
    )
    folder.mkdir(parents=True, exist_ok=True)
    # Said past pytest's capture, so a plain `make test` shows where they are.
    reporter = pytestconfig.pluginmanager.get_plugin("terminalreporter")
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"\nreview screenshots: {folder}")
    return folder


@pytest.fixture
def site(store: SqliteSnapshotStore) -> Iterator[str]:
    from vouched._review import create_review_app  # noqa: PLC0415

    app = create_review_app(
        store, clock=FakeClock(T0), policies={"ttl-1min.json": Policy(max_ttl=60)}
    )
    with serving(app, lifespan="off") as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.errors = errors
    yield opened
    context.close()


def test_overview_to_filtered_list_to_one_answer_to_replay(
    site: str, page: Any, shots: Path
) -> None:
    page.goto(site + "/")
    page.screenshot(path=shots / "overview.png", full_page=True)
    page.click("#kinds a:text('value_mismatch')")
    assert page.inner_text("#count").startswith("4 answers match")
    page.select_option("select[name=prompt_version]", "p2")  # applies at once (script)
    page.wait_for_url("**prompt_version=p2**")
    assert page.inner_text("#count").startswith("2 answers match")
    page.screenshot(path=shots / "answers.png", full_page=True)
    page.click("a.row-link >> nth=0")
    page.wait_for_selector("mark.finding")
    page.screenshot(path=shots / "answer.png", full_page=True)
    page.click("nav >> text=Replay")
    page.select_option("select[name=policy]", "ttl-1min.json")
    page.click("button:text('Replay')")
    page.wait_for_selector("#replay-summary")
    assert "now fail" in page.inner_text("#replay-summary")
    assert page.locator("article.flip.to_fail").count() > 0
    page.screenshot(path=shots / "replay.png", full_page=True)
    assert page.errors == []


def test_highlights_sit_on_the_words_the_findings_name(site: str, page: Any) -> None:
    page.goto(site + "/answers?kind=silent_spoken")
    page.click("a.row-link >> nth=0")
    page.wait_for_load_state("load")  # the page's script is in (deferred)
    marks = page.locator("#a1-text mark.finding").all_inner_texts()
    assert marks == ["70%", "12 km/h"]
    assert "value_mismatch" in page.get_attribute("#a1-f1", "title")


def test_the_keyboard_reaches_every_finding(site: str, page: Any) -> None:
    page.goto(site + "/answers?kind=silent_spoken")
    page.click("a.row-link >> nth=0")
    page.wait_for_load_state("load")  # the page's script is in (deferred)
    expected = set(page.eval_on_selector_all("mark.finding[id]", "ms => ms.map(m => m.id)"))
    expected |= set(
        page.eval_on_selector_all("a.jump", "as => as.map(a => a.getAttribute('href'))")
    )
    reached: set[str] = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e.id && e.tagName === 'MARK' ? e.id : e.getAttribute('href') }"
        )
        if focused:
            reached.add(focused)
    assert expected <= reached
    assert page.errors == []


def test_n_moves_to_the_next_finding(site: str, page: Any) -> None:
    page.goto(site + "/answers?kind=silent_spoken")
    page.click("a.row-link >> nth=0")
    page.wait_for_load_state("load")  # the page's script is in (deferred)
    page.keyboard.press("n")
    page.keyboard.press("n")
    assert page.evaluate("() => document.activeElement.id") == "a1-f2"


def test_the_pages_read_without_javascript(browser: Any, site: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    plain = context.new_page()
    plain.goto(site + "/answers?kind=value_mismatch")
    plain.click("a.row-link >> nth=0")
    assert plain.locator("mark.finding").count() >= 2
    context.close()


def test_hostile_text_stays_text_in_the_browser(site: str, page: Any, shots: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(site + "/answers?q=onerror")
    page.click("a.row-link >> nth=0")
    assert "<script>" in page.inner_text("dd.question")
    assert page.locator("main img, main script").count() == 0
    page.screenshot(path=shots / "hostile.png", full_page=True)
    assert (dialogs, page.errors) == ([], [])


def test_dark_scheme_draws_the_charts_in_light_ink(browser: Any, site: str, shots: Path) -> None:
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    dark = context.new_page()
    dark.goto(site + "/")
    ink = dark.eval_on_selector("svg.chart .tick", "e => getComputedStyle(e).fill")
    dark.screenshot(path=shots / "overview-dark.png", full_page=True)
    context.close()
    assert ink == "rgb(145, 152, 161)"
