"""Local registration, released layouts and framing refusals, on the real PDF rasterised and warped by a known map.

The photos come from :mod:`tests.warped` (this file's helper, not the scanner's synthetic generator): the
printed sheet bowed, curled or seen through a barrel lens, so where every frame point lands in the photo
is known exactly and the registration is checked against that truth, not against itself.
"""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")
pytest.importorskip("pypdfium2")

from warped import PAGE_PX_PER_MM, Warp, blank_page, covered, grid_errors_mm, jpeg, mark, released_page  # noqa: E402

from papillon.errors import ScanError  # noqa: E402
from papillon.grid import EDGES, parse_edge, parse_plot  # noqa: E402
from papillon.layout import GARDEN_RELEASE, garden_layout, released_garden_layouts, sheet_payload  # noqa: E402
from papillon.render.pdf import qr_matrix  # noqa: E402
from papillon.scan import detect as D  # noqa: E402
from papillon.scan import read_photo  # noqa: E402

LAYOUT = garden_layout()
RELEASE_2 = released_garden_layouts()["74934309"].layout
RELEASE_1_ID = "fc40096e"
"""The id printed on every 10-round garden sheet before release 2 (the scanner read it from code until then)."""
RELEASE_2_ID = "74934309"
"""The id printed on every 10-round garden sheet of release 2 (a 3 mm path between plots)."""


def test_the_new_layout_is_released_with_its_dots() -> None:
    assert len(LAYOUT.registration) == 36
    released = released_garden_layouts()
    assert released[LAYOUT.id].release == GARDEN_RELEASE and released[LAYOUT.id].layout == LAYOUT


def test_a_flat_sheet_finds_every_dot_where_it_is_printed() -> None:
    sheet = D.find_sheet(Warp().photograph(blank_page()))
    assert sheet.registration is not None and sheet.misregistration is not None
    assert sheet.registration.found == 36
    assert np.abs(sheet.registration.shifts_mm).max() < 0.25
    assert sheet.misregistration.worst_mm < 0.4


@pytest.mark.parametrize(
    "warp",
    [Warp(bow_mm=15), Warp(curl_mm=12), Warp(barrel=-0.06), Warp(bow_mm=6, barrel=0.05, curl_mm=5)],
    ids=["bowed 15 mm", "right edge curled 12 mm", "barrel lens", "bowed, curled, pincushion"],
)
def test_a_sheet_that_is_not_flat_is_mapped_right_region_by_region(warp: Warp) -> None:
    sheet = D.find_sheet(warp.photograph(blank_page()))
    plain, local = grid_errors_mm(warp, sheet)
    assert plain.max() > 1.0  # the corner markers alone leave the middle of the grid off by over a millimetre
    assert local.max() < 0.25  # (0.08 mm of it is the half-pixel convention of the test raster)
    assert sheet.misregistration is not None and max(sheet.misregistration.edges) <= D.MAX_MISREGISTRATION_MM["edge"]


def test_the_rectified_sheet_shows_each_dot_at_its_layout_position() -> None:
    sheet = D.find_sheet(Warp(bow_mm=15, barrel=-0.04).photograph(blank_page()))
    dark = 255 - sheet.rectified.max(axis=2).astype(np.float64)
    ppm = D.RECT_PX_PER_MM
    for dot in LAYOUT.registration:
        x, y = round(dot.cx_mm * ppm), round(dot.cy_mm * ppm)
        patch = dark[y - 6 : y + 7, x - 6 : x + 7]
        yy, xx = np.mgrid[-6:7, -6:7]
        weight = np.clip(patch - 60, 0, None)
        cx, cy = (weight * xx).sum() / weight.sum() / ppm, (weight * yy).sum() / weight.sum() / ppm
        assert np.hypot(cx, cy) < 0.25, (dot, cx, cy)


