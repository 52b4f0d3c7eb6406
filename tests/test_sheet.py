"""Printed sheets: rasterised with pypdfium2 and checked on the pixels against the layout; the `sheet` command end to end."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from click.testing import CliRunner

from papillon.cli import main
from papillon.edition import standard_edition
from papillon.grid import parse_plot, plot_name
from papillon.layout import fill_layout, frame_offset_mm, garden_layout, random_starting_fields, sheet_payload
from papillon.render.pdf import sheets_pdf

cv2 = pytest.importorskip("cv2")  # the scan extra: without it these tests, which read the markers and QR codes, skip

DPI = 150
PX_PER_MM = DPI / 25.4
REPO = Path(__file__).resolve().parent.parent


def pages(pdf: bytes) -> int:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def raster(pdf: bytes, page: int = 0, dpi: int = DPI) -> np.ndarray:
    """The page as an RGB array (rows = y down)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return np.asarray(document[page].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    finally:
        document.close()


class Page:
    """A rasterised page and the map from frame millimetres to its pixels."""

    def __init__(self, pdf: bytes, paper: str = "a4", page: int = 0) -> None:
        self.rgb = raster(pdf, page)
        self.gray = self.rgb.mean(axis=2)
        self.offset = frame_offset_mm(paper)

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + self.offset[0]) * PX_PER_MM, (y_mm + self.offset[1]) * PX_PER_MM

    def lum(self, x_mm: float, y_mm: float) -> float:
        x, y = self.px(x_mm, y_mm)
        return float(self.gray[round(y), round(x)])

    def darkest(self, x_mm: float, y_mm: float, radius_mm: float = 0.4) -> float:
        x, y = self.px(x_mm, y_mm)
        r = max(1, round(radius_mm * PX_PER_MM))
        return float(self.gray[round(y) - r : round(y) + r + 1, round(x) - r : round(x) + r + 1].min())

    def mean_rgb(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> np.ndarray:
        (x0, y0), (x1, y1) = self.px(x_mm, y_mm), self.px(x_mm + w_mm, y_mm + h_mm)
        return self.rgb[round(y0) : round(y1), round(x0) : round(x1)].reshape(-1, 3).mean(axis=0)


@pytest.fixture(scope="module")
def pad() -> bytes:
    return sheets_pdf(sides=("garden", "fill", "score"), players=("Ann",), paper="a4")


@pytest.fixture(scope="module")
def garden_page(pad: bytes) -> Page:
    return Page(pad, "a4", 0)


LAYOUT = garden_layout()
FIELDS = {parse_plot("B4"), parse_plot("D2")}


def test_the_pad_has_garden_fill_and_score_pages(pad: bytes) -> None:
    assert pad.startswith(b"%PDF-")
    assert pages(pad) == 3


def test_four_markers_where_the_layout_puts_them(garden_page: Page) -> None:
    gray = garden_page.gray.astype(np.uint8)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    for marker in LAYOUT.markers:
        for (x_mm, y_mm), (x, y) in zip(marker.box.corners_mm(), found[marker.id], strict=True):
            ex, ey = garden_page.px(x_mm, y_mm)
            assert math.hypot(x - ex, y - ey) < 1.0 * PX_PER_MM, (marker.id, (x, y), (ex, ey))


def test_the_qr_code_decodes_to_the_payload_inside_its_box(garden_page: Page) -> None:
    text, points, _ = cv2.QRCodeDetector().detectAndDecode(garden_page.gray.astype(np.uint8))
    assert text == sheet_payload(layout_id=LAYOUT.id, paper="a4", starting_fields=(parse_plot("B4"), parse_plot("D2")))
    assert json.loads(text)["layout"] == LAYOUT.id
    (left, top), (right, bottom) = garden_page.px(LAYOUT.qr.x_mm, LAYOUT.qr.y_mm), garden_page.px(LAYOUT.qr.right_mm, LAYOUT.qr.bottom_mm)
    for x, y in points.reshape(-1, 2):
        assert left - 4 < x < right + 4 and top - 4 < y < bottom + 4


def test_the_25_plots_are_where_the_layout_says(garden_page: Page) -> None:
    for plot, box in enumerate(LAYOUT.plots):
        cx, cy = box.centre_mm
        # The plot's outline on its left and top sides, path colour outside, plot colour inside.
        assert garden_page.darkest(box.x_mm, cy, 0.35) < 190, plot
        assert garden_page.darkest(cx, box.y_mm, 0.35) < 190, plot
        assert garden_page.lum(box.x_mm - 0.8, cy) > 225, plot
        assert garden_page.lum(cx, box.y_mm - 0.8) > 225, plot
        r, g, b = garden_page.mean_rgb(box.x_mm + 2, box.y_mm + 9, 6, 6)
        if plot in FIELDS:
            assert g > r + 8 and g > b + 15, (plot, r, g, b)  # grass
        else:
            assert min(r, g, b) > 245, (plot, r, g, b)  # a clean white plot


def test_the_25_butterfly_bubbles_are_where_the_layout_says(garden_page: Page) -> None:
    for plot, bubble in enumerate(LAYOUT.bubbles):
        ring = [
            garden_page.darkest(bubble.cx_mm + bubble.r_mm * math.cos(a), bubble.cy_mm + bubble.r_mm * math.sin(a), 0.3)
            for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)
        ]
        assert max(ring) < 190, (plot, ring)
        outside = garden_page.lum(bubble.cx_mm - bubble.r_mm - 1.2, bubble.cy_mm + bubble.r_mm * 0.5)
        assert outside > 210, plot
        assert garden_page.lum(bubble.cx_mm - bubble.r_mm * 0.7, bubble.cy_mm + bubble.r_mm * 0.5) > 200, plot  # empty inside


