"""``play.die_order = "player"``: the player orders a die's caterpillars and its icon when it can matter (issue 18, part 6)."""

from __future__ import annotations

import pytest
from engine_helpers import cells, dealt, rolled, run, with_board

from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import GreedyBot, RandomBot, play_game
from papillon.engine.tasks import DieOrder, GnomeBonus, PlaceBramble

PLAYER_ORDER = edition_from_toml('[play]\ndie_order = "player"\n')
ONE_EMPTY = cells("R R R R R  B B B B B  Y Y . Y Y  P P P P F  lb R R R R")
"""Every plot used but C3 (and the field D4): a gnome field and a bramble compete for C3."""


def test_the_standard_edition_keeps_caterpillars_first():
    assert standard_edition().play.die_order == "caterpillars_first"


def test_the_player_is_asked_when_a_gnome_bonus_and_the_icon_compete():
    # Die 6: 3 caterpillars and a bramble; from space 2 the caterpillars reach the gnome space 4.
    state = with_board(rolled(dealt(edition=PLAYER_ORDER), "roll 6 6 6"), cells=ONE_EMPTY, caterpillars=2)
    state = run(state, "pair 1", "part die")
    assert state.tasks[-1] == DieOrder(5, "bramble")
    assert [str(a) for a in state.legal_actions()] == ["first caterpillars", "first bramble"]
    assert state.describe("first bramble") == "the die's bramble first, then its caterpillars"

    # Caterpillars first: the gnome's field takes C3; no plot is empty then, so the bramble may
    # cover any plot that is not a bramble (RULES §6.8): all 25.
    gnome_first = run(state, "first caterpillars")
    assert gnome_first.boards[0].caterpillars == 5 and gnome_first.tasks[-1] == GnomeBonus()
    gnome_first = run(gnome_first, "gnome field", "plot C3")
    assert gnome_first.boards[0].cells[12] == "F"
    assert gnome_first.tasks[-1] == PlaceBramble() and len(gnome_first.legal_actions()) == 25

    # Bramble first: it takes C3; the gnome bonus then has no empty plot for a field or a stamp.
    bramble_first = run(state, "first bramble")
    assert bramble_first.boards[0].caterpillars == 5 and bramble_first.tasks[-1] == PlaceBramble()
    bramble_first = run(bramble_first, "plot C3")
    assert bramble_first.boards[0].cells[12] == "X"
    assert bramble_first.tasks[-1] == GnomeBonus()
    assert not {"gnome field", "gnome stamp"} & {str(a) for a in bramble_first.legal_actions()}


@pytest.mark.parametrize(("roll", "caterpillars", "top"), [("roll 6 6 6", 0, PlaceBramble()), ("roll 4 4 4", 2, GnomeBonus())])
def test_nothing_is_asked_when_the_order_cannot_matter(roll, caterpillars, top):
    # No gnome space reached (3 caterpillars from 0), or a die with no icon (2 caterpillars, 2 -> 4).
    state = with_board(rolled(dealt(edition=PLAYER_ORDER), roll), caterpillars=caterpillars)
    state = run(state, "pair 1", "part die")
    assert state.tasks[-1] == top


def test_bots_play_whole_games_with_the_players_order():
    for seed in range(3):
        final, _ = play_game(seed=seed, agents=[GreedyBot(), RandomBot()], edition=PLAYER_ORDER)
        assert final.is_over()
    assert any(
        e.get("action", "").startswith("first ") for seed in range(6) for e in play_game(seed, [RandomBot()], PLAYER_ORDER)[1].events
    )
