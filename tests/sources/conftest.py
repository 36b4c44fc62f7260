"""Fixtures shared by the source tests."""

from __future__ import annotations

import pytest
from sourcefacts import START

from vouched.testing import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)
