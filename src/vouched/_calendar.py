"""Calendar words, in one home: the scanner's number and time readers and the claims'
date normalizer read month names from here (STYLE 18: one name, one meaning, one home)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["MONTHS"]

MONTHS: Mapping[str, int] = MappingProxyType(
    {
        name: number
        for number, names in enumerate(
            (
                ("january", "jan"),
                ("february", "feb"),
                ("march", "mar"),
                ("april", "apr"),
                ("may",),
                ("june", "jun"),
                ("july", "jul"),
                ("august", "aug"),
                ("september", "sep", "sept"),
                ("october", "oct"),
                ("november", "nov"),
                ("december", "dec"),
            ),
            start=1,
        )
        for name in names
    }
)
"""Month names and their abbreviations, lower case -> month number (1-12)."""
