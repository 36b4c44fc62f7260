"""The review pages as a Starlette app: overview, answers, one answer, replay.

Server-rendered Jinja2 templates (package data, autoescaped; every printed
value first passes :func:`vouched._exceptions.printable`, so control and bidi
characters from the store show as ``\\u202e``, never act); a stylesheet and a
small script served by the app itself. Reading works without the script;
it only adds filtering as you choose and keyboard moves between findings.

Each page's work (the index, the store, a replay) runs in a worker thread,
and a replay at a time (:class:`asyncio.Semaphore`), so a heavy replay never
stalls the pages. ``Server-Timing: app;dur=MS`` says what a page cost.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from vouched._exceptions import MissingExtraError, printable
from vouched._policy import Policy
from vouched._replay._tables import Cell, Change, Flagged, percent
from vouched._review._answer import answer_view
from vouched._review._charts import Series, line_chart
from vouched._review._guard import ReviewGuard
from vouched._review._index import (
    ALL_STATUSES,
    Filters,
    ReadableStore,
    ReviewIndex,
    instant,
    row_key,
)
from vouched._review._replaying import ReplayChoices, replay_view
from vouched._scan._facts._lexicon import Lexicon
from vouched._time import Clock, parse_day_or_instant

__all__ = ["create_review_app"]

_HERE = Path(__file__).parent
_SAMPLES = (100, 500, 1000)
_FILTERS = ("status", "kind", "prompt_version", "source", "subject", "since", "until", "q")


def _jinja() -> Any:
    try:
        import jinja2  # noqa: PLC0415 - the server extra, loaded on use
    except ImportError:
        raise MissingExtraError("server", "jinja2") from None

    def finalize(value: Any) -> Any:
        # Markup is ours (charts); every other string may come from the store.
        if isinstance(value, str) and not isinstance(value, Markup):
            return printable(value)
        return value

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_HERE / "templates"),
        autoescape=True,
        finalize=finalize,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = percent
    env.filters["when"] = lambda v: "-" if v is None else f"{v:%Y-%m-%d %H:%M:%S}Z"
    env.filters["us"] = lambda us: f"{instant(us):%Y-%m-%d %H:%M:%S}"
    env.filters["nextday"] = lambda day: (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    env.filters["cell"] = _cell
    return env


def _cell(value: Cell) -> Markup:
    """A grading table's cell: a change coloured by direction, a flagged name."""
    if isinstance(value, Change):
        css = {-1: "worse", 1: "better"}.get(value.direction, "same")
        return Markup('{} → <span class="{}">{}</span>').format(
            printable(percent(value.then)), css, printable(percent(value.now))
        )
    if isinstance(value, Flagged):
        return Markup('{} <span class="flag">{}</span>').format(
            printable(value.text), printable(value.note)
        )
    return Markup("{}").format(printable(value))


class _BadFilterError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def _window_edge(text: str, field: str) -> datetime | None:
    if not text:
        return None
    try:
        return parse_day_or_instant(text)
    except ValueError:
        raise _BadFilterError(
            field, "give a date (2026-12-02) or an ISO 8601 instant with a zone"
        ) from None


def filters_of(params: Mapping[str, str]) -> Filters:
    status = params.get("status", "")
    if status and status not in ALL_STATUSES:
        raise _BadFilterError("status", f"one of {', '.join(ALL_STATUSES)}")
    return Filters(
        status=status,
        kind=params.get("kind", ""),
        prompt_version=params.get("prompt_version", ""),
        source=params.get("source", ""),
        subject=params.get("subject", ""),
        since=_window_edge(params.get("since", ""), "since"),
        until=_window_edge(params.get("until", ""), "until"),
        text=params.get("q", "")[:200],
    )


