"""The review's arithmetic checked by hand: on a stand-in game of one decision and one die, and on the real
engine at the end of a game whose last chance (round 10's cards and dice) has 48 outcomes.

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

import dataclasses
import random
from dataclasses import dataclass

import pytest

from papillon.coach import paired_stderr, rollout_scores
from papillon.edition import edition_from_toml
from papillon.engine.actions import Action, Kind
from papillon.engine.log import GameLog
from papillon.game_review import Moment, judge, moments

SAFE, GAMBLE = Action.parse("choose fill"), Action.parse("choose move")  # two action values to stand for the two choices


@dataclass(frozen=True)
class Tiny:
    """The tiny game's states: ``choice`` is None before the decision, ``face`` None before the roll."""

    choice: Action | None = None
    face: int | None = None
    round: int = 1
    player: int = 0
    edition: None = None
    stage: None = None

    def is_over(self) -> bool:
        return self.face is not None

    def is_chance(self) -> bool:
        return self.choice is not None and self.face is None

    def sample_chance(self, rng: random.Random) -> str:
        return str(rng.randrange(3) + 1)

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return (("1", 1 / 3), ("2", 1 / 3), ("3", 1 / 3))

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


def test_sampled_rollouts_converge_on_the_enumeration() -> None:
    safe, gamble = rollout_scores(Tiny(), 0, [SAFE, GAMBLE], seed=2, rollouts=2048, policy=First())  # type: ignore[arg-type]
    assert safe == [4] * 2048  # no chance touches safe: exact
    # the mean of gamble is 5 within 4 standard errors (sqrt(8/3 / 2048) = 0.036), the paired stderr that one
    assert sum(gamble) / 2048 == pytest.approx(5, abs=4 * (8 / 3 / 2048) ** 0.5)
    assert paired_stderr(gamble, safe) == pytest.approx((8 / 3 / 2048) ** 0.5, rel=0.1)


def test_the_review_of_safe_enumerates_the_die() -> None:
    # Three outcomes and at least three rollouts: the review enumerates the die instead of sampling it.
    moment = Moment(event=0, player=0, state=Tiny(), action=SAFE)  # type: ignore[arg-type]
    decision = judge(moment, seed=2, rollouts=4, policy=First(), coach_by=First())  # type: ignore[arg-type]
    assert decision.best == GAMBLE and decision.coach == GAMBLE
    assert (decision.expected, decision.best_expected, decision.lost, decision.stderr) == (4, 5, 1, 0)


def test_with_fewer_rollouts_than_outcomes_the_review_samples() -> None:
    moment = Moment(event=0, player=0, state=Tiny(), action=SAFE)  # type: ignore[arg-type]
    decision = judge(moment, seed=2, rollouts=2, policy=First(), coach_by=First())  # type: ignore[arg-type]
    assert decision.expected == 4 and decision.best_expected in {3, 4, 5, 6, 7} and decision.lost >= 0


def test_a_player_who_gambled_lost_nothing() -> None:
    moment = Moment(event=0, player=0, state=Tiny(), action=GAMBLE)  # type: ignore[arg-type]
    decision = judge(moment, seed=2, rollouts=64, policy=First(), coach_by=First())  # type: ignore[arg-type]
    assert decision.best == GAMBLE and decision.lost == 0 and decision.stderr == 0


# The real engine, under an edition made small with data only (RULES as data): 30 cards (the 36 of the
# standard mix less the six "add a field & move" ones) in decks of 10, so round 10 reveals the last three
# cards in one of 3! = 6 orders, and dice of two faces, 2**3 = 8 rolls: 48 sequences of outcomes.
SMALL = edition_from_toml(
    "[cards]\ndeck_size = 10\nmix = ["
    + ", ".join(
        f'{{ centre = "stamp", colour = "{colour}", corner = "{corner}", count = 2 }}'
        for colour in ("red", "blue", "yellow", "purple")
        for corner in ("feature", "brick", "fill")
    )
    + ", ".join(["", *(f'{{ centre = "move", corner = "{corner}", count = 2 }}' for corner in ("feature", "brick", "fill"))])
    + ']\n[dice]\nfaces = [{ caterpillars = 1, extra = "field" }, { caterpillars = 2 }]\n'
)
# Nine rounds of a greedy game of seed 2 under it (play_game(2, [GreedyBot()], SMALL)), to the end of round 9.
NINE_ROUNDS = (  # the events, joined by "|"
    "deal po,sh,bf,tr,fp,ha,gz|start B4|reveal 22.25.8|roll 2 1 1|pair 1|part centre|plot C1|part die|fill red|gnome critter|"
    "fill hh|reveal 24.14.9|roll 1 1 1|pair 1|part die|plot B5|part centre|from B4|to B1|feature po|plot D2|reveal 6.19.28|"
    "roll 1 1 2|pair 3|part die|gnome critter|fill hh|part corner|fill red|plot C3|from B2|to E2|gnome critter|fill hh|"
    "reveal 0.26.12|roll 2 2 1|pair 2|part die|part centre|from E2|to E5|edge B2-B3|edge A1-A2|reveal 13.17.20|roll 2 1 1|"
    "pair 2|part centre|plot E2|part corner|fill blue|gnome critter|fill hh|plot D4|gnome critter|fill hh|reveal 15.10.23|"
    "roll 2 2 2|pair 2|part centre|plot E1|part die|fill blue|plot E5|reveal 3.16.27|roll 2 2 1|pair 1|part centre|plot C2|"
    "part corner|skip|gnome critter|fill hh|gnome critter|fill hh|plot D4|reveal 21.5.7|roll 2 2 2|pair 3|part centre|"
    "plot A4|part die|feature gz|plot B4|reveal 18.11.1|roll 2 2 1|pair 3|part centre|plot B3|part die|plot C5|feature bf|"
    "plot C5|gnome field|plot D1"
)


