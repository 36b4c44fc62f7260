"""Numbers are bounded where they are read: digits and exponent.

A hostile number (``1e999999999``) costs nothing where it is parsed and would
cost a billion digits wherever it is later written out or rounded; it is
refused at once, in JSON, in ``Fact`` and in the CLI (exit 2, one line).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from factories import make_fact
from vouched._jsonio import MAX_EXPONENT, MAX_NUMBER_DIGITS, NumberBoundsError, loads
from vouched.testing import run_cli


@pytest.mark.parametrize(
    "number", ["1e999999999", "-1e-999999999", f"1e{MAX_EXPONENT + 1}", "1" * 1_000_000]
)
def test_json_refuses_a_number_past_the_bounds(number: str) -> None:
    with pytest.raises(NumberBoundsError, match="out of bounds"):
        loads('{"value": ' + number + "}")


def test_json_refuses_an_integer_with_too_many_digits() -> None:
    with pytest.raises(NumberBoundsError):
        loads("9" * (MAX_NUMBER_DIGITS + 1))


def test_json_keeps_numbers_within_the_bounds_exact() -> None:
    text = "1" * MAX_NUMBER_DIGITS
    assert loads(f"[{text}, 1e{MAX_EXPONENT}, 27.50]") == [
        int(text),
        Decimal(f"1e{MAX_EXPONENT}"),
        Decimal("27.50"),
    ]


def test_fact_refuses_a_decimal_with_a_huge_exponent() -> None:
    with pytest.raises(ValidationError, match="out of bounds"):
        make_fact(value=Decimal("1e999999999"))


def test_fact_refuses_an_integer_of_a_thousand_digits() -> None:
    with pytest.raises(ValidationError, match="out of bounds"):
        make_fact(value=10**1000)


def test_cli_gate_refuses_a_huge_exponent_with_one_line(tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text(
        '[{"subject": "Berlin", "attribute": "t", "value": 1e999999999, "source": "s",'
        ' "observed_at": "2026-01-01T00:00:00Z"}]',
        encoding="utf-8",
    )
    run = run_cli(["gate", str(facts)])
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert "out of bounds" in run.stderr
