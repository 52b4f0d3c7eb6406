"""Score night pages: a sheet from a photo or tapped in, game nights, and the history (thin handlers over the library).

The logic and the wording are in :mod:`papillon.scoresheet` (entering a sheet, photos,
nights) and :mod:`papillon.history` (the SQLite history); these handlers parse the
form, call them, and render.  Sheets being entered and nights live in memory, named by
random ids checked against :data:`ID`; nothing is named by a path from the client.
"""

from __future__ import annotations

import base64
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from papillon.datafolder import HISTORY_FILE, history_path, photos_dir
from papillon.engine.actions import verb_and_subject
from papillon.errors import PapillonError, ScanError, SessionError
from papillon.files import write_atomic
from papillon.grid import EDGES, PLOTS, Plot, parse_plot, plot_name
from papillon.history import History, HistoryError, open_history, scored_entry
from papillon.names import check_name
from papillon.notation import MAX_NAME
from papillon.render.svg import cell_words, garden_svg, qr_svg
from papillon.score import CATEGORIES, CATEGORY_TITLES
from papillon.scoresheet import (
    MAX_PHOTO_BYTES,
    PHOTO_HINT,
    Doubt,
    EntryError,
    Night,
    SheetEntry,
    check_photo,
    plot_choices,
    results_png,
)
from papillon.web import photos, views
from papillon.web.keys import Access, new_key
from papillon.web.live import Changes
from papillon.web.store import KeyRow, NightSheetRow, SheetRow, Store


class ScoreServer(Protocol):
    """What the score-night pages need of the app (:class:`papillon.web.app.Papillon`), without importing it."""

    folder: Path
    base_url: str
    loopback: bool
    score_night: ScoreNight
    changes: Changes


ID = re.compile(r"^[0-9a-f]{12}$")
MAX_ENTRIES = 300
MAX_NIGHTS = 50
EDGE_REACH = 0.4
"""On the tap-in sheet every plot and edge is a target: an edge's area reaches 40% of the way to the plots' centres."""
PHOTO_PATH = "/score/photo"
PHOTO_BODY_BYTES = MAX_PHOTO_BYTES + 64 * 1024
"""The photo form's body limit: the photo and a few small fields."""


@dataclass
class Sheet:
    """A sheet being entered on this server: the entry, its lock, and where it goes (a night's player)."""

    id: str
    entry: SheetEntry
    night: str = ""
    player: str = ""
    read_png: str = ""
    """The rectified photo with every reading drawn on it, as a data: URL (photos only)."""
    recorded: int = 0
    """The history entry id once saved (0: not yet)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


class ScoreNight:
    """The score-night state of the app: sheets being entered and nights, kept in the store, cached in memory."""

    def __init__(self, store: Store, publish: Callable[[str], None] = lambda channel: None) -> None:
        self.store = store
        self.publish = publish
        """Says a sheet or a night changed (``sheet:<id>``, ``night:<id>``): the live pages following it update."""
        self.sheets: OrderedDict[str, Sheet] = OrderedDict()
        self.nights: OrderedDict[str, Night] = OrderedDict()
        self.lock = threading.Lock()

    def sheet(self, sheet_id: str) -> Sheet:
        with self.lock:
            found = self.sheets.get(sheet_id) if ID.match(sheet_id) else None
        if found is None:
            row = self.store.sheet(sheet_id) if ID.match(sheet_id) else None
            if row is None:
                raise HTTPException(404, "There is no such sheet.")
            entry = SheetEntry.from_notation(row.notation)
            entry = replace(entry, source=row.source, doubts=tuple(Doubt(item, words) for item, words in row.doubts))
            found = Sheet(row.id, entry, row.night, row.player, row.read_png, row.recorded)
            self._keep(self.sheets, found.id, found, MAX_ENTRIES)
        return found

    def night(self, night_id: str) -> Night:
        with self.lock:
            found = self.nights.get(night_id) if ID.match(night_id) else None
        if found is None:
            stored = self.store.night(night_id) if ID.match(night_id) else None
            if stored is None:
                raise HTTPException(404, "There is no such game night.")
            players, version, rows = stored
            found = Night(night_id, players, version=version)
            for row in rows:
                found.sheets[row.player] = replace(SheetEntry.from_notation(row.notation), source=row.source)
                found.recorded[row.player] = row.history_id
            self._keep(self.nights, night_id, found, MAX_NIGHTS)
        return found

    def _keep(self, cache: OrderedDict[str, Any], key: str, value: object, most: int) -> None:
        with self.lock:
            cache[key] = value
            while len(cache) > most:
                cache.popitem(last=False)  # in the store: it reloads when asked for

    def save_sheet(self, sheet: Sheet) -> None:
        """Put the sheet in the store (before the answer says the edit was made)."""
        entry = sheet.entry
        doubts = [(d.item, d.words) for d in entry.doubts]
        self.store.save_sheet(
            SheetRow(sheet.id, entry.notation(), entry.source, doubts, sheet.night, sheet.player, sheet.read_png, sheet.recorded)
        )
        self.publish(f"sheet:{sheet.id}")

    def add_sheet(self, entry: SheetEntry, *, night: str = "", player: str = "", read_png: str = "") -> Sheet:
        sheet = Sheet(secrets.token_hex(6), entry, night, player, read_png)
        self.save_sheet(sheet)
        self._keep(self.sheets, sheet.id, sheet, MAX_ENTRIES)
        return sheet

    def add_night(self, night: Night) -> None:
        self.store.save_night(night.id, night.players, night.version)
        for player in night.players:
            self.store.add_key(KeyRow(new_key(), "night", night.id, player))
        self._keep(self.nights, night.id, night, MAX_NIGHTS)

    def recent_nights(self, count: int) -> list[Night]:
        return [self.night(night_id) for night_id in self.store.recent_nights(count)]


def _mark_doubts(svg: str, ids: list[str]) -> str:
    """Add the class ``doubt`` to the doubtful items' hit shapes (they are outlined in red, and named so)."""
    for item_id in ids:
        svg = svg.replace(f'id="{item_id}" class="hit', f'id="{item_id}" class="doubt hit', 1)
    return svg


