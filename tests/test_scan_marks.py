"""Issue 21: marks as people make them, read on clean rectified sheets (6 px/mm) drawn here.

Each test draws one kind of mark the independent photos (photogen3) showed being misread or needlessly flagged, and
checks the reading the classifier gives it now.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from papillon.grid import EDGES, PLOTS, parse_plot
from papillon.layout import GardenLayout, garden_layout, released_garden_layouts
from papillon.scan import classify
from papillon.scan import detect as D
from papillon.scan.classify import Reading

LAYOUT = garden_layout()
PX = 6.0
RED = (205, 60, 70)
OUTLINE = (111, 154, 95)


def _sheet(draw: Callable[[np.ndarray], None] | None = None, layout: GardenLayout = LAYOUT) -> np.ndarray:
    """A white rectified sheet with the plot outlines printed green, and ``draw(image)`` on it."""
    width_mm, height_mm = layout.frame_mm
    image = np.full((round(height_mm * PX), round(width_mm * PX), 3), 245, np.uint8)
    for box in layout.plots:
        cv2.rectangle(
            image, (round(box.x_mm * PX), round(box.y_mm * PX)), (round(box.right_mm * PX), round(box.bottom_mm * PX)), OUTLINE, 1
        )
    if draw is not None:
        draw(image)
    return image


def _edge(image: np.ndarray, a: str, b: str, across_mm: float = 0.0, layout: GardenLayout = LAYOUT) -> Reading:
    index = EDGES.index((parse_plot(a), parse_plot(b)))
    return classify.read_edge(classify.maps(image, PX), layout, index, across_mm)


def _along(a: str, b: str, image: np.ndarray, colour: tuple[int, int, int], width_px: int, share: float = 1.0) -> None:
    """A line along the middle of edge a-b's path over ``share`` of its length."""
    slot = LAYOUT.edge_slots[EDGES.index((parse_plot(a), parse_plot(b)))]
    x1, y1, x2, y2 = slot.x1_mm, slot.y1_mm, slot.x2_mm, slot.y2_mm
    x2, y2 = x1 + (x2 - x1) * share, y1 + (y2 - y1) * share
    start = (x1 + 2.5, y1) if y1 == y2 else (x1, y1 + 2.5)
    cv2.line(image, (round(start[0] * PX), round(start[1] * PX)), (round(x2 * PX), round(y2 * PX)), colour, width_px)


def test_a_brick_in_green_felt_along_the_path_is_a_brick_not_a_printed_outline() -> None:
    # photogen3 development seeds 2001, 2029, 2047: green felt bricks read "none" at 0.99-1.00.
    assert _edge(_sheet(), "B2", "C2").value == "none"
    green = _edge(_sheet(lambda im: _along("B2", "C2", im, (60, 150, 70), 5)), "B2", "C2")
    assert green.value == "brick" and green.confidence >= 0.9, green


def test_a_thin_short_ballpoint_line_is_a_doubt_not_a_sure_none() -> None:
    # photogen3 development seeds 2002, 2003, 2020: a ballpoint brick over a third of the edge, too faint in
    # darkness to count as covering it, read "none" at 0.96-1.00.
    short = _edge(_sheet(lambda im: _along("C3", "C4", im, (120, 140, 225), 1, share=0.35)), "C3", "C4")
    assert short.confidence < 0.9, short
    assert dict(short.evidence)["pen_coverage"] >= classify.EDGE_SHORT_COVERAGE


def _dash(
    image: np.ndarray, a: str, b: str, length_mm: float, colour: tuple[int, int, int], width_px: int, layout: GardenLayout = LAYOUT
) -> None:
    """A short stroke along the middle of edge a-b's path, centred on it."""
    slot = layout.edge_slots[EDGES.index((parse_plot(a), parse_plot(b)))]
    cx, cy = (slot.x1_mm + slot.x2_mm) / 2, (slot.y1_mm + slot.y2_mm) / 2
    dx, dy = (length_mm / 2, 0.0) if slot.y1_mm == slot.y2_mm else (0.0, length_mm / 2)
    cv2.line(image, (round((cx - dx) * PX), round((cy - dy) * PX)), (round((cx + dx) * PX), round((cy + dy) * PX)), colour, width_px)


