"""What the Grounder has before it phrases: the queries, the sources' facts
(gathered, one span per source when traced) and the silences an answer states."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from vouched._answer._tracing import NO_SPAN, TraceSpan, in_span, trace_facts
from vouched._fact import Fact, SilenceReason
from vouched._gate import GateResult, silence_for
from vouched._sources._source import ANY_ATTRIBUTE, Query, Source, gather
from vouched._time import Clock

__all__ = ["Queries", "as_queries", "every_source_failed", "gather_each", "stated_silences"]


def stated_silences(gate: GateResult) -> tuple[Fact, ...]:
    """The silences an answer states: the gate's silences, and one silence
    (without the value) per violation, so a stale fact is said unavailable
    rather than dropped without a word. A (subject, attribute) that has a
    grounded fact, or was already named, is not repeated; nor is a source's
    "no data" about a whole subject when another source grounded facts
    about that subject (a failing source is still said to be unavailable)."""
    seen = {(fact.subject, fact.attribute) for fact in gate.grounded}
    # A source with nothing on a subject ("Nothing about Berlin is available")
    # says nothing against another source's grounded facts about it.
    grounded_subjects = {fact.subject for fact in gate.grounded}
    out: list[Fact] = []
    for fact in gate.silent:
        key = (fact.subject, fact.attribute)
        if (
            fact.attribute == ANY_ATTRIBUTE
            and fact.silent_reason == SilenceReason.NO_DATA
            and fact.subject in grounded_subjects
        ):
            continue
        if key not in seen:
            seen.add(key)
            out.append(fact)
    for verdict in gate.violations:
        key = (verdict.fact.subject, verdict.fact.attribute)
        if key not in seen:
            seen.add(key)
            out.append(silence_for(verdict))
    return tuple(out)


Queries = Query | Sequence[Query]
"""One query, or one per subject."""


def as_queries(query: Queries | None) -> tuple[Query, ...]:
    """``query`` as a non-empty tuple of queries (``None`` is one empty query)."""
    if query is None:
        return ({},)
    if isinstance(query, Mapping):
        return (query,)
    if isinstance(query, str | bytes) or not isinstance(query, Sequence):
        raise TypeError(f"a query is a mapping or a sequence of mappings, not {query!r}")
    queries = tuple(query)
    if not queries or not all(isinstance(q, Mapping) for q in queries):
        raise TypeError("a sequence of queries must hold at least one mapping, and only mappings")
    return queries


async def gather_each(
    sources: Sequence[Source],
    queries: Sequence[Query],
    *,
    deadline: float,
    clock: Clock,
    span: TraceSpan = NO_SPAN,
) -> list[Fact]:
    """:func:`gather` for each query at once; facts in the order of the queries.

    Traced, each source is gathered on its own (the same deadline, the same
    facts in the same order), so each has its span."""
    if span.recording:
        batches = await asyncio.gather(
            *(
                _gather_traced(source, q, index, deadline=deadline, clock=clock, parent=span)
                for index, q in enumerate(queries)
                for source in sources
            )
        )
    elif len(queries) == 1:
        return await gather(sources, queries[0], deadline=deadline, clock=clock)
    else:
        batches = await asyncio.gather(
            *(gather(sources, q, deadline=deadline, clock=clock) for q in queries)
        )
    return [fact for batch in batches for fact in batch]


async def _gather_traced(
    source: Source, query: Query, index: int, *, deadline: float, clock: Clock, parent: TraceSpan
) -> list[Fact]:
    name = getattr(source, "name", "")
    with in_span(parent.child("vouched.source", source=str(name), query=index)) as span:
        with span.current():  # the source's own spans (an HTTP client's) nest under it
            facts = await gather([source], query, deadline=deadline, clock=clock)
        trace_facts(span, facts)
    return facts


_FAILURES = frozenset(
    {
        SilenceReason.CIRCUIT_OPEN,
        SilenceReason.TIMEOUT,
        SilenceReason.SOURCE_ERROR,
        SilenceReason.SOURCE_BUG,
        SilenceReason.MALFORMED,
        SilenceReason.STORE_UNAVAILABLE,
    }
)


def every_source_failed(gate: GateResult) -> bool:
    """Nothing grounded, some source failed, and no source answered with a
    silence of its own (``no_data``, ``demoted``, ...): the answer can only
    say that nothing is available."""
    if gate.grounded or not gate.silent:
        return False
    return all(fact.silent_reason in _FAILURES for fact in gate.silent)
