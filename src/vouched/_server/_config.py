"""The ``vouched serve`` config file (TOML): read once at start, every error named.

::

    [server]                 # all optional; these are the defaults
    host = "127.0.0.1"       # only 127.0.0.1 unless told otherwise
    port = 8787
    max_body_bytes = 1048576 # a larger request body is answered 413
    request_timeout = 10.0   # seconds per request; past it, 504
    log_requests = false     # method, path, status and time; never a body

    [policy]                 # Policy settings (optional)
    cardinal_confidence = 0.7

    [lexicons]               # name = lexicon JSON file
    weather = "lexicon.json"

    [catalogs.workshops]     # /v1/verify {"catalog": "workshops", ...}
    catalog = "catalog.csv"
    contract = "contract.toml"

    [answer]                 # /v1/answer and /v1/answer/stream
    lexicon = "weather"      # a name from [lexicons]
    on_fail = "retry"        # or "partial", "refuse", ["retry", "partial"]
    deadline = 2.0           # seconds for the sources
    phrase_timeout = 30.0    # seconds per phrasing attempt
    store = "snapshots.db"   # optional: a SQLite snapshot store, one snapshot per answer

    [[answer.sources]]       # a facts file (JSON array or JSON Lines) ...
    name = "weather"
    facts = "facts.json"

    [[answer.sources]]       # ... or an installed adapter (entry point vouched.sources)
    adapter = "open-meteo"
    options = { base_url = "http://127.0.0.1:8080" }

    [answer.phraser]         # kind = "template" (the default) or "openai"
    kind = "openai"
    base_url = "http://127.0.0.1:11434/v1"
    model = "llama3.2"
    api_key_env = "OPENAI_API_KEY"   # the variable to read the key from, at start
    timeout = 30.0
    stall_timeout = 10.0

Paths are relative to the config file. Every file named is read at start;
a bad one stops the start with one line naming the file and the field.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from vouched import (
    Catalog,
    Contract,
    Fact,
    InputError,
    Lexicon,
    OnFail,
    OpenAIChatPhraser,
    Phraser,
    Policy,
    Query,
    SnapshotStore,
    Source,
    SqliteSnapshotStore,
    TemplatePhraser,
    load_facts,
)
from vouched._answer._onfail import plan

__all__ = ["CatalogEntry", "FileSource", "ServeConfig", "load_config"]

ENTRY_POINT_GROUP = "vouched.sources"
_SECTIONS = ("server", "policy", "lexicons", "catalogs", "answer")


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
class CatalogEntry:
    catalog: Catalog
    contract: Contract


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """Everything ``vouched serve`` needs, loaded and checked."""

    host: str = "127.0.0.1"
    port: int = 8787
    max_body_bytes: int = 1024 * 1024
    request_timeout: float = 10.0
    log_requests: bool = False
    policy: Policy = field(default_factory=Policy)
    lexicons: Mapping[str, Lexicon] = field(default_factory=dict)
    catalogs: Mapping[str, CatalogEntry] = field(default_factory=dict)
    sources: tuple[Source, ...] = ()
    phraser: Phraser = field(default_factory=TemplatePhraser)
    answer_lexicon: Lexicon | None = None
    on_fail: tuple[OnFail, ...] | str = "retry"
    deadline: float = 2.0
    phrase_timeout: float = 30.0
    store: SnapshotStore | None = None


class _Reader:
    """Reads one table of the config; errors name the file and the dotted key."""

    def __init__(self, file: str, base: Path) -> None:
        self.file = file
        self.base = base

    def error(self, message: str, where: str) -> InputError:
        return InputError(message, file=self.file, field=where)

    def table(self, data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, Mapping):
            raise self.error("must be a table", where)
        return value

    def only(self, data: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
        for key in data:
            if key not in allowed:
                raise self.error(f"unknown key (expected {', '.join(allowed)})", _dot(where, key))

    def typed(self, data: Mapping[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
        """``data[key]`` (or ``default``) checked: ``float`` means any positive
        number, ``int`` a positive integer; ``str`` and ``bool`` as they are."""
        value: Any = data.get(key, default)
        numeric = kind in (int, float)
        accepted = (int, float) if kind is float else kind
        if (numeric and isinstance(value, bool)) or not isinstance(value, accepted):
            raise self.error(f"must be {_KIND_NAMES[kind]}", _dot(where, key))
        if not numeric:
            return value
        number = float(data.get(key, default))
        if number <= 0:
            raise self.error("must be positive", _dot(where, key))
        return number if kind is float else int(number)

    def path(self, data: Mapping[str, Any], key: str, where: str) -> Path:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self.error("is required: a file path", _dot(where, key))
        return self.base / value


_KIND_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _dot(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def load_config(path: str | Path, *, environ: Mapping[str, str] | None = None) -> ServeConfig:
    """Read and check the config file and every file it names; an
    :class:`InputError` names the file and the key that is wrong."""
    path = Path(path)
    data = _toml(path)
    read = _Reader(str(path), path.parent)
    read.only(data, _SECTIONS, "")
    env = os.environ if environ is None else environ

    server = read.table(data, "server", "server")
    read.only(
        server,
        ("host", "port", "max_body_bytes", "request_timeout", "log_requests"),
        "server",
    )
    port = read.typed(server, "port", int, 8787, "server")
    if port > 65535:
        raise read.error("must be a TCP port (1-65535)", "server.port")

    policy_data = read.table(data, "policy", "policy")
    try:
        policy = Policy.from_json(dict(policy_data))
    except (TypeError, ValueError) as error:
        raise read.error(" ".join(str(error).split()), "policy") from None

    lexicons = {
        key: Lexicon.load(read.path({"file": value}, "file", f"lexicons.{key}"))
        for key, value in read.table(data, "lexicons", "lexicons").items()
    }
    catalogs = _catalogs(read, read.table(data, "catalogs", "catalogs"))

    answer = read.table(data, "answer", "answer")
    read.only(
        answer,
        ("lexicon", "on_fail", "deadline", "phrase_timeout", "sources", "phraser", "store"),
        "answer",
    )
    answer_lexicon = None
    if "lexicon" in answer:
        lexicon_name = answer["lexicon"]
        if lexicon_name not in lexicons:
            raise read.error(f"names no lexicon in [lexicons]: {lexicon_name!r}", "answer.lexicon")
        answer_lexicon = lexicons[lexicon_name]
    on_fail = answer.get("on_fail", "retry")
    try:
        steps = plan(on_fail)
    except (TypeError, ValueError) as error:
        raise read.error(str(error), "answer.on_fail") from None

    store = None
    if "store" in answer:
        store = SqliteSnapshotStore(read.path(answer, "store", "answer"))
    return ServeConfig(
        host=read.typed(server, "host", str, "127.0.0.1", "server"),
        port=port,
        max_body_bytes=read.typed(server, "max_body_bytes", int, 1024 * 1024, "server"),
        request_timeout=read.typed(server, "request_timeout", float, 10.0, "server"),
        log_requests=read.typed(server, "log_requests", bool, False, "server"),
        policy=policy,
        lexicons=lexicons,
        catalogs=catalogs,
        sources=tuple(_sources(read, answer.get("sources", []))),
        phraser=_phraser(read, read.table(answer, "phraser", "answer.phraser"), env),
        answer_lexicon=answer_lexicon,
        on_fail=steps,
        deadline=read.typed(answer, "deadline", float, 2.0, "answer"),
        phrase_timeout=read.typed(answer, "phrase_timeout", float, 30.0, "answer"),
        store=store,
    )


def _toml(path: Path) -> dict[str, Any]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read: {type(error).__name__}", file=name) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"invalid TOML: {error}", file=name) from None


def _catalogs(read: _Reader, table: Mapping[str, Any]) -> dict[str, CatalogEntry]:
    catalogs: dict[str, CatalogEntry] = {}
    for key, value in table.items():
        where = f"catalogs.{key}"
        entry = read.table({"t": value}, "t", where)
        read.only(entry, ("catalog", "contract"), where)
        contract = Contract.load(read.path(entry, "contract", where))
        catalog = Catalog.from_csv(read.path(entry, "catalog", where), contract)
        catalogs[key] = CatalogEntry(catalog, contract)
    return catalogs


def _sources(read: _Reader, items: Any) -> list[Source]:
    if not isinstance(items, list):
        raise read.error("must be an array of tables ([[answer.sources]])", "answer.sources")
    sources: list[Source] = []
    for index, item in enumerate(items):
        where = f"answer.sources.{index}"
        if not isinstance(item, Mapping):
            raise read.error("must be a table", where)
        read.only(item, ("name", "facts", "adapter", "options"), where)
        if ("facts" in item) == ("adapter" in item):
            raise read.error("needs exactly one of facts (a file) or adapter (a name)", where)
        if "facts" in item:
            name = read.typed(item, "name", str, Path(item["facts"]).stem, where)
            sources.append(FileSource(name, load_facts(read.path(item, "facts", where))))
            continue
        sources.append(_adapter(read, item, where))
    return sources


def _adapter(read: _Reader, item: Mapping[str, Any], where: str) -> Source:
    name = read.typed(item, "adapter", str, "", where)
    options = read.table(item, "options", f"{where}.options")
    found = [e for e in entry_points(group=ENTRY_POINT_GROUP) if e.name == name]
    if not found:
        installed = ", ".join(sorted(e.name for e in entry_points(group=ENTRY_POINT_GROUP)))
        raise read.error(
            f"no installed adapter {name!r} (installed: {installed or 'none'})", f"{where}.adapter"
        )
    try:
        factory = found[0].load()
        source = factory(**options)
    except Exception as error:  # noqa: BLE001 - a broken adapter stops the start with one line
        detail = " ".join(str(error).split())[:160]
        raise read.error(f"cannot start adapter {name!r}: {detail}", f"{where}.options") from None
    if not isinstance(source, Source):
        raise read.error(f"adapter {name!r} did not make a source", f"{where}.adapter")
    return source


def _phraser(read: _Reader, data: Mapping[str, Any], env: Mapping[str, str]) -> Phraser:
    where = "answer.phraser"
    kind = read.typed(data, "kind", str, "template", where)
    if kind == "template":
        read.only(data, ("kind",), where)
        return TemplatePhraser()
    if kind != "openai":
        raise read.error("must be 'template' or 'openai'", f"{where}.kind")
    read.only(
        data,
        ("kind", "base_url", "model", "api_key_env", "timeout", "stall_timeout", "max_tokens"),
        where,
    )
    key_name = data.get("api_key_env")
    api_key = None
    if key_name is not None:
        if not isinstance(key_name, str) or key_name not in env:
            raise read.error(
                f"names no set environment variable: {key_name!r}", f"{where}.api_key_env"
            )
        api_key = env[key_name]
    max_tokens = data.get("max_tokens")
    if max_tokens is not None:
        max_tokens = read.typed(data, "max_tokens", int, None, where)
    return OpenAIChatPhraser(
        read.typed(data, "base_url", str, "", where) or _missing(read, f"{where}.base_url"),
        read.typed(data, "model", str, "", where) or _missing(read, f"{where}.model"),
        api_key,
        timeout=read.typed(data, "timeout", float, 30.0, where),
        stall_timeout=read.typed(data, "stall_timeout", float, 30.0, where),
        max_tokens=max_tokens,
    )


def _missing(read: _Reader, where: str) -> str:
    raise read.error("is required", where)
