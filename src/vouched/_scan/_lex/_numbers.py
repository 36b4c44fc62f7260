"""The number reader: every quantity a reader would see in a text, with its span.

``read_numbers(text)`` returns :class:`Quantity` values in text order. It reads

- digits with thousands separators (``1,234``, ``1.234,5``, ``1 234``) and
  decimals (``21.4``, ``21,4``), signs (``-5``, U+2212 minus, ``minus 5``), magnitudes
  (``1.2 million``, ``12k``);
- units: percent, temperature (°C, °F, "degrees"), speed (km/h, mph, m/s, knots),
  currencies (symbols, ISO codes and words, before or after the number) and a few
  plain units (km, mm, hPa, minutes, hours ...);
- English number words ("sixty-three", "one hundred and five", "a dozen");
- times (``14:05``, ``2 pm``, ``2:30 p.m.``), ISO and written dates
  (``2026-11-29``, ``29 November 2026``, ``Dec 3rd``, ``the third of December``);
- ranges and scores (``10-12``, ``10 to 12``, ``107-99``): both ends are read.

It keeps identifiers whole and does not read them as quantities (``COVID-19``,
``A4``, ``ICE 1537``, ``#12``, ``10.0.0.1``, URLs), never reads part of a digit
run (``8443`` is never ``443``), tells list bullets and hyphens from minus signs,
skips numbered-list markers, and does not take ordinal words ("First, ...") for
claims. Pure and deterministic.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple

from vouched._scan._lex._numforms import with_forms
from vouched._scan._lex._numwords import (
    MONTHS,
    WORD_TRIGGERS,
    word_number,
    word_pattern,
    word_tokens,
)
from vouched._scan._lex._patterns import (
    APPROX,
    CURRENCY_BEFORE,
    CURRENCY_LEAD,
    DIGIT_RUN,
    FALL_BEFORE,
    FALL_WORDS,
    FIRST_DIGIT,
    FOLDS_TO_ASCII,
    LIST_MARKS,
    MAGNITUDES,
    MINUS_WORD_BEFORE,
    MINUS_WORDS,
    MINUTE_PLUS,
    PLAIN_WORD_STARTS,
    SIGNAL_WORDS,
    SIGNED_WORD,
    SUFFIX_ORDINAL,
    UNIT_AFTER,
    UNIT_HYPHEN,
    UNIT_SIGNS,
)
from vouched._scan._lex._quantities import (
    ONE,
    Quantity,
    QuantityKind,
    iso_time,
    parse_digits,
    read_time_or_date,
)
from vouched._scan._lex._skips import (
    identifier_end,
    join_ranges,
    list_marker_end,
    match_at_digit,
    month_date_end,
    span_end_around,
    url_spans,
)
from vouched._scan._lex._units import KNOWN_UNITS, canonical_unit, unit_of
from vouched._scan._lex._vocabulary import ZONE_AFTER, ZONE_HOURS

__all__ = ["Quantity", "QuantityKind", "read_numbers"]


class _Signals(NamedTuple):
    """Which look-backs a text needs: approximations ("about 40"), minus words
    ("minus 5") and falls ("down $2.18"). Each is a superset of what its
    look-back pattern can match, so skipping it never changes a reading."""

    approx: bool
    minus: bool
    fall: bool
    month: bool  # a month name ("Dec 5th"): its pattern is case-sensitive, so a token


def _signals(text: str, tokens: set[str]) -> _Signals:
    month = not tokens.isdisjoint(MONTHS)
    # Words that change a number's reading (minus, down, about ...): most texts have none.
    if tokens.isdisjoint(SIGNAL_WORDS) and "~" not in text and "\u2248" not in text:
        return _Signals(approx=False, minus=False, fall=False, month=month)
    folds = any(c in text for c in FOLDS_TO_ASCII)
    return _Signals(
        approx=True,
        minus=folds or not tokens.isdisjoint(MINUS_WORDS),
        fall=folds or not tokens.isdisjoint(FALL_WORDS),
        month=month,
    )


_WORD_TOKEN = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def read_numbers(
    text: str, names: frozenset[str] = frozenset(), tokens: set[str] | None = None
) -> list[Quantity]:
    """Every quantity in ``text``, in order, with ``[start, end)`` spans.

    ``names``: capitalised words the caller knows as names (a ticker "ACME"),
    so "ACME 178" is a name and a number, not one identifier like "ICE 1537".
    ``tokens``: the text's lower-case words if the caller has them already.
    """
    if tokens is None:
        tokens = word_tokens(text.lower())
    found = _read_digit_quantities(text, names, _signals(text, tokens))
    present = tokens & WORD_TRIGGERS
    if present:
        words = _read_word_quantities(text, frozenset(present))
        if words:
            found = _merge(found, words)
    return join_ranges(text, with_forms(text, with_zones(text, found)))


def with_zones(text: str, found: list[Quantity]) -> list[Quantity]:
    """A time followed by a time-zone abbreviation ("16:00 CET") may also be read as the
    same instant in UTC (15:00), the zone facts' observation times are written in."""
    if not any(q.kind is QuantityKind.TIME for q in found):
        return found
    out = []
    for q in found:
        zone = ZONE_AFTER.match(text, q.end) if q.kind is QuantityKind.TIME else None
        if zone is None:
            out.append(q)
            continue
        shift = Decimal(ZONE_HOURS[zone.group(1).lower()] * 60)
        utc = [u for u in ((v - shift) % 1440 for v in q.values) if u not in q.values]
        out.append(q._replace(alternatives=(*q.alternatives, *utc)))
    return out


