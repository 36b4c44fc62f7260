"""The answers corpus (bench/answers/) stays valid: its validator accepts it and
rejects a broken label with a line naming the file, the answer and the field."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from vouched import Lexicon, load_facts

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_answers", ROOT / "bench" / "answers.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _bench()


def test_corpus_has_150_answers_in_six_domains_half_of_them_planted() -> None:
    domains = bench.load_corpus()
    assert len(domains) >= 6
    assert sum(len(d.answers) for d in domains) >= 150
    for domain in domains:
        planted = sum(a.span is not None for a in domain.answers)
        assert abs(2 * planted - len(domain.answers)) <= 1, domain.name


def test_corpus_facts_and_lexicons_load() -> None:
    for domain in bench.load_corpus():
        assert load_facts(domain.facts)
        Lexicon.from_json(domain.lexicon)


def _write(tmp_path: Path, answer: str) -> Path:
    (tmp_path / "f.facts.json").write_text("[]", encoding="utf-8")
    path = tmp_path / "d.toml"
    path.write_text(
        'domain = "d"\nnow = "2026-12-06T13:10:00Z"\nfacts = "f.facts.json"\n'
        'lexicon = "weather"\n[[answer]]\nid = "c1"\ntext = "It is 4 °C."\n' + answer,
        encoding="utf-8",
    )
    return path


def test_a_span_that_does_not_hold_the_wrong_words_is_refused(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[answer]]\nid = "p1"\ntext = "It is 5 °C."\nwrong = "5 °C"\n'
        'kind = "value_mismatch"\nspan = [0, 4]\n',
    )
    with pytest.raises(bench.CorpusError, match=r"d\.toml: answer p1: span"):
        bench.load_domain(path)


def test_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[answer]]\nid = "p1"\ntext = "It is 5 °C."\nwrong = "5 °C"\n'
        'kind = "wrong_number"\nspan = [6, 10]\n',
    )
    with pytest.raises(bench.CorpusError, match=r"answer p1: kind"):
        bench.load_domain(path)
