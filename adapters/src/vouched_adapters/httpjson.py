"""Any JSON API as a source, through a declarative mapping.

Each attribute is a JSON pointer (RFC 6901) into the response, with a unit
and a TTL. The subject and URL parameters are templates filled from the
query. ``observed_at`` comes from a pointer into the body (ISO 8601 with an
offset, or Unix seconds) or, when none is given, from the response's HTTP
``Date`` header: the server's own clock, never ours. Build one in code or
from a mapping (e.g. a JSON file)::

    HttpJsonSource.from_mapping({
        "name": "station",
        "url": "https://example.org/api/stations/{station}",
        "subject": "{station}",
        "observed_at": "/observed",
        "ttl": 600,
        "fields": {"temperature": {"pointer": "/temp", "unit": "degC"}},
    })
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, timedelta
from decimal import Decimal
from typing import Any, TypeGuard
from urllib.parse import quote

import httpx

from vouched import ConfigError, Fact, MalformedPayloadError, Query, SilenceReason
from vouched_adapters._http import MAX_BODY_BYTES, SubjectNotFoundError, get_json
from vouched_adapters._queries import check_mapping, check_scalar
from vouched_adapters._values import instant

__all__ = ["Field", "HttpJsonSource", "resolve_pointer"]  # and its check_query method

_MISSING = object()


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute: where it is in the body, its unit, and optionally its own TTL."""

    pointer: str
    unit: str | None = None
    ttl: float | None = None

    def __post_init__(self) -> None:
        if self.pointer and not self.pointer.startswith("/"):
            raise ConfigError("Field.pointer", "a JSON pointer starting with '/'", got=self.pointer)


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` (RFC 6901); raises LookupError when it is not there."""
    if pointer == "":
        return document
    current = document
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, Mapping):
            if token not in current:
                raise LookupError(pointer)
            current = current[token]
        elif isinstance(current, list):
            if not token.isdigit() or (len(token) > 1 and token.startswith("0")):
                raise LookupError(pointer)
            index = int(token)
            if index >= len(current):
                raise LookupError(pointer)
            current = current[index]
        else:
            raise LookupError(pointer)
    return current


def _template_keys(template: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(template) if field]


def _fill(template: str, query: Query, *, in_url: bool = False) -> str:
    values = {}
    for key in _template_keys(template):
        if key not in query:
            raise ValueError(f"the query lacks {key!r}")
        # In a URL path a value is one segment: "../admin" must not walk the path.
        values[key] = quote(str(query[key]), safe="") if in_url else query[key]
    return template.format_map(values)


class HttpJsonSource:
    """A JSON API described by a mapping (see the module docstring)."""

    def __init__(
        self,
        name: str,
        url: str,
        *,
        fields: Mapping[str, Field | Mapping[str, Any]],
        subject: str = "{subject}",
        params: Mapping[str, str] | None = None,
        observed_at: str | None = None,
        ttl: float | None = None,
        confidence: float | None = None,
        client: httpx.AsyncClient | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
    ) -> None:
        if not fields:
            raise ConfigError("HttpJsonSource.fields", "at least one field", got=fields)
        self.max_body_bytes = max_body_bytes
        self.name = name
        self.url = url
        self.fields = {
            attribute: spec if isinstance(spec, Field) else Field(**spec)
            for attribute, spec in fields.items()
        }
        self.subject = subject
        self.params = dict(params or {})
        self.observed_at = observed_at
        self.ttl = ttl
        self.confidence = confidence
        self.client = client

    @classmethod
    def from_mapping(
        cls, mapping: Mapping[str, Any], *, client: httpx.AsyncClient | None = None
    ) -> HttpJsonSource:
        """Build from plain data (keys as the constructor's; ``fields`` as mappings)."""
        data = dict(mapping)
        try:
            name, url = data.pop("name"), data.pop("url")
        except KeyError as error:
            raise ConfigError(
                f"HttpJsonSource mapping {error.args[0]!r}", "given (a name and a url are needed)"
            ) from None
        return cls(name, url, client=client, **data)

    def expects(self, query: Query) -> list[tuple[str, str]]:
        try:
            subject = _fill(self.subject, query)
        except ValueError:
            return []
        return [(subject, attribute) for attribute in self.fields]

    def check_query(self, query: Query) -> None:
        """Raise :class:`vouched.QueryError` unless every key the subject, URL and
        parameter templates name is in ``query`` as text or a number."""
        check_mapping(query)
        for template in (self.subject, self.url, *self.params.values()):
            for key in _template_keys(template):
                check_scalar(query, key)

    async def fetch(self, query: Query) -> Sequence[Fact]:
        self.check_query(query)
        subject = _fill(self.subject, query)
        url = _fill(self.url, query, in_url=True)
        params = {key: _fill(value, query) for key, value in self.params.items()}
        try:
            response = await get_json(self.client, url, params, max_body_bytes=self.max_body_bytes)
        except SubjectNotFoundError:
            return []  # the source is up and has no such subject: no_data
        if self.observed_at is not None:
            try:
                observed_at = instant(resolve_pointer(response.body, self.observed_at))
            except LookupError:
                raise MalformedPayloadError("observed_at pointer not found") from None
        elif response.date is not None:
            observed_at = response.date.astimezone(UTC)
        else:
            raise MalformedPayloadError("no observed_at pointer and no Date header")
        citation_base = response.url
        facts: list[Fact] = []
        for attribute, spec in self.fields.items():
            try:
                value = resolve_pointer(response.body, spec.pointer)
            except LookupError:
                value = _MISSING
            if not _is_value(value):
                reason = SilenceReason.MALFORMED if value is not None else SilenceReason.NO_DATA
                facts.append(
                    Fact.silence(
                        subject, attribute, reason, source=self.name, observed_at=observed_at
                    )
                )
                continue
            ttl = spec.ttl if spec.ttl is not None else self.ttl
            facts.append(
                Fact(
                    subject=subject,
                    attribute=attribute,
                    value=value,
                    unit=spec.unit,
                    source=self.name,
                    observed_at=observed_at,
                    ttl=None if ttl is None else timedelta(seconds=ttl),
                    confidence=self.confidence,
                    citation=f"{citation_base}#{spec.pointer}",
                )
            )
        return facts


def _is_value(value: object) -> TypeGuard[str | bool | int | Decimal]:
    return isinstance(value, str | bool | int | Decimal)
