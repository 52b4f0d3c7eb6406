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
import math
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
    BRICK_MM,
    CAPTION_ICON_GAP_MM,
    CAPTION_ICON_R_MM,
    CAPTION_ICON_RISE_MM,
    CUT_LABEL_PT,
    CUT_LABEL_X_MM,
    CUT_LABEL_Y_MM,
    FLOWER_OFFSET_MM,
    FLOWER_R_MM,
    FRAME_H_MM,
    FRAME_W_MM,
    GARDEN_CORNER_MM,
    HEADING_ICON_GAP_MM,
    HEADING_ICON_R_MM,
    HEADING_ICON_RISE_MM,
    LADDER_LABEL_GAP_MM,
    LADDER_LABEL_MAX_MM,
    LEGEND_GAP_MM,
    LEGEND_ICON_DX_MM,
    LEGEND_ICON_R_MM,
    LEGEND_ICON_RISE_MM,
    LEGEND_TEXT_DX_MM,
    PAPERS_MM,
    PLOT_CAPTION_SMALL_PT,
    PLOT_CORNER_MM,
    PLOT_GAP_MM,
    PLOT_ICON_OFFSET_MM,
    PLOT_ICON_R_MM,
    PLOT_PITCH_MM,
    RULER_MM,
    RULER_TICKS_MM,
    SCORE_NAME_PAD_MM,
    SCORE_ROWS,
    TITLE_ICON_GAP_MM,
    TITLE_ICON_R_MM,
    TITLE_ICON_RISE_MM,
    TOTAL_BOX_CORNER_MM,
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
from papillon.render.fonts import BOLD, REGULAR, drawable, register_fonts
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
        """The dashed cut lines with their label, drawn once as a form and reused on every page."""
        c = self.canvas
        width, height = self.size_mm[0] * MM_PT, self.size_mm[1] * MM_PT
        if not self.cuts:
            return
        if "cut" not in self.forms:
            c.beginForm("cut", lowerx=0, lowery=-height, upperx=width, uppery=0)
            pen = Pen(c, self.palette)
            ink = self.palette.soft_ink
            for cut in self.cuts:
                pen.stroke(ink, 0.2, dash=(3.0, 2.0))
                pen.segment(cut)
                x = cut.x1_mm + CUT_LABEL_X_MM
                icons.scissors(pen, x + CAPTION_ICON_R_MM, CUT_LABEL_Y_MM - CAPTION_ICON_RISE_MM, CAPTION_ICON_R_MM, colour=ink)
                x += 2 * CAPTION_ICON_R_MM + CAPTION_ICON_GAP_MM
                pen.text_at(x, CUT_LABEL_Y_MM, "cut", size_pt=CUT_LABEL_PT, colour=ink)
            c.endForm()
            self.forms.add("cut")
        c.saveState()
        c.translate(0, height)
        c.doForm("cut")
        c.restoreState()

    def form(self, pen: Pen, name: str, draw: Callable[[Pen], None]) -> None:
        """Draw ``draw``'s content here, recording it as a form the first time."""
        c = self.canvas
        if name not in self.forms:
            width, height = (FRAME_W_MM * MM_PT, FRAME_H_MM * MM_PT)
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


NAME_MIN_PT = 7.0
"""The smallest size a player's name is set at to fit its line or cell; a name that needs smaller is refused."""


