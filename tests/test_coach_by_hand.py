"""The review's arithmetic checked by hand on a game small enough to enumerate: one decision, one die.

The game: seat 0 chooses ``safe`` or ``gamble``; then one die of three faces (1, 2, 3, each 1/3) is
rolled; ``safe`` ends on 4 points whatever the die, ``gamble`` on 2 × face + 1 points.

Worked out by enumerating the die's three outcomes:

- E[safe] = 4.
- E[gamble] = (3 + 5 + 7) / 3 = 5.
- Paired differences gamble − safe: −1, 1, 3; mean 1, variance ((−2)² + 0² + 2²) / 3 = 8/3.

So the review of ``safe`` says best ``gamble``, lost ≈ 1; with common random numbers each rollout's
``gamble`` score is 2 × (the face both saw) + 1 while its ``safe`` score is 4, so every paired
difference is one of −1, 1, 3.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from papillon.coach import rollout_scores
from papillon.engine.actions import Action
from papillon.game_review import Moment, judge

SAFE, GAMBLE = Action.parse("choose fill"), Action.parse("choose move")  # two action values to stand for the two choices


@dataclass(frozen=True)
class Tiny:
    """The tiny game's states: ``choice`` is None before the decision, ``face`` None before the roll."""

    choice: Action | None = None
    face: int | None = None
    round: int = 1
    player: int = 0
    edition: None = None

    def is_over(self) -> bool:
        return self.face is not None

    def is_chance(self) -> bool:
        return self.choice is not None and self.face is None

    def sample_chance(self, rng: random.Random) -> str:
        return str(rng.randrange(3) + 1)

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        return (SAFE, GAMBLE) if self.choice is None else ()

    def apply(self, action: Action | str, player: int | None = None) -> Tiny:
        if self.choice is None:
            assert isinstance(action, Action)
            return Tiny(choice=action)
        return Tiny(self.choice, int(str(action)))

    def score(self, player: int) -> int:
        assert self.face is not None
        return 4 if self.choice == SAFE else 2 * self.face + 1

    def solo(self, player: int) -> Tiny:
        return self

    def describe(self, action: Action) -> str:
        return "safe" if action == SAFE else "gamble"


class First:
    name = "first"

    def choose(self, state: Tiny, rng: random.Random) -> Action:
        return state.legal_actions()[-1]  # the coach always says gamble


def test_common_random_numbers_pair_the_same_die() -> None:
    safe, gamble = rollout_scores(Tiny(), 0, [SAFE, GAMBLE], seed=1, rollouts=300, policy=First())  # type: ignore[arg-type]
    assert set(safe) == {4}
    assert set(gamble) <= {3, 5, 7} and set(gamble) == {3, 5, 7}
    assert {g - s for g, s in zip(gamble, safe, strict=True)} == {-1, 1, 3}


def test_the_review_of_safe_matches_the_enumeration() -> None:
    moment = Moment(event=0, player=0, state=Tiny(), action=SAFE)  # type: ignore[arg-type]
    decision = judge(moment, seed=2, rollouts=2048, policy=First(), coach_by=First())  # type: ignore[arg-type]
    assert decision.best == GAMBLE and decision.coach == GAMBLE
    assert decision.expected == 4  # no chance touches safe: exact
    # 2048 rollouts: the mean of gamble is 5 within 3 standard errors (sqrt(8/3 / 2048) = 0.036 each)
    assert decision.best_expected == pytest.approx(5, abs=3 * (8 / 3 / 2048) ** 0.5)
    assert decision.lost == decision.best_expected - 4 == pytest.approx(1, abs=0.11)
    assert decision.stderr == pytest.approx((8 / 3 / 2048) ** 0.5, rel=0.1)


def test_a_player_who_gambled_lost_nothing() -> None:
    moment = Moment(event=0, player=0, state=Tiny(), action=GAMBLE)  # type: ignore[arg-type]
    decision = judge(moment, seed=2, rollouts=64, policy=First(), coach_by=First())  # type: ignore[arg-type]
    assert decision.best == GAMBLE and decision.lost == 0 and decision.stderr == 0
