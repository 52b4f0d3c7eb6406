"""Reading every item of a rectified garden sheet: plots, edges, butterfly bubbles.

The sheet's own key is the convention (printed under the garden): a flower is
*stamped*, a field is *shaded green*, a bramble is an *X*, a butterfly is a
*filled bubble*, a brick is *a firm line over the dashed guide*.

All measurements happen on the rectified sheet (:data:`~papillon.scan.detect.RECT_PX_PER_MM`)
after dividing out the light: the paper's white is estimated everywhere by a
morphological closing larger than any mark, so gradients, colour casts and
soft shadows cancel.  Flower colours are calibrated from the colour key row
the player stamps before play (falling back to typical stamp inks when a key
circle is blank).  Each reading is a probability over the possible readings;
its confidence is the probability of the reading chosen, and the runner-up is
the next most probable reading.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from papillon.edition import COLOUR_NAMES
from papillon.grid import EDGES, PLOTS, SIZE, Plot, plot_col, plot_name, plot_row
from papillon.layout import Circle, GardenLayout, Rect

FloatImage = NDArray[Any]

# --------------------------------------------------------------------------- thresholds (with units)

WHITE_KERNEL_MM = 33.0
"""Side of the closing that estimates the paper's white (mm): wider than a plot, so a shaded plot is not taken for paper."""
WHITE_PX_PER_MM = 1.0
"""Resolution at which the paper's white is estimated (px per mm): light varies slowly."""
CHROMA_INK_MIN = 18.0
"""Lab chroma above which a pixel is coloured ink (stamp or green shading), not paper or graphite."""
PENCIL_CHROMA_MAX = 14.0
"""Lab chroma below which a dark pixel is graphite."""
PENCIL_TINT_MAX = 14.0
"""Largest Lab chroma (from the colour of the path around the plot) of a pencil pixel: graphite is grey."""
PENCIL_DARKNESS_MIN = 0.12
"""Darkness (1 - L/100) above the plot's own paper at which a grey pixel is pencil (a blurred line at 2 px/mm keeps ~0.15)."""
PLOT_INSET_MM = 1.4
"""Margin inside a plot box left out of its sample (the printed outline and a little slack)."""
BUBBLE_CLEARANCE_MM = 1.2
"""Margin around the butterfly bubble left out of the plot's sample."""
STAMP_FRACTION_MID = 0.02
"""Share of a plot's sample in stamp colours at which a flower is as likely as not (a stamp covers ~0.08)."""
STAMP_FRACTION_SPREAD = 0.005
"""Width of the stamp logistic (share of the sample)."""
GREEN_FRACTION_MID = 0.15
"""Share of a plot's sample shaded green at which a field is as likely as not."""
GREEN_FRACTION_SPREAD = 0.03
X_COVERAGE_MID = 0.6
"""Share of the two diagonals' length carrying pencil at which a bramble's X is as likely as not."""
X_COVERAGE_SPREAD = 0.07
X_STRAY_MID = 0.06
"""Share of a plot's sample in pencil-grey off both diagonals at which an X's reading is halved (an X leaves ~0.01)."""
X_STRAY_SPREAD = 0.015
MARKED_DARKNESS_MIN = 0.06
"""Darkness above the plot's own paper at which a pixel counts as marked by anything."""
MARKED_FRACTION_MID = 0.12
"""Share of a plot's sample marked at which "empty" loses a quarter of its weight (an empty plot ~0.01, shading 0.2-0.9)."""
MARKED_FRACTION_SPREAD = 0.03
X_ALIGNMENT_MID = 0.55
"""Share of the pencil's gradient energy across each diagonal (the lesser of the two) at which an X is as likely as
not: an X's strokes give ~0.8, hatching parallel to one diagonal ~0.1 on the other, square hatching 0.5."""
X_ALIGNMENT_SPREAD = 0.05
X_BAND_MM = 3.5
"""Half-width of the band around each diagonal where an X's stroke is looked for (mm)."""
X_BINS = 12
"""Pieces each diagonal is cut into for the X's coverage."""
EDGE_BAND_MM = 1.0
"""Half-width of the band along an edge slot searched for a pencil line (mm): inside the plots' printed outlines."""
EDGE_END_MM = 2.0
"""Length left out at each end of an edge slot (mm), where crossing lines meet."""
EDGE_GAP_BRIDGE_MM = 1.6
"""Gaps shorter than this (mm) along a line are bridged: the printed guide's dashes never add up to a line."""
EDGE_DARKNESS_MIN = 0.11
"""Darkness of the darkest point across an edge's band that counts as pencil at that position."""
EDGE_COVERAGE_MID = 0.5
"""Share of an edge slot's length covered by pencil at which a brick is as likely as not."""
EDGE_COVERAGE_SPREAD = 0.07
EDGE_MEDIAN_MID = 0.1
"""Median darkness along an edge slot (its guide ~0.04, a brick 0.11-0.6) at which a brick is as likely as not."""
EDGE_MEDIAN_SPREAD = 0.012
EDGE_COLOURED_CHROMA_MAX = 30.0
"""Lab chroma (against the band's paper) under which a dark pixel too coloured for graphite may still be a pencil
line tinted by JPEG's colour bleeding: not counted as a line, but not as its absence either (stamp ink is ~40+)."""
EDGE_COLOURED_WEIGHT = 0.5
"""How far an edge's brick probability moves toward what the tinted dark pixels say (0: ignore them, 1: trust them)."""
BUBBLE_CORE = 0.65
"""Part of the bubble's radius sampled (inside its printed outline)."""
BUBBLE_FILL_MID = 0.4
"""Share of the bubble's core that is pencil-dark at which a filled bubble is as likely as not."""
BUBBLE_FILL_SPREAD = 0.07
BUBBLE_RING_MM = 1.6
"""Width of the paper ring around a bubble (outside its outline) that gives the bubble's local white (mm)."""
BUBBLE_DARKNESS_MIN = 0.25
"""Darkness above which a pixel in the bubble counts as filled in (the printed faint butterfly is ~0.13)."""
KEY_CORE = 0.7
"""Part of a colour key circle's radius sampled (inside its printed ring)."""
KEY_FRACTION_MIN = 0.15
"""Share of a key circle's core that must be stamped for it to calibrate its colour."""