def test_a_short_dark_dash_along_a_path_is_a_doubt_and_a_dot_is_not() -> None:
    # photogen3 820000-880119 (spent): felt and ballpoint bricks drawn as dashes of 2-4 mm read "none" at 0.99-1.00.
    # A black stroke 1.7 mm wide, 3.7 mm long with its round ends, covers too little of the edge to be doubted for that.
    black = (50, 50, 55)
    dash = _edge(_sheet(lambda im: _dash(im, "B2", "C2", 2.0, black, 10)), "B2", "C2")
    assert dash.value == "none" and dash.confidence < 0.8, dash
    seen = dict(dash.evidence)
    assert seen["coverage"] < classify.EDGE_SHORT_COVERAGE and seen["dash_mm"] >= classify.EDGE_DASH_MM, seen
    dot = _edge(_sheet(lambda im: _dash(im, "B2", "C2", 1.0, black, 10)), "B2", "C2")
    assert dot.value == "none" and dot.confidence > 0.95, dot
    # On release 2's 3 mm path there is no paper beside the band, and fills coloured up to their outline reach its
    # middle: a dash is not told from a fill's scallop there.
    release_2 = next(r.layout for r in released_garden_layouts().values() if r.release == 2)
    old = _edge(_sheet(lambda im: _dash(im, "B2", "C2", 2.0, black, 10, release_2), release_2), "B2", "C2", layout=release_2)
    assert old.value == "none" and old.confidence > 0.95, old


def test_a_sure_edge_read_again_shifted_across_its_path_says_what_misregistration_it_stands() -> None:
    image = _sheet(lambda im: _along("B2", "C2", im, (40, 40, 45), 5))
    readings, _ = classify.read_sheet(image, LAYOUT, (), PX, ((0.0,) * len(PLOTS), (0.9,) * len(EDGES)))
    brick = next(r for r in readings if r.item == "edge B2-C2")
    assert brick.value == "brick" and dict(brick.evidence)["tolerates_mm"] == 0.5 + 0.9
    plain, _ = classify.read_sheet(image, LAYOUT, (), PX)
    assert "tolerates_mm" not in dict(next(r for r in plain if r.item == "edge B2-C2").evidence)


def test_a_reading_that_stands_its_misregistration_is_not_doubted_for_it() -> None:
    sheet = D.Sheet.__new__(D.Sheet)
    error = D.Misregistration(plots=(0.0,) * 25, edges=(1.2,) * 40, bubbles=(0.0,) * 25, colour_key=(0.0,) * 4)
    object.__setattr__(sheet, "misregistration", error)
    stands = Reading("edge B2-C2", "edge", (("brick", 0.99), ("none", 0.01)), (("tolerates_mm", 1.4),))
    short = Reading("edge B2-B3", "edge", (("brick", 0.99), ("none", 0.01)), (("tolerates_mm", 1.0),))
    out = D.doubt_misregistered([stands, short], sheet)
    assert [r.confidence for r in out] == [0.99, 0.6]


def test_a_plot_estimated_off_is_sampled_further_in_by_as_much() -> None:
    assert [classify._plot_margin(e) for e in (0.4, 1.0, 1.5, 2.5, 5.0)] == [0.0, 0.0, 0.5, 1.5, 2.0]


def _red_plot(image: np.ndarray, plot: int, *, over_bubble: bool) -> None:
    box, c = LAYOUT.plots[plot], LAYOUT.bubbles[plot]
    cv2.rectangle(
        image,
        (round((box.x_mm + 0.6) * PX), round((box.y_mm + 0.6) * PX)),
        (round((box.right_mm - 0.6) * PX), round((box.bottom_mm - 0.6) * PX)),
        RED,
        -1,
    )
    if not over_bubble:
        cv2.circle(image, (round(c.cx_mm * PX), round(c.cy_mm * PX)), round((c.r_mm + 1.6) * PX), (245, 245, 245), -1)


def _bubble(image: np.ndarray, plot: int) -> Reading:
    m = classify.maps(image, PX)
    calibration = classify.calibrate(m, LAYOUT)
    plot_reading = classify.read_plot(m, LAYOUT, plot, calibration, starting=False)
    assert plot_reading.value == "red", plot_reading
    return classify.read_bubble(m, LAYOUT, plot, plot_reading, calibration)


