"""Every module of the scanner is either compiled by the optional mypyc build (the
hook's ``include`` in pyproject.toml) or named in ``[tool.vouched.compiled.cold]`` with
the reason it stays Python, so a module added or moved is a decision, not an accident.

Both lists are read from pyproject.toml and the modules from the tree, so the test
follows the scanner wherever its modules move; it names every path to fix.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNER = ROOT / "src" / "vouched" / "_scan"


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _compiled() -> set[str]:
    hook = _pyproject()["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]  # type: ignore[index]
    return set(hook["include"])


def _cold() -> dict[str, str]:
    return dict(_pyproject()["tool"]["vouched"]["compiled"]["cold"])  # type: ignore[index]


def _modules() -> set[str]:
    return {f"/{path.relative_to(ROOT).as_posix()}" for path in SCANNER.rglob("*.py")}


def test_every_scanner_module_is_compiled_or_named_cold() -> None:
    unnamed = sorted(_modules() - _compiled() - set(_cold()))
    assert not unnamed, f"neither in the mypyc include nor in the cold list: {unnamed}"


def test_every_listed_module_exists() -> None:
    missing = sorted((_compiled() | set(_cold())) - _modules())
    assert not missing, f"listed in pyproject.toml but not in the tree: {missing}"


def test_no_module_is_both_compiled_and_cold() -> None:
    assert not sorted(_compiled() & set(_cold()))


def test_every_cold_module_gives_a_reason() -> None:
    assert all(reason.strip() for reason in _cold().values())
