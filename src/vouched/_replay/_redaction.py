"""Redaction: sensitive subjects and values replaced by keyed (HMAC) tokens.

Used by :meth:`vouched.Snapshot.build` before anything is hashed or stored.
A token is ``[redacted:`` + 16 letters + ``]``: letters only, so the scanner
never reads a redaction as a number when the output is replayed. Tokens are an
HMAC-SHA256 under a secret ``key``: without the key, a token of a value from a
small domain (a salary, an age) cannot be reversed by trying every value, so
sensitive settings without a key are a :class:`ConfigError`.

What is redacted, through one method (:meth:`Redactor.document`), in every
text field of the snapshot (whatever fields later formats add):

- a sensitive number wherever the scanner's reader (:mod:`vouched._scan._reader`)
  reads that value, rounded to the precision shown: number words ("eighty-five
  thousand"), scale words and suffixes ("85k", "0.085 million"), any decimal
  form ("85000.0"), fullwidth digits, currency forms ("€85k", "$85,000"); the
  whole span the reader read is replaced;
- every written form of a sensitive value the reader does not read as one
  number: ``85000`` as ``85,000``, ``85.000``, ``85 000``; text values
  case-insensitively;
- a sensitive subject as written, casefolded, reordered (``Smith, Alice``,
  ``Smith Alice``), by its initials (``A. Smith``, ``Smith, A.``) and as a
  slug (``alice-smith``, ``alice_smith``);
- every form above with invisible format characters inside it (a zero-width
  space or joiner, a soft hyphen, a direction mark);
- the citation of a fact about a sensitive subject or attribute, whole;
- every span of an output that a finding ties to a sensitive subject or
  attribute (a wrong salary the model wrote is still about the salary).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

from vouched._exceptions import ConfigError
from vouched._jsonio import dumps
from vouched._policy import Policy
from vouched._scan._factindex import rounds_to
from vouched._scan._reader._numbers import read_numbers
from vouched._scan._reader._quantity import Quantity, QuantityKind

__all__ = ["Redactor", "require_key"]

_TOKEN_LETTERS = 16
_SEPARATORS = (",", ".", " ", "\u202f", "\u00a0", "'", "_")


def require_key(policy: Policy, key: bytes | None, *, where: str) -> None:
    """ConfigError when ``policy`` names sensitive subjects or attributes and
    there is no secret ``key`` to make their tokens with."""
    if (policy.sensitive_subjects or policy.sensitive_attributes) and not key:
        raise ConfigError(
            f"{where}: Policy.sensitive_subjects / sensitive_attributes need a secret "
            "redaction_key (bytes): unkeyed tokens of small values can be reversed by "
            "trying every value"
        )


def _number_forms(value: int | Decimal) -> set[str]:
    """The ways a reader or a model writes a number: grouped, with cents."""
    forms = {dumps(value)}
    integral = value == value.to_integral_value() if isinstance(value, Decimal) else True
    whole = int(value)
    if integral:
        forms.add(str(whole))
        forms.add(f"{whole}.00")
        grouped = f"{whole:,}"
        for separator in _SEPARATORS:
            forms.add(grouped.replace(",", separator))
            forms.add(grouped.replace(",", separator) + (",00" if separator == "." else ".00"))
    else:
        text = format(value, "f")
        head, _, tail = text.partition(".")
        grouped = f"{int(head):,}"
        for separator in _SEPARATORS:
            mark = "," if separator == "." else "."
            forms.add(f"{grouped.replace(',', separator)}{mark}{tail}")
        forms.add(f"{head},{tail}")
    return {form for form in forms if form}


def _name_forms(subject: str) -> set[str]:
    """A person-like name as written, reordered, by its initials and as a slug."""
    words = subject.split()
    forms = {subject, " ".join(words)}
    if len(words) >= 2:
        first, last = " ".join(words[:-1]), words[-1]
        forms.update({f"{last}, {first}", f"{last} {first}", f"{last},{first}"})
        initials = " ".join(f"{word[0]}." for word in words[:-1] if word[:1].isalpha())
        if initials:
            forms.update(
                {f"{initials} {last}", f"{initials}{last}", f"{initials.replace('.', '')} {last}"}
            )
            forms.update({f"{last}, {initials}", f"{last} {initials}"})
    for joiner in ("-", "_", "."):
        forms.add(joiner.join(words))
    return {form for form in forms if form.strip()}


class Redactor:
    """Replaces sensitive subjects and values by keyed tokens in plain data."""

    def __init__(self, policy: Policy, facts: Sequence[dict[str, Any]], key: bytes) -> None:
        self._key = key
        self._attributes = policy.sensitive_attributes
        self._subjects = {s.casefold() for s in policy.sensitive_subjects}
        secrets: dict[str, str] = {}  # casefolded form -> token
        written: set[str] = set()  # forms as written: casefold is not re's IGNORECASE (ß)
        for subject in policy.sensitive_subjects:
            token = self.token("subject", subject.casefold())
            for form in _name_forms(subject):
                secrets.setdefault(form.casefold(), token)
                written.add(form)
        self._values: dict[str, str] = {}
        self._numbers: dict[Decimal, str] = {}  # read by the reader: value -> token
        for fact in facts:
            value = fact["value"]
            sensitive = self._is_sensitive(fact)
            if sensitive and fact.get("citation"):
                citation = str(fact["citation"])
                secrets.setdefault(citation.casefold(), self.token("citation", citation))
                written.add(citation)
            if fact["attribute"] not in self._attributes or value is None:
                continue
            text = value if isinstance(value, str) else dumps(value)
            token = self.token("value", text)
            self._values[text] = token
            if isinstance(value, bool) or not text.strip():
                continue
            forms = _number_forms(value) if isinstance(value, int | Decimal) else {text}
            if isinstance(value, int | Decimal):
                self._numbers.setdefault(Decimal(value), token)
            for form in forms:
                secrets.setdefault(form.casefold(), token)
                written.add(form)
        self._secrets = secrets
        if secrets:
            ordered = sorted(written | set(secrets), key=len, reverse=True)
            alternatives = "|".join(_loose(s) for s in ordered)
            self._pattern: re.Pattern[str] | None = re.compile(
                rf"(?<![\w.,])(?:{alternatives})(?![\w]|[.,]\d)", re.IGNORECASE
            )
        else:
            self._pattern = None

    def _is_sensitive(self, fact: Mapping[str, Any]) -> bool:
        return (
            fact.get("attribute") in self._attributes
            or str(fact.get("subject", "")).casefold() in self._subjects
        )

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
        if self._numbers:
            value = self._read_out(value)
        pattern = self._pattern
        if pattern is None:
            return value
        return pattern.sub(self._replacement, value)

    def _read_out(self, text: str) -> str:
        """``text`` with every quantity the reader reads as a sensitive number replaced."""
        cuts: list[tuple[int, int, str]] = []
        for quantity in read_numbers(text):
            token = self._reads_as_secret(quantity)
            if token is not None:
                cuts.append((quantity.start, quantity.end, token))
        for start, end, token in reversed(cuts):
            text = text[:start] + token + text[end:]
        return text

    def _reads_as_secret(self, quantity: Quantity) -> str | None:
        if quantity.kind is not QuantityKind.NUMBER:
            return None  # a time or a date is read as minutes or a packed date
        for secret, token in self._numbers.items():
            if any(rounds_to(secret, stated, quantity.quantum) for stated in quantity.values):
                return token
        return None

    def _replacement(self, match: re.Match[str]) -> str:
        folded = " ".join(_visible(match.group(0)).casefold().split())
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
        if self._is_sensitive(fact) and out.get("citation"):
            out["citation"] = self.token("citation", str(out["citation"]))
        if out["subject"].casefold() in self._subjects:
            out["subject"] = self.token("subject", out["subject"].casefold())
        return {k: self.data(v) for k, v in out.items()}

    def spans(self, text: str, findings: Iterable[Mapping[str, Any]]) -> str:
        """``text`` with every finding span about a sensitive subject or
        attribute replaced by a token (spans index the text as given)."""
        cuts = sorted(
            {
                (int(f["start"]), int(f["end"]))
                for f in findings
                if isinstance(f.get("start"), int)
                and isinstance(f.get("end"), int)
                and 0 <= f["start"] < f["end"] <= len(text)
                and self._is_sensitive(f)
            },
            reverse=True,
        )
        for start, end in cuts:
            text = text[:start] + self.token("span", text[start:end].casefold()) + text[end:]
        return text

    def document(self, document: dict[str, Any]) -> dict[str, Any]:
        """The one redaction of a snapshot's data: facts field by field, each
        output (the answer's, and each attempt's) span by span, then every text
        of every other field, present or added later."""
        out: dict[str, Any] = {}
        for name, value in document.items():
            if name == "facts":
                out[name] = [self.fact(f) for f in value]
            elif name in {"attempts", "trail"} and isinstance(value, list):
                out[name] = [self._attempt(item) for item in value]
            else:
                out[name] = value
        if isinstance(out.get("output"), str):
            out["output"] = self.spans(out["output"], _mappings(out.get("findings")))
        if isinstance(out.get("findings"), list):
            out["findings"] = [self._finding(item) for item in out["findings"]]
        return {k: v if k == "facts" else self.data(v) for k, v in out.items()}

    def _attempt(self, attempt: Any) -> Any:
        if not isinstance(attempt, Mapping):
            return attempt
        out = dict(attempt)
        for name in ("output", "text", "model_text"):
            if isinstance(out.get(name), str):
                out[name] = self.spans(out[name], _mappings(out.get("findings")))
        if isinstance(out.get("findings"), list):
            out["findings"] = [self._finding(item) for item in out["findings"]]
        return out

    def _finding(self, finding: Any) -> Any:
        """A finding about a sensitive subject or attribute keeps no text of its span."""
        if not isinstance(finding, Mapping) or not self._is_sensitive(finding):
            return finding
        out = dict(finding)
        said = out.get("text")
        if isinstance(said, str) and said:
            token = self.token("span", said.casefold())
            out["text"] = token
            if isinstance(out.get("detail"), str):
                out["detail"] = out["detail"].replace(said, token)
        return out


def _mappings(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [item for item in value if isinstance(item, Mapping)]


@lru_cache(maxsize=1)
def _invisible() -> str:
    """The body of a character class of the invisible characters a name may hide behind: every
    format character (Cf) of the Basic Multilingual Plane, the combining grapheme
    joiner and the variation selectors."""
    codes = [c for c in range(0x10000) if unicodedata.category(chr(c)) == "Cf"]
    codes = sorted({*codes, 0x034F, *range(0xFE00, 0xFE10)})
    ranges: list[list[int]] = []
    for code in codes:  # as ranges: the class stays short in every pattern it joins
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


def _visible(text: str) -> str:
    return re.sub(f"[{_invisible()}]+", "", text)


def _loose(secret: str) -> str:
    """A pattern for a secret form: any run of spaces where it has one, and any
    invisible format characters between two of its characters."""
    hidden = f"[{_invisible()}]*"
    parts = []
    for part in secret.split(" "):
        parts.append(hidden.join(re.escape(char) for char in part))
    # Between words: spaces, or only an invisible character ("Alice\u200bSmith").
    return f"[\\s{_invisible()}]+".join(parts)
