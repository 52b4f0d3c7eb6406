"""The game pages: home, a new game, play, undo, hand-over, the bots' progress, deleting a saved game."""

from __future__ import annotations

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
from papillon.web import views, workers
from papillon.web.state import BOT_WAIT_SECONDS, Papillon, in_thread, read_form, text_field

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
        room = self.papillon.add_room(session)
        await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{session.id}", status_code=303)

    async def game(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        if not await room.settle(BOT_WAIT_SECONDS):
            return self.pages.render(
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
                    results = record_results(session, self.papillon.folder)
                except SessionError:
                    results = []
                return self.pages.render(request, "end.html", **views.end_view(session, results), data=views.game_data(session))
            people = [i for i in range(len(session.agents)) if session.is_person(i)]
            if len(people) > 1 and room.shown_to != state.player:
                return self.pages.render(
                    request, "handover.html", session=session, player=state.game.players[state.player], data=views.game_data(session)
                )
            look = request.query_params.get("look", "")
            page = self.pages.render(request, "play.html", **views.play_view(session, look), data=views.game_data(session))
            session.note = ""  # told once
            return page

        return await in_thread(room, render)

    async def act(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        form = await read_form(request)
        action = text_field(form, "action")[:40]
        if not await room.settle(BOT_WAIT_SECONDS):  # a click from a page shown before: never taken as if it were
            raise HTTPException(409, "The bots are still playing: your choice was not taken. Their turns show on the game's page.")
        if self.papillon.bots.full():
            raise HTTPException(503, workers.BUSY)

        def decide() -> str:
            if room.session.state.is_over():
                return ""
            try:
                room.session.decide(action)  # on disk before the answer
            except (IllegalActionError, SessionError) as problem:
                return str(problem)
            if room.session.state.is_over():
                workers.record_finished(room.session, self.papillon.folder)
            return ""

        error = await in_thread(room, decide)
        if error:
            raise HTTPException(400, error)
        if room.session.bots_to_play():
            self.papillon.bots.play(room)
            await room.settle(BOT_WAIT_SECONDS)
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def undo(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        await read_form(request)
        if await room.settle(BOT_WAIT_SECONDS):
            await in_thread(room, room.session.undo)
        return RedirectResponse(f"/games/{room.session.id}", status_code=303)

    async def ready(self, request: Request) -> Response:
        room = await self.papillon.room(request.path_params["game_id"])
        await read_form(request)
        room.shown_to = room.session.state.player
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
