"""The random bot's speed pass (issue 18) gives what the plain way gives.

A state is written by a plain slotted class and then made a ``GameState`` that refuses
assignments; the legal plots and free edges of a missed memo are gathered in C; a board's
garden reads its masks' binary text; a reveal's and a roll's text is parsed once;
``play_game`` writes each line of its log as it plays; a bot's ``randrange(n)`` draws
``getrandbits`` directly; ``play_game`` restarts one generator for every decision no bot kept, draws the
random bot's choice itself and applies a reveal without reading its text back.  Each is checked here
against the plain way, on random games.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from dataclasses import FrozenInstanceError

import pytest

from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import make_bot, new_game, play_game
from papillon.engine.actions import EDGE_ACTIONS, PLOT_ACTIONS
from papillon.engine.bots import RandomBot
from papillon.engine.log import GameLog, game_seed, step
from papillon.engine.seeded import LazyRandom, derive_seed, hash_prefix
from papillon.engine.state import _can_move, _empty_plot_actions, _free_edge_actions, _move_sources, _moves
from papillon.errors import IllegalActionError
from papillon.garden import Cell, Garden
from papillon.grid import EDGES, PLOTS
from papillon.rules import EMPTY


def _plain_text(log) -> str:
    lines = [log.header_line(), *(json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in log.events)]
    lines.append(json.dumps({"end": log.end}, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(3))
def test_the_lines_written_while_playing_are_the_json_of_the_events(seed):
    log = play_game(game_seed(12, seed), [make_bot("random"), make_bot("random")])[1]
    assert log.text() == _plain_text(log)
    taken = log.events.pop()  # an undo takes an event back: the lines written as it played no longer fit
    assert log.text() == _plain_text(log)
    log.events.append(dict(taken))  # the same record again, but another object
    assert log.text() == _plain_text(log)


def test_a_state_is_immutable_and_a_value():
    state = new_game(("Ann", "Bob"))
    state = state.apply(state.sample_chance(random.Random(3)))
    with pytest.raises(FrozenInstanceError):
        state.round = 4  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del state.current
    twin = copy.copy(state)
    assert twin == state and hash(twin) == hash(state) and twin is not state
    again = pickle.loads(pickle.dumps(state))
    assert again.boards == state.boards and again.legal_actions() == state.legal_actions()
    assert repr(state).startswith("GameState(game=") and "turns=" in repr(state)
    assert state != state.apply(state.legal_actions()[0])


def test_the_plots_and_edges_gathered_in_c_are_the_plain_ones():
    rng = random.Random(5)
    for _ in range(300):
        cells = tuple(rng.choice((EMPTY, "F", "R", "X", "ha")) for _ in PLOTS)
        bricks = rng.getrandbits(len(EDGES))
        assert _empty_plot_actions.__wrapped__(cells) == tuple(PLOT_ACTIONS[p] for p in PLOTS if cells[p] == EMPTY)
        assert _free_edge_actions.__wrapped__(bricks) == tuple(EDGE_ACTIONS[i] for i in range(len(EDGES)) if not bricks >> i & 1)


@pytest.mark.parametrize("seed", range(3))
def test_a_boards_garden_is_the_plain_garden(seed):
    state = play_game(game_seed(13, seed), [make_bot("random")])[0]
    board = state.boards[0]
    plain = Garden(
        tuple(Cell.parse(code) for code in board.cells),
        frozenset(EDGES[i] for i in range(len(EDGES)) if board.bricks >> i & 1),
        frozenset(p for p in PLOTS if board.butterflies >> p & 1),
    )
    assert board.garden() == plain


def test_chance_texts_are_refused_as_before():
    state = new_game(("Ann",))
    state = state.apply(state.sample_chance(random.Random(1)))
    state = state.apply(state.legal_actions()[0])
    for bad in ("reveal 1.2", "reveal 1.1.2", "reveal 1.2.99", "reveal a.b.c", "roll 1 2 3"):
        with pytest.raises(IllegalActionError, match="expected this round's cards"):
            state.apply(bad)
    rolled = state.apply("reveal 1.2.3")
    for bad in ("roll 1 2", "roll 1 2 7", "roll 0 1 1", "reveal 4.5.6"):
        with pytest.raises(IllegalActionError, match="expected the roll"):
            rolled.apply(bad)
    later = rolled.apply("roll 1 2 3")
    while not later.is_chance():
        later = later.apply(later.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="none revealed before"):  # a card seen in round 1
        later.apply("reveal 2.7.8")


def test_a_bots_randrange_is_random_randranges():
    for n in (1, 2, 3, 7, 8, 100, 2**40):
        key = (99, "bot", n % 50)
        assert [LazyRandom(key).randrange(n) for _ in range(3)] == [random.Random(derive_seed(*key)).randrange(n) for _ in range(3)]
        lazy, plain = LazyRandom(key), random.Random(derive_seed(*key))
        assert [lazy.randrange(n) for _ in range(5)] == [plain.randrange(n) for _ in range(5)]
    lazy, plain = LazyRandom((1, "bot", 2)), random.Random(derive_seed(1, "bot", 2))
    assert [lazy.randrange(3, 30), lazy.randrange(0, 30, 4), lazy.randrange(5)] == [
        plain.randrange(3, 30),
        plain.randrange(0, 30, 4),
        plain.randrange(5),
    ]
    with pytest.raises(ValueError):
        LazyRandom((1, "bot", 3)).randrange(0)


def test_a_bots_generator_given_its_hash_prefix_draws_as_without():
    prefix = hash_prefix(77, "bot")
    for n in (0, 5, 1023, 1024, 5000):
        assert [LazyRandom((77, "bot", n), prefix).randrange(9) for _ in range(2)] == [LazyRandom((77, "bot", n)).randrange(9)] * 2
        given, plain = LazyRandom((77, "bot", n), prefix), random.Random(derive_seed(77, "bot", n))
        assert [given.randrange(6), given.random(), given.randrange(1000)] == [plain.randrange(6), plain.random(), plain.randrange(1000)]


def test_the_butterflies_that_may_move_by_mask_are_those_with_a_movement():
    edition = edition_from_toml('[rules]\nbutterfly_counts = "new"\nbutterfly_steps = 2\nbutterfly_diagonal = true\n')
    state = new_game(("Ann",), edition)
    rng = random.Random(8)
    for _ in range(300):
        board = state.boards[0]._replace(butterflies=rng.getrandbits(len(PLOTS)) & rng.getrandbits(len(PLOTS)))
        plain = [p for p in PLOTS if board.butterflies >> p & 1 and _moves(state, board, p)]
        assert [a.plot for a in _move_sources(state, board)] == plain
        assert _can_move(state, board) == bool(plain)


class _PlainRandomBot(RandomBot):
    """The random bot through the generic driver: play_game draws RandomBot's own decisions itself."""


