"""The engine's short cuts give what the plain way gives, on random games.

Issue 18's speed pass writes a log's header with the edition's JSON worked out once per
edition, finds a gnome option by its word alone (it is legal, so doable), builds a board
with one field changed by ``tuple.__new__`` and makes each task once.  Each is checked here
against the plain way it replaced: ``json.dumps`` of the header, the options that
:func:`~papillon.engine.state._gnome_options` keeps, and ``Board._replace``.
"""

from __future__ import annotations

import json
import random

import pytest

from papillon.edition import edition_from_toml, standard_edition
from papillon.engine import make_bot, new_game, play_game
from papillon.engine.actions import Kind, option_action
from papillon.engine.log import GameLog, _dump_event, game_seed
from papillon.engine.state import (
    Board,
    GameState,
    _board_with,
    _gnome_options,
    _settle,
    _task,
    _with_tasks,
    after_legal,
    effect_tasks,
)
from papillon.engine.tasks import AddBrick, AddField, GnomeBonus, Stamp

EDITIONS = (
    standard_edition(),
    edition_from_toml('[scoring]\nenclosed = 2\n[rules]\nenclosure = "encircled"\n'),
)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("names", [("Ann",), ("Zoë", 'Bo "the" bot', "日本")])
def test_the_header_line_is_the_json_of_the_header(edition, names):
    log = GameLog(123456789, edition, [{"name": n, "bot": None if i else "greedy"} for i, n in enumerate(names)])
    plain = json.dumps(log.header(), separators=(",", ":"), ensure_ascii=False)
    assert log.header_line() == plain
    assert log.text().split("\n")[0] == plain
    assert json.loads(plain)["fingerprint"] == edition.fingerprint


def _states(seed: int, players: int):
    """Every decision state of a game of random bots."""
    rng = random.Random(seed)
    state = new_game(["P"] * players)
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        yield state
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])


def _plain_gnome(state: GameState, action) -> GameState:
    """A gnome option applied the way the engine did before: looked up among the doable options."""
    task = state.tasks[-1]
    rest = state.tasks[:-1]
    effect = dict(_gnome_options(state, state.boards[state.current], task))[action.option]
    chosen = _with_tasks(state, rest)
    return _settle(_with_tasks(chosen, rest + effect_tasks(chosen, (effect,), -1)))


@pytest.mark.parametrize("seed", range(12))
def test_a_gnome_option_is_the_doable_option_of_its_word(seed):
    checked = 0
    for state in _states(seed, 1 + seed % 3):
        if not state.tasks or not isinstance(state.tasks[-1], GnomeBonus):
            continue
        legal = state.legal_actions()
        board = state.boards[state.current]
        assert legal == tuple(option_action(Kind.GNOME, slug) for slug, _ in _gnome_options(state, board, state.tasks[-1]))
        for action in legal:
            assert after_legal(state, action) == _plain_gnome(state, action)
            checked += 1
    assert checked > 0  # every game of the standard edition reaches a gnome


@pytest.mark.parametrize("seed", range(6))
def test_a_board_with_one_field_changed_is_the_replaced_board(seed):
    rng = random.Random(seed)
    board = play_game(game_seed(7, seed), [make_bot("random")])[0].boards[0]
    for index, name in enumerate(Board._fields):
        value = getattr(board, name)
        new = (*value[:-1], ("xx", rng.randrange(25))) if isinstance(value, tuple) else value + 1 + rng.randrange(9)
        changed = _board_with(board, index, new)
        assert changed == board._replace(**{name: new})
        assert type(changed) is Board


def test_a_task_is_made_once_and_equals_the_plain_one():
    assert _task(AddBrick, 2, True) is _task(AddBrick, 2, True)
    assert _task(AddBrick, 2, True) == AddBrick(2, True)
    assert _task(AddField, 1, False) == AddField(1, False) != _task(AddField, 2, False)
    assert _task(Stamp, "R") == Stamp("R") != _task(Stamp, "B")


@pytest.mark.parametrize("seed", range(4))
def test_every_event_line_is_the_json_of_the_event_written_twice(seed):
    log = play_game(game_seed(11, seed), [make_bot("random"), make_bot("greedy")])[1]
    odd = [{"player": 1, "action": 'plot "C3"'}, {"player": True, "action": "skip"}, {"action": "skip", "player": 0}]
    for event in [*log.events, *odd, *log.events]:  # the second time from the memo of decision lines
        assert _dump_event(event) == json.dumps(event, separators=(",", ":"), ensure_ascii=False)
