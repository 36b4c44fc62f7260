"""The words and phrases the readers of a sentence look for: data, in one place.

Word sets are what a careful English reader treats as one family (linking words
between a cue and its number, fillers after a number, comparison words, ...);
each pattern says in its name what it finds. The readers (``_cues``,
``_subjects``, ``_structures``, ``_derived``) import from here; nothing here
reads a text.
"""

from __future__ import annotations

import re

__all__ = [
    "ARTICLE",
    "ARTICLE_VALUES",
    "AT_LEAST",
    "AT_MOST",
    "AT_WORDS",
    "BELOW",
    "BELOW_ZERO",
    "BRACKET_AFTER",
    "CENTS",
    "COMPARE_WORDS",
    "COMPARISON",
    "CONNECTIVE",
    "DIFFERENCE_AFTER",
    "DIFFERENCE_AFTER_KEYS",
    "DIFFERENCE_BEFORE",
    "DIFFERENCE_BEFORE_KEYS",
    "DIGIT",
    "FALL_AFTER",
    "FALL_BEFORE",
    "FALL_CHAIN",
    "FILLER_AFTER",
    "GAP_WORDS",
    "HEDGE_BEFORE",
    "HELD_AFTER",
    "HELD_BEFORE",
    "LINKING",
    "LINK_MARKS",
    "MARGIN_NOUN",
    "MINUS_MARK",
    "NEGATION",
    "ORDINAL_BEFORE",
    "PAIR_GAP",
    "REFERENCE",
    "RESPECTIVELY",
    "ROLE_NOUNS",
    "STATE_LINKS",
    "SUBJECT_JOIN",
    "SUM_KEYS",
    "SUM_WORDS",
    "THAN",
    "VALUE_JOIN",
    "WEEKDAYS",
    "WORD_AFTER",
]

