"""Text as a reader sees it, for redaction: :func:`fold` and :func:`read_amounts`.

:func:`fold` maps a text to the letters a reader recognises, with every folded
character tied to the span of the original it came from: compatibility forms
to their plain letters and digits (fullwidth A, superscript 8, the
roman-numeral signs), digits of every script to ASCII digits, case folded,
accents and other combining marks dropped, Unicode confusables (a Cyrillic
e, a Greek o) to the Latin letter they look like, URL escapes
(``%20``) decoded, and invisible format characters (a zero-width space, a
soft hyphen) dropped. A match in the folded text is a span of the original.

:func:`read_amounts` reads, in folded text, the numbers the scanner's reader
does not: scientific (``8.5e4``, ``.85e5``, ``9,9e1``), hexadecimal, binary and octal
literals (``0x14c08``, ``0b10100110000001000``, ``0o246010``), roman numerals
(``lxxxv``), a decimal without its leading zero (``.99``), vulgar fractions (``½``),
digits grouped by any separator, each with a scale word or suffix (``k``, ``grand``,
``large``, ``hundred``, ``million``, ``lakh``, German ``Tausend``, ``Tsd.``,
``Millionen`` ...), and Chinese numerals (``八万五千``, ``8万5千``, ``8.5万``). The
scanner's reader reads the same forms (:mod:`vouched._scan._lex._numforms`; a test
holds the two to the same values).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from functools import lru_cache

__all__ = ["Folded", "fold", "read_amounts", "scale_after"]

# Letters that look like Latin ones (after case folding), from Unicode's
# confusables list: the Cyrillic and Greek look-alikes of a-z and a few Latin
# letters with a stroke that no decomposition removes.
CONFUSABLES: dict[str, str] = {
    "\u0430": "a",  # cyrillic small letter a
    "\u0432": "b",  # cyrillic small letter ve
    "\u0441": "c",  # cyrillic small letter es
    "\u0501": "d",  # cyrillic small letter komi de
    "\u0435": "e",  # cyrillic small letter ie
    "\u0451": "e",  # cyrillic small letter io
    "\u04bb": "h",  # cyrillic small letter shha
    "\u043d": "h",  # cyrillic small letter en
    "\u0456": "i",  # cyrillic small letter byelorussian-ukrainian i
    "\u0457": "i",  # cyrillic small letter yi
    "\u0458": "j",  # cyrillic small letter je
    "\u043a": "k",  # cyrillic small letter ka
    "\u04cf": "l",  # cyrillic small letter palochka
    "\u043c": "m",  # cyrillic small letter em
    "\u043e": "o",  # cyrillic small letter o
    "\u0440": "p",  # cyrillic small letter er
    "\u051b": "q",  # cyrillic small letter qa
    "\u0455": "s",  # cyrillic small letter dze
    "\u0442": "t",  # cyrillic small letter te
    "\u0443": "y",  # cyrillic small letter u
    "\u0445": "x",  # cyrillic small letter ha
    "\u051d": "w",  # cyrillic small letter we
    "\u04af": "y",  # cyrillic small letter straight u
    "\u0433": "r",  # cyrillic small letter ghe
    "\u03b1": "a",  # greek small letter alpha
    "\u03b2": "b",  # greek small letter beta
    "\u03b5": "e",  # greek small letter epsilon
    "\u03b7": "n",  # greek small letter eta
    "\u03b9": "i",  # greek small letter iota
    "\u03ba": "k",  # greek small letter kappa
    "\u03bd": "v",  # greek small letter nu
    "\u03bf": "o",  # greek small letter omicron
    "\u03c1": "p",  # greek small letter rho
    "\u03c4": "t",  # greek small letter tau
    "\u03c5": "u",  # greek small letter upsilon
    "\u03c7": "x",  # greek small letter chi
    "\u03c9": "w",  # greek small letter omega
    "\u03f2": "c",  # greek lunate sigma symbol
    "\u03f3": "j",  # greek letter yot
    "\u0131": "i",  # latin small letter dotless i
    "\u0237": "j",  # latin small letter dotless j
    "\u0142": "l",  # latin small letter l with stroke
    "\u00f8": "o",  # latin small letter o with stroke
    "\u0111": "d",  # latin small letter d with stroke
    "\u0127": "h",  # latin small letter h with stroke
    "\u0167": "t",  # latin small letter t with stroke
    "\u0185": "b",  # latin small letter tone six
    "\u0251": "a",  # latin small letter alpha
    "\u0261": "g",  # latin small letter script g
    "\u0269": "i",  # latin small letter iota
    "\u026a": "i",  # latin letter small capital i
    "\u029f": "l",  # latin letter small capital l
    "\u0274": "n",  # latin letter small capital n
    "\u0280": "r",  # latin letter small capital r
    "\ua731": "s",  # latin letter small capital s
    "\u2018": "'",  # left single quotation mark
    "\u2019": "'",  # right single quotation mark
    "\u02bc": "'",  # modifier letter apostrophe
    "\u2032": "'",  # prime
    "\u0060": "'",  # grave accent
    "\u00b4": "'",  # acute accent
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2015": "-",  # horizontal bar
    "\u2212": "-",  # minus sign
    "\uff0c": ",",  # fullwidth comma
    "\u3001": ",",  # ideographic comma
    "\u066b": ".",  # arabic decimal separator
    "\u066c": ",",  # arabic thousands separator
    "\u00b7": ".",  # middle dot
}

# Scale words and suffixes a reader multiplies by (folded: lower case).
SCALES: dict[str, Decimal] = {
    "k": Decimal(1000), "thousand": Decimal(1000), "grand": Decimal(1000),
    "thou": Decimal(1000), "hundred": Decimal(100), "m": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6, "mio": Decimal(10) ** 6, "million": Decimal(10) ** 6,
    "b": Decimal(10) ** 9, "bn": Decimal(10) ** 9, "billion": Decimal(10) ** 9,
    "lakh": Decimal(10) ** 5, "lakhs": Decimal(10) ** 5, "crore": Decimal(10) ** 7,
    "myriad": Decimal(10) ** 4, "dozen": Decimal(12),
    "large": Decimal(1000),  # US slang: "85 large" is 85,000 dollars
    # German: "85 Tausend", "85 Tsd.", "1,2 Millionen", "0,85 Mrd."
    "tausend": Decimal(1000), "tsd": Decimal(1000), "hundert": Decimal(100),
    "millionen": Decimal(10) ** 6, "milliarde": Decimal(10) ** 9,
    "milliarden": Decimal(10) ** 9, "mrd": Decimal(10) ** 9,
}  # fmt: skip

# Chinese numerals: digits, and the units that multiply what comes before them.
CJK_DIGITS = {"零": 0, "\u3007": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
CJK_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
CJK_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}

_SEPARATOR = r"[ ,.'_]"
_SCALE = "|".join(sorted(SCALES, key=len, reverse=True))
_AMOUNT = re.compile(
    rf"""(?<![\w.])(?:
        (?P<hex>0x[0-9a-f]+)
      | (?P<bin>0b[01]+)
      | (?P<oct>0o[0-7]+)
      | (?P<fraction>\d*\d\u2044\d+)
      | (?P<roman>[ivxlcdm]+)
      | (?P<digits>\d+(?:{_SEPARATOR}\d{{2,3}})*(?:[.,]\d+)?|\.\d+)(?:e(?P<exp>[+-]?\d{{1,3}}))?
    )(?:[ ]?-?(?P<scale>{_SCALE}))?(?!\w)""",
    re.VERBOSE,
)
_CJK_CHARS = "".join([*CJK_DIGITS, *CJK_UNITS, *CJK_BIG])
_CJK = re.compile(rf"(?:[0-9.]*[{_CJK_CHARS}])+[0-9]*")  # at least one Chinese numeral
_ROMAN = re.compile(r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_SCALE_AFTER = re.compile(rf"[ ]?-?({_SCALE})(?!\w)")
_URL_ESCAPES = re.compile(r"(?:%[0-9a-fA-F]{2})+")


class Folded:
    """A folded text and, per folded character, the original span it came from."""

    __slots__ = ("ends", "starts", "text")

    def __init__(self, text: str, starts: list[int], ends: list[int]) -> None:
        self.text = text
        self.starts = starts
        self.ends = ends

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the folded span ``[start, end)`` (not empty)."""
        return self.starts[start], self.ends[end - 1]


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cf" or char == "\u034f" or "\ufe00" <= char <= "\ufe0f":
        return ""  # invisible: a zero-width space, a soft hyphen, a direction mark
    if category == "Nd":
        return str(unicodedata.digit(char))
    out = []
    for part in unicodedata.normalize("NFKD", char).casefold():
        kind = unicodedata.category(part)
        if kind == "Mn":
            continue  # an accent, a combining mark
        out.append(str(unicodedata.digit(part)) if kind == "Nd" else CONFUSABLES.get(part, part))
    return "".join(out)


