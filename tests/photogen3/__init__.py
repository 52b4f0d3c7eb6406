"""Simulated phone photos of filled-in Papillon Gardens garden sheets, with their truth.

An independent generator: written without reading the scanner, its tests or the other photo
generators, so a scanner can be measured on photos nobody on the scanner side has shaped.

    >>> from photogen3 import make_photo          # doctest: +SKIP
    >>> photo = make_photo(1234, max_megapixels=12)  # doctest: +SKIP
    >>> photo.jpeg[:2], photo.truth["should_read"]   # doctest: +SKIP

``make_photo(seed, max_megapixels=48.0)`` draws every choice from ``numpy.random.default_rng(seed)``:
the same seed gives the same bytes.  Seeds 0-499999 are for development; seeds from 700000 on are
held out (never generate them while working on a scanner).

How a photo is made
-------------------
1. The blank sheet is the real PDF of ``papillon sheet`` (in-process, with the photo's paper size,
   ``--mono`` and ``--random-start``), rasterised with pypdfium2 at about the photo's resolution.
   Every position comes from :func:`papillon.layout.garden_layout` at run time.  The raster stops at
   13 px/mm, so a 48 MP photo holds no more paper detail than that (a quad-pixel sensor's 48 MP
   photos are soft at the pixel level too); about 2.5 s of one core for 12 MP, 12 s for 48 MP.
2. A valid garden of the standard edition is grown with papillon's model (:mod:`.gardens`): fields
   next to fields, flowers next to the same colour, brambles, critters and features in fields,
   bricks mostly around patches, butterflies along movement lines; ``garden.problems()`` is empty.
3. One family's "hand" (:mod:`.marks`) draws it: stamps, felt pens, coloured pencils and crayons for
   flowers (felt colouring spills into the gutter), green hatching for fields (sometimes over the
   bubble), an X or a scribble for brambles, bricks in pencil, felt or ballpoint (short, overshooting,
   wobbly, doubled), butterflies filled, ticked, crossed, dotted or scribbled, rubbed-out brick ghosts,
   stray pencil touches and smudges, the name, the round track, the colour key stamps and the total.
4. The page lies on a table and bends like paper (:mod:`.camera`: a bow or a curl, inextensible, so
   lifted parts rise and pull in); a pinhole phone camera looks at it; each pixel is traced back.
5. Light and phone (:mod:`.photo`): wood, cloth, laminate or dark table; white balance left over after
   the phone's correction; lamp gradient, vignetting, hand or phone shadow, glare; defocus and motion
   blur; shot and read noise with the phone's denoising; saturation, sharpening, JPEG, a messenger's
   second compression.

The distribution (one game night's photos, as families take them)
-------------------------------------------------------------------
Each line is the share of photos; the conditions are drawn independently unless said.

- Refused (about 14 %): a corner marker out of frame 4 % (framed too tight, sheet a little turned),
  the sheet mostly cut off 2 %, far too blurry 2.5 % (a blur disc of 2-3.5 mm on paper, or a 7-14 mm shake),
  far too dark 2 % (paper white below about 12 % grey, noisy), the fill sheet (side B) 2.5 %,
  something else 1.5 % (the score pad, a notebook page, the table with a game box and a mug).
  ``refuse_words``: a correct refusal message contains at least one of these words.
- Phone: 12 MP 44 %, 48 MP 16 %, 8 MP 12 %, 5 MP 7 %, 2 MP 7 % (old phones, messengers), 16 MP 8 %,
  24 MP 6 %; capped by ``max_megapixels``.  4:3 80 %, 16:9 14 %, square 6 %; portrait 78 %.
  JPEG quality 62-95; 5 % more (and all 2 MP) went through a messenger (shrunk to 1600 px, again JPEG).
- Light: warm tungsten kitchen light 50 % (the phone corrects it only part of the way), daylight 30 %,
  cool LED 20 %; low light 22 % (noise, grain, often a slow-shutter shake).
- Framing: tilt from straight down |N(0, 12°)| for 80 %, 20-38° for 20 % (shot from the chair);
  in-plane roll near 0° 86 %, upside down 6 % (from across the table), sideways 8 %, each with a few
  degrees of wobble; the sheet spans 72-97 % of the frame and is rarely centred exactly.
- Focus and shake: mild defocus 25 %, mild motion blur 18 %.
- Paper: flat 45 %; otherwise a bow (2-14 mm, hump or valley) and/or a curled edge or corner (3-22 mm).
- Glare 15 %; a hand's shadow 17 %, a phone's shadow 15 %; a thumb holding an edge flat 10 %.
- Table: wood 45 %, tablecloth 25 % (gingham or plain), laminate 20 %, dark 10 %.
- Sheet: A4 80 %, Letter 20 %; printed in grey (``--mono``) 8 %; a random start 12 %; printed two to a
  page (``--per-page 2``, 0.665 scale) and cut out 5 %.
- Game stage: finished 70 %, middle 17 %, early 10 %, blank 3 %.
- Marks: a family stamps flowers 50 %, felt 25 %, coloured pencil 15 %, crayon 10 % (each plot keeps the
  family's habit 85 % of the time); fields in green pencil 58 %, felt 20 %, crayon 15 %, grey pencil 7 %
  (off the key); brambles X 88 %, scribble 12 % (off the key); critters drawn as pictures (off the key)
  by 15 % of families; butterflies filled 60 %, ticked 25 %, crossed 7 %, dotted 4 %, scribbled 4 %
  (the last three are off the printed key, but count as filled;
  one butterfly in ten strays from the family's habit, mostly to a fill or a tick); a pencil brick fainter
  than 30 % is off the key ("a firm line");
  bricks pencil 42 %, felt 33 %, ballpoint 25 %; 10 % of bricks short, 12 % doubled; an erased brick
  ghost on 5 % of the free edges of pencil families (1.5 % otherwise); about one stray mark a sheet.

``follows_key`` is false when any mark breaks the printed key ("Field: shade it green · critter or
feature: its code in a field · bramble: X · Butterfly: fill the bubble (a tick counts) · brick: a firm
line"); ``truth["off_key"]`` says which.  ``warp_mm`` is how far the bend moves an item from where a
homography through the four markers' corners puts it (0.0 on flat paper).  ``markers_in_frame``
lists the corner markers wholly inside the photo (0 top-left, clockwise; on the fill sheet its own).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from papillon.edition import standard_edition
from papillon.grid import EDGES, PLOT_NAMES
from papillon.layout import fill_layout, garden_layout, random_starting_fields
from papillon.notation import format_garden

from .camera import Scene, Surface, place
from .conditions import REFUSALS, Conditions, draw_conditions
from .gardens import random_garden
from .marks import PENCIL, Marked, mark_garden
from .paper import RASTER_SCALES, Sheet, page_of
from .photo import encode, render

HELD_OUT_FROM = 700000
"""Seeds from here on are the lead's held-out set."""


