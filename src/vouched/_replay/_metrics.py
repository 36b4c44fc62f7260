"""The rates a team watches, over a population of snapshots (or claim results).

- **grounding rate**: (grounded + silent) / all verdicts; silence is integrity.
- **claim failure share per prompt version**: claims that did not verify /
  claims, for each prompt version (a jump after a prompt edit is a regression).
- **citation precision**: claims whose citation names the row that supports
  them (status ``verified``) / claims that carry a citation.
- **abstention rate**: answers that state a silence (a fact was silent, or the
  answer was refused) / all answers.

Everything streams: :func:`measure` reads each snapshot once and keeps only
counters, so it runs over ``store.iter()`` of any size. Rates with nothing to
measure are ``None`` (no claims means no precision, not a perfect one), except
the grounding rate, which the gate defines as 1.0 on nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from vouched._gate import grounding_rate
from vouched._replay._snapshot import Snapshot

__all__ = ["PopulationMetrics", "abstains", "abstention_rate", "citation_precision", "measure"]

_VERIFIED = "verified"
_REFUSED = "refused"


def _claim_data(claim: Any) -> Mapping[str, Any]:
    if isinstance(claim, Mapping):
        return claim
    to_json = getattr(claim, "to_json", None)
    if callable(to_json):
        data: Mapping[str, Any] = to_json()
        return data
    raise TypeError(f"expected a claim result or its JSON, got {type(claim).__name__}")


def _status(claim: Mapping[str, Any]) -> str:
    return str(claim.get("status"))


def citation_precision(claims: Iterable[Any]) -> float | None:
    """Claims whose citation names the supporting row / claims with a citation.

    ``claims`` are claim results (anything with ``to_json()``) or their JSON
    dicts (``status``, ``citation``). ``None`` when no claim carries a citation.
    """
    cited = supported = 0
    for claim in claims:
        data = _claim_data(claim)
        if data.get("citation"):
            cited += 1
            supported += _status(data) == _VERIFIED
    return supported / cited if cited else None


def abstains(status: str, verdict_kinds: Iterable[str]) -> bool:
    """Whether an answer abstained: it was refused, or some fact was silent."""
    return status == _REFUSED or any(kind == "silent" for kind in verdict_kinds)


def _abstains(snapshot: Snapshot) -> bool:
    return abstains(snapshot.status, (v.kind for v in snapshot.verdicts))


def abstention_rate(snapshots: Iterable[Snapshot]) -> float | None:
    """Answers that state a silence (or were refused) / all answers."""
    total = abstained = 0
    for snapshot in snapshots:
        total += 1
        abstained += _abstains(snapshot)
    return abstained / total if total else None


@dataclass(frozen=True, slots=True)
class PopulationMetrics:
    """The watched rates of one population of answers (see the module docs)."""

    answers: int
    verdicts: Mapping[str, int]
    abstained: int
    claims: int
    claims_failed: int
    claims_cited: int
    citations_supported: int
    claims_by_prompt_version: Mapping[str, tuple[int, int]]  # (claims, failed)

    @property
    def grounding_rate(self) -> float:
        return grounding_rate(self.verdicts)

    @property
    def abstention_rate(self) -> float | None:
        return self.abstained / self.answers if self.answers else None

    @property
    def citation_precision(self) -> float | None:
        return self.citations_supported / self.claims_cited if self.claims_cited else None

    @property
    def claim_failure_share(self) -> float | None:
        return self.claims_failed / self.claims if self.claims else None

    @property
    def claim_failure_share_by_prompt_version(self) -> Mapping[str, float]:
        return MappingProxyType(
            {
                version: failed / total
                for version, (total, failed) in self.claims_by_prompt_version.items()
                if total
            }
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "answers": self.answers,
            "grounding_rate": self.grounding_rate,
            "verdicts": dict(self.verdicts),
            "abstention_rate": self.abstention_rate,
            "claims": self.claims,
            "claim_failure_share": self.claim_failure_share,
            "claim_failure_share_by_prompt_version": dict(
                self.claim_failure_share_by_prompt_version
            ),
            "citation_precision": self.citation_precision,
        }


def measure(snapshots: Iterable[Snapshot]) -> PopulationMetrics:
    """All the watched rates in one streaming pass over ``snapshots``.

    Verdicts are the ones recorded then (to judge under today's policy, use
    :func:`vouched.replay`); claims are the snapshot's stored claim results.
    """
    answers = abstained = 0
    verdicts = {"grounded": 0, "silent": 0, "violation": 0}
    claims = failed = cited = supported = 0
    by_version: dict[str, list[int]] = {}
    for snapshot in snapshots:
        answers += 1
        silent = False
        for verdict in snapshot.verdicts:
            verdicts[verdict.kind] = verdicts.get(verdict.kind, 0) + 1
            silent = silent or verdict.kind == "silent"
        abstained += silent or snapshot.status == _REFUSED
        if snapshot.claims:
            entry = by_version.setdefault(snapshot.prompt_version, [0, 0])
            for claim in snapshot.claims:
                ok = _status(claim) == _VERIFIED
                claims += 1
                failed += not ok
                entry[0] += 1
                entry[1] += not ok
                if claim.get("citation"):
                    cited += 1
                    supported += ok
    return PopulationMetrics(
        answers=answers,
        verdicts=MappingProxyType(verdicts),
        abstained=abstained,
        claims=claims,
        claims_failed=failed,
        claims_cited=cited,
        citations_supported=supported,
        claims_by_prompt_version=MappingProxyType(
            {version: (total, bad) for version, (total, bad) in sorted(by_version.items())}
        ),
    )
