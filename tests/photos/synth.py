"""Synthetic photos of filled garden sheets: the scanner's accuracy harness.

:func:`blank_sheet` rasterises the printed garden sheet (the real PDF from
:mod:`papillon.render.pdf` when it exists, else a stand-in drawn here from
:mod:`papillon.layout`), :func:`draw_garden` plays the player's hand on it
(stamped flowers with uneven ink and offsets, wobbly pencil bricks that
overshoot or fall short, filled butterfly bubbles, fields shaded green with
a critter's code written in, brambles crossed out with an X, as the key
printed on the sheet asks) and :func:`photograph` puts the page on a table: any rotation,
perspective, 1-12 megapixels, lighting gradient, shadow, blur, noise and
JPEG compression.  Every random choice comes from one seeded generator.

>>> photo = synthetic_photo(3, megapixels=(1.0, 1.0))
>>> photo.jpeg[:2] == b"\\xff\\xd8", 0.9e6 < photo.size[0] * photo.size[1] < 1.1e6
(True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from papillon.edition import COLOUR_NAMES
from papillon.garden import BRAMBLE, EMPTY, FIELD, Garden, flower
from papillon.grid import EDGES, PLOTS, Plot
from papillon.layout import PAPERS_MM, Circle, GardenLayout, Rect, frame_offset_mm, garden_layout, sheet_payload

Image = NDArray[Any]
FloatImage = NDArray[Any]

STAMP_INK_RGB: dict[str, tuple[float, float, float]] = {
    "red": (0.85, 0.2, 0.25),
    "blue": (0.2, 0.45, 0.85),
    "yellow": (0.97, 0.78, 0.1),
    "purple": (0.55, 0.3, 0.78),
}
"""Reflectance of each stamp pad's ink (0-1), before the per-stamp variation."""
PENCIL_RGB = (0.33, 0.33, 0.36)
"""Reflectance of graphite where the pencil lays down fully."""
STANDARD_FIELDS: tuple[Plot, ...] = (16, 8)
"""B4 and D2, the standard edition's starting fields."""
STAMP_R_MM = 5.6
"""Radius of a flower stamp (it fits the 6 mm colour key circles)."""
PEN_RGB: dict[str, tuple[float, float, float]] = {
    "blue": (0.15, 0.25, 0.7),
    "black": (0.12, 0.12, 0.15),
}
"""Reflectance of ballpoint ink where the pen lays down fully."""
BUBBLE_MARKS = ("fill", "tick", "cross", "scribble")
"""How a player may mark a butterfly bubble (the key says fill; people tick and cross too)."""


@dataclass(frozen=True)
class Style:
    """How the player marks the sheet, beyond what the key asks (the default is the key's own way).

    Everything here is off by default and draws no random number when off, so a seed's photo stays the same.
    """

    bubble: str = "fill"
    """One of :data:`BUBBLE_MARKS`."""
    bubble_pen: str = "pencil"
    """``pencil``, ``blue`` or ``black`` (ballpoint)."""
    brick_pen: str = "pencil"
    """``pencil``, ``blue`` or ``black`` (ballpoint)."""
    flowers: str = "stamp"
    """``stamp``, ``felt`` (the plot coloured with a felt pen) or ``hatch`` (pale coloured-pencil hatching)."""
    overflow_mm: float = 0.0
    """How far felt fills (flowers and fields) spill past the plot's box, on the sides the hand slips (mm)."""
    fields: str = "pencil"
    """``pencil`` (green coloured-pencil hatching) or ``felt`` (a green felt fill)."""
    over_bubble: bool = False
    """Felt fills run over the plot's butterfly bubble too."""
    ghosts: frozenset[int] = frozenset()
    """Edges (indices into EDGES) where a brick was drawn and rubbed out: a faint grey ghost, truly no brick."""


# --------------------------------------------------------------------------- the printed sheet


