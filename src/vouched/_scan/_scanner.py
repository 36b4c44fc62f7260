"""The output scanner: find every value the model added, with character spans.

``Scanner(facts, lexicon, sources, question, policy)`` compiles once what
depends only on its inputs (:class:`~vouched._scan._reading.Compiled`: the
fact index, the lexicon's phrase matchers, the normalised quote sources, the
question's numbers); ``scanner.scan(text)`` reads one text and
``scanner.stream()`` returns an incremental :class:`StreamScanner` over the
same compiled inputs. ``scan(text, facts, ...)`` is ``Scanner(facts,
...).scan(text)``. Everything is pure (no clock, no I/O) and never raises on
any text.

How a text is read (:mod:`vouched._scan._reading`): the one sentence splitter
(:mod:`vouched._scan._sentences`) cuts it; each sentence is read once: its
quantities (:mod:`vouched._scan._reader`), its mentions and their bindings
(:mod:`vouched._scan._binding`), then the rules table
(:mod:`vouched._scan._rules`), the order of which is the priority. Text
checks (placeholders, internal words, canned fallbacks, unsupported quotes)
run on the same sentence. Numbers in the question may be repeated.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from vouched._fact import Fact
from vouched._gate import GateResult
from vouched._policy import DEFAULT_POLICY, Policy
from vouched._scan._findings import Finding, FindingKind, ScanReport
from vouched._scan._lexicon import Lexicon
from vouched._scan._reading import Compiled, TextReading
from vouched._scan._sentences import SentenceSplitter
from vouched._scan._stream import ScannedSentence, StreamScanner

__all__ = [
    "Finding",
    "FindingKind",
    "ScanReport",
    "ScannedSentence",
    "Scanner",
    "StreamScanner",
    "scan",
]


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

    >>> from vouched import Fact
    >>> fact = Fact(subject="Berlin", attribute="temperature", value="4.3", unit="degC",
    ...             source="open-meteo", observed_at="2026-11-29T12:00:00Z")
    >>> scanner = Scanner([fact])
    >>> scanner.scan("Berlin is at 4.3 °C.").passed, scanner.scan("Berlin is at 9 °C.").passed
    (True, False)
    """

    __slots__ = ("_compiled",)

    def __init__(
        self,
        facts: GateResult | Iterable[Fact],
        lexicon: Lexicon | None = None,
        sources: Iterable[str] = (),
        question: str | None = None,
        policy: Policy = DEFAULT_POLICY,
        *,
        now: datetime | None = None,
    ) -> None:
        self._compiled = Compiled(facts, lexicon, sources, question, policy, now=now)

    def scan(self, text: str) -> ScanReport:
        """Scan one text (each sentence read once, in order)."""
        text = str(text)
        reading = TextReading(self._compiled)
        reading.sentences(text, SentenceSplitter().ends(text, final=True))
        return reading.report()

    def stream(self) -> StreamScanner:
        """An incremental scanner over the same compiled inputs."""
        return StreamScanner.compiled(self._compiled)

    def __repr__(self) -> str:
        index = self._compiled.index
        return f"Scanner(subjects={len(index.subjects)}, attributes={len(index.attributes)})"


def scan(  # noqa: PLR0917 - positional order is the documented public contract
    text: str,
    facts: GateResult | Iterable[Fact],
    lexicon: Lexicon | None = None,
    sources: Iterable[str] = (),
    question: str | None = None,
    policy: Policy = DEFAULT_POLICY,
    *,
    now: datetime | None = None,
) -> ScanReport:
    """Scan a model's ``text`` against the facts that may vouch for it:
    ``Scanner(facts, lexicon, sources, question, policy, now=now).scan(text)``."""
    return Scanner(facts, lexicon, sources, question, policy, now=now).scan(text)
