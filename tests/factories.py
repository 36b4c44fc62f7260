"""Shared test helpers: facts are built the way users build them.

Imported as ``from factories import ...`` (pytest puts tests/ on the path).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from vouched import Fact
from vouched._answer._prompt import Prompt, build_prompt

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


BERLIN_JSON: dict[str, Any] = {
    "subject": "Berlin",
    "attribute": "temperature",
    "value": 21.4,
    "unit": "degC",
    "source": "open-meteo",
    "observed_at": "2026-11-29T12:00:00Z",
    "confidence": 0.95,
    "ttl": 900,
}
"""One grounded fact as a facts file holds it (the CLI tests' good input)."""


def make_fact(**overrides: Any) -> Fact:
    """A grounded-looking fact at NOW; override any field."""
    fields: dict[str, Any] = {
        "subject": "Berlin",
        "attribute": "temperature",
        "value": 21.4,
        "unit": "degC",
        "source": "open-meteo",
        "observed_at": NOW,
        "confidence": 0.95,
        "ttl": 900,
    }
    fields.update(overrides)
    return Fact(**fields)


def berlin_prompt() -> Prompt:
    """The prompt for "How warm is it in Berlin?" over one temperature fact: what the
    phraser tests send upstream."""
    fact = Fact(
        subject="Berlin",
        attribute="temperature",
        value=Decimal("21.4"),
        unit="degC",
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
    )
    return build_prompt("How warm is it in Berlin?", [fact], [])