def test_edge_guides_are_light_and_in_the_paths(garden_page: Page) -> None:
    for slot in LAYOUT.edge_slots:
        mid = ((slot.x1_mm + slot.x2_mm) / 2, (slot.y1_mm + slot.y2_mm) / 2)
        samples = [
            garden_page.darkest(slot.x1_mm + (slot.x2_mm - slot.x1_mm) * t, slot.y1_mm + (slot.y2_mm - slot.y1_mm) * t, 0.3)
            for t in np.linspace(0.05, 0.95, 15)
        ]
        assert min(samples) < 228, mid  # a guide is drawn...
        assert min(samples) > 150, mid  # ...light enough for a pencil line to stand out


def test_fill_sheet_shows_the_ladders_from_the_edition(pad: bytes) -> None:
    page = Page(pad, "a4", 1)
    layout = fill_layout(standard_edition())
    for ladder in layout.ladders:
        for bubble in ladder.bubbles:
            assert page.darkest(bubble.cx_mm - bubble.r_mm, bubble.cy_mm, 0.35) < 150
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(page.gray.astype(np.uint8))
    assert sorted(ids.ravel().tolist()) == [4, 5, 6, 7]


def test_bytes_are_reproducible_and_fonts_embedded() -> None:
    first = sheets_pdf(sides=("garden", "fill", "score"), players=("Ann", "Ben"))
    assert first == sheets_pdf(sides=("garden", "fill", "score"), players=("Ann", "Ben"))
    fonts = set(re.findall(rb"/BaseFont /([A-Za-z+-]+)", first))
    assert fonts == {b"AAAAAA+Quicksand-Regular", b"AAAAAA+Quicksand-Bold"}  # subsets, no base-14 font
    assert first.count(b"/FontFile2") == 2


def test_the_template_is_a_form_drawn_once() -> None:
    one, twenty = sheets_pdf(copies=1), sheets_pdf(copies=20)
    assert pages(twenty) == 40
    assert len(twenty) < len(one) + 19 * 2 * 1500  # each extra sheet costs little more than its page object


def test_mono_is_grayscale() -> None:
    page = raster(sheets_pdf(mono=True), 0, dpi=50)
    assert int((page.max(axis=2) - page.min(axis=2)).max()) <= 3


def test_two_per_page_with_letter_paper() -> None:
    pdf = sheets_pdf(copies=2, per_page=2, paper="letter")
    assert pages(pdf) == 2
    document = pypdfium2.PdfDocument(pdf)
    width, height = document[0].get_size()
    document.close()
    assert (round(width / 72 * 25.4, 1), round(height / 72 * 25.4, 1)) == (279.4, 215.9)


# --------------------------------------------------------------------------- the command


def run(args: list[str], tmp_path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, catch_exceptions=False, prog_name="papillon")
    return result.exit_code, result.stdout, result.stderr