def fitted_size_pt(name: str, width_mm: float, size_pt: float, *, bold: bool = True) -> float | None:
    """The size at which ``name`` fits ``width_mm``: ``size_pt`` when it fits, smaller down to :data:`NAME_MIN_PT`, else None."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    width = stringWidth(drawable(name), BOLD if bold else REGULAR, size_pt) / MM_PT
    if width <= width_mm:
        return size_pt
    fitted = math.floor(size_pt * width_mm / width * 10) / 10
    return fitted if fitted >= NAME_MIN_PT else None


def _name_rooms(sides: Sequence[str], edition: Edition) -> list[tuple[str, Text, float]]:
    """Where a player's name goes on each side printed: the side's name, the spot and the width it may take (mm)."""
    rooms = []
    if "garden" in sides:
        garden = garden_layout(edition.rules.rounds)
        rooms.append(("garden sheet", garden.player_text, garden.player_line.x2_mm - garden.player_text.x_mm))
    if "fill" in sides:
        fill = fill_layout(edition)
        rooms.append(("fill sheet", fill.player_text, fill.player_line.x2_mm - fill.player_text.x_mm))
    if "score" in sides:
        table = score_pad_layout(len(CATEGORIES)).tables[0]
        spot = table.names[0]
        rooms.append(("score pad", spot, table.rows[0][0].right_mm - SCORE_NAME_PAD_MM - spot.x_mm))
    return rooms


def check_names(players: Sequence[str | None], *, sides: Sequence[str], edition: Edition | None = None) -> None:
    """ValueError (one line) when a name cannot fit its line or cell on a side printed, or a score pad gets more players than rows."""
    edition = edition or standard_edition()
    named = [p for p in players if p]
    if "score" in sides and len(named) > SCORE_ROWS:
        raise ValueError(
            f"a score pad has room for {SCORE_ROWS} players, not {len(named)} — print a pad for each group of up to {SCORE_ROWS}"
        )
    for name in named:
        for side, spot, width in _name_rooms(sides, edition):
            if fitted_size_pt(name, width, spot.size_pt) is None:
                shown = name if len(name) <= 40 else name[:39] + "…"
                raise ValueError(
                    f"the name {shown!r} is too long for the {side} (at most {width:.0f} mm at {NAME_MIN_PT:g} pt) — shorten it"
                )


def _name(pen: Pen, spot: Text, name: str, width_mm: float) -> None:
    """A player's name on its line, set smaller when long; cut with "…" only if it does not fit even then."""
    text = drawable(name)
    size = fitted_size_pt(text, width_mm, spot.size_pt)
    while size is None and len(text) > 1:
        text = text[:-2] + "…"
        size = fitted_size_pt(text, width_mm, spot.size_pt)
    pen.text(spot, text, bold=True, size_pt=size or NAME_MIN_PT)


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
    title: str | None = None,
) -> bytes:
    """A printable pad: for each copy, each player's sides in order, then a score pad page if asked.

    ``starting_fields`` defaults to the edition's; ``seed`` is only recorded
    in the QR code (the caller draws random fields with it).  ``title`` (a
    saved definition's ``name``) becomes the PDF's title, else "Papillon
    Gardens sheets".  Characters of a player's name that the bundled font
    cannot draw are left out (the ``sheet`` command refuses such names).
    """
    edition = edition or standard_edition()
    unknown = [s for s in sides if s not in SIDES]
    if unknown or not sides:
        raise ValueError(f"unknown side {unknown[0]!r} (expected {', '.join(SIDES)})" if unknown else "no side to print")
    if copies < 1:
        raise ValueError("copies: expected at least 1")
    fields = tuple(edition.rules.starting_fields if starting_fields is None else starting_fields)
    named = tuple(p for p in players if p)
    check_names(named, sides=sides, edition=edition)
    sequence: list[Sheet] = []
    for _ in range(copies):
        for player in players or (None,):
            sequence.extend(Sheet(side, player) for side in sides if side != "score")
        if "score" in sides:
            sequence.append(Sheet("score", players=named))
    doc = _Document(paper=paper, per_page=per_page, palette=palette_for(mono), title=title or "Papillon Gardens sheets")
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
                    lambda p: draw_garden_sheet(
                        p, glayout, edition=edition, starting_fields=fields, payload=payload, paper=paper, scale=doc.spots[0].scale
                    ),
                )
                if sheet.player:
                    _name(pen, glayout.player_text, sheet.player, glayout.player_line.x2_mm - glayout.player_text.x_mm)
            elif sheet.side == "fill":
                doc.form(pen, "fill", lambda p: draw_fill_sheet(p, flayout, edition=edition))
                if sheet.player:
                    _name(pen, flayout.player_text, sheet.player, flayout.player_line.x2_mm - flayout.player_text.x_mm)
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
    payload = sheet_payload(layout_id=layout.id, paper=paper, starting_fields=fields, render=garden is not None)
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
            draw_filled_garden(pen, layout, garden, score=score, edition=edition)
    return doc.finish()