def sheet_view(sheet: Sheet, selected: str, night: Night | None) -> dict[str, Any]:
    entry = sheet.entry
    edition = entry.edition
    card = entry.card()
    plot = _plot(selected)
    editor = garden_svg(
        entry.garden,
        edition=edition,
        actions=entry.actions(),
        label="the garden: tap a plot, an edge or a bubble",
        edge_reach=EDGE_REACH,
    )
    scored = garden_svg(entry.garden, edition=edition, score=card, round=edition.rules.rounds + 1, label="the garden, scored")
    fields = [{"plot": plot_name(p), "words": cell_words(entry.garden, p, edition)} for p in PLOTS if entry.garden.cells[p].is_field]
    return {
        "sheet": sheet,
        "entry": entry,
        "night": night,
        "editor": _mark_doubts(editor, entry.doubt_ids()),
        "scored": scored.replace(' id="', ' id="scored-'),  # one page, two gardens: ids stay unique
        "total": card.total,
        "lines": views.explain(card),
        "selected": plot_name(plot) if plot is not None else "",
        "selected_words": cell_words(entry.garden, plot, edition) if plot is not None else "",
        "choices": plot_choices(edition),
        "doubts": entry.doubts,
        "fields": fields,
        "notation": entry.notation(sheet.player),
        "plots": [plot_name(p) for p in PLOTS],
        # every edge and bubble as a choice of a plain form too: the tap-in sheet works without JavaScript
        "edges": [{"action": f"edge {e.name}", "words": e.name + (", a brick" if e in entry.garden.bricks else "")} for e in EDGES],
        "bubbles": [
            {"action": f"butterfly {plot_name(p)}", "words": plot_name(p) + (", a butterfly" if p in entry.garden.butterflies else "")}
            for p in PLOTS
        ],
    }


def _plot(name: str) -> Plot | None:
    try:
        return parse_plot(name)
    except ValueError:
        return None


def _text(form: FormData, name: str, limit: int = 200) -> str:
    value = form.get(name, "")
    return value.strip()[:limit] if isinstance(value, str) else ""


def _player(form: FormData, *, required: bool = False) -> str:
    """The form's player name by the one name rule (:func:`papillon.names.check_name`); "" if none is given nor required."""
    name = _text(form, "player")
    if not name and not required:
        return ""
    try:
        return check_name(name)
    except SessionError as error:
        raise HTTPException(400, str(error)) from None


