"""The engine's English: prompts, descriptions of actions, cards, dice and effects, and why an action is refused.

Kept apart from :mod:`papillon.engine.state` (the rules of a round) so that the rules read as
rules and every sentence a front end shows comes from one place.  Counts go through
:func:`papillon.words.plural`.
"""

from __future__ import annotations

from papillon import words
from papillon.edition import Edition, Effect, Feature
from papillon.engine.actions import Action, Kind, Part
from papillon.engine.state import GameState, _board, _gnome_options, _moves
from papillon.engine.tables import BRAMBLE, COLOUR_CODE, EDGE_BY_NAME, FIELD, FLOWER_CODES, PLOT_BY_NAME, PLOT_NAMES
from papillon.engine.tasks import (
    AddBrick,
    AddField,
    ChooseFeature,
    CritterFill,
    DieOrder,
    FieldAndMove,
    Fill,
    FillOrMove,
    GnomeBonus,
    Move,
    MoveFrom,
    PlaceBramble,
    PlaceCritter,
    PlaceFeature,
    Stage,
    Stamp,
    StampAny,
    Task,
)
from papillon.grid import PLOTS
from papillon.words import card_text, cell_words, centre_text, corner_text, die_text, plural

_COLOUR_NAMES = {code: name for name, code in COLOUR_CODE.items()}


def prompt(state: GameState) -> str:
    """What the game waits for, in one sentence."""
    name = state.game.players[state.current] if state.game.players else ""
    stage = state.stage
    if stage is Stage.DEAL:
        return "setup: deal the feature display"
    if stage is Stage.REVEAL:
        return f"round {state.round}: reveal the cards"
    if stage is Stage.ROLL:
        return f"round {state.round}: roll the dice"
    if stage is Stage.OVER:
        return "the game is over"
    if stage is Stage.START:
        return f"{name}: choose the starting field whose butterfly space you fill"
    if not state.tasks:
        if state.pair < 0:
            return f"{name}: round {state.round}: choose a pair (card and die)"
        return f"{name}: choose which part of pair {state.pair + 1} to resolve next"
    return f"{name}: {task_prompt(state.tasks[-1], state.edition)}"


def task_prompt(task: Task, edition: Edition) -> str:
    """What a pending task asks of the player."""
    match task:
        case Stamp(colour=colour):
            return f"stamp a {_COLOUR_NAMES.get(colour, '?')} flower: choose an empty plot"
        case StampAny():
            return "stamp a flower of any colour: choose the colour"
        case AddField(count=count):
            return f"add a field ({count} left): choose an empty plot"
        case AddBrick(count=count):
            return f"place brick edging ({plural(count, 'edge')} left): choose an edge"
        case Move():
            return "move a butterfly: choose the butterfly"
        case MoveFrom(plot=plot):
            return f"move the butterfly from {PLOT_NAMES[plot]}: choose where it ends (straight line)"
        case FieldAndMove(fields=fields, moves=moves):
            head = f"add up to {plural(fields, 'field')} and " if fields else "no field left to add; "
            moved = "" if moves else " (moved already)"
            what = " or ".join(w for w, on in (("a plot for a field", fields), ("a butterfly to move", moves)) if on)
            return f"{head}move a butterfly{moved}: choose {what}"
        case Fill():
            return "fill a space on the Fill sheet: choose the ladder or track"
        case CritterFill():
            return "fill one critter space: choose the ladder"
        case PlaceCritter(code=code):
            return f"you gained a {edition.occupant_name(code)}: choose an empty field for it"
        case GnomeBonus(round_bonus=round_bonus):
            return "round bonus: choose one gnome bonus" if round_bonus else "gnome bonus: choose one"
        case ChooseFeature():
            return "add a feature: choose a tile from the display"
        case PlaceFeature(code=code):
            return f"draw the {edition.occupant_name(code)}: choose an empty field"
        case FillOrMove():
            return "fill a space or move a butterfly: choose"
        case PlaceBramble():
            return "the die shows a bramble: choose a plot for it"
        case DieOrder(extra=extra):
            return f"the die: choose what comes first, its caterpillars (and the gnome bonus they reach) or its {_EXTRA_WORDS[extra]}"
    raise AssertionError(f"unknown task {task!r}")


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


_EXTRA_WORDS = {"field": "field", "fill": "fill", "bramble": "bramble"}


