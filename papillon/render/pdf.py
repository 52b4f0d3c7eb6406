"""Printable sheets as vector PDF, drawn from :mod:`papillon.layout`.

Pure functions with keyword-only options that return the PDF's bytes:

* :func:`sheets_pdf`: a pad of blank Garden sheets (side A), Fill sheets
  (side B) and score pads, for several players and copies.
* :func:`garden_pdf`: one Garden sheet, blank (``garden=None``) or filled in,
  optionally with the scoring drawn over it.

The static part of each side is drawn once per document as a reusable form
XObject, so a 100-sheet pad costs little more than one sheet.  Bytes are
reproducible (reportlab's ``invariant`` mode) and fonts are the bundled
Quicksand, embedded as subsets.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import shapely
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from papillon import __version__
from papillon.edition import COLOUR_NAMES, Edition, standard_edition
from papillon.garden import Garden
from papillon.geometry import plot_polygon
from papillon.grid import EDGE_INDEX, Plot, plot_name
from papillon.layout import (
    PAPERS_MM,
    Circle,
    FillLayout,
    GardenLayout,
    Placement,
    Rect,
    ScorePadLayout,
    Text,
    colour_letter,
    fill_layout,
    garden_layout,
    grid_to_mm,
    placements,
    score_pad_layout,
    sheet_payload,
)
from papillon.render import icons
from papillon.render.fonts import REGULAR, register_fonts
from papillon.render.pen import COLOUR, MM_PT, MONO, WHITE, Palette, Pen
from papillon.score import CATEGORIES, CATEGORY_TITLES, ScoreCard

SIDES = ("garden", "fill", "score")
"""The kinds of page: Garden sheet (side A), Fill sheet (side B), score pad."""

QR_QUIET_MODULES = 4
_BLACK = Color(0, 0, 0)


@dataclass(frozen=True)
class Sheet:
    """One logical page of a pad: a side and the player it is for."""

    side: str
    player: str | None = None
    players: tuple[str, ...] = ()
    """The names on a score pad."""


# --------------------------------------------------------------------------- the document


class _Document:
    """A reportlab canvas that places frames on pages (1 or 2 per page) and keeps the forms."""

    def __init__(self, *, paper: str, per_page: int, palette: Palette, title: str) -> None:
        if paper not in PAPERS_MM:
            raise ValueError(f"unknown paper {paper!r} (expected {' or '.join(PAPERS_MM)})")
        register_fonts()
        self.buffer = io.BytesIO()
        self.size_mm, self.spots, self.cuts = placements(paper, per_page)
        width, height = self.size_mm
        self.canvas = Canvas(self.buffer, pagesize=(width * MM_PT, height * MM_PT), invariant=1, pageCompression=1, initialFontName=REGULAR)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("papillon")
        self.canvas.setCreator(f"papillon {__version__}")
        self.canvas.setSubject("Papillon Gardens")
        self.palette = palette
        self.slot = 0
        self.forms: set[str] = set()
        self.pages = 0

    @contextmanager
    def frame(self) -> Iterator[Pen]:
        """A pen on the next frame, starting a new page when the current one is full."""
        c = self.canvas
        if self.slot == len(self.spots):
            c.showPage()
            self.slot = 0
        if self.slot == 0:
            self.pages += 1
            self._cut_guides()
        spot: Placement = self.spots[self.slot]
        self.slot += 1
        c.saveState()
        c.translate(spot.x_mm * MM_PT, (self.size_mm[1] - spot.y_mm) * MM_PT)
        c.scale(spot.scale, spot.scale)
        try:
            yield Pen(c, self.palette)
        finally:
            c.restoreState()

    def _cut_guides(self) -> None:
        pen = Pen(self.canvas, self.palette)
        c = self.canvas
        for cut in self.cuts:
            c.saveState()
            c.translate(0, self.size_mm[1] * MM_PT)
            pen.stroke(self.palette.soft_ink, 0.2, dash=(3.0, 2.0))
            pen.segment(cut)
            pen.text_at(cut.x1_mm + 1.5, 6.0, "✂ cut", size_pt=7, colour=self.palette.soft_ink)
            c.restoreState()

    def form(self, pen: Pen, name: str, draw: Callable[[Pen], None]) -> None:
        """Draw ``draw``'s content here, recording it as a form the first time."""
        c = self.canvas
        if name not in self.forms:
            width, height = (210.0 * MM_PT, 279.4 * MM_PT)
            c.beginForm(name, lowerx=0, lowery=-height, upperx=width, uppery=0)
            draw(Pen(c, self.palette))
            c.endForm()
            self.forms.add(name)
        c.doForm(name)

    def finish(self) -> bytes:
        self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue()