def draw_filled_garden(pen: Pen, layout: GardenLayout, garden: Garden, *, score: ScoreCard | None, edition: Edition) -> None:
    """A garden's content, with its scoring under the bricks: the tint, the drawing, the patch outlines, then the bricks.

    The bricks decide every enclosure, so nothing of the scoring is drawn over them (a tint or an
    outline across a wall made the picture seem to contradict the score).
    """
    if score is not None:
        draw_enclosures(pen, score)
    draw_garden_content(pen, layout, garden, edition=edition, bricks=score is None)
    if score is not None:
        draw_score(pen, layout, score)
        draw_bricks(pen, layout, garden)


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
    for side in (-1, 1):
        icons.butterfly(pen, spot.x_mm + side * (half + TITLE_ICON_GAP_MM), spot.y_mm - TITLE_ICON_RISE_MM, TITLE_ICON_R_MM)
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


def draw_plot(pen: Pen, layout: GardenLayout, plot: Plot, *, field: bool = False, occupied: bool = False) -> None:
    pal = pen.palette
    box = layout.plots[plot]
    if field:
        icons.grass(pen, box, seed=plot, occupied=occupied)
    else:
        pen.fill(WHITE)
        pen.stroke(pal.plot, 0.35)
        pen.rect(box, radius_mm=PLOT_CORNER_MM, stroke=True, fill=True)
    bubble = layout.bubbles[plot]
    pen.fill(WHITE)
    pen.stroke(pal.bubble, 0.3)
    pen.bubble(bubble, fill=True)
    _faint_butterfly(pen, bubble)


def _faint_butterfly(pen: Pen, bubble: Circle) -> None:
    """The light butterfly printed in an empty bubble."""
    icons.butterfly(pen, bubble.cx_mm, bubble.cy_mm + bubble.r_mm * 0.074, bubble.r_mm * 0.55, faint=True)


def draw_garden_sheet(
    pen: Pen,
    layout: GardenLayout,
    *,
    edition: Edition,
    starting_fields: Sequence[Plot],
    payload: str,
    paper: str,
    ruler: bool = True,
    scale: float = 1.0,
) -> None:
    """Everything printed on a blank Garden sheet (side A); ``scale`` is the frame's print scale (for the ruler)."""
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
    pen.rect(layout.total_box, radius_mm=TOTAL_BOX_CORNER_MM, fill=True)
    # The round track: bonus rounds tinted, with a gnome.
    pen.text(layout.round_label, "Round", bold=True)
    for number, space in enumerate(layout.rounds, start=1):
        is_bonus = number in edition.rules.bonus_rounds
        pen.fill(pal.bonus if is_bonus else WHITE)
        pen.stroke(pal.ink, 0.45 if is_bonus else 0.3)
        pen.bubble(space, fill=True)
        pen.label(space.cx_mm, space.cy_mm, str(number), size_pt=11, bold=is_bonus, colour=pal.ink if is_bonus else pal.soft_ink)
        if is_bonus:
            icons.gnome(pen, space.cx_mm + space.r_mm * 0.95, space.cy_mm - space.r_mm * 0.9, space.r_mm * 0.48)
    for spot, words in zip(layout.bonus_labels, ("gnome bonus", f"rounds {bonus}"), strict=True):
        pen.text(spot, words, colour=pal.soft_ink)
    # The garden: paths, plots, edge guides, labels, border.
    garden = layout.garden
    pen.fill(_PATH[pal.name])
    pen.stroke(pal.border, 0.9)
    pen.rect(garden, radius_mm=GARDEN_CORNER_MM, stroke=True, fill=True)
    pen.stroke(pal.guide, 0.55, dash=(1.6, 1.1))
    for slot in layout.edge_slots:
        pen.segment(slot)
    pen.stroke(pal.guide, 0.3)
    fields = set(starting_fields)
    for plot in range(len(layout.plots)):
        draw_plot(pen, layout, plot, field=plot in fields)
    # Registration dots: the scanner maps each region of a bowed or curled sheet through the dots around it.
    pen.fill(_BLACK)
    for dot in layout.registration:
        pen.bubble(dot, stroke=False, fill=True)
    for i, spot in enumerate(layout.column_labels):
        pen.text(spot, "ABCDE"[i], bold=True, colour=pal.border)
    for i, spot in enumerate(layout.row_labels):
        pen.text(spot, str(i + 1), bold=True, colour=pal.border)
    # Colour key.
    pen.text(layout.colour_key_label, "Colour key", bold=True)
    for spot, words in zip(layout.colour_key_hints, ("stamp each colour", "once before play"), strict=True):
        pen.text(spot, words, colour=pal.soft_ink)
    for colour, circle, name, word in zip(COLOUR_NAMES, layout.colour_key, layout.colour_key_names, layout.colour_key_words, strict=True):
        pen.fill(WHITE)
        # In grey every key circle is drawn dark enough to see (a light grey "yellow" ring vanished); the letter says which.
        pen.stroke(pal.flowers[colour] if pal.name == "colour" else pal.soft_ink, 0.9)
        pen.bubble(circle, fill=True)
        pen.text(name, colour_letter(colour), bold=True, size_pt=12)
        pen.text(word, colour, colour=pal.soft_ink)
    # Print furniture: QR, layout id, scale ruler, note.
    draw_qr(pen, layout.qr, payload)
    fields_text = f" · fields {' '.join(plot_name(p) for p in starting_fields)}" if starting_fields else ""
    paper_name = paper.upper() if paper == "a4" else paper.title()
    pen.text(layout.id_text, f"layout {layout.id} · {paper_name}{fields_text}", colour=pal.soft_ink)
    if ruler:
        draw_ruler(pen, layout, scale=scale)
    pen.text(layout.footer, "papillon · the open-source companion for Papillon Gardens", colour=pal.soft_ink)


