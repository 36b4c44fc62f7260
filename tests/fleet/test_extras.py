"""Without the redis or postgres extra, the error names the install to run."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("module", "make", "install"),
    [
        ("redis", "RedisBreakerStore(object())", "pip install 'vouched[redis]'"),
        ("redis", "RedisLastGood(object())", "pip install 'vouched[redis]'"),
        ("psycopg", "PostgresSnapshotStore('postgresql://x/y')", "pip install 'vouched[postgres]'"),
        ("psycopg_pool", "PostgresSnapshotStore('postgresql://x/y')", "vouched[postgres]"),
        (
            "ray",
            "import vouched._replay._workers as w; w.require_ray()",
            "pip install 'vouched[ray]'",
        ),
    ],
)
def test_a_missing_extra_names_its_install(module: str, make: str, install: str) -> None:
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from vouched import *\n"
        f"try:\n    {make}\n"
        "except MissingExtraError as error:\n    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert install in out
