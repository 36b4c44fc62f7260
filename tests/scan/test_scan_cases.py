"""The case suite: hand-written answers over six worlds, each pinning one behaviour.

Cases live in ``cases/*.toml`` (data, not code); each names the behaviour it
pins and lists the findings it expects as ``[kind, offending text]`` pairs.
An empty list means the answer is clean and must pass. A case marked
``xfail = "<what the scanner reads today>"`` states a behaviour the scanner does
not have yet; it runs as a strict xfail on ``AssertionError`` only (a crash is a
failure, not an expected one), so it turns red the moment it passes and the mark
must go.
"""

from __future__ import annotations

import pytest

from vouched import FindingKind, scan

from ._cases import Case, load_cases, world

CASES = load_cases()


def _param(case: Case) -> object:
    if case.xfail is None:
        return case
    reason = f"waits for: {case.pins} (today: {case.xfail})"
    mark = pytest.mark.xfail(reason=reason, strict=True, raises=AssertionError)
    return pytest.param(case, marks=mark)


@pytest.mark.parametrize("case", [_param(c) for c in CASES], ids=[c.id for c in CASES])
def test_case(case: Case) -> None:
    w = world(case.world)
    report = scan(
        case.text,
        w.gated,
        w.lexicon if case.lexicon else None,
        sources=w.sources,
        question=case.question,
        policy=w.policy,
    )
    got = sorted((str(f.kind), f.text) for f in report.findings)
    assert got == sorted(case.findings), f"pins: {case.pins}\n" + "\n".join(
        f"  {f.kind} {f.text!r} [{f.start}:{f.end}] {f.detail}" for f in report.findings
    )
    assert report.passed == (not case.findings)
    for finding in report.findings:
        assert case.text[finding.start : finding.end] == finding.text


def test_case_names_are_unique_and_pinned() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert all(c.pins.strip() for c in CASES)


def test_suite_is_large_and_covers_every_kind() -> None:
    clean = [c for c in CASES if not c.findings]
    kinds = {kind for c in CASES if c.xfail is None for kind, _ in c.findings}
    worlds = {c.world for c in CASES}
    assert len(CASES) >= 200
    assert len(clean) >= 100
    assert kinds == {str(k) for k in FindingKind}
    assert worlds == {
        "weather",
        "currency",
        "stock",
        "trains",
        "workshops",
        "services",
        "forecast",
        "timetable",
        "basketball",
        "football",
        "roster",
        "current",
    }


def test_every_expected_kind_is_known() -> None:
    known = {str(k) for k in FindingKind}
    assert {kind for c in CASES for kind, _ in c.findings} <= known


def test_xfail_marks_name_what_the_scanner_reads_today() -> None:
    # a known gap, named by what the scanner does now, never by a version to wait for
    marked = [c for c in CASES if c.xfail is not None]
    assert all(c.xfail and not c.xfail.startswith(("v2", "needs")) for c in marked)
