"""The bots' sense of enclosures: progress towards a ring, paid as the edition pays, and what greedy does with it.

Expected values are worked out by hand from RULES.md §2-3 in the comments, before the code ran.
"""

from __future__ import annotations

import random

import pytest

from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import GameState, make_bot, new_game, play_game
from papillon.engine.bots import GreedyBot, value
from papillon.engine.evaluate import board_score, potential, potential_bound, ring_edges, ring_progress
from papillon.engine.state import _evolve, _settle
from papillon.engine.tables import EDGE_BY_NAME, PLOT_BY_NAME, tables_for
from papillon.engine.tasks import AddBrick, Stamp

STANDARD = standard_edition()
NO_ENCLOSURE_POINTS = edition_from_toml("[scoring]\nenclosed = 0\n")
DOUBLE_ENCLOSURE_POINTS = edition_from_toml("[scoring]\nenclosed = 2\n")
BORDER_ENCLOSES = edition_from_toml("[rules]\nborder_encloses = true\n")


def garden(plots: dict[str, str]) -> tuple[str, ...]:
    """25 cell codes: the given plots, the two starting fields B4 and D2, the rest empty."""
    cells = ["."] * 25
    for name, code in {"B4": "F", "D2": "F", **plots}.items():
        cells[PLOT_BY_NAME[name]] = code
    return tuple(cells)


def bricks(*names: str) -> int:
    return sum(1 << EDGE_BY_NAME[name] for name in names)


# Three reds in an L off the border: B2, C2, B3.  Their outline: B2 faces B1 and A2, C2 faces
# C1, D2 and C3, B3 faces A3, B4 and C3 -- 8 edges (C3 is faced twice, by two different edges).
L_REDS = garden({"B2": "R", "C2": "R", "B3": "R"})
L_OUTLINE = ("B1-B2", "A2-B2", "C1-C2", "C2-D2", "C2-C3", "A3-B3", "B3-B4", "B3-C3")


def test_the_outline_of_a_patch_is_the_sides_of_its_plots_that_face_other_plots():
    board = new_game().boards[0]._replace(cells=L_REDS)
    assert ring_edges(board, tables_for(STANDARD)) == bricks(*L_OUTLINE)


@pytest.mark.parametrize(
    ("drawn", "expected"),
    [
        (0, 3 * 3 / 11),  # pieces of the enclosure: 3 flowers + 8 bricks; the 3 flowers are drawn
        (3, 3 * 6 / 11),
        (7, 3 * 10 / 11),
        (8, 0.0),  # complete: the rules score it (below), bricks can bring nothing more
    ],
)
def test_ring_progress_is_the_flowers_times_the_share_of_the_enclosure_drawn(drawn, expected):
    assert ring_progress(L_REDS, bricks(*L_OUTLINE[:drawn]), 3, False) == pytest.approx(expected)


def test_a_complete_outline_is_an_enclosure_for_the_scorer():
    board = new_game().boards[0]._replace(cells=L_REDS, bricks=bricks(*L_OUTLINE))
    # 3 flowers + 3 in a patch + 3 in an enclosed patch (RULES §3); one brick short, 6.
    assert board_score(board, STANDARD) == 9
    assert board_score(board._replace(bricks=bricks(*L_OUTLINE[:7])), STANDARD) == 6


def test_patches_on_the_border_groups_too_small_and_bricks_elsewhere_count_nothing():
    on_border = garden({"A1": "R", "B1": "R", "A2": "R"})
    assert ring_progress(on_border, bricks("B1-C1", "B1-B2", "A2-B2", "A2-A3"), 3, False) == 0
    two = garden({"B2": "R", "C2": "R"})
    assert ring_progress(two, bricks("B1-B2", "A2-B2", "C1-C2"), 3, False) == 0
    # two reds are a patch when patch_min is 2: 2 flowers, outline B1, A2, B3 | C1, D2, C3 = 6, 1 brick
    assert ring_progress(two, bricks("B1-B2"), 2, False) == pytest.approx(2 * 3 / 8)
    # a brick off the outline is no progress
    assert ring_progress(L_REDS, bricks("D4-D5", "A1-B1"), 3, False) == pytest.approx(3 * 3 / 11)


def test_with_border_encloses_the_garden_edge_is_brick_already():
    corner = garden({"A1": "R", "B1": "R", "A2": "R"})
    # the edge sides: A1 2, B1 1, A2 1 = 4, drawn; the outline: B1-C1, B1-B2, A2-B2, A2-A3 = 4 to draw
    assert ring_progress(corner, 0, 3, True) == pytest.approx(3 * (3 + 4) / (3 + 4 + 4))
    assert ring_progress(corner, bricks("B1-C1", "A2-A3"), 3, True) == pytest.approx(3 * 9 / 11)


def test_two_patches_add_up_and_a_split_patch_is_two():
    # reds B2 C2 B3 and blues C4 D4 D3: the blue outline is C4: B4, C5, C3; D4: E4, D5; D3: C3, E3, D2 = 8
    both = garden({"B2": "R", "C2": "R", "B3": "R", "C4": "B", "D4": "B", "D3": "B"})
    alone = 3 * 3 / 11
    assert ring_progress(both, 0, 3, False) == pytest.approx(2 * alone)
    assert ring_progress(both, bricks("C4-C5"), 3, False) == pytest.approx(alone + 3 * 4 / 11)
    # a brick between C4 and D4 splits the blues into groups of 1 and 2: no blue patch is left
    assert ring_progress(both, bricks("C4-D4"), 3, False) == pytest.approx(alone)