def _read_photo(data: bytes) -> tuple[SheetEntry, str]:
    """Run the scanner on the photo, reduced to the size it works at; the entry and the rectified sheet with the readings drawn."""
    try:
        return _scan(data)
    finally:
        photos.give_back_memory()


def _scan(data: bytes) -> tuple[SheetEntry, str]:
    from papillon.scan import ScanReviewError, read_photo

    with photos.DECODING, tempfile.TemporaryDirectory(prefix="papillon-photo-") as folder:  # at most two photos at once
        small = photos.reduced(data)
        try:
            result = read_photo(small, accept_uncertain=True, debug_dir=folder, debug_stem="photo", name="the photo")
        except ScanReviewError as error:  # not raised with accept_uncertain, but its result is as good
            result = error.result
        del small
        png = Path(folder) / "photo-read.png"
        read_png = _small_png_url(png.read_bytes()) if png.is_file() else ""
    return SheetEntry.from_scan(result), read_png


def _small_png_url(data: bytes) -> str:
    """The picture scaled to at most 900 px wide, as a data: URL (the page's CSP allows data: images)."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        image.thumbnail((900, 1400))
        out = io.BytesIO()
        image.convert("RGB").save(out, format="JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()


class ScoreViews:
    """The score-night pages of one app: a sheet from a photo or tapped in, game nights, the history."""

    def __init__(
        self, papillon: ScoreServer, pages: views.Pages, form: Callable[[Request], Awaitable[FormData]], *, max_photo_form: int
    ) -> None:
        self.papillon = papillon
        self.pages = pages
        self.form = form
        """The app's CSRF-checked form reader."""
        self.max_photo_form = max_photo_form
        self.state = papillon.score_night

    def routes(self) -> list[Route]:
        return [
            Route("/score", self.score_home),
            Route(PHOTO_PATH, self.photo, methods=["POST"]),
            Route("/score/new", self.blank, methods=["POST"]),
            Route("/sheets/{sheet_id}", self.sheet_page),
            Route("/sheets/{sheet_id}/act", self.sheet_act, methods=["POST"]),
            Route("/sheets/{sheet_id}/garden", self.sheet_garden),
            Route("/sheets/{sheet_id}/record", self.sheet_record, methods=["POST"]),
            Route("/nights", self.new_night, methods=["POST"]),
            Route("/nights/{night_id}", self.night_page),
            Route("/nights/{night_id}/version", self.night_version),
            Route("/nights/{night_id}/results.png", self.night_png),
            Route("/history", self.history_page),
            Route("/history/plot.png", self.history_plot),
        ]

    def history(self) -> History:
        try:
            return open_history(self.papillon.folder)
        except HistoryError as error:
            raise HTTPException(503, self.without_paths(error)) from None

    def without_paths(self, error: Exception) -> str:
        """An error's words for a page: the history's file named, not where the server keeps it."""
        return str(error).replace(str(history_path(self.papillon.folder)), HISTORY_FILE)

    def access(self, request: Request) -> Access:
        found: Access = request.scope["state"]["access"]
        return found

    def own_sheet(self, request: Request, sheet_id: str) -> Sheet:
        sheet = self.state.sheet(sheet_id)
        if not self.access(request).may_enter(sheet.night, sheet.player):
            raise HTTPException(403, "This link lets a phone fix only its own player's sheet.")
        return sheet

    def where(self, request: Request, posted: FormData) -> tuple[Night | None, str]:
        """The night and player a new sheet is for: the form's, or the night key's own (a phone cannot choose another)."""
        mine = self.access(request)
        if not mine.host:
            return self.state.night(mine.target), mine.player
        night_id = _text(posted, "night", 12)
        return (self.state.night(night_id) if night_id else None), _player(posted)

    async def score_home(self, request: Request) -> Response:
        return self.pages.render(request, "score.html", error="", hint="", nights=self.state.recent_nights(5), values={})

    async def photo(self, request: Request) -> Response:
        posted = await request.form(max_files=1, max_fields=10, max_part_size=self.max_photo_form)
        await self.form(request)  # the CSRF and origin checks (the form is parsed once and cached)
        upload = posted.get("photo")
        night, player = self.where(request, posted)
        if not isinstance(upload, UploadFile):
            raise HTTPException(400, "Choose a photo of the sheet first.")
        data = await upload.read(MAX_PHOTO_BYTES + 1)
        try:
            check_photo(data)
            entry, read_png = await run_in_threadpool(_read_photo, data)
        except (EntryError, ScanError) as error:
            page = self.pages.render(request, "score.html", error=str(error), hint=PHOTO_HINT, nights=[night] if night else [], values={})
            page.status_code = 400
            return page
        sheet = self.state.add_sheet(entry, night=night.id if night else "", player=player, read_png=read_png)
        if _text(posted, "keep") == "yes":  # photos are kept only when asked, named by the server
            folder = photos_dir(self.papillon.folder)
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / f"{sheet.id}.img", data)
        return RedirectResponse(f"/sheets/{sheet.id}", status_code=303)

    async def blank(self, request: Request) -> Response:
        posted = await self.form(request)
        night, player = self.where(request, posted)
        text = _text(posted, "notation", 20_000)
        try:
            entry = SheetEntry.from_notation(text) if text else SheetEntry.blank()
        except PapillonError as error:
            page = self.pages.render(
                request, "score.html", error=str(error), hint="", nights=[night] if night else [], values={"notation": text}
            )
            page.status_code = 400
            return page
        named = dict(entry.garden.meta).get("player", "")
        if not player and named:  # a pasted .garden names its player
            try:
                player = check_name(named)
            except SessionError:
                player = ""
        sheet = self.state.add_sheet(entry, night=night.id if night else "", player=player)
        return RedirectResponse(f"/sheets/{sheet.id}", status_code=303)

    async def sheet_page(self, request: Request) -> Response:
        sheet = self.own_sheet(request, request.path_params["sheet_id"])
        live_version = self.papillon.changes.version(f"sheet:{sheet.id}")  # read before the page: a change after it is news
        night = self.state.night(sheet.night) if sheet.night else None
        values = sheet_view(sheet, request.query_params.get("plot", "")[:2], night)
        replacing = night.sheets.get(sheet.player) if night is not None and sheet.recorded == 0 else None
        return self.pages.render(
            request,
            "sheet.html",
            **values,
            message=request.query_params.get("saved", "")[:10],
            from_doubts=request.query_params.get("from") == "doubts",
            live_version=live_version,
            replacing=replacing.card().total if replacing is not None else None,
            data={"id": sheet.id, "player": sheet.player, "night": sheet.night or None, "recorded": sheet.recorded or None},
        )

    async def sheet_act(self, request: Request) -> Response:
        sheet = self.own_sheet(request, request.path_params["sheet_id"])
        posted = await self.form(request)
        action = _text(posted, "action", 40)
        verb, subject = verb_and_subject(action)
        if verb == "plot":  # a tap on a plot opens its chooser
            try:
                plot = parse_plot(subject)
            except ValueError as error:
                raise HTTPException(400, str(error)) from None
            back = "&from=doubts" if _text(posted, "from") == "doubts" else ""
            return RedirectResponse(f"/sheets/{sheet.id}?plot={plot_name(plot)}{back}#chooser", status_code=303)
        with sheet.lock:
            try:
                sheet.entry = sheet.entry.apply(action)
            except EntryError as error:
                raise HTTPException(400, str(error)) from None
            sheet.recorded = 0
            self.state.save_sheet(sheet)  # in the store before the answer
        # back where the tap was: a doubt checked from the list returns to the list (without JavaScript too)
        where = "doubts" if _text(posted, "from") == "doubts" and sheet.entry.doubts else "sheet"
        return RedirectResponse(f"/sheets/{sheet.id}#{where}", status_code=303)

    async def sheet_garden(self, request: Request) -> Response:
        sheet = self.own_sheet(request, request.path_params["sheet_id"])
        name = re.sub(r"[^A-Za-z0-9_-]", "", sheet.player) or "sheet"
        headers = {"content-disposition": f'attachment; filename="{name}.garden"'}
        return Response(sheet.entry.notation(sheet.player), media_type="text/plain; charset=utf-8", headers=headers)

    async def sheet_record(self, request: Request) -> Response:
        sheet = self.own_sheet(request, request.path_params["sheet_id"])
        posted = await self.form(request)
        player = sheet.player or _player(posted, required=True)
        night = self.state.night(sheet.night) if sheet.night else None
        with sheet.lock:
            entry = sheet.entry
            try:
                entry.check_counts()  # the same words as a night's
            except EntryError as error:
                raise HTTPException(400, str(error)) from None
            if night is not None and player in night.sheets and _text(posted, "replace") != "yes":
                old = night.sheets[player].card().total
                new = entry.card().total
                return self.pages.render(request, "replace.html", sheet=sheet, player=player, old=old, new=new, night=night)
            game = f"night-{night.id}" if night else ""
            record = scored_entry(entry.garden, player=player, source=entry.source, edition=entry.edition, game=game)
            try:
                if night is not None:
                    night.add(player, entry)
                    sheet.recorded = self.history().add(record, replacing=night.replaces(player))
                    night.recorded[player] = sheet.recorded
                    self.state.store.save_night_sheet(
                        night.id, night.version, NightSheetRow(player, entry.notation(), entry.source, sheet.recorded)
                    )
                    self.state.publish(f"night:{night.id}")
                else:
                    sheet.recorded = self.history().add(record)
            except (EntryError, HistoryError) as error:
                raise HTTPException(400, self.without_paths(error)) from None
            self.state.save_sheet(sheet)
        if night is not None:
            return RedirectResponse(f"/nights/{night.id}", status_code=303)
        return RedirectResponse(f"/sheets/{sheet.id}?saved=yes", status_code=303)

    async def new_night(self, request: Request) -> Response:
        posted = await self.form(request)
        text = _text(posted, "players", 1000)
        try:
            night = Night.new(re.split(r"[,\n]", text))
        except EntryError as error:
            page = self.pages.render(request, "score.html", error=str(error), hint="", nights=[], values={"players": text})
            page.status_code = 400
            return page
        self.state.add_night(night)
        return RedirectResponse(f"/nights/{night.id}", status_code=303)

    async def night_page(self, request: Request) -> Response:
        night = self.state.night(request.path_params["night_id"])
        live_version = self.papillon.changes.version(f"night:{night.id}")
        mine = self.access(request)
        joins = []
        if mine.host:
            for row in self.state.store.keys_for("night", night.id):
                url = f"{self.papillon.base_url}/nights/{night.id}?key={row.key}"
                qr = qr_svg(url, label=f"QR code of {row.player}'s link") if not self.papillon.loopback else ""
                joins.append({"player": row.player, "url": url, "qr": qr})
        return self.pages.render(
            request,
            "night.html",
            night=night,
            ranking=night.ranking(),
            joins=joins,
            players=night.players if mine.host else (mine.player,),
            loopback=self.papillon.loopback,
            live_version=live_version,
            data={"id": night.id, "version": night.version},
        )

    async def night_version(self, request: Request) -> Response:
        night = self.state.night(request.path_params["night_id"])
        return JSONResponse({"version": night.version}, headers={"cache-control": "no-store"})

    async def night_png(self, request: Request) -> Response:
        night = self.state.night(request.path_params["night_id"])
        data = await run_in_threadpool(results_png, night)
        headers = {"content-disposition": f'inline; filename="papillon-night-{night.id}.png"', "cache-control": "no-store"}
        return Response(data, media_type="image/png", headers=headers)

    async def history_page(self, request: Request) -> Response:
        store = self.history()
        player = request.query_params.get("player", "")[:MAX_NAME]
        # The statistics are kept by the history itself (summed once, then brought up to date): no pass over every entry.
        everyone = await run_in_threadpool(store.all_stats)
        stats = [everyone[name] for name in sorted(everyone, key=str.casefold)]
        mine = await run_in_threadpool(lambda: store.entries(player, last=50)) if player else []
        return self.pages.render(
            request,
            "history.html",
            stats=stats,
            player=player,
            entries=mine,
            chosen=store.stats(player),
            categories=[(c, CATEGORY_TITLES[c]) for c in CATEGORIES],
        )

    async def history_plot(self, request: Request) -> Response:
        from papillon.web.plots import category_profile_png, score_over_time_png

        player = request.query_params.get("player", "")[:MAX_NAME]
        kind = request.query_params.get("kind", "")
        store = self.history()
        entries = await run_in_threadpool(lambda: store.entries(player)) if player else []
        if not entries:
            raise HTTPException(404, f"No games recorded for {player!r}.")
        if kind == "time":
            data = await run_in_threadpool(score_over_time_png, entries, player)
        elif kind == "profile":
            data = await run_in_threadpool(category_profile_png, store.stats(player))
        else:
            raise HTTPException(404, "There is no such picture.")
        return Response(data, media_type="image/png", headers={"cache-control": "no-store"})
