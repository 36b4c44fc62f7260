"""Plain JSON data as snapshots keep it: frozen, and read from result objects."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["freeze", "freeze_json", "plain"]


def freeze(value: Any) -> Any:
    """Plain JSON data made immutable: dicts become read-only mappings, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def freeze_json(value: Any) -> Any:
    """:func:`freeze` for data fresh from the JSON decoder (exact dict and list
    types): the replay hot path, without abstract-class checks."""
    kind = type(value)
    if kind is dict:
        return MappingProxyType({k: freeze_json(v) for k, v in value.items()})
    if kind is list:
        return tuple([freeze_json(v) for v in value])
    return value


def plain(item: Any) -> Any:
    """A finding or claim result (anything with ``to_json()``) or a mapping, as data."""
    to_json = getattr(item, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(item, Mapping):
        return dict(item)
    raise TypeError(f"expected a mapping or an object with to_json(), got {type(item).__name__}")
