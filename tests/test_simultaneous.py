"""Simultaneous turns: every seat decides at its own pace, and the game is the same (issue 18, part 3)."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papillon.engine import GreedyBot, RandomBot, new_game, parse_log, play_game, replay
from papillon.engine.log import chance_rng, play_simultaneous
from papillon.errors import IllegalActionError
from papillon.session import PlaySession, Seat

DOCS = Path(__file__).resolve().parents[1] / "docs"


def dealt(players: int = 3):
    state = new_game([f"p{i}" for i in range(players)])
    return state.apply(state.sample_chance(chance_rng(1, 0)))


def test_every_seat_chooses_its_start_in_any_order():
    state = dealt()
    assert state.acting_players() == (0, 1, 2)
    assert [str(a) for a in state.legal_actions(2)] == ["start B4", "start D2"]
    state = state.apply("start D2", 2)
    assert state.acting_players() == (0, 1)
    assert state.player == 0, "a call without a player is for the lowest acting seat"
    assert state.legal_actions(2) == (), "a seat that has finished has nothing to decide"
    with pytest.raises(IllegalActionError, match=r"^player 2 may not decide now: the seats that may decide now: 0, 1$"):
        state.apply("start B4", 2)
    state = state.apply("start B4")  # seat 0
    state = state.apply("start B4", 1)
    assert state.is_chance() and state.round == 1, "the round's cards come once every seat has started"
    assert [state.boards[p].butterflies for p in range(3)] == [1 << 16, 1 << 16, 1 << 8]


def test_a_seats_choices_never_depend_on_the_others():
    state = dealt()
    for p in (0, 1, 2):
        state = state.apply("start B4", p)
    state = state.apply("reveal 1.2.3").apply("roll 1 2 3")
    before = {p: state.legal_actions(p) for p in (0, 1, 2)}
    moved = state.apply("pair 2", 1).apply("part die", 1)
    assert moved.acting_players() == (0, 1, 2)
    assert {p: moved.legal_actions(p) for p in (0, 2)} == {p: before[p] for p in (0, 2)}
    assert moved.seat(1).pair == 1 and moved.pair == -1, "seat 1's turn is kept while seat 0 is loaded"


def seat_decisions(seed: int, pick_seed: int | None, bots: tuple[str, ...]):
    agents = [GreedyBot() if b == "greedy" else RandomBot() for b in bots]
    rng = random.Random(pick_seed)
    pick = (lambda acting: acting[0]) if pick_seed is None else (lambda acting: rng.choice(acting))
    return play_simultaneous(seed, agents, pick)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), pick_seed=st.integers(0, 10**6), bots=st.sampled_from([("random",) * 3, ("greedy", "random")]))
def test_any_interleaving_gives_the_same_gardens_and_scores_and_its_log_replays(seed, pick_seed, bots):
    in_order, _ = seat_decisions(seed, None, bots)
    final, log = seat_decisions(seed, pick_seed, bots)
    seats = range(len(bots))
    assert [final.garden(p).to_notation() for p in seats] == [in_order.garden(p).to_notation() for p in seats]
    assert [final.score(p) for p in seats] == [in_order.score(p) for p in seats]
    replayed = replay(parse_log(log.text()))
    assert [replayed.garden(p).to_notation() for p in seats] == [final.garden(p).to_notation() for p in seats]


def test_a_log_records_the_interleaving_as_received():
    order = iter([2, 0, 1] * 1000)
    final, log = play_simultaneous(5, [RandomBot()] * 3, lambda acting: next(s for s in order if s in acting))
    players = [e["player"] for e in log.events if "player" in e][:3]
    assert players == [2, 0, 1], "the starting fields, in the order they arrived"
    assert replay(parse_log(log.text())).garden(2).to_notation() == final.garden(2).to_notation()


def test_sequential_play_is_unchanged_by_the_simultaneous_api():
    final, log = play_game(seed=3, agents=[GreedyBot(), RandomBot()])
    players = [e["player"] for e in log.events if "player" in e]
    assert players[:2] == [0, 1], "hot-seat order: the lowest acting seat first"
    assert final.is_over()


def test_undo_is_per_seat_back_to_the_start_of_its_turn(tmp_path):
    session = PlaySession.new(seed=5, seats=[Seat("Ann"), Seat("Bob"), Seat("Cy")], folder=tmp_path)
    for p in (0, 1, 2):
        session.act("start B4", p)
    assert session.state.round == 1 and not session.state.is_chance()
    session.act("pair 1", 2)
    session.act("pair 2", 0)
    session.act("part die", 2)
    bob = session.state.legal_actions(1)
    assert session.undo_seat(2), "Cy's two decisions go"
    assert [e.get("action") for e in session.log.events[-1:]] == ["pair 2"], "Ann's decision stays"
    assert session.state.seat(2).pair == -1 and session.state.seat(0).pair == 1
    assert session.state.legal_actions(1) == bob
    assert not session.undo_seat(2), "nothing left to undo for Cy this round"


def test_the_three_seat_example_in_the_engine_guide_runs():
    failures, tried = doctest.testfile(str(DOCS / "ENGINE.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried >= 5 and failures == 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), pick_seed=st.integers(0, 10**6))
def test_no_seats_decision_changes_another_seats_choices(seed, pick_seed):
    pick = random.Random(pick_seed)
    agents = [RandomBot()] * 3
    state = new_game(["a", "b", "c"])
    chances = 0
    while not state.is_over() and state.round < 4:
        if state.is_chance():
            state = state.apply(state.sample_chance(chance_rng(seed, chances)))
            chances += 1
            continue
        acting = state.acting_players()
        seat = pick.choice(acting)
        others = {p: state.legal_actions(p) for p in acting if p != seat}
        after = state.apply(agents[seat].choose(state.alone(seat), pick), seat)
        if not after.is_chance() and after.stage == state.stage:
            for p, legal in others.items():
                assert after.legal_actions(p) == legal and [str(a) for a in after.legal_actions(p)] == [str(a) for a in legal]
        state = after
