"""A bug in a user's source is told apart from an outage: its own silence
reason, and one WARNING record with the traceback."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from vouched import Fact, GuardedSource, gather
from vouched.testing import FakeClock


class _SyncFetch:
    """A source whose author forgot ``async``: fetch returns a list."""

    name = "sync"

    def fetch(self, query: Any) -> list[Fact]:
        return []


class _Raises:
    def __init__(self, error: BaseException) -> None:
        self.name = "raises"
        self._error = error

    async def fetch(self, query: Any) -> list[Fact]:
        raise self._error


def _gathered(source: Any) -> list[Fact]:
    return asyncio.run(gather([source], {"subject": "Berlin"}, deadline=1.0, clock=FakeClock()))


@pytest.mark.parametrize("source", [_SyncFetch(), _Raises(KeyError("temperature_2m"))])
def test_a_bug_in_a_source_is_a_source_bug_silence(source: Any) -> None:
    assert {f.silent_reason for f in _gathered(source)} == {"source_bug"}


def test_a_bug_is_logged_once_at_warning_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="vouched.sources"):
        _gathered(_Raises(KeyError("temperature_2m")))
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    assert record.exc_info is not None
    assert record.exc_info[0] is KeyError


def test_an_outage_stays_a_source_error_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="vouched.sources"):
        facts = _gathered(_Raises(ConnectionRefusedError()))
    assert {f.silent_reason for f in facts} == {"source_error"}
    (record,) = caplog.records
    assert record.levelno == logging.INFO
    assert record.exc_info is None


def test_a_guarded_source_logs_the_bug_once_too(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    guarded = GuardedSource(_Raises(KeyError("x")), clock=clock)
    with caplog.at_level(logging.INFO, logger="vouched.sources"):
        facts = _gathered(guarded)
    assert {f.silent_reason for f in facts} == {"source_bug"}
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
