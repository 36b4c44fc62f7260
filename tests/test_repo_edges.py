"""Rough edges of the repository itself (issue 22): the example's environment
variable, what git ignores, the architecture page's layout table, documents that exist."""

from __future__ import annotations

import fnmatch
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from vouched import OpenAIChatPhraser

ROOT = Path(__file__).resolve().parents[1]


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / name)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_currency_example_reads_openai_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("VOUCHED_MODEL", "some-model")
    phraser = _example("currency_answer.py").phraser()
    assert isinstance(phraser, OpenAIChatPhraser)
    assert (phraser.base_url, phraser.model) == ("http://127.0.0.1:9/v1", "some-model")


def test_the_currency_example_ignores_the_old_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("VOUCHED_MODEL_URL", "http://127.0.0.1:9/v1")
    module = _example("currency_answer.py")
    assert module.phraser() is module.embellishing_model


@pytest.mark.parametrize("name", ["snapshots.db", "snapshots.db-wal", "snapshots.db-shm"])
def test_the_replay_walkthrough_store_is_ignored_by_git(name: str) -> None:
    patterns = [
        line.strip().lstrip("/")
        for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


def test_the_architecture_layout_table_names_each_folder_once() -> None:
    readme = (ROOT / "docs" / "internals" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in readme.splitlines() if line.startswith("| ") and "`_" in line]
    folders = [re.findall(r"`(_[a-z]+/)`\s*\|$", row) for row in rows]
    named = [found[0] for found in folders if found]
    assert "_server/" in named
    assert len(named) == len(set(named)), named


def test_documents_cited_under_tests_exist() -> None:
    for readme in (ROOT / "tests").rglob("README.md"):
        for cited in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", readme.read_text(encoding="utf-8")):
            assert (readme.parent / cited).exists() or (ROOT / cited).exists(), (readme, cited)