DIGIT = re.compile(r"\d")
LINKING = frozenset(
    {
        "of", "to", "at", "is", "was", "are", "were", "be", "been", "being", "around",
        "about", "roughly", "nearly", "almost", "approximately", "near", "some", "just",
        "only", "over", "under", "by", "from", "reached", "reaching", "reaches", "hit",
        "hits", "stands", "stood", "sits", "sat", "currently", "now", "a", "an", "the",
        "with", "s", "its", "his", "their", "her", "likely", "expected", "forecast",
        "set", "scheduled", "for", "will", "should", "still", "right", "measured",
        "measuring", "reading", "reads", "showing", "shows", "sitting", "standing",
        "registering", "registered", "holding", "holds", "held", "steady", "as", "high",
        "low", "up", "down", "than", "more", "less", "exactly", "precisely", "already",
        "also", "even", "well", "very", "this", "today", "tonight", "morning", "afternoon",
        "evening", "in", "on", "has", "had", "have", "got", "gets", "went", "go",
        "going", "coming", "came", "comes", "and", "or", "per", "costs", "cost", "priced",
    }
)  # fmt: skip
# Words that may follow a number without making it about something else.
AT_WORDS = frozenset({"at", "the", "on", "for", "in", "its", "their"})
LINK_MARKS = frozenset({":", "=", "~", "\u2248"})
FILLER_AFTER = frozenset(
    {
        "and", "or", "but", "with", "in", "at", "on", "for", "this", "that", "the", "today",
        "tonight", "now", "currently", "right", "so", "while", "as", "of", "to", "by",
        "from", "than", "then", "which", "when", "per", "a", "an", "is", "was", "are",
        "were", "against", "versus", "vs", "compared", "respectively", "each",
        "apiece", "overall", "outside", "here", "there", "yesterday", "tomorrow",
        "according", "though", "although", "whereas", "since", "until", "after", "before",
        "during", "over", "under", "around", "about", "up", "down", "higher", "lower",
        "lately", "earlier", "later", "too", "also", "only", "exactly", "sharp", "flat",
        "even", "just", "both", "all", "it", "he", "she", "they", "we", "you",
    }
)  # fmt: skip
HELD_BEFORE = re.compile(
    r"\b(?:held|holding|holds|hold|limited|limiting|limits|limit|kept|keeping|keeps"
    r"|forced|forcing|forces|force)\s+(?:the\s+)?$",
    re.I,
)
HELD_AFTER = re.compile(r"(?:\s*\(.*?\))?\s+(?:to|into|under)\b", re.I)
WORD_AFTER = re.compile(r"\s*[^\W\d_]")
BRACKET_AFTER = re.compile(r"\s*[(\[]\s*(?:the\s+)?", re.IGNORECASE)
CONNECTIVE = re.compile(r"\s*(?:in|at|for|of|from|on|to)\s+(?:the\s+)?", re.IGNORECASE)
GAP_WORDS = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)
PAIR_GAP = re.compile(r"\s*(?:[-\u2013\u2014]|to)\s*|\s*-?\s*(?:for|of)\s*-?\s*", re.I)
VALUE_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&|versus|vs\.?|against)\s)\s*", re.I)
SUBJECT_JOIN = re.compile(
    r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&)\s"
    r"|\s+(?:is|are|was|feels|looks)?\s*(?:\w+er|more\s+\w+|less\s+\w+)\s+than\s+)\s*",
    re.I,
)
RESPECTIVELY = re.compile(r"\s*,?\s*(?:\(\s*)?respectively\b", re.I)
ARTICLE = re.compile(r"(?:^|(?<=\W))(a|an|a\s+pair\s+of|a\s+couple\s+of|a\s+single)\s+$", re.I)
ARTICLE_VALUES = {"a": 1, "an": 1, "one": 1, "a single": 1, "a pair of": 2, "a couple of": 2}
# Derived values: a difference ("a 12-point win", "3 degrees warmer", "led by 12").
DIFFERENCE_AFTER = re.compile(
    r"\s*(?:[-\u2013]\s*)?(?:[^\W\d_]+\s*(?:[-\u2013]\s*)?)?"
    r"(?:win|victory|lead|margin|loss|defeat|deficit|edge|triumph|blowout|rout|advantage"
    r"|warmer|colder|cooler|hotter|higher|lower|more|fewer|less|cheaper|dearer|pricier"
    r"|later|earlier|faster|slower|ahead|behind|longer|shorter|bigger|smaller|difference"
    r"|quicker|busier|wetter|drier|windier|calmer|stronger|weaker|greater|smaller"
    r"|gap|above|below|over|under|up\s+on|down\s+on|range|spread|swing"
    r"|(?:from|since|versus|vs\.?|on|against)\s+(?:the\s+|its\s+)?(?:previous|prior|last"
    r"|day\s+before|earlier))\b",
    re.I,
)
DIFFERENCE_BEFORE = re.compile(
    r"\b(?:won|win|wins|lost|lose|loses|led|leads|lead|trailed|trails|beat|beats|defeated"
    r"|outscored|edged|margin|difference|gap|differ|differs|differed|gain|gained|rise|rose"
    r"|drop|dropped|fall|fell|change|changed)\s+(?:\w+\s+){0,3}?"
    r"(?:by|of)\s+(?:just\s+|only\s+)?$",
    re.I,
)
COMPARISON = re.compile(
    r"\b(?P<op>over|above|more\s+than|greater\s+than|higher\s+than|at\s+least|in\s+excess\s+of"
    r"|exceeding|beyond|under|below|less\s+than|fewer\s+than|lower\s+than|at\s+most"
    r"|no\s+more\s+than|up\s+to)\s+$",
    re.I,
)
BELOW = frozenset({"under", "below", "less than", "fewer than", "lower than"})
AT_MOST = frozenset({"at most", "no more than", "up to"})
AT_LEAST = frozenset({"at least"})
# Sign words a reader applies to a number: "1.15% lower", "3 degrees below zero", "gave up $2".
FALL_AFTER = re.compile(
    r"\s*(?:lower|down|below\s+(?:zero|freezing|0)|in\s+the\s+red|under\s+zero)\b", re.I
)
FALL_BEFORE = re.compile(
    r"\b(?:gave\s+up|gives\s+up|giving\s+up|shed|sheds|slipped|slips|declined|declines"
    r"|dropped|drops|lost|loses|fell|falls|down|decreased|eased|eases|retreated|minus)"
    r"\s+(?:by\s+)?(?:just\s+|some\s+|about\s+|nearly\s+)?$",
    re.I,
)
# "down $2.18, or 1.15%": the sign word governs the restatement after "or"
FALL_CHAIN = re.compile(
    r"\b(?:down|fell|lost|dropped|declined|slipped|shed|gave\s+up)\s+[^,;\n]{1,24}?,?\s+or\s+$",
    re.I,
)
MINUS_MARK = re.compile(r"(?:^|[\s(\[])[-\u2212]$")  # "(-$2.18)": a sign the reader left out
CENTS = re.compile(r"\s*(?:cents?|pence)\b", re.I)
BELOW_ZERO = re.compile(r"\s*(?:degrees?\s+)?below\s+(?P<zero>zero|freezing)\b", re.I)
MARGIN_NOUN = re.compile(
    r"\b(?:win|victory|lead|margin|loss|defeat|deficit|edge|triumph|blowout|rout|advantage"
    r"|difference|gap)\b",
    re.I,
)
REFERENCE = re.compile(r"\s+(?:its|the|their|his|her|that|this)\b", re.I)  # "below its high"
THAN = re.compile(r"\s+(?:\w+\s+){0,2}?than\b", re.I)
SUM_WORDS = re.compile(
    r"\b(?:together|combined|in\s+total|a\s+total\s+of|totall?ing|altogether|in\s+all|sum)\b",
    re.I,
)


