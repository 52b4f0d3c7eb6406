"""Small vector icons: flowers, critters, features, gnomes, caterpillars, butterflies, bricks, grass.

Each icon is drawn centred on a point and sized by a radius in millimetres.
Every flower carries its colour's letter, so a sheet stays readable in
grayscale and for colour-blind players.
"""

from __future__ import annotations

import math

from reportlab.lib.colors import Color, HexColor

from papillon.edition import COLOUR_NAMES
from papillon.layout import BRICK_MM, BRICK_OVERHANG_MM, PLOT_CORNER_MM, Rect, Segment, colour_letter
from papillon.render.pen import MM_PT, WHITE, Pen, rotate

_SKIN = {"colour": HexColor("#f5d3b5"), "mono": HexColor("#eeeeee")}
"""Gnome faces and hedgehog snouts."""


def flower(pen: Pen, cx: float, cy: float, r: float, colour: str, *, letter: bool = True) -> None:
    """A five-petal flower of ``colour`` with its letter in the heart."""
    pal = pen.palette
    pen.fill(pal.flowers[colour])
    pen.stroke(pal.ink, 0.18)
    petal = r * 0.42
    for i in range(5):
        a = -math.pi / 2 + i * 2 * math.pi / 5
        pen.circle(cx + (r - petal) * math.cos(a), cy + (r - petal) * math.sin(a), petal, stroke=True, fill=True)
    pen.fill(pal.flower_centre)
    pen.circle(cx, cy, r * 0.42, stroke=True, fill=True)
    if letter:
        pen.label(cx, cy, colour_letter(colour), size_pt=r * 0.55 * MM_PT * 1.15, colour=pal.ink)


def flower_any(pen: Pen, cx: float, cy: float, r: float) -> None:
    """A flower whose four petals show the four colours: "stamp a flower of any colour"."""
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    petal = r * 0.45
    for i, colour in enumerate(COLOUR_NAMES):
        a = -math.pi / 2 + i * math.pi / 2
        pen.fill(pal.flowers[colour])
        pen.circle(cx + (r - petal) * math.cos(a), cy + (r - petal) * math.sin(a), petal, stroke=True, fill=True)
    pen.fill(pal.flower_centre)
    pen.circle(cx, cy, r * 0.38, stroke=True, fill=True)
    pen.label(cx, cy, "*", size_pt=r * 0.7 * MM_PT, colour=pal.ink)


def caterpillar(pen: Pen, cx: float, cy: float, r: float) -> None:
    """Three body segments and a head with antennae."""
    pal = pen.palette
    seg = r * 0.34
    pen.stroke(pal.ink, 0.15)
    pen.fill(pal.grass_ink)
    for i in range(3):
        pen.circle(cx - r * 0.62 + i * seg * 1.2, cy + r * 0.12 - (i % 2) * seg * 0.25, seg, stroke=True, fill=True)
    hx, hy = cx + r * 0.5, cy - r * 0.12
    pen.circle(hx, hy, seg * 1.1, stroke=True, fill=True)
    pen.stroke(pal.ink, 0.15)
    pen.line(hx - seg * 0.3, hy - seg, hx - seg * 0.6, hy - seg * 2.0)
    pen.line(hx + seg * 0.4, hy - seg, hx + seg * 0.8, hy - seg * 1.9)
    pen.fill(pal.ink)
    pen.circle(hx + seg * 0.35, hy - seg * 0.1, seg * 0.2, stroke=False, fill=True)


def gnome(pen: Pen, cx: float, cy: float, r: float) -> None:
    """A garden gnome's face under a pointed hat."""
    pal = pen.palette
    pen.stroke(pal.ink, 0.15)
    pen.fill(WHITE)
    pen.polygon([(cx - r * 0.5, cy + r * 0.15), (cx + r * 0.5, cy + r * 0.15), (cx, cy + r * 0.95)], fill=True)  # beard
    pen.fill(_SKIN[pal.name])
    pen.circle(cx, cy + r * 0.05, r * 0.27, fill=True)
    pen.fill(pal.gnome_hat)
    pen.polygon([(cx - r * 0.55, cy - r * 0.22), (cx + r * 0.55, cy - r * 0.22), (cx + r * 0.12, cy - r * 0.98)], fill=True)


