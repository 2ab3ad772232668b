"""The web application of ``spelbok serve``: the page and its JSON API (Starlette).

Routes (every body and answer is JSON; an error answers ``{"error": "..."}``):

* ``GET /``: the page (``static/``: shipped in the package, nothing loaded from elsewhere);
* ``GET /api/specs``: the specs one may play (the served files, then the shipped specs);
* ``GET /api/spec?spec=NAME&players=N``: its players, options (readings) and ``describe`` text;
* ``POST /api/matches`` ``{spec, players, seat, bots, options, seed, max_hands}``: a new
  match (``seat`` null: bots play every seat, to watch);
* ``GET /api/matches/ID``: the table as the human seat sees it;
* ``POST /api/matches/ID/act`` ``{action, step}``: the human's action, in notation;
* ``POST /api/matches/ID/advance`` ``{step}``: one bot's move (the page sets the pace);
* ``POST /api/matches/ID/hint`` ``{bot}``: what ``greedy`` or ``ismcts`` would play;
* ``POST /api/matches/ID/seat`` ``{seat}``: whose view a watcher sees (bots at every seat);
* ``GET /api/matches/ID/log``: the finished match as ``play --log`` writes it;
* ``POST /api/replays`` (a log's JSON): a replay; ``GET /api/replays/ID``;
  ``POST /api/replays/ID/goto`` ``{pos}``; ``POST /api/replays/ID/seat`` ``{seat}``.

Status codes: 400 a malformed request or a value the spec refuses, 404 no such
match, 409 not the moment (not your turn, a stale page), 413 too large a body,
422 an action the rules do not allow (with the engine's reason).  A refused
request changes nothing.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import IllegalActionError, SpelbokError, error_lines
from ..limits import MAX_FILE_BYTES
from . import workbench
from .pages import render
from .sessions import Conflict, Match, NotFound, Replay, Sessions, new_seed

if TYPE_CHECKING:
    from ..engine.game import Game

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
#: The largest request body read (a log upload is the largest).
MAX_BODY = MAX_FILE_BYTES
#: Compiled games kept for new matches (spec, players, options).
MAX_GAMES = 64


class BadRequest(SpelbokError):
    """A request that is not what the API takes."""


class TooLarge(SpelbokError):
    """A request body over :data:`MAX_BODY`."""


def _status(exc: Exception) -> int:
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Conflict):
        return 409
    if isinstance(exc, TooLarge):
        return 413
    if isinstance(exc, IllegalActionError):
        return 422
    return 400


class Server:
    """What one ``spelbok serve`` serves: its specs, its games and its sessions."""

    def __init__(self, specs: Sequence[str] = (), allow_paths: Sequence[str] = ()) -> None:
        from ..lang.loader import shipped_spec_names

        self.local = list(dict.fromkeys(str(s) for s in specs))
        self.shipped = shipped_spec_names()
        self.allow_paths = tuple(allow_paths)
        self.sessions = Sessions()
        self._games: OrderedDict[tuple[Any, ...], Game] = OrderedDict()
        self._lock = threading.Lock()

    # -- specs ----------------------------------------------------------------------

    def spec_names(self) -> list[str]:
        return [*self.local, *(n for n in self.shipped if n not in self.local)]

    def _spec(self, value: object) -> str:
        """A spec the page may name: a served file or a shipped name, never any other path."""
        if not isinstance(value, str) or value not in self.local and value not in self.shipped:
            raise BadRequest(f"no spec {str(value)[:60]!r} is served here; choose one of "
                             "/api/specs")
        return value

    def game(self, spec: object, players: object = None, options: object = None,
             max_hands: object = None) -> Game:
        import spelbok

        name = self._spec(spec)
        if players is not None and type(players) is not int:
            raise BadRequest("players must be a whole number")
        if max_hands is not None and type(max_hands) is not int:
            raise BadRequest("max_hands must be a whole number")
        if options is None:
            options = {}
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, str | int | float | bool)
                for k, v in options.items()):
            raise BadRequest("options must be a map of option names to values")
        key = (name, players, max_hands, tuple(sorted((k, str(v)) for k, v in options.items())))
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
        text_options = {k: str(v).lower() if isinstance(v, bool) else str(v)
                        for k, v in options.items()}
        game = spelbok.load(name, players=players, options=text_options or None,
                            max_hands=max_hands, allow_paths=self.allow_paths)
        with self._lock:
            self._games[key] = game
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        return game

    def spec_info(self, spec: object, players: object = None) -> dict[str, Any]:
        from ..lang.describe import describe
        from .sessions import _plain

        game = self.game(spec, players)
        tree = game.tree
        options = {}
        for name, o in (tree.get("options") or {}).items():
            if isinstance(o, dict):
                options[name] = {"values": _plain(o.get("values")),
                                 "default": _plain(o.get("default")),
                                 "about": str(o.get("about") or "")}
        return {"spec": spec, "name": game.name,
                "players": {"min": tree["players"]["min"], "max": tree["players"]["max"]},
                "options": options, "describe": describe(game.doc, game.players)}

    # -- matches ----------------------------------------------------------------------

    def new_match(self, body: dict[str, Any]) -> Match:
        from ..play.bots import make_bot

        game = self.game(body.get("spec"), body.get("players"), body.get("options"),
                         body.get("max_hands"))
        seat = body.get("seat", 0)
        if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
            raise BadRequest(f"seat must be 0 to {game.players - 1}, or null to watch bots")
        names = body.get("bots") or ["greedy"]
        if not isinstance(names, list) or not all(isinstance(b, str) for b in names):
            raise BadRequest("bots must be a list of bot names, e.g. [\"greedy\"]")
        seed = body.get("seed")
        if seed is None:
            seed = new_seed()
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise BadRequest("seed must be a whole number from 0")
        from ..play.matchlog import seat_seed

        bots = {}
        for i, p in enumerate(p for p in range(game.players) if p != seat):
            bots[p] = make_bot(names[i % len(names)], seed=seat_seed(seed, p))
        options = {k: str(v) for k, v in (body.get("options") or {}).items()}
        match = Match(game, str(body["spec"]), seed, seat, bots, options, body.get("max_hands"))
        self.sessions.add(match)
        return match

    def match(self, key: str) -> Match:
        item = self.sessions.get(key)
        if not isinstance(item, Match):
            raise NotFound(f"{key[:40]!r} is a replay, not a match")
        return item

    # -- replays --------------------------------------------------------------------

    def new_replay(self, text: str) -> Replay:
        from ..play.matchlog import parse_log, replay_log

        data = parse_log(text, "the log")
        spec = str(data["spec"])
        chosen = self._log_spec(spec)
        game, _ = replay_log(data, "the log", spec_override=chosen, allow_paths=self.allow_paths)
        replay = Replay(game, data)
        self.sessions.add(replay)
        return replay

    def _log_spec(self, spec: str) -> str:
        """The spec a log names, among the served ones (a log is never a way to a file)."""
        if spec in self.shipped or spec in self.local:
            return spec
        base = os.path.basename(spec)
        for local in self.local:
            if os.path.basename(local) == base:
                return local
        raise BadRequest(f"the log's spec {spec[:80]!r} is not served here: start "
                         f"'spelbok serve' with that spec file")

    def replay(self, key: str) -> Replay:
        item = self.sessions.get(key)
        if not isinstance(item, Replay):
            raise NotFound(f"{key[:40]!r} is a match, not a replay")
        return item


# -- the application ---------------------------------------------------------------------

async def _body(request: Request) -> Any:
    size = request.headers.get("content-length")
    if size is not None and (not (size.isascii() and size.isdigit()) or int(size) > MAX_BODY):
        raise TooLarge(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise TooLarge(f"the request is larger than {MAX_BODY // (1024 * 1024)} MB")
    return raw


async def _json(request: Request) -> dict[str, Any]:
    from ..limits import load_json

    raw = await _body(request)
    try:
        data = load_json(raw.decode("utf-8"), "request") if raw.strip() else {}
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _locked(item: Match | Replay, fn: Callable[[], Any]) -> Any:
    with item.lock:  # one request at a time per match: the state is not shared mid-move
        fn()
        return item.to_json()


def _server(request: Request) -> Server:
    """The :class:`Server` of the application answering ``request``."""
    server: Server = request.app.state.server
    return server


# -- the routes (each a module function: the server is the application's) ----------------


async def _index(request: Request) -> Response:
    return HTMLResponse(render("index.html"))


async def _list_specs(request: Request) -> Response:
    server = _server(request)
    return JSONResponse({"specs": server.spec_names(), "local": server.local})


async def _spec_info(request: Request) -> Response:
    players = request.query_params.get("players")
    if players is not None and not (players.isascii() and players.isdigit() and len(players) < 4):
        raise BadRequest("players must be a whole number")
    info = await run_in_threadpool(_server(request).spec_info, request.query_params.get("spec"),
                                   int(players) if players else None)
    return JSONResponse(info)


async def _new_match(request: Request) -> Response:
    body = await _json(request)

    def make() -> Any:
        match = _server(request).new_match(body)
        with match.lock:
            return match.to_json()

    return JSONResponse(await run_in_threadpool(make), status_code=201)


async def _get_match(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])
    return JSONResponse(await run_in_threadpool(_locked, match, lambda: None))


async def _act(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])
    body = await _json(request)
    return JSONResponse(await run_in_threadpool(
        _locked, match, lambda: match.act(body.get("action"), body.get("step"))))


async def _advance(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])
    body = await _json(request)
    return JSONResponse(await run_in_threadpool(
        _locked, match, lambda: match.advance(body.get("step"))))


async def _hint(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])
    body = await _json(request)
    bot = body.get("bot", "greedy")
    if not isinstance(bot, str):
        raise BadRequest("bot must be a name: greedy or ismcts")

    def ask() -> str:
        with match.lock:
            return match.hint(bot)

    return JSONResponse({"action": await run_in_threadpool(ask), "bot": bot})


async def _watch_seat(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])
    body = await _json(request)
    return JSONResponse(await run_in_threadpool(
        _locked, match, lambda: match.view_from(body.get("seat"))))


async def _match_log(request: Request) -> Response:
    match = _server(request).match(request.path_params["id"])

    def record() -> Any:
        with match.lock:
            return match.log_record()

    return JSONResponse(await run_in_threadpool(record), headers={
        "Content-Disposition": f'attachment; filename="spelbok-{match.seed}.json"'})


async def _new_replay(request: Request) -> Response:
    raw = await _body(request)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the log is not UTF-8 text") from None

    def make() -> Any:
        replay = _server(request).new_replay(text)
        with replay.lock:
            return replay.to_json()

    return JSONResponse(await run_in_threadpool(make), status_code=201)


async def _get_replay(request: Request) -> Response:
    replay = _server(request).replay(request.path_params["id"])
    return JSONResponse(await run_in_threadpool(_locked, replay, lambda: None))


async def _goto(request: Request) -> Response:
    replay = _server(request).replay(request.path_params["id"])
    body = await _json(request)
    return JSONResponse(await run_in_threadpool(
        _locked, replay, lambda: replay.goto(body.get("pos"))))


async def _seat(request: Request) -> Response:
    replay = _server(request).replay(request.path_params["id"])
    body = await _json(request)
    return JSONResponse(await run_in_threadpool(
        _locked, replay, lambda: replay.view_from(body.get("seat"))))


async def _error(request: Request, exc: Exception) -> Response:
    text = "\n".join(line.removeprefix("error: ") for line in error_lines(exc))
    return JSONResponse({"error": text}, status_code=_status(exc))


def _routes() -> list[Route | Mount]:
    """The routes, as the module's docstring lists them."""
    return [
        Route("/", _index),
        Route("/api/specs", _list_specs),
        Route("/api/spec", _spec_info),
        Route("/api/matches", _new_match, methods=["POST"]),
        Route("/api/matches/{id}", _get_match),
        Route("/api/matches/{id}/act", _act, methods=["POST"]),
        Route("/api/matches/{id}/advance", _advance, methods=["POST"]),
        Route("/api/matches/{id}/hint", _hint, methods=["POST"]),
        Route("/api/matches/{id}/seat", _watch_seat, methods=["POST"]),
        Route("/api/matches/{id}/log", _match_log),
        Route("/api/replays", _new_replay, methods=["POST"]),
        Route("/api/replays/{id}", _get_replay),
        Route("/api/replays/{id}/goto", _goto, methods=["POST"]),
        Route("/api/replays/{id}/seat", _seat, methods=["POST"]),
        *workbench.routes(_json),  # the reading workbench: /workbench, /api/workbench/...
        Mount("/static", StaticFiles(directory=STATIC)),
    ]


def create_app(specs: Sequence[str] = (), allow_paths: Sequence[str] = ()) -> Starlette:
    """The application serving ``specs`` (files) and the shipped specs."""
    app = Starlette(routes=_routes(), exception_handlers={SpelbokError: _error})
    app.state.server = Server(specs, allow_paths)
    return app
