"""The lexicons snapshots were checked with, kept once per store.

A format 4 snapshot names its lexicon by a :class:`~vouched._replay._snapshot.LexiconRef`
(a content hash and, for a shipped lexicon, its name); the content itself is a
:class:`LexiconRecord` the store keeps once, whatever the number of snapshots
that used it: a ``lexicons`` table in SQLite and PostgreSQL, a line of its
own in a JSON Lines export. A store that keeps them says so by the
:class:`LexiconShelf` protocol.

Replay and the review pages grade each snapshot with its own lexicon by
default (:class:`vouched._replay._tally.OwnLexiconRule`); a lexicon given by the caller overrides it
for every snapshot. A snapshot written before format 4 recorded none and is
graded without one, as it was before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, runtime_checkable

from vouched._exceptions import InputError
from vouched._jsonio import dumps, loads
from vouched._replay._snapshot import LexiconRef
from vouched._scan._facts._lexicon import Lexicon, shipped_lexicons

__all__ = [
    "JSONL_LEXICON",
    "LexiconRecord",
    "LexiconShelf",
    "lexicon_version",
    "stored_lexicons",
]

_HASH_LENGTH = 16
JSONL_LEXICON = "vouched.lexicon/1"
"""The ``"record"`` of a lexicon's line in a JSON Lines export (snapshots have none)."""


def _canonical(lexicon: Lexicon) -> str:
    return dumps(lexicon.to_json(), canonical=True)


def lexicon_version(lexicon: Lexicon) -> str:
    """A short content hash of a lexicon: equal lexicons, equal versions."""
    return hashlib.sha256(_canonical(lexicon).encode("utf-8")).hexdigest()[:_HASH_LENGTH]


@cache
def _shipped_versions() -> Mapping[str, str]:
    return {lexicon_version(Lexicon.shipped(name)): name for name in shipped_lexicons()}


@dataclass(frozen=True)
class LexiconRecord:
    """One lexicon as a store keeps it: hash, name, canonical JSON content."""

    hash: str
    name: str | None
    content: str

    @classmethod
    def of(cls, lexicon: Lexicon, name: str | None = None) -> LexiconRecord:
        """The record of ``lexicon``; its name is ``name``, else the name of the
        shipped lexicon it equals, else none."""
        version = lexicon_version(lexicon)
        return cls(version, name or _shipped_versions().get(version), _canonical(lexicon))

    @property
    def ref(self) -> LexiconRef:
        return LexiconRef(self.hash, self.name)

    def lexicon(self) -> Lexicon:
        return Lexicon.from_json(loads(self.content))

    def to_jsonl(self) -> str:
        """Its line in a JSON Lines export."""
        return dumps(
            {
                "record": JSONL_LEXICON,
                "hash": self.hash,
                "name": self.name,
                "content": self.content,
            },
            canonical=True,
        )

    @classmethod
    def from_jsonl(cls, data: Mapping[str, Any]) -> LexiconRecord:
        """A lexicon line of an export; the content must hash to ``hash``."""
        content, version, name = data.get("content"), data.get("hash"), data.get("name")
        if not isinstance(content, str) or not isinstance(version, str):
            raise InputError('a lexicon line needs "hash" and "content" strings', field="content")
        if name is not None and not isinstance(name, str):
            raise InputError("must be a string or null", field="name")
        lexicon = Lexicon.from_json(loads(content))
        if lexicon_version(lexicon) != version:
            raise InputError("does not match the lexicon's content", field="hash")
        return cls(version, name, _canonical(lexicon))


@runtime_checkable
class LexiconShelf(Protocol):
    """A store that keeps the lexicons its snapshots were checked with."""

    def write_lexicon(self, record: LexiconRecord) -> None:
        """Keep ``record`` (idempotent: the same hash twice is one lexicon)."""
        ...

    def lexicons(self) -> Iterator[LexiconRecord]:
        """Every lexicon kept."""
        ...


def stored_lexicons(store: object) -> dict[str, str]:
    """Hash -> canonical JSON of each lexicon ``store`` keeps (empty when it keeps
    none): what replay's ``OwnLexiconRule`` reads."""
    if not isinstance(store, LexiconShelf):
        return {}
    return {record.hash: record.content for record in store.lexicons()}
