"""How a family marks a garden sheet: each plot, brick and butterfly drawn by hand, with its truth.

Every shape is made in frame millimetres from :func:`papillon.layout.garden_layout` and laid on a
:class:`~photogen3.paper.Sheet`.  Each drawn item gets tags naming how it was drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from papillon.garden import Garden, Ground
from papillon.grid import EDGES, PLOT_NAMES, PLOTS
from papillon.layout import Circle, GardenLayout, Rect

from .paper import Sheet

RGB = tuple[float, float, float]

FELT: dict[str, RGB] = {
    "red": (0.85, 0.12, 0.16),
    "blue": (0.10, 0.32, 0.80),
    "yellow": (0.99, 0.84, 0.08),
    "purple": (0.46, 0.16, 0.62),
    "green": (0.22, 0.64, 0.24),
    "black": (0.10, 0.10, 0.12),
    "brown": (0.45, 0.24, 0.12),
}
PENCIL: dict[str, RGB] = {
    "red": (0.86, 0.22, 0.22),
    "blue": (0.20, 0.40, 0.82),
    "yellow": (0.98, 0.80, 0.15),
    "purple": (0.50, 0.25, 0.62),
    "green": (0.30, 0.62, 0.25),
    "graphite": (0.30, 0.30, 0.33),
}
STAMP: dict[str, RGB] = {
    "red": (0.86, 0.16, 0.22),
    "blue": (0.16, 0.36, 0.84),
    "yellow": (0.98, 0.78, 0.06),
    "purple": (0.52, 0.22, 0.66),
}
BALLPOINT: RGB = (0.12, 0.18, 0.55)


@dataclass
class Marked:
    """The truth of the marks laid on a sheet."""

    plots: dict[str, dict[str, object]] = field(default_factory=dict)
    edges: dict[str, dict[str, object]] = field(default_factory=dict)
    butterflies: dict[str, dict[str, object]] = field(default_factory=dict)
    off_key: list[str] = field(default_factory=list)
    """Why the marks do not all follow the sheet's printed key (empty when they do)."""


def _jitter(rng: np.random.Generator, colour: RGB, amount: float = 0.04) -> RGB:
    c = np.clip(np.asarray(colour) + rng.normal(0, amount, 3), 0.02, 1.0)
    return float(c[0]), float(c[1]), float(c[2])


