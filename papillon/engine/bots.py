"""Bots: players that choose among a state's legal actions.

A bot is any object with a ``name`` and ``choose(state, rng) -> action``; the
driver passes a :class:`random.Random` seeded for that very decision, so a bot
is a pure function of the game so far and a saved game resumes identically.

- ``random``: any legal action, uniformly.
- ``greedy``: the action with the best immediate score gain (the exact
  end-game score of the garden right after it); ties go to the action that
  leaves the Fill sheet, the open fields and the rings it could close most
  promising (:func:`~papillon.engine.evaluate.potential`), then to chance.
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

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from papillon.engine.actions import EDGE_ACTIONS, SKIP, Action, Kind
from papillon.engine.evaluate import (
    Candidates,
    board_score,
    candidate_gardens,
    candidate_potentials,
    candidate_totals,
    only_sets_up,
    potential,
    potential_bound,
    ring_edges,
)
from papillon.engine.state import GameState, after_legal
from papillon.engine.tasks import AddBrick

TIE = 1e-9
_BEHIND = -math.inf
"""The worth of an action too far behind on score to be weighed (a constant: looked up once per list, not per action)."""
KNOWN_STATES = 4096
"""States whose worths a greedy bot remembers (then it forgets them all: a game moves on)."""


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action: ...


class RandomBot:
    """Any legal action, uniformly at random."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]


def value(state: GameState, player: int, weight: float = 1.0) -> float:
    """The player's garden score now plus ``weight`` × the promise of their sheets."""
    board = state.boards[player]
    return board_score(board, state.edition) + weight * potential(board, state.game.tables)


FOLLOW_UP = frozenset({Kind.PART, Kind.FEATURE, Kind.COLOUR, Kind.FROM, Kind.CHOOSE, Kind.GNOME, Kind.FILL, Kind.FIRST})
"""Decisions whose gain only shows one decision later (a tile before its plot, a colour before its
plot): greedy judges them by the best decision they open."""


