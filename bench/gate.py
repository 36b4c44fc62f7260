"""Benchmark: the gate on typed Facts versus the seed's reference on plain dicts.

The baseline is a plain-Python port of the seed's TypeScript ``classify``
(shared/seeds/004: epoch-millisecond timestamps, minutes TTL, dict verdicts).
Both classify the same 300,000 mixed facts (70% grounded, 10% silent, 20%
violations), alternating, best of 5. Also: the cost of building a Fact from
JSON, and ``partition`` over 1,000,000 facts (seconds, peak memory, measured in
a child process so one figure does not disturb the other).

    python bench/gate.py                 # the issue's sizes
    python bench/gate.py --quick         # a smaller run for a smoke check
    python bench/gate.py --instructions  # also count instructions (valgrind callgrind)

Wall clock on a shared machine moves by tens of percent from one run to the next;
callgrind's counts do not. ``--instructions`` counts what one pass over 5,000
facts costs each side (a run with two more passes minus a run without, halved,
so imports, building the facts and warm-up cancel; hash seed fixed). Counts leave
out cache misses: vouched's facts are pydantic models, larger than the port's
dicts, which the wall clock pays for and the count does not show.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from vouched import Fact, Policy, classify, partition
from vouched._jsonio import loads

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
NOW_MS = int(NOW.timestamp() * 1000)

CARDINAL_CONFIDENCE = 0.7
DEFAULT_TTL_MINUTES = 1440


def reference_classify(fact: dict[str, Any], now: int) -> dict[str, Any]:
    """The seed's reference gate, ported line by line."""
    if fact.get("silentReason") or fact.get("value") is None:
        return {"kind": "SILENT", "reason": fact.get("silentReason") or "no-signal"}
    has_source = bool(fact.get("source"))
    confidence = fact.get("confidence")
    if confidence is not None and confidence >= CARDINAL_CONFIDENCE and not has_source:
        return {"kind": "VIOLATION", "reason": "confident claim with no source", "cardinal": True}
    if not has_source or fact.get("observedAt") is None:
        return {
            "kind": "VIOLATION",
            "reason": "missing provenance (source/observedAt)",
            "cardinal": False,
        }
    ttl_minutes = fact.get("ttlMinutes")
    ttl = (DEFAULT_TTL_MINUTES if ttl_minutes is None else ttl_minutes) * 60_000
    if now - fact["observedAt"] > ttl:
        return {"kind": "VIOLATION", "reason": "stale beyond TTL", "cardinal": False}
    return {"kind": "GROUNDED", "fact": fact}


DEMOTED: frozenset[str] = frozenset()
MAX_CLOCK_SKEW_MS = 60_000
MIN_CONFIDENCE = None


def reference_classify_design(fact: dict[str, Any], now: int) -> dict[str, Any]:
    """The seed's reference extended to DESIGN.md's eight rules, in the seed's
    style (plain dicts, epoch milliseconds, dict verdicts): the same work
    vouched.classify does, without typed models."""
    silent_reason = fact.get("silentReason")
    if silent_reason or fact.get("value") is None:
        return {"kind": "SILENT", "reason": silent_reason or "no_value"}
    if fact.get("attribute") in DEMOTED:
        return {"kind": "SILENT", "reason": "demoted"}
    has_source = bool(fact.get("source"))
    confidence = fact.get("confidence")
    if confidence is not None and confidence >= CARDINAL_CONFIDENCE and not has_source:
        return {"kind": "VIOLATION", "reason": "confident_without_source", "cardinal": True}
    if not has_source:
        return {"kind": "VIOLATION", "reason": "missing_source", "cardinal": False}
    observed = fact.get("observedAt")
    if observed is None:
        return {"kind": "VIOLATION", "reason": "missing_observed_at", "cardinal": False}
    if observed - now > MAX_CLOCK_SKEW_MS:
        return {"kind": "VIOLATION", "reason": "observed_in_future", "cardinal": False}
    ttl_minutes = fact.get("ttlMinutes")
    ttl = (DEFAULT_TTL_MINUTES if ttl_minutes is None else ttl_minutes) * 60_000
    if now - observed > ttl:
        return {"kind": "VIOLATION", "reason": "stale", "cardinal": False}
    if MIN_CONFIDENCE is not None and (confidence is None or confidence < MIN_CONFIDENCE):
        return {"kind": "VIOLATION", "reason": "low_confidence", "cardinal": False}
    return {"kind": "GROUNDED", "fact": fact}