def palette_for(mono: bool) -> Palette:
    return MONO if mono else COLOUR


# --------------------------------------------------------------------------- public API


def sheets_pdf(
    *,
    sides: Sequence[str] = ("garden", "fill"),
    players: Sequence[str | None] = (None,),
    copies: int = 1,
    starting_fields: Sequence[Plot] | None = None,
    seed: int | None = None,
    edition: Edition | None = None,
    paper: str = "a4",
    per_page: int = 1,
    mono: bool = False,
) -> bytes:
    """A printable pad: for each copy, each player's sides in order, then a score pad page if asked.

    ``starting_fields`` defaults to the edition's; ``seed`` is only recorded
    in the QR code (the caller draws random fields with it).
    """
    edition = edition or standard_edition()
    unknown = [s for s in sides if s not in SIDES]
    if unknown or not sides:
        raise ValueError(f"unknown side {unknown[0]!r} (expected {', '.join(SIDES)})" if unknown else "no side to print")
    if copies < 1:
        raise ValueError("copies: expected at least 1")
    fields = tuple(edition.rules.starting_fields if starting_fields is None else starting_fields)
    named = tuple(p for p in players if p)
    sequence: list[Sheet] = []
    for _ in range(copies):
        for player in players or (None,):
            sequence.extend(Sheet(side, player) for side in sides if side != "score")
        if "score" in sides:
            sequence.append(Sheet("score", players=named))
    doc = _Document(paper=paper, per_page=per_page, palette=palette_for(mono), title="Papillon Gardens sheets")
    glayout = garden_layout(edition.rules.rounds)
    payload = sheet_payload(layout_id=glayout.id, paper=paper, starting_fields=fields, seed=seed)
    flayout = fill_layout(edition)
    slayout = score_pad_layout(len(CATEGORIES))
    for sheet in sequence:
        with doc.frame() as pen:
            if sheet.side == "garden":
                doc.form(
                    pen,
                    "garden",
                    lambda p: draw_garden_sheet(p, glayout, edition=edition, starting_fields=fields, payload=payload, paper=paper),
                )
                if sheet.player:
                    pen.text_at(glayout.player_line.x1_mm + 2.0, glayout.player_line.y1_mm - 1.2, sheet.player, size_pt=13, bold=True)
            elif sheet.side == "fill":
                doc.form(pen, "fill", lambda p: draw_fill_sheet(p, flayout, edition=edition))
                if sheet.player:
                    pen.text_at(flayout.player_line.x1_mm + 2.0, flayout.player_line.y1_mm - 1.2, sheet.player, size_pt=13, bold=True)
            else:
                doc.form(pen, "score", lambda p: draw_score_pad(p, slayout, edition=edition))
                draw_score_names(pen, slayout, sheet.players)
    return doc.finish()


def garden_pdf(
    garden: Garden | None = None,
    *,
    score: ScoreCard | None = None,
    edition: Edition | None = None,
    paper: str = "a4",
    mono: bool = False,
    starting_fields: Sequence[Plot] | None = None,
) -> bytes:
    """One Garden sheet: blank (``garden=None``: the starting fields as grass) or filled in.

    With ``score`` (the garden's :class:`~papillon.score.ScoreCard`) the
    enclosures are shaded, the patches outlined and the points listed in the
    bottom margin.
    """
    edition = edition or standard_edition()
    layout = garden_layout(edition.rules.rounds)
    fields = tuple(edition.rules.starting_fields if starting_fields is None else starting_fields)
    doc = _Document(paper=paper, per_page=1, palette=palette_for(mono), title="Papillon Gardens garden")
    payload = sheet_payload(layout_id=layout.id, paper=paper, starting_fields=fields)
    with doc.frame() as pen:
        draw_garden_sheet(
            pen,
            layout,
            edition=edition,
            starting_fields=fields if garden is None else (),
            payload=payload,
            paper=paper,
            ruler=score is None,
        )
        if garden is not None:
            if score is not None:
                draw_enclosures(pen, score)
            draw_garden_content(pen, layout, garden, edition=edition)
            if score is not None:
                draw_score(pen, layout, score)
    return doc.finish()


