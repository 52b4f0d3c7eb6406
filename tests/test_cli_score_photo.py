"""`papillon score PHOTO`: scan and score in one go, and review marks that block scoring."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("cv2")

from click.testing import CliRunner
from photos.synth import synthetic_photo

from papillon import score
from papillon.cli import main
from papillon.grid import plot_name

SURE_SEED = 10
"""A 2-megapixel synthetic photo every reading of which is sure (tests/test_scan.py checks it)."""


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    shot = synthetic_photo(SURE_SEED, megapixels=(2.0, 2.0))
    path = tmp_path_factory.mktemp("photos") / "sheet.jpg"
    path.write_bytes(shot.jpeg)
    fields = ",".join(f"{plot_name(p)}={c.occupant}" for p, c in enumerate(shot.garden.cells) if c.occupant)
    return path, shot.garden, fields


def test_a_photo_is_read_then_scored(photo):
    path, garden, fields = photo
    result = CliRunner().invoke(main, ["score", "--json", "--fields", fields, str(path)])
    assert result.exit_code == 0, result.stderr
    scored = json.loads(result.stdout)
    assert scored["total"] == score(garden).total
    assert scored["scan"]["notation"].startswith("papillon garden v1\n# read from ")
    assert scored["scan"]["confidence"] >= 0.9 and scored["scan"]["review"] == []


def test_the_breakdown_shows_what_was_read_above_it(photo):
    path, garden, fields = photo
    result = CliRunner().invoke(main, ["score", "--fields", fields, str(path)])
    assert result.exit_code == 0
    read, breakdown = result.stdout.split(f"\n{path} — ", 1) if "player" in garden.metadata else result.stdout.split(f"\n{path}\n", 1)
    assert "     A     B     C     D     E" in read
    assert f"  {'Total':<17}{score(garden).total:>4}" in breakdown.splitlines()


def test_a_damaged_image_is_one_line_and_exit_1(tmp_path):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    result = CliRunner().invoke(main, ["score", str(broken)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "broken.png" in result.stderr and "Traceback" not in result.output


def test_review_marks_left_in_a_garden_file_block_scoring_until_accepted(tmp_path):
    marked = tmp_path / "scanned.garden"
    marked.write_text(
        "papillon garden v1\n# ? C3: read red (0.62), runner-up purple (0.31)\n\n"
        "     A     B     C     D     E\n 1   .     .     .     .     .\n 2   .     .     .     F     .\n"
        " 3   .     .     R     .     .\n 4   .     F     .     .     .\n 5   .     .     .     .     .\n"
    )
    refused = CliRunner().invoke(main, ["score", str(marked)])
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"{marked}: 1 reading still marked for review ('# ?' lines): "
        "check them against the sheet and delete the marks, or pass --accept-uncertain\n"
    )
    accepted = CliRunner().invoke(main, ["score", "--accept-uncertain", str(marked)])
    assert accepted.exit_code == 0 and "Total               1" in accepted.stdout


def test_fields_not_given_are_scored_empty_with_a_warning(photo):
    path, garden, _fields = photo
    result = CliRunner().invoke(main, ["score", "--json", str(path)])
    assert result.exit_code == 0
    unknown = ", ".join(plot_name(p) for p, cell in enumerate(garden.cells) if cell.is_field)
    assert result.stderr == f"{path}: warning: scoring the fields {unknown} as empty (say what they hold with --fields B4=po,...)\n"


def test_fields_naming_a_plot_read_as_no_field_name_the_option(photo):
    path, garden, _fields = photo
    flower = next(p for p, cell in enumerate(garden.cells) if cell.is_flower)
    name, colour = plot_name(flower), garden.cells[flower].colour
    result = CliRunner().invoke(main, ["score", "--fields", f"{name}=po", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"{path}: {name}=po: {name} was read as {colour}, not a field (from --fields)\n"
    scanned = CliRunner().invoke(main, ["scan", "--fields", f"{name}=po", str(path)])
    assert scanned.exit_code == 1
    assert scanned.stderr == f"papillon scan: {path}: {name}=po: {name} was read as {colour}, not a field (from --fields)\n"


def test_a_photo_to_review_says_how_to_score_it_anyway(photo, monkeypatch):
    from papillon.scan import transcribe

    path, _garden, fields = photo
    monkeypatch.setattr(transcribe.transcribe, "__kwdefaults__", {**transcribe.transcribe.__kwdefaults__, "review_confidence": 1.01})
    result = CliRunner().invoke(main, ["score", "--json", "--fields", fields, str(path)])  # every reading is now doubtful
    assert result.exit_code == 1
    # Too many doubts to weigh together: all are asked, those whose answer changes the garden's score most first.
    assert result.stderr == (
        f"{path}: 90 readings need review (A1, B1, A2, B2, ...) — check them against the sheet, or pass --accept-uncertain\n"
    )
    accepted = CliRunner().invoke(main, ["score", "--json", "--accept-uncertain", "--fields", fields, str(path)])
    assert accepted.exit_code == 0


def test_a_scan_says_in_the_notation_how_to_give_the_fields(photo):
    path, garden, _fields = photo
    result = CliRunner().invoke(main, ["scan", str(path)])
    assert result.exit_code == 0
    unknown = ", ".join(plot_name(p) for p, cell in enumerate(garden.cells) if cell.is_field)
    assert f"# fields whose critter or feature was not given: {unknown} (write each F as what it holds, like po or lb)\n" in result.stdout
