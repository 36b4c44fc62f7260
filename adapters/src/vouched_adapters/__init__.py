"""Concrete vouched sources, built only on vouched's public API.

Each class is a :class:`vouched.Source`; wrap it in :class:`vouched.GuardedSource`
so that outages become typed silence. They are registered under the entry-point
group ``vouched.sources`` (``vouched sources`` lists them).
"""

from vouched_adapters._http import make_client, recorded_client, retry_after
from vouched_adapters.catalog import CsvCatalogSource
from vouched_adapters.football import MATCH_STATISTICS, match_facts, match_subjects
from vouched_adapters.forecast import OpenMeteoForecastSource, OpenWeatherForecastSource
from vouched_adapters.httpjson import Field, HttpJsonSource, resolve_pointer
from vouched_adapters.rates import FrankfurterRates, next_publication, publication_time
from vouched_adapters.sql import Column, SqliteSource
from vouched_adapters.weather import WMO_CONDITIONS, OpenMeteoSource

__all__ = [
    "MATCH_STATISTICS",
    "WMO_CONDITIONS",
    "Column",
    "CsvCatalogSource",
    "Field",
    "FrankfurterRates",
    "HttpJsonSource",
    "OpenMeteoForecastSource",
    "OpenMeteoSource",
    "OpenWeatherForecastSource",
    "SqliteSource",
    "make_client",
    "match_facts",
    "match_subjects",
    "next_publication",
    "publication_time",
    "recorded_client",
    "resolve_pointer",
    "retry_after",
]