class _Pages:
    def __init__(
        self,
        index: ReviewIndex,
        store: ReadableStore,
        choices: ReplayChoices,
        title: str,
    ) -> None:
        self.index = index
        self.store = store
        self.choices = choices
        self.title = title
        self.env = _jinja()
        self.replaying = asyncio.Semaphore(1)

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        base = request.scope.get("root_path", "")
        html = self.env.get_template(name).render(
            base=base, title=self.title, page=name.removesuffix(".html"), **context
        )
        return HTMLResponse(html, status_code=status)

    async def timed(
        self, request: Request, work: Callable[[], tuple[str, int, dict[str, Any]]]
    ) -> Response:
        began = time.perf_counter()
        name, status, context = await run_in_threadpool(work)
        response = self.render(request, name, status, **context)
        spent = (time.perf_counter() - began) * 1000
        response.headers["server-timing"] = f"app;dur={spent:.1f}"
        return response

    # -- overview --------------------------------------------------------------------

    async def overview(self, request: Request) -> Response:
        def work() -> tuple[str, int, dict[str, Any]]:
            self.index.refresh()
            days = self.index.day_tallies()
            versions = self.index.version_tallies()
            charts = []
            for chart_id, title, labels, tallies in (
                (
                    "by-day",
                    "per day (UTC)",
                    [f"{d:%Y-%m-%d}" for d, _ in days],
                    [t for _, t in days],
                ),
                (
                    "by-version",
                    "per prompt version (in order of first use)",
                    [v for v, _ in versions],
                    [t for _, t in versions],
                ),
            ):
                series = [
                    Series("grounding rate", "s1", [t.grounding_rate for t in tallies]),
                    Series("failure share", "s2", [t.failure_share for t in tallies]),
                    Series("abstention", "s3", [t.abstention for t in tallies]),
                ]
                charts.append(
                    {
                        "id": chart_id,
                        "title": title,
                        # line_chart escapes every label it draws
                        "svg": Markup(  # noqa: S704
                            line_chart(chart_id, title, [printable(x) for x in labels], series)
                        ),
                        "rows": list(zip(labels, tallies, strict=True)),
                    }
                )
            breakers = sorted(self.index.breakers.items(), key=lambda item: (-item[1], item[0]))
            return (
                "overview.html",
                200,
                {
                    "answers": len(self.index),
                    "skipped": self.index.skipped,
                    "charts": charts,
                    "kinds": self.index.kinds.most_common(10),
                    "breakers": [
                        (
                            source,
                            count,
                            datetime.fromtimestamp(self.index.breakers_last[source] / 1e6, UTC),
                        )
                        for source, count in breakers
                    ],
                },
            )

        return await self.timed(request, work)

    # -- the list --------------------------------------------------------------------

    async def answers(self, request: Request) -> Response:
        params = {k: v for k, v in request.query_params.items() if v}

        def work() -> tuple[str, int, dict[str, Any]]:
            self.index.refresh()
            kept = {k: params[k] for k in _FILTERS if k in params}
            context: dict[str, Any] = {
                "params": kept,
                "statuses": ALL_STATUSES,
                "choices": self.index.choices(),
                "error": None,
                "rows": [],
                "total": 0,
                "older": None,
                "newer": None,
                "key": row_key,
            }
            try:
                filters = filters_of(params)
            except _BadFilterError as error:
                context["error"] = str(error)
                return "answers.html", 400, context
            page = self.index.page(
                filters, before=params.get("before", ""), after=params.get("after", "")
            )
            context.update(rows=page.rows, total=page.total)
            if page.older:
                context["older"] = "?" + urlencode({**kept, "before": page.older})
            if page.newer:
                context["newer"] = "?" + urlencode({**kept, "after": page.newer})
            return "answers.html", 200, context

        return await self.timed(request, work)

    # -- one answer ------------------------------------------------------------------

    async def answer(self, request: Request) -> Response:
        snapshot_id = request.path_params["snapshot_id"]

        def work() -> tuple[str, int, dict[str, Any]]:
            snapshot = (
                self.store.get(snapshot_id)
                if snapshot_id.isalnum() and len(snapshot_id) <= 64
                else None
            )
            if snapshot is None:
                return "missing.html", 404, {"snapshot_id": snapshot_id}
            return "answer.html", 200, {"a": answer_view(snapshot)}

        return await self.timed(request, work)

    # -- replay ----------------------------------------------------------------------

    async def replay(self, request: Request) -> Response:
        params = {k: v for k, v in request.query_params.items() if v}
        async with self.replaying:
            return await self.timed(request, lambda: self._replay(params))

    def _replay(self, params: Mapping[str, str]) -> tuple[str, int, dict[str, Any]]:
        self.index.refresh()
        context: dict[str, Any] = {
            "params": params,
            "policies": list(self.choices.policies),
            "lexicons": list(self.choices.lexicons),
            "samples": _SAMPLES,
            "statuses": ALL_STATUSES,
            "choices": self.index.choices(),
            "error": None,
            "result": None,
        }
        if "policy" not in params and "lexicon" not in params:
            return "replay.html", 200, context
        try:
            filters = filters_of(params)
            policy = self.choices.policy(params.get("policy", ""))
            lexicon = self.choices.lexicon(params.get("lexicon", ""))
            size = int(params.get("sample", str(_SAMPLES[0])))
            if size not in _SAMPLES:
                raise _BadFilterError("sample", f"one of {', '.join(map(str, _SAMPLES))}")
        except (_BadFilterError, KeyError, ValueError) as error:
            context["error"] = str(error).strip("'\"")
            return "replay.html", 400, context
        rows = self.index.page(filters, size=size).rows
        context["result"] = replay_view(self.store, [r.id for r in rows], policy, lexicon)
        return "replay.html", 200, context


def create_review_app(
    store: ReadableStore,
    *,
    host: str | None = "127.0.0.1",
    allowed_hosts: tuple[str, ...] = (),
    token: str | None = None,
    policies: Mapping[str, Policy] | None = None,
    lexicons: Mapping[str, Lexicon | None] | None = None,
    clock: Clock | None = None,
    refresh_every: float = 2.0,
    title: str = "vouched review",
) -> ReviewGuard:
    """The review pages over ``store`` (an ASGI app; read-only).

    ``host``/``allowed_hosts``/``token``: the Host names accepted and the token
    required (``host=None`` when a guard in front checks them, as in ``vouched
    serve``). ``policies`` and ``lexicons``: the rule versions the replay page
    offers, by name (the defaults and no lexicon are always offered).
    ``clock`` and ``refresh_every``: how often the index looks for new snapshots.
    """
    index = ReviewIndex(store, clock=clock, refresh_every=refresh_every)
    pages = _Pages(index, store, ReplayChoices.of(policies, lexicons), title)
    app = Starlette(
        routes=[
            Route("/", pages.overview, methods=["GET"]),
            Route("/answers", pages.answers, methods=["GET"]),
            Route("/answers/{snapshot_id}", pages.answer, methods=["GET"]),
            Route("/replay", pages.replay, methods=["GET"]),
            Mount("/static", app=StaticFiles(directory=_HERE / "static"), name="static"),
        ]
    )
    guard = ReviewGuard(app, host=host, allowed_hosts=allowed_hosts, token=token)
    guard.index = index
    return guard