def reference_partition_design(facts: list[dict[str, Any]], now: int) -> dict[str, Any]:
    """The seed-style port of ``partition``: DESIGN's eight rules per fact, the
    period rules (9 and 10) over the facts that have a period, the three piles."""
    verdicts = [reference_classify_design(fact, now) for fact in facts]
    if any(fact.get("validFrom") is not None for fact in facts):
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, verdict in enumerate(verdicts):
            fact = facts[i]
            if verdict["kind"] == "GROUNDED" and fact.get("validFrom") is not None:
                key = (fact["subject"], fact["attribute"], fact["validFrom"], fact["validUntil"])
                groups.setdefault(key, []).append(i)
        for members in groups.values():
            latest = max(facts[i]["observedAt"] for i in members)
            current = [i for i in members if facts[i]["observedAt"] == latest]
            for i in members:
                if i not in current:
                    verdicts[i] = {"kind": "SILENT", "reason": "superseded"}
            if len({(facts[i]["value"], facts[i].get("unit")) for i in current}) > 1:
                for i in current:
                    verdicts[i] = {"kind": "VIOLATION", "reason": "conflicting_period"}
    piles: dict[str, list[Any]] = {"GROUNDED": [], "SILENT": [], "VIOLATION": []}
    for fact, verdict in zip(facts, verdicts, strict=True):  # the three piles, as GateResult
        piles[verdict["kind"]].append(verdict if verdict["kind"] == "VIOLATION" else fact)
    return {"verdicts": verdicts, **piles}


def make_json_facts(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """Mixed facts as JSON objects: 70% grounded, 10% silent, 20% violations."""
    rng = random.Random(seed)
    facts = []
    for i in range(n):
        roll = rng.random()
        observed = NOW - timedelta(seconds=rng.randint(0, 800))
        fact: dict[str, Any] = {
            "subject": f"city-{i % 500}",
            "attribute": rng.choice(["temperature", "humidity", "wind_speed", "rate"]),
            "value": round(rng.uniform(-20, 40), 1),
            "unit": "degC",
            "source": "open-meteo",
            "observed_at": observed.isoformat().replace("+00:00", "Z"),
            "confidence": 0.95,
            "ttl": 900,
        }
        if roll < 0.10:
            fact["value"] = None
            fact["silent_reason"] = "timeout"
        elif roll < 0.17:
            fact["source"] = None  # cardinal
        elif roll < 0.24:
            fact["observed_at"] = (NOW - timedelta(hours=3)).isoformat()  # stale
        elif roll < 0.30:
            fact["source"] = None
            fact["confidence"] = 0.3  # missing source
        facts.append(fact)
    return facts


def to_reference_dict(fact: dict[str, Any]) -> dict[str, Any]:
    observed = fact["observed_at"]
    return {
        "subject": fact["subject"],
        "attribute": fact["attribute"],
        "value": fact["value"],
        "source": fact["source"],
        "observedAt": None
        if observed is None
        else int(datetime.fromisoformat(observed.replace("Z", "+00:00")).timestamp() * 1000),
        "confidence": fact["confidence"],
        "ttlMinutes": fact["ttl"] / 60,
        "silentReason": fact.get("silent_reason"),
    }


def best_of(runs: int, *timed: Any) -> list[float]:
    best = [float("inf")] * len(timed)
    for _ in range(runs):
        for i, fn in enumerate(timed):  # alternate so noise hits both alike
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def partition_child(n: int) -> None:
    """Run in a child: build n facts, partition them, print seconds and peak RSS."""
    raw = make_json_facts(min(n, 50_000))
    facts = [Fact.model_validate(raw[i % len(raw)]) for i in range(n)]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    result = partition(facts, Policy(), NOW)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "seconds": seconds,
                "peak_mb": peak / 1024,
                "extra_mb": (peak - base) / 1024,
                "counts": result.counts,
            }
        )
    )


COUNTED = 5_000
CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def count_child(which: str, passes: int) -> None:
    """Run in a child under callgrind: one warm-up pass and ``passes`` more of one side."""
    raw = make_json_facts(COUNTED)
    facts = [Fact.model_validate(item) for item in raw]
    dicts = [to_reference_dict(item) for item in raw]
    policy = Policy()
    sides = {
        "classify": lambda: [classify(fact, policy, NOW) for fact in facts],
        "classify-port": lambda: [reference_classify_design(fact, NOW_MS) for fact in dicts],
        "partition": lambda: partition(facts, policy, NOW),
        "partition-port": lambda: reference_partition_design(dicts, NOW_MS),
    }
    for _ in range(passes + 1):
        sides[which]()


