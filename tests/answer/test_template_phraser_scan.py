"""Property: whatever the gate lets through, TemplatePhraser's text passes the scanner."""

from __future__ import annotations

import asyncio
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import Fact, Grounder, Policy, SilenceReason, TemplatePhraser, build_prompt, scan
from vouched._answer._grounder import stated_silences
from vouched._answer._phrasers import DEFAULT_UNITS
from vouched._time import parse_instant

NOW = parse_instant("2026-11-29T12:10:00Z")

SUBJECTS = st.sampled_from(
    ["Berlin", "Hamburg", "Munich", "Workshop Kiln", "EUR/USD", "Route Nord", "Gate B"]
)
ATTRIBUTES = st.sampled_from(
    [
        "temperature",
        "apparent_temperature",
        "feels_like",
        "wind_gust",
        "relative_humidity",
        "humidity",
        "wind_speed",
        "precipitation",
        "rate",
        "price",
        "seats",
        "step_free_access",
        "language",
    ]
)
DECIMALS = st.decimals(
    min_value=Decimal("-10000"), max_value=Decimal("100000"), places=3, allow_nan=False
).map(lambda d: d.normalize() if d == d.to_integral_value() else d)
VALUES = st.one_of(
    DECIMALS,
    st.integers(min_value=-1000, max_value=10**7),
    st.booleans(),
    st.sampled_from(["sunny", "In person", "German", "overcast"]),
)
UNITS = st.one_of(st.none(), st.sampled_from(sorted(DEFAULT_UNITS)), st.just("EUR"))
REASONS = st.one_of(st.sampled_from(list(SilenceReason)), st.just("vendor_quota"))


@st.composite
def facts(draw: st.DrawFn) -> list[Fact]:
    out = []
    for _ in range(draw(st.integers(min_value=0, max_value=6))):
        subject, attribute = draw(SUBJECTS), draw(ATTRIBUTES)
        if draw(st.integers(min_value=0, max_value=3)) == 0:
            out.append(Fact.silence(subject, attribute, draw(REASONS), source="feed"))
            continue
        value = draw(VALUES)
        numeric = isinstance(value, int | Decimal) and not isinstance(value, bool)
        out.append(
            Fact(
                subject=subject,
                attribute=attribute,
                value=value,
                unit=draw(UNITS) if numeric else None,
                source="feed",
                observed_at="2026-11-29T12:00:00Z",
                confidence=0.9,
                ttl=draw(st.sampled_from([60, 900, 86400])),
            )
        )
    return out


@settings(max_examples=150, deadline=None)
@given(facts())
def test_template_phraser_output_always_passes_the_scanner(batch: list[Fact]) -> None:
    from vouched import partition  # noqa: PLC0415

    gate = partition(batch, Policy(), NOW)
    silences = stated_silences(gate)
    text = TemplatePhraser().render(build_prompt("?", gate.grounded, silences))
    report = scan(text, [*gate.grounded, *silences])
    assert report.passed, (text, [f.to_json() for f in report.findings])


class _Fixed:
    name = "feed"

    def __init__(self, batch: list[Fact]) -> None:
        self.batch = batch

    async def fetch(self, query: object) -> list[Fact]:
        return self.batch


@settings(max_examples=60, deadline=None)
@given(facts())
def test_grounder_with_the_template_phraser_answers_ok_first_time(batch: list[Fact]) -> None:
    from vouched.testing import FakeClock  # noqa: PLC0415

    grounder = Grounder([_Fixed(batch)], clock=FakeClock(NOW))
    answer = asyncio.run(grounder.answer("What do we know?", {"subject": "Berlin"}))
    assert answer.attempts == 1, answer.findings
    # Only failures and no fact to state: the same clean text, counted apart.
    assert str(answer.status) in {"ok", "unavailable"}, answer.findings