def test_a_bowed_sheet_reads_every_item_in_its_place() -> None:
    bricks = [EDGES.index(parse_edge(e)) for e in ("A1-A2", "B2-C2", "C3-C4", "D4-E4", "E1-E2", "B5-C5", "C1-D1")]
    butterflies = [parse_plot(p) for p in ("A1", "C3", "E5", "B2")]
    flowers = {parse_plot("A1"): "red", parse_plot("C3"): "blue", parse_plot("E5"): "yellow", parse_plot("A4"): "purple"}
    page = mark(blank_page(), LAYOUT, bricks=bricks, butterflies=butterflies, flowers=flowers)
    result = read_photo(jpeg(Warp(bow_mm=12, barrel=-0.05).photograph(page)), accept_uncertain=True)
    garden = result.garden
    assert sorted(e.name for e in garden.bricks) == sorted(EDGES[i].name for i in bricks)
    assert sorted(garden.butterflies) == sorted(butterflies)
    assert {p: c.colour for p, c in enumerate(garden.cells) if c.is_flower} == flowers
    # Every edge and bubble is trusted: none of them lies where the fit may be off.
    assert [r.item for r in result.review if r.kind != "plot"] == []


def test_a_crumpled_grid_is_refused_as_bent() -> None:
    with pytest.raises(ScanError) as caught:
        # 1.3 mm: on release 3's 30 mm grid a 1.0 mm wave measures 1.47 mm at the median, just under the 1.5 mm limit.
        D.find_sheet(Warp(ripple_mm=1.3).photograph(blank_page()))
    assert str(caught.value).startswith("the sheet is bent (its grid is up to ")
    assert str(caught.value).endswith(" mm off a smooth fit) — lay it flat and photograph it from above")


def test_readings_where_the_fit_may_be_off_are_sent_to_review() -> None:
    from dataclasses import replace

    from papillon.scan.classify import Reading

    sheet = D.find_sheet(Warp().photograph(blank_page()))
    assert sheet.misregistration is not None
    edges = list(sheet.misregistration.edges)
    edges[EDGES.index(parse_edge("B2-C2"))] = 0.9  # over the edge limit of 0.5 mm
    plots = list(sheet.misregistration.plots)
    plots[parse_plot("B2")] = 0.9  # under the plot limit of 1.0 mm
    doubted = replace(sheet, misregistration=replace(sheet.misregistration, edges=tuple(edges), plots=tuple(plots)))
    readings = [
        Reading("edge B2-C2", "edge", (("brick", 0.99), ("none", 0.01))),
        Reading("edge B2-B3", "edge", (("none", 0.98), ("brick", 0.02))),
        Reading("B2", "plot", (("red", 0.97), ("empty", 0.03))),
    ]
    out = D.doubt_misregistered(readings, doubted)
    assert [r.confidence for r in out] == [0.6, 0.98, 0.97]
    assert out[0].evidence == (("misregistration_mm", 0.9),)


def _two_sheets(neighbour_box: tuple[float, float, float, float]) -> np.ndarray:
    size = (3600, 2400)
    ours = Warp(size=size, box=(0.03, 0.05, 0.47, 0.95), tilt=0.02).photograph(blank_page())
    return Warp(size=size, box=neighbour_box, tilt=0.02).photograph(blank_page(), background=ours)


def test_a_neighbours_sheet_partly_in_view_is_left_out() -> None:
    # The neighbour's left markers (ids 0 and 3) are in view, its right ones off the photo.
    sheet = D.find_sheet(_two_sheets((0.55, 0.05, 1.05, 0.95)))
    assert sheet.registration is not None and sheet.registration.found == 36
    corner = cv2.perspectiveTransform(np.array([[[LAYOUT.markers[2].box.x_mm, LAYOUT.markers[2].box.y_mm]]]), sheet.located.homography)
    assert corner[0, 0, 0] < 0.47 * 3600


def test_two_whole_sheets_in_view_are_refused() -> None:
    with pytest.raises(ScanError, match=r"^two garden sheets are in view — photograph one sheet at a time$"):
        D.find_sheet(_two_sheets((0.52, 0.05, 0.96, 0.95)))


def test_a_marker_hidden_in_the_frame_is_not_blamed_on_framing() -> None:
    warp = Warp()
    with pytest.raises(ScanError) as caught:
        D.find_sheet(covered(warp.photograph(blank_page()), 3, warp))
    assert str(caught.value) == (
        "marker 3 (bottom-left) is in the photo but could not be read — uncover it, keep it out of shadow and lay the corner flat"
    )


