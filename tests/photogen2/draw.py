"""Drawing each item of a garden the way different people do.  Each function returns its tags."""

from __future__ import annotations

import cv2
import numpy as np

from papillon.layout import Circle, Rect, Segment

from .marks import BLACK_BALLPOINT, BLUE_BALLPOINT, GRAPHITE, Canvas, Ink, rounded_box, wobbly_line, zigzag
from .sheet import PX_PER_MM


def _px(canvas: Canvas, pts_mm: np.ndarray) -> np.ndarray:
    off = np.array(canvas.sheet.offset_mm)
    return (np.asarray(pts_mm, dtype=np.float64) + off) * PX_PER_MM


def _disk(canvas: Canvas, window: tuple[int, int, int, int], cx: float, cy: float, r_mm: float) -> np.ndarray:
    x0, y0, w, h = window
    px, py = _px(canvas, np.array([cx, cy]))
    yy, xx = np.mgrid[y0 : y0 + h, x0 : x0 + w]
    d = np.hypot(xx + 0.5 - px, yy + 0.5 - py) / PX_PER_MM
    return np.clip(r_mm - d + 0.5, 0, 1).astype(np.float32)


def _box_window(canvas: Canvas, box: Rect, pad_mm: float) -> tuple[int, int, int, int]:
    cx, cy = box.centre_mm
    return canvas.roi(cx, cy, box.w_mm / 2 + pad_mm)


def pencil_ink(rng: np.random.Generator) -> Ink:
    return Ink("graphite", tuple(np.clip(np.array(GRAPHITE) + rng.normal(0, 12), 40, 160)), rng.uniform(0.45, 0.8), rng.uniform(0.75, 1.0))  # type: ignore[arg-type]


def ballpoint_ink(rng: np.random.Generator, colour: str) -> Ink:
    rgb = BLUE_BALLPOINT if colour == "blue" else BLACK_BALLPOINT
    return Ink("ballpoint", rgb, rng.uniform(0.35, 0.55), rng.uniform(0.85, 1.0))


# --------------------------------------------------------------------------- plots


def colour_region(
    canvas: Canvas,
    rng: np.random.Generator,
    box: Rect,
    bubble: Circle,
    ink: Ink,
    *,
    margins: tuple[float, float, float, float],
    spare_bubble: bool,
) -> None:
    """Colour a plot with a felt pen: zig-zag strokes over the box grown by ``margins`` (left, top, right, bottom; + = overflow)."""
    window = _box_window(canvas, box, 6.0)
    left, top, right, bottom = margins
    outline = rounded_box(box.x_mm - left, box.y_mm - top, box.w_mm + left + right, box.h_mm + top + bottom, 2.5, rng, 0.25)
    region = canvas.polygon(window, _px(canvas, outline))
    cx, cy = box.centre_mm
    half = box.w_mm / 2 + 5
    width = ink.width_mm
    angle = rng.uniform(-0.6, 0.6) + (np.pi / 2 if rng.random() < 0.5 else 0.0)
    first = canvas.strokes(window, [_px(canvas, zigzag(rng, np.array([cx, cy]), half, angle, width * 0.75, 1.0))], width)
    second = canvas.strokes(
        window, [_px(canvas, zigzag(rng, np.array([cx, cy]), half, angle + rng.uniform(0.8, 1.6), width * 0.9, 1.0))], width
    )
    # Felt ink pools a little at the outline where the pen turns back.
    coats = (first + rng.uniform(0.2, 0.7) * second) * region
    if spare_bubble:
        coats *= 1 - _disk(canvas, window, bubble.cx_mm, bubble.cy_mm, bubble.r_mm + rng.uniform(0.4, 1.2))
    canvas.lay(window, coats, ink)