class GreedyBot:
    """The best immediate score gain; ties broken by the sheets' promise, then by chance.

    "Immediate" looks through one decision for the choices in :data:`FOLLOW_UP`:
    a feature tile is worth what it scores on its best field, a fill what its
    bubble's icon brings, and a brick gain what all its bricks bring (bricks
    only pay together, as a ring: one brick alone would undersell them).
    """

    name = "greedy"

    def __init__(self, tie_weight: float = 0.001) -> None:
        self.tie_weight = tie_weight
        self._known: dict[tuple[bool, GameState], Sequence[float]] = {}
        """The worths of the states weighed lately (by value: a state is immutable, its worths a pure function of it).

        The look-ahead weighs the decision after each option, and the game (or a search
        rollout) often reaches the very same state next: its worths are then known.
        """
        self._children: dict[GameState, list[GameState]] = {}
        """The states after each legal action of the states looked through lately (:meth:`_afters`)."""

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = state.current
        if legal[0].kind in FOLLOW_UP:
            worths = self._known.get((True, state))
            if worths is None:
                worths = self._remember(
                    True,
                    state,
                    [
                        value(after, player, self.tie_weight) if action is SKIP else self._best_next(after, player)
                        for action, after in zip(legal, self._afters(state, legal), strict=True)
                    ],
                )
        else:
            worths = self._immediate(state, legal, player)
        best: list[Action] = []
        best_value = -1e18
        for action, worth in zip(legal, worths, strict=True):
            if worth > best_value + TIE:
                best, best_value = [action], worth
            elif worth > best_value - TIE:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def _remember(self, follow_up: bool, state: GameState, worths: Sequence[float]) -> Sequence[float]:
        known = self._known
        if len(known) >= KNOWN_STATES:
            known.clear()
        known[follow_up, state] = worths
        return worths

    def _afters(self, state: GameState, legal: tuple[Action, ...]) -> list[GameState]:
        """The state after each of ``legal`` (the state's legal actions), remembered by state.

        A fill is weighed as the decision after another (its sheets, by state) and then
        decided itself (by the decisions after each option): the states are built once."""
        children = self._children
        found = children.get(state)
        if found is None:
            if len(children) >= KNOWN_STATES:
                children.clear()
            found = children[state] = [after_legal(state, action) for action in legal]
        return found

    def _immediate(self, state: GameState, legal: tuple[Action, ...], player: int) -> Sequence[float]:
        """:func:`value` of each action's result, or -inf where the score alone shows it cannot be among the best.

        Two promises differ by at most 2 × :func:`~papillon.engine.evaluate.potential_bound`: an
        action that scores less than the best by more than ``tie_weight`` × that cannot catch up,
        so its promise (a good share of the work) is not worked out.  ``legal`` is the state's
        legal actions and ``player`` its player (the worths are remembered by state).
        """
        worths = self._known.get((False, state))
        if worths is None:
            worths = self._remember(False, state, self._weigh(state, legal, player))
        return worths

    def _weigh(self, state: GameState, legal: tuple[Action, ...], player: int) -> list[float]:
        edition = state.edition
        tables = state.game.tables
        weight = self.tie_weight
        margin = 2 * weight * potential_bound(tables)
        candidates = candidate_gardens(state, legal, player)
        if candidates is not None:
            # The actions draw in the garden only: score the gardens, no game state needed.
            scores = candidate_totals(candidates, edition)
            floor = max(scores) - margin - TIE
            wanted = [score >= floor for score in scores]
            promises = candidate_potentials(candidates, wanted, tables)
            return [score + weight * promise if want else _BEHIND for score, promise, want in zip(scores, promises, wanted, strict=True)]
        boards = [after.boards[player] for after in self._afters(state, legal)]
        first = boards[0]
        cells, bricks, flies = first.cells, first.bricks, first.butterflies
        if all(board.cells is cells and board.bricks == bricks and board.butterflies == flies for board in boards):
            # A fill, a tile or a gnome's gain before its decision: one garden, scored once; only the sheets differ.
            garden = (cells, bricks, flies)
            score = board_score(first, edition)
            alike = Candidates([garden] * len(boards), boards, garden, [-1] * len(boards))
            return [score + weight * promise for promise in candidate_potentials(alike, [True] * len(boards), tables)]
        scores = [board_score(board, edition) for board in boards]
        floor = max(scores) - margin - TIE
        return [
            score + weight * potential(board, tables) if score >= floor else _BEHIND for board, score in zip(boards, scores, strict=True)
        ]

    def _best_next(self, state: GameState, player: int) -> float:
        if state.player != player or not state.tasks or only_sets_up(state):
            # Nothing to weigh, or every action worth what the state is (the garden and sheets as they are).
            return value(state, player, self.tie_weight)
        if isinstance(state.tasks[-1], AddBrick):
            return self._bricks_worth(state, player)
        return max(self._immediate(state, state.legal_actions(), player))

    def _bricks_worth(self, state: GameState, player: int) -> float:
        """The value after the pending brick gain, drawn on the outlines of the rings to build, best brick first.

        Only bricks on those outlines raise the promise (:func:`~papillon.engine.evaluate.ring_edges`),
        so the look-ahead tries those alone; a gain with no ring to build is worth its best single
        brick, as any other follow-up decision is worth its best next one.
        """
        tables = state.game.tables
        edges = ring_edges(state.boards[player], tables)
        if not edges:
            return max(self._immediate(state, state.legal_actions(), player))
        depth = len(state.tasks)
        worth: float | None = None
        while edges and state.player == player and len(state.tasks) == depth and isinstance(state.tasks[-1], AddBrick):
            # Every brick's garden is scored as a decision's are (no state built); only the best brick's state is.
            options = []
            while edges:  # the edges of the mask, lowest first
                low = edges & -edges
                options.append(EDGE_ACTIONS[low.bit_length() - 1])
                edges ^= low
            worths = self._values(state, options, player)
            worth = max(worths)
            state = after_legal(state, options[worths.index(worth)])
            edges = ring_edges(state.boards[player], tables)
        return value(state, player, self.tie_weight) if worth is None else worth

    def _values(self, state: GameState, actions: list[Action], player: int) -> list[float]:
        """:func:`value` after each of ``actions`` (legal now: unbricked edges of a brick gain), to the last bit."""
        weight = self.tie_weight
        candidates = candidate_gardens(state, actions, player)
        if candidates is None:
            return [value(after_legal(state, action), player, weight) for action in actions]
        scores = candidate_totals(candidates, state.edition)
        promises = candidate_potentials(candidates, [True] * len(actions), state.game.tables)
        return [score + weight * promise for score, promise in zip(scores, promises, strict=True)]


STRATEGIC = frozenset({Kind.PAIR, Kind.PART, Kind.GNOME, Kind.FILL, Kind.FEATURE, Kind.CHOOSE, Kind.COLOUR, Kind.START, Kind.FIRST})
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

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind not in STRATEGIC:
            return self.greedy.choose(state, rng)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        player = state.current
        totals = dict.fromkeys(legal, 0.0)
        runs = dict.fromkeys(legal, 0)
        for i in range(self.rollouts):
            for action in legal:
                # The first rollout of each option is pure greedy; later ones explore.
                epsilon = 0.0 if i == 0 else self.epsilon
                totals[action] += self._rollout(after_legal(state, action), player, rng, epsilon)
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
            state = after_legal(state, action)  # one of ``legal``: greedy chooses among them
        return value(state, player, 1.0)


def _expert() -> Bot:
    from papillon.engine.expert import ExpertBot  # expert.py builds on this module

    return ExpertBot()


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot, "expert": _expert}
"""Bot names for the command line."""


def make_bot(name: str) -> Bot:
    """A bot by name (``random``, ``greedy``, ``search``, ``expert``); ValueError names the choices."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}") from None
    bot: Bot = factory()
    return bot
