"""Short names: a person's surname or given name alone, bound as a reader binds it.

A subject named as a person is ("Nikola Jokic", "Michael Porter Jr.": two capitalised
words, a generational suffix aside) is also named by its surname ("Jokic", "Porter")
or its given name ("Nikola") alone, when the lexicon lists no aliases for it: a
lexicon that lists a subject's aliases decides them. The rule a reader follows:

- a short name only one subject of the facts has names that subject;
- a short name two subjects share ("Williams" for Lou and Marvin Williams) names both:
  each is a plausible reading, so a value passes when one of them vouches for it and is
  flagged when none does (it binds no further than that);
- a short name that is another subject's name or alias, a word of a place's or a club's
  name ("New York", "Mexico City", "Real Madrid", the vocabulary's ``place_name_words``), or
  a common word that is no name (``not_names``: "May", "Will") is not derived;
- only a capitalised mention reads as a short name ("Green", not "green").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from vouched._scan._lex._english import ENGLISH

__all__ = ["short_names"]

_SUFFIXES = frozenset(w.rstrip(".") for w in ENGLISH["name_suffixes"])
_PLACE_WORDS = frozenset(w.rstrip(".") for w in ENGLISH["place_name_words"])
_NOT_NAMES = frozenset(ENGLISH["not_names"])
# a capitalised word of letters, inner apostrophes, hyphens or periods ("O'Neale",
# "Gilgeous-Alexander", "C.J.")
_NAME_WORD = re.compile(r"[^\W\d_a-z][^\W\d_]*(?:['\u2019.-][^\W\d_]+)*\.?")


def _person(subject: str) -> tuple[str, str] | None:
    """(given name, surname) of a subject named as a person is, else None."""
    words = subject.split()
    if len(words) == 3 and words[2].lower().rstrip(".") in _SUFFIXES:
        words = words[:2]
    if len(words) != 2 or not all(_NAME_WORD.fullmatch(w) for w in words):
        return None
    if any(w.lower().rstrip(".") in _PLACE_WORDS for w in words):
        return None
    return words[0], words[1]


def short_names(
    aliases: Mapping[str, Sequence[str]], subjects: Iterable[str]
) -> Mapping[str, tuple[str, ...]]:
    """Each short name (lower case) of the ``subjects`` (the facts' subjects) that the
    lexicon's ``aliases`` list nothing for, to the subjects it names."""
    taken = {" ".join(p.lower().split()) for s, names in aliases.items() for p in (s, *names)}
    known = sorted(set(subjects))
    taken.update(s.lower() for s in known)
    found: dict[str, list[str]] = {}
    for subject in known:
        if aliases.get(subject):
            continue
        person = _person(subject)
        if person is None:
            continue
        for word in person:
            key = word.lower()
            if "." in key or len(key) < 3 or key in taken or key in _NOT_NAMES:
                continue  # an initial ("C.J."), another's name, a common word
            found.setdefault(key, []).append(subject)
    return MappingProxyType({k: tuple(v) for k, v in found.items()})
