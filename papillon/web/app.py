"""The ASGI app of ``papillon serve``: server-rendered pages over :mod:`papillon.session` and :mod:`papillon.table`.

Security (Jupyter's model): the server binds to loopback unless told otherwise;
with a ``token`` every request must carry it (``?token=`` once, then a cookie);
state changes only by POST with a CSRF token (double submit: cookie and form
field) and a same-origin check; request bodies are capped; a game is named by
an id checked against :data:`papillon.session.GAME_ID` and never by a path;
every error is one friendly page.
"""

from __future__ import annotations

import errno
import re
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from papillon.history import HistoryError
from papillon.notation import MAX_NAME
from papillon.render.fonts import FONT_FILES, font_dir
from papillon.web import keys, live, scoring, views
from papillon.web.coaching import CoachViews
from papillon.web.games import GameViews
from papillon.web.state import CSRF_COOKIE, MAX_BODY_BYTES, Papillon, read_form
from papillon.web.store import StoreError
from papillon.web.tables import TableViews

TOKEN_COOKIE = keys.HOST_COOKIE
HERE = Path(__file__).parent
__all__ = ["CSRF_COOKIE", "MAX_BODY_BYTES", "TOKEN_COOKIE", "App", "create_app"]


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
            # home is refused to a night or seat key too: the way back is to its own page
            back = {"night": f"/nights/{access.target}", "seat": f"/games/{access.target}"}.get(access.purpose, "/")
            await HTMLResponse(views.error_page(403, refusal, back=back), status_code=403)(scope, receive, send)
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


def create_app(*, folder: str | Path | None = None, token: str | None = None, base_url: str = "", loopback: bool = True) -> App:
    """The app; ``folder`` is the data folder (default: the user's), ``token`` the host key of a network server."""
    papillon = Papillon(folder=folder, token=token, base_url=base_url, loopback=loopback)
    pages = views.Pages(_templates(), papillon_token=token)

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

    score_views = scoring.ScoreViews(papillon, pages, read_form, max_photo_form=scoring.PHOTO_BODY_BYTES)
    routes = [
        *GameViews(papillon, pages).routes(),
        *CoachViews(papillon, pages).routes(),
        *TableViews(papillon, pages).routes(),
        Route("/favicon.ico", favicon),
        Route("/static/{name}", static),
        Route("/fonts/{name}", font),
        *score_views.routes(),
        *live.routes(papillon, game=papillon.room, night=papillon.score_night.night, sheet=score_views.own_sheet),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.router.redirect_slashes = False  # its redirect would echo the request's Host
    app.state.papillon = papillon
    larger = {scoring.PHOTO_PATH: scoring.PHOTO_BODY_BYTES}
    # Outside in: security headers on every answer, then who is asking, then the body limit (a stranger gets a 403, not a 413).
    return App(Headers(Gate(BodyLimit(app, MAX_BODY_BYTES, larger), papillon)), papillon)


class App:
    """The app as a server runs it: its layers, and its state (a server ends the live streams before it stops, :func:`live.server`)."""

    def __init__(self, layers: ASGIApp, papillon: Papillon) -> None:
        self.layers = layers
        self.papillon = papillon

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.layers(scope, receive, send)

    def server(self, **config: Any) -> Any:
        """A uvicorn server of this app (``config`` is :class:`uvicorn.Config`'s) that stops promptly with pages following it."""
        return live.server(self, self.papillon.changes, **config)


def _back(request: Request) -> str:
    """Where an error page's link goes: the page the form was on (same site only), else home."""
    referer = request.headers.get("referer", "")
    try:
        parts = urlsplit(referer)
    except ValueError:
        return "/"
    if parts.netloc != request.headers.get("host") or not parts.path.startswith("/") or parts.path.startswith(("//", "/\\")):
        return "/"  # "//host/..." (and "/\\host", which browsers read alike) would be a link to another site
    return parts.path + (f"?{parts.query}" if parts.query else "")


def storage_refusal(error: BaseException) -> tuple[int, str]:
    """The status and words for a data folder that cannot be written, without the server's paths."""
    full = (isinstance(error, OSError) and error.errno == errno.ENOSPC) or "full" in str(error)
    if full:
        return 507, "The server's data folder is full: free some space on its disk, then try again. Nothing was lost before this."
    return 503, "The server cannot write to its data folder (it is read-only or not the server's): fix that, then try again."


STATIC_FILES = {"app.js": "text/javascript", "live.js": "text/javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"}


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(["html"]))
    env.filters["svg"] = lambda markup: Markup(markup)  # our own renderer's markup, escaped where it takes text
    env.globals["name_max"] = MAX_NAME  # a name field holds what papillon.session.check_name accepts
    return env