FAINT = {"colour": HexColor("#dcd6ee"), "mono": HexColor("#e2e2e2")}
"""The butterfly printed inside an empty bubble: light, so a filled bubble stands out."""


def butterfly(pen: Pen, cx: float, cy: float, r: float, *, filled: bool = True, faint: bool = False, colour: Color | None = None) -> None:
    """Two pairs of wings and a body."""
    pal = pen.palette
    ink = colour or (FAINT[pal.name] if faint else pal.butterfly)
    pen.stroke(ink, 0.15)
    pen.fill(ink)
    for side in (-1, 1):

        def x(f: float, side: int = side) -> float:
            return cx + side * f * r

        upper = [
            (cx, cy - 0.1 * r),
            (x(0.2), cy - 0.95 * r),
            (x(0.75), cy - 1.2 * r),
            (x(1.0), cy - 0.9 * r),
            (x(1.2), cy - 0.55 * r),
            (x(0.55), cy - 0.05 * r),
            (cx, cy),
        ]
        pen.curve(upper, stroke=True, fill=filled, close=True)
        lower = [
            (cx, cy),
            (x(0.7), cy),
            (x(0.95), cy + 0.45 * r),
            (x(0.7), cy + 0.8 * r),
            (x(0.45), cy + 1.05 * r),
            (x(0.1), cy + 0.6 * r),
            (cx, cy + 0.1 * r),
        ]
        pen.curve(lower, stroke=True, fill=filled, close=True)
    pen.stroke(ink if (faint or colour) else pal.ink, 0.25)
    pen.line(cx, cy - r * 0.5, cx, cy + r * 0.6)


def ladybug(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.critter["black"])
    pen.circle(cx, cy - r * 0.62, r * 0.32, fill=True)
    pen.fill(pal.critter["red"])
    pen.circle(cx, cy + r * 0.08, r * 0.72, fill=True)
    pen.line(cx, cy - r * 0.62, cx, cy + r * 0.8)
    pen.fill(pal.critter["black"])
    for dx, dy in ((-0.35, -0.1), (0.35, -0.1), (-0.3, 0.38), (0.3, 0.38)):
        pen.circle(cx + dx * r, cy + dy * r, r * 0.12, stroke=False, fill=True)


def bumblebee(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(WHITE)
    pen.ellipse(cx - r * 0.25, cy - r * 0.55, r * 0.32, r * 0.22, fill=True)
    pen.ellipse(cx + r * 0.25, cy - r * 0.55, r * 0.32, r * 0.22, fill=True)
    pen.fill(pal.critter["yellow"])
    pen.ellipse(cx, cy + r * 0.1, r * 0.85, r * 0.55, fill=True)
    pen.stroke(pal.critter["black"], r * 0.16)
    for dx in (-0.25, 0.15):
        pen.line(cx + dx * r, cy - r * 0.4, cx + dx * r, cy + r * 0.6)
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.critter["black"])
    pen.circle(cx + r * 0.78, cy + r * 0.05, r * 0.22, fill=True)


def hedgehog(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.critter["brown"])
    spikes = []
    n = 9
    for i in range(n + 1):
        a = math.pi + i * math.pi / n
        rr = r * (0.95 if i % 2 else 0.68)
        spikes.append((cx - r * 0.1 + rr * math.cos(a), cy + r * 0.35 + rr * math.sin(a) * 0.95))
    pen.polygon([*spikes, (cx + r * 0.55, cy + r * 0.35)], fill=True)
    pen.fill(_SKIN[pal.name])
    pen.polygon([(cx + r * 0.35, cy - r * 0.05), (cx + r * 0.95, cy + r * 0.3), (cx + r * 0.35, cy + r * 0.4)], fill=True)
    pen.fill(pal.critter["black"])
    pen.circle(cx + r * 0.95, cy + r * 0.3, r * 0.08, stroke=False, fill=True)
    pen.circle(cx + r * 0.55, cy + r * 0.12, r * 0.06, stroke=False, fill=True)


