"""The snapshot: everything behind one generation, stored so it can be replayed.

A :class:`Snapshot` keeps the facts *as received* (before the gate), the
verdicts the gate gave them at the time, the policy as data, the prompt
version, the phraser, every attempt of the model (its text, the prompt
version, the findings of that attempt and the on-fail action taken), the
output text finally shown, the scan findings (plain JSON dicts, so this module
depends on no scanner class), the claim results, the answer's status and
timings. Replay grades the model's attempts, not the text shown: a refused
answer is stored with the fabrications that caused the refusal.

Format 2 added ``trail`` (the attempts); format 3 stores an attempt's text
once: an attempt that said exactly the text shown has no ``text`` of its own
(it reads as ``output``), so a one-attempt answer is not stored twice. Format
2 snapshots still read, ids and bytes unchanged. Format 4 records the lexicon
the scanner read (``lexicon``: its content hash and name, or null for none;
the content itself is kept once per store, :mod:`vouched._replay._lexicons`),
so replay re-grades each snapshot with its own lexicon. A format 1 snapshot (written before
attempts were stored) still reads, with its id and bytes unchanged: its trail
is rebuilt from what it kept (:func:`vouched._replay._attempts.trail_from_format_1`);
attempts whose text it did not keep have ``text=None``, and replay carries
their findings over instead of re-scanning.

It serialises to canonical JSON (sorted keys, no spaces, UTF-8, decimals
exact); its ``id`` is a content hash of that JSON without the id, so the same
generation stored twice is one snapshot. ``from_json(loads(text))`` of a
snapshot's canonical text gives the same text back, byte for byte.

Redaction: subjects in ``Policy.sensitive_subjects`` and the values of
attributes in ``Policy.sensitive_attributes`` are replaced by an HMAC token
(``[redacted:...]``) under a secret ``redaction_key`` (required when either is
set: :class:`vouched.ConfigError`) everywhere in the snapshot, through one
method (:meth:`Redactor.document <vouched._replay._redaction.Redactor.document>`):
facts, their citations, question, query, output, every attempt, findings,
claims, the policy's own lists, before it is built, so the raw text never
reaches a store. Subjects match case-insensitively and reordered (``Smith,
Alice``); values match as whole tokens in every written form (``85000``,
``85,000``, ``85 000``; ``85000`` in ``185000`` is kept); output spans a
finding ties to a sensitive subject or attribute are redacted whole. Finding
spans refer to the text before redaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from types import MappingProxyType
from typing import Any, NamedTuple

from pydantic import ValidationError

from vouched._exceptions import InputError
from vouched._fact import Fact, silence_reason
from vouched._factio import validation_message
from vouched._gate import classify
from vouched._jsonio import DECODER, dumps, loads
from vouched._policy import Policy
from vouched._replay._attempts import (
    RecordedAttempt,
    attempt_data,
    first_answered,
    only_attempt,
    read_trail,
    trail_from_format_1,
    trusted_attempt,
)
from vouched._replay._jsondata import freeze, freeze_json, plain
from vouched._replay._redaction import Redactor, require_key
from vouched._time import parse_instant, to_utc

__all__ = [
    "FORMAT_VERSION",
    "LexiconRef",
    "Snapshot",
    "StoredVerdict",
    "policy_from_data",
    "policy_version",
]

FORMAT_VERSION = 4
"""The snapshot JSON format; bumped (with a reader for the old one) on change.
1: the final text only; 2: every attempt of the model (``trail``); 3: an
attempt that said the shown text keeps no copy of it; 4: the lexicon the
scanner read (``lexicon``)."""

_READABLE_FORMATS = (1, 2, 3, FORMAT_VERSION)

_ID_LENGTH = 32  # hex characters of SHA-256: 128 bits


class StoredVerdict(NamedTuple):
    """The gate's verdict on the fact at the same index, as it was given then."""

    kind: str
    reason: str
    cardinal: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "cardinal": self.cardinal}