def test_a_marker_out_of_the_frame_asks_for_all_four_corners() -> None:
    warp = Warp(box=(0.1, 0.08, 0.92, 1.1))
    with pytest.raises(ScanError) as caught:
        D.find_sheet(warp.photograph(blank_page()))
    assert str(caught.value) == "markers 2 (bottom-right) and 3 (bottom-left) not found — keep all four corners in the frame"


def release_1_page() -> np.ndarray:
    """Release 2's sheet as release 1 printed it: no registration dots, and release 1's id in the QR code.

    Release 2 moved nothing else the scanner reads (test_layout checks the boxes are the same), so painting
    the dots out with the paper or path around them and redrawing the QR code gives release 1's sheet.
    """
    page = released_page(RELEASE_2_ID).copy()
    s = PAGE_PX_PER_MM
    for dot in RELEASE_2.registration:
        x, y = dot.cx_mm * s, dot.cy_mm * s
        ring = page[round(y - 2.2 * s) : round(y + 2.2 * s), round(x - 2.2 * s) : round(x + 2.2 * s)].reshape(-1, 3)
        colour = tuple(int(c) for c in np.median(ring, axis=0))
        cv2.circle(page, (round(x), round(y)), round((dot.r_mm + 0.4) * s), colour, -1)
    qr = RELEASE_2.qr
    matrix = np.array(qr_matrix(sheet_payload(layout_id=RELEASE_1_ID, paper="a4", starting_fields=(16, 8))))
    cell = qr.w_mm / len(matrix)
    quiet = 4 * cell
    cv2.rectangle(
        page,
        (round((qr.x_mm - quiet) * s), round((qr.y_mm - quiet) * s)),
        (round((qr.right_mm + quiet) * s), round((qr.bottom_mm + quiet) * s)),
        (255, 255, 255),
        -1,
    )
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                x0, y0 = (qr.x_mm + c * cell) * s, (qr.y_mm + r * cell) * s
                cv2.rectangle(page, (round(x0), round(y0)), (round(x0 + cell * s) - 1, round(y0 + cell * s) - 1), (0, 0, 0), -1)
    return page


def test_a_release_1_sheet_is_still_read() -> None:
    assert released_garden_layouts()[RELEASE_1_ID].release == 1
    bricks = [EDGES.index(parse_edge(e)) for e in ("A1-A2", "C3-C4", "D4-E4")]
    page = mark(release_1_page(), RELEASE_2, bricks=bricks, butterflies=[parse_plot("C3")], flowers={parse_plot("A1"): "red"})
    result = read_photo(jpeg(Warp().photograph(page)), accept_uncertain=True)
    assert result.sheet.layout.id == RELEASE_1_ID and result.sheet.registration is None
    assert sorted(e.name for e in result.garden.bricks) == ["A1-A2", "C3-C4", "D4-E4"]
    assert result.garden.butterflies == frozenset({parse_plot("C3")})


@pytest.mark.parametrize("bend", [Warp(), Warp(bow_mm=12, barrel=-0.05)], ids=["flat", "bowed"])
def test_a_release_2_sheet_is_still_read_through_its_own_dots(bend: Warp) -> None:
    # Release 3 widened the path between plots to 5 mm: its dots lie 1-8 mm from release 2's, near enough for a search
    # window of either to catch some of the other's.  The scanner takes the release whose dots all fit.
    bricks = [EDGES.index(parse_edge(e)) for e in ("A1-A2", "C3-C4", "D4-E4")]
    page = mark(released_page(RELEASE_2_ID), RELEASE_2, bricks=bricks, butterflies=[parse_plot("C3")], flowers={parse_plot("A1"): "red"})
    result = read_photo(jpeg(bend.photograph(page)), accept_uncertain=True)
    assert result.sheet.layout.id == RELEASE_2_ID and result.sheet.registration is not None
    assert result.sheet.registration.found == 36
    assert sorted(e.name for e in result.garden.bricks) == ["A1-A2", "C3-C4", "D4-E4"]
    assert result.garden.butterflies == frozenset({parse_plot("C3")})
    assert not result.review