_PATH = {"colour": Color(0.965, 0.949, 0.914), "mono": Color(0.96, 0.96, 0.96)}


_DRAWING_KEY = (
    "Field: shade it green · critter or feature: its code in a field · bramble: X",
    "Butterfly: fill the bubble (a tick counts) · brick: a firm line over a dashed guide",
)
"""How to draw on a Garden sheet, under the ruler."""


def draw_ruler(pen: Pen, layout: GardenLayout, *, scale: float = 1.0) -> None:
    """The print note and a bar of :data:`RULER_MM` on paper: on a frame printed at ``scale`` (two per page) the bar
    is drawn 1/scale frame millimetres long, so it still measures what it says."""
    pal = pen.palette
    note = layout.note
    pen.text(note, "Print at 100 % (actual size, not “fit to page”).", bold=True)
    pen.text(layout.ruler_label, f"This bar must measure {RULER_MM:g} mm:", colour=pal.soft_ink)
    bar = layout.ruler
    x1, y = bar.x1_mm, bar.y1_mm
    pen.stroke(pal.ink, 0.35)
    pen.line(x1, y, x1 + RULER_MM / scale, y)
    short, middle, long = RULER_TICKS_MM
    for mm_ in range(0, int(RULER_MM) + 1):
        tall = long if mm_ % 10 == 0 else middle if mm_ % 5 == 0 else short
        pen.stroke(pal.ink, 0.2 if mm_ % 5 else 0.3)
        pen.line(x1 + mm_ / scale, y, x1 + mm_ / scale, y - tall)
    for number, spot in enumerate(layout.ruler_numbers):
        pen.text(Text(x1 + (spot.x_mm - x1) / scale, spot.y_mm, spot.size_pt, spot.align), str(number * 10), colour=pal.soft_ink)
    unit = layout.ruler_unit
    pen.text(Text(x1 + (unit.x_mm - x1 - 2.0) / scale + 2.0, unit.y_mm, unit.size_pt, unit.align), "mm", colour=pal.soft_ink)
    for spot, words in zip(layout.drawing_key, _DRAWING_KEY, strict=True):
        pen.text(spot, words, colour=pal.soft_ink)


