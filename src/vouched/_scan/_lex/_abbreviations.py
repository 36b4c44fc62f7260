"""Abbreviations whose period does not end a sentence: data, validated by a test.

Two families, lower case, each written with its periods:

- ``TITLES`` come before a name or a number ("Dr. Weber", "St. Louis", "No. 5",
  "e.g. Berlin", "vs. 279"): their period never ends a sentence;
- ``SUFFIXES`` may close a sentence as well as a name or a time ("Michael Porter Jr.
  scored", "at 9 a.m. on Friday", "Dec. 4", "the U.S. rate"): their period ends a
  sentence only when the next word opens with a capital letter.

An initial (one capital letter and a period, or several: "J. R.", "C.J.") before a
capitalised word is part of the name and ends nothing.
``tests/scan/test_scan_abbreviations.py`` validates both families (lower-case letters
with periods, ending in one, no duplicates, no word in both).
"""

from __future__ import annotations

__all__ = ["SUFFIXES", "TITLES"]

TITLES: frozenset[str] = frozenset(
    {
        # titles and ranks before a name
        "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "mt.", "ft.", "sen.", "rep.", "gov.",
        "gen.", "col.", "capt.", "lt.", "sgt.", "rev.", "hon.", "pres.", "supt.",
        # words before a number or an example
        "no.", "nos.", "nr.", "vs.", "e.g.", "i.e.", "cf.", "approx.", "ca.", "fig.",
        "vol.", "pp.", "gl.", "pl.", "tel.", "incl.", "excl.", "abt.", "appx.", "viz.",
    }
)  # fmt: skip

SUFFIXES: frozenset[str] = frozenset(
    {
        # after a name
        "jr.", "sr.", "inc.", "ltd.", "co.", "corp.", "bros.", "plc.", "esq.",
        # times of day and places written with periods
        "a.m.", "p.m.", "u.s.", "u.k.", "u.n.", "e.u.", "u.s.a.", "d.c.",
        # months and weekdays before a day
        "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.",
        "nov.", "dec.", "mon.", "tue.", "tues.", "wed.", "thu.", "thur.", "thurs.", "fri.",
        "sat.", "sun.",
        # list endings and units written with a period
        "etc.", "hrs.", "min.", "mins.", "secs.", "yrs.", "max.", "avg.", "pts.", "reb.",
        "ast.", "ave.", "blvd.", "rd.",
    }
)  # fmt: skip