@dataclass(frozen=True)
class Photo:
    jpeg: bytes
    truth: dict[str, Any]


def make_photo(seed: int, max_megapixels: float = 48.0) -> Photo:
    """One simulated phone photo and its truth (see the module docstring)."""
    if max_megapixels <= 0:
        raise ValueError("max_megapixels must be positive")
    rng = np.random.default_rng(seed)
    c = draw_conditions(rng, max_megapixels)
    layout = garden_layout()
    edition = standard_edition()
    starting = tuple(random_starting_fields(c.random_start)) if c.random_start is not None else tuple(edition.rules.starting_fields)
    garden, stage = random_garden(rng, starting)
    page_mm, offset, k = page_of(c.paper, c.two_up)

    def on_page(x: float, y: float) -> tuple[float, float]:
        return offset[0] + k * x, offset[1] + k * y

    surface = Surface.make(page_mm, c, rng)
    markers = np.array([[on_page(x, y) for x, y in m.box.corners_mm()] for m in layout.markers])
    g = layout.garden
    garden_mm = (*on_page(g.x_mm, g.y_mm), *on_page(g.right_mm, g.bottom_mm))
    scene = place(c, page_mm, surface, rng, markers, garden_mm)
    scale = _raster_scale(scene)
    marked = Marked()
    what = "garden"
    if c.refuse_cause == "wrong_side":
        what = "fill"
    elif c.refuse_cause == "not_a_sheet":
        what = str(rng.choice(["score", "notebook", "nothing"], p=[0.4, 0.3, 0.3]))
    page: np.ndarray | None = None
    if what in ("garden", "fill", "score"):
        sheet = Sheet(what, c.paper, c.mono, c.random_start if what == "garden" else None, scale, rng, c.two_up and what == "garden")
        if what == "garden":
            marked = mark_garden(sheet, layout, garden, stage, set(starting), rng)
        elif what == "fill":
            _mark_fill(sheet, rng)
        page = sheet.uint8()
    elif what == "notebook":
        page = _notebook(page_mm, scale, rng)
    image = render(scene, page, scale, c, rng, props=what == "nothing")
    jpeg = encode(image, c, rng)
    truth = _truth(seed, c, garden, stage, marked, scene, markers, on_page, jpeg)
    if what != "garden":
        truth["tags"].append(f"subject_{what}")
    truth["markers_in_frame"] = [] if page is None or what in ("score", "notebook") else _markers_in_frame(scene, markers)
    return Photo(jpeg, truth)


