"""``/v1/verify``: the document ``vouched verify --json`` prints, for claim lines as JSON."""

from __future__ import annotations

from typing import Any

from vouched import verify_answer
from vouched._claims._metrics import ClaimTally
from vouched._server._models import ClaimLine

__all__ = ["verify_claims"]

# As the CLI's verify: keys of a claim line that are not result fields are carried.
_RESULT_KEYS = ("id", "line", "claim_index", "status", "reason", "entity", "attribute", "citation")
_NOT_CARRIED = frozenset({*_RESULT_KEYS, "model_output"})


def verify_claims(claims: list[ClaimLine], catalog: Any, contract: Any) -> dict[str, Any]:
    """The document ``vouched verify --json`` prints, for claim lines given as JSON."""
    tally = ClaimTally()
    results = []
    for number, line in enumerate(claims, start=1):
        version = None if line.prompt_version is None else str(line.prompt_version)
        given = line.model_dump(exclude_unset=True)
        carried = {k: v for k, v in given.items() if k not in _NOT_CARRIED}
        for result in verify_answer(line.model_output, catalog, contract):
            tally.add(result, version)
            results.append(
                {
                    "id": line.id,
                    "line": number,
                    "claim_index": result.claim_index,
                    "status": result.status.value,
                    "reason": result.reason,
                    "entity": result.entity,
                    "attribute": result.attribute,
                    "citation": result.citation,
                    **carried,
                }
            )
    metrics = tally.metrics()
    return {
        "catalog_version": catalog.version,
        "results": results,
        "summary": {status.value: count for status, count in metrics.counts.items()},
        "metrics": metrics.to_json(),
    }