def instructions(which: str) -> float:
    """Instructions per fact of one side (two more passes minus none, halved)."""
    counts = []
    for passes in (0, 2):
        child = subprocess.run(
            [*CALLGRIND, sys.executable, __file__, "--count-child", which, str(passes)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        found = re.search(r"Collected : (\d+)", child.stderr)
        assert found, child.stderr[-500:]
        counts.append(int(found.group(1)))
    return (counts[1] - counts[0]) / 2 / COUNTED


def print_instructions() -> None:
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed")
        return
    print(f"instructions per fact (callgrind, {COUNTED:,} facts, 2 passes minus 0, halved)")
    for name in ("classify", "partition"):
        ours, port = instructions(name), instructions(f"{name}-port")
        print(
            f"  {name:<9}: vouched {ours:6.0f}, same-rules dict port {port:6.0f}, "
            f"ratio port/vouched {port / ours:5.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes for a smoke run")
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (callgrind)"
    )
    parser.add_argument("--partition-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.partition_child:
        partition_child(args.partition_child)
        return
    if args.count_child:
        count_child(args.count_child[0], int(args.count_child[1]))
        return

    n = 30_000 if args.quick else 300_000
    raw = make_json_facts(n)
    facts = [Fact.model_validate(item) for item in raw]
    dicts = [to_reference_dict(item) for item in raw]
    policy = Policy()

    def run_vouched() -> None:
        for fact in facts:
            classify(fact, policy, NOW)

    def run_reference() -> None:
        for fact in dicts:
            reference_classify(fact, NOW_MS)

    def run_design() -> None:
        for fact in dicts:
            reference_classify_design(fact, NOW_MS)

    ours, reference, design = best_of(5, run_vouched, run_reference, run_design)
    print(f"classify {n:,} mixed facts (best of 5, alternating)")
    print(f"  vouched.classify on Fact (8 rules)  : {ours * 1e9 / n:7.0f} ns/fact")
    print(f"  seed reference on dicts (5 rules)   : {reference * 1e9 / n:7.0f} ns/fact")
    print(f"  seed style, DESIGN's 8 rules, dicts : {design * 1e9 / n:7.0f} ns/fact")
    print(f"  ratio seed reference/vouched        : {reference / ours:7.2f}  (target >= 1.0)")
    print(f"  ratio same-rules dict port/vouched  : {design / ours:7.2f}")

    def run_partition() -> None:
        partition(facts, policy, NOW)

    def run_port_partition() -> None:
        reference_partition_design(dicts, NOW_MS)

    whole, port = best_of(5, run_partition, run_port_partition)
    print(f"partition {n:,} mixed facts, the period rules included (best of 5, alternating)")
    print(f"  vouched.partition (10 rules)        : {whole * 1e9 / n:7.0f} ns/fact")
    print(f"  seed style, 10 rules, dicts         : {port * 1e9 / n:7.0f} ns/fact")
    print(f"  ratio same-rules dict port/vouched  : {port / whole:7.2f}  (target >= 1.0)")

    sample = [json.dumps(item) for item in raw[:20_000]]
    build, parse_only = best_of(
        3,
        lambda: [Fact.model_validate(loads(text)) for text in sample],
        lambda: [loads(text) for text in sample],
    )
    print("build a Fact from JSON text (best of 3)")
    print(f"  loads + Fact.model_validate : {build * 1e6 / len(sample):6.2f} us/fact")
    print(f"  loads alone (baseline)      : {parse_only * 1e6 / len(sample):6.2f} us/fact")

    size = 100_000 if args.quick else 1_000_000
    child = subprocess.run(
        [sys.executable, __file__, "--partition-child", str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(child.stdout)
    print(
        f"partition {size:,} facts: {figures['seconds']:.2f} s, "
        f"peak RSS {figures['peak_mb']:.0f} MB (facts already in memory; "
        f"partition adds {figures['extra_mb']:.0f} MB)"
    )
    if args.instructions:
        print_instructions()


if __name__ == "__main__":
    main()
