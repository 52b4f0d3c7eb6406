"""A finished (or unfinished) game reviewed decision by decision: what each choice cost (docs/COACH.md).

A decision is every choice of a seat with more than one legal action.  For each, the player's own
action and the coach's choice (:func:`papillon.coach.coach_choice`) are played on to the game's end
by the same rollouts (:func:`papillon.coach.rollout_scores`, common random numbers), or by every
outcome of the chance left when there are no more sequences of them than rollouts (the last round:
one; :func:`papillon.coach.exact_scores`); ``best`` is the better of the two (the player's own when
they tie), ``lost = best_expected - expected`` (never negative) and ``stderr`` the standard error of
the paired difference.  A choice whose result is the coach's gets one rollout, and the coach's choice
is played on past half the rollouts only if it did better in one of them.  Each decision's rollouts draw
from ``derive_seed(seed, "review", event)``, so a review depends only on the log and its seed (and not
on how many processes share the work).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from papillon.coach import RolloutPolicy, coach_bot, coach_choice, exact_scores, mean, paired_stderr, rollout_scores
from papillon.engine.actions import Action
from papillon.engine.bots import Bot
from papillon.engine.log import GameLog, derive_seed, replay
from papillon.engine.state import GameState
from papillon.words import plural

REVIEW_ROLLOUTS = 4
"""Rollouts per candidate of a decision where the player and the coach disagree (a power of two, as are
the 2 and 1 of the shortcuts: the averages of whole scores, and so every ``lost`` and their sums, are
exact in binary).  bench/bench_review.py measures the time and the uncertainty (docs/COACH.md)."""
CHUNK = 6
"""Decisions per job handed to a worker (progress moves by one job)."""


@dataclass(frozen=True)
class Moment:
    """A decision to review: the state before it and what the seat did."""

    event: int
    """Its index among the log's events (its rollouts' seed, and its place in the game)."""
    player: int
    state: GameState
    action: Action
    hinted: str | None = None
    """The hint's action when the seat asked for one before this decision."""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision."""

    event: int
    player: int
    round: int
    action: Action
    best: Action
    coach: Action
    expected: float
    best_expected: float
    lost: float
    stderr: float
    hinted: str | None
    words: str
    best_words: str

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "round": self.round,
            "action": str(self.action),
            "best": str(self.best),
            "expected": self.expected,
            "best_expected": self.best_expected,
            "lost": self.lost,
            "stderr": round(self.stderr, 3),
            "coach": str(self.coach),
            "event": self.event,
            "hint": self.hinted,
        }


@dataclass(frozen=True)
class Review:
    seed: int
    rollouts: int
    names: tuple[str, ...]
    players: tuple[int, ...]
    """The seats reviewed (0-based)."""
    decisions: tuple[Decision, ...]
    """Costliest first (then in the order played)."""
    hints: tuple[int, ...]
    """Each seat's number of hints asked."""

    @property
    def lost_points(self) -> list[float | None]:
        """Each seat's sum of ``lost`` (None for a seat not reviewed)."""
        return [sum(d.lost for d in self.decisions if d.player == p) if p in self.players else None for p in range(len(self.names))]

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "rollouts": self.rollouts,
            "players": list(self.names),
            "decisions": [d.as_json() for d in self.decisions],
            "lost_points": self.lost_points,
            "hints": list(self.hints),
        }

    def summary(self) -> list[str]:
        """A line per reviewed seat: points left on the table, decisions that cost something, hints."""
        lines = []
        for player in self.players:
            mine = [d for d in self.decisions if d.player == player]
            costly = sum(1 for d in mine if d.lost > 0)
            hints = self.hints[player]
            asked = f"; {plural(hints, 'hint')} asked" if hints else ""
            lost = self.lost_points[player] or 0.0
            lines.append(
                f"{self.names[player]}: about {lost:.1f} points left on the table over {len(mine)} decisions "
                f"({costly} cost something){asked}"
            )
        return lines


