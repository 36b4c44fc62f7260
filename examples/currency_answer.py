"""Answer a currency question, with a model that adds a number nobody gave.

Runs as it stands, offline: recorded ECB reference rates (Frankfurter API
shape) are served on 127.0.0.1. The stand-in "model" below embellishes its
first answer with a weekly change no source reported; the scanner catches
it, the Grounder retries once with the finding quoted, and the second answer
passes. The wrong number is never swapped for a right one behind your back.

To phrase with a real model instead, point OPENAI_BASE_URL at any
OpenAI-compatible server (e.g. http://127.0.0.1:11434/v1 for Ollama), as the
OpenAI SDK and OpenAIChatPhraser read it, and set VOUCHED_MODEL (and
OPENAI_API_KEY if it needs one).

    python examples/currency_answer.py
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx

from vouched import (
    Fact,
    Grounder,
    GuardedSource,
    OpenAIChatPhraser,
    Prompt,
    Query,
    SourceError,
    TemplatePhraser,
)
from vouched.testing import RecordedServer


def recorded_response() -> dict[str, object]:
    # Yesterday's reference rate, so the fact is current whenever this runs.
    yesterday = datetime.now(UTC).date() - timedelta(days=1)
    return {"amount": 1.0, "base": "EUR", "date": yesterday.isoformat(), "rates": {"USD": 1.0842}}


class EcbRates:
    """ECB reference rates for {"base", "symbols"} from a Frankfurter-style API."""

    name = "frankfurter"

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    async def fetch(self, query: Query) -> Sequence[Fact]:
        params = {"base": query["base"], "symbols": ",".join(query["symbols"])}
        async with httpx.AsyncClient(timeout=2.0) as client:
            response = await client.get(f"{self.base_url}/latest", params=params)
        if response.status_code != 200:
            raise SourceError(f"HTTP {response.status_code}")
        body = response.json(parse_float=Decimal)
        return [
            Fact(
                subject=f"{body['base']}/{symbol}",
                attribute="rate",
                value=rate,
                source=self.name,
                observed_at=f"{body['date']}T15:00:00Z",
                confidence=1.0,
                # a reference rate holds until the next working day's set (weekends!)
                ttl=timedelta(days=3, hours=1),
                citation=f"ecb/{body['date']}",
            )
            for symbol, rate in body["rates"].items()
        ]


async def embellishing_model(prompt: Prompt) -> str:
    """A stand-in for a model: adds a figure on the first try, behaves when
    the findings are quoted back (prompt.problems)."""
    text = TemplatePhraser().render(prompt)
    if not prompt.problems:
        return f"{text} That is up 0.3% on the week."
    return text


def phraser() -> OpenAIChatPhraser | Callable[[Prompt], Awaitable[str]]:
    if not os.environ.get("OPENAI_BASE_URL"):
        return embellishing_model
    # None: the phraser reads OPENAI_BASE_URL and OPENAI_API_KEY itself.
    return OpenAIChatPhraser(None, os.environ.get("VOUCHED_MODEL", "llama3.1"))


async def main() -> None:
    with RecordedServer({"/latest": recorded_response()}) as server:
        rates = GuardedSource(EcbRates(server.url), deadline=2.0)
        grounder = Grounder([rates], phraser=phraser(), on_fail="retry")
        answer = await grounder.answer(
            "What is one euro worth in US dollars?", {"base": "EUR", "symbols": ["USD"]}
        )
    for number, attempt in enumerate(answer.trail, start=1):
        caught = ", ".join(f"{f.kind} {f.text!r}" for f in attempt.findings) or "nothing"
        print(f"attempt {number}: {attempt.text}")
        print(f"  scanner caught: {caught}")
    print(f"answer ({answer.status}): {answer.text}")


if __name__ == "__main__":
    asyncio.run(main())