def describe(state: GameState, action: Action) -> str:
    """What ``action`` does, in words (the loaded seat's view)."""
    kind = action.kind
    edition = state.edition
    if kind is Kind.PAIR:
        i = action.pair
        cards = state.cards()
        dice = state.dice()
        text = f"pair {i + 1}: {card_text(cards[i])}"
        return text + (f"; die: {die_text(dice[i])}" if i < len(dice) else "")
    if kind is Kind.PART:
        card = state.cards()[state.pair]
        if action.part is Part.CORNER:
            return f"the card's corner bonus: {corner_text(card)}"
        if action.part is Part.CENTRE:
            return f"the card's centre action: {centre_text(card)}"
        return f"the die: {die_text(state.dice()[state.pair])}"
    if kind is Kind.GNOME:
        task = state.tasks[-1] if state.tasks else GnomeBonus()
        bonus = task if isinstance(task, GnomeBonus) else GnomeBonus()
        return effect_text(dict(_gnome_options(state, _board(state), bonus))[action.option])
    if kind is Kind.FEATURE:
        code = action.code
        if retired := edition.retired_note(code):
            return f"{code}: not a tile of the {edition.name} edition: {retired}"
        return feature_text(edition.features[code], edition)
    if kind is Kind.FILL:
        board = _board(state)
        tables = state.game.tables
        code = action.code
        if code in tables.critter_codes:
            i = tables.critters.index(code)
            return f"{edition.occupant_name(code)} ladder: {board.ladders[i]}/{tables.ladders[i]} filled; the top bubble gains the critter"
        if not action.colour:
            return f"rondel petal {board.rondel + 1}: {edition.fill.rondel[board.rondel] or 'no icon'}"
        i = tables.colours.index(action.colour)
        icon = edition.fill.flower_track[board.tracks[i]] or "no icon"
        return f"{action.colour} track bubble {board.tracks[i] + 1}: {icon.replace('_', ' ')}"
    if kind is Kind.SKIP:
        return "decline this gain (it is lost)" if state.tasks else "skip"
    if kind is Kind.TO:
        task = state.tasks[-1]
        assert isinstance(task, MoveFrom)
        mask = next(m for e, m in _moves(state, _board(state), task.plot) if e == action.plot)
        entered = [PLOT_NAMES[p] for p in PLOTS if mask >> p & 1]
        return f"move to {action.plot_name}, filling the {words.noun(len(entered), 'butterfly space')} of {' '.join(entered)}"
    if kind is Kind.PLOT:
        cell = _board(state).cells[action.plot]
        return f"use plot {action.plot_name} (now {cell_words(cell, edition)})"
    if kind is Kind.EDGE:
        a, b = action.edge_name.split("-")  # an edge's name is its two plots
        return f"draw a brick between {a} and {b}"
    if kind is Kind.FIRST:
        if action.option == "caterpillars":
            return "the caterpillars first (and the gnome bonus they reach), then the rest of the die"
        return f"the die's {_EXTRA_WORDS[action.option]} first, then its caterpillars"
    return str(action)


def done_text(state: GameState, action: Action) -> str:
    """What ``action``, taken in ``state``, did, in words for a report of a bot's move: "drew a yellow flower in C5"."""
    kind = action.kind
    if kind is Kind.PLOT:
        after = state.apply(action, state.current).boards[state.current].cells[action.plot]
        cell = after if after != state.boards[state.current].cells[action.plot] else ""
        if cell in FLOWER_CODES:
            return f"drew a {_COLOUR_NAMES[cell]} flower in {action.plot_name}"
        if cell == FIELD:
            return f"added a field in {action.plot_name}"
        if cell == BRAMBLE:
            return f"drew a bramble in {action.plot_name}"
        if cell:
            return f"drew the {state.edition.occupant_name(cell)} in {action.plot_name}"
        return f"used plot {action.plot_name}"
    if kind is Kind.START:
        return f"filled the butterfly space of {action.plot_name} to start"
    if kind is Kind.EDGE:
        a, b = action.edge_name.split("-")  # an edge's name is its two plots
        return f"placed a brick between {a} and {b}"
    if kind is Kind.FROM:
        return f"moved the butterfly from {action.plot_name}"
    if kind is Kind.TO:
        return describe(state, action).replace("move to", "moved it to", 1)
    if kind is Kind.PAIR:
        return "took " + describe(state, action)
    if kind is Kind.PART:
        return "resolved " + describe(state, action)
    if kind is Kind.FILL:
        if action.code in state.game.tables.critter_codes:
            return f"filled a bubble of the {state.edition.occupant_name(action.code)} ladder"
        return f"filled a bubble of the {action.colour} track" if action.colour else "filled a rondel petal"
    if kind is Kind.COLOUR:
        return f"chose {action.colour} for the flower"
    if kind is Kind.GNOME:
        return "took the gnome bonus: " + describe(state, action)
    if kind is Kind.FEATURE:
        return f"took the {state.edition.occupant_name(action.code)} from the display"
    if kind is Kind.CHOOSE:
        return "chose to fill a space" if action.option == "fill" else "chose to move a butterfly"
    if kind is Kind.SKIP:
        return "declined the gain" if state.tasks else "skipped"
    return "chose " + describe(state, action)


def why_illegal(state: GameState, action: object) -> str:
    """Why ``action`` (an Action, its text, or anything a caller passed) is refused now."""
    legal = tuple(map(str, state.legal_actions()))
    if isinstance(action, Action):
        action = str(action)
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
