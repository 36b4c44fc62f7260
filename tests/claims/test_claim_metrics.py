"""Claim metrics: the share failing, overall and per prompt version."""

from __future__ import annotations

from vouched import ClaimResult, ClaimStatus
from vouched._claims._metrics import ClaimTally, claim_metrics


def result(status: ClaimStatus) -> ClaimResult:
    return ClaimResult(status, "", None, None, None, "sha256:x")


def test_failure_rate_counts_everything_not_verified() -> None:
    metrics = claim_metrics(
        [result(ClaimStatus.VERIFIED)] * 3
        + [result(ClaimStatus.VALUE_MISMATCH), result(ClaimStatus.INVALID_JSON)]
    )
    assert (metrics.total, metrics.failed) == (5, 2)
    assert metrics.failure_rate == 0.4


def test_counts_list_every_status_even_at_zero() -> None:
    metrics = claim_metrics([result(ClaimStatus.VERIFIED)])
    assert list(metrics.counts) == list(ClaimStatus)
    assert metrics.counts[ClaimStatus.UNKNOWN_ENTITY] == 0


def test_failure_rate_per_prompt_version_shows_a_regression() -> None:
    tally = ClaimTally()
    for _ in range(4):
        tally.add(result(ClaimStatus.VERIFIED), "v1")
    tally.add(result(ClaimStatus.VERIFIED), "v2")
    tally.add(result(ClaimStatus.CITATION_MISMATCH), "v2")
    tally.add(result(ClaimStatus.VALUE_MISMATCH))  # no prompt version: overall only
    metrics = tally.metrics()
    assert metrics.by_prompt_version["v1"].failure_rate == 0.0
    assert metrics.by_prompt_version["v2"].failure_rate == 0.5
    assert metrics.total == 7
    assert set(metrics.by_prompt_version) == {"v1", "v2"}


def test_no_claims_means_a_zero_rate_not_a_division_error() -> None:
    assert claim_metrics([]).failure_rate == 0.0
