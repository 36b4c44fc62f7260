"""A small population of stored answers for the review pages' tests.

Real snapshots: facts through the gate, texts through the scanner (so every
finding's span is the scanner's own), several days and two prompt versions,
a breaker that opened, and one hostile answer whose question and output
carry markup, bidi and control characters.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from vouched import Fact, Lexicon, Policy, Snapshot, partition, scan

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LEXICON = Lexicon(attributes={"humidity": ["humidity"], "wind_speed": ["wind", "winds"]})
HOSTILE_QUESTION = 'What is <script>alert("q")</script> \u202etxt.exe\x1b[31m in Berlin?'
HOSTILE_OUTPUT = "<img src=x onerror=alert(1)> Berlin is 21.4 \u00b0C \u202eevil\u202c \x07 done."
WRONG = "In Berlin the humidity is 70% with winds of 12 km/h."


def facts(at: datetime, *, breaker: bool = False) -> list[Fact]:
    observed = at - timedelta(minutes=5)
    out = [
        Fact(
            subject="Berlin",
            attribute="temperature",
            value=Decimal("21.4"),
            unit="degC",
            source="open-meteo",
            observed_at=observed,
            ttl=900,
        ),
        Fact(
            subject="Berlin",
            attribute="humidity",
            value=63,
            unit="%",
            source="open-meteo",
            observed_at=observed,
            ttl=900,
        ),
    ]
    if breaker:
        out.append(
            Fact.silence("Berlin", "wind_speed", "circuit_open", source="wind-api", unit="km/h")
        )
    else:
        out.append(
            Fact(
                subject="Berlin",
                attribute="wind_speed",
                value=11,
                unit="km/h",
                source="wind-api",
                observed_at=observed,
                ttl=900,
            )
        )
    return out


def answer(
    at: datetime,
    text: str,
    *,
    version: str,
    breaker: bool = False,
    question: str = "How is the weather in Berlin?",
) -> Snapshot:
    """One stored answer: ``text`` scanned; a finding refuses it after one retry."""
    fs = facts(at, breaker=breaker)

    gate = partition(fs, Policy(), at)
    found = [f.to_json() for f in scan(text, gate, LEXICON, question=question).findings]
    if found:
        trail = [
            {"text": text, "prompt_version": version, "findings": found, "action": "retry"},
            {"text": text, "prompt_version": version, "findings": found, "action": "refuse"},
        ]
        output, status, attempts = "No answer is given: it could not be checked.", "refused", 2
    else:
        trail = [{"text": text, "prompt_version": version, "findings": [], "action": "accept"}]
        output, status, attempts = text, "ok", 1
    return Snapshot.build(
        created_at=at,
        question=question,
        facts=fs,
        policy=Policy(),
        prompt_version=version,
        phraser="scripted",
        output=output,
        findings=found,
        status=status,
        attempts=attempts,
        trail=trail,
        on_fail="retry+refuse",
    )


GOOD = "The temperature in Berlin is 21.4 °C. The humidity in Berlin is 63%."


def population() -> list[Snapshot]:
    """Three days, two prompt versions: good answers, wrong ones, a breaker, a hostile one."""
    out: list[Snapshot] = []
    for day in range(3):
        for hour in range(4):
            at = T0 + timedelta(days=day, hours=hour)
            version = "p1" if day < 2 else "p2"
            wrong = hour == 3 or (version == "p2" and hour == 2)
            out.append(answer(at, WRONG if wrong else GOOD, version=version, breaker=wrong))
    out.append(
        answer(
            T0 + timedelta(days=2, hours=5), HOSTILE_OUTPUT, version="p2", question=HOSTILE_QUESTION
        )
    )
    return out
