"""One simulated phone photo of a filled garden sheet, and its truth.

The order of events follows the physical world: a garden is played (:mod:`.gardens`), drawn on
the printed sheet with real-looking pens (:mod:`.draw`), the paper lies bent on a table
(:mod:`.camera`, :mod:`.scene`), light falls on it (uneven, a hand's shadow, a glare spot), a
pinhole camera with a slightly barrel-shaped lens photographs it (blur, noise), and the phone
develops the picture (white balance, denoising, sharpening, JPEG).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from papillon.garden import Garden
from papillon.grid import EDGES, PLOTS, plot_name
from papillon.layout import PAPERS_MM, garden_layout

from . import draw
from .camera import Bend, Camera, Hits, bend, trace
from .gardens import neighbours, random_garden, starting_fields
from .marks import Canvas, Ink, pen_colour
from .scene import TABLE_PX_PER_MM, table, text_document
from .sheet import PX_PER_MM, Sheet, sheet

GENERATOR = "photogen2 v1"
COARSE_PX = 8
"""Rays are traced every COARSE_PX pixels and the maps interpolated between them."""

SIZES = ((4032, 3024), (3264, 2448), (2592, 1944), (1920, 1440), (1600, 1200))
SIZE_WEIGHTS = (0.35, 0.2, 0.2, 0.15, 0.1)

REFUSE_KINDS = ("corner_out", "extreme_blur", "other_document", "greyscale")
REFUSE_WORDS = {
    "corner_out": ("not found", "frame", "corner"),
    "extreme_blur": ("blur",),
    "other_document": ("no papillon", "not a papillon", "fill sheet", "side b", "garden sheet found"),
    "greyscale": ("colour", "color", "grey", "gray"),
}
"""Words one of which a refusal message should contain to name the true cause (a heuristic, see the bench)."""


@dataclass(frozen=True)
class Photo:
    seed: int
    jpeg: bytes
    truth: dict[str, Any]

    def image(self) -> np.ndarray:
        return np.asarray(cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_UNCHANGED))


def cell_class(garden: Garden, plot: int) -> str:
    """What the scanner can tell of a plot: empty, a flower colour, field or bramble (a field's occupant is asked separately)."""
    cell = garden[plot]
    if cell.is_flower:
        return str(cell.colour)
    return cell.ground.value


# --------------------------------------------------------------------------- marking the sheet


def _mark(canvas: Canvas, rng: np.random.Generator, garden: Garden, fields: tuple[int, ...], by_key: bool) -> dict[str, Any]:
    layout = garden_layout()
    items: dict[str, dict[str, Any]] = {"plots": {}, "edges": {}, "butterflies": {}}
    kit = "stamp" if by_key else str(rng.choice(["stamp", "felt", "pencil", "doodle"], p=[0.35, 0.3, 0.2, 0.15]))
    flower_pens = {c: pen_colour(rng, c) for c in ("red", "blue", "yellow", "purple")}
    felt_width = rng.uniform(1.4, 2.4)
    outline = draw.ballpoint_ink(rng, "black") if rng.random() < 0.5 else draw.pencil_ink(rng)
    green = Ink("felt" if rng.random() < 0.5 else "pencil", pen_colour(rng, "green"), felt_width, rng.uniform(0.7, 1.0))
    if green.kind == "pencil":
        green = Ink("pencil", green.rgb, rng.uniform(0.4, 0.6), rng.uniform(0.55, 0.9))
    writer = draw.pencil_ink(rng) if rng.random() < 0.6 else draw.ballpoint_ink(rng, str(rng.choice(["blue", "black"])))
    bramble_pen = draw.pencil_ink(rng) if by_key or rng.random() < 0.8 else draw.ballpoint_ink(rng, str(rng.choice(["blue", "black"])))
    brick_pen_kind = "graphite" if by_key else str(rng.choice(["graphite", "blue", "black"], p=[0.5, 0.25, 0.25]))
    bubble_pen_kind = "graphite" if by_key else str(rng.choice(["graphite", "blue", "black"], p=[0.4, 0.35, 0.25]))
    bubble_style = "fill" if by_key else str(rng.choice(["fill", "tick", "cross", "scribble"], p=[0.55, 0.15, 0.15, 0.15]))
    overflow_rate = 0.0 if by_key else rng.uniform(0.1, 0.5)
    overflowing: dict[int, tuple[float, float, float, float]] = {}

    def flower_ink(colour: str, style: str) -> Ink:
        rgb = flower_pens[colour]
        if style == "pencil":
            return Ink("pencil", rgb, rng.uniform(0.35, 0.6), rng.uniform(0.5, 0.9))
        if style == "stamp":
            return Ink("stamp", rgb, 0.0, rng.uniform(0.85, 1.05))
        return Ink("felt", rgb, felt_width, rng.uniform(0.85, 1.0))

    # The colour key: stamped (or coloured) once per colour before play, with the same pens.
    key_tags = []
    if by_key or rng.random() < 0.85:
        for colour, circle in zip(("red", "blue", "yellow", "purple"), layout.colour_key, strict=True):
            centre = np.array([circle.cx_mm, circle.cy_mm]) + rng.normal(0, 0.6, 2)
            if kit in ("stamp", "doodle"):
                draw.stamp(canvas, rng, centre, circle.r_mm * rng.uniform(0.85, 1.05), flower_ink(colour, "stamp"))
            else:
                box = _square(circle.cx_mm, circle.cy_mm, circle.r_mm * 1.4)
                if kit == "pencil":
                    draw.hatch_region(canvas, rng, box, _far_bubble(), flower_ink(colour, "pencil"), fraction=0.5, cross=True)
                else:
                    draw.colour_region(
                        canvas, rng, box, _far_bubble(), flower_ink(colour, "felt"), margins=(-2.5, -2.5, -2.5, -2.5), spare_bubble=False
                    )
        key_tags.append("key_stamped")
    else:
        key_tags.append("key_unstamped")

    for plot in PLOTS:
        box, bubble = layout.plots[plot], layout.bubbles[plot]
        cell = garden[plot]
        tags: list[str] = []
        if cell.is_flower:
            style = kit if rng.random() < 0.85 or by_key else str(rng.choice(["stamp", "felt", "pencil", "doodle"]))
            colour = str(cell.colour)
            ink = flower_ink(colour, style)
            tags.append(f"flower:{style}")
            if style == "stamp":
                cx, cy = box.centre_mm
                centre = np.array([cx, cy]) + np.array([rng.uniform(-3, 2), rng.uniform(-1, 3)])
                draw.stamp(canvas, rng, centre, rng.uniform(7.0, 9.5), ink)
            elif style == "felt":
                margins = tuple(float(m) for m in rng.uniform(-1.5, 0.0, 4))
                if rng.random() < overflow_rate:
                    sides = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
                    margins = tuple(float(rng.uniform(1.0, 4.0)) if i in sides else m for i, m in enumerate(margins))
                    overflowing[plot] = margins  # type: ignore[assignment]
                    tags.append("overflow")
                over = plot not in garden.butterflies and rng.random() < 0.08
                if over:
                    tags.append("fill_over_bubble")
                draw.colour_region(canvas, rng, box, bubble, ink, margins=margins, spare_bubble=not over)  # type: ignore[arg-type]
            elif style == "pencil":
                fraction = rng.uniform(0.4, 0.7)
                draw.hatch_region(canvas, rng, box, bubble, ink, fraction=fraction, cross=rng.random() < 0.4)
            else:
                stem = Ink("felt", pen_colour(rng, "green"), 0.6, 0.9) if rng.random() < 0.3 else None
                if stem is not None:
                    tags.append("doodle_stem")
                draw.doodle(canvas, rng, box, Ink("felt", ink.rgb, felt_width, ink.strength), outline, stem)
            if rng.random() > 0.85:
                tags.append("off_hue")
        elif cell.is_field:
            printed = plot in fields
            if printed:
                tags.append("field:printed")
            else:
                tags.append(f"field:{green.kind}")
                if green.kind == "felt":
                    draw.colour_region(canvas, rng, box, bubble, green, margins=tuple(rng.uniform(-2.0, 0.0, 4)), spare_bubble=True)  # type: ignore[arg-type]
                else:
                    draw.hatch_region(canvas, rng, box, bubble, green, fraction=rng.uniform(0.55, 0.9), cross=rng.random() < 0.3)
            if cell.occupant:
                cx, cy = box.centre_mm
                draw.handwriting(
                    canvas, rng, cell.occupant, (cx + rng.uniform(-3, 1), cy + rng.uniform(1, 5)), rng.uniform(4.0, 7.0), writer
                )
                tags.append("occupant_written")
        elif cell.ground.value == "bramble":
            tags.append("bramble:" + bramble_pen.kind)
            if plot in fields:
                tags.append("bramble_over_printed_field")
            draw.bramble(canvas, rng, box, bramble_pen)
        items["plots"][plot_name(plot)] = {"truth": cell_class(garden, plot), "code": cell.code, "tags": tags}

    ghosts = set()
    if not by_key and rng.random() < 0.3:
        free = [e for e in EDGES if e not in garden.bricks]
        for i in rng.choice(len(free), size=min(int(rng.integers(1, 4)), len(free)), replace=False):
            ghosts.add(free[int(i)])
    for edge, slot in zip(EDGES, layout.edge_slots, strict=True):
        tags = []
        if edge in garden.bricks:
            styles = set()
            if not by_key:
                for style, p in (("wobbly", 0.25), ("short", 0.15), ("double", 0.15)):
                    if rng.random() < p:
                        styles.add(style)
            kind = brick_pen_kind if rng.random() < 0.9 else str(rng.choice(["graphite", "blue", "black"]))
            ink = draw.pencil_ink(rng) if kind == "graphite" else draw.ballpoint_ink(rng, kind)
            if kind == "graphite":
                ink = Ink("graphite", ink.rgb, rng.uniform(0.6, 0.95), ink.strength)
            draw.brick(canvas, rng, slot, ink, styles)
            tags += [f"brick:{kind}", *sorted(styles)]
        elif edge in ghosts:
            draw.erased_brick(canvas, rng, slot)
            tags.append("erased_ghost")
        # Which side of each plot overflows: left, top, right, bottom margins in _mark's order.
        if edge.vertical:
            spill = overflowing.get(edge.a, (0, 0, 0, 0))[2] > 0 or overflowing.get(edge.b, (0, 0, 0, 0))[0] > 0
        else:
            spill = overflowing.get(edge.a, (0, 0, 0, 0))[3] > 0 or overflowing.get(edge.b, (0, 0, 0, 0))[1] > 0
        if spill:
            tags.append("overflow_into")
        items["edges"][edge.name] = {"truth": "brick" if edge in garden.bricks else "none", "tags": tags}

    for plot in PLOTS:
        tags = []
        fill_over = "fill_over_bubble" in items["plots"][plot_name(plot)]["tags"]
        if fill_over:
            tags.append("fill_over_bubble")
        if plot in garden.butterflies:
            style = bubble_style if rng.random() < 0.8 or by_key else str(rng.choice(["fill", "tick", "cross", "scribble"]))
            kind = bubble_pen_kind
            ink = draw.pencil_ink(rng) if kind == "graphite" else draw.ballpoint_ink(rng, kind)
            draw.bubble_mark(canvas, rng, layout.bubbles[plot], ink, style)
            tags += [f"bubble:{style}", f"pen:{kind}"]
        items["butterflies"][plot_name(plot)] = {"truth": "filled" if plot in garden.butterflies else "empty", "tags": tags}

    # Everything else a player writes: a name, crossed-off rounds, maybe the total.
    draw.handwriting(
        canvas, rng, str(rng.choice(["Ann", "Ben", "Cleo", "Dev", "Mo", "Juliette", "Sam"])), _name_spot(layout, rng), 6.0, writer
    )
    for circle in layout.rounds[: int(rng.integers(0, len(layout.rounds) + 1))]:
        c = np.array([circle.cx_mm, circle.cy_mm])
        draw.line_stroke(canvas, rng, c + np.array([-3.0, 3.0]), c + np.array([3.0, -3.0]), writer, 0.2)
    if rng.random() < 0.4:
        cx, cy = layout.total_box.centre_mm
        draw.handwriting(canvas, rng, str(int(rng.integers(15, 70))), (cx, cy), 6.0, writer)
    items["key"] = key_tags
    items["kit"] = kit
    return items


def _square(cx: float, cy: float, half: float) -> Any:
    from papillon.layout import Rect

    return Rect(cx - half, cy - half, 2 * half, 2 * half)


def _far_bubble() -> Any:
    from papillon.layout import Circle

    return Circle(-100.0, -100.0, 1.0)


def _name_spot(layout: Any, rng: np.random.Generator) -> tuple[float, float]:
    line = layout.player_line
    return line.x1_mm + rng.uniform(12, 30), line.y1_mm - 3.0


# --------------------------------------------------------------------------- the camera


def _paper_points(sheet_: Sheet, points_frame_mm: np.ndarray) -> np.ndarray:
    return points_frame_mm + np.array(sheet_.offset_mm)


def _marker_points(sheet_: Sheet) -> np.ndarray:
    """The 16 marker corners (4 per marker, in marker order) in page mm."""
    layout = garden_layout()
    pts = np.array([c for m in layout.markers for c in m.box.corners_mm()], dtype=np.float64)
    return _paper_points(sheet_, pts)


def _inside(px: np.ndarray, size: tuple[int, int], margin: float) -> np.ndarray:
    return (px[:, 0] >= margin) & (px[:, 0] <= size[0] - margin) & (px[:, 1] >= margin) & (px[:, 1] <= size[1] - margin)


def _place_camera(
    rng: np.random.Generator, paper: Bend, sheet_: Sheet, size: tuple[int, int], refuse: str | None
) -> tuple[Camera, dict[str, Any]]:
    w_mm, h_mm = PAPERS_MM[sheet_.paper]
    zoom = rng.random() < 0.15
    hfov = np.radians(rng.uniform(36, 44) if zoom else rng.uniform(60, 72))
    f = size[0] / 2 / np.tan(hfov / 2) if size[0] >= size[1] else size[1] / 2 / np.tan(hfov / 2)
    tilt = np.radians(35.0 * rng.random() ** 1.3)
    azimuth = rng.uniform(0, 2 * np.pi)
    roll = rng.normal(0, np.radians(8)) + (
        rng.choice([0, np.pi / 2, np.pi, -np.pi / 2]) if rng.random() < 0.6 else rng.uniform(0, 2 * np.pi)
    )
    k1 = rng.uniform(-0.06, 0.0) if rng.random() < 0.8 else 0.0
    k2 = rng.uniform(-0.01, 0.01) if k1 else 0.0
    centre = paper.world(np.array([[w_mm / 2, h_mm / 2]]))[0]
    centre[2] = 0.0
    outline = paper.world(np.array([[x, y] for x in np.linspace(0, w_mm, 5) for y in np.linspace(0, h_mm, 5)]))
    markers = paper.world(_marker_points(sheet_))
    fill = rng.uniform(0.62, 0.92)
    for _attempt in range(30):
        target = centre + np.array([rng.normal(0, 8), rng.normal(0, 8), 0.0])
        distance = 500.0
        for _ in range(6):
            cam = Camera.looking_at(target, distance, tilt, azimuth, roll, f, size, (k1, k2))
            px = cam.project(outline)
            extent = max((px[:, 0].max() - px[:, 0].min()) / size[0], (px[:, 1].max() - px[:, 1].min()) / size[1])
            distance *= extent / fill
        cam = Camera.looking_at(target, distance, tilt, azimuth, roll, f, size, (k1, k2))
        if _inside(cam.project(markers), size, 0.02 * min(size)).all():
            break
        fill *= 0.95
    info: dict[str, Any] = {"tilt_deg": round(float(np.degrees(tilt)), 1), "roll_deg": round(float(np.degrees(roll)) % 360, 1)}
    info |= {"hfov_deg": round(float(np.degrees(hfov)), 1), "k1": round(float(k1), 4), "distance_mm": round(float(distance), 1)}
    if refuse == "corner_out":
        lost = int(rng.integers(0, 4))
        direction = markers[4 * lost : 4 * lost + 4].mean(axis=0) - centre
        direction[2] = 0
        direction /= np.linalg.norm(direction)
        step = 0.0
        while step < 400:
            step += 4.0
            # Aim away from the marker until it leaves the frame.
            cam = Camera.looking_at(target - direction * step, distance, tilt, azimuth, roll, f, size, (k1, k2))
            if not _inside(cam.project(markers[4 * lost : 4 * lost + 4]), size, 0).any():
                break
        info["marker_out"] = lost
    return cam, info


def _maps(camera: Camera, paper: Bend, light_tilt: float) -> tuple[Hits, tuple[int, int]]:
    w, h = camera.width, camera.height
    cw, ch = (w + COARSE_PX - 1) // COARSE_PX, (h + COARSE_PX - 1) // COARSE_PX
    u = (np.arange(cw) + 0.5) * (w / cw) - 0.5
    v = (np.arange(ch) + 0.5) * (h / ch) - 0.5
    uu, vv = np.meshgrid(u, v)
    return trace(camera, paper, uu, vv, light_tilt), (cw, ch)


def _up(a: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(np.ascontiguousarray(a, dtype=np.float32), size, interpolation=cv2.INTER_LINEAR)


def _remap(image: np.ndarray, mx: np.ndarray, my: np.ndarray, border: tuple[float, ...] = (0.0, 0.0, 0.0)) -> np.ndarray:
    mx, my = mx.astype(np.float32, copy=False), my.astype(np.float32, copy=False)
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)


# --------------------------------------------------------------------------- light


def _smooth_blob(rng: np.random.Generator, shape: tuple[int, int], kind: str) -> np.ndarray:
    """A 0-1 field on the coarse grid: a hand's shadow coming in from one side, or a glare spot."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "glare":
        cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        rx, ry = rng.uniform(0.04, 0.12) * w, rng.uniform(0.04, 0.12) * h
        return np.exp(-(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2)).astype(np.float32)
    mask = np.zeros(shape, np.uint8)
    side = int(rng.integers(0, 4))
    depth = rng.uniform(0.2, 0.45)
    along = rng.uniform(0.2, 0.8)
    # A palm entering from one edge with four fingers ahead of it.
    if side in (0, 1):
        x_edge = 0 if side == 0 else w
        reach = depth * w * (1 if side == 0 else -1)
        cy = along * h
        cv2.ellipse(mask, (int(x_edge), int(cy)), (int(abs(reach)), int(0.18 * h)), 0, 0, 360, 255, -1)
        for k in range(4):
            fy = cy + (k - 1.5) * 0.06 * h
            cv2.line(
                mask,
                (int(x_edge + reach * 0.8), int(fy)),
                (int(x_edge + reach * 1.5), int(fy + rng.normal(0, 0.02 * h))),
                255,
                max(int(0.04 * h), 1),
            )
    else:
        y_edge = 0 if side == 2 else h
        reach = depth * h * (1 if side == 2 else -1)
        cx = along * w
        cv2.ellipse(mask, (int(cx), int(y_edge)), (int(0.18 * w), int(abs(reach))), 0, 0, 360, 255, -1)
        for k in range(4):
            fx = cx + (k - 1.5) * 0.06 * w
            cv2.line(
                mask,
                (int(fx), int(y_edge + reach * 0.8)),
                (int(fx + rng.normal(0, 0.02 * w)), int(y_edge + reach * 1.5)),
                255,
                max(int(0.04 * w), 1),
            )
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), rng.uniform(2.0, 6.0))
    return soft


_SRGB_LUT = np.round(
    255
    * np.where(np.linspace(0, 1, 4096) <= 0.0031308, np.linspace(0, 1, 4096) * 12.92, 1.055 * np.linspace(0, 1, 4096) ** (1 / 2.4) - 0.055)
).astype(np.uint8)


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear light to sRGB bytes through a 4096-entry table."""
    clipped = np.clip(linear, 0.0, 1.0, out=linear)
    clipped *= 4095.0
    return _SRGB_LUT[clipped.astype(np.uint16)]


# --------------------------------------------------------------------------- the photo


def make_photo(seed: int, *, max_megapixels: float = 12.5) -> Photo:
    """The photo of seed ``seed`` (JPEG bytes) and its truth (a JSON-able dict)."""
    rng = np.random.default_rng(seed)
    tags: list[str] = []
    refuse = str(rng.choice(REFUSE_KINDS)) if rng.random() < 0.12 else None
    by_key = refuse is None and rng.random() < 0.2
    paper_name = "a4" if rng.random() < 0.75 else "letter"
    fields = starting_fields(rng)
    garden = random_garden(rng, fields)
    field_text = ",".join(plot_name(p) for p in fields)
    document = "garden"
    if refuse == "other_document":
        document = "fill" if rng.random() < 0.5 else "text"
    base = sheet("garden", paper_name, field_text)
    canvas = Canvas(base, rng)
    items = _mark(canvas, rng, garden, fields, by_key)
    if document == "fill":
        canvas = Canvas(sheet("fill", paper_name, None), rng)
    elif document == "text":
        canvas = Canvas(text_document(rng, paper_name), rng)
    tags.append(f"kit:{items.pop('kit')}")
    tags += items.pop("key")

    # -- the scene
    choices = [size for size in SIZES if size[0] * size[1] <= max_megapixels * 1e6] or [SIZES[-1]]
    weights = np.array(SIZE_WEIGHTS[len(SIZES) - len(choices) :])
    size = choices[int(rng.choice(len(choices), p=weights / weights.sum()))]
    if rng.random() < 0.7:
        size = (size[1], size[0])
    tags.append(f"res:{round(size[0] * size[1] / 1e6)}MP")
    shape_kind = "flat" if by_key else str(rng.choice(["flat", "curl", "bow"], p=[0.35, 0.35, 0.3]))
    lift = 0.0 if shape_kind == "flat" else rng.uniform(3.0, 15.0)
    paper = bend(shape_kind, PAPERS_MM[paper_name], lift, rng)
    tags.append(f"paper:{shape_kind}")
    if lift >= 8:
        tags.append("lift>=8mm")
    camera, cam_info = _place_camera(rng, paper, base, size, refuse)
    if cam_info["k1"] < -0.02:
        tags.append("barrel")
    if cam_info["tilt_deg"] >= 20:
        tags.append("tilt>=20")
    light_tilt = rng.uniform(-0.5, 0.5)
    hits, coarse = _maps(camera, paper, light_tilt)
    w, h = size

    # Sample the sheet raster at about the photo's own resolution (a camera pixel integrates its area).
    corners = camera.project(
        paper.world(np.array([[0, 0], [PAPERS_MM[paper_name][0], 0], [0, PAPERS_MM[paper_name][1]]], dtype=np.float64))
    )
    px_per_mm = float(
        max(
            np.hypot(*(corners[1] - corners[0])) / PAPERS_MM[paper_name][0], np.hypot(*(corners[2] - corners[0])) / PAPERS_MM[paper_name][1]
        )
    )
    scale = min(1.0, 1.5 * px_per_mm / PX_PER_MM)
    source = canvas.image
    if scale < 0.95:
        source = cv2.resize(source, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    pxm = _up(hits.paper_xy[..., 0], (w, h))
    pym = _up(hits.paper_xy[..., 1], (w, h))
    paper_img = _remap(source, pxm * PX_PER_MM * scale - 0.5, pym * PX_PER_MM * scale - 0.5)
    pw, ph = PAPERS_MM[paper_name]
    inside_mm = np.minimum(np.minimum(pxm, pw - pxm), np.minimum(pym, ph - pym))
    alpha = np.clip(inside_mm * px_per_mm + 0.5, 0, 1)
    del pxm, pym, inside_mm

    # The table, and maybe a neighbour's sheet lying on it.
    background = str(rng.choice(["wood", "cloth", "desk"]))
    tags.append(f"bg:{background}")
    tx, ty = hits.table_xy[..., 0], hits.table_xy[..., 1]
    lo = np.array([np.percentile(tx, 1), np.percentile(ty, 1)]) - 20
    hi = np.array([np.percentile(tx, 99), np.percentile(ty, 99)]) + 20
    span = np.minimum(hi - lo, 900.0)
    tex = table(rng, background, (float(span[0]), float(span[1])))
    tmx = _up((tx - lo[0]) * TABLE_PX_PER_MM, (w, h))
    tmy = _up((ty - lo[1]) * TABLE_PX_PER_MM, (w, h))
    image = _remap(tex, tmx, tmy, tuple(float(v) for v in tex[tex.shape[0] // 2, tex.shape[1] // 2]))
    other = refuse is None and rng.random() < 0.12
    if other:
        tags.append("other_sheet")
        neighbour = sheet("garden", "a4", "B4,D2")
        small = cv2.resize(neighbour.image, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)
        angle = rng.uniform(-0.5, 0.5) + (np.pi if rng.random() < 0.3 else 0.0)
        side = rng.integers(0, 4)
        offset = np.array(
            [
                [pw + rng.uniform(-40, 30), rng.uniform(-60, 60)],
                [-210 - rng.uniform(-40, 30), rng.uniform(-60, 60)],
                [rng.uniform(-60, 60), ph + rng.uniform(-40, 30)],
                [rng.uniform(-60, 60), -297 - rng.uniform(-40, 30)],
            ][side]
        )
        c, s = np.cos(angle), np.sin(angle)
        rel_x, rel_y = tx - offset[0] - 105, ty - offset[1] - 148.5
        ox = c * rel_x + s * rel_y + 105
        oy = -s * rel_x + c * rel_y + 148.5
        omx, omy = _up(ox * PX_PER_MM * 0.4 - 0.5, (w, h)), _up(oy * PX_PER_MM * 0.4 - 0.5, (w, h))
        layer = _remap(small, omx, omy)
        oin = _up(((ox >= 0) & (ox <= 210) & (oy >= 0) & (oy <= 297)).astype(np.float32), (w, h))
        layer *= oin[..., None]
        image *= (1 - oin)[..., None]
        image += layer
        del omx, omy, layer, oin
    del tmx, tmy
    paper_img *= alpha[..., None]
    image *= (1 - alpha)[..., None]
    image += paper_img
    del paper_img, alpha

    # -- light on the scene (smooth fields, traced on the coarse grid)
    cw, ch = coarse
    light = np.ones((ch, cw), np.float32)
    gx, gy = np.meshgrid(np.linspace(-1, 1, cw), np.linspace(-1, 1, ch))
    strength = rng.uniform(0.0, 0.45)
    if strength > 0.2:
        tags.append("uneven_light")
    a = rng.uniform(0, 2 * np.pi)
    light *= 1 + strength * 0.5 * (np.cos(a) * gx + np.sin(a) * gy)
    light *= 1 - rng.uniform(0.1, 0.35) * (gx**2 + gy**2) / 2  # lens vignetting
    light *= np.where(hits.on_paper, hits.shade, 1.0).astype(np.float32)
    shadow = np.zeros((ch, cw), np.float32)
    if not by_key and rng.random() < 0.2:
        tags.append("hand_shadow")
        shadow = _smooth_blob(rng, (ch, cw), "hand") * rng.uniform(0.35, 0.65)
    glare = np.zeros((ch, cw), np.float32)
    if not by_key and rng.random() < 0.2:
        tags.append("glare")
        glare = _smooth_blob(rng, (ch, cw), "glare") * rng.uniform(0.3, 1.3) * hits.on_paper
    light_full = _up(light * (1 - shadow), (w, h))
    image *= light_full[..., None]
    del light_full
    # Shadows are lit by the bluish sky light; the lamp is warmer: a tint where the shadow falls.
    if shadow.any():
        tint = _up(shadow, (w, h))[..., None]
        image *= 1 - tint * np.array([0.08, 0.02, -0.08], np.float32)
        del tint
    wb = str(rng.choice(["neutral", "warm", "cool"], p=[0.45, 0.3, 0.25]))
    gains = np.array([1.0, 1.0, 1.0], np.float32)
    if wb == "warm":
        gains = np.array([rng.uniform(1.08, 1.25), 1.0, rng.uniform(0.72, 0.9)], np.float32)
    elif wb == "cool":
        gains = np.array([rng.uniform(0.8, 0.92), 1.0, rng.uniform(1.08, 1.22)], np.float32)
    if wb != "neutral":
        tags.append(f"wb:{wb}")
    image *= gains
    if glare.any():
        image += _up(glare, (w, h))[..., None] * np.array([1.0, 1.0, 0.97], np.float32)

    # -- optics: defocus and shake, in units of the sheet's millimetres
    if refuse == "extreme_blur":
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(1.5, 3.0) * px_per_mm)
    else:
        if rng.random() < 0.3 and not by_key:
            sigma = rng.uniform(0.05, 0.25) * px_per_mm
            if sigma > 0.5:
                image = cv2.GaussianBlur(image, (0, 0), sigma)
                tags.append("defocus")
        if rng.random() < 0.15 and not by_key:
            length = max(rng.uniform(0.1, 0.5) * px_per_mm, 1.0)
            k = int(np.ceil(length)) * 2 + 1
            kernel = np.zeros((k, k), np.float32)
            ang = rng.uniform(0, np.pi)
            c0 = k // 2
            cv2.line(
                kernel,
                (round(c0 - np.cos(ang) * length / 2), round(c0 - np.sin(ang) * length / 2)),
                (round(c0 + np.cos(ang) * length / 2), round(c0 + np.sin(ang) * length / 2)),
                1.0,
                1,
            )
            image = cv2.filter2D(image, -1, kernel / kernel.sum())
            tags.append("motion_blur")

    # -- the sensor: auto exposure, shot and read noise
    low_light = not by_key and rng.random() < 0.2
    if low_light:
        tags.append("low_light")
    paper_level = float(np.percentile(image[::16, ::16].max(axis=2), 90))
    image *= rng.uniform(0.8, 0.95) / max(paper_level, 1e-3)
    photons = rng.uniform(150, 500) if low_light else rng.uniform(2000, 6000)
    # Noise drawn at half resolution: demosaicing spreads each sample over about two pixels anyway.
    half = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3), dtype=np.float32)
    noise = cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR) * 1.6
    level = np.maximum(image, 0.0) * (1.0 / photons) + (0.004 if low_light else 0.001) ** 2
    image += noise * np.sqrt(level)
    del noise, level, half
    out = _to_srgb(image)
    del image

    # -- the phone: denoise (chroma hard, luma gently), sharpen, JPEG
    ycc = cv2.cvtColor(out, cv2.COLOR_RGB2YCrCb)
    chroma_sigma = rng.uniform(2.0, 4.0) if low_light else rng.uniform(0.8, 1.5)
    ycc[..., 1] = cv2.GaussianBlur(ycc[..., 1], (0, 0), chroma_sigma)
    ycc[..., 2] = cv2.GaussianBlur(ycc[..., 2], (0, 0), chroma_sigma)
    y = ycc[..., 0].astype(np.float32)
    if low_light:
        y = cv2.bilateralFilter(y, 5, 12, 3)
    blurred = cv2.GaussianBlur(y, (0, 0), rng.uniform(1.0, 2.0))
    ycc[..., 0] = np.clip(y + rng.uniform(0.2, 0.7) * (y - blurred), 0, 255).astype(np.uint8)
    out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    quality = int(rng.integers(70, 96))
    if quality < 80:
        tags.append("jpeg<80")
    if refuse == "greyscale":
        grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
        out = grey if rng.random() < 0.5 else cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok

    # -- where light and warp hit each item
    _item_light(items, camera, paper, base, (cw, ch), (w, h), glare, shadow)
    markers_px = camera.project(paper.world(_marker_points(base))).round(1).tolist()
    flat = shape_kind == "flat" and "glare" not in tags
    follows_key = by_key or _follows_key(items, tags)
    truth: dict[str, Any] = {
        "generator": GENERATOR,
        "seed": seed,
        "should_read": refuse is None,
        "refuse_cause": refuse if refuse != "other_document" else f"other_document:{document}",
        "refuse_words": list(REFUSE_WORDS[refuse]) if refuse else [],
        "notation": garden.to_notation(),
        "starting_fields": field_text,
        "paper": paper_name,
        "size": [w, h],
        "px_per_mm": round(float(px_per_mm), 2),
        "lift_mm": round(float(lift), 1),
        "jpeg_quality": quality,
        "flat": flat,
        "follows_key": follows_key,
        "tags": tags,
        "camera": cam_info,
        "markers_px": markers_px,
        **items,
    }
    return Photo(seed, buf.tobytes(), truth)


def _follows_key(items: dict[str, Any], tags: list[str]) -> bool:
    """Marks exactly as the key says: stamped flowers and key, filled bubbles, whole single bricks, no ghosts or spills."""
    if "key_unstamped" in tags:
        return False
    for kind in ("plots", "edges", "butterflies"):
        for item in items[kind].values():
            for tag in item["tags"]:
                if tag.startswith("flower:") and tag != "flower:stamp":
                    return False
                if tag in ("overflow", "fill_over_bubble", "erased_ghost", "wobbly", "short", "double", "off_hue") or (
                    tag.startswith("bubble:") and tag != "bubble:fill"
                ):
                    return False
    return True


def _item_light(
    items: dict[str, Any],
    camera: Camera,
    paper: Bend,
    base: Sheet,
    coarse: tuple[int, int],
    size: tuple[int, int],
    glare: np.ndarray,
    shadow: np.ndarray,
) -> None:
    """Tag items under the glare spot or the hand's shadow, and record how far one homography of the markers puts them (mm)."""
    layout = garden_layout()
    centres = [b.centre_mm for b in layout.plots] + [((s.x1_mm + s.x2_mm) / 2, (s.y1_mm + s.y2_mm) / 2) for s in layout.edge_slots]
    centres += [(b.cx_mm, b.cy_mm) for b in layout.bubbles]
    page = _paper_points(base, np.array(centres, dtype=np.float64))
    true_px = camera.project(paper.world(page))
    markers = _marker_points(base)
    homography, _ = cv2.findHomography(markers, camera.project(paper.world(markers)))
    flat_px = cv2.perspectiveTransform(page.reshape(-1, 1, 2), homography).reshape(-1, 2)
    # Pixel error to millimetres through the local scale of the true map.
    nudged = camera.project(paper.world(page + np.array([1.0, 0.0])))
    mm_per_px = 1.0 / np.maximum(np.hypot(*(nudged - true_px).T), 1e-6)
    warp_mm = np.hypot(*(flat_px - true_px).T) * mm_per_px
    cw, ch = coarse
    cx = np.clip((true_px[:, 0] * cw / size[0]).astype(int), 0, cw - 1)
    cy = np.clip((true_px[:, 1] * ch / size[1]).astype(int), 0, ch - 1)
    names = [(k, n) for k in ("plots", "edges", "butterflies") for n in items[k]]
    for i, (kind, name) in enumerate(names):
        item = items[kind][name]
        item["warp_mm"] = round(float(warp_mm[i]), 2)
        if glare[cy[i], cx[i]] > 0.25:
            item["tags"].append("under_glare")
        if shadow[cy[i], cx[i]] > 0.2:
            item["tags"].append("under_shadow")


def neighbours_of(plot: int) -> list[int]:
    return neighbours(plot)
