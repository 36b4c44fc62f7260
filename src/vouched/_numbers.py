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

from vouched._numwords import (
    MONTH_RE,
    MONTHS,
    WEEKDAY_RE,
    WORD_TRIGGERS,
    word_number,
    word_pattern,
    word_tokens,
)
from vouched._quantity import (
    ONE,
    Quantity,
    QuantityKind,
    iso_time,
    read_time_or_date,
)
from vouched._units import CURRENCY_CODES, KNOWN_UNITS, canonical_unit, unit_of

__all__ = ["Quantity", "QuantityKind", "read_numbers"]


_NOT_ID_PREFIXES = frozenset(CURRENCY_CODES) | {
    "AM",
    "PM",
    "UTC",
    "GMT",
    "CET",
    "CEST",
    "EST",
    "EDT",
    "PST",
    "PDT",
    "BST",
    "AND",
    "TO",
    "OR",
    "AT",
    "IS",
    "OF",
    "IN",
    "ON",
    "BY",
    "FOR",
    "NO",
    "I",
}

# -- the master pattern ----------------------------------------------------------
# Alternatives are tried at each position in this order; the first that matches
# wins and the scan resumes after it, so identifiers swallow their digits.

_DIGITS = (
    r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 1,234 / 1,234.56
    r"|\d{1,3}(?:\.\d{3})+(?:,\d+)?"  # 1.234.567 / 1.234,56
    r"|\d{1,3}(?:[\u00a0\u202f\u2009']\d{3})+(?:[.,]\d+)?"  # 1 234,5 / 1'234.5
    r"|\d+(?:[.,]\d+)?"  # 21 / 21.4 / 21,4
    r")"
)


