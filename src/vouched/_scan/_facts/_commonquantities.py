"""Common quantities a text may name that a lexicon may not list: data, validated by a test.

Each entry is a quantity a reader recognises by its name in any domain (the UV index,
turnovers, a market cap): the phrases that name it, and the attribute names a fact of
it usually carries. A scanner adds a quantity's phrases to its cues unless its lexicon
already lists one of them: read as the fact attribute among ``attributes`` that the
facts have, else as the quantity itself, an attribute no fact states, so a number it
names is ``ungrounded_number`` whatever equal value another fact holds ("the UV index
is 4" beside a temperature of 4 °C). ``tests/scan/test_scan_quantities.py`` validates
the table (lower-case phrases, no phrase twice, no name among another's attributes).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["COMMON_QUANTITIES", "CommonQuantity"]


class CommonQuantity(NamedTuple):
    phrases: tuple[str, ...]  # lower case, as a text names it
    attributes: tuple[str, ...]  # attribute names a fact of it usually carries


COMMON_QUANTITIES: dict[str, CommonQuantity] = {
    # weather
    "humidity": CommonQuantity(
        ("humidity", "relative humidity"),
        ("humidity", "relative_humidity", "relative_humidity_2m", "rh"),
    ),
    "uv_index": CommonQuantity(("uv index", "uv-index", "uv"), ("uv_index", "uv", "uvi")),
    "pollen_count": CommonQuantity(
        ("pollen count", "pollen level", "pollen"), ("pollen", "pollen_count")
    ),
    "visibility": CommonQuantity(("visibility",), ("visibility",)),
    "dew_point": CommonQuantity(
        ("dew point", "dewpoint"), ("dew_point", "dewpoint", "dew_point_2m")
    ),
    "air_quality_index": CommonQuantity(
        ("air quality index", "aqi"), ("aqi", "air_quality", "air_quality_index", "us_aqi")
    ),
    "precipitation_probability": CommonQuantity(
        (
            "chance of rain",
            "chance of precipitation",
            "precipitation probability",
            "probability of precipitation",
            "chance of showers",
            "chance of snow",
        ),
        ("precipitation_probability", "precipitation_probability_max", "pop"),
    ),
    "sunshine_duration": CommonQuantity(
        ("hours of sunshine", "sunshine hours"), ("sunshine_duration",)
    ),
    # sports
    "turnovers": CommonQuantity(("turnovers", "turnover"), ("TO", "TOV", "turnovers")),
    "fouls": CommonQuantity(("fouls", "personal fouls", "foul"), ("PF", "fouls", "personal_fouls")),
    "plus_minus": CommonQuantity(("plus-minus", "plus/minus"), ("PLUS_MINUS", "plus_minus")),
    # markets
    "market_cap": CommonQuantity(
        ("market cap", "market capitalization", "market capitalisation", "market value"),
        ("market_cap", "market_capitalization", "marketcap"),
    ),
    "volume": CommonQuantity(("trading volume", "volume"), ("volume",)),
    "pe_ratio": CommonQuantity(
        ("p/e ratio", "p/e", "price-to-earnings ratio", "price/earnings ratio"),
        ("pe_ratio", "pe", "price_earnings"),
    ),
    "dividend_yield": CommonQuantity(("dividend yield",), ("dividend_yield",)),
    "week_52_high": CommonQuantity(("52-week high", "52 week high"), ("week_52_high", "year_high")),
    "week_52_low": CommonQuantity(("52-week low", "52 week low"), ("week_52_low", "year_low")),
    # products
    "refresh_rate": CommonQuantity(("refresh rate",), ("refresh_rate",)),
    "star_rating": CommonQuantity(
        ("star rating", "stars", "rating"), ("rating", "star_rating", "stars")
    ),
    "review_count": CommonQuantity(("reviews", "customer reviews"), ("reviews", "review_count")),
}
"""Quantity name -> its phrases and usual attribute names."""
