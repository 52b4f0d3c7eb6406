"""The expert's outlook (papillon/engine/outlook.py): the signs it weighs, hand-counted, and how the weights combine them."""

from __future__ import annotations

from engine_helpers import EDITION, cells, dealt, rolled, run, with_board

from papillon.engine import make_bot, play_game
from papillon.engine import outlook as outlook_module
from papillon.engine.outlook import outlook, signs, turns_left
from papillon.engine.outlook_weights import WEIGHTS

GARDEN = cells("gz R R . .  B B F . .  . . . . .  . . . . .  . . . . .")
FLOWN = 1 << 1 | 1 << 2 | 1 << 5  # both reds and the first blue


def test_the_signs_of_a_hand_made_garden():
    state = with_board(dealt(), cells=GARDEN, butterflies=FLOWN, tracks=(1, 0, 2, 0), rondel=1, ladders=(0, 3, 0, 0))
    found = signs(state, 0)
    assert EDITION.rules.patch_min == 3, "two flowers of one colour are a pair, not yet a patch"
    expected = {
        "bias": 1.0,
        "empty": 25 - 6,
        "fields": 1,
        "butterflies": 3,
        "flowers": 4,
        "flowers_flown": 3,
        "pairs": 2,
        "colours_patched": 0,
        "missing_features": len(EDITION.features) - 1,
        "tracks": 3,
        "rondel": 1,
        "caterpillars": 0,
        "ladders": 3,
        "bonus_pending": 0.0,
        "room_gz": 8 - 3,  # the Gazebo scores 3 of its 8: one per flower with its butterfly
    }
    expected |= {"tile_" + code: float(code == "gz") for code in EDITION.features}
    assert found == expected


def test_turns_left_counts_this_rounds_turn_until_it_is_played():
    state = dealt()
    assert (state.stage, state.round, turns_left(state)) == ("reveal", 1, 10)
    two = rolled(dealt(("Ann", "Bob")))
    after_ann = run(two, "pair 1")
    while after_ann.current == 0:
        after_ann = after_ann.apply(after_ann.legal_actions()[0])
    assert (after_ann.stage, after_ann.current, turns_left(after_ann)) == ("turn", 1, 9), "Bob's turn: Ann's of round 1 is behind her"
    over, _ = play_game(3, [make_bot("greedy")])
    assert turns_left(over) == 0 and outlook(over, 0) == 0.0


def test_the_outlook_weighs_each_sign_by_the_turns_left(monkeypatch):
    state = with_board(dealt(), cells=GARDEN, butterflies=FLOWN)
    monkeypatch.setattr(outlook_module, "WEIGHTS", {"fields": (1.0, 0.5), "room_gz": (0.25, 0.0), "unknown": (9.0, 9.0)})
    assert outlook(state, 0) == (1.0 * 10 + 0.5 * 100) * 1 + 0.25 * 10 * 5


def test_every_weight_is_of_a_sign_the_outlook_makes():
    made = set(signs(dealt(), 0)) | {"room_" + code for code in EDITION.features}
    assert WEIGHTS and set(WEIGHTS) <= made
