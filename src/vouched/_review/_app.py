"""The review pages as a Starlette app: overview, answers, one answer, the
review queue, replay; and, unless read-only, reviewers' verdicts (a form
``POST`` to ``/answers/{id}/verdicts``, :mod:`vouched._review._verdicting`).

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
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from vouched._exceptions import StoreError, one_line, printable, shown
from vouched._policy import Policy
from vouched._replay._verdicts import Mark, VerdictShelf
from vouched._review._answer import answer_view
from vouched._review._charts import Series, line_chart
from vouched._review._guard import ReviewGuard
from vouched._review._index import (
    ALL_STATUSES,
    Filters,
    ReadableStore,
    ReviewIndex,
    row_key,
)
from vouched._review._precision import precision_charts
from vouched._review._prompts import known_prompt
from vouched._review._queue import queue_item
from vouched._review._render import jinja
from vouched._review._replaying import ReplayChoices, replay_view
from vouched._review._verdicting import (
    COOKIE,
    BadVerdictError,
    Sessions,
    read_verdict,
    reviewer_of,
)
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._findings import FindingKind
from vouched._time import Clock, SystemClock, parse_day_or_instant

__all__ = ["create_review_app"]

_HERE = Path(__file__).parent
_SAMPLES = (100, 500, 1000)
STORE_TIMEOUT = 5.0  # seconds a page waits for the store before it is a 503
REPLAY_DEADLINE = 30.0  # seconds a replay page may take before it is a 503
_FILTERS = ("status", "kind", "prompt_version", "source", "subject", "since", "until", "q")


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


@dataclass(frozen=True)
class Writing:
    """How the pages take verdicts (``None`` in :class:`_Pages`: read-only)."""

    sessions: Sessions
    reviewer: str  # who gives a verdict when no header or login names anyone
    reviewer_header: str | None  # a header the operator trusts to name the reviewer
    clock: Clock


_FORM_LIMIT = 16_384  # bytes of a verdict form (a note of 2,000 characters, escaped, fits)


async def _form(request: Request) -> dict[str, str] | None:
    """The URL-encoded form of a POST (None when longer than :data:`_FORM_LIMIT`):
    read here, bounded, so the pages need no multipart parser."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > _FORM_LIMIT:
            return None
    pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    return dict(pairs[:32])


