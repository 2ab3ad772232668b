"""The reading workbench of ``spelbok serve``: a page to edit a spec and see, as one
types, what ``validate``, ``describe``, ``verify`` and a small ``audit`` make of it.

The library is :mod:`spelbok.analysis.workbench` (and ``workbench_audit``); this module is
its routes, which :mod:`spelbok.web.app` includes (:func:`routes`).  Nothing is written
to disk: the page saves the text as a download.  The text is untrusted: it is bounded
in size, read with the safe loaders, and reaches no file but the shipped specs and
reading files.

Routes (bodies and answers are JSON; an error answers ``{"error": "..."}``):

* ``GET /workbench``: the page;
* ``GET /api/workbench/open?spec=NAME&surface=yaml|dsl``: a shipped spec's text, and
  the name of its reading file;
* ``GET /api/workbench/reading?name=NAME``: a shipped reading file's text;
* ``POST /api/workbench/check`` ``{text, surface, near}``: ``validate``'s problems, each
  with its line and column (``near``: the shipped spec the text was opened from, or null);
* ``POST /api/workbench/describe`` ``{text, surface, near, players}``: ``describe``'s prose
  and what a variant changes against its base;
* ``POST /api/workbench/readings`` ``{text, surface, near, reading, reading_text}``: each
  case of the reading file run against the text, with its position;
* ``POST /api/workbench/audit`` ``{text, surface, near, option, games, players, seed}``:
  a small audit of one option, with the measures to plot (409 while another runs,
  503 past its deadline).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..analysis import workbench as wb
from ..analysis.workbench_audit import MAX_GAMES, Busy, TimeUp
from .pages import render
from .sessions import Conflict, card_json, suit_json


def _draw(name: str, pack: Any, suit: bool) -> Any:
    return suit_json(name, pack) if suit else card_json(name, pack)


#: How a request's JSON body is read: the application's bounded reader (``routes``).
ReadJson = Callable[[Request], Awaitable[dict[str, Any]]]


def _source(body: dict[str, Any]) -> Any:
    return wb.spec_text(body.get("text"), body.get("surface", "yaml"), body.get("near"))


def _players(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 < value < 100:
        raise wb.WorkbenchError("players must be a whole number")
    return value


async def _page(request: Request) -> Response:
    from ..lang.loader import shipped_spec_names

    return HTMLResponse(render("workbench.html", specs=shipped_spec_names(),
                               readings=wb.reading_names(), max_games=MAX_GAMES))


async def _open(request: Request) -> Response:
    q = request.query_params
    return JSONResponse(await run_in_threadpool(wb.open_shipped, q.get("spec"),
                                                q.get("surface", "yaml")))


async def _reading(request: Request) -> Response:
    name = request.query_params.get("name")
    return JSONResponse({"name": name, "text": await run_in_threadpool(wb.reading_text, name)})


async def _check(request: Request, body: dict[str, Any]) -> Response:
    return JSONResponse(await run_in_threadpool(lambda: wb.check(_source(body))))


async def _describe(request: Request, body: dict[str, Any]) -> Response:

    def run() -> dict[str, Any]:
        return wb.describe_spec(_source(body), _players(body.get("players")))

    return JSONResponse(await run_in_threadpool(run))


async def _readings(request: Request, body: dict[str, Any]) -> Response:

    def run() -> dict[str, Any]:
        return wb.run_readings(_source(body), body.get("reading"), body.get("reading_text"),
                               draw=_draw)

    return JSONResponse(await run_in_threadpool(run))


async def _audit(request: Request, body: dict[str, Any]) -> Response:
    from ..analysis.workbench_audit import small_audit


    def run() -> dict[str, Any]:
        try:
            result = small_audit(_source(body), body.get("option"), body.get("games", 40),
                                 _players(body.get("players")), body.get("seed", 0))
        except Busy as exc:
            raise Conflict(str(exc)) from None
        result.pop("audit", None)  # the page draws the plots; the whole audit is large
        return result

    try:
        return JSONResponse(await run_in_threadpool(run))
    except TimeUp as exc:
        return JSONResponse({"error": str(exc)}, status_code=503)


def routes(read_json: ReadJson) -> list[Route]:
    """The workbench's routes, for :func:`spelbok.web.app.create_app`; ``read_json`` reads a
    request's JSON body (the application's reader, bounded in size)."""

    def post(path: str, handler: Callable[[Request, dict[str, Any]], Awaitable[Response]]
             ) -> Route:
        async def endpoint(request: Request) -> Response:
            return await handler(request, await read_json(request))

        return Route(path, endpoint, methods=["POST"])

    return [
        Route("/workbench", _page),
        Route("/api/workbench/open", _open),
        Route("/api/workbench/reading", _reading),
        post("/api/workbench/check", _check),
        post("/api/workbench/describe", _describe),
        post("/api/workbench/readings", _readings),
        post("/api/workbench/audit", _audit),
    ]