CRITTER_ICONS = {"lb": ladybug, "bb": bumblebee, "hh": hedgehog}


def _pond(pen: Pen, cx: float, cy: float, r: float) -> None:
    pen.fill(pen.palette.water)
    pen.stroke(pen.palette.ink, 0.18)
    pen.ellipse(cx, cy + r * 0.15, r * 0.9, r * 0.55, fill=True)
    pen.stroke(WHITE, 0.25)
    pen.line(cx - r * 0.4, cy + r * 0.05, cx - r * 0.05, cy + r * 0.05)
    pen.line(cx + r * 0.05, cy + r * 0.3, cx + r * 0.45, cy + r * 0.3)


def _house(pen: Pen, cx: float, cy: float, r: float, *, hole: bool = False) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.wood)
    pen.rect(Rect(cx - r * 0.55, cy - r * 0.1, r * 1.1, r * 0.9), stroke=True, fill=True)
    pen.fill(pal.brick)
    pen.polygon([(cx - r * 0.8, cy - r * 0.05), (cx, cy - r * 0.8), (cx + r * 0.8, cy - r * 0.05)], fill=True)
    pen.fill(pal.ink if hole else WHITE)
    if hole:
        pen.circle(cx, cy + r * 0.3, r * 0.18, stroke=False, fill=True)
    else:
        pen.rect(Rect(cx - r * 0.15, cy + r * 0.3, r * 0.3, r * 0.5), stroke=True, fill=True)


def _feeder(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.25)
    pen.line(cx, cy - r * 0.3, cx, cy + r * 0.9)
    pen.fill(pal.wood)
    pen.stroke(pal.ink, 0.18)
    pen.polygon([(cx - r * 0.75, cy - r * 0.25), (cx, cy - r * 0.8), (cx + r * 0.75, cy - r * 0.25)], fill=True)
    pen.rect(Rect(cx - r * 0.6, cy + r * 0.05, r * 1.2, r * 0.22), stroke=True, fill=True)
    pen.fill(pal.critter["yellow"])
    for dx in (-0.3, 0.0, 0.3):
        pen.circle(cx + dx * r, cy - r * 0.02, r * 0.08, stroke=False, fill=True)


def _tree(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.wood)
    pen.rect(Rect(cx - r * 0.12, cy + r * 0.1, r * 0.24, r * 0.8), stroke=True, fill=True)
    pen.fill(pal.grass_ink)
    for dx, dy, rr in ((-0.35, -0.1, 0.4), (0.35, -0.1, 0.4), (0.0, -0.45, 0.45)):
        pen.circle(cx + dx * r, cy + dy * r, rr * r, stroke=True, fill=True)


def _path(pen: Pen, cx: float, cy: float, r: float) -> None:
    pen.stroke(pen.palette.ink, 0.15)
    pen.fill(pen.palette.guide)
    for i, (dx, dy) in enumerate(((-0.5, 0.6), (-0.1, 0.2), (0.3, -0.2), (0.65, -0.6))):
        pen.ellipse(cx + dx * r, cy + dy * r, r * (0.3 - i * 0.03), r * 0.18, fill=True)


def _hammock(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.wood, 0.35)
    pen.line(cx - r * 0.8, cy - r * 0.6, cx - r * 0.8, cy + r * 0.8)
    pen.line(cx + r * 0.8, cy - r * 0.6, cx + r * 0.8, cy + r * 0.8)
    pen.stroke(pal.ink, 0.15)
    pen.fill(pal.flowers["blue"])
    pen.curve(
        [(cx - r * 0.8, cy - r * 0.3), (cx - r * 0.3, cy + r * 0.6), (cx + r * 0.3, cy + r * 0.6), (cx + r * 0.8, cy - r * 0.3)], fill=True
    )


