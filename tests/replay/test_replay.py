"""replay: a stored population re-graded under today's policy, then vs now."""

from __future__ import annotations

import itertools
import tracemalloc
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

import pytest

from replay.population import T0, SnapshotFactory, weather_facts
from vouched import Fact, GateResult, Policy, Snapshot, SqliteSnapshotStore, replay
from vouched._replay._grade import GradeReport


def silent_value_spoken(snapshot: Snapshot, gate: GateResult) -> Iterable[Mapping[str, Any]]:
    """A stand-in output rule: a value the gate silenced today but the output states."""
    for verdict in gate.verdicts:
        value = verdict.fact.value
        if verdict.kind == "silent" and value is not None and str(value) in snapshot.output:
            yield {"kind": "silent_spoken", "attribute": verdict.fact.attribute}


RULES = (silent_value_spoken,)


def _write(store: SqliteSnapshotStore, snapshots: Iterable[Snapshot]) -> list[Snapshot]:
    items = list(snapshots)
    store.write_many(items)
    return items


def test_same_policy_changes_nothing(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, (make_snapshot(created_at=T0 + timedelta(minutes=i)) for i in range(5)))
    report = replay(store, Policy(), rules=RULES)
    assert report.snapshots == 5
    assert report.verdicts_then == report.verdicts_now
    assert report.to_fail.count == report.to_pass.count == 0
    assert not report.regressed