def _merge(digits: list[Quantity], words: list[Quantity]) -> list[Quantity]:
    merged = sorted([*digits, *words], key=lambda q: (q.start, -q.end))
    kept: list[Quantity] = []
    for quantity in merged:
        if kept and quantity.start < kept[-1].end:
            continue
        kept.append(quantity)
    return kept


def _read_digit_quantities(text: str, names: frozenset[str], signals: _Signals) -> list[Quantity]:
    found: list[Quantity] = []
    urls = url_spans(text)
    position = 0
    search = FIRST_DIGIT.search
    while True:
        digit = search(text, position)
        if digit is None:
            break
        p = digit.start()
        if urls:
            inside = span_end_around(urls, p)
            if inside is not None:
                position = inside
                continue
        prev = text[p - 1] if p else " "
        # After a plain space only a capital code ("ICE 1537") can make an identifier.
        if prev != " " or (p >= 3 and text[p - 2].isupper()):
            skip = identifier_end(text, p, prev, names)
            if skip is not None:
                position = skip
                continue
        dated = month_date_end(text, p, prev, signals.month, found)
        if dated is not None:
            position = dated
            continue
        if prev in " \t\n" and (
            text[p + 1 : p + 2] in LIST_MARKS or text[p + 2 : p + 3] in LIST_MARKS
        ):
            marker = list_marker_end(text, p)
            if marker is not None:
                position = marker
                continue
        stop = _plain_number_end(text, p) if prev == " " else None
        if stop is not None:  # only the master pattern's plain-number branch could match
            quantity, position = _read_digits(text, p, stop, None, signals)
        else:
            match = match_at_digit(text, p, prev)
            if match is None:
                position = DIGIT_RUN.match(text, p).end()  # type: ignore[union-attr]  # a digit
                continue
            if match.lastgroup != "num":
                position = match.end()
                _read_dated(text, match, match.lastgroup, found)
                continue
            quantity, position = _read_digits(
                text, match.start(), match.end(), match["sign"], signals
            )
        if quantity is not None:
            found.append(quantity)
    return found


def _read_dated(text: str, match: re.Match[str], group: str | None, found: list[Quantity]) -> None:
    """A time or date the master pattern matched (identifiers and fractions are skipped)."""
    if group in {"ipver", "frac"}:
        return
    quantity = read_time_or_date(match, group)
    if quantity is not None:
        found.append(quantity)
        if group == "isodate" and match["ih"]:
            found.append(iso_time(text, match))


def _read_word_quantities(text: str, present: frozenset[str]) -> list[Quantity]:
    found: list[Quantity] = []
    pattern = word_pattern(present)
    position = 0
    while True:
        match = pattern.search(text, position)
        if match is None:
            break
        position = match.end()
        if match.lastgroup == "orddate":
            quantity = read_time_or_date(match, "orddate")
        else:
            quantity, position = _read_word(text, match)
        if quantity is not None:
            found.append(quantity)
    return found


