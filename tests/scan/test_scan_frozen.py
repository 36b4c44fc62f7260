"""A sentence's reading and structures are frozen once built (issue 27, item 2).

The flow runs one way: the sentence is read (:func:`read_sentence`), the structures
over its quantities are read (:func:`read_structures`), then each quantity is bound
and judged. These tests fail when a later stage writes back into an earlier one.
"""

from __future__ import annotations

import ast
import copy
from decimal import Decimal
from pathlib import Path

import pytest

import vouched._scan._rules
from vouched import Fact, Lexicon
from vouched._scan._compiled import Compiled
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._numwords import word_tokens
from vouched._scan._read._binding import bind, evidence
from vouched._scan._read._derived import computed_words, signed
from vouched._scan._read._sentence import SentenceRead, find_all, read_sentence
from vouched._scan._read._structures import read_structures
from vouched._scan._read._values import Structures

_LEXICON = Lexicon(
    attributes={"temperature": ["temperature"], "humidity": ["humidity"]},
    subjects={"Berlin": ["the capital"]},
)
# pairs, a list with "respectively", a cue right after a number, a computed difference
_TEXT = (
    "Berlin and Munich are 21.4 °C and 17.8 °C respectively, with 63% humidity "
    "in the capital, 3.6 degrees warmer than Munich."
)


def _fact(subject: str, attribute: str, value: str, unit: str | None) -> Fact:
    return Fact(
        subject=subject,
        attribute=attribute,
        value=Decimal(value),
        unit=unit,
        source="open-meteo",
        observed_at="2026-11-29T12:00:00Z",
    )


def _read(text: str) -> tuple[SentenceRead, Structures]:
    facts = [
        _fact("Berlin", "temperature", "21.4", "degC"),
        _fact("Munich", "temperature", "17.8", "degC"),
        _fact("Berlin", "humidity", "63", "%"),
    ]
    compiled = Compiled(facts, _LEXICON)
    lowered = text.lower()
    tokens = word_tokens(lowered)
    numbers = read_numbers(text, compiled.capitals, tokens)
    found = find_all(compiled.matchers, text, lowered, tokens, numbers)
    sentence = read_sentence(text, compiled.index, compiled.lexicon, found)
    return sentence, read_structures(sentence, found.quantities)


def test_the_sentence_reading_refuses_assignment() -> None:
    sentence, _ = _read(_TEXT)
    for name in sentence._fields:
        with pytest.raises(AttributeError):
            setattr(sentence, name, None)
    with pytest.raises(AttributeError):
        sentence.computes = None  # type: ignore[attr-defined]  # no new attribute either
    with pytest.raises(AttributeError):
        del sentence.text  # type: ignore[misc]  # nor one taken away


def test_the_structures_refuse_assignment() -> None:
    _, structures = _read(_TEXT)
    for name in structures._fields:
        with pytest.raises(AttributeError):
            setattr(structures, name, None)


def test_binding_and_evidence_write_nothing_back() -> None:
    """Binding every quantity and reading its evidence leaves the sentence's reading and
    structures as they were built: each quantity's state is in its own binding."""
    sentence, structures = _read(_TEXT)
    assert structures.forced, "the text must hold a structure that forces a reading"
    before = copy.deepcopy((_contents(sentence), structures))
    gates = computed_words(sentence.text)
    bound = []
    for read in structures.quantities:
        quantity = signed(sentence, read)
        binding = bind(sentence, structures, quantity)
        bound.append(evidence(sentence, structures, quantity, binding, [], gates))
    assert any(b.cue is not None for b in bound), "a clear cue's span rides on its binding"
    assert (_contents(sentence), structures) == before


def _contents(sentence: SentenceRead) -> tuple[object, ...]:
    """The sentence's values that later stages could write into (the index and lexicon
    are the compiled scanner's, shared by every sentence)."""
    skip = {"facts", "lexicon", "structure"}
    own = tuple(getattr(sentence, name) for name in sentence._fields if name not in skip)
    structure = sentence.structure
    return (*own, list(structure.sentences), list(structure.clauses))


_BINDING_STAGE = {
    "vouched._scan._read._evidence",
    "vouched._scan._read._subjects",
    "vouched._scan._read._binding",
    "vouched._scan._read._structures",
    "vouched._scan._read._cues",
    "vouched._scan._read._derived",
}


def test_the_rules_import_no_module_of_the_binding_stage() -> None:
    """The rules read a quantity's binding and the frozen sentence values; they never
    call the binder, the structure readers or the cue and derived readers back."""
    folder = Path(vouched._scan._rules.__file__).parent
    imported: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported[path.name] = {n for n in names if n in _BINDING_STAGE}
    assert "_quantity.py" in imported, "the rules' folder must be read"
    assert {name: found for name, found in imported.items() if found} == {}


# Reader functions the rules still call: none; what they read is the Evidence's (a
# word's reading; whether a word at a span of their own is denied). Only ever shrinks.
_READERS_LEFT_IN_RULES: set[str] = set()


def test_the_rules_call_no_reader_function_but_the_named_ones() -> None:
    folder = Path(vouched._scan._rules.__file__).parent
    called: set[str] = set()
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "vouched._scan._read."
            ):
                called.update(a.name for a in node.names if a.name[0].islower())
    assert called <= _READERS_LEFT_IN_RULES
