"""The number reader's patterns and word lists (see :mod:`vouched._scan._lex._numbers`).

Compiled once at import; immutable. Kept apart so the reader's logic stays
readable.
"""

from __future__ import annotations

import re
from decimal import Decimal

from vouched._scan._lex._numwords import MONTH_RE, WEEKDAY_RE
from vouched._scan._lex._units import CURRENCY_CODES

__all__ = [
    "APPROX",
    "AT_DIGIT",
    "BETWEEN_BEFORE",
    "CAPS_BEFORE",
    "CAPS_ID_AFTER",
    "CURRENCY_BEFORE",
    "CURRENCY_LEAD",
    "DIGITS",
    "DIGIT_RUN",
    "DIGIT_TOKEN_END",
    "FALL_BEFORE",
    "FALL_WORDS",
    "FIRST_DIGIT",
    "FOLDS_TO_ASCII",
    "LISTMARK_AFTER",
    "LIST_MARKS",
    "MAGNITUDES",
    "MDY",
    "MINUS_WORDS",
    "MINUS_WORD_BEFORE",
    "MONTH_BEFORE",
    "NOT_ID_PREFIXES",
    "PLAIN_WORD_STARTS",
    "RANGE_JOIN",
    "SIGNAL_WORDS",
    "SIGNED_WORD",
    "SUFFIX_ORDINAL",
    "UNIT_AFTER",
    "UNIT_HYPHEN",
    "UNIT_SIGNS",
    "URL",
]

NOT_ID_PREFIXES = frozenset(CURRENCY_CODES) | {
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

DIGITS = (
    r"(?:\d+(?:\.\d+)?[eE][-+]?\d+(?![\w.])"  # 9.9e1 / 2.14E+01 / 1e999999999
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 1,234 / 1,234.56
    r"|\d{1,3}(?:\.\d{3})+(?:,\d+)?"  # 1.234.567 / 1.234,56
    r"|\d{1,3}(?:[\u00a0\u202f\u2009']\d{3})+(?:[.,]\d+)?"  # 1 234,5 / 1'234.5
    r"|\d+(?:[.,]\d+)?"  # 21 / 21.4 / 21,4
    r")"
)


# Tried only where a digit (or a sign before one) stands: one position, not every one.
AT_DIGIT = re.compile(
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
    r"|(?P<num>(?<![\w.,])(?P<sign>[-+\u2212])?" + DIGITS + r"(?![\d]))"
)
FIRST_DIGIT = re.compile(r"\d")
DIGIT_RUN = re.compile(r"\d+")
DIGIT_TOKEN_END = re.compile(r"[\w./:-]*")
CAPS_BEFORE = re.compile(r"(?<![\w])(?P<w>[A-Z]{2,5})[ \u00a0]$")
CAPS_ID_AFTER = re.compile(r"\d+[A-Za-z]?\b(?![.,:]\d)")
MONTH_BEFORE = re.compile(r"(?:" + WEEKDAY_RE + r")?(?<![\w])" + MONTH_RE + r"\s+(?:the\s+)?$")
MDY = re.compile(
    WEEKDAY_RE + r"(?P<mm>" + MONTH_RE + r")\s+(?:the\s+)?(?P<md>\d{1,2})"
    r"(?:st|nd|rd|th)?(?:,?\s+(?P<myr>\d{4}))?(?![\w-])"
)
LISTMARK_AFTER = re.compile(r"\d{1,2}[.)][ \t]")
LIST_MARKS = frozenset(".)")
UNIT_SIGNS = frozenset("°%")
PLAIN_WORD_STARTS = frozenset(
    "bcdefghijklmnqrstuvwxyz"
)  # not a/p (am, pm) nor o (of)  # a list marker has one of these one or two places after its digit
URL = re.compile(r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")

APPROX = re.compile(
    r"(?i:(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|close\s+to"
    r"|~|\u2248|ca\.?)\s*)$"
)
CURRENCY_BEFORE = re.compile(
    r"(?:(?P<sym>US\$|C\$|A\$|[$€£¥₹])\s?|\b(?P<code>" + "|".join(CURRENCY_CODES) + r")\s?)$"
)
FALL_BEFORE = re.compile(
    r"(?i:\b(?:down|fell|dropped|lost|declined|decreased|shed|slipped|slid|lower)"
    r"(?:\s+by)?\s+(?:US\$|[$€£¥₹]|[A-Z]{3}\s)?)$"
)
SIGNAL_WORDS = frozenset(
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
CURRENCY_LEAD = frozenset("$€£¥₹")
FALL_WORDS = frozenset(
    ["down", "fell", "dropped", "lost", "declined", "decreased", "shed", "slipped", "slid", "lower"]
)
MINUS_WORDS = frozenset(["minus", "negative"])
# The only non-ASCII characters a case-insensitive pattern equates with ASCII letters:
# a text holding one may spell a signal word that is not among its lower-case tokens.
FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
MINUS_WORD_BEFORE = re.compile(r"(?i:\b(?:minus|negative)\s+)$")
SIGNED_WORD = re.compile(r"(?i:\b(?:minus|negative)\b)")

UNIT_AFTER = re.compile(
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
    r"|\s(?i:euros?|dollars?|pounds?|francs?|yen|rupees|sterling"
    r"|kron(?:a|or)|zlot(?:ys?|ych)|korunas?|forints?|yuan)\b"
    r"|\s?(?:km|mm|cm|hPa|mbar|kg|GB|MB|ms|min|mins|hrs?|h|s|g|mg|lbs?|oz|ml|inHg)\b"
    r"|\s(?i:kilomet(?:re|er)s|met(?:re|er)s|miles|mi|m|millimet(?:re|er)s"
    r"|minutes?|hours?|seconds?|sec|days?|years?|grams?|kilograms?|inch(?:es)?|feet"
    r"|ounces?|lit(?:re|er)s?|gallons?)\b"
    r"|-(?i:minute|hour|day|year|km|metre|meter|second|degree)\b"
    r"|['\u2019\u2032](?![\w'\u2019])"  # a match minute right after its digits: "61'"
    r")?"
)
# A match minute before its added time, "90+3 minute", "90th +6 minute", "(90+2')": the
# 90 is a minute too (the minutes added follow it, with the minute word or prime).
MINUTE_PLUS = re.compile(
    r"\s?\+\s?\d{1,2}(?:\s?['\u2019\u2032]|(?:st|nd|rd|th)?\s?(?i:min(?:ute)?s?\b|-minute))"
)
UNIT_HYPHEN = re.compile(
    r"-(?i:minute|min|hour|hr|day|year|km|kilomet(?:re|er)|metre|meter|mile|second|degree"
    r"|percent)s?\b"
)
SUFFIX_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b")
RANGE_JOIN = re.compile(r"\s*(?:[-\u2013\u2014]|to|and|until|through)\s*")
BETWEEN_BEFORE = re.compile(r"(?i:\b(?:between|from)\s+)$")

MAGNITUDES = {
    "k": Decimal(1000),
    "thousand": Decimal(1000),
    "million": Decimal(10**6),
    "mn": Decimal(10**6),
    "billion": Decimal(10**9),
    "bn": Decimal(10**9),
    "trillion": Decimal(10**12),
}