def draw_garden_content(pen: Pen, layout: GardenLayout, garden: Garden, *, edition: Edition, bricks: bool = True) -> None:
    """What a player drew: flowers, fields with their critters and features, brambles, bricks, butterflies.

    ``bricks=False`` leaves the bricks to :func:`draw_bricks`, for a caller that draws them last.
    """
    pal = pen.palette
    for plot, cell in enumerate(garden.cells):
        box = layout.plots[plot]
        cx, cy = box.centre_mm
        if cell.is_field:
            draw_plot(pen, layout, plot, field=True, occupied=bool(cell.occupant))
            if cell.occupant:
                dx, dy = PLOT_ICON_OFFSET_MM
                icons.occupant(pen, cell.occupant, cx + dx, cy + dy, PLOT_ICON_R_MM)
                name = drawable(edition.occupant_name(cell.occupant))
                pen.text(layout.plot_captions[plot], name, size_pt=None if len(name) < 12 else PLOT_CAPTION_SMALL_PT, colour=pal.ink)
        elif cell.is_flower and cell.colour is not None and cell.colour in pal.flowers:
            dx, dy = FLOWER_OFFSET_MM
            icons.flower(pen, cx + dx, cy + dy, FLOWER_R_MM, cell.colour)
        elif cell.ground.value == "bramble":
            icons.bramble(pen, box)
    if bricks:
        draw_bricks(pen, layout, garden)
    for plot, bubble in enumerate(layout.bubbles):
        if plot not in garden.butterflies:
            # Bubbles stay on top of whatever was drawn in the plot, as on paper.
            pen.fill(WHITE)
            pen.stroke(pal.bubble, 0.3)
            pen.bubble(bubble, fill=True)
            _faint_butterfly(pen, bubble)
            continue
        pen.fill(pal.butterfly)
        pen.stroke(pal.butterfly, 0.3)
        pen.bubble(bubble, fill=True)
        icons.butterfly(pen, bubble.cx_mm, bubble.cy_mm + bubble.r_mm * 0.074, bubble.r_mm * 0.6, colour=WHITE)
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        icons.flower(pen, circle.cx_mm, circle.cy_mm, circle.r_mm * 0.8, colour)
    player = garden.metadata.get("player")
    if player:
        _name(pen, layout.player_text, player, layout.player_line.x2_mm - layout.player_text.x_mm)


def draw_bricks(pen: Pen, layout: GardenLayout, garden: Garden) -> None:
    """Every brick edging, and a brick square on each path crossing where two or more of them meet.

    A slot stops short of the crossings (the registration dots sit there), so without the square a
    wall turning a corner showed a gap, and what was under it, right where it closes a ring.
    """
    ends: dict[tuple[int, int], int] = {}
    for edge in sorted(garden.bricks):
        icons.brick(pen, layout.edge_slots[EDGE_INDEX[edge]])
        for end in edge.segment():
            ends[end] = ends.get(end, 0) + 1
    pen.fill(pen.palette.brick)
    pen.stroke(pen.palette.brick, 0.1)
    half = BRICK_MM / 2
    for (col, row), count in sorted(ends.items()):
        if count >= 2:
            x, y = grid_to_mm(col, row)
            pen.polygon([(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)], fill=True)


def _mm_rings(geometry: shapely.Geometry) -> list[list[tuple[float, float]]]:
    """The rings of a (multi)polygon in grid units, mapped to millimetres."""
    rings = []
    for part in shapely.get_parts(geometry):
        for ring in [part.exterior, *part.interiors]:
            rings.append([grid_to_mm(x, y) for x, y in ring.coords])
    return rings


ENCLOSURE_ALPHA = 0.35
"""How strongly an enclosure's tint covers the plots under it."""


def draw_enclosures(pen: Pen, score: ScoreCard) -> None:
    """Shade each enclosure (a face of the brick drawing) that holds an enclosed patch."""
    pal = pen.palette
    seen = set()
    pen.canvas.saveState()
    for patch in score.patches:
        if patch.enclosure is None or patch.enclosure.polygon.wkt in seen:
            continue
        seen.add(patch.enclosure.polygon.wkt)
        pen.fill(pal.enclosure)
        pen.canvas.setFillAlpha(ENCLOSURE_ALPHA)  # after the colour: setting a colour resets the alpha
        pen.rings(_mm_rings(patch.enclosure.polygon), stroke=False, fill=True)
    pen.canvas.restoreState()


PATCH_INSET_MM = 0.46
"""How far inside its plots' outlines a patch's outline runs on the scored sheet."""


