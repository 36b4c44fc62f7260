"""Benchmark: ``scan`` on realistic answers versus a naive regex membership check.

Run ``python bench/scan.py`` (about 20 s) or ``python bench/scan.py --full``.
Both checks run in the same loop on the same inputs:

- naive: every digit number (``\\d+(?:\\.\\d+)?``) must equal the text of some
  fact value (the set is built from the facts on each call, as scan must);
- scan: every check (number reader, lexicon binding, rounding, units,
  placeholders, internal words, fallbacks, quotes).

Prints median microseconds per answer (p50/p90 over answers), the ratio to the
naive check (target: <= 8x), and how scan's cost grows with answer length
(1, 4, 16 KB) and fact count (10, 100, 1,000).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from decimal import Decimal

from vouched import Fact, Lexicon, Policy, Scanner, partition, scan

NOW = datetime(2026, 11, 29, 12, 10, tzinfo=UTC)
CITIES = [
    "Berlin", "Munich", "Hamburg", "Cologne", "Frankfurt", "Stuttgart", "Leipzig", "Dresden",
    "Vienna", "Zurich", "Paris", "Lyon", "Madrid", "Lisbon", "Rome", "Milan", "Oslo",
    "Stockholm", "Helsinki", "Warsaw", "Prague", "Budapest", "Athens", "Dublin", "London",
]  # fmt: skip
LEXICON = Lexicon(
    attributes={
        "temperature": ["temperature", "temperatures", "degrees"],
        "humidity": ["humidity", "% humidity", "relative humidity"],
        "wind_speed": ["wind", "winds", "wind speed"],
        "precipitation": ["rain", "rainfall", "precipitation"],
    },
    subjects={"Berlin": ["the capital"], "Zurich": ["Zürich"]},
    internal=["wx_payload"],
)
_NAIVE = re.compile(r"\d+(?:\.\d+)?")


def make_facts(count: int, rng: random.Random) -> list[Fact]:
    facts: list[Fact] = []
    attributes = [
        ("temperature", "degC"),
        ("humidity", "%"),
        ("wind_speed", "km/h"),
        ("precipitation", "mm"),
    ]
    index = 0
    while len(facts) < count:
        city = CITIES[index % len(CITIES)] + (
            "" if index < len(CITIES) else f" {index // len(CITIES)}"
        )
        for attribute, unit in attributes:
            if len(facts) >= count:
                break
            value = {
                "temperature": Decimal(rng.randint(-150, 350)) / 10,
                "humidity": Decimal(rng.randint(20, 99)),
                "wind_speed": Decimal(rng.randint(0, 60)),
                "precipitation": Decimal(rng.randint(0, 90)) / 10,
            }[attribute]
            facts.append(
                Fact(
                    subject=city,
                    attribute=attribute,
                    value=value,
                    unit=unit,
                    source="open-meteo",
                    observed_at="2026-11-29T12:00:00Z",
                    ttl=900,
                )
            )
        index += 1
    return facts


def sentence(fact: Fact, rng: random.Random) -> str:
    value = fact.value
    assert isinstance(value, Decimal)
    shown = str(round(value)) if rng.random() < 0.5 else str(value)
    unit = {"degC": "°C", "%": "%", "km/h": " km/h", "mm": " mm"}[fact.unit or "%"]
    word = fact.attribute.replace("_", " ")
    return rng.choice(
        [
            f"In {fact.subject} the {word} is {shown}{unit} right now.",
            f"{fact.subject} reports a {word} of {shown}{unit}, as of 12:00 UTC.",
            f"The {word} in {fact.subject} stands at {shown}{unit}; no change is expected soon.",
        ]
    )


def make_answer(facts: Sequence[Fact], size: int, rng: random.Random) -> str:
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < size:
        parts.append(sentence(rng.choice(facts), rng))
        if rng.random() < 0.15:
            parts.append("Wind data for some stations is unavailable right now, so it is left out.")
    return " ".join(parts)


def naive(text: str, facts: Sequence[Fact]) -> bool:
    values = {str(f.value) for f in facts if f.value is not None}
    return all(number in values for number in _NAIVE.findall(text))


def timed(function: Callable[[], object], repeat: int) -> float:
    """Median microseconds of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        function()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return statistics.median(samples)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more answers and repetitions")
    args = parser.parse_args(argv)
    answers, repeat = (200, 41) if args.full else (60, 15)
    rng = random.Random(20261129)

    facts = make_facts(50, rng)
    gated = partition(facts, Policy(), NOW)
    scan_us: list[float] = []
    compiled_us: list[float] = []
    compiled = Scanner(gated, LEXICON)
    naive_us: list[float] = []
    ratios: list[float] = []
    sizes = []
    for _ in range(answers):
        text = make_answer(facts, rng.randint(500, 1000), rng)
        sizes.append(len(text.encode()))
        assert scan(text, gated, LEXICON).passed, "bench answers must be clean"
        s = timed(lambda t=text: scan(t, gated, LEXICON), repeat)
        n = timed(lambda t=text: naive(t, gated.grounded), repeat)
        compiled_us.append(timed(lambda t=text: compiled.scan(t), repeat))
        scan_us.append(s)
        naive_us.append(n)
        ratios.append(s / n)
    print(
        f"answers: {answers} x {min(sizes)}-{max(sizes)} bytes, 50 facts, lexicon; "
        f"{repeat} runs each"
    )
    print(f"{'':8} {'p50 us':>9} {'p90 us':>9}")
    print(f"{'naive':8} {percentile(naive_us, 0.5):9.1f} {percentile(naive_us, 0.9):9.1f}")
    print(f"{'scan':8} {percentile(scan_us, 0.5):9.1f} {percentile(scan_us, 0.9):9.1f}")
    print(
        f"{'Scanner':8} {percentile(compiled_us, 0.5):9.1f} {percentile(compiled_us, 0.9):9.1f}"
        "  (compiled once, reused)"
    )
    ratio = statistics.median(ratios)
    print(
        f"scan / naive (median of per-answer ratios): {ratio:.1f}x  "
        "(issue 18 target: <= 8x; main on 2026-12-02 before v3: ~40x, 0.1.0: 18-27x)"
    )
    _factguard_note()

    print("\ngrowth with answer length (50 facts):")
    base = None
    for kb in (1, 4, 16):
        text = make_answer(facts, kb * 1024, rng)
        s = timed(lambda t=text: scan(t, gated, LEXICON), max(5, repeat // kb))
        n = timed(lambda t=text: naive(t, gated.grounded), max(5, repeat // kb))
        base = base or s
        print(
            f"  {kb:2} KB: scan {s:9.1f} us  naive {n:8.1f} us  ratio {s / n:5.1f}x  "
            f"scan per KB vs 1 KB {s / base / kb:5.2f}"
        )

    print("\ngrowth with fact count (1 KB answers):")
    for count in (10, 100, 1000):
        many = make_facts(count, rng)
        gated_many = partition(many, Policy(), NOW)
        text = make_answer(many, 1024, rng)
        s = timed(lambda t=text, g=gated_many: scan(t, g, LEXICON), repeat)
        n = timed(lambda t=text, g=gated_many: naive(t, g.grounded), repeat)
        print(f"  {count:5} facts: scan {s:9.1f} us  naive {n:8.1f} us  ratio {s / n:5.1f}x")

    hostile(facts, gated)
    return 0


def _factguard_note() -> None:
    if importlib.util.find_spec("factguard") is None:
        print("factguard: not installed (pip install factguard to time it beside scan)")
    else:
        print("factguard: installed, but no adapter for its validate() is written yet")


def hostile(facts: Sequence[Fact], gated: object) -> None:
    """Texts built to make a scanner quadratic; each must scan in about a second.
    0.1.0 took 33 s for 40,000 unmatched opening quotes and 296 s for 1 MB of prose
    with one value restated throughout."""
    value = next(f for f in facts if f.attribute == "temperature")
    restated = f"{value.subject} is {value.value} °C. "
    cases = {
        'unmatched "': '"x ' * 333_334,
        "unmatched \u201c": "\u201cx " * 333_334,
        "unmatched \u2018": " \u2018x" * 333_334,
        "unmatched \u00ab": "\u00abx " * 333_334,
        "one value restated 10,000 times": restated * 10_000,
        "1 MB of number-dense prose": make_answer(facts, 1_000_000, random.Random(7)),
        "numbers with no sentence end": "Berlin 21.4 °C, " * 62_500,
        "a subject named before every number": " ".join(
            f"{f.subject} {f.value}" for f in facts for _ in range(1)
        )
        * (1_000_000 // 1200),
    }
    print("\nhostile texts (linear in length; issue 18 target: <= 3 s each):")
    for label, text in cases.items():
        start = time.perf_counter()
        scan(text, gated, LEXICON)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        print(f"  {label:34} {len(text):>9,} chars {seconds:7.2f} s")


if __name__ == "__main__":
    sys.exit(main())