def _hex(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


class _Canvas:
    """Draws on an RGB page image in frame millimetres (y down), antialiased."""

    SHIFT = 4

    def __init__(self, image: Image, px_per_mm: float, offset_mm: tuple[float, float]) -> None:
        self.image = image
        self.s = px_per_mm
        self.ox, self.oy = offset_mm

    def pt(self, x: float, y: float) -> tuple[int, int]:
        f = 1 << self.SHIFT
        return round((x + self.ox) * self.s * f), round((y + self.oy) * self.s * f)

    def width(self, mm: float) -> int:
        return max(1, round(mm * self.s))

    def rect(self, box: Rect, colour: str, width_mm: float = 0.0) -> None:
        thickness = -1 if width_mm <= 0 else self.width(width_mm)
        cv2.rectangle(
            self.image, self.pt(box.x_mm, box.y_mm), self.pt(box.right_mm, box.bottom_mm), _hex(colour), thickness, cv2.LINE_AA, self.SHIFT
        )

    def circle(self, c: Circle, colour: str, width_mm: float = 0.0) -> None:
        thickness = -1 if width_mm <= 0 else self.width(width_mm)
        cv2.circle(
            self.image,
            self.pt(c.cx_mm, c.cy_mm),
            round(c.r_mm * self.s * (1 << self.SHIFT)),
            _hex(colour),
            thickness,
            cv2.LINE_AA,
            self.SHIFT,
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str, width_mm: float) -> None:
        cv2.line(self.image, self.pt(x1, y1), self.pt(x2, y2), _hex(colour), self.width(width_mm), cv2.LINE_AA, self.SHIFT)

    def text(self, x: float, y: float, value: str, height_mm: float, colour: str = "#2c3a2c", align: str = "left") -> None:
        scale = height_mm * self.s / 22.0
        thick = max(1, round(scale * 1.6))
        (w, _), _ = cv2.getTextSize(value, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        px, py = (x + self.ox) * self.s, (y + self.oy) * self.s
        if align == "centre":
            px -= w / 2
        elif align == "right":
            px -= w
        cv2.putText(self.image, value, (round(px), round(py)), cv2.FONT_HERSHEY_SIMPLEX, scale, _hex(colour), thick, cv2.LINE_AA)

    def cells(self, box: Rect, rows: NDArray[Any]) -> None:
        n = rows.shape[0]
        cell = box.w_mm / n
        for r in range(n):
            for c in range(n):
                if rows[r, c]:
                    x, y = box.x_mm + c * cell, box.y_mm + r * cell
                    cv2.rectangle(self.image, self.pt(x, y), self.pt(x + cell, y + cell), (0, 0, 0), -1, cv2.LINE_AA, self.SHIFT)


def _qr_modules(payload: str) -> NDArray[Any]:
    """The QR code's dark modules (without quiet zone), error correction M as the printed sheet has."""
    from reportlab.graphics.barcode import qrencoder

    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(payload)
    code.make()
    n = code.getModuleCount()
    return np.array([[bool(code.isDark(r, c)) for c in range(n)] for r in range(n)])


def _drawn_blank(layout: GardenLayout, payload: str, starting: tuple[Plot, ...], px_per_mm: float, paper: str) -> Image:
    """A stand-in for the printed sheet, drawn from the layout's coordinates."""
    page_w, page_h = PAPERS_MM[paper]
    image = np.full((round(page_h * px_per_mm), round(page_w * px_per_mm), 3), 255, np.uint8)
    pen = _Canvas(image, px_per_mm, frame_offset_mm(paper))
    for marker in layout.markers:
        bits = np.ones((6, 6), bool)
        bits[1:5, 1:5] = [[ch == "0" for ch in row] for row in marker.bits]
        pen.cells(marker.box, bits)
    pen.text(layout.title.x_mm, layout.title.y_mm, "Papillon Gardens", 7.0, align="centre")
    pen.text(layout.player_label.x_mm, layout.player_label.y_mm, "Player", 3.2)
    pen.line(layout.player_line.x1_mm, layout.player_line.y1_mm, layout.player_line.x2_mm, layout.player_line.y2_mm, "#6a7a6a", 0.25)
    pen.rect(layout.total_box, "#2c3a2c", 0.3)
    pen.text(layout.round_label.x_mm, layout.round_label.y_mm, "Round", 3.2)
    for c in layout.rounds:
        pen.circle(c, "#2c3a2c", 0.3)
    for i, spot in enumerate(layout.column_labels):
        pen.text(spot.x_mm, spot.y_mm, "ABCDE"[i], 3.4, align="centre")
    for i, spot in enumerate(layout.row_labels):
        pen.text(spot.x_mm, spot.y_mm, "12345"[i], 3.4, align="right")
    for slot in layout.edge_slots:
        pen.line(slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm, "#cfcfcf", 0.5)
    for plot, box in enumerate(layout.plots):
        if plot in starting:
            pen.rect(box, "#dcefc8")
            for fx, fy in ((0.2, 0.75), (0.45, 0.88), (0.72, 0.72), (0.18, 0.4), (0.55, 0.55)):
                x, y = box.x_mm + fx * box.w_mm, box.y_mm + fy * box.h_mm
                for dx, h in ((-0.8, 2.0), (0.0, 2.3), (0.8, 2.0)):
                    pen.line(x, y, x + dx, y - h, "#6fa14f", 0.3)
        pen.rect(box, "#6f9a5f", 0.35)
        pen.circle(layout.bubbles[plot], "#ffffff")
        pen.circle(layout.bubbles[plot], "#7c6fa8", 0.3)
    pen.text(layout.colour_key_label.x_mm, layout.colour_key_label.y_mm + 2.5, "Stamps", 2.8)
    for circle, spot, name in zip(layout.colour_key, layout.colour_key_names, COLOUR_NAMES, strict=True):
        pen.circle(circle, "#6a7a6a", 0.25)
        pen.text(spot.x_mm, spot.y_mm, name, 2.6)
    modules = _qr_modules(payload)
    pen.cells(layout.qr, modules)
    pen.text(layout.id_text.x_mm, layout.id_text.y_mm, f"layout {layout.id}", 2.2, align="right")
    pen.line(layout.ruler.x1_mm, layout.ruler.y1_mm, layout.ruler.x2_mm, layout.ruler.y2_mm, "#2c3a2c", 0.4)
    for dot in layout.registration:  # release 2's registration dots (release 1 has none)
        pen.circle(dot, "#000000")
    pen.text(layout.note.x_mm, layout.note.y_mm, "Print at 100 %: this bar is 50 mm.", 2.6)
    pen.text(layout.footer.x_mm, layout.footer.y_mm, "papillon", 2.2, align="centre")
    return image


def _pdf_blank(starting: tuple[Plot, ...], px_per_mm: float, paper: str) -> Image | None:
    """The real printed sheet (:func:`papillon.render.pdf.garden_pdf`) rasterised, or None without the renderer."""
    try:
        import pypdfium2

        from papillon.render.pdf import garden_pdf
    except ImportError:
        return None
    document = pypdfium2.PdfDocument(garden_pdf(paper=paper, starting_fields=starting))
    bitmap = document[0].render(scale=px_per_mm * 25.4 / 72)
    image = np.array(bitmap.to_pil().convert("RGB"), dtype=np.uint8)
    document.close()
    return image


@cache
def _blank_cached(starting: tuple[Plot, ...], px_per_mm: float, paper: str, rounds: int, use_pdf: bool) -> Image:
    layout = garden_layout(rounds)
    if use_pdf:
        image = _pdf_blank(starting, px_per_mm, paper)
        if image is not None:
            return image
    payload = sheet_payload(layout_id=layout.id, paper=paper, starting_fields=starting)
    return _drawn_blank(layout, payload, starting, px_per_mm, paper)


def blank_sheet(
    starting: tuple[Plot, ...] = STANDARD_FIELDS, *, px_per_mm: float = 6.0, paper: str = "a4", rounds: int = 10, use_pdf: bool = True
) -> Image:
    """The printed blank garden page as an RGB image (a copy you may draw on)."""
    return _blank_cached(tuple(starting), round(px_per_mm, 2), paper, rounds, use_pdf).copy()


# --------------------------------------------------------------------------- the player's hand


class _Hand:
    """Marks in ink and pencil on a page image, through a multiplicative ink layer."""

    def __init__(self, image: Image, px_per_mm: float, offset_mm: tuple[float, float], rng: random.Random) -> None:
        self.page = image.astype(np.float32) / 255.0
        self.s = px_per_mm
        self.ox, self.oy = offset_mm
        self.rng = rng
        self.pencil = np.zeros(image.shape[:2], np.float32)
        self.pencil_tone = rng.uniform(0.75, 1.0)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x + self.ox) * self.s, (y + self.oy) * self.s

    # -- pencil ------------------------------------------------------------------

    def stroke(self, points: list[tuple[float, float]], width_mm: float, pressure: float) -> None:
        f = 16
        pts = np.array([[round(a * f) for a in self.px(x, y)] for x, y in points], np.int32)
        # Drawn straight into the layer: where strokes cross, the later one's pressure wins.
        cv2.polylines(self.pencil, [pts], False, float(pressure), max(1, round(width_mm * self.s)), cv2.LINE_AA, 4)

    def wobbly_line(self, x1: float, y1: float, x2: float, y2: float, *, wobble_mm: float, width_mm: float, pressure: float) -> None:
        rng = self.rng
        length = math.hypot(x2 - x1, y2 - y1)
        n = max(4, int(length / 1.5))
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        phase, freq = rng.uniform(0, 6.3), rng.uniform(0.5, 1.6)
        points = []
        for i in range(n + 1):
            t = i / n
            w = wobble_mm * (math.sin(phase + freq * t * math.pi * 2) * 0.7 + rng.uniform(-0.3, 0.3))
            points.append((x1 + (x2 - x1) * t + nx * w, y1 + (y2 - y1) * t + ny * w))
        self.stroke(points, width_mm, pressure)

    def brick(self, x1: float, y1: float, x2: float, y2: float, pen: str = "pencil", pressure_scale: float = 1.0) -> None:
        rng = self.rng
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        start, end = rng.uniform(-2.0, 1.0), rng.uniform(-2.0, 1.0)  # overshoot (<0) or fall short
        tilt = rng.uniform(-0.6, 0.6)
        ax, ay = x1 - ux * start - uy * tilt / 2, y1 - uy * start + ux * tilt / 2
        bx, by = x2 + ux * end + uy * tilt / 2, y2 + uy * end - ux * tilt / 2
        pressure = rng.uniform(0.65, 1.0) * pressure_scale
        width = rng.uniform(0.35, 0.7)
        if pen != "pencil":
            self.pen_stroke([(ax, ay), (bx, by)], width * 0.7, pen, pressure)
            return
        self.wobbly_line(ax, ay, bx, by, wobble_mm=rng.uniform(0.1, 0.5), width_mm=width, pressure=pressure)
        if rng.random() < 0.3:  # a second pass
            self.wobbly_line(ax, ay, bx, by, wobble_mm=rng.uniform(0.1, 0.4), width_mm=width, pressure=pressure * 0.8)

    def fill_bubble(self, c: Circle) -> None:
        rng = self.rng
        r = c.r_mm * rng.uniform(0.8, 1.05)
        pressure = rng.uniform(0.7, 1.0)
        width = rng.uniform(0.5, 0.9)
        angle = rng.uniform(0, math.pi)
        step = width * rng.uniform(0.55, 0.85)
        points = []
        k = -r
        flip = False
        while k <= r:
            half = math.sqrt(max(r * r - k * k, 0.0))
            a, b = (-half, half) if not flip else (half, -half)
            for t in (a, b):
                x = c.cx_mm + math.cos(angle) * t - math.sin(angle) * k + rng.uniform(-0.15, 0.15)
                y = c.cy_mm + math.sin(angle) * t + math.cos(angle) * k + rng.uniform(-0.15, 0.15)
                points.append((x, y))
            flip = not flip
            k += step
        self.stroke(points, width, pressure)

    def shade(self, box: Rect, avoid: Circle) -> None:
        """A field: the plot shaded green (coloured pencil), clear of the butterfly bubble."""
        rng = self.rng
        ink = np.array([rng.uniform(0.3, 0.5), rng.uniform(0.62, 0.78), rng.uniform(0.25, 0.45)], np.float32)
        layer = np.zeros(self.page.shape[:2], np.float32)
        f = 16
        angle = rng.uniform(0.5, 1.1) * (1 if rng.random() < 0.5 else -1)
        step = rng.uniform(0.8, 1.6)
        width = max(1, round(rng.uniform(0.6, 1.0) * self.s))
        inset = rng.uniform(0.8, 2.0)
        cx, cy = box.centre_mm
        half = box.w_mm / 2 - inset
        k = -half * 1.5
        while k <= half * 1.5:
            ends = []
            for t in (-half * 1.5, half * 1.5):
                x = cx + math.cos(angle) * t - math.sin(angle) * k
                y = cy + math.sin(angle) * t + math.cos(angle) * k
                ends.append([round(a * f) for a in self.px(x, y)])
            cv2.line(layer, tuple(ends[0]), tuple(ends[1]), float(rng.uniform(0.5, 0.9)), width, cv2.LINE_AA, 4)
            k += step
        # Keep inside the plot (roughly: a hand stays a little inside) and off the bubble.
        mask = np.zeros_like(layer)
        x0, y0 = self.px(box.x_mm + inset, box.y_mm + inset)
        x1, y1 = self.px(box.right_mm - inset, box.bottom_mm - inset)
        cv2.rectangle(mask, (round(x0), round(y0)), (round(x1), round(y1)), 1.0, -1)
        bx, by = self.px(avoid.cx_mm, avoid.cy_mm)
        cv2.circle(mask, (round(bx), round(by)), round((avoid.r_mm + rng.uniform(0.5, 1.5)) * self.s), 0.0, -1)
        alpha = (layer * mask)[..., None]
        self.page *= 1.0 - alpha * (1.0 - ink)
        if rng.random() < 0.6:  # the critter or feature's code, written in pencil
            code = rng.choice(["lb", "bb", "hh", "po", "sh", "bf", "tr", "gz"])
            scale = 6.0 * self.s / 22.0
            x, y = self.px(box.x_mm + rng.uniform(4, 9), box.bottom_mm - rng.uniform(5, 9))
            text = np.zeros(self.pencil.shape, np.uint8)
            cv2.putText(
                text, code, (round(x), round(y)), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 255, max(1, round(0.5 * self.s)), cv2.LINE_AA
            )
            np.maximum(self.pencil, text.astype(np.float32) * np.float32(rng.uniform(0.7, 1.0) / 255), out=self.pencil)

    def cross(self, box: Rect) -> None:
        """A bramble: an X from corner to corner (it may run through the bubble)."""
        rng = self.rng
        pressure = rng.uniform(0.7, 1.0)
        width = rng.uniform(0.4, 0.7)

        def corner(x: float, y: float) -> tuple[float, float]:
            return x + rng.uniform(-1.0, 1.0), y + rng.uniform(-1.0, 1.0)

        inset = rng.uniform(2.0, 4.0)
        a = corner(box.x_mm + inset, box.y_mm + inset)
        b = corner(box.right_mm - inset, box.bottom_mm - inset)
        c = corner(box.right_mm - inset, box.y_mm + inset)
        d = corner(box.x_mm + inset, box.bottom_mm - inset)
        self.wobbly_line(*a, *b, wobble_mm=rng.uniform(0.2, 0.6), width_mm=width, pressure=pressure)
        self.wobbly_line(*c, *d, wobble_mm=rng.uniform(0.2, 0.6), width_mm=width, pressure=pressure)

    # -- other marks (see Style) ---------------------------------------------------

    def pen_stroke(self, points: list[tuple[float, float]], width_mm: float, pen: str, pressure: float) -> None:
        """A stroke in pencil (the pencil layer) or ballpoint ink (multiplied into the page)."""
        if pen == "pencil":
            self.stroke(points, width_mm, pressure)
            return
        layer = np.zeros(self.page.shape[:2], np.float32)
        pts = np.array([[round(a * 16) for a in self.px(x, y)] for x, y in points], np.int32)
        cv2.polylines(layer, [pts], False, float(pressure), max(1, round(width_mm * self.s)), cv2.LINE_AA, 4)
        ink = np.array(PEN_RGB[pen], np.float32)
        self.page *= 1.0 - layer[..., None] * (1.0 - ink)

    def mark_bubble(self, c: Circle, how: str, pen: str) -> None:
        """A bubble ticked, crossed or scribbled (a fill in pencil goes through :meth:`fill_bubble`)."""
        rng = self.rng
        r = c.r_mm
        width = rng.uniform(0.3, 0.6) if pen != "pencil" else rng.uniform(0.4, 0.7)
        pressure = rng.uniform(0.75, 1.0)

        def at(u: float, v: float) -> tuple[float, float]:
            return c.cx_mm + u * r + rng.uniform(-0.15, 0.15), c.cy_mm + v * r + rng.uniform(-0.15, 0.15)

        if how == "tick":
            self.pen_stroke([at(-0.6, 0.0), at(-0.1, 0.6), at(0.8, -0.9)], width, pen, pressure)
        elif how == "cross":
            self.pen_stroke([at(-0.7, -0.7), at(0.7, 0.7)], width, pen, pressure)
            self.pen_stroke([at(0.7, -0.7), at(-0.7, 0.7)], width, pen, pressure)
        elif how == "scribble":
            points = [at(rng.uniform(-0.8, 0.8), -0.8 + 1.6 * i / 7) for i in range(8)]
            self.pen_stroke(points, width, pen, pressure)
        else:  # a fill in ballpoint: dense strokes
            k = -0.85
            points = []
            while k <= 0.85:
                half = math.sqrt(max(1 - k * k, 0.0)) * 0.9
                points += [at(-half, k), at(half, k)]
                k += width / r * 0.8
            self.pen_stroke(points, width, pen, pressure)

    def felt(self, box: Rect, rgb: tuple[float, float, float], overflow_mm: float, avoid: Circle | None) -> None:
        """The plot coloured in with a felt pen, spilling up to ``overflow_mm`` past the box on some sides."""
        rng = self.rng
        grow = [overflow_mm * rng.uniform(0.3, 1.0) if rng.random() < 0.6 else -rng.uniform(0.5, 1.5) for _ in range(4)]
        x0, y0 = self.px(box.x_mm - grow[0], box.y_mm - grow[1])
        x1, y1 = self.px(box.right_mm + grow[2], box.bottom_mm + grow[3])
        mask = np.zeros(self.page.shape[:2], np.float32)
        cv2.rectangle(mask, (round(x0), round(y0)), (round(x1), round(y1)), 1.0, -1)
        if avoid is not None:
            bx, by = self.px(avoid.cx_mm, avoid.cy_mm)
            cv2.circle(mask, (round(bx), round(by)), round((avoid.r_mm + rng.uniform(0.3, 1.0)) * self.s), 0.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 0.3 * self.s) * np.float32(rng.uniform(0.8, 0.95))
        ink = np.clip(np.array(rgb, np.float32) * np.float32(rng.uniform(0.85, 1.0)), 0.0, 1.0)
        self.page *= 1.0 - mask[..., None] * (1.0 - ink)

    def hatch(self, box: Rect, rgb: tuple[float, float, float]) -> None:
        """A flower in pale coloured pencil: loose hatching over 40-70 % of the box."""
        rng = self.rng
        layer = np.zeros(self.page.shape[:2], np.float32)
        cover = rng.uniform(0.4, 0.7)
        side = box.w_mm * math.sqrt(cover)
        cx, cy = box.centre_mm
        cx += rng.uniform(-1, 1) * (box.w_mm - side) / 2
        cy += rng.uniform(-1, 1) * (box.h_mm - side) / 2
        angle = rng.uniform(0, math.pi)
        step = rng.uniform(0.9, 1.5)
        k = -side / 2
        while k <= side / 2:
            ends = []
            for t in (-side / 2, side / 2):
                x = cx + math.cos(angle) * t - math.sin(angle) * k
                y = cy + math.sin(angle) * t + math.cos(angle) * k
                x = min(max(x, box.x_mm + 1.5), box.right_mm - 1.5)
                y = min(max(y, box.y_mm + 1.5), box.bottom_mm - 1.5)
                ends.append([round(a * 16) for a in self.px(x, y)])
            cv2.line(layer, tuple(ends[0]), tuple(ends[1]), float(rng.uniform(0.35, 0.6)), max(1, round(0.6 * self.s)), cv2.LINE_AA, 4)
            k += step
        ink = np.array(rgb, np.float32)
        self.page *= 1.0 - layer[..., None] * (1.0 - ink)

    # -- stamps ------------------------------------------------------------------

    def stamp(self, cx: float, cy: float, colour: str, *, offset_mm: float = 2.0) -> None:
        rng = self.rng
        cx += rng.uniform(-offset_mm, offset_mm)
        cy += rng.uniform(-offset_mm, offset_mm)
        r = STAMP_R_MM * rng.uniform(0.95, 1.05)
        size = int(2 * (r + 1) * self.s) + 2
        mask = np.zeros((size, size), np.float32)
        c = size / 2
        petal = r * 0.42
        turn = rng.uniform(0, 2 * math.pi)
        f = 16
        for i in range(5):
            a = turn + i * 2 * math.pi / 5
            px, py = c + (r - petal) * math.cos(a) * self.s, c + (r - petal) * math.sin(a) * self.s
            cv2.circle(mask, (round(px * f), round(py * f)), round(petal * self.s * f), 1.0, -1, cv2.LINE_AA, 4)
        cv2.circle(mask, (round(c * f), round(c * f)), round(r * 0.42 * self.s * f), 0.35, -1, cv2.LINE_AA, 4)
        # Uneven ink: a smooth density field with a few dry patches.
        coarse = np.array([[rng.uniform(0.55, 1.0) for _ in range(5)] for _ in range(5)], np.float32)
        density = cv2.resize(coarse, (size, size), interpolation=cv2.INTER_CUBIC)
        grain = np.random.default_rng(rng.getrandbits(32)).uniform(0.75, 1.0, (size, size)).astype(np.float32)
        alpha = np.clip(mask * density * grain, 0.0, 1.0) * rng.uniform(0.8, 1.0)
        ink = np.array(STAMP_INK_RGB[colour], np.float32) * np.float32(rng.uniform(0.9, 1.08))
        ink = np.clip(ink + np.array([rng.uniform(-0.04, 0.04) for _ in range(3)], np.float32), 0.0, 1.0)
        left, top = round((cx + self.ox) * self.s - c), round((cy + self.oy) * self.s - c)
        region = self.page[top : top + size, left : left + size]
        a = alpha[: region.shape[0], : region.shape[1], None]
        region *= 1.0 - a * (1.0 - ink)

    def finish(self) -> Image:
        tone = np.array(PENCIL_RGB, np.float32) ** self.pencil_tone
        alpha = np.clip(self.pencil, 0.0, 1.0)[..., None]
        page = self.page * (1.0 - alpha * (1.0 - tone))
        return np.clip(page * 255.0 + 0.5, 0, 255).astype(np.uint8)


def draw_garden(
    image: Image,
    garden: Garden,
    rng: random.Random,
    *,
    px_per_mm: float,
    paper: str = "a4",
    layout: GardenLayout | None = None,
    starting: tuple[Plot, ...] = (),
    stamp_key: bool = True,
    style: Style | None = None,
) -> Image:
    """The page ``image`` with ``garden`` drawn in by hand (a new image), the key's way unless ``style`` says otherwise."""
    style = style or Style()
    layout = layout or garden_layout()
    hand = _Hand(image, px_per_mm, frame_offset_mm(paper), rng)
    if stamp_key:
        for circle, colour in zip(layout.colour_key, COLOUR_NAMES, strict=True):
            hand.stamp(circle.cx_mm, circle.cy_mm, colour, offset_mm=0.6)
    for plot in PLOTS:
        cell, box, bubble = garden.cells[plot], layout.plots[plot], layout.bubbles[plot]
        cx, cy = box.centre_mm
        avoid = None if style.over_bubble else bubble
        if cell.is_flower and cell.colour and style.flowers == "felt":
            hand.felt(box, STAMP_INK_RGB[cell.colour], style.overflow_mm, avoid)
        elif cell.is_flower and cell.colour and style.flowers == "hatch":
            hand.hatch(box, STAMP_INK_RGB[cell.colour])
        elif cell.is_flower and cell.colour:
            hand.stamp(cx - 1.5, cy + 1.5, cell.colour)
        elif cell.is_field and plot not in starting and style.fields == "felt":
            hand.felt(box, (0.35, 0.7, 0.3), style.overflow_mm, avoid)
        elif cell.is_field and plot not in starting:
            hand.shade(box, bubble)
        elif cell == BRAMBLE:
            hand.cross(box)
        if plot in garden.butterflies:
            if style.bubble == "fill" and style.bubble_pen == "pencil":
                hand.fill_bubble(bubble)
            else:
                hand.mark_bubble(bubble, style.bubble, style.bubble_pen)
    for edge in garden.bricks:
        slot = layout.edge_slot(edge)
        hand.brick(slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm, style.brick_pen)
    for index in sorted(style.ghosts):
        if EDGES[index] not in garden.bricks:
            slot = layout.edge_slots[index]
            hand.brick(slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm, pressure_scale=0.22)
    return hand.finish()


def random_garden(rng: random.Random, starting: tuple[Plot, ...] = STANDARD_FIELDS) -> Garden:
    """A random filled garden on a sheet with these starting fields (they stay fields)."""
    fill = rng.uniform(0.3, 0.95)
    cells = []
    for plot in PLOTS:
        if plot in starting:
            cells.append(BRAMBLE if rng.random() < 0.1 else FIELD)
        elif rng.random() > fill:
            cells.append(EMPTY)
        else:
            cells.append(rng.choice([flower(c) for c in COLOUR_NAMES] * 4 + [FIELD, BRAMBLE]))
    bricks = frozenset(e for e in EDGES if rng.random() < rng.choice((0.1, 0.25, 0.4)))
    butterflies = frozenset(p for p in PLOTS if rng.random() < rng.uniform(0.1, 0.5))
    return Garden(tuple(cells), bricks, butterflies)


def mixed_conditions(seed: int) -> tuple[Style, dict[str, Any]]:
    """A way of marking and a camera condition drawn for ``seed`` (from their own generator: the garden and the
    photo of ``seed`` stay those of :func:`synthetic_photo`): the phenomena of issue 8 mixed, each on part of the
    photos, for measuring the scanner beyond the key's own way of marking."""
    rng = random.Random(seed * 7919 + 1)
    style = Style(
        bubble=rng.choice(BUBBLE_MARKS),
        bubble_pen=rng.choice(("pencil", "pencil", "blue", "black")),
        brick_pen=rng.choice(("pencil", "pencil", "pencil", "blue", "black")),
        flowers=rng.choice(("stamp", "stamp", "felt", "hatch")),
        fields=rng.choice(("pencil", "felt")),
        overflow_mm=rng.choice((0.0, 0.0, 1.0, 2.0, 4.0)),
        over_bubble=rng.random() < 0.15,
        ghosts=frozenset(e for e in range(len(EDGES)) if rng.random() < 0.04),
    )
    camera: dict[str, Any] = {}
    if rng.random() < 0.2:
        camera["glare"] = (rng.uniform(0.2, 0.8), rng.uniform(0.3, 0.8), rng.uniform(0.04, 0.1), rng.uniform(0.3, 0.8))
    return style, camera


# --------------------------------------------------------------------------- the camera


@dataclass(frozen=True)
class SyntheticPhoto:
    """A generated photo and what is on it."""

    jpeg: bytes
    garden: Garden
    starting: tuple[Plot, ...]
    seed: int
    size: tuple[int, int]
    """Width and height in pixels."""


def photograph(
    page: Image,
    rng: random.Random,
    *,
    megapixels: float,
    blur_px: float | None = None,
    dark: float | None = None,
    crop_corner: int | None = None,
    jpeg_quality: int | None = None,
    glare: tuple[float, float, float, float] | None = None,
    saturation: float | None = None,
) -> tuple[bytes, tuple[int, int]]:
    """The page photographed on a table: perspective, rotation, light, shadow, blur, noise, JPEG.

    ``glare`` = (x, y, radius, strength): a bright spot centred at page fraction (x, y), its radius a fraction
    of the page's width, washing the page toward white by ``strength`` (0-1) at its centre (clipped above ~0.6).
    ``saturation`` scales the photo's colour (0: greyscale).
    """
    # Any angle, though most people hold the camera roughly square to the sheet.
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.4 else rng.randrange(4) * math.pi / 2 + rng.uniform(-0.3, 0.3)
    # ...and turn the camera to the sheet's way (portrait sheet, portrait photo), mostly.
    upright = abs(math.cos(angle)) >= abs(math.sin(angle))
    landscape = (not upright) if rng.random() < 0.85 else upright
    aspect = rng.choice((4 / 3, 3 / 2, 16 / 9))
    long_side = math.sqrt(megapixels * 1e6 * aspect)
    w, h = round(long_side), round(long_side / aspect)
    if not landscape:
        w, h = h, w
    nprng = np.random.default_rng(rng.getrandbits(32))
    # The table: a smooth colour with some texture.
    base = np.array([rng.uniform(40, 200) for _ in range(3)], np.float32)
    tex = cv2.resize(nprng.normal(0, 18, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    photo = np.clip(base[None, None, :] + tex[..., None], 0, 255).astype(np.float32)
    # Where the page lands: rotated by any angle, tilted, filling 55-92 % of the frame.
    ph, pw = page.shape[:2]
    corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32) - np.array([pw / 2, ph / 2], np.float32)
    jitter = np.array([[rng.uniform(-0.07, 0.07) * pw, rng.uniform(-0.07, 0.07) * ph] for _ in range(4)], np.float32)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    placed = (corners + jitter) @ rot.T
    span = placed.max(axis=0) - placed.min(axis=0)
    fill = rng.uniform(0.75, 0.95)
    scale = min(w * fill / span[0], h * fill / span[1])
    placed = placed * scale
    free = np.array([w, h], np.float32) - (placed.max(axis=0) - placed.min(axis=0))
    shift = -placed.min(axis=0) + np.array([rng.uniform(0.1, 0.9) * free[0], rng.uniform(0.1, 0.9) * free[1]], np.float32)
    if crop_corner is not None:  # push one frame corner (marker id order) out of the picture
        far = placed[crop_corner] + shift
        centre = np.array([w / 2, h / 2], np.float32)
        direction = (far - centre) / np.linalg.norm(far - centre)
        shift = shift + direction * 40.0 * pw / 210.0 * scale
    placed = placed + shift
    matrix = cv2.getPerspectiveTransform(np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32), placed.astype(np.float32))
    sheet = cv2.warpPerspective(page, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    inside = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), matrix, (w, h), flags=cv2.INTER_LINEAR)
    a = inside.astype(np.float32)[..., None] / 255.0
    photo = photo * (1 - a) + sheet.astype(np.float32) * a
    # Light: a gradient across the frame, a colour cast, a soft shadow (made small, since light varies slowly).
    f = 8
    sw, sh = max(2, w // f), max(2, h // f)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    ga = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(ga) + yy * math.sin(ga)) / max(sw, sh)
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    low = rng.uniform(0.6, 0.95) if dark is None else dark
    light = (low + (1.0 - low) * ramp) * rng.uniform(0.85, 1.0) if dark is None else np.full_like(ramp, dark)
    if rng.random() < 0.7:
        shadow: NDArray[Any] = np.zeros((sh, sw), np.float32)
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
        poly = np.array([[cx + rng.uniform(-0.6, 0.6) * sw, cy + rng.uniform(-0.6, 0.6) * sh] for _ in range(5)], np.int32)
        cv2.fillPoly(shadow, [poly], 1.0)
        soft = max(0.5, min(sw, sh) * rng.uniform(0.01, 0.05))
        shadow = cv2.GaussianBlur(shadow, (0, 0), soft)
        light = light * (1.0 - shadow * rng.uniform(0.15, 0.4))
    cast = np.array([rng.uniform(0.88, 1.0), rng.uniform(0.92, 1.0), rng.uniform(0.8, 1.0)], np.float32)
    photo *= cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)[..., None] * cast[None, None, :]
    if glare is not None:
        gx, gy, radius, strength = glare
        centre = cv2.perspectiveTransform(np.array([[[gx * pw, gy * ph]]], np.float32), matrix).reshape(2)
        yy_f, xx_f = np.mgrid[0:h, 0:w].astype(np.float32)
        r_px = radius * pw * scale
        spot = np.exp(-((xx_f - centre[0]) ** 2 + (yy_f - centre[1]) ** 2) / (2 * r_px * r_px)) * np.float32(strength)
        photo = photo + (300.0 - photo) * spot[..., None]
    sigma = rng.uniform(0.0, 1.1) if blur_px is None else blur_px
    if sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    photo += nprng.standard_normal(photo.shape, dtype=np.float32) * np.float32(rng.uniform(1.5, 5.0))
    out = np.clip(photo + 0.5, 0, 255).astype(np.uint8)
    if saturation is not None:
        grey = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB).astype(np.float32)
        out = np.clip(grey + (out.astype(np.float32) - grey) * saturation + 0.5, 0, 255).astype(np.uint8)
    quality = rng.randint(60, 92) if jpeg_quality is None else jpeg_quality
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes(), (w, h)