def draw_score(pen: Pen, layout: GardenLayout, score: ScoreCard) -> None:
    """Outline the patches and list the points per category in the score panel."""
    pal = pen.palette
    for patch in score.patches:
        # Shrunk past half a path, so the outline runs inside the patch's plots.
        inset = (PLOT_GAP_MM / 2 + PATCH_INSET_MM) / PLOT_PITCH_MM
        shape = shapely.unary_union([plot_polygon(p) for p in patch.plots]).buffer(-inset, join_style="mitre")
        pen.stroke(pal.patch_line, 0.75, dash=None if patch.enclosed else (2.2, 1.2))
        pen.rings(_mm_rings(shape), stroke=True, fill=False)
    panel = layout.score_panel
    pen.fill(WHITE)
    pen.stroke(pal.border, 0.5)
    pen.rect(panel, radius_mm=PLOT_CORNER_MM, fill=True)
    pen.text(layout.score_title, "Score", bold=True, colour=pal.border)
    pen.text(layout.score_total, f"Total {score.total}", bold=True)
    cx, cy = layout.total_box.centre_mm
    pen.label(cx, cy, str(score.total), size_pt=16, bold=True, colour=pal.ink)
    for category, spot, value in zip(CATEGORIES, layout.score_lines, layout.score_values, strict=False):
        pen.text(spot, CATEGORY_TITLES[category], colour=pal.ink)
        pen.text(value, str(score.categories[category]), bold=True)
    pen.text(layout.score_key, "solid: enclosed patch · dashed: open", colour=pal.soft_ink)


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
    pen.text(layout.critter_hint, "fill bottom-up; the top gains the critter", colour=pal.soft_ink)
    xs = [ladder.label.x_mm for ladder in layout.ladders]
    room = min((b - a for a, b in itertools.pairwise(xs)), default=LADDER_LABEL_MAX_MM) - LADDER_LABEL_GAP_MM
    # One size for every ladder's name: the largest at which the longest fits (a single squeezed name looks wrong).
    size = max((ladder.label.size_pt for ladder in layout.ladders), default=10.0)
    while size > 5 and any(pen.text_width_mm(edition.critters[ld.key].name, size, bold=True) > room for ld in layout.ladders):
        size -= 0.5
    for ladder in layout.ladders:
        critter = edition.critters[ladder.key]
        _column(pen, ladder.bubbles, ladder.icons, colour=None)
        pen.text(ladder.label, critter.name, bold=True, size_pt=size)
        pen.text(ladder.sublabel, f"{critter.points} VP", colour=pal.soft_ink)
    # Flower tracks.
    pen.text(layout.flower_heading, "Flowers", bold=True, colour=pal.border)
    pen.text(layout.flower_hint, "one track per colour, bottom-up", colour=pal.soft_ink)
    for track in layout.tracks:
        _column(pen, track.bubbles, track.icons, colour=track.key)
        pen.text(track.label, colour_letter(track.key), bold=True, size_pt=12, colour=pal.ink)
        pen.text(track.sublabel, track.key, colour=pal.soft_ink)
        # A tinted rail behind the track, so its colour is seen at a glance.
    # Rondel.
    pen.text(layout.rondel_heading, "Rondel", bold=True, colour=pal.border)
    pen.text(layout.rondel_hint, "when all four tracks are full", colour=pal.soft_ink)
    ring = layout.rondel
    pen.fill(_PATH[pal.name])
    pen.stroke(pal.border, 0.6)
    pen.bubble(ring, fill=True)
    for petal, icon in zip(layout.petals, layout.petal_icons, strict=True):
        pen.fill(WHITE)
        pen.stroke(pal.ink, 0.35)
        pen.bubble(petal, fill=True)
        icons.track_icon(pen, icon, petal.cx_mm, petal.cy_mm, petal.r_mm * 0.62)
    _caption_with_icon(pen, layout.rondel_caption, "fill clockwise", icons.clockwise_arrow)
    # Caterpillar track.
    pen.text(layout.caterpillar_heading, "Caterpillar track", bold=True, colour=pal.border)
    pen.text(layout.caterpillar_hint, "one space per caterpillar gained, from 1 on", colour=pal.soft_ink)
    spaces = layout.caterpillar
    pen.stroke(pal.grass_ink, 1.6)
    for a, b in itertools.pairwise(spaces):
        pen.line(a.cx_mm, a.cy_mm, b.cx_mm, b.cy_mm)
    for number, space in enumerate(spaces, start=1):
        gnome_space = number in layout.gnome_spaces
        pen.fill(pal.bonus if gnome_space else WHITE)
        pen.stroke(pal.ink, 0.45 if gnome_space else 0.3)
        pen.bubble(space, fill=True)
        if gnome_space:
            icons.gnome(pen, space.cx_mm, space.cy_mm, space.r_mm * 0.7)
            if layout.caterpillar_numbers:  # empty when the rows leave no room for it
                pen.text(layout.caterpillar_numbers[number - 1], str(number), colour=pal.soft_ink)
        else:
            pen.label(space.cx_mm, space.cy_mm, str(number), size_pt=7.5, bold=False, colour=pal.soft_ink)
    head = layout.caterpillar_icon
    icons.caterpillar(pen, head.cx_mm, head.cy_mm, head.r_mm)
    # Gnome bonus options.
    pen.text(layout.gnome_heading, "Gnome bonus: choose one", bold=True, colour=pal.border)
    heading_w = pen.text_width_mm("Gnome bonus: choose one", layout.gnome_heading.size_pt, bold=True)
    heading = layout.gnome_heading
    icons.gnome(pen, heading.x_mm + heading_w + HEADING_ICON_GAP_MM, heading.y_mm - HEADING_ICON_RISE_MM, HEADING_ICON_R_MM)
    for spot, bullet, option in zip(layout.gnome_lines, layout.gnome_bullets, edition.gnome, strict=True):
        words = _GNOME_WORDS.get(option.action, option.action).format(count=option.count)
        pen.fill(pal.ink)
        pen.bubble(bullet, stroke=False, fill=True)
        pen.text(spot, drawable(words))
    # Legend of the icons, one line.
    legend = layout.legend
    items = [("stamp", "stamp that colour"), ("stamp_any", "stamp any colour"), ("caterpillar", "1 caterpillar"), ("gnome", "gnome bonus")]
    widths = [LEGEND_TEXT_DX_MM + pen.text_width_mm(words, legend.size_pt) + LEGEND_GAP_MM for _, words in items]
    x = legend.x_mm - sum(widths) / 2
    for (icon, words), width in zip(items, widths, strict=True):
        colour = "red" if icon == "stamp" else None
        icons.track_icon(pen, icon, x + LEGEND_ICON_DX_MM, legend.y_mm - LEGEND_ICON_RISE_MM, LEGEND_ICON_R_MM, colour=colour)
        pen.text_at(x + LEGEND_TEXT_DX_MM, legend.y_mm, words, size_pt=legend.size_pt, colour=pal.ink)
        x += width
    pen.text(layout.id_text, f"layout {layout.id}", colour=pal.soft_ink)
    pen.text(layout.footer, "papillon · the open-source companion for Papillon Gardens", colour=pal.soft_ink)


