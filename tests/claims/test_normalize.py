"""Normalizers: one comparable form, the same on both sides, never a default."""

from __future__ import annotations

from datetime import date, time
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched._claims._normalize import (
    NORMALIZERS,
    Money,
    money_in,
    normalize_bool,
    normalize_date,
    normalize_decimal,
    normalize_integer,
    normalize_money,
    normalize_text,
    normalize_time,
)

SETTINGS = settings(max_examples=150, deadline=None)


def test_text_casefolds_and_turns_underscores_into_spaces() -> None:
    assert normalize_text("in_person") == normalize_text("In person") == "in person"


def test_text_collapses_runs_of_whitespace() -> None:
    assert normalize_text("  In \t  person ") == "in person"


@pytest.mark.parametrize("value", ["", "   ", "_", 5, None, True])
def test_text_refuses_blank_and_non_text(value: object) -> None:
    with pytest.raises(ValueError, match="text"):
        normalize_text(value)


def test_money_reads_a_json_number_and_csv_text_as_the_same_amount() -> None:
    assert normalize_money(27.5) == normalize_money("27.50") == Decimal("27.50")
    assert str(normalize_money(Decimal("27.5"))) == "27.50"


def test_money_takes_floats_as_written_not_as_binary() -> None:
    assert normalize_money(0.1) == Decimal("0.10")


@pytest.mark.parametrize("value", ["free", "", "€27.50", "1,000", "1e3", "NaN", "Infinity"])
def test_money_refuses_text_that_is_not_a_plain_number(value: str) -> None:
    with pytest.raises(ValueError, match="money"):
        normalize_money(value)


def test_money_refuses_fractions_of_a_cent_instead_of_rounding() -> None:
    with pytest.raises(ValueError, match="two decimal places"):
        normalize_money(Decimal("27.505"))


def test_money_refuses_booleans_and_nan() -> None:
    with pytest.raises(ValueError, match="boolean"):
        normalize_money(True)
    with pytest.raises(ValueError, match="money"):
        normalize_money(float("nan"))


def test_decimal_compares_by_value() -> None:
    assert normalize_decimal("3") == normalize_decimal(Decimal("3.0")) == normalize_decimal(3)


def test_integer_accepts_integral_decimals_and_refuses_fractions() -> None:
    assert normalize_integer(Decimal("30.0")) == normalize_integer(" 30 ") == 30
    with pytest.raises(ValueError, match="fraction"):
        normalize_integer(Decimal("12.5"))
    with pytest.raises(ValueError, match="integer"):
        normalize_integer("twelve")


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, True), ("yes", True), (" TRUE ", True), ("No", False), ("false", False)],
)
def test_bool_reads_true_false_yes_no(value: object, expected: bool) -> None:
    assert normalize_bool(value) is expected


@pytest.mark.parametrize(
    ("value", "expected"), [(1, True), (0, False), ("1", True), (" 0 ", False)]
)
def test_bool_reads_one_and_zero_as_spreadsheets_write_them(value: object, expected: bool) -> None:
    assert normalize_bool(value) is expected


@pytest.mark.parametrize("value", ["maybe", "2", 2, -1, "01", "", None, 1.0])
def test_bool_refuses_anything_else(value: object) -> None:
    with pytest.raises(ValueError, match="yes/no"):
        normalize_bool(value)


def test_time_pads_the_hour() -> None:
    assert normalize_time("9:30") == normalize_time("09:30") == "09:30"
    assert normalize_time(time(8, 45)) == "08:45"


@pytest.mark.parametrize("value", ["25:00", "24:00", "12:60", "9:5", "9.30", "09:30:15", "", 930])
def test_time_refuses_what_is_not_a_24_hour_hh_mm(value: object) -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        normalize_time(value)


def test_date_refuses_numeric_day_month_orders_and_no_such_day() -> None:
    assert normalize_date("2026-12-07") == normalize_date(date(2026, 12, 7))
    with pytest.raises(ValueError, match="ISO"):
        normalize_date("07/12/2026")
    with pytest.raises(ValueError, match="no such day"):
        normalize_date("2026-02-30")


