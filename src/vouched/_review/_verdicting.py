"""Taking a reviewer's verdict: the session, its CSRF token, the form read.

A verdict is a ``POST`` of an HTML form (no script needed) carrying a token
tied to the browser's session: the pages set a random session cookie
(``HttpOnly``, ``SameSite=Strict``) and the form carries an HMAC of it under
a secret made when the pages start, so another site can neither read nor
forge it. :class:`~vouched._review._guard.ReviewGuard` refuses cross-site
posts before they reach this module. The reviewer is named by a header the
operator trusts (a proxy's ``X-Forwarded-User``), else the user name of HTTP
Basic (the browser's login prompt), else the name the pages were started
with.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from vouched._replay._snapshot import Snapshot
from vouched._replay._verdicts import MAX_NOTE, Mark, ReviewVerdict

__all__ = ["COOKIE", "BadVerdictError", "Sessions", "read_verdict", "reviewer_of"]

COOKIE = "vouched_review_session"


class BadVerdictError(ValueError):
    """A verdict form the pages cannot take (the message names the field)."""


class Sessions:
    """Session ids and the CSRF token of each (an HMAC under a per-start secret)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or secrets.token_bytes(32)

    @staticmethod
    def new() -> str:
        return secrets.token_hex(16)

    @staticmethod
    def usable(session: str | None) -> bool:
        return session is not None and len(session) == 32 and session.isalnum()

    def token(self, session: str) -> str:
        return hmac.new(self._secret, session.encode(), "sha256").hexdigest()[:32]

    def check(self, session: str | None, token: str) -> bool:
        if session is None or not self.usable(session):
            return False
        return hmac.compare_digest(self.token(session), token)


def reviewer_of(
    headers: Mapping[str, str], *, header: str | None, default: str, max_length: int = 200
) -> str:
    """Who gives a verdict: the trusted ``header``, else Basic's user name, else ``default``."""
    if header:
        named = headers.get(header.lower(), "").strip()
        if named:
            return named[:max_length]
    scheme, _, secret = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "basic":
        try:
            user = base64.b64decode(secret.strip(), validate=True).decode("utf-8").partition(":")[0]
        except (binascii.Error, UnicodeDecodeError):
            user = ""
        if user.strip():
            return user.strip()[:max_length]
    return default[:max_length]


def _number(form: Mapping[str, Any], name: str) -> int:
    text = str(form.get(name, ""))
    if not text.isdigit() or len(text) > 9:
        raise BadVerdictError(f"{name}: a whole number")
    return int(text)


def read_verdict(
    snapshot: Snapshot, form: Mapping[str, Any], *, reviewer: str, at: datetime
) -> ReviewVerdict:
    """The verdict a form gives on one of ``snapshot``'s findings (or on words
    with none, ``mark=missed``); :class:`BadVerdictError` names what is wrong."""
    try:
        mark = Mark(str(form.get("mark", "")))
    except ValueError:
        raise BadVerdictError("mark: right, false_alarm or missed") from None
    attempt = _number(form, "attempt")
    trail = snapshot.trail
    texts = [a.text for a in trail] if trail else [snapshot.output]
    findings = [a.findings for a in trail] if trail else [snapshot.findings]
    if not 1 <= attempt <= len(texts):
        raise BadVerdictError(f"attempt: 1 to {len(texts)}")
    start, end = _number(form, "start"), _number(form, "end")
    kind = str(form.get("kind", ""))[:64]
    note = str(form.get("note", ""))[:MAX_NOTE]
    given = ReviewVerdict(
        snapshot_id=snapshot.id,
        attempt=attempt,
        mark=mark,
        kind=kind,
        start=start,
        end=end,
        text="",
        reviewer=reviewer,
        at=at,
        prompt_version=trail[attempt - 1].prompt_version if trail else snapshot.prompt_version,
        created_at=snapshot.created_at,
        note=note,
    )
    if mark is Mark.MISSED:
        text = texts[attempt - 1]
        if text is None or not 0 <= start < end <= len(text):
            raise BadVerdictError("start, end: select words of the attempt's text")
        return replace(given, text=text[start:end], rule=kind or "(missed)")
    for finding in findings[attempt - 1]:
        if (
            str(finding.get("kind")) == kind
            and finding.get("start") == start
            and finding.get("end") == end
        ):
            return replace(
                given,
                text=str(finding.get("text") or ""),
                rule=str(finding.get("rule") or kind),
                attribute=str(finding.get("attribute") or ""),
            )
    raise BadVerdictError("kind, start, end: no such finding in this attempt")
