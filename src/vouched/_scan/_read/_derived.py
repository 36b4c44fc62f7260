"""Values a reader computes: signs, bounds, differences and sums.

Sign words where the facts have signs ("1.15% lower", "down $2.18", "(-$2.18)",
"3.2 degrees below zero"), cents as hundredths, a bound stated with a
comparison ("over 50 percent"), a difference the text says it states ("a
12-point win", "3 degrees warmer than Munich") and a sum ("together").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from vouched._scan._facts._factindex import rounds_to
from vouched._scan._lex._numbers import Quantity, QuantityKind
from vouched._scan._lex._units import money_code, units_compatible
from vouched._scan._lex._vocabulary import (
    AT_LEAST,
    AT_MOST,
    BELOW,
    CENTS,
    COMPARISON,
    COUNT_SOURCE,
    DIFFERENCE_AFTER,
    DIFFERENCE_BEFORE,
    EACH_AFTER,
    EACH_BEFORE,
    FALL_AFTER,
    FALL_BEFORE,
    FALL_CHAIN,
    HOURS_THEN_MINUTES,
    JOURNEY_AFTER,
    JOURNEY_BEFORE,
    LIST_JOIN,
    MARGIN_NOUN,
    MINUS_MARK,
    REFERENCE,
    SUM_WORDS,
    THAN,
    computes,
)
from vouched._scan._read._mentions import MentionKind
from vouched._scan._read._sentence import Computes, Cue, SentenceRead
from vouched._scan._read._subjects import names_of
from vouched._scan._read._values import Derived
from vouched._scan._read._wordreading import subjects_before

__all__ = [
    "comparison",
    "computed_words",
    "converted",
    "derived",
    "difference",
    "group_count",
    "journey",
    "sign_spans",
    "signed",
    "within",
]


_ONE = Decimal(1)
_NAMED = MentionKind.NAMED


def _rounds(value: Decimal, quantity: Quantity) -> bool:
    return any(rounds_to(value, stated, quantity.quantum) for stated in quantity.values)


def signed(ctx: SentenceRead, quantity: Quantity) -> Quantity:
    """``quantity`` as a reader takes it: cents as hundredths ("up 74 cents"), and
    negative when a sign says it fell ("1.15% lower", "down $2.18", "(-$2.18)",
    "3.2 degrees below zero")."""
    if quantity.kind is not QuantityKind.NUMBER or quantity.value < 0:
        return quantity
    text = ctx.text
    if quantity.unit is None and CENTS.match(text, quantity.end):
        # "up 74 cents": a hundredth of the currency's unit
        hundred = Decimal(100)
        quantity = quantity._replace(
            value=quantity.value / hundred,
            quantum=quantity.quantum / hundred,
            alternatives=tuple(v / hundred for v in quantity.alternatives),
        )
    if not ctx.signs:
        return quantity
    if not (
        MINUS_MARK.search(text, max(0, quantity.start - 2), quantity.start)
        or FALL_AFTER.match(text, quantity.end)
        or FALL_BEFORE.search(text, max(0, quantity.start - 24), quantity.start)
        or FALL_CHAIN.search(text, max(0, quantity.start - 40), quantity.start)
    ):
        return quantity
    # the sign word decides: "fell 1.17%" is -1.17, never +1.17
    negative = [-v for v in quantity.values if v > 0] + [v for v in quantity.values if v < 0]
    if not negative:
        return quantity  # "fell 0": zero has no sign
    return quantity._replace(value=negative[0], alternatives=tuple(negative[1:]))


def converted(
    ctx: SentenceRead,
    quantity: Quantity,
    quantities: Iterable[Quantity],
    asked: frozenset[tuple[QuantityKind, Any]],
) -> Derived | None:
    """An amount the user asked about, converted through a rate fact: asked for 100
    euros, "100 euros is roughly 15,842 yen" with EUR/JPY at 158.42 (unit "JPY per EUR")
    is 100 x 158.42; "15,842 yen is about 100 euros" the same rate divided. The amount is
    a sum of money stated before it in the sentence (``quantities``) in the rate's other
    currency whose value the question holds (``asked``): an amount nobody asked about
    converts to an invented number. One unit of a currency needs no asking: "1 USD is
    about 0.95 EUR" states the rate the other way round (1 / 1.0512), and vouches when
    it holds (when it does not, the value is judged as any other: a unit, another
    pair's rate). The result holds when it rounds to the precision shown. None when no
    such amount and rate join two stated currencies."""
    unit = money_code(quantity.unit)
    if unit is None or quantity.kind is not QuantityKind.NUMBER:
        return None
    rates = ctx.facts.currency_rates()
    if not rates:
        return None
    results: list[tuple[Decimal, str]] = []
    any_asked = False
    for amount in quantities:
        if amount.end > quantity.start:
            break
        base = money_code(amount.unit)
        if base is None or base == unit or amount.kind is not QuantityKind.NUMBER:
            continue
        is_asked = any((amount.kind, v) in asked for v in amount.values)
        if not is_asked and amount.value != 1:
            continue
        any_asked = any_asked or is_asked
        for to, frm, rate in rates:
            if (to, frm) == (unit, base):
                results.append((amount.value * rate, f"{amount.text} x {rate}"))
            elif (to, frm) == (base, unit):
                results.append((amount.value / rate, f"{amount.text} / {rate}"))
    if not results:
        return None
    if any(_rounds(value, quantity) for value, _ in results):
        return Derived("conversion", True, "")
    if not any_asked:  # one unit's rate the other way round vouches; it never accuses
        return None
    value, how = results[0]
    return Derived("conversion", False, f"{how} is {value.normalize():f} {unit}")


def sign_spans(ctx: SentenceRead) -> list[tuple[int, int]]:
    """Spans of "zero" in "below zero": part of the sign, not a number."""
    spans = []
    if "below" in ctx.text.lower():
        for match in re.finditer(r"\bbelow\s+(zero)\b", ctx.text, re.I):
            spans.append(match.span(1))
    return spans


def comparison(ctx: SentenceRead, quantity: Quantity) -> str | None:
    """ "over 50 percent", "fewer than 10": the comparison a bound is stated with."""
    window = ctx.text[max(0, quantity.start - 24) : quantity.start]
    match = COMPARISON.search(window)
    if match is None:
        return None
    op = " ".join(match["op"].lower().split())
    if op in BELOW:
        return "<"
    if op in AT_MOST:
        return "<="
    if op in AT_LEAST:
        return ">="
    return ">"


def computed_words(text: str) -> Computes:
    """Which words of a computed value ``text`` holds: the exact gates of the three
    patterns (searched once per sentence, when its first number asks)."""
    return Computes(*computes(text))


def derived(
    ctx: SentenceRead,
    quantity: Quantity,
    stated: Iterable[Quantity],
    gates: Computes,
    cue: Cue | None,
) -> Derived | None:
    """A difference or sum the text says it computes, checked against the facts.
    ``gates``: the sentence's words of a computed value (:func:`computed_words`);
    ``cue``: the attribute phrase right after the quantity, if any."""
    if not (gates.after or gates.before or gates.total):
        return None
    sentence = ctx.structure.sentence(quantity.start)
    if gates.after or gates.before:
        said, found = _stated_difference(ctx, quantity, gates, cue, sentence)
        if said:
            return found
    if not gates.total:
        return None
    return _stated_sum(ctx, quantity, stated, sentence)


def _stated_difference(
    ctx: SentenceRead,
    quantity: Quantity,
    gates: Computes,
    cue: Cue | None,
    sentence: tuple[int, int],
) -> tuple[bool, Derived | None]:
    """Do the words around ``quantity`` say it states a difference ("a 12-point win",
    "3 degrees warmer than Munich", "up by 2")? If so, with its check."""
    text = ctx.text
    after = DIFFERENCE_AFTER.match(text, quantity.end) if gates.after else None
    if after is not None and cue is not None and cue.start < after.end() <= cue.end:
        after = None  # "38 percent from behind the arc": the word is the attribute's own
    before = None
    if gates.before:
        before = DIFFERENCE_BEFORE.search(
            text[max(sentence[0], quantity.start - 60) : quantity.start]
        )
    if after is None and before is None:
        return False, None
    found = difference(ctx, quantity, sentence, cue)
    if found is None or found.matches:
        return True, found
    # "3 degrees warmer than Munich", "a 12-point win": the text says it is a
    # difference; "1.15% lower" alone may be a change, checked as stated.
    said = before is not None or (
        after is not None
        and (
            MARGIN_NOUN.search(after.group()) is not None
            or THAN.match(text, after.end()) is not None
            or REFERENCE.match(text, after.end()) is not None
        )
    )
    return True, (found if said else None)


def _stated_sum(
    ctx: SentenceRead, quantity: Quantity, stated: Iterable[Quantity], sentence: tuple[int, int]
) -> Derived | None:
    """A sum the text says ``quantity`` is ("A and B combined for C"): the values stated
    before the sum word, added."""
    text = ctx.text
    word = SUM_WORDS.search(text, max(sentence[0], quantity.start - 40), quantity.end + 20)
    if word is None:
        return None
    # the addends come before the sum word ("A and B combined for C"); numbers after
    # it are a list the word introduces ("totaling 25 points and six rebounds")
    upto = min(word.start(), quantity.start)
    values = [
        q.value
        for q in stated
        if sentence[0] <= q.start and q.end <= upto and q.kind is quantity.kind
    ]
    if len(values) < 2:
        return None
    total = sum(values, Decimal(0))
    ok = _rounds(total, quantity)
    return Derived("sum", ok, f"the values stated before it sum to {total}")


def difference(
    ctx: SentenceRead, quantity: Quantity, sentence: tuple[int, int], cue: Cue | None
) -> Derived | None:
    """The difference a number states, between two named subjects' values of one attribute
    or two of one subject's facts in one unit; a mismatch only between subjects (which two
    of a subject's facts it computes is a guess)."""
    subjects = _sentence_subjects(ctx, sentence)
    compared = _compared_attributes(ctx, quantity, subjects, cue)
    differences = _between_subjects(ctx, subjects, compared)
    between = bool(differences)
    for subject in subjects:  # two facts of one subject in one unit: rate - previous
        differences.extend(within(ctx, subject, quantity))
    if not differences:
        return None
    for value, _ in differences:
        if _rounds(value, quantity) or (quantity.unit != "%" and _rounds(-value, quantity)):
            return Derived("difference", True, "")
    if not between:
        return None
    shown = "; ".join(f"{d} ({how})" for d, how in differences[:3])
    return Derived("difference", False, f"the facts differ by {shown}")


_TIME = QuantityKind.TIME
_JOURNEY_REACH = 40  # characters before a duration where journey words are read


def journey(
    ctx: SentenceRead, quantity: Quantity, quantities: Iterable[Quantity]
) -> Derived | None:
    """A duration stated as a journey's length ("a journey of 1 hour 43 minutes", "travel
    time is about 95 minutes", "a 103-minute trip") is the time between two of the times
    of a subject its sentence names, else the one named last (departure to arrival),
    hours and minutes read as one
    duration; it is no delay. Another length is a mismatch when the subject has two
    times; None when no subject of the sentence has two (nothing to compute from)."""
    if quantity.unit not in {"h", "min"}:
        return None
    text = ctx.text
    sentence = ctx.structure.sentence(quantity.start)
    start, minutes, whole = _duration(text, quantity, quantities)
    if minutes is None:  # the hours of "1 hour 43 minutes": judged with its minutes
        return Derived("journey", True, "") if _journey_words(ctx, start, whole) else None
    if not _journey_words(ctx, start, whole):
        return None
    subjects = _sentence_subjects(ctx, sentence) or subjects_before(ctx, start) or []
    for subject in subjects:
        times = _times_of(ctx, subject)
        if len(times) < 2:
            continue
        apart = sorted({b - a for i, a in enumerate(times) for b in times[i + 1 :] if b > a})
        if any(_same_length(d, minutes, quantity, start) for d in apart):
            return Derived("journey", True, "")
        shown = ", ".join(f"{d} min" for d in apart[:3])
        return Derived("journey", False, f"two times of {subject} are {shown} apart")
    return None


def _duration(
    text: str, quantity: Quantity, quantities: Iterable[Quantity]
) -> tuple[int, Decimal | None, int]:
    """(start, minutes, end) of the duration ``quantity`` is part of: "1 hour 43 minutes"
    is 103 minutes from the hours' start; the hours of such a pair give None minutes."""
    for other in quantities:
        if quantity.unit == "h" and other.unit == "min" and other.start > quantity.end:
            gap = HOURS_THEN_MINUTES.match(text, quantity.end)
            if gap is not None and gap.end() == other.start:
                return quantity.start, None, other.end
        if quantity.unit == "min" and other.unit == "h" and other.end < quantity.start:
            gap = HOURS_THEN_MINUTES.match(text, other.end)
            if gap is not None and gap.end() == quantity.start:
                return other.start, other.value * 60 + quantity.value, quantity.end
    scale = 60 if quantity.unit == "h" else 1
    return quantity.start, quantity.value * scale, quantity.end


def _journey_words(ctx: SentenceRead, start: int, end: int) -> bool:
    text = ctx.text
    low = max(ctx.structure.sentence(start)[0], start - _JOURNEY_REACH)
    return bool(JOURNEY_BEFORE.search(text[low:start]) or JOURNEY_AFTER.match(text, end))


def _times_of(ctx: SentenceRead, subject: str) -> list[Decimal]:
    """The distinct times of day ``subject``'s facts give, in minutes, in order."""
    index = ctx.facts
    found = {
        r.value
        for attribute in index.fitting_attributes(subject, _TIME, None)
        for r in index.pair_readings(subject, attribute)
        if r.kind is _TIME
    }
    return sorted(found)


def _same_length(apart: Decimal, minutes: Decimal, quantity: Quantity, start: int) -> bool:
    """Does a length of ``apart`` minutes read as the duration stated: exactly when hours
    and minutes are given, else rounded to the precision shown."""
    if start != quantity.start:
        return apart == minutes
    if quantity.unit == "h":
        return _rounds(apart / 60, quantity)
    return _rounds(apart, quantity)


def _sentence_subjects(ctx: SentenceRead, sentence: tuple[int, int]) -> list[str]:
    """The distinct subjects the sentence names, in order."""
    low = bisect_left(ctx.mention_starts, sentence[0])
    high = bisect_left(ctx.mention_starts, sentence[1])
    subjects: list[str] = []
    for i in range(low, high):
        for name in names_of(ctx, i)[:1]:
            if name not in subjects:
                subjects.append(name)
    return subjects


def _compared_attributes(
    ctx: SentenceRead, quantity: Quantity, subjects: list[str], cue: Cue | None
) -> list[str]:
    """What the difference is of: the cue after the number, else the attribute its unit
    names for the sentence's subjects, else what the first two named subjects both state
    ("0.05 points higher than auth's")."""
    index = ctx.facts
    if cue is not None and cue.names:
        return list(cue.names)
    if quantity.unit is not None:
        found = sorted({a for s in subjects if (a := index.attribute_for_unit(s, quantity.unit))})
        if found:
            return found
    if len(subjects) >= 2:
        shared = [{a for a, _, _ in index.numeric_facts(s)} for s in subjects[:2]]
        return sorted(shared[0] & shared[1])
    return []


def _between_subjects(
    ctx: SentenceRead, subjects: list[str], attributes: list[str]
) -> list[tuple[Decimal, str]]:
    """|a - b| for each two subjects with a value of each attribute (with one named
    subject, the one other subject that has the attribute)."""
    index = ctx.facts
    differences: list[tuple[Decimal, str]] = []
    for attribute in attributes:
        owners = [s for s in subjects if index.numeric_value(s, attribute) is not None]
        if len(owners) == 1:
            others = [s for s in index.subjects_of(attribute) if s != owners[0]]
            if len(others) == 1:
                owners.append(others[0])
        for i, a in enumerate(owners):
            for b in owners[i + 1 :]:
                va, vb = index.numeric_value(a, attribute), index.numeric_value(b, attribute)
                if va is not None and vb is not None:
                    named = index.names.named(a, attribute)
                    differences.append((abs(va - vb), f"{named} {va} - {b} {vb}"))
    return differences


def within(ctx: SentenceRead, subject: str, quantity: Quantity) -> list[tuple[Decimal, str]]:
    """Differences between two numeric facts of ``subject`` stated in one unit
    (rate and previous rate, price and day high) and, for a percentage, their
    relative change."""
    index = ctx.facts
    values = index.numeric_facts(subject)
    found: list[tuple[Decimal, str]] = []
    percent = quantity.unit == "%"
    for i, (a, va, unit_a) in enumerate(values):
        for b, vb, unit_b in values[i + 1 :]:
            if unit_a != unit_b or unit_a in {"%", None}:
                continue  # counts of different things are not subtracted
            if percent:  # signed: "1.15% higher" is not a fall of 1.15%
                for base, other in ((vb, va), (va, vb)):
                    if base:
                        change = (other - base) / base * 100
                        said = f"{index.names.named(subject, a)} vs {index.names.of(subject, b)}"
                        found.append((change, f"{said}: {change:.2f}%"))
            elif units_compatible(quantity.unit, unit_a):
                first, second = index.names.named(subject, a), index.names.of(subject, b)
                found.append((abs(va - vb), f"{first} {va} - {second} {vb}"))
    return found


def group_count(ctx: SentenceRead, quantity: Quantity, cue: Cue | None) -> Derived | None:
    """A count with its attribute word stated for a list of named subjects: for every one
    of them ("A and B each scored two goals", "two goals apiece"), or for them together
    ("three goals from A, B and C": their goals added). A subject of the list without a
    fact of the attribute leaves the count to the other readings."""
    if cue is None or not cue.names:
        return None
    text = ctx.text
    source = COUNT_SOURCE.match(text, cue.end)
    if source is not None:
        members = _listed(ctx, source.end(), forward=True)
        return _judged(ctx, quantity, cue, members, each=False) if members else None
    low = bisect_left(ctx.mention_starts, ctx.structure.sentence(quantity.start)[0])
    high = bisect_left(ctx.mention_starts, quantity.start)
    if high <= low:
        return None
    last = ctx.mentions[high - 1]
    each_before = EACH_BEFORE.fullmatch(text, last.end, quantity.start) is not None
    if not each_before and EACH_AFTER.match(text, cue.end) is None:
        return None
    members = _listed(ctx, high - 1, forward=False, low=low)
    return _judged(ctx, quantity, cue, members, each=True) if members else None


def _listed(ctx: SentenceRead, at: int, *, forward: bool, low: int = 0) -> list[str]:
    """The named subjects of a list ("A, B and C") starting at text position ``at``
    (``forward``) or ending with mention number ``at``; two at least, else none."""
    mentions, text = ctx.mentions, ctx.text
    if forward:
        i = bisect_left(ctx.mention_starts, at)
        if i >= len(mentions) or mentions[i].start != at:
            return []
        run = [i]
        while run[-1] + 1 < len(mentions) and LIST_JOIN.fullmatch(
            text, mentions[run[-1]].end, mentions[run[-1] + 1].start
        ):
            run.append(run[-1] + 1)
    else:
        run = [at]
        while run[0] - 1 >= low and LIST_JOIN.fullmatch(
            text, mentions[run[0] - 1].end, mentions[run[0]].start
        ):
            run.insert(0, run[0] - 1)
    if len(run) < 2 or any(mentions[i].kind != _NAMED for i in run):
        return []
    return [mentions[i].names[0] for i in run]


def _judged(
    ctx: SentenceRead, quantity: Quantity, cue: Cue, members: list[str], *, each: bool
) -> Derived | None:
    index = ctx.facts
    for attribute in cue.names:
        values = [index.numeric_value(m, attribute) for m in members]
        if any(v is None for v in values):
            continue
        known = [v for v in values if v is not None]
        if each:
            wrong = [
                f"{m}'s {attribute} is {v}"
                for m, v in zip(members, known, strict=True)
                if not _rounds(v, quantity)
            ]
            return Derived("count for each", not wrong, "; ".join(wrong))
        total = sum(known, Decimal(0))
        names = ", ".join(members)
        return Derived("sum", _rounds(total, quantity), f"{names}: {attribute} add up to {total}")
    return None
