"""An attribute as a reader names it, for a finding's detail.

A finding names the subject, the attribute and the value it was checked against
("Michael Porter Jr. rebounds = 8", "Vienna high = 8.4 °C for Sun 2026-12-06"):
the attribute by the lexicon's first phrase for it ("rebounds", never ``REB``);
where another attribute the same subject has facts for shares that first phrase (a
day's high and low are both "temperature"), by the first phrase of its own that the
other does not list ("high", "low"), else by its name in words ("assist minute" when
every phrase of it names another minute too). An attribute the lexicon does not
phrase keeps its name. Built once when a scanner compiles; asked only when a finding is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from vouched._fact import Fact

__all__ = ["PLAIN_NAMES", "AttributeNames", "possessive"]


def possessive(subject: str) -> str:
    """``Berlin's``, ``the Nuggets'``: a subject as the owner of an attribute."""
    return f"{subject}'" if subject.endswith("s") else f"{subject}'s"


class AttributeNames:
    """Each (subject, attribute) as a reader names it (see the module)."""

    __slots__ = ("_held", "_phrases", "_words")

    def __init__(
        self,
        phrases: Mapping[str, tuple[str, ...]] | None = None,
        facts: Iterable[Fact] = (),
    ) -> None:
        self._phrases = {name: tuple(p) for name, p in (phrases or {}).items() if p}
        held: dict[str, set[str]] = {}
        if self._phrases:
            for fact in facts:
                held.setdefault(fact.subject, set()).add(fact.attribute)
        self._held = held
        self._words: dict[tuple[str | None, str], str] = {}  # each pair's, once asked

    def of(self, subject: str | None, attribute: str) -> str:
        """The words for ``attribute`` of ``subject`` (any subject's when None)."""
        phrases = self._phrases.get(attribute)
        if not phrases:
            return attribute
        # kept per pair: the words a pair is named by never change, and reading them
        # walks every attribute the subject holds (~2.7% of a box score's scan)
        words = self._words.get((subject, attribute))
        if words is None:
            words = self._words[subject, attribute] = self._read(subject, attribute, phrases)
        return words

    def _read(self, subject: str | None, attribute: str, phrases: tuple[str, ...]) -> str:
        first = phrases[0]
        if subject is None:
            return first
        shared = [
            own
            for other in self._held.get(subject, ())
            if other != attribute and (own := self._phrases.get(other, ())) and own[0] == first
        ]
        if not shared:
            return first
        taken = {phrase for p in shared for phrase in p}
        return next((p for p in phrases if p not in taken), attribute.replace("_", " "))

    def named(self, subject: str | None, attribute: str) -> str:
        """``Berlin temperature``, ``MN-270 weighs``: the subject, then the attribute's
        words (a lexicon's first phrase may be a verb, so no possessive)."""
        words = self.of(subject, attribute)
        return words if subject is None else f"{subject} {words}"


PLAIN_NAMES = AttributeNames()
"""No lexicon: every attribute keeps its name."""
