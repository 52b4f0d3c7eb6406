"""The coach's pages: a hint on the game page, the review of a finished game, today's garden.

The hint's rollouts and the review's run in the worker pool (:mod:`papillon.web.workers`), never on
the event loop.  A finished review is written beside the game's save (``<id>.review.html``,
atomically) and read back from there: it is the same for the same log, so it is worked out once.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from papillon.coach import moment_hint
from papillon.daily import daily_date, daily_seed, share_text, today
from papillon.datafolder import games_dir
from papillon.files import read_text, write_atomic
from papillon.game_review import REVIEW_ROLLOUTS, review
from papillon.session import PlaySession, Seat, SessionError
from papillon.simulation import default_jobs
from papillon.web import views, workers
from papillon.web.games import deciding_seat
from papillon.web.state import BOT_WAIT_SECONDS, Papillon, read_form, text_field

REVIEW_BYTES = 16 * 2**20
"""The most a review page on disk may hold (a garden drawn a dozen times is a few MB of SVG)."""
ROLLOUTS = REVIEW_ROLLOUTS
"""The review's rollouts per choice (a test sets fewer)."""


@dataclass
class ReviewJob:
    done: int = 0
    total: int = 0
    future: Future[None] | None = None
    error: str = ""


@dataclass
class Reviews:
    """The reviews being worked out, by game id (a finished one is on disk)."""

    jobs: dict[str, ReviewJob] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def review_path(folder: Path, game_id: str) -> Path:
    return games_dir(folder) / f"{game_id}.review.html"


def daily_share(session: PlaySession) -> str:
    """The text to share at the end of a day's garden ("" for any other game)."""
    state = session.state
    if not state.is_over() or len(state.boards) != 1:
        return ""
    day = daily_date(session.log.seed)
    return share_text(day, state.score_card(0).categories) if day is not None else ""


class CoachViews:
    def __init__(self, papillon: Papillon, pages: views.Pages) -> None:
        self.papillon = papillon
        self.pages = pages
        self.reviews = Reviews()
        pages.env.globals["daily_share"] = daily_share  # the end page asks it of every game

    def routes(self) -> list[Route]:
        return [
            Route("/games/{game_id}/hint", self.hint, methods=["POST"]),
            Route("/games/{game_id}/review", self.review_page),
            Route("/daily", self.daily, methods=["POST"]),
        ]

    async def hint(self, request: Request) -> Response:
        """The coach's hint for the seat this page plays (a seat key's own, else the host screen's), shown on the
        game page until that seat's state changes; recorded in the log, the game unchanged."""
        room = await self.papillon.room(request.path_params["game_id"])
        form = await read_form(request)
        seat = deciding_seat(request, room, text_field(form, "seat"))
        if not await room.settle(BOT_WAIT_SECONDS):
            raise HTTPException(409, "The bots are still playing: ask for a hint on your turn.")
        session = room.session
        player = seat if seat is not None else room.host_seat()
        if player is None or session.state.is_over() or player not in session.acting_people():
            return RedirectResponse(f"/games/{session.id}", status_code=303)
        if self.papillon.bots.full():
            raise HTTPException(503, workers.BUSY)

        def advise() -> None:
            with room.lock:
                state, moment, events = session.state, session.seat_moment(player), len(session.log.events)
            # coach.hint_for in two steps: thought over with the lock free (the others play on meanwhile),
            # then recorded only if the seat is still where it asked
            advice = moment_hint(state, session.log.seed, events, player)
            with room.lock:
                if session.seat_moment(player) == moment:
                    session.log.hint(player, advice.action)
                    session.save()  # the hint is in the log before the page shows it
                    room.hints[player] = (moment, advice)

        await asyncio.wrap_future(self.papillon.bots.submit(advise))
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def review_page(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        session = room.session
        if not session.state.is_over():
            raise HTTPException(409, "The game is not over yet: its review comes at the end.")
        path = review_path(self.papillon.folder, session.id)
        if path.is_file():
            body = await asyncio.to_thread(read_text, path, limit=REVIEW_BYTES)
            return self.pages.render(request, "review.html", session=session, body=Markup(body), data={"id": session.id, "done": True})
        with self.reviews.lock:
            job = self.reviews.jobs.get(session.id)
            if job is None or (job.future is not None and job.future.done() and not path.is_file()):
                if self.papillon.bots.full():
                    raise HTTPException(503, workers.BUSY)
                job = self.reviews.jobs[session.id] = ReviewJob()
                job.future = self.papillon.bots.submit(lambda: self._work(session, path, job))
        if job.error:
            with self.reviews.lock:
                self.reviews.jobs.pop(session.id, None)  # the next visit tries again
            raise HTTPException(500, job.error)
        return self.pages.render(
            request, "reviewing.html", session=session, done=job.done, total=job.total, data={"id": session.id, "done": False}
        )

    def _work(self, session: PlaySession, path: Path, job: ReviewJob) -> None:
        from papillon.review_html import review_fragment

        def heard(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            # Worker processes: the review's CPU work is off the server's GIL, and on two cores a 3-seat game's
            # review takes half the time (docs/COACH.md).
            result = review(session.log, rollouts=ROLLOUTS, on_progress=heard, jobs=default_jobs(), threaded=True)
            write_atomic(path, review_fragment(result, session.log))
        except (SessionError, ValueError, OSError) as error:
            job.error = f"The review could not be made: {error}"
        except Exception:  # a page that refreshed for ever would hide it: say so once, and start again on the next visit
            job.error = "The review could not be made: something went wrong on the server."
            raise

    async def daily(self, request: Request) -> Response:
        await read_form(request)
        if self.papillon.bots.full():
            raise HTTPException(503, workers.BUSY)
        seed = daily_seed(today())
        session = await asyncio.to_thread(
            lambda: PlaySession.new(seed=seed, seats=[Seat("Player 1")], folder=self.papillon.folder, play_bots=False)
        )
        room = self.papillon.add_room(session)
        await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{session.id}", status_code=303)