def test_sheet_command_writes_a_pad(tmp_path: Path) -> None:
    out = tmp_path / "night.pdf"
    code, _, err = run(
        ["sheet", "-o", str(out), "--player", "Ann", "--player", "Ben", "--sides", "garden,fill,score", "--paper", "letter"], tmp_path
    )
    assert code == 0, err
    pdf = out.read_bytes()
    assert pages(pdf) == 5
    document = pypdfium2.PdfDocument(pdf)
    width, height = document[0].get_size()
    document.close()
    assert (round(width / 72 * 25.4, 1), round(height / 72 * 25.4, 1)) == (215.9, 279.4)


def test_random_start_is_reproducible_and_in_the_qr(tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    code, _, err = run(["sheet", "-o", str(out), "--random-start", "--seed", "7", "--paper", "a4"], tmp_path)
    assert code == 0
    fields = random_starting_fields(7)
    names = ",".join(plot_name(p) for p in fields)
    assert err == f"random start (seed 7): fields {names}\n"
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(Page(out.read_bytes()).gray.astype(np.uint8))
    assert json.loads(text)["seed"] == 7 and json.loads(text)["fields"] == names


def test_sheet_from_a_saved_definition(tmp_path: Path) -> None:
    out = tmp_path / "family.pdf"
    code, _, err = run(["sheet", "--from", str(REPO / "sheets" / "family-night.toml"), "-o", str(out)], tmp_path)
    assert code == 0, err
    assert pages(out.read_bytes()) == 9  # 4 players × (garden, fill) + a score pad
    code, _, err = run(
        ["sheet", "--from", str(REPO / "sheets" / "family-night.toml"), "--sides", "garden", "-o", str(out), "--force"], tmp_path
    )
    assert code == 0, err
    assert pages(out.read_bytes()) == 4  # the command line wins


def test_sheet_to_standard_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "-", "--sides", "score"])
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF-")


def one_line_error(stderr: str) -> str:
    """The message of the one line a usage error prints: ``papillon sheet: error: MESSAGE; see 'papillon sheet --help'``."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    match = re.fullmatch(r"papillon (?:sheet|render): error: (.*); see 'papillon (?:sheet|render) --help'", lines[0])
    assert match, lines[0]
    return match.group(1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--starting-fields", "Z9"], "Invalid value for '--starting-fields': not a plot name: 'Z9' (expected A1 to E5)"),
        (
            ["--starting-fields", "A1,B2,C3,D4,E5"],
            "Invalid value for '--starting-fields': expected 1 to 4 starting fields, got 5 (like B4,D2)",
        ),
        (["--paper", "a3"], "Invalid value for '--paper': 'a3' is not one of 'a4', 'letter'"),
        (
            ["--edition", "missing.toml"],
            "Invalid value for '--edition': missing.toml: cannot read edition file (No such file or directory)",
        ),
        (["--sides", "garden,back"], "Invalid value for '--sides': unknown side 'back' (expected garden, fill, score)"),
        (["--per-page", "3"], "Invalid value for '--per-page': '3' is not one of '1', '2'"),
        (["--copies", "0"], "Invalid value for '--copies': 0 is not in the range 1<=x<=1000"),
        (["--seed", "3"], "--seed only applies to --random-start"),
        (["--random-start", "--starting-fields", "A1"], "--random-start and --starting-fields cannot be used together"),
        (["--from", "nowhere.toml"], "Invalid value for '--from': nowhere.toml: cannot read sheet definition (No such file or directory)"),
    ],
)
def test_bad_options_exit_2_with_one_line_and_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "out.pdf", *args])
    assert result.exit_code == 2
    assert one_line_error(result.stderr) == message
    assert list(tmp_path.iterdir()) == []


def test_an_existing_output_needs_force(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("out.pdf").write_bytes(b"mine")
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "out.pdf"])
    assert result.exit_code == 2
    assert one_line_error(result.stderr) == "out.pdf exists (use --force to overwrite it)"
    assert Path("out.pdf").read_bytes() == b"mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]
    assert CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "out.pdf", "--force"]).exit_code == 0
    assert Path("out.pdf").read_bytes().startswith(b"%PDF-")


def test_a_bad_sheet_definition_names_its_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.toml").write_text('players = ["Ann"]\nstarting_fields = ["B4", "Q1"]\n')
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "--from", "bad.toml", "-o", "out.pdf"])
    assert result.exit_code == 2
    assert (
        one_line_error(result.stderr) == "Invalid value for '--from': bad.toml: starting_fields: not a plot name: 'Q1' (expected A1 to E5)"
    )
    assert not Path("out.pdf").exists()


def test_every_saved_definition_loads() -> None:
    from papillon.render.spec import load_sheet_spec

    files = sorted((REPO / "sheets").glob("*.toml"))
    assert len(files) >= 2
    for path in files:
        load_sheet_spec(path)


def test_the_fill_sheet_changes_with_the_edition(tmp_path: Path) -> None:
    edition = tmp_path / "tall.toml"
    edition.write_text("[critters.hh]\nladder = 9\n")
    out = tmp_path / "fill.pdf"
    code, _, err = run(["sheet", "--sides", "fill", "--edition", str(edition), "-o", str(out), "--paper", "a4"], tmp_path)
    assert code == 0, err
    from papillon.edition import load_edition

    layout = fill_layout(load_edition(edition))
    assert len(layout.ladders[2].bubbles) == 9
    page = Page(out.read_bytes())
    top = layout.ladders[2].bubbles[-1]
    assert page.darkest(top.cx_mm - top.r_mm, top.cy_mm, 0.35) < 150


# --------------------------------------------------------------------------- text and the font

BIG_EDITION = (
    "[critters.sn]\nname = 'Snail'\npoints = 2\nladder = 4\n"
    "[fill]\nflower_track = ['', 'stamp', 'caterpillar', 'stamp', 'gnome', 'stamp', '', 'stamp']\n"
    "caterpillar_track = 40\ncaterpillar_gnome_spaces = [10, 20, 30, 40]\n"
    "[gnome]\noptions = [{action = 'move'}, {action = 'field'}, {action = 'stamp_any'}, {action = 'fill'},"
    " {action = 'critter_fill'}, {action = 'brick', count = 2}, {action = 'fill_or_move'}]\n"
    "[rules]\nrounds = 12\nbonus_rounds = [3, 6, 9, 12]\n"
)

EVERY_OCCUPANT = """\
papillon garden v1
player: Ann

     A     B     C     D     E
 1   lb    bb    hh    po    sh
 2   bf    .     tr    fp    ha
 3   gz    R     B     Y     P
 4   X     .     .     .     .
 5   .     .     .     .     .
