"""The house stays drawn: imports go down the flow, never round in a circle.

Walks ``src/vouched`` with ``ast`` (function-level imports included: a lazy
import is still a dependency) and checks four rules:

1. no import cycle between modules;
2. no loop between packages (``vouched._review`` importing ``vouched._server``
   while ``vouched._server`` mounts ``vouched._review`` is a loop even when no
   two files import each other);
3. a module imports only from its own stage or from a stage below it;
4. across stages, only names the target module lists in ``__all__``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

Edge = tuple[str, tuple[str, ...], int]
"""(imported module, names imported from it, line)"""

# The stage of each part of the package, and the stages in order, lowest first.
# A module may import from its own stage and from any stage below it.
STAGES: Mapping[str, str] = {
    "vouched._exceptions": "core",
    "vouched._hosts": "core",
    "vouched._time": "core",
    "vouched._calendar": "core",
    "vouched._jsonio": "core",
    "vouched._files": "core",
    "vouched._fact": "core",
    "vouched._factio": "core",
    "vouched._policy": "core",
    "vouched._gate": "core",
    "vouched._sources": "sources",
    "vouched._scan": "scan",
    "vouched._claims": "claims",
    "vouched._replay": "replay",
    "vouched._answer": "answer",
    "vouched.testing": "testing",
    "vouched._fakes": "fakes",
    "vouched.testing._stores": "fakes",
    "vouched.testing._virtual": "fakes",
    "vouched._server": "server",
    "vouched._review": "review",  # the review pages: below the service, which mounts them
    "vouched._cli": "cli",
    "vouched": "face",
    "vouched.__main__": "main",
}
RANKS: Mapping[str, int] = {
    "core": 0,
    "sources": 1,  # the stages that need only the core
    "scan": 1,
    "claims": 1,
    "replay": 2,  # replay re-scans stored outputs
    "answer": 3,  # the answer path writes snapshots
    "face": 4,  # the public names, re-exported
    "fakes": 5,  # the test kit's fakes and twins; the CLI's demo uses them
    "review": 5,  # the review pages, over the public face
    "server": 6,  # the HTTP service, which mounts the review pages
    "cli": 7,  # a thin layer over the public face
    "testing": 8,  # the test kit's face and its CLI runner, over the CLI it runs
    "main": 8,
}


def module_name(path: Path, root: Path = SRC) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def stage_of(module: str) -> str:
    """The longest key of RANKS that is ``module`` or a package above it."""
    best = ""
    for prefix in STAGES:
        if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
            best = prefix
    if not best:
        raise AssertionError(f"{module} is in no stage: add it to STAGES in {__file__}")
    return STAGES[best]


def imports_of(path: Path, module: str) -> Iterator[Edge]:
    """(imported module, names imported from it, line) for every import of vouched."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "vouched":
                    yield alias.name, (), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] == "vouched":
                yield target, tuple(alias.name for alias in node.names), node.lineno


