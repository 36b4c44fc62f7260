"""A forecast assistant behind ``vouched serve``, with a model that gives the wrong day.

Runs as it stands, offline, with the server extra installed (``make test`` installs
it; ``pip install 'vouched[server]'`` elsewhere; without it the script says so). A
five-day forecast for Vienna (facts valid for a day, built for the days starting
today) is a facts file the service reads; the
"model" is a stand-in OpenAI-compatible server on 127.0.0.1 that answers "What's
the high in Vienna tomorrow?" first with the day after tomorrow's high, then, on
the retry that quotes the problem, with tomorrow's. ``vouched serve`` sends the
model only tomorrow's facts (each with its day, and today's date), catches the
wrong day, retries once with the finding quoted, and returns the second answer.
The wrong number is never swapped for the right one behind your back.

    python examples/forecast_serve.py
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import threading
from datetime import UTC, date, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from vouched import Lexicon

VIENNA = timezone(timedelta(hours=1))
HIGHS = (4, 5, 7, 6, 3)  # today, tomorrow, the day after, ...
WRONG = "The high in Vienna tomorrow is 7 °C."  # the day after tomorrow's high
RIGHT = "The high in Vienna tomorrow is 5 °C."


def forecast(today: date, now: datetime) -> list[dict[str, Any]]:
    """A day's high per day, from today on, as the service's facts file holds them."""
    facts = []
    for offset, high in enumerate(HIGHS):
        start = datetime.combine(today + timedelta(days=offset), datetime.min.time(), VIENNA)
        facts.append({"subject": "Vienna", "attribute": "temperature_max", "value": high,
                      "unit": "°C", "source": "forecast", "ttl": 3600,
                      "observed_at": now.isoformat(), "valid_from": start.isoformat(),
                      "valid_until": (start + timedelta(days=1)).isoformat()})  # fmt: skip
    return facts


class Model(BaseHTTPRequestHandler):
    """A stand-in chat model: the wrong day first, the right one once told."""

    said: list[str] = []  # noqa: RUF012 - the log this example prints

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        block = re.search(r"<data>\n(.*)\n</data>", user, re.DOTALL)
        data = json.loads(block.group(1)) if block else {"facts": []}
        problems = data.get("problems", [])
        for problem in problems:
            self.said.append(f"vouched told the model: {problem['kind']} {problem['quote']!r}")
        days = sorted({fact["for"] for fact in data["facts"]})
        self.said.append(f"the model was sent {len(data['facts'])} fact(s), for {len(days)} day(s)")
        text = RIGHT if problems else WRONG
        self.said.append(f"the model said: {text}")
        reply = {"id": "fake", "object": "chat.completion", "created": 0, "model": "fake",
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": text}}]}  # fmt: skip
        payload = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:  # quiet
        pass


def main() -> None:
    now = datetime.now(UTC)
    model = ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        today = now.astimezone(VIENNA).date()
        (folder / "facts.json").write_text(json.dumps(forecast(today, now)), "utf-8")
        (folder / "weather.json").write_text(json.dumps(Lexicon.load("weather").to_json()))
        (folder / "serve.toml").write_text(
            '[lexicons]\nweather = "weather.json"\n\n'
            '[answer]\nlexicon = "weather"\non_fail = "retry"\n\n'
            '[[answer.sources]]\nname = "forecast"\nfacts = "facts.json"\n\n'
            '[answer.phraser]\nkind = "openai"\n'
            f'base_url = "http://127.0.0.1:{model.server_port}/v1"\nmodel = "fake"\n',
            "utf-8",
        )
        service = subprocess.Popen(  # noqa: S603 - this Python's own vouched, fixed argv
            [sys.executable, "-m", "vouched", "serve", "--config", str(folder / "serve.toml"),
             "--port", "0"],
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            listening = service.stderr.readline() if service.stderr else ""
            if "listening on" not in listening:  # the server extra missing, say, or a bad config
                raise SystemExit(f"vouched serve did not start: {listening.strip()}")
            url = listening.rsplit(" ", 1)[-1].strip()  # "vouched serve: listening on URL"
            question = "What's the high in Vienna tomorrow?"
            asked = {"question": question, "query": {"subject": "Vienna"}}
            answer = httpx.post(f"{url}/v1/answer", json=asked, timeout=30).json()
        finally:
            service.terminate()
            service.communicate(timeout=30)
    model.shutdown()
    print(f"question: {question}")
    print("\n".join(Model.said))
    trail = ", ".join(
        f"{a['action']} {[f['kind'] for f in a['findings']]}" for a in answer["trail"]
    )
    print(f"trail: {trail}")
    print(f"answer ({answer['status']}, {answer['attempts']} attempts): {answer['text']}")


if __name__ == "__main__":
    main()
