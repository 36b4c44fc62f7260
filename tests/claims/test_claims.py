"""verify_output / verify_answer: the gates in order, one status each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vouched import Catalog, ClaimResult, ClaimStatus, Contract, verify_answer, verify_output

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [
    json.loads(line)
    for line in (FIXTURES / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def claim(entity: Any, attribute: Any, value: Any, citation: Any) -> str:
    return json.dumps(
        {"workshop_code": entity, "attribute": attribute, "value": value, "citation": citation}
    )


def test_the_labelled_cases_cover_every_status() -> None:
    assert len(CASES) >= 25
    assert {case["expected_status"] for case in CASES} == {status.value for status in ClaimStatus}


@pytest.mark.parametrize("case", CASES, ids=[f"{c['id']}-{c['expected_status']}" for c in CASES])
def test_labelled_case(case: dict[str, Any], catalog: Catalog, contract: Contract) -> None:
    result = verify_output(case["model_output"], catalog, contract)
    assert result.status == case["expected_status"], result.reason


def test_result_records_what_was_claimed_and_the_catalog_version(
    catalog: Catalog, contract: Contract
) -> None:
    result = verify_output(claim("WS101", "format", "in_person", "CAT-001"), catalog, contract)
    assert result == ClaimResult(
        status=ClaimStatus.VERIFIED,
        reason="matched format in CAT-001",
        entity="WS101",
        attribute="format",
        citation="CAT-001",
        catalog_version=catalog.version,
        claim_index=None,
    )


def test_value_mismatch_reason_shows_both_normalized_values(
    catalog: Catalog, contract: Contract
) -> None:
    result = verify_output(claim("WS103", "format", "online", "CAT-003"), catalog, contract)
    assert result.status is ClaimStatus.VALUE_MISMATCH
    assert result.reason == "claim=online; catalog=hybrid"


def test_wrong_citation_is_refused_before_the_value_is_read(
    catalog: Catalog, contract: Contract
) -> None:
    # "free" would be invalid_value, but the citation gate comes first.
    result = verify_output(claim("WS101", "fee_eur", "free", "CAT-002"), catalog, contract)
    assert result.status is ClaimStatus.CITATION_MISMATCH


def test_unknown_entity_comes_before_unsupported_attribute(
    catalog: Catalog, contract: Contract
) -> None:
    result = verify_output(claim("WS999", "workshop_name", "x", "CAT-001"), catalog, contract)
    assert result.status is ClaimStatus.UNKNOWN_ENTITY


def test_attribute_in_catalog_but_not_in_contract_is_unsupported(
    catalog: Catalog, contract: Contract
) -> None:
    assert "workshop_name" in catalog.columns
    result = verify_output(
        claim("WS101", "workshop_name", "Intro to Pottery", "CAT-001"), catalog, contract
    )
    assert result.status is ClaimStatus.UNSUPPORTED_ATTRIBUTE
    assert "the contract does not allow it" in result.reason


def test_invalid_value_is_never_turned_into_a_default(catalog: Catalog, contract: Contract) -> None:
    # A catalog fee of 0.00 exists (WS105): "free" must still not match it.
    result = verify_output(claim("WS105", "fee_eur", "free", "CAT-005"), catalog, contract)
    assert result.status is ClaimStatus.INVALID_VALUE
    assert "'free'" in result.reason


def test_a_citation_of_another_type_does_not_match() -> None:
    contract = Contract(entity_field="code", citation_field="record", attributes={"a": "text"})
    catalog = Catalog.from_rows([{"code": "A", "record": 1, "a": "x"}], contract)
    raw = json.dumps({"code": "A", "attribute": "a", "value": "x", "citation": True})
    assert verify_output(raw, catalog, contract).status is ClaimStatus.CITATION_MISMATCH


def test_a_callable_normalizer_runs_on_both_sides() -> None:
    contract = Contract(
        entity_field="code", citation_field="record", attributes={"colour": _colour}
    )
    catalog = Catalog.from_rows([{"code": "A", "record": "R", "colour": "Grey"}], contract)
    raw = json.dumps({"code": "A", "attribute": "colour", "value": "gray", "citation": "R"})
    assert verify_output(raw, catalog, contract).status is ClaimStatus.VERIFIED


def _colour(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("expected a colour")
    return value.strip().lower().replace("grey", "gray")


def test_an_answer_is_verified_claim_by_claim(catalog: Catalog, contract: Contract) -> None:
    answer = json.dumps(
        {
            "claims": [
                json.loads(claim("WS101", "format", "In person", "CAT-001")),
                json.loads(claim("WS102", "start_time", "25:00", "CAT-002")),
                ["not", "a", "claim"],
            ]
        }
    )
    results = verify_answer(answer, catalog, contract)
    assert [(r.claim_index, r.status) for r in results] == [
        (0, ClaimStatus.VERIFIED),
        (1, ClaimStatus.INVALID_VALUE),
        (2, ClaimStatus.INVALID_SHAPE),
    ]


def test_a_lone_claim_through_verify_answer_has_no_index(
    catalog: Catalog, contract: Contract
) -> None:
    raw = claim("WS101", "format", "In person", "CAT-001")
    assert verify_answer(raw, catalog, contract) == [verify_output(raw, catalog, contract)]


def test_an_answer_without_claims_is_invalid_shape(catalog: Catalog, contract: Contract) -> None:
    (result,) = verify_answer('{"claims": []}', catalog, contract)
    assert result.status is ClaimStatus.INVALID_SHAPE


def test_an_answer_given_to_verify_output_says_to_use_verify_answer(
    catalog: Catalog, contract: Contract
) -> None:
    raw = json.dumps({"claims": [json.loads(claim("WS101", "format", "x", "CAT-001"))]})
    result = verify_output(raw, catalog, contract)
    assert result.status is ClaimStatus.INVALID_SHAPE
    assert "verify_answer" in result.reason


def test_invalid_json_reason_says_where(catalog: Catalog, contract: Contract) -> None:
    result = verify_output('{"workshop_code": "WS1', catalog, contract)
    assert result.status is ClaimStatus.INVALID_JSON
    assert "column" in result.reason


def test_whitespace_around_the_json_is_fine(catalog: Catalog, contract: Contract) -> None:
    raw = "\n  " + claim("WS101", "format", "In person", "CAT-001") + "  \n"
    assert verify_output(raw, catalog, contract).status is ClaimStatus.VERIFIED


def test_two_documents_are_invalid_json(catalog: Catalog, contract: Contract) -> None:
    raw = claim("WS101", "format", "In person", "CAT-001") * 2
    assert verify_output(raw, catalog, contract).status is ClaimStatus.INVALID_JSON


def test_deeply_nested_json_is_invalid_json_not_a_crash(
    catalog: Catalog, contract: Contract
) -> None:
    raw = "[" * 100_000 + "]" * 100_000
    assert verify_output(raw, catalog, contract).status is ClaimStatus.INVALID_JSON


def test_results_serialise_to_plain_json(catalog: Catalog, contract: Contract) -> None:
    result = verify_output(claim("WS101", "format", "x", "CAT-001"), catalog, contract)
    assert json.loads(json.dumps(result.to_json()))["status"] == "value_mismatch"


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
_CLAIMISH = st.fixed_dictionaries(
    {
        "workshop_code": st.sampled_from(["WS101", "WS108", "WS999", ""]) | _JSONISH,
        "attribute": st.sampled_from(["format", "fee_eur", "start_time", "seats", "x"]) | _JSONISH,
        "value": _JSONISH,
        "citation": st.sampled_from(["CAT-001", "CAT-008"]) | _JSONISH,
    }
)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_verify_output_never_raises_on_any_string(
    text: str, catalog: Catalog, contract: Contract
) -> None:
    result = verify_output(text, catalog, contract)
    assert isinstance(result.status, ClaimStatus)


@settings(max_examples=200, deadline=None)
@given(data=_CLAIMISH | st.dictionaries(st.text(max_size=5), _JSONISH) | _JSONISH)
def test_verify_never_raises_on_any_json(data: Any, catalog: Catalog, contract: Contract) -> None:
    text = json.dumps(data)
    result = verify_output(text, catalog, contract)
    assert isinstance(result.status, ClaimStatus)
    assert all(isinstance(r.status, ClaimStatus) for r in verify_answer(text, catalog, contract))


def test_output_that_is_not_text_is_invalid_json(catalog: Catalog, contract: Contract) -> None:
    result = verify_output(b"{}", catalog, contract)  # type: ignore[arg-type]  # the point
    assert result.status is ClaimStatus.INVALID_JSON
    assert "not text" in result.reason


def test_a_str_subclass_is_still_text(catalog: Catalog, contract: Contract) -> None:
    class Raw(str):
        __slots__ = ()

    raw = Raw(claim("WS101", "format", "In person", "CAT-001"))
    assert verify_output(raw, catalog, contract).status is ClaimStatus.VERIFIED


def _fees(cell: str) -> tuple[Catalog, Contract]:
    contract = Contract(
        entity_field="code", citation_field="record", attributes={"fee": "money:EUR"}
    )
    return Catalog.from_rows([{"code": "A", "record": "R", "fee": cell}], contract), contract


@pytest.mark.parametrize("claimed", ["€19.90", "EUR 19.90", "19.9", "19,90 €"])
def test_money_in_the_contracts_currency_verifies_however_written(claimed: str) -> None:
    catalog, contract = _fees("19,90 €")
    raw = json.dumps({"code": "A", "attribute": "fee", "value": claimed, "citation": "R"})
    assert verify_output(raw, catalog, contract).status is ClaimStatus.VERIFIED


def test_money_in_another_currency_is_a_value_mismatch() -> None:
    catalog, contract = _fees("€19.90")
    raw = json.dumps({"code": "A", "attribute": "fee", "value": "$19.90", "citation": "R"})
    result = verify_output(raw, catalog, contract)
    assert result.status is ClaimStatus.VALUE_MISMATCH
    assert "USD 19.90" in result.reason


@pytest.mark.parametrize("fence", ["```json\n{}\n```", "```\n{}\n```", "  ```JSON\n{}```\n"])
def test_a_reply_in_a_fenced_json_block_is_read_as_its_json(
    fence: str, catalog: Catalog, contract: Contract
) -> None:
    inner = claim("WS101", "format", "in person", "CAT-001")
    wrapped = fence.replace("{}", inner)
    assert verify_output(wrapped, catalog, contract) == verify_output(inner, catalog, contract)


def test_prose_around_one_fenced_block_reads_the_block(
    catalog: Catalog, contract: Contract
) -> None:
    inner = claim("WS101", "format", "In person", "CAT-001")
    for wrapped in (
        "Here you go:\n```json\n" + inner + "\n```",
        "Here you go:\n\n```\n" + inner + "\n```\nAnything else?",
        "```python\nprint(1)\n```\nThe claim:\n```json\n" + inner + "\n```",
    ):
        assert verify_output(wrapped, catalog, contract) == verify_output(inner, catalog, contract)
        assert verify_output(wrapped, catalog, contract).status is ClaimStatus.VERIFIED


def test_two_fenced_json_blocks_are_not_guessed_between(
    catalog: Catalog, contract: Contract
) -> None:
    one = claim("WS101", "format", "In person", "CAT-001")
    two = claim("WS102", "format", "Online", "CAT-002")
    reply = f"First:\n```json\n{one}\n```\nor:\n```json\n{two}\n```"
    assert verify_output(reply, catalog, contract).status is ClaimStatus.INVALID_JSON
