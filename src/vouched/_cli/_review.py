"""``vouched review STORE [--host H] [--port P] [--allow-host NAME ...]
[--token-env VAR] [--policy FILE ...] [--lexicon FILE ...] [--read-only]
[--reviewer NAME] [--reviewer-header HEADER]``, and
``vouched review export-verdicts STORE --out DIR [--lexicon FILE]``.

The review pages over a snapshot store (the ``vouched[server]`` extra):
``STORE`` is a SQLite file, a ``sqlite:///`` or ``postgresql://`` URL (as
``vouched replay --store`` takes), or a JSON Lines export (read into memory;
verdicts go to ``NAME.verdicts.jsonl`` beside it). Reviewers mark each
finding right or a false alarm and mark mistakes the scanner missed; the
verdicts are kept beside the snapshots, never changing them. ``--read-only``
takes none (and opens the store read-only). A verdict is named by
``--reviewer-header`` (a header a proxy in front sets), else by the user name
given at the browser's login prompt, else by ``--reviewer`` (default: the
login name of whoever started the pages).

``export-verdicts`` writes the verdicts as cases in the format of the
scanner's case suite (``DIR/worlds/*.json`` and ``DIR/cases/verdicts.toml``).
Binds 127.0.0.1 (port 8788) unless told otherwise; a host beyond loopback
needs ``--token-env`` naming a variable that holds a token (the browser asks
for it as a password; scripts send ``Authorization: Bearer``). ``--policy``
and ``--lexicon`` files are the rule versions the replay page offers, named
by their file names. The line ``vouched review: listening on
http://HOST:PORT/`` goes to stderr once the socket is bound.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Any

from vouched._cli._common import add_input_limit, load_lexicon, load_policy
from vouched._cli._stores import open_store
from vouched._exceptions import InputError, MissingExtraError

__all__ = ["register"]

DEFAULT_PORT = 8788


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "review",
        help="the review pages over the snapshot store; verdicts on findings",
        description="Serve the review pages (overview, answers, one answer, review queue, "
        "replay) over a snapshot store; reviewers mark findings right or false alarm "
        "(--read-only: no verdicts). 'vouched review export-verdicts STORE --out DIR' writes "
        "the verdicts as scanner cases. Exit 2: bad input or the address cannot be bound.",
    )
    parser.add_argument(
        "store",
        metavar="STORE",
        help="a SQLite file, sqlite:///PATH, postgresql://... or .jsonl "
        "(or export-verdicts, then the STORE)",
    )
    parser.add_argument("exported", nargs="?", metavar="STORE", help=argparse.SUPPRESS)
    parser.add_argument("--out", metavar="DIR", help="export-verdicts: the folder to write")
    parser.add_argument(
        "--read-only", action="store_true", help="take no verdicts (open the store read-only)"
    )
    parser.add_argument(
        "--reviewer",
        default=None,
        metavar="NAME",
        help="who gives verdicts when no header or login names anyone (default: your login)",
    )
    parser.add_argument(
        "--reviewer-header",
        metavar="HEADER",
        help="a request header naming the reviewer (set by a proxy you trust)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host header name accepted besides the loopback names and --host",
    )
    parser.add_argument(
        "--token-env",
        metavar="VAR",
        help="a variable holding the token the pages require (required beyond loopback)",
    )
    parser.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="FILE",
        help="a policy (JSON) the replay page offers; repeat for several",
    )
    parser.add_argument(
        "--lexicon",
        action="append",
        default=[],
        metavar="FILE",
        help="a lexicon (JSON) the replay page offers; repeat for several "
        "(export-verdicts: the lexicon every case names instead of its own)",
    )
    add_input_limit(parser)
    parser.set_defaults(handler=run)


def _imports() -> tuple[Any, Any, Any]:
    try:
        import jinja2  # noqa: F401, PLC0415 - the server extra, checked before the socket
        import uvicorn  # noqa: PLC0415 - the server extra, loaded on use

        from vouched._hosts import is_loopback  # noqa: PLC0415
        from vouched._review import create_review_app  # noqa: PLC0415
    except ImportError as error:
        raise MissingExtraError("server", error.name or "starlette") from None
    return uvicorn, create_review_app, is_loopback


def _named(paths: list[str], option: str) -> dict[str, str]:
    named: dict[str, str] = {}
    for path in paths:
        name = Path(path).name
        if name in named:
            raise InputError(f"two files named {name!r}: rename one", field=option)
        named[name] = path
    return named


def _reviewer(name: str | None) -> str:
    if name:
        return name
    import getpass  # noqa: PLC0415

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in this environment
        return "reviewer"


def run(args: argparse.Namespace) -> int:
    if args.store == "export-verdicts":
        from vouched._cli._cases import export_verdicts  # noqa: PLC0415

        return export_verdicts(args)
    if args.exported is not None:
        raise InputError(f"unrecognized argument {args.exported!r}: give one STORE")
    uvicorn, create_review_app, is_loopback = _imports()
    if not 0 <= args.port <= 65535:
        raise InputError("must be a TCP port (0-65535)", field="--port")
    if not args.host.strip():
        raise InputError(
            "must name an address: an empty host would bind every interface", field="--host"
        )
    token: str | None = None
    if args.token_env:
        token = os.environ.get(args.token_env) or None
        if token is None:
            raise InputError(
                f"the variable {args.token_env} is not set or empty", field="--token-env"
            )
    if not is_loopback(args.host) and token is None:
        raise InputError(
            f"binds beyond loopback ({args.host}): give --token-env naming a variable "
            "that holds a token",
            field="--host",
        )
    policies = {
        name: load_policy(path, max_bytes=args.max_input_bytes)
        for name, path in _named(args.policy, "--policy").items()
    }
    lexicons = {
        name: load_lexicon(path, max_bytes=args.max_input_bytes)
        for name, path in _named(args.lexicon, "--lexicon").items()
    }
    skipped: list[InputError] = []
    store = open_store(args.store, read_only=args.read_only, skipped=skipped)
    if skipped:
        sys.stderr.write(
            f"vouched review: {len(skipped):,} lines of {args.store} skipped, not "
            f"snapshots (the first: {skipped[0]})\n"
        )
    try:
        app = create_review_app(
            store,
            host=args.host,
            allowed_hosts=tuple(args.allow_host),
            token=token,
            policies=policies,
            lexicons=lexicons,
            read_only=args.read_only,
            reviewer=_reviewer(args.reviewer),
            reviewer_header=args.reviewer_header,
        )
        app.index.refresh(force=True)  # read the store once before the first page
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((args.host, args.port))
            sock.listen(128)
        except OSError as error:
            sock.close()
            reason = error.strerror or type(error).__name__
            raise InputError(f"cannot listen on {args.host}:{args.port}: {reason}") from None
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        sys.stderr.write(f"vouched review: listening on http://{shown}:{port}/\n")
        sys.stderr.flush()
        server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        )
        server.run(sockets=[sock])
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()
    return 0
