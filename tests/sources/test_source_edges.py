"""Rough edges of sources (issue 22): a default gather deadline, and every
wrong setting a ConfigError naming it (never an AttributeError or a bare
ValueError)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sourcefacts import weather_fact

from vouched import ConfigError, GuardedSource, SourceError, gather
from vouched._sources._source import GATHER_DEADLINE
from vouched.testing import ScriptedSource, virtual_time

QUERY = {"subject": "Berlin"}


def test_gather_without_a_deadline_waits_the_default_and_no_longer() -> None:
    fact = weather_fact()
    sources = [ScriptedSource("ok", [[fact]]), ScriptedSource("hangs", [ScriptedSource.HANG])]
    with virtual_time() as loop:
        answer = loop.run(gather(sources, QUERY))
    elapsed = loop.elapsed
    assert GATHER_DEADLINE == 2.0
    assert elapsed == pytest.approx(GATHER_DEADLINE)
    assert [(f.source, f.silent_reason) for f in answer] == [
        ("weather", None),
        ("hangs", "timeout"),
    ]


@pytest.mark.parametrize("source", [object(), None, "open-meteo", 42])
def test_guarded_source_of_something_that_is_no_source_is_a_config_error(source: Any) -> None:
    with pytest.raises(ConfigError, match="GuardedSource source must be a Source"):
        GuardedSource(source)


class _Unnamed:
    name = ""

    async def fetch(self, query: Any) -> list[Any]:
        return []


def test_guarded_source_without_a_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="GuardedSource name must be a non-empty string"):
        GuardedSource(_Unnamed())
    assert GuardedSource(_Unnamed(), name="mine").name == "mine"


def test_a_negative_retry_after_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"SourceError\.retry_after"):
        SourceError("HTTP 429", retry_after=-1)


@pytest.mark.parametrize("remember", [0, -3, "many", 1.5, True])
def test_redis_last_good_remember_is_checked(remember: Any) -> None:
    from vouched import RedisLastGood  # noqa: PLC0415 - the redis extra

    pytest.importorskip("redis")
    with pytest.raises(ConfigError, match=r"RedisLastGood\.remember"):
        RedisLastGood(object(), remember=remember)


def test_adapter_settings_are_config_errors(tmp_path: Path) -> None:
    adapters = pytest.importorskip("vouched_adapters")
    with pytest.raises(ConfigError, match=r"Field\.pointer"):
        adapters.Field("temperature")
    with pytest.raises(ConfigError, match=r"HttpJsonSource\.fields"):
        adapters.HttpJsonSource("x", "http://127.0.0.1:9/", fields={})
    with pytest.raises(ConfigError, match=r"'url'"):
        adapters.HttpJsonSource.from_mapping({"name": "x", "fields": {"t": {"pointer": "/t"}}})
    with pytest.raises(ConfigError, match=r"CsvCatalogSource\.attributes"):
        adapters.CsvCatalogSource(
            tmp_path / "c.csv", entity_field="code", citation_field="record", attributes=()
        )
