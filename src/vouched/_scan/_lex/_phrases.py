"""Phrase matchers: whole-word, case-insensitive mentions of many phrases in one pass.

A matcher maps each phrase (a lexicon's attribute phrases, subject aliases, pair and
value phrases, word values) to the names it stands for. :mod:`vouched._scan._facts._lexicon`
declares the phrases; :mod:`vouched._scan._read._sentence` builds a scanner's matchers here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

import ahocorasick

from vouched._scan._lex._numwords import word_tokens, word_tokens_list

__all__ = ["PhraseMatcher", "build_phrase_matcher", "phrase_matcher"]


def _bounded(char: str) -> bool:
    """Whether a phrase starting (or ending) with ``char`` needs a word boundary there."""
    return char.isalnum() or char == "_"


# An automaton costs ~20 bytes per phrase character: past this many characters a
# matcher keeps to the search by first word (a 5 MB lexicon stays under 200 MB).
_AUTOMATON_CHARS = 1_000_000


@dataclass(frozen=True, slots=True)
class PhraseMatcher:
    """Finds whole-word, case-insensitive phrase mentions; each maps to names.

    One Aho-Corasick automaton over every phrase finds them all in one pass over
    the text, whatever the number of phrases. A lexicon too big for one
    (``_AUTOMATON_CHARS``) keys its phrases by their first word instead: only
    phrases whose first word occurs in the text are searched for (``str.find``,
    no big alternation), so the cost follows the text and the few phrases it
    contains. Each phrase is held once (a string, and its names in ``owners``):
    a lexicon of 750,000 phrases and plurals costs ~100 MB, not a regular
    expression's gigabytes.
    """

    by_key: Mapping[str, tuple[str, ...]]  # first word -> phrases, longest first
    owners: Mapping[str, tuple[str, ...]]  # phrase (lower-case, single-spaced) -> names
    # phrase -> (length, names, needs a word boundary on the left, on the right)
    automaton: Any = field(default=None, compare=False)

    def find(
        self, text: str, lowered: str | None = None, tokens: set[str] | None = None
    ) -> list[tuple[int, int, tuple[str, ...]]]:
        """``(start, end, names)`` of every mention, longest phrase first, no overlaps."""
        if not self.by_key:
            return []
        if lowered is None:
            lowered = text.lower()
        if len(lowered) != len(text):  # rare ("İ" lowers to two): one character each
            lowered = "".join(char.lower()[0] for char in text)
            tokens = None
        # (start, -end, names): sorting puts the longest phrase first at each start
        # (two phrases never share a span: their keys differ).
        found: list[tuple[int, int, tuple[str, ...]]] = []
        if self.automaton is not None:
            found = _every(self.automaton, lowered)
        else:
            if tokens is None:
                tokens = word_tokens(lowered)
            by_key = self.by_key
            for key in tokens.intersection(by_key):
                for phrase in by_key[key]:
                    names = self.owners[phrase]
                    found.extend((start, -end, names) for start, end in _whole(lowered, phrase))
        if len(found) > 1:
            found.sort()
        hits: list[tuple[int, int, tuple[str, ...]]] = []
        last_end = -1
        for start, negative_end, names in found:
            if start >= last_end:
                last_end = -negative_end
                hits.append((start, last_end, names))
        return hits


def _every(automaton: Any, lowered: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(start, -end, names)`` of every phrase in ``lowered`` not inside a longer word."""
    found: list[tuple[int, int, tuple[str, ...]]] = []
    length = len(lowered)
    for last, (size, names, left, right) in automaton.iter(lowered):
        end = last + 1
        start = end - size
        if (left and start > 0 and _word_char(lowered[start - 1])) or (
            right and end < length and _word_char(lowered[end])
        ):
            continue
        found.append((start, -end, names))
    return found


def _whole(lowered: str, phrase: str) -> Iterator[tuple[int, int]]:
    """Every ``(start, end)`` of ``phrase`` in ``lowered`` not inside a longer word."""
    find = lowered.find
    length = len(lowered)
    size = len(phrase)
    left, right = _bounded(phrase[0]), _bounded(phrase[-1])
    start = find(phrase)
    while start != -1:
        end = start + size
        if not (
            (left and start > 0 and _word_char(lowered[start - 1]))
            or (right and end < length and _word_char(lowered[end]))
        ):
            yield start, end
        start = find(phrase, start + 1)


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


@lru_cache(maxsize=256)
def phrase_matcher(pairs: tuple[tuple[str, str], ...]) -> PhraseMatcher:
    """A matcher for ``(phrase, name)`` pairs (cached: lexicons repeat)."""
    return build_phrase_matcher(pairs)


def build_phrase_matcher(pairs: Iterable[tuple[str, str]]) -> PhraseMatcher:
    """A matcher for ``(phrase, name)`` pairs, uncached: for a lexicon's own
    matchers, cached by their caller, so a big lexicon is not held twice.

    No regular expression: an alternation of every phrase costs memory and time
    in the size of the lexicon (a 5 MB lexicon: 1.3-4 GB and 55-97 s to compile)."""
    owners: dict[str, tuple[str, ...]] = {}
    alone: dict[str, tuple[str, ...]] = {}  # one shared (name,) per name
    for phrase, name in pairs:
        key = " ".join(phrase.lower().split())
        if not key:
            continue
        if key == phrase:
            key = phrase  # the lexicon's own string, not a copy
        names = owners.get(key)
        if names is None:
            owners[key] = alone.get(name) or alone.setdefault(name, (name,))
        elif name not in names:
            owners[key] = tuple(sorted((*names, name)))
    by_key: dict[str, list[str]] = {}
    for key in sorted(owners, key=len, reverse=True):
        words = word_tokens_list(key)
        if words:
            by_key.setdefault(words[0], []).append(key)
        else:
            del owners[key]  # no word to find it by
    return PhraseMatcher(
        MappingProxyType({k: tuple(v) for k, v in by_key.items()}),
        MappingProxyType(owners),
        _automaton(owners) if sum(map(len, owners)) <= _AUTOMATON_CHARS else None,
    )


def _automaton(owners: Mapping[str, tuple[str, ...]]) -> Any:
    if not owners:
        return None
    automaton = ahocorasick.Automaton()
    for phrase, names in owners.items():
        automaton.add_word(phrase, (len(phrase), names, _bounded(phrase[0]), _bounded(phrase[-1])))
    automaton.make_automaton()
    return automaton