class FirstLegal:
    """The rollouts' player and the coach of this check: the first legal action, no draw (a continuation to follow by hand)."""

    name = "first"

    def choose(self, state: object, rng: random.Random) -> Action:
        return state.legal_actions()[0]  # type: ignore[attr-defined, no-any-return]


def _nine_rounds() -> GameLog:
    events = [{"chance": e} if e.split()[0] in {"deal", "reveal", "roll"} else {"player": 0, "action": e} for e in NINE_ROUNDS.split("|")]
    return GameLog(2, SMALL, [{"name": "Ann", "bot": "greedy"}], events)


def _judged(event: int, rollouts: int) -> tuple[float, float, float, float, str, str]:
    (moment,) = [m for m in moments(_nine_rounds()) if m.event == event]
    d = judge(moment, seed=5, rollouts=rollouts, policy=FirstLegal(), coach_by=FirstLegal())  # type: ignore[arg-type]
    return d.expected, d.best_expected, d.lost, d.stderr, str(d.best), str(d.coach)


def test_the_last_chance_of_a_real_game_is_enumerated_exactly() -> None:
    # Worked out by playing every one of the 48 outcome sequences on with the first legal action (one line of
    # Python per outcome, printed and read): the dice never change this player's score; the cards do. Pair 1
    # is always taken, and when card 29 (a "move a butterfly" card) is the first of the three (2 of the 6
    # orders: 1/3) it moves a butterfly, one point more.
    #
    # Event 88, round 9 (after "plot B3"): the player took "part die" (then the die's field, C5), the coach
    # "part corner": part die ends on 45 or 46 (46 with card 29 first), part corner on 46 or 47:
    # E[die] = (2 × 45 + 46) / 3 = 136/3, E[corner] = (2 × 46 + 47) / 3 = 139/3: one point lost.
    # Event 91 (where the Butterfly Farm goes): the player put it on C5, the coach (the first legal) on B5:
    # C5 ends on 49 or 50, B5 on 47 or 48: E[C5] = 148/3, E[B5] = 142/3; the player's is the best: nothing lost.
    # 64 rollouts >= 48 sequences: the review enumerates them, exactly, with no uncertainty.
    assert _judged(88, 64) == (136 / 3, 139 / 3, 139 / 3 - 136 / 3, 0.0, "part corner", "part corner")
    assert _judged(91, 64) == (148 / 3, 148 / 3, 0.0, 0.0, "plot C5", "plot B5")


def test_sampled_rollouts_of_a_real_game_pair_the_same_cards() -> None:
    # With 32 rollouts (< 48 sequences) the review samples, and each rollout gives both choices the same cards and
    # dice: every paired difference is the enumeration's (part corner - part die is 46 - 45 or 47 - 46: always 1),
    # so the loss is exactly 1 whichever outcomes were drawn, with no uncertainty; only the level is sampled.
    expected, _, lost, stderr, best, coach = _judged(88, 32)
    assert (lost, stderr, best, coach) == (1.0, 0.0, "part corner", "part corner")
    assert 45 <= expected <= 46 and expected * 32 == int(expected * 32)  # a mean of 32 scores of 45 or 46


class CountingFirstLegal(FirstLegal):
    """FirstLegal that counts the rollouts it plays: each passes round 10's choice of a pair once."""

    def __init__(self) -> None:
        self.rollouts = 0

    def choose(self, state: object, rng: random.Random) -> Action:
        action = super().choose(state, rng)
        self.rollouts += state.round == 10 and action.kind is Kind.PAIR  # type: ignore[attr-defined]
        return action


def test_rollouts_are_spared_where_the_coach_never_does_better() -> None:
    (before_die,) = [m for m in moments(_nine_rounds()) if m.event == 88]
    (before_farm,) = [m for m in moments(_nine_rounds()) if m.event == 91]
    counted = []
    for moment in (before_die, before_farm, dataclasses.replace(before_die, action=Action.parse("part corner"))):
        policy = CountingFirstLegal()
        judge(moment, seed=5, rollouts=32, policy=policy, coach_by=FirstLegal())  # type: ignore[arg-type]
        counted.append(policy.rollouts)
    # 88: the coach's part corner does better in every rollout, so both choices get all 32; 91: the coach's B5 never
    # does better than the player's C5, so both stop at 16; part corner is the coach's own choice: 32 / 4 for it alone.
    assert counted == [64, 32, 8]
