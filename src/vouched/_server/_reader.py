"""Reading one table of the serve config: every error names the file and the dotted key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vouched import InputError

__all__ = ["Reader"]


class Reader:
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
        if not 0 < number < 1e12:  # a number TOML reads, bounded like every other
            raise self.error("must be positive (and below 1e12)", _dot(where, key))
        return number if kind is float else int(number)

    def path(self, data: Mapping[str, Any], key: str, where: str) -> Path:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self.error("is required: a file path", _dot(where, key))
        return self.base / value

    def secret(self, data: Mapping[str, Any], key: str, where: str, env: Mapping[str, str]) -> str:
        """The value of the environment variable ``data[key]`` names."""
        name = data.get(key)
        if not isinstance(name, str) or not env.get(name):
            raise self.error(f"names no set environment variable: {name!r}", _dot(where, key))
        return env[name]


_KIND_NAMES = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}


def _dot(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
