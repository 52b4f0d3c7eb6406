"""The ASGI app of ``papillon serve``: server-rendered pages over :mod:`papillon.session` and :mod:`papillon.table`.

Security (Jupyter's model): the server binds to loopback unless told otherwise;
with a ``token`` every request must carry it (``?token=`` once, then a cookie);
state changes only by POST with a CSRF token (double submit: cookie and form
field) and a same-origin check; request bodies are capped; a game is named by
an id checked against :data:`papillon.session.GAME_ID` and never by a path;
every error is one friendly page.
"""

from __future__ import annotations

import asyncio
import errno
import re
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from papillon.edition import standard_edition
from papillon.engine.bots import BOTS
from papillon.errors import IllegalActionError, PapillonError
from papillon.history import HistoryError
from papillon.notation import MAX_NAME
from papillon.render.fonts import FONT_FILES, font_dir
from papillon.session import (
    GAME_ID,
    Move,
    PlaySession,
    Seat,
    SessionError,
    data_dir,
    delete_game,
    list_games,
    name_seats,
    parse_seed,
    record_results,
)
from papillon.table import Table
from papillon.web import keys, scoring, views, workers
from papillon.web.store import KeyRow, StoreError, TableRow, open_store

T = TypeVar("T")
SEATS = standard_edition().play.max_players
"""The new-game form's seats: as many as a game of the standard edition has players (a custom edition's check comes after)."""
BOT_WAIT_SECONDS = 2.0
"""How long an answer waits for the bots' turns before it shows them at work (a page that refreshes)."""

MAX_BODY_BYTES = 64 * 1024
"""The largest request body (an edition file is a few kilobytes)."""
MAX_GAMES_IN_MEMORY = 200
MAX_TABLES = 50
CSRF_COOKIE = "papillon_csrf"
TOKEN_COOKIE = keys.HOST_COOKIE
HERE = Path(__file__).parent


