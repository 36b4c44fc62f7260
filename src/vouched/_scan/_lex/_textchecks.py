"""Checks on the words of an answer: placeholders, internal vocabulary, canned fallbacks.

Each check returns ``(start, end, detail)`` spans; the scanner turns them into
findings. All are whole-token matches: ``None`` is a placeholder, "Nonesuch"
is not; ``observed_at`` is internal, "observed at noon" is not.

The canned-fallback list is curated and documented below (``FALLBACKS``):
each entry is a pattern tolerant to small wording changes (contractions,
curly apostrophes, "real-time"/"realtime"/"live", optional adverbs), named by
a stable code that appears in the finding's detail.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

__all__ = [
    "FALLBACKS",
    "INTERNAL_WORDS",
    "TextSpan",
    "find_fallbacks",
    "find_internal",
    "find_placeholders",
]


class TextSpan(NamedTuple):
    start: int
    end: int
    detail: str


# -- placeholders -----------------------------------------------------------------

_HTML_TAGS = (
    "a|b|i|u|p|br|hr|em|strong|small|sub|sup|code|pre|span|div|ul|ol|li|table|tr|td|th|"
    "h1|h2|h3|h4|blockquote"
)
_PLACEHOLDER = re.compile(
    r"(?P<brace>\$?\{\{?\s*[A-Za-z_][\w.\[\]-]*\s*\}\}?)"  # {temp}, {{wind}}, ${var}
    r"|(?P<angle><(?!/?(?:" + _HTML_TAGS + r")\b)/?[A-Za-z_][\w -]{0,30}>)"  # <missing>
    r"|(?P<object>\[object Object\])"
    r"|(?P<bracket>\[(?:insert|placeholder|todo|tbd|value|missing)[^\]\n]{0,40}\])"
    r"|(?P<printf>(?<![\w%])%[sd](?![\w]))"
    r"|(?P<none>(?<![\w.])None(?![\w]))"
    r"|(?P<token>(?<![\w.-])(?:null|undefined|NaN|nil|NULL|TODO|TBD|FIXME|XXX|"
    r"N/A|n/a|N\.A\.|#N/A|#VALUE!|#REF!)(?![\w/]))"
    r"|(?P<lorem>(?i:\blorem ipsum\b))"
)
_PLACEHOLDER_WORDS = frozenset(
    {"none", "null", "undefined", "nan", "nil", "todo", "tbd", "fixme", "xxx", "lorem", "n",
     "object", "value", "ref"}
)  # fmt: skip
_PLACEHOLDER_CHARS = ("{", "<", "[", "%s", "%d")
# "None of the trains..." at a sentence start is English, not a leaked null.
_NONE_ENGLISH = re.compile(r"\s+(?:of|are|is|was|were|have|has|had|at|in|to|so|but|left|remain)\b")


_PLACEHOLDER_HINTS = (
    "{", "<", "[", "%s", "%d", "None", "null", "NULL", "undefined", "NaN", "nil",
    "TODO", "TBD", "FIXME", "XXX", "N/A", "n/a", "N.A.", "#", "orem ipsum", "OREM IPSUM",
)  # fmt: skip


def find_placeholders(text: str, tokens: set[str] | None = None) -> list[TextSpan]:
    """Template holes and null values that leaked into the text.

    ``tokens``: the text's lower-case words, if the caller has them (a fast
    pre-check that skips the big pattern for the common, clean text).
    """
    spans: list[TextSpan] = []
    if tokens is not None:
        if not (tokens & _PLACEHOLDER_WORDS) and not any(c in text for c in _PLACEHOLDER_CHARS):
            return spans
    elif not any(hint in text for hint in _PLACEHOLDER_HINTS):
        return spans
    for match in _PLACEHOLDER.finditer(text):
        group = match.lastgroup
        start, end = match.span()
        if group == "none":
            before = start - 1  # the last visible character before (not text[:start]: quadratic)
            while before >= 0 and text[before].isspace():
                before -= 1
            sentence_start = before < 0 or text[before] in ".!?:\n*-•"
            if sentence_start and _NONE_ENGLISH.match(text, end):
                continue
        spans.append(TextSpan(start, end, f"template placeholder {match.group()!r} in the text"))
    return spans


# -- internal vocabulary ------------------------------------------------------------

INTERNAL_WORDS: tuple[str, ...] = (
    # the fact schema's field names
    "observed_at",
    "silent_reason",
    "source_version",
    "ttl",
    # verdicts and reasons (as the code spells them)
    "GROUNDED",
    "SILENT",
    "VIOLATION",
    "confident_without_source",
    "missing_source",
    "missing_observed_at",
    "observed_in_future",
    "low_confidence",
    "no_value",
    "circuit_open",
    "source_error",
    "no_data",
    "not_permitted",
    "Fact(",
    "Verdict(",
)
"""Words no answer should contain: the fact schema, verdict and reason codes."""

_CASE_SENSITIVE = frozenset({"GROUNDED", "SILENT", "VIOLATION"})


@lru_cache(maxsize=256)
def _internal_pattern(terms: tuple[tuple[str, bool], ...]) -> re.Pattern[str] | None:
    parts = []
    for term, sensitive in sorted(terms, key=lambda t: len(t[0]), reverse=True):
        head = r"(?<![\w-])" if term[0].isalnum() or term[0] == "_" else ""
        tail = r"(?![\w])" if term[-1].isalnum() or term[-1] == "_" else ""
        body = re.escape(term)
        parts.append(head + (body if sensitive else f"(?i:{body})") + tail)
    if not parts:
        return None
    return re.compile("|".join(parts))


@lru_cache(maxsize=256)
def internal_terms(
    extra: tuple[str, ...] = (), identifiers: tuple[str, ...] = ()
) -> tuple[tuple[str, bool], ...]:
    """The built-in words, the caller's ``extra`` terms (case-insensitive) and
    ``identifiers`` (source ids, snake_case attribute names; case-sensitive)."""
    terms: dict[str, bool] = {w: w in _CASE_SENSITIVE for w in INTERNAL_WORDS}
    for term in extra:
        if term.strip():
            terms.setdefault(term.strip(), False)
    for term in identifiers:
        if term.strip():
            terms.setdefault(term.strip(), True)
    return tuple(sorted(terms.items()))


def find_internal(
    text: str, terms: tuple[tuple[str, bool], ...], lowered: str | None = None
) -> list[TextSpan]:
    """Whole-word occurrences of internal terms (identifier-aware)."""
    if lowered is None:
        lowered = text.lower()
    present = tuple(
        (term, sensitive)
        for term, sensitive in terms
        if (term in text if sensitive else term.lower() in lowered)
    )
    if not present:
        return []
    pattern = _internal_pattern(present)
    if pattern is None:
        return []
    return [
        TextSpan(m.start(), m.end(), f"internal term {m.group()!r} in the text")
        for m in pattern.finditer(text)
    ]


# -- canned fallbacks ---------------------------------------------------------------

_APOS = "['\u2019]"
_NOT = (
    rf"(?:do\s+not|don{_APOS}t|does\s+not|doesn{_APOS}t|cannot|can{_APOS}t|can\s+not"
    rf"|am\s+not\s+able\s+to|am\s+unable\s+to|{_APOS}m\s+(?:not\s+able|unable)\s+to"
    r"|have\s+no|lack)"
)
_LIVE = (
    r"(?:real[\s-]?time|live|current|up[\s-]?to[\s-]?date|the\s+latest|recent"
    rf"|today{_APOS}s)"
)
_I_AM = rf"\bI(?:{_APOS}m|\s+am)"

FALLBACKS: tuple[tuple[str, str], ...] = (
    (
        "as_an_ai",
        r"\bas\s+an?\s+(?:ai|artificial\s+intelligence)"
        r"(?:\s+(?:language\s+)?model|\s+assistant|\s+chatbot)?\b",
    ),
    ("as_a_language_model", r"\bas\s+a\s+(?:large\s+)?language\s+model\b"),
    (
        "no_realtime_access",
        rf"\bI\s*{_NOT}\s+(?:have\s+)?(?:direct\s+)?"
        r"(?:access\s+to\s+|the\s+ability\s+to\s+(?:access|provide|browse|check)\s+)?"
        rf"{_LIVE}\s+(?:(?:weather|market|price|stock|exchange[\s-]rate|train|travel)\s+)?"
        r"(?:data|information|weather|prices?|(?:exchange[\s-])?rates?|quotes?|updates?"
        r"|schedules?|forecasts?"
        r"|conditions)",
    ),
    (
        "cannot_browse",
        rf"\bI\s*{_NOT}\s+(?:browse|access|search)\s+(?:the\s+)?(?:internet|web|online)",
    ),
    (
        "knowledge_cutoff",
        r"\b(?:my|the)\s+(?:knowledge|training(?:\s+data)?)\s+(?:cut[\s-]?off|date)"
        r"|\bas\s+of\s+my\s+(?:last\s+)?(?:knowledge|training)(?:\s+(?:update|cut[\s-]?off))?",
    ),
    (
        "not_able_to_provide",
        rf"\bI\s*{_NOT}\s+(?:provide|give|offer)\s+(?:you\s+(?:with\s+)?)?{_LIVE}",
    ),
    (
        "apology_refusal",
        rf"{_I_AM}\s+(?:so\s+|very\s+|really\s+)?sorry,?\s+(?:but\s+)?I\s*{_NOT}\s+"
        r"(?:help|assist|answer|provide)",
    ),
    (
        "check_elsewhere",
        r"\b(?:I\s+(?:would\s+)?recommend|please|you\s+(?:may|might|should)\s+(?:want\s+to\s+)?)"
        r"\s*(?:checking|check|consult(?:ing)?|visit(?:ing)?)\s+(?:a|an|the|your)\s+"
        r"(?:(?:local|official|reliable|reputable|trusted)\s+)+(?:weather\s+|news\s+|financial\s+)?"
        r"(?:service|source|website|site|app|provider|forecast)",
    ),
    (
        "as_an_assistant",
        rf"{_I_AM}\s+(?:just\s+|only\s+)?an?\s+(?:ai|virtual\s+assistant|language\s+model)\b",
    ),
    (
        "hypothetical_value",
        rf"\b(?:for\s+example|hypothetically),?\s+(?:let{_APOS}s\s+say|assume|suppose)\b",
    ),
)
"""Canned refusals and disclaimers: ``(code, pattern)``, matched case-insensitively.

