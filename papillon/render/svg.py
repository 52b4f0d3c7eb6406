"""The sheets as SVG for the screen: pure functions from a value to markup (python-chess's ``chess.svg``).

The drawing is the PDF's: :class:`SvgPen` is a :class:`~papillon.render.pen.Pen`
that writes SVG elements, so :mod:`papillon.render.pdf`'s sheet functions and
:mod:`papillon.render.icons` draw the same layout with the same palette.  Over the
drawing lies a layer of *hit shapes*, one per plot, edge, bubble, round space and
Fill-sheet space, each with an ``id`` (``plot-C3``, ``edge-B1-C1``, ``bubble-C3``,
``round-4``, ``ladder-lb-2``, ``track-red-3``, ``petal-1``, ``caterpillar-5``) and an
accessible name (``"plot C3, empty"``).  A legal action given in ``actions`` turns
its shape into a target: ``class="hit target"``, ``role="button"``, ``tabindex="0"``
and ``data-action="plot C3"``, so a page marks it and sends the action on a click.

>>> svg = garden_svg(actions=("plot C3",))
>>> 'id="plot-C3"' in svg and 'data-action="plot C3"' in svg and 'aria-label="plot C3, empty"' in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import cast

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from papillon import words
from papillon.edition import Card, DieFace, Edition, Feature, standard_edition
from papillon.engine.actions import Action, verb_and_subject
from papillon.garden import Garden
from papillon.grid import EDGES, PLOTS, plot_name
from papillon.layout import (
    PLOT_CORNER_MM,
    Circle,
    GardenLayout,
    Rect,
    Segment,
    fill_layout,
    garden_layout,
    grid_to_mm,
)
from papillon.render import icons
from papillon.render.fonts import BOLD, REGULAR, register_fonts
from papillon.render.pdf import (
    _GNOME_WORDS,
    QR_QUIET_MODULES,
    draw_fill_sheet,
    draw_filled_garden,
    draw_garden_sheet,
    qr_matrix,
)
from papillon.render.pen import COLOUR, MM_PT, WHITE, Palette, Pen, dark_runs
from papillon.score import ScoreCard

GARDEN_VIEW_SIDE_MM = 9.0
"""Room (mm) a screen shows either side of the garden: the row labels on the left."""
GARDEN_VIEW_TOP_MM = 42.0
"""Where a screen's view of the Garden sheet starts (frame y, mm): above the round track."""
GARDEN_VIEW_BELOW_MM = (20.0, 3.0)
"""Room (mm) a screen shows under the garden (the colour key and its hints), or under the score panel when scored."""
QR_MODULES_MIN = 21
"""The fewest modules across a QR code (version 1): where its quiet zone reaches furthest above it."""


def garden_view_mm(layout: GardenLayout, scored: bool = False) -> tuple[float, float, float, float]:
    """The part of the Garden sheet a screen shows (x, y, width, height): round track, garden, colour key, and the
    score panel when ``scored``.  The print furniture (markers, QR, ruler) lies outside it."""
    garden = layout.garden
    # Short of the QR code's white quiet zone (release 3 prints it nearer the colour key).
    quiet_top = layout.qr.y_mm - QR_QUIET_MODULES * layout.qr.w_mm / QR_MODULES_MIN
    unscored = min(garden.bottom_mm + GARDEN_VIEW_BELOW_MM[0], quiet_top)
    bottom = layout.score_panel.bottom_mm + GARDEN_VIEW_BELOW_MM[1] if scored else unscored
    return (garden.x_mm - GARDEN_VIEW_SIDE_MM, GARDEN_VIEW_TOP_MM, garden.w_mm + 2 * GARDEN_VIEW_SIDE_MM, bottom - GARDEN_VIEW_TOP_MM)


FILL_VIEW_MM = (22.0, 43.0, 166.0, 212.0)
"""The part of the Fill sheet a screen shows: ladders, tracks, rondel, caterpillar track, gnome options, legend."""
BUBBLE_HIT_MM = 6.0
"""Radius of a butterfly bubble's hit circle when its plot is a target too (else the whole plot is the bubble's target)."""
FILLED_ALPHA = 0.78
"""Opacity of the ink over a filled Fill-sheet space (its icon still shows through)."""