class _KeepingBot:
    """The random bot, keeping every generator it is given (and drawing from the one before, once it decided)."""

    name = "random"

    def __init__(self) -> None:
        self.kept: list[random.Random] = []

    def choose(self, state, rng):
        if self.kept:
            self.kept[-1].random()  # a kept generator is its own: drawing from it changes no later decision
        self.kept.append(rng)
        return make_bot("random").choose(state, rng)


@pytest.mark.parametrize("seed", range(2))
def test_play_game_reuses_a_generator_only_when_no_bot_kept_it(seed):
    # play_game restarts one generator for every decision of a bot other than RandomBot itself (whose choice it
    # draws itself); a bot that keeps its generators gets a new one each time, and the games are the same.
    plain = play_game(game_seed(13, seed), [_PlainRandomBot()])[1]
    keeping = _KeepingBot()
    kept = play_game(game_seed(13, seed), [keeping])[1]
    assert kept.text() == plain.text()
    assert len({id(rng) for rng in keeping.kept}) == len(keeping.kept) > 10


def test_a_restarted_generator_draws_as_a_new_one():
    prefix = hash_prefix(5, "bot")
    rng = LazyRandom((5, "bot", 1), prefix)
    rng.random(), rng.gauss(0, 1)
    rng.restart((5, "bot", 2))
    fresh = random.Random(derive_seed(5, "bot", 2))
    assert [rng.randrange(7), rng.gauss(0, 1), rng.random()] == [fresh.randrange(7), fresh.gauss(0, 1), fresh.random()]


MANY_CARDS = "[cards]\nmix = [" + ", ".join(['{ centre = "move", corner = "brick", count = 100 }'] * 12) + "]\n"
"""1,200 cards: a reveal names cards of four digits."""


@pytest.mark.parametrize(
    ("bots", "corrections"),
    [
        (("random",), ""),
        (("random", "greedy", "random"), ""),
        (("random", "random"), '[play]\ndie_order = "player"\ndecline_gains = false\n[display]\nexclude = ["sh", "bf"]\n'),
        (("random",), MANY_CARDS),
    ],
)
def test_play_games_own_draws_are_those_of_the_public_api(bots, corrections):
    # step() asks each bot with its decision's generator and samples each chance event with chance_rng,
    # through sample_chance and apply: play_game, which draws both itself, must write the same log.
    edition = edition_from_toml(corrections) if corrections else standard_edition()
    for seed in (3, 41, 977):
        state, log = play_game(seed, [RandomBot() if bot == "random" else make_bot(bot) for bot in bots], edition)
        generic = GameLog(seed, edition, [{"name": bot, "bot": bot} for bot in bots])
        agents = [_PlainRandomBot() if bot == "random" else make_bot(bot) for bot in bots]
        other = new_game(list(bots), edition)
        while not other.is_over():
            other = step(other, generic, agents)
        generic.finish(other)
        assert generic.text() == log.text()
        assert [other.garden(p) for p in range(len(bots))] == [state.garden(p) for p in range(len(bots))]
