"""``vouched demo``: the whole answer path, offline, in a few seconds.

Starts recorded weather and currency sources on 127.0.0.1 and runs five
scenarios through a :class:`vouched.Grounder`, each with a one-line verdict:

1. all sources up: every fact grounded and phrased;
2. the weather source down: the answer states the silence, the breaker opens,
   and a probe after the reset timeout closes it again;
3. cached facts gone stale: the last good answer is served, the gate strips
   it and the answer says it is unavailable;
4. a model that fabricates a number: caught, retried with the finding quoted,
   fabricated again, refused;
5. a forecast value said for the wrong day: caught, retried, stated for its day.

Time is a :class:`vouched.testing.FakeClock` so the run is the same on every
machine and nothing sleeps. Exit status 1 if a scenario did not behave.

``--store PATH|URL`` also writes every answer's snapshot to the store it names
(a SQLite path, ``sqlite:///PATH`` or ``postgresql://...``, as for ``vouched
replay``; created when missing; running the demo again adds nothing, the ids
are content hashes), so ``vouched replay --store`` has something to grade.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

from vouched._cli._common import EXIT_FAILED, EXIT_OK, check_output_path, console, emit_json

__all__ = ["register"]

DEMO_NOW = "2026-11-29T12:05:00Z"
FABRICATION = "The EUR/USD exchange rate is 1.0842, up 0.3% since yesterday."
WRONG_DAY = "On Tuesday the high in Berlin is 6 °C."
RIGHT_DAY = "On Monday the high in Berlin is 6 °C."


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "demo",
        help="run the offline end-to-end demo",
        description="Run five scenarios through the whole answer path against recorded "
        "sources on 127.0.0.1 (no network): all sources up, a source down, cached facts "
        "gone stale, a model that fabricates a number, a forecast value said for the wrong "
        "day. Exit 0: every scenario behaved; "
        "1: one did not.",
    )
    parser.add_argument("--json", action="store_true", help="print the scenarios as JSON")
    parser.add_argument(
        "--store",
        metavar="PATH|URL",
        help="also write every answer's snapshot to this store: a SQLite file, "
        "sqlite:///PATH or postgresql://... (for vouched replay)",
    )
    parser.set_defaults(handler=run)


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    answer: Any  # vouched.Answer
    verdict: str
    behaved: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": str(self.answer.status),
            "text": self.answer.text,
            "verdict": self.verdict,
            "behaved": self.behaved,
        }


async def scenarios(store: Any = None) -> tuple[list[Scenario], Counter[str]]:
    """Run the five scenarios; returns them and the gate counts of every answer.

    ``store``: where each answer's snapshot goes (``None``: nowhere)."""
    # Imported here: the demo pulls in the whole answer path and an HTTP server.
    from vouched import (  # noqa: PLC0415
        BreakerSettings,
        Grounder,
        GuardedSource,
    )
    from vouched._cli._demo_world import (  # noqa: PLC0415
        BERLIN,
        HAMBURG,
        RATES,
        DemoRates,
        DemoWeather,
        recorded_routes,
    )
    from vouched._fakes._clock import FakeClock  # noqa: PLC0415
    from vouched._fakes._scripted import ScriptedPhraser  # noqa: PLC0415
    from vouched._sources._recorded import RecordedServer  # noqa: PLC0415

    counts: Counter[str] = Counter()
    out: list[Scenario] = []

    def tally(answer: Any) -> Any:
        counts.update(answer.counts)
        return answer

    with RecordedServer(recorded_routes()) as server:
        clock = FakeClock(DEMO_NOW)
        breaker = BreakerSettings(fail_max=2, reset_timeout=30.0)
        weather = GuardedSource(DemoWeather(server.url), breaker=breaker, clock=clock)
        rates = GuardedSource(DemoRates(server.url), breaker=breaker, clock=clock)
        both = Grounder([weather, rates], clock=clock, store=store)
        weather_only = Grounder([weather], clock=clock, store=store)

        # 1. all up
        question = "What's the weather in Berlin, and the euro in dollars and pounds?"
        berlin_and_rates = {**BERLIN, **RATES}
        first = tally(await both.answer(question, berlin_and_rates))
        behaved = first.ok and not first.silences and len(first.grounded) == 5
        out.append(
            Scenario(
                "all sources up",
                first,
                f"ok: {len(first.grounded)} facts grounded, phrased, nothing added",
                behaved,
            )
        )

        # 2. the weather source down, the breaker opens, a probe closes it
        server.down("/v1/forecast")
        down = tally(await weather_only.answer("How is the weather in Hamburg?", HAMBURG))
        reasons = sorted({str(f.silent_reason) for f in down.silences})
        tally(await weather_only.answer("And now?", HAMBURG))
        opened = weather.state
        rejected = tally(await weather_only.answer("And now?", HAMBURG))
        server.up()
        clock.advance(seconds=31)
        recovered = tally(await weather_only.answer("And now?", HAMBURG))
        behaved = (
            str(down.status) == "unavailable"
            and not down.grounded
            and reasons == ["source_error"]
            and opened == "open"
            and {str(f.silent_reason) for f in rejected.silences} == {"circuit_open"}
            and weather.state == "closed"
            and len(recovered.grounded) == 3
        )
        out.append(
            Scenario(
                "weather source down",
                down,
                f"silence stated ({', '.join(reasons)}); breaker {opened} after 2 failures; "
                f"probe after the 30 s reset: {weather.state}, "
                f"{len(recovered.grounded)} facts grounded again",
                behaved,
            )
        )

        # 3. the source fails later; its cached Berlin facts are past their TTL
        server.down("/v1/forecast")
        clock.advance(seconds=16 * 60)
        stale = tally(await both.answer(question, berlin_and_rates))
        stripped = [v for v in stale.violations if str(v.reason) == "stale"]
        behaved = (
            stale.ok
            and len(stale.grounded) == 2  # the rates are still current
            and len(stripped) == 3
            and "21.4" not in stale.text
        )
        out.append(
            Scenario(
                "cached facts gone stale",
                stale,
                f"{len(stripped)} cached facts past their TTL: stripped, said unavailable",
                behaved,
            )
        )
        server.up()

        # 4. a model that fabricates a number
        model = ScriptedPhraser([FABRICATION, FABRICATION])
        fabricating = Grounder([rates], phraser=model, clock=clock, store=store)
        refused = tally(await fabricating.answer("What is a euro worth in dollars?", RATES))
        # 5. a forecast: the model states Monday's high for Tuesday
        fifth, forecast = await _forecast_scenario(clock, store, tally)
        for grounder in (both, weather_only, fabricating, forecast):
            await grounder.settle()
        caught = sorted({f.text for f in refused.findings})
        retried_with = [p.quote for p in model.prompts[-1].problems]
        behaved = (
            str(refused.status) == "refused"
            and refused.attempts == 2
            and bool(caught)
            and bool(retried_with)
        )
        out.append(
            Scenario(
                "model fabricates a number",
                refused,
                f"caught {', '.join(repr(c) for c in caught)}; retried with it quoted; "
                f"fabricated again: refused ({refused.refusal})",
                behaved,
            )
        )
        out.append(fifth)
    return out, counts


