"""The review pages' door: serve's rules, reading, and verdicts from this site only.

- the ``Host`` header must name this service (loopback names, the bound
  host, ``allowed_hosts``), as in ``vouched serve``: a rebound DNS name in a
  developer's browser cannot reach the pages;
- a token when one is set (required beyond loopback): ``Authorization:
  Bearer TOKEN`` for scripts, or HTTP Basic with the token as the password,
  which a browser asks for by itself (no cookie, no script, no form);
- ``GET`` and ``HEAD``; and, unless the pages are read-only, a ``POST`` of
  a form (a reviewer's verdict) from the pages themselves: one whose
  ``Sec-Fetch-Site`` or ``Origin`` says another site sent it is refused
  (403), and the form must carry the session's CSRF token
  (:mod:`vouched._review._verdicting`). Verdicts are appended beside the
  snapshots, which never change;
- every response carries a strict Content-Security-Policy (scripts and
  styles only from this service, no inline code), ``nosniff`` and no
  referrer.
"""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Collection, Mapping
from typing import Any

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vouched._hosts import LOOPBACK_NAMES, host_name

__all__ = ["SECURITY_HEADERS", "ReviewGuard", "token_matches"]

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


def token_matches(header: str, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``token`` (Bearer, or
    Basic with any user name and the token as the password)."""
    scheme, _, secret = header.partition(" ")
    scheme = scheme.lower()
    given = ""
    if scheme == "bearer":
        given = secret.strip()
    elif scheme == "basic":
        try:
            decoded = base64.b64decode(secret.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return False
        given = decoded.partition(":")[2]
    else:
        return False
    return hmac.compare_digest(given.encode(), token.encode())


_SAME_SITE = {"same-origin", "none"}  # Sec-Fetch-Site values of the pages' own forms
_FORM = "application/x-www-form-urlencoded"


def _cross_site(headers: Mapping[bytes, str]) -> PlainTextResponse | None:
    """A refusal for a POST another site sent, or of another shape than a form."""
    fetch_site = headers.get(b"sec-fetch-site", "").lower()
    if fetch_site and fetch_site not in _SAME_SITE:
        return PlainTextResponse(f"refused: sent from another site ({fetch_site})", 403)
    origin = headers.get(b"origin", "")
    if origin and origin != "null":
        origin_host = origin.partition("://")[2].lower()
        if origin_host != headers.get(b"host", "").lower():
            return PlainTextResponse("refused: the Origin is not this service", 403)
    elif origin == "null" and fetch_site != "same-origin":
        # Browsers send Origin: null under the pages' no-referrer policy; only the
        # fetch metadata then says the form is the pages' own.
        return PlainTextResponse("refused: sent from an opaque origin", 403)
    if headers.get(b"content-type", "").partition(";")[0].strip().lower() != _FORM:
        return PlainTextResponse(f"a verdict is a form ({_FORM})", 415)
    return None


class ReviewGuard:
    """Host allowlist, token, read-only methods and security headers around ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        host: str | None,
        allowed_hosts: Collection[str] = (),
        token: str | None,
        read_only: bool = True,
    ) -> None:
        """``host=None``: the Host and token are checked in front of this guard
        (``vouched serve``'s own guard, where the pages are mounted).
        ``read_only``: refuse every ``POST`` (no verdicts taken)."""
        self.app = app
        self.hosts = (
            None
            if host is None
            else frozenset(n.lower() for n in (*LOOPBACK_NAMES, host, *allowed_hosts))
        )
        self.token = token
        self.read_only = read_only
        self.index: Any = None  # the pages' ReviewIndex (the CLI, tests and the bench read it)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key: value.decode("latin-1") for key, value in scope["headers"]}
        refusal: PlainTextResponse | None = None
        if self.hosts is not None and host_name(headers.get(b"host", "")) not in self.hosts:
            refusal = PlainTextResponse("the Host header names no host of this service", 400)
        elif self.token is not None and not token_matches(
            headers.get(b"authorization", ""), self.token
        ):
            refusal = PlainTextResponse(
                "a token is required (Authorization: Bearer TOKEN, or the browser's "
                "login prompt with the token as the password)",
                401,
                headers={"www-authenticate": 'Basic realm="vouched review", charset="UTF-8"'},
            )
        elif scope["method"] == "POST" and not self.read_only:
            refusal = _cross_site(headers)
        elif scope["method"] not in {"GET", "HEAD"}:
            allowed = "GET, HEAD" if self.read_only else "GET, HEAD, POST"
            refusal = PlainTextResponse(
                "the review pages are read-only" if self.read_only else "method not allowed",
                405,
                headers={"allow": allowed},
            )

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if refusal is not None:
            await refusal(scope, receive, secured)
        else:
            await self.app(scope, receive, secured)
