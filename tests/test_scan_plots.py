"""Plot readings on small hand-made sheets (issue 8): each test draws one mechanism with dyes laid over white paper
(Beer-Lambert: every coat multiplies the paper's light by the dye's transmittance) and reads one plot."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from papillon.grid import plot_name  # noqa: E402
from papillon.layout import garden_layout  # noqa: E402
from papillon.scan import classify  # noqa: E402

PX = 6.0
PAPER = 0.85
"""Linear reflectance of the paper."""
BLUE = (40, 100, 210)
PURPLE = (130, 60, 180)
RED = (214, 38, 46)
YELLOW = (250, 214, 40)
BLUE_BALLPOINT = (35, 50, 150)
GRAPHITE = (95, 97, 102)
PLOT = 12  # C3


def _linear(rgb: tuple[int, int, int]) -> np.ndarray:
    return (np.array(rgb, np.float32) / 255.0) ** 2.2


class Sheet:
    def __init__(self) -> None:
        self.layout = garden_layout()
        w, h = self.layout.frame_mm
        self.light = np.full((round(h * PX), round(w * PX), 3), PAPER, np.float32)

    def lay(self, mask: np.ndarray, rgb: tuple[int, int, int], coats: float = 1.0) -> None:
        """Dye ``rgb`` over the pixels of ``mask`` (0-1), ``coats`` thick."""
        self.light *= np.power(_linear(rgb)[None, None, :], coats * mask[..., None])

    def grey(self, mask: np.ndarray, rgb: tuple[int, int, int], cover: float) -> None:
        """Graphite: a grey film covering ``cover`` of the paper under ``mask``."""
        a = cover * mask[..., None]
        self.light = self.light * (1 - a) + a * _linear(rgb)[None, None, :]

    def disc(self, cx: float, cy: float, r: float) -> np.ndarray:
        mask = np.zeros(self.light.shape[:2], np.float32)
        cv2.circle(mask, (round(cx * PX), round(cy * PX)), round(r * PX), 1.0, -1)
        return mask

    def lines(self, points_mm: list[list[tuple[float, float]]], width_mm: float) -> np.ndarray:
        mask = np.zeros(self.light.shape[:2], np.float32)
        for line in points_mm:
            pts = np.array([[round(x * PX), round(y * PX)] for x, y in line], np.int32).reshape(-1, 1, 2)
            cv2.polylines(mask, [pts], False, 1.0, max(1, round(width_mm * PX)), cv2.LINE_AA)
        return mask

    def key(self, colours: dict[str, tuple[int, int, int]]) -> None:
        """Stamp the colour key with these pens (one coat)."""
        for name, circle in zip(("red", "blue", "yellow", "purple"), self.layout.colour_key, strict=True):
            if name in colours:
                self.lay(self.disc(circle.cx_mm, circle.cy_mm, circle.r_mm * 0.9), colours[name])

    def hatch(self, plot: int, rgb: tuple[int, int, int], coats: float, spacing_mm: float = 0.9, width_mm: float = 0.45) -> None:
        box = self.layout.plots[plot]
        lines = []
        for k in np.arange(-box.h_mm, box.w_mm, spacing_mm):
            lines.append([(box.x_mm + 2 + k, box.bottom_mm - 2), (box.x_mm + 2 + k + box.h_mm - 4, box.y_mm + 2)])
        mask = self.lines(lines, width_mm)
        inner = np.zeros_like(mask)
        inner[round((box.y_mm + 2) * PX) : round((box.bottom_mm - 2) * PX), round((box.x_mm + 2) * PX) : round((box.right_mm - 2) * PX)] = 1
        self.lay(mask * inner, rgb, coats)

    def read(self, plot: int = PLOT) -> classify.Reading:
        srgb = np.clip(self.light, 0, 1) ** (1 / 2.2)
        image = (srgb * 255 + 0.5).astype(np.uint8)
        m = classify.maps(image, PX)
        calibration = classify.calibrate(m, self.layout)
        return classify.read_plot(m, self.layout, plot, calibration, starting=False)


def _x(sheet: Sheet, plot: int, bend_mm: float) -> list[list[tuple[float, float]]]:
    """An X from corner to corner of ``plot``, each stroke bent sideways by ``bend_mm`` at its middle."""
    box = sheet.layout.plots[plot]
    x0, y0, x1, y1 = box.x_mm + 2.5, box.y_mm + 2.5, box.right_mm - 2.5, box.bottom_mm - 2.5
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return [[(x0, y0), (cx + bend_mm, cy - bend_mm), (x1, y1)], [(x1, y0), (cx + bend_mm, cy + bend_mm), (x0, y1)]]


@pytest.mark.parametrize(("ink", "truth"), [(BLUE, "blue"), (PURPLE, "purple")])
def test_a_thick_blue_is_not_taken_for_purple(ink, truth):
    # A blue dye's Lab hue runs toward purple as it thickens (-71 degrees at one coat, -58 at three: purple is -46),
    # so by Lab hue alone three coats of blue sit between the two keys.  Its optical density keeps its direction.
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    box = sheet.layout.plots[PLOT]
    sheet.lay(sheet.disc(box.centre_mm[0] - 1, box.centre_mm[1] + 1, 6.0), ink, coats=3.0)
    reading = sheet.read()
    assert reading.value == truth
    assert reading.confidence >= 0.95, reading


def test_an_x_in_blue_ballpoint_is_a_bramble_not_a_blue_flower():
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    sheet.lay(sheet.lines(_x(sheet, PLOT, 0.0), 0.45), BLUE_BALLPOINT)
    reading = sheet.read()
    assert (reading.value, reading.item) == ("bramble", plot_name(PLOT))
    assert reading.confidence >= 0.9, reading


def test_a_blue_stamp_is_no_x_however_it_sits():
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    box = sheet.layout.plots[PLOT]
    sheet.lay(sheet.disc(*box.centre_mm, 8.0), BLUE)
    reading = sheet.read()
    assert reading.value == "blue"
    assert reading.confidence >= 0.9, reading


@pytest.mark.parametrize("bend_mm", [0.0, 2.0])
def test_a_hand_drawn_x_in_pencil_is_a_sure_bramble(bend_mm):
    # Where an X's strokes cross, each runs across the other's band: that is no sign of hatching.
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    sheet.grey(sheet.lines(_x(sheet, PLOT, bend_mm), 0.6), GRAPHITE, 0.8)
    reading = sheet.read()
    assert reading.value == "bramble"
    assert reading.confidence >= 0.9, reading
    assert dict(reading.evidence)["x_alignment"] > 0.8


def test_grey_pencil_hatching_is_not_a_sure_bramble():
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    box = sheet.layout.plots[PLOT]
    lines = [[(box.x_mm + 2, y), (box.right_mm - 2, y)] for y in np.arange(box.y_mm + 2, box.bottom_mm - 2, 1.0)]
    lines += [[(x, box.y_mm + 2), (x, box.bottom_mm - 2)] for x in np.arange(box.x_mm + 2, box.right_mm - 2, 1.0)]
    sheet.grey(sheet.lines(lines, 0.4), GRAPHITE, 0.6)
    reading = sheet.read()
    assert not (reading.value == "bramble" and reading.confidence >= 0.9), reading


@pytest.mark.parametrize("pen", [(60, 150, 100), (70, 170, 70)])
def test_green_pencil_shading_from_green_to_teal_is_a_field(pen):
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    sheet.hatch(PLOT, pen, coats=0.5)
    reading = sheet.read()
    assert reading.value == "field"
    assert reading.confidence >= 0.9, reading


def test_very_pale_pencil_strokes_are_never_surely_empty():
    # A pencil so pale and greyish that no reading explains it (not coloured enough for a flower or a field, too
    # light for graphite): strokes over the plot still make "empty" doubtful.  stroked ~0.095 -> at most ~0.64.
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    sheet.hatch(PLOT, (170, 165, 180), coats=1.0)
    reading = sheet.read()
    assert reading.value == "empty"
    assert reading.confidence < 0.75, reading
    assert dict(reading.evidence)["stroked"] > 0.08


def test_an_empty_plot_under_a_soft_shadow_is_surely_empty():
    sheet = Sheet()
    sheet.key({"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE})
    box = sheet.layout.plots[PLOT]
    w = sheet.light.shape[1]
    xs = (np.arange(w, dtype=np.float32) / PX - box.centre_mm[0]) / 2.0  # a shadow's edge 2 mm soft across the plot
    sheet.light *= (1 - 0.3 / (1 + np.exp(-xs)))[None, :, None]
    reading = sheet.read()
    assert reading.value == "empty"
    assert reading.confidence >= 0.9, reading
    assert dict(reading.evidence)["stroked"] < 0.02


def test_a_flower_whose_ink_lies_only_along_both_diagonals_is_doubted_as_a_bramble():
    # photogen3 development seed 1016, C3: a bramble's X scribbled in blue ballpoint, read blue at 0.99.
    x_like = classify.Reading(
        "C3",
        "plot",
        (("blue", 0.9935), ("bramble", 0.006), ("empty", 0.0005)),
        (("x_coverage_pen", 0.8235), ("off_diagonal_pen", 0.0331), ("x_alignment_pen", 0.4968), ("stamp_fraction", 0.2051)),
    )
    doubted = classify._doubt_x_like_flower(x_like)
    assert (doubted.value, doubted.confidence, doubted.runner_up[0]) == ("blue", 0.6, "bramble")
    assert dict(doubted.evidence)["x_like"] == 1.0
    # A filled flower covers the diagonals too, but its strokes do not run along them (seed 1016, C1).
    filled = classify.Reading(
        "C1",
        "plot",
        (("red", 0.9999), ("field", 0.0001)),
        (("x_coverage_pen", 0.7059), ("off_diagonal_pen", 0.0392), ("x_alignment_pen", 0.2662)),
    )
    assert classify._doubt_x_like_flower(filled) is filled


def test_a_flower_of_a_few_dark_pen_strokes_on_a_plot_shaded_grey_is_doubted_as_a_field():
    # photogen3 development seed 780034, B5: a critter's code in ballpoint over a field shaded in grey pencil, read
    # purple at 0.98 (ink over 7 % of the plot, grey over 46 %).
    def flower(ink: float, marked: float, shade: float, darkness: float = 0.87) -> classify.Reading:
        evidence = (("ink_share", ink), ("marked", marked), ("shade", shade), ("ink_darkness", darkness))
        return classify.Reading("B5", "plot", (("purple", 0.98), ("blue", 0.015), ("field", 0.005)), evidence)

    doubted = classify._doubt_writing_over_shading(flower(0.069, 0.459, 0.145))
    assert (doubted.value, doubted.confidence, doubted.runner_up[0]) == ("purple", 0.6, "field")
    assert dict(doubted.evidence)["writing_over_shading"] == 1.0
    # Shaded all over, the writing's own grey aside (seed 790013, E4: ink 7.5 %, marked 10.7 %, shade 0.15).
    assert classify._doubt_writing_over_shading(flower(0.075, 0.107, 0.151)).confidence == 0.6
    # A dark doodle's outline leaves grey beside its ink, on paper lighter than the path around (photogen2 seed
    # 900029, C5); a flower drawn in coloured pencil is paler (seed 770042, B3); a stamp covers more of its plot.
    for kept in (flower(0.122, 0.232, -0.574, 0.93), flower(0.168, 0.445, -0.065, 0.38), flower(0.4, 0.45, 0.05)):
        assert classify._doubt_writing_over_shading(kept) is kept
    # Already doubted as a bramble scribbled in ballpoint: that runner-up stays.
    pen = classify.Reading("B5", "plot", doubted.probabilities, (*flower(0.069, 0.459, 0.145).evidence, ("pen_lines", 1.0)))
    assert classify._doubt_writing_over_shading(pen) is pen
