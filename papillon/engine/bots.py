"""Bots: players that choose among a state's legal actions.

A bot is any object with a ``name`` and ``choose(state, rng) -> action``; the
driver passes a :class:`random.Random` seeded for that very decision, so a bot
is a pure function of the game so far and a saved game resumes identically.

- ``random``: any legal action, uniformly.
- ``greedy``: the action with the best immediate score gain (the exact
  end-game score of the garden right after it); ties go to the action that
  leaves the Fill sheet and the open fields most promising, then to chance.
- ``search``: for the few-option decisions (which pair, which part first,
  which bubble, which bonus, which tile) it plays the rest of its turn out
  with the greedy policy for every option, ``rollouts`` times with some
  exploration, and takes the best average end-of-turn position; for the rest
  (plots, edges) it plays greedy.  ``rollouts`` is its iteration budget and
  ``seconds`` an optional time budget per decision, for the API only: a time
  budget makes the bot's choices depend on the machine's speed, so the same
  seed no longer gives the same game (the command line never sets one).
"""

from __future__ import annotations

import random
import time
from typing import Protocol

from papillon.engine.evaluate import board_score, potential
from papillon.engine.state import GameState

TIE = 1e-9


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, rng: random.Random) -> str: ...


class RandomBot:
    """Any legal action, uniformly at random."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> str:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]


def value(state: GameState, player: int, weight: float = 1.0) -> float:
    """The player's garden score now plus ``weight`` × the promise of their sheets."""
    board = state.boards[player]
    return board_score(board, state.edition) + weight * potential(board, state.game.tables)


FOLLOW_UP = frozenset({"part", "feature", "colour", "from", "choose", "gnome", "fill"})
"""Decisions whose gain only shows one decision later (a tile before its plot, a colour before its
plot): greedy judges them by the best decision they open."""


class GreedyBot:
    """The best immediate score gain; ties broken by the sheets' promise, then by chance.

    "Immediate" looks through one decision for the choices in :data:`FOLLOW_UP`:
    a feature tile is worth what it scores on its best field, a fill what its
    bubble's icon brings.
    """

    name = "greedy"

    def __init__(self, tie_weight: float = 0.001) -> None:
        self.tie_weight = tie_weight

    def choose(self, state: GameState, rng: random.Random) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = state.current
        follow = legal[0].split(" ", 1)[0] in FOLLOW_UP
        best: list[str] = []
        best_value = -1e18
        for action in legal:
            after = state.apply(action)
            worth = self._best_next(after, player) if follow and action != "skip" else value(after, player, self.tie_weight)
            if worth > best_value + TIE:
                best, best_value = [action], worth
            elif worth > best_value - TIE:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _best_next(self, state: GameState, player: int) -> float:
        if state.player != player or not state.tasks:
            return value(state, player, self.tie_weight)
        return max(value(state.apply(action), player, self.tie_weight) for action in state.legal_actions())


STRATEGIC = frozenset({"pair", "part", "gnome", "fill", "feature", "choose", "colour", "start"})
"""Decisions with few options and a delayed effect: where the search bot looks ahead."""


class SearchBot:
    """Greedy rollouts to the end of its own turn for every strategic option.

    ``rollouts`` rounds of rollouts per option is the (deterministic) iteration
    budget.  ``seconds`` also stops after the first round of rollouts that ends
    past that wall-clock time: the choice then depends on the machine's speed
    and load, so the same seed no longer gives the same game (nor does a saved
    game resume identically).  Leave it None (the default, and what
    ``make_bot("search")`` and the command line use) for reproducible games.
    """

    name = "search"

    def __init__(self, rollouts: int = 2, seconds: float | None = None, epsilon: float = 0.15) -> None:
        self.rollouts = rollouts
        self.seconds = seconds
        self.epsilon = epsilon
        self.greedy = GreedyBot()
        """Plays the non-strategic decisions, and the rollouts' own moves (the same policy)."""

    def choose(self, state: GameState, rng: random.Random) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0].split(" ", 1)[0] not in STRATEGIC:
            return self.greedy.choose(state, rng)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        player = state.current
        totals = dict.fromkeys(legal, 0.0)
        runs = dict.fromkeys(legal, 0)
        for i in range(self.rollouts):
            for action in legal:
                # The first rollout of each option is pure greedy; later ones explore.
                epsilon = 0.0 if i == 0 else self.epsilon
                totals[action] += self._rollout(state.apply(action), player, rng, epsilon)
                runs[action] += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        scores = {a: totals[a] / runs[a] for a in legal if runs[a]}
        top = max(scores.values())
        best = [a for a in legal if a in scores and scores[a] > top - TIE]
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _rollout(self, state: GameState, player: int, rng: random.Random, epsilon: float) -> float:
        start = state.round
        while state.player == player and state.round == start:
            legal = state.legal_actions()
            explore = epsilon and rng.random() < epsilon
            action = legal[rng.randrange(len(legal))] if explore else self.greedy.choose(state, rng)
            state = state.apply(action)
        return value(state, player, 1.0)


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
"""Bot names for the command line."""


def make_bot(name: str) -> Bot:
    """A bot by name (``random``, ``greedy``, ``search``); ValueError names the choices."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None
    bot: Bot = factory()
    return bot