def synthetic_photo(
    seed: int,
    *,
    megapixels: tuple[float, float] = (1.0, 3.0),
    garden: Garden | None = None,
    use_pdf: bool = True,
    paper: str = "a4",
    style: Style | None = None,
    **camera: Any,
) -> SyntheticPhoto:
    """A photo of a random filled garden (``seed`` decides everything), marked the key's way unless ``style`` says otherwise."""
    rng = random.Random(seed)
    starting = STANDARD_FIELDS if rng.random() < 0.6 else tuple(sorted(rng.sample(PLOTS, rng.randint(1, 4))))
    garden = garden or random_garden(rng, starting)
    mp = rng.uniform(*megapixels)
    px_per_mm = min(10.0, max(4.0, math.sqrt(mp * 1e6) / 297 * 1.4))
    page = blank_sheet(starting, px_per_mm=px_per_mm, paper=paper, use_pdf=use_pdf)
    drawn = draw_garden(page, garden, rng, px_per_mm=px_per_mm, paper=paper, starting=starting, style=style)
    jpeg, size = photograph(drawn, rng, megapixels=mp, **camera)
    return SyntheticPhoto(jpeg, garden, starting, seed, size)


# --------------------------------------------------------------------------- scoring the scanner


def truth(garden: Garden) -> list[str]:
    """What a perfect reading of ``garden`` says, item by item (plots, edges, bubbles, as the classifier orders them)."""
    values = []
    for cell in garden.cells:
        if cell.is_flower:
            values.append(cell.colour or "")
        elif cell.is_field:
            values.append("field")
        else:
            values.append(cell.ground.value)
    values += ["brick" if edge in garden.bricks else "none" for edge in EDGES]
    values += ["filled" if plot in garden.butterflies else "empty" for plot in PLOTS]
    return values