# --------------------------------------------------------------------------- side A: the garden


def draw_markers(pen: Pen, layout: GardenLayout | FillLayout) -> None:
    pen.fill(_BLACK)
    for marker in layout.markers:
        cell = marker.cell_mm
        n = len(marker.bits) + 2
        # Dark where the border is, or where a data cell is 0 (OpenCV: 1 = white).
        rows = [[r in (0, n - 1) or c in (0, n - 1) or marker.bits[r - 1][c - 1] == "0" for c in range(n)] for r in range(n)]
        pen.cells(marker.box.x_mm, marker.box.y_mm, cell, rows)


def _title(pen: Pen, spot: Text, subtitle_spot: Text, subtitle: str) -> None:
    pal = pen.palette
    pen.text(spot, "Papillon Gardens", bold=True, colour=pal.border)
    half = pen.text_width_mm("Papillon Gardens", spot.size_pt, bold=True) / 2
    icons.butterfly(pen, spot.x_mm - half - 7.0, spot.y_mm - 2.8, 3.2)
    icons.butterfly(pen, spot.x_mm + half + 7.0, spot.y_mm - 2.8, 3.2)
    pen.text(subtitle_spot, subtitle, colour=pal.soft_ink)


def qr_matrix(payload: str) -> list[list[bool]]:
    """The QR code of ``payload`` (error correction M) as rows of dark/light modules."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(payload)
    code.make()
    n = code.getModuleCount()
    return [[bool(code.isDark(r, c)) for c in range(n)] for r in range(n)]


def draw_qr(pen: Pen, box: Rect, payload: str) -> None:
    matrix = qr_matrix(payload)
    cell = box.w_mm / len(matrix)
    pen.fill(WHITE)
    quiet = QR_QUIET_MODULES * cell
    pen.rect(Rect(box.x_mm - quiet, box.y_mm - quiet, box.w_mm + 2 * quiet, box.h_mm + 2 * quiet), stroke=False, fill=True)
    pen.fill(_BLACK)
    pen.cells(box.x_mm, box.y_mm, cell, matrix)


def draw_plot(pen: Pen, layout: GardenLayout, plot: Plot, *, field: bool = False) -> None:
    pal = pen.palette
    box = layout.plots[plot]
    if field:
        icons.grass(pen, box, seed=plot)
    else:
        pen.fill(WHITE)
        pen.stroke(pal.plot, 0.35)
        pen.rect(box, radius_mm=2.0, stroke=True, fill=True)
    bubble = layout.bubbles[plot]
    pen.fill(WHITE)
    pen.stroke(pal.bubble, 0.3)
    pen.bubble(bubble, fill=True)
    icons.butterfly(pen, bubble.cx_mm, bubble.cy_mm + 0.25, bubble.r_mm * 0.55, faint=True)


def draw_garden_sheet(
    pen: Pen,
    layout: GardenLayout,
    *,
    edition: Edition,
    starting_fields: Sequence[Plot],
    payload: str,
    paper: str,
    ruler: bool = True,
) -> None:
    """Everything printed on a blank Garden sheet (side A)."""
    pal = pen.palette
    draw_markers(pen, layout)
    bonus = ", ".join(str(r) for r in edition.rules.bonus_rounds)
    _title(pen, layout.title, layout.subtitle, f"Garden sheet · side A · {edition.name} edition")
    # Player and total.
    pen.text(layout.player_label, "Player", bold=True)
    pen.stroke(pal.ink, 0.3)
    pen.segment(layout.player_line)
    pen.text(layout.total_label, "Total", bold=True)
    pen.fill(WHITE)
    pen.stroke(pal.ink, 0.4)
    pen.rect(layout.total_box, radius_mm=1.5, fill=True)
    # The round track: bonus rounds tinted, with a gnome.
    pen.text(layout.round_label, "Round", bold=True)
    for number, space in enumerate(layout.rounds, start=1):
        is_bonus = number in edition.rules.bonus_rounds
        pen.fill(pal.bonus if is_bonus else WHITE)
        pen.stroke(pal.ink, 0.45 if is_bonus else 0.3)
        pen.bubble(space, fill=True)
        pen.label(space.cx_mm, space.cy_mm, str(number), size_pt=11, bold=is_bonus, colour=pal.ink if is_bonus else pal.soft_ink)
        if is_bonus:
            icons.gnome(pen, space.cx_mm + space.r_mm * 0.95, space.cy_mm - space.r_mm * 0.9, 2.2)
    last = layout.rounds[-1]
    pen.text_at(last.cx_mm + last.r_mm + 2.0, last.cy_mm - 0.6, "gnome bonus", size_pt=6.5, colour=pal.soft_ink)
    pen.text_at(last.cx_mm + last.r_mm + 2.0, last.cy_mm + 2.4, f"rounds {bonus}", size_pt=6.5, colour=pal.soft_ink)
    # The garden: paths, plots, edge guides, labels, border.
    garden = layout.garden
    pen.fill(_PATH[pal.name])
    pen.stroke(pal.border, 0.9)
    pen.rect(garden, radius_mm=3.0, stroke=True, fill=True)
    pen.stroke(pal.guide, 0.55, dash=(1.6, 1.1))
    for slot in layout.edge_slots:
        pen.segment(slot)
    pen.stroke(pal.guide, 0.3)
    fields = set(starting_fields)
    for plot in range(len(layout.plots)):
        draw_plot(pen, layout, plot, field=plot in fields)
    for i, spot in enumerate(layout.column_labels):
        pen.text(spot, "ABCDE"[i], bold=True, colour=pal.border)
    for i, spot in enumerate(layout.row_labels):
        pen.text(spot, str(i + 1), bold=True, colour=pal.border)
    # Colour key.
    pen.text(layout.colour_key_label, "Colour key", bold=True)
    spot = layout.colour_key_label
    pen.text_at(spot.x_mm, spot.y_mm + 4.0, "stamp each colour", size_pt=7.5, colour=pal.soft_ink)
    pen.text_at(spot.x_mm, spot.y_mm + 7.2, "once before play", size_pt=7.5, colour=pal.soft_ink)
    for colour, circle, name in zip(COLOUR_NAMES, layout.colour_key, layout.colour_key_names, strict=True):
        pen.fill(WHITE)
        pen.stroke(pal.flowers[colour], 0.9)
        pen.bubble(circle, fill=True)
        pen.text(name, colour_letter(colour), bold=True, size_pt=12)
        pen.text_at(name.x_mm + 4.0, name.y_mm, colour, size_pt=8, colour=pal.soft_ink)
    # Print furniture: QR, layout id, scale ruler, note.
    draw_qr(pen, layout.qr, payload)
    fields_text = f" · fields {' '.join(plot_name(p) for p in starting_fields)}" if starting_fields else ""
    paper_name = paper.upper() if paper == "a4" else paper.title()
    pen.text(layout.id_text, f"layout {layout.id} · {paper_name}{fields_text}", colour=pal.soft_ink)
    if ruler:
        draw_ruler(pen, layout)
    pen.text(layout.footer, "papillon · the open-source companion for Papillon Gardens", colour=pal.soft_ink)


_PATH = {"colour": Color(0.965, 0.949, 0.914), "mono": Color(0.96, 0.96, 0.96)}


def draw_ruler(pen: Pen, layout: GardenLayout) -> None:
    pal = pen.palette
    note = layout.note
    pen.text(note, "Print at 100 % (actual size, not “fit to page”).", bold=True)
    pen.text_at(note.x_mm, note.y_mm + 4.0, "This bar must measure 50 mm:", size_pt=note.size_pt, colour=pal.soft_ink)
    bar = layout.ruler
    pen.stroke(pal.ink, 0.35)
    pen.segment(bar)
    for mm_ in range(0, int(bar.length_mm) + 1):
        tall = 2.6 if mm_ % 10 == 0 else 1.8 if mm_ % 5 == 0 else 1.0
        pen.stroke(pal.ink, 0.2 if mm_ % 5 else 0.3)
        pen.line(bar.x1_mm + mm_, bar.y1_mm, bar.x1_mm + mm_, bar.y1_mm - tall)
        if mm_ % 10 == 0:
            pen.text_at(bar.x1_mm + mm_, bar.y1_mm + 3.0, str(mm_), size_pt=6, align="centre", colour=pal.soft_ink)
    pen.text_at(bar.x2_mm + 2.0, bar.y1_mm + 0.4, "mm", size_pt=7, colour=pal.soft_ink)
    pen.text_at(
        note.x_mm,
        bar.y1_mm + 8.5,
        "Field: shade it green · critter or feature: its code in a field · bramble: X",
        size_pt=7,
        colour=pal.soft_ink,
    )
    pen.text_at(
        note.x_mm, bar.y1_mm + 11.6, "Butterfly: fill the bubble · brick: a firm line over a dashed guide", size_pt=7, colour=pal.soft_ink
    )


def draw_garden_content(pen: Pen, layout: GardenLayout, garden: Garden, *, edition: Edition) -> None:
    """What a player drew: flowers, fields with their critters and features, brambles, bricks, butterflies."""
    pal = pen.palette
    for plot, cell in enumerate(garden.cells):
        box = layout.plots[plot]
        cx, cy = box.centre_mm
        if cell.is_field:
            draw_plot(pen, layout, plot, field=True)
            if cell.occupant:
                icons.occupant(pen, cell.occupant, cx - 1.5, cy + 1.5, 7.0)
                name = edition.occupant_name(cell.occupant)
                pen.text_at(cx, box.bottom_mm - 1.6, name, size_pt=6.5 if len(name) < 12 else 5.5, align="centre", colour=pal.ink)
        elif cell.is_flower and cell.colour is not None and cell.colour in pal.flowers:
            icons.flower(pen, cx - 1.2, cy + 1.6, 8.5, cell.colour)
        elif cell.ground.value == "bramble":
            icons.bramble(pen, box)
    for edge in sorted(garden.bricks):
        icons.brick(pen, layout.edge_slots[EDGE_INDEX[edge]])
    for plot, bubble in enumerate(layout.bubbles):
        if plot not in garden.butterflies:
            # Bubbles stay on top of whatever was drawn in the plot, as on paper.
            pen.fill(WHITE)
            pen.stroke(pal.bubble, 0.3)
            pen.bubble(bubble, fill=True)
            icons.butterfly(pen, bubble.cx_mm, bubble.cy_mm + 0.25, bubble.r_mm * 0.55, faint=True)
            continue
        pen.fill(pal.butterfly)
        pen.stroke(pal.butterfly, 0.3)
        pen.bubble(bubble, fill=True)
        icons.butterfly(pen, bubble.cx_mm, bubble.cy_mm + 0.25, bubble.r_mm * 0.6, colour=WHITE)
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        icons.flower(pen, circle.cx_mm, circle.cy_mm, circle.r_mm * 0.8, colour)
    player = garden.metadata.get("player")
    if player:
        pen.text_at(layout.player_line.x1_mm + 2.0, layout.player_line.y1_mm - 1.2, player, size_pt=13, bold=True)


def _mm_rings(geometry: shapely.Geometry) -> list[list[tuple[float, float]]]:
    """The rings of a (multi)polygon in grid units, mapped to millimetres."""
    rings = []
    for part in shapely.get_parts(geometry):
        for ring in [part.exterior, *part.interiors]:
            rings.append([grid_to_mm(x, y) for x, y in ring.coords])
    return rings


def draw_enclosures(pen: Pen, score: ScoreCard) -> None:
    """Shade each enclosure (a face of the brick drawing) that holds an enclosed patch."""
    pal = pen.palette
    seen = set()
    pen.canvas.saveState()
    pen.canvas.setFillAlpha(0.35)
    for patch in score.patches:
        if patch.enclosure is None or patch.enclosure.polygon.wkt in seen:
            continue
        seen.add(patch.enclosure.polygon.wkt)
        pen.fill(pal.enclosure)
        pen.rings(_mm_rings(patch.enclosure.polygon), stroke=False, fill=True)
    pen.canvas.restoreState()


def draw_score(pen: Pen, layout: GardenLayout, score: ScoreCard) -> None:
    """Outline the patches and list the points per category in the score panel."""
    pal = pen.palette
    for patch in score.patches:
        shape = shapely.unary_union([plot_polygon(p) for p in patch.plots]).buffer(-0.07, join_style="mitre")
        pen.stroke(pal.patch_line, 0.75, dash=None if patch.enclosed else (2.2, 1.2))
        pen.rings(_mm_rings(shape), stroke=True, fill=False)
    panel = layout.score_panel
    pen.fill(WHITE)
    pen.stroke(pal.border, 0.5)
    pen.rect(panel, radius_mm=2.0, fill=True)
    x, y = panel.x_mm + 4.0, panel.y_mm + 6.5
    pen.text_at(x, y, "Score", size_pt=11, bold=True, colour=pal.border)
    pen.text_at(panel.right_mm - 4.0, y, f"Total {score.total}", size_pt=13, bold=True, align="right")
    half = (panel.w_mm - 8.0) / 2
    for i, category in enumerate(CATEGORIES):
        col, row = divmod(i, 4)
        cx, cy = x + col * (half + 4.0), y + 6.0 + row * 4.6
        pen.text_at(cx, cy, CATEGORY_TITLES[category], size_pt=8.5, colour=pal.ink)
        pen.text_at(cx + half - 4.0, cy, str(score.categories[category]), size_pt=8.5, bold=True, align="right")
    key_y = y + 6.0 + 3 * 4.6
    pen.text_at(x + half + 4.0, key_y, "solid: enclosed patch · dashed: open", size_pt=6.5, colour=pal.soft_ink)


# --------------------------------------------------------------------------- side B: the fill sheet

_ICON_WORDS = {
    "stamp": "stamp a flower of the track's colour",
    "stamp_any": "stamp a flower of any colour",
    "caterpillar": "gain 1 caterpillar",
    "gnome": "gnome bonus",
}

_GNOME_WORDS = {
    "stamp_any": "stamp a flower of any colour",
    "move": "move a butterfly",
    "field": "add a field",
    "brick": "add {count} brick edging",
    "critter_fill": "fill one critter space",
    "fill": "fill a space",
    "fill_or_move": "fill a space or move a butterfly",
}


def draw_fill_sheet(pen: Pen, layout: FillLayout, *, edition: Edition) -> None:
    """Everything printed on a Fill sheet (side B), from the edition's data."""
    pal = pen.palette
    draw_markers(pen, layout)
    _title(pen, layout.title, layout.subtitle, f"Fill sheet · side B · {edition.name} edition")
    pen.text(layout.player_label, "Player", bold=True)
    pen.stroke(pal.ink, 0.3)
    pen.segment(layout.player_line)
    # Critter ladders.
    pen.text(layout.critter_heading, "Critters", bold=True, colour=pal.border)
    hint = layout.critter_heading
    pen.text_at(hint.x_mm, hint.y_mm + 4.0, "fill bottom-up; the top gains the critter", size_pt=6.5, colour=pal.soft_ink)
    xs = [ladder.label.x_mm for ladder in layout.ladders]
    room = min((b - a for a, b in itertools.pairwise(xs)), default=30.0) - 1.0
    for ladder in layout.ladders:
        critter = edition.critters[ladder.key]
        _column(pen, ladder.bubbles, ladder.icons, colour=None)
        size = ladder.label.size_pt
        while size > 5 and pen.text_width_mm(critter.name, size, bold=True) > room:
            size -= 0.5
        pen.text(ladder.label, critter.name, bold=True, size_pt=size)
        pen.text(ladder.sublabel, f"{critter.points} VP", colour=pal.soft_ink)
    # Flower tracks.
    pen.text(layout.flower_heading, "Flowers", bold=True, colour=pal.border)
    hint = layout.flower_heading
    pen.text_at(hint.x_mm, hint.y_mm + 4.0, "one track per colour, bottom-up", size_pt=6.5, colour=pal.soft_ink)
    for track in layout.tracks:
        _column(pen, track.bubbles, track.icons, colour=track.key)
        pen.text(track.label, colour_letter(track.key), bold=True, size_pt=12, colour=pal.ink)
        pen.text(track.sublabel, track.key, colour=pal.soft_ink)
        # A tinted rail behind the track, so its colour is seen at a glance.
    # Rondel.
    pen.text(layout.rondel_heading, "Rondel", bold=True, colour=pal.border)
    hint = layout.rondel_heading
    pen.text_at(hint.x_mm, hint.y_mm + 4.0, "when all four tracks are full", size_pt=6.5, align="centre", colour=pal.soft_ink)
    ring = layout.rondel
    pen.fill(_PATH[pal.name])
    pen.stroke(pal.border, 0.6)
    pen.bubble(ring, fill=True)
    for petal, icon in zip(layout.petals, layout.petal_icons, strict=True):
        pen.fill(WHITE)
        pen.stroke(pal.ink, 0.35)
        pen.bubble(petal, fill=True)
        icons.track_icon(pen, icon, petal.cx_mm, petal.cy_mm, petal.r_mm * 0.62)
    pen.text_at(ring.cx_mm, ring.cy_mm + ring.r_mm + 5.0, "fill clockwise ↻", size_pt=7.5, align="centre", colour=pal.soft_ink)
    # Caterpillar track.
    pen.text(layout.caterpillar_heading, "Caterpillar track", bold=True, colour=pal.border)
    head = layout.caterpillar_heading
    pen.text_at(head.x_mm + 38.0, head.y_mm, "one space per caterpillar gained, from 1 on", size_pt=7, colour=pal.soft_ink)
    spaces = layout.caterpillar
    pen.stroke(pal.grass_ink, 1.6)
    for a, b in itertools.pairwise(spaces):
        pen.line(a.cx_mm, a.cy_mm, b.cx_mm, b.cy_mm)
    rows = sorted({space.cy_mm for space in spaces})
    roomy = all(b - a >= 13.0 for a, b in itertools.pairwise(rows))  # room for a number under a gnome
    for number, space in enumerate(spaces, start=1):
        gnome_space = number in layout.gnome_spaces
        pen.fill(pal.bonus if gnome_space else WHITE)
        pen.stroke(pal.ink, 0.45 if gnome_space else 0.3)
        pen.bubble(space, fill=True)
        if gnome_space:
            icons.gnome(pen, space.cx_mm, space.cy_mm, space.r_mm * 0.7)
            if roomy:
                pen.text_at(space.cx_mm, space.cy_mm + space.r_mm + 2.8, str(number), size_pt=6.5, align="centre", colour=pal.soft_ink)
        else:
            pen.label(space.cx_mm, space.cy_mm, str(number), size_pt=7.5, bold=False, colour=pal.soft_ink)
    head_space = spaces[0]
    icons.caterpillar(pen, head_space.cx_mm - head_space.r_mm - 5.0, head_space.cy_mm, 3.0)
    # Gnome bonus options.
    pen.text(layout.gnome_heading, "Gnome bonus: choose one", bold=True, colour=pal.border)
    heading_w = pen.text_width_mm("Gnome bonus: choose one", layout.gnome_heading.size_pt, bold=True)
    icons.gnome(pen, layout.gnome_heading.x_mm + heading_w + 4.0, layout.gnome_heading.y_mm - 1.6, 2.6)
    for spot, option in zip(layout.gnome_lines, edition.gnome, strict=True):
        words = _GNOME_WORDS.get(option.action, option.action).format(count=option.count)
        pen.fill(pal.ink)
        pen.circle(spot.x_mm - 2.5, spot.y_mm - 1.1, 0.6, stroke=False, fill=True)
        pen.text(spot, words)
    # Legend of the icons, one line.
    legend = layout.legend
    items = [("stamp", "stamp that colour"), ("stamp_any", "stamp any colour"), ("caterpillar", "1 caterpillar"), ("gnome", "gnome bonus")]
    widths = [pen.text_width_mm(words, legend.size_pt) + 10.0 for _, words in items]
    x = legend.x_mm - sum(widths) / 2
    for (icon, words), width in zip(items, widths, strict=True):
        icons.track_icon(pen, icon, x + 2.5, legend.y_mm - 1.0, 2.4, colour="red" if icon == "stamp" else None)
        pen.text_at(x + 6.0, legend.y_mm, words, size_pt=legend.size_pt, colour=pal.ink)
        x += width
    pen.text(layout.id_text, f"layout {layout.id}", colour=pal.soft_ink)
    pen.text(layout.footer, "papillon · the open-source companion for Papillon Gardens", colour=pal.soft_ink)


