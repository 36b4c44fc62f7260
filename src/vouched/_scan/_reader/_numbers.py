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
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from vouched._scan._reader._patterns import (
    APPROX,
    AT_DIGIT,
    BETWEEN_BEFORE,
    CAPS_BEFORE,
    CAPS_ID_AFTER,
    CURRENCY_BEFORE,
    CURRENCY_LEAD,
    DIGIT_RUN,
    DIGIT_TOKEN_END,
    FALL_BEFORE,
    FALL_WORDS,
    FIRST_DIGIT,
    FOLDS_TO_ASCII,
    LIST_MARKS,
    LISTMARK_AFTER,
    MAGNITUDES,
    MDY,
    MINUS_WORD_BEFORE,
    MINUS_WORDS,
    MONTH_BEFORE,
    NOT_ID_PREFIXES,
    PLAIN_WORD_STARTS,
    RANGE_JOIN,
    SIGNAL_WORDS,
    SIGNED_WORD,
    SUFFIX_ORDINAL,
    UNIT_AFTER,
    UNIT_HYPHEN,
    UNIT_SIGNS,
    URL,
)
from vouched._scan._reader._quantity import (
    ONE,
    Quantity,
    QuantityKind,
    iso_time,
    read_time_or_date,
)
from vouched._scan._reader._units import KNOWN_UNITS, canonical_unit, unit_of
from vouched._scan._reader._words import (
    MONTHS,
    WORD_TRIGGERS,
    word_number,
    word_pattern,
    word_tokens,
)

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


_QUANTA = tuple(Decimal(1).scaleb(-places) for places in range(12))


def _quantum_of(digits: str) -> Decimal:
    """The step of the last shown digit of a plain decimal string."""
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1]))
    return ONE


def _parse_digits(raw: str) -> tuple[Decimal, Decimal, tuple[Decimal, ...]] | None:
    """Value, quantum and alternative readings of a digit string as written."""
    if raw.isascii():
        if raw.isdigit():
            return Decimal(raw), ONE, ()  # the common case: plain digits
        whole, dot, frac = raw.partition(".")
        if dot and whole.isdigit() and frac.isdigit() and len(frac) < len(_QUANTA):
            if len(frac) == 3 and len(whole) <= 3 and whole != "0":
                # 1.234 may be German 1234
                return Decimal(raw), _QUANTA[3], (Decimal(whole + frac),)
            return Decimal(raw), _QUANTA[len(frac)], ()
    text = raw.replace("\u00a0", "").replace("\u202f", "").replace("\u2009", "").replace("'", "")
    alternatives: list[str] = []
    if "," in text and "." in text:
        main = text.replace(",", "") if text.rfind(".") > text.rfind(",") else None
        if main is None:
            main = text.replace(".", "").replace(",", ".")
    elif "," in text:
        parts = text.split(",")
        if len(parts) > 2 or (len(parts[1]) == 3 and len(parts[0]) <= 3):
            main = text.replace(",", "")  # 1,234 (English thousands)
            if len(parts) == 2:
                alternatives.append(text.replace(",", "."))
        else:
            main = text.replace(",", ".")  # 21,4 (decimal comma)
    elif text.count(".") > 1:
        main = text.replace(".", "")  # 1.234.567
    elif "." in text:
        whole, frac = text.split(".")
        main = text
        if len(frac) == 3 and len(whole) <= 3 and whole != "0":
            alternatives.append(whole + frac)  # 1.234 may be German 1234
    else:
        main = text
    try:
        value = Decimal(main)
        alts = tuple(Decimal(a) for a in alternatives)
    except InvalidOperation:
        return None
    return value, _quantum_of(main), alts


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
    return _join_ranges(text, found)


def _merge(digits: list[Quantity], words: list[Quantity]) -> list[Quantity]:
    merged = sorted([*digits, *words], key=lambda q: (q.start, -q.end))
    kept: list[Quantity] = []
    for quantity in merged:
        if kept and quantity.start < kept[-1].end:
            continue
        kept.append(quantity)
    return kept


def _url_spans(text: str) -> list[tuple[int, int]]:
    if "://" not in text and "www." not in text and "@" not in text:
        return []
    return [m.span() for m in URL.finditer(text)]


def _skip_token(text: str, position: int) -> int:
    match = DIGIT_TOKEN_END.match(text, position)
    end = match.end() if match else position + 1
    while end > position and text[end - 1] in ".:-/":
        end -= 1  # sentence punctuation after an identifier
    return max(end, position + 1)


def _identifier_end(text: str, p: int, prev: str, names: frozenset[str]) -> int | None:
    """Where the identifier holding the digit at ``p`` ends, if it is one:
    A4, H2O, p95, COVID-19, WS-101, #12, ICE 1537, RE 7, ISO 8601."""
    if prev.isalpha() or prev in {"_", "#"}:
        return _skip_token(text, p)
    if prev in "-_/" and p >= 2 and text[p - 2].isalpha():
        return _skip_token(text, p)
    if prev in " \u00a0" and p >= 3 and text[p - 2].isupper():
        caps = CAPS_BEFORE.search(text, max(0, p - 7), p)
        if caps is not None and caps["w"] not in NOT_ID_PREFIXES and caps["w"] not in names:
            ident = CAPS_ID_AFTER.match(text, p)
            if ident is not None:
                return ident.end()
    return None


