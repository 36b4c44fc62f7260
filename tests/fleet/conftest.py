"""Fixtures for the fleet tests: a Redis key prefix and a PostgreSQL URL of their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fleet.services import Proxy, delete_prefix, proxy_to_redis, require_redis, unique


@pytest.fixture
def prefix() -> Iterator[str]:
    """A Redis key prefix for this test alone; its keys are deleted afterwards."""
    require_redis()
    name = unique("vouched-test")
    yield name
    delete_prefix(name)


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    require_redis()
    yield from proxy_to_redis()