def hatch_region(canvas: Canvas, rng: np.random.Generator, box: Rect, bubble: Circle, ink: Ink, *, fraction: float, cross: bool) -> None:
    """Coloured-pencil hatching over an irregular patch covering ``fraction`` of the box."""
    window = _box_window(canvas, box, 3.0)
    cx, cy = box.centre_mm
    # An ellipse of the right area, nudged off centre, drawn as a wobbly polygon and clipped to the box.
    area = fraction * box.w_mm * box.h_mm
    aspect = rng.uniform(0.75, 1.33)
    a = np.sqrt(area / np.pi * aspect)
    b = area / np.pi / a
    shift = rng.uniform(-2.0, 2.0, 2)
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    wob = 1 + 0.08 * np.sin(3 * t + rng.uniform(0, 6)) + 0.05 * np.sin(5 * t + rng.uniform(0, 6))
    blob = np.stack([cx + shift[0] + a * wob * np.cos(t), cy + shift[1] + b * wob * np.sin(t)], axis=1)
    region = canvas.polygon(window, _px(canvas, blob))
    inner = rounded_box(box.x_mm + 0.3, box.y_mm + 0.3, box.w_mm - 0.6, box.h_mm - 0.6, 2.0, rng, 0.0)
    region *= canvas.polygon(window, _px(canvas, inner))
    angle = rng.uniform(0.5, 1.1) * (1 if rng.random() < 0.5 else -1)
    spacing = rng.uniform(0.6, 1.1)
    lines = _hatch_lines(rng, np.array([cx, cy]), 17.0, angle, spacing)
    coats = canvas.strokes(window, [_px(canvas, p) for p in lines], ink.width_mm)
    if cross:
        more = _hatch_lines(rng, np.array([cx, cy]), 17.0, angle + rng.uniform(1.2, 1.9), spacing * 1.3)
        coats = coats + 0.7 * canvas.strokes(window, [_px(canvas, p) for p in more], ink.width_mm)
    coats *= region * (1 - 0.8 * _disk(canvas, window, bubble.cx_mm, bubble.cy_mm, bubble.r_mm + 0.3))
    canvas.lay(window, coats, ink)


def _hatch_lines(rng: np.random.Generator, centre: np.ndarray, half: float, angle: float, spacing: float) -> list[np.ndarray]:
    c, s = np.cos(angle), np.sin(angle)
    along, across = np.array([c, s]), np.array([-s, c])
    lines = []
    for v in np.arange(-half, half, spacing):
        v = v + rng.normal(0, spacing * 0.12)
        a = centre + across * v - along * half
        b = centre + across * v + along * half
        lines.append(wobbly_line(rng, a, b, 0.15, 1.0))
    return lines


def flower_shape(centre: np.ndarray, radius: float, petals: int, rotation: float) -> list[np.ndarray]:
    """Petal circles' centres and radii of a simple flower (mm): list of (cx, cy, r)."""
    out = []
    for i in range(petals):
        a = rotation + 2 * np.pi * i / petals
        out.append(np.array([centre[0] + radius * 0.55 * np.cos(a), centre[1] + radius * 0.55 * np.sin(a), radius * 0.45]))
    out.append(np.array([centre[0], centre[1], radius * 0.32]))
    return out


def stamp(canvas: Canvas, rng: np.random.Generator, centre: np.ndarray, radius: float, ink: Ink) -> None:
    """A rubber stamp: a flower of pigment with speckled voids, a darker rim and uneven pressure."""
    window = canvas.roi(float(centre[0]), float(centre[1]), radius + 2)
    mask = np.zeros(window[3:1:-1], np.float32)
    for cx, cy, r in flower_shape(centre, radius, int(rng.integers(5, 7)), rng.uniform(0, 2 * np.pi)):
        mask = np.maximum(mask, _disk(canvas, window, cx, cy, r))
    x0, y0, w, h = window
    # Pressure falls off toward one side; pigment skips on the paper's peaks.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(direction) + (yy - h / 2) * np.sin(direction)) / max(w, 1)
    pressure = np.clip(rng.uniform(0.85, 1.1) - rng.uniform(0.0, 0.6) * ramp, 0.35, 1.1)
    grain = canvas.grain(x0, y0, w, h)
    voids = np.clip((grain - rng.uniform(0.0, 0.25)) * 4, 0, 1)
    edge = mask - cv2.erode(mask, np.ones((5, 5), np.uint8))
    coats = mask * pressure * (0.55 + 0.45 * voids) + 0.4 * edge
    canvas.lay(window, coats * 1.3, ink)


