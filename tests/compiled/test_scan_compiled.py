"""The optional compiled scanner (mypyc, ``make compiled``) makes the pure-Python
scanner's reports byte for byte, and really is compiled.

The build runs here when ``build/compiled/`` is missing or older than a source (make
decides; a few minutes on two cores). Each tree runs ``bench/identity.py`` in a child
process with ``PYTHONPATH`` pointing at it: the case suite whole and streamed, the
Rotowire and weather texts (when ``../shared`` is there) and the bench corpora.
Outside CI a missing C compiler, Python headers or hatch-mypyc skips with one line;
in CI (``CI`` set) it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COMPILED = ROOT / "build" / "compiled" / "lib"


def _missing_toolchain() -> str | None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    if importlib.util.find_spec("hatch_mypyc") is None:
        return "hatch-mypyc is not installed (pip install -e '.[lint]')"
    return None


@pytest.fixture(scope="module")
def compiled() -> Path:
    """``build/compiled/lib``, built (or brought up to date) by ``make compiled``."""
    missing = _missing_toolchain()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the compiled scanner cannot be built: {missing} (CI needs it)")
        pytest.skip(f"the compiled scanner cannot be built here: {missing}")
    build = subprocess.run(
        ["make", "-C", str(ROOT), "compiled", f"BIN={Path(sys.executable).parent}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return COMPILED


def _compiled_modules() -> list[str]:
    """The modules pyproject's mypyc hook compiles (its include: one file each)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    modules = []
    for pattern in hook["include"]:
        path = ROOT / pattern.lstrip("/")
        assert path.suffix == ".py", f"not one module: {pattern}"
        assert path.is_file(), f"no such module: {pattern}"
        parts = path.relative_to(ROOT / "src").with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def _python(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=False
    )


def test_every_module_the_hook_names_is_imported_compiled(compiled: Path) -> None:
    modules = _compiled_modules()
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]: print(importlib.import_module(name).__file__)"
    )
    run = _python(compiled, "-c", code, *modules)
    assert run.returncode == 0, run.stderr
    files = run.stdout.split()
    assert len(files) == len(modules) > 0
    not_compiled = [f for f in files if not (f.startswith(str(compiled)) and f.endswith(".so"))]
    assert not not_compiled, f"imported as Python, not compiled: {not_compiled}"


def test_version_says_the_scanner_is_compiled(compiled: Path) -> None:
    run = _python(compiled, "-m", "vouched", "--version")
    assert run.returncode == 0, run.stderr
    assert "(scanner: compiled (mypyc, " in run.stdout


def test_compiled_reports_are_byte_identical_to_pure_python(compiled: Path, tmp_path: Path) -> None:
    dumps = {}
    for name, tree in (("pure", ROOT / "src"), ("compiled", compiled)):
        out = tmp_path / f"{name}.json"
        run = _python(tree, "bench/identity.py", "--save", str(out))
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
        dumps[name] = out.read_bytes()
    assert len(json.loads(dumps["pure"])) > 2000  # the case suite twice, at the least
    assert dumps["compiled"] == dumps["pure"], _first_difference(dumps)


def _first_difference(dumps: dict[str, bytes]) -> str:
    pure, compiled = (json.loads(d) for d in dumps.values())
    changed = sorted(k for k in pure.keys() | compiled.keys() if pure.get(k) != compiled.get(k))
    first = changed[0] if changed else None
    return (
        f"{len(changed)} reports differ; first {first}: pure {pure.get(first)!r:.400} "
        f"compiled {compiled.get(first)!r:.400}"
    )