@dataclass
class Room:
    """A game in play on this server: its session, a lock (requests run in threads) and the hot-seat hand-over."""

    session: PlaySession
    folder: Path
    """The data folder the game's results are recorded in when it ends."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown_to: int = -1
    """The person the screen was last handed to (hot-seat: another person's turn shows the hand-over screen first)."""
    job: Future[None] | None = None
    """The bots' turns being played in the worker pool (:mod:`papillon.web.workers`)."""
    progress: list[Move] = field(default_factory=list)
    """The bots' decisions of the turns being played, as they come."""

    def idle(self) -> bool:
        return self.job is None or self.job.done()

    async def settle(self, seconds: float) -> bool:
        """Wait (without holding up other requests) up to ``seconds`` for the bots; whether they are done."""
        job = self.job
        if job is None or job.done():
            return True
        await asyncio.wait([asyncio.wrap_future(job)], timeout=seconds)
        return job.done()


class BodyLimit:
    """Refuse a request body over ``limit`` bytes (by its Content-Length, and while it streams); ``larger`` raises it for some paths.

    It sits inside the key check and the security headers: a stranger's large post is a 403, and a 413 has the headers.
    """

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


LOOPBACK_HOST = re.compile(r"^(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?$")
"""The Host a loopback server answers (Jupyter's rule): another name is a page using DNS rebinding."""


class Gate:
    """Who is asking: the Host check of a loopback server, then the key (:mod:`papillon.web.keys`), then what that key may open."""

    def __init__(self, app: ASGIApp, papillon: Papillon) -> None:
        self.app = app
        self.papillon = papillon

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        papillon = self.papillon
        if papillon.loopback and not LOOPBACK_HOST.match(request.headers.get("host", "")):
            page = views.error_page(421, "This server answers only as 127.0.0.1, localhost or [::1].")
            await HTMLResponse(page, status_code=421)(scope, receive, send)
            return
        access, cookie = keys.identify(request, papillon.token, papillon.store)
        scope.setdefault("state", {})["access"] = access
        refusal = keys.refusal(access, scope["path"], scope["method"])
        if refusal:
            await HTMLResponse(views.error_page(403, refusal), status_code=403)(scope, receive, send)
            return

        async def with_cookie(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start" and cookie:
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
    """The app's state: games and tables in play, where games are saved, how the server is reached.

    Games are on disk after every decision (their logs) and tables, nights and sheets in the store, so
    what is held in memory is a cache: the least recently used is dropped and reloaded when asked for.
    """

    def __init__(self, *, folder: str | Path | None, token: str | None, base_url: str, loopback: bool) -> None:
        self.folder: Path = Path(folder) if folder is not None else data_dir()
        self.token = token
        self.base_url = base_url
        self.loopback = loopback
        self.store = open_store(self.folder)
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.lock = threading.Lock()
        self.bots = workers.Pool()
        self.score_night = scoring.ScoreNight(self.store)

    def link(self, path: str) -> str:
        """A page's address as the server printed it; with the host key when the server has one."""
        return f"{self.base_url}{path}" + (f"?token={self.token}" if self.token else "")

    # -- finding things by id --------------------------------------------------

    async def room(self, game_id: str) -> Room:
        if not GAME_ID.match(game_id):
            raise HTTPException(404, "There is no such game.")
        with self.lock:
            room = self.rooms.get(game_id)
            if room is not None:
                self.rooms.move_to_end(game_id)
                return room
        try:
            session = await run_in_threadpool(PlaySession.resume, game_id, self.folder, play_bots=False)
        except SessionError as error:  # none by that id, or a save that cannot be read: the library says which
            raise HTTPException(404, "There is no such game." if error.parameter == "game_id" else str(error)) from None
        with self.lock:
            room = self.rooms.get(game_id)
            if room is None:
                room = self.rooms[game_id] = Room(session, self.folder)
                self._evict(self.rooms, MAX_GAMES_IN_MEMORY)
        if room.session.bots_to_play() and room.idle():
            self.bots.play(room)
        return room

    def add_room(self, session: PlaySession) -> Room:
        with self.lock:
            room = self.rooms[session.id] = Room(session, self.folder)
            self._evict(self.rooms, MAX_GAMES_IN_MEMORY)
        if session.bots_to_play():
            self.bots.play(room)
        return room

    @staticmethod
    def _evict(cache: OrderedDict[str, Room], most: int) -> None:
        """Drop the least recently used idle rooms over ``most`` (each is on disk: it reloads when asked for)."""
        for game_id in list(cache):
            if len(cache) <= most:
                return
            if cache[game_id].idle():
                del cache[game_id]

    def table(self, table_id: str) -> Table:
        with self.lock:
            table = self.tables.get(table_id)
            if table is not None:
                self.tables.move_to_end(table_id)
                return table
        row = self.store.table(table_id=table_id) if TABLE_ID.match(table_id) else None
        if row is None:
            raise HTTPException(404, "There is no such table.")
        table = Table.restore(row.id, row.watch_id, row.seed, row.reveals)
        self.keep_table(table)
        return table

    def watched_table(self, watch_id: str) -> Table:
        row = self.store.table(watch_id=watch_id) if WATCH_ID.match(watch_id) else None
        if row is None:
            raise HTTPException(404, "There is no such table.")
        return self.table(row.id)

    def keep_table(self, table: Table) -> None:
        with self.lock:
            self.tables[table.id] = table
            while len(self.tables) > MAX_TABLES:
                self.tables.popitem(last=False)

    def save_table(self, table: Table) -> None:
        self.store.save_table(TableRow(table.id, table.watch_id, table.seed, table.reveals))


TABLE_ID = re.compile(r"^[0-9a-f]{12}$")
WATCH_ID = re.compile(r"^[0-9a-f]{16}$")


async def _form(request: Request) -> FormData:
    """The posted form, after the CSRF and same-origin checks."""
    origin = request.headers.get("origin")
    if origin is not None:
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:  # "http://[::1" cannot be parsed: it is no origin of ours
            netloc = None
        if netloc != request.headers.get("host"):
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


def _in_thread(room: Room, work: Callable[[], T]) -> Awaitable[T]:
    """Run ``work`` on the room's session under its lock, off the event loop (a save waits for the disk)."""

    def locked() -> T:
        with room.lock:
            return work()

    return run_in_threadpool(locked)


def create_app(*, folder: str | Path | None = None, token: str | None = None, base_url: str = "", loopback: bool = True) -> ASGIApp:
    """The app; ``folder`` is the data folder (default: the user's), ``token`` the host key of a network server."""
    papillon = Papillon(folder=folder, token=token, base_url=base_url, loopback=loopback)
    pages = views.Pages(_templates(), papillon_token=token)

    def home_page(request: Request, *, error: str = "", values: dict[str, str] | None = None, status: int = 200) -> Response:
        page = pages.render(
            request,
            "home.html",
            games=list_games(papillon.folder)[:30],
            bots=sorted(BOTS),
            seats=SEATS,
            error=error,
            values=values or {},
        )
        page.status_code = status
        return page

    async def home(request: Request) -> Response:
        return home_page(request)

    async def new_game(request: Request) -> Response:
        form = await _form(request)
        seat_numbers = range(1, SEATS + 1)
        fields = ["seed", *(f"{kind}{i}" for i in seat_numbers for kind in ("seat", "name"))]
        values = {name: _text(form, name)[:MAX_NAME] for name in fields if _text(form, name)}
        try:
            seed = parse_seed(_text(form, "seed"))
        except SessionError as error:
            return home_page(request, error=str(error), values=values, status=400)  # the form comes back as it was
        seats = []
        for i in seat_numbers:
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
                return home_page(request, error="The edition file is not UTF-8 text.", values=values, status=400)
        if papillon.bots.full():
            raise HTTPException(503, workers.BUSY)
        try:
            session = await run_in_threadpool(
                lambda: PlaySession.new(
                    seed=seed, seats=name_seats(seats), folder=papillon.folder, edition_text=edition_text, play_bots=False
                )
            )
        except PapillonError as error:
            return home_page(request, error=str(error), values=values, status=400)
        room = papillon.add_room(session)
        await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def game(request: Request) -> Response:
        room = await papillon.room(request.path_params["game_id"])
        if not await room.settle(BOT_WAIT_SECONDS):
            return pages.render(
                request,
                "thinking.html",
                session=room.session,
                progress=room.progress[-12:],
                done=len(room.progress),
                data=views.game_data(room.session, busy=True),
            )

        def render() -> Response:
            session = room.session
            state = session.state
            if state.is_over():
                try:
                    results = record_results(session, papillon.folder)
                except SessionError:
                    results = []
                return pages.render(request, "end.html", **views.end_view(session, results), data=views.game_data(session))
            people = [i for i in range(len(session.agents)) if session.is_person(i)]
            if len(people) > 1 and room.shown_to != state.player:
                return pages.render(
                    request, "handover.html", session=session, player=state.game.players[state.player], data=views.game_data(session)
                )
            look = request.query_params.get("look", "")
            page = pages.render(request, "play.html", **views.play_view(session, look), data=views.game_data(session))
            session.note = ""  # told once
            return page

        return await _in_thread(room, render)

    async def act(request: Request) -> Response:
        room = await papillon.room(request.path_params["game_id"])
        form = await _form(request)
        action = _text(form, "action")[:40]
        if not await room.settle(BOT_WAIT_SECONDS):  # a click from a page shown before: never taken as if it were
            raise HTTPException(409, "The bots are still playing: your choice was not taken. Their turns show on the game's page.")
        if papillon.bots.full():
            raise HTTPException(503, workers.BUSY)

        def decide() -> str:
            if room.session.state.is_over():
                return ""
            try:
                room.session.decide(action)  # on disk before the answer
            except (IllegalActionError, SessionError) as problem:
                return str(problem)
            if room.session.state.is_over():
                workers.record_finished(room.session, papillon.folder)
            return ""

        error = await _in_thread(room, decide)
        if error:
            raise HTTPException(400, error)
        if room.session.bots_to_play():
            papillon.bots.play(room)
            await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def undo(request: Request) -> Response:
        room = await papillon.room(request.path_params["game_id"])
        await _form(request)
        if await room.settle(BOT_WAIT_SECONDS):
            await _in_thread(room, room.session.undo)
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def ready(request: Request) -> Response:
        room = await papillon.room(request.path_params["game_id"])
        await _form(request)
        room.shown_to = room.session.state.player
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def delete_page(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        info = next((g for g in list_games(papillon.folder) if g.id == game_id), None)
        if info is None:
            raise HTTPException(404, "There is no such game.")
        return pages.render(request, "delete.html", game=info)

    async def delete(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        form = await _form(request)
        if _text(form, "confirm") != "yes":
            return RedirectResponse(f"/games/{game_id}/delete", status_code=303)
        with papillon.lock:
            room = papillon.rooms.get(game_id)
            if room is not None and not room.idle():
                raise HTTPException(409, "The bots are still playing this game: wait for them, then delete it.")
            papillon.rooms.pop(game_id, None)
        try:
            delete_game(game_id, papillon.folder)
        except SessionError:
            raise HTTPException(404, "There is no such game.") from None
        return RedirectResponse("/", status_code=303)

    async def new_table(request: Request) -> Response:
        form = await _form(request)
        try:
            table = Table.new(seed=parse_seed(_text(form, "seed")))  # the library's seed rule, as for a game
        except SessionError as error:
            raise HTTPException(400, str(error)) from None
        papillon.save_table(table)
        papillon.store.add_key(KeyRow(table.watch_id, "watch", table.id))
        papillon.keep_table(table)
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def table_page(request: Request) -> Response:
        table = papillon.table(request.path_params["table_id"])
        watch_url = f"{papillon.base_url}/watch/{table.watch_id}"  # the watch key opens this page and nothing else
        values = views.table_view(table, watch_url=watch_url, loopback=papillon.loopback)
        return pages.render(request, "table.html", **values, data=views.table_data(table))

    async def table_step(request: Request) -> Response:
        table = papillon.table(request.path_params["table_id"])
        form = await _form(request)
        with papillon.lock:
            if _text(form, "do") == "undo":
                table.undo()
            else:
                table.reveal()
            papillon.save_table(table)  # on disk before the answer
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def watch(request: Request) -> Response:
        table = papillon.watched_table(request.path_params["watch_id"])
        values = views.table_view(table, watch_url="", loopback=papillon.loopback)
        return pages.render(request, "watch.html", **values, data=views.table_data(table) | {"id": None})

    async def watch_version(request: Request) -> Response:
        table = papillon.watched_table(request.path_params["watch_id"])
        return JSONResponse({"version": table.version}, headers={"cache-control": "no-store"})

    async def game_progress(request: Request) -> Response:
        room = await papillon.room(request.path_params["game_id"])
        return JSONResponse({"busy": not room.idle(), "moves": len(room.progress)}, headers={"cache-control": "no-store"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            raise HTTPException(404, "There is no such page.")
        return FileResponse(HERE / "static" / name, media_type=STATIC_FILES[name], headers={"cache-control": "max-age=3600"})

    async def favicon(request: Request) -> Response:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})

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
        if views.wants_json(request):
            return JSONResponse({"error": str(detail), "status": status}, status_code=status)
        return HTMLResponse(views.error_page(status, str(detail), back=_back(request)), status_code=status)

    async def server_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, OSError | sqlite3.Error | StoreError | HistoryError):
            status, message = storage_refusal(exc)
            return HTMLResponse(views.error_page(status, message, back=_back(request)), status_code=status)
        return HTMLResponse(
            views.error_page(500, "Something went wrong on the server. Every decision taken was saved.", back=_back(request)),
            status_code=500,
        )

    routes = [
        Route("/", home),
        Route("/favicon.ico", favicon),
        Route("/games", new_game, methods=["POST"]),
        Route("/games/{game_id}", game),
        Route("/games/{game_id}/act", act, methods=["POST"]),
        Route("/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/games/{game_id}/ready", ready, methods=["POST"]),
        Route("/games/{game_id}/progress", game_progress),
        Route("/games/{game_id}/delete", delete_page),
        Route("/games/{game_id}/delete", delete, methods=["POST"]),
        Route("/tables", new_table, methods=["POST"]),
        Route("/tables/{table_id}", table_page),
        Route("/tables/{table_id}/step", table_step, methods=["POST"]),
        Route("/watch/{watch_id}", watch),
        Route("/watch/{watch_id}/version", watch_version),
        Route("/static/{name}", static),
        Route("/fonts/{name}", font),
        *scoring.score_routes(papillon, pages, _form, max_photo_form=scoring.PHOTO_BODY_BYTES),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.router.redirect_slashes = False  # its redirect would echo the request's Host
    app.state.papillon = papillon
    larger = {scoring.PHOTO_PATH: scoring.PHOTO_BODY_BYTES}
    # Outside in: security headers on every answer, then who is asking, then the body limit (a stranger gets a 403, not a 413).
    return Headers(Gate(BodyLimit(app, MAX_BODY_BYTES, larger), papillon))


def _back(request: Request) -> str:
    """Where an error page's link goes: the page the form was on (same site only), else home."""
    referer = request.headers.get("referer", "")
    try:
        parts = urlsplit(referer)
    except ValueError:
        return "/"
    if parts.netloc != request.headers.get("host") or not parts.path.startswith("/"):
        return "/"
    return parts.path + (f"?{parts.query}" if parts.query else "")


def storage_refusal(error: BaseException) -> tuple[int, str]:
    """The status and words for a data folder that cannot be written, without the server's paths."""
    full = (isinstance(error, OSError) and error.errno == errno.ENOSPC) or "full" in str(error)
    if full:
        return 507, "The server's data folder is full: free some space on its disk, then try again. Nothing was lost before this."
    return 503, "The server cannot write to its data folder (it is read-only or not the server's): fix that, then try again."


STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"}


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]))
    env.filters["svg"] = lambda markup: Markup(markup)  # our own renderer's markup, escaped where it takes text
    env.globals["name_max"] = MAX_NAME  # a name field holds what papillon.session.check_name accepts
    return env
