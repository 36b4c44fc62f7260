"""Rates over claim results: the share failing verification, overall and per
prompt version (a jump after a prompt edit is the regression to look for).

:class:`ClaimTally` counts results as they stream past (constant memory in
the number of claims); ``tally.metrics()`` is a frozen :class:`ClaimMetrics`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from vouched._claims._verify import ClaimResult, ClaimStatus

__all__ = ["ClaimMetrics", "ClaimTally", "PromptVersionMetrics", "claim_metrics"]


def _rate(failed: int, total: int) -> float:
    return failed / total if total else 0.0


@dataclass(frozen=True, slots=True)
class PromptVersionMetrics:
    total: int
    failed: int

    @property
    def failure_rate(self) -> float:
        return _rate(self.failed, self.total)

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "failed": self.failed, "failure_rate": self.failure_rate}


@dataclass(frozen=True, slots=True)
class ClaimMetrics:
    """Counts by status (every status present, in ClaimStatus order) and the
    failure share, overall and per prompt version (claims without one are not
    in ``by_prompt_version``)."""

    counts: Mapping[ClaimStatus, int]
    by_prompt_version: Mapping[str, PromptVersionMetrics]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> int:
        return self.total - self.counts[ClaimStatus.VERIFIED]

    @property
    def failure_rate(self) -> float:
        return _rate(self.failed, self.total)

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "failed": self.failed,
            "failure_rate": self.failure_rate,
            "by_prompt_version": {
                version: metrics.to_json() for version, metrics in self.by_prompt_version.items()
            },
        }


class ClaimTally:
    """A running count of claim results; add results, then read ``metrics()``."""

    __slots__ = ("_counts", "_versions")

    def __init__(self) -> None:
        self._counts = dict.fromkeys(ClaimStatus, 0)
        self._versions: dict[str, list[int]] = {}

    def add(self, result: ClaimResult, prompt_version: str | None = None) -> None:
        self._counts[result.status] += 1
        if prompt_version is not None:
            entry = self._versions.setdefault(prompt_version, [0, 0])
            entry[0] += 1
            if result.status is not ClaimStatus.VERIFIED:
                entry[1] += 1

    def metrics(self) -> ClaimMetrics:
        return ClaimMetrics(
            counts=MappingProxyType(dict(self._counts)),
            by_prompt_version=MappingProxyType(
                {
                    version: PromptVersionMetrics(total=total, failed=failed)
                    for version, (total, failed) in sorted(self._versions.items())
                }
            ),
        )


def claim_metrics(
    results: Iterable[ClaimResult | tuple[ClaimResult, str | None]],
) -> ClaimMetrics:
    """Metrics of results, each alone or paired with its prompt version."""
    tally = ClaimTally()
    for item in results:
        if isinstance(item, ClaimResult):
            tally.add(item)
        else:
            result, version = item
            tally.add(result, version)
    return tally.metrics()
