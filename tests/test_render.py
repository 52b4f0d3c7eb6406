"""Pictures of gardens: what a player drew lands where the layout says; the scoring overlay; the `render` command."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from papillon.cli import main
from papillon.edition import standard_edition
from papillon.garden import Garden
from papillon.grid import parse_edge, parse_plot
from papillon.layout import FRAME_H_MM, FRAME_W_MM, garden_layout
from papillon.render import render_garden
from papillon.render.pdf import PATCH_INSET_MM
from papillon.render.pen import COLOUR
from papillon.score import score

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "sheets" / "examples" / "notation-example.garden"
DPI = 100
PX_PER_MM = DPI / 25.4
LAYOUT = garden_layout()

ENCLOSED = """\
papillon garden v1
player: Cleo

     A     B     C     D     E
 1   .     .     .     .     .
           ---   ---   ---
 2   .   | R     R     X   | .
 3   .   | R     P     B*  | .
           ---   ---   ---
 4   .     hh    bb*   po    Y
 5   .     .     .     .     .
"""


def picture(garden: Garden | None, **options: object) -> np.ndarray:
    data = render_garden(garden, dpi=DPI, **options)  # type: ignore[arg-type]
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(int)


def at(image: np.ndarray, x_mm: float, y_mm: float) -> np.ndarray:
    """The pixel at frame millimetres (a PNG picture is exactly the frame)."""
    return image[round(y_mm * PX_PER_MM), round(x_mm * PX_PER_MM)]


def colour_of(name: str) -> np.ndarray:
    c = COLOUR.flowers[name]
    return np.array([round(c.red * 255), round(c.green * 255), round(c.blue * 255)])


def petal(plot: str) -> tuple[float, float]:
    """A point on the top petal of the flower drawn in ``plot``."""
    cx, cy = LAYOUT.plots[parse_plot(plot)].centre_mm
    return cx - 1.2, cy + 1.6 - 6.0


@pytest.fixture(scope="module")
def example() -> Garden:
    return Garden.from_notation(EXAMPLE.read_text())


@pytest.fixture(scope="module")
def example_image(example: Garden) -> np.ndarray:
    return picture(example)


def test_a_png_is_the_frame_at_the_dpi(example_image: np.ndarray) -> None:
    assert example_image.shape[:2] == (round(FRAME_H_MM * PX_PER_MM), round(FRAME_W_MM * PX_PER_MM))


def test_flowers_are_stamped_in_their_plots(example: Garden, example_image: np.ndarray) -> None:
    for plot in ("A1", "B1", "A2"):
        assert np.abs(at(example_image, *petal(plot)) - colour_of("red")).max() < 20, plot
    for plot in ("C1", "A4", "B4", "C4"):
        assert np.abs(at(example_image, *petal(plot)) - colour_of("blue")).max() < 20, plot
    for plot in ("E1", "C2", "A3"):
        assert at(example_image, *petal(plot)).min() > 245, plot  # empty plots stay white


def test_bricks_lie_on_their_edge_slots(example: Garden, example_image: np.ndarray) -> None:
    brick = np.array([0xB4, 0x54, 0x3A])
    for edge in ("A1-A2", "B1-C1", "C2-C3", "C3-D3", "C4-C5"):
        slot = LAYOUT.edge_slot(parse_edge(edge))
        x, y = (slot.x1_mm + slot.x2_mm) / 2, (slot.y1_mm + slot.y2_mm) / 2
        # A point a quarter along the slot (the brick joints are at fifths).
        x, y = slot.x1_mm + (slot.x2_mm - slot.x1_mm) * 0.3, slot.y1_mm + (slot.y2_mm - slot.y1_mm) * 0.3
        assert np.abs(at(example_image, x, y) - brick).max() < 25, edge
    free = LAYOUT.edge_slot(parse_edge("D4-D5"))
    assert np.abs(at(example_image, free.x1_mm + 8.0, free.y1_mm) - brick).max() > 60


def test_butterflies_fill_their_bubbles(example: Garden, example_image: np.ndarray) -> None:
    for plot, bubble in enumerate(LAYOUT.bubbles):
        pixel = at(example_image, bubble.cx_mm - bubble.r_mm * 0.75, bubble.cy_mm)
        if plot in example.butterflies:
            assert pixel.mean() < 120, plot
        else:
            assert pixel.mean() > 200, plot


def test_fields_are_grass_with_their_icons(example: Garden, example_image: np.ndarray) -> None:
    for plot in ("B2", "D4", "B3", "E2"):
        box = LAYOUT.plots[parse_plot(plot)]
        r, g, b = at(example_image, box.x_mm + 2.0, box.y_mm + 2.0)
        assert g > r + 8 and g > b + 15, plot
    ladybug = LAYOUT.plots[parse_plot("B3")].centre_mm
    r, g, b = at(example_image, ladybug[0] - 2.9, ladybug[1] + 2.9)
    assert r > 150 and g < 110, (r, g, b)  # the ladybug's red back


def test_the_score_overlay_shades_enclosures_and_lists_points() -> None:
    garden = Garden.from_notation(ENCLOSED)
    card = score(garden, standard_edition())
    assert card.total == 29 and card.categories["enclosed"] == 3  # Pond D4: purple, blue, bumblebee, yellow among its 8 plots
    plain, scored = picture(garden), picture(garden, score=card)
    # The bramble plot D2 lies in the enclosure: shaded when scored.
    d2 = LAYOUT.plots[parse_plot("D2")]
    spot = (d2.x_mm + 3.0, d2.bottom_mm - 3.0)
    assert at(plain, *spot).min() > 245
    r, g, b = at(scored, *spot)
    # A pale slate tint, far from the yellow of a yellow flower (it once was nearly that yellow).
    assert 180 < r < 235 and b > r + 8, (r, g, b)
    assert np.abs(np.array([r, g, b]) - colour_of("yellow")).sum() > 150
    # A plot outside the enclosure is not shaded.
    assert at(scored, *LAYOUT.plots[parse_plot("A5")].centre_mm).min() > 245
    # The patch outline runs inside the patch's plots (solid: it is enclosed).
    b2 = LAYOUT.plots[parse_plot("B2")]
    edge_x = b2.x_mm + PATCH_INSET_MM
    assert min(at(scored, edge_x + dx / PX_PER_MM, b2.centre_mm[1] + 6.0).mean() for dx in range(-2, 3)) < 90
    # The score panel covers the ruler area.
    panel = LAYOUT.score_panel
    region = (
        slice(round(panel.y_mm * PX_PER_MM), round(panel.bottom_mm * PX_PER_MM)),
        slice(round(panel.x_mm * PX_PER_MM), round(panel.right_mm * PX_PER_MM)),
    )
    assert not np.array_equal(plain[region], scored[region])


def test_blank_and_pdf_forms() -> None:
    blank = picture(None)
    for plot in ("B4", "D2"):
        r, g, _ = at(blank, *LAYOUT.plots[parse_plot(plot)].centre_mm)
        assert g > r + 8, plot
    pdf = render_garden(None, fmt="pdf")
    assert pdf.startswith(b"%PDF-")
    assert render_garden(None, fmt="pdf") == pdf
    with pytest.raises(ValueError, match="unknown picture format 'gif'"):
        render_garden(None, fmt="gif")


def test_mono_picture_is_gray(example: Garden) -> None:
    image = picture(example, mono=True)
    assert int((image.max(axis=2) - image.min(axis=2)).max()) <= 3


# --------------------------------------------------------------------------- the command


def invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, prog_name="papillon")
    return result.exit_code, result.stderr


def test_render_command_png_and_pdf(tmp_path: Path) -> None:
    png, pdf = tmp_path / "g.png", tmp_path / "g.pdf"
    assert invoke(["render", str(EXAMPLE), "-o", str(png), "--dpi", "60"]) == (0, "")
    with Image.open(png) as image:
        assert image.size == (round(FRAME_W_MM / 25.4 * 60), round(FRAME_H_MM / 25.4 * 60))
    assert invoke(["render", str(EXAMPLE), "--score", "-o", str(pdf)]) == (0, "")
    assert pdf.read_bytes().startswith(b"%PDF-")


def test_render_command_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = invoke(["render", str(EXAMPLE), "-o", "g.gif"])
    assert code == 2 and re.search(r"g\.gif: expected a \.png or \.pdf file name", err)
    Path("g.png").write_bytes(b"mine")
    code, err = invoke(["render", str(EXAMPLE), "-o", "g.png"])
    assert code == 2 and "g.png exists (use --force to overwrite it)" in err
    assert Path("g.png").read_bytes() == b"mine"
    Path("bad.garden").write_text("papillon garden v1\n\n     A     B     C     D     E\n 1   Q\n")
    code, err = invoke(["render", "bad.garden", "-o", "bad.png"])
    assert code == 1 and err.startswith("bad.garden:4:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.garden", "g.png"]


def test_render_warns_about_a_player_name_the_font_cannot_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("li.garden").write_text(ENCLOSED.replace("player: Cleo", "player: Li 李"), encoding="utf-8")
    code, err = invoke(["render", "li.garden", "-o", "li.png", "--dpi", "60"])
    assert code == 0
    assert err == "li.garden: warning: the sheet's font cannot draw '李' in player 'Li 李': drawn without them\n"
    assert Path("li.png").read_bytes().startswith(b"\x89PNG")
    # What it can draw is drawn: the same picture as for the name without the character.
    Path("li2.garden").write_text(ENCLOSED.replace("player: Cleo", "player: Li"), encoding="utf-8")
    assert invoke(["render", "li2.garden", "-o", "li2.png", "--dpi", "60"]) == (0, "")
    assert Path("li.png").read_bytes() == Path("li2.png").read_bytes()


def test_render_refuses_a_missing_directory(tmp_path: Path) -> None:
    out = tmp_path / "nowhere" / "g.png"
    code, err = invoke(["render", str(EXAMPLE), "-o", str(out)])
    assert code == 2 and f"cannot write {out}: no directory {out.parent}" in err
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- issue 10 item 23


def test_grass_tufts_stay_clear_of_a_critter_and_its_caption() -> None:
    from papillon.layout import PLOT_CAPTION_SMALL_PT, PLOT_ICON_OFFSET_MM, PLOT_ICON_R_MM
    from papillon.render.icons import grass_tufts
    from papillon.render.pen import MM_PT

    for plot, box in enumerate(LAYOUT.plots):
        caption = LAYOUT.plot_captions[plot]
        # "Bird Feeder" is the widest caption of the standard edition: ~13 mm at 6.5 pt; the text rises ~0.7 em.
        half_w, top = 8.0, caption.y_mm - caption.size_pt * 0.75 / MM_PT
        cx, cy = box.centre_mm[0] + PLOT_ICON_OFFSET_MM[0], box.centre_mm[1] + PLOT_ICON_OFFSET_MM[1]
        for x, y, h, spread in grass_tufts(box, seed=plot, occupied=True):
            left, right, up = x - spread, x + spread, y - h * 1.15
            assert right < caption.x_mm - half_w or left > caption.x_mm + half_w or y < top, (plot, x, y)
            nearest_x, nearest_y = min(max(cx, left), right), min(max(cy, up), y)
            assert math.hypot(cx - nearest_x, cy - nearest_y) > PLOT_ICON_R_MM * 0.8, (plot, x, y)
        assert caption.size_pt > PLOT_CAPTION_SMALL_PT


def test_a_scored_render_writes_its_total_in_the_total_box() -> None:
    garden = Garden.from_notation(ENCLOSED)
    plain, scored = picture(garden), picture(garden, score=score(garden, standard_edition()))
    box = LAYOUT.total_box
    inner = (
        slice(round((box.y_mm + 2) * PX_PER_MM), round((box.bottom_mm - 2) * PX_PER_MM)),
        slice(round((box.x_mm + 2) * PX_PER_MM), round((box.right_mm - 2) * PX_PER_MM)),
    )
    assert plain[inner].min() > 240  # empty without the score
    assert scored[inner].min() < 100  # "28" in ink


def test_mono_greys_are_neither_black_nor_invisible() -> None:
    from papillon.render.pen import MONO

    greys = {name: round(c.red * 255) for name, c in MONO.flowers.items()}
    assert all(0x60 <= g <= 0xC0 for g in greys.values()), greys  # purple was 0x3a, yellow 0xc4
    assert len(set(greys.values())) == 4 and min(abs(a - b) for a in greys.values() for b in greys.values() if a != b) >= 0x10
    assert round(MONO.critter["red"].red * 255) >= 0x90  # the ladybug's red no longer prints near black
    blank = picture(None, mono=True)
    for circle in LAYOUT.colour_key:  # every key ring, yellow's too, is drawn in a grey that shows
        assert at(blank, circle.cx_mm + circle.r_mm, circle.cy_mm).max() < 0x90