@pytest.mark.parametrize("points", [0, 1, 2, 5])
def test_the_promise_of_a_ring_is_paid_as_the_edition_pays_enclosures(points):
    edition = edition_from_toml(f"[scoring]\nenclosed = {points}\n")
    board = new_game(edition=edition).boards[0]._replace(cells=L_REDS, bricks=bricks(*L_OUTLINE[:3]))
    without = potential(board._replace(cells=garden({})), tables_for(edition))
    assert potential(board, tables_for(edition)) - without == pytest.approx(points * 3 * 6 / 11)


# --------------------------------------------------------------------------- greedy


def prepared(edition, cells: tuple[str, ...], task, seed: int = 1) -> GameState:
    """A solo game after the deal, with ``cells`` as its garden and ``task`` pending."""
    state = new_game(("Ann",), edition)
    state = state.apply(state.sample_chance(random.Random(seed)))
    while state.stage == "start":
        state = state.apply("start B4")
    state = state.apply("reveal 0.12.24").apply("roll 3 3 3")
    board = state.boards[0]._replace(cells=cells)
    return _settle(_evolve(state, boards=(board,), tasks=(task,)))


def choices(state: GameState, seeds: int = 12) -> set[str]:
    bot = make_bot("greedy")
    return {bot.choose(state, random.Random(seed)) for seed in range(seeds)}


def test_greedy_puts_a_brick_on_the_outline_of_a_patch_it_could_enclose():
    state = prepared(STANDARD, L_REDS, AddBrick(1, False))
    assert choices(state) <= {f"edge {name}" for name in L_OUTLINE}


def test_without_enclosure_points_greedy_ignores_rings():
    state = prepared(NO_ENCLOSURE_POINTS, L_REDS, AddBrick(1, False))
    chosen = choices(state)
    # any brick that does not split a patch ties (B2-C2 and B2-B3 would break the reds' patch)
    assert not chosen <= {f"edge {name}" for name in L_OUTLINE}
    assert not chosen & {"edge B2-C2", "edge B2-B3"}


def test_greedy_closes_the_ring():
    state = prepared(STANDARD, L_REDS, AddBrick(1, False))
    state = _evolve(state, boards=(state.boards[0]._replace(bricks=bricks(*L_OUTLINE[:7])),))
    assert choices(state) == {"edge B3-C3"}


def test_greedy_grows_a_patch_where_a_ring_can_go():
    # Reds B2 C2 off the border, reds A4 A5 on it.  A red on B3 or C3 makes a patch of 3 off the
    # border; on A3 a patch on the border; on B1, C1 or A2 a patch touching the border.  Each scores
    # the same (+1 flower, +3 in a patch), so only the promise of a ring tells them apart.
    cells = garden({"B2": "R", "C2": "R", "A4": "R", "A5": "R"})
    state = prepared(STANDARD, cells, Stamp("R"))
    assert choices(state) <= {"plot B3", "plot C3"}
    assert not choices(prepared(NO_ENCLOSURE_POINTS, cells, Stamp("R")), 20) <= {"plot B3", "plot C3"}


def test_a_brick_gain_is_worth_what_all_its_bricks_bring():
    # Two bricks to draw round the reds with 6 of 8 outline bricks: drawn best first they close the
    # ring, +3 enclosed points; one brick alone would show no score gain at all.
    state = prepared(STANDARD, L_REDS, AddBrick(2, False))
    state = _evolve(state, boards=(state.boards[0]._replace(bricks=bricks(*L_OUTLINE[:6])),))
    bot = GreedyBot()
    worth = bot._best_next(state, 0)
    assert worth == pytest.approx(value(state, 0, 0.001) + 3 - 0.001 * 3 * 9 / 11)


def test_the_promise_never_exceeds_its_bound():
    for seed in range(6):
        for edition in (STANDARD, DOUBLE_ENCLOSURE_POINTS, BORDER_ENCLOSES):
            state, _ = play_game(seed, [make_bot("random")], edition)
            tables = tables_for(edition)
            for board in state.boards:
                assert 0 <= potential(board, tables) <= potential_bound(tables)
    full = new_game().boards[0]._replace(cells=("R",) * 25, ladders=(3, 5, 7), tracks=(6,) * 4, rondel=4, caterpillars=24)
    assert potential(full, tables_for(STANDARD)) <= potential_bound(tables_for(STANDARD))


class UnprunedGreedy(GreedyBot):
    """Greedy as written before the pruning: every action's value worked out in full."""

    def _immediate(self, state, legal, player):
        return [value(state.apply(action), player, self.tie_weight) for action in legal]


@pytest.mark.parametrize("seed", [3, 4])
def test_skipping_hopeless_promises_changes_no_choice(seed):
    _, pruned = play_game(seed, [GreedyBot(), GreedyBot()], names=["a", "b"])
    _, full = play_game(seed, [UnprunedGreedy(), UnprunedGreedy()], names=["a", "b"])
    assert pruned.text() == full.text()
