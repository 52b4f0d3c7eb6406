"""The ``expert`` bot: the search bot's play, with its big decisions looked at further ahead.

Prototype: see docs/ENGINE.md.
"""

from __future__ import annotations

import random

from papillon.engine.actions import Action
from papillon.engine.bots import STRATEGIC, TIE, GreedyBot
from papillon.engine.evaluate import board_score, potential
from papillon.engine.state import GameState


class ExpertBot:
    name = "expert"

    def __init__(self, width: int = 99, weight: float = 1.0, late: float = 0.0, tie_weight: float = 0.001, explore: int = 0, epsilon: float = 0.15, deep: frozenset | None = None) -> None:
        self.deep = STRATEGIC if deep is None else deep
        self.width = width
        self.weight = weight
        self.late = late
        self.explore = explore
        self.epsilon = epsilon
        self.greedy = GreedyBot(tie_weight)

    def _worth(self, state: GameState, player: int) -> float:
        board = state.boards[player]
        rounds = state.edition.rules.rounds
        left = rounds - state.round
        weight = self.weight * (1.0 if left >= 2 else 1 - self.late + self.late * left / 2)
        return board_score(board, state.edition) + weight * potential(board, state.game.tables)

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind not in self.deep:
            return self.greedy.choose(state, rng)
        player = state.current
        afters = [state.apply(action) for action in legal]
        if len(legal) > self.width:
            quick = [self._worth(after, player) for after in afters]
            order = sorted(range(len(legal)), key=lambda i: -quick[i])[: self.width]
        else:
            order = list(range(len(legal)))
        worths: dict[int, float] = {}
        for i in order:
            worth = self._complete(afters[i], player, rng, 0.0)
            for _ in range(self.explore):
                worth = max(worth, self._complete(afters[i], player, rng, self.epsilon))
            worths[i] = worth
        top = max(worths.values())
        best = [legal[i] for i in order if worths[i] > top - TIE]
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _complete(self, state: GameState, player: int, rng: random.Random, epsilon: float) -> float:
        start = state.round
        greedy = self.greedy
        while state.player == player and state.round == start:
            legal = state.legal_actions()
            if epsilon and rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = greedy.choose(state, rng)
            state = state.apply(action)
        return self._worth(state, player)