def _plain_number_end(text: str, p: int) -> int | None:
    """Where a plain number ("42", "13.9") starting at ``p`` (after a space) ends, when
    what follows it rules out every other branch of the master pattern (dates, times,
    versions, fractions, hours, grouped digits): a unit sign (``°``, ``%``) or a space
    and a lower-case letter other than a, o, p ("42 km/h")."""
    end = DIGIT_RUN.match(text, p).end()  # type: ignore[union-attr]  # p is a digit
    after = text[end : end + 2]
    if after[:1] == "." and after[1:].isdecimal():  # one decimal part, then the same test
        end = DIGIT_RUN.match(text, end + 1).end()  # type: ignore[union-attr]  # a digit
        after = text[end : end + 2]
    first = after[:1]
    if first in UNIT_SIGNS:
        return end
    if first == " " and after[1:] in PLAIN_WORD_STARTS:
        return end
    return None


def _read_digits(
    text: str, start: int, end: int, sign: str | None, signals: _Signals
) -> tuple[Quantity | None, int]:
    """The number ``text[start:end]`` (a sign first if ``sign``) the master pattern read."""
    digits = text[start + (1 if sign else 0) : end]
    if sign in {"-", "+"} and not _signs(text, start):
        sign = None  # a hyphen after a word, a range dash ("10 -12"): not a sign
        start += 1
    parsed = parse_digits(digits)
    if parsed is None:
        return None, end
    value, quantum, alternatives = parsed
    rest = text[end : end + 12]
    if rest[:1] == "-" or (rest and rest[0].isascii() and rest[0].isalpha()):  # [A-Za-z]
        glued = _glued(text, start, end, digits, value)
        if glued is not None:
            return glued
    negative = sign in {"-", "\u2212"}
    if (
        not sign
        and signals.minus
        and _might_follow_minus(text, start)
        and MINUS_WORD_BEFORE.search(text, max(0, start - 12), start)
    ):
        negative = True
        word = SIGNED_WORD.search(text, max(0, start - 12), start)
        if word is not None:
            start = word.start()
    if negative:
        value = -value
        alternatives = tuple(-a for a in alternatives)
    elif signals.fall and FALL_BEFORE.search(text, max(0, start - 20), start):
        alternatives = (*alternatives, -value)  # "down $2.18" states a change of -2.18
    # Only a round integer ("about 40") reads as approximate: its last digit is 0.
    approx = signals.approx and digits[-1] == "0"
    return _finish(text, start, end, value, quantum, alternatives, False, approx)


def _signs(text: str, start: int) -> bool:
    """Is the "-" or "+" at ``start`` a sign? Not after a word ("COVID-19", "a/-3") nor
    after a number ("10 -12": a range dash)."""
    before = text[start - 1] if start else "\n"
    if before.isalnum() or before in "-/":
        return False
    prev = _last_visible(text, start)
    return not (prev.isdigit() or prev in {"%", "°"})


def _glued(
    text: str, start: int, end: int, digits: str, value: Decimal
) -> tuple[Quantity | None, int] | None:
    """Letters glued to the digits ``text[start:end]``: "5G", "3D" are identifiers, and so
    is a hyphenated compound that is not a unit ("52-week", "5-star"), read past; "3rd"
    is an ordinal; "12k", "5km" are a unit's (``None``: read on)."""
    rest = text[end : end + 12]
    if rest[:1] == "-":
        if not rest[1:2].isalpha() or UNIT_HYPHEN.match(rest):
            return None
        return None, _past_word(text, end + 1)
    ordinal = SUFFIX_ORDINAL.match(rest)
    if ordinal and "." not in digits and "," not in digits:
        stop = end + ordinal.end()
        raw = text[start:stop]
        unit = "min" if MINUTE_PLUS.match(text, stop) else None  # "the 90th +6 minute"
        return Quantity(start, stop, raw, QuantityKind.NUMBER, value, ONE, unit, soft=True), stop
    unit_match = UNIT_AFTER.match(text, end)
    if not (unit_match and unit_match.end() > end):
        return None, _past_word(text, end)
    return None


def _past_word(text: str, position: int) -> int:
    """The end of the identifier running on from ``position``."""
    while position < len(text) and (text[position].isalnum() or text[position] in "-_"):
        position += 1
    return position


def _last_visible(text: str, end: int) -> str:
    """The last character before ``end`` that is not whitespace ("" if none): looked for
    backwards, not by copying ``text[:end]`` (quadratic over a text of signed numbers)."""
    i = end - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return text[i] if i >= 0 else ""


def _round_integer(value: Decimal) -> bool:
    """A non-zero integer ending in 0 (1,200; 40), read from its digits (no arithmetic
    that could overflow the decimal context on absurdly long numbers)."""
    _sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int) or exponent < 0 or (exponent == 0 and digits[-1] != 0):
        return False
    return any(digits)