def default_seed(log: GameLog) -> int:
    """The review's rollout seed when none is given: derived from the game's seed."""
    return derive_seed(log.seed, "review") % 10**9


def moments(log: GameLog, players: Sequence[int] | None = None) -> list[Moment]:
    """The log's decisions with more than one legal action, of ``players`` (default every seat), in order."""
    wanted = set(range(len(log.names)) if players is None else players)
    asked = _hints_by_decision(log)
    found: list[Moment] = []
    before: list[GameState] = []

    def seen(state: GameState, event: dict[str, Any]) -> None:
        before.append(state)

    first = _start(log)
    replay(log, seen)
    states = [first, *before]
    for index, event in enumerate(log.events):
        if "chance" in event or event["player"] not in wanted:
            continue
        state, player = states[index], event["player"]
        if len(state.legal_actions(player)) > 1:
            found.append(Moment(index, player, state, Action.parse(event["action"]), asked.get(index)))
    return found


def _start(log: GameLog) -> GameState:
    from papillon.engine.state import new_game

    return new_game(log.names, log.edition)


def _hints_by_decision(log: GameLog) -> dict[int, str]:
    """For each hint, the event index of the decision it was asked for: that seat's next decision."""
    out: dict[int, str] = {}
    for at, record in log.hints:
        for index in range(at, len(log.events)):
            if log.events[index].get("player") == record["player"]:
                out.setdefault(index, record["action"])
                break
    return out


