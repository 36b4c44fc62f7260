"""The scanner's house stays drawn: stage folders, unique module names, each folder's
``__init__`` naming every module it holds (DESIGN "How the scanner is built")."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import vouched._scan

SCAN = Path(vouched._scan.__file__).parent
STAGES = ("_lex", "_facts", "_read", "_rules")


def _modules(folder: Path) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.py") if p.name != "__init__.py")


def test_the_scanner_is_the_four_stage_folders_and_its_faces() -> None:
    folders = sorted(p.name for p in SCAN.iterdir() if (p / "__init__.py").is_file())
    assert folders == sorted(STAGES)
    assert _modules(SCAN) == ["_compiled", "_findings", "_inputs", "_judge", "_scanner", "_stream"]


def test_every_module_name_is_unique_in_the_scanner() -> None:
    names = Counter(p.stem for p in SCAN.rglob("*.py") if p.name != "__init__.py")
    assert {name: n for name, n in names.items() if n > 1} == {}


def test_each_folder_init_names_every_module_it_holds() -> None:
    unnamed = {}
    for folder in (SCAN, *(SCAN / stage for stage in STAGES)):
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
        held = _modules(folder) + [f"{p.name}/" for p in folder.iterdir() if p.name in STAGES]
        missing = [name for name in held if f"``{name}``" not in doc]
        if missing:
            unnamed[folder.name] = missing
    assert unnamed == {}