def test_a_shorter_default_ttl_flips_exactly_the_old_observations_to_fail(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    fresh = [
        make_snapshot(
            created_at=T0 + timedelta(minutes=i), facts=weather_facts(T0, age=timedelta(minutes=5))
        )
        for i in range(3)
    ]
    old = [
        make_snapshot(
            created_at=T0 + timedelta(minutes=10 + i),
            facts=weather_facts(T0 + timedelta(minutes=10 + i), age=timedelta(minutes=50)),
        )
        for i in range(2)
    ]
    _write(store, fresh + old)
    report = replay(store, Policy(default_ttl=timedelta(minutes=30)), rules=RULES)
    assert report.to_fail.count == 2
    assert set(report.to_fail.ids) == {s.id for s in old}
    assert report.reasons_now["stale"] == 2  # the temperature facts: they declare no ttl
    assert report.grounding_rate_then == 1.0
    assert report.grounding_rate_now == pytest.approx(13 / 15)
    assert report.regressed


def test_demoting_an_attribute_flips_the_snapshots_that_state_it(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    states_it = make_snapshot(output="Humidity is 63% in Berlin.")
    keeps_quiet = make_snapshot(output="Berlin is at 21.4 degC.", question="temperature?")
    _write(store, [states_it, keeps_quiet])
    report = replay(store, Policy(demoted=frozenset({"humidity"})), rules=RULES)
    assert report.to_fail.ids == (states_it.id,)
    assert report.findings_now == {"silent_spoken": 1}
    assert report.reasons_now["demoted"] == 2
    assert report.grounding_rate_now == 1.0  # silence is integrity: only the output fails


def test_a_relaxed_policy_flips_snapshots_back_to_pass(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    stale = make_snapshot(facts=weather_facts(T0, age=timedelta(hours=30)))
    _write(store, [stale])
    report = replay(store, Policy(default_ttl=timedelta(hours=48)), rules=())
    # humidity declares its own ttl (1 h) and stays stale: still failing
    assert report.to_pass.count == 0
    no_ttl = make_snapshot(
        facts=[f for f in weather_facts(T0, age=timedelta(hours=30)) if f.ttl is None],
        created_at=T0 + timedelta(seconds=1),
    )
    _write(store, [no_ttl])
    report = replay(store, Policy(default_ttl=timedelta(hours=48)), rules=())
    assert report.to_pass.ids == (no_ttl.id,)


def test_grounding_rate_is_reported_per_prompt_version_in_order_of_first_use(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(
        store,
        [
            make_snapshot(
                created_at=T0 + timedelta(days=1),
                prompt_version="p2",
                findings=[{"kind": "ungrounded_number", "attribute": None}],
            )
        ],
    )
    _write(store, [make_snapshot(created_at=T0, prompt_version="p1")])
    report = replay(store, Policy(), rules=RULES)
    assert [v.prompt_version for v in report.prompt_versions] == ["p1", "p2"]
    p1, p2 = report.prompt_versions
    assert (p1.pass_rate_then, p2.pass_rate_then) == (1.0, 0.0)
    assert (p1.findings_then, p2.findings_then) == (0, 1)
    assert p2.first_seen == T0 + timedelta(days=1)


def test_grounding_rate_is_reported_per_source(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    unsourced = Fact(subject="Berlin", attribute="uv_index", value=3, confidence=0.9)
    _write(store, [make_snapshot(facts=[*weather_facts(T0), unsourced])])
    report = replay(store, Policy(), rules=())
    rates = {s.source: s.grounding_rate_now for s in report.sources}
    assert rates == {"(none)": 0.0, "open-meteo": 1.0, "wind-api": 1.0}


def test_violation_share_by_attribute_names_demotion_candidates(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    snapshots = [
        make_snapshot(
            created_at=T0 + timedelta(minutes=i),
            facts=weather_facts(
                T0 + timedelta(minutes=i), age=timedelta(minutes=90 if i % 2 else 5)
            ),
        )
        for i in range(12)
    ]
    _write(store, snapshots)
    report = replay(store, Policy(), rules=(), min_facts=10, demotion_threshold=0.25)
    shares = {a.attribute: a.violation_share_now for a in report.attributes}
    assert shares["humidity"] == 0.5  # ttl 1 h: every other observation is too old
    assert shares["temperature"] == 0.0
    assert report.attributes[0].attribute == "humidity"
    assert report.demotion_candidates == ("humidity",)


def test_an_already_demoted_attribute_is_no_candidate(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, [make_snapshot(facts=weather_facts(T0, age=timedelta(hours=2)))])
    report = replay(store, Policy(demoted=frozenset({"humidity"})), rules=(), min_facts=1)
    assert "humidity" not in report.demotion_candidates


def test_since_and_until_select_the_window(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, (make_snapshot(created_at=T0 + timedelta(days=i)) for i in range(7)))
    report = replay(
        store, Policy(), since=T0 + timedelta(days=1), until=T0 + timedelta(days=3), rules=()
    )
    assert report.snapshots == 2
    assert report.first_created_at == T0 + timedelta(days=1)


def test_flipped_ids_are_capped_but_all_are_counted(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, (make_snapshot(created_at=T0 + timedelta(minutes=i)) for i in range(8)))
    report = replay(store, Policy(min_confidence=0.99), rules=(), max_ids=3)
    assert report.to_fail.count == 8
    assert len(report.to_fail.ids) == 3
    assert report.to_fail.to_json()["truncated"] is True


def test_findings_then_come_from_the_snapshot_and_now_from_the_rules(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, [make_snapshot(findings=[{"kind": "placeholder", "attribute": "humidity"}])])

    def always(snapshot: Snapshot, gate: GateResult) -> list[dict[str, Any]]:
        return [{"kind": "inconsistency", "attribute": "temperature"}]

    report = replay(store, Policy(), rules=(always,))
    assert report.findings_then == {"placeholder": 1}
    assert report.findings_now == {"inconsistency": 1}
    assert report.rules == ("always",)
    by_name = {a.attribute: a for a in report.attributes}
    assert (by_name["humidity"].findings_then, by_name["temperature"].findings_now) == (1, 1)


def test_an_empty_store_gives_an_empty_report(store: SqliteSnapshotStore) -> None:
    report = replay(store, Policy(), rules=())
    assert report.snapshots == 0
    assert report.grounding_rate_now == 1.0
    assert report.prompt_versions == ()


def test_report_json_has_the_documented_keys(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, [make_snapshot()])
    document = replay(store, Policy(), rules=()).to_json()
    assert document["schema"] == "vouched.replay/2"
    assert list(document) == [
        "schema",
        "policy_version",
        "rules",
        "window",
        "snapshots",
        "first_created_at",
        "last_created_at",
        "grounding_rate",
        "passed",
        "attempts",
        "verdicts",
        "reasons",
        "findings",
        "statuses",
        "flipped",
        "prompt_versions",
        "sources",
        "attributes",
        "demotion_candidates",
    ]
    assert list(document["prompt_versions"][0]) == [
        "prompt_version",
        "snapshots",
        "first_seen",
        "last_seen",
        "grounding_rate",
        "pass_rate",
        "first_attempts_passed",
        "attempts",
        "refused",
        "partial",
        "verdicts",
        "findings",
    ]


def _peak_replay_bytes(store: SqliteSnapshotStore) -> int:
    tracemalloc.start()
    try:
        report: GradeReport = replay(store, Policy(default_ttl=timedelta(minutes=1)), rules=())
        assert report.snapshots > 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_replay_memory_does_not_grow_with_the_population(
    tmp_path: Any, make_snapshot: SnapshotFactory
) -> None:
    template = make_snapshot()
    population = [
        make_snapshot(created_at=T0 + timedelta(seconds=i), facts=template.facts)
        for i in range(2800)
    ]
    stores = []
    for size in (700, 2800):  # both above the store's fetch batch (512 rows)
        store = SqliteSnapshotStore(tmp_path / f"{size}.db")
        store.write_many(population[:size])  # the small store holds the large one's first rows
        stores.append(store)
    del population  # live snapshots would make every garbage collection in a replay slower
    # One replay first: what a process builds once (caches, lazy imports) is not
    # memory that grows with the population, whichever store pays for it (the
    # small one: tracing every allocation makes a replay several times slower).
    _peak_replay_bytes(stores[0])
    small, large = (_peak_replay_bytes(store) for store in stores)
    for store in stores:
        store.close()
    assert large < small * 1.5  # 4x the snapshots, nowhere near 4x the memory


# -- with today's scanner (the default rules) ------------------------------------------


def test_by_default_the_scanner_catches_a_demoted_value_still_stated(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    states_it = make_snapshot(output="Berlin: 21.4 degC, humidity 63%.")
    keeps_quiet = make_snapshot(output="Berlin: 21.4 degC.", question="How warm is Berlin?")
    _write(store, [states_it, keeps_quiet])
    report = replay(store, Policy(demoted=frozenset({"humidity"})))
    assert report.rules == ("scan",)
    assert report.to_fail.ids == (states_it.id,)
    assert report.findings_now == {"silent_spoken": 1}


def test_by_default_the_scanner_finds_a_value_stated_from_a_now_stale_fact(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    old = make_snapshot(facts=weather_facts(T0, age=timedelta(minutes=50)))
    _write(store, [old])
    report = replay(store, Policy(default_ttl=timedelta(minutes=30)))
    assert report.to_fail.ids == (old.id,)
    assert report.findings_now["ungrounded_number"] == 1
    assert report.attributes[0].attribute == "temperature"


def test_a_redacted_output_gives_the_scanner_no_numbers(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    salary = Fact(subject="Alice", attribute="salary", value=85000, source="hr", observed_at=T0)
    snapshot = make_snapshot(
        facts=[salary],
        output="Alice earns 85000 a year.",
        policy=Policy(sensitive_attributes=frozenset({"salary"})),
    )
    _write(store, [snapshot])
    report = replay(store, Policy())
    assert report.findings_now == {}


# -- in several processes ------------------------------------------------------------


def test_workers_give_the_same_report_as_one_process(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(
        store,
        (
            make_snapshot(
                created_at=T0 + timedelta(minutes=i),
                prompt_version=f"p{i % 3}",
                facts=weather_facts(T0 + timedelta(minutes=i), age=timedelta(minutes=5 + i)),
                output="Berlin: 21.4 degC, humidity 63%.",
            )
            for i in range(60)
        ),
    )
    policy = Policy(default_ttl=timedelta(minutes=30), demoted=frozenset({"humidity"}))
    alone = replay(store, policy, max_ids=5)
    parallel = replay(store, policy, max_ids=5, workers=3)
    assert parallel == alone
    assert alone.to_fail.count > 5  # the capped, time-ordered ids had to be merged


def test_workers_refuse_rules_that_cannot_cross_processes(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, [make_snapshot()])
    with pytest.raises(ValueError, match="picklable"):
        replay(store, Policy(), rules=(lambda snapshot, gate: [],), workers=2)


def test_split_cuts_the_window_into_consecutive_parts(
    store: SqliteSnapshotStore, make_snapshot: SnapshotFactory
) -> None:
    _write(store, (make_snapshot(created_at=T0 + timedelta(minutes=i)) for i in range(10)))
    windows = store.split(3)
    assert windows[0][0] is None
    assert windows[-1][1] is None
    assert all(a[1] == b[0] for a, b in itertools.pairwise(windows))
    counts = [sum(1 for _ in store.iter(since=s, until=u)) for s, u in windows]
    assert sum(counts) == 10
    assert max(counts) - min(counts) <= 1
