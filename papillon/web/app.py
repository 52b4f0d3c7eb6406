"""The ASGI app of ``papillon serve``: server-rendered pages over :mod:`papillon.session` and :mod:`papillon.table`.

Security (Jupyter's model): the server binds to loopback unless told otherwise;
with a ``token`` every request must carry it (``?token=`` once, then a cookie);
state changes only by POST with a CSRF token (double submit: cookie and form
field) and a same-origin check; request bodies are capped; a game is named by
an id checked against :data:`papillon.session.GAME_ID` and never by a path;
every error is one friendly page.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from papillon.engine.bots import BOTS
from papillon.errors import IllegalActionError, PapillonError
from papillon.notation import MAX_NAME
from papillon.render.fonts import FONT_FILES, font_dir
from papillon.session import GAME_ID, PlaySession, Seat, SessionError, list_games, name_seats, parse_seed, record_results
from papillon.table import Table
from papillon.web import scoring, views

MAX_BODY_BYTES = 64 * 1024
"""The largest request body (an edition file is a few kilobytes)."""
MAX_GAMES_IN_MEMORY = 200
MAX_TABLES = 50
CSRF_COOKIE = "papillon_csrf"
TOKEN_COOKIE = "papillon_token"
HERE = Path(__file__).parent


@dataclass
class Room:
    """A game in play on this server: its session, a lock (requests run in threads) and the hot-seat hand-over."""

    session: PlaySession
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown_to: int = -1
    """The person the screen was last handed to (hot-seat: another person's turn shows the hand-over screen first)."""


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (by its Content-Length, and while it streams); ``larger`` raises it for some paths."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = limit
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.default)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(scope, receive, send)
            return
        seen = 0

        async def limited() -> MutableMapping[str, Any]:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, "The request is too large.")
            return message

        await self.app(scope, limited, send)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = HTMLResponse(views.error_page(413, "The request is too large."), status_code=413)
    await response(scope, receive, send)


