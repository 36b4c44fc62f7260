from vouched import BreakerSettings, Fact, Grounder, GuardedSource, SourceError
from vouched.testing import (
    FakeClock,
    MemoryBreakerStore,
    MemorySnapshotStore,
    ScriptedPhraser,
    ScriptedSource,
    run_cli,
    virtual_time,
)

clock = FakeClock("2026-11-29T12:00:00Z")
reading = Fact(
    subject="Berlin",
    attribute="temperature",
    value=4.3,
    unit="°C",
    source="weather",
    observed_at="2026-11-29T11:58:00Z",
    ttl=900,
)


def test_a_hanging_source_is_silence_at_its_deadline() -> None:
    script = ScriptedSource("weather", [ScriptedSource.HANG], expects=[("Berlin", "temperature")])
    source = GuardedSource(script, deadline=2.0, clock=clock)
    with virtual_time() as loop:  # two seconds of loop time, none of the test's
        (fact,) = loop.run(source.fetch({"subject": "Berlin"}))
    assert (fact.silent_reason, loop.elapsed) == ("timeout", 2.0)


def test_a_made_up_number_is_refused_and_kept_for_replay() -> None:
    store = MemorySnapshotStore()
    model = ScriptedPhraser(["It is 9 °C in Berlin."], cycle=True)
    grounder = Grounder(
        [ScriptedSource("weather", [[reading]])], phraser=model, clock=clock, store=store
    )
    answer = grounder.answer_sync("How warm is Berlin?")
    (snapshot,) = store.iter()
    assert answer.status == snapshot.status == "refused"


def test_workers_share_one_breaker() -> None:
    store = MemoryBreakerStore()  # what RedisBreakerStore is to a fleet

    def worker(outcome: list[Fact] | Exception) -> GuardedSource:
        return GuardedSource(
            ScriptedSource("weather", [outcome]),
            clock=clock,
            breaker=BreakerSettings(fail_max=2),
            breaker_store=store,
        )

    down, up = worker(SourceError("HTTP 503")), worker([reading])
    with virtual_time() as loop:
        for _ in range(2):
            loop.run(down.fetch({"subject": "Berlin"}))
        (fact,) = loop.run(up.fetch({"subject": "Berlin"}))
    assert fact.silent_reason == "circuit_open"


def test_the_cli_says_why_it_exits_1() -> None:
    code, out, err = run_cli(["gate", "-", "--now", "2026-11-29T12:00:00Z"], stdin="[]")
    assert (code, out) == (1, "")
    assert err == "<stdin>: no facts: nothing was vouched for (exit 1)\n"


for test in [
    test_a_hanging_source_is_silence_at_its_deadline,
    test_a_made_up_number_is_refused_and_kept_for_replay,
    test_workers_share_one_breaker,
    test_the_cli_says_why_it_exits_1,
]:
    test()
    print("passed:", test.__name__)
