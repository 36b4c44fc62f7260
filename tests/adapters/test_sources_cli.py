"""`vouched sources` lists the adapters found through the entry-point group
(the CLI's main() in this process: vouched.testing.run_cli)."""

from __future__ import annotations

import json

from vouched.testing import CliResult, run_cli


def sources(*args: str) -> CliResult:
    return run_cli(["sources", *args])


def test_the_five_adapters_are_listed_by_name_as_json() -> None:
    result = sources("--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["group"] == "vouched.sources"
    names = [row["name"] for row in document["sources"]]
    assert {"open-meteo", "frankfurter", "csv-catalog", "sqlite", "http-json"} <= set(names)
    assert names == sorted(names)


def test_each_listed_adapter_imports_and_says_what_it_is() -> None:
    rows = json.loads(sources("--json").stdout)["sources"]
    weather = next(r for r in rows if r["name"] == "open-meteo")
    assert weather["target"] == "vouched_adapters.weather:OpenMeteoSource"
    assert weather["error"] is None
    assert weather["summary"].startswith("Current weather from Open-Meteo")
    assert weather["distribution"].startswith("vouched-adapters ")


def test_summaries_are_plain_text_without_rest_markup() -> None:
    rows = json.loads(sources("--json").stdout)["sources"]
    rates = next(r for r in rows if r["name"] == "frankfurter")
    assert rates["summary"] == (
        "ECB euro reference rates through the Frankfurter API (/latest?from=EUR&to=USD,GBP)"
    )


def test_the_table_names_every_adapter() -> None:
    result = sources()
    assert result.returncode == 0
    for name in ("open-meteo", "frankfurter", "csv-catalog", "sqlite", "http-json"):
        assert name in result.stdout


def test_an_adapter_that_cannot_be_imported_is_listed_with_its_error() -> None:
    from importlib.metadata import EntryPoint  # noqa: PLC0415

    from vouched._cli._sources import describe  # noqa: PLC0415

    broken = EntryPoint("broken", "no_such_module_anywhere:Source", "vouched.sources")
    row = describe(broken)
    assert (row["name"], row["summary"]) == ("broken", None)
    assert row["error"].startswith("ModuleNotFoundError: ")


def test_adapters_sharing_a_module_are_told_apart_by_their_own_docstrings() -> None:
    rows = json.loads(sources("--json").stdout)["sources"]
    summaries = {r["name"]: r["summary"] for r in rows}
    assert summaries["open-meteo-forecast"].startswith("Open-Meteo's forecast")
    assert summaries["openweather-forecast"].startswith("OpenWeather's 5-day / 3-hour forecast")