def _gazebo(pen: Pen, cx: float, cy: float, r: float) -> None:
    pal = pen.palette
    pen.stroke(pal.ink, 0.18)
    pen.fill(WHITE)
    pen.rect(Rect(cx - r * 0.6, cy - r * 0.1, r * 1.2, r * 0.85), stroke=True, fill=True)
    pen.stroke(pal.ink, 0.3)
    for dx in (-0.6, 0.0, 0.6):
        pen.line(cx + dx * r, cy - r * 0.1, cx + dx * r, cy + r * 0.75)
    pen.stroke(pal.ink, 0.18)
    pen.fill(pal.flowers["purple"])
    pen.polygon([(cx - r * 0.9, cy - r * 0.05), (cx, cy - r * 0.85), (cx + r * 0.9, cy - r * 0.05)], fill=True)


FEATURE_ICONS = {
    "po": _pond,
    "sh": _house,
    "bf": _feeder,
    "bh": lambda pen, cx, cy, r: _house(pen, cx, cy, r, hole=True),
    "tr": _tree,
    "fp": _path,
    "ha": _hammock,
    "gz": _gazebo,
}


def occupant(pen: Pen, code: str, cx: float, cy: float, r: float) -> None:
    """A critter or feature icon; an edition's unknown code gets a badge with its letters."""
    draw = CRITTER_ICONS.get(code) or FEATURE_ICONS.get(code)
    if draw is not None:
        draw(pen, cx, cy, r)
        return
    pen.stroke(pen.palette.ink, 0.2)
    pen.fill(WHITE)
    pen.circle(cx, cy, r * 0.8, fill=True)
    pen.label(cx, cy, code, size_pt=r * 0.7 * MM_PT, colour=pen.palette.ink)


def track_icon(pen: Pen, name: str, cx: float, cy: float, r: float, *, colour: str | None = None) -> None:
    """An icon of the fill sheet (edition ``TRACK_ICONS``, or a critter code)."""
    if name == "stamp" and colour:
        flower(pen, cx, cy, r, colour)
    elif name in ("stamp", "stamp_any"):
        flower_any(pen, cx, cy, r)
    elif name == "caterpillar":
        caterpillar(pen, cx, cy, r)
    elif name == "gnome":
        gnome(pen, cx, cy, r)
    elif name:
        occupant(pen, name, cx, cy, r)


GRASS_SPOTS = ((0.2, 0.75), (0.45, 0.88), (0.72, 0.72), (0.18, 0.4), (0.55, 0.55), (0.82, 0.9))
"""Where an empty field's tufts grow (fractions of the plot box, the tuft's foot)."""
GRASS_SPOTS_OCCUPIED = ((0.1, 0.2), (0.38, 0.16), (0.9, 0.62), (0.9, 0.8))
"""Where tufts grow around a critter or feature: above its icon and down the right side, clear of the icon and its
caption along the bottom (and of the bubble at the top right)."""


def grass_tufts(box: Rect, *, seed: int = 0, occupied: bool = False) -> list[tuple[float, float, float, float]]:
    """The tufts of a field: foot x, foot y, height and half-spread (mm)."""
    spots = GRASS_SPOTS_OCCUPIED if occupied else GRASS_SPOTS[seed % 2 :][:5]
    tufts = []
    for i, (fx, fy) in enumerate(spots):
        tufts.append((box.x_mm + fx * box.w_mm, box.y_mm + fy * box.h_mm, box.h_mm * (0.072 + (i % 3) * 0.016), box.w_mm * 0.032))
    return tufts


def grass(pen: Pen, box: Rect, *, seed: int = 0, occupied: bool = False) -> None:
    """A field: a grass-green plot with a few tufts (kept clear of a critter or feature and its caption)."""
    pal = pen.palette
    pen.fill(pal.grass)
    pen.stroke(pal.plot, 0.35)
    pen.rect(box, radius_mm=PLOT_CORNER_MM, stroke=True, fill=True)
    pen.stroke(pal.grass_ink, 0.3)
    for x, y, h, spread in grass_tufts(box, seed=seed, occupied=occupied):
        pen.line(x, y, x - spread, y - h)
        pen.line(x, y, x, y - h * 1.15)
        pen.line(x, y, x + spread, y - h)