_STYLE = (
    ".hit{fill:transparent;stroke:none}"
    ".hit:not(.target){pointer-events:none}"
    ".target{cursor:pointer}"
    ".target>.area,.target.area{fill:#ffcf33;fill-opacity:.32;stroke:#d08a00;stroke-width:.9}"
    ".edge>.slot{stroke:none}"
    ".edge.target>.area{fill-opacity:.08;stroke:none}"
    ".edge.target>.slot{stroke:#d08a00;stroke-width:1.6;stroke-linecap:round}"
    ".target:focus{outline:none}"
    ".target:focus>.area,.target.area:focus{stroke:#1a5fd0;stroke-width:1.4}"
    ".edge.target:focus>.slot{stroke:#1a5fd0;stroke-width:2.2}"
)
"""How a target looks in a bare SVG (a page's stylesheet may override): amber, and blue with keyboard focus."""


def _hex(colour: Color) -> str:
    return _hex_of(colour.red, colour.green, colour.blue)


@lru_cache(maxsize=256)
def _hex_of(red: float, green: float, blue: float) -> str:
    return "#" + str(Color(red, green, blue).hexval())[2:]


def _n(value: float) -> str:
    """A coordinate with two decimals and no trailing zeros (smaller markup)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class SvgPen(Pen):
    """A :class:`~papillon.render.pen.Pen` that writes SVG elements in frame millimetres (y down) instead of PDF operators."""

    def __init__(self, palette: Palette) -> None:
        super().__init__(cast(Canvas, None), palette)
        self.parts: list[str] = []
        self._stroke = "#000"
        self._width = 0.3
        self._dash = ""
        self._fill = "#000"
        self.alpha = 1.0
        """Opacity of fills (the PDF's ``setFillAlpha``)."""

    # -- state ---------------------------------------------------------------

    def stroke(self, colour: Color, width_mm: float = 0.3, dash: Sequence[float] | None = None) -> None:
        self._stroke = _hex(colour)
        self._width = width_mm
        self._dash = ",".join(_n(d) for d in dash) if dash else ""

    def fill(self, colour: Color) -> None:
        self._fill = _hex(colour)

    def _paint(self, stroke: bool, fill: bool) -> str:
        paint = f' fill="{self._fill}"' if fill else ' fill="none"'
        if fill and self.alpha < 1:
            paint += f' fill-opacity="{_n(self.alpha)}"'
        if stroke:
            paint += f' stroke="{self._stroke}" stroke-width="{_n(self._width)}"'
            if self._dash:
                paint += f' stroke-dasharray="{self._dash}"'
        return paint

    # -- shapes ----------------------------------------------------------------

    def rect(self, box: Rect, *, radius_mm: float = 0.0, stroke: bool = True, fill: bool = False) -> None:
        corner = f' rx="{_n(radius_mm)}"' if radius_mm else ""
        self.parts.append(
            f'<rect x="{_n(box.x_mm)}" y="{_n(box.y_mm)}" width="{_n(box.w_mm)}" height="{_n(box.h_mm)}"'
            f"{corner}{self._paint(stroke, fill)}/>"
        )

    def circle(self, cx_mm: float, cy_mm: float, r_mm: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.parts.append(f'<circle cx="{_n(cx_mm)}" cy="{_n(cy_mm)}" r="{_n(r_mm)}"{self._paint(stroke, fill)}/>')

    def ellipse(self, cx_mm: float, cy_mm: float, rx_mm: float, ry_mm: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.parts.append(f'<ellipse cx="{_n(cx_mm)}" cy="{_n(cy_mm)}" rx="{_n(rx_mm)}" ry="{_n(ry_mm)}"{self._paint(stroke, fill)}/>')

    def line(self, x1_mm: float, y1_mm: float, x2_mm: float, y2_mm: float) -> None:
        self.parts.append(f'<line x1="{_n(x1_mm)}" y1="{_n(y1_mm)}" x2="{_n(x2_mm)}" y2="{_n(y2_mm)}"{self._paint(True, False)}/>')

    def polygon(self, points: Sequence[tuple[float, float]], *, stroke: bool = True, fill: bool = False, close: bool = True) -> None:
        tag = "polygon" if close else "polyline"
        coords = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(f'<{tag} points="{coords}"{self._paint(stroke, fill)}/>')

    def rings(self, rings: Sequence[Sequence[tuple[float, float]]], *, stroke: bool = True, fill: bool = False) -> None:
        path = "".join("M" + "L".join(f"{_n(x)},{_n(y)}" for x, y in ring) + "Z" for ring in rings)
        self.parts.append(f'<path d="{path}" fill-rule="evenodd"{self._paint(stroke, fill)}/>')

    def curve(self, points: Sequence[tuple[float, float]], *, stroke: bool = True, fill: bool = False, close: bool = False) -> None:
        (x0, y0), *rest = points
        path = f"M{_n(x0)},{_n(y0)}"
        for i in range(0, len(rest) - 2, 3):
            path += "C" + " ".join(f"{_n(x)},{_n(y)}" for x, y in rest[i : i + 3])
        if close:
            path += "Z"
        self.parts.append(f'<path d="{path}"{self._paint(stroke, fill)}/>')

    def cells(self, x_mm: float, y_mm: float, cell_mm: float, rows: Sequence[Sequence[bool]]) -> None:
        path = []
        for r, start, end in dark_runs(rows):
            run = _n((end - start) * cell_mm)
            path.append(f"M{_n(x_mm + start * cell_mm)},{_n(y_mm + r * cell_mm)}h{run}v{_n(cell_mm)}h-{run}z")
        self.parts.append(f'<path d="{"".join(path)}" fill="{self._fill}" shape-rendering="crispEdges"/>')

    # -- text --------------------------------------------------------------------

    def text_at(
        self, x_mm: float, y_mm: float, value: str, *, size_pt: float, align: str = "left", bold: bool = False, colour: Color | None = None
    ) -> None:
        anchor = {"centre": ' text-anchor="middle"', "right": ' text-anchor="end"'}.get(align, "")
        weight = ' font-weight="700"' if bold else ""
        ink = _hex(colour or self.palette.ink)
        self.parts.append(
            f'<text x="{_n(x_mm)}" y="{_n(y_mm)}" font-size="{_n(size_pt / MM_PT)}"{anchor}{weight} fill="{ink}">{escape(value)}</text>'
        )

    def text_width_mm(self, value: str, size_pt: float, *, bold: bool = False) -> float:
        register_fonts()
        return float(pdfmetrics.stringWidth(value, BOLD if bold else REGULAR, size_pt)) / MM_PT

    def raw(self, markup: str) -> None:
        """Append markup as it is (the hit layer)."""
        self.parts.append(markup)

    def markup(self) -> str:
        return "".join(self.parts)


class _NoAlphaCanvas:
    """What :func:`papillon.render.pdf.draw_enclosures` asks of a canvas, for an :class:`SvgPen`."""

    def __init__(self, pen: SvgPen) -> None:
        self.pen = pen

    def saveState(self) -> None:
        pass

    def restoreState(self) -> None:
        self.pen.alpha = 1.0

    def setFillAlpha(self, alpha: float) -> None:
        self.pen.alpha = alpha


def _svg(view: tuple[float, float, float, float], body: str, *, label: str, css_class: str) -> str:
    x, y, w, h = view
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}" class="{css_class}" role="group" '
        f'aria-label="{escape(label)}" font-family="Quicksand, Nunito, system-ui, sans-serif"><style>{_STYLE}</style>{body}</svg>'
    )


def _hit(shape: str, *, id: str, label: str, action: str | None, extra: str = "") -> str:
    """A hit shape (an element's markup without its closing ``/>``) with its id, name and, for a target, its action."""
    if action is None:  # role="img": a name on a shape without a role is not read out (screen readers skipped the plots)
        return f'{shape} id="{id}" class="hit area{extra}" role="img" aria-label="{escape(label)}"/>'
    return (
        f'{shape} id="{id}" class="hit area target{extra}" role="button" tabindex="0" '
        f'data-action="{escape(action)}" aria-label="{escape(label)}"/>'
    )


# --------------------------------------------------------------------------- the garden


def cell_words(garden: Garden | None, plot: int, edition: Edition) -> str:
    """What a plot holds, in words ("empty", "red flower", "field with a Ladybug"): :func:`papillon.words.cell_words`."""
    if garden is None:
        return "field" if plot in edition.rules.starting_fields else "empty"
    return words.cell_words(garden.cells[plot].code, edition, article=False)


def garden_svg(
    garden: Garden | None = None,
    *,
    edition: Edition | None = None,
    actions: Iterable[Action | str] = (),
    round: int = 0,
    score: ScoreCard | None = None,
    palette: Palette = COLOUR,
    label: str = "garden",
    edge_reach: float = 1.0,
) -> str:
    """The Garden sheet (side A) as SVG: blank (``garden=None``, the starting fields as grass) or filled in.

    ``actions`` are the legal actions now; those that name a plot, a butterfly or an
    edge become targets.  ``round`` is the round being played: earlier round spaces
    are crossed off and it is ringed.  With ``score`` the enclosures are shaded,
    the patches outlined and the points listed under the garden.  ``edge_reach``
    (0 to 1) is how far an edge's hit area reaches toward the two plots' centres:
    1 tiles the plots (a play turn offers edges or plots, rarely both); less leaves
    each plot's middle to the plot, for a sheet where every plot and edge is a target.
    """
    edition = edition or standard_edition()
    layout = garden_layout(edition.rules.rounds)
    pen = SvgPen(palette)
    fields = () if garden is not None else edition.rules.starting_fields
    _garden_paper(pen, layout, edition, fields)
    if garden is not None:
        if score is not None:
            pen.canvas = cast(Canvas, _NoAlphaCanvas(pen))
        draw_filled_garden(pen, layout, garden, score=score, edition=edition)
    _round_marks(pen, layout, round)
    pen.raw(_garden_hits(layout, garden, edition, tuple(actions), round, edge_reach))
    view = garden_view_mm(layout, scored=score is not None)
    return _svg(view, pen.markup(), label=label, css_class="sheet garden-sheet")


class _ClippedPen(SvgPen):
    """An SvgPen that drops the Garden sheet's print furniture (markers and QR), which the screen crops away anyway."""

    def cells(self, x_mm: float, y_mm: float, cell_mm: float, rows: Sequence[Sequence[bool]]) -> None:
        pass


_PAPER: dict[tuple[str, str, str, tuple[int, ...]], list[str]] = {}
"""The printed part of a sheet, by side, edition fingerprint, palette and starting fields: the same for every page."""
_PAPER_MAX = 64


def _garden_paper(pen: SvgPen, layout: GardenLayout, edition: Edition, fields: Sequence[int]) -> None:
    """The printed sheet, drawn by the PDF's own function; markers and QR are dropped (the screen crops them away)."""
    key = ("garden", edition.fingerprint, pen.palette.name, tuple(fields))
    parts = _PAPER.get(key)
    if parts is None:
        clipped = _ClippedPen(pen.palette)
        draw_garden_sheet(clipped, layout, edition=edition, starting_fields=fields, payload="", paper="a4", ruler=False)
        parts = _remember(key, clipped.parts)
    pen.parts += parts


def _remember(key: tuple[str, str, str, tuple[int, ...]], parts: list[str]) -> list[str]:
    if len(_PAPER) >= _PAPER_MAX:
        _PAPER.pop(next(iter(_PAPER)))
    _PAPER[key] = parts
    return parts


def _round_marks(pen: SvgPen, layout: GardenLayout, current: int) -> None:
    """Rounds played are crossed off, the current one ringed, as a player marks the paper."""
    pal = pen.palette
    for number, space in enumerate(layout.rounds, start=1):
        if number < current:
            pen.stroke(pal.ink, 0.6)
            d = space.r_mm * 0.7
            pen.line(space.cx_mm - d, space.cy_mm - d, space.cx_mm + d, space.cy_mm + d)
            pen.line(space.cx_mm - d, space.cy_mm + d, space.cx_mm + d, space.cy_mm - d)
        elif number == current:
            pen.stroke(pal.border, 0.9)
            pen.circle(space.cx_mm, space.cy_mm, space.r_mm + 0.9)


def _plot_actions(actions: Sequence[Action | str]) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The actions that name a plot (``plot X``), a butterfly (``start/from/to X``) or an edge, by name."""
    plots: dict[str, str] = {}
    bubbles: dict[str, str] = {}
    edges: dict[str, str] = {}
    for action in actions:
        verb, arg = verb_and_subject(action)
        if verb == "plot":
            plots[arg] = str(action)
        elif verb in ("start", "from", "to", "butterfly"):
            bubbles[arg] = str(action)
        elif verb == "edge":
            edges[arg] = str(action)
    return plots, bubbles, edges


_BUBBLE_VERBS = {
    "start": "start here",
    "from": "move this butterfly",
    "to": "move the butterfly here",
    "butterfly": "add or remove the butterfly",  # entering a finished sheet (papillon.scoresheet)
}


def _garden_hits(
    layout: GardenLayout, garden: Garden | None, edition: Edition, actions: Sequence[Action | str], current: int, edge_reach: float = 1.0
) -> str:
    plots, bubbles, edges = _plot_actions(actions)
    out = ['<g class="hits">']
    for number, space in enumerate(layout.rounds, start=1):
        state = "played" if number < current else "now" if number == current else "to come"
        bonus = ", gnome bonus" if number in edition.rules.bonus_rounds else ""
        shape = f'<circle cx="{_n(space.cx_mm)}" cy="{_n(space.cy_mm)}" r="{_n(space.r_mm)}"'
        out.append(_hit(shape, id=f"round-{number}", label=f"round {number}, {state}{bonus}", action=None))
    for plot in PLOTS:
        name = plot_name(plot)
        box = layout.plots[plot]
        words = cell_words(garden, plot, edition)
        plot_action = plots.get(name)
        bubble_action = bubbles.get(name)
        action = plot_action or bubble_action
        label = f"plot {name}, {words}"
        if action and action != plot_action:
            label += f": {_BUBBLE_VERBS[verb_and_subject(action)[0]]}"
        shape = f'<rect x="{_n(box.x_mm)}" y="{_n(box.y_mm)}" width="{_n(box.w_mm)}" height="{_n(box.h_mm)}" rx="{_n(PLOT_CORNER_MM)}"'
        out.append(_hit(shape, id=f"plot-{name}", label=label, action=action, extra=" plot"))
    for plot in PLOTS:
        name = plot_name(plot)
        bubble = layout.bubbles[plot]
        flown = garden is not None and plot in garden.butterflies
        action = bubbles.get(name) if plots.get(name) else None  # else the whole plot is this target
        radius = BUBBLE_HIT_MM if action else bubble.r_mm
        shape = f'<circle cx="{_n(bubble.cx_mm)}" cy="{_n(bubble.cy_mm)}" r="{_n(radius)}"'
        label = f"bubble {name}, {'butterfly' if flown else 'empty'}"
        if action:
            label += f": {_BUBBLE_VERBS[verb_and_subject(action)[0]]}"
        out.append(_hit(shape, id=f"bubble-{name}", label=label, action=action, extra=" bubble"))
    for i, edge in enumerate(EDGES):
        out.append(_edge_hit(layout, i, garden, edges.get(edge.name), edge_reach))
    out.append("</g>")
    return "".join(out)


def _edge_hit(layout: GardenLayout, index: int, garden: Garden | None, action: str | None, reach: float = 1.0) -> str:
    """An edge's hit area is the diamond between its ends and the two plots' centres: the plots' four such triangles tile each plot.

    With ``reach`` below 1 the diamond stops that fraction of the way to the centres.
    """
    edge = EDGES[index]
    slot: Segment = layout.edge_slots[index]
    (x1, y1), (x2, y2) = (grid_to_mm(*p) for p in edge.segment())
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    ca = tuple(m + (c - m) * reach for m, c in zip((mx, my), layout.plots[edge.a].centre_mm, strict=True))
    cb = tuple(m + (c - m) * reach for m, c in zip((mx, my), layout.plots[edge.b].centre_mm, strict=True))
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in ((x1, y1), ca, (x2, y2), cb))
    built = garden is not None and edge in garden.bricks
    label = f"edge {edge.name}, {'brick' if built else 'no brick'}"
    head = f'<g id="edge-{edge.name}" class="hit edge'
    line = f'<line class="slot" x1="{_n(slot.x1_mm)}" y1="{_n(slot.y1_mm)}" x2="{_n(slot.x2_mm)}" y2="{_n(slot.y2_mm)}"/>'
    area = f'<polygon class="area" points="{points}"/>'
    if action is None:
        return f'{head}" aria-label="{label}">{area}{line}</g>'
    return f'{head} target" role="button" tabindex="0" data-action="{escape(action)}" aria-label="{label}">{area}{line}</g>'


# --------------------------------------------------------------------------- the fill sheet


@dataclass(frozen=True, slots=True)
class FillMarks:
    """What a player has filled on their Fill sheet (side B)."""

    ladders: tuple[int, ...] = ()
    """Spaces filled on each critter ladder, in the edition's order."""
    tracks: tuple[int, ...] = ()
    """Spaces filled on each flower track, in :data:`papillon.edition.COLOUR_NAMES` order."""
    rondel: int = 0
    caterpillars: int = 0


def fill_svg(
    marks: FillMarks | None = None,
    *,
    edition: Edition | None = None,
    actions: Iterable[Action | str] = (),
    palette: Palette = COLOUR,
    label: str = "Fill sheet",
) -> str:
    """The Fill sheet (side B) as SVG, blank or with ``marks``; ``fill X`` actions make the next space of X a target."""
    edition = edition or standard_edition()
    marks = marks or FillMarks()
    layout = fill_layout(edition)
    pen = _ClippedPen(palette)
    key = ("fill", edition.fingerprint, palette.name, ())
    paper = _PAPER.get(key)
    if paper is None:
        draw_fill_sheet(pen, layout, edition=edition)
        paper = _remember(key, list(pen.parts))
    else:
        pen.parts += paper
    legal = {subject for verb, subject in map(verb_and_subject, actions) if verb == "fill"}
    hits = ['<g class="hits">']
    ladders = marks.ladders or (0,) * len(layout.ladders)
    tracks = marks.tracks or (0,) * len(layout.tracks)
    for column, filled in zip(layout.ladders, ladders, strict=True):
        name = edition.critters[column.key].name
        hits += _column_hits(pen, column.bubbles, filled, f"ladder-{column.key}", f"{name} ladder", column.key, legal)
    for column, filled in zip(layout.tracks, tracks, strict=True):
        hits += _column_hits(pen, column.bubbles, filled, f"track-{column.key}", f"{column.key} track", column.key, legal)
    hits += _column_hits(pen, layout.petals, marks.rondel, "petal", "rondel petal", "rondel", legal)
    for number, space in enumerate(layout.caterpillar, start=1):
        done = number <= marks.caterpillars
        if done:
            _fill_mark(pen, space)
        gnome = ", gnome bonus" if number in layout.gnome_spaces else ""
        shape = f'<circle cx="{_n(space.cx_mm)}" cy="{_n(space.cy_mm)}" r="{_n(space.r_mm)}"'
        hits.append(
            _hit(
                shape, id=f"caterpillar-{number}", label=f"caterpillar space {number}, {'filled' if done else 'empty'}{gnome}", action=None
            )
        )
    for i, spot in enumerate(layout.gnome_lines):
        option = edition.gnome[i]
        words = _GNOME_WORDS.get(option.action, option.action).format(count=option.count)
        box = f'<rect x="{_n(spot.x_mm - 4)}" y="{_n(spot.y_mm - 3.6)}" width="{_n(75)}" height="4.6"'
        hits.append(_hit(box, id=f"gnome-{i + 1}", label=f"gnome bonus {i + 1}: {words}", action=None))
    hits.append("</g>")
    pen.raw("".join(hits))
    return _svg(FILL_VIEW_MM, pen.markup(), label=label, css_class="sheet fill-sheet")


def _fill_mark(pen: SvgPen, space: Circle) -> None:
    """A filled space: ink over the bubble, its icon still faintly visible, and a tick for grayscale screens."""
    pal = pen.palette
    pen.alpha = FILLED_ALPHA
    pen.fill(pal.butterfly)
    pen.stroke(pal.butterfly, 0.3)
    pen.circle(space.cx_mm, space.cy_mm, space.r_mm, fill=True)
    pen.alpha = 1.0
    pen.stroke(WHITE, max(0.35, space.r_mm * 0.16))
    r = space.r_mm
    pen.polygon(
        [
            (space.cx_mm - r * 0.45, space.cy_mm),
            (space.cx_mm - r * 0.1, space.cy_mm + r * 0.38),
            (space.cx_mm + r * 0.5, space.cy_mm - r * 0.4),
        ],
        close=False,
    )


def _column_hits(pen: SvgPen, bubbles: Sequence[Circle], filled: int, id_stem: str, words: str, key: str, legal: set[str]) -> list[str]:
    out = []
    for i, bubble in enumerate(bubbles):
        if i < filled:
            _fill_mark(pen, bubble)
        action = f"fill {key}" if i == filled and key in legal else None
        state = "filled" if i < filled else "next" if i == filled else "empty"
        shape = f'<circle cx="{_n(bubble.cx_mm)}" cy="{_n(bubble.cy_mm)}" r="{_n(max(bubble.r_mm, BUBBLE_HIT_MM if action else 0))}"'
        out.append(_hit(shape, id=f"{id_stem}-{i + 1}", label=f"{words} space {i + 1}, {state}", action=action, extra=" space"))
    return out


# --------------------------------------------------------------------------- cards, dice, tiles, QR

CARD_MM = (40.0, 56.0)
DIE_MM = 24.0
TILE_MM = 30.0


def card_svg(card: Card, *, number: int = 0, palette: Palette = COLOUR, action: str | None = None, label: str = "") -> str:
    """A garden card: its colour, its centre action drawn large, its corner bonus top-left."""
    if palette is COLOUR:
        return _card_cached(card, number, action, label)
    return _card(card, number, palette, action, label)


@lru_cache(maxsize=512)
def _card_cached(card: Card, number: int, action: str | None, label: str) -> str:
    return _card(card, number, COLOUR, action, label)


def _card(card: Card, number: int, palette: Palette, action: str | None, label: str) -> str:
    pen = SvgPen(palette)
    pal = palette
    w, h = CARD_MM
    band = pal.flowers.get(card.colour or "", pal.grass_ink)
    pen.fill(WHITE)
    pen.stroke(pal.border, 0.8)
    pen.rect(Rect(0.5, 0.5, w - 1, h - 1), radius_mm=3.0, fill=True)
    pen.fill(band)
    pen.stroke(band, 0.1)
    pen.rect(Rect(3, 3, w - 6, 9), radius_mm=1.5, fill=True)
    if number:
        pen.text_at(w - 6, 9.6, str(number), size_pt=16, align="right", bold=True, colour=WHITE)
    cx, cy = w / 2, 31.0
    if card.centre == "stamp" and card.colour:
        icons.flower(pen, cx, cy, 11.0, card.colour)
        printed = f"stamp {card.colour}"
    elif card.centre == "move":
        icons.butterfly(pen, cx, cy, 9.0)
        printed = "move a butterfly"
    else:
        icons.grass(pen, Rect(cx - 13, cy - 9, 14, 14))
        icons.butterfly(pen, cx + 7, cy, 6.5)
        printed = "fields & move"
    pen.text_at(cx, h - 5.5, printed, size_pt=9.5, align="centre", bold=True)
    _corner_icon(pen, card.corner, 7.5, 7.5, 4.5)
    return _picture(pen, (0, 0, w, h), label=label or f"card {number}: {printed}, corner: {words.corner_text(card)}", action=action)


def _corner_icon(pen: SvgPen, corner: str, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.fill(WHITE)
    pen.stroke(pal.ink, 0.35)
    pen.circle(cx, cy, r, fill=True)
    if corner == "feature":  # any feature tile, so no one feature's picture: a blank tile with a plus
        side = r * 0.6
        pen.rect(Rect(cx - side, cy - side, 2 * side, 2 * side), radius_mm=r * 0.12, stroke=True)
        pen.stroke(pal.ink, 0.5)
        pen.line(cx - side * 0.55, cy, cx + side * 0.55, cy)
        pen.line(cx, cy - side * 0.55, cx, cy + side * 0.55)
    elif corner == "brick":
        icons.brick(pen, Segment(cx - r * 0.6, cy, cx + r * 0.6, cy), thickness_mm=r * 0.5)
    else:
        pen.fill(pal.butterfly)
        pen.stroke(pal.ink, 0.2)
        pen.circle(cx, cy, r * 0.5, fill=True)


def die_svg(face: DieFace, *, number: int = 0, palette: Palette = COLOUR, label: str = "") -> str:
    """A caterpillar die: its caterpillars and its extra (a field, a space to fill, a bramble)."""
    if palette is COLOUR:
        return _die_cached(face, number, label)
    return _die(face, number, palette, label)


@lru_cache(maxsize=256)
def _die_cached(face: DieFace, number: int, label: str) -> str:
    return _die(face, number, COLOUR, label)


def _die(face: DieFace, number: int, palette: Palette, label: str) -> str:
    pen = SvgPen(palette)
    pal = palette
    size = DIE_MM
    pen.fill(WHITE)
    pen.stroke(pal.ink, 0.8)
    pen.rect(Rect(0.5, 0.5, size - 1, size - 1), radius_mm=4.0, fill=True)
    count = face.caterpillars
    top = size * (0.34 if face.extra else 0.5)
    for i in range(count):
        x = size / 2 + (i - (count - 1) / 2) * 7.0
        icons.caterpillar(pen, x, top, 3.6)
    if face.extra:
        y = size * 0.72
        if face.extra == "field":
            icons.grass(pen, Rect(size / 2 - 4.5, y - 4.5, 9, 9))
        elif face.extra == "fill":
            pen.fill(pal.butterfly)
            pen.stroke(pal.ink, 0.3)
            pen.circle(size / 2, y, 3.6, fill=True)
        else:
            icons.bramble(pen, Rect(size / 2 - 6, y - 6, 12, 12))
    if not count and not face.extra:
        pen.text_at(size / 2, size / 2 + 2, "–", size_pt=20, align="centre")
    return _picture(pen, (0, 0, size, size), label=label or f"die {number}: {words.die_text(face)}", action=None)


def tile_svg(feature: Feature, *, palette: Palette = COLOUR, action: str | None = None) -> str:
    """A feature tile of the display: its icon, name and type."""
    if palette is COLOUR:
        return _tile_cached(feature, action)
    return _tile(feature, palette, action)


@lru_cache(maxsize=256)
def _tile_cached(feature: Feature, action: str | None) -> str:
    return _tile(feature, COLOUR, action)


def _tile(feature: Feature, palette: Palette, action: str | None) -> str:
    pen = SvgPen(palette)
    pal = palette
    s = TILE_MM
    pen.fill(pal.grass)
    pen.stroke(pal.plot, 0.6)
    pen.rect(Rect(0.5, 0.5, s - 1, s - 1), radius_mm=2.5, fill=True)
    icons.occupant(pen, feature.code, s / 2, s * 0.42, s * 0.28)
    pen.text_at(s / 2, s - 3.2, feature.name, size_pt=7.5 if len(feature.name) < 14 else 6, align="centre", bold=True)
    pen.text_at(3, 5, feature.type, size_pt=8, bold=True, colour=pal.soft_ink)
    return _picture(pen, (0, 0, s, s), label=f"tile {feature.code}: {feature.name} (type {feature.type})", action=action)


def _picture(pen: SvgPen, view: tuple[float, float, float, float], *, label: str, action: str | None) -> str:
    role = f'role="button" tabindex="0" data-action="{escape(action)}" class="picture target"' if action else 'role="img" class="picture"'
    x, y, w, h = view
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}" {role} aria-label="{escape(label)}" '
        f'font-family="Quicksand, Nunito, system-ui, sans-serif">{pen.markup()}</svg>'
    )


def qr_svg(text: str, *, label: str = "QR code") -> str:
    """A QR code of ``text`` (the sheets' encoder), black on white with its quiet zone."""
    matrix = qr_matrix(text)
    quiet = 4
    n = len(matrix) + 2 * quiet
    pen = SvgPen(COLOUR)
    pen.fill(WHITE)
    pen.rect(Rect(0, 0, n, n), stroke=False, fill=True)
    pen.fill(Color(0, 0, 0))
    pen.cells(quiet, quiet, 1.0, matrix)
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n} {n}" role="img" aria-label="{escape(label)}" class="qr">'
    return f"{head}{pen.markup()}</svg>"


__all__ = ["FillMarks", "SvgPen", "card_svg", "die_svg", "fill_svg", "garden_svg", "qr_svg", "tile_svg"]
