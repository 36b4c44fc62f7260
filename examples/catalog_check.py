"""Check a model's structured claims against a trusted catalog.

Runs as it stands, offline. Each model output is one JSON claim
({workshop_code, attribute, value, citation}); `verify_output` checks it
gate by gate and says exactly why it failed. Note the conflation case: the
right fee from the wrong workshop's record is caught by the citation.

    python examples/catalog_check.py
"""

from __future__ import annotations

import json

from vouched import Catalog, Contract, verify_output

contract = Contract(
    entity_field="workshop_code",
    citation_field="catalog_record_id",
    attributes={"start_time": "time", "fee_eur": "money", "step_free_access": "bool"},
)
catalog = Catalog.from_rows(
    [
        {
            "workshop_code": "WS101",
            "catalog_record_id": "CAT-001",
            "start_time": "09:30",
            "fee_eur": "27.50",
            "step_free_access": "yes",
        },
        {
            "workshop_code": "WS102",
            "catalog_record_id": "CAT-002",
            "start_time": "18:00",
            "fee_eur": "18.00",
            "step_free_access": "no",
        },
    ],
    contract,
)


def claim(code: str, attribute: str, value: object, citation: str) -> str:
    return json.dumps(
        {"workshop_code": code, "attribute": attribute, "value": value, "citation": citation}
    )


MODEL_OUTPUTS = [
    claim("WS101", "fee_eur", "27.5", "CAT-001"),  # 27.5 and 27.50 are the same amount
    claim("WS101", "start_time", "9:30", "CAT-001"),
    claim("WS102", "fee_eur", "27.50", "CAT-001"),  # the right fee, the wrong row
    claim("WS102", "step_free_access", True, "CAT-002"),  # the catalog says no
    claim("WS999", "fee_eur", "10", "CAT-009"),  # no such workshop
    'Sure! The fee is {"value": 27.5}',  # not JSON
]


def main() -> None:
    print(f"catalog version {catalog.version}")
    for output in MODEL_OUTPUTS:
        result = verify_output(output, catalog, contract)
        print(f"{result.status.value:18} {result.reason}")


if __name__ == "__main__":
    main()