def fold(text: str) -> Folded:
    """``text`` as a reader recognises it (see the module docstring)."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pieces = _decoded(text)
    for start, end, piece in pieces:
        for char in piece:
            for out in _fold_char(char):
                chars.append(out)
                starts.append(start)
                ends.append(end)
    return Folded("".join(chars), starts, ends)


def _decoded(text: str) -> Iterator[tuple[int, int, str]]:
    """``(start, end, text)`` pieces of ``text``: a run of URL escapes decoded
    (as UTF-8) and spanning the whole run, every other character alone."""
    at = 0
    for match in _URL_ESCAPES.finditer(text):
        for i in range(at, match.start()):
            yield i, i + 1, text[i]
        raw = bytes(int(match.group(0)[i + 1 : i + 3], 16) for i in range(0, len(match[0]), 3))
        yield match.start(), match.end(), raw.decode("utf-8", "replace")
        at = match.end()
    for i in range(at, len(text)):
        yield i, i + 1, text[i]


def scale_after(folded: str, end: int) -> tuple[int, Decimal] | None:
    """A scale word right after ``end`` (``grand``, ``hundred``): its end and factor."""
    match = _SCALE_AFTER.match(folded, end)
    if match is None:
        return None
    return match.end(), SCALES[match.group(1)]


def read_amounts(folded: str) -> Iterator[tuple[int, int, tuple[Decimal, ...], Decimal]]:
    """``(start, end, readings, quantum)`` per number in ``folded`` (see the module
    docstring): every way a reader could take it (``85.000`` is 85000 or 85), and
    the step of its last digit shown, scaled."""
    for match in _AMOUNT.finditer(folded):
        scale = SCALES[match["scale"]] if match["scale"] else Decimal(1)
        literal = match["hex"] or match["bin"] or match["oct"]
        if literal:  # 0x14c08, 0b10100110000001000, 0o246010: Python's literals
            readings, quantum = [Decimal(int(literal, 0))], Decimal(1)
        elif match["fraction"]:
            readings, quantum = _fraction(match["fraction"]), Decimal("0.001")
            if not readings:
                continue
        elif match["roman"]:
            value = _roman(match["roman"])
            if value is None:
                continue
            readings, quantum = [Decimal(value)], Decimal(1)
        else:
            readings, quantum = _digit_readings(match["digits"], match["exp"])
            if not readings:
                continue
        yield match.start(), match.end(), tuple(r * scale for r in readings), quantum * scale
    for match in _CJK.finditer(folded):
        cjk = _cjk_value(match.group(0))
        if cjk is not None:
            yield match.start(), match.end(), (cjk,), Decimal(1)


def _cjk_value(text: str) -> Decimal | None:
    """A Chinese numeral (八万五千, 8万5千, 8.5万, 十二): its value, or None."""
    total, section, number = Decimal(0), Decimal(0), Decimal(0)
    digits = ""
    for char in text:
        if char.isdigit() or char == ".":
            digits += char
            continue
        if digits:
            try:
                number = Decimal(digits)
            except InvalidOperation:
                return None
            digits = ""
        if char in CJK_DIGITS:
            number = Decimal(CJK_DIGITS[char])
        elif char in CJK_UNITS:
            section += (number or 1) * CJK_UNITS[char]
            number = Decimal(0)
        elif char in CJK_BIG:
            total += (section + number) * CJK_BIG[char]
            section = number = Decimal(0)
    if digits:
        try:
            number = Decimal(digits)
        except InvalidOperation:
            return None
    value = total + section + number
    return value or None


def _fraction(text: str) -> list[Decimal]:
    """A vulgar fraction as folding writes it ("1\u20442" for ½, "21\u20442" for 2½: a
    whole number's last digit is the numerator's only when the fraction is improper)."""
    top, bottom = text.split("\u2044")
    if int(bottom) == 0:
        return []
    readings = [(Decimal(top) / Decimal(bottom)).quantize(Decimal("0.001"))]
    if len(top) > 1:  # "2½" folds to "21/2": 2 and a half
        whole = Decimal(top[:-1]) + Decimal(top[-1]) / Decimal(bottom)
        readings.insert(0, whole.quantize(Decimal("0.001")))
    return readings


def _roman(text: str) -> int | None:
    if not _ROMAN.fullmatch(text):
        return None
    values = [_ROMAN_VALUES[c] for c in text]
    total = sum(
        -v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)
    )
    return total or None


def _digit_readings(digits: str, exponent: str | None) -> tuple[list[Decimal], Decimal]:
    """Each separator as grouping, or the last one as the decimal mark."""
    shift = Decimal(10) ** int(exponent) if exponent else Decimal(1)
    if digits.startswith("."):  # ".85e5": a leading decimal point
        return [Decimal("0" + digits) * shift], Decimal(1).scaleb(1 - len(digits)) * shift
    groups = re.split(_SEPARATOR, digits)
    readings = [Decimal("".join(groups)) * shift]
    quantum = shift
    if len(groups) > 1:
        try:
            decimal = Decimal(f"{''.join(groups[:-1])}.{groups[-1]}")
        except InvalidOperation:
            return readings, quantum
        readings.append(decimal * shift)
        quantum = min(quantum, Decimal(1).scaleb(-len(groups[-1])) * shift)
    return readings, quantum