def _match_at_digit(text: str, p: int, prev: str) -> re.Match[str] | None:
    """The master pattern at ``p``, taking a sign just before it if there is one."""
    if prev in "-+\u2212":
        match = AT_DIGIT.match(text, p - 1)
        if match is not None:
            return match
    return AT_DIGIT.match(text, p)


def _inside(spans: list[tuple[int, int]], p: int) -> int | None:
    """The end of the span holding ``p``, if any."""
    for start, end in spans:
        if start <= p < end:
            return end
    return None


def _list_marker_end(text: str, p: int) -> int | None:
    """The end of a numbered-list marker ("1. " at a line start) at ``p``."""
    marker = LISTMARK_AFTER.match(text, p)
    if marker is None:
        return None
    line_start = text.rfind("\n", 0, p) + 1
    if p == line_start or text[line_start:p].isspace():
        return marker.end()
    return None


def _month_date(text: str, p: int) -> re.Match[str] | None:
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


def _month_date_end(
    text: str, p: int, prev: str, signals: _Signals, found: list[Quantity]
) -> int | None:
    """Where a month-day date ("November 29, 2026") read at the digit ``p`` ends (its
    quantity added to ``found``), or None when there is none."""
    if not (
        signals.month and prev == " " and p >= 2 and (text[p - 2].isalpha() or text[p - 2] == ".")
    ):
        return None
    date_match = _month_date(text, p)
    if date_match is None:
        return None
    quantity = read_time_or_date(date_match, "mdy")
    if quantity is not None:
        found.append(quantity)
    return date_match.end()


def _read_digit_quantities(text: str, names: frozenset[str], signals: _Signals) -> list[Quantity]:
    found: list[Quantity] = []
    urls = _url_spans(text)
    position = 0
    search = FIRST_DIGIT.search
    while True:
        digit = search(text, position)
        if digit is None:
            break
        p = digit.start()
        if urls:
            inside = _inside(urls, p)
            if inside is not None:
                position = inside
                continue
        prev = text[p - 1] if p else " "
        # After a plain space only a capital code ("ICE 1537") can make an identifier.
        if prev != " " or (p >= 3 and text[p - 2].isupper()):
            skip = _identifier_end(text, p, prev, names)
            if skip is not None:
                position = skip
                continue
        dated = _month_date_end(text, p, prev, signals, found)
        if dated is not None:
            position = dated
            continue
        if prev in " \t\n" and (
            text[p + 1 : p + 2] in LIST_MARKS or text[p + 2 : p + 3] in LIST_MARKS
        ):
            marker = _list_marker_end(text, p)
            if marker is not None:
                position = marker
                continue
        stop = _plain_number_end(text, p) if prev == " " else None
        if stop is not None:  # only the master pattern's plain-number branch could match
            quantity, position = _read_digits(text, p, stop, None, signals)
        else:
            match = _match_at_digit(text, p, prev)
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
    if sign in {"-", "+"}:
        before = text[start - 1] if start else "\n"
        if before.isalnum() or before in "-/":
            sign = None  # a hyphen after a word: not a sign
            start += 1
        else:
            prev = text[:start].rstrip()
            if prev and (prev[-1].isdigit() or prev[-1] in "%°"):
                sign = None  # "10 -12": a range dash, not a minus
                start += 1
    parsed = _parse_digits(digits)
    if parsed is None:
        return None, end
    value, quantum, alternatives = parsed
    # Letters glued to the digits: "5G", "3D" are identifiers; "12k", "5km", "3rd" are not.
    # A hyphenated compound that is not a unit ("52-week", "5-star") is a name, too.
    rest = text[end : end + 12]
    if rest[:1] == "-" and rest[1:2].isalpha() and not UNIT_HYPHEN.match(rest):
        skip = end + 1
        while skip < len(text) and (text[skip].isalnum() or text[skip] in "-_"):
            skip += 1
        return None, skip
    if rest and rest[0].isascii() and rest[0].isalpha():  # [A-Za-z]
        ordinal = SUFFIX_ORDINAL.match(rest)
        unit_match = UNIT_AFTER.match(text, end)
        if ordinal and "." not in digits and "," not in digits:
            stop = end + ordinal.end()
            raw = text[start:stop]
            return Quantity(start, stop, raw, QuantityKind.NUMBER, value, ONE, soft=True), stop
        if not (unit_match and unit_match.end() > end):
            skip = end
            while skip < len(text) and (text[skip].isalnum() or text[skip] in "-_"):
                skip += 1
            return None, skip
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
    before = None
    if start >= 1:  # a currency symbol or a capital in the two characters before
        c = text[start - 1]
        if (
            c in CURRENCY_LEAD
            or c.isupper()
            or (start >= 2 and (text[start - 2] in CURRENCY_LEAD or text[start - 2].isupper()))
        ):
            before = CURRENCY_BEFORE.search(text, max(0, start - 5), start)
    if before is not None and not (
        before["code"] and text[before.start() - 1 : before.start()] == "/"
    ):
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
    if (
        approx
        and quantum == ONE
        and _round_integer(value)
        and APPROX.search(text, max(0, start - 16), start)
    ):
        zeros = 0
        whole = abs(int(value))
        while whole and whole % 10 == 0 and zeros < 6:
            whole //= 10
            zeros += 1
        quantum = Decimal(10) ** zeros
    raw = text[start:end]
    return Quantity(
        start, end, raw, QuantityKind.NUMBER, value, quantum, unit, alternatives, soft
    ), end


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


def _join_ranges(text: str, found: list[Quantity]) -> list[Quantity]:
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
