"""The end-game score of a :class:`~papillon.engine.state.Board`, for bots.

The rules are :mod:`papillon.rules`, the same functions :func:`papillon.score.score`
explains; here only the number is wanted, many times per decision, so the total
is memoised by garden (and the enclosures by brick set, inside the rules).
"""

from __future__ import annotations

from papillon.edition import Edition
from papillon.engine.state import Board
from papillon.engine.tables import Tables
from papillon.rules import evaluate, rule_tables, total


def board_score(board: Board, edition: Edition) -> int:
    """The scorer's total for the board's garden."""
    return total(board.cells, board.bricks, board.butterflies, edition)


def board_categories(board: Board, edition: Edition) -> dict[str, int]:
    """Points per category of RULES.md §3 (the keys of :data:`papillon.rules.CATEGORIES`)."""
    return evaluate(board.cells, board.bricks, board.butterflies, rule_tables(edition)).categories


def potential(board: Board, tables: Tables) -> float:
    """A rough worth of what the Fill sheet and the open plots promise (bots' tie-break).

    Progress up a critter ladder is part of the critter (if a field waits for it);
    track bubbles and caterpillars are worth part of the stamps and bonuses ahead.
    """
    value = 0.0
    for filled, height, points in zip(board.ladders, tables.ladders, tables.critter_points, strict=True):
        if filled:
            value += 0.7 * points * filled / height
    value += 0.6 * sum(board.tracks) + 0.35 * board.rondel + 0.3 * board.caterpillars
    fields_free = board.cells.count("F")
    return value + 0.6 * (fields_free if fields_free < 2 else 2)