# Exact gates of the three patterns above: every match of a pattern holds a match of its
# keys (a substring, case folded the same way), so a sentence without one is skipped
# with no loss; tests/scan/test_scan_gates.py holds the claim.
DIFFERENCE_AFTER_KEYS = re.compile(
    r"win|victory|lead|margin|loss|defeat|deficit|edge|triumph|blowout|rout|advantage"
    r"|warmer|colder|cooler|hotter|higher|lower|more|fewer|less|cheaper|dearer|pricier"
    r"|later|earlier|faster|slower|ahead|behind|longer|shorter|bigger|smaller|difference"
    r"|quicker|busier|wetter|drier|windier|calmer|stronger|weaker|greater"
    r"|gap|above|below|over|under|up|down|range|spread|swing|previous|prior|last|day",
    re.I,
)
DIFFERENCE_BEFORE_KEYS = re.compile(
    r"won|win|lost|lose|led|lead|trail|beat|defeated|outscored|edged|margin|difference"
    r"|gap|differ|gain|rise|rose|drop|fall|fell|change",
    re.I,
)
SUM_KEYS = re.compile(r"together|combined|total|all|sum", re.I)


COMPARE_WORDS = frozenset(
    {"over", "above", "than", "least", "excess", "exceeding", "beyond", "under", "below",
     "most", "up"}
)  # fmt: skip


# -- facts stated in words (vouched._scan._words) ------------------------------------

WEEKDAYS = {
    day: number
    for number, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
    for day in (name, name + "s")  # "meets on Thursdays"
}
"""Weekday names (and their plurals) by ISO weekday - 1: Monday is 0."""

NEGATION = re.compile(
    r"\b(?:not|never|no|nor|neither|without|hardly|barely|cannot|\w+n[\'\u2019]t|"
    r"no\s+longer|fail(?:s|ed)?\s+to|unable\s+to|short\s+of|shy\s+of|miss(?:es|ed)?)\b",
    re.IGNORECASE,
)
"""A statement in words after one of these in its clause is denied or missed, not
stated: "did not beat", "isn't held online", "fell short of a double-double"."""

HEDGE_BEFORE = re.compile(
    r"\b(?:nearly|near|almost|close\s+to|one\s+of|among|tied\s+for|flirted\s+with|"
    r"threatened|chasing|on\s+track\s+for|a\s+bid\s+for|one\s+of\s+the)"
    r"(?:\s+(?:a|an|the|his|her|their|its))?\s*$",
    re.IGNORECASE,
)
"""Words right before a relation phrase that hedge it ("one of the coldest", "a near
triple-double"): the relation is not stated."""

STATE_LINKS = frozenset(
    {
        "is", "are", "was", "were", "be", "been", "being", "remains", "remained",
        "stays", "stayed", "currently", "now", "still", "held", "runs", "run",
        "running", "takes", "took", "place", "meets", "meet", "listed", "marked",
        "reported", "reports", "shown", "showing", "as", "set", "scheduled", "will",
        "also", "today", "fully", "entirely", "of", "the", "'", "s", ",", "(", ":",
        "from", "for", "with", "operating", "operates", "taught", "offered",
    }
)  # fmt: skip
"""Words that may stand between a subject and a word value that states its fact
("the Rust course is held online", "Cousins of the Kings", "Kings' Cousins")."""

ROLE_NOUNS = frozenset(
    {
        "guard", "forward", "center", "centre", "point", "shooting", "small", "power",
        "big", "man", "star", "rookie", "veteran", "coach", "head", "reserve", "starter",
        "teammate", "player", "captain", "instructor", "tutor", "course", "class",
        "workshop", "service", "team", "driver", "conductor",
    }
)  # fmt: skip
"""Nouns that may stand between a word value and the subject it qualifies ("Kings
center DeMarcus Cousins")."""

LATER_OCCASION = re.compile(
    r"\b(?:will|shall|next|upcoming|again|awaits?|on\s+deck|going\s+to|looks?\s+to|"
    r"set\s+to|slated|heads?\s+(?:back|home)|travels?\s+to|returns?\s+home)\b|\w[\'\u2019]ll\b",
    re.IGNORECASE,
)
"""Words that move a sentence to a later occasion ("will host", "their next game", "head
back home"): where every date the facts give had passed when observed (a box score), a
weekday or a value word in such a sentence is about another occasion than the facts'."""

MANNER_OF = re.compile(
    r"\b(?:book(?:s|ed|ing)?|regist(?:er|ers|ered|ering|ration)|sign(?:s|ed|ing)?\s+up|"
    r"enrol(?:l|ls|s|led|ling)?|pay(?:s|ing|ment)?|paid|buy(?:s|ing)?|bought|order(?:s|ed|ing)?|"
    r"reserv(?:e|es|ed|ing|ation)|apply|applied|tickets?|stream(?:s|ed|ing)?|watch(?:ed)?)\b",
    re.IGNORECASE,
)
"""Verbs and nouns whose manner a value word may describe instead of its subject: "book
the pottery class online" says how to book, not where the class is held."""

ORDINAL_BEFORE = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))"
    r"\s+$",
    re.IGNORECASE,
)
"""An ordinal right before a phrase ("his second double-double"): it counts what the
phrase states."""
