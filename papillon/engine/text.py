"""The engine's English: prompts, descriptions of actions, cards, dice and effects, and why an action is refused.

Kept apart from :mod:`papillon.engine.state` (the rules of a round) so that the rules read as
rules and every sentence a front end shows comes from one place.  Counts go through
:func:`papillon.words.plural`.
"""

from __future__ import annotations

from papillon import words
from papillon.edition import Card, DieFace, Edition, Effect, Feature
from papillon.engine.state import (
    GNOME_VERB,
    GameState,
    _board,
    _gnome_options,
    _moves,
)
from papillon.engine.tables import BRAMBLE, COLOUR_CODE, EDGE_BY_NAME, EMPTY, FIELD, FLOWER_CODES, PLOT_BY_NAME, PLOT_NAMES
from papillon.grid import PLOTS
from papillon.words import plural

_TASK_PROMPTS = {
    "stamp": "stamp a {colour} flower: choose an empty plot",
    "stamp_any": "stamp a flower of any colour: choose the colour",
    "field": "add a field ({count} left): choose an empty plot",
    "brick": "place brick edging ({count} left): choose an edge",
    "move": "move a butterfly: choose the butterfly",
    "move_from": "move the butterfly from {plot}: choose where it ends (straight line)",
    "field_move": "{fields}move a butterfly{moved}: choose {what}",
    "fill": "fill a space on the Fill sheet: choose the ladder or track",
    "critter_fill": "fill one critter space: choose the ladder",
    "critter": "you gained a {critter}: choose an empty field for it",
    "gnome": "gnome bonus: choose one",
    "bonus": "round bonus: choose one gnome bonus",
    "feature": "add a feature: choose a tile from the display",
    "feature_at": "draw the {feature}: choose an empty field",
    "fill_or_move": "fill a space or move a butterfly: choose",
    "bramble": "the die shows a bramble: choose a plot for it",
}

_COLOUR_NAMES = {code: name for name, code in COLOUR_CODE.items()}


def prompt(state: GameState) -> str:
    name = state.game.players[state.current] if state.game.players else ""
    if state.stage == "deal":
        return "setup: deal the feature display and the garden decks"
    if state.stage == "reveal":
        return f"round {state.round}: reveal the cards"
    if state.stage == "roll":
        return f"round {state.round}: roll the dice"
    if state.stage == "over":
        return "the game is over"
    if state.stage == "start":
        return f"{name}: choose the starting field whose butterfly space you fill"
    if not state.tasks:
        if state.pair < 0:
            return f"{name}: round {state.round}: choose a pair (card and die)"
        return f"{name}: choose which part of pair {state.pair + 1} to resolve next"
    task = state.tasks[-1]
    kind = task[0]
    text = _TASK_PROMPTS[kind]
    values: dict[str, object] = {}
    if kind == "stamp":
        values["colour"] = _COLOUR_NAMES.get(str(task[1]), "?")
    if kind == "field":
        values["count"] = task[1]
    if kind == "brick":
        values["count"] = plural(task[1], "edge")
    if kind == "field_move":
        fields, moves = task[1], task[2]
        values["fields"] = f"add up to {plural(fields, 'field')} and " if fields else "no field left to add; "
        values["moved"] = "" if moves else " (moved already)"
        values["what"] = " or ".join(w for w, on in (("a plot for a field", fields), ("a butterfly to move", moves)) if on)
    if kind == "move_from":
        values["plot"] = PLOT_NAMES[task[1]]
    if kind == "critter":
        values["critter"] = state.edition.occupant_name(str(task[1]))
    if kind == "feature_at":
        values["feature"] = state.edition.occupant_name(str(task[1]))
    return f"{name}: {text.format(**values)}"


def effect_text(effect: Effect, adjacency: str = "king") -> str:
    """A gnome bonus or tile effect in words (``adjacency``: what the tile counts as its neighbours)."""
    return words.effect_text(effect.action, effect.count, effect.per, adjacency)


def feature_text(feature: Feature, edition: Edition) -> str:
    """A feature tile in words: its name, type, effect when placed and end-game points."""
    adjacency = edition.adjacency_of(feature.code)
    parts = [f"{feature.name} (type {feature.type})"]
    if feature.on_place:
        parts.append("when placed: " + ", then ".join(effect_text(e, adjacency) for e in feature.on_place))
    if feature.score:
        s = feature.score
        parts.append("scores " + words.score_text(s.points, s.count, s.colour, s.max, adjacency))
    return "; ".join(parts)


def card_text(card: Card) -> str:
    centres = {"stamp": f"stamp a {card.colour} flower", "move": "move a butterfly", "field_move": "add fields & move a butterfly"}
    centre = centres[card.centre]
    corner = {"feature": "add a feature", "brick": "place brick edging", "fill": "fill a space"}[card.corner]
    return f"{centre} | corner: {corner}"


