"""The ``expert`` bot: the search bot's idea, carried further (docs/ENGINE.md, "Bots").

A turn has no chance in it: the cards and dice are on the table before the first decision, so
every line of play the bot tries to the end of its turn is one it could really play.  For a
strategic decision (which pair, which part first, which bubble, bonus, tile or colour) the expert
tries each option once with its own policy and ``explore`` more times with some random
exploration, and takes the option whose *best* line ends the turn with the best worth (score
now plus the sheets' promise, :func:`papillon.engine.bots.value`).  The search bot averages its
lines instead, and completes them with greedy, which places flowers by the points they score
at once; the expert places them also where they start a patch (two flowers of one colour
together: a third one makes three points of patch and feeds the Hammock), which the search bot
only sees when the third flower comes.

It works from any state where a seat decides, mid-turn or not: it plays the seat
``state.current`` (in a game driven simultaneously it is given ``state.alone(seat)``), looks at
that seat only, and draws every random choice from the ``rng`` it is given, so a game replays
exactly.  It has no time budget.
"""

from __future__ import annotations

import random

from papillon.engine.actions import Action, Kind
from papillon.engine.bots import STRATEGIC, TIE, GreedyBot, value
from papillon.engine.evaluate import board_score, potential
from papillon.engine.outlook import outlook
from papillon.engine.state import Board, GameState
from papillon.rules import joining_edges, patches


class ExpertBot:
    """Strategic options judged by the best of several lines to the end of the turn; plots by points and patches begun.

    ``explore`` lines with ``epsilon`` random choices are tried for each option besides the
    bot's own line; ``pairs`` is the worth of each two-flower group while rounds remain.
    """

    name = "expert"

    def __init__(self, explore: int = 1, epsilon: float = 0.15, pairs: float = 0.8, outlook: bool = True, plot_outlook: bool = False) -> None:
        self.explore = explore
        self.epsilon = epsilon
        self.pairs = pairs
        self.outlook = outlook
        self.plot_outlook = plot_outlook
        self.greedy = GreedyBot()
        """Plays what is neither strategic nor a plot (bricks, butterfly paths), in the game and in the lines tried."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind in STRATEGIC:
            return self._look_ahead(state, legal, rng)
        return self._policy(state, legal, rng)

    def _policy(self, state: GameState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        """The expert's move without looking ahead: plots by :meth:`_plot_worth`, the rest greedy."""
        if len(legal) > 1 and legal[0].kind is Kind.PLOT:
            player = state.current
            if self.plot_outlook:
                afters = [state.apply(action) for action in legal]
                worths = [board_score(after.boards[player], state.edition) + outlook(after, player) for after in afters]
                return _best(legal, worths, rng)
            worths = [self._plot_worth(state.apply(action).boards[player], state) for action in legal]
            return _best(legal, worths, rng)
        return self.greedy.choose(state, rng)

    def _plot_worth(self, board: Board, state: GameState) -> float:
        """The garden's score, a tie-break by the sheets' promise, and ``pairs`` per two-flower group while the game goes on."""
        worth = board_score(board, state.edition) + self.greedy.tie_weight * potential(board, state.game.tables)
        if state.round < state.edition.rules.rounds:
            cells = board.cells
            worth += self.pairs * sum(mask.bit_count() == 2 for _, mask in patches(cells, board.bricks & joining_edges(cells), 2))
        return worth

    def _look_ahead(self, state: GameState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        player = state.current
        worths = []
        for action in legal:
            after = state.apply(action)
            worth = self._line(after, player, rng, 0.0)
            for _ in range(self.explore):
                worth = max(worth, self._line(after, player, rng, self.epsilon))
            worths.append(worth)
        return _best(legal, worths, rng)

    def _line(self, state: GameState, player: int, rng: random.Random, epsilon: float) -> float:
        """The worth at the end of ``player``'s turn, played by the expert's policy (``epsilon`` of it random)."""
        start = state.round
        while state.player == player and state.round == start:
            legal = state.legal_actions()
            explore = epsilon and rng.random() < epsilon
            state = state.apply(legal[rng.randrange(len(legal))] if explore else self._policy(state, legal, rng))
        if self.outlook:
            return board_score(state.boards[player], state.edition) + outlook(state, player)
        return value(state, player)


def _best(legal: tuple[Action, ...], worths: list[float], rng: random.Random) -> Action:
    """The action of the highest worth; a tie goes to the seeded generator."""
    top = max(worths)
    best = [action for action, worth in zip(legal, worths, strict=True) if worth > top - TIE]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