def _column(pen: Pen, bubbles: Sequence[Circle], names: Sequence[str], *, colour: str | None) -> None:
    pal = pen.palette
    first, last = bubbles[0], bubbles[-1]
    pen.stroke(pal.flowers[colour] if colour else pal.guide, 2.2)
    pen.line(first.cx_mm, first.cy_mm, last.cx_mm, last.cy_mm)
    for bubble, icon in zip(bubbles, names, strict=True):
        pen.fill(WHITE)
        pen.stroke(pal.ink, 0.35)
        pen.bubble(bubble, fill=True)
        if icon:
            icons.track_icon(pen, icon, bubble.cx_mm, bubble.cy_mm, bubble.r_mm * 0.68, colour=colour)


# --------------------------------------------------------------------------- the score pad


def _category_hint(category: str, edition: Edition) -> str:
    points = edition.scoring
    return {
        "flowers": f"{points.flower} each",
        "patches": f"+{points.patch} each",
        "enclosed": f"+{points.enclosed} each",
        "butterflies": f"{points.butterfly} each",
        "critters": "/".join(str(c.points) for c in edition.critters.values()),
        "features": "their tiles",
        "unique_features": f"{points.unique_feature} per kind",
    }.get(category, "")


def draw_score_pad(pen: Pen, layout: ScorePadLayout, *, edition: Edition) -> None:
    """A score pad page: one table per game, one row per player, one column per category of RULES.md §3."""
    pal = pen.palette
    pen.text(layout.title, "Papillon Gardens · score pad", bold=True, colour=pal.border)
    titles = [*(CATEGORY_TITLES[c] for c in CATEGORIES), "Total"]
    for number, table in enumerate(layout.tables, start=1):
        pen.text(table.title, f"Game {number}", bold=True)
        pen.text_at(table.title.x_mm + 24.0, table.title.y_mm, "date ____________", size_pt=8.5, colour=pal.soft_ink)
        head = table.header
        pen.fill(_PATH[pal.name])
        pen.stroke(pal.ink, 0.3)
        for i, cell in enumerate(head):
            pen.fill(_PATH[pal.name])
            pen.stroke(pal.ink, 0.3)
            pen.rect(cell, fill=True)
            if i == 0:
                pen.text_at(cell.x_mm + 2.0, cell.bottom_mm - 3.0, "Player", size_pt=9, bold=True)
                continue
            words = titles[i - 1].split()
            for k, word in enumerate(words):
                pen.text_at(cell.centre_mm[0], cell.y_mm + 4.5 + k * 3.6, word, size_pt=8, bold=True, align="centre")
            hint = _category_hint(CATEGORIES[i - 1], edition) if i - 1 < len(CATEGORIES) else "sum"
            pen.text_at(cell.centre_mm[0], cell.bottom_mm - 1.6, hint, size_pt=6, align="centre", colour=pal.soft_ink)
        for row in table.rows:
            for i, cell in enumerate(row):
                pen.fill(_PATH[pal.name] if i == len(row) - 1 else WHITE)
                pen.stroke(pal.ink, 0.45 if i == len(row) - 1 else 0.3)
                pen.rect(cell, fill=True)
    pen.text(layout.id_text, f"layout {layout.id}", colour=pal.soft_ink)
    pen.text(layout.footer, "papillon · the open-source companion for Papillon Gardens", colour=pal.soft_ink)


def draw_score_names(pen: Pen, layout: ScorePadLayout, players: Sequence[str]) -> None:
    """The players' names in the first column of each table."""
    for table in layout.tables:
        for row, name in zip(table.rows, players, strict=False):
            cell = row[0]
            pen.text_at(cell.x_mm + 2.0, cell.bottom_mm - 2.8, name, size_pt=10, bold=True)


__all__ = ["SIDES", "garden_pdf", "sheets_pdf"]
