"""Explanation rules: a sentence judged as a whole (issue 28; none yet).

The family's place in the registry is fixed (after the word rules); a rule here
will read a sentence's statements and their outcomes and may say which words are
wrong when one explanation makes the sentence true with the fewest changed tokens.
Until then :data:`EXPLANATION_RULES` is empty and the runner passes the statements on.
"""

from __future__ import annotations

from collections.abc import Callable

from vouched._scan._rules._context import SentenceContext, Stated
from vouched._scan._rules._rule import Rule

__all__ = ["EXPLANATION_RULES", "ExplanationCheck", "ExplanationRule"]

ExplanationCheck = Callable[[list[Stated], SentenceContext], list[Stated]]
"""An explanation rule: the sentence's statements, some outcomes replaced."""
ExplanationRule = Rule[ExplanationCheck]

EXPLANATION_RULES: tuple[ExplanationRule, ...] = ()
"""None yet: the place issue 28's rules take."""
