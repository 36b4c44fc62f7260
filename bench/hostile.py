"""Hostile input: the worst case of each class of issue 12, before and after, in one run.

"Before" is main at 21ee41f (the commit the issue was filed against),
extracted with ``git archive`` into a temporary directory and run with its own
PYTHONPATH; "after" is this checkout. Every case runs in a child process with
a wall-time limit and an address-space cap (so "before" cannot take the machine
down: a case that hits a limit is reported as such). Figures: wall time and
peak RSS of the child (``os.wait4``), exit status, and the stderr line's length.

Then the scanner's hostile texts (issue 27), each in a child at 1 MB and 2 MB, this
checkout beside main at ``SCANNER_BEFORE`` (the commit the issue measured): unmatched
quotes of each kind, one value restated, number-dense prose, numbers with no sentence
end, relation phrases with a words lexicon, a template placeholder per sentence (found
while fixing the others: 10,000 took 21 s) (target: <= 3 s at 1 MB, 2 MB <= 2.2x
1 MB); and a 5 MB single line through ``vouched scan`` (target: <= 15 s, <= 300 MB).

Then a bounded fuzzing pass (hypothesis, fixed seed and budget) over the input
layer, the JSON readers, ``verify_output`` and ``scan``: inputs tried and
failures found (target: 0), each failure printed once.

    python bench/hostile.py            # default sizes, about a minute
    python bench/hostile.py --full     # the issue's sizes (47 MB facts, 400 MB body)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE_COMMIT = "21ee41f"
SCANNER_BEFORE = "0b51ad2"  # main when issue 27 was filed
SCANNER_LIMIT = 30.0  # seconds per scanner text (10x the target at 1 MB)
TIME_LIMIT = 15.0  # seconds per child
MEMORY_CAP = 3 * 1024**3  # bytes of address space per child

GOOD = {
    "subject": "Berlin",
    "attribute": "temperature",
    "value": 21.4,
    "unit": "degC",
    "source": "open-meteo",
    "observed_at": "2026-11-29T12:00:00Z",
    "confidence": 0.95,
    "ttl": 900,
}


@dataclass
class Outcome:
    seconds: float
    rss_mb: float
    status: str
    stderr_chars: int
    last: str  # the last line the child wrote (stderr, else stdout)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_child(
    argv: list[str], pythonpath: str, *, stdin: bytes | None = None, limit: float | None = None
) -> Outcome:
    env = {**os.environ, "PYTHONPATH": pythonpath, "COLUMNS": "120"}
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env,
            preexec_fn=_limits,  # noqa: PLW1509 - no threads here; the cap must apply before exec
        )
        if stdin is not None and child.stdin is not None:
            try:
                child.stdin.write(stdin)
                child.stdin.close()
            except BrokenPipeError:
                pass
        limit = TIME_LIMIT if limit is None else limit
        deadline = started + limit
        status = "?"
        usage = None
        while True:
            pid, code, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                child.returncode = os.waitstatus_to_exitcode(code)
                status = f"exit {child.returncode}"
                break
            if time.perf_counter() > deadline:
                child.kill()
                _, code, usage = os.wait4(child.pid, 0)
                child.returncode = -9
                status = f"killed at {limit:g} s"
                break
            time.sleep(0.01)
        seconds = time.perf_counter() - started
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
        if "MemoryError" in text:
            status += f", MemoryError at the {MEMORY_CAP / 1024**3:g} GB cap"
        elif "Traceback" in text:
            status += ", traceback"
        lines = text.strip().splitlines()
        out.seek(0)
        said = lines[-1] if lines else out.read()[-200:].decode("utf-8", "replace").strip()
    rss = (usage.ru_maxrss / 1024) if usage is not None else float("nan")
    last = said if len(said) <= 70 else said[:67] + "..."
    return Outcome(seconds, rss, status, max((len(line) for line in lines), default=0), last)


def cli(pythonpath: str, *args: str, stdin: bytes | None = None) -> Outcome:
    return run_child([sys.executable, "-m", "vouched", *args], pythonpath, stdin=stdin)


def script(pythonpath: str, code: str, limit: float | None = None) -> Outcome:
    return run_child([sys.executable, "-c", textwrap.dedent(code)], pythonpath, limit=limit)


def extract_before(into: Path, commit: str = BEFORE_COMMIT) -> str:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "src", "adapters/src"],  # noqa: S607 - git on PATH
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)  # noqa: S607
    return str(into / "src") + os.pathsep + str(into / "adapters" / "src")


# -- the cases ----------------------------------------------------------------------

LOOP_GAP = """
import asyncio, time
from vouched import Fact, Grounder
from vouched.testing import FakeClock, ScriptedPhraser, ScriptedSource
fact = Fact(subject="Berlin", attribute="temperature", value=21, unit="degC",
            source="weather", observed_at="2026-11-29T12:00:00Z")