def test_a_flower_coloured_over_its_bubble_is_no_mark_and_a_bubble_filled_in_its_colour_is_a_doubt() -> None:
    # photogen3 development seeds 2000-2049: 45 empty bubbles under their flower's or field's fill were all asked (0.5).
    plot = parse_plot("C3")
    over = _bubble(_sheet(lambda im: _red_plot(im, plot, over_bubble=True)), plot)
    assert over.value == "empty" and over.confidence >= 0.9, over
    c = LAYOUT.bubbles[plot]

    def filled(image: np.ndarray) -> None:
        _red_plot(image, plot, over_bubble=False)
        cv2.circle(image, (round(c.cx_mm * PX), round(c.cy_mm * PX)), round((c.r_mm - 0.2) * PX), RED, -1)

    inside = _bubble(_sheet(filled), plot)
    assert inside.value == "filled" or inside.confidence < 0.9, inside


def _pale_field_run_into_the_gap(image: np.ndarray, plot: str, toward: str) -> None:
    """Plot ``plot`` shaded pale green to its outline, the shading run on into the gap toward ``toward``."""
    box = LAYOUT.plots[parse_plot(plot)]
    slot = LAYOUT.edge_slots[EDGES.index((parse_plot(plot), parse_plot(toward)))]
    right = slot.x1_mm - 0.3 if slot.x1_mm == slot.x2_mm else box.right_mm
    cv2.rectangle(image, (round(box.x_mm * PX), round(box.y_mm * PX)), (round(right * PX), round(box.bottom_mm * PX)), (170, 212, 150), -1)


def test_a_dark_green_felt_brick_beside_a_pale_green_field_run_into_the_gap_is_a_brick_not_its_spill() -> None:
    # photogen3 development seeds 2002, 2010, 2030, 2039: a pen's brick in the hue of the neighbour's fill, far darker
    # than that fill, was taken for its spill and read "none" (or "brick") at 0.5.
    spilled = _edge(_sheet(lambda im: _pale_field_run_into_the_gap(im, "B2", "C2")), "B2", "C2")
    assert dict(spilled.evidence)["spill"] > 0.1 and not (spilled.value == "brick" and spilled.confidence >= 0.9), spilled

    def with_brick(image: np.ndarray) -> None:
        _pale_field_run_into_the_gap(image, "B2", "C2")
        _along("B2", "C2", image, (40, 105, 50), 5)

    brick = _edge(_sheet(with_brick), "B2", "C2")
    assert brick.value == "brick" and brick.confidence >= 0.9, brick


def _any_bubble(image: np.ndarray, plot: int) -> Reading:
    """The bubble of ``plot`` read after its plot, whatever the plot reads."""
    m = classify.maps(image, PX)
    calibration = classify.calibrate(m, LAYOUT)
    plot_reading = classify.read_plot(m, LAYOUT, plot, calibration, starting=False)
    return classify.read_bubble(m, LAYOUT, plot, plot_reading, calibration)


def _disc_over(image: np.ndarray, plot: int, radius_past_outline_mm: float, colour: tuple[int, int, int]) -> None:
    c = LAYOUT.bubbles[plot]
    cv2.circle(image, (round(c.cx_mm * PX), round(c.cy_mm * PX)), round((c.r_mm + radius_past_outline_mm) * PX), colour, -1)


def test_a_light_grey_pencil_fill_over_the_whole_bubble_is_a_fill_and_faint_shading_is_not() -> None:
    # photogen3 development seed 100014: two light pencil fills (0.11-0.2 darker than paper, under the mark's 0.15
    # over the print) were read `empty` at 0.96 and 0.99.
    plot = parse_plot("C3")
    light = _any_bubble(_sheet(lambda im: _disc_over(im, plot, 0.3, (210, 210, 210))), plot)
    assert light.value == "filled" and light.confidence >= 0.9, light
    faint = _any_bubble(_sheet(lambda im: _disc_over(im, plot, 0.3, (235, 235, 235))), plot)
    assert faint.value == "empty" and faint.confidence >= 0.9, faint


