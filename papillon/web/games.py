"""The game pages: home, a new game, play, undo, hand-over, the bots' progress, deleting a saved game."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from papillon.edition import standard_edition
from papillon.engine.bots import BOTS
from papillon.engine.levels import bot_label
from papillon.errors import IllegalActionError, PapillonError
from papillon.notation import MAX_NAME
from papillon.session import PlaySession, Seat, SessionError, delete_game, list_games, name_seats, parse_seed, record_results
from papillon.web import keys, together, views, workers
from papillon.web.state import BOT_WAIT_SECONDS, Papillon, Room, in_thread, read_form, text_field

SEATS = standard_edition().play.max_players
"""The new-game form's seats: as many as a game of the standard edition has players (a custom edition's check comes after)."""


class GameViews:
    """The game pages of one app (Datasette's model: a view module, its handlers as methods over the app's state)."""

    def __init__(self, papillon: Papillon, pages: views.Pages) -> None:
        self.papillon = papillon
        self.pages = pages

    def routes(self) -> list[Route]:
        return [
            Route("/", self.home),
            Route("/games", self.new_game, methods=["POST"]),
            Route("/games/{game_id}", self.game),
            Route("/games/{game_id}/act", self.act, methods=["POST"]),
            Route("/games/{game_id}/undo", self.undo, methods=["POST"]),
            Route("/games/{game_id}/ready", self.ready, methods=["POST"]),
            Route("/games/{game_id}/progress", self.game_progress),
            Route("/games/{game_id}/delete", self.delete_page),
            Route("/games/{game_id}/delete", self.delete, methods=["POST"]),
        ]

    def home_page(self, request: Request, *, error: str = "", values: dict[str, str] | None = None, status: int = 200) -> Response:
        page = self.pages.render(
            request,
            "home.html",
            games=list_games(self.papillon.folder)[:30],
            bots=[(name, bot_label(name)) for name in BOTS],
            seats=SEATS,
            error=error,
            values=values or {},
        )
        page.status_code = status
        return page

    async def home(self, request: Request) -> Response:
        return self.home_page(request)

    async def new_game(self, request: Request) -> Response:
        form = await read_form(request)
        seat_numbers = range(1, SEATS + 1)
        fields = ["seed", *(f"{kind}{i}" for i in seat_numbers for kind in ("seat", "name"))]
        values = {name: text_field(form, name)[:MAX_NAME] for name in fields if text_field(form, name)}
        try:
            seed = parse_seed(text_field(form, "seed"))
        except SessionError as error:
            return self.home_page(request, error=str(error), values=values, status=400)  # the form comes back as it was
        seats = []
        for i in seat_numbers:
            kind = text_field(form, f"seat{i}", "none")
            if kind == "none":
                continue
            if kind != "human" and kind not in BOTS:
                raise HTTPException(400, f"Unknown kind of seat {kind[:20]!r}.")
            seats.append(Seat(text_field(form, f"name{i}"), None if kind == "human" else kind))
        upload = form.get("edition")
        edition_text = None
        if isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read()
            try:
                edition_text = data.decode("utf-8")
            except UnicodeDecodeError:
                return self.home_page(request, error="The edition file is not UTF-8 text.", values=values, status=400)
        if self.papillon.bots.full():
            raise HTTPException(503, workers.BUSY)
        try:
            session = await run_in_threadpool(
                lambda: PlaySession.new(
                    seed=seed, seats=name_seats(seats), folder=self.papillon.folder, edition_text=edition_text, play_bots=False
                )
            )
        except PapillonError as error:
            return self.home_page(request, error=str(error), values=values, status=400)
        await run_in_threadpool(together.seat_keys, self.papillon.store, session)  # each person seat's join link
        room = self.papillon.add_room(session)
        await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def game(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        seat = access_of(request).seat
        if seat is not None and seat not in room.joined:
            await self.join(room, seat)
        if not await room.settle(room.bot_wait()) and not room.played_together():
            return self.pages.render(
                request,
                "thinking.html",
                session=room.session,
                progress=room.progress[-12:],
                done=len(room.progress),
                data=views.game_data(room.session, busy=True),
            )

        live_version = self.papillon.changes.version(f"game:{room.session.id}")  # read before the page: a change after it is news

        def render() -> Response:
            session = room.session
            state = session.state
            if state.is_over():
                try:
                    results = record_results(session, self.papillon.folder)
                except SessionError:
                    results = []
                return self.pages.render(request, "end.html", **views.end_view(session, results), data=views.game_data(session))
            look = request.query_params.get("look", "")
            if seat is not None:  # a seat's own device
                values = {**views.play_view(session, look, seat), **self.seat_page(room, seat), "hint": room.hint(seat)}
                data = views.game_data(session, player=seat)
                return self.pages.render(request, "play.html", **values, live_version=live_version, data=data)
            playing = room.host_seat()
            hot = [i for i in range(len(session.agents)) if session.is_person(i) and i not in room.joined]
            if playing is not None and len(hot) > 1 and room.shown_to != playing:
                name, host = state.game.players[playing], self.host_page(room, playing)
                values = {"session": session, "player": name, "joins": host["joins"], "loopback": host["loopback"]}
                return self.pages.render(request, "handover.html", **values, data=views.game_data(session))
            values = {**views.play_view(session, look, -1 if playing is None else playing), **self.host_page(room, playing)}
            values["hint"] = room.hint(playing)
            page = self.pages.render(request, "play.html", **values, live_version=live_version, data=views.game_data(session))
            session.note = ""  # told once
            return page

        return await in_thread(room, render)

    def seat_page(self, room: Room, seat: int) -> dict[str, Any]:
        """What a seat's own device shows besides its play view: who is still choosing, the others' gardens."""
        session = room.session
        return {
            "on_phone": True,
            "waiting": together.still_choosing(session, but=seat),
            "others_gardens": together.others_gardens(session, seat),
            "can_undo": session.can_undo_seat(seat),
            "moves": [],
        }

    def host_page(self, room: Room, playing: int | None) -> dict[str, Any]:
        """What the host's screen shows besides the play view of the seat it plays: the join links and,
        once a seat plays on its own device, the table's cards, dice, who is done and the scores."""
        session = room.session
        links = together.join_links(session, together.seat_keys(self.papillon.store, session), room.joined, self.papillon.base_url)
        values: dict[str, Any] = {"joins": links, "loopback": self.papillon.loopback, "host_seat": playing}
        if room.joined:
            values |= together.table_screen(session, room.joined)
            values["can_undo"] = playing is not None and session.can_undo_seat(playing)
            values["waiting"] = together.still_choosing(session, but=playing)
        return values

    async def join(self, room: Room, seat: int) -> None:
        """A seat's join link opened: its device plays it from now on, and the bots play their round at once."""
        await in_thread(room, lambda: self.papillon.join(room, seat))
        if room.session.bots_to_play():
            self.papillon.bots.play(room)
        room.changed()

    async def act(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        form = await read_form(request)
        action = text_field(form, "action")[:40]
        seat = deciding_seat(request, room, text_field(form, "seat"))
        # A click from a page shown before the bots' turns is never taken as if it were; a game played
        # together takes its people's clicks while the bots think (a bot's seat never changes theirs).
        if not room.played_together() and not await room.settle(BOT_WAIT_SECONDS):
            raise HTTPException(409, "The bots are still playing: your choice was not taken. Their turns show on the game's page.")
        if self.papillon.bots.full():
            raise HTTPException(503, workers.BUSY)

        def decide() -> tuple[int, str]:
            session = room.session
            if session.state.is_over():
                return 0, ""
            player = seat if seat is not None else room.host_seat()
            if player is not None and room.joined and player not in session.acting_people():
                return 409, "Your turn this round is done: the next round comes when every seat has finished."
            try:
                session.decide(action, player)  # on disk before the answer
            except (IllegalActionError, SessionError) as problem:
                return 400, str(problem)
            if session.state.is_over():
                workers.record_finished(session, self.papillon.folder)
            return 0, ""

        status, error = await in_thread(room, decide)
        if error:
            raise HTTPException(status, error)
        room.changed()
        if room.session.bots_to_play():
            self.papillon.bots.play(room)
            await room.settle(room.bot_wait())
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def undo(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        form = await read_form(request)
        seat = deciding_seat(request, room, text_field(form, "seat"))
        if not room.played_together() and not await room.settle(BOT_WAIT_SECONDS):
            return RedirectResponse(f"/games/{room.session.id}", status_code=303)

        def undo() -> bool:
            session = room.session
            if not room.joined:
                return session.undo()  # a game on one screen: back to the start of this person's turn, as always
            player = seat if seat is not None else room.host_seat()
            return player is not None and session.undo_seat(player)

        if await in_thread(room, undo):
            room.changed()
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def ready(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        await read_form(request)
        room.shown_to = -1 if (playing := room.host_seat()) is None else playing
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def delete_page(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        info = next((g for g in list_games(self.papillon.folder) if g.id == game_id), None)
        if info is None:
            raise HTTPException(404, "There is no such game.")
        return self.pages.render(request, "delete.html", game=info)

    async def delete(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        form = await read_form(request)
        if text_field(form, "confirm") != "yes":
            return RedirectResponse(f"/games/{game_id}/delete", status_code=303)
        with self.papillon.lock:
            room = self.papillon.rooms.get(game_id)
            if room is not None and not room.idle():
                raise HTTPException(409, "The bots are still playing this game: wait for them, then delete it.")
            self.papillon.rooms.pop(game_id, None)
        try:
            delete_game(game_id, self.papillon.folder)
        except SessionError:
            raise HTTPException(404, "There is no such game.") from None
        return RedirectResponse("/", status_code=303)

    async def game_progress(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        return JSONResponse({"busy": not room.idle(), "moves": len(room.progress)}, headers={"cache-control": "no-store"})


def access_of(request: Request) -> keys.Access:
    access = request.scope.get("state", {}).get("access", keys.HOST)
    assert isinstance(access, keys.Access)
    return access


def deciding_seat(request: Request, room: Room, posted: str) -> int | None:
    """The seat a decision or an undo is for: a seat key's own (a form naming another is refused), else the
    seat the host's page played (its form says which; one played on its own device is refused), else None."""
    state = room.session.state
    own = access_of(request).seat
    asked = int(posted) if posted.isdigit() and int(posted) < len(state.game.players) else None
    if own is not None:
        if posted and asked != own:
            raise HTTPException(403, f"This link plays {state.game.players[own]}'s seat only: it cannot decide for another seat.")
        return own
    if asked is not None and asked in room.joined:
        raise HTTPException(409, f"{state.game.players[asked]} plays on their own device: this choice was not taken here.")
    return asked
