"""Benchmark: the review pages over 100,000 snapshots, in SQLite and in PostgreSQL.

    python bench/review.py                     # 100,000 snapshots, 20,000 verdicts
    python bench/review.py --n 20000           # any size
    python bench/review.py --verdicts 0        # no reviewers' verdicts

For each store, ``vouched review STORE --port 0`` runs as its own process;
each page is loaded 20 times and its server time read from the
``Server-Timing`` header (p50 and max). Figures, each beside what it is
measured against in the same run:

- overview (target < 300 ms), a filtered list page (< 150 ms), a free-text
  list page, one answer (< 100 ms), against the floor of one ``store.get``
  and the cost of one pass over every row (what a page without the index
  would pay at least);
- the index's build time at start-up (one pass over the rows);
- peak memory of the review process (VmHWM, target < 200 MB);
- with ``--verdicts`` reviewers' verdicts stored beside the snapshots (80%
  right, 20% false alarm, on the oldest findings): the overview with
  precision (< 300 ms), the review queue page oldest first and most frequent
  kind first (< 150 ms), a verdict POST (p50 of 20, < 50 ms, against a GET
  of the stylesheet in the same run), and ``vouched replay --verdicts``: wall
  time and peak memory, against ``vouched replay`` over the whole store.

Synthetic population: 48 template answers built with ``Snapshot.build``
(texts scanned for real: a third with findings and refused, some with a
breaker open), four prompt versions, spread over 90 days; each row a
template shifted in time with its own question, re-hashed so every row is a
distinct valid snapshot. PostgreSQL rows go into a schema of their own,
dropped at the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import httpx

from vouched import Fact, Lexicon, Policy, Snapshot, SqliteSnapshotStore, partition, scan
from vouched._jsonio import dumps
from vouched._replay._snapshot import FORMAT_VERSION
from vouched._replay._verdicts import Mark, ReviewVerdict
from vouched._time import format_instant

POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
T0 = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
LOADS = 20
BATCH = 5000
LEXICON = Lexicon(attributes={"humidity": ["humidity"], "wind_speed": ["wind", "winds"]})
CITIES = ("Berlin", "Munich", "Hamburg", "Lyon")
TEXTS = (
    "The temperature in {c} is {t} °C. The humidity in {c} is {h}%.",
    "In {c} the humidity is {hw}% with winds of 12 km/h.",
    "The temperature in {c} is {t} °C and the wind speed is {w} km/h.",
)


def _template(index: int) -> tuple[str, list[str]]:
    """One answer's canonical JSON with its instants as placeholders."""
    city = CITIES[index % len(CITIES)]
    t, h, w = Decimal(10 + index % 15) + Decimal("0.4"), 50 + index % 30, 5 + index % 20
    breaker = index % 7 == 0
    observed = T0 - timedelta(minutes=5)
    facts = [
        Fact(
            subject=city,
            attribute="temperature",
            value=t,
            unit="degC",
            source="open-meteo",
            observed_at=observed,
            ttl=900,
        ),
        Fact(
            subject=city,
            attribute="humidity",
            value=h,
            unit="%",
            source="open-meteo",
            observed_at=observed,
            ttl=900,
        ),
        Fact.silence(city, "wind_speed", "circuit_open", source="wind-api", unit="km/h")
        if breaker
        else Fact(
            subject=city,
            attribute="wind_speed",
            value=w,
            unit="km/h",
            source="wind-api",
            observed_at=observed,
            ttl=900,
        ),
    ]
    text = TEXTS[index % len(TEXTS)].format(c=city, t=t, h=h, hw=h + 7, w=w)
    version = f"p{index % 4 + 1}"
    found = [f.to_json() for f in scan(text, partition(facts, Policy(), T0), LEXICON).findings]
    if found:
        trail = [
            {"text": text, "prompt_version": version, "findings": found, "action": "retry"},
            {"text": text, "prompt_version": version, "findings": found, "action": "refuse"},
        ]
        output, status = "No answer is given: it could not be checked.", "refused"
    else:
        trail = [{"text": text, "prompt_version": version, "findings": [], "action": "accept"}]
        output, status = text, "ok"
    snapshot = Snapshot.build(
        created_at=T0,
        question="QUESTION",
        facts=facts,
        policy=Policy(),
        prompt_version=version,
        phraser="template",
        output=output,
        findings=found,
        status=status,
        attempts=len(trail),
        trail=trail,
        on_fail="retry+refuse",
        timings={"total": 0.05},
    )
    data = snapshot.to_json()
    del data["id"]
    body = dumps(data, canonical=True)
    instants = sorted(
        {data["created_at"], data["judged_at"]}
        | {f["observed_at"] for f in data["facts"] if f["observed_at"]}
    )
    for number, text_instant in enumerate(instants):
        body = body.replace(f'"{text_instant}"', f'"\x00{number}\x00"')
    return body, instants