class _Pages:
    def __init__(
        self,
        index: ReviewIndex,
        store: ReadableStore,
        choices: ReplayChoices,
        title: str,
        writing: Writing | None,
        *,
        store_timeout: float,
        replay_deadline: float,
    ) -> None:
        self.index = index
        self.store = store
        self.choices = choices
        self.title = title
        self.writing = writing
        self.env = jinja()
        self.store_timeout = store_timeout
        self.replay_deadline = replay_deadline
        self._replay_running = threading.Lock()  # one replay at a time, held by its thread

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        base = request.scope.get("root_path", "")
        session = request.cookies.get(COOKIE)
        fresh = None
        csrf = ""
        if self.writing is not None:
            if not Sessions.usable(session):
                session = fresh = Sessions.new()
            assert session is not None  # noqa: S101 - set just above when missing
            csrf = self.writing.sessions.token(session)
        html = self.env.get_template(name).render(
            base=base,
            title=self.title,
            page=name.removesuffix(".html"),
            writable=self.writing is not None,
            csrf=csrf,
            **context,
        )
        response = HTMLResponse(html, status_code=status)
        if fresh is not None:
            response.set_cookie(COOKIE, fresh, path=base or "/", httponly=True, samesite="strict")
        return response

    async def timed(
        self,
        request: Request,
        work: Callable[[], tuple[str, int, dict[str, Any]]],
        within: float | None = None,
    ) -> Response:
        """``work`` in a worker thread, rendered; a store that fails or does not
        answer within ``within`` seconds (the store timeout) is a 503 page."""
        began = time.perf_counter()
        limit = self.store_timeout if within is None else within
        try:
            name, status, context = await asyncio.wait_for(run_in_threadpool(work), limit)
        except TimeoutError:
            name, status, context = (
                "unavailable.html",
                503,
                {"why": f"the snapshot store did not answer within {limit:g} s"},
            )
        except (StoreError, OSError) as error:
            name, status, context = "unavailable.html", 503, {"why": one_line(str(error), 200)}
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
                        "precision": False,
                        "id": chart_id,
                        "title": title,
                        # line_chart escapes every label it draws
                        "svg": Markup(  # noqa: S704
                            line_chart(chart_id, title, [printable(x) for x in labels], series)
                        ),
                        "rows": list(zip(labels, tallies, strict=True)),
                    }
                )
            order = [v for v, _ in self.index.version_tallies()]
            charts.extend(precision_charts(self.index.book, order))
            breakers = sorted(self.index.breakers.items(), key=lambda item: (-item[1], item[0]))
            return (
                "overview.html",
                200,
                {
                    "answers": len(self.index),
                    "skipped": self.index.skipped,
                    "charts": charts,
                    "kinds": self.index.kinds.most_common(10),
                    "by_rule": self.index.book.by_rule(),
                    "by_kind": self.index.book.by_kind(),
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
                return "missing.html", 404, {"snapshot_id": shown(snapshot_id)}
            given = self.index.book.on(snapshot.id).items()
            marks = {(att, start, end, kind): v for (_, att, start, end, kind), v in given}
            missed = [v for v in marks.values() if v.mark is Mark.MISSED]
            everything = request.query_params.get("facts") == "all"
            back = request.query_params.get("next", "")
            base = request.scope.get("root_path", "")
            return (
                "answer.html",
                200,
                {
                    "a": answer_view(snapshot),
                    "marks": marks,
                    "missed": missed,
                    "next_page": back if back.startswith(base + "/queue") else "",
                    "kinds": [str(k) for k in FindingKind],
                    "all_facts": everything,
                },
            )

        return await self.timed(request, work)

    # -- verdicts and the review queue -------------------------------------------------

    async def verdict(self, request: Request) -> Response:
        """One reviewer's verdict on one finding (a form POST); 303 back to the page."""
        writing = self.writing
        if writing is None:  # the guard refuses POSTs first; a second lock on the door
            return PlainTextResponse("the review pages are read-only", 405)
        snapshot_id = request.path_params["snapshot_id"]
        form = await _form(request)
        if form is None:
            return PlainTextResponse(f"a verdict form is at most {_FORM_LIMIT} bytes", 413)
        if not writing.sessions.check(request.cookies.get(COOKIE), str(form.get("csrf", ""))):
            return PlainTextResponse(
                "refused: the form's token is not this session's (reload the page)", 403
            )
        reviewer = reviewer_of(
            {k.lower(): v for k, v in request.headers.items()},
            header=writing.reviewer_header,
            default=writing.reviewer,
        )
        shelf = self.store

        def work() -> Response:
            snapshot = (
                self.store.get(snapshot_id)
                if snapshot_id.isalnum() and len(snapshot_id) <= 64
                else None
            )
            if snapshot is None:
                return PlainTextResponse(f"no answer {snapshot_id[:64]!r}", 404)
            try:
                verdict = read_verdict(snapshot, form, reviewer=reviewer, at=writing.clock.now())
            except BadVerdictError as error:
                return PlainTextResponse(str(error), 400)
            assert isinstance(shelf, VerdictShelf)  # noqa: S101 - checked when the pages were made
            shelf.write_verdict(verdict)
            self.index.book.add(verdict)
            return RedirectResponse(self._back(request, snapshot_id, form), 303)

        began = time.perf_counter()
        response = await run_in_threadpool(work)
        spent = (time.perf_counter() - began) * 1000
        response.headers["server-timing"] = f"app;dur={spent:.1f}"
        return response

    @staticmethod
    def _back(request: Request, snapshot_id: str, form: Mapping[str, Any]) -> str:
        base = request.scope.get("root_path", "")
        back = str(form.get("next", ""))
        if back.startswith(base + "/") and not back.startswith("//") and "\\" not in back:
            return back  # one of the pages' own paths, never another site
        return f"{base}/answers/{snapshot_id}"

    async def queue(self, request: Request) -> Response:
        by = "rule" if request.query_params.get("order") == "rule" else "oldest"

        def work() -> tuple[str, int, dict[str, Any]]:
            self.index.refresh()
            first, waiting = self.index.queue(by=by, size=20)
            return (
                "queue.html",
                200,
                {
                    "order": by,
                    "items": [queue_item(self.store.get(w.snapshot_id), w) for w in first],
                    "waiting": sum(waiting.values()),
                    "kinds": sorted(waiting.items(), key=lambda item: (-item[1], item[0])),
                    "reviewed": len(self.index.book),
                },
            )

        return await self.timed(request, work)

    async def prompt(self, request: Request) -> Response:
        version = request.path_params["version"][:80]
        return self.render(request, "prompt.html", version=version, known=known_prompt(version))

    # -- replay ----------------------------------------------------------------------

    async def replay(self, request: Request) -> Response:
        params = {k: v for k, v in request.query_params.items() if v}
        if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
            # Another site's page (one the operator has open) may not make this
            # service replay: the browser says where the request comes from.
            return PlainTextResponse("the replay page answers this service's own pages", 403)
        if not self._replay_running.acquire(blocking=False):
            return self.render(request, "unavailable.html", 503,
                               why="a replay is under way; try again when it is done")  # fmt: skip

        def work() -> tuple[str, int, dict[str, Any]]:
            try:
                return self._replay(params)
            finally:
                self._replay_running.release()  # when the work ends, even past the deadline

        return await self.timed(request, work, within=self.replay_deadline)

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
    read_only: bool = True,
    reviewer: str = "reviewer",
    reviewer_header: str | None = None,
    sessions: Sessions | None = None,
    store_timeout: float = STORE_TIMEOUT,
    replay_deadline: float = REPLAY_DEADLINE,
) -> ReviewGuard:
    """The review pages over ``store`` (an ASGI app; read-only).

    ``host``/``allowed_hosts``/``token``: the Host names accepted and the token
    required (``host=None`` when a guard in front checks them, as in ``vouched
    serve``). ``policies`` and ``lexicons``: the rule versions the replay page
    offers, by name (the defaults and no lexicon are always offered).
    ``clock`` and ``refresh_every``: how often the index looks for new snapshots.
    ``read_only=False``: take reviewers' verdicts (the store must keep them,
    :class:`vouched._replay._verdicts.VerdictShelf`); the reviewer is named by
    ``reviewer_header`` when the request has it, else by HTTP Basic's user
    name, else ``reviewer``. ``sessions``: the CSRF secret (tests pass one).
    ``store_timeout``: seconds a page waits for the store (a 503 page past it,
    or when the store fails); ``replay_deadline``: the same for a replay (one
    runs at a time; another asked meanwhile is a 503 at once).
    """
    index = ReviewIndex(store, clock=clock, refresh_every=refresh_every)
    writing = None
    if not read_only:
        if not isinstance(store, VerdictShelf):
            raise TypeError(f"{store!r} keeps no verdicts: open the pages read-only")
        writing = Writing(sessions or Sessions(), reviewer, reviewer_header, clock or SystemClock())
    pages = _Pages(index, store, ReplayChoices.of(policies, lexicons), title, writing,
                   store_timeout=store_timeout, replay_deadline=replay_deadline)  # fmt: skip
    app = Starlette(
        routes=[
            Route("/", pages.overview, methods=["GET"]),
            Route("/answers", pages.answers, methods=["GET"]),
            Route("/answers/{snapshot_id}", pages.answer, methods=["GET"]),
            Route("/answers/{snapshot_id}/verdicts", pages.verdict, methods=["POST"]),
            Route("/queue", pages.queue, methods=["GET"]),
            Route("/prompts/{version}", pages.prompt, methods=["GET"]),
            Route("/replay", pages.replay, methods=["GET"]),
            Mount("/static", app=StaticFiles(directory=_HERE / "static"), name="static"),
        ]
    )
    guard = ReviewGuard(
        app, host=host, allowed_hosts=allowed_hosts, token=token, read_only=read_only
    )
    guard.index = index
    return guard
