"""Rough edges of claim checking (issue 22): wider normalizers whose messages
say what they accept, and catalog cells checked against the contract at load."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from vouched import Catalog, ClaimStatus, Contract, InputError, verify_output
from vouched._claims._normalize import normalize_bool, normalize_date, normalize_time
from vouched._cli import main

EUR = Contract(
    entity_field="code", citation_field="record", attributes={"fee": "money:EUR", "format": "text"}
)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short relative names: messages are compared whole


def write(tmp_path: Path, name: str, text: str) -> Path:
    """``name`` written in ``tmp_path`` (the working directory), as a relative path."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    return Path(name)


@pytest.mark.parametrize(
    "text",
    [
        "Saturday, 5 December 2026",
        "Sat 5 Dec 2026",
        "saturday December 5, 2026",
        "Sat., 5 December 2026",
        "Saturday, 2026-12-05",
    ],
)
def test_a_date_after_its_own_weekday_is_read(text: str) -> None:
    assert normalize_date(text) == date(2026, 12, 5)


@pytest.mark.parametrize("text", ["Friday, 5 December 2026", "Sun 2026-12-05"])
def test_a_weekday_that_contradicts_the_date_is_refused_not_ignored(text: str) -> None:
    with pytest.raises(ValueError, match=r"weekday .* 2026-12-05, a Saturday"):
        normalize_date(text)


def test_a_date_error_says_which_forms_are_read() -> None:
    with pytest.raises(ValueError, match=r"5 December 2026 or December 5, 2026") as error:
        normalize_date("05/12/2026")
    assert "Saturday, 5 December 2026" in str(error.value)


@pytest.mark.parametrize("value", ["25:00", "9:5", "noon", 930])
def test_a_time_error_names_the_12_hour_forms_it_reads(value: object) -> None:
    with pytest.raises(ValueError, match=r"9:30 am, 9 pm") as error:
        normalize_time(value)
    assert "HH:MM" in str(error.value)


def test_a_bool_error_names_one_and_zero() -> None:
    assert normalize_bool(1) is True
    with pytest.raises(ValueError, match="1/0"):
        normalize_bool("2")


def test_a_money_cell_in_another_currency_is_a_catalog_error(tmp_path: Path) -> None:
    path = write(tmp_path, "c.csv", "code,record,fee,format\nA,R1,€10.00,x\nB,R2,$12.00,y\n")
    with pytest.raises(InputError) as error:
        Catalog.from_csv(path, EUR)
    assert str(error.value) == (
        f"{path}:3: fee: '$12.00' is in USD (column 3), not the contract's currency (money:EUR)"
    )


def test_a_dollar_claim_is_never_verified_against_a_euro_catalog(tmp_path: Path) -> None:
    path = write(tmp_path, "c.csv", "code,record,fee,format\nA,R1,12.00,x\n")
    catalog = Catalog.from_csv(path, EUR)
    claim = json.dumps({"code": "A", "attribute": "fee", "value": "$12.00", "citation": "R1"})
    assert verify_output(claim, catalog, EUR).status is ClaimStatus.VALUE_MISMATCH


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_catalog_cell_is_a_catalog_error_not_a_model_failure(
    tmp_path: Path, blank: str
) -> None:
    path = write(tmp_path, "c.csv", f"code,record,fee,format\nA,R1,10.00,x\nB,R2,{blank},y\n")
    with pytest.raises(InputError) as error:
        Catalog.from_csv(path, EUR)
    assert str(error.value).startswith(f"{path}:3: fee: is blank (column 3): every row needs")


def test_a_blank_cell_in_rows_names_the_row(tmp_path: Path) -> None:
    rows = [{"code": "A", "record": "R1", "fee": "1.00", "format": None}]
    with pytest.raises(InputError, match=r"<rows>:row 0: format: is blank"):
        Catalog.from_rows(rows, EUR)


def test_verify_refuses_a_catalog_in_another_currency_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = write(tmp_path, "c.csv", "code,record,fee,format\nA,R1,$12.00,x\n")
    contract = write(
        tmp_path,
        "c.toml",
        'entity_field = "code"\ncitation_field = "record"\n[attributes]\nfee = "money:EUR"\n',
    )
    line = {
        "model_output": json.dumps(
            {"code": "A", "attribute": "fee", "value": "$12.00", "citation": "R1"}
        )
    }
    claims = write(tmp_path, "claims.jsonl", json.dumps(line) + "\n")
    status = main(["verify", "--catalog", str(catalog), "--contract", str(contract), str(claims)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == (
        f"vouched verify: {catalog}:2: fee: '$12.00' is in USD (column 3), "
        "not the contract's currency (money:EUR)\n"
    )