def test_a_fill_over_the_flowers_own_colour_much_darker_than_it_is_a_fill() -> None:
    # photogen3 development seed 100042: pencil over a pale blue felt flower run across the bubble keeps the flower's
    # hue and stays within its ink's darkness; it was read `empty` at 0.96 as the flower's own colour.
    plot, pale = parse_plot("C3"), (232, 150, 155)
    box = LAYOUT.plots[plot]

    def flower(image: np.ndarray, over: float) -> None:
        corners = ((box.x_mm + 0.6, box.y_mm + 0.6), (box.right_mm - 0.6, box.bottom_mm - 0.6))
        cv2.rectangle(image, *[(round(x * PX), round(y * PX)) for x, y in corners], pale, -1)
        _disc_over(image, plot, -0.2, tuple(round(v * over) for v in pale))

    filled = _any_bubble(_sheet(lambda im: flower(im, 0.6)), plot)
    assert filled.value == "filled" and filled.confidence >= 0.9, filled
    coloured_over = _any_bubble(_sheet(lambda im: flower(im, 1.0)), plot)
    assert coloured_over.value == "empty" and coloured_over.confidence >= 0.9, coloured_over


def test_a_fields_dark_felt_stroke_run_into_the_bubble_is_the_fields_own_green() -> None:
    # photogen3 development seeds 100020, 120014, 120032: a field's dark felt hatching with one stroke run into the
    # bubble (its green darker than a typical field's by more than the slack) was read `filled` at 0.96-1.0.
    plot, felt = parse_plot("C3"), (40, 120, 50)
    box, c = LAYOUT.plots[plot], LAYOUT.bubbles[plot]

    def at(x_mm: float, y_mm: float) -> tuple[int, int]:
        return round(x_mm * PX), round(y_mm * PX)

    def field(image: np.ndarray) -> None:
        for k in np.arange(-25.0, 25.0, 4.0):
            start = (box.x_mm + 1 + max(0.0, k), box.y_mm + 1 + max(0.0, -k))
            end = (box.right_mm - 1 - max(0.0, -k), box.bottom_mm - 1 - max(0.0, k))
            cv2.line(image, at(*start), at(*end), felt, round(1.5 * PX))
        _disc_over(image, plot, 2.5, (245, 245, 245))  # the hatching stops short of the bubble ...
        cv2.line(image, at(c.cx_mm - 6, c.cy_mm + 6), at(c.cx_mm, c.cy_mm), felt, round(1.5 * PX))  # ... but one stroke

    bubble = _any_bubble(_sheet(field), plot)
    assert bubble.value == "empty" and bubble.confidence >= 0.9, bubble


def test_a_tick_in_the_flowers_own_pen_apart_from_the_flower_is_a_mark() -> None:
    # photogen3 development seeds 100020, 120043: a tick or scribble in the flower's own colour, not joined to the
    # flower, was taken for the flower's ink over the bubble and read `empty` at 0.92-0.99.
    plot = parse_plot("C3")
    c = LAYOUT.bubbles[plot]

    def ticked(image: np.ndarray) -> None:
        _red_plot(image, plot, over_bubble=False)
        down = (round((c.cx_mm - 1.5) * PX), round(c.cy_mm * PX))
        bottom = (round((c.cx_mm - 0.4) * PX), round((c.cy_mm + 1.4) * PX))
        up = (round((c.cx_mm + 1.8) * PX), round((c.cy_mm - 1.8) * PX))
        cv2.line(image, down, bottom, RED, round(0.8 * PX))
        cv2.line(image, bottom, up, RED, round(0.8 * PX))

    tick = _bubble(_sheet(ticked), plot)
    assert tick.value == "filled" and tick.confidence >= 0.9, tick


def test_a_scribble_over_a_flower_coloured_over_its_bubble_is_a_mark() -> None:
    # photogen3 development seed 100052: pencil scribbled over a pale felt flower that runs all round the bubble keeps
    # the flower's hue; taken for the flower's own colour, the bubble was read `empty` at 0.99.
    plot, pale = parse_plot("C3"), (232, 150, 155)
    box, c = LAYOUT.plots[plot], LAYOUT.bubbles[plot]

    def scribbled(image: np.ndarray) -> None:
        corners = ((box.x_mm + 0.6, box.y_mm + 0.6), (box.right_mm - 0.6, box.bottom_mm - 0.6))
        cv2.rectangle(image, *[(round(x * PX), round(y * PX)) for x, y in corners], pale, -1)
        for dy in (-0.9, 0.9):  # two strokes: the paper between the wings stays mostly the flower's
            start = (round((c.cx_mm - 1.8) * PX), round((c.cy_mm + dy + 0.6) * PX))
            end = (round((c.cx_mm + 1.8) * PX), round((c.cy_mm + dy - 0.6) * PX))
            cv2.line(image, start, end, tuple(round(v * 0.6) for v in pale), round(0.5 * PX))

    bubble = _any_bubble(_sheet(scribbled), plot)
    assert bubble.value == "filled" and bubble.confidence >= 0.9, bubble