def doodle(canvas: Canvas, rng: np.random.Generator, box: Rect, ink: Ink, outline: Ink, stem: Ink | None) -> None:
    """A small flower drawn by hand: coloured petals with a pen outline, maybe a green stem."""
    cx, cy = box.centre_mm
    centre = np.array([cx + rng.uniform(-3, 2), cy + rng.uniform(-1, 3)])
    radius = rng.uniform(4.5, 7.5)
    window = canvas.roi(float(centre[0]), float(centre[1]), radius + 9)
    if stem is not None:
        base = centre + np.array([rng.uniform(-1, 1), radius + rng.uniform(3, 6)])
        path = wobbly_line(rng, centre + np.array([0, radius * 0.4]), base, 0.4)
        canvas.lay(window, canvas.strokes(window, [_px(canvas, path)], stem.width_mm), stem)
    shapes = flower_shape(centre, radius, int(rng.integers(5, 8)), rng.uniform(0, 2 * np.pi))
    fill = np.zeros(window[3:1:-1], np.float32)
    rims = []
    for px_, py_, r in shapes[:-1]:
        fill = np.maximum(fill, _disk(canvas, window, px_, py_, r))
        t = np.linspace(0, 2 * np.pi, 24)
        rims.append(_px(canvas, np.stack([px_ + r * np.cos(t), py_ + r * np.sin(t)], 1)))
    canvas.lay(window, fill * rng.uniform(0.8, 1.2), ink)
    canvas.lay(window, canvas.strokes(window, rims, outline.width_mm), outline)
    cx_, cy_, r = shapes[-1]
    canvas.lay(window, _disk(canvas, window, cx_, cy_, r) * 1.5, ink)


def handwriting(canvas: Canvas, rng: np.random.Generator, text: str, at: tuple[float, float], height_mm: float, ink: Ink) -> None:
    """Short handwritten text (Hershey script, tilted and wobbled) centred on ``at`` (mm)."""
    font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if rng.random() < 0.6 else cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * PX_PER_MM / 22.0
    thick = max(round(ink.width_mm * PX_PER_MM), 1)
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = 20
    local = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(local, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    angle = rng.uniform(-12, 12)
    m = cv2.getRotationMatrix2D((local.shape[1] / 2, local.shape[0] / 2), angle, 1.0)
    m[:, 2] += rng.normal(0, 1.5, 2)
    local = cv2.warpAffine(local, m, (local.shape[1], local.shape[0]))
    x, y = canvas.px(*at)
    x0, y0 = int(x - local.shape[1] / 2), int(y - local.shape[0] / 2)
    h_img, w_img = canvas.image.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + local.shape[1] > w_img or y0 + local.shape[0] > h_img:
        return
    canvas.lay((x0, y0, local.shape[1], local.shape[0]), local.astype(np.float32) / 255.0, ink)


# --------------------------------------------------------------------------- lines


def line_stroke(
    canvas: Canvas, rng: np.random.Generator, a: np.ndarray, b: np.ndarray, ink: Ink, wobble_mm: float, coats: float = 1.0
) -> None:
    centre = (a + b) / 2
    half = float(np.hypot(*(b - a))) / 2 + 3
    window = canvas.roi(float(centre[0]), float(centre[1]), half)
    path = wobbly_line(rng, a, b, wobble_mm)
    mask = canvas.strokes(window, [_px(canvas, path)], ink.width_mm)
    # Pressure varies along a hand-drawn stroke.
    canvas.lay(window, mask * coats * rng.uniform(0.85, 1.1), ink)


def bramble(canvas: Canvas, rng: np.random.Generator, box: Rect, ink: Ink) -> list[str]:
    """An X from corner to corner."""
    inset = rng.uniform(0.5, 3.0, 4)
    x, y, r, b = box.x_mm, box.y_mm, box.right_mm, box.bottom_mm
    line_stroke(canvas, rng, np.array([x + inset[0], y + inset[0]]), np.array([r - inset[1], b - inset[1]]), ink, 0.4)
    line_stroke(canvas, rng, np.array([r - inset[2], y + inset[2]]), np.array([x + inset[3], b - inset[3]]), ink, 0.4)
    return []


def brick(canvas: Canvas, rng: np.random.Generator, slot: Segment, ink: Ink, styles: set[str]) -> None:
    """A line over an edge's dashed guide: ``styles`` among wobbly, short, double."""
    a, b = np.array([slot.x1_mm, slot.y1_mm]), np.array([slot.x2_mm, slot.y2_mm])
    along = (b - a) / slot.length_mm
    normal = np.array([-along[1], along[0]])
    if "short" in styles:
        cover = rng.uniform(0.55, 0.85)
        start = rng.uniform(0, 1 - cover)
        a, b = a + along * slot.length_mm * start, a + along * slot.length_mm * (start + cover)
    else:
        a, b = a - along * rng.uniform(-0.5, 1.5), b + along * rng.uniform(-0.5, 1.5)
    offset = normal * rng.normal(0, 0.25)
    wobble = rng.uniform(0.4, 0.9) if "wobbly" in styles else rng.uniform(0.05, 0.2)
    line_stroke(canvas, rng, a + offset, b + offset, ink, wobble)
    if "double" in styles:
        gap = normal * rng.uniform(0.3, 0.8) * (1 if rng.random() < 0.5 else -1)
        line_stroke(canvas, rng, a + offset + gap + along * rng.normal(0, 1), b + offset + gap + along * rng.normal(0, 1), ink, wobble)


def erased_brick(canvas: Canvas, rng: np.random.Generator, slot: Segment) -> None:
    """What an eraser leaves of a graphite brick: a faint, smeared grey ghost."""
    a, b = np.array([slot.x1_mm, slot.y1_mm]), np.array([slot.x2_mm, slot.y2_mm])
    centre = (a + b) / 2
    window = canvas.roi(float(centre[0]), float(centre[1]), slot.length_mm / 2 + 3)
    path = wobbly_line(rng, a, b, 0.2)
    mask = canvas.strokes(window, [_px(canvas, path)], rng.uniform(0.6, 1.0))
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2.0, 5.0))
    mask = mask / max(float(mask.max()), 1e-6)
    canvas.lay(window, mask * rng.uniform(0.12, 0.3), Ink("graphite", GRAPHITE, 0.6, 1.0))


