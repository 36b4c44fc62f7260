"""Without the redis, postgres or ray extra, the error names the install to run."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from vouched import MissingExtraError, PostgresSnapshotStore, RedisBreakerStore, RedisLastGood
from vouched._replay._workers import require_ray


@pytest.mark.parametrize(
    ("module", "make", "install"),
    [
        ("redis", lambda: RedisBreakerStore(object()), "pip install 'vouched[redis]'"),
        ("redis", lambda: RedisLastGood(object()), "pip install 'vouched[redis]'"),
        (
            "psycopg",
            lambda: PostgresSnapshotStore("postgresql://x/y"),
            "pip install 'vouched[postgres]'",
        ),
        ("psycopg_pool", lambda: PostgresSnapshotStore("postgresql://x/y"), "vouched[postgres]"),
        ("ray", require_ray, "pip install 'vouched[ray]'"),
    ],
)
def test_a_missing_extra_names_its_install(
    module: str, make: Callable[[], object], install: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    with pytest.raises(MissingExtraError) as caught:
        make()
    assert install in str(caught.value)