def bramble(pen: Pen, box: Rect) -> None:
    """A bramble: a thorny tangle filling the plot."""
    pal = pen.palette
    cx, cy = box.centre_mm
    cx, cy = cx - box.w_mm * 0.05, cy + box.h_mm * 0.06  # clear of the butterfly bubble
    r = box.w_mm * 0.32
    pen.stroke(pal.bramble, 0.6)
    for k in range(3):
        a = k * math.pi / 3
        pts = rotate([(cx - r, cy), (cx - r * 0.3, cy - r * 0.5), (cx + r * 0.3, cy + r * 0.5), (cx + r, cy)], cx, cy, a)
        pen.curve(pts)
        for t in (0.3, 0.7):
            x = cx - r + 2 * r * t
            tx, ty = rotate([(x, cy - r * 0.025)], cx, cy, a)[0]
            ex, ey = rotate([(x + r * 0.125, cy - r * 0.2)], cx, cy, a)[0]
            pen.line(tx, ty, ex, ey)


def brick(pen: Pen, slot: Segment, *, thickness_mm: float = BRICK_MM) -> None:
    """A brick edging along an edge slot: a row of bricks."""
    pal = pen.palette
    length = slot.length_mm
    ux, uy = (slot.x2_mm - slot.x1_mm) / length, (slot.y2_mm - slot.y1_mm) / length
    nx, ny = -uy * thickness_mm / 2, ux * thickness_mm / 2
    ext = BRICK_OVERHANG_MM  # cover the crossings a little so a ring of bricks looks closed
    x1, y1 = slot.x1_mm - ux * ext, slot.y1_mm - uy * ext
    x2, y2 = slot.x2_mm + ux * ext, slot.y2_mm + uy * ext
    pen.fill(pal.brick)
    pen.stroke(pal.brick, 0.1)
    pen.polygon([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)], fill=True)
    pen.stroke(pal.brick_joint, 0.25)
    count = 5
    total = length + 2 * ext
    for i in range(1, count):
        t = i * total / count
        jx, jy = x1 + ux * t, y1 + uy * t
        pen.line(jx + nx, jy + ny, jx - nx, jy - ny)


def clockwise_arrow(pen: Pen, cx: float, cy: float, r: float, *, colour: Color | None = None) -> None:
    """An open circle turning clockwise with an arrowhead, like the ↻ sign (which the bundled font lacks)."""
    ink = colour or pen.palette.ink
    radius = r * 0.7
    # y points down, so a growing angle turns clockwise on paper; the gap is at the top.
    start, end = math.radians(-60), math.radians(230)
    steps = 24
    points = [
        (cx + radius * math.cos(start + (end - start) * i / steps), cy + radius * math.sin(start + (end - start) * i / steps))
        for i in range(steps + 1)
    ]
    pen.stroke(ink, r * 0.16)
    pen.polygon(points, stroke=True, fill=False, close=False)
    ex, ey = points[-1]
    tx, ty = -math.sin(end), math.cos(end)  # the direction of travel at the end
    head, half = r * 0.55, r * 0.32
    pen.fill(ink)
    pen.stroke(ink, r * 0.05)
    pen.polygon(
        [(ex + tx * head, ey + ty * head), (ex - ty * half, ey + tx * half), (ex + ty * half, ey - tx * half)], stroke=True, fill=True
    )


def scissors(pen: Pen, cx: float, cy: float, r: float, *, colour: Color | None = None) -> None:
    """A pair of open scissors pointing down, like the ✂ sign (which the bundled font lacks)."""
    ink = colour or pen.palette.ink
    pen.stroke(ink, r * 0.14)
    pen.fill(ink)
    for side in (-1, 1):
        # A blade from the finger loop at the top, through the pivot, to its tip at the bottom.
        loop_x, loop_y = cx + side * r * 0.42, cy - r * 0.62
        tip_x, tip_y = cx - side * r * 0.38, cy + r
        pen.circle(loop_x, loop_y, r * 0.3, stroke=True, fill=False)
        pen.polygon(
            [(loop_x - side * r * 0.12, loop_y + r * 0.28), (tip_x, tip_y), (loop_x + side * r * 0.14, loop_y + r * 0.3)],
            stroke=True,
            fill=True,
        )
    pen.fill(WHITE)
    pen.circle(cx, cy + r * 0.08, r * 0.07, stroke=False, fill=True)
