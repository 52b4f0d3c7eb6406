"""A thin drawing layer over a reportlab canvas in layout coordinates, and the colour palettes.

A :class:`Pen` draws in *frame millimetres* with y downwards (the
convention of :mod:`papillon.layout`); the caller sets the canvas
transform so that the frame's top-left corner is the origin.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from papillon.layout import Circle, Rect, Segment, Text
from papillon.render.fonts import BOLD, REGULAR

MM_PT = float(mm)
"""Points per millimetre."""


@dataclass(frozen=True)
class Palette:
    """Every colour a sheet uses, so ``--mono`` is one swap."""

    name: str
    ink: Color
    soft_ink: Color
    plot: Color
    guide: Color
    """The edge slots: light enough that a pencil line stands out."""
    border: Color
    grass: Color
    grass_ink: Color
    bonus: Color
    bubble: Color
    flowers: Mapping[str, Color]
    flower_centre: Color
    brick: Color
    brick_joint: Color
    bramble: Color
    butterfly: Color
    critter: Mapping[str, Color]
    feature: Color
    enclosure: Color
    patch_line: Color
    water: Color
    wood: Color
    gnome_hat: Color


COLOUR = Palette(
    name="colour",
    ink=HexColor("#2c3a2c"),
    soft_ink=HexColor("#6a7a6a"),
    plot=HexColor("#6f9a5f"),
    guide=HexColor("#cfcfcf"),
    border=HexColor("#4c7a3c"),
    grass=HexColor("#dcefc8"),
    grass_ink=HexColor("#6fa14f"),
    bonus=HexColor("#fde7b0"),
    bubble=HexColor("#7c6fa8"),
    flowers={"red": HexColor("#d8434b"), "blue": HexColor("#3b7dd8"), "yellow": HexColor("#f1bd1f"), "purple": HexColor("#8c55c4")},
    flower_centre=HexColor("#fff6d6"),
    brick=HexColor("#b4543a"),
    brick_joint=HexColor("#f3d9cf"),
    bramble=HexColor("#6b4b2a"),
    butterfly=HexColor("#4b3f86"),
    critter={"red": HexColor("#d8434b"), "yellow": HexColor("#f1bd1f"), "brown": HexColor("#8a6440"), "black": HexColor("#222222")},
    feature=HexColor("#5b7a8c"),
    enclosure=HexColor("#7f97b2"),
    patch_line=HexColor("#222222"),
    water=HexColor("#7fb7e6"),
    wood=HexColor("#9a6b43"),
    gnome_hat=HexColor("#d8434b"),
)

MONO = Palette(
    name="mono",
    ink=HexColor("#1e1e1e"),
    soft_ink=HexColor("#666666"),
    plot=HexColor("#5a5a5a"),
    guide=HexColor("#cccccc"),
    border=HexColor("#3a3a3a"),
    grass=HexColor("#eeeeee"),
    grass_ink=HexColor("#8a8a8a"),
    bonus=HexColor("#e6e6e6"),
    bubble=HexColor("#555555"),
    # Four distinct greys, none near black (the letter on each flower carries its colour) and none near white.
    flowers={"red": HexColor("#8a8a8a"), "blue": HexColor("#a2a2a2"), "yellow": HexColor("#bababa"), "purple": HexColor("#727272")},
    flower_centre=HexColor("#ffffff"),
    brick=HexColor("#4a4a4a"),
    brick_joint=HexColor("#dddddd"),
    bramble=HexColor("#2e2e2e"),
    butterfly=HexColor("#333333"),
    critter={"red": HexColor("#9a9a9a"), "yellow": HexColor("#cccccc"), "brown": HexColor("#8a8a8a"), "black": HexColor("#222222")},
    feature=HexColor("#6a6a6a"),
    enclosure=HexColor("#d6d6d6"),
    patch_line=HexColor("#000000"),
    water=HexColor("#bbbbbb"),
    wood=HexColor("#7a7a7a"),
    gnome_hat=HexColor("#9a9a9a"),
)

WHITE = HexColor("#ffffff")


def dark_runs(rows: Sequence[Sequence[bool]]) -> Iterator[tuple[int, int, int]]:
    """Each horizontal run of dark cells as (row, first column, column after the last).

    >>> list(dark_runs([[True, True, False, True]]))
    [(0, 0, 2), (0, 3, 4)]
    """
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            yield r, start, c


class Pen:
    """Draws on ``canvas`` in frame millimetres, y down."""

    def __init__(self, canvas: Canvas, palette: Palette) -> None:
        self.canvas = canvas
        self.palette = palette

    # -- state ---------------------------------------------------------------

    def stroke(self, colour: Color, width_mm: float = 0.3, dash: Sequence[float] | None = None) -> None:
        c = self.canvas
        c.setStrokeColor(colour)
        c.setLineWidth(width_mm * MM_PT)
        c.setDash([d * MM_PT for d in dash] if dash else [])

    def fill(self, colour: Color) -> None:
        self.canvas.setFillColor(colour)

    # -- shapes ----------------------------------------------------------------

    def rect(self, box: Rect, *, radius_mm: float = 0.0, stroke: bool = True, fill: bool = False) -> None:
        x, y, w, h = box.x_mm * MM_PT, -box.bottom_mm * MM_PT, box.w_mm * MM_PT, box.h_mm * MM_PT
        if radius_mm:
            self.canvas.roundRect(x, y, w, h, radius_mm * MM_PT, stroke=int(stroke), fill=int(fill))
        else:
            self.canvas.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))

    def circle(self, cx_mm: float, cy_mm: float, r_mm: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.canvas.circle(cx_mm * MM_PT, -cy_mm * MM_PT, r_mm * MM_PT, stroke=int(stroke), fill=int(fill))

    def bubble(self, circle: Circle, *, stroke: bool = True, fill: bool = False) -> None:
        self.circle(circle.cx_mm, circle.cy_mm, circle.r_mm, stroke=stroke, fill=fill)

    def ellipse(self, cx_mm: float, cy_mm: float, rx_mm: float, ry_mm: float, *, stroke: bool = True, fill: bool = False) -> None:
        self.canvas.ellipse(
            (cx_mm - rx_mm) * MM_PT,
            -(cy_mm + ry_mm) * MM_PT,
            (cx_mm + rx_mm) * MM_PT,
            -(cy_mm - ry_mm) * MM_PT,
            stroke=int(stroke),
            fill=int(fill),
        )

    def line(self, x1_mm: float, y1_mm: float, x2_mm: float, y2_mm: float) -> None:
        self.canvas.line(x1_mm * MM_PT, -y1_mm * MM_PT, x2_mm * MM_PT, -y2_mm * MM_PT)

    def segment(self, seg: Segment) -> None:
        self.line(seg.x1_mm, seg.y1_mm, seg.x2_mm, seg.y2_mm)

    def polygon(self, points: Sequence[tuple[float, float]], *, stroke: bool = True, fill: bool = False, close: bool = True) -> None:
        path = self.canvas.beginPath()
        (x0, y0), *rest = points
        path.moveTo(x0 * MM_PT, -y0 * MM_PT)
        for x, y in rest:
            path.lineTo(x * MM_PT, -y * MM_PT)
        if close:
            path.close()
        self.canvas.drawPath(path, stroke=int(stroke), fill=int(fill))

    def rings(self, rings: Sequence[Sequence[tuple[float, float]]], *, stroke: bool = True, fill: bool = False) -> None:
        """Closed rings as one path (even-odd fill, so holes stay holes)."""
        path = self.canvas.beginPath()
        for ring in rings:
            (x0, y0), *rest = ring
            path.moveTo(x0 * MM_PT, -y0 * MM_PT)
            for x, y in rest:
                path.lineTo(x * MM_PT, -y * MM_PT)
            path.close()
        self.canvas.drawPath(path, stroke=int(stroke), fill=int(fill), fillMode=0)

    def curve(self, points: Sequence[tuple[float, float]], *, stroke: bool = True, fill: bool = False, close: bool = False) -> None:
        """A path through Bézier segments: a start point, then groups of three (two controls, an end)."""
        path = self.canvas.beginPath()
        (x0, y0), *rest = points
        path.moveTo(x0 * MM_PT, -y0 * MM_PT)
        for i in range(0, len(rest) - 2, 3):
            (ax, ay), (bx, by), (cx, cy) = rest[i : i + 3]
            path.curveTo(ax * MM_PT, -ay * MM_PT, bx * MM_PT, -by * MM_PT, cx * MM_PT, -cy * MM_PT)
        if close:
            path.close()
        self.canvas.drawPath(path, stroke=int(stroke), fill=int(fill))

    def cells(self, x_mm: float, y_mm: float, cell_mm: float, rows: Sequence[Sequence[bool]]) -> None:
        """Dark cells of a grid as horizontal runs in one path (QR codes, markers)."""
        path = self.canvas.beginPath()
        for r, start, end in dark_runs(rows):
            path.rect(
                (x_mm + start * cell_mm) * MM_PT, -(y_mm + (r + 1) * cell_mm) * MM_PT, (end - start) * cell_mm * MM_PT, cell_mm * MM_PT
            )
        self.canvas.drawPath(path, stroke=0, fill=1)

    # -- text --------------------------------------------------------------------

    def text(self, spot: Text, value: str, *, bold: bool = False, colour: Color | None = None, size_pt: float | None = None) -> None:
        self.text_at(spot.x_mm, spot.y_mm, value, size_pt=size_pt or spot.size_pt, align=spot.align, bold=bold, colour=colour)

    def text_at(
        self, x_mm: float, y_mm: float, value: str, *, size_pt: float, align: str = "left", bold: bool = False, colour: Color | None = None
    ) -> None:
        c = self.canvas
        c.setFont(BOLD if bold else REGULAR, size_pt)
        c.setFillColor(colour or self.palette.ink)
        x, y = x_mm * MM_PT, -y_mm * MM_PT
        if align == "centre":
            c.drawCentredString(x, y, value)
        elif align == "right":
            c.drawRightString(x, y, value)
        else:
            c.drawString(x, y, value)

    def text_width_mm(self, value: str, size_pt: float, *, bold: bool = False) -> float:
        return float(self.canvas.stringWidth(value, BOLD if bold else REGULAR, size_pt)) / MM_PT

    def label(self, cx_mm: float, cy_mm: float, value: str, *, size_pt: float, bold: bool = True, colour: Color | None = None) -> None:
        """Text centred on a point (vertically by the cap height)."""
        self.text_at(cx_mm, cy_mm + size_pt * 0.7 / MM_PT / 2, value, size_pt=size_pt, align="centre", bold=bold, colour=colour)


def rotate(points: Sequence[tuple[float, float]], cx: float, cy: float, angle: float) -> list[tuple[float, float]]:
    """Points turned by ``angle`` radians around (cx, cy) (clockwise on paper, since y is down)."""
    cos, sin = math.cos(angle), math.sin(angle)
    return [(cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos) for x, y in points]
