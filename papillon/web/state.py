"""The state of ``papillon serve``: the games, tables and the store it holds, and the form reader every view uses.

What is held here is a cache of what is on disk (game logs, the server's store): see :class:`Papillon`.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request

from papillon.session import GAME_ID, Move, PlaySession, SessionError, data_dir
from papillon.table import Table
from papillon.web import live, scoring, workers
from papillon.web.store import TableRow, open_store

if TYPE_CHECKING:
    from papillon.coach import Hint

T = TypeVar("T")
BOT_WAIT_SECONDS = 2.0
"""How long an answer waits for the bots' turns before it shows them at work (a page that refreshes)."""
TOGETHER_WAIT_SECONDS = 0.3
"""How long a page of a game played together waits for its bots: a quick bot's moves show on it, a
slow one's come live (its people decide meanwhile)."""
MAX_BODY_BYTES = 64 * 1024
"""The largest request body (an edition file is a few kilobytes)."""
MAX_GAMES_IN_MEMORY = 200
MAX_TABLES = 50
CSRF_COOKIE = "papillon_csrf"


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
    playing: bool = False
    again: bool = False
    """Whether that job is playing, and whether a decision came meanwhile (the pool's lock guards both).
    ``job.done()`` cannot stand in for them: it turns true only after the job's last look at the game, so a
    decision taken in between would find a job still "running" and wait for a next request to play on."""
    progress: list[Move] = field(default_factory=list)
    """The bots' decisions of the turns being played, as they come."""
    joined: frozenset[int] = frozenset()
    """The seats whose join link has been opened: played from their own device (the store keeps them)."""
    changed: Callable[[], None] = lambda: None
    """Tells the game's live pages that it changed (after the bots' turns too)."""
    hints: dict[int, tuple[object, Hint]] = field(default_factory=dict)
    """The last hint each seat asked for, with the seat's moment it was for (shown while the seat is there)."""

    def hint(self, seat: int | None) -> Hint | None:
        """The hint seat ``seat`` asked for at this very moment of its game, or None."""
        asked = None if seat is None else self.hints.get(seat)
        return asked[1] if asked is not None and seat is not None and asked[0] == self.session.seat_moment(seat) else None

    def host_seat(self) -> int | None:
        """The person seat the host's screen plays now: the lowest acting one not played on its own device
        (before anyone joined, the seat that decides, as a hot-seat game always did); None when there is none."""
        session = self.session
        if not self.joined:
            player = session.state.player
            return player if session.is_person(player) else None
        hot = [p for p in session.acting_people() if p not in self.joined]
        return hot[0] if hot else None

    def played_together(self) -> bool:
        """Whether a seat plays on its own device: then the people decide while the bots think."""
        return bool(self.joined)

    def bot_wait(self) -> float:
        return TOGETHER_WAIT_SECONDS if self.played_together() else BOT_WAIT_SECONDS

    def idle(self) -> bool:
        return self.job is None or self.job.done()

    async def settle(self, seconds: float) -> bool:
        """Wait (without holding up other requests) up to ``seconds`` for the bots; whether they are done."""
        job = self.job
        if job is None or job.done():
            return True
        await asyncio.wait([asyncio.wrap_future(job)], timeout=seconds)
        return job.done()


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
        self.changes = live.Changes()
        """What live pages follow: every change of a game, a table, a night or a sheet is published here."""
        self.score_night = scoring.ScoreNight(self.store, self.changes.publish)

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
        joined = await run_in_threadpool(self.store.joined, game_id)
        with self.lock:
            room = self.rooms.get(game_id)
            if room is None:
                room = self.rooms[game_id] = self._new_room(session, joined)
                self._evict(self.rooms, MAX_GAMES_IN_MEMORY)
        if room.session.bots_to_play() and room.idle():
            self.bots.play(room)
        return room

    def add_room(self, session: PlaySession) -> Room:
        with self.lock:
            room = self.rooms[session.id] = self._new_room(session, frozenset())
            self._evict(self.rooms, MAX_GAMES_IN_MEMORY)
        if session.bots_to_play():
            self.bots.play(room)
        return room

    def _new_room(self, session: PlaySession, joined: frozenset[int]) -> Room:
        session.simultaneous = bool(joined)  # played together once a seat joined from its own device
        game_id = session.id
        return Room(session, self.folder, joined=joined, changed=lambda: self.changed(game_id))

    def changed(self, game_id: str) -> None:
        """Tell the game's live pages it changed."""
        self.changes.publish(f"game:{game_id}")

    def join(self, room: Room, seat: int) -> None:
        """Seat ``seat`` is played from its own device from now on (kept in the store): the game is played
        together, so the bots play their seats' rounds as soon as they may (run under the room's lock)."""
        self.store.join(room.session.id, seat)
        room.joined = room.joined | {seat}
        room.session.simultaneous = True

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


async def read_form(request: Request) -> FormData:
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


def text_field(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name, default)
    return value.strip() if isinstance(value, str) else default


def in_thread(room: Room, work: Callable[[], T]) -> Awaitable[T]:
    """Run ``work`` on the room's session under its lock, off the event loop (a save waits for the disk)."""

    def locked() -> T:
        with room.lock:
            return work()

    return run_in_threadpool(locked)
