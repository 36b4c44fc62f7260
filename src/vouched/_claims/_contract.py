"""The claim contract: which field names the entity, which column holds the
citation, and which attributes may be claimed, each with its normalizer.

From TOML (``Contract.load``)::

    entity_field = "workshop_code"
    citation_field = "catalog_record_id"
    [attributes]
    format = "text"
    start_time = "time"
    fee_eur = "money"
    step_free_access = "bool"

A claim is a JSON object with exactly the keys ``<entity_field>``,
``attribute``, ``value`` and ``citation``. Only attributes listed here can be
verified, even when the catalog has more columns.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from vouched._claims._normalize import NORMALIZERS, Normalizer, normalizer_for
from vouched._exceptions import InputError, shown
from vouched._files import read_text

__all__ = ["CLAIM_KEYS", "Contract"]

CLAIM_KEYS: Final = ("attribute", "value", "citation")
"""The keys of a claim besides the contract's entity field."""

_TOP_KEYS: Final = frozenset({"entity_field", "citation_field", "attributes"})
_TOML_LINE: Final = re.compile(r"\(at line (\d+), column \d+\)")


@dataclass(frozen=True, slots=True)
class Contract:
    """What a claim must look like and how each allowed attribute is compared.

    ``attributes`` maps an attribute name to a normalizer: the name of a
    built-in one (``text``, ``money``, ``money:EUR`` and other ISO 4217 codes,
    ``decimal``, ``integer``, ``bool``, ``time``, ``date``) or any callable
    that returns a comparable value or raises ``ValueError``.
    """

    entity_field: str
    citation_field: str
    attributes: Mapping[str, str | Normalizer] = field(hash=False)
    normalizers: Mapping[str, Normalizer] = field(init=False, repr=False, compare=False)
    claim_keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("entity_field", "citation_field"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise InputError("must be a non-empty string", field=name)
        if self.entity_field in CLAIM_KEYS:
            raise InputError(
                f"{shown(self.entity_field)} is already a claim key; choose another name",
                field="entity_field",
            )
        if not isinstance(self.attributes, Mapping) or not self.attributes:
            raise InputError("must list at least one attribute", field="attributes")
        resolved: dict[str, Normalizer] = {}
        for attribute, spec in self.attributes.items():
            where = f"attributes.{attribute}"
            if not isinstance(attribute, str) or not attribute:
                raise InputError("attribute names must be non-empty strings", field="attributes")
            if isinstance(spec, str):
                normalizer = normalizer_for(spec)
                if normalizer is None:
                    known = ", ".join([*sorted(NORMALIZERS), "money:EUR (any ISO 4217 code)"])
                    raise InputError(
                        f"unknown normalizer {shown(spec)}; use one of {known}", field=where
                    )
                resolved[attribute] = normalizer
            elif callable(spec):
                resolved[attribute] = spec
            else:
                raise InputError("must name a normalizer or be a callable", field=where)
        object.__setattr__(self, "attributes", MappingProxyType(dict(self.attributes)))
        object.__setattr__(self, "normalizers", MappingProxyType(resolved))
        object.__setattr__(self, "claim_keys", frozenset((self.entity_field, *CLAIM_KEYS)))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Contract:
        """A contract from parsed TOML or JSON (unknown keys are refused)."""
        if not isinstance(data, Mapping):
            raise InputError("expected a table with entity_field, citation_field, attributes")
        for key in data:
            if key not in _TOP_KEYS:
                raise InputError("unknown key", field=str(key))
        for key in sorted(_TOP_KEYS):
            if key not in data:
                raise InputError("is required", field=key)
        attributes = data["attributes"]
        if not isinstance(attributes, Mapping):
            raise InputError("must be a table of attribute = normalizer", field="attributes")
        for attribute, spec in attributes.items():
            if not isinstance(spec, str):
                raise InputError("must name a normalizer", field=f"attributes.{attribute}")
        return cls(
            entity_field=data["entity_field"],
            citation_field=data["citation_field"],
            attributes=dict(attributes),
        )

    @classmethod
    def load(cls, path: str | Path, *, max_bytes: int | None = None) -> Contract:
        """A contract from a TOML file (a regular file of at most ``max_bytes``,
        default: the contract input cap); errors name the file, line and key."""
        name = str(path)
        text = read_text(name, kind="contract", max_bytes=max_bytes)
        if not text.strip():
            raise InputError("file is empty; expected a TOML contract", file=name)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            message = str(error)
            found = _TOML_LINE.search(message)
            line = int(found[1]) if found else None
            detail = _TOML_LINE.sub("", message).strip()
            raise InputError(f"invalid TOML: {detail}", file=name, line=line) from None
        except RecursionError:
            raise InputError("invalid TOML: nested too deeply", file=name) from None
        try:
            return cls.from_mapping(data)
        except InputError as error:
            raise error.at(file=name, line=_key_line(text, error.field)) from None


def _key_line(text: str, dotted: str | None) -> int | None:
    """The line where a (possibly dotted) key is assigned, for error messages."""
    if not dotted:
        return None
    key = dotted.rsplit(".", 1)[-1]
    # Plain string tests, not a regex compiled from the key: a key is user input
    # and may be megabytes long.
    forms = (key, f'"{key}"')
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip()
        for form in forms:
            if stripped.startswith(form) and stripped[len(form) :].lstrip().startswith("="):
                return number
    return None