"""


def test_every_text_the_renderer_draws_is_in_the_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout's and the edition's words must not use a sign the font lacks (as ↻ and ✂ once did): it would print as nothing."""
    from papillon.edition import edition_from_toml
    from papillon.garden import Garden
    from papillon.render.fonts import missing_glyphs
    from papillon.render.pdf import garden_pdf
    from papillon.render.pen import Pen
    from papillon.score import score

    drawn: list[str] = []
    original = Pen.text_at

    def recording(self: Pen, x_mm: float, y_mm: float, value: str, **options: object) -> None:
        drawn.append(value)
        original(self, x_mm, y_mm, value, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Pen, "text_at", recording)
    for edition in (standard_edition(), edition_from_toml(BIG_EDITION)):
        for per_page in (1, 2):
            sheets_pdf(sides=("garden", "fill", "score"), players=("Ann",), edition=edition, per_page=per_page, paper="letter")
        garden = Garden.from_notation(EVERY_OCCUPANT)
        garden_pdf(garden, score=score(garden, edition), edition=edition)
    text = "".join(drawn)
    for words in ("Papillon Gardens", "fill clockwise", "cut", "Total", "Ladybug", "Gazebo", "rounds 3, 6, 9, 12"):
        assert words in drawn or any(words in d for d in drawn), words
    assert missing_glyphs(text) == ""


