"""Inputs read in bounded memory, through the one input layer (issue 22).

``serve --config`` (and every file the config names) is refused when it is no
regular file, in-process. The two memory caps need a real process: each runs
the CLI under a 1 GiB address-space limit (the unbounded readers died there:
a 5 MB lexicon took 1.3 GB, ``verify - </dev/zero`` 2.2 GB) and reports its own
peak RSS, which must stay under 200 MB.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from vouched._cli import main

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the peak RSS from /proc"
)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PEAK_RSS_MB = 200
# The child's own high-water mark (VmHWM): getrusage's ru_maxrss would keep the
# pytest process's, which fork hands down and exec keeps.
_CHILD = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from vouched._cli import main
status = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status_file:
    peak = next(line.split()[1] for line in status_file if line.startswith("VmHWM:"))
print(f"peak_rss_kb={peak}", file=sys.stderr)
sys.exit(status)
"""


def _run_capped(*argv: str, stdin: object = subprocess.DEVNULL) -> tuple[int, str, float]:
    """The CLI in a child under a 1 GiB address space: (status, its error line, peak MB)."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv],
        stdin=stdin,  # type: ignore[arg-type]  # a file object or DEVNULL
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = done.stderr.splitlines()
    peak = [line for line in lines if line.startswith("peak_rss_kb=")]
    assert peak, done.stderr[-2000:]
    errors = [line for line in lines if not line.startswith("peak_rss_kb=")]
    return done.returncode, "\n".join(errors), int(peak[0].split("=")[1]) / 1024


def _big_lexicon(shape: str) -> dict[str, object]:
    """Over 5 MB of subjects with aliases, or of one attribute's phrases (each
    also read in the plural, so the matcher holds three per phrase)."""
    if shape == "subjects":
        alias = "the alias {k} of subject {n} in the big lexicon"
        return {
            "subjects": {
                f"Subject number {n}": [alias.format(k=k, n=n) for k in range(3)]
                for n in range(33_000)
            }
        }
    phrases = [f"the reading {n} of the temperature here" for n in range(130_000)]
    return {"attributes": {"temperature": phrases}}


@pytest.mark.parametrize("shape", ["subjects", "attributes"])
def test_a_5_mb_lexicon_is_read_under_200_mb(tmp_path: Path, shape: str) -> None:
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps(_big_lexicon(shape)), encoding="utf-8")
    assert lexicon.stat().st_size > 5 * 1024 * 1024
    answer = tmp_path / "answer.txt"
    answer.write_text("The temperature in Berlin is 21.4 °C.", encoding="utf-8")
    status, errors, peak = _run_capped(
        "scan",
        "--facts",
        str(EXAMPLES / "facts.json"),
        "--lexicon",
        str(lexicon),
        "--now",
        "2026-11-29T12:05:00Z",
        "--json",
        str(answer),
    )
    assert (status, errors) == (0, "")
    assert peak < PEAK_RSS_MB, f"peak RSS {peak:.0f} MB"


def test_claims_from_dev_zero_are_refused_in_bounded_memory() -> None:
    with open("/dev/zero", "rb") as zeros:
        status, errors, peak = _run_capped(
            "verify",
            "--catalog",
            str(EXAMPLES / "catalog.csv"),
            "--contract",
            str(EXAMPLES / "contract.toml"),
            "-",
            stdin=zeros,
        )
    assert status == 2
    assert errors == (
        "vouched verify: <stdin>:1: line longer than the 16,777,216-byte limit for a line of claims"
    )
    assert peak < PEAK_RSS_MB, f"peak RSS {peak:.0f} MB"


def test_a_long_claims_line_within_the_cap_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps({"model_output": "x" * (1024 * 1024)})
    claims = tmp_path / "claims.jsonl"
    claims.write_text(text + "\n", encoding="utf-8")
    status = main(
        [
            "verify",
            "--catalog",
            str(EXAMPLES / "catalog.csv"),
            "--contract",
            str(EXAMPLES / "contract.toml"),
            "--json",
            str(claims),
        ]
    )
    out, err = capsys.readouterr()
    assert (status, err) == (1, "")
    assert json.loads(out)["summary"]["invalid_json"] == 1


@pytest.fixture
def serve_extra() -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")


@pytest.mark.usefixtures("serve_extra")
def test_serve_config_from_dev_zero_is_refused_before_a_byte_is_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--config", "/dev/zero"]) == 2
    assert capsys.readouterr() == (
        "",
        "vouched serve: /dev/zero: is a character device, not a regular file\n",
    )


def _main_within(argv: list[str], seconds: float) -> int | None:
    """``main(argv)`` in a thread: its status, or None if it still runs after ``seconds``."""
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(main(argv)), daemon=True)
    thread.start()
    thread.join(seconds)
    return result[0] if result else None


@pytest.mark.usefixtures("serve_extra")
def test_serve_config_from_a_fifo_is_refused_not_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short relative name: the line is compared whole
    fifo = Path("serve.toml")
    os.mkfifo(fifo)
    assert _main_within(["serve", "--config", str(fifo)], 30) == 2
    assert capsys.readouterr().err == f"vouched serve: {fifo}: is a FIFO, not a regular file\n"


@pytest.mark.usefixtures("serve_extra")
def test_a_lexicon_named_by_the_serve_config_goes_through_the_input_layer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "serve.toml"
    config.write_text('[lexicons]\nweather = "/dev/zero"\n', encoding="utf-8")
    assert main(["serve", "--config", str(config)]) == 2
    assert capsys.readouterr().err == (
        "vouched serve: /dev/zero: is a character device, not a regular file\n"
    )
