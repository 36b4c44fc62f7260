"""What a digit is not, and what two numbers side by side are: the number reader's steps.

Before a digit is read as a number: inside a URL, part of an identifier ("ICE 1537",
"COVID-19"), a list marker ("1." at a line start) or the day of a month-day date
("November 29, 2026"). After every number is read: two joined as a range or a score
("980-1,120", "113-107") mark both ends, the first taking the second's unit.
"""

from __future__ import annotations

import re
from decimal import Decimal

from vouched._scan._lex._numwords import (
    MONTHS,
)
from vouched._scan._lex._patterns import (
    AT_DIGIT,
    BETWEEN_BEFORE,
    CAPS_BEFORE,
    CAPS_ID_AFTER,
    DIGIT_TOKEN_END,
    LISTMARK_AFTER,
    MDY,
    MONTH_BEFORE,
    NOT_ID_PREFIXES,
    RANGE_JOIN,
    URL,
)
from vouched._scan._lex._quantities import (
    ONE,
    Quantity,
    QuantityKind,
    read_time_or_date,
)

__all__ = [
    "identifier_end",
    "join_ranges",
    "list_marker_end",
    "match_at_digit",
    "month_date_end",
    "span_end_around",
    "url_spans",
]


def url_spans(text: str) -> list[tuple[int, int]]:
    if "://" not in text and "www." not in text and "@" not in text:
        return []
    return [m.span() for m in URL.finditer(text)]


def skip_token(text: str, position: int) -> int:
    match = DIGIT_TOKEN_END.match(text, position)
    end = match.end() if match else position + 1
    while end > position and text[end - 1] in ".:-/":
        end -= 1  # sentence punctuation after an identifier
    return max(end, position + 1)


def identifier_end(text: str, p: int, prev: str, names: frozenset[str]) -> int | None:
    """Where the identifier holding the digit at ``p`` ends, if it is one:
    A4, H2O, p95, COVID-19, WS-101, #12, ICE 1537, RE 7, ISO 8601."""
    if prev.isalpha() or prev in {"_", "#"}:
        return skip_token(text, p)
    if prev in "-_/" and p >= 2 and text[p - 2].isalpha():
        return skip_token(text, p)
    if prev in " \u00a0" and p >= 3 and text[p - 2].isupper():
        caps = CAPS_BEFORE.search(text, max(0, p - 7), p)
        if caps is not None and caps["w"] not in NOT_ID_PREFIXES and caps["w"] not in names:
            ident = CAPS_ID_AFTER.match(text, p)
            if ident is not None:
                return ident.end()
    return None


def match_at_digit(text: str, p: int, prev: str) -> re.Match[str] | None:
    """The master pattern at ``p``, taking a sign just before it if there is one."""
    if prev in "-+\u2212":
        match = AT_DIGIT.match(text, p - 1)
        if match is not None:
            return match
    return AT_DIGIT.match(text, p)


def span_end_around(spans: list[tuple[int, int]], p: int) -> int | None:
    """The end of the span holding ``p``, if any."""
    for start, end in spans:
        if start <= p < end:
            return end
    return None


def list_marker_end(text: str, p: int) -> int | None:
    """The end of a numbered-list marker ("1. " at a line start) at ``p``."""
    marker = LISTMARK_AFTER.match(text, p)
    if marker is None:
        return None
    line_start = text.rfind("\n", 0, p) + 1
    if p == line_start or text[line_start:p].isspace():
        return marker.end()
    return None


def month_date(text: str, p: int) -> re.Match[str] | None:
    """A written date whose month name stands before the digit at ``p`` ("Dec 5th")."""
    word_start = p - 2
    while word_start > 0 and (text[word_start - 1].isalpha() or text[word_start - 1] == "."):
        word_start -= 1
    word = text[word_start : p - 1].rstrip(".").lower()
    if word not in MONTHS and word != "the":
        return None
    month = MONTH_BEFORE.search(text, max(0, p - 32), p)
    if month is None:
        return None
    return MDY.match(text, month.start())


def month_date_end(text: str, p: int, prev: str, month: bool, found: list[Quantity]) -> int | None:
    """Where a month-day date ("November 29, 2026") read at the digit ``p`` ends (its
    quantity added to ``found``), or None; ``month``: the text names a month at all."""
    if not (month and prev == " " and p >= 2 and (text[p - 2].isalpha() or text[p - 2] == ".")):
        return None
    date_match = month_date(text, p)
    if date_match is None:
        return None
    quantity = read_time_or_date(date_match, "mdy")
    if quantity is not None:
        found.append(quantity)
    return date_match.end()


def join_ranges(text: str, found: list[Quantity]) -> list[Quantity]:
    """Mark both ends of ranges and scores; the first end takes the second's unit."""
    for index in range(len(found) - 1):
        left, right = found[index], found[index + 1]
        if right.start - left.end > 9:
            continue
        between = text[left.end : right.start]
        if not RANGE_JOIN.fullmatch(between):
            continue
        if between.strip().lower() == "and" and not BETWEEN_BEFORE.search(
            text, max(0, left.start - 10), left.start
        ):
            continue
        if left.kind is QuantityKind.NUMBER and right.kind is QuantityKind.TIME:
            hours = int(left.value) if left.value == left.value.to_integral() else 0
            if not 1 <= hours <= 12 or left.unit is not None:
                continue
            if right.value >= 720 and hours < 12:
                hours += 12
            left = Quantity(
                left.start, left.end, left.text, QuantityKind.TIME, Decimal(hours * 60), ONE
            )
        elif left.kind != right.kind:
            continue
        unit = left.unit if left.unit is not None else right.unit
        found[index] = left._replace(in_range=True, unit=unit)
        found[index + 1] = right._replace(in_range=True)
    return found