def exported(module: str, modules: Mapping[str, Path]) -> set[str] | None:
    """The module's ``__all__``, or None when it has none (or it is a package)."""
    tree = ast.parse(modules[module].read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert node.value is not None
                return set(ast.literal_eval(node.value))
    return None


def graph(
    root: Path = SRC,
) -> tuple[dict[str, Path], dict[str, list[Edge]]]:
    modules = {module_name(p, root): p for p in (root / "vouched").rglob("*.py")}
    edges: dict[str, list[Edge]] = {}
    for name, path in modules.items():
        found = []
        for target, names, line in imports_of(path, name):
            # "from vouched._scan import _scanner" names a submodule, not an attribute
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
            if subs:
                found.extend((sub, (), line) for sub in subs)
            else:
                found.append((target, names, line))
        edges[name] = found
    return modules, edges


def find_cycle(edges: Mapping[str, list[Edge]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target, _names, _line in edges.get(node, ()):
            if target not in edges or target == node:
                continue
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def package_of(module: str) -> str:
    """The package a module belongs to: ``vouched._review._app`` is in
    ``vouched._review``; a top-level module (``vouched._gate``) is its own."""
    return ".".join(module.split(".")[:2])


def package_edges(edges: Mapping[str, list[Edge]]) -> dict[str, list[Edge]]:
    """The import graph with each module folded into its package."""
    folded: dict[str, list[Edge]] = {}
    for name, found in edges.items():
        here = package_of(name)
        targets = folded.setdefault(here, [])
        for target, names, line in found:
            other = package_of(target)
            if other not in (here, "vouched"):  # the face re-exports: not a loop
                targets.append((other, names, line))
    return folded


def violations(root: Path = SRC) -> list[str]:
    modules, edges = graph(root)
    problems: list[str] = []
    if cycle := find_cycle(edges):
        problems.append("import cycle: " + " -> ".join(cycle))
    if loop := find_cycle(package_edges(edges)):
        problems.append("package loop: " + " -> ".join(loop))
    for name, found in sorted(edges.items()):
        stage = stage_of(name)
        for target, names, line in found:
            if target not in modules:
                continue
            other = stage_of(target)
            if other == stage:
                continue
            where = f"{modules[name].relative_to(root)}:{line}"
            if RANKS[other] >= RANKS[stage]:
                problems.append(f"{where}: {name} ({stage}) imports {target}, a stage above it")
                continue
            public = exported(target, modules)
            for imported in names:
                if imported.startswith("_") or (public is not None and imported not in public):
                    problems.append(f"{where}: {name} imports private {target}.{imported}")
    return problems


def test_the_package_has_no_cycles_no_upward_and_no_private_cross_stage_imports() -> None:
    assert violations() == []


def test_every_module_belongs_to_a_stage() -> None:
    modules, _ = graph()
    for name in modules:
        assert stage_of(name) in RANKS


def _plant(tmp_path: Path, files: Mapping[str, str]) -> Path:
    root = tmp_path / "src"
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "vouched/__init__.py": "",
            "vouched/_scan/__init__.py": "",
            "vouched/_scan/_a.py": "def f():\n    from vouched._scan._b import g\n",
            "vouched/_scan/_b.py": "from vouched._scan._a import f\n__all__ = ['g']\n",
        },
    )
    assert any(p.startswith("import cycle: ") for p in violations(root))


def test_a_loop_between_packages_is_found_without_a_file_cycle(tmp_path: Path) -> None:
    # _review._guard imports _server._config; _server._app mounts _review._app:
    # no two files import each other, the packages still do.
    root = _plant(
        tmp_path,
        {
            "vouched/__init__.py": "",
            "vouched/_server/__init__.py": "",
            "vouched/_server/_config.py": "__all__ = ['LOOPBACK']\nLOOPBACK = ()\n",
            "vouched/_server/_app.py": "from vouched._review._app import pages\n",
            "vouched/_review/__init__.py": "",
            "vouched/_review/_app.py": "__all__ = ['pages']\ndef pages(): ...\n",
            "vouched/_review/_guard.py": "from vouched._server._config import LOOPBACK\n",
        },
    )
    problems = violations(root)
    assert not any(p.startswith("import cycle: ") for p in problems)
    assert any(p.startswith("package loop: ") for p in problems)


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "vouched/__init__.py": "",
            "vouched/_gate.py": "from vouched._scan._scanner import scan\n",
            "vouched/_scan/__init__.py": "",
            "vouched/_scan/_scanner.py": "__all__ = ['scan']\ndef scan(): ...\n",
        },
    )
    assert violations(root) == [
        "vouched/_gate.py:1: vouched._gate (core) imports vouched._scan._scanner, a stage above it"
    ]


@pytest.mark.parametrize("name", ["_Tally", "helper"])
def test_a_private_name_imported_across_stages_is_found(tmp_path: Path, name: str) -> None:
    root = _plant(
        tmp_path,
        {
            "vouched/__init__.py": "",
            "vouched/_gate.py": "__all__ = ['classify']\n_Tally = 1\nhelper = 2\n",
            "vouched/_scan/__init__.py": "",
            "vouched/_scan/_scanner.py": f"from vouched._gate import {name}\n",
        },
    )
    assert violations(root) == [
        f"vouched/_scan/_scanner.py:1: vouched._scan._scanner imports private vouched._gate.{name}"
    ]
