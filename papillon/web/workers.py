"""The bots' turns, played off the event loop: a small pool of threads with a bounded queue.

A search bot thinks for seconds; on the event loop that would hold up every other page.  Here each
game's bot turns are one job; the game's lock is held while the game changes, not while a bot of a game
played together thinks (the people decide meanwhile).  The page of a game on one screen shows the
bots' decisions as they come and refreshes until they are done.  When :data:`MAX_WAITING` jobs are
already queued, a new one is refused (the server says it is busy) rather than queued without bound.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from papillon.session import PlaySession, SessionError, record_results

if TYPE_CHECKING:
    from papillon.web.state import Room

T = TypeVar("T")

WORKERS = 2
MAX_WAITING = 16
BUSY = "The server is busy with the bots' turns of other games: try again in a moment."


class Pool:
    def __init__(self, workers: int = WORKERS, waiting: int = MAX_WAITING) -> None:
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="papillon-bots")
        self.limit = workers + waiting
        self.jobs = 0
        self.lock = threading.Lock()
        # The event loop shares the interpreter with the bots' threads: let it have the lock sooner (default 5 ms).
        sys.setswitchinterval(0.001)

    def full(self) -> bool:
        return self.jobs >= self.limit

    def play(self, room: Room) -> None:
        """Start the bots' turns of ``room``'s game (unless they are being played already)."""
        with self.lock:
            if room.playing:
                room.again = True  # the job looks once more before it ends: a decision meanwhile may let a bot play
                return
            room.playing = True
            self.jobs += 1
            room.progress = []
            room.job = self.executor.submit(self._run, room)

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Run other CPU work (a hint's or a review's rollouts) in the pool, counted like a bots' job."""
        with self.lock:
            self.jobs += 1

        def counted() -> T:
            try:
                return work()
            finally:
                with self.lock:
                    self.jobs -= 1

        return self.executor.submit(counted)

    def _run(self, room: Room) -> None:
        try:
            while True:
                room.session.play_bots(room.lock, on_move=room.progress.append)  # the lock is free while a bot thinks
                with self.lock:
                    if not room.again:
                        room.playing = False
                        break
                    room.again = False
            with room.lock:
                if room.session.state.is_over():
                    record_finished(room.session, room.folder)
            room.changed()
        finally:
            with self.lock:
                room.playing = room.again = False
                self.jobs -= 1


def record_finished(session: PlaySession, folder: Path) -> None:
    """A finished game's results into the history as it ends (once per game; the end page only reads them back)."""
    with contextlib.suppress(SessionError):  # the end page says why when it asks again
        record_results(session, folder)
