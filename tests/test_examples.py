"""The bundled example gardens: every one carries its hand-checked score, and papillon must agree.

Each ``sheets/examples/*.garden`` file starts (after the ``papillon garden v1`` header) with

    # expected: flowers F, patches P, enclosed E, butterflies B, critters C, features X, unique_features U, total T
    # why: ...

worked out by hand from RULES.md §3 before the scorer was run.  A disagreement is a bug to
report, never a reason to edit the expectation.
"""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hand_checked import CATEGORIES, EXPECTED

from papillon.cli import main
from papillon.garden import Garden, Ground
from papillon.grid import parse_plot
from papillon.notation import format_garden, parse
from papillon.score import score

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "sheets" / "examples").glob("*.garden"))
STANDARD_FEATURES = ("po", "sh", "bf", "tr", "fp", "ha", "gz")
# The NOTATION.md example is drawn on a custom sheet (its fields are B2 and D4), and so is RULES.md's
# ring around a pocket (it needs B4 and D2 for flowers; its fields are A1 and E5); the others use
# the standard sheet, whose starting fields can only become a critter, a feature or a bramble.
CUSTOM_SHEET = {"notation-example.garden", "ring-pocket.garden"}
STARTING_FIELDS = ("B4", "D2")


def expected(path: Path) -> dict[str, int]:
    """The categories and total of the ``# expected:`` line, the line right after the header."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "papillon garden v1", f"{path.name}: the header comes first"
    match = EXPECTED.fullmatch(lines[1].strip())
    assert match, f"{path.name}: line 2 must be the '# expected: ...' line, found {lines[1]!r}"
    values = dict(zip((*CATEGORIES, "total"), map(int, match.groups()), strict=True))
    assert sum(values[name] for name in CATEGORIES) == values["total"], f"{path.name}: the expected categories do not add up"
    return values


def load(path: Path) -> Garden:
    return parse(path.read_text(encoding="utf-8"))


def ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_there_are_at_least_12_examples():
    assert len(EXAMPLES) >= 12, [p.name for p in EXAMPLES]


@pytest.mark.parametrize("path", EXAMPLES, ids=ids(EXAMPLES))
def test_example_scores_as_hand_checked(path):
    want = expected(path)
    card = score(load(path))
    assert set(card.categories) == set(CATEGORIES)
    got = {**card.categories, "total": card.total}
    assert got == want


@pytest.mark.parametrize("path", EXAMPLES, ids=ids(EXAMPLES))
def test_example_round_trips_through_the_notation(path):
    garden = load(path)
    text = format_garden(garden)
    again = parse(text)
    assert again == garden
    assert format_garden(again) == text


@pytest.mark.parametrize("path", EXAMPLES, ids=ids(EXAMPLES))
def test_example_is_a_legal_described_garden(path):
    garden = load(path)
    assert garden.problems() == []
    assert garden.metadata.get("player"), f"{path.name}: needs 'player:'"
    assert garden.metadata.get("note"), f"{path.name}: needs 'note:' (what it demonstrates)"
    assert garden.butterflies, f"{path.name}: a game starts with one butterfly"
    if path.name not in CUSTOM_SHEET:
        for name in STARTING_FIELDS:
            cell = garden[parse_plot(name)]
            assert cell.ground in (Ground.FIELD, Ground.BRAMBLE), f"{path.name}: starting field {name} is {cell.code!r}"


def test_every_standard_feature_appears_in_some_example():
    seen = {cell.occupant for path in EXAMPLES for cell in load(path).cells if cell.is_field and cell.occupant}
    missing = [code for code in STANDARD_FEATURES if code not in seen]
    assert not missing, f"no example holds the feature(s) {missing}"


def test_score_json_totals_match_the_hand_checked_ones():
    result = CliRunner().invoke(main, ["score", "--json", *map(str, EXAMPLES)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [r["source"] for r in records] == [str(p) for p in EXAMPLES]
    for path, record in zip(EXAMPLES, records, strict=True):
        want = expected(path)
        assert record["total"] == want["total"], path.name
        assert record["categories"] == {name: want[name] for name in CATEGORIES}, path.name
        assert record["player"] == load(path).metadata["player"]