class LexiconRef(NamedTuple):
    """Which lexicon the scanner read: its content hash (``lexicon_version``)
    and a name when it has one (a shipped lexicon's name)."""

    hash: str
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"hash": self.hash, "name": self.name}

    @property
    def label(self) -> str:
        """How pages and reports name it: the name, else ``lexicon <hash>``."""
        return self.name or f"lexicon {self.hash[:8]}"


def _lexicon_ref(data: Any) -> LexiconRef | None:
    if data is None:
        return None
    if (
        not isinstance(data, Mapping)
        or not isinstance(data.get("hash"), str)
        or not (data.get("name") is None or isinstance(data.get("name"), str))
    ):
        raise InputError('must be null or {"hash": str, "name": str or null}', field="lexicon")
    return LexiconRef(data["hash"], data.get("name"))


_SHARED_POLICIES_MAX = 1024


def _shared_policy(
    policies: dict[str, Mapping[str, Any]] | None, version: str, data: Any
) -> Mapping[str, Any]:
    frozen: Mapping[str, Any] | None = None if policies is None else policies.get(version)
    if frozen is None:
        frozen = freeze_json(data)
        if policies is not None:
            if len(policies) >= _SHARED_POLICIES_MAX:  # keep memory flat, whatever the rows
                policies.clear()
            policies[version] = frozen
    return frozen


def _json_normal(value: Any) -> Any:
    """``value`` as the data its canonical JSON reads back as (floats become
    Decimals, datetimes strings, ...), so a reloaded snapshot writes the same bytes."""
    return loads(dumps(value, canonical=True))


def policy_version(policy: Policy | Mapping[str, Any]) -> str:
    """A short content hash of a policy's data: equal policies, equal versions."""
    data = policy.to_json() if isinstance(policy, Policy) else policy
    digest = hashlib.sha256(dumps(data, canonical=True).encode("utf-8")).hexdigest()
    return digest[:16]


def policy_from_data(data: Mapping[str, Any]) -> Policy:
    """:meth:`Policy.from_json` for parsed JSON as read from a file or a snapshot."""
    return Policy.from_json({str(k): v for k, v in data.items()})


def _phraser_name(phraser: object) -> str:
    if isinstance(phraser, str):
        return phraser
    name = getattr(phraser, "name", None)
    if isinstance(name, str) and name:
        return name
    return type(phraser).__qualname__


