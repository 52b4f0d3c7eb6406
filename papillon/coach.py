"""The coach: a hint for the decision at hand, and the expected final score of a choice (docs/COACH.md).

The coach's choice is its bot's (:data:`COACH_BOT`); what a choice is worth is the seat's final score
when the game is played on from it by a cheap policy (the greedy bot) to the end, averaged over
rollouts.  Every candidate of one decision meets the same cards and dice in its rollout number *j*
(common random numbers: ``derive_seed(seed, "chance", j, k)`` for the rollout's chance event *k*),
so the difference between two choices is measured with far less noise than either score.  A rollout
looks at that seat alone (:meth:`~papillon.engine.state.GameState.solo`): players share only the
cards and dice, so the others' play changes nothing of its score.

>>> from papillon.engine import new_game
>>> import random
>>> state = new_game(["Ann"])
>>> state = state.apply(state.sample_chance(random.Random(1)))
>>> advice = hint(state, 0, seed=7, rollouts=2)
>>> advice.action in state.legal_actions(), advice.other is not None
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from papillon.engine.actions import Action, Kind
from papillon.engine.bots import TIE, Bot, GreedyBot, make_bot, value
from papillon.engine.log import GameLog, derive_seed
from papillon.engine.state import GameState
from papillon.engine.tasks import Stage

COACH_BOT = "expert"
"""The bot whose choice a hint shows and a review compares with (the one place that names it)."""

HINT_ROLLOUTS = 8
"""Rollouts per candidate of a hint (a power of two: the averages of whole scores are exact in binary)."""
HINT_WIDTH = 4
"""The most candidates a hint weighs by rollouts: the coach's choice and the others that look best one step on."""


def coach_bot() -> Bot:
    return make_bot(COACH_BOT)


def coach_choice(state: GameState, player: int, seed: int, bot: Bot | None = None) -> Action:
    """The coach bot's choice for seat ``player`` now, on that seat's own view with a draw seeded by ``seed``."""
    view = state.solo(player)
    return (bot or coach_bot()).choose(view, random.Random(derive_seed(seed, "coach")))


class RolloutPolicy(GreedyBot):
    """The rollouts' player: the greedy bot's look-through one decision on only where a choice names the
    feature tile to draw or the butterfly to move, the immediate worth elsewhere.

    Measured on solo games (2026-12-01, load 10-17): over seeds 0-29 it averages 50.3 points, greedy 43.4
    and the same policy looking through colours and bubbles too 49.8, in 0.59 and 0.67 times their CPU
    time; over seeds 2000-2059 it is 3.7 ± 1.2 below that policy (48.1 against 51.8).  The look-through
    of a bubble (what its fill then gains) was a third of a review's cost for a point or two of play.
    """

    name = "rollout"
    LOOK_THROUGH = frozenset({Kind.FEATURE, Kind.FROM})

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind in self.LOOK_THROUGH:
            return super().choose(state, rng)
        worths = self._immediate(state, legal, state.current)
        top = max(worths)
        best = [action for action, worth in zip(legal, worths, strict=True) if worth > top - TIE]
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def rollout_scores(
    state: GameState, player: int, actions: Sequence[Action], seed: int, rollouts: int, policy: Bot | None = None, first: int = 0
) -> list[list[int]]:
    """For each action, seat ``player``'s final score in each of ``rollouts`` games played on from it by the
    rollout policy (rollouts number ``first`` on); rollout *j* of every action meets the same cards and dice
    (common random numbers)."""
    policy = policy or RolloutPolicy()
    view = state.solo(player)
    return [[_rollout(view.apply(action), seed, j, policy) for j in range(first, first + rollouts)] for action in actions]


def _rollout(state: GameState, seed: int, number: int, policy: Bot) -> int:
    ties = random.Random(derive_seed(seed, "ties", number))
    chance = 0
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(random.Random(derive_seed(seed, "chance", number, chance))))
            chance += 1
        else:
            state = state.apply(policy.choose(state, ties))
    return state.score(0)


def exact_scores(
    state: GameState, player: int, actions: Sequence[Action], seed: int, limit: int, policy: Bot | None = None
) -> list[Fraction] | None:
    """For each action, seat ``player``'s expected final score over *every* outcome of the chance events
    left (as an exact fraction), the rollout policy playing on; None when some action leaves more than
    ``limit`` sequences of outcomes (the caller samples instead).

    A rollout samples what this enumerates: with no more sequences left than rollouts, the exact value
    costs no more than the estimate.  The policy's ties draw from ``derive_seed(seed, "ties", *path)``,
    ``path`` the outcomes' numbers so far: every action meets the same draws on the same outcomes.
    """
    policy = policy or RolloutPolicy()
    view = state.solo(player)
    if not actions or _sequences(view.apply(actions[0]), seed, policy, limit) > limit:
        return None
    try:
        return [_expectation(view.apply(action), seed, (), policy, [limit]) for action in actions]
    except _TooMany:  # a game whose chance events depend on the choices made: more sequences on another path
        return None


def _sequences(state: GameState, seed: int, policy: Bot, limit: int) -> int:
    """The number of sequences of chance outcomes from here, counted along the path of every first outcome
    (the engine's counts depend on the round, not on the path), or more than ``limit`` once it passes it."""
    count = 1
    path: tuple[int, ...] = ()
    ties = random.Random(derive_seed(seed, "ties"))
    while not state.is_over() and count <= limit:
        if state.is_chance():
            count *= chance_count(state)
            path = (*path, 0)
            ties = random.Random(derive_seed(seed, "ties", *path))
            if count <= limit:
                state = state.apply(state.chance_outcomes()[0][0])
        else:
            state = state.apply(policy.choose(state, ties))
    return count