text = " ".join(f"{n} mm" for n in range(%d))
grounder = Grounder([ScriptedSource("w", [[fact]])], phraser=ScriptedPhraser([text]),
                    clock=FakeClock("2026-11-29T12:00:00Z"), on_fail="refuse")
async def main():
    gaps = []
    async def ticker():
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter(); gaps.append(now - last); last = now
    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    await grounder.answer("How wet was Berlin?")
    await asyncio.sleep(0.01)  # let the ticker record the gap the answer caused
    tick.cancel()
    import sys; sys.stderr.write("max loop gap %%.1f ms\\n" %% (max(gaps) * 1000))
asyncio.run(main())
"""

BIG_BODY = """
import asyncio, socket, threading
from vouched import GuardedSource, fetch_sync
from vouched_adapters import HttpJsonSource
size = %d
listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(1)
port = listener.getsockname()[1]
def serve():
    conn, _ = listener.accept(); conn.recv(65536)
    body_size = 1 + (size // 65536) * 65536 + 2
    conn.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\n"
                 b"Content-Length: %%d\\r\\n\\r\\n[" %% body_size)
    chunk = b"1," * 32768
    try:
        for _ in range(size // 65536):
            conn.sendall(chunk)
        conn.sendall(b"1]")
    except OSError:
        pass
    conn.close()
threading.Thread(target=serve, daemon=True).start()
source = HttpJsonSource("big", f"http://127.0.0.1:{port}/x", fields={"t": {"pointer": "/0"}})
print(fetch_sync(GuardedSource(source, deadline=30), {"subject": "Berlin"})[0].silent_reason)
"""

PROMETHEUS = """
from vouched import Fact, Policy, PrometheusMetrics, classify
from datetime import datetime, UTC
m = PrometheusMetrics()
now = datetime(2026, 11, 29, tzinfo=UTC)
m.observe_verdicts(classify(Fact.silence("B", "w", f"reason {n}"), Policy(), now)
                   for n in range(5000))
series = [l for l in m.exposition().decode().splitlines()
          if l.startswith("vouched_verdicts_total{")]
import sys; sys.stderr.write(f"{len(series)} series\\n")
"""


def cases(tmp: Path, full: bool) -> list[tuple[str, str, list[str], bytes | None]]:
    """(class, name, argv or ["-c", code], stdin)."""
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    facts = tmp / "facts.jsonl"
    lines = (47 if full else 3) * 1024 * 1024 // (len(json.dumps(GOOD)) + 1)
    with facts.open("w") as handle:
        for n in range(lines):
            handle.write(json.dumps({**GOOD, "subject": f"City {n}"}) + "\n")
    observed = tmp / "observed.json"
    observed.write_text(json.dumps([{**GOOD, "observed_at": "2026-" + "1" * 5_242_875}]))
    contract = tmp / "contract.toml"
    contract.write_text("k" * 5_242_880 + ' = "x"\n')
    wide = tmp / "wide.csv"
    names = ["workshop_code", "catalog_record_id", *(f"c{n}" for n in range(20_000)), "c0"]
    wide.write_text(",".join(names) + "\n" + ",".join(["WS1", "C1", *"x" * 20_001]) + "\n")
    ex = ROOT / "examples"
    verify = ["verify", "--catalog", str(ex / "catalog.csv"), "--contract"]
    return [
        ("not a regular file", "gate /dev/zero", ["gate", "/dev/zero"], None),
        ("not a regular file", "gate FIFO (no writer)", ["gate", str(fifo)], None),
        (
            "not a regular file",
            "verify /dev/zero claims",
            [*verify, str(ex / "contract.toml"), "/dev/zero"],
            None,
        ),
        (
            "size",
            f"gate {facts.stat().st_size / 1e6:.0f} MB JSONL facts",
            ["gate", "--json", "--max-input-bytes", "100M", str(facts)],
            None,
        ),
        (
            "one JSON reader",
            "gate - (one object on stdin)",
            ["gate", "--json", "--now", "2026-11-29T12:05:00Z", "-"],
            json.dumps(GOOD).encode(),
        ),
        (
            "traceback",
            "confidence 10**400",
            ["gate", "-"],
            (
                "["
                + json.dumps({**GOOD, "confidence": 0})[:-1].replace(
                    '"confidence": 0', '"confidence": 1' + "0" * 400
                )
                + "}]"
            ).encode(),
        ),
        ("echo", "5 MB observed_at", ["gate", str(observed)], None),
        (
            "echo",
            "5 MB unknown contract key",
            [*verify, str(contract), "--max-input-bytes", "10M", str(ex / "claims.jsonl")],
            None,
        ),
        (
            "quadratic",
            "catalog header of 20,001 columns",
            [
                "verify",
                "--catalog",
                str(wide),
                "--contract",
                str(ex / "contract.toml"),
                str(ex / "claims.jsonl"),
            ],
            None,
        ),
        ("event loop", "Grounder, 19,000-char run of numbers", ["-c", LOOP_GAP % 2600], None),
        (
            "adapters",
            f"HTTP body of {400 if full else 64} MB",
            ["-c", BIG_BODY % ((400 if full else 64) * 1024 * 1024)],
            None,
        ),
        ("outputs", "Prometheus, 5,000 free-text reasons", ["-c", PROMETHEUS], None),
    ]


def run_case(pythonpath: str, argv: list[str], stdin: bytes | None) -> Outcome:
    if argv[0] == "-c":
        return run_child([sys.executable, *argv], pythonpath, stdin=stdin)
    return cli(pythonpath, *argv, stdin=stdin)


def _without_limit_flag(argv: list[str]) -> list[str]:
    """The "before" tree has no --max-input-bytes: the flag and its value dropped."""
    out: list[str] = []
    skip = False
    for part in argv:
        if skip:
            skip = False
            continue
        if part == "--max-input-bytes":
            skip = True
            continue
        out.append(part)
    return out


# -- the scanner's hostile texts (issue 27) ---------------------------------------

SCANNER_TEXT = """
import random, sys, time
sys.path.insert(0, %(bench)r)
from scan import LEXICON, NOW, make_answer, make_facts
from vouched import Lexicon, Policy, partition, scan
facts = make_facts(50, random.Random(1))
gated = partition(facts, Policy(), NOW)
size = %(size)d
value = next(f for f in facts if f.attribute == "temperature")
words = Lexicon.from_json({**LEXICON.to_json(),
    "comparisons": {"colder than": {"attribute": "temperature", "holds": "<"}}})
def fill(piece):
    return (piece * (size // len(piece) + 1))[:size]
texts = {
    "straight": lambda: fill('"x '),
    "curly": lambda: fill("\u201cx "),
    "single": lambda: fill(" \u2018x"),
    "guillemet": lambda: fill("\u00abx "),
    "restated": lambda: fill(f"{value.subject} is {value.value} \u00b0C. "),
    "dense": lambda: make_answer(facts, size, random.Random(7)),
    "no end": lambda: fill("Berlin 21.4 \u00b0C, "),
    "relations": lambda: fill("Berlin is colder than Munich and Lyon is colder than Oslo. "),
    "placeholders": lambda: fill("The value is {x}. "),
}
text = texts[%(case)r]()
lexicon = words if %(case)r == "relations" else LEXICON
started = time.perf_counter()
scan(text, gated, lexicon)
print(f"scan {time.perf_counter() - started:.2f} s")
"""
SCANNER_CASES = (
    ("straight", 'unmatched " quotes'),
    ("curly", "unmatched \u201c quotes"),
    ("single", "unmatched \u2018 quotes"),
    ("guillemet", "unmatched \u00ab quotes"),
    ("restated", "one value restated"),
    ("dense", "number-dense prose"),
    ("no end", "numbers with no sentence end"),
    ("relations", "relation phrases, words lexicon"),
    ("placeholders", "a template placeholder per sentence"),
)


def _scan_seconds(outcome: Outcome) -> float | None:
    if outcome.last.startswith("scan "):
        return float(outcome.last.split()[1])
    return None


def scanner_cases(before: str, after: str, tmp: Path) -> None:
    """Each hostile text at 1 MB and 2 MB, before and after; then 5 MB through the CLI."""
    print(f"\nscanner hostile texts (before: {SCANNER_BEFORE}; target <= 3 s at 1 MB,", end=" ")
    print("2 MB/1 MB <= 2.2)")
    print(f"{'case':<34} {'':>6} {'1 MB':>8} {'2 MB':>8} {'ratio':>6}")
    bench = str(ROOT / "bench")
    for case, name in SCANNER_CASES:
        for label, path in (("before", before), ("after", after)):
            figures = []
            for size in (1_000_000, 2_000_000):
                code = SCANNER_TEXT % {"bench": bench, "size": size, "case": case}
                outcome = script(path, code, SCANNER_LIMIT)
                figures.append(_scan_seconds(outcome))
            one, two = figures
            ratio = f"{two / one:5.2f}x" if one and two else "  -"
            shown = [
                f"{v:7.2f}s" if v is not None else f"{'>' + format(SCANNER_LIMIT, 'g'):>7}s"
                for v in figures
            ]
            print(f"{name:<34} {label:>6} {shown[0]:>8} {shown[1]:>8} {ratio:>6}")
    facts = tmp / "scan-facts.json"
    facts.write_text(json.dumps([GOOD]))
    line = tmp / "line.txt"
    unit = "Berlin is 21.4 \u00b0C and 63% humid, winds 12 km/h, 0.4 mm of rain, "
    line.write_text((unit * (5 * 1024 * 1024 // len(unit.encode()) + 1))[: 5 * 1024 * 1024])
    print(
        "5 MB single line through `vouched scan --json` (target <= 15 s, <= 300 MB; "
        f"limit {SCANNER_LIMIT:g} s):"
    )
    argv = ["scan", "--facts", str(facts), "--now", "2026-11-29T12:05:00Z", "--json"]
    argv += ["--max-input-bytes", "10M", str(line)]
    for label, path in (("before", before), ("after", after)):
        outcome = run_child([sys.executable, "-m", "vouched", *argv], path, limit=SCANNER_LIMIT)
        print(f"  {label:>6} {outcome.seconds:7.2f} s {outcome.rss_mb:7.0f} MB  {outcome.status}")


def _scanner_section(tmp: Path, after: str) -> None:
    """The scanner's texts beside main at :data:`SCANNER_BEFORE`, when git can archive it
    (a shallow clone cannot: then a line says so)."""
    (tmp / "scanner-before").mkdir()
    try:
        before = extract_before(tmp / "scanner-before", SCANNER_BEFORE)
    except subprocess.CalledProcessError:
        print(f"\nscanner hostile texts: skipped (git cannot archive {SCANNER_BEFORE} here)")
        return
    scanner_cases(before, after, tmp)


# -- fuzzing ------------------------------------------------------------------------


def fuzz(budget: int) -> tuple[int, list[str]]:  # noqa: PLR0915 - four fuzz targets, side by side
    """Hypothesis over the input layer, the JSON readers, verify_output and scan."""
    from hypothesis import HealthCheck, given, seed, settings  # noqa: PLC0415
    from hypothesis import strategies as st  # noqa: PLC0415

    from vouched import Catalog, Contract, InputError, scan, verify_output  # noqa: PLC0415
    from vouched._factio import facts_in_text  # noqa: PLC0415
    from vouched._files import parse_json, read_text  # noqa: PLC0415

    contract = Contract.load(ROOT / "examples" / "contract.toml")
    catalog = Catalog.from_csv(ROOT / "examples" / "catalog.csv", contract)
    tried = 0
    failures: list[str] = []
    json_ish = st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    ).map(json.dumps)
    texts = (
        st.text(max_size=300)
        | json_ish
        | st.sampled_from(
            ['{"a": 1, "a": 2}', "[" * 3000, '{"value": 1e99999}', "1" * 5000, "\ufeff[]"]
        )
    )
    tmp = Path(tempfile.mkdtemp(prefix="vouched-fuzz-"))
    common = settings(
        max_examples=budget,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )

    def record(where: str, error: BaseException, sample: object) -> None:
        line = f"{where}: {type(error).__name__}: {str(error)[:80]} on {str(sample)[:60]!r}"
        if line not in failures:
            failures.append(line)

    @seed(12)
    @common
    @given(texts)
    def json_readers(text: str) -> None:
        nonlocal tried
        tried += 1
        for name, call in (
            ("parse_json", lambda: parse_json(text, file="f")),
            ("facts_in_text", lambda: list(facts_in_text(text, name="f"))),
        ):
            try:
                call()
            except InputError:
                pass
            except Exception as error:  # noqa: BLE001 - a fuzzer records every other error
                record(name, error, text)

    @seed(12)
    @common
    @given(st.binary(max_size=400))
    def input_layer(data: bytes) -> None:
        nonlocal tried
        tried += 1
        path = tmp / "input"
        path.write_bytes(data)
        try:
            read_text(path, kind="facts", max_bytes=256)
        except InputError:
            pass
        except Exception as error:  # noqa: BLE001 - as above
            record("read_text", error, data)

    @seed(12)
    @common
    @given(texts)
    def claims(text: str) -> None:
        nonlocal tried
        tried += 1
        try:
            verify_output(text, catalog, contract)
        except Exception as error:  # noqa: BLE001 - as above
            record("verify_output", error, text)

    @seed(12)
    @common
    @given(st.text(max_size=400))
    def scanner(text: str) -> None:
        nonlocal tried
        tried += 1
        try:
            scan(text, [])
        except Exception as error:  # noqa: BLE001 - as above
            record("scan", error, text)

    for test in (json_readers, input_layer, claims, scanner):
        test()
    return tried, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the issue's sizes")
    parser.add_argument("--fuzz", type=int, default=400, help="examples per fuzzed target")
    parser.add_argument("--scanner", action="store_true", help="the scanner's texts only")
    options = parser.parse_args()
    after = str(ROOT / "src") + os.pathsep + str(ROOT / "adapters" / "src")
    with tempfile.TemporaryDirectory(prefix="vouched-hostile-") as work:
        tmp = Path(work)
        if options.scanner:
            _scanner_section(tmp, after)
            return
        (tmp / "before").mkdir()
        before = extract_before(tmp / "before")
        print(f"before: {BEFORE_COMMIT} (git archive); after: this checkout")
        print(f"limits per child: {TIME_LIMIT:g} s, {MEMORY_CAP / 1024**3:g} GB address space")
        header = f"{'class':<19} {'case':<38} {'':>6} {'time':>8} {'peak RSS':>9}  result"
        print(header)
        for klass, name, argv, stdin in cases(tmp, options.full):
            for label, path in (("before", before), ("after", after)):
                argv_here = _without_limit_flag(argv) if label == "before" else argv
                outcome = run_case(path, argv_here, stdin)
                said = (
                    outcome.last
                    if argv[0] == "-c"
                    else f"stderr line of {outcome.stderr_chars:,} chars"
                )
                print(
                    f"{klass:<19} {name:<38} {label:>6} {outcome.seconds:>7.2f}s "
                    f"{outcome.rss_mb:>7.0f}MB  {outcome.status}; {said}"
                )
        _scanner_section(tmp, after)
    started = time.perf_counter()
    tried, failures = fuzz(options.fuzz)
    print(
        f"fuzzing: {tried:,} inputs over the input layer, JSON readers, verify_output and "
        f"scan in {time.perf_counter() - started:.1f} s: {len(failures)} failures (target 0)"
    )
    for line in failures:
        print(f"  {line}")


if __name__ == "__main__":
    main()