# --------------------------------------------------------------------------- bubbles


def bubble_mark(canvas: Canvas, rng: np.random.Generator, bubble: Circle, ink: Ink, style: str) -> None:
    """A marked butterfly bubble: ``fill``, ``tick``, ``cross`` or ``scribble``."""
    c = np.array([bubble.cx_mm, bubble.cy_mm]) + rng.normal(0, 0.3, 2)
    r = bubble.r_mm
    window = canvas.roi(bubble.cx_mm, bubble.cy_mm, r + 5)
    if style == "fill":
        lines = zigzag(rng, c, r, rng.uniform(0, np.pi), ink.width_mm * 0.8, 0.3)
        mask = canvas.strokes(window, [_px(canvas, lines)], ink.width_mm)
        mask *= _disk(canvas, window, float(c[0]), float(c[1]), r + rng.uniform(-0.3, 0.6))
        canvas.lay(window, mask * 1.3, ink)
        return
    if style == "tick":
        size = r * rng.uniform(0.9, 1.4)
        pts = [c + np.array([-0.6, 0.0]) * size, c + np.array([-0.15, 0.55]) * size, c + np.array([0.75, -0.8]) * size]
        path = np.concatenate([wobbly_line(rng, pts[0], pts[1], 0.1, 0.2), wobbly_line(rng, pts[1], pts[2], 0.15, 0.2)])
        canvas.lay(window, canvas.strokes(window, [_px(canvas, path)], ink.width_mm * 1.2), ink)
        return
    if style == "cross":
        size = r * rng.uniform(0.7, 1.2)
        for sign in (1, -1):
            a, b = c + np.array([-size, -sign * size]) * 0.75, c + np.array([size, sign * size]) * 0.75
            canvas.lay(window, canvas.strokes(window, [_px(canvas, wobbly_line(rng, a, b, 0.1, 0.2))], ink.width_mm * 1.2), ink)
        return
    # scribble: a loose loop-the-loop over most of the bubble
    t = np.linspace(0, rng.uniform(5, 9) * 2 * np.pi, 200)
    rad = r * rng.uniform(0.55, 0.85) * (0.6 + 0.4 * np.sin(t * rng.uniform(0.2, 0.5)))
    drift = np.linspace(-0.4, 0.4, t.size) * r
    path = np.stack([c[0] + rad * np.cos(t) + drift, c[1] + rad * np.sin(t * 1.1)], 1)
    canvas.lay(window, canvas.strokes(window, [_px(canvas, path)], ink.width_mm), ink)
