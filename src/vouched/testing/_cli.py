"""The ``vouched`` command run in this process, its streams captured."""

from __future__ import annotations

import io
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple, TextIO

__all__ = ["CliResult", "run_cli"]


class CliResult(NamedTuple):
    """What one run of the command line left: its exit status and its output.

    Named as :class:`subprocess.CompletedProcess` names them, so a test can
    move between :func:`run_cli` and a real process without other changes.

    >>> from vouched.testing import CliResult, run_cli
    >>> returncode, stdout, stderr = run_cli(["--version"])
    >>> returncode, stdout.startswith("vouched "), stderr
    (0, True, '')
    """

    returncode: int
    stdout: str
    stderr: str


def run_cli(
    argv: Sequence[str | os.PathLike[str]],
    *,
    stdin: str | bytes = b"",
    columns: int = 80,
    timeout: float | None = None,
) -> CliResult:
    """Run ``vouched ARGV...`` in this process, as the console script runs it.

    Standard input reads ``stdin`` (bytes as given, text as UTF-8); standard
    output and error are captured as text. The exit status is what the
    command returns or exits with (argparse's ``--help`` and usage errors
    included), so ``returncode``, ``stdout`` and ``stderr`` say what a user
    would see, in a fraction of the time a new interpreter takes. Tables and
    help are laid out ``columns`` wide (set as ``COLUMNS``, so a test sees what
    ``COLUMNS=80 vouched ...`` shows; without ``COLUMNS`` a piped process lays
    tables out wide, never cut). The streams and ``COLUMNS`` are put back
    afterwards, whatever happens. With ``timeout`` (seconds) the command runs
    on a daemon thread and a run that has not ended by then raises
    :class:`TimeoutError` (a hang fails the test instead of stalling the
    suite; the thread is left behind). What needs a real process (a signal, a
    reader that goes away, a memory cap) still needs one.

    >>> import json
    >>> from vouched.testing import run_cli
    >>> fact = {"subject": "Berlin", "attribute": "temperature", "value": 4.3,
    ...         "source": "weather", "observed_at": "2026-11-29T11:58:00Z", "ttl": 900}
    >>> code, out, err = run_cli(["gate", "-", "--now", "2026-11-29T12:00:00Z", "--json"],
    ...                          stdin=json.dumps([fact]))
    >>> code, json.loads(out)["counts"], err
    (0, {'grounded': 1, 'silent': 0, 'violation': 0}, '')
    >>> run_cli(["gate", "-"], stdin="[]").stderr
    '<stdin>: no facts: nothing was vouched for (exit 1)\\n'
    """
    if isinstance(argv, str | bytes):
        raise TypeError(f"run_cli takes a list of arguments, not one string: [{argv!r}, ...]")
    args = [os.fspath(arg) for arg in argv]
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    if timeout is None:
        return _run(args, data, columns)
    results: list[CliResult] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(_run(args, data, columns))
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            errors.append(error)

    worker = threading.Thread(target=run, name="vouched run_cli", daemon=True)
    worker.start()
    worker.join(timeout)
    if errors:
        raise errors[0]
    if not results:
        raise TimeoutError(f"vouched {' '.join(args)[:200]} did not end within {timeout} s")
    return results[0]


def _run(args: list[str], stdin: bytes, columns: int) -> CliResult:
    from vouched._cli import main  # noqa: PLC0415 - the CLI is loaded only by those who run it

    out, err = io.StringIO(), io.StringIO()
    stdin_stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with _columns(columns), _streams(stdin_stream, out, err):
        try:
            code: object = main(args)
        except SystemExit as exit_:
            code = exit_.code
    return CliResult(_status(code, err), out.getvalue(), err.getvalue())


def _status(code: object, err: TextIO) -> int:
    """An exit status as ``sys.exit`` would make it: None is 0, text goes to stderr as 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    err.write(f"{code}\n")
    return 1


@contextmanager
def _columns(columns: int) -> Iterator[None]:
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


@contextmanager
def _streams(stdin: TextIO, stdout: TextIO, stderr: TextIO) -> Iterator[None]:
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