def _might_follow_minus(text: str, start: int) -> bool:
    window = text[max(0, start - 10) : start].lower()
    return "minus" in window or "negative" in window


def _finish(  # noqa: PLR0917 - positional on the reader's hot path (keyword passing costs)
    text: str,
    start: int,
    end: int,
    value: Decimal,
    quantum: Decimal,
    alternatives: tuple[Decimal, ...] = (),
    soft: bool = True,
    approx: bool = True,
) -> tuple[Quantity, int]:
    unit: str | None = None
    before = _currency_before(text, start) if start >= 1 else None
    if before is not None:
        unit = canonical_unit(before["sym"] or before["code"])
        start = before.start()
    after = UNIT_AFTER.match(text, end)
    if after is not None and after.end() > end:
        magnitude = after["mag"]
        if magnitude:
            factor = MAGNITUDES[magnitude.strip().lower()]
            value *= factor
            quantum *= factor
            alternatives = tuple(a * factor for a in alternatives)
        unit_text = after["unit"]
        if unit_text:
            spelled_unit = unit_of(unit_text)
            if unit is None or spelled_unit in KNOWN_UNITS:
                unit = spelled_unit
        end = after.end()
    elif unit is None and MINUTE_PLUS.match(text, end):  # "in the 90+3 minute"
        unit = "min"
    if (
        approx
        and quantum == ONE
        and _round_integer(value)
        and APPROX.search(text, max(0, start - 16), start)
    ):
        quantum = _round_quantum(value)
    raw = text[start:end]
    return Quantity(
        start, end, raw, QuantityKind.NUMBER, value, quantum, unit, alternatives, soft
    ), end


def _currency_before(text: str, start: int) -> re.Match[str] | None:
    """The currency symbol or code written right before the number at ``start`` ("$",
    "EUR "), looked for only when one of the two characters before is a currency lead or
    a capital; a code after "/" ("USD/EUR 1.08") is a pair's, not this number's."""
    c = text[start - 1]
    if not (
        c in CURRENCY_LEAD
        or c.isupper()
        or (start >= 2 and (text[start - 2] in CURRENCY_LEAD or text[start - 2].isupper()))
    ):
        return None
    before = CURRENCY_BEFORE.search(text, max(0, start - 5), start)
    if before is not None and before["code"] and text[before.start() - 1 : before.start()] == "/":
        return None
    return before


def _round_quantum(value: Decimal) -> Decimal:
    """The precision an approximate round integer states: "about 40" to the ten, "about
    1,200" to the hundred (at most a million)."""
    zeros = 0
    whole = abs(int(value))
    while whole and whole % 10 == 0 and zeros < 6:
        whole //= 10
        zeros += 1
    return Decimal(10) ** zeros


def _read_word(text: str, match: re.Match[str]) -> tuple[Quantity | None, int]:
    start = match.start()
    head = " ".join(match.group().lower().split())
    if head.startswith("half"):
        return _finish(text, start, match.end(), Decimal(6), ONE, soft=True)
    if head.startswith(("a ", "an ")):
        if head.endswith("dozen"):
            return _finish(text, start, match.end(), Decimal(12), ONE, soft=True)
        words, spans = ["one"], [(start, start)]
        position = match.end() - len(head.split()[-1])
    else:
        words, spans = [], []
        position = start
    # Collect the following word tokens (separated by single spaces).
    while len(words) < 12:
        token = _WORD_TOKEN.match(text, position)
        if token is None:
            break
        words.append(token.group().lower())
        spans.append(token.span())
        nxt = token.end()
        if nxt + 1 < len(text) and text[nxt] == " " and text[nxt + 1].isalpha():
            position = nxt + 1
        else:
            break
    parsed = word_number(words)
    if parsed is None:
        return None, match.end()
    value, used = parsed
    stop = spans[used - 1][1]
    if used < len(words) and words[used] == "dozen":
        value *= 12
        stop = spans[used][1]
    number = Decimal(value)
    if _might_follow_minus(text, start) and MINUS_WORD_BEFORE.search(
        text, max(0, start - 12), start
    ):
        word = SIGNED_WORD.search(text, max(0, start - 12), start)
        if word is not None:
            start = word.start()
            number = -number
    return _finish(text, start, stop, number, ONE, soft=abs(value) <= 12)
