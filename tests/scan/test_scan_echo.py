"""The caller's own strings are a scanner input (``Scanner(..., caller=...)``): each is
read once when the scanner compiles; ``echoes`` only finds where an answer repeats it."""

from __future__ import annotations

from vouched import Fact, FindingKind, Scanner, scan

QUERY = "Berlin, where it is 31 °C,"


def _berlin(value: str = "4.3") -> list[Fact]:
    return [
        Fact.model_validate(
            {
                "subject": "Berlin",
                "attribute": "temperature",
                "value": value,
                "unit": "degC",
                "source": "open-meteo",
                "observed_at": "2026-11-29T12:00:00Z",
            }
        )
    ]


def test_a_repeated_caller_string_has_its_findings_at_every_place_it_is_repeated() -> None:
    text = f"Nothing about {QUERY} is known. Again: {QUERY} nothing."
    found = Scanner(_berlin(), caller=[QUERY]).echoes(text)
    assert [(f.kind, f.start, f.text) for f in found] == [
        (FindingKind.VALUE_MISMATCH, text.find("31 °C"), "31 °C"),
        (FindingKind.VALUE_MISMATCH, text.rfind("31 °C"), "31 °C"),
    ]


def test_an_echo_finding_is_the_caller_strings_own_scan_moved_to_where_it_stands() -> None:
    text = f"Sorry, {QUERY} is not covered."
    own = scan(QUERY, _berlin()).findings
    at = text.find(QUERY)
    moved = [(f.kind, f.start + at, f.end + at, f.detail) for f in own]
    found = Scanner(_berlin(), caller=[QUERY]).echoes(text)
    assert [(f.kind, f.start, f.end, f.detail) for f in found] == moved != []


def test_a_caller_string_the_facts_vouch_for_makes_no_echo_finding() -> None:
    text = f"Yes: {QUERY} as you said."
    assert Scanner(_berlin("31"), caller=[QUERY]).echoes(text) == []


def test_a_caller_string_the_answer_does_not_repeat_makes_no_echo_finding() -> None:
    assert Scanner(_berlin(), caller=[QUERY]).echoes("Berlin is at 4.3 °C.") == []


def test_a_caller_string_read_as_a_subject_name_is_still_checked_by_the_echo() -> None:
    # the query's subject is a name the scanner reads whole, digits and all
    facts = [*_berlin(), Fact.silence(QUERY, "temperature", "no_data", source="open-meteo")]
    scanner = Scanner(facts, caller=[QUERY])
    text = f"Nothing about {QUERY} is available."
    assert scanner.scan(text).passed
    assert [f.text for f in scanner.echoes(text)] == ["31 °C"]