def _caption_with_icon(pen: Pen, spot: Text, words: str, icon: Callable[..., None]) -> None:
    """``words`` then a small icon, centred together on ``spot`` (for signs the bundled font lacks)."""
    pal = pen.palette
    text_w = pen.text_width_mm(words, spot.size_pt)
    icon_w = CAPTION_ICON_GAP_MM + 2 * CAPTION_ICON_R_MM
    left = spot.x_mm - (text_w + icon_w) / 2 if spot.align == "centre" else spot.x_mm
    pen.text_at(left, spot.y_mm, words, size_pt=spot.size_pt, colour=pal.soft_ink)
    icon(pen, left + text_w + icon_w - CAPTION_ICON_R_MM, spot.y_mm - CAPTION_ICON_RISE_MM, CAPTION_ICON_R_MM, colour=pal.soft_ink)


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
        pen.text(table.date, "date ____________", colour=pal.soft_ink)
        head = table.header
        pen.fill(_PATH[pal.name])
        pen.stroke(pal.ink, 0.3)
        for i, cell in enumerate(head):
            pen.fill(_PATH[pal.name])
            pen.stroke(pal.ink, 0.3)
            pen.rect(cell, fill=True)
            if i == 0:
                pen.text(table.player_heading, "Player", bold=True)
                continue
            lines = table.heading_lines[i - 1]
            for spot, word in zip(lines, titles[i - 1].split(maxsplit=len(lines) - 1), strict=False):
                pen.text(spot, word, bold=True)
            hint = _category_hint(CATEGORIES[i - 1], edition) if i - 1 < len(CATEGORIES) else "sum"
            pen.text(table.heading_hints[i - 1], drawable(hint), colour=pal.soft_ink)
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
        for spot, row, name in zip(table.names, table.rows, players, strict=False):
            _name(pen, spot, name, row[0].right_mm - SCORE_NAME_PAD_MM - spot.x_mm)


__all__ = ["SIDES", "check_names", "fitted_size_pt", "garden_pdf", "sheets_pdf"]
