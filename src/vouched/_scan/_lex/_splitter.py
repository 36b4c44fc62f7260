"""Where sentences end: the one splitter of the scanner, the stream and the on-fail policy.

A sentence ends

- after a terminator (``.``, ``!``, ``?``, ``…``) and any closing quotes or
  brackets right after it, when whitespace follows (or the text ends);
- at a newline (the newline opens the next sentence);
- and, so that a sentence is never held hostage by one that does not end,
  at the first clause mark (``,`` ``;`` ``:``) or space not right after a digit
  after :data:`LONG_SENTENCE` characters (any space, when twice that passes without
  one), and anywhere after twice that.

It does not end at an ellipsis (``..``, ``…``: "around 16:00 CET ... for"),
inside an open quote, after a list marker ("1." or "b)" alone), or at the period of
an abbreviation (:mod:`vouched._scan._lex._abbreviations`: never after a title, "Dr.",
"e.g.", "vs."; after a suffix, "Jr.", "a.m.", "Dec.", or an initial only when the next
word opens with a capital letter, which a streamed text waits for); an initial before a
capitalised word ("J. Williams") is part of a name, after a lower-case word too when
that word is no sentence opener ("through J. Smith", but "plan B. The").

:class:`SentenceSplitter` reads a growing text left to right and keeps its
state between calls, so feeding a text in pieces finds exactly the ends that
reading it whole finds, with one exception: a terminator that ends what was
fed so far right after a word or unit ("4.3 °C.") closes its sentence at once
instead of waiting for the next character, so a model that pauses after a
sentence does not hold it back; if the next piece then continues the word
without a space ("example." + "com"), the pieces' reading has one sentence end
more than the whole text's. After a digit the splitter waits ("4." may become
"4.3"). Each character is looked at a bounded number of times: the cost is
linear in the text.
"""

from __future__ import annotations

import re

from vouched._scan._lex._abbreviations import SUFFIXES, TITLES
from vouched._scan._lex._english import ENGLISH

__all__ = ["LONG_SENTENCE", "SentenceSplitter", "is_initial", "sentence_spans"]

TERMINATORS = ".!?\u2026"
CLOSERS = "\"')]\u201d\u2019"
LONG_SENTENCE = 1200
"""A sentence longer than this ends at its next clause mark or space (see above)."""

_CANDIDATE = re.compile(rf"[{re.escape(TERMINATORS)}\n]")
_LONG_BREAK = re.compile(r"[,;:]\s|(?<!\d)\s")
"""Where an over-long sentence ends: a clause mark, or a space not right after a digit (a
number stays whole with its unit: "21.4 °C", a 1,300-digit run and its "°C")."""
_ANY_SPACE = re.compile(r"\s")
_LINE_GAP = re.compile(r"[ \t\r]*")
_LIST_MARKER = re.compile(r"\s*(?:\d{1,3}|[A-Za-z])[.)]")
_DOTTED_DATE = re.compile(r"(?<![\d.])\d{1,2}\.\d{1,2}\.\Z")
"""A day and month written with dots ("on 04.12. the high"): its closing dot ends no
sentence when a lower-case word follows."""
_NEXT_CHARACTER = re.compile(r"\s+(\S)")


def _dot_holds(text: str, position: int, final: bool) -> int | bool | None:
    """A lone dot at ``position`` that may end no sentence: a dotted date's closing dot
    before a lower-case word ("on 04.12. the high"), else an abbreviation's
    (:func:`_abbreviation_holds`). -1 no end, None undecided, False read on."""
    if _DOTTED_DATE.search(text[max(0, position - 6) : position + 1]):
        after = _NEXT_CHARACTER.match(text, position + 1)
        if after is None and not final:
            return None
        if after is not None and after.group(1).islower():
            return -1
    return _abbreviation_holds(text, position, final)


