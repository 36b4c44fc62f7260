"""``server.scan_processes``: /v1/scan in processes of its own, so its scans
never hold the GIL the event loop needs; reports as a thread gives them."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

import httpx
import pytest

from vouched._server._app import create_app
from vouched._server._config import load_config

from ._serving import EXAMPLES, NOW, serving

FACTS = json.loads((EXAMPLES / "facts.json").read_text(encoding="utf-8"))
LEXICON = json.loads((EXAMPLES / "lexicon.json").read_text(encoding="utf-8"))
TEXT = "Berlin is 21.4 °C with winds of 18 km/h; Madrid sits at 30 °C. It is NaN."
BODIES: list[dict[str, Any]] = [
    {"text": TEXT, "facts": FACTS, "lexicon": "weather", "now": NOW},
    {"text": TEXT, "facts": FACTS, "lexicon": LEXICON, "now": NOW},
    {"text": TEXT, "facts": FACTS, "now": NOW},
    {"text": 'He said "the winds are calm all day long".', "facts": FACTS, "now": NOW,
     "sources": ["The winds are calm all day long."], "question": "Is it 21.4 °C?"},
]  # fmt: skip


def _reports(scan_processes: int) -> tuple[list[Any], int, int]:
    """Every body's report, the scan 422 for an unknown lexicon, and the work
    the thread pool took, from a service with ``scan_processes``."""
    config = replace(load_config(EXAMPLES / "serve.toml"), scan_processes=scan_processes)
    app = create_app(config)
    with serving(app) as url:
        reports = [httpx.post(f"{url}/v1/scan", json=body, timeout=60).json() for body in BODIES]
        unknown = {"text": TEXT, "facts": FACTS, "lexicon": "nope", "now": NOW}
        status = httpx.post(f"{url}/v1/scan", json=unknown, timeout=60).status_code
    return reports, status, app.service.pool.started


def test_a_scan_process_reports_what_a_thread_reports_and_the_threads_take_none() -> None:
    in_threads, refused_in_threads, threads_took = _reports(0)
    in_processes, refused_in_processes, processes_left = _reports(1)
    assert in_processes == in_threads
    assert [len(r["findings"]) > 0 for r in in_threads] == [True, True, True, False]
    assert refused_in_threads == refused_in_processes == 422
    assert (threads_took, processes_left) == (len(BODIES), 0)


def test_scan_processes_run_at_a_lower_cpu_priority_than_the_server() -> None:
    from vouched._server._scanpool import NICENESS  # noqa: PLC0415

    app = create_app(replace(load_config(EXAMPLES / "serve.toml"), scan_processes=2))
    with serving(app):
        scans = app.service.scans
        assert scans is not None
        assert set(scans.warm()) == {min(os.nice(0) + NICENESS, 19)}


@pytest.mark.parametrize(("value", "said"), [(65, "between 0 and 64"), (-1, "between 0 and 64")])
def test_scan_processes_is_bounded(tmp_path: Any, value: int, said: str) -> None:
    from vouched import InputError  # noqa: PLC0415

    path = tmp_path / "serve.toml"
    path.write_text(f"[server]\nscan_processes = {value}\n", encoding="utf-8")
    with pytest.raises(InputError, match=f"server.scan_processes: must be {said}"):
        load_config(path)


def test_scan_processes_defaults_to_none(tmp_path: Any) -> None:
    assert load_config(EXAMPLES / "serve.toml").scan_processes == 0
    path = tmp_path / "serve.toml"
    path.write_text("[server]\nscan_processes = 2\n", encoding="utf-8")
    assert load_config(path).scan_processes == 2
