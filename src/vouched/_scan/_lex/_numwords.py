"""English number words, ordinals, month names and the word tokens of a text."""

from __future__ import annotations

import re
from functools import lru_cache

from vouched._calendar import MONTHS  # re-exported: the number reader names it here

__all__ = [
    "MONTHS",
    "MONTH_RE",
    "ORDINAL_WORDS",
    "WEEKDAY_RE",
    "WORD_TRIGGERS",
    "word_number",
    "word_pattern",
    "word_tokens",
    "word_tokens_list",
]

_SMALL_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALE_WORDS = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
}
for _word in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"):
    ORDINAL_WORDS[f"twenty-{_word}"] = 20 + ORDINAL_WORDS[_word]
ORDINAL_WORDS["thirty-first"] = 31


MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b\.?)"
)
WEEKDAY_RE = r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+(?:the\s+)?)?"


_NUMBER_WORDS = sorted([*_SMALL_WORDS, *_TENS_WORDS], key=len, reverse=True)
WORD_TRIGGERS = frozenset(
    [*_SMALL_WORDS, *_TENS_WORDS, "dozen", "hundred", "thousand", "million", "billion"]
    + [w for w in ORDINAL_WORDS if "-" not in w]
)
_WORD_RUN = re.compile(r"[^\W_]+")


@lru_cache(maxsize=512)
def word_pattern(present: frozenset[str]) -> re.Pattern[str]:
    """A pattern for the number words (and ordinal dates) present in a text."""
    numbers = [w for w in _NUMBER_WORDS if w in present]
    ordinals = sorted(
        (w for w in ORDINAL_WORDS if w.split("-")[-1] in present), key=len, reverse=True
    )
    parts = []
    if ordinals:
        parts.append(
            r"(?P<orddate>(?i:\b(?:the\s+)?(?P<ow>" + "|".join(ordinals) + r")\s+of\s+)"
            r"(?P<om>" + MONTH_RE + r")(?:,?\s+(?P<oyr>\d{4}))?(?![\w-]))"
        )
    scales = [w for w in ("dozen", "hundred", "thousand", "million", "billion") if w in present]
    words = []
    if scales:
        words.append(r"an?\s+(?:" + "|".join(scales) + r")")
    if "dozen" in present:
        words.append(r"half\s+a\s+dozen")
    if numbers:
        words.append(r"(?:" + "|".join(numbers) + r")(?:-[a-z]+)?")
    if words:
        parts.append(r"(?P<word>(?i:\b(?:" + "|".join(words) + r")\b))")
    return re.compile("|".join(parts) or r"(?!)")


def word_tokens(lowered: str) -> set[str]:
    """The lower-case words of a text (punctuation splits words)."""
    raw = set(lowered.split())
    words = {token for token in raw if token.isalnum()}
    for token in raw - words:
        words.update(_WORD_RUN.findall(token))
    return words


def word_tokens_list(lowered: str) -> list[str]:
    """The lower-case words of a text, in order."""
    return _WORD_RUN.findall(lowered)


def _below_hundred(word: str, current: int, seen: bool) -> int | None:
    """``current`` with a word below a hundred added ("twenty", "one", "forty-two"), or
    None when the word cannot continue the number read so far."""
    if word in _SMALL_WORDS:
        after_tens = seen and current % 100 >= 20 and current % 10 == 0  # "twenty one"
        if seen and current % 100 != 0 and not after_tens:
            return None
        return current + _SMALL_WORDS[word]
    if word in _TENS_WORDS:
        value = _TENS_WORDS[word]
    else:
        head, _, tail = word.partition("-")
        if not (head in _TENS_WORDS and tail in _SMALL_WORDS and 0 < _SMALL_WORDS[tail] < 10):
            return None
        value = _TENS_WORDS[head] + _SMALL_WORDS[tail]
    if seen and current % 100 != 0:
        return None
    return current + value


def word_number(words: list[str]) -> tuple[int, int] | None:
    """Parse a run of lower-case number words; returns (value, words used)."""
    total = 0
    current = 0
    used = 0
    seen = False
    for index, word in enumerate(words):
        if word in _SMALL_WORDS or word in _TENS_WORDS or "-" in word:
            added = _below_hundred(word, current, seen)
            if added is None:
                break
            current = added
        elif word in _SCALE_WORDS:
            scale = _SCALE_WORDS[word]
            if not seen:
                break
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        elif word == "and" and seen and index + 1 < len(words):
            nxt = words[index + 1]
            if current % 100 == 0 and (
                nxt in _SMALL_WORDS or nxt in _TENS_WORDS or nxt.split("-")[0] in _TENS_WORDS
            ):
                used = index + 1
                continue
            break
        else:
            break
        seen = True
        used = index + 1
    if not seen:
        return None
    return total + current, used
