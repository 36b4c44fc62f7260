# ruff: noqa: RUF001 - digits of other scripts and widths are the forms under test
"""Written forms of a sensitive salary (85,000) and name (Alice Smith), as a
reader would recognise them: the strategies of the redaction property test and
of bench/faults.py's redaction count."""

from __future__ import annotations

import urllib.parse

from hypothesis import strategies as st

NAME = "Alice Smith"
VALUE = 85000

# Digits of other scripts and widths: ASCII, fullwidth, Arabic-Indic, Devanagari,
# mathematical bold, superscript.
_DIGITS = ("0123456789", "０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "०१२३४५६७८९",
           "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗", "⁰¹²³⁴⁵⁶⁷⁸⁹")  # fmt: skip
_SEPARATORS = (",", ".", " ", "'", "_", "\u2009", "\u202f", "\u00a0", "\uff0c", "\u3000", "\u2007")
NUMBER_SHAPES = (
    "85{s}000", "85000", "85000.0", "85{s}000.00", "85k", "85K", "85 k", "85 thousand",
    "85 grand", "850 hundred", "0.085M", "0.085 million", "0.85 lakh", "85.0k", "8.5e4",
    "85e3", "8.5E4", "0.85e5", "850e2", "0x14c08", "0X14C08", "LXXXV thousand", "lxxxv k",
    "eighty-five thousand", "eighty-five grand", "€85k", "$85{s}000", "EUR 85{s}000",
)  # fmt: skip
NAME_SHAPES = (
    "Alice Smith", "Smith, Alice", "Smith Alice", "A. Smith", "Smith, A.", "A Smith",
    "Alice S.", "A.S.", "S.A.", "A. S.", "Ms. Smith", "Ms Smith", "Dr. Alice Smith", "Mrs Smith",
    "AliceSmith", "asmith", "alice-smith", "alice_smith", "alice.smith", "alice+smith",
    "Alice", "Smith",
)  # fmt: skip
# Cyrillic and Greek letters that look like Latin ones.
_LOOKALIKES = {"a": "\u0430", "e": "\u0435", "i": "\u0456", "o": "\u043e", "c": "\u0441",
               "s": "\u0455", "m": "\u043c", "t": "\u0442", "h": "\u04bb",
               "A": "\u0391"}  # fmt: skip


def digits_in(text: str, script: str) -> str:
    return text.translate(str.maketrans("0123456789", script))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def number_forms(draw: st.DrawFn) -> str:
    separator = draw(st.sampled_from(_SEPARATORS))
    shape = draw(st.sampled_from(NUMBER_SHAPES)).replace("{s}", separator)
    if draw(st.booleans()) and "0x" not in shape.lower():
        shape = digits_in(shape, draw(st.sampled_from(_DIGITS)))
    if draw(st.booleans()):
        shape = fullwidth(shape)
    return shape


@st.composite
def name_forms(draw: st.DrawFn) -> str:
    form = draw(st.sampled_from(NAME_SHAPES))
    case = draw(st.sampled_from(("as is", "upper", "lower", "title", "swap")))
    form = {"upper": form.upper(), "lower": form.lower(), "title": form.title(),
            "swap": form.swapcase()}.get(case, form)  # fmt: skip
    how = draw(st.sampled_from(("plain", "fullwidth", "lookalike", "url", "invisible")))
    if how == "fullwidth":
        form = fullwidth(form)
    elif how == "lookalike":
        at = draw(st.sampled_from([i for i, c in enumerate(form) if c in _LOOKALIKES] or [-1]))
        if at >= 0:
            form = form[:at] + _LOOKALIKES[form[at]] + form[at + 1 :]
    elif how == "url":
        form = (
            urllib.parse.quote(form, safe="") if draw(st.booleans()) else form.replace(" ", "%20")
        )
    elif how == "invisible" and len(form) > 2:
        at = draw(st.integers(1, len(form) - 1))
        form = (
            form[:at] + draw(st.sampled_from(("\u200b", "\u00ad", "\u200d", "\u2060"))) + form[at:]
        )
    return form
