"""Structured claims checked against a trusted catalog.

A model's raw output ``{"<entity_field>": ..., "attribute": ..., "value": ...,
"citation": ...}`` passes these gates in order; the first that fails decides
the status, and each has its own code:

1. ``invalid_json``: the text is not JSON (NaN and Infinity are not JSON, and
   an object that repeats a key is refused naming the key; a reply wrapped in
   one ```json code block, with or without prose around it, is read as the
   JSON inside; two code blocks are not guessed between)
2. ``invalid_shape``: not an object with exactly the four claim keys
3. ``unknown_entity``: the entity is not a catalog key
4. ``unsupported_attribute``: the contract does not allow the attribute (even
   when the catalog has such a column)
5. ``citation_mismatch``: the citation is not that entity's record (a value
   matching elsewhere never rescues a wrong citation)
6. ``invalid_value``: the attribute's normalizer refuses the claimed value (or
   the catalog's cell)
7. ``value_mismatch``: both sides normalize, to different values
8. ``verified``: they normalize to the same value

The same normalizer runs on both sides. Nothing is ever converted to a default
or "fixed". An answer ``{"claims": [...]}`` is checked claim by claim with
:func:`verify_answer`. Both functions are pure and never raise for any text
(a custom normalizer refuses a value by raising ``ValueError``; any other
exception from it is a bug and propagates).
"""

from __future__ import annotations

import enum
import json
import json.scanner
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from vouched._claims._catalog import InvalidCatalogValue
from vouched._files import json_kind
from vouched._jsonio import DECODER

if TYPE_CHECKING:
    from vouched._claims._catalog import Catalog
    from vouched._claims._contract import Contract

__all__ = ["ClaimResult", "ClaimStatus", "verify_answer", "verify_output"]


class ClaimStatus(enum.StrEnum):
    """The outcome of checking one claim: verified, or the gate that refused it."""

    VERIFIED = "verified"
    INVALID_JSON = "invalid_json"
    INVALID_SHAPE = "invalid_shape"
    UNKNOWN_ENTITY = "unknown_entity"
    UNSUPPORTED_ATTRIBUTE = "unsupported_attribute"
    CITATION_MISMATCH = "citation_mismatch"
    INVALID_VALUE = "invalid_value"
    VALUE_MISMATCH = "value_mismatch"


_VERIFIED: Final = ClaimStatus.VERIFIED
_INVALID_JSON: Final = ClaimStatus.INVALID_JSON
_INVALID_SHAPE: Final = ClaimStatus.INVALID_SHAPE
_UNKNOWN_ENTITY: Final = ClaimStatus.UNKNOWN_ENTITY
_UNSUPPORTED: Final = ClaimStatus.UNSUPPORTED_ATTRIBUTE
_CITATION_MISMATCH: Final = ClaimStatus.CITATION_MISMATCH
_INVALID_VALUE: Final = ClaimStatus.INVALID_VALUE
_VALUE_MISMATCH: Final = ClaimStatus.VALUE_MISMATCH


class ClaimResult(NamedTuple):
    """One claim's outcome: a status code, a reason for a person, what was
    claimed (entity, attribute, citation as strings, None when the claim had
    no usable text there), the catalog version it was checked against, and its
    index in an answer (None for a lone claim)."""

    status: ClaimStatus
    reason: str
    entity: str | None
    attribute: str | None
    citation: str | None
    catalog_version: str
    claim_index: int | None = None

    @property
    def verified(self) -> bool:
        return self.status is _VERIFIED

    def to_json(self) -> dict[str, Any]:
        return {
            "claim_index": self.claim_index,
            "status": self.status.value,
            "reason": self.reason,
            "entity": self.entity,
            "attribute": self.attribute,
            "citation": self.citation,
            "catalog_version": self.catalog_version,
        }


# The decoder's scanner parses a document that starts at offset 0 without the two
# whitespace regexes of JSONDecoder.decode (worth ~10-20% of bench/verify.py);
# anything else takes the full path.
_SCAN: Final = json.scanner.make_scanner(DECODER)  # type: ignore[arg-type]  # typeshed: wrong arg type
_SHOWN: Final = 60
# A whole reply wrapped in one fenced code block, ```json or bare ```.
_FENCE: Final = re.compile(r"\s*```(?:json|JSON)?[ \t]*\n(?P<body>.*?)\n?```\s*", re.S)
_NO_VALUE: Final = object()
# ClaimResult(...) runs NamedTuple's Python-level __new__; on the hot path the
# tuple is built directly (same fields, same order, same type): ~6-10% of
# bench/verify.py.
_new_result: Final = tuple.__new__