def test_a_flowers_grainy_fill_over_its_bubble_with_nothing_darker_over_it_is_never_surely_filled() -> None:
    # photogen3 development seed 200006: a red pencil colouring run all round and across an empty bubble, its grain
    # not all taken for the flower's colour, was read `filled` at 0.97 though nothing in it was darker than the fill.
    plot = parse_plot("C3")
    c = LAYOUT.bubbles[plot]

    def grainy(image: np.ndarray) -> None:
        _red_plot(image, plot, over_bubble=True)
        # Most of the core a grain of another shade, no darker than the red fill: a little of the red shows through.
        grain = np.random.default_rng(3).random(image.shape[:2]) < 0.7
        yy, xx = np.mgrid[: image.shape[0], : image.shape[1]]
        core = (xx - c.cx_mm * PX) ** 2 + (yy - c.cy_mm * PX) ** 2 <= (c.r_mm * 0.65 * PX) ** 2
        image[grain & core] = (170, 70, 130)

    bubble = _bubble(_sheet(grainy), plot)
    assert bubble.confidence < 0.9, bubble


def test_grey_shading_run_over_the_bubble_of_a_plot_shaded_grey_all_over_is_no_sure_fill() -> None:
    # photogen3 development seeds 780024 (E2), 780031 (C1): a field hatched in grey pencil over its bubble, the plot
    # doubted empty for its shade, read `filled` at 1.0.
    plot = parse_plot("C3")
    c = LAYOUT.bubbles[plot]

    def shaded(image: np.ndarray) -> None:  # a light grey layer over the bubble, past its outline
        cv2.circle(image, (round(c.cx_mm * PX), round(c.cy_mm * PX)), round((c.r_mm + 0.5) * PX), (200, 200, 200), -1)

    m = classify.maps(_sheet(shaded), PX)
    empty = Reading("C3", "plot", (("empty", 0.5), ("field", 0.5)), (("shade", 0.15),))
    assert classify.read_bubble(m, LAYOUT, plot, empty).confidence <= classify.BUBBLE_OWN_CONFIDENCE
    # So is a plot doubted as a code written over such a field (seed 300053, A3).
    written = Reading("C3", "plot", (("blue", 0.6), ("field", 0.35)), (("shade", 0.2), ("writing_over_shading", 1.0)))
    assert classify.read_bubble(m, LAYOUT, plot, written).confidence <= classify.BUBBLE_OWN_CONFIDENCE
    # Without the plot's shading to run over it, the same grey over the bubble is a fill.
    plain = Reading("C3", "plot", (("empty", 0.99), ("field", 0.01)), (("shade", 0.0),))
    assert classify.read_bubble(m, LAYOUT, plot, plain).value == "filled"


def _x(image: np.ndarray, plot: str, colour: tuple[int, int, int], width_px: int, skip: float = 0.0) -> None:
    """An X from corner to corner of ``plot``, its first stroke begun ``skip`` of the way along its diagonal."""
    box = LAYOUT.plots[parse_plot(plot)]
    for start, end in (((box.x_mm, box.y_mm), (box.right_mm, box.bottom_mm)), ((box.x_mm, box.bottom_mm), (box.right_mm, box.y_mm))):
        begin = (start[0] + (end[0] - start[0]) * skip, start[1] + (end[1] - start[1]) * skip)
        cv2.line(image, (round(begin[0] * PX), round(begin[1] * PX)), (round(end[0] * PX), round(end[1] * PX)), colour, width_px)
        skip = 0.0


def _plot(image: np.ndarray, plot: str) -> Reading:
    m = classify.maps(image, PX)
    return classify.read_plot(m, LAYOUT, parse_plot(plot), classify.calibrate(m, LAYOUT), starting=False)