def synthetic(n: int) -> Iterator[Snapshot]:
    """``n`` distinct valid snapshots over 90 days."""
    templates = [_template(i) for i in range(48)]
    parsed = [[datetime.fromisoformat(t) for t in instants] for _, instants in templates]
    marker = f'"format":{FORMAT_VERSION},"judged_at"'
    step = 90 * 86_400 / max(1, n)
    for i in range(n):
        body = templates[i % len(templates)][0]
        shift = timedelta(seconds=i * step)
        for number, instant in enumerate(parsed[i % len(templates)]):
            body = body.replace(f'"\x00{number}\x00"', f'"{format_instant(instant + shift)}"')
        body = body.replace('"QUESTION"', json.dumps(f"How is the weather there? #{i}"), 1)
        snapshot_id = hashlib.sha256(body.encode()).hexdigest()[:32]
        text = body.replace(
            marker, f'"format":{FORMAT_VERSION},"id":"{snapshot_id}","judged_at"', 1
        )
        yield Snapshot.from_canonical(text)


def fill(store: object, n: int) -> float:
    began = time.perf_counter()
    batch: list[Snapshot] = []
    for snapshot in synthetic(n):
        batch.append(snapshot)
        if len(batch) >= BATCH:
            store.write_many(batch)  # type: ignore[attr-defined]
            batch = []
    if batch:
        store.write_many(batch)  # type: ignore[attr-defined]
    return time.perf_counter() - began


def baselines(store: object) -> dict[str, float]:
    """What a page pays without the index: one get, one pass over every row."""
    some = next(iter(store.iter_json()))  # type: ignore[attr-defined]
    snapshot_id = json.loads(some)["id"]
    gets = []
    for _ in range(LOADS):
        began = time.perf_counter()
        store.get(snapshot_id)  # type: ignore[attr-defined]
        gets.append((time.perf_counter() - began) * 1000)
    began = time.perf_counter()
    rows = sum(1 for _ in store.iter_json())  # type: ignore[attr-defined]
    scan_ms = (time.perf_counter() - began) * 1000
    assert rows > 0
    return {"get": statistics.median(gets), "pass": scan_ms}


def _server_ms(response: httpx.Response) -> float:
    assert response.status_code == 200, (response.status_code, response.text[:300])
    return float(response.headers["server-timing"].split("dur=")[1])


def add_verdicts(store: SqliteSnapshotStore, count: int) -> tuple[float, datetime]:
    """``count`` verdicts on the oldest findings: 4 in 5 right, 1 in 5 a false alarm;
    the time it took and the newest answer they are on."""
    began = time.perf_counter()
    written = 0
    at = T0 + timedelta(days=91)
    rows = []
    for body in store.iter_json():
        data = json.loads(body)
        for number, attempt in enumerate(data["trail"], start=1):
            for f in attempt["findings"]:
                mark = Mark.FALSE_ALARM if written % 5 == 4 else Mark.RIGHT
                rows.append(
                    ReviewVerdict(
                        snapshot_id=data["id"],
                        attempt=number,
                        mark=mark,
                        kind=f["kind"],
                        start=f["start"],
                        end=f["end"],
                        text=f["text"],
                        attribute=f["attribute"] or "",
                        prompt_version=attempt["prompt_version"],
                        created_at=datetime.fromisoformat(data["created_at"]),
                        reviewer=("ana", "bo", "cy")[written % 3],
                        at=at,
                    )
                )
                written += 1
                if written >= count:
                    break
            if written >= count:
                break
        if written >= count:
            break
    for verdict in rows:
        store.write_verdict(verdict)
    return time.perf_counter() - began, max(v.created_at for v in rows)


