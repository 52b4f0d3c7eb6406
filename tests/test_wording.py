"""Small promises of the words on screen (issue 23, items 12 and 15): each was wrong once."""

from __future__ import annotations

import random
import re
from pathlib import Path

import click
from click.testing import CliRunner

from papillon.cli import main
from papillon.engine.actions import Kind
from papillon.engine.state import new_game
from papillon.engine.text import describe
from papillon.scan import review_marks


def _move_descriptions(seed: int) -> list[str]:
    """What `?` says of every "to PLOT" choice met in a random solo game."""
    rng = random.Random(seed)
    state = new_game()
    found = []
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        found += [describe(state, a) for a in actions if a.kind is Kind.TO]
        state = state.apply(rng.choice(actions))
    return found


def test_15_a_move_filling_one_butterfly_space_says_space():
    said = _move_descriptions(0)
    assert "move to D1, filling the butterfly space of D1" in said
    assert "move to D4, filling the butterfly spaces of D3 D4" in said
    for sentence in said:
        plots = sentence.rsplit(" of ", 1)[1].split()
        assert ("spaces of" in sentence) == (len(plots) > 1), sentence


GARDEN = "papillon garden v1\nplayer: Ann\n"
EXAMPLE = Path(__file__).resolve().parent.parent / "sheets" / "examples" / "notation-example.garden"


def test_15_only_hash_space_question_mark_is_a_review_mark():
    mark = "# ? C3: read red (0.62), runner-up purple (0.31)"
    assert review_marks(GARDEN + mark + "\n") == [mark]
    assert review_marks(GARDEN + "  # ? indented, still a mark\n") == ["# ? indented, still a mark"]
    assert review_marks(GARDEN + "#? note\n#?\n#  ? two spaces\n# note?\n") == []


def test_15_a_hash_question_mark_note_does_not_block_score(tmp_path):
    garden = tmp_path / "ann.garden"
    garden.write_text(EXAMPLE.read_text(encoding="utf-8") + "#? note to self: recount the bees\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(garden)])
    assert result.exit_code == 0, result.output
    assert re.search(r"Total\s+\d+", result.output)
    garden.write_text(EXAMPLE.read_text(encoding="utf-8") + "# ? C3: read red (0.62), runner-up purple (0.31)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(garden)])
    assert result.exit_code == 1
    assert "1 reading still marked for review ('# ?' lines)" in result.output


def test_12_play_wraps_on_word_boundaries_at_80_columns(tmp_path, monkeypatch):
    # `?` explains every choice (a pair's text is 85 to 105 columns), and the save path is long.
    monkeypatch.chdir(tmp_path)
    save = "saved-games/the-long-named-folder-of-the-family-games/ann-papillon.jsonl"  # 72 columns
    Path(save).parent.mkdir(parents=True)
    typed = "?\nb\n1\n" * 6 + "q\n"
    result = CliRunner().invoke(main, ["play", "--seed", "0", "--name", "Ann", "--bot", "greedy", "--save", save], input=typed)
    assert result.exit_code == 0, result.output
    plain = click.unstyle(result.output)
    assert [line for line in plain.splitlines() if len(line) > 80] == []
    assert plain.count(save) == sum(line.count(save) for line in plain.splitlines()) == 3  # the file name never cut in two
    whole = " ".join(plain.split())  # the lines joined again: a word cut in two would read "bram ble"
    assert "1. pair 1: stamp a purple flower | corner: place brick edging; die: 2 caterpillars" in whole
    assert "3. pair 3: move a butterfly | corner: add a feature; die: 2 caterpillars + bramble" in whole


FOUR_GAZEBOS = """papillon garden v1
player: Ann

     A     B     C     D     E
 1   R*    R*    R*    R*    R*
 2   B*    B*    B*    B*    B*
 3   Y*    .     .     .     .
 4   .     .     .     .     .
 5   gz    gz    gz    gz    .
"""


def test_12_copies_of_a_tile_that_count_the_same_are_told_once():
    from papillon import Garden, score
    from papillon.report import explanations

    card = score(Garden.from_notation(FOUR_GAZEBOS))
    assert card.categories["features"] == 4 * 8  # each copy scores (the book: "VP for each scoring feature")
    assert [item.points for item in card.features] == [8, 8, 8, 8]  # the data keeps one item per copy
    flowers = "red flower A1, red flower B1, red flower C1, red flower D1, red flower E1, blue flower A2, blue flower B2, blue flower C2, "
    flowers += "blue flower D2, blue flower E2, yellow flower A3"
    assert explanations(card)["features"] == f"Gazebo A5 B5 C5 D5 8 each (11 counted, max 8): {flowers}"


def test_12_the_breakdown_of_four_copies_is_short(tmp_path):
    garden = tmp_path / "four.garden"
    garden.write_text(FOUR_GAZEBOS, encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(garden)])
    assert result.exit_code == 0
    assert " ".join(result.output.split()).count("yellow flower A3") == 1
    features = result.output[result.output.index("  Features") : result.output.index("  Unique features")]
    assert len(features.splitlines()) == 5, features