GREEN_LAB = (72.0, -25.0, 25.0)
"""Lab of green shading (a green pencil or felt pen): only its hue is used."""
PATH_RING_MM = (0.9, 1.5)
"""Distances (mm) outside a plot's box between which the path's paper gives its colour cast."""
GREEN_CHROMA_MIN = 7.0
"""Lab chroma above which a pixel may be green shading (pale coloured pencil; white paper stays under ~3)."""
GREEN_HUE_RANGE_DEG = 35.0
"""Largest hue difference (degrees) from :data:`GREEN_LAB` for a pixel to count as green shading."""
HUE_SPREAD_DEG = 12.0
"""Standard deviation (degrees of Lab hue) of a stamp's colour around its key colour."""
START_PENCIL_CHROMA_MAX = 24.0
"""On a printed (green) starting field, graphite over the grass keeps some green: a looser chroma limit."""
START_COLOURED_CHROMA_MAX = 36.0
"""On a printed starting field, Lab chroma under which a dark pixel may be graphite greened by JPEG's bleeding:
not counted for an X, but not against one either."""
START_PENCIL_DARKNESS_MIN = 0.12
"""On a printed starting field the grass is darker than paper, so a pencil line stands out less: a lower limit."""
START_X_COVERAGE_MID = 0.65
"""On a printed starting field, the X coverage at which a bramble is as likely as not (its printed tufts reach ~0.35)."""
INK_CLEARANCE_MM = 0.7
"""Pencil pixels this close to coloured ink are left out (a blurred stamp's rim looks grey)."""
DEFAULT_INK_LAB: dict[str, tuple[float, float, float]] = {
    "red": (50.0, 60.0, 30.0),
    "blue": (50.0, 5.0, -50.0),
    "yellow": (82.0, 5.0, 75.0),
    "purple": (45.0, 40.0, -40.0),
}
"""Typical stamp inks, used for a colour whose key circle was left blank."""

PLOT_READINGS = ("empty", *COLOUR_NAMES, "field", "bramble")
EDGE_READINGS = ("brick", "none")
BUBBLE_READINGS = ("filled", "empty")


