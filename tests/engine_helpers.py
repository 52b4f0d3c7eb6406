"""Helpers for building engine states in tests (shared by test_engine.py and test_die_order.py)."""

from __future__ import annotations

import random

from papillon.edition import standard_edition
from papillon.engine import GameState, new_game
from papillon.engine.state import _evolve, _settle

EDITION = standard_edition()


def dealt(players: tuple[str, ...] = ("Ann",), seed: int = 1, edition=EDITION) -> GameState:
    """A game after the deal and every player's starting butterfly on B4."""
    state = new_game(players, edition)
    state = state.apply(state.sample_chance(random.Random(seed)))
    while state.stage == "start":
        state = state.apply("start B4")
    return state


def rolled(state: GameState, roll: str = "roll 3 3 3", cards: str = "reveal 0.12.24") -> GameState:
    """The round's cards revealed (by default a red and a yellow stamp card with a feature
    corner, and a butterfly-movement card with a feature corner) and the dice rolled."""
    assert state.is_chance(), state.prompt()
    if state.stage == "reveal":
        state = state.apply(cards)
    return state.apply(roll)


def with_board(state: GameState, player: int = 0, **changes) -> GameState:
    boards = list(state.boards)
    boards[player] = boards[player]._replace(**changes)
    return _evolve(state, boards=tuple(boards))


def with_tasks(state: GameState, *tasks) -> GameState:
    """The state with ``tasks`` pending for the current player (first listed resolves first)."""
    return _settle(_evolve(state, tasks=state.tasks + tuple(reversed(tasks))))


def cells(text: str) -> tuple[str, ...]:
    """25 notation codes from 5 rows of space-separated codes."""
    codes = tuple(text.split())
    assert len(codes) == 25
    return codes


def run(state: GameState, *actions: str) -> GameState:
    for action in actions:
        assert action in state.legal_actions(), (action, state.prompt(), state.legal_actions())
        state = state.apply(action)
    return state