def verdict_posts(client: httpx.Client) -> tuple[float, float]:
    """p50 server time of 20 verdict POSTs (from the queue, as a reviewer gives
    them), and p50 of a GET of the stylesheet (the round trip floor)."""
    page = client.get("/queue")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert token, "the pages take no verdicts (started --read-only?)"
    forms = re.findall(
        r'action="(/answers/[0-9a-f]+/verdicts)">.*?name="attempt" value="(\d+)">'
        r'.*?name="kind" value="([a-z_]+)">.*?name="start" value="(\d+)">'
        r'.*?name="end" value="(\d+)">',
        page.text,
        re.S,
    )
    times = []
    for action, attempt, kind, start, end in (forms * LOADS)[:LOADS]:
        data = {"csrf": token.group(1), "attempt": attempt, "kind": kind, "start": start}
        data |= {"end": end, "mark": "right", "next": "/queue"}
        response = client.post(action, data=data, follow_redirects=False)
        assert response.status_code == 303, (response.status_code, response.text[:200])
        times.append(float(response.headers["server-timing"].split("dur=")[1]))
    floor = []
    for _ in range(LOADS):
        began = time.perf_counter()
        client.get("/static/review.css")
        floor.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), statistics.median(floor)


_PEAK = (
    "import resource, sys\n"
    "from vouched._cli import main\n"
    "status = main(sys.argv[1:])\n"
    "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "sys.stderr.write(f'peak-kb {peak}\\n')\n"
    "sys.exit(status)\n"
)


def replay_runs(target: str, until: datetime) -> dict[str, tuple[float, float]]:
    """Wall time and peak memory (the process's own maximum resident set) of
    ``replay --verdicts`` and, as its baseline, of ``replay`` over the window of
    the answers the verdicts are on (``--until``)."""
    out = {}
    window = ["--until", format_instant(until + timedelta(microseconds=1))]
    for name, extra in (
        ("replay --verdicts", ["--verdicts"]),
        ("replay of the same window", window),
    ):
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, "replay", "--store", target, "--json", *extra],
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - began
        if done.returncode not in (0, 1):
            raise SystemExit(f"{name} failed: {done.stderr}")
        peak_kb = int(done.stderr.rsplit("peak-kb ", 1)[1].split()[0])
        out[name] = (wall, peak_kb / 1024)
    return out


