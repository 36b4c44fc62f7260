"""The output scanner: find every value the model added, with character spans.

``Scanner(facts, lexicon, sources, question, policy)`` compiles once what
depends only on its inputs (:class:`~vouched._scan._compiled.Compiled`: the
fact index, the lexicon's phrase matchers, the normalised quote sources, the
question's numbers); ``scanner.scan(text)`` reads one text and
``scanner.stream()`` returns an incremental :class:`StreamScanner` over the
same compiled inputs. ``scan(text, facts, ...)`` is ``Scanner(facts,
...).scan(text)``. Everything is pure (no clock, no I/O) and never raises on
any text.

How a text is read (:mod:`vouched._scan._judge`): the one sentence splitter
(:mod:`vouched._scan._lex._splitter`) cuts it; each sentence is read once: its
quantities (:mod:`vouched._scan._lex`), its mentions and their bindings
(:mod:`vouched._scan._read._binding`), then the rule registry
(:mod:`vouched._scan._rules`), the order of which is the priority. Text
checks (placeholders, internal words, canned fallbacks, unsupported quotes)
run on the same sentence. Numbers in the question may be repeated.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import datetime
from typing import Any

from vouched._fact import Fact, fact_key
from vouched._gate import ContentKey, GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._compiled import Compiled
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._findings import Finding, FindingKind, ScanReport, Tally
from vouched._scan._inputs import as_instant, as_lexicon
from vouched._scan._judge import TextReading
from vouched._scan._lex._splitter import SentenceSplitter
from vouched._scan._rules._echo import Echo, run_echo
from vouched._scan._stream import ScannedSentence, StreamScanner, scan_into

__all__ = [
    "Finding",
    "FindingKind",
    "ScanReport",
    "ScannedSentence",
    "Scanner",
    "StreamScanner",
    "scan",
]


def read_text(compiled: Compiled, text: str) -> ScanReport:
    """One whole text read with ``compiled``, each sentence once, in order."""
    reading = TextReading(compiled)
    reading.sentences(text, SentenceSplitter().ends(text, final=True))
    return reading.report()


def compile_echoes(compiled: Compiled, caller: Iterable[str]) -> tuple[Echo, ...]:
    """Each caller string read once against the facts that vouch for ``compiled`` (no
    source, no question: the caller's text vouches for nothing), kept when it has
    findings (the echo family's input)."""
    strings = tuple(dict.fromkeys(caller))
    if not strings:
        return ()
    own = Compiled(compiled.grounded, compiled.lexicon, policy=compiled.policy, now=compiled.now)
    echoes = (Echo(text, read_text(own, text).findings) for text in strings)
    return tuple(echo for echo in echoes if echo.findings)


class Scanner:
    """A scanner compiled for one set of facts, lexicon, sources and question.

    ``facts``: a :class:`GateResult` (its grounded facts vouch, its silences
    mark pairs that must not be stated, its violations vouch for nothing) or
    facts already gated by the caller (facts with a value vouch; silence facts
    mark pairs). ``sources``: texts quotes may come from. ``question``: its
    numbers may be repeated. ``policy.exact``: attributes that must match as
    written (no rounding). ``now``: when the text is read (default: the instant a
    :class:`GateResult` was judged at); where every date the facts give lies before
    it, a weekday or value word about a later occasion is an ungrounded claim.
    ``caller``: the caller's own strings (a query's values), read once here against
    the facts that vouch; :meth:`echoes` finds them repeated in an answer.

    >>> from vouched import Fact
    >>> fact = Fact(subject="Berlin", attribute="temperature", value="4.3", unit="degC",
    ...             source="open-meteo", observed_at="2026-11-29T12:00:00Z")
    >>> scanner = Scanner([fact])
    >>> scanner.scan("Berlin is at 4.3 °C.").passed, scanner.scan("Berlin is at 9 °C.").passed
    (True, False)
    """

    __slots__ = ("_compiled", "_echoes")

    def __init__(
        self,
        facts: GateResult | Iterable[Fact],
        lexicon: Lexicon | Mapping[str, Any] | None = None,
        sources: Iterable[str] = (),
        question: str | None = None,
        policy: Policy = DEFAULT_POLICY,
        *,
        now: datetime | str | None = None,
        caller: Iterable[str] = (),
    ) -> None:
        self._compiled = Compiled(facts, lexicon, sources, question, policy, now=now)
        self._echoes = compile_echoes(self._compiled, caller)

    @classmethod
    def _of(cls, compiled: Compiled) -> Scanner:
        scanner = cls.__new__(cls)
        scanner._compiled = compiled
        scanner._echoes = ()
        return scanner

    def scan(self, text: str) -> ScanReport:
        """Scan one text (each sentence read once, in order)."""
        return read_text(self._compiled, str(text))

    def echoes(self, text: str) -> list[Finding]:
        """The findings of each ``caller`` string (read once, when this scanner was
        compiled) at every place ``text`` repeats it: the registry's echo family."""
        return run_echo(str(text), self._echoes)

    def scan_into(self, text: str, write: Callable[[tuple[Finding, ...]], object]) -> Tally:
        """Scan one text, handing each sentence's findings to ``write`` as it is read
        (in the order :meth:`scan` reports them) and keeping none: the memory of a
        bounded batch of sentences, whatever the text's length. Returns what the report
        says besides its findings (``passed``, ``score``, how many findings)."""
        return scan_into(self._compiled, str(text), write)

    def stream(self) -> StreamScanner:
        """An incremental scanner over the same compiled inputs."""
        return StreamScanner.compiled(self._compiled)

    def __repr__(self) -> str:
        index = self._compiled.index
        return f"Scanner(subjects={len(index.subjects)}, attributes={len(index.attributes)})"


def scan(  # noqa: PLR0917 - positional order is the documented public contract
    text: str,
    facts: GateResult | Iterable[Fact],
    lexicon: Lexicon | Mapping[str, Any] | None = None,
    sources: Iterable[str] = (),
    question: str | None = None,
    policy: Policy = DEFAULT_POLICY,
    *,
    now: datetime | str | None = None,
) -> ScanReport:
    """Scan a model's ``text`` against the facts that may vouch for it:
    ``Scanner(facts, lexicon, sources, question, policy, now=now).scan(text)``, with
    the compiled scanner reused for equal inputs (see :data:`COMPILED_KEPT`)."""
    return Scanner._of(_compiled(facts, lexicon, sources, question, policy, now)).scan(text)


COMPILED_KEPT = 16
"""How many compiled scanners a one-shot :func:`scan` keeps (least recently used
goes first), keyed by the value of its inputs: never by ``id()``, never by the text."""


def _compiled(  # noqa: PLR0917 - scan's own arguments, in its order
    facts: GateResult | Iterable[Fact],
    lexicon: Lexicon | Mapping[str, Any] | None,
    sources: Iterable[str],
    question: str | None,
    policy: Policy,
    now: datetime | str | None,
) -> Compiled:
    """The compiled form of ``scan``'s inputs, reused when equal inputs come again."""
    at = as_instant(now)
    if at is None and isinstance(facts, GateResult):
        at = facts.at  # what Compiled reads when no ``now`` is given
    if isinstance(facts, GateResult):
        held: GateResult | tuple[Fact, ...] = facts
        key: Hashable = facts.content_key()
    else:
        held = tuple(facts)
        key = ContentKey(tuple(map(_key_of, held)))
    sources = tuple(sources)
    try:
        whole = (key, as_lexicon(lexicon), sources, question, policy, at and at.isoformat())
        hash(whole)
    except TypeError:  # an unhashable part (a caller's own subclass): compile afresh
        return Compiled(held, as_lexicon(lexicon), sources, question, policy, now=at)
    with _LOCK:
        compiled = _KEPT.get(whole)
        if compiled is not None:
            _KEPT.move_to_end(whole)
            return compiled
    compiled = Compiled(held, whole[1], sources, question, policy, now=at)
    with _LOCK:
        _KEPT[whole] = compiled
        while len(_KEPT) > COMPILED_KEPT:
            _KEPT.popitem(last=False)
    return compiled


def _key_of(fact: Fact) -> ContentKey:
    """``fact_key(fact)``, built once per fact object and hashed once: a one-shot scan()
    given a list of facts looked its compiled scanner up by every fact's key, rebuilt on
    each call (the key of a box score's 500 facts cost more than reading its text), and
    hashed every fact's fields on each call (~3% of a box score's one-shot scan)."""
    kept = _FACT_KEYS.get(id(fact))
    if kept is not None and kept[0]() is fact:
        return kept[1]
    key = ContentKey(fact_key(fact))
    ident = id(fact)
    _FACT_KEYS[ident] = (weakref.ref(fact, _forget(ident)), key)
    return key


def _forget(ident: int) -> Callable[[weakref.ref[Fact]], None]:
    """Drops a fact's key when the fact goes (before its id can be another fact's)."""

    def drop(_: weakref.ref[Fact]) -> None:
        _FACT_KEYS.pop(ident, None)

    return drop


# The module-level state of the scanner, on purpose: a bounded cache of pure values (a
# compiled scanner never changes what it reports), so that one-shot scan() calls with
# the same facts do not compile them again, guarded for threads (serve's work pool); and
# each live fact's key (a Fact is frozen, so its key never changes), dropped with the fact.
_KEPT: OrderedDict[tuple[Any, ...], Compiled] = OrderedDict()
_LOCK = threading.Lock()
_FACT_KEYS: dict[int, tuple[weakref.ref[Fact], ContentKey]] = {}