def test_an_x_in_dark_green_felt_is_a_bramble_not_a_field() -> None:
    # photogen3 seeds 820027, 820046, 830010 and five more: dark green felt X's read `bramble` at 0.62-0.75, `field` the
    # runner-up: their own green ink was taken for a field's shading.
    felt = _plot(_sheet(lambda im: _x(im, "C3", (40, 95, 50), 8)), "C3")
    assert felt.value == "bramble" and felt.confidence >= 0.9, felt


def test_a_pencil_x_over_a_fields_pale_green_shading_stays_a_doubt() -> None:
    # Green shading with an X is a bramble over a field, or hatching taken for an X: only green along the X's diagonals
    # is its own ink, and green shading spread evenly lies along them too (a review of the change above: read
    # `bramble` at 0.95 when the green off the diagonals was counted against the whole plot).
    def shaded(image: np.ndarray) -> None:
        box = LAYOUT.plots[parse_plot("C3")]
        for y_mm in np.arange(box.y_mm + 1, box.bottom_mm - 1, 5.0):
            cv2.line(
                image,
                (round((box.x_mm + 1) * PX), round(y_mm * PX)),
                (round((box.right_mm - 1) * PX), round(y_mm * PX)),
                (205, 225, 200),
                6,
            )
        _x(image, "C3", (95, 95, 100), 3)

    plot = _plot(_sheet(shaded), "C3")
    assert dict(plot.evidence)["x_coverage"] > 0.9 and dict(plot.evidence)["green_fraction"] > 0.15
    assert plot.confidence < 0.9, plot


def test_an_x_in_ballpoint_short_of_the_plots_corners_is_a_bramble() -> None:
    # photogen3 seeds 820068, 830003, 830035 and six more: ballpoint X's covering 15 of the 17 steps along the diagonals
    # read `bramble` at 0.68, `blue` the runner-up.
    pen = _plot(_sheet(lambda im: _x(im, "C3", (60, 70, 160), 2, skip=0.3)), "C3")
    assert dict(pen.evidence)["x_coverage_pen"] < 0.9
    assert pen.value == "bramble" and pen.confidence >= 0.9, pen


def test_a_felt_brick_wider_than_the_band_is_a_brick_and_a_shadow_beside_the_band_is_no_line() -> None:
    # photogen3 seed 820101: a dark felt brick 2.5 mm wide filled the 2 mm band, whose lightest point was then the
    # line itself: read `none` at 0.99.
    wide = _edge(_sheet(lambda im: _along("B2", "C2", im, (70, 55, 45), round(2.6 * PX))), "B2", "C2")
    assert wide.value == "brick" and wide.confidence >= 0.9, wide
    slot = LAYOUT.edge_slots[EDGES.index((parse_plot("B2"), parse_plot("C2")))]

    def shadow(image: np.ndarray) -> None:  # the path in shadow from just left of the band to the right
        x = round((slot.x1_mm - 1.2) * PX)
        image[round(slot.y1_mm * PX) : round(slot.y2_mm * PX), x : round((slot.x1_mm + 6) * PX)] //= 2

    shaded = _edge(_sheet(shadow), "B2", "C2")
    assert shaded.value == "none" and shaded.confidence >= 0.9, shaded


def test_a_tangle_of_ballpoint_over_a_corner_of_a_plot_is_a_doubted_flower_with_bramble_the_runner_up() -> None:
    # photogen3 820000-890119 (spent): 9 brambles scribbled in ballpoint read `blue` at 0.998-1.00; the tangle fills its
    # own loops, so its ink is partly solid (0.28-0.76), over 0.10-0.22 of the plot.
    box = LAYOUT.plots[parse_plot("C3")]
    zigzag = [(box.x_mm + (4 if i % 2 else 11), box.y_mm + 9 + i * 0.8) for i in range(10)]

    def tangle(image: np.ndarray) -> None:
        cv2.polylines(image, [np.array([[round(x * PX), round(y * PX)] for x, y in zigzag], np.int32)], False, (40, 50, 120), 4)

    reading = classify._doubt_x_like_flower(_plot(_sheet(tangle), "C3"))
    seen = dict(reading.evidence)
    assert classify.PEN_SOLID_MAX <= seen["ink_solid"] < classify.PEN_PART_SOLID_MAX, seen
    assert reading.value == "blue" and reading.confidence < 0.8 and reading.probabilities[1][0] == "bramble", reading