def _markers_in_frame(scene: Scene, markers: np.ndarray) -> list[int]:
    """The corner markers (0 top-left, clockwise) wholly inside the photo."""
    return [k for k, corners in enumerate(markers) if bool(scene.inside(corners).all())]


def _raster_scale(scene: Scene) -> float:
    """The photo's largest pixels per page millimetre, and the raster scale just above it."""
    w, h = scene.page_mm
    gx, gy = np.meshgrid(np.linspace(0, w, 8), np.linspace(0, h, 8))
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
    q0 = scene.project_page(pts)
    q1 = scene.project_page(pts + np.array([1.0, 0.0]))
    q2 = scene.project_page(pts + np.array([0.0, 1.0]))
    local = np.maximum(np.hypot(*(q1 - q0).T), np.hypot(*(q2 - q0).T)).max()
    for s in RASTER_SCALES:
        if s >= local * 1.05:
            return s
    return RASTER_SCALES[-1]


def _mark_fill(sheet: Sheet, rng: np.random.Generator) -> None:
    """A used fill sheet: some bubbles pencilled in."""
    fill = fill_layout(standard_edition())
    circles = list(fill.caterpillar[: int(rng.integers(0, len(fill.caterpillar)))])
    for column in (*fill.ladders, *fill.tracks):
        circles += list(column.bubbles[: int(rng.integers(0, len(column.bubbles) + 1))])
    for circle in circles:
        r = circle.r_mm * 0.7
        t = np.linspace(0, 6 * math.pi, 40)
        pts = np.stack(
            [circle.cx_mm + r * np.cos(t) * np.linspace(1, 0.2, 40), circle.cy_mm + r * np.sin(t) * np.linspace(1, 0.2, 40)], axis=1
        )
        sheet.ink([pts], width_mm=0.8, colour=PENCIL["graphite"], opacity=0.7, grain=0.6)


