"""The pages over a real store, in process: what they show, what they refuse."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

from review.population import HOSTILE_QUESTION, T0, population
from server._serving import InProcess
from vouched import Policy, SqliteSnapshotStore
from vouched._review import create_review_app
from vouched.testing import FakeClock

TOKEN = "s3cret"  # noqa: S105 - a test token


def _pages(store: SqliteSnapshotStore, **options: object) -> InProcess:
    return InProcess(create_review_app(store, clock=FakeClock(T0), **options))  # type: ignore[arg-type]


def _hostile_id() -> str:
    return next(s.id for s in population() if s.question == HOSTILE_QUESTION)


def test_text_from_the_store_is_escaped_never_markup(store: SqliteSnapshotStore) -> None:
    html = _pages(store).get(f"/answers/{_hostile_id()}").text
    assert "<script>" not in html.replace('<script src="/static/review.js" defer></script>', "")
    assert "<img" not in html
    assert "&lt;script&gt;" in html


def test_bidi_and_control_characters_show_as_escapes(store: SqliteSnapshotStore) -> None:
    html = _pages(store).get(f"/answers/{_hostile_id()}").text
    assert not re.search("[\u202a-\u202e\u2066-\u2069\x00-\x08\x0b-\x1f\x7f]", html)
    assert "\\u202e" in html
    assert "\\x1b" in html


def test_the_list_escapes_the_question_too(store: SqliteSnapshotStore) -> None:
    html = _pages(store).get("/answers?prompt_version=p2").text
    assert "&lt;script&gt;alert" in html


def test_every_page_carries_a_strict_content_security_policy(store: SqliteSnapshotStore) -> None:
    response = _pages(store).get("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert "unsafe-inline" not in response.headers["content-security-policy"]


def test_a_host_that_is_not_this_service_is_refused(store: SqliteSnapshotStore) -> None:
    response = _pages(store).get("/", headers={"host": "attacker.example"})
    assert response.status_code == 400


def test_a_token_is_required_when_set(store: SqliteSnapshotStore) -> None:
    response = _pages(store, token=TOKEN).get("/")
    assert (response.status_code, response.headers["www-authenticate"][:5]) == (401, "Basic")


def test_a_bearer_token_opens_the_pages(store: SqliteSnapshotStore) -> None:
    pages = _pages(store, token=TOKEN)
    assert pages.get("/", headers={"authorization": "Bearer s3cret"}).status_code == 200


def test_the_browsers_basic_prompt_with_the_token_as_password_opens_the_pages(
    store: SqliteSnapshotStore,
) -> None:
    login = base64.b64encode(b"anyone:s3cret").decode()
    pages = _pages(store, token=TOKEN)
    assert pages.get("/", headers={"authorization": f"Basic {login}"}).status_code == 200


def test_a_wrong_token_is_refused(store: SqliteSnapshotStore) -> None:
    pages = _pages(store, token=TOKEN)
    assert pages.get("/", headers={"authorization": "Bearer guess"}).status_code == 401


def test_the_pages_accept_no_writes(store: SqliteSnapshotStore) -> None:
    assert _pages(store).post("/answers", data={"a": "b"}).status_code == 405


def test_an_unknown_answer_is_a_404_page(store: SqliteSnapshotStore) -> None:
    assert _pages(store).get("/answers/" + "0" * 32).status_code == 404


def test_a_bad_time_filter_says_which_field(store: SqliteSnapshotStore) -> None:
    response = _pages(store).get("/answers?since=yesterday")
    assert response.status_code == 400
    assert "since: give a date" in response.text


def test_the_overview_draws_each_rate_beside_its_table(store: SqliteSnapshotStore) -> None:
    html = _pages(store).get("/").text
    assert html.count('<svg class="chart"') == 2
    assert 'id="by-day-table"' in html
    assert 'id="by-version-table"' in html


def test_replay_under_a_stricter_policy_shows_the_answers_that_now_fail(
    store: SqliteSnapshotStore,
) -> None:
    pages = _pages(store, policies={"ttl-1min": Policy(max_ttl=60)})
    html = pages.get("/replay?policy=ttl-1min&lexicon=none&sample=100").text
    assert "passed then, fails now" in html
    assert "per prompt version (then -&gt; now)" in html


def test_replay_of_an_unknown_rule_version_is_refused(store: SqliteSnapshotStore) -> None:
    assert _pages(store).get("/replay?policy=../../etc/passwd").status_code == 400


def test_the_static_files_are_served_by_the_package(store: SqliteSnapshotStore) -> None:
    response = _pages(store).get("/static/review.css")
    assert (response.status_code, "prefers-color-scheme: dark" in response.text) == (200, True)


def test_the_demo_store_in_examples_is_what_vouched_demo_writes(tmp_path: Path) -> None:
    from vouched._cli import main  # noqa: PLC0415
    from vouched._replay._jsonl import export_jsonl  # noqa: PLC0415

    target = tmp_path / "demo.db"
    assert main(["demo", "--store", str(target)]) == 0
    out = tmp_path / "demo.jsonl"
    with SqliteSnapshotStore(target, read_only=True) as written, out.open("w") as handle:
        export_jsonl(written, handle)
    examples = Path(__file__).resolve().parents[2] / "examples" / "demo-snapshots.jsonl"
    assert out.read_text() == examples.read_text()


def test_the_readme_replay_of_the_demo_store_under_the_example_policy_flips_two() -> None:
    from vouched._cli._replay import load_policy  # noqa: PLC0415
    from vouched._cli._review import open_store  # noqa: PLC0415

    examples = Path(__file__).resolve().parents[2] / "examples"
    store = open_store(str(examples / "demo-snapshots.jsonl"))
    pages = InProcess(
        create_review_app(
            store, policies={"policy.json": load_policy(str(examples / "policy.json"))}
        )
    )
    html = pages.get("/replay?policy=policy.json&lexicon=none&sample=100").text
    assert re.search(r"<strong class=\"worse\">2 now fail</strong>", html)


def test_a_fact_shows_its_age_then_beside_its_ttl(store: SqliteSnapshotStore) -> None:
    html = _pages(store).get(f"/answers/{_hostile_id()}").text
    assert "<td>5 min</td><td>15 min</td>" in html


def test_one_answer_is_counted_in_the_singular() -> None:
    from vouched._cli._review import open_store  # noqa: PLC0415

    examples = Path(__file__).resolve().parents[2] / "examples"
    pages = InProcess(create_review_app(open_store(str(examples / "demo-snapshots.jsonl"))))
    html = pages.get("/answers?status=refused").text
    assert "1 answer matches," in html