def test_every_contract_name_has_a_normalizer() -> None:
    assert set(NORMALIZERS) == {"text", "money", "decimal", "integer", "bool", "time", "date"}


_VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["9:30", "23:59", "yes", "No", "2026-12-07", "27.5", " 30 ", "in_Person"]),
    st.integers(-(10**6), 10**6),
    st.decimals(allow_nan=True, allow_infinity=True, places=3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.dates(),
    st.times(),
)


@SETTINGS
@given(name=st.sampled_from(sorted(NORMALIZERS)), value=_VALUES)
def test_normalizers_are_idempotent(name: str, value: object) -> None:
    normalizer = NORMALIZERS[name]
    try:
        once = normalizer(value)
    except ValueError:
        return  # refused: nothing to be idempotent about
    assert normalizer(once) == once


# -- what a real catalog writes --------------------------------------------------------


@pytest.mark.parametrize("text", ["€19.90", "19,90 €", "EUR 19.90", "19.90EUR", "19,9", "19.90"])
def test_money_in_eur_reads_symbols_codes_and_a_decimal_comma(text: str) -> None:
    assert money_in("EUR")(text) == Money(Decimal("19.90"), "EUR")


def test_money_in_another_currency_is_not_equal() -> None:
    eur = money_in("EUR")
    assert eur("$19.90") == Money(Decimal("19.90"), "USD")
    assert eur("$19.90") != eur("19.90")
    assert eur("£12.00") != eur("€12.00")


@pytest.mark.parametrize(
    ("text", "amount"),
    [("1,234.50", "1234.50"), ("1.234,50", "1234.50"), ("$12.00", "12.00")],
)
def test_money_reads_thousands_separators_beside_the_decimal_one(text: str, amount: str) -> None:
    assert money_in("USD")(text).amount == Decimal(amount)


@pytest.mark.parametrize("text", ["€€19.90", "€19.90 EUR", "19.90.00", "1,000", "free", "€"])
def test_money_in_refuses_what_it_cannot_read_without_guessing(text: str) -> None:
    with pytest.raises(ValueError, match=r"money|ambiguous"):
        money_in("EUR")(text)


def test_plain_money_refuses_a_currency_and_names_the_contract_spelling() -> None:
    with pytest.raises(ValueError, match="money:EUR"):
        normalize_money("€19.90")
    assert normalize_money("19,90") == Decimal("19.90")


@given(st.decimals(min_value=-(10**9), max_value=10**9, places=2), st.sampled_from(["EUR", "USD"]))
@SETTINGS
def test_money_in_is_idempotent(amount: Decimal, currency: str) -> None:
    normalize = money_in(currency)
    assert normalize(normalize(amount)) == normalize(amount)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9:30 am", "09:30"),
        ("9:30 AM", "09:30"),
        ("9:30pm", "21:30"),
        ("12:15 a.m.", "00:15"),
        ("12:00 pm", "12:00"),
        ("9 pm", "21:00"),
        ("09:30:00", "09:30"),
    ],
)
def test_time_reads_the_12_hour_clock_and_zero_seconds(text: str, expected: str) -> None:
    assert normalize_time(text) == expected


@pytest.mark.parametrize("text", ["13:00 pm", "0:30 am", "9:30 xm"])
def test_time_refuses_a_12_hour_time_that_does_not_exist(text: str) -> None:
    with pytest.raises(ValueError, match=r"12-hour|HH:MM"):
        normalize_time(text)


@pytest.mark.parametrize(
    "text",
    ["5 December 2026", "5th December 2026", "5 Dec 2026", "December 5, 2026", "Dec. 5 2026"],
)
def test_date_reads_written_english_dates(text: str) -> None:
    assert normalize_date(text) == date(2026, 12, 5)


@pytest.mark.parametrize("text", ["31 February 2026", "5 Dezember 2026"])
def test_date_refuses_a_written_date_that_is_not_a_day(text: str) -> None:
    with pytest.raises(ValueError, match=r"no such day|unknown month"):
        normalize_date(text)
