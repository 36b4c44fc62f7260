"""What the config's ``[answer]`` and ``[fleet]`` tables build: guarded sources,
the snapshot store, the shared Redis state.

Every configured source runs behind :class:`vouched.GuardedSource` (a breaker
and a last-good cache, settings per source); with ``[fleet] redis_url`` the
breakers and last-good facts are shared in Redis (``vouched[redis]``).
``[answer] store`` is a path or a store URL (``sqlite:///``,
``postgresql://``), as ``vouched replay --store`` takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from vouched import (
    BreakerSettings,
    CacheSettings,
    ConfigError,
    Fact,
    GuardedSource,
    InputError,
    Query,
    RedisBreakerStore,
    RedisLastGood,
    Source,
    load_facts,
    open_snapshot_store,
)
from vouched._replay._spill import SpillFile
from vouched._server._reader import Reader as _Reader

__all__ = ["ENTRY_POINT_GROUP", "FileSource", "Fleet", "fleet", "snapshot_store", "sources"]

ENTRY_POINT_GROUP = "vouched.sources"
SOURCE_KEYS = (
    "name",
    "facts",
    "adapter",
    "options",
    "fail_max",
    "reset_timeout",
    "success_threshold",
    "timeout",
    "keep_for",
    "fresh_for",
    "max_in_flight",
)


class FileSource:
    """Facts read from a file at start; a query's ``subject`` and
    ``attribute`` (when given) select among them. Observed times stay as
    written: the gate judges freshness at each request."""

    def __init__(self, name: str, facts: Sequence[Fact]) -> None:
        self.name = name
        self.facts = tuple(facts)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        wanted = {key: query[key] for key in ("subject", "attribute") if key in query}
        return [f for f in self.facts if all(getattr(f, k) == v for k, v in wanted.items())]

    def __repr__(self) -> str:
        return f"FileSource({self.name!r}, {len(self.facts)} facts)"


@dataclass(frozen=True, slots=True)
class Fleet:
    """The shared state of ``[fleet]``: None each when no ``redis_url`` is set."""

    breakers: RedisBreakerStore | None = None
    last_good: RedisLastGood | None = None


def fleet(read: _Reader, table: Mapping[str, Any]) -> Fleet:
    read.only(table, ("redis_url", "prefix"), "fleet")
    if "redis_url" not in table:
        return Fleet()
    url = read.typed(table, "redis_url", str, "", "fleet")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise read.error("must be a redis:// URL", "fleet.redis_url")
    prefix = read.typed(table, "prefix", str, "vouched", "fleet")
    try:
        import redis.asyncio  # noqa: PLC0415 - the redis extra, loaded on use
    except ImportError:
        raise read.error("needs the redis extra: pip install 'vouched[redis]'", "fleet") from None
    client = redis.asyncio.Redis.from_url(url)  # connects on first use, not here
    return Fleet(RedisBreakerStore(client, prefix=prefix), RedisLastGood(client, prefix=prefix))


def snapshot_store(read: _Reader, target: str) -> Any:
    """The store ``[answer] store`` names: a path (relative to the config) or a URL."""
    if "://" not in target and not target.startswith("sqlite:"):
        target = str(read.base / target)
    try:
        return open_snapshot_store(target)
    except InputError as error:
        raise read.error(error.message, "answer.store") from None
    except (ImportError, OSError, ValueError) as error:
        detail = " ".join(str(error).split())[:160]
        raise read.error(f"cannot open the store: {detail}", "answer.store") from None


def spill_path(read: _Reader, answer: Mapping[str, Any], store: Any) -> Path:
    """Where snapshots wait when the store falls behind: ``[answer] spill`` (relative
    to the config), else beside a SQLite file, else beside the config."""
    if "spill" in answer:
        name = read.typed(answer, "spill", str, "", "answer")
        if not name:
            raise read.error("must be a file path", "answer.spill")
        path = read.base / str(name)
    elif isinstance(getattr(store, "path", None), Path | str):
        path = Path(f"{store.path}.spill.jsonl")
    else:
        path = read.base / f"snapshots-{getattr(store, 'schema', 'store')}.spill.jsonl"
    if not path.parent.is_dir():
        raise read.error(f"{path.parent} is not a folder", "answer.spill")
    try:  # checked now, not at the first outage (when snapshots would be lost)
        SpillFile(path).probe()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise read.error(f"{path.parent} takes no spill file ({reason})", "answer.spill") from None
    return path


def sources(read: _Reader, items: Any, shared: Fleet) -> list[GuardedSource]:
    if not isinstance(items, list):
        raise read.error("must be an array of tables ([[answer.sources]])", "answer.sources")
    made: list[GuardedSource] = []
    for index, item in enumerate(items):
        where = f"answer.sources.{index}"
        if not isinstance(item, Mapping):
            raise read.error("must be a table", where)
        read.only(item, SOURCE_KEYS, where)
        if ("facts" in item) == ("adapter" in item):
            raise read.error("needs exactly one of facts (a file) or adapter (a name)", where)
        if "facts" in item:
            name = read.typed(item, "name", str, Path(str(item["facts"])).stem, where)
            source: Source = FileSource(name, load_facts(read.path(item, "facts", where)))
        else:
            source = _adapter(read, item, where)
        made.append(_guarded(read, item, where, source, shared))
    names = [s.name for s in made]
    for name in names:
        if names.count(name) > 1:
            raise read.error(f"two sources are named {name!r}: give each its own name", "answer")
    return made


def _guarded(
    read: _Reader, item: Mapping[str, Any], where: str, source: Source, shared: Fleet
) -> GuardedSource:
    """``source`` behind a breaker and a last-good cache, set by the item's keys."""
    defaults_breaker = BreakerSettings()
    defaults_cache = CacheSettings()
    try:
        breaker = BreakerSettings(
            fail_max=read.typed(item, "fail_max", int, defaults_breaker.fail_max, where),
            reset_timeout=read.typed(
                item, "reset_timeout", float, defaults_breaker.reset_timeout, where
            ),
            success_threshold=read.typed(
                item, "success_threshold", int, defaults_breaker.success_threshold, where
            ),
        )
        cache = CacheSettings(
            keep_for=read.typed(item, "keep_for", float, defaults_cache.keep_for, where),
            fresh_for=_zero_or_seconds(read, item, "fresh_for", defaults_cache.fresh_for, where),
            maxsize=defaults_cache.maxsize,
        )
        limit = None
        if "max_in_flight" in item:
            limit = read.typed(item, "max_in_flight", int, 1, where)
        return GuardedSource(
            source,
            breaker=breaker,
            cache=cache,
            deadline=read.typed(item, "timeout", float, 2.0, where),
            max_in_flight=None
            if limit is None
            else read.typed(item, "max_in_flight", int, 1, where),
            breaker_store=shared.breakers,
            last_good=shared.last_good,
            name=read.typed(item, "name", str, "", where) or None,
        )
    except ConfigError as error:
        raise read.error(str(error), where) from None


