"""``vouched serve --config SERVE.toml [--host H] [--port P] [--processes N] [--log-requests]``.

Loads the config and every catalog, lexicon and facts file it names once, then
serves the HTTP API under uvicorn (``vouched[server]``). A bad config stops
the start with one line naming the file and the key, exit 2. Binds to
127.0.0.1 unless told otherwise (an empty host is an error, and a host beyond
loopback needs ``server.token_env``); ``--port 0`` picks a free port. On
SIGTERM it stops accepting, gives requests ``shutdown_grace`` seconds, writes
every queued snapshot, then exits 0. The line
``vouched serve: listening on http://HOST:PORT`` goes to stderr once the
socket is bound. Nothing of a request is logged unless ``--log-requests``
(or ``log_requests = true``), and then only method, path, status and time.

``--processes N`` (or ``server.processes``; N > 1) forks N server processes after
the socket is bound; they accept on the one socket, each with its own event loop, CPU pool, upstream
clients and snapshot queue. The first process only supervises: SIGTERM or SIGINT
is passed to every server process and it waits for them; a process that dies is
replaced, unless processes die faster than one a second on average over the last
N deaths (a start that cannot succeed), which stops them all with exit 1.
The server processes keep their metrics in one temporary folder (prometheus-client's
multiprocess mode), so ``/metrics`` counts every process whichever one answers; the
supervisor removes a dead process's live gauges, and the folder at exit.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from vouched._exceptions import InputError, MissingExtraError

__all__ = ["register"]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve gate, scan, verify and answers over HTTP",
        description="Serve the HTTP API described by a config file. "
        "Exit 2: bad config or the address cannot be bound.",
    )
    parser.add_argument("--config", required=True, metavar="SERVE.toml", help="the config file")
    parser.add_argument("--host", help="address to bind (default: the config's, or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to bind (default: the config's, or 8787)")
    parser.add_argument(
        "--processes",
        type=int,
        metavar="N",
        help="server processes accepting on the one socket (default: the config's "
        "server.processes, or 1; see the gateway guide)",
    )
    parser.add_argument(
        "--log-requests", action="store_true", help="log method, path, status and time per request"
    )
    parser.set_defaults(handler=run)


def _imports() -> tuple[Any, Any, Any, Any]:
    try:
        import uvicorn  # noqa: PLC0415 - the server extra, loaded on use

        from vouched._server import _config  # noqa: PLC0415
        from vouched._server._app import create_app  # noqa: PLC0415
        from vouched._server._protocol import uvicorn_settings  # noqa: PLC0415
    except ImportError as error:
        raise MissingExtraError("server", error.name or "starlette") from None
    return uvicorn, create_app, _config, uvicorn_settings


def run(args: argparse.Namespace) -> int:
    uvicorn, create_app, config_module, uvicorn_settings = _imports()
    config = config_module.load_config(args.config)
    changes: dict[str, Any] = {}
    if args.host is not None:
        changes["host"] = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise InputError("must be a TCP port (0-65535)", field="--port")
        changes["port"] = args.port
    if args.log_requests:
        changes["log_requests"] = True
    if args.processes is not None:
        if not 1 <= args.processes <= 64:
            raise InputError("must be between 1 and 64", field="--processes")
        changes["processes"] = args.processes
    config = replace(config, **changes)
    if args.host is not None:
        config_module.check_binding(config, where="--host")
    if config.log_requests:
        logging.basicConfig(format="%(message)s")
        logging.getLogger("vouched.server").setLevel(logging.INFO)
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    sock = _listen(family, config.host, config.port)
    health = (
        None if config.health_port is None else _listen(family, config.host, config.health_port)
    )
    for bound, said in ((sock, "listening on"), (health, "health on")):
        if bound is not None:
            host, port = bound.getsockname()[:2]
            shown = f"[{host}]" if family == socket.AF_INET6 else host
            path = "/healthz" if bound is health else ""
            sys.stderr.write(f"vouched serve: {said} http://{shown}:{port}{path}\n")
    sys.stderr.flush()

    def serve_here() -> int:
        # The event loop shares the GIL with the pool's scanning threads; at the
        # default 5 ms switch interval a cheap /v1/gate waits behind them once per
        # syscall. 1 ms: bench/serve.py (gate p99 while 8 clients scan 32 KB).
        sys.setswitchinterval(0.001)
        app = create_app(config, health=health)

        class Server(uvicorn.Server):  # type: ignore[misc,name-defined]  # uvicorn: Any here
            def handle_exit(self, sig: int, frame: Any) -> None:
                # From SIGTERM on, the service drains: new requests are 503, a stream
                # cut off at the grace is recorded with the reason shutdown, and the
                # grace counts from the signal.
                app.service.draining = True
                app.service.stop_asked()
                super().handle_exit(sig, frame)

        server = Server(uvicorn.Config(app, **uvicorn_settings(config)))
        # uvicorn raises a signal it caught again once it has shut down, with the
        # handler it found at the start; SIG_DFL would end a clean SIGTERM drain
        # as "killed by SIGTERM" (143). The drain is the clean end: exit 0. The
        # server's own handler is that handler: a SIGTERM before uvicorn listens
        # for signals still stops it, and the one raised again changes nothing.
        before = signal.signal(signal.SIGTERM, server.handle_exit)
        try:
            server.run(sockets=[sock])
        finally:
            signal.signal(signal.SIGTERM, before)
        return 0

    if config.processes == 1:
        return serve_here()
    with _shared_metrics() as folder:
        config = replace(config, metrics_dir=folder)  # what serve_here builds from
        return _supervise(config.processes, serve_here, lambda pid: _metrics_gone(pid, folder))


def _listen(family: socket.AddressFamily, host: str, port: int) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: without, a response's headers and body
    # go out as two segments and the second waits for the client's delayed
    # ACK (40 ms a request; bench/serve.py measured it).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
        sock.listen(1024)  # connections wait in the backlog while uvicorn starts
    except OSError as error:
        sock.close()
        reason = error.strerror or type(error).__name__
        raise InputError(f"cannot listen on {host}:{port}: {reason}") from None
    return sock


_MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"


@contextmanager
def _shared_metrics() -> Iterator[Path]:
    """A fresh folder for the server processes' metrics, named in the variable
    prometheus-client reads when it is imported (in each server process, after
    the fork; this one has not imported it); removed, and the variable put
    back, at the end."""
    folder = Path(tempfile.mkdtemp(prefix="vouched-metrics-"))
    before = os.environ.get(_MULTIPROC)
    os.environ[_MULTIPROC] = str(folder)
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(_MULTIPROC, None)
        else:
            os.environ[_MULTIPROC] = before
        shutil.rmtree(folder, ignore_errors=True)


def _metrics_gone(pid: int, folder: Path) -> None:
    """A server process ended: its live gauges leave /metrics (its counts stay)."""
    from prometheus_client import multiprocess  # noqa: PLC0415 - the server extra

    multiprocess.mark_process_dead(pid, str(folder))  # type: ignore[no-untyped-call]  # untyped upstream


def _supervise(
    count: int, serve_here: Callable[[], int], ended: Callable[[int], None] = lambda pid: None
) -> int:
    """Fork ``count`` server processes and wait for them (see the module's docstring)."""
    children: set[int] = set()
    deaths: deque[float] = deque(maxlen=count)
    stopping = False

    def start() -> int:
        pid = os.fork()
        if pid == 0:  # the server process: never returns into the supervisor's code
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # uvicorn sets its own
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 1
            try:
                code = serve_here()
            finally:
                sys.stderr.flush()
                os._exit(code)
        children.add(pid)
        return pid

    def stop(sig: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:  # SIGTERM either way: a second SIGINT makes uvicorn quit at once
            os.kill(pid, signal.SIGTERM)

    for _ in range(count):
        start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    while children:
        pid, wait_status = os.wait()  # retried by Python after a signal (PEP 475)
        children.discard(pid)
        ended(pid)
        code = os.waitstatus_to_exitcode(wait_status)
        if stopping:
            status = max(status, code if code > 0 else 0)
            continue
        deaths.append(time.monotonic())
        if len(deaths) == count and deaths[-1] - deaths[0] < count:
            sys.stderr.write("vouched serve: server processes keep dying; stopping\n")
            stop(signal.SIGTERM, None)
            status = 1
            continue
        started = start()
        sys.stderr.write(f"vouched serve: server process {pid} ended ({code}); {started} started\n")
        sys.stderr.flush()
    return status
