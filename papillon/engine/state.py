"""The round engine: a game of Papillon Gardens as immutable states and small decisions.

The shape is OpenSpiel's: a :class:`GameState` offers :meth:`~GameState.legal_actions`
and :meth:`~GameState.apply` (which returns a new state and never changes the
old one), :meth:`~GameState.is_over` and :meth:`~GameState.score`.  Chance
(the deal at setup and each round's roll) is an explicit node: the state holds
no generator; a driver asks :meth:`~GameState.sample_chance` with its own
seeded :class:`random.Random` and applies the outcome like any action, so a
log of actions replays the game exactly.

Every action is a short string (``"pair 2"``, ``"plot C3"``, ``"edge B1-C1"``,
``"to C1"``), so a log is readable and a person or a bot picks among a
finite list.  docs/ENGINE.md lists them and every rule reading.

>>> import random
>>> state = new_game(players=("Ann",))
>>> state = state.apply(state.sample_chance(random.Random(1)))
>>> state.legal_actions()
('start B4', 'start D2')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from papillon.edition import FEATURE_TYPES, Card, DieFace, Edition, Effect, standard_edition
from papillon.engine.tables import (
    BRAMBLE,
    COLOUR_CODE,
    EDGE_BY_NAME,
    EDGE_NAMES,
    EMPTY,
    FIELD,
    FLOWER_CODES,
    NEIGHBOUR_EDGES,
    PLOT_BY_NAME,
    PLOT_NAMES,
    ROW_MASKS,
    Tables,
    tables_for,
)
from papillon.errors import IllegalActionError
from papillon.garden import Cell, Garden
from papillon.grid import EDGES, PLOTS
from papillon.score import ScoreCard, score

MAX_PLAYERS = 6
PARTS = ("corner", "centre", "die")
UP_TO = 1
"""Flag of a brick or field task the player may stop at any time ("up to 2 edges")."""
EXACT = 0
"""Flag of a brick or field task that is a gain like any other (declined only if the edition allows)."""

Task = tuple[Any, ...]
"""A pending piece of work of the current player: ``(kind, args...)``; the last one is on top."""


class Board(NamedTuple):
    """One player's sheets: the garden (side A) and the Fill sheet (side B).

    Kept small for speed: cells are notation codes, bricks and butterflies are
    bit masks (bit ``i`` = ``EDGES[i]``; bit ``p`` = plot ``p``).
    """

    cells: tuple[str, ...]
    bricks: int
    butterflies: int
    ladders: tuple[int, ...]
    """Bubbles filled on each critter ladder (edition order)."""
    tracks: tuple[int, ...]
    """Bubbles filled on each flower track (red, blue, yellow, purple)."""
    rondel: int
    caterpillars: int
    critters: tuple[tuple[str, int], ...]
    """Every critter gained, with the plot it was drawn in, or -1 when it was lost."""

    def garden(self, meta: dict[str, str] | None = None) -> Garden:
        """The garden side as a :class:`~papillon.garden.Garden`."""
        cells = tuple(Cell.parse(code) for code in self.cells)
        bricks = frozenset(EDGES[i] for i in range(len(EDGES)) if self.bricks >> i & 1)
        butterflies = frozenset(p for p in PLOTS if self.butterflies >> p & 1)
        return Garden(cells, bricks, butterflies, tuple((meta or {}).items()))


@dataclass(frozen=True, eq=False)
class Game:
    """What does not change during a game: the edition and the players' names."""

    edition: Edition
    players: tuple[str, ...]
    tables: Tables


