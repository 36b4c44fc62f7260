"""The real Redis and PostgreSQL on 127.0.0.1, and a TCP proxy a test controls.

Where ``CI`` is set a missing server fails the test (one line saying which);
elsewhere the test is skipped with the command that starts the server.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import uuid
from collections.abc import Iterator
from contextlib import closing, suppress
from typing import IO

import pytest

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/0"
POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"

START_REDIS = (
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" '
    "--appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log"
)
START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"


def unavailable(what: str, start: str) -> None:
    """Fail (in CI) or skip (elsewhere) a test whose server is not running."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not running (CI needs it); start it with: {start}")
    pytest.skip(f"{what} is not running; start it with: {start}")


def _listening(host: str, port: int) -> bool:
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


def require_redis() -> None:
    if not _listening(REDIS_HOST, REDIS_PORT):
        unavailable("Redis on 127.0.0.1:6379", START_REDIS)


def require_postgres() -> str:
    """The test database's URL, once a connection to it works."""
    import psycopg  # noqa: PLC0415 - the extra under test

    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=2).close()
    except psycopg.OperationalError:
        unavailable("PostgreSQL on 127.0.0.1:5432 (database test)", START_POSTGRES)
    return POSTGRES_URL


def unique(label: str) -> str:
    return f"{label}_{uuid.uuid4().hex[:12]}"


def delete_prefix(prefix: str) -> None:
    """Remove every Redis key under ``prefix`` (a test's own)."""
    import redis  # noqa: PLC0415 - the extra under test

    with redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_timeout=2) as client:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        if keys:
            client.delete(*keys)


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, then released)."""
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Proxy:
    """A TCP proxy on 127.0.0.1 in front of a server: ``cut()`` drops every
    connection and refuses new ones (the server behind it keeps running)."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._open = True
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if not self._open:
                    client.close()
                    continue
                upstream = socket.create_connection(self._target, timeout=2)
                upstream.settimeout(None)
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def cut(self) -> None:
        """Traffic stops: open connections are reset, new ones refused."""
        with self._lock:
            self._open = False
            for sock in self._sockets:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._sockets.clear()

    def mend(self) -> None:
        """Traffic flows again (new connections are forwarded)."""
        with self._lock:
            self._open = True

    def close(self) -> None:
        self.cut()
        self._listener.close()


def proxy_to_redis() -> Iterator[Proxy]:
    proxy = Proxy(REDIS_HOST, REDIS_PORT)
    try:
        yield proxy
    finally:
        proxy.close()


class OwnRedis:
    """A redis-server of the test's own on a free port (never the shared one), with
    no persistence: ``stop()`` then ``start()`` is a restart that loses every key;
    ``pause()`` / ``resume()`` freeze it (SIGSTOP / SIGCONT) with its keys kept."""

    def __init__(self) -> None:
        import shutil  # noqa: PLC0415 - only tests that start their own server need it

        self.binary = shutil.which("redis-server")
        if self.binary is None:
            unavailable("redis-server (the binary)", "apt-get install redis-server")
        self.port = closed_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.binary is not None
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--loglevel", "notice"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        assert self.process.stdout is not None
        for line in self.process.stdout:  # its log, until it says it is ready
            if b"Ready to accept connections" in line:
                break
        else:
            raise AssertionError("redis-server stopped before it was ready")
        self._drain = threading.Thread(target=self._drained, args=(self.process.stdout,))
        self._drain.start()  # its log is read to the end, so the pipe never fills

    @staticmethod
    def _drained(lines: IO[bytes]) -> None:
        with lines:
            lines.read()

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGCONT)
                self.process.kill()
            self.process.wait()
            self._drain.join()
            self.process = None

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()
