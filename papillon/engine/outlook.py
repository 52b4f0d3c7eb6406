"""The points a garden is still expected to gain: the expert bot's judgement of a position (docs/ENGINE.md, "Bots").

The score now plus the sheets' promise (:func:`papillon.engine.bots.value`) undersells what
grows by itself as the game goes on: a Gazebo drawn early scores only the butterflies already
on flowers, yet most gardens reach its cap of 8; a free field waits for a feature or a critter.
:func:`outlook` is a linear estimate of the points still to come, ``Σ (a·t + b·t²) × sign``
over a few *signs* of the garden and its Fill sheet (:func:`signs`), ``t`` being the turns
left: with no turn left nothing more comes.  Its weights are data, fitted by least squares on
positions of the search bot's games and the expert's together (``bench/fit_outlook.py`` writes
:mod:`papillon.engine.outlook_weights`): each policy reaches gardens the other avoids, and the
expert's lines reach both kinds; a sign an edition lacks (a tile it leaves out) weighs 0.
"""

from __future__ import annotations

from papillon.engine.outlook_weights import WEIGHTS
from papillon.engine.state import GameState
from papillon.engine.tasks import Stage
from papillon.rules import FLOWER_CODES, evaluate, joining_edges, patches, rule_tables


def turns_left(state: GameState) -> int:
    """The turns (pairs to resolve) a seat has ahead once its own turn or bonus is done: this round's if not yet played, and later ones.

    In the turn stage another seat is playing, so this round's turn is behind the seat; in any
    other stage (a chance node, a round bonus, the start) this round's turn is still ahead.
    """
    if state.stage is Stage.OVER:
        return 0
    return state.edition.rules.rounds - state.round + (0 if state.stage is Stage.TURN else 1)


def signs(state: GameState, player: int) -> dict[str, float]:
    """What :func:`outlook` weighs in ``player``'s sheets, by name."""
    board = state.boards[player]
    edition = state.edition
    tables = rule_tables(edition)
    cells = board.cells
    flies = board.butterflies
    found = evaluate(cells, board.bricks, flies, tables)
    flowers_flown = sum(1 for p, code in enumerate(cells) if code in FLOWER_CODES and flies >> p & 1)
    groups = patches(cells, board.bricks & joining_edges(cells), 2)
    found_signs: dict[str, float] = {
        "bias": 1.0,
        "empty": cells.count("."),
        "fields": cells.count("F"),
        "butterflies": flies.bit_count(),
        "flowers": sum(map(FLOWER_CODES.__contains__, cells)),
        "flowers_flown": flowers_flown,
        "pairs": sum(mask.bit_count() == 2 for _, mask in groups),
        "colours_patched": len({colour for colour, mask in groups if mask.bit_count() >= edition.rules.patch_min}),
        "missing_features": len(tables.feature_codes) - len(found.unique_features),
        "tracks": sum(board.tracks),
        "rondel": board.rondel,
        "caterpillars": board.caterpillars,
        "ladders": sum(board.ladders),
        "bonus_pending": 1.0 if _bonus_pending(state, player) else 0.0,
    }
    for code in tables.feature_codes:
        found_signs["tile_" + code] = 0.0
    for item in found.features:
        found_signs["tile_" + item.code] += 1.0
        rule = tables.feature_rules[item.code]
        if rule is not None and rule.max is not None:
            key = "room_" + item.code
            found_signs[key] = found_signs.get(key, 0.0) + rule.max - item.points
    return found_signs


def _bonus_pending(state: GameState, player: int) -> bool:
    """Whether ``player`` has this round's bonus still to choose (another seat may be choosing its own)."""
    return state.stage is Stage.BONUS and (state.current == player or state.turns[player] is not None)


def outlook(state: GameState, player: int) -> float:
    """The points ``player``'s garden is still expected to gain from ``state`` (its own turn done) to the game's end."""
    t = turns_left(state)
    if t == 0:
        return 0.0
    gained = 0.0
    for name, sign in signs(state, player).items():
        weight = WEIGHTS.get(name)
        if weight is not None and sign:
            gained += (weight[0] * t + weight[1] * t * t) * sign
    return gained