class SentenceSplitter:
    """Sentence ends of a text read left to right, possibly in pieces.

    ``ends(text)`` takes the whole text fed so far (each call a longer one,
    the old text unchanged) and returns the ends (exclusive) of the sentences
    that closed since the last call; ``ends(text, final=True)`` also closes the
    last sentence at the end of the text.
    """

    __slots__ = ("_at", "_quotes", "_start")

    def __init__(self) -> None:
        self._start = 0  # where the open sentence starts
        self._at = 0  # how far the text has been read
        self._quotes = [0, 0, 0]  # straight, opening and closing double quotes in the sentence

    @property
    def start(self) -> int:
        """Where the open sentence starts (the end of the last one closed)."""
        return self._start

    def rebase(self, cut: int) -> None:
        """The caller dropped the first ``cut`` characters (closed sentences) of its text:
        positions from now on count from there."""
        self._start -= cut
        self._at -= cut

    def ends(self, text: str, *, final: bool = False) -> list[int]:
        found: list[int] = []
        size = len(text)
        # the next candidate, searched for again only once passed: a text with no terminator
        # is searched once, not once per over-long sentence cut from it (quadratic)
        match = _CANDIDATE.search(text, self._at)
        while True:
            if match is not None and match.start() < self._at:
                match = _CANDIDATE.search(text, self._at)
            limit = self._start + LONG_SENTENCE
            stop = match.start() if match is not None else size
            if stop > limit:
                broke = self._long_break(text, limit, stop, found, final)
                if broke is None:  # a long number near the end of what was fed
                    break
                if broke:
                    continue
            if match is None:
                self._count_quotes(text, self._at, size)
                self._at = size
                break
            position = match.start()
            self._count_quotes(text, self._at, position)
            end = self._end_at(text, position, final)
            if end is None:  # waits for the next character
                self._at = position
                break
            if end < 0 or not text[self._start : end].strip():  # no sentence end here
                self._at = position + 1
                continue
            self._close(end, found)
            self._at = end
        if final and self._start < size and text[self._start :].strip():
            self._close(size, found)
        return found

    def _end_at(self, text: str, position: int, final: bool) -> int | None:
        """The sentence end a candidate at ``position`` makes: -1 none, None undecided."""
        if text[position] == "\n":
            if position <= self._start:
                return -1
            return self._line_end(text, position, final)
        end = position + 1
        size = len(text)
        while end < size and text[end] in TERMINATORS:
            end += 1
        while end < size and text[end] in CLOSERS:
            end += 1
        if end < size and not text[end].isspace():
            return -1
        if end == position + 1 and text[position] == ".":
            held = _dot_holds(text, position, final)
            if held is not False:
                return held
        if end == size and not final and not self._eager(text, position):
            return None
        body = text[self._start : end].rstrip(CLOSERS)
        if body.endswith(("..", "\u2026")) or self._in_quote():
            return -1
        if _LIST_MARKER.fullmatch(text, self._start, end):
            return -1
        return end

    def _line_end(self, text: str, position: int, final: bool) -> int | None:
        """A newline ends its sentence, unless a straight double quote is open and no blank
        line follows: a quotation runs over line breaks within its paragraph (the quote
        reader pairs straight quotes per paragraph). -1 none, None undecided."""
        if self._quotes[0] % 2 == 0:
            return position
        after = _LINE_GAP.match(text, position + 1)
        gap_end = after.end() if after is not None else position + 1
        if gap_end < len(text):
            return position if text[gap_end] == "\n" else -1
        return position if final else None

    def _eager(self, text: str, position: int) -> bool:
        """A terminator that ends what was fed, right after a word or a unit ("°C."), closes
        at once: a model that pauses there must not hold the sentence back. After a digit
        it waits ("4." may be "4.3")."""
        before = text[position - 1] if position > self._start else " "
        return not (before.isdigit() or before.isspace())

    def _long_break(
        self, text: str, limit: int, stop: int, found: list[int], final: bool
    ) -> bool | None:
        """End an over-long sentence at a clause mark or space after ``limit`` (True); False
        when it does not end here; None when a number near the end of what was fed must
        be read whole first."""
        at = max(limit, self._at)
        hard = self._start + 2 * LONG_SENTENCE
        mark = _LONG_BREAK.search(text, at, min(stop, hard))
        if mark is None and stop > hard:  # no such mark before the hard end: any space
            mark = _ANY_SPACE.search(text, limit, hard)
        if mark is not None:
            end = mark.end()
        elif stop > hard:
            end = _past_number(text, hard)
            if end > hard and end >= stop:
                return False  # the number runs to a terminator: the terminator decides
            if end > hard and not final and end + _TAIL_MARGIN > len(text):
                return None
        else:
            return False
        self._count_quotes(text, self._at, end)
        self._close(end, found)
        self._at = end
        return True

    def _close(self, end: int, found: list[int]) -> None:
        found.append(end)
        self._start = end
        self._quotes = [0, 0, 0]

    def _count_quotes(self, text: str, start: int, end: int) -> None:
        if start < end:
            counts = self._quotes
            counts[0] += text.count('"', start, end)
            counts[1] += text.count("\u201c", start, end)
            counts[2] += text.count("\u201d", start, end)

    def _in_quote(self) -> bool:
        straight, opening, closing = self._quotes
        return straight % 2 == 1 or opening > closing


_TOKEN = re.compile(r"[^\s(\[\"'\u201c\u2018]*\Z")
_WORD_BEFORE = re.compile(r"(\S*)\s+\Z")
_NEXT_WORD = re.compile(r"\s*(\S?)")
_INITIALS = re.compile(r"(?:[A-Z]\.)+")