@dataclass(frozen=True)
class Outcome:
    """How the scanner did on one synthetic photo."""

    seed: int
    megapixels: float
    seconds: float
    failure: str | None
    """The ScanError message, if the photo was refused."""
    items: int
    wrong: tuple[str, ...]
    """Items read wrong, each as 'item: read X (p), truth Y'."""
    confident_wrong: tuple[str, ...]
    """Items read wrong with a confidence at or above the review threshold: the errors that must never happen."""
    flagged: int
    sheet_confidence: float
    scored: tuple[tuple[str, float, bool], ...] = ()
    """Every item read: (kind, confidence, whether it was right), for the calibration table."""


def evaluate(
    seed: int, *, megapixels: tuple[float, float] = (1.0, 3.0), style: Style | None = None, mixed: bool = False, **camera: Any
) -> Outcome:
    """Make the photo of ``seed`` (with :func:`mixed_conditions` if ``mixed``), read it, compare with the truth."""
    if mixed:
        style, extra = mixed_conditions(seed)
        camera = {**extra, **camera}
    import time

    from papillon.errors import ScanError
    from papillon.scan import read_photo

    photo = synthetic_photo(seed, megapixels=megapixels, style=style, **camera)
    mp = photo.size[0] * photo.size[1] / 1e6
    start = time.perf_counter()
    try:
        result = read_photo(photo.jpeg, accept_uncertain=True, name=f"seed {seed}")
    except ScanError as error:
        return Outcome(seed, mp, time.perf_counter() - start, str(error), 0, (), (), 0, 0.0)
    seconds = time.perf_counter() - start
    review = {r.item for r in result.review}
    wrong, confident, scored = [], [], []
    for reading, expected in zip(result.readings, truth(photo.garden), strict=True):
        scored.append((reading.kind, reading.confidence, reading.value == expected))
        if reading.value != expected:
            note = f"{reading.item}: read {reading.value} ({reading.confidence:.2f}), truth {expected}"
            wrong.append(note)
            if reading.item not in review:
                confident.append(note)
    return Outcome(
        seed, mp, seconds, None, len(result.readings), tuple(wrong), tuple(confident), len(review), result.confidence, tuple(scored)
    )
