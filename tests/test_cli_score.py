"""`papillon score` and `papillon new` end to end, through click's CliRunner."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from papillon.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "sheets" / "examples" / "notation-example.garden"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_score_prints_a_breakdown_a_player_can_check(runner):
    result = runner.invoke(main, ["score", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("notation-example.garden — Ann")
    assert "  Flowers            10   A1 B1 C1 D1 A2 D3 E3 A4 B4 C4" in lines
    assert "  Patches             3   blue A4-B4-C4 (open: touches the garden border)" in lines
    assert "  Features            1   Pond E2 1: yellow flower (D1)" in lines
    assert "  Total              22" in lines


def test_score_json_is_one_object_per_input_in_order(runner, tmp_path):
    other = tmp_path / "blank.garden"
    other.write_text(runner.invoke(main, ["new", "--player", "Bo"]).output)
    result = runner.invoke(main, ["score", "--json", str(EXAMPLE), str(other)])
    assert result.exit_code == 0
    first, second = (json.loads(line) for line in result.output.splitlines())
    assert first["source"] == str(EXAMPLE) and first["total"] == 22
    assert first["categories"] == {
        "flowers": 10,
        "patches": 3,
        "enclosed": 0,
        "butterflies": 4,
        "critters": 1,
        "features": 1,
        "unique_features": 3,
    }
    assert first["details"]["patches"][0]["plots"] == ["A4", "B4", "C4"]
    assert second["total"] == 0 and second["player"] == "Bo"


def test_several_gardens_get_a_ranking(runner, tmp_path):
    blank = tmp_path / "blank.garden"
    blank.write_text(runner.invoke(main, ["new", "--player", "Bo"]).output)
    result = runner.invoke(main, ["score", str(blank), str(EXAMPLE)])
    assert result.exit_code == 0
    ranking = result.output.split("Ranking\n")[1].splitlines()
    assert ranking[0].split()[:3] == ["1.", "Ann", "22"]
    assert ranking[1].split()[:3] == ["2.", "Bo", "0"]


def test_standard_input_is_read_for_a_dash(runner):
    result = runner.invoke(main, ["score", "--json", "-"], input=EXAMPLE.read_text())
    assert result.exit_code == 0
    assert json.loads(result.output)["source"] == "<stdin>"


def test_json_form_is_scored_too(runner, tmp_path):
    from papillon import parse

    garden = parse(EXAMPLE.read_text())
    path = tmp_path / "g.json"
    path.write_text(json.dumps(garden.to_json()))
    result = runner.invoke(main, ["score", "--json", str(path)])
    assert json.loads(result.output)["total"] == 22


def test_a_bad_input_is_named_and_the_good_ones_still_scored(runner, tmp_path):
    bad = tmp_path / "bad.garden"
    text = EXAMPLE.read_text().replace(" 3   .     lb*", " 3   .     zz*")
    bad.write_text(text)
    line = text.splitlines().index(" 3   .     zz*   X   | Y     Y*") + 1
    result = runner.invoke(main, ["score", "--json", str(bad), str(EXAMPLE), str(tmp_path / "missing.garden")])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["total"] == 22
    errors = result.stderr.splitlines()
    # The exact notation messages are tested in test_notation.py; here: file, line, column, plot.
    assert errors[0].startswith(f"{bad}:{line}:12: B3: ") and "'zz" in errors[0]
    assert errors[1] == f"{tmp_path / 'missing.garden'}: cannot read (No such file or directory)"
    assert "Traceback" not in result.output


def test_binary_input_is_a_clear_error(runner, tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00\x01\xff\xfe\x80garbage")
    result = runner.invoke(main, ["score", str(blob)])
    assert result.exit_code == 1
    assert result.stderr == f"{blob}: not a text file (expected .garden notation or its JSON form; 'papillon score' also reads photos)\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score"], "Missing argument 'FILE... | -'"),
        (["score", "--frobnicate", "x"], "No such option '--frobnicate'"),
        (["score", "--edition", "/nonexistent.toml", "x"], "cannot read edition file"),
        (["new", "--starting-fields", "Z9"], "not a plot name: 'Z9'"),
        (["new", "--starting-fields", "A1,A2,A3,A4,A5"], "expected 1 to 4 starting fields, got 5 (like B4,D2)"),
    ],
)
def test_usage_errors_exit_2_without_traceback(runner, args, message):
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_an_edition_file_changes_the_score(runner, tmp_path):
    edition = tmp_path / "house.toml"
    edition.write_text("[scoring]\nunique_feature = 5\n")
    result = runner.invoke(main, ["score", "--json", "--edition", str(edition), str(EXAMPLE)])
    assert json.loads(result.output)["total"] == 24


def test_new_prints_a_template_that_parses_with_the_starting_fields(runner):
    from papillon import parse

    result = runner.invoke(main, ["new", "--starting-fields", "A1,E5", "--player", "Cy", "--date", "2026-11-29"])
    assert result.exit_code == 0
    garden = parse(result.output)
    assert [c.code for c in garden.cells].count("F") == 2
    assert garden.cells[0].code == "F" and garden.cells[24].code == "F"
    assert garden.metadata == {"player": "Cy", "date": "2026-11-29"}
    assert result.output.startswith("papillon garden v1\n# Fill each cell")


def test_new_writes_a_file_atomically_and_refuses_to_overwrite(runner, tmp_path):
    out = tmp_path / "mine.garden"
    assert runner.invoke(main, ["new", "-o", str(out), "--no-legend"]).exit_code == 0
    assert out.read_text().startswith("papillon garden v1\n\n     A")
    again = runner.invoke(main, ["new", "-o", str(out)])
    assert again.exit_code == 2 and "exists (use --force to overwrite it)" in again.stderr
    assert runner.invoke(main, ["new", "-o", str(out), "--force"]).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["mine.garden"]


def test_every_command_has_help(runner):
    for name in main.list_commands(None):
        result = runner.invoke(main, [name, "--help"], prog_name="papillon")
        assert result.exit_code == 0, name
        assert result.output.startswith(f"Usage: papillon {name} ")
        assert "--help" in result.output


def test_python_dash_m_runs_the_cli():
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "papillon", "score", str(EXAMPLE)], capture_output=True, text=True)
    assert result.returncode == 0 and "Total              22" in result.stdout


def test_render_draws_one_picture_per_scored_garden(runner, tmp_path):
    from PIL import Image

    out = tmp_path / "pictures"
    result = runner.invoke(main, ["score", "--render", str(out), str(EXAMPLE), "-"], input=EXAMPLE.read_text())
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["notation-example.png", "stdin.png"]
    with Image.open(out / "notation-example.png") as picture:
        assert picture.format == "PNG" and picture.width > 500


def test_a_capped_feature_says_what_it_counted_and_its_cap(runner):
    example = ROOT / "sheets" / "examples" / "bird-feeder-capped.garden"
    result = runner.invoke(main, ["score", str(example)])
    assert result.exit_code == 0, result.output
    unwrapped = " ".join(result.output.split())  # the breakdown wraps at 80 columns
    assert "Bird Feeder C3 8 (10 counted, max 8): Ladybug B2, Ladybug C2, Bumblebee D2, Hedgehog B3, Ladybug D3" in unwrapped