@dataclass(frozen=True, slots=True)
class GameState:
    """A moment of a game.  Build the first one with :func:`new_game`.

    ``stage`` is ``"deal"`` and ``"roll"`` (chance nodes), ``"start"`` (each
    player fills their first butterfly), ``"bonus"`` (the round bonus),
    ``"turn"`` (a player takes and resolves a pair) or ``"over"``.
    """

    game: Game
    stage: str
    round: int
    current: int
    boards: tuple[Board, ...]
    display: tuple[str, ...] = ()
    decks: tuple[tuple[int, ...], ...] = ()
    roll: tuple[int, ...] = ()
    pair: int = -1
    parts: tuple[str, ...] = ()
    tasks: tuple[Task, ...] = ()
    _legal: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    # -- the OpenSpiel surface ----------------------------------------------------

    def is_over(self) -> bool:
        return self.stage == "over"

    def is_chance(self) -> bool:
        """Whether the next action is chance (a deal or a roll), not a player's decision."""
        return self.stage in ("deal", "roll")

    @property
    def edition(self) -> Edition:
        return self.game.edition

    @property
    def player(self) -> int:
        """The player who decides next (-1 at chance nodes and at the end)."""
        return -1 if self.stage in ("deal", "roll", "over") else self.current

    def legal_actions(self) -> tuple[str, ...]:
        """The decisions the current player may take (empty at chance nodes and at the end)."""
        legal = self._legal
        if legal is None:
            legal = _legal_actions(self)
            object.__setattr__(self, "_legal", legal)
        return legal

    def apply(self, action: str) -> GameState:
        """The state after ``action``; raises IllegalActionError (state unchanged) if not allowed."""
        if self.is_chance():
            if not isinstance(action, str):
                raise IllegalActionError(f"a chance outcome is a string like 'roll 1 2 3', got {action!r}")
            return _settle(_apply_chance(self, action))
        if action not in self.legal_actions():
            raise IllegalActionError(_why_illegal(self, action))
        return _settle(_apply(self, action))

    def sample_chance(self, rng: random.Random) -> str:
        """A chance outcome drawn from ``rng`` (only at a chance node)."""
        if self.stage == "deal":
            return _sample_deal(self.game, rng)
        if self.stage == "roll":
            faces = len(self.edition.die_faces)
            return "roll " + " ".join(str(rng.randrange(faces) + 1) for _ in range(self.edition.dice))
        raise IllegalActionError(f"no chance event now: {self.prompt()}")

    def score(self, player: int = 0) -> int:
        """The end-game score of ``player``'s garden now (the scorer's total)."""
        return self.score_card(player).total

    def score_card(self, player: int = 0) -> ScoreCard:
        return score(self.boards[player].garden(), self.edition)

    def garden(self, player: int = 0) -> Garden:
        """A player's garden, with their name as metadata."""
        return self.boards[player].garden({"player": self.game.players[player]})

    # -- what a person sees -------------------------------------------------------

    def cards(self) -> tuple[Card, ...]:
        """The cards on offer this round, one per deck (empty before the first reveal)."""
        if self.round < 1 or not self.decks:
            return ()
        return tuple(self.edition.cards[deck[self.round - 1]] for deck in self.decks)

    def dice(self) -> tuple[DieFace, ...]:
        return tuple(self.edition.die_faces[face] for face in self.roll)

    def prompt(self) -> str:
        """What the game waits for, in one sentence."""
        return _prompt(self)

    def describe(self, action: str) -> str:
        """What ``action`` does, for a person's ``?`` help."""
        return _describe(self, action)


_STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name != "_legal")
_new_state = object.__new__
_set = object.__setattr__