def _pick(rng: np.random.Generator, weighted: dict[str, float]) -> str:
    keys = list(weighted)
    p = np.asarray([weighted[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def _wobble(rng: np.random.Generator, pts: np.ndarray, amp_mm: float, step_mm: float = 0.6) -> np.ndarray:
    """Resample a polyline and add a smooth sideways tremble."""
    pts = np.asarray(pts, dtype=np.float64)
    seg = np.diff(pts, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    total = float(lengths.sum())
    if total <= 0:
        return pts
    n = max(2, int(total / step_mm))
    t = np.linspace(0, total, n)
    cum = np.concatenate([[0], np.cumsum(lengths)])
    x = np.interp(t, cum, pts[:, 0])
    y = np.interp(t, cum, pts[:, 1])
    if amp_mm > 0:
        noise = rng.normal(0, 1, (n // 8 + 4, 2))
        k = np.linspace(0, len(noise) - 1, n)
        smooth = np.stack([np.interp(k, np.arange(len(noise)), noise[:, i]) for i in range(2)], axis=1)
        x = x + smooth[:, 0] * amp_mm
        y = y + smooth[:, 1] * amp_mm
    return np.stack([x, y], axis=1)


def _zigzag(
    rng: np.random.Generator, centre: tuple[float, float], half: tuple[float, float], angle: float, spacing: float, round_: bool
) -> np.ndarray:
    """A back-and-forth colouring stroke covering an ellipse or a box (centre, half sizes), at ``angle`` radians."""
    cx, cy = centre
    hx, hy = half
    reach = math.hypot(hx, hy)
    ca, sa = math.cos(angle), math.sin(angle)
    pts = []
    offsets = np.arange(-reach, reach + 1e-9, spacing)
    for i, off in enumerate(offsets):
        # The line at this offset, clipped to the shape, in the shape's frame.
        ts = np.linspace(-reach, reach, 41)
        xs = cx + ts * ca - off * sa
        ys = cy + ts * sa + off * ca
        inside = ((xs - cx) / hx) ** 2 + ((ys - cy) / hy) ** 2 <= 1 if round_ else (np.abs(xs - cx) <= hx) & (np.abs(ys - cy) <= hy)
        if not inside.any():
            continue
        idx = np.flatnonzero(inside)
        a, b = (xs[idx[0]], ys[idx[0]]), (xs[idx[-1]], ys[idx[-1]])
        over = rng.uniform(-0.4, 0.6)  # a hand turns a little early or late
        a = (a[0] - over * ca, a[1] - over * sa)
        b = (b[0] + over * ca, b[1] + over * sa)
        pts.extend([a, b] if i % 2 == 0 else [b, a])
    return np.asarray(pts) if pts else np.zeros((0, 2))


def _outside(points: np.ndarray, box: Rect, margin: float) -> bool:
    return bool(
        (points[:, 0] < box.x_mm - margin).any()
        or (points[:, 0] > box.right_mm + margin).any()
        or (points[:, 1] < box.y_mm - margin).any()
        or (points[:, 1] > box.bottom_mm + margin).any()
    )


def _cut_around(points: np.ndarray, circle: Circle, margin: float) -> list[np.ndarray]:
    """Split a dense polyline where it enters a circle: a careful hand shades around the bubble."""
    inside = np.hypot(points[:, 0] - circle.cx_mm, points[:, 1] - circle.cy_mm) < circle.r_mm + margin
    pieces, current = [], []
    for p, hit in zip(points, inside, strict=True):
        if hit:
            if len(current) > 1:
                pieces.append(np.asarray(current))
            current = []
        else:
            current.append(p)
    if len(current) > 1:
        pieces.append(np.asarray(current))
    return pieces


class Hand:
    """One family's habits: which pens they reach for, how neatly they draw."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.flower_medium = _pick(rng, {"stamp": 0.5, "felt": 0.25, "pencil": 0.15, "crayon": 0.10})
        self.field_medium = _pick(rng, {"pencil": 0.58, "felt": 0.2, "crayon": 0.15, "graphite": 0.07})
        self.bramble_style = _pick(rng, {"x": 0.88, "scribble": 0.12})
        self.critter_icons = rng.random() < 0.15
        self.line_medium = _pick(rng, {"pencil": 0.42, "felt": 0.33, "ballpoint": 0.25})
        self.butterfly_style = _pick(rng, {"fill": 0.6, "tick": 0.25, "cross": 0.07, "dot": 0.04, "scribble": 0.04})
        self.neat = float(rng.uniform(0.0, 1.0))
        """0 a hurried child, 1 a careful grown-up."""
        self.pressure = float(rng.uniform(0.55, 1.0))
        self.stamp = {c: _jitter(rng, v) for c, v in STAMP.items()}
        self.felt = {c: _jitter(rng, v) for c, v in FELT.items()}
        self.pencil = {c: _jitter(rng, v, 0.03) for c, v in PENCIL.items()}
        self.stamp_size = float(rng.uniform(6.5, 9.0))
        self.petals = int(rng.integers(5, 7))

    def varies(self, habit: str, options: dict[str, float], keep: float = 0.85) -> str:
        return habit if self.rng.random() < keep else _pick(self.rng, options)


def mark_garden(
    sheet: Sheet, layout: GardenLayout, garden: Garden, stage: str, printed_fields: set[int], rng: np.random.Generator
) -> Marked:
    """Draw ``garden`` on ``sheet`` the way a player would (``printed_fields`` came printed green), and say how."""
    hand = Hand(rng)
    marked = Marked()
    for plot in PLOTS:
        name = PLOT_NAMES[plot]
        cell = garden[plot]
        box = layout.plots[plot]
        tags: list[str] = []
        if cell.is_flower:
            assert cell.colour is not None
            tags = _flower(sheet, hand, box, cell.colour, marked)
            truth = cell.colour
        elif cell.is_field:
            truth = "field"
            if plot in printed_fields:
                tags = ["printed"]
                if rng.random() < 0.3:
                    tags += _field(sheet, hand, box, layout.bubbles[plot], marked, overlay=True)
            else:
                tags = _field(sheet, hand, box, layout.bubbles[plot], marked, overlay=False)
            if cell.occupant:
                tags += _occupant(sheet, hand, box, cell.occupant, marked)
        elif cell.ground is Ground.BRAMBLE:
            truth = "bramble"
            tags = _bramble(sheet, hand, box, marked)
        else:
            truth = "empty"
        marked.plots[name] = {"truth": truth, "tags": tags}
    for index, edge in enumerate(EDGES):
        slot = layout.edge_slots[index]
        if edge in garden.bricks:
            marked.edges[edge.name] = {"truth": "brick", "tags": _brick(sheet, hand, slot, marked)}
        elif rng.random() < (0.05 if hand.line_medium == "pencil" else 0.015) and stage != "blank":
            marked.edges[edge.name] = {"truth": "none", "tags": _ghost(sheet, slot)}
        else:
            marked.edges[edge.name] = {"truth": "none", "tags": []}
    for plot in PLOTS:
        name = PLOT_NAMES[plot]
        tags = []
        if plot in garden.butterflies:
            tags = _butterfly(sheet, hand, layout.bubbles[plot], marked)
        if "field_over_bubble" in marked.plots[name]["tags"]:  # type: ignore[operator]
            tags.append("field_over_bubble")
        marked.butterflies[name] = {"truth": "filled" if plot in garden.butterflies else "empty", "tags": tags}
    _strays(sheet, hand, layout, marked, stage)
    _furniture(sheet, hand, layout, garden, stage)
    return marked


# --------------------------------------------------------------------------- plots


def _flower(sheet: Sheet, hand: Hand, box: Rect, colour: str, marked: Marked) -> list[str]:
    rng = hand.rng
    medium = hand.varies(hand.flower_medium, {"stamp": 0.4, "felt": 0.3, "pencil": 0.2, "crayon": 0.1})
    cx, cy = box.centre_mm
    cx += -1.2 + rng.normal(0, 1.5 - hand.neat)
    cy += 1.6 + rng.normal(0, 1.5 - hand.neat)
    tags = [medium]
    if medium == "stamp":
        r = hand.stamp_size * rng.uniform(0.95, 1.05)
        turn = rng.uniform(0, 2 * math.pi)
        petals = []
        for k in range(hand.petals):
            a = turn + 2 * math.pi * k / hand.petals
            petals.append(_circle((cx + 0.55 * r * math.cos(a), cy + 0.55 * r * math.sin(a)), 0.45 * r))
        hollow = _circle((cx, cy), 0.22 * r)
        sheet.stamp([*petals, _circle((cx, cy), 0.3 * r)], hand.stamp[colour], rng.uniform(0.75, 0.97), hollow)
        tags.append("stamp")
        return tags
    # Drawn: an outline of petals, then coloured in; some colour the whole plot.
    whole = rng.random() < 0.3
    if medium == "felt":
        ink, width, opacity, grain = hand.felt[colour], rng.uniform(0.7, 1.3), rng.uniform(0.8, 0.95), 0.0
    elif medium == "pencil":
        ink, width, opacity, grain = hand.pencil[colour], rng.uniform(0.5, 0.9), rng.uniform(0.45, 0.8) * hand.pressure, 0.7
    else:
        ink, width, opacity, grain = hand.felt[colour], rng.uniform(1.4, 2.4), rng.uniform(0.7, 0.9), 1.0
    if whole:
        spill = rng.uniform(-1.5, 2.5 if medium == "felt" else 0.8)
        half = (box.w_mm / 2 + spill, box.h_mm / 2 + spill)
        stroke = _zigzag(rng, box.centre_mm, half, rng.uniform(0, math.pi), width * rng.uniform(0.7, 1.1), round_=False)
        tags.append("coloured_plot")
    else:
        r = rng.uniform(5.5, 9.0)
        outline = []
        for k in range(hand.petals):
            a = 2 * math.pi * k / hand.petals
            outline.append(_circle((cx + 0.55 * r * math.cos(a), cy + 0.55 * r * math.sin(a)), 0.45 * r))
        for petal in outline:
            sheet.ink([_wobble(rng, petal, 0.15)], width_mm=width * 0.8, colour=ink, opacity=opacity, grain=grain)
        stroke = _zigzag(rng, (cx, cy), (r, r), rng.uniform(0, math.pi), width * rng.uniform(0.8, 1.4), round_=True)
        tags.append("drawn")
    stroke = _wobble(rng, stroke, 0.2, 0.8) if len(stroke) > 1 else stroke
    sheet.ink([stroke], width_mm=width, colour=ink, opacity=opacity, grain=grain, separate=medium == "pencil")
    if len(stroke) and _outside(stroke, box, 0.4):
        tags.append("spill")
    if medium == "crayon":
        tags.append("waxy")
    return tags


def _circle(centre: tuple[float, float], r: float, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=True)
    return np.stack([centre[0] + r * np.cos(a), centre[1] + r * np.sin(a)], axis=1)


def _field(sheet: Sheet, hand: Hand, box: Rect, bubble: Circle, marked: Marked, overlay: bool) -> list[str]:
    rng = hand.rng
    medium = hand.varies(hand.field_medium, {"pencil": 0.6, "felt": 0.2, "crayon": 0.2})
    tags = [medium if medium != "graphite" else "pencil", "hatch"]
    if medium == "graphite":
        marked.off_key.append("a field shaded in grey pencil, not green")
        tags.append("grey")
        ink, width, opacity, grain = hand.pencil["graphite"], rng.uniform(0.5, 0.8), rng.uniform(0.25, 0.5), 0.7
    elif medium == "pencil":
        ink, width, opacity, grain = hand.pencil["green"], rng.uniform(0.5, 0.9), rng.uniform(0.35, 0.75) * hand.pressure, 0.75
    elif medium == "felt":
        ink, width, opacity, grain = hand.felt["green"], rng.uniform(1.0, 1.8), rng.uniform(0.7, 0.9), 0.0
    else:
        ink, width, opacity, grain = hand.felt["green"], rng.uniform(1.5, 2.4), rng.uniform(0.6, 0.85), 1.0
    cover = rng.uniform(0.55, 1.02) if not overlay else rng.uniform(0.4, 0.8)
    half = (box.w_mm / 2 * cover, box.h_mm / 2 * cover)
    centre = (box.centre_mm[0] + rng.normal(0, 0.8), box.centre_mm[1] + rng.normal(0, 0.8))
    spacing = width * rng.uniform(0.8, 1.8)
    passes = 1 if rng.random() < 0.6 else 2
    over_bubble = rng.random() < 0.35 - 0.25 * hand.neat
    for k in range(passes):
        stroke = _zigzag(rng, centre, half, rng.uniform(0.3, 1.2) + k * math.pi / 2, spacing, round_=False)
        if len(stroke) < 2:
            continue
        dense = _wobble(rng, stroke, 0.15, 0.5)
        pieces = [dense] if over_bubble else _cut_around(dense, bubble, rng.uniform(0.2, 1.0))
        sheet.ink(pieces, width_mm=width, colour=ink, opacity=opacity, grain=grain, separate=True)
    reach = math.hypot(bubble.cx_mm - centre[0], bubble.cy_mm - centre[1])
    if over_bubble and abs(bubble.cx_mm - centre[0]) < half[0] and abs(bubble.cy_mm - centre[1]) < half[1] and reach > 0:
        tags.append("field_over_bubble")
    if cover < 0.75:
        tags.append("partial")
    if overlay:
        tags.append("overdrawn")
    return tags


CRITTER_ICONS = {"lb": "ladybug", "bb": "bumblebee", "hh": "hedgehog"}


def _occupant(sheet: Sheet, hand: Hand, box: Rect, code: str, marked: Marked) -> list[str]:
    rng = hand.rng
    cx, cy = box.centre_mm
    if code in CRITTER_ICONS and hand.critter_icons:
        marked.off_key.append(f"a {CRITTER_ICONS[code]} drawn as a picture, not its code")
        _critter_icon(sheet, hand, (cx - 1.5, cy + 1.5), code)
        return ["icon", CRITTER_ICONS[code]]
    medium = _pick(rng, {"pencil": 0.5, "ballpoint": 0.3, "felt": 0.2})
    ink = {"pencil": hand.pencil["graphite"], "ballpoint": BALLPOINT, "felt": hand.felt["black"]}[medium]
    height = rng.uniform(4.5, 8.0)
    sheet.text(code, (cx - height * 0.9 + rng.normal(0, 1.2), cy + height / 2 + rng.normal(0, 1.5)), height, ink, 0.85)
    return ["code", code, medium]


def _critter_icon(sheet: Sheet, hand: Hand, at: tuple[float, float], code: str) -> None:
    rng = hand.rng
    x, y = at
    black = hand.felt["black"]
    if code == "lb":
        sheet.ink([_circle((x, y), 4.0)], width_mm=0.5, colour=hand.felt["red"], opacity=0.9, fill=True)
        sheet.ink([np.array([[x, y - 4], [x, y + 4]])], width_mm=0.5, colour=black, opacity=0.9)
        for dx, dy in ((-2, -1.5), (2, -1), (-1.8, 1.6), (1.7, 1.8)):
            sheet.ink([_circle((x + dx, y + dy), 0.7)], width_mm=0.3, colour=black, opacity=0.9, fill=True)
    elif code == "bb":
        sheet.ink([_circle((x, y), 3.5)], width_mm=0.5, colour=hand.felt["yellow"], opacity=0.9, fill=True)
        for dx in (-1.5, 0.0, 1.5):
            sheet.ink([np.array([[x + dx, y - 3], [x + dx, y + 3]])], width_mm=0.7, colour=black, opacity=0.9)
    else:
        spikes = [(x + 4.5 * math.cos(a), y - 3.5 * abs(math.sin(a))) for a in np.linspace(0, math.pi, 9)]
        zig = [p for s in spikes for p in (s, (x + (s[0] - x) * 0.6, y - (y - s[1]) * 0.6))]
        sheet.ink([_wobble(rng, np.asarray(zig), 0.1)], width_mm=0.5, colour=hand.felt["brown"], opacity=0.9)
        sheet.ink([np.array([[x - 4.5, y], [x + 4.5, y]])], width_mm=0.5, colour=hand.felt["brown"], opacity=0.9)


def _bramble(sheet: Sheet, hand: Hand, box: Rect, marked: Marked) -> list[str]:
    rng = hand.rng
    style = hand.varies(hand.bramble_style, {"x": 0.7, "scribble": 0.3}, keep=0.9)
    medium = _pick(rng, {"pencil": 0.45, "felt": 0.35, "ballpoint": 0.2})
    ink = {
        "pencil": hand.pencil["graphite"],
        "ballpoint": BALLPOINT,
        "felt": hand.felt[_pick(rng, {"black": 0.7, "brown": 0.2, "green": 0.1})],
    }[medium]
    width = {"pencil": 0.7, "ballpoint": 0.45, "felt": 1.1}[medium] * rng.uniform(0.8, 1.3)
    opacity = {"pencil": 0.7 * hand.pressure, "ballpoint": 0.85, "felt": 0.9}[medium]
    grain = 0.6 if medium == "pencil" else 0.1
    inset = rng.uniform(2.0, 6.0)
    x0, y0, x1, y1 = box.x_mm + inset, box.y_mm + inset, box.right_mm - inset, box.bottom_mm - inset
    if style == "x":
        strokes = [
            _wobble(rng, np.array([[x0 + rng.normal(0, 1), y0 + rng.normal(0, 1)], [x1 + rng.normal(0, 1), y1 + rng.normal(0, 1)]]), 0.3),
            _wobble(rng, np.array([[x1 + rng.normal(0, 1), y0 + rng.normal(0, 1)], [x0 + rng.normal(0, 1), y1 + rng.normal(0, 1)]]), 0.3),
        ]
        if rng.random() < 0.25:  # gone over twice
            strokes.append(strokes[0] + rng.normal(0, 0.4, 2))
        sheet.ink(strokes, width_mm=width, colour=ink, opacity=opacity, grain=grain, separate=True)
        return ["x", medium]
    marked.off_key.append("a bramble scribbled over, not an X")
    n = int(rng.integers(10, 25))
    pts = np.stack([rng.uniform(x0, x1, n), rng.uniform(y0, y1, n)], axis=1)
    sheet.ink([_wobble(rng, pts, 0.4)], width_mm=width, colour=ink, opacity=opacity, grain=grain)
    return ["scribble", medium]


# --------------------------------------------------------------------------- lines


def _line_ink(hand: Hand, medium: str) -> tuple[RGB, float, float, float]:
    rng = hand.rng
    if medium == "pencil":
        return hand.pencil["graphite"], rng.uniform(0.5, 0.9), rng.uniform(0.35, 0.8) * hand.pressure, 0.6
    if medium == "ballpoint":
        colour = BALLPOINT if rng.random() < 0.7 else hand.felt["black"]
        return colour, rng.uniform(0.35, 0.55), rng.uniform(0.7, 0.92), 0.15
    colour = hand.felt[_pick(rng, {"black": 0.7, "brown": 0.15, "red": 0.08, "green": 0.07})]
    return colour, rng.uniform(0.8, 1.6), rng.uniform(0.8, 0.95), 0.0


def _brick(sheet: Sheet, hand: Hand, slot: object, marked: Marked) -> list[str]:
    rng = hand.rng
    medium = hand.varies(hand.line_medium, {"pencil": 0.4, "felt": 0.35, "ballpoint": 0.25})
    ink, width, opacity, grain = _line_ink(hand, medium)
    x1, y1, x2, y2 = slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm  # type: ignore[attr-defined]
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = -uy, ux
    tags = [medium]
    start_ext, end_ext = rng.uniform(-1.5, 1.8), rng.uniform(-1.5, 1.8)
    if rng.random() < 0.1:  # a short, hurried dash
        cut = rng.uniform(0.25, 0.5) * length
        start_ext -= cut * rng.random()
        end_ext -= cut
        tags.append("short")
    elif max(start_ext, end_ext) > 1.2:
        tags.append("overshoot")
    side = rng.normal(0, 0.35 + 0.3 * (1 - hand.neat))
    tilt = rng.normal(0, 0.01)
    a = np.array([x1 - ux * start_ext + nx * side, y1 - uy * start_ext + ny * side])
    b = np.array([x2 + ux * end_ext + nx * (side + tilt * length), y2 + uy * end_ext + ny * (side + tilt * length)])
    amp = 0.05 + 0.35 * (1 - hand.neat) * rng.random()
    strokes = [_wobble(rng, np.array([a, b]), amp, 0.7)]
    if amp > 0.25:
        tags.append("wobbly")
    if rng.random() < 0.12:
        gap = rng.uniform(0.4, 1.0) * (1 if rng.random() < 0.5 else -1)
        strokes.append(_wobble(rng, np.array([a + np.array([nx, ny]) * gap, b + np.array([nx, ny]) * gap]), amp, 0.7))
        tags.append("doubled")
    sheet.ink(strokes, width_mm=width, colour=ink, opacity=opacity, grain=grain, separate=True)
    if medium == "pencil" and opacity < 0.3:
        tags.append("light")
        marked.off_key.append("a brick drawn too lightly to be a firm line")
    return tags


def _ghost(sheet: Sheet, slot: object) -> list[str]:
    """A brick rubbed out: a faint smeared trace of graphite remains."""
    rng = sheet.rng
    x1, y1, x2, y2 = slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm  # type: ignore[attr-defined]
    pts = _wobble(rng, np.array([[x1, y1], [x2, y2]]) + rng.normal(0, 0.3, (2, 2)), 0.1)
    sheet.ink([pts], width_mm=rng.uniform(0.6, 1.0), colour=PENCIL["graphite"], opacity=rng.uniform(0.07, 0.16), grain=0.9, blur_mm=0.35)
    return ["erased", "pencil"]


def _butterfly(sheet: Sheet, hand: Hand, bubble: Circle, marked: Marked) -> list[str]:
    rng = hand.rng
    style = hand.varies(hand.butterfly_style, {"fill": 0.6, "tick": 0.3, "cross": 0.04, "dot": 0.03, "scribble": 0.03}, keep=0.9)
    medium = _pick(rng, {"pencil": 0.55, "felt": 0.25, "ballpoint": 0.2})
    ink, width, opacity, grain = _line_ink(hand, medium)
    if medium == "felt" and rng.random() < 0.3:
        ink = hand.felt["purple"]
    opacity = max(opacity, 0.55)
    cx = bubble.cx_mm + rng.normal(0, 0.4 + 0.5 * (1 - hand.neat))
    cy = bubble.cy_mm + rng.normal(0, 0.4 + 0.5 * (1 - hand.neat))
    r = bubble.r_mm
    if style == "fill":
        k = rng.uniform(0.75, 1.15)
        stroke = _zigzag(rng, (cx, cy), (r * k, r * k), rng.uniform(0, math.pi), max(0.35, width * 0.8), round_=True)
        sheet.ink([stroke], width_mm=width, colour=ink, opacity=opacity, grain=grain)
    elif style == "tick":
        s = rng.uniform(0.8, 1.4)
        pts = np.array([[cx - 0.8 * r * s, cy - 0.05 * r], [cx - 0.2 * r * s, cy + 0.6 * r * s], [cx + 0.9 * r * s, cy - 1.0 * r * s]])
        sheet.ink([_wobble(rng, pts, 0.08, 0.3)], width_mm=width, colour=ink, opacity=opacity, grain=grain)
    elif style == "cross":
        s = rng.uniform(0.7, 1.3) * r
        lines = [np.array([[cx - s, cy - s], [cx + s, cy + s]]), np.array([[cx + s, cy - s], [cx - s, cy + s]])]
        sheet.ink([_wobble(rng, ln, 0.08, 0.3) for ln in lines], width_mm=width, colour=ink, opacity=opacity, grain=grain, separate=True)
        marked.off_key.append("a butterfly crossed, not filled or ticked")
    elif style == "dot":
        sheet.ink([_circle((cx, cy), rng.uniform(0.6, 1.3))], width_mm=width, colour=ink, opacity=opacity, grain=grain * 0.5, fill=True)
        marked.off_key.append("a butterfly dotted, not filled or ticked")
    else:
        n = int(rng.integers(6, 14))
        ang = rng.uniform(0, 2 * math.pi, n)
        rad = r * np.sqrt(rng.uniform(0, 0.9, n))
        pts = np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], axis=1)
        sheet.ink([_wobble(rng, pts, 0.1, 0.3)], width_mm=width, colour=ink, opacity=opacity, grain=grain)
        marked.off_key.append("a butterfly scribbled, not filled or ticked")
    return [style, medium]


# --------------------------------------------------------------------------- the rest of the sheet


def _strays(sheet: Sheet, hand: Hand, layout: GardenLayout, marked: Marked, stage: str) -> None:
    """Pencil touches and smudges: not marks anyone meant."""
    rng = hand.rng
    if stage == "blank":
        return
    g = layout.garden
    for _ in range(int(rng.poisson(0.9))):
        x, y = rng.uniform(g.x_mm, g.right_mm), rng.uniform(g.y_mm, g.bottom_mm)
        kind = "stray" if rng.random() < 0.65 else "smudge"
        # A pencil touch inside a bubble would be a dot that counts: strays keep clear of the bubbles.
        if kind == "stray" and any(math.hypot(x - b.cx_mm, y - b.cy_mm) < b.r_mm + 3.0 for b in layout.bubbles):
            continue
        if kind == "stray":
            a = rng.uniform(0, math.pi)
            n = rng.uniform(0.6, 2.5)
            pts = np.array([[x, y], [x + n * math.cos(a), y + n * math.sin(a)]])
            sheet.ink([pts], width_mm=rng.uniform(0.4, 0.7), colour=PENCIL["graphite"], opacity=rng.uniform(0.2, 0.5), grain=0.7)
        else:
            sheet.smear((x, y), rng.uniform(2.0, 5.0), rng.uniform(0.06, 0.18))
        for plot, box in enumerate(layout.plots):
            if box.x_mm <= x <= box.right_mm and box.y_mm <= y <= box.bottom_mm:
                marked.plots[PLOT_NAMES[plot]]["tags"].append(kind)  # type: ignore[attr-defined]


NAMES = ("Ann", "Ben", "Zoe", "Max", "Mia", "Leo", "Oma", "Dad", "Mum", "Lily", "Tom", "Emma", "Noah", "Ida", "Sam")


def _furniture(sheet: Sheet, hand: Hand, layout: GardenLayout, garden: Garden, stage: str) -> None:
    """The name, the round track, the colour key stamps and the total: marks off the garden."""
    rng = hand.rng
    pen = hand.pencil["graphite"] if rng.random() < 0.6 else BALLPOINT
    if rng.random() < 0.85:
        at = layout.player_text
        sheet.text(str(rng.choice(NAMES)), (at.x_mm + rng.normal(2, 3), at.y_mm + rng.normal(0, 0.6)), rng.uniform(5, 8), pen, 0.8)
    if stage != "blank" and rng.random() < 0.85:
        for key, colour in zip(layout.colour_key, STAMP, strict=True):
            if hand.flower_medium == "stamp" or rng.random() < 0.3:
                r = key.r_mm * rng.uniform(0.9, 1.25)
                petals = [
                    _circle((key.cx_mm + 0.55 * r * math.cos(a), key.cy_mm + 0.55 * r * math.sin(a)), 0.45 * r)
                    for a in np.linspace(0, 2 * math.pi, hand.petals, endpoint=False)
                ]
                sheet.stamp(petals, hand.stamp[colour], rng.uniform(0.7, 0.95), _circle((key.cx_mm, key.cy_mm), 0.22 * r))
            else:
                stroke = _zigzag(rng, (key.cx_mm, key.cy_mm), (key.r_mm * 0.8,) * 2, rng.uniform(0, 3), 0.9, round_=True)
                sheet.ink([stroke], width_mm=0.9, colour=hand.felt[colour], opacity=0.85)
    played = {"blank": 0, "early": 3, "middle": 6, "finished": 10}[stage]
    style = rng.choice(["slash", "cross", "fill"])
    for space in layout.rounds[: min(played, len(layout.rounds))]:
        c, r = (space.cx_mm, space.cy_mm), space.r_mm
        if style == "fill":
            sheet.ink([_zigzag(rng, c, (r * 0.8, r * 0.8), 0.7, 0.8, round_=True)], width_mm=0.7, colour=pen, opacity=0.6, grain=0.6)
        else:
            lines = [np.array([[c[0] - r * 0.8, c[1] + r * 0.8], [c[0] + r * 0.8, c[1] - r * 0.8]])]
            if style == "cross":
                lines.append(np.array([[c[0] - r * 0.8, c[1] - r * 0.8], [c[0] + r * 0.8, c[1] + r * 0.8]]))
            sheet.ink([_wobble(rng, ln, 0.15) for ln in lines], width_mm=0.6, colour=pen, opacity=0.75, grain=0.5, separate=True)
    if stage == "finished" and rng.random() < 0.7:
        box = layout.total_box
        total = garden.score().total
        sheet.text(str(total), (box.x_mm + rng.uniform(3, 8), box.bottom_mm - rng.uniform(1.5, 3)), rng.uniform(5, 7.5), pen, 0.85)
