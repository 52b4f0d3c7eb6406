"""`papillon format`: canonical notation and the JSON form, both ways."""

import json
from pathlib import Path

from click.testing import CliRunner

from papillon import parse
from papillon.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "sheets" / "examples" / "notation-example.garden"


def test_format_drops_comments_and_keeps_the_garden():
    result = CliRunner().invoke(main, ["format", str(EXAMPLE)])
    assert result.exit_code == 0
    assert "#" not in result.output
    assert parse(result.output) == parse(EXAMPLE.read_text())


def test_json_and_back_is_the_same_canonical_text(tmp_path):
    runner = CliRunner()
    as_json = runner.invoke(main, ["format", "--json", str(EXAMPLE)]).output
    assert json.loads(as_json)["bricks"] == ["A1-A2", "B1-C1", "C2-C3", "C3-D3", "C4-C5"]
    path = tmp_path / "g.json"
    path.write_text(as_json)
    back = runner.invoke(main, ["format", str(path), "-o", str(tmp_path / "g.garden")])
    assert back.exit_code == 0
    assert (tmp_path / "g.garden").read_text() == runner.invoke(main, ["format", str(EXAMPLE)]).output


def test_a_bad_garden_exits_1_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.garden"
    bad.write_text("papillon garden v2\n")
    out = tmp_path / "out.garden"
    result = CliRunner().invoke(main, ["format", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{bad}:1:") and "v2" in result.stderr
    assert not out.exists()


def test_review_marks_are_not_dropped_silently(tmp_path):
    marked = tmp_path / "scanned.garden"
    marked.write_text(EXAMPLE.read_text().replace("papillon garden v1\n", "papillon garden v1\n# ? C3: read X (0.6), runner-up R\n", 1))
    refused = CliRunner().invoke(main, ["format", str(marked)])
    assert refused.exit_code == 1
    assert "1 reading still marked for review" in refused.stderr
    assert CliRunner().invoke(main, ["format", "--accept-uncertain", str(marked)]).exit_code == 0