class TokenGate:
    """With a token (a server on the home network), refuse every request that does not carry it."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token is None or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            page = views.error_page(403, "This papillon server needs its token: open the link with ?token=… that the server printed.")
            await HTMLResponse(page, status_code=403)(scope, receive, send)
            return

        async def with_cookie(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start" and TOKEN_COOKIE not in request.cookies:
                cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, with_cookie)


class Headers:
    """Security headers on every response; a CSRF cookie for a browser that has none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        csrf = request.cookies.get(CSRF_COOKIE)
        if not csrf or len(csrf) != 32:
            csrf = secrets.token_hex(16)
            scope.setdefault("state", {})["new_csrf"] = csrf
        scope.setdefault("state", {})["csrf"] = csrf

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", views.CSP.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"same-origin"),  # "no-referrer" would make the browser send "Origin: null"
                ]
                if "new_csrf" in scope["state"]:
                    cookie = f"{CSRF_COOKIE}={scope['state']['new_csrf']}; Path=/; HttpOnly; SameSite=Strict"
                    headers.append((b"set-cookie", cookie.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Papillon:
    """The app's state: games and tables in play, where games are saved, how the server is reached."""

    def __init__(self, *, folder: str | Path | None, token: str | None, base_url: str, loopback: bool) -> None:
        self.folder = folder
        self.token = token
        self.base_url = base_url
        self.loopback = loopback
        self.rooms: dict[str, Room] = {}
        self.tables: dict[str, Table] = {}
        self.watchers: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.score_night: Any = None
        """The score-night pages' state (:class:`papillon.web.scoring.ScoreNight`)."""

    # -- finding things by id --------------------------------------------------

    def room(self, game_id: str) -> Room:
        if not GAME_ID.match(game_id):
            raise HTTPException(404, "There is no such game.")
        with self.lock:
            room = self.rooms.get(game_id)
            if room is None:
                try:
                    session = PlaySession.resume(game_id, self.folder)
                except SessionError as error:  # none by that id, or a save that cannot be read: the library says which
                    raise HTTPException(404, "There is no such game." if error.parameter == "game_id" else str(error)) from None
                if len(self.rooms) >= MAX_GAMES_IN_MEMORY:
                    self.rooms.pop(next(iter(self.rooms)))  # saved after every round: the oldest can be reloaded
                room = self.rooms[game_id] = Room(session)
            return room

    def table(self, table_id: str, *, watch: bool = False) -> Table:
        table = (self.watchers if watch else self.tables).get(table_id)
        if table is None:
            raise HTTPException(404, "There is no such table.")
        return table


async def _form(request: Request) -> FormData:
    """The posted form, after the CSRF and same-origin checks."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
        raise HTTPException(403, "This form came from another site.")
    form = await request.form(max_files=1, max_fields=40, max_part_size=MAX_BODY_BYTES)
    given = form.get("csrf")
    expected = request.cookies.get(CSRF_COOKIE)
    if not isinstance(given, str) or not expected or not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(403, "This form has expired: reload the page and try again.")
    return form


def _text(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name, default)
    return value.strip() if isinstance(value, str) else default


def create_app(*, folder: str | Path | None = None, token: str | None = None, base_url: str = "", loopback: bool = True) -> ASGIApp:
    """The app; ``folder`` is the data folder (default: the user's), ``token`` the access token of a network server."""
    papillon = Papillon(folder=folder, token=token, base_url=base_url, loopback=loopback)
    pages = views.Pages(_templates(), papillon_token=token)

    async def home(request: Request) -> Response:
        return pages.render(request, "home.html", games=list_games(papillon.folder)[:30], bots=sorted(BOTS))

    async def new_game(request: Request) -> Response:
        form = await _form(request)
        try:
            seed = parse_seed(_text(form, "seed"))
        except SessionError as error:
            raise HTTPException(400, str(error)) from None
        seats = []
        for i in range(1, 7):
            kind = _text(form, f"seat{i}", "none")
            if kind == "none":
                continue
            if kind != "human" and kind not in BOTS:
                raise HTTPException(400, f"Unknown kind of seat {kind[:20]!r}.")
            seats.append(Seat(_text(form, f"name{i}"), None if kind == "human" else kind))
        upload = form.get("edition")
        edition_text = None
        if isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read()
            try:
                edition_text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise HTTPException(400, "The edition file is not UTF-8 text.") from None
        try:
            session = PlaySession.new(seed=seed, seats=name_seats(seats), folder=papillon.folder, edition_text=edition_text)
        except PapillonError as error:
            raise HTTPException(400, str(error)) from None
        with papillon.lock:
            papillon.rooms[session.id] = Room(session)
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def game(request: Request) -> Response:
        room = papillon.room(request.path_params["game_id"])
        with room.lock:
            session = room.session
            state = session.state
            if state.is_over():
                try:
                    results = record_results(session, papillon.folder)
                except SessionError:
                    results = []
                return pages.render(request, "end.html", **views.end_view(session, results))
            people = [i for i in range(len(session.agents)) if session.is_person(i)]
            if len(people) > 1 and room.shown_to != state.player:
                return pages.render(request, "handover.html", session=session, player=state.game.players[state.player])
            look = request.query_params.get("look", "")
            return pages.render(request, "play.html", **views.play_view(session, look))

    async def act(request: Request) -> Response:
        room = papillon.room(request.path_params["game_id"])
        form = await _form(request)
        action = _text(form, "action")[:40]
        error = ""
        with room.lock:
            if not room.session.state.is_over():
                try:
                    room.session.act(action)
                except (IllegalActionError, SessionError) as problem:
                    error = str(problem)
        if error:
            raise HTTPException(400, error)
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def undo(request: Request) -> Response:
        room = papillon.room(request.path_params["game_id"])
        await _form(request)
        with room.lock:
            room.session.undo()
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def ready(request: Request) -> Response:
        room = papillon.room(request.path_params["game_id"])
        await _form(request)
        with room.lock:
            room.shown_to = room.session.state.player
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def new_table(request: Request) -> Response:
        form = await _form(request)
        try:
            table = Table.new(seed=parse_seed(_text(form, "seed")))  # the library's seed rule, as for a game
        except SessionError as error:
            raise HTTPException(400, str(error)) from None
        with papillon.lock:
            if len(papillon.tables) >= MAX_TABLES:
                old = papillon.tables.pop(next(iter(papillon.tables)))
                papillon.watchers.pop(old.watch_id, None)
            papillon.tables[table.id] = table
            papillon.watchers[table.watch_id] = table
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def table_page(request: Request) -> Response:
        table = papillon.table(request.path_params["table_id"])
        watch_url = f"{papillon.base_url}/watch/{table.watch_id}" + (f"?token={papillon.token}" if papillon.token else "")
        return pages.render(request, "table.html", **views.table_view(table, watch_url=watch_url, loopback=papillon.loopback))

    async def table_step(request: Request) -> Response:
        table = papillon.table(request.path_params["table_id"])
        form = await _form(request)
        with papillon.lock:
            if _text(form, "do") == "undo":
                table.undo()
            else:
                table.reveal()
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def watch(request: Request) -> Response:
        table = papillon.table(request.path_params["watch_id"], watch=True)
        return pages.render(request, "watch.html", **views.table_view(table, watch_url="", loopback=papillon.loopback))

    async def watch_version(request: Request) -> Response:
        table = papillon.table(request.path_params["watch_id"], watch=True)
        return JSONResponse({"version": table.version}, headers={"cache-control": "no-store"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            raise HTTPException(404, "There is no such page.")
        return FileResponse(HERE / "static" / name, media_type=STATIC_FILES[name], headers={"cache-control": "max-age=3600"})

    async def font(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FONT_FILES.values():
            raise HTTPException(404, "There is no such page.")
        return FileResponse(font_dir() / name, media_type="font/ttf", headers={"cache-control": "max-age=86400"})

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        detail = exc.detail if isinstance(exc, HTTPException) else "Something went wrong on the server."
        if status == 405:
            detail = "This address cannot be used that way."
        elif status == 404 and detail == "Not Found":
            detail = "There is no such page."
        return HTMLResponse(views.error_page(status, str(detail)), status_code=status)

    async def server_error(request: Request, exc: Exception) -> Response:
        return HTMLResponse(
            views.error_page(500, "Something went wrong on the server. The game was saved at the last round."), status_code=500
        )

    routes = [
        Route("/", home),
        Route("/games", new_game, methods=["POST"]),
        Route("/games/{game_id}", game),
        Route("/games/{game_id}/act", act, methods=["POST"]),
        Route("/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/games/{game_id}/ready", ready, methods=["POST"]),
        Route("/tables", new_table, methods=["POST"]),
        Route("/tables/{table_id}", table_page),
        Route("/tables/{table_id}/step", table_step, methods=["POST"]),
        Route("/watch/{watch_id}", watch),
        Route("/watch/{watch_id}/version", watch_version),
        Route("/static/{name}", static),
        Route("/fonts/{name}", font),
        *scoring.score_routes(papillon, pages, _form, max_photo_form=scoring.PHOTO_BODY_BYTES),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.papillon = papillon
    larger = {scoring.PHOTO_PATH: scoring.PHOTO_BODY_BYTES}
    return BodyLimit(Headers(TokenGate(app, token)), MAX_BODY_BYTES, larger)  # the token page gets the security headers too


STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]))
    env.filters["svg"] = lambda markup: Markup(markup)  # our own renderer's markup, escaped where it takes text
    env.globals["name_max"] = MAX_NAME  # a name field holds what papillon.session.check_name accepts
    return env