def pages(target: str) -> dict[str, object]:
    """Start ``vouched review target``; p50/max server time of each page; peak memory."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "vouched", "review", target, "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        started = time.perf_counter() - began
        if not line.startswith("vouched review: listening on "):
            raise SystemExit(f"vouched review did not start: {line}{process.stderr.read()}")
        url = line.rsplit(" ", 1)[1].strip().rstrip("/")
        with httpx.Client(base_url=url, timeout=120) as client:
            first = client.get("/answers?status=refused")
            answer_id = first.text.split('class="row-link" href="/answers/')[1].split('"')[0]
            paths = {
                "overview": "/",
                "list (status + kind + version)": (
                    "/answers?status=refused&kind=value_mismatch&prompt_version=p2"
                ),
                "list (free text)": "/answers?q=winds+of+12",
                "list (older page)": "",
                "one answer": f"/answers/{answer_id}",
            }
            older = client.get(paths["list (status + kind + version)"]).text
            paths["list (older page)"] = "/answers" + older.split('rel="next" href="/answers')[
                1
            ].split('"')[0].replace("&amp;", "&")
            paths["review queue (oldest first)"] = "/queue"
            paths["review queue (most frequent kind)"] = "/queue?order=rule"
            figures: dict[str, object] = {}
            for name, path in paths.items():
                times = [_server_ms(client.get(path)) for _ in range(LOADS)]
                figures[name] = (statistics.median(times), max(times))
            figures["verdict POST"] = verdict_posts(client)
        status = Path(f"/proc/{process.pid}/status").read_text()
        peak = next(int(row.split()[1]) for row in status.splitlines() if row.startswith("VmHWM"))
        figures["start (index built)"] = started
        figures["peak memory MB"] = peak / 1024
        return figures
    finally:
        process.terminate()
        process.wait(timeout=30)


def report(
    label: str, rows: int, filled: float, base: dict[str, float], figures: dict[str, object]
) -> None:
    targets = {
        "overview": 300,
        "list (status + kind + version)": 150,
        "list (free text)": 150,
        "list (older page)": 150,
        "one answer": 100,
        "review queue (oldest first)": 150,
        "review queue (most frequent kind)": 150,
    }
    print(
        f"\n{label}: {rows:,} snapshots written in {filled:.1f} s; "
        f"index built at start in {figures['start (index built)']:.1f} s"
    )
    print(
        f"  baseline: store.get p50 {base['get']:.2f} ms; one pass over every row "
        f"{base['pass']:.0f} ms (what a page without the index pays at least)"
    )
    for name, target in targets.items():
        p50, worst = figures[name]  # type: ignore[misc]
        verdict = "ok" if p50 < target else "OVER"
        print(
            f"  {name:32} p50 {p50:7.1f} ms  max {worst:7.1f} ms  (target < {target} ms: {verdict})"
        )
    posted, floor = figures["verdict POST"]  # type: ignore[misc]
    print(
        f"  {'verdict POST':32} p50 {posted:7.1f} ms  (target < 50 ms: "
        f"{'ok' if posted < 50 else 'OVER'}); a GET of the stylesheet, round trip, "
        f"p50 {floor:.1f} ms"
    )
    memory = figures["peak memory MB"]
    print(
        f"  peak memory of the review process {memory:.0f} MB (target < 200 MB: "
        f"{'ok' if memory < 200 else 'OVER'})"
    )  # type: ignore[operator]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--store", choices=("both", "sqlite", "postgres"), default="both")
    parser.add_argument("--verdicts", type=int, default=20_000, help="verdicts (SQLite)")
    args = parser.parse_args()
    if args.store in ("both", "sqlite"):
        sqlite(args.n, args.verdicts)
    if args.store in ("both", "postgres"):
        postgres(args.n)


def sqlite(n: int, verdicts: int) -> None:
    with tempfile.TemporaryDirectory(prefix="vouched-review-bench-") as folder:
        db = Path(folder) / "snapshots.db"
        with SqliteSnapshotStore(db) as store:
            filled = fill(store, n)
            base = baselines(store)
            rows = len(store)
            given, newest = add_verdicts(store, verdicts) if verdicts else (0.0, T0)
            stored = sum(1 for _ in store.review_verdicts())
        report(f"SQLite, {stored:,} verdicts", rows, filled, base, pages(str(db)))
        if verdicts:
            print(f"  {stored:,} verdicts written in {given:.1f} s")
            runs = replay_runs(str(db), newest)
            for name, (wall, peak) in runs.items():
                print(f"  {name:32} {wall:7.1f} s   peak memory {peak:.0f} MB")


def postgres(n: int) -> None:
    try:
        import psycopg  # noqa: PLC0415 - the postgres extra, when installed

        from vouched import PostgresSnapshotStore  # noqa: PLC0415

        psycopg.connect(POSTGRES_URL, connect_timeout=2).close()
    except Exception as error:  # noqa: BLE001 - no server, no figure; said, not raised
        print(f"\nPostgreSQL: skipped ({type(error).__name__}: no server on 127.0.0.1:5432?)")
        return
    schema = f"bench_review_{os.getpid()}"
    try:
        with PostgresSnapshotStore(POSTGRES_URL, schema=schema) as store:
            filled = fill(store, n)
            base = baselines(store)
            rows = len(store)
        report("PostgreSQL", rows, filled, base, pages(f"{POSTGRES_URL}?schema={schema}"))
    finally:
        with psycopg.connect(POSTGRES_URL) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
