"""Live pages: a version per channel, bumped by :meth:`Changes.publish`, pushed to browsers as Server-Sent Events.

A channel names what a page follows: ``game:<id>``, ``table:<id>``, ``night:<id>``, ``sheet:<id>``.  A
stream sends the channel's version at once and again on every change; ``static/live.js`` then fetches
the page and replaces its changed regions in place.  Only versions travel (never the page itself), so
an event is never stale: a browser that missed some fetches the page once and is up to date.

``publish`` is called from request handlers on the event loop and from worker threads (the bots'
turns), so it takes a lock and wakes the streams with ``loop.call_soon_threadsafe``.  Open streams are
bounded (:data:`MAX_STREAMS`): each holds a connection, and a server must not be exhausted by them.
uvicorn waits for every open response before it stops, so :func:`server` ends the streams first.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, Protocol

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    import uvicorn

MAX_STREAMS = 200
HEARTBEAT_SECONDS = 15.0
"""A comment this often keeps proxies from closing an idle stream and finds a client that has gone."""
RETRY_MS = 3000
"""How long a browser waits before it reconnects a dropped stream (the ``retry:`` field)."""
TOO_MANY = "Too many pages are following this server live: close a few, or reload this page in a while."


class Changes:
    """The versions of every channel and the streams waiting for them."""

    def __init__(self, *, limit: int = MAX_STREAMS, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.limit = limit
        self.heartbeat = heartbeat
        self.lock = threading.Lock()
        self.versions: dict[str, int] = {}
        self.waiting: dict[str, set[asyncio.Event]] = {}
        self.open = 0
        self.closed = False
        self.loop: asyncio.AbstractEventLoop | None = None

    def version(self, channel: str) -> int:
        with self.lock:
            return self.versions.get(channel, 0)

    def publish(self, channel: str) -> None:
        """Say ``channel`` changed (from any thread): its version goes up and its streams wake."""
        with self.lock:
            self.versions[channel] = self.versions.get(channel, 0) + 1
            loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has stopped: no stream is left to wake
                loop.call_soon_threadsafe(self._wake, channel)

    def close(self) -> None:
        """End every stream (the server is stopping); new ones are refused."""
        with self.lock:
            self.closed = True
            loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_all)

    def _wake(self, channel: str) -> None:
        for event in self.waiting.get(channel, ()):
            event.set()

    def _wake_all(self) -> None:
        for events in self.waiting.values():
            for event in events:
                event.set()

    def response(self, channel: str) -> Response:
        """The event stream of ``channel``, or a 503 when the server follows :attr:`limit` streams already."""
        if self.closed:
            raise HTTPException(503, "The server is stopping.")
        if self.open >= self.limit:
            raise HTTPException(503, TOO_MANY)
        return _Stream(self, channel)

    async def events(self, channel: str) -> AsyncIterator[str]:
        """The stream's text: ``retry:`` and the version at once, the version on every change, a comment heartbeat."""
        self.loop = asyncio.get_running_loop()
        event = asyncio.Event()
        self.waiting.setdefault(channel, set()).add(event)
        try:
            sent = self.version(channel)
            yield f"retry: {RETRY_MS}\nid: {sent}\ndata: {sent}\n\n"
            while not self.closed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), self.heartbeat)
                event.clear()
                if self.closed:
                    return
                now = self.version(channel)
                if now != sent:
                    sent = now
                    yield f"id: {sent}\ndata: {sent}\n\n"
                else:
                    yield ": still here\n\n"
        finally:
            events = self.waiting.get(channel)
            if events is not None:
                events.discard(event)
                if not events:
                    del self.waiting[channel]


class _Stream(StreamingResponse):
    """An event stream counted among the open ones from its creation (on the loop, so a burst of requests cannot pass
    the limit before their streams start) to its end, however it ends (a client gone before the first byte too)."""

    def __init__(self, changes: Changes, channel: str) -> None:
        changes.open += 1
        self.changes = changes
        headers = {"cache-control": "no-store", "x-accel-buffering": "no"}
        super().__init__(changes.events(channel), media_type="text/event-stream", headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.changes.open -= 1


class LiveServer(Protocol):
    """What the event routes need of the app (:class:`papillon.web.state.Papillon`), without importing it."""

    changes: Changes

    def table(self, table_id: str) -> Any: ...

    def watched_table(self, watch_id: str) -> Any: ...


def routes(
    papillon: LiveServer, *, game: Callable[[str], Any], night: Callable[[str], Any], sheet: Callable[[Request, str], Any]
) -> list[Route]:
    """The event routes, each opened by the same keys as its page (:mod:`papillon.web.keys`); ``game``, ``night``
    and ``sheet`` find what is followed (a 404 when there is none, a 403 for a key that may not see it)."""
    changes = papillon.changes

    async def game_events(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        await game(game_id)
        return changes.response(f"game:{game_id}")

    async def table_events(request: Request) -> Response:
        table = papillon.table(request.path_params["table_id"])
        return changes.response(f"table:{table.id}")

    async def watch_events(request: Request) -> Response:
        table = papillon.watched_table(request.path_params["watch_id"])
        return changes.response(f"table:{table.id}")

    async def night_events(request: Request) -> Response:
        found = night(request.path_params["night_id"])
        return changes.response(f"night:{found.id}")

    async def sheet_events(request: Request) -> Response:
        found = sheet(request, request.path_params["sheet_id"])
        return changes.response(f"sheet:{found.id}")

    return [
        Route("/games/{game_id}/events", game_events),
        Route("/tables/{table_id}/events", table_events),
        Route("/watch/{watch_id}/events", watch_events),
        Route("/nights/{night_id}/events", night_events),
        Route("/sheets/{sheet_id}/events", sheet_events),
    ]


def server(app: Any, changes: Changes, **config: Any) -> uvicorn.Server:
    """A uvicorn server for ``app`` that ends the live streams when it stops (else it would wait for them: Ctrl-C
    would seem to do nothing while a page is open).  ``config`` is :class:`uvicorn.Config`'s."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            changes.close()
            await super().shutdown(sockets)

    return Server(uvicorn.Config(app, **config))
