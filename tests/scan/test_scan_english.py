"""The scanner's English words are validated data (``_scan/_lex/_english.py``): each family a
tuple of lower-case words or phrases with no pattern syntax, no duplicates, and used."""

from __future__ import annotations

import re
from pathlib import Path

from vouched._scan._lex import _vocabulary
from vouched._scan._lex._english import ENGLISH

# letters, digits, apostrophes, hyphens, single spaces; "&" and a few marks the
# readers treat as words; a trailing period marks an abbreviation ("vs.")
_WORD = re.compile(r"(?:[a-z0-9'\u2019-]+(?: [a-z0-9'\u2019-]+)*\.?|[&,(:'])")


def test_every_word_is_plain_lower_case_text() -> None:
    bad = [(f, w) for f, words in ENGLISH.items() for w in words if not _WORD.fullmatch(w)]
    assert bad == []


def test_no_family_lists_a_word_twice() -> None:
    assert {f: len(w) - len(set(w)) for f, w in ENGLISH.items() if len(w) != len(set(w))} == {}


def test_every_family_is_used_by_a_reader() -> None:
    scan = Path(_vocabulary.__file__).parents[1]
    source = "".join(
        p.read_text(encoding="utf-8") for p in scan.rglob("*.py") if p.name != "_english.py"
    )
    unused = [f for f in ENGLISH if f"'{f}'" not in source and f'"{f}"' not in source]
    assert unused == []


def test_a_phrase_reads_any_whitespace_and_an_optional_period() -> None:
    assert _vocabulary.VALUE_JOIN.match(" vs ") is not None
    assert _vocabulary.VALUE_JOIN.match(" vs. ") is not None
    assert _vocabulary.FALL_BEFORE.search("it gave\n up ") is not None


def test_no_word_list_is_written_inside_a_pattern_of_the_vocabulary() -> None:
    # three or more plain words as alternatives in a pattern literal are a word list
    source = Path(_vocabulary.__file__).read_text(encoding="utf-8")
    assert re.findall(r"[a-z]{2,}\|[a-z]{2,}\|[a-z]{2,}", source) == []
