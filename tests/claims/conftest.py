"""Shared fixtures for the claims tests: the workshop catalog and its contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from vouched import Catalog, Contract

FIXTURES = Path(__file__).parent / "fixtures"
CATALOG_CSV = FIXTURES / "catalog.csv"
CONTRACT_TOML = FIXTURES / "contract.toml"
CASES_JSONL = FIXTURES / "cases.jsonl"


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract.load(CONTRACT_TOML)


@pytest.fixture(scope="session")
def catalog(contract: Contract) -> Catalog:
    return Catalog.from_csv(CATALOG_CSV, contract)