# -- the snapshot ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Snapshot:
    """Everything behind one answer, as an immutable value.

    Build it with :meth:`build` (computes the verdicts, redacts, hashes);
    read one back with :meth:`from_json`. Two snapshots are equal when their
    ids are (the id is a hash of all the content).
    """

    id: str
    created_at: datetime
    judged_at: datetime
    question: str
    query: Mapping[str, Any]
    facts: tuple[Fact, ...]
    verdicts: tuple[StoredVerdict, ...]
    policy: Mapping[str, Any]
    policy_version: str
    prompt_version: str
    phraser: str
    output: str
    findings: tuple[Mapping[str, Any], ...]
    claims: tuple[Mapping[str, Any], ...]
    status: str
    on_fail: str | None
    attempts: int
    catalog_version: str | None
    timings: Mapping[str, float]
    _canonical: str = field(repr=False)
    trail: tuple[RecordedAttempt, ...] = ()
    """Every attempt of the model, in order (``output`` is what was shown)."""
    lexicon: LexiconRef | None = None
    """The lexicon the scanner read (None: none, or not recorded before format 4)."""
    lexicon_recorded: bool = False
    """Whether the snapshot says which lexicon it was checked with (format 4 on)."""

    # -- building -----------------------------------------------------------

    @classmethod
    def build(
        cls,
        *,
        created_at: datetime,
        question: str,
        query: Mapping[str, Any] | None = None,
        facts: Iterable[Fact],
        policy: Policy,
        now: datetime | None = None,
        prompt_version: str,
        phraser: object,
        output: str,
        findings: Iterable[Any] = (),
        status: str,
        attempts: int = 1,
        timings: Mapping[str, float] | None = None,
        catalog_version: str | None = None,
        claims: Iterable[Any] = (),
        on_fail: str | None = None,
        redaction_key: bytes | None = None,
        trail: Iterable[Mapping[str, Any] | RecordedAttempt] | None = None,
        lexicon: LexiconRef | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> Snapshot:
        """The snapshot of one generation.

        ``facts`` are every fact and silence as received, before the gate;
        the gate is run here with ``policy`` at ``now`` (default:
        ``created_at``) to record the verdicts. ``findings`` and ``claims``
        are scanner findings / claim results (or their ``to_json()`` dicts).
        ``trail``: every attempt of the model, each ``{"text", "prompt_version",
        "findings", "action"}`` (an :class:`AttemptAction`); when not given,
        ``output`` is taken as the model's only attempt, with ``findings``.
        ``lexicon``: which lexicon the scanner read (None: none); the
        lexicon's content goes to the store once, not into each snapshot.
        ``request``: what traces the answer back to its HTTP request (``vouched
        serve``: its ``id``, the ``upstream`` and ``model`` asked, the model
        server's ``response_id`` and ``system_fingerprint``); kept only when given.
        Sensitive subjects and values are redacted (see the module docs);
        sensitive settings without a secret ``redaction_key`` are a
        :class:`vouched.ConfigError`.
        """
        require_key(policy, redaction_key, where="Snapshot.build")
        created = to_utc(created_at)
        judged = created if now is None else to_utc(now)
        fact_list = list(facts)
        verdicts = [classify(fact, policy, judged) for fact in fact_list]
        fact_data = [fact.to_json() for fact in fact_list]
        redactor = Redactor(policy, fact_data, redaction_key or b"")
        document: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "created_at": created,
            "judged_at": judged,
            "question": question,
            "query": bounded(dict(query or {})),
            "facts": fact_data,
            "verdicts": [
                {"kind": str(v.kind), "reason": str(v.reason), "cardinal": v.cardinal}
                for v in verdicts
            ],
            "policy": policy.to_json(),
            "prompt_version": prompt_version,
            "phraser": _phraser_name(phraser),
            "output": output,
            "findings": [plain(item) for item in findings],
            "claims": [plain(item) for item in claims],
            "status": str(status),
            "on_fail": None if on_fail is None else str(on_fail),
            "attempts": attempts,
            "catalog_version": catalog_version,
            # As _json_normal reads a float back (Decimal of its repr), given so now: a
            # time under 0.1 ms is written "3.2e-05" by Python, and a float like it
            # would send every snapshot to the pure emitter (vouched._jsonio).
            "timings": {str(k): Decimal(repr(float(v))) for k, v in (timings or {}).items()},
            "lexicon": None if lexicon is None else lexicon.to_json(),
        }
        document["trail"] = (
            [attempt_data(item) for item in trail]
            if trail is not None
            else [only_attempt(document, prompt_version)]
        )
        if request:
            document["request"] = {str(k): v for k, v in request.items() if v is not None}
        document["policy_version"] = policy_version(document["policy"])
        if redactor.active:
            document = redactor.document(document)
        for attempt in document["trail"]:  # stored once: the shown text is in "output"
            if attempt["text"] == document["output"]:
                del attempt["text"]
        return cls.from_json(_json_normal(document))

    # -- reading ------------------------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, check_id: bool = True) -> Snapshot:
        """A snapshot from its parsed JSON (as :func:`vouched._jsonio.loads` reads it).

        Raises :class:`InputError` naming the field when the data is not a
        snapshot, or when ``check_id`` and the id is not the content's hash.
        A missing ``id`` is computed.
        """
        if not isinstance(data, Mapping):
            raise InputError("expected a JSON object for a snapshot")
        reader = _Reader(data)
        form = reader.integer("format")
        if form not in _READABLE_FORMATS:
            raise InputError(
                f"unsupported snapshot format (this vouched reads 1 to {FORMAT_VERSION})",
                field="format",
            )
        body = {key: value for key, value in data.items() if key != "id"}
        canonical_body = dumps(body, canonical=True)
        digest = _content_id(canonical_body)
        given = data.get("id")
        if given is None:
            given = digest
        elif not isinstance(given, str):
            raise InputError("must be a string", field="id")
        elif check_id and given != digest:
            raise InputError(
                "does not match the snapshot's content (edited or corrupted)", field="id"
            )
        facts = reader.facts()
        verdicts = reader.verdicts(len(facts))
        return cls(
            id=given,
            created_at=reader.instant("created_at"),
            judged_at=reader.instant("judged_at"),
            question=reader.text("question"),
            query=freeze(reader.mapping("query")),
            facts=facts,
            verdicts=verdicts,
            policy=freeze(reader.mapping("policy")),
            policy_version=reader.text("policy_version"),
            prompt_version=reader.text("prompt_version"),
            phraser=reader.text("phraser"),
            output=reader.text("output"),
            findings=reader.records("findings"),
            claims=reader.records("claims"),
            status=reader.text("status"),
            on_fail=reader.optional_text("on_fail"),
            attempts=reader.integer("attempts"),
            catalog_version=reader.optional_text("catalog_version"),
            timings=reader.timings(),
            _canonical=dumps({**body, "id": given}, canonical=True),
            trail=read_trail(reader.get("trail"), shown=data["output"] if form >= 3 else None)
            if form >= 2
            else trail_from_format_1(data),
            lexicon=_lexicon_ref(reader.get("lexicon")) if form >= 4 else None,
            lexicon_recorded=form >= 4,
        )

    @classmethod
    def from_canonical(
        cls, text: str, *, policies: dict[str, Mapping[str, Any]] | None = None
    ) -> Snapshot:
        """A snapshot from canonical JSON written by vouched (a store's own rows):
        the fast path, no re-hashing and no fact validation.

        ``policies``: a dict the caller keeps while reading many rows; rows
        with the same policy version then share one frozen policy mapping
        (a population has a handful of policies and millions of rows).
        """
        data = DECODER.decode(text)
        reader = _Reader(data, trusted=True)
        facts = reader.facts()
        return cls(
            id=data["id"],
            created_at=reader.instant("created_at"),
            judged_at=reader.instant("judged_at"),
            question=data["question"],
            query=freeze_json(data["query"]),
            facts=facts,
            verdicts=tuple(
                StoredVerdict(v["kind"], v["reason"], v["cardinal"]) for v in data["verdicts"]
            ),
            policy=_shared_policy(policies, data["policy_version"], data["policy"]),
            policy_version=data["policy_version"],
            prompt_version=data["prompt_version"],
            phraser=data["phraser"],
            output=data["output"],
            findings=tuple(MappingProxyType(f) for f in data["findings"]),
            claims=freeze_json(data["claims"]),
            status=data["status"],
            on_fail=data["on_fail"],
            attempts=data["attempts"],
            catalog_version=data["catalog_version"],
            timings=MappingProxyType({k: float(v) for k, v in data["timings"].items()}),
            _canonical=text,
            trail=(
                tuple(trusted_attempt(a, data["output"]) for a in data["trail"])
                if data["format"] >= 2
                else trail_from_format_1(data)
            ),
            lexicon=_lexicon_ref(data.get("lexicon")),
            lexicon_recorded=data["format"] >= 4,
        )

    # -- writing ------------------------------------------------------------

    def canonical_json(self) -> str:
        """The canonical JSON text (sorted keys, no spaces); stable byte for byte."""
        return self._canonical

    @property
    def request(self) -> Mapping[str, Any]:
        """What traces the answer to its HTTP request (empty when none was kept)."""
        found = loads(self._canonical).get("request")
        return freeze(found) if isinstance(found, dict) else MappingProxyType({})

    def to_json(self) -> dict[str, Any]:
        """The snapshot as plain JSON data (``loads(canonical_json())``)."""
        data: dict[str, Any] = loads(self._canonical)
        return data

    def policy_object(self) -> Policy:
        """The policy that judged this snapshot, rebuilt from its data."""
        return policy_from_data(self.policy)

    @property
    def passed(self) -> bool:
        """Then: no gate violation among the facts, and the model's first
        attempt passed the scan (a retry that passed does not make it pass;
        neither does a refusal, whose text has no numbers to find)."""
        if any(v.kind == "violation" for v in self.verdicts):
            return False
        if not self.trail:
            return not self.findings
        return self.trail[first_answered(self.trail)].passed  # not a fallback's failed call

    def with_output(self, text: str) -> Snapshot:
        """This snapshot with ``output`` replaced (what replay hands an output
        rule for each attempt); the id and canonical text are unchanged."""
        return replace(self, output=text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return self._canonical == other._canonical

    def __hash__(self) -> int:
        return hash(self.id)


MAX_QUERY_DEPTH = 32  # levels of a query a snapshot keeps; deeper ones are named, not kept
DEEPER = f"[nested deeper than {MAX_QUERY_DEPTH} levels]"


def bounded(value: Any, depth: int = MAX_QUERY_DEPTH) -> Any:
    """``value`` with whatever is nested deeper than ``depth`` containers replaced by
    :data:`DEEPER`: a hostile query (hundreds of levels) is kept in the snapshot
    as far as a reader could follow it, and never reaches a recursion limit."""
    if isinstance(value, Mapping):
        if depth <= 0:
            return DEEPER
        return {k: bounded(v, depth - 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if depth <= 0:
            return DEEPER
        return [bounded(v, depth - 1) for v in value]
    return value


def _content_id(canonical_body: str) -> str:
    return hashlib.sha256(canonical_body.encode("utf-8")).hexdigest()[:_ID_LENGTH]


# -- field readers ----------------------------------------------------------------

_FACT_FIELDS_KNOWN = set(Fact.model_fields) == {
    "subject",
    "attribute",
    "value",
    "unit",
    "source",
    "observed_at",
    "confidence",
    "ttl",
    "citation",
    "source_version",
    "silent_reason",
    "valid_from",
    "valid_until",
}


class _Reader:
    """Reads a snapshot's fields, with :class:`InputError` naming what is wrong."""

    __slots__ = ("_data", "_trusted")

    def __init__(self, data: Mapping[str, Any], *, trusted: bool = False) -> None:
        self._data = data
        self._trusted = trusted

    def get(self, name: str) -> Any:
        if name not in self._data:
            raise InputError("is required", field=name)
        return self._data[name]

    def text(self, name: str) -> str:
        value = self.get(name)
        if not isinstance(value, str):
            raise InputError("must be a string", field=name)
        return value

    def optional_text(self, name: str) -> str | None:
        value = self._data.get(name)
        if value is not None and not isinstance(value, str):
            raise InputError("must be a string or null", field=name)
        return value

    def integer(self, name: str) -> int:
        value = self.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError("must be an integer", field=name)
        return value

    def instant(self, name: str) -> datetime:
        value = self.get(name)
        if self._trusted:  # to_utc: a hand-edited row may hold another offset
            return to_utc(datetime.fromisoformat(value))
        if not isinstance(value, str):
            raise InputError("must be an ISO 8601 date-time string", field=name)
        try:
            return parse_instant(value)
        except ValueError as error:
            raise InputError(str(error), field=name) from None

    def mapping(self, name: str) -> Mapping[str, Any]:
        value = self.get(name)
        if not isinstance(value, Mapping):
            raise InputError("must be a JSON object", field=name)
        return value

    def records(self, name: str) -> tuple[Mapping[str, Any], ...]:
        value = self.get(name)
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            raise InputError("must be an array of JSON objects", field=name)
        return tuple(freeze(v) for v in value)

    def timings(self) -> Mapping[str, float]:
        value = self.mapping("timings")
        out: dict[str, float] = {}
        for key, number in value.items():
            if isinstance(number, bool) or not isinstance(number, int | float | Decimal):
                raise InputError("must be a number of seconds", field=f"timings.{key}")
            out[key] = float(number)
        return MappingProxyType(out)

    def facts(self) -> tuple[Fact, ...]:
        value = self.get("facts")
        if not isinstance(value, list):
            raise InputError("must be an array of facts", field="facts")
        if self._trusted:
            return tuple(_trusted_fact(item) for item in value)
        facts: list[Fact] = []
        for index, item in enumerate(value):
            if not isinstance(item, Mapping):
                raise InputError("must be a JSON object", field=f"facts.{index}")
            try:
                facts.append(Fact.model_validate(item))
            except ValidationError as error:
                where, message = validation_message(error)
                raise InputError(message, field=f"facts.{index}.{where}") from None
        return tuple(facts)

    def verdicts(self, count: int) -> tuple[StoredVerdict, ...]:
        value = self.get("verdicts")
        if not isinstance(value, list) or len(value) != count:
            raise InputError("must be an array with one verdict per fact", field="verdicts")
        out: list[StoredVerdict] = []
        for index, item in enumerate(value):
            if (
                not isinstance(item, Mapping)
                or not isinstance(item.get("kind"), str)
                or not isinstance(item.get("reason"), str)
                or not isinstance(item.get("cardinal"), bool)
            ):
                raise InputError(
                    'must be {"kind": str, "reason": str, "cardinal": bool}',
                    field=f"verdicts.{index}",
                )
            out.append(StoredVerdict(item["kind"], item["reason"], item["cardinal"]))
        return tuple(out)


def _trusted_fact(data: Mapping[str, Any]) -> Fact:
    """A fact from JSON vouched wrote itself: already validated when it was built."""
    observed = data["observed_at"]
    ttl = data["ttl"]
    confidence = data["confidence"]
    reason = data["silent_reason"]
    value = data["value"]
    fields = {
        "subject": data["subject"],
        "attribute": data["attribute"],
        "value": value,
        "unit": data["unit"],
        "source": data["source"],
        "observed_at": None if observed is None else datetime.fromisoformat(observed),
        "confidence": None if confidence is None else float(confidence),
        "ttl": None if ttl is None else timedelta(seconds=float(ttl)),
        "citation": data["citation"],
        "source_version": data["source_version"],
        "silent_reason": None if reason is None else silence_reason(reason),
        "valid_from": _local(data.get("valid_from")),
        "valid_until": _local(data.get("valid_until")),
    }
    if not _FACT_FIELDS_KNOWN:  # pragma: no cover - a Fact field added later: validate
        return Fact.model_validate(data)
    return _construct(fields)


def _local(text: str | None) -> datetime | None:
    """A period's end as vouched wrote it (its offset kept); absent before periods."""
    return None if text is None else datetime.fromisoformat(text.replace("Z", "+00:00"))


def _construct_fast(fields: dict[str, Any]) -> Fact:
    # What pydantic's model_construct does for a model with no defaults to fill,
    # no extras and no private attributes, without its per-call bookkeeping:
    # worth ~30% of bench/replay.py's gate-only rate (replay builds millions of
    # facts). Checked once at import below; Fact.expires_at is then computed by
    # the gate when it needs it.
    fact = Fact.__new__(Fact)
    _set = object.__setattr__
    _set(fact, "__dict__", fields)
    _set(fact, "__pydantic_fields_set__", set(fields))
    _set(fact, "__pydantic_extra__", None)
    _set(fact, "__pydantic_private__", None)
    return fact


def _construct_checked(fields: dict[str, Any]) -> Fact:
    return Fact.model_construct(**fields)


def _fast_path_is_faithful() -> bool:
    probe = Fact(
        subject="s",
        attribute="a",
        value=Decimal("1.5"),
        source="x",
        observed_at="2026-01-01T00:00:00Z",
        ttl=60,
    )
    try:
        copy = _construct_fast(dict(probe.__dict__))
        return copy == probe and copy.to_json() == probe.to_json()
    except Exception:  # noqa: BLE001 - any surprise means: use pydantic's own path
        return False


_construct = _construct_fast if _fast_path_is_faithful() else _construct_checked
