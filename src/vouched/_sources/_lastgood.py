"""What the last-good cache may keep after a live answer: the one rule, in one place.

Every last-good cache (in memory in :class:`vouched.GuardedSource`, shared in
Redis) moves through :func:`advance`, so they all keep the same promise: an
answer states only the newest value a source gave, never one it withdrew.

- A live silence (a fact with a ``silent_reason`` or no value, or an empty
  answer) **evicts** that (subject, attribute): the source said it has no
  value now, so an outage later must not bring the old one back.
- The cache only moves **forward in observed_at** per (subject, attribute): a
  slow call for an older reading that finishes after a newer one does not
  overwrite it, and the live answer states the newer value it already gave.
- A fact without an observed_at replaces what was kept (nothing to compare).
"""

from __future__ import annotations

from collections.abc import Sequence

from vouched._fact import Fact

__all__ = ["advance"]


def advance(
    kept: Sequence[Fact] | None, answer: Sequence[Fact]
) -> tuple[tuple[Fact, ...], tuple[Fact, ...]]:
    """``(to keep, to state)`` after a live ``answer``, given the facts ``kept``.

    ``to keep`` holds the answer's values (silences dropped), each replaced by
    the kept fact for the same (subject, attribute) when that one was observed
    later; it is empty when nothing is left (evict the entry). ``to state`` is
    the answer with the same replacements, silences kept as they are.
    """
    newest = {
        (fact.subject, fact.attribute): fact
        for fact in kept or ()
        if not fact.is_silent and fact.observed_at is not None
    }
    stated: list[Fact] = []
    for fact in answer:
        before = newest.get((fact.subject, fact.attribute))
        later = (
            before is not None
            and not fact.is_silent
            and fact.observed_at is not None
            and before.observed_at is not None
            and before.observed_at > fact.observed_at
        )
        stated.append(before if later and before is not None else fact)
    keep = tuple(fact for fact in stated if not fact.is_silent)
    return keep, tuple(stated)
