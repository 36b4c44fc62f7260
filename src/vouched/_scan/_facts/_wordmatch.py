"""What facts stated in words look like, compiled once per scanner.

Five families of words say a fact without a digit:

- a weekday ("on Thursday"), when some fact holds a date (an ISO date string);
- a value phrase the lexicon declares with a string or boolean value ("online",
  "off the bench" = false);
- a string fact's own value ("in person", "Kings"): the word another subject's
  fact says, read for this subject;
- a relation phrase the lexicon declares ("colder than", "team-high",
  "triple-double");
- a condition word of the lexicon's ``conditions`` ("sunny", "foggy"), when the facts
  are current conditions (no period) and some place's condition belongs to a family.

:func:`word_matcher` builds one phrase matcher over all of them, tagged by
family (``None`` when the facts and the lexicon give none: a scanner without
them pays nothing). :class:`WordFacts` answers what the rules ask of the facts:
a subject's dates, the attributes a word is a value of, a pair's word value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Final

from vouched._fact import Fact
from vouched._scan._facts._conditions import Conditions
from vouched._scan._facts._factindex import FactIndex
from vouched._scan._facts._lexicon import Lexicon, Word
from vouched._scan._lex._phrases import PhraseMatcher, phrase_matcher
from vouched._scan._lex._vocabulary import WEEKDAYS

__all__ = [
    "CONDITION",
    "DAY",
    "RELATION",
    "STRING",
    "VALUE",
    "WordFacts",
    "date_of",
    "decode_value",
    "word_matcher",
]

DAY: Final = "d"
VALUE: Final = "v"
STRING: Final = "s"
RELATION: Final = "r"
CONDITION: Final = "c"
_SEP = "\x00"
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
LONGEST_WORD_VALUE = 48
"""A string fact's value longer than this is a description, not a word a text restates."""


def date_of(fact: Fact) -> date | None:
    """The date a fact states as an ISO date string ("2026-12-09", whatever its unit,
    ``date`` included); None otherwise."""
    value = fact.value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()[:10]):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def _is_word_value(value: object) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= LONGEST_WORD_VALUE
        and any(c.isalpha() for c in value)
        and not any(c.isdigit() for c in value)
    )


def decode_value(tag: str) -> tuple[str, str, Word]:
    """(family, attribute, value) of a ``VALUE`` tag."""
    family, attribute, raw = tag.split(_SEP, 2)
    value: Word = json.loads(raw)
    return family, attribute, value


class WordFacts:
    """The facts as the word rules read them (built once per scanner)."""

    __slots__ = (
        "_kinds",
        "_same",
        "conditions",
        "dates",
        "index",
        "occasions",
        "one_date",
        "past",
        "peers",
        "silent_dates",
        "word_attributes",
    )

    def __init__(
        self,
        index: FactIndex,
        now: datetime | None = None,
        occasions: str = "flag",
        conditions: Conditions | None = None,
    ) -> None:
        self.index = index
        self.conditions = conditions
        """The condition families current conditions are read in (None: none read)."""
        self.occasions = occasions
        """``Policy.other_occasions``: "flag" or "leave" words about other occasions."""
        self.dates: dict[str, list[date]] = {}
        dated_attributes: set[str] = set()
        today = now.date() if now is not None else None
        self.word_attributes: dict[str, set[str]] = {}  # casefolded value -> attributes
        for fact in index.grounded:
            day = date_of(fact)
            if day is not None:
                self.dates.setdefault(fact.subject, []).append(day)
                dated_attributes.add(fact.attribute)
            elif _is_word_value(fact.value) and isinstance(fact.value, str):
                key = " ".join(fact.value.casefold().split())
                self.word_attributes.setdefault(key, set()).add(fact.attribute)
        self.silent_dates = {f.subject for f in index.silent if f.attribute in dated_attributes}
        self._kinds: dict[str, set[str]] | None = None
        self._same: dict[tuple[str, tuple[str, ...]], bool] = {}
        self.peers: dict[tuple[object, ...], list[Decimal]] = {}
        """A rank's group values, by (attribute, kind, unit, group): read once per scanner."""
        every = {day for days in self.dates.values() for day in days}
        self.past = bool(every) and today is not None and max(every) < today
        """Every date the facts give lies before ``now`` (a game's box score, read the
        day after): a sentence about a later occasion is about another occasion."""
        self.one_date = next(iter(every)) if len(every) == 1 else None
        """The one date every dated fact states (the facts speak of one day), if any."""

    def same_kind(self, subject: str, attributes: tuple[str, ...]) -> bool:
        """Is ``subject`` of the kind of subjects that have ``attributes`` (do they share
        any attribute)? A currency without a spread fact is; a team is no player.
        Answered once per (subject, attributes) for a scanner."""
        key = (subject, attributes)
        known = self._same.get(key)
        if known is None:
            if self._kinds is None:
                kinds: dict[str, set[str]] = {}
                index = self.index
                for fact in (*index.grounded, *index.silent, *index.rejected):
                    kinds.setdefault(fact.subject, set()).add(fact.attribute)
                self._kinds = kinds
            own = self._kinds.get(subject, set())
            known = self._same[key] = any(
                own & others
                for other, others in self._kinds.items()
                if other != subject and not others.isdisjoint(attributes)
            )
        return known

    def word_value(self, subject: str, attribute: str) -> tuple[bool, Word | None]:
        """(known, value) of a pair as a word: known is False when no fact speaks of it;
        value is None when the pair is silent (or its value is no word)."""
        facts = self.index.facts_of(subject, attribute)
        if facts:
            value = facts[0].value
            return True, value if isinstance(value, str | bool) else None
        return (subject, attribute) in self.index.silent_pairs, None


def _entries(lexicon: Lexicon, index: FactIndex, facts: WordFacts) -> Iterable[tuple[str, str]]:
    if facts.dates or facts.silent_dates:
        for word, day in WEEKDAYS.items():
            yield word, f"{DAY}{_SEP}{day}"
    known = index.attributes
    for attribute, phrases in lexicon.words.items():
        if attribute in known:
            for phrase, value in phrases.items():
                yield phrase, f"{VALUE}{_SEP}{attribute}{_SEP}{json.dumps(value)}"
    for value in facts.word_attributes:
        yield value, f"{STRING}{_SEP}{value}"
    for phrase, relation in lexicon.relations.items():
        names = getattr(relation, "attributes", None) or (getattr(relation, "attribute", None),)
        if any(name is None or name in known for name in names):
            yield phrase, f"{RELATION}{_SEP}{phrase}"
    if facts.conditions is not None:
        for family in facts.conditions.families:
            for phrase in (*family.phrases, *family.opposites):
                yield phrase, f"{CONDITION}{_SEP}{phrase}"


def word_matcher(lexicon: Lexicon, facts: WordFacts) -> PhraseMatcher | None:
    """One matcher for every word that states a fact here; None when there is none."""
    entries = tuple(sorted(set(_entries(lexicon, facts.index, facts))))
    return phrase_matcher(entries) if entries else None
