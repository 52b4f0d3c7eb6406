"""The Garden value: valid construction, rule problems, "changes" that make new values."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import any_gardens

from papillon import Garden, parse_edge, parse_plot
from papillon.edition import Edition, edition_from_toml
from papillon.garden import FIELD, Cell, Ground, flower


def test_empty_garden_has_the_standard_starting_fields():
    garden = Garden.empty()
    assert [p for p in range(25) if garden[p].is_field] == [parse_plot("D2"), parse_plot("B4")]
    assert garden.bricks == frozenset() and garden.butterflies == frozenset()


def test_changes_make_new_values():
    garden = Garden.empty()
    changed = garden.with_cell(0, flower("red")).with_brick(parse_edge("A1-B1")).with_butterfly(0)
    assert garden == Garden.empty()
    assert changed[0].code == "R" and changed.bricks == {parse_edge("A1-B1")} and changed.butterflies == {0}


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ((("note", " padded "),), "surrounding spaces"),
        ((("note", "a\rb"),), "control characters"),
        ((("note", "game #3"),), "without '#'"),
        ((("9lives", "x"),), "starting with a letter"),
        ((("a", "1"), ("a", "2")), "metadata keys must be different"),
    ],
)
def test_metadata_the_notation_cannot_write_back_is_refused(meta, message):
    with pytest.raises(ValueError, match=message):
        Garden(Garden.empty().cells, meta=meta)


def test_structure_is_checked_on_construction():
    with pytest.raises(ValueError, match="25 cells"):
        Garden((FIELD,) * 24)
    with pytest.raises(ValueError, match="interior edges"):
        Garden.empty().with_brick((0, 2))  # type: ignore[arg-type]


def test_problems_are_states_that_parse_but_break_the_rules():
    cells = list(Garden.empty().cells)
    cells[0] = Cell(Ground.FLOWER, colour="red", occupant="lb")
    cells[1] = Cell(Ground.EMPTY, occupant="po")
    cells[2] = Cell(Ground.FLOWER, colour="green")
    cells[3] = Cell(Ground.FIELD, occupant="zz")
    assert Garden(tuple(cells)).problems() == [
        "A1: a critter (Ladybug) outside a field (the plot is flower)",
        "B1: a feature (Pond) outside a field (the plot is empty)",
        "C1: a flower needs one of the colours red, blue, yellow, purple",
        "D1: 'zz' is not a critter or feature of the standard edition",
    ]
    assert Garden.empty().problems() == []


def test_a_garden_with_the_old_birdhouse_code_is_refused_with_what_to_write():
    from papillon.edition import earlier_standard_editions
    from papillon.errors import NotationError

    rows = "".join(f" {row}   .     .     .     .     .\n" for row in range(2, 6))
    text = "papillon garden v1\n\n     A     B     C     D     E\n 1   bh    .     .     .     .\n" + rows
    with pytest.raises(NotationError) as error:
        Garden.from_notation(text)
    assert error.value.message == "A1: 'bh' is not a code of the standard edition: the Birdhouse is the Bird Feeder: write bf"
    with pytest.raises(NotationError) as error:
        Garden.from_json({"format": "papillon-garden", "version": 1, "plots": [["bh*", ".", ".", ".", "."]] + [["."] * 5] * 4})
    assert str(error.value).endswith(
        "plots[0][0] (A1): 'bh*' is not a code of the standard edition: the Birdhouse is the Bird Feeder: write bf"
    )
    old = Garden.from_notation(text, earlier_standard_editions()[0])
    assert old.cells[0].occupant == "bh", "a garden of the earlier edition still reads under it"


def test_problems_carry_a_code_a_program_can_branch_on():
    garden = Garden.from_codes([["zz", ".", ".", ".", "."]] + [["."] * 5] * 4).with_cell(
        parse_plot("B1"), Cell(Ground.EMPTY, occupant="lb")
    )
    problems = garden.problems()
    assert [(p.code, p.plot) for p in problems] == [("unknown_occupant", 0), ("occupant_not_in_field", 1)]
    assert problems[0].message == "A1: 'zz' is not a critter or feature of the standard edition"
    assert problems[1] == "B1: a critter (Ladybug) outside a field (the plot is empty)"
    old = Garden.from_codes([["bh", ".", ".", ".", "."]] + [["."] * 5] * 4)
    assert old.problems()[0].endswith("of the standard edition: the Birdhouse is the Bird Feeder: write bf")


MEADOW = edition_from_toml('[features.wm]\nname = "Wildflower Meadow"\ntype = "C"\nscore = { count = "adjacent_flowers", points = 1 }\n')
"""A custom edition adding the feature code ``wm``."""


@given(any_gardens, st.sampled_from([None, MEADOW]), st.one_of(st.none(), st.integers(0, 24)))
@settings(max_examples=200, deadline=None)
def test_problems_are_the_same_for_cells_made_anew(garden: Garden, edition: Edition | None, meadow_at: int | None) -> None:
    """problems() skips a garden of cells Cell.parse made for the edition (by identity); equal cells made anew are
    looked at one by one. A Wildflower Meadow (``wm``) is known to MEADOW only."""
    if meadow_at is not None:
        garden = garden.with_cell(meadow_at, Cell.parse("wm"))
    anew = Garden(tuple(Cell(c.ground, c.colour, c.occupant) for c in garden.cells), garden.bricks, garden.butterflies)
    assert anew.cells == garden.cells and all(a is not b for a, b in zip(anew.cells, garden.cells, strict=True))
    assert garden.problems(edition) == anew.problems(edition)
    assert bool(garden.problems(edition)) == (meadow_at is not None and edition is None)