async def _forecast_scenario(clock: Any, store: Any, tally: Any) -> tuple[Scenario, Any]:
    """A model that says Monday's forecast high for Tuesday: caught, retried, ok."""
    from vouched import Grounder  # noqa: PLC0415
    from vouched._cli._demo_world import FORECAST, DemoForecast  # noqa: PLC0415
    from vouched._fakes._scripted import ScriptedPhraser  # noqa: PLC0415

    misdated = ScriptedPhraser([WRONG_DAY, RIGHT_DAY])
    forecast = Grounder([DemoForecast(DEMO_NOW)], phraser=misdated, clock=clock, store=store)
    dated = tally(await forecast.answer("Will it be cold in Berlin this week?", FORECAST))
    first_try = [f"{p.quote!r} ({p.kind})" for p in misdated.prompts[-1].problems]
    behaved = dated.ok and dated.attempts == 2 and bool(first_try)
    scenario = Scenario(
        "forecast stated for the wrong day",
        dated,
        f"Monday's high said for Tuesday: caught {', '.join(first_try)}; "
        "retried, stated for Monday: ok",
        behaved,
    )
    return scenario, forecast


def _rate(counts: Counter[str]) -> float:
    from vouched import grounding_rate  # noqa: PLC0415

    return grounding_rate(dict(counts))


def render(results: list[Scenario], counts: Counter[str]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table(title=f"vouched demo: five scenarios at {DEMO_NOW}", show_lines=True)
    table.add_column("#", justify="right")
    table.add_column("scenario")
    table.add_column("answer", ratio=3)
    table.add_column("status")
    table.add_column("verdict", ratio=2)
    styles = {"ok": "green", "partial": "yellow", "unavailable": "yellow", "refused": "red"}
    for number, scenario in enumerate(results, start=1):
        status = str(scenario.answer.status)
        mark = "" if scenario.behaved else " [bold red](UNEXPECTED)[/]"
        table.add_row(
            str(number),
            scenario.name,
            scenario.answer.text,
            f"[{styles.get(status, 'white')}]{status}[/]",
            scenario.verdict + mark,
        )
    out = console()
    out.print(table)
    out.print(
        f"grounding rate of the run: {_rate(counts):.2f} "
        f"(grounded {counts['grounded']} + silent {counts['silent']}) / "
        f"(all {counts['grounded'] + counts['silent'] + counts['violation']}); "
        "violations never reached the model"
    )


def run(args: argparse.Namespace) -> int:
    if args.store is None:
        results, counts = asyncio.run(scenarios())
    else:
        from vouched._replay._open import open_snapshot_store, sqlite_path  # noqa: PLC0415

        path = sqlite_path(args.store)
        if path is not None:  # one line, exit 2, before any work
            check_output_path(path, field="--store")
        with open_snapshot_store(args.store) as store:
            results, counts = asyncio.run(scenarios(store))
    if args.json:
        emit_json(
            {
                "scenarios": [s.to_json() for s in results],
                "counts": dict(counts),
                "grounding_rate": _rate(counts),
            }
        )
    else:
        render(results, counts)
    return EXIT_OK if all(s.behaved for s in results) else EXIT_FAILED
