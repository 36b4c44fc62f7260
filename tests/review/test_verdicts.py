"""Reviewers' verdicts on the pages (issue 43, items 1 and 2): taken as form
POSTs with the session's token, refused from other sites and when read-only,
appended beside the snapshots, counted as precision, and queued."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jinja2", reason="the review pages need vouched[server]")

from review.population import T0
from server._serving import InProcess
from vouched import Snapshot, SqliteSnapshotStore
from vouched._replay._jsonl import export_jsonl
from vouched._replay._open import open_snapshot_store
from vouched._replay._verdicts import Mark
from vouched._review import create_review_app
from vouched._review._verdicting import COOKIE, Sessions
from vouched.testing import FakeClock

TOKEN = "s3cret"  # noqa: S105 - a test token


class Reviewer:
    """The pages as one browser session uses them: its cookie and its token."""

    def __init__(self, store: Any, **options: Any) -> None:
        options.setdefault("read_only", False)
        options.setdefault("reviewer", "ana")
        self.pages = InProcess(
            create_review_app(store, clock=FakeClock(T0), sessions=Sessions(b"k" * 32), **options)
        )
        first = self.pages.get("/")
        self.cookie = first.cookies.get(COOKIE, "")
        self.csrf = ""
        if self.cookie:
            page = self.get("/queue").text
            found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
            self.csrf = found.group(1) if found else ""

    def get(self, path: str, **kw: Any) -> Any:
        return self.pages.get(path, headers={"cookie": f"{COOKIE}={self.cookie}"}, **kw)

    def mark(self, snapshot: Snapshot, finding: dict[str, Any], mark: str, **extra: Any) -> Any:
        form = {
            "csrf": self.csrf,
            "attempt": "1",
            "kind": finding["kind"],
            "start": str(finding["start"]),
            "end": str(finding["end"]),
            "mark": mark,
            **extra,
        }
        headers = extra.pop("headers", None) or {}
        form.pop("headers", None)
        return self.pages.post(
            f"/answers/{snapshot.id}/verdicts",
            data=form,
            headers={"cookie": f"{COOKIE}={self.cookie}", **headers},
        )


def _wrong(store: SqliteSnapshotStore) -> tuple[Snapshot, dict[str, Any]]:
    """The oldest answer whose first attempt has a finding, and that finding."""
    snapshot = next(s for s in store.iter() if s.trail and s.trail[0].findings)
    return snapshot, dict(snapshot.trail[0].findings[0])


def test_marking_a_finding_right_stores_who_when_rule_kind_and_span(
    store: SqliteSnapshotStore,
) -> None:
    snapshot, finding = _wrong(store)
    done = Reviewer(store).mark(snapshot, finding, "right", note="clearly 63%")
    assert done.status_code == 303
    (verdict,) = store.review_verdicts()
    assert (verdict.mark, verdict.reviewer, verdict.at) == (Mark.RIGHT, "ana", T0)
    assert (verdict.kind, verdict.rule, verdict.start, verdict.end) == (
        finding["kind"],
        finding["kind"],
        finding["start"],
        finding["end"],
    )
    assert (verdict.text, verdict.note) == (finding["text"], "clearly 63%")


def test_a_verdict_never_changes_its_snapshot(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    Reviewer(store).mark(snapshot, finding, "false_alarm")
    again = store.get(snapshot.id)
    assert again is not None
    assert again.canonical_json() == snapshot.canonical_json()


def test_a_post_without_the_sessions_token_is_refused(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    reviewer = Reviewer(store)
    reviewer.csrf = "0" * 32
    assert reviewer.mark(snapshot, finding, "right").status_code == 403
    assert list(store.review_verdicts()) == []


@pytest.mark.parametrize(
    "headers",
    [{"sec-fetch-site": "cross-site"}, {"origin": "https://attacker.example"}, {"origin": "null"}],
    ids=["fetch-metadata", "origin", "opaque-origin"],
)
def test_a_post_from_another_site_is_refused(
    store: SqliteSnapshotStore, headers: dict[str, str]
) -> None:
    snapshot, finding = _wrong(store)
    assert Reviewer(store).mark(snapshot, finding, "right", headers=headers).status_code == 403
    assert list(store.review_verdicts()) == []


@pytest.mark.parametrize(
    "origin",
    ["http://127.0.0.1", "null"],  # null: what a browser sends under no-referrer
)
def test_a_post_from_the_pages_own_origin_is_taken(store: SqliteSnapshotStore, origin: str) -> None:
    snapshot, finding = _wrong(store)
    headers = {"origin": origin, "sec-fetch-site": "same-origin"}
    assert Reviewer(store).mark(snapshot, finding, "right", headers=headers).status_code == 303


def test_read_only_pages_show_no_form_and_refuse_a_post(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    reviewer = Reviewer(store, read_only=True)
    assert 'class="verdict"' not in reviewer.get(f"/answers/{snapshot.id}").text
    assert reviewer.mark(snapshot, finding, "right").status_code == 405


def test_a_verdict_on_no_such_finding_is_refused_naming_it(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    done = Reviewer(store).mark(snapshot, {**finding, "start": finding["start"] + 1}, "right")
    assert done.status_code == 400
    assert "no such finding" in done.text


def test_a_missed_mistake_keeps_the_selected_words(store: SqliteSnapshotStore) -> None:
    snapshot = next(s for s in store.iter() if s.trail and not s.trail[0].findings)
    text = snapshot.trail[0].text or snapshot.output
    start = text.index("21.4")
    done = Reviewer(store).mark(
        snapshot,
        {"kind": "value_mismatch", "start": start, "end": start + 4},
        "missed",
    )
    assert done.status_code == 303
    (verdict,) = store.review_verdicts()
    assert (verdict.mark, verdict.text) == (Mark.MISSED, "21.4")


def test_the_reviewer_is_named_by_the_trusted_header(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    reviewer = Reviewer(store, reviewer_header="X-Forwarded-User")
    reviewer.mark(snapshot, finding, "right", headers={"x-forwarded-user": "bo"})
    assert [v.reviewer for v in store.review_verdicts()] == ["bo"]


def _precision_row(html: str, table: str, name: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    row = re.search(rf'<th scope="row">{re.escape(name)}</th>(.*?)</tr>', body)
    assert row, f"no row {name} in {table}"
    return re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))


def test_the_overview_counts_precision_per_kind_and_the_latest_verdict_wins(
    store: SqliteSnapshotStore,
) -> None:
    reviewer = Reviewer(store)
    wrong = [s for s in store.iter() if s.trail and s.trail[0].findings]
    first, second = wrong[0], wrong[1]
    kind = first.trail[0].findings[0]["kind"]
    reviewer.mark(first, dict(first.trail[0].findings[0]), "right")
    reviewer.mark(second, dict(second.trail[0].findings[0]), "right")
    reviewer.mark(second, dict(second.trail[0].findings[0]), "false_alarm")  # a changed mind
    html = reviewer.get("/").text
    assert _precision_row(html, "precision-kinds", kind) == ["2", "1", "1", "50.0%", "0"]


def test_the_queue_shows_the_oldest_waiting_finding_first_and_drops_reviewed_ones(
    store: SqliteSnapshotStore,
) -> None:
    reviewer = Reviewer(store)
    snapshot, _ = _wrong(store)
    before = reviewer.get("/queue").text
    assert before.index(snapshot.id) < before.index("</ol>")
    first_link = re.search(r'href="/answers/([0-9a-f]+)\?next', before)
    assert first_link
    assert first_link.group(1) == snapshot.id
    for number, attempt in enumerate(snapshot.trail, start=1):
        for f in attempt.findings:
            reviewer.mark(snapshot, dict(f), "right", attempt=str(number))
    assert snapshot.id not in reviewer.get("/queue").text


def test_the_queue_by_rule_puts_the_most_frequent_waiting_kind_first(
    store: SqliteSnapshotStore,
) -> None:
    html = Reviewer(store).get("/queue?order=rule").text
    kinds = re.findall(r'<li class="queued[^"]*"[^>]*>\s*<p><code class="kind">([a-z_]+)', html)
    counts = dict(re.findall(r"([a-z_]+) (\d+)", html.split("waiting per kind:", 1)[1][:400]))
    top = min(counts, key=lambda k: (-int(counts[k]), k))  # ties: by name
    assert kinds[0] == top


def test_verdicts_on_a_jsonl_export_go_to_its_sidecar_file(
    store: SqliteSnapshotStore, tmp_path: Path
) -> None:
    export = tmp_path / "answers.jsonl"
    with export.open("w", encoding="utf-8") as out:
        export_jsonl(store, out)
    before = export.read_bytes()
    with open_snapshot_store(str(export)) as jsonl:
        snapshot, finding = _wrong(jsonl)  # type: ignore[arg-type]
        assert Reviewer(jsonl).mark(snapshot, finding, "false_alarm").status_code == 303
    sidecar = tmp_path / "answers.verdicts.jsonl"
    (line,) = sidecar.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["mark"] == "false_alarm"
    assert export.read_bytes() == before
    with open_snapshot_store(str(export)) as again:
        assert [v.mark for v in again.review_verdicts()] == [Mark.FALSE_ALARM]  # type: ignore[union-attr]


# -- wording (item 5) ------------------------------------------------------------------


def test_the_first_attempt_reads_by_its_findings_and_plurals_agree(
    store: SqliteSnapshotStore,
) -> None:
    clean = next(s for s in store.iter() if s.trail and not s.trail[0].findings)
    html = Reviewer(store, read_only=True).get(f"/answers/{clean.id}").text
    assert "first attempt: no finding · 0 findings in 1 attempt<" in html
    snapshot, _ = _wrong(store)
    html = Reviewer(store, read_only=True).get(f"/answers/{snapshot.id}").text
    count = len(snapshot.trail[0].findings)
    assert f"first attempt: {count} findings" in html
    assert "1 findings" not in html
    assert "1 attempts" not in html


def test_a_fact_violation_is_named_as_one_not_as_a_failed_attempt(tmp_path: Path) -> None:
    from datetime import timedelta  # noqa: PLC0415

    from review.population import answer, facts  # noqa: PLC0415
    from vouched import Fact  # noqa: PLC0415

    stale = Fact(
        subject="Berlin",
        attribute="pressure",
        value=1013,
        unit="hPa",
        source="meteo",
        observed_at=T0 - timedelta(days=2),
        ttl=900,
    )
    ok = answer(T0, "The temperature in Berlin is 21.4 °C.", version="p1")
    data = ok.to_json()
    data.pop("id")
    data["facts"] = [*data["facts"], stale.to_json()]
    data["verdicts"] = [
        *data["verdicts"],
        {"kind": "violation", "reason": "stale", "cardinal": False},
    ]
    snapshot = Snapshot.from_json(data)
    assert len(facts(T0)) + 1 == len(snapshot.facts)
    with SqliteSnapshotStore(tmp_path / "v.db") as store:
        store.write(snapshot)
        html = Reviewer(store, read_only=True).get(f"/answers/{snapshot.id}").text
    assert "first attempt: no finding" in html
    assert "1 fact violation (a fact the gate refused" in html


def test_the_subject_filter_ignores_case(store: SqliteSnapshotStore) -> None:
    pages = Reviewer(store, read_only=True)
    lower = pages.get("/answers?subject=berlin").text
    upper = pages.get("/answers?subject=BERLIN").text
    counted = re.compile(r'id="count">(\d+) answer')
    found_lower, found_upper = counted.search(lower), counted.search(upper)
    assert found_lower
    assert found_upper
    assert found_lower.group(1) == found_upper.group(1) != "0"


def test_the_window_fields_hint_their_format_instead_of_looking_filled(
    store: SqliteSnapshotStore,
) -> None:
    html = Reviewer(store, read_only=True).get("/answers").text
    assert 'placeholder="YYYY-MM-DD"' in html
    assert not re.search(r'placeholder="\d{4}-\d\d-\d\d"', html)


def test_postgresql_keeps_verdicts_in_a_table_beside_the_snapshots(
    snapshots: list[Snapshot],
) -> None:
    import uuid  # noqa: PLC0415

    psycopg = pytest.importorskip("psycopg")
    from fleet.services import require_postgres  # noqa: PLC0415

    base = require_postgres()
    schema = f"review_verdicts_{uuid.uuid4().hex[:10]}"  # ours alone on the shared server
    try:
        with open_snapshot_store(f"{base}?schema={schema}") as store:
            store.write_many(snapshots)  # type: ignore[union-attr]
            snapshot = next(s for s in snapshots if s.trail and s.trail[0].findings)
            finding = dict(snapshot.trail[0].findings[0])
            assert Reviewer(store).mark(snapshot, finding, "right").status_code == 303
            (verdict,) = store.review_verdicts()  # type: ignore[union-attr]
            assert (verdict.snapshot_id, verdict.mark) == (snapshot.id, Mark.RIGHT)
            again = store.get(snapshot.id)
            assert again is not None
            assert again.canonical_json() == snapshot.canonical_json()
    finally:
        with psycopg.connect(base, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_with_a_token_a_verdict_needs_it_too(store: SqliteSnapshotStore) -> None:
    snapshot, finding = _wrong(store)
    bearer = {"authorization": f"Bearer {TOKEN}"}
    pages = InProcess(
        create_review_app(
            store,
            clock=FakeClock(T0),
            read_only=False,
            token=TOKEN,
            sessions=Sessions(b"k" * 32),
        )
    )
    first = pages.get("/queue", headers=bearer)
    cookie = first.cookies.get(COOKIE, "")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', first.text)
    assert token
    form = {"csrf": token.group(1), "attempt": "1", "kind": finding["kind"], "mark": "right"}
    form |= {"start": str(finding["start"]), "end": str(finding["end"])}
    path = f"/answers/{snapshot.id}/verdicts"
    cookies = {"cookie": f"{COOKIE}={cookie}"}
    assert pages.post(path, data=form, headers=cookies).status_code == 401
    assert pages.post(path, data=form, headers={**cookies, **bearer}).status_code == 303


def test_a_known_prompt_version_shows_its_first_words_and_links_its_text(tmp_path: Path) -> None:
    from vouched._answer._prompt import PROMPT_VERSION, SYSTEM_TEXT  # noqa: PLC0415
    from vouched._replay._store import SqliteSnapshotStore as Store  # noqa: PLC0415

    with Store(tmp_path / "p.db") as store:
        _answer_with_prompt(store, PROMPT_VERSION)
        pages = Reviewer(store, read_only=True)
        listing = pages.get("/answers").text
        assert f'href="/prompts/{PROMPT_VERSION}"' in listing
        assert "“You phrase facts for a reader.”" in listing
        full = pages.get(f"/prompts/{PROMPT_VERSION}").text
    assert SYSTEM_TEXT.splitlines()[2] in full


def test_an_unknown_prompt_version_says_its_text_is_not_held(store: SqliteSnapshotStore) -> None:
    html = Reviewer(store, read_only=True).get("/prompts/p1").text
    assert "not vouched's own prompt" in html


def _answer_with_prompt(store: Any, version: str) -> None:
    from review.population import answer  # noqa: PLC0415

    store.write(answer(T0, "The temperature in Berlin is 21.4 °C.", version=version))
