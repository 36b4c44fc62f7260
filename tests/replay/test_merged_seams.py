"""Where issue 41 and issue 43 meet: the snapshot hook's batches and lexicon
writes share one worker thread in order, and an export read with bad lines
skipped still carries its lexicons."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable
from pathlib import Path

from vouched import Fact, Grounder, Lexicon
from vouched._answer._snapshots import StoreHook
from vouched._cli._stores import open_store
from vouched._exceptions import InputError
from vouched._replay._jsonl import export_jsonl
from vouched._replay._lexicons import LexiconRecord
from vouched._replay._snapshot import Snapshot
from vouched.testing import FakeClock, MemorySnapshotStore, ScriptedPhraser, ScriptedSource

NOW = "2026-11-29T12:00:00Z"
LEXICON = Lexicon(attributes={"humidity": ["humidity"]}, internal=["backend"])


class _Recording(MemorySnapshotStore):
    """A store with a lexicon shelf that remembers the order of its writes."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def write_many(self, snapshots: Iterable[Snapshot]) -> int:
        items = list(snapshots)
        if items:
            self.calls.append(f"snapshots:{len(items)}")
        return super().write_many(items)

    def write_lexicon(self, record: LexiconRecord) -> None:
        self.calls.append("lexicon")
        super().write_lexicon(record)


def _snapshots(store: MemorySnapshotStore, count: int) -> list[Snapshot]:
    fact = Fact(subject="Berlin", attribute="humidity", value=63, unit="%",
                source="meteo", observed_at=NOW, ttl=900)  # fmt: skip
    grounder = Grounder(
        [ScriptedSource("meteo", [[fact]] * count)],
        phraser=ScriptedPhraser([f"The humidity in Berlin is 63% ({n})." for n in range(count)]),
        clock=FakeClock(NOW),
        store=store,
        lexicon=LEXICON,
    )
    for _ in range(count):
        grounder.answer_sync("How humid is Berlin?", {"city": "Berlin"})
    return list(store.iter())


def test_a_lexicon_is_written_in_order_between_batches_of_snapshots() -> None:
    made = _snapshots(MemorySnapshotStore(), 3)
    record = LexiconRecord.of(LEXICON)
    store = _Recording()
    hook = StoreHook(store)

    async def schedule() -> None:
        hook.schedule(lambda: made[0])
        hook.keep_lexicon(record)
        hook.schedule(lambda: made[1])
        hook.schedule(lambda: made[2])

    asyncio.run(schedule())
    asyncio.run(hook.settle())  # settled from another loop than the one that scheduled
    assert (hook.written, hook.failed) == (4, 0)
    at = store.calls.index("lexicon")
    before = sum(int(call.split(":")[1]) for call in store.calls[:at])
    after = sum(int(call.split(":")[1]) for call in store.calls[at + 1 :])
    assert (before, after) == (1, 2)  # the lexicon after the first snapshot, before the rest


def test_an_export_read_with_bad_lines_skipped_keeps_its_lexicons(tmp_path: Path) -> None:
    source = MemorySnapshotStore()
    made = _snapshots(source, 2)
    assert list(source.lexicons())  # the grounder kept the lexicon it checked with
    out = io.StringIO()
    export_jsonl(source, out)
    lines = out.getvalue().splitlines()
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join([*lines[:-1], "{not json", lines[-1]]) + "\n", encoding="utf-8")
    skipped: list[InputError] = []
    with open_store(str(path), skipped=skipped) as store:
        assert len(store) == len(made)
        assert [r.hash for r in store.lexicons()] == [r.hash for r in source.lexicons()]
    assert len(skipped) == 1
    assert skipped[0].line == len(lines)