@dataclass(frozen=True)
class Reading:
    """One item read from the sheet: the readings ranked by probability."""

    item: str
    """``'C3'`` (a plot), ``'edge B2-B3'`` or ``'butterfly C3'``."""
    kind: str
    """``plot``, ``edge`` or ``butterfly``."""
    probabilities: tuple[tuple[str, float], ...]
    """Every possible reading with its probability, most probable first."""
    evidence: tuple[tuple[str, float], ...] = ()
    """The measurements behind it (for ``--json`` and the debug overlay)."""

    @property
    def value(self) -> str:
        return self.probabilities[0][0]

    @property
    def confidence(self) -> float:
        return self.probabilities[0][1]

    @property
    def runner_up(self) -> tuple[str, float]:
        return self.probabilities[1] if len(self.probabilities) > 1 else ("none", 0.0)


@dataclass(frozen=True)
class Calibration:
    """The colours of this photo: paper-relative Lab of each stamp, and which came from the key row."""

    inks: dict[str, tuple[float, float, float]]
    from_key: dict[str, bool]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(x, 40.0), -40.0)))


def _ranked(scores: dict[str, float]) -> tuple[tuple[str, float], ...]:
    total = sum(scores.values()) or 1.0
    return tuple(sorted(((k, v / total) for k, v in scores.items()), key=lambda kv: -kv[1]))


# --------------------------------------------------------------------------- light