def test_the_rondel_arrow_and_the_scissors_are_drawn(pad: bytes) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from papillon.layout import CAPTION_ICON_GAP_MM, CAPTION_ICON_R_MM, CAPTION_ICON_RISE_MM, CUT_LABEL_X_MM, CUT_LABEL_Y_MM
    from papillon.render.fonts import REGULAR

    page = Page(pad, "a4", 1)
    caption = fill_layout(standard_edition()).rondel_caption
    text_w = stringWidth("fill clockwise", REGULAR, caption.size_pt) * 25.4 / 72
    icon_w = CAPTION_ICON_GAP_MM + 2 * CAPTION_ICON_R_MM
    icon_x = caption.x_mm - (text_w + icon_w) / 2 + text_w + icon_w - CAPTION_ICON_R_MM
    # The arrow's ring runs through a point left of the icon's centre.
    assert page.darkest(icon_x - CAPTION_ICON_R_MM * 0.7, caption.y_mm - CAPTION_ICON_RISE_MM, 0.25) < 200
    assert page.lum(icon_x + 3 * CAPTION_ICON_R_MM, caption.y_mm - CAPTION_ICON_RISE_MM) > 245  # and nothing after it
    two_up = sheets_pdf(copies=1, per_page=2, paper="a4")
    image = raster(two_up).mean(axis=2)
    cut_x = image.shape[1] / 2 / PX_PER_MM
    x, y = cut_x + CUT_LABEL_X_MM + CAPTION_ICON_R_MM, CUT_LABEL_Y_MM - CAPTION_ICON_RISE_MM
    box = image[round((y - 1.3) * PX_PER_MM) : round((y + 1.3) * PX_PER_MM), round((x - 1.3) * PX_PER_MM) : round((x + 1.3) * PX_PER_MM)]
    assert box.min() < 180  # the scissors


@pytest.mark.parametrize("name", ["李", "Li 李明", "Ann →"])
def test_a_name_the_font_cannot_draw_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "out.pdf", "--player", "Ann", "--player", name])
    assert result.exit_code == 2
    message = one_line_error(result.stderr)
    assert message.startswith("Invalid value for '--player': the sheet's font cannot draw ")
    for ch in name:
        if ch not in "Ann Li":
            assert repr(ch) in message
    assert list(tmp_path.iterdir()) == []