class _TooMany(Exception):
    """More sequences of chance outcomes than the limit: enumerating them would cost more than sampling."""


def _expectation(state: GameState, seed: int, path: tuple[int, ...], policy: Bot, budget: list[int]) -> Fraction:
    ties = random.Random(derive_seed(seed, "ties", *path))
    while not state.is_over():
        if state.is_chance():
            if chance_count(state) > budget[0]:  # each outcome ends at least one sequence
                raise _TooMany
            outcomes = state.chance_outcomes()
            # The probabilities are floats of fractions of small denominators (1/216, 1/504): recovered exactly.
            return sum(
                (
                    Fraction(p).limit_denominator(10**6) * _expectation(state.apply(outcome), seed, (*path, i), policy, budget)
                    for i, (outcome, p) in enumerate(outcomes)
                ),
                Fraction(0),
            )
        state = state.apply(policy.choose(state, ties))
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooMany
    return Fraction(state.score(0))


def chance_count(state: GameState) -> int:
    """How many outcomes this chance node has (``len(state.chance_outcomes())``), counted without listing
    them: an early round's reveal has tens of thousands."""
    edition = state.edition
    if state.stage is Stage.ROLL:
        return len(edition.die_faces) ** edition.dice
    if state.stage is Stage.REVEAL:
        unseen = sum(1 for c in range(len(edition.cards)) if not state.seen >> c & 1)
        return math.perm(unseen, edition.decks)
    return len(state.chance_outcomes())


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def paired_stderr(first: Sequence[int], second: Sequence[int]) -> float:
    """The standard error of the mean of ``first[j] - second[j]`` (0 with fewer than two pairs)."""
    differences = [a - b for a, b in zip(first, second, strict=True)]
    if len(differences) < 2:
        return 0.0
    centre = mean(differences)
    variance = sum((d - centre) ** 2 for d in differences) / (len(differences) - 1)
    return math.sqrt(variance / len(differences))


@dataclass(frozen=True)
class Hint:
    """The coach's choice for one seat's decision, and what it and the best other choice are expected to score."""

    player: int
    action: Action
    words: str
    expected: float
    other: Action | None
    """The best of the other choices weighed (None when the coach's is the only legal one)."""
    other_words: str
    other_expected: float | None
    stderr: float
    """The standard error of the expected difference between the two (paired rollouts)."""
    rollouts: int

    def text(self) -> str:
        """The hint in words, for any front end."""
        head = f"Hint: {_named(self.words, self.action)}: about {self.expected:.1f} points at the end"
        if self.other is None or self.other_expected is None:
            return head + " (the only choice)."
        gap = self.expected - self.other_expected
        return (
            f"{head}; the best other choice, {_named(self.other_words, self.other)}, about {self.other_expected:.1f} "
            f"({gap:+.1f} ± {self.stderr:.1f}, {self.rollouts} games played on from each)."
        )


def _named(words: str, action: Action) -> str:
    """A choice in words, with its text when that says something more (``take pair 2 (pair 2)``)."""
    return words if words == str(action) else f"{words} ({action})"


def hint(state: GameState, player: int, seed: int, rollouts: int = HINT_ROLLOUTS, bot: Bot | None = None) -> Hint:
    """The coach's choice for seat ``player``'s current decision (it must be acting), with the expected final
    score of that choice and of the best other choice weighed; the state is not changed."""
    view = state.solo(player)
    legal = view.legal_actions()
    chosen = coach_choice(state, player, seed, bot)
    others = _likely_others(view, legal, chosen)
    scores = rollout_scores(state, player, [chosen, *others], seed, rollouts)
    expected = mean(scores[0])
    if not others:
        return Hint(player, chosen, view.describe(chosen), expected, None, "", None, 0.0, rollouts)
    means = [mean(s) for s in scores[1:]]
    best = max(range(len(others)), key=lambda i: (means[i], -i))
    other = others[best]
    return Hint(
        player,
        chosen,
        view.describe(chosen),
        expected,
        other,
        view.describe(other),
        means[best],
        paired_stderr(scores[0], scores[1 + best]),
        rollouts,
    )


def _likely_others(view: GameState, legal: Sequence[Action], chosen: Action) -> list[Action]:
    """The other legal actions worth weighing: all of them when few, else those whose result looks best now
    (score plus the sheets' promise), in the order of the legal actions."""
    others = [a for a in legal if a != chosen]
    if len(others) < HINT_WIDTH:
        return others
    worth = {a: value(view.apply(a), 0) for a in others}
    kept = set(sorted(others, key=lambda a: -worth[a])[: HINT_WIDTH - 1])
    return [a for a in others if a in kept]


def hint_seed(game_seed: int, events: int, player: int) -> int:
    """The seed of a hint asked in the game of seed ``game_seed`` after ``events`` events, by seat ``player``:
    the same hint for the same moment of the same game."""
    return derive_seed(game_seed, "hint", events, player)


def moment_hint(state: GameState, game_seed: int, events: int, player: int, rollouts: int = HINT_ROLLOUTS) -> Hint:
    """The hint for seat ``player`` in ``state``, the moment after ``events`` events of the game of seed
    ``game_seed``: the same hint for the same moment.  Nothing is recorded (see :func:`hint_for`)."""
    return hint(state, player, hint_seed(game_seed, events, player), rollouts)


def hint_for(state: GameState, log: GameLog, player: int | None = None, rollouts: int = HINT_ROLLOUTS) -> Hint:
    """The hint for seat ``player`` (default the lowest acting seat) at this moment of the game ``log``
    records, recorded in it as a hint (the caller saves the log); the same hint for the same moment."""
    seat = state.player if player is None else player
    advice = moment_hint(state, log.seed, len(log.events), seat, rollouts)
    log.hint(seat, advice.action)
    return advice
