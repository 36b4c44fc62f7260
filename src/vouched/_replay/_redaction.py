"""Redaction: sensitive subjects and values replaced by keyed (HMAC) tokens.

Used by :meth:`vouched.Snapshot.build` before anything is hashed or stored.
A token is ``[redacted:`` + 16 letters + ``]``: letters only, so the scanner
never reads a redaction as a number when the output is replayed. Tokens are an
HMAC-SHA256 under a secret ``key``: without the key, a token of a value from a
small domain (a salary, an age) cannot be reversed by trying every value, so
sensitive settings without a key are a :class:`ConfigError`.

What is redacted, through one method (:meth:`Redactor.document`), in every
text field of the snapshot (whatever fields later formats add), read the way
a reader reads it (:mod:`vouched._replay._folding`): in any case, width,
script of digits, with accents, look-alike letters of other scripts (a
Cyrillic e), URL escapes (``%20``) and invisible characters folded away:

- a sensitive number wherever the scanner's reader (:mod:`vouched._scan._lex`)
  reads that value, rounded to the precision shown: number words ("eighty-five
  thousand"), scale words and suffixes ("85k", "0.085 million"), any decimal
  form ("85000.0"), fullwidth digits, currency forms ("€85k", "$85,000"); the
  whole span the reader read is replaced; scientific (``8.5e4``),
  hexadecimal (``0x14c08``) and roman (``LXXXV thousand``) forms, any number
  with a scale word (``85 grand``, ``850 hundred``, ``0.85 lakh``);
- every written form of a sensitive value the reader does not read as one
  number: ``85000`` as ``85,000``, ``85.000``, ``85 000``; text values
  case-insensitively;
- a sensitive subject as written, reordered (``Smith, Alice``, ``Smith
  Alice``), by its initials in either order (``A. Smith``, ``Smith, A.``,
  ``Alice S.``, ``A.S.``, ``S.A.``), with a title (``Ms. Smith``, ``Dr Alice
  Smith``), joined (``AliceSmith``, ``asmith``), as a slug (``alice-smith``,
  ``alice_smith``, ``alice+smith``), and each of its words alone (``Alice``,
  ``Smith``: the policy marks the whole name sensitive);
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
from vouched._replay._folding import Folded, fold, read_amounts, scale_after
from vouched._scan._facts._factindex import rounds_to
from vouched._scan._lex._numbers import read_numbers
from vouched._scan._lex._quantities import QuantityKind

__all__ = ["Redactor", "require_key"]

_TOKEN_LETTERS = 16
_SEPARATORS = (",", ".", " ", "'", "_")  # as folded: every space is " "
_TITLES = ("mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "madam", "mme", "herr")


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
    """A person-like name (folded) as written, reordered, by its initials in either
    order, with a title, joined, as a slug, and each of its words alone."""
    words = fold(subject).text.split()
    forms = {" ".join(words)}
    if len(words) >= 2:
        first, last = " ".join(words[:-1]), words[-1]
        forms.update({f"{last}, {first}", f"{last} {first}", f"{last},{first}"})
        initials = " ".join(f"{word[0]}." for word in words[:-1] if word[:1].isalpha())
        if initials:
            forms.update(
                {f"{initials} {last}", f"{initials}{last}", f"{initials.replace('.', '')} {last}"}
            )
            forms.update({f"{last}, {initials}", f"{last} {initials}"})
            forms.add(initials.replace(". ", "").replace(".", "") + last)  # asmith
        forms.update({f"{first} {last[0]}.", f"{first} {last[0]}"})  # Alice S.
        letters = [f"{word[0]}." for word in words if word[:1].isalpha()]
        for order in (letters, letters[::-1]):  # A.S., S.A.
            forms.update({"".join(order), " ".join(order)})
        for title in _TITLES:
            for named in (last, " ".join(words)):
                forms.update({f"{title}. {named}", f"{title} {named}"})
        forms.update(word for word in words if len(word) >= 3 and word.isalpha())
    for joiner in ("-", "_", ".", "+", ""):
        forms.add(joiner.join(words))
    return {form for form in forms if form.strip()}


class Redactor:
    """Replaces sensitive subjects and values by keyed tokens in plain data."""

    def __init__(self, policy: Policy, facts: Sequence[dict[str, Any]], key: bytes) -> None:
        self._key = key
        self._attributes = policy.sensitive_attributes
        self._subjects = {s.casefold() for s in policy.sensitive_subjects}
        secrets: dict[str, str] = {}  # folded form -> token
        names: set[str] = set()  # folded name forms: matched as whole words
        for subject in policy.sensitive_subjects:
            token = self.token("subject", subject.casefold())
            for form in _name_forms(subject):
                secrets.setdefault(form, token)
                names.add(form)
        self._values: dict[str, str] = {}
        self._numbers: dict[Decimal, str] = {}  # read by the reader: value -> token
        for fact in facts:
            value = fact["value"]
            sensitive = self._is_sensitive(fact)
            if sensitive and fact.get("citation"):
                citation = str(fact["citation"])
                secrets.setdefault(_folded(citation), self.token("citation", citation))
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
                secrets.setdefault(_folded(form), token)
        self._secrets = secrets
        values = sorted(set(secrets) - names, key=len, reverse=True)
        parts = []
        if names:  # whole words: "Alice" is not redacted inside "Malice"
            ordered = sorted(names, key=len, reverse=True)
            parts.append(rf"(?<!\w)(?:{'|'.join(_loose(s) for s in ordered)})(?!\w)")
        if values:  # a number's form is not part of a longer number
            alternatives = "|".join(_loose(s) for s in values)
            parts.append(rf"(?<![\w.,])(?:{alternatives})(?![\w]|[.,]\d)")
        self._pattern: re.Pattern[str] | None = re.compile("|".join(parts)) if parts else None

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
        pattern = self._pattern
        if pattern is None and not self._numbers:
            return value
        folded = fold(value)
        cuts = self._number_cuts(folded) if self._numbers else []
        if pattern is not None:
            for match in pattern.finditer(folded.text):
                if match.end() > match.start():
                    said = " ".join(match.group(0).split())
                    token = self._secrets.get(said) or self.token("text", said)
                    cuts.append((*folded.span(match.start(), match.end()), token))
        return _cut(value, cuts)

    def _number_cuts(self, folded: Folded) -> list[tuple[int, int, str]]:
        """The original spans of every number read in ``folded`` as a sensitive one:
        the scanner's reader (with a scale word after it: "eighty-five grand"), then
        the notations it does not read (:func:`read_amounts`)."""
        cuts: list[tuple[int, int, str]] = []
        for quantity in read_numbers(folded.text):
            if quantity.kind is not QuantityKind.NUMBER:
                continue  # a time or a date is read as minutes or a packed date
            end, token = quantity.end, self._secret_of(quantity.values, quantity.quantum)
            scaled = scale_after(folded.text, quantity.end)
            if token is None and scaled is not None:
                end, factor = scaled
                token = self._secret_of(
                    [v * factor for v in quantity.values], quantity.quantum * factor
                )
            if token is not None:
                cuts.append((*folded.span(quantity.start, end), token))
        for start, end, readings, quantum in read_amounts(folded.text):
            token = self._secret_of(readings, quantum)
            if token is not None:
                cuts.append((*folded.span(start, end), token))
        return cuts

    def _secret_of(self, readings: Sequence[Decimal], quantum: Decimal) -> str | None:
        for secret, token in self._numbers.items():
            if any(rounds_to(secret, stated, quantum) for stated in readings):
                return token
        return None

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


def _folded(text: str) -> str:
    return " ".join(fold(text).text.split())


def _cut(text: str, cuts: list[tuple[int, int, str]]) -> str:
    """``text`` with each span replaced by its token; overlapping spans as one."""
    merged: list[list[Any]] = []
    for start, end, token in sorted(cuts):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, token])
    for start, end, token in reversed(merged):
        text = text[:start] + token + text[end:]
    return text


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