def _notebook(page_mm: tuple[float, float], scale: float, rng: np.random.Generator) -> np.ndarray:
    """A lined notebook page with a shopping list: paper that is not a papillon sheet."""
    import cv2

    w, h = round(page_mm[0] * scale), round(page_mm[1] * scale)
    page = np.full((h, w, 3), (250, 248, 240), np.uint8)
    pitch = 8.0 * scale
    for k in range(int(h / pitch)):
        y = int((20 + k * 8.0) * scale)
        cv2.line(page, (0, y), (w, y), (170, 190, 225), max(1, int(0.25 * scale)), cv2.LINE_AA)
    cv2.line(page, (int(25 * scale), 0), (int(25 * scale), h), (220, 120, 120), max(1, int(0.3 * scale)), cv2.LINE_AA)
    words = ["milk", "eggs", "dice", "pencils", "bread", "call Oma", "stamps", "apples", "tea"]
    for k in range(int(rng.integers(4, 14))):
        y = int((20 + (k + 1) * 8.0) * scale) - 2
        text = " ".join(str(x) for x in rng.choice(words, size=int(rng.integers(1, 4))))
        cv2.putText(
            page,
            text,
            (int(30 * scale), y),
            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
            5.0 * scale / 22,
            (60, 60, 90),
            max(1, int(0.4 * scale)),
            cv2.LINE_AA,
        )
    return page


def _truth(
    seed: int,
    c: Conditions,
    garden: Any,
    stage: str,
    marked: Marked,
    scene: Scene,
    markers: np.ndarray,
    on_page: Any,
    jpeg: bytes,
) -> dict[str, Any]:
    layout = garden_layout()
    size = _jpeg_size(jpeg)

    warp = _warp_function(scene, markers)

    def where(x: float, y: float) -> float:
        return warp(*on_page(x, y))

    plots = {}
    butterflies = {}
    edges = {}
    for plot, name in enumerate(PLOT_NAMES):
        box = layout.plots[plot]
        bubble = layout.bubbles[plot]
        item = marked.plots.get(name) or {"truth": _cell_truth(garden, plot), "tags": []}
        plots[name] = {**item, "warp_mm": where(*box.centre_mm)}
        b = marked.butterflies.get(name) or {"truth": "filled" if plot in garden.butterflies else "empty", "tags": []}
        butterflies[name] = {**b, "warp_mm": where(bubble.cx_mm, bubble.cy_mm)}
    for index, edge in enumerate(EDGES):
        slot = layout.edge_slots[index]
        e = marked.edges.get(edge.name) or {"truth": "brick" if edge in garden.bricks else "none", "tags": []}
        edges[edge.name] = {**e, "warp_mm": where((slot.x1_mm + slot.x2_mm) / 2, (slot.y1_mm + slot.y2_mm) / 2)}
    cause = c.refuse_cause
    return {
        "seed": seed,
        "should_read": cause is None,
        "refuse_cause": cause,
        "refuse_words": list(REFUSALS[cause][1]) if cause else [],
        "tags": [*c.tags, f"stage_{stage}"],
        "flat": not scene.surface.bent and not c.glare,
        "follows_key": not marked.off_key,
        "off_key": sorted(set(marked.off_key)),
        "size": list(size),
        "notation": format_garden(garden),
        "layout": layout.id,
        "plots": plots,
        "edges": edges,
        "butterflies": butterflies,
    }


def _cell_truth(garden: Any, plot: int) -> str:
    cell = garden[plot]
    if cell.is_flower:
        return str(cell.colour)
    return {"empty": "empty", "field": "field", "bramble": "bramble"}[cell.ground.value]


def _warp_function(scene: Scene, markers: np.ndarray) -> Any:
    """Page mm -> how far the bend moves the point from where the markers' homography puts it (mm)."""
    import cv2

    if not scene.surface.bent:
        return lambda x, y: 0.0
    src = markers.reshape(-1, 2)
    dst = scene.project_page(src)
    h, _ = cv2.findHomography(src, dst, 0)
    hinv = np.linalg.inv(h)

    def warp(x: float, y: float) -> float:
        q = scene.project_page(np.array([[x, y]]))[0]
        v = hinv @ np.array([q[0], q[1], 1.0])
        return round(float(math.hypot(v[0] / v[2] - x, v[1] / v[2] - y)), 2)

    return warp


def _jpeg_size(jpeg: bytes) -> tuple[int, int]:
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(jpeg)) as im:
        return im.size


__all__ = ["HELD_OUT_FROM", "Photo", "make_photo"]