def white_corrected(rectified: NDArray[Any], px_per_mm: float) -> FloatImage:
    """The sheet divided by its estimated paper white, per channel: paper ~1, ink < 1."""
    h, w = rectified.shape[:2]
    small_size = (max(1, round(w / px_per_mm * WHITE_PX_PER_MM)), max(1, round(h / px_per_mm * WHITE_PX_PER_MM)))
    small = cv2.resize(rectified, small_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, round(WHITE_KERNEL_MM * WHITE_PX_PER_MM) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    white = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    white = cv2.GaussianBlur(white, (0, 0), 2.0 * WHITE_PX_PER_MM)
    white = cv2.resize(white, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(rectified.astype(np.float32) / np.maximum(white, 1.0), 0.0, 1.0)


@dataclass(frozen=True)
class Maps:
    """Per-pixel views of the white-corrected sheet."""

    lab: FloatImage
    chroma: FloatImage
    darkness: FloatImage
    px_per_mm: float

    def px(self, mm: float) -> int:
        return round(mm * self.px_per_mm)

    def box(self, rect: Rect, inset_mm: float = 0.0) -> tuple[slice, slice]:
        return (
            slice(self.px(rect.y_mm + inset_mm), self.px(rect.bottom_mm - inset_mm)),
            slice(self.px(rect.x_mm + inset_mm), self.px(rect.right_mm - inset_mm)),
        )


def maps(rectified: NDArray[Any], px_per_mm: float) -> Maps:
    corrected = white_corrected(rectified, px_per_mm)
    lab = cv2.cvtColor(corrected, cv2.COLOR_RGB2Lab)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    darkness = 1.0 - lab[..., 0] / 100.0
    return Maps(lab, chroma, darkness, px_per_mm)


def _disc(m: Maps, circle: Circle, radius_mm: float) -> tuple[tuple[slice, slice], NDArray[Any]]:
    x0, y0 = m.px(circle.cx_mm - radius_mm), m.px(circle.cy_mm - radius_mm)
    x1, y1 = m.px(circle.cx_mm + radius_mm) + 1, m.px(circle.cy_mm + radius_mm) + 1
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = (xx + 0.5 - circle.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - circle.cy_mm * m.px_per_mm) ** 2 <= (radius_mm * m.px_per_mm) ** 2
    return (slice(y0, y1), slice(x0, x1)), inside


# --------------------------------------------------------------------------- colours


def calibrate(m: Maps, layout: GardenLayout) -> Calibration:
    """Each stamp colour as stamped in the key row (or its typical ink if that circle is blank)."""
    inks: dict[str, tuple[float, float, float]] = {}
    from_key: dict[str, bool] = {}
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        where, inside = _disc(m, circle, circle.r_mm * KEY_CORE)
        inked = inside & (m.chroma[where] > CHROMA_INK_MIN)
        if inked.sum() >= KEY_FRACTION_MIN * inside.sum():
            lab = m.lab[where][inked]
            inks[colour] = (float(np.median(lab[:, 0])), float(np.median(lab[:, 1])), float(np.median(lab[:, 2])))
            from_key[colour] = True
        else:
            inks[colour] = DEFAULT_INK_LAB[colour]
            from_key[colour] = False
    return Calibration(inks, from_key)


def _hue(lab: tuple[float, float, float]) -> float:
    return math.degrees(math.atan2(lab[2], lab[1]))


def _hue_gap(hues: NDArray[Any], ref: float) -> NDArray[Any]:
    """Angular distance (degrees, 0-180) from each hue to ``ref``: ink load changes chroma and lightness, hardly hue."""
    gap: NDArray[Any] = np.abs((hues - ref + 180.0) % 360.0 - 180.0)
    return gap


# --------------------------------------------------------------------------- plots


def _plot_sample(m: Maps, layout: GardenLayout, plot: Plot) -> tuple[tuple[slice, slice], NDArray[Any]]:
    box = layout.plots[plot]
    where = m.box(box, PLOT_INSET_MM)
    bubble = layout.bubbles[plot]
    yy, xx = np.mgrid[where[0], where[1]]
    r = (bubble.r_mm + BUBBLE_CLEARANCE_MM) * m.px_per_mm
    keep = (xx + 0.5 - bubble.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - bubble.cy_mm * m.px_per_mm) ** 2 > r * r
    return where, keep


def _x_coverage(pencil: NDArray[Any], keep: NDArray[Any], px_per_mm: float, dark: NDArray[Any]) -> tuple[float, float, float]:
    """How an X fits the plot's pencil marks: the share of the two diagonals' length carrying pencil (an X
    covers most of both), the share of the sample in pencil off them (hatching or writing), and how well
    the strokes in each diagonal's band run along it (0-1, the lesser of the two: an X's strokes do,
    hatching parallel to one diagonal only crosses the other)."""
    h, w = pencil.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    band = X_BAND_MM * px_per_mm
    covered = []
    near_any = np.zeros_like(pencil)
    gx = cv2.Sobel(dark, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(dark, cv2.CV_32F, 0, 1, ksize=3)
    strokes = cv2.dilate(pencil.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    alignment = []
    for diag in (0, 1):
        # Position along the diagonal (0-1) and distance from it.
        if diag == 0:
            along = (xx / w + yy / h) / 2
            off = (xx / w - yy / h) * min(w, h) / math.sqrt(2)
            normal = (1.0, -1.0)
        else:
            along = (xx / w + (h - yy) / h) / 2
            off = (xx / w - (h - yy) / h) * min(w, h) / math.sqrt(2)
            normal = (1.0, 1.0)
        near = np.abs(off) <= band
        near_any |= near
        bins = np.minimum((along * X_BINS).astype(np.int32), X_BINS - 1)
        for b in range(1, X_BINS - 1):  # the very corners are often left short
            sel = near & (bins == b)
            usable = sel & keep
            if usable.sum() < 0.5 * sel.sum() or not sel.any():
                continue
            covered.append(bool((pencil & usable).sum() >= max(2.0, 0.3 * px_per_mm * px_per_mm)))
        # A stroke along the diagonal has its darkness gradient across it, along the diagonal's normal.
        sel = near & keep & strokes
        across = (gx[sel] * normal[0] + gy[sel] * normal[1]) ** 2 / 2
        total = gx[sel] ** 2 + gy[sel] ** 2
        alignment.append(float(across.sum() / total.sum()) if total.sum() > 0 else 0.0)
    stray = float((pencil & keep & ~near_any).sum()) / max(int(keep.sum()), 1)
    return (float(np.mean(covered)) if covered else 0.0), stray, min(alignment)


def _path_tint(m: Maps, layout: GardenLayout, plot: Plot) -> tuple[float, float]:
    """Median Lab (a, b) of the path between this plot and its neighbours: the paper's leftover colour cast there.

    Only the sides facing another plot: on the garden's border the printed green frame would pass for a cast.
    """
    box = layout.plots[plot]
    near, far = PATH_RING_MM
    col, row = plot_col(plot), plot_row(plot)
    strips = []
    if row > 0:
        strips.append(Rect(box.x_mm, box.y_mm - far, box.w_mm, far - near))
    if row < SIZE - 1:
        strips.append(Rect(box.x_mm, box.bottom_mm + near, box.w_mm, far - near))
    if col > 0:
        strips.append(Rect(box.x_mm - far, box.y_mm, far - near, box.h_mm))
    if col < SIZE - 1:
        strips.append(Rect(box.right_mm + near, box.y_mm, far - near, box.h_mm))
    pixels = np.concatenate([m.lab[m.box(strip)].reshape(-1, 3) for strip in strips])
    return float(np.median(pixels[:, 1])), float(np.median(pixels[:, 2]))


def read_plot(m: Maps, layout: GardenLayout, plot: Plot, calibration: Calibration, *, starting: bool) -> Reading:
    where, keep = _plot_sample(m, layout, plot)
    lab, chroma, dark = m.lab[where], m.chroma[where], m.darkness[where]
    total = max(int(keep.sum()), 1)
    inked = keep & (chroma > CHROMA_INK_MIN)
    # Darkness against this plot's own paper: a white estimate off by a little shifts both alike.
    relative = dark - float(np.median(dark[keep])) if keep.any() else dark
    near_ink = cv2.dilate(inked.astype(np.uint8), np.ones((m.px(INK_CLEARANCE_MM) * 2 + 1,) * 2, np.uint8)) > 0
    tint_a, tint_b = _path_tint(m, layout, plot)
    rel_a, rel_b = lab[..., 1] - tint_a, lab[..., 2] - tint_b
    if starting:
        pencil = (chroma < START_PENCIL_CHROMA_MAX) & (relative > START_PENCIL_DARKNESS_MIN)
    else:
        # Graphite is as grey as the paper around the plot; pale green shading strokes are not.
        pencil = (np.hypot(rel_a, rel_b) < PENCIL_TINT_MAX) & (relative > PENCIL_DARKNESS_MIN) & ~near_ink
    x_cov, stray, aligned = _x_coverage(pencil, keep, m.px_per_mm, dark)
    p_x = _sigmoid((x_cov - (START_X_COVERAGE_MID if starting else X_COVERAGE_MID)) / X_COVERAGE_SPREAD)
    p_x *= _sigmoid((aligned - X_ALIGNMENT_MID) / X_ALIGNMENT_SPREAD)
    if not starting:
        # Much pencil-grey off the diagonals (pale hatching, writing) makes an X doubtful, never sure.
        p_x *= 1.0 - 0.5 * _sigmoid((stray - X_STRAY_MID) / X_STRAY_SPREAD)
    if starting:
        # Over the printed grass JPEG's chroma bleeding greens the graphite: dark pixels turned away only for
        # that tint are no evidence against an X; when counting them makes one, the plot goes halfway to review.
        tinted = (chroma < START_COLOURED_CHROMA_MAX) & (relative > START_PENCIL_DARKNESS_MIN)
        cov_t, _, aligned_t = _x_coverage(tinted, keep, m.px_per_mm, dark)
        p_tinted = _sigmoid((cov_t - START_X_COVERAGE_MID) / X_COVERAGE_SPREAD) * _sigmoid(
            (aligned_t - X_ALIGNMENT_MID) / X_ALIGNMENT_SPREAD
        )
        if p_tinted > p_x:
            p_x += (p_tinted - p_x) * EDGE_COLOURED_WEIGHT
        # A printed field: still a field, unless a bramble's X overwrote it.
        seen = (("x_coverage", x_cov), ("x_alignment", aligned), ("x_coverage_tinted", cov_t))
        return Reading(plot_name(plot), "plot", _ranked({"field": 1.0 - p_x, "bramble": p_x}), seen)
    refs = {c: _hue(v) for c, v in calibration.inks.items()}
    hues = np.degrees(np.arctan2(lab[..., 2][inked], lab[..., 1][inked])).astype(np.float32)
    gaps = np.stack([_hue_gap(hues, h) for h in refs.values()] + [_hue_gap(hues, _hue(GREEN_LAB))])
    nearest = np.argmin(gaps, axis=0) if len(hues) else np.zeros(0, np.int64)
    # Green shading is often pale: counted from a lower chroma, within a hue range no stamp reaches, and
    # measured from the tint of the path around the plot (paper left with a cast must not look green).
    tinted = keep & (np.hypot(rel_a, rel_b) > GREEN_CHROMA_MIN)
    all_hues = np.degrees(np.arctan2(rel_b[tinted], rel_a[tinted])).astype(np.float32)
    to_green = _hue_gap(all_hues, _hue(GREEN_LAB))
    closer = np.all(np.stack([to_green < _hue_gap(all_hues, h) for h in refs.values()]), axis=0) if len(all_hues) else np.zeros(0, bool)
    green_fraction = float(((to_green < GREEN_HUE_RANGE_DEG) & closer).sum()) / total
    stamp_hues = hues[nearest < len(refs)]
    stamp_fraction = len(stamp_hues) / total
    evidence = [
        ("stamp_fraction", stamp_fraction),
        ("green_fraction", green_fraction),
        ("x_coverage", x_cov),
        ("off_diagonal", stray),
        ("x_alignment", aligned),
    ]
    p_green = _sigmoid((green_fraction - GREEN_FRACTION_MID) / GREEN_FRACTION_SPREAD)
    # Green shading and an X together: a bramble over a field, or hatching taken for an X; a person decides.
    p_x *= 1.0 - 0.5 * p_green
    p_stamp = _sigmoid((stamp_fraction - STAMP_FRACTION_MID) / STAMP_FRACTION_SPREAD)
    colour_probs = {c: 1.0 / len(refs) for c in refs}
    if len(stamp_hues):
        weights = chroma[inked][nearest < len(refs)]
        rad = np.radians(stamp_hues)
        mean = math.degrees(math.atan2(float((np.sin(rad) * weights).sum()), float((np.cos(rad) * weights).sum())))
        gap = {c: float(_hue_gap(np.array([mean], np.float32), h)[0]) for c, h in refs.items()}
        best = min(gap.values())
        likes = {c: math.exp(-(v * v - best * best) / (2 * HUE_SPREAD_DEG**2)) for c, v in gap.items()}
        norm = sum(likes.values())
        colour_probs = {c: w / norm for c, w in likes.items()}
        evidence += [("hue", mean)]
    # A plot with much ink that no reading explains (pale shading, a smudge, a shadow's edge) is less surely empty.
    marked = float((keep & (relative > MARKED_DARKNESS_MIN)).sum()) / total
    p_marked = _sigmoid((marked - MARKED_FRACTION_MID) / MARKED_FRACTION_SPREAD)
    evidence.append(("marked", marked))
    rest = 1.0 - p_x
    scores = {
        "bramble": p_x,
        "field": rest * p_green,
        "empty": rest * (1 - p_green) * (1 - p_stamp) * (1 - 0.5 * p_marked),
    }
    for colour in refs:
        scores[colour] = rest * (1 - p_green) * p_stamp * colour_probs[colour]
    return Reading(plot_name(plot), "plot", _ranked(scores), tuple(evidence))


# --------------------------------------------------------------------------- edges and bubbles


def read_edge(m: Maps, layout: GardenLayout, index: int) -> Reading:
    slot = layout.edge_slots[index]
    band, end = EDGE_BAND_MM, EDGE_END_MM
    if slot.x1_mm == slot.x2_mm:  # vertical line between left/right neighbours
        ys = slice(m.px(min(slot.y1_mm, slot.y2_mm) + end), m.px(max(slot.y1_mm, slot.y2_mm) - end))
        xs = slice(m.px(slot.x1_mm - band), m.px(slot.x1_mm + band) + 1)
        axis = 1
    else:
        xs = slice(m.px(min(slot.x1_mm, slot.x2_mm) + end), m.px(max(slot.x1_mm, slot.x2_mm) - end))
        ys = slice(m.px(slot.y1_mm - band), m.px(slot.y1_mm + band) + 1)
        axis = 0
    dark, lab = m.darkness[ys, xs], m.lab[ys, xs]
    # Colour against the band's own paper (its median: a line covers a small part of it), so a colour cast or
    # JPEG's chroma bleeding from a stamp or shading nearby shifts paper and pencil alike.
    tint = np.median(lab[..., 1:].reshape(-1, 2), axis=0) if dark.size else np.zeros(2)
    chroma = np.hypot(lab[..., 1] - tint[0], lab[..., 2] - tint[1])
    p, coverage, darkness = _edge_line(np.where(chroma < PENCIL_CHROMA_MAX, dark, 0.0), dark, axis, m)
    # Dark pixels turned away only for their colour (too coloured for graphite, too pale for a stamp) are no
    # evidence either way: when counting them would make a line, the edge goes halfway toward it, for review.
    p_coloured, _, _ = _edge_line(np.where(chroma < EDGE_COLOURED_CHROMA_MAX, dark, 0.0), dark, axis, m)
    if p_coloured > p:
        p += (p_coloured - p) * EDGE_COLOURED_WEIGHT
    name = f"edge {EDGES[index].name}"
    evidence = (("coverage", coverage), ("darkness", darkness), ("coloured", p_coloured))
    return Reading(name, "edge", _ranked({"brick": p, "none": 1 - p}), evidence)


def _edge_line(grey: FloatImage, dark: FloatImage, axis: int, m: Maps) -> tuple[float, float, float]:
    """How surely the pencil pixels ``grey`` (others 0) make a line along an edge band: (p, coverage, darkness)."""
    # Darkest grey point across the band against the lightest one at the same position: a shadow's edge cancels.
    profile = (grey.max(axis=axis) - dark.min(axis=axis)).astype(np.float32) if grey.size else np.zeros(0, np.float32)
    # A running minimum over a gap's length: the dashes of the printed guide fall apart, a line does not.
    k = max(1, m.px(EDGE_GAP_BRIDGE_MM))
    bridged = (
        cv2.erode(profile.reshape(1, -1), np.ones((1, k), np.uint8), borderType=cv2.BORDER_REPLICATE).ravel() if len(profile) else profile
    )
    coverage = float((bridged > EDGE_DARKNESS_MIN).mean()) if len(bridged) else 0.0
    darkness = float(np.median(bridged)) if len(bridged) else 0.0
    # Two views of one line: how much of the slot it covers, and how dark the slot is along its length.
    # Sure when they agree; a faint line (dark enough, too faint to cover) lands in between, for review.
    p = (_sigmoid((coverage - EDGE_COVERAGE_MID) / EDGE_COVERAGE_SPREAD) + _sigmoid((darkness - EDGE_MEDIAN_MID) / EDGE_MEDIAN_SPREAD)) / 2
    return p, coverage, darkness


def read_bubble(m: Maps, layout: GardenLayout, plot: Plot) -> Reading:
    circle = layout.bubbles[plot]
    where, inside = _disc(m, circle, circle.r_mm * BUBBLE_CORE)
    # Against the paper just around the bubble (its lighter part: a field's shading may reach it), so shadows cancel.
    around, ring = _disc(m, circle, circle.r_mm + BUBBLE_RING_MM)
    yy, xx = np.mgrid[around[0], around[1]]
    outside = (xx + 0.5 - circle.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - circle.cy_mm * m.px_per_mm) ** 2 > (
        (circle.r_mm + 0.5) * m.px_per_mm
    ) ** 2
    paper = float(np.percentile(m.darkness[around][ring & outside], 25))
    dark = (m.darkness[where] - paper > BUBBLE_DARKNESS_MIN) & (m.chroma[where] < PENCIL_CHROMA_MAX * 2)
    fraction = float((dark & inside).sum()) / max(int(inside.sum()), 1)
    p = _sigmoid((fraction - BUBBLE_FILL_MID) / BUBBLE_FILL_SPREAD)
    return Reading(f"butterfly {plot_name(plot)}", "butterfly", _ranked({"filled": p, "empty": 1 - p}), (("fill", fraction),))


def read_sheet(
    rectified: NDArray[Any], layout: GardenLayout, starting: tuple[Plot, ...], px_per_mm: float
) -> tuple[list[Reading], Calibration]:
    """Every plot, edge and butterfly bubble of the sheet (in that order), and the colour calibration."""
    m = maps(rectified, px_per_mm)
    calibration = calibrate(m, layout)
    readings = [read_plot(m, layout, p, calibration, starting=p in starting) for p in PLOTS]
    readings += [read_edge(m, layout, i) for i in range(len(EDGES))]
    readings += [read_bubble(m, layout, p) for p in PLOTS]
    return readings, calibration