def _abbreviation_holds(text: str, position: int, final: bool) -> int | bool | None:
    """Does the period at ``position`` close an abbreviation that keeps its sentence open?
    -1: it does (no end here); None: the next word decides and is not fed yet; False: no
    abbreviation, or one that ends its sentence here."""
    window = text[max(0, position - 12) : position + 1]
    found = _TOKEN.search(window)
    token = found.group() if found is not None else ""
    lowered = token.lower()
    if lowered in TITLES:
        return -1
    initials = lowered not in SUFFIXES and _is_initial(text, position + 1 - len(token), token)
    if lowered not in SUFFIXES and not initials:
        if _LONE.fullmatch(token) and _LOWER_WORD.search(text, max(0, position - 41), position - 1):
            return _name_follows(text, position + 1, final)
        return False
    following = _NEXT_WORD.match(text, position + 1)
    assert following is not None  # noqa: S101 - the pattern matches the empty string
    nxt = following.group(1)
    if not nxt:
        return False if final else None
    if "\n" in text[position + 1 : following.start(1)]:
        return False
    if initials:
        return -1 if nxt.isupper() else False
    return False if nxt.isupper() else -1


def _is_initial(text: str, start: int, token: str) -> bool:
    """Initials ("J.", "C.J.") opening a sentence or after a capitalised word."""
    if _INITIALS.fullmatch(token) is None:
        return False
    before = _WORD_BEFORE.search(text[max(0, start - 24) : start])
    if before is None:
        return start == 0 or text[start - 1] in "\n\"'(\u201c"
    word = before.group(1)
    return word == "" or word[:1].isupper() or word.endswith((".", ":", "\n"))


_LONE = re.compile(r"[A-Z]\.")
_LOWER_WORD = re.compile(r"(?<![^\s(])[a-z]{1,30}[ \t]+\Z")  # "through J."
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]\w{0,39})")
_BLANKS_TO_END = re.compile(r"[ \t]*\Z")
_NOT_NAMES = frozenset(ENGLISH["not_names"])


def _name_follows(text: str, at: int, final: bool) -> int | bool | None:
    """After a lower-case word, a lone capital's period ("through J. Smith", "plan B. The")
    is a name's initial when a capitalised word follows that is no sentence opener
    (``not_names``: "The", "He", "In"): -1 (no end here), False (an end), None (the
    next word is not fed whole yet)."""
    found = _WORD_AFTER.match(text, at)
    if found is None:  # nothing fed after it but blanks: wait; anything else ends it
        return None if not final and _BLANKS_TO_END.match(text, at) else False
    word = found.group(1)
    if found.end() == len(text) and not final and len(word) < 40:
        return None  # the word may go on
    if word[:1].isupper() and word.casefold() not in _NOT_NAMES:
        return -1
    return False


_NEXT_NAME = re.compile(r"[ \t]+(\w)")


def _initial(text: str, position: int, start: int) -> bool:
    """Is the terminator at ``position`` right after a lone capital letter, a name's
    initial ("J. Williams", "(E. Vasquez)")?"""
    if position - 1 < start or not text[position - 1].isupper():
        return False
    return position - 1 == start or text[position - 2] in " \t\n(\"'\u201c"


def is_initial(text: str, position: int, start: int = 0) -> bool:
    """Is the full stop at ``position`` a name's initial: a lone capital letter before it
    and a capitalised word after it ("J. Williams")?"""
    if not _initial(text, position, start):
        return False
    following = _NEXT_NAME.match(text, position + 1)
    return following is not None and following.group(1).isupper()


def _past_number(text: str, at: int) -> int:
    """``at``, or past the number it falls in and a short unit after it: a digit run of
    any length is one number ("1,300 digits °C"), never cut in two."""
    before = text[at - 1 : at]
    if not (before.isdigit() or (before in {".", ","} and text[at : at + 1].isdigit())):
        return at
    end = _NUMBER_TAIL.match(text, at).end()  # type: ignore[union-attr]  # matches empty
    unit = _UNIT_TAIL.match(text, end)
    return unit.end() if unit is not None else end


_TAIL_MARGIN = 12
"""How far past a number and its unit the text must reach before a cut after them is sure
(the unit could still grow: "7 k" to "7 km/h")."""
_NUMBER_TAIL = re.compile(r"(?:[.,]?\d)*(?:[eE][-+]?\d+)?")
_UNIT_TAIL = re.compile(r"[ \u00a0]?(?:°\s?[CF]?|%|[^\W\d_]{1,5}(?:/[^\W\d_]{1,2})?)(?![\w/])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every sentence of ``text``; together they cover it exactly."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in SentenceSplitter().ends(text, final=True):
        spans.append((start, end))
        start = end
    return spans