def _parse(raw_text: object, version: str) -> tuple[Any, ClaimResult | None]:
    if type(raw_text) is str:
        try:
            parsed, end = _SCAN(raw_text, 0)
            if end == len(raw_text):
                return parsed, None
        except (StopIteration, ValueError, RecursionError):
            pass  # decode again below for the exact error
    elif not isinstance(raw_text, str):
        reason = f"output is {type(raw_text).__name__}, not text"
        return None, ClaimResult(_INVALID_JSON, reason, None, None, None, version)
    fenced = _FENCE.fullmatch(raw_text)
    if fenced is not None:  # a reply in a ```json code block is read as its JSON
        raw_text = fenced["body"]
    elif (block := _one_fenced_block(raw_text)) is not None:
        raw_text = block  # "Here you go:\n```json\n{...}\n```": prose around one block
    try:
        return DECODER.decode(raw_text), None
    except json.JSONDecodeError as error:
        reason = (
            f"output is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        )
    except ValueError as error:
        reason = f"output is not valid JSON: {error}"
    except RecursionError:
        reason = "output is not valid JSON: nested too deeply"
    return None, ClaimResult(_INVALID_JSON, reason, None, None, None, version)


def _one_fenced_block(text: str) -> str | None:
    """The body of the one fenced code block (```json or bare ```) in a reply
    with prose around it; None when there is none, or more than one (which
    of two to check is not ours to guess). One pass over the lines."""
    if "```" not in text:
        return None
    found: str | None = None
    lines = text.split("\n")
    opened: int | None = None  # the line of the open block's fence
    counts = False  # whether the open block is JSON (```json or bare ```)
    for number, line in enumerate(lines):
        stripped = line.strip()
        if opened is None:
            if stripped.startswith("```"):
                opened, counts = number, stripped[3:].strip() in {"", "json", "JSON"}
        elif stripped == "```":
            if counts:
                if found is not None:
                    return None
                found = "\n".join(lines[opened + 1 : number])
            opened = None
    return found


def verify_output(raw_text: str, catalog: Catalog, contract: Contract) -> ClaimResult:
    """Check one raw model output holding one claim; never raises for any text."""
    version = catalog.version
    parsed, failed = _parse(raw_text, version)
    if failed is not None:
        return failed
    return _verify_claim(parsed, catalog, contract, version, None)


def verify_answer(raw_text: str, catalog: Catalog, contract: Contract) -> list[ClaimResult]:
    """Check a raw model output claim by claim.

    An answer ``{"claims": [...]}`` gives one result per claim, with
    ``claim_index`` 0, 1, ...; an answer without claims is ``invalid_shape``.
    Any other output is checked as one claim (``claim_index`` None), exactly as
    :func:`verify_output` does. Never raises for any text.
    """
    version = catalog.version
    parsed, failed = _parse(raw_text, version)
    if failed is not None:
        return [failed]
    claims = _answer_claims(parsed)
    if claims is None:
        return [_verify_claim(parsed, catalog, contract, version, None)]
    if not claims:
        reason = "the answer has no claims to verify"
        return [ClaimResult(_INVALID_SHAPE, reason, None, None, None, version)]
    return [
        _verify_claim(claim, catalog, contract, version, index)
        for index, claim in enumerate(claims)
    ]


def _answer_claims(parsed: Any) -> list[Any] | None:
    if type(parsed) is dict and len(parsed) == 1:
        claims = parsed.get("claims")
        if type(claims) is list:
            return claims
    return None


def _verify_claim(
    parsed: Any, catalog: Catalog, contract: Contract, version: str, index: int | None
) -> ClaimResult:
    # The hot path reads the catalog's tables directly (same stage) instead of
    # calling citation() and normalized(): ~4-9% of bench/verify.py. Behaviour
    # is the gate list above.
    if type(parsed) is not dict or parsed.keys() != contract.claim_keys:
        return ClaimResult(
            _INVALID_SHAPE, _shape_reason(parsed, contract, index), None, None, None, version, index
        )
    entity = parsed[contract.entity_field]
    attribute = parsed["attribute"]
    citation = parsed["citation"]
    entity_text = entity if type(entity) is str else None
    attribute_text = attribute if type(attribute) is str else None
    citation_text = citation if type(citation) is str else None

    record = catalog._citations.get(entity_text, _NO_VALUE) if entity_text else _NO_VALUE
    if record is _NO_VALUE:
        reason = f"{_show(entity)} is not in the catalog"
        return _new_result(
            ClaimResult,
            (_UNKNOWN_ENTITY, reason, entity_text, attribute_text, citation_text, version, index),
        )
    normalizer = contract.normalizers.get(attribute_text) if attribute_text is not None else None
    if normalizer is None:
        reason = f"{_show(attribute)} is not an allowed attribute"
        if attribute_text is not None and attribute_text in catalog.columns:
            reason += " (the catalog has the column; the contract does not allow it)"
        return _new_result(
            ClaimResult,
            (_UNSUPPORTED, reason, entity_text, attribute_text, citation_text, version, index),
        )
    assert entity_text is not None  # noqa: S101 - the catalog has a row for it
    assert attribute_text is not None  # noqa: S101 - a normalizer was found for it
    if citation != record or type(citation) is not type(record):
        reason = f"citation {_show(citation)} is not the record of {entity_text} ({_show(record)})"
        return _new_result(
            ClaimResult,
            (
                _CITATION_MISMATCH,
                reason,
                entity_text,
                attribute_text,
                citation_text,
                version,
                index,
            ),
        )
    try:
        claimed = normalizer(parsed["value"])
    except (ValueError, TypeError, ArithmeticError) as error:
        reason = f"claimed {attribute_text} {_show(parsed['value'])} is invalid: {error}"
        return _new_result(
            ClaimResult,
            (_INVALID_VALUE, reason, entity_text, attribute_text, citation_text, version, index),
        )
    column = catalog._memo.get((attribute_text, normalizer))
    trusted = _NO_VALUE if column is None else column.get(entity_text, _NO_VALUE)
    if trusted is _NO_VALUE:
        trusted = catalog.normalized(entity_text, attribute_text, normalizer)
    if type(trusted) is InvalidCatalogValue:
        return _new_result(
            ClaimResult,
            (
                _INVALID_VALUE,
                trusted.reason,
                entity_text,
                attribute_text,
                citation_text,
                version,
                index,
            ),
        )
    if claimed != trusted:
        reason = f"claim={_show(claimed, quote=False)}; catalog={_show(trusted, quote=False)}"
        return _new_result(
            ClaimResult,
            (_VALUE_MISMATCH, reason, entity_text, attribute_text, citation_text, version, index),
        )
    shown = record if type(record) is str else _show(record, quote=False)
    return _new_result(
        ClaimResult,
        (
            _VERIFIED,
            f"matched {attribute_text} in {shown}",
            entity_text,
            attribute_text,
            citation_text,
            version,
            index,
        ),
    )


def _shape_reason(parsed: Any, contract: Contract, index: int | None) -> str:
    wanted = ", ".join(sorted(contract.claim_keys))
    if type(parsed) is not dict:
        return f"a claim must be a JSON object with keys {wanted}, got {json_kind(parsed)}"
    if index is None and _answer_claims(parsed) is not None:
        return "this is an answer of several claims; check it with verify_answer"
    keys = set(parsed)
    missing = sorted(contract.claim_keys - keys)
    extra = sorted(str(key) for key in keys - contract.claim_keys)
    parts = []
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"unexpected {', '.join(_show(key, limit=30) for key in extra[:5])}")
    return f"a claim needs exactly the keys {wanted}: {'; '.join(parts)}"


def _show(value: object, *, quote: bool = True, limit: int = _SHOWN) -> str:
    """A value for a reason line: JSON-like, short, one line."""
    if value is True:
        text = "true"
    elif value is False:
        text = "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = repr(value) if quote else value
    elif isinstance(value, int | Decimal | float):
        text = str(value)
    elif isinstance(value, dict | list):
        text = json_kind(value)
    else:
        text = str(value)
    text = " ".join(text.split()) if not quote else text
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text