- ``as_an_ai``: "As an AI language model, ..."
- ``as_a_language_model``: "As a large language model ..."
- ``no_realtime_access``: "I don't have (access to) real-time data / current weather ..."
- ``cannot_browse``: "I cannot browse the internet"
- ``knowledge_cutoff``: "my knowledge cutoff", "as of my last training update"
- ``not_able_to_provide``: "I'm unable to provide live ..."
- ``apology_refusal``: "I'm sorry, but I can't help with that"
- ``check_elsewhere``: "I recommend checking a reliable weather service"
- ``as_an_assistant``: "I'm just an AI"
- ``hypothetical_value``: "for example, let's say ..." (invented numbers follow)
"""

_FALLBACK = re.compile(
    "|".join(f"(?P<{code}>{pattern})" for code, pattern in FALLBACKS), re.IGNORECASE
)


# Every fallback pattern contains one of these words.
_FALLBACK_WORDS = frozenset(
    {"i", "knowledge", "training", "please", "you", "example", "hypothetically", "ai",
     "language", "intelligence"}
)  # fmt: skip


def find_fallbacks(text: str, tokens: set[str] | None = None) -> list[TextSpan]:
    """Canned refusals and disclaimers (see :data:`FALLBACKS`).

    ``tokens``: the text's lower-case words, if the caller has them (a fast
    pre-check: most texts contain none of the words every pattern needs).
    """
    if tokens is not None and not (tokens & _FALLBACK_WORDS):
        return []
    return [
        TextSpan(m.start(), m.end(), f"canned fallback ({m.lastgroup}) in the text")
        for m in _FALLBACK.finditer(text)
    ]