def judge(moment: Moment, seed: int, rollouts: int = REVIEW_ROLLOUTS, policy: Bot | None = None, coach_by: Bot | None = None) -> Decision:
    """One decision reviewed: the player's action against the coach's choice (``coach_by``: another
    bot's), by paired rollouts of ``policy`` (default :class:`~papillon.coach.RolloutPolicy`), or by
    every outcome of the chance left when that is no more than the rollouts (:func:`papillon.coach.exact_scores`)."""
    decision_seed = derive_seed(seed, "review", moment.event)
    state, player, action = moment.state, moment.player, moment.action
    coach = coach_choice(state, player, decision_seed, coach_by or _COACH.get())
    view = state.solo(player)
    same = coach == action or view.apply(coach) == view.apply(action)
    # A choice the same as the coach's loses nothing whatever the rollouts say: one rollout tells its expected score.
    candidates = [action] if same else [action, coach]
    used = max(1, rollouts // 4) if same else rollouts
    expected, coach_expected, stderr = _worths(state, player, candidates, decision_seed, used, policy)
    best, best_expected = action, expected
    if coach_expected > expected:
        best, best_expected = coach, coach_expected
    return Decision(
        moment.event,
        player,
        state.round,
        action,
        best,
        coach,
        expected,
        best_expected,
        best_expected - expected,
        stderr,
        moment.hinted,
        view.describe(action),
        view.describe(best),
    )


def _worths(
    state: GameState, player: int, candidates: Sequence[Action], seed: int, rollouts: int, policy: Bot | None
) -> tuple[float, float, float]:
    """The expected final score of the player's action and of the coach's (the first again when it is the
    only candidate), and the standard error of their difference: exact when the chance left is small."""
    exact = exact_scores(state, player, candidates, seed, rollouts, policy)
    if exact is not None:
        return float(exact[0]), float(exact[-1]), 0.0
    half = rollouts // 2 if len(candidates) == 2 else 0
    scores = rollout_scores(state, player, candidates, seed, half or rollouts, policy)
    # Successive halving: the coach's choice is played on further only if it beat the player's in some
    # rollout of the first half; a choice never beaten loses nothing there, and the loss is weighed by all
    # the rollouts wherever it is counted (half the rollouts spared where it stops: 40-60% of the disagreements
    # of greedy's and search's games).
    if half and any(c > p for p, c in zip(*scores, strict=True)):
        more = rollout_scores(state, player, candidates, seed, rollouts - half, policy, first=half)
        scores = [done + rest for done, rest in zip(scores, more, strict=True)]
    stderr = paired_stderr(scores[-1], scores[0]) if len(scores) == 2 else 0.0
    return mean(scores[0]), mean(scores[-1]), stderr


class _CoachCache:
    """One coach bot per process (a bot is a pure function of its state and draw; its memo only saves time)."""

    def __init__(self) -> None:
        self.bot: Any = None

    def get(self) -> Any:
        if self.bot is None:
            self.bot = coach_bot()
        return self.bot


_COACH = _CoachCache()


def _judge_all(moments_: Sequence[Moment], seed: int, rollouts: int) -> list[Decision]:
    policy = RolloutPolicy()
    return [judge(m, seed, rollouts, policy) for m in moments_]


def _judge_chunk(log: GameLog, events: Sequence[int], players: Sequence[int], seed: int, rollouts: int) -> list[Decision]:
    """A worker's share: the log replayed there (a state is cheap to rebuild, costly to send), those decisions judged."""
    wanted = set(events)
    return _judge_all([m for m in _replayed(log, players) if m.event in wanted], seed, rollouts)


_REPLAYED: dict[tuple[str, tuple[int, ...]], list[Moment]] = {}
"""A worker's last replayed log (by its text and seats): each of its jobs needs the same moments."""


def _replayed(log: GameLog, players: Sequence[int]) -> list[Moment]:
    key = (log.text(), tuple(players))
    if key not in _REPLAYED:
        _REPLAYED.clear()
        _REPLAYED[key] = moments(log, players)
    return _REPLAYED[key]


def review(
    log: GameLog,
    players: Sequence[int] | None = None,
    *,
    seed: int | None = None,
    rollouts: int = REVIEW_ROLLOUTS,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
    threaded: bool = False,
) -> Review:
    """Review ``players``' decisions (default every seat); ``on_progress(done, total)`` hears of each job.

    ``jobs`` > 1 shares the decisions among that many worker processes; the result is the same.  A caller
    with threads of its own (a server) says ``threaded``: the workers are then started by a fork server,
    never forked from a process whose other threads may hold locks."""
    seats = tuple(range(len(log.names)) if players is None else sorted(set(players)))
    seed = default_seed(log) if seed is None else seed
    found = moments(log, seats)
    chunks = [found[i : i + CHUNK] for i in range(0, len(found), CHUNK)]
    decisions: list[Decision] = []
    if on_progress is not None:
        on_progress(0, len(found))
    for done in _run(log, seats, chunks, seed, rollouts, jobs, threaded):
        decisions += done
        if on_progress is not None:
            on_progress(len(decisions), len(found))
    hints = [0] * len(log.names)
    for _, record in log.hints:
        if 0 <= record["player"] < len(hints):
            hints[record["player"]] += 1
    ranked = sorted(decisions, key=lambda d: (-d.lost, d.event))
    return Review(seed, rollouts, log.names, seats, tuple(ranked), tuple(hints))


def _run(
    log: GameLog, seats: Sequence[int], chunks: list[list[Moment]], seed: int, rollouts: int, jobs: int, threaded: bool
) -> Iterator[list[Decision]]:
    if jobs <= 1 or len(chunks) <= 1:
        policy = RolloutPolicy()
        for chunk in chunks:
            yield [judge(m, seed, rollouts, policy) for m in chunk]
        return
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_all_start_methods, get_context

    if threaded:
        method = "forkserver" if "forkserver" in get_all_start_methods() else "spawn"
    else:
        method = "spawn" if sys.platform == "darwin" else "fork"
    with ProcessPoolExecutor(jobs, mp_context=get_context(method)) as pool:
        futures = [pool.submit(_judge_chunk, log, [m.event for m in chunk], seats, seed, rollouts) for chunk in chunks]
        for future in futures:
            yield future.result()
