"""Claims against a catalog: vouched's verify_output vs the seed's reference.

Part 1: 200,000 raw claim strings against a 10,000-row catalog, checked by
``vouched.verify_output`` and by a plain-Python port of the tutorial's
reference verifier (json.loads, dict lookups, its normalizers), alternating in
the same run; medians of several rounds and the ratio reference / vouched
(target >= 1.0). Both must route every claim the same way.

Part 2: claims streamed from a JSON Lines file through ``vouched verify --json``
in a child process: wall time and peak RSS for a small and a large file (peak
memory should stay flat as the input grows).

    python bench/verify.py            # default sizes, well under a minute
    python bench/verify.py --full     # the issue's sizes: 1,000,000 streamed lines
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from vouched import Catalog, Contract, verify_output

# -- the reference: the seed tutorial's verifier, ported as written ---------------


def normalize_text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected non-empty text")
    return " ".join(value.casefold().replace("_", " ").split())


def normalize_money(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError("expected a decimal number")
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except InvalidOperation as exc:
        raise ValueError("expected a decimal number") from exc


def normalize_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        choices = {"true": True, "yes": True, "false": False, "no": False}
        normalized = value.strip().casefold()
        if normalized in choices:
            return choices[normalized]
    raise ValueError("expected true/false or yes/no")


def normalize_time(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("expected time text in HH:MM form")
    try:
        parsed = datetime.strptime(value.strip(), "%H:%M")
        return parsed.strftime("%H:%M")
    except ValueError as exc:
        raise ValueError("expected time text in HH:MM form") from exc


PARSERS = {
    "format": normalize_text,
    "weekday": normalize_text,
    "start_time": normalize_time,
    "fee_eur": normalize_money,
    "language": normalize_text,
    "step_free_access": normalize_bool,
}
REQUIRED_KEYS = {"workshop_code", "attribute", "value", "citation"}


def reference_verify(raw_output: str, catalog: dict[str, dict[str, str]]) -> tuple[str, str]:
    try:
        parsed = json.loads(raw_output)
    except json.JSONDecodeError:
        return "invalid_json", "output is not valid JSON"
    if not isinstance(parsed, dict) or set(parsed) != REQUIRED_KEYS:
        return "invalid_shape", "output must contain exactly the four required keys"
    workshop_code = parsed["workshop_code"]
    if not isinstance(workshop_code, str) or workshop_code not in catalog:
        return "unknown_workshop", f"{workshop_code!r} is absent from the catalog"
    attribute = parsed["attribute"]
    if not isinstance(attribute, str) or attribute not in PARSERS:
        return "unsupported_attribute", f"{attribute!r} is not an approved attribute"
    record = catalog[workshop_code]
    if parsed["citation"] != record["catalog_record_id"]:
        return "citation_mismatch", "citation does not identify the workshop's catalog row"
    parser = PARSERS[attribute]
    try:
        claimed_value = parser(parsed["value"])
        trusted_value = parser(record[attribute])
    except ValueError as exc:
        return "invalid_value", str(exc)
    if claimed_value != trusted_value:
        return "value_mismatch", f"claim={claimed_value!s}; catalog={trusted_value!s}"
    return "verified", f"matched {attribute} in {record['catalog_record_id']}"


# -- data ------------------------------------------------------------------------

CONTRACT = Contract(
    entity_field="workshop_code",
    citation_field="catalog_record_id",
    attributes={
        "format": "text",
        "weekday": "text",
        "start_time": "time",
        "fee_eur": "money",
        "language": "text",
        "step_free_access": "bool",
    },
)
FORMATS = ["In person", "Online", "Hybrid", "in_person"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
LANGUAGES = ["English", "German", "French", "Spanish"]
BOOLS = ["yes", "no", "true", "false"]


def make_catalog_csv(rows: int, rng: random.Random) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["workshop_code", "catalog_record_id", "workshop_name", *PARSERS])
    for i in range(rows):
        cents = rng.randrange(0, 10_000)
        writer.writerow(
            [
                f"WS{i:05d}",
                f"CAT-{i:05d}",
                f"Workshop {i}",
                rng.choice(FORMATS),
                rng.choice(DAYS),
                f"{rng.randrange(7, 21)}:{rng.choice(['00', '15', '30', '45'])}",
                f"{cents // 100}.{cents % 100:02d}",
                rng.choice(LANGUAGES),
                rng.choice(BOOLS),
            ]
        )
    return out.getvalue()


def make_claims(count: int, rows: dict[str, dict[str, str]], rng: random.Random) -> list[str]:
    codes = list(rows)
    claims = []
    for _ in range(count):
        code = rng.choice(codes)
        row = rows[code]
        attribute = rng.choice(list(PARSERS))
        value: Any = row[attribute]
        if attribute == "fee_eur":
            value = float(value)  # a JSON number, as models write it
        elif attribute == "step_free_access":
            value = value in ("yes", "true")
        elif attribute == "start_time" and len(value) == 4:
            value = "0" + value
        elif attribute in ("format", "language", "weekday") and rng.random() < 0.3:
            value = value.upper()
        claim: dict[str, Any] = {
            "workshop_code": code,
            "attribute": attribute,
            "value": value,
            "citation": row["catalog_record_id"],
        }
        roll = rng.random()
        if roll < 0.10:  # a wrong value from another row
            other = rows[rng.choice(codes)][attribute]
            claim["value"] = other if attribute != "fee_eur" else round(float(other) + 1, 2)
        elif roll < 0.14:
            claim["citation"] = rows[rng.choice(codes)]["catalog_record_id"]
        elif roll < 0.17:
            claim["value"] = (
                "free" if attribute == "fee_eur" else ("25:00" if attribute == "start_time" else "")
            )
        elif roll < 0.20:
            claim["workshop_code"] = f"WX{rng.randrange(100_000)}"
        elif roll < 0.23:
            claim["attribute"] = "workshop_name"
        elif roll < 0.26:
            claim["confidence"] = 0.9
        text = json.dumps(claim, separators=(",", ":"))
        if 0.26 <= roll < 0.29:
            text = text[: len(text) // 2]
        claims.append(text)
    return claims


# -- part 1 ----------------------------------------------------------------------


def time_once(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def part_one(rounds: int, claims_count: int, rows_count: int) -> None:
    rng = random.Random(5)
    text = make_catalog_csv(rows_count, rng)
    ref_catalog = {row["workshop_code"]: row for row in csv.DictReader(io.StringIO(text))}
    claims = make_claims(claims_count, ref_catalog, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "catalog.csv")
        path.write_text(text, encoding="utf-8")
        started = time.perf_counter()
        catalog = Catalog.from_csv(path, CONTRACT)
        load_seconds = time.perf_counter() - started

    ours = [verify_output(raw, catalog, CONTRACT).status.value for raw in claims]
    theirs = [reference_verify(raw, ref_catalog)[0] for raw in claims]
    theirs = ["unknown_entity" if s == "unknown_workshop" else s for s in theirs]
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    mix = {s: ours.count(s) for s in sorted(set(ours))}

    def run_ours() -> None:
        for raw in claims:
            verify_output(raw, catalog, CONTRACT)

    def run_reference() -> None:
        for raw in claims:
            reference_verify(raw, ref_catalog)

    ours_t, ref_t = [], []
    for _ in range(rounds):
        ref_t.append(time_once(run_reference))
        ours_t.append(time_once(run_ours))
    ours_m, ref_m = statistics.median(ours_t), statistics.median(ref_t)
    per = 1e6 / claims_count
    version = catalog.version[:19]
    print(f"catalog: {rows_count:,} rows loaded in {load_seconds * 1000:.0f} ms ({version})")
    print(f"claims:  {claims_count:,}; statuses {mix}")
    print(f"agreement with the reference: {agree:,}/{claims_count:,}")
    print(f"reference (seed port):  median {ref_m:.3f} s  ({ref_m * per:.2f} us/claim)")
    print(f"vouched verify_output:  median {ours_m:.3f} s  ({ours_m * per:.2f} us/claim)")
    print(f"ratio reference/vouched: {ref_m / ours_m:.2f}  (target >= 1.0; {rounds} rounds)")

    # The reference's strptime makes time claims slow; the ratio without them is
    # the fair figure for everything else.
    no_time = [raw for raw in claims if '"start_time"' not in raw]
    claims[:] = no_time  # run_ours / run_reference read this list
    ours_t, ref_t = [], []
    for _ in range(rounds):
        ref_t.append(time_once(run_reference))
        ours_t.append(time_once(run_ours))
    ratio = statistics.median(ref_t) / statistics.median(ours_t)
    print(f"ratio without time claims ({len(no_time):,} claims): {ratio:.2f}")


# -- part 2 ----------------------------------------------------------------------


def write_jsonl(path: Path, claims: list[str], lines: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i in range(lines):
            raw = claims[i % len(claims)]
            out.write(json.dumps({"id": i, "prompt_version": f"v{i % 3}", "model_output": raw}))
            out.write("\n")


def stream_once(catalog_path: Path, contract_path: Path, claims_path: Path) -> tuple[float, int]:
    command = [
        sys.executable,
        "-m",
        "vouched",
        "verify",
        "--json",
        "--catalog",
        str(catalog_path),
        "--contract",
        str(contract_path),
        str(claims_path),
    ]
    started = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        child = subprocess.Popen(command, stdout=sink)  # noqa: S603 - our own CLI
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"vouched verify failed with exit {child.returncode}")
    return wall, usage.ru_maxrss  # KiB on Linux


def part_two(sizes: list[int]) -> None:
    rng = random.Random(7)
    text = make_catalog_csv(10_000, rng)
    ref_catalog = {row["workshop_code"]: row for row in csv.DictReader(io.StringIO(text))}
    claims = make_claims(50_000, ref_catalog, rng)
    with tempfile.TemporaryDirectory() as tmp:
        catalog_path = Path(tmp, "catalog.csv")
        catalog_path.write_text(text, encoding="utf-8")
        contract_path = Path(tmp, "contract.toml")
        contract_path.write_text(
            'entity_field = "workshop_code"\ncitation_field = "catalog_record_id"\n'
            "[attributes]\n"
            + "".join(f'{name} = "{kind}"\n' for name, kind in CONTRACT.attributes.items()),
            encoding="utf-8",
        )
        figures = []
        for size in sizes:
            claims_path = Path(tmp, f"claims_{size}.jsonl")
            write_jsonl(claims_path, claims, size)
            wall, rss = stream_once(catalog_path, contract_path, claims_path)
            claims_path.unlink()
            figures.append((size, wall, rss))
            print(
                f"vouched verify --json, {size:>9,} lines: {wall:6.2f} s wall "
                f"({size / wall:,.0f} lines/s), peak RSS {rss / 1024:.1f} MiB"
            )
        (small, _, small_rss), (large, _, large_rss) = figures[0], figures[-1]
        print(
            f"peak RSS {large:,} vs {small:,} lines (baseline): {large_rss / small_rss:.2f}x "
            f"for {large / small:.0f}x the input (flat = about 1.0)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="stream 1,000,000 lines")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("== part 1: verify_output vs the reference, 200,000 claims, 10,000-row catalog")
    part_one(args.rounds, 200_000, 10_000)
    sizes = [100_000, 1_000_000] if args.full else [20_000, 100_000]
    print(f"== part 2: streaming through the CLI ({' and '.join(f'{s:,}' for s in sizes)} lines)")
    part_two(sizes)


if __name__ == "__main__":
    main()
