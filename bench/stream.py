"""Benchmark: an answer fed to ``StreamScanner`` in N chunks versus one ``scan`` of it.

Run ``python bench/stream.py`` (about 15 s) or ``python bench/stream.py --full``.
The baseline is one ``scan`` of the finished answer, timed in the same run on
the same inputs. The streamed figure is the total work of feeding the answer
in N chunks (N = 1, words, 4-character tokens) and closing the scanner, which
includes the final ``scan`` that ``close()`` runs. Answers of 1, 2 and 4 KB.

Since scanner v3 the stream reads each sentence once when it closes (0.1 and
v2 rescanned the prefix at every sentence: 11-41x one scan on main
2026-12-02); the target is within 2x of one scan. The ratio printed is that
distance.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from scan import LEXICON, NOW, make_answer, make_facts
from vouched import Policy, StreamScanner, partition, scan


def timed(function: Callable[[], object], repeat: int) -> float:
    """Median microseconds of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        function()
        samples.append((time.perf_counter_ns() - start) / 1000)
    return statistics.median(samples)


def chunked(text: str, how: str) -> list[str]:
    if how == "whole":
        return [text]
    if how == "words":
        return re.findall(r"\S+\s*|\s+", text)
    return [text[i : i + 4] for i in range(0, len(text), 4)]


def streamed(chunks: Sequence[str], gated: object) -> object:
    scanner = StreamScanner(gated, LEXICON)  # type: ignore[arg-type]
    for chunk in chunks:
        scanner.feed(chunk)
    return scanner.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="more answers and repetitions")
    args = parser.parse_args(argv)
    answers, repeat = (12, 7) if args.full else (4, 3)
    rng = random.Random(20261201)
    facts = make_facts(50, rng)
    gated = partition(facts, Policy(), NOW)
    print(f"{answers} answers per size, 50 facts, lexicon; median of {repeat} runs each")
    print(
        f"{'size':>6} {'sentences':>9} {'chunks':>7} {'one scan us':>12} "
        f"{'streamed us':>12} {'ratio':>7}"
    )
    for kb in (1, 2, 4):
        for how in ("whole", "words", "tokens"):
            ratios, bases, totals, counts, sentences = [], [], [], [], []
            for _ in range(answers):
                text = make_answer(facts, kb * 1024, rng)
                chunks = chunked(text, how)
                base = timed(lambda t=text: scan(t, gated, LEXICON), repeat)
                total = timed(lambda c=chunks: streamed(c, gated), repeat)
                bases.append(base)
                totals.append(total)
                ratios.append(total / base)
                counts.append(len(chunks))
                sentences.append(text.count(". "))
            print(
                f"{kb:>4}KB {statistics.median(sentences):>9.0f} "
                f"{statistics.median(counts):>7.0f} {statistics.median(bases):>12.0f} "
                f"{statistics.median(totals):>12.0f} {statistics.median(ratios):>6.1f}x"
            )
    print("ratio: total streamed work / one scan of the whole answer (target <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