def _zero_or_seconds(
    read: _Reader, item: Mapping[str, Any], key: str, default: float, where: str
) -> float:
    if item.get(key) == 0:
        return 0.0
    value: float = read.typed(item, key, float, default, where) if key in item else default
    return value


def _adapter(read: _Reader, item: Mapping[str, Any], where: str) -> Source:
    name = read.typed(item, "adapter", str, "", where)
    options = read.table(item, "options", f"{where}.options")
    found = [e for e in entry_points(group=ENTRY_POINT_GROUP) if e.name == name]
    if not found:
        installed = ", ".join(sorted(e.name for e in entry_points(group=ENTRY_POINT_GROUP)))
        raise read.error(
            f"no installed adapter {name!r} (installed: {installed or 'none'})", f"{where}.adapter"
        )
    if "name" in item:  # the adapter's own name, so two of one kind can be told apart
        options = {**options, "name": read.typed(item, "name", str, "", where)}
    try:
        factory = found[0].load()
        source = factory(**options)
    except Exception as error:  # noqa: BLE001 - a broken adapter stops the start with one line
        detail = " ".join(str(error).split())[:160]
        raise read.error(f"cannot start adapter {name!r}: {detail}", f"{where}.options") from None
    if not isinstance(source, Source):
        raise read.error(f"adapter {name!r} did not make a source", f"{where}.adapter")
    return source
