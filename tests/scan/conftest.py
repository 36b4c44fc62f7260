"""Every scanner test runs under the rule audit: a test fails when any rule it runs
returns a finding of a kind the rule did not declare (habit 27)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from vouched._scan._rules._rule import audited


@pytest.fixture(autouse=True)
def _rules_return_only_declared_kinds() -> Iterator[None]:
    with audited() as undeclared:
        yield
    assert not undeclared, "rules returned kinds they did not declare: " + ", ".join(
        f"{u.rule} -> {u.kind} (declares {', '.join(map(str, u.declared))})" for u in undeclared
    )
