import asyncio
import multiprocessing
import os
from datetime import UTC, datetime

import psycopg
import psycopg.sql
import redis
import redis.asyncio

from vouched import (
    BreakerSettings,
    Fact,
    GuardedSource,
    Policy,
    PostgresSnapshotStore,
    Query,
    RedisBreakerStore,
    RedisLastGood,
    Snapshot,
    SourceError,
    replay,
)

REDIS, POSTGRES = "redis://127.0.0.1:6379/0", "postgresql://postgres@127.0.0.1:5432/test"
PREFIX = SCHEMA = f"readme_{os.getpid()}"  # one fleet, for this example only
NOW = datetime.now(UTC)


class Weather:
    name = "weather"

    def __init__(self, up: bool) -> None:
        self.up = up

    async def fetch(self, query: Query) -> list[Fact]:
        if not self.up:
            raise SourceError("HTTP 503")
        return [
            Fact(
                subject="Berlin",
                attribute="temperature",
                value=4.3,
                unit="degC",
                source="weather",
                observed_at=NOW,
                ttl=900,
            )
        ]


async def work(up: bool) -> None:
    async with redis.asyncio.Redis.from_url(REDIS) as client:
        source = GuardedSource(
            Weather(up),
            breaker=BreakerSettings(fail_max=2),
            breaker_store=RedisBreakerStore(client, prefix=PREFIX),
            last_good=RedisLastGood(client, prefix=PREFIX),
        )
        for _ in range(2):
            await source.fetch({"subject": "Berlin"})
        facts = await source.fetch({"subject": "Berlin"})
        print(
            f"worker {'up' if up else 'down'}: {facts[0].value} degC, original "
            f"observed_at {facts[0].observed_at == NOW}, breaker {source.state}"
        )
        with PostgresSnapshotStore(POSTGRES, schema=SCHEMA) as store:
            store.write(
                Snapshot.build(
                    created_at=datetime.now(UTC),
                    question="Weather?",
                    facts=facts,
                    policy=Policy(),
                    prompt_version="p1",
                    phraser="template",
                    output="Berlin: 4.3 degC.",
                    status="ok",
                )
            )


def worker(up: bool) -> None:
    asyncio.run(work(up))


if __name__ == "__main__":
    for up in (True, False):
        process = multiprocessing.get_context("fork").Process(target=worker, args=(up,))
        process.start()
        process.join()
    with PostgresSnapshotStore(POSTGRES, schema=SCHEMA) as store:
        print(f"replay: {replay(store, Policy()).snapshots} snapshots from both workers")
    with redis.Redis.from_url(REDIS) as client:  # tidy up this example's keys and tables
        client.delete(*client.keys(f"{PREFIX}:*"))
    with psycopg.connect(POSTGRES) as connection:
        drop = psycopg.sql.SQL("DROP SCHEMA {} CASCADE")
        connection.execute(drop.format(psycopg.sql.Identifier(SCHEMA)))
