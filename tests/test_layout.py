"""The physical layout: complete, inside the paper, consistent with the grid, and pure."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import subprocess
import sys
from importlib import resources

import pytest

from papillon.edition import edition_from_toml, standard_edition
from papillon.grid import EDGES, PLOTS, parse_plot, plot_col, plot_row
from papillon.layout import (
    ARUCO_4X4_50_BITS,
    FRAME_H_MM,
    FRAME_W_MM,
    GARDEN_RELEASE,
    MARGIN_MM,
    NAME_INSET_MM,
    NAME_RISE_MM,
    PAPERS_MM,
    PLOT_MM,
    PLOT_PITCH_MM,
    SCORE_PANEL_ROWS,
    Rect,
    Text,
    default_paper,
    fill_layout,
    frame_offset_mm,
    garden_layout,
    garden_release_json,
    grid_to_mm,
    parse_starting_fields,
    placements,
    random_starting_fields,
    released_garden_layouts,
    score_pad_layout,
    sheet_payload,
)


def inside(box: Rect, outer: Rect) -> bool:
    return outer.x_mm <= box.x_mm and outer.y_mm <= box.y_mm and box.right_mm <= outer.right_mm and box.bottom_mm <= outer.bottom_mm


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x_mm < b.right_mm and b.x_mm < a.right_mm and a.y_mm < b.bottom_mm and b.y_mm < a.bottom_mm


FRAME = Rect(0, 0, FRAME_W_MM, FRAME_H_MM)
SAFE = Rect(MARGIN_MM, MARGIN_MM, FRAME_W_MM - 2 * MARGIN_MM, FRAME_H_MM - 2 * MARGIN_MM)


def test_the_frame_is_the_intersection_of_a4_and_letter() -> None:
    assert min(w for w, _ in PAPERS_MM.values()) == FRAME_W_MM
    assert min(h for _, h in PAPERS_MM.values()) == FRAME_H_MM
    assert frame_offset_mm("a4") == (0.0, 8.8)
    assert frame_offset_mm("letter") == (2.95, 0.0)


def test_garden_layout_is_complete() -> None:
    layout = garden_layout()
    assert len(layout.plots) == len(layout.bubbles) == len(PLOTS) == 25
    assert len(layout.edge_slots) == len(EDGES) == 40
    assert [m.id for m in layout.markers] == [0, 1, 2, 3]
    assert len(layout.colour_key) == 4
    assert len(layout.rounds) == standard_edition().rules.rounds
    assert len(layout.id) == 8 and int(layout.id, 16) >= 0


def test_plots_follow_the_grid_through_grid_to_mm() -> None:
    layout = garden_layout()
    for plot, box in enumerate(layout.plots):
        x, y = grid_to_mm(plot_col(plot) + 0.5, plot_row(plot) + 0.5)
        assert box.centre_mm == pytest.approx((x, y))
        assert box.w_mm == box.h_mm == PLOT_MM
        assert inside(box, layout.garden)
    c3 = layout.plots[parse_plot("C3")]
    assert c3.x_mm == pytest.approx(layout.garden.x_mm + 2 * PLOT_PITCH_MM + (PLOT_PITCH_MM - PLOT_MM) / 2)


def test_every_bubble_lies_in_its_plot() -> None:
    layout = garden_layout()
    for box, bubble in zip(layout.plots, layout.bubbles, strict=True):
        bubble_box = Rect(bubble.cx_mm - bubble.r_mm, bubble.cy_mm - bubble.r_mm, 2 * bubble.r_mm, 2 * bubble.r_mm)
        assert inside(bubble_box, box)


def test_edge_slots_run_between_their_two_plots() -> None:
    layout = garden_layout()
    for edge, slot in zip(EDGES, layout.edge_slots, strict=True):
        a, b = layout.plots[edge.a].centre_mm, layout.plots[edge.b].centre_mm
        mid = ((slot.x1_mm + slot.x2_mm) / 2, (slot.y1_mm + slot.y2_mm) / 2)
        assert mid == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        assert slot.length_mm == pytest.approx(PLOT_MM)
        assert (slot.x1_mm == slot.x2_mm) == edge.vertical
    assert layout.edge_slot(EDGES[5]) == layout.edge_slots[5]


def test_everything_lies_on_the_paper_and_clear_of_the_markers() -> None:
    layout = garden_layout()
    boxes = [layout.garden, layout.qr, layout.total_box, layout.score_panel, *layout.plots]
    for box in boxes:
        assert inside(box, SAFE), box
        for marker in layout.markers:
            assert not overlaps(box, marker.box)
    for marker in layout.markers:
        assert inside(marker.box, FRAME)
        assert marker.box.x_mm >= 5 and FRAME_W_MM - marker.box.right_mm >= 5  # printers' unprintable margin
    for spot in [*layout.rounds, *layout.colour_key]:
        assert SAFE.x_mm < spot.cx_mm - spot.r_mm and spot.cx_mm + spot.r_mm < SAFE.right_mm
    assert not overlaps(layout.qr, layout.garden)


def test_markers_match_opencv_dictionary() -> None:
    cv2 = pytest.importorskip("cv2")
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, bits in enumerate(ARUCO_4X4_50_BITS):
        image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
        assert tuple("".join("1" if v > 127 else "0" for v in row[1:5]) for row in image[1:5]) == bits


def test_fill_layout_follows_the_edition() -> None:
    standard = fill_layout(standard_edition())
    assert [len(ladder.bubbles) for ladder in standard.ladders] == [3, 5, 7]
    assert [ladder.icons[-1] for ladder in standard.ladders] == ["lb", "bb", "hh"]
    assert [len(track.bubbles) for track in standard.tracks] == [6, 6, 6, 6]
    assert len(standard.caterpillar) == 24 and standard.gnome_spaces == (4, 8, 12, 16, 20, 24)
    assert [m.id for m in standard.markers] == [4, 5, 6, 7]
    custom = fill_layout(
        edition_from_toml("[critters.hh]\nladder = 4\n[fill]\ncaterpillar_track = 30\ncaterpillar_gnome_spaces = [10, 20, 30]\n")
    )
    assert [len(ladder.bubbles) for ladder in custom.ladders] == [3, 5, 4]
    assert len(custom.caterpillar) == 30
    assert custom.id != standard.id
    for space in custom.caterpillar:
        assert SAFE.x_mm < space.cx_mm - space.r_mm and space.cx_mm + space.r_mm < SAFE.right_mm


def test_caterpillar_spaces_touch_their_neighbours() -> None:
    spaces = fill_layout(standard_edition()).caterpillar
    for a, b in itertools.pairwise(spaces):
        assert math.hypot(a.cx_mm - b.cx_mm, a.cy_mm - b.cy_mm) < 4 * a.r_mm


def test_score_pad_fits() -> None:
    layout = score_pad_layout()
    for table in layout.tables:
        assert len(table.header) == 9  # player, 7 categories, total
        for row in table.rows:
            for cell in row:
                assert inside(cell, SAFE)


def test_two_up_fits_the_common_frame() -> None:
    for paper in PAPERS_MM:
        (width, height), spots, cuts = placements(paper, 2)
        assert width > height and len(spots) == 2 and len(cuts) == 1
        common_x, common_y = (width - FRAME_H_MM) / 2, (height - FRAME_W_MM) / 2
        for spot in spots:
            assert spot.x_mm >= common_x - 1e-6 and spot.x_mm + FRAME_W_MM * spot.scale <= width - common_x + 1e-6
            assert spot.y_mm >= common_y - 1e-6 and spot.y_mm + FRAME_H_MM * spot.scale <= height - common_y + 1e-6
        assert spots[0].x_mm + FRAME_W_MM * spots[0].scale <= cuts[0].x1_mm <= spots[1].x_mm
    with pytest.raises(ValueError, match="expected 1 or 2"):
        placements("a4", 3)


def test_payload_is_compact_json_with_fields_and_layout() -> None:
    text = sheet_payload(layout_id=garden_layout().id, paper="letter", starting_fields=(parse_plot("B4"), parse_plot("D2")), seed=7)
    assert json.loads(text) == {
        "format": "papillon-sheet",
        "version": 1,
        "layout": garden_layout().id,
        "seed": 7,
        "paper": "letter",
        "fields": "B4,D2",
    }


def test_starting_fields() -> None:
    assert random_starting_fields(7) == random_starting_fields(7)
    assert len(set(random_starting_fields(3, 4))) == 4
    assert parse_starting_fields("A1") == (0,)
    with pytest.raises(ValueError, match="expected 1 to 4 starting fields, got 5"):
        parse_starting_fields("A1,A2,A3,A4,A5")
    with pytest.raises(ValueError, match="different plots"):
        parse_starting_fields("A1,a1")
    with pytest.raises(ValueError, match="not a plot name: 'Z9'"):
        parse_starting_fields("Z9")


def test_default_paper_from_the_locale() -> None:
    assert default_paper({"LANG": "en_US.UTF-8"}) == "letter"
    assert default_paper({"LC_PAPER": "en_CA.UTF-8", "LANG": "de_DE.UTF-8"}) == "letter"
    assert default_paper({"LC_ALL": "fr_FR.UTF-8", "LC_PAPER": "en_US.UTF-8"}) == "a4"
    assert default_paper({"LANG": "C.UTF-8"}) == "a4"


def test_layout_and_the_model_stay_pure() -> None:
    code = (
        "import sys, papillon, papillon.layout, papillon.render.spec\n"
        "bad = [m for m in ('reportlab', 'PIL', 'click', 'pypdfium2', 'cv2') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_bigger_edition_still_fits_without_overlaps() -> None:
    edition = edition_from_toml(
        "[critters.sn]\nname = 'Snail'\npoints = 2\nladder = 4\n"
        "[fill]\nflower_track = ['', 'stamp', 'caterpillar', 'stamp', 'gnome', 'stamp', '', 'stamp']\n"
        "rondel = ['stamp_any', 'stamp_any', 'stamp_any', 'stamp_any', 'stamp_any', 'stamp_any']\n"
        "caterpillar_track = 40\ncaterpillar_gnome_spaces = [10, 20, 30, 40]\n"
        "[gnome]\noptions = [{action = 'move'}, {action = 'field'}, {action = 'stamp_any'}, {action = 'fill'},"
        " {action = 'critter_fill'}, {action = 'brick', count = 2}, {action = 'move'}]\n"
        "[rules]\nrounds = 12\nbonus_rounds = [3, 6, 9, 12]\n"
    )
    layout = fill_layout(edition)
    circles = [b for column in (*layout.ladders, *layout.tracks) for b in column.bubbles] + list(layout.petals) + list(layout.caterpillar)
    for circle in circles:
        assert SAFE.x_mm < circle.cx_mm - circle.r_mm and circle.cx_mm + circle.r_mm < SAFE.right_mm
        assert SAFE.y_mm < circle.cy_mm - circle.r_mm and circle.cy_mm + circle.r_mm < SAFE.bottom_mm
    for a, b in itertools.combinations(circles, 2):
        assert math.hypot(a.cx_mm - b.cx_mm, a.cy_mm - b.cy_mm) >= a.r_mm + b.r_mm - 1e-6, (a, b)
    assert max(line.y_mm for line in layout.gnome_lines) < layout.legend.y_mm - 5
    assert len(garden_layout(edition.rules.rounds).rounds) == 12


@pytest.mark.parametrize("rounds", [6, 10, 12, 20])
def test_the_round_track_fits_beside_its_label(rounds: int) -> None:
    layout = garden_layout(rounds)
    spaces = layout.rounds
    assert len(spaces) == rounds
    assert spaces[0].cx_mm - spaces[0].r_mm > layout.round_label.x_mm + 15.0  # "Round" at 11 pt is ~13 mm
    assert spaces[-1].cx_mm + spaces[-1].r_mm <= layout.garden.right_mm + 1e-6
    for a, b in itertools.pairwise(spaces):
        assert b.cx_mm - a.cx_mm > a.r_mm + b.r_mm


def _texts(value: object) -> list[Text]:
    """Every :class:`Text` in a layout value, however deeply nested."""
    if isinstance(value, Text):
        return [value]
    if isinstance(value, tuple | list):
        return [t for item in value for t in _texts(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value) for t in _texts(getattr(value, f.name))]
    return []


def test_every_text_position_lies_on_the_frame_inside_the_margins() -> None:
    for layout in (garden_layout(), garden_layout(20), fill_layout(standard_edition()), score_pad_layout()):
        texts = _texts(layout)
        assert len(texts) > 20
        for spot in texts:
            assert SAFE.x_mm <= spot.x_mm <= SAFE.right_mm and SAFE.y_mm <= spot.y_mm <= SAFE.bottom_mm, spot
            assert spot.align in ("left", "centre", "right") and 5.0 <= spot.size_pt <= 30.0, spot


def test_names_and_captions_sit_where_the_sheet_draws_them() -> None:
    garden, fill = garden_layout(), fill_layout(standard_edition())
    for layout in (garden, fill):
        line = layout.player_line
        assert layout.player_text.x_mm == pytest.approx(line.x1_mm + NAME_INSET_MM)
        assert layout.player_text.y_mm == pytest.approx(line.y1_mm - NAME_RISE_MM)  # on the line, not under it
    assert len(garden.plot_captions) == 25
    for box, caption in zip(garden.plots, garden.plot_captions, strict=True):
        assert box.x_mm < caption.x_mm < box.right_mm and box.y_mm < caption.y_mm < box.bottom_mm
    panel = garden.score_panel
    for spot in (garden.score_title, garden.score_total, garden.score_key, *garden.score_lines, *garden.score_values):
        assert panel.x_mm < spot.x_mm <= panel.right_mm and panel.y_mm < spot.y_mm < panel.bottom_mm, spot
    assert len(garden.score_lines) == len(garden.score_values) == 2 * SCORE_PANEL_ROWS
    assert fill.rondel_caption.y_mm > fill.rondel.cy_mm + fill.rondel.r_mm
    assert len(fill.caterpillar_numbers) == len(fill.caterpillar)  # two rows: room for the numbers of gnome spaces
    assert len(fill.gnome_bullets) == len(fill.gnome_lines)
    for table in score_pad_layout().tables:
        assert len(table.names) == len(table.rows) and len(table.heading_hints) == len(table.header) - 1


def test_layout_ids_are_pinned() -> None:
    # A printed sheet carries its layout id; changing any position changes it. Update these on purpose only.
    assert garden_layout().id == "43695a85"  # release 3 (release 2 was "74934309", release 1 "fc40096e")
    assert fill_layout(standard_edition()).id == "a0a114eb"  # wider ladders, the turning space's number beside it
    assert score_pad_layout().id == "50c40e9c"  # a wider name column


def test_todays_garden_layout_is_the_released_data() -> None:
    # A change to the garden sheet's geometry is a new release: bump GARDEN_RELEASE, add its file, keep the old ones.
    text = resources.files("papillon").joinpath("layouts", f"garden-{GARDEN_RELEASE}.json").read_text(encoding="utf-8")
    assert text == garden_release_json(), "the garden sheet changed: release a new layout instead of editing a released one"
    for rounds in (1, 7, 10, 30):
        released = released_garden_layouts()[garden_layout(rounds).id]
        assert (released.release, released.rounds) == (GARDEN_RELEASE, rounds)


def test_release_1_is_the_layout_its_sheets_carry() -> None:
    released = released_garden_layouts()
    old = released["fc40096e"]
    assert (old.release, old.rounds, old.layout.registration) == (1, 10, ())
    data = dataclasses.asdict(old.layout)
    data.pop("registration")
    data.pop("id")
    # Release 1's id is the hash of its geometry as printed: the stored data is exactly that geometry.
    assert _layout_id_of(data) == "fc40096e"
    assert sum(1 for r in released.values() if r.release == 1) == 30
    # Release 2 added registration dots and moved nothing the scanner reads.
    new = released["74934309"].layout
    for name in ("markers", "qr", "garden", "plots", "bubbles", "edge_slots", "colour_key"):
        assert getattr(old.layout, name) == getattr(new, name), name


def test_release_3_widens_the_path_between_plots_and_keeps_the_plots() -> None:
    release_2, release_3 = released_garden_layouts()["74934309"], released_garden_layouts()[garden_layout().id]
    assert (release_2.release, release_3.release) == (2, 3)
    assert (release_2.layout.path_mm, release_3.layout.path_mm) == (3.0, 5.0)
    assert {(box.w_mm, box.h_mm) for box in release_2.layout.plots + release_3.layout.plots} == {(25.0, 25.0)}
    assert release_3.layout.garden.w_mm == 150.0
    # The markers are shared, so the sheet is found before its release is known; the round track too, so a sheet's
    # round count is told by it when its QR code is unreadable.
    assert release_2.layout.markers == release_3.layout.markers
    assert release_2.layout.rounds == release_3.layout.rounds


def _layout_id_of(data: dict[str, object]) -> str:
    import hashlib

    def rounded(v: object) -> object:
        if isinstance(v, float):
            return round(v, 2)
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [rounded(x) for x in v]
        return v

    return hashlib.sha256(json.dumps(rounded(data), sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:8]


def test_registration_dots_sit_in_the_crossings_and_clear_of_everything() -> None:
    layout = garden_layout()
    dots = layout.registration
    assert len(dots) == 36 and len({(d.cx_mm, d.cy_mm) for d in dots}) == 36
    for dot in dots:
        for slot in layout.edge_slots:
            # The nearest point of the slot is one of its ends (slots run between crossings).
            gap = min(math.hypot(dot.cx_mm - x, dot.cy_mm - y) for x, y in ((slot.x1_mm, slot.y1_mm), (slot.x2_mm, slot.y2_mm)))
            assert gap - dot.r_mm >= 0.7
        for box in layout.plots:
            near_x = min(max(dot.cx_mm, box.x_mm), box.right_mm)
            near_y = min(max(dot.cy_mm, box.y_mm), box.bottom_mm)
            assert math.hypot(dot.cx_mm - near_x, dot.cy_mm - near_y) - dot.r_mm >= 0.7
        assert inside(Rect(dot.cx_mm - dot.r_mm, dot.cy_mm - dot.r_mm, 2 * dot.r_mm, 2 * dot.r_mm), SAFE)