# Tried only where a digit (or a sign before one) stands: one position, not every one.
_AT_DIGIT = re.compile(
    r"(?P<isodate>(?<![\w.-])(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})"
    r"(?:[T ](?P<ih>\d{2}):(?P<imin>\d{2})(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-]))"
    r"|(?P<slashdate>(?<![\w./-])(?P<sa>\d{1,2})(?P<ssep>[/.])(?P<sb>\d{1,2})(?P=ssep)"
    r"(?P<sy>\d{4}|\d{2})(?![\w./-]))"
    r"|(?P<dmy>(?<![\w.-])(?P<dd>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+"
    r"(?P<dm>" + MONTH_RE + r")(?:,?\s+(?P<dyr>\d{4}))?(?![\w-]))"
    r"|(?P<ipver>(?<![\w.])\d+(?:\.\d+){2,}(?![\w.]*\d))"
    r"|(?P<frac>(?<![\w/.])\d{1,4}/\d{1,4}(?![\w/]))"  # 24/7, 3/4
    r"|(?P<time>(?<![\w:.,])(?P<th>[01]?\d|2[0-3]):(?P<tm>[0-5]\d)(?::[0-5]\d)?(?![\d:])"
    r"(?:\s?(?P<tap>[aApP])(?:\.[mM]\.|[mM]\b))?)"
    r"|(?P<hourap>(?<![\w:.,])(?P<hh>1[0-2]|0?[1-9])\s?(?P<hap>[aApP])(?:\.[mM]\.|[mM]\b))"
    r"|(?P<num>(?<![\w.,])(?P<sign>[-+\u2212])?" + _DIGITS + r"(?![\d]))"
)
_FIRST_DIGIT = re.compile(r"\d")
_DIGIT_RUN = re.compile(r"\d+")
_DIGIT_TOKEN_END = re.compile(r"[\w./:-]*")
_CAPS_BEFORE = re.compile(r"(?<![\w])(?P<w>[A-Z]{2,5})[ \u00a0]$")
_CAPS_ID_AFTER = re.compile(r"\d+[A-Za-z]?\b(?![.,:]\d)")
_MONTH_BEFORE = re.compile(r"(?:" + WEEKDAY_RE + r")?(?<![\w])" + MONTH_RE + r"\s+(?:the\s+)?$")
_MDY = re.compile(
    WEEKDAY_RE + r"(?P<mm>" + MONTH_RE + r")\s+(?:the\s+)?(?P<md>\d{1,2})"
    r"(?:st|nd|rd|th)?(?:,?\s+(?P<myr>\d{4}))?(?![\w-])"
)
_LISTMARK_AFTER = re.compile(r"\d{1,2}[.)][ \t]")
_LIST_MARKS = frozenset(".)")
_UNIT_SIGNS = frozenset("°%")
_PLAIN_WORD_STARTS = frozenset(
    "bcdefghijklmnqrstuvwxyz"
)  # not a/p (am, pm) nor o (of)  # a list marker has one of these one or two places after its digit
_URL = re.compile(r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")

_APPROX = re.compile(
    r"(?i:(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|close\s+to"
    r"|~|\u2248|ca\.?)\s*)$"
)
_CURRENCY_BEFORE = re.compile(
    r"(?:(?P<sym>US\$|C\$|A\$|[$€£¥₹])\s?|\b(?P<code>" + "|".join(CURRENCY_CODES) + r")\s?)$"
)
_FALL_BEFORE = re.compile(
    r"(?i:\b(?:down|fell|dropped|lost|declined|decreased|shed|slipped|slid|lower)"
    r"(?:\s+by)?\s+(?:US\$|[$€£¥₹]|[A-Z]{3}\s)?)$"
)
_SIGNAL_WORDS = frozenset(
    [
        "minus",
        "negative",
        "down",
        "fell",
        "dropped",
        "lost",
        "declined",
        "decreased",
        "shed",
        "slipped",
        "slid",
        "lower",
        "about",
        "around",
        "roughly",
        "approximately",
        "approx",
        "nearly",
        "almost",
        "some",
        "close",
        "ca",
    ]
)
_CURRENCY_LEAD = frozenset("$€£¥₹")
_FALL_WORDS = frozenset(
    ["down", "fell", "dropped", "lost", "declined", "decreased", "shed", "slipped", "slid", "lower"]
)
_MINUS_WORDS = frozenset(["minus", "negative"])
# The only non-ASCII characters a case-insensitive pattern equates with ASCII letters:
# a text holding one may spell a signal word that is not among its lower-case tokens.
_FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
_MINUS_WORD_BEFORE = re.compile(r"(?i:\b(?:minus|negative)\s+)$")
_SIGNED_WORD = re.compile(r"(?i:\b(?:minus|negative)\b)")

_UNIT_AFTER = re.compile(
    r"(?P<mag>\s?(?:k|K)\b|\s(?i:thousand|million|billion|trillion|mn|bn)\b|(?<=\d)bn\b)?"
    r"(?P<unit>"
    r"\s?(?:%|(?i:percent|per\s+cent|pct)\b)"
    r"|\s?[°º˚]\s?(?:[CF]\b)?"
    r"|\s?deg[CF]\b"
    r"|\s(?i:deg(?:rees?)?)(?:\s(?:(?i:celsius|fahrenheit|centigrade)|C\b|F\b))?"
    r"|\s?(?i:km/hr?|kmh|kph|mph|m/s)\b"
    r"|\s(?i:kilomet(?:re|er)s\s+per\s+hour|miles\s+per\s+hour|met(?:re|er)s\s+per\s+second"
    r"|knots?|celsius|fahrenheit)\b"
    r"|\s?(?:US\$|[€£¥₹$])"
    r"|\s(?:" + "|".join(CURRENCY_CODES) + r")\b"
    r"|\s(?i:euros?|dollars?|pounds?|francs?|yen|rupees|sterling)\b"
    r"|\s?(?:km|mm|cm|hPa|mbar|kg|GB|MB|ms|min|mins|hrs?|h|s)\b"
    r"|\s(?i:kilomet(?:re|er)s|met(?:re|er)s|miles|mi|m|millimet(?:re|er)s"
    r"|minutes?|hours?|seconds?|sec|days?)\b"
    r"|-(?i:minute|hour|day|km|metre|meter|second|degree)\b"
    r")?"
)
_UNIT_HYPHEN = re.compile(
    r"-(?i:minute|min|hour|hr|day|km|kilomet(?:re|er)|metre|meter|mile|second|degree|percent)s?\b"
)
_SUFFIX_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
_RANGE_JOIN = re.compile(r"\s*(?:[-\u2013\u2014]|to|and|until|through)\s*")
_BETWEEN_BEFORE = re.compile(r"(?i:\b(?:between|from)\s+)$")

_MAGNITUDES = {
    "k": Decimal(1000),
    "thousand": Decimal(1000),
    "million": Decimal(10**6),
    "mn": Decimal(10**6),
    "billion": Decimal(10**9),
    "bn": Decimal(10**9),
    "trillion": Decimal(10**12),
}


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
    if tokens.isdisjoint(_SIGNAL_WORDS) and "~" not in text and "\u2248" not in text:
        return _Signals(approx=False, minus=False, fall=False, month=month)
    folds = any(c in text for c in _FOLDS_TO_ASCII)
    return _Signals(
        approx=True,
        minus=folds or not tokens.isdisjoint(_MINUS_WORDS),
        fall=folds or not tokens.isdisjoint(_FALL_WORDS),
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
    return [m.span() for m in _URL.finditer(text)]


def _skip_token(text: str, position: int) -> int:
    match = _DIGIT_TOKEN_END.match(text, position)
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
        caps = _CAPS_BEFORE.search(text, max(0, p - 7), p)
        if caps is not None and caps["w"] not in _NOT_ID_PREFIXES and caps["w"] not in names:
            ident = _CAPS_ID_AFTER.match(text, p)
            if ident is not None:
                return ident.end()
    return None


def _match_at_digit(text: str, p: int, prev: str) -> re.Match[str] | None:
    """The master pattern at ``p``, taking a sign just before it if there is one."""
    if prev in "-+\u2212":
        match = _AT_DIGIT.match(text, p - 1)
        if match is not None:
            return match
    return _AT_DIGIT.match(text, p)


def _inside(spans: list[tuple[int, int]], p: int) -> int | None:
    """The end of the span holding ``p``, if any."""
    for start, end in spans:
        if start <= p < end:
            return end
    return None


def _list_marker_end(text: str, p: int) -> int | None:
    """The end of a numbered-list marker ("1. " at a line start) at ``p``."""
    marker = _LISTMARK_AFTER.match(text, p)
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
    month = _MONTH_BEFORE.search(text, max(0, p - 32), p)
    if month is None:
        return None
    return _MDY.match(text, month.start())


def _read_digit_quantities(text: str, names: frozenset[str], signals: _Signals) -> list[Quantity]:
    found: list[Quantity] = []
    urls = _url_spans(text)
    position = 0
    search = _FIRST_DIGIT.search
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
        if (
            signals.month
            and prev == " "
            and p >= 2
            and (text[p - 2].isalpha() or text[p - 2] == ".")
        ):
            date_match = _month_date(text, p)
            if date_match is not None:
                quantity = read_time_or_date(date_match, "mdy")
                if quantity is not None:
                    found.append(quantity)
                position = date_match.end()
                continue
        if prev in " \t\n" and (
            text[p + 1 : p + 2] in _LIST_MARKS or text[p + 2 : p + 3] in _LIST_MARKS
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
                position = _DIGIT_RUN.match(text, p).end()  # type: ignore[union-attr]  # a digit
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
    end = _DIGIT_RUN.match(text, p).end()  # type: ignore[union-attr]  # p is a digit
    after = text[end : end + 2]
    if after[:1] == "." and after[1:].isdecimal():  # one decimal part, then the same test
        end = _DIGIT_RUN.match(text, end + 1).end()  # type: ignore[union-attr]  # a digit
        after = text[end : end + 2]
    first = after[:1]
    if first in _UNIT_SIGNS:
        return end
    if first == " " and after[1:] in _PLAIN_WORD_STARTS:
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
    if rest[:1] == "-" and rest[1:2].isalpha() and not _UNIT_HYPHEN.match(rest):
        skip = end + 1
        while skip < len(text) and (text[skip].isalnum() or text[skip] in "-_"):
            skip += 1
        return None, skip
    if rest and rest[0].isascii() and rest[0].isalpha():  # [A-Za-z]
        ordinal = _SUFFIX_ORDINAL.match(rest)
        unit_match = _UNIT_AFTER.match(text, end)
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
        and _MINUS_WORD_BEFORE.search(text, max(0, start - 12), start)
    ):
        negative = True
        word = _SIGNED_WORD.search(text, max(0, start - 12), start)
        if word is not None:
            start = word.start()
    if negative:
        value = -value
        alternatives = tuple(-a for a in alternatives)
    elif signals.fall and _FALL_BEFORE.search(text, max(0, start - 20), start):
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
            c in _CURRENCY_LEAD
            or c.isupper()
            or (start >= 2 and (text[start - 2] in _CURRENCY_LEAD or text[start - 2].isupper()))
        ):
            before = _CURRENCY_BEFORE.search(text, max(0, start - 5), start)
    if before is not None and not (
        before["code"] and text[before.start() - 1 : before.start()] == "/"
    ):
        unit = canonical_unit(before["sym"] or before["code"])
        start = before.start()
    after = _UNIT_AFTER.match(text, end)
    if after is not None and after.end() > end:
        magnitude = after["mag"]
        if magnitude:
            factor = _MAGNITUDES[magnitude.strip().lower()]
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
        and _APPROX.search(text, max(0, start - 16), start)
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
    if _might_follow_minus(text, start) and _MINUS_WORD_BEFORE.search(
        text, max(0, start - 12), start
    ):
        word = _SIGNED_WORD.search(text, max(0, start - 12), start)
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
        if not _RANGE_JOIN.fullmatch(between):
            continue
        if between.strip().lower() == "and" and not _BETWEEN_BEFORE.search(
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