def die_text(face: DieFace) -> str:
    text = plural(face.caterpillars, "caterpillar")
    extra = {"field": " + add a field", "fill": " + fill a space", "bramble": " + bramble"}
    return text + extra.get(face.extra or "", "")


def describe(state: GameState, action: str) -> str:
    verb, _, arg = action.partition(" ")
    edition = state.edition
    if verb == "pair":
        i = int(arg) - 1
        cards = state.cards()
        dice = state.dice()
        text = f"pair {arg}: {card_text(cards[i])}"
        return text + (f"; die: {die_text(dice[i])}" if i < len(dice) else "")
    if verb == "part":
        card = state.cards()[state.pair]
        if arg == "corner":
            return f"the card's corner bonus: {card_text(card).split('corner: ')[1]}"
        if arg == "centre":
            return f"the card's centre action: {card_text(card).split(' | ')[0]}"
        return f"the die: {die_text(state.dice()[state.pair])}"
    if verb == GNOME_VERB:
        kind = state.tasks[-1][0] if state.tasks else "gnome"
        return effect_text(dict(_gnome_options(state, _board(state), kind))[arg])
    if verb == "feature":
        if retired := edition.retired_note(arg):
            return f"{arg}: not a tile of the {edition.name} edition: {retired}"
        return feature_text(edition.features[arg], edition)
    if verb == "fill":
        board = _board(state)
        tables = state.game.tables
        if arg in tables.critter_codes:
            i = tables.critters.index(arg)
            return f"{edition.occupant_name(arg)} ladder: {board.ladders[i]}/{tables.ladders[i]} filled; the top bubble gains the critter"
        if arg == "rondel":
            return f"rondel petal {board.rondel + 1}: {edition.fill.rondel[board.rondel] or 'no icon'}"
        i = tables.colours.index(arg)
        icon = edition.fill.flower_track[board.tracks[i]] or "no icon"
        return f"{arg} track bubble {board.tracks[i] + 1}: {icon.replace('_', ' ')}"
    if verb == "skip":
        return "decline this gain (it is lost)" if state.tasks else "skip"
    if verb == "to":
        start = state.tasks[-1][1]
        mask = next(m for e, m in _moves(state, _board(state), start) if e == PLOT_BY_NAME[arg])
        entered = " ".join(PLOT_NAMES[p] for p in PLOTS if mask >> p & 1)
        return f"move to {arg}, filling the butterfly spaces of {entered}"
    if verb == "plot":
        cell = _board(state).cells[PLOT_BY_NAME[arg]]
        return f"use plot {arg} (now {cell_words(cell, edition)})"
    if verb == "edge":
        return f"draw a brick between {arg.replace('-', ' and ')}"
    return action


def cell_words(code: str, edition: Edition) -> str:
    if code in FLOWER_CODES:
        return f"a {_COLOUR_NAMES[code]} flower"
    return {EMPTY: "empty", FIELD: "an empty field", BRAMBLE: "a bramble"}.get(code) or f"a field with a {edition.occupant_name(code)}"


def why_illegal(state: GameState, action: object) -> str:
    legal = state.legal_actions()
    if not isinstance(action, str):
        return f"an action is a string like {legal[0]!r}, got {action!r}" if legal else f"no action is possible: {state.prompt()}"
    if not legal:
        return f"{action!r}: no decision is possible now ({state.prompt()})"
    verb, _, arg = action.partition(" ")
    verbs = sorted({a.split(" ")[0] for a in legal})
    head = f"{action!r} is not allowed: {state.prompt()}"
    if verb == "feature" and (retired := state.edition.retired_note(arg)):
        return f"{head}; {arg!r} is not a tile of the {state.edition.name} edition: {retired}"
    if verb not in verbs:
        return f"{head}; expected {' or '.join(repr(v) for v in verbs)} (e.g. {legal[0]!r})"
    if verb in ("plot", "from", "to", "start"):
        if arg.upper() not in PLOT_BY_NAME:
            return f"{head}; {arg!r} is not a plot (A1 to E5)"
        if arg != arg.upper():
            return f"{head}; write the plot in capitals: {verb} {arg.upper()}"
        cell = _board(state).cells[PLOT_BY_NAME[arg]]
        allowed = ", ".join(a.split(" ")[1] for a in legal if a.startswith(verb))
        return f"{head}; {arg} is {cell_words(cell, state.edition)}, not one of {allowed}"
    if verb == "edge":
        if arg not in EDGE_BY_NAME:
            return f"{head}; {arg!r} is not an edge between two neighbouring plots (like B1-C1)"
        return f"{head}; {arg} already has a brick" if _board(state).bricks >> EDGE_BY_NAME[arg] & 1 else head
    return f"{head}; legal now: {', '.join(legal[:12])}{' ...' if len(legal) > 12 else ''}"
