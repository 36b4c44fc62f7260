"""Redaction: sensitive subjects and values replaced by keyed hash tokens.

Used by :meth:`vouched.Snapshot.build` before anything is hashed or stored
(the rules are in :mod:`vouched._replay._snapshot`'s docstring). A token is
``[redacted:`` + 16 letters + ``]``: letters only, so the scanner never reads
a redaction as a number when the output is replayed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from typing import Any

from vouched._jsonio import dumps
from vouched._policy import Policy

__all__ = ["Redactor"]

_TOKEN_LETTERS = 16


class Redactor:
    """Replaces sensitive subjects and values by keyed hash tokens in plain data."""

    def __init__(self, policy: Policy, facts: Sequence[dict[str, Any]], key: bytes) -> None:
        self._key = key
        self._attributes = policy.sensitive_attributes
        self._subjects = {s.casefold() for s in policy.sensitive_subjects}
        secrets: dict[str, str] = {}  # casefolded secret -> token
        forms: set[str] = set()  # what the pattern looks for: as written and casefolded
        for subject in policy.sensitive_subjects:
            secrets[subject.casefold()] = self.token("subject", subject.casefold())
            forms.update((subject, subject.casefold()))
        self._values: dict[str, str] = {}
        for fact in facts:
            value = fact["value"]
            if fact["attribute"] in self._attributes and value is not None:
                text = value if isinstance(value, str) else dumps(value)
                token = self.token("value", text)
                self._values[text] = token
                if text.strip() and not isinstance(value, bool):
                    secrets[text.casefold()] = token
                    forms.update((text, text.casefold()))
        self._secrets = secrets
        if forms:
            alternatives = "|".join(re.escape(s) for s in sorted(forms, key=len, reverse=True))
            self._pattern: re.Pattern[str] | None = re.compile(
                rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE
            )
        else:
            self._pattern = None

    @property
    def active(self) -> bool:
        return self._pattern is not None or bool(self._attributes)

    def token(self, kind: str, text: str) -> str:
        mac = hmac.new(self._key, f"{kind}\x00{text}".encode(), hashlib.sha256).digest()
        # Letters only: a redacted span must not look like a number to the scanner.
        letters = base64.b32encode(mac).decode("ascii").lower()
        letters = "".join(c for c in letters if c.isalpha())[:_TOKEN_LETTERS]
        return f"[redacted:{letters}]"

    def text(self, value: str) -> str:
        pattern = self._pattern
        if pattern is None:
            return value
        return pattern.sub(self._replacement, value)

    def _replacement(self, match: re.Match[str]) -> str:
        folded = match.group(0).casefold()
        # re's IGNORECASE and str.casefold disagree on a few letters: still redact.
        return self._secrets.get(folded) or self.token("text", folded)

    def data(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.text(str(k)): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value

    def fact(self, fact: dict[str, Any]) -> dict[str, Any]:
        out = dict(fact)
        value = out["value"]
        if out["attribute"] in self._attributes and value is not None:
            text = value if isinstance(value, str) else dumps(value)
            out["value"] = self._values[text]
        if out["subject"].casefold() in self._subjects:
            out["subject"] = self.token("subject", out["subject"].casefold())
        return {k: self.data(v) for k, v in out.items()}