def _evolve(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes`` (dataclasses.replace is several times slower)."""
    new = _new_state(GameState)
    get = changes.get
    _set(new, "game", state.game)
    _set(new, "stage", get("stage", state.stage))
    _set(new, "round", get("round", state.round))
    _set(new, "current", get("current", state.current))
    _set(new, "boards", get("boards", state.boards))
    _set(new, "display", get("display", state.display))
    _set(new, "decks", get("decks", state.decks))
    _set(new, "roll", get("roll", state.roll))
    _set(new, "pair", get("pair", state.pair))
    _set(new, "parts", get("parts", state.parts))
    _set(new, "tasks", get("tasks", state.tasks))
    _set(new, "_legal", None)
    return new


assert _STATE_FIELDS == ("game", "stage", "round", "current", "boards", "display", "decks", "roll", "pair", "parts", "tasks"), (
    "update _evolve"
)


# --------------------------------------------------------------------------- setup


def new_game(players: Sequence[str] = ("Player",), edition: Edition | None = None) -> GameState:
    """The state before the deal: blank sheets for 1 to 6 players."""
    edition = edition or standard_edition()
    if not 1 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, got {len(players)}")
    if edition.deck_size < edition.rules.rounds:
        raise ValueError(f"decks of {edition.deck_size} cards cannot last {edition.rules.rounds} rounds")
    tables = tables_for(edition)
    fields = set(edition.rules.starting_fields)
    board = Board(
        cells=tuple(FIELD if p in fields else EMPTY for p in PLOTS),
        bricks=0,
        butterflies=0,
        ladders=(0,) * len(tables.critters),
        tracks=(0,) * len(tables.colours),
        rondel=0,
        caterpillars=0,
        critters=(),
    )
    game = Game(edition, tuple(players), tables)
    return GameState(game, "deal", 0, 0, (board,) * len(players))


def _sample_deal(game: Game, rng: random.Random) -> str:
    edition = game.edition
    display: list[str] = []
    for kind in FEATURE_TYPES:
        tiles = [code for code, f in edition.features.items() if f.type == kind]
        wanted = edition.display[kind]
        chosen = set(tiles) if wanted == "all" else set(rng.sample(tiles, min(int(wanted), len(tiles))))
        display += [code for code in tiles if code in chosen]
    order = list(range(len(edition.cards)))
    rng.shuffle(order)
    used = order[: edition.decks * edition.deck_size]
    return f"deal {','.join(display)} {'.'.join(map(str, used))}"


def _apply_chance(state: GameState, action: str) -> GameState:
    edition = state.edition
    words = action.split()
    if state.stage == "deal":
        if len(words) != 3 or words[0] != "deal":
            raise IllegalActionError(f"expected the deal ('deal <tiles> <cards>'), got {action!r}")
        display = tuple(words[1].split(","))
        for kind in FEATURE_TYPES:
            tiles = [code for code, f in edition.features.items() if f.type == kind]
            shown = [code for code in display if code in tiles]
            wanted = edition.display[kind]
            count = len(tiles) if wanted == "all" else min(int(wanted), len(tiles))
            if len(shown) != count:
                raise IllegalActionError(f"deal: the display shows {count} tiles of type {kind}, got {len(shown)}")
        if len(set(display)) != len(display) or any(code not in edition.features for code in display):
            raise IllegalActionError(f"deal: {words[1]!r} is not a display of {edition.name} feature tiles")
        try:
            cards = [int(c) for c in words[2].split(".")]
        except ValueError:
            raise IllegalActionError(f"deal: {words[2]!r} is not a list of card numbers") from None
        size = edition.deck_size
        if len(cards) != edition.decks * size or len(set(cards)) != len(cards) or not all(0 <= c < len(edition.cards) for c in cards):
            raise IllegalActionError(f"deal: expected {edition.decks * size} different card numbers from 0 to {len(edition.cards) - 1}")
        decks = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(edition.decks))
        return _evolve(state, stage="start", current=0, display=display, decks=decks)
    faces = len(edition.die_faces)
    if len(words) != edition.dice + 1 or words[0] != "roll" or not all(w.isdecimal() and 1 <= int(w) <= faces for w in words[1:]):
        expected = f"'roll' and {edition.dice} faces from 1 to {faces}"
        raise IllegalActionError(f"expected the roll of {edition.dice} dice ({expected}), got {action!r}")
    roll = tuple(int(w) - 1 for w in words[1:])
    return _evolve(state, stage="turn", current=0, roll=roll, pair=-1, parts=_parts(state))


def _parts(state: GameState) -> tuple[str, ...]:
    return PARTS


def _begin_round(state: GameState, number: int) -> GameState:
    rules = state.edition.rules
    if number > rules.rounds:
        return _evolve(state, stage="over", round=rules.rounds, current=0, pair=-1, parts=(), tasks=())
    if number in rules.bonus_rounds:
        return _evolve(state, stage="bonus", round=number, current=0, pair=-1, parts=(), tasks=(("bonus",),), roll=())
    return _evolve(state, stage="roll", round=number, current=0, pair=-1, parts=(), tasks=(), roll=())


# --------------------------------------------------------------------------- the flow


def _settle(state: GameState) -> GameState:
    """Resolve everything that needs no decision, up to the next decision or chance node."""
    while True:
        stage = state.stage
        if stage in ("deal", "roll", "over"):
            return state
        if state.tasks:
            resolved = _auto(state)
            if resolved is None:
                return state
            state = resolved
            continue
        players = len(state.boards)
        if stage == "start":
            if state.boards[state.current].butterflies == 0:
                return state
            state = _evolve(state, current=state.current + 1) if state.current + 1 < players else _begin_round(state, 1)
            continue
        if stage == "bonus":
            if state.current + 1 < players:
                state = _evolve(state, current=state.current + 1, tasks=(("bonus",),))
            else:
                state = _evolve(state, stage="roll", current=0)
            continue
        # stage == "turn"
        if state.pair < 0:
            return state
        if len(state.parts) > 1:
            return state
        if state.parts:
            state = _start_part(state, state.parts[0])
            continue
        if state.current + 1 < players:
            state = _evolve(state, current=state.current + 1, pair=-1, parts=_parts(state))
        else:
            state = _begin_round(state, state.round + 1)


def _board(state: GameState) -> Board:
    return state.boards[state.current]


def _with_board(state: GameState, board: Board, tasks: tuple[Task, ...]) -> GameState:
    boards = list(state.boards)
    boards[state.current] = board
    return _evolve(state, boards=tuple(boards), tasks=tasks)


def _empties(cells: tuple[str, ...]) -> list[int]:
    return [p for p in PLOTS if cells[p] == EMPTY]


def _empty_fields(cells: tuple[str, ...]) -> list[int]:
    return [p for p in PLOTS if cells[p] == FIELD]


def _auto(state: GameState) -> GameState | None:
    """Resolve the top task if it offers no decision (a gain with nowhere to go is lost)."""
    task = state.tasks[-1]
    kind = task[0]
    board = _board(state)
    rest = state.tasks[:-1]
    if kind in ("stamp", "stamp_any"):
        if EMPTY in board.cells:
            return None
    elif kind in ("field", "brick"):
        count = task[1]
        assert isinstance(count, int)
        if count > 0 and (EMPTY in board.cells if kind == "field" else board.bricks != (1 << len(EDGES)) - 1):
            return None
    elif kind == "field_move":
        fields, moves = task[1], task[2]
        if moves or (fields and EMPTY in board.cells):
            return None
    elif kind in ("critter", "feature", "feature_at"):
        if FIELD in board.cells:
            return None
        if kind == "critter":
            code = task[1]
            assert isinstance(code, str)
            board = board._replace(critters=(*board.critters, (code, -1)))
            return _with_board(state, board, rest)
    elif kind in ("fill", "critter_fill"):
        if _fill_targets(state.game.tables, board, kind == "fill"):
            return None
    elif kind == "move":
        if board.butterflies:
            return None
    else:
        return None
    return _evolve(state, tasks=rest)


def _start_part(state: GameState, part: str) -> GameState:
    edition = state.edition
    parts = tuple(p for p in state.parts if p != part)
    tasks = state.tasks
    if part == "corner":
        corner = edition.cards[state.decks[state.pair][state.round - 1]].corner
        task: Task = (
            ("feature",) if corner == "feature" else ("brick", edition.rules.corner_bricks, UP_TO) if corner == "brick" else ("fill",)
        )
        return _evolve(state, parts=parts, tasks=(*tasks, task))
    if part == "centre":
        card = edition.cards[state.decks[state.pair][state.round - 1]]
        if card.centre == "stamp":
            task = ("stamp", COLOUR_CODE[card.colour or ""])
        elif card.centre == "move":
            task = ("move",)
        else:
            task = ("field_move", edition.rules.centre_fields, 1)
        return _evolve(state, parts=parts, tasks=(*tasks, task))
    # the die
    state = _evolve(state, parts=parts)
    if state.pair >= len(state.roll):
        return state
    face = edition.die_faces[state.roll[state.pair]]
    extra: tuple[Task, ...] = ()
    if face.extra == "field":
        extra = (("field", 1, EXACT),)
    elif face.extra == "fill":
        extra = (("fill",),)
    elif face.extra == "bramble":
        extra = (("bramble",),)
    if edition.play.die_order == "caterpillars_first":
        state = _evolve(state, tasks=state.tasks + extra)
        return _caterpillars(state, face.caterpillars)
    state = _caterpillars(state, face.caterpillars)
    return _evolve(state, tasks=state.tasks + extra)


def _caterpillars(state: GameState, count: int) -> GameState:
    """Advance the caterpillar track; each gnome space reached gives a gnome bonus."""
    board = _board(state)
    track = state.edition.fill.caterpillar_track
    gnomes: list[Task] = []
    position = board.caterpillars
    for _ in range(count):
        if position >= track:
            break  # a full track takes no more caterpillars
        position += 1
        if position in state.game.tables.gnome_spaces:
            gnomes.append(("gnome",))
    if position == board.caterpillars:
        return state
    return _with_board(state, board._replace(caterpillars=position), state.tasks + tuple(gnomes))


def effect_tasks(state: GameState, effects: Sequence[Effect], plot: int) -> tuple[Task, ...]:
    """The tasks of ``effects`` (a feature placed on ``plot``, or a bonus when ``plot`` is -1).

    The first effect ends on top of the stack, so it resolves first.
    """
    tasks: list[Task] = []
    for effect in effects:
        times = effect.count * (_per(state, effect.per, plot) if effect.per else 1)
        if times <= 0:
            continue
        if effect.action in ("brick", "field"):
            tasks.append((effect.action, times, EXACT))
        else:
            tasks += [(effect.action,)] * times
    return tuple(reversed(tasks))


def _per(state: GameState, per: str, plot: int) -> int:
    board = _board(state)
    cells = board.cells
    tables = state.game.tables
    if per == "rows_with_flowers":
        flowers = sum(1 << p for p in PLOTS if cells[p] in FLOWER_CODES)
        return sum(1 for mask in ROW_MASKS if flowers & mask)
    if plot < 0:
        return 0
    neighbours = tables.neighbours[plot]
    if per == "adjacent_fields":
        return sum(1 for q in neighbours if cells[q] in tables.field_codes)
    # adjacent_patches: distinct flower patches with a plot beside the tile
    patches = flower_patches(cells, board.bricks, state.edition.rules.patch_min)
    near = sum(1 << q for q in neighbours)
    return sum(1 for _, mask in patches if mask & near)


def flower_patches(cells: tuple[str, ...], bricks: int, patch_min: int) -> list[tuple[str, int]]:
    """Patches as (colour code, plot mask): same-colour contiguous flowers, never across a brick."""
    seen = 0
    patches = []
    for start in PLOTS:
        colour = cells[start]
        if colour not in FLOWER_CODES or seen >> start & 1:
            continue
        group = 1 << start
        stack = [start]
        size = 1
        while stack:
            p = stack.pop()
            for q, edge in NEIGHBOUR_EDGES[p]:
                if cells[q] == colour and not group >> q & 1 and not bricks >> edge & 1:
                    group |= 1 << q
                    size += 1
                    stack.append(q)
        seen |= group
        if size >= patch_min:
            patches.append((colour, group))
    return patches


# --------------------------------------------------------------------------- legal actions

PLOT_ACTIONS = tuple(f"plot {name}" for name in PLOT_NAMES)
FROM_ACTIONS = tuple(f"from {name}" for name in PLOT_NAMES)
TO_ACTIONS = tuple(f"to {name}" for name in PLOT_NAMES)
EDGE_ACTIONS = tuple(f"edge {name}" for name in EDGE_NAMES)
START_ACTIONS = tuple(f"start {name}" for name in PLOT_NAMES)
SKIP = "skip"


def _fill_targets(tables: Tables, board: Board, flowers: bool) -> list[str]:
    """What a "fill a space" may fill: each critter ladder, each flower track not full, else the rondel."""
    targets = [f"fill {code}" for code in tables.critters]
    if flowers:
        fill = tables.edition.fill
        height = len(fill.flower_track)
        open_tracks = [f"fill {name}" for name, filled in zip(tables.colours, board.tracks, strict=True) if filled < height]
        if open_tracks:
            targets += open_tracks
        elif board.rondel < len(fill.rondel):
            targets.append("fill rondel")
    return targets


def _legal_actions(state: GameState) -> tuple[str, ...]:
    stage = state.stage
    if stage in ("deal", "roll", "over"):
        return ()
    board = _board(state)
    cells = board.cells
    if stage == "start":
        return tuple(START_ACTIONS[p] for p in state.edition.rules.starting_fields if cells[p] in state.game.tables.field_codes)
    if not state.tasks:
        if state.pair < 0:
            return tuple(f"pair {i + 1}" for i in range(len(state.decks)))
        return tuple(f"part {part}" for part in state.parts)
    decline = state.edition.play.decline_gains
    task = state.tasks[-1]
    kind = task[0]
    skip = (SKIP,) if decline else ()
    if kind == "stamp":
        return (*(PLOT_ACTIONS[p] for p in _empties(cells)), *skip)
    if kind == "stamp_any":
        return (*(f"colour {name}" for name in state.game.tables.colours), *skip)
    if kind == "field":
        return (*(PLOT_ACTIONS[p] for p in _empties(cells)), *(skip or (SKIP,) * task[2]))
    if kind == "brick":
        bricks = board.bricks
        return (*(EDGE_ACTIONS[i] for i in range(len(EDGES)) if not bricks >> i & 1), *(skip or (SKIP,) * task[2]))
    if kind == "move":
        return (*_move_sources(state, board), *skip)
    if kind == "move_from":
        plot = task[1]
        assert isinstance(plot, int)
        return tuple(TO_ACTIONS[end] for end, _ in state.game.tables.moves[plot])
    if kind == "field_move":
        fields, moves = task[1], task[2]
        actions: list[str] = []
        if fields:
            actions += [PLOT_ACTIONS[p] for p in _empties(cells)]
        if moves:
            actions += _move_sources(state, board)
        if decline or not moves or len(actions) == 0:
            actions.append(SKIP)
        return tuple(actions)
    if kind == "fill":
        return (*_fill_targets(state.game.tables, board, True), *skip)
    if kind == "critter_fill":
        return (*_fill_targets(state.game.tables, board, False), *skip)
    if kind == "critter":
        return tuple(PLOT_ACTIONS[p] for p in _empty_fields(cells))
    if kind in ("gnome", "bonus"):
        options = state.edition.gnome if kind == "gnome" else state.edition.play.round_bonus
        return tuple(f"gnome {i + 1}" for i in range(len(options)))
    if kind == "feature":
        return (*(f"feature {code}" for code in state.display), *skip)
    if kind == "feature_at":
        return tuple(PLOT_ACTIONS[p] for p in _empty_fields(cells))
    if kind == "fill_or_move":
        return ("choose fill", "choose move", *skip)
    if kind == "bramble":
        empties = _empties(cells)
        return tuple(PLOT_ACTIONS[p] for p in (empties or PLOTS))
    raise AssertionError(f"unknown task {task!r}")


def _move_sources(state: GameState, board: Board) -> list[str]:
    moves = state.game.tables.moves
    flies = board.butterflies
    return [FROM_ACTIONS[p] for p in PLOTS if flies >> p & 1 and moves[p]]


# --------------------------------------------------------------------------- applying a decision


def _apply(state: GameState, action: str) -> GameState:
    verb, _, arg = action.partition(" ")
    board = _board(state)
    tasks = state.tasks
    if state.stage == "start":
        plot = PLOT_BY_NAME[arg]
        return _with_board(state, board._replace(butterflies=1 << plot), tasks)
    if not tasks:
        if verb == "pair":
            return _evolve(state, pair=int(arg) - 1, parts=_parts(state))
        return _start_part(state, arg)
    task = tasks[-1]
    kind = task[0]
    rest = tasks[:-1]
    if verb == SKIP:
        return _evolve(state, tasks=rest)
    if verb == "plot":
        plot = PLOT_BY_NAME[arg]
        cells = list(board.cells)
        if kind == "stamp":
            cells[plot] = str(task[1])
        elif kind in ("field", "field_move"):
            cells[plot] = FIELD
            count = task[1]
            assert isinstance(count, int)
            if kind == "field":
                rest = (*rest, ("field", count - 1, task[2])) if count > 1 else rest
            else:
                rest = (*rest, ("field_move", count - 1, task[2]))
        elif kind == "critter":
            code = str(task[1])
            cells[plot] = code
            board = board._replace(critters=(*board.critters, (code, plot)))
        elif kind == "feature_at":
            code = str(task[1])
            cells[plot] = code
            placed = _with_board(state, board._replace(cells=tuple(cells)), rest)
            effects = state.edition.features[code].on_place
            return _evolve(placed, tasks=rest + effect_tasks(placed, effects, plot)) if effects else placed
        elif kind == "bramble":
            cells[plot] = BRAMBLE
        return _with_board(state, board._replace(cells=tuple(cells)), rest)
    if verb == "edge":
        count = task[1]
        assert isinstance(count, int)
        rest = (*rest, ("brick", count - 1, task[2])) if count > 1 else rest
        return _with_board(state, board._replace(bricks=board.bricks | 1 << EDGE_BY_NAME[arg]), rest)
    if verb == "from":
        plot = PLOT_BY_NAME[arg]
        if kind == "field_move":
            rest = (*rest, ("field_move", task[1], 0))
        return _evolve(state, tasks=(*rest, ("move_from", plot)))
    if verb == "to":
        start = task[1]
        end = PLOT_BY_NAME[arg]
        mask = next(m for e, m in state.game.tables.moves[start] if e == end)
        return _with_board(state, board._replace(butterflies=board.butterflies | mask), rest)
    if verb == "fill":
        return _fill(state, board, rest, arg)
    if verb == "colour":
        return _evolve(state, tasks=(*rest, ("stamp", COLOUR_CODE[arg])))
    if verb == "gnome":
        options = state.edition.gnome if kind == "gnome" else state.edition.play.round_bonus
        chosen = _evolve(state, tasks=rest)
        return _evolve(chosen, tasks=rest + effect_tasks(chosen, (options[int(arg) - 1],), -1))
    if verb == "feature":
        return _evolve(state, tasks=(*rest, ("feature_at", arg)))
    if verb == "choose":
        return _evolve(state, tasks=(*rest, (arg,)))
    raise AssertionError(f"legal action {action!r} not handled")


def _fill(state: GameState, board: Board, rest: tuple[Task, ...], target: str) -> GameState:
    """Fill one bubble and resolve its icon."""
    tables = state.game.tables
    fill = state.edition.fill
    if target in tables.critter_codes:
        index = tables.critters.index(target)
        ladders = list(board.ladders)
        ladders[index] += 1
        if ladders[index] >= tables.ladders[index]:
            ladders[index] = 0
            rest = (*rest, ("critter", target))
        return _with_board(state, board._replace(ladders=tuple(ladders)), rest)
    if target == "rondel":
        icon = fill.rondel[board.rondel]
        board = board._replace(rondel=board.rondel + 1)
        colour = ""
    else:
        index = tables.colours.index(target)
        tracks = list(board.tracks)
        icon = fill.flower_track[tracks[index]]
        tracks[index] += 1
        board = board._replace(tracks=tuple(tracks))
        colour = COLOUR_CODE[target]
    state = _with_board(state, board, rest)
    if icon == "stamp" and colour:
        return _evolve(state, tasks=(*rest, ("stamp", colour)))
    if icon == "stamp":  # a rondel petal has no colour of its own
        return _evolve(state, tasks=(*rest, ("stamp_any",)))
    if icon == "stamp_any":
        return _evolve(state, tasks=(*rest, ("stamp_any",)))
    if icon == "gnome":
        return _evolve(state, tasks=(*rest, ("gnome",)))
    if icon == "caterpillar":
        return _caterpillars(state, 1)
    return state


# --------------------------------------------------------------------------- words for people

_TASK_PROMPTS = {
    "stamp": "stamp a {colour} flower: choose an empty plot",
    "stamp_any": "stamp a flower of any colour: choose the colour",
    "field": "add a field ({count} left): choose an empty plot",
    "brick": "place brick edging ({count} left): choose an edge",
    "move": "move a butterfly: choose the butterfly",
    "move_from": "move the butterfly from {plot}: choose where it ends (straight line)",
    "field_move": "add up to {count} field(s) and move a butterfly{moved}: choose a plot for a field or a butterfly to move",
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


def _prompt(state: GameState) -> str:
    name = state.game.players[state.current] if state.game.players else ""
    if state.stage == "deal":
        return "setup: deal the feature display and the garden decks"
    if state.stage == "roll":
        return f"round {state.round}: reveal the cards and roll the dice"
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
    if kind in ("field", "brick"):
        values["count"] = task[1]
    if kind == "field_move":
        values["count"] = task[1]
        values["moved"] = "" if task[2] else " (moved already)"
    if kind == "move_from":
        values["plot"] = PLOT_NAMES[task[1]]
    if kind == "critter":
        values["critter"] = state.edition.occupant_name(str(task[1]))
    if kind == "feature_at":
        values["feature"] = state.edition.occupant_name(str(task[1]))
    return f"{name}: {text.format(**values)}"


def effect_text(effect: Effect) -> str:
    """A gnome bonus or tile effect in words."""
    words = {
        "brick": f"place {effect.count} brick edging",
        "field": f"add {effect.count} field" + ("s" if effect.count > 1 else ""),
        "fill": "fill a space",
        "move": "move a butterfly",
        "fill_or_move": "fill a space or move a butterfly",
        "stamp_any": "stamp a flower of any colour",
        "critter_fill": "fill one critter space",
    }[effect.action]
    if effect.action not in ("brick", "field") and effect.count > 1:
        words = f"{effect.count} × {words}"
    if effect.per:
        words += " for each " + effect.per.replace("_", " ").removesuffix("s").replace("rows with flower", "row with flowers")
    return words


def card_text(card: Card) -> str:
    centres = {"stamp": f"stamp a {card.colour} flower", "move": "move a butterfly", "field_move": "add fields & move a butterfly"}
    centre = centres[card.centre]
    corner = {"feature": "add a feature", "brick": "place brick edging", "fill": "fill a space"}[card.corner]
    return f"{centre} | corner: {corner}"


def die_text(face: DieFace) -> str:
    text = f"{face.caterpillars} caterpillar" + ("s" if face.caterpillars != 1 else "")
    extra = {"field": " + add a field", "fill": " + fill a space", "bramble": " + bramble"}
    return text + extra.get(face.extra or "", "")


def _describe(state: GameState, action: str) -> str:
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
    if verb == "gnome":
        kind = state.tasks[-1][0] if state.tasks else "gnome"
        options = edition.gnome if kind == "gnome" else edition.play.round_bonus
        return effect_text(options[int(arg) - 1])
    if verb == "feature":
        feature = edition.features[arg]
        parts = [f"{feature.name} (type {feature.type})"]
        if feature.on_place:
            parts.append("when placed: " + ", then ".join(effect_text(e) for e in feature.on_place))
        if feature.score:
            s = feature.score
            parts.append(f"scores {s.points} per {s.count.replace('_', ' ')}" + (f" (max {s.max})" if s.max is not None else ""))
        return "; ".join(parts)
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
        mask = next(m for e, m in state.game.tables.moves[start] if e == PLOT_BY_NAME[arg])
        entered = " ".join(PLOT_NAMES[p] for p in PLOTS if mask >> p & 1)
        return f"move to {arg}, filling the butterfly spaces of {entered}"
    if verb == "plot":
        cell = _board(state).cells[PLOT_BY_NAME[arg]]
        return f"use plot {arg} (now {_cell_words(cell, edition)})"
    if verb == "edge":
        return f"draw a brick between {arg.replace('-', ' and ')}"
    return action


def _cell_words(code: str, edition: Edition) -> str:
    if code in FLOWER_CODES:
        return f"a {_COLOUR_NAMES[code]} flower"
    return {EMPTY: "empty", FIELD: "an empty field", BRAMBLE: "a bramble"}.get(code) or f"a field with a {edition.occupant_name(code)}"


def _why_illegal(state: GameState, action: object) -> str:
    legal = state.legal_actions()
    if not isinstance(action, str):
        return f"an action is a string like {legal[0]!r}, got {action!r}" if legal else f"no action is possible: {state.prompt()}"
    if not legal:
        return f"{action!r}: no decision is possible now ({state.prompt()})"
    verb, _, arg = action.partition(" ")
    verbs = sorted({a.split(" ")[0] for a in legal})
    head = f"{action!r} is not allowed: {state.prompt()}"
    if verb not in verbs:
        return f"{head}; expected {' or '.join(repr(v) for v in verbs)} (e.g. {legal[0]!r})"
    if verb in ("plot", "from", "to", "start"):
        if arg.upper() not in PLOT_BY_NAME:
            return f"{head}; {arg!r} is not a plot (A1 to E5)"
        if arg != arg.upper():
            return f"{head}; write the plot in capitals: {verb} {arg.upper()}"
        cell = _board(state).cells[PLOT_BY_NAME[arg]]
        allowed = ", ".join(a.split(" ")[1] for a in legal if a.startswith(verb))
        return f"{head}; {arg} is {_cell_words(cell, state.edition)}, not one of {allowed}"
    if verb == "edge":
        if arg not in EDGE_BY_NAME:
            return f"{head}; {arg!r} is not an edge between two neighbouring plots (like B1-C1)"
        return f"{head}; {arg} already has a brick" if _board(state).bricks >> EDGE_BY_NAME[arg] & 1 else head
    return f"{head}; legal now: {', '.join(legal[:12])}{' ...' if len(legal) > 12 else ''}"
