"""The contract: loaded from TOML, strict about what it names."""

from __future__ import annotations

from pathlib import Path

import pytest

from vouched import Contract, InputError
from vouched._claims._normalize import normalize_money

FIXTURES = Path(__file__).parent / "fixtures"


def test_loads_the_design_example(tmp_path: Path) -> None:
    path = tmp_path / "contract.toml"
    path.write_text(
        'entity_field = "workshop_code"\ncitation_field = "catalog_record_id"\n'
        '[attributes]\nformat = "text"\nstart_time = "time"\nfee_eur = "money"\n'
        'step_free_access = "bool"\n',
        encoding="utf-8",
    )
    contract = Contract.load(path)
    assert contract.entity_field == "workshop_code"
    assert contract.citation_field == "catalog_record_id"
    assert dict(contract.attributes) == {
        "format": "text",
        "start_time": "time",
        "fee_eur": "money",
        "step_free_access": "bool",
    }
    assert contract.normalizers["fee_eur"] is normalize_money
    assert contract.claim_keys == {"workshop_code", "attribute", "value", "citation"}


def test_accepts_a_callable_as_a_normalizer() -> None:
    contract = Contract(entity_field="sku", citation_field="id", attributes={"colour": str.upper})
    assert contract.normalizers["colour"]("red") == "RED"


def test_unknown_normalizer_names_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        'entity_field = "e"\ncitation_field = "c"\n[attributes]\nfee = "euros"\n', encoding="utf-8"
    )
    with pytest.raises(InputError) as caught:
        Contract.load(path)
    assert str(caught.value).startswith(f"{path}:4: attributes.fee: unknown normalizer 'euros'")


def test_missing_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('entity_field = "e"\n[attributes]\nfee = "money"\n', encoding="utf-8")
    with pytest.raises(InputError, match="citation_field: is required"):
        Contract.load(path)


def test_unknown_top_level_key_is_refused() -> None:
    with pytest.raises(InputError, match="entity: unknown key"):
        Contract.from_mapping(
            {"entity": "e", "entity_field": "e", "citation_field": "c", "attributes": {"a": "text"}}
        )


def test_invalid_toml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('entity_field = "e"\ncitation_field = \n', encoding="utf-8")
    with pytest.raises(InputError, match=rf"^{path}:2: invalid TOML"):
        Contract.load(path)


def test_empty_attribute_table_is_refused() -> None:
    with pytest.raises(InputError, match="at least one attribute"):
        Contract(entity_field="e", citation_field="c", attributes={})


def test_entity_field_may_not_shadow_a_claim_key() -> None:
    with pytest.raises(InputError, match="already a claim key"):
        Contract(entity_field="value", citation_field="c", attributes={"a": "text"})


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        Contract.load(tmp_path / "absent.toml")