def test_a_saved_name_the_font_cannot_draw_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("night.toml").write_text('players = ["Zoë", "李"]\n', encoding="utf-8")
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "--from", "night.toml", "-o", "out.pdf"])
    assert result.exit_code == 2
    assert one_line_error(result.stderr) == (
        "Invalid value for '--from': the sheet's font cannot draw '李' in the name '李'"
        " (it has Latin letters; write the name in them, or leave it blank and write it by hand)"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.toml"]
    # The command line wins over the file, and accented Latin letters are drawn.
    assert CliRunner().invoke(main, args=["sheet", "--from", "night.toml", "--player", "Zoë", "-o", "out.pdf"]).exit_code == 0


def test_a_saved_definition_names_the_pdf(tmp_path: Path) -> None:
    spec = tmp_path / "night.toml"
    spec.write_text('name = "Family night"\nsides = ["score"]\n')
    out = tmp_path / "night.pdf"
    code, _, err = run(["sheet", "--from", str(spec), "-o", str(out)], tmp_path)
    assert code == 0, err
    document = pypdfium2.PdfDocument(out.read_bytes())
    try:
        assert document.get_metadata_dict()["Title"] == "Family night"
    finally:
        document.close()
    assert b"Papillon Gardens sheets" in sheets_pdf(sides=("score",))


def test_a_drawn_seed_is_announced_even_when_the_write_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("out.pdf").write_bytes(b"mine")
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", "out.pdf", "--random-start"])
    assert result.exit_code == 2
    announced, refused = result.stderr.strip().splitlines()
    assert re.fullmatch(r"random start \(seed \d+\): fields [A-E][1-5],[A-E][1-5]", announced)
    assert one_line_error(refused) == "out.pdf exists (use --force to overwrite it)"
    assert Path("out.pdf").read_bytes() == b"mine"


def test_no_directory_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "out.pdf"
    result = CliRunner().invoke(main, prog_name="papillon", args=["sheet", "-o", str(out)])
    assert result.exit_code == 2
    assert one_line_error(result.stderr) == f"cannot write {out}: no directory {out.parent}"
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- issue 10 items 17, 19, 23 and issue 8


def test_the_two_up_ruler_measures_50_mm_on_paper() -> None:
    from papillon.layout import placements

    pdf = sheets_pdf(sides=("garden",), per_page=2, paper="a4")
    image = raster(pdf).mean(axis=2)
    _, (spot, _), _ = placements("a4", 2)
    bar = LAYOUT.ruler
    y = (spot.y_mm + bar.y1_mm * spot.scale) * PX_PER_MM
    x0 = (spot.x_mm + bar.x1_mm * spot.scale) * PX_PER_MM
    row = image[round(y) - 1 : round(y) + 2, round(x0) - 5 : round(x0 + 60 * PX_PER_MM)].min(axis=0)
    dark = np.flatnonzero(row < 128)
    length_mm = (dark[-1] - dark[0]) / PX_PER_MM
    assert 49.5 < length_mm < 50.6, length_mm  # it measured 33 mm: the frame is printed at 0.665


def test_the_key_says_a_tick_counts(pad: bytes) -> None:
    document = pypdfium2.PdfDocument(pad)
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert "Butterfly: fill the bubble (a tick counts)" in text


def test_a_long_name_is_set_smaller_to_fit_its_line() -> None:
    from papillon.render.pdf import NAME_MIN_PT, fitted_size_pt

    room = LAYOUT.player_line.x2_mm - LAYOUT.player_text.x_mm
    assert fitted_size_pt("Ann", room, 13.0) == 13.0
    size = fitted_size_pt("Maximiliane von Hohenzollern-Sigmaringen", room, 13.0)
    assert size is not None and NAME_MIN_PT <= size < 13.0
    assert fitted_size_pt("W" * 60, room, 13.0) is None
    # On the page: the name ends before the line does (it ran into the Total box).
    name = "Maximiliane von Hohenzollern-Sigmaringen"
    page = Page(sheets_pdf(sides=("garden",), players=(name,), paper="a4"), "a4", 0)
    line_y = LAYOUT.player_line.y1_mm - 2.0
    assert all(
        page.lum(x, line_y - dy) > 200
        for x in np.arange(LAYOUT.player_line.x2_mm + 0.5, LAYOUT.total_label.x_mm - 12, 0.3)
        for dy in (0, 1, 2)
    )
    assert min(page.lum(x, line_y) for x in np.arange(LAYOUT.player_line.x2_mm - 15, LAYOUT.player_line.x2_mm, 0.2)) < 150


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--player", "W" * 60],
            "the name 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW…' is too long for the garden sheet (at most 78 mm at 7 pt) — shorten it",
        ),
        (
            ["--sides", "score", *[a for n in "ABCDEFG" for a in ("--player", n)]],
            "a score pad has room for 6 players, not 7 — print a pad for each group of up to 6",
        ),
        (
            ["--sides", "score", "--player", "Maximiliane Alexandra von Hohenzollern"],
            "the name 'Maximiliane Alexandra von Hohenzollern' is too long for the score pad (at most 42 mm at 7 pt) — shorten it",
        ),
    ],
)
def test_a_name_that_cannot_fit_or_a_seventh_player_is_refused_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "x.pdf"
    result = CliRunner().invoke(main, ["sheet", "-o", str(out), *args], prog_name="papillon")
    assert result.exit_code == 2
    assert f"Invalid value for '--player': {message}" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_every_ladder_name_is_set_at_one_size(monkeypatch: pytest.MonkeyPatch) -> None:
    from papillon.render.pen import Pen

    sizes: dict[str, float] = {}
    original = Pen.text_at

    def recording(self: Pen, x_mm: float, y_mm: float, value: str, **options: object) -> None:
        sizes[value] = options.get("size_pt")  # type: ignore[assignment]
        original(self, x_mm, y_mm, value, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(Pen, "text_at", recording)
    sheets_pdf(sides=("fill",))
    assert sizes["Ladybug"] == sizes["Bumblebee"] == sizes["Hedgehog"] == 10.0


def test_a_gnome_space_where_the_track_turns_has_its_number_beside_it() -> None:
    fill = fill_layout(standard_edition())
    for i, (space, number) in enumerate(zip(fill.caterpillar, fill.caterpillar_numbers, strict=True)):
        nxt = fill.caterpillar[i + 1] if i + 1 < len(fill.caterpillar) else None
        if nxt is not None and nxt.cy_mm > space.cy_mm:  # the connector runs straight down from this space
            assert abs(number.x_mm - space.cx_mm) > space.r_mm, i + 1
        else:
            assert number.x_mm == space.cx_mm
    twelve = Page(sheets_pdf(sides=("fill",), paper="a4"), "a4", 0)
    spot = fill.caterpillar_numbers[11]
    assert twelve.darkest(spot.x_mm + 1.2, spot.y_mm - 0.8, 0.8) < 200  # "12" is printed there, on white paper
