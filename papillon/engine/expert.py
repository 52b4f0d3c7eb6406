"""The ``expert`` bot: the search bot's idea, carried further (docs/ENGINE.md, "Bots").

A turn has no chance in it: the cards and dice are on the table before the first decision, so
every line of play the bot tries to the end of its turn is one it could really play.  For a
strategic decision (which pair, which part first, which bubble, bonus, tile or colour) the expert
tries each option once with its own policy and ``explore`` more times with some random
exploration, and takes the option whose *best* line ends the turn with the best worth, an
exploring line counting ``margin`` points below its own: the outlook overrates some gardens, and
a line found by chance is the likelier to be one of them, so it must win clearly.  The
search bot averages its lines instead, judges them by the score now plus the sheets' promise,
and completes them with greedy, which places flowers by the points they score at once.  The
expert judges a position, at a line's end and for every plot its policy draws, by the score now
plus its *outlook* (:mod:`papillon.engine.outlook`): the points still to come, a linear fit on
positions of search's games and its own, which sees that a Gazebo drawn early grows to its cap, that a free
field waits for a feature, that two flowers of one colour begin a patch.  In its lines a feature
tile or a flower's colour is chosen by the same worth, that of its best plot (greedy would judge
it by the points it scores at once), and which part of the pair comes first by the worth after
that part's next two plots, tiles or colours, each at its best; a bubble or a gnome is greedy's,
which looks through butterfly paths and bricks that the outlook weighs only roughly.

It works from any state where a seat decides, mid-turn or not: it plays the seat
``state.current`` (in a game driven simultaneously it is given ``state.alone(seat)``), looks at
that seat only, and draws every random choice from the ``rng`` it is given, so a game replays
exactly.  It has no time budget.
"""

from __future__ import annotations

import random

from papillon.engine.actions import Action, Kind
from papillon.engine.bots import STRATEGIC, TIE, GreedyBot
from papillon.engine.evaluate import board_score
from papillon.engine.outlook import outlook
from papillon.engine.state import GameState

PRE_PLOT = frozenset({Kind.FEATURE, Kind.COLOUR})
"""Choices that show only on the plot that follows them (a tile, a flower's colour)."""
PLOTS = frozenset({Kind.PLOT})


class ExpertBot:
    """Strategic options judged by the best of several lines to the end of the turn; plots by points plus outlook.

    ``explore`` lines with ``epsilon`` random choices are tried for each option besides the
    bot's own line, each worth ``margin`` points less than where it ends.  A position is worth its
    score now plus :func:`~papillon.engine.outlook.outlook`, the points it is still expected to gain.
    """

    name = "expert"

    def __init__(self, explore: int = 1, epsilon: float = 0.15, margin: float = 3.0) -> None:
        self.explore = explore
        self.epsilon = epsilon
        self.margin = margin
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
        """The move in a line: a plot by :func:`_worth`, a tile or colour by its best plot, a part by what follows it, the rest greedy's."""
        if len(legal) > 1 and legal[0].kind is Kind.PLOT:
            player = state.current
            return _best(legal, [_worth(state.apply(action), player) for action in legal], rng)
        if len(legal) > 1 and legal[0].kind in PRE_PLOT:
            player = state.current
            return _best(legal, [_through(state.apply(action), player, 1, PLOTS) for action in legal], rng)
        if len(legal) > 1 and legal[0].kind is Kind.PART:
            player = state.current
            return _best(legal, [_through(state.apply(action), player, 2, PLOTS | PRE_PLOT) for action in legal], rng)
        return self.greedy.choose(state, rng)

    def _look_ahead(self, state: GameState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        player = state.current
        worths = []
        for action in legal:
            after = state.apply(action)
            worth = self._line(after, player, rng, 0.0)
            for _ in range(self.explore):
                worth = max(worth, self._line(after, player, rng, self.epsilon) - self.margin)
            worths.append(worth)
        return _best(legal, worths, rng)

    def _line(self, state: GameState, player: int, rng: random.Random, epsilon: float) -> float:
        """The worth at the end of ``player``'s turn, played by the expert's policy (``epsilon`` of it random)."""
        start = state.round
        while state.player == player and state.round == start:
            legal = state.legal_actions()
            explore = epsilon and rng.random() < epsilon
            state = state.apply(legal[rng.randrange(len(legal))] if explore else self._policy(state, legal, rng))
        return _worth(state, player)


def _worth(state: GameState, player: int) -> float:
    """``player``'s score now plus the points the outlook expects still to come."""
    return board_score(state.boards[player], state.edition) + outlook(state, player)


def _through(state: GameState, player: int, depth: int, kinds: frozenset[Kind]) -> float:
    """The worth of ``state``, looking through up to ``depth`` of ``player``'s next decisions of ``kinds``, each taken at its best."""
    if depth and state.player == player and state.tasks and not state.is_chance():
        legal = state.legal_actions()
        if legal and legal[0].kind in kinds:
            return max(_through(state.apply(action), player, depth - 1, kinds) for action in legal)
    return _worth(state, player)


def _best(legal: tuple[Action, ...], worths: list[float], rng: random.Random) -> Action:
    """The action of the highest worth; a tie goes to the seeded generator."""
    top = max(worths)
    best = [action for action, worth in zip(legal, worths, strict=True) if worth > top - TIE]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
