"""The table pages: a dealer for a group playing on paper, and its read-only watch page."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from papillon.session import SessionError, parse_seed
from papillon.table import Table
from papillon.web import views
from papillon.web.state import Papillon, read_form, text_field
from papillon.web.store import KeyRow


class TableViews:
    """The table and watch pages of one app."""

    def __init__(self, papillon: Papillon, pages: views.Pages) -> None:
        self.papillon = papillon
        self.pages = pages

    def routes(self) -> list[Route]:
        return [
            Route("/tables", self.new_table, methods=["POST"]),
            Route("/tables/{table_id}", self.table_page),
            Route("/tables/{table_id}/step", self.table_step, methods=["POST"]),
            Route("/watch/{watch_id}", self.watch),
            Route("/watch/{watch_id}/version", self.watch_version),
        ]

    async def new_table(self, request: Request) -> Response:
        form = await read_form(request)
        try:
            table = Table.new(seed=parse_seed(text_field(form, "seed")))  # the library's seed rule, as for a game
        except SessionError as error:
            raise HTTPException(400, str(error)) from None
        self.papillon.save_table(table)
        self.papillon.store.add_key(KeyRow(table.watch_id, "watch", table.id))
        self.papillon.keep_table(table)
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def table_page(self, request: Request) -> Response:
        table = self.papillon.table(request.path_params["table_id"])
        watch_url = f"{self.papillon.base_url}/watch/{table.watch_id}"  # the watch key opens this page and nothing else
        values = views.table_view(table, watch_url=watch_url, loopback=self.papillon.loopback)
        live_version = self.papillon.changes.version(f"table:{table.id}")  # read before the page: a change after it is news
        return self.pages.render(request, "table.html", **values, live_version=live_version, data=views.table_data(table))

    async def table_step(self, request: Request) -> Response:
        table = self.papillon.table(request.path_params["table_id"])
        form = await read_form(request)
        with self.papillon.lock:
            if text_field(form, "do") == "undo":
                table.undo()
            else:
                table.reveal()
            self.papillon.save_table(table)  # on disk before the answer
        self.papillon.changes.publish(f"table:{table.id}")
        return RedirectResponse(f"/tables/{table.id}", status_code=303)

    async def watch(self, request: Request) -> Response:
        table = self.papillon.watched_table(request.path_params["watch_id"])
        values = views.table_view(table, watch_url="", loopback=self.papillon.loopback)
        live_version = self.papillon.changes.version(f"table:{table.id}")
        return self.pages.render(request, "watch.html", **values, live_version=live_version, data=views.table_data(table) | {"id": None})

    async def watch_version(self, request: Request) -> Response:
        table = self.papillon.watched_table(request.path_params["watch_id"])
        return JSONResponse({"version": table.version}, headers={"cache-control": "no-store"})
