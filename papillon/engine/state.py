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

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache
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
    PLOT_BY_NAME,
    PLOT_NAMES,
    ROW_MASKS,
    Tables,
    tables_for,
)
from papillon.engine.tasks import (
    AddBrick,
    AddField,
    ChooseFeature,
    CritterFill,
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
from papillon.errors import IllegalActionError
from papillon.garden import Cell, Garden
from papillon.grid import ADJACENCIES, EDGES, PLOTS
from papillon.rules import is_field, patches
from papillon.score import ScoreCard, score
from papillon.words import plural

PARTS = ("corner", "centre", "die")


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

    ``stage`` is a :class:`~papillon.engine.tasks.Stage`: ``DEAL``, ``REVEAL`` and ``ROLL``
    (chance nodes), ``START`` (each player fills their first butterfly), ``BONUS`` (the
    round bonus), ``TURN`` (a player takes and resolves a pair) or ``OVER``.  ``tasks`` is
    the current player's pending work (:mod:`papillon.engine.tasks`), the last on top.
    """

    game: Game
    stage: Stage
    round: int
    current: int
    boards: tuple[Board, ...]
    display: tuple[str, ...] = ()
    revealed: tuple[int, ...] = ()
    """This round's cards (indices into ``edition.cards``), one per deck; empty before the reveal."""
    seen: int = 0
    """Bit mask of every card revealed so far: the past, never the future (no deck order is held)."""
    roll: tuple[int, ...] = ()
    pair: int = -1
    parts: tuple[str, ...] = ()
    tasks: tuple[Task, ...] = ()
    _legal: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    # -- the OpenSpiel surface ----------------------------------------------------

    def is_over(self) -> bool:
        return self.stage is Stage.OVER

    def is_chance(self) -> bool:
        """Whether the next action is chance (the deal, a round's cards or its roll), not a player's decision."""
        return self.stage in _CHANCE

    @property
    def edition(self) -> Edition:
        return self.game.edition

    @property
    def player(self) -> int:
        """The player who decides next (-1 at chance nodes and at the end)."""
        return -1 if self.stage in _CHANCE or self.stage is Stage.OVER else self.current

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
            from papillon.engine.text import why_illegal

            raise IllegalActionError(why_illegal(self, action))
        return _settle(_apply(self, action))

    def sample_chance(self, rng: random.Random) -> str:
        """A chance outcome drawn from ``rng`` (only at a chance node)."""
        if self.stage is Stage.DEAL:
            return _sample_deal(self.game, rng)
        if self.stage is Stage.REVEAL:
            unseen = [c for c in range(len(self.edition.cards)) if not self.seen >> c & 1]
            return "reveal " + ".".join(map(str, rng.sample(unseen, self.edition.decks)))
        if self.stage is Stage.ROLL:
            faces = len(self.edition.die_faces)
            return "roll " + " ".join(str(rng.randrange(faces) + 1) for _ in range(self.edition.dice))
        raise IllegalActionError(f"no chance event now: {self.prompt()}")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        """Every outcome of this chance node with its probability (only at a chance node).

        A roll has ``faces ** dice`` outcomes; a reveal every ordered choice of unseen cards
        (tens of thousands: iterate, do not print); the deal every display of the edition.
        """
        edition = self.edition
        if self.stage is Stage.ROLL:
            faces = range(1, len(edition.die_faces) + 1)
            rolls = list(itertools.product(faces, repeat=edition.dice))
            return tuple(("roll " + " ".join(map(str, r)), 1 / len(rolls)) for r in rolls)
        if self.stage is Stage.REVEAL:
            unseen = [c for c in range(len(edition.cards)) if not self.seen >> c & 1]
            draws = list(itertools.permutations(unseen, edition.decks))
            return tuple(("reveal " + ".".join(map(str, d)), 1 / len(draws)) for d in draws)
        if self.stage is Stage.DEAL:
            choices = [list(itertools.combinations(tiles, count)) for tiles, count in _display_choices(self.game)]
            displays = list(itertools.product(*choices))
            return tuple((_deal_text([c for part in d for c in part], edition), 1 / len(displays)) for d in displays)
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
        """The cards on offer this round, one per deck (empty before the round's reveal)."""
        return tuple(self.edition.cards[c] for c in self.revealed)

    def dice(self) -> tuple[DieFace, ...]:
        return tuple(self.edition.die_faces[face] for face in self.roll)

    def prompt(self) -> str:
        """What the game waits for, in one sentence."""
        from papillon.engine.text import prompt  # the words import the rules, not the other way round

        return prompt(self)

    def describe(self, action: str) -> str:
        """What ``action`` does, for a person's ``?`` help."""
        from papillon.engine.text import describe

        return describe(self, action)


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
    _set(new, "revealed", get("revealed", state.revealed))
    _set(new, "seen", get("seen", state.seen))
    _set(new, "roll", get("roll", state.roll))
    _set(new, "pair", get("pair", state.pair))
    _set(new, "parts", get("parts", state.parts))
    _set(new, "tasks", get("tasks", state.tasks))
    _set(new, "_legal", None)
    return new


assert _STATE_FIELDS == ("game", "stage", "round", "current", "boards", "display", "revealed", "seen", "roll", "pair", "parts", "tasks"), (
    "update _evolve"
)


# --------------------------------------------------------------------------- setup


def new_game(players: Sequence[str] = ("Player",), edition: Edition | None = None) -> GameState:
    """The state before the deal: blank sheets for 1 to 6 players."""
    edition = edition or standard_edition()
    most = edition.play.max_players
    if not 1 <= len(players) <= most:
        raise ValueError(f"a game of the {edition.name} edition has 1 to {most} players, got {len(players)}")
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
    return GameState(game, Stage.DEAL, 0, 0, (board,) * len(players))


def _display_choices(game: Game) -> list[tuple[list[str], int]]:
    """For each tile type: the tiles that may be on display and how many are shown."""
    edition = game.edition
    choices = []
    for kind in FEATURE_TYPES:
        tiles = [code for code, f in edition.features.items() if f.type == kind and code not in edition.display_exclude]
        wanted = edition.display[kind]
        choices.append((tiles, len(tiles) if wanted == "all" else min(int(wanted), len(tiles))))
    return choices


NO_TILES = "-"
"""The deal's display when no tile is on show."""


def _deal_text(display: Sequence[str], edition: Edition) -> str:
    order = {code: i for i, code in enumerate(edition.features)}
    return "deal " + (",".join(sorted(display, key=order.__getitem__)) or NO_TILES)


def _sample_deal(game: Game, rng: random.Random) -> str:
    display: list[str] = []
    for tiles, count in _display_choices(game):
        display += rng.sample(tiles, count)
    return _deal_text(display, game.edition)


def _apply_chance(state: GameState, action: str) -> GameState:
    edition = state.edition
    words = action.split()
    if state.stage is Stage.DEAL:
        if len(words) != 2 or words[0] != "deal":
            raise IllegalActionError(f"expected the deal ('deal <tiles>', like 'deal po,sh,bf'), got {action!r}")
        display = () if words[1] == NO_TILES else tuple(words[1].split(","))
        if len(set(display)) != len(display) or any(code not in edition.features or code in edition.display_exclude for code in display):
            raise IllegalActionError(f"deal: {words[1]!r} is not a display of {edition.name} feature tiles")
        for (tiles, count), kind in zip(_display_choices(state.game), FEATURE_TYPES, strict=True):
            shown = [code for code in display if code in tiles]
            if len(shown) != count:
                raise IllegalActionError(f"deal: the display shows {plural(count, 'tile')} of type {kind}, got {len(shown)}")
        return _evolve(state, stage=Stage.START, current=0, display=display)
    if state.stage is Stage.REVEAL:
        cards = words[1].split(".") if len(words) == 2 and words[0] == "reveal" else []
        picked = [int(c) for c in cards if c.isascii() and c.isdigit() and len(c) < 4]
        count = len(edition.cards)
        if (
            len(picked) != edition.decks
            or len(picked) != len(cards)
            or len(set(picked)) != len(picked)
            or not all(0 <= c < count and not state.seen >> c & 1 for c in picked)
        ):
            raise IllegalActionError(
                f"expected this round's cards ('reveal' and {plural(edition.decks, 'card number')} joined by '.',"
                f" different, from 0 to {count - 1}, none revealed before), got {_short(action)}"
            )
        seen = state.seen
        for c in picked:
            seen |= 1 << c
        return _evolve(state, stage=Stage.ROLL, revealed=tuple(picked), seen=seen)
    faces = len(edition.die_faces)
    if (
        len(words) != edition.dice + 1
        or words[0] != "roll"
        or not all(w.isascii() and w.isdigit() and 1 <= int(w) <= faces for w in words[1:])
    ):
        expected = f"'roll' and {plural(edition.dice, 'face')} from 1 to {faces}"
        raise IllegalActionError(f"expected the roll of {plural(edition.dice, 'die', 'dice')} ({expected}), got {_short(action)}")
    roll = tuple(int(w) - 1 for w in words[1:])
    return _evolve(state, stage=Stage.TURN, current=0, roll=roll, pair=-1, parts=_parts(state))


def _parts(state: GameState) -> tuple[str, ...]:
    return PARTS


def _short(text: str) -> str:
    """A quote of an input, cut at 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _begin_round(state: GameState, number: int) -> GameState:
    rules = state.edition.rules
    if number > rules.rounds:
        return _evolve(state, stage=Stage.OVER, round=rules.rounds, current=0, pair=-1, parts=(), tasks=())
    if number in rules.bonus_rounds:
        return _evolve(state, stage=Stage.BONUS, round=number, current=0, pair=-1, parts=(), tasks=(ROUND_BONUS,), roll=(), revealed=())
    return _evolve(state, stage=Stage.REVEAL, round=number, current=0, pair=-1, parts=(), tasks=(), roll=(), revealed=())


ROUND_BONUS = GnomeBonus(round_bonus=True)
_CHANCE = (Stage.DEAL, Stage.REVEAL, Stage.ROLL)
"""The chance stages, as a tuple: membership by identity (an enum member's hash is a Python call)."""


# --------------------------------------------------------------------------- the flow


def _settle(state: GameState) -> GameState:
    """Resolve everything that needs no decision, up to the next decision or chance node."""
    while True:
        stage = state.stage
        if stage in _CHANCE or stage is Stage.OVER:
            return state
        if state.tasks:
            resolved = _auto(state)
            if resolved is None:
                return state
            state = resolved
            continue
        players = len(state.boards)
        if stage is Stage.START:
            if state.boards[state.current].butterflies == 0:
                return state
            state = _evolve(state, current=state.current + 1) if state.current + 1 < players else _begin_round(state, 1)
            continue
        if stage is Stage.BONUS:
            if state.current + 1 < players:
                state = _evolve(state, current=state.current + 1, tasks=(ROUND_BONUS,))
            else:
                state = _evolve(state, stage=Stage.REVEAL, current=0)
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
    """Resolve the top task if it offers no decision (a gain with nowhere to go is lost, RULES §6.9)."""
    task = state.tasks[-1]
    if type(task) in _ALWAYS_A_CHOICE:
        return None
    board = _board(state)
    rest = state.tasks[:-1]
    match task:
        case Stamp() | StampAny():
            possible = EMPTY in board.cells
        case AddField(count=count):
            possible = count > 0 and EMPTY in board.cells
        case AddBrick(count=count):
            possible = count > 0 and board.bricks != ALL_EDGES
        case FieldAndMove(fields=fields, moves=moves):
            possible = bool(moves and _can_move(state, board)) or bool(fields and EMPTY in board.cells)
        case ChooseFeature():
            possible = FIELD in board.cells and bool(state.display)
        case PlaceFeature():
            possible = FIELD in board.cells
        case PlaceCritter(code=code):
            if FIELD in board.cells:
                return None
            board = board._replace(critters=(*board.critters, (code, -1)))
            return _with_board(state, board, rest)
        case Fill() | CritterFill():
            possible = bool(_fill_targets(state.game.tables, board, isinstance(task, Fill)))
        case Move():
            possible = _can_move(state, board)
        case GnomeBonus():
            options = state.edition.play.round_bonus if task.round_bonus else state.edition.gnome
            possible = any(_can_do(state, board, o) for o in options)
        case _:
            possible = True
    return None if possible else _evolve(state, tasks=rest)


ALL_EDGES = (1 << len(EDGES)) - 1
_ALWAYS_A_CHOICE = (PlaceBramble, MoveFrom, FillOrMove)
"""Tasks that always offer a decision: a bramble always has a plot, a chosen butterfly a path, a Foot Path row a choice."""


def _start_part(state: GameState, part: str) -> GameState:
    edition = state.edition
    parts = tuple(p for p in state.parts if p != part)
    tasks = state.tasks
    if part == "corner":
        corner = edition.cards[state.revealed[state.pair]].corner
        task: Task = (
            ChooseFeature() if corner == "feature" else AddBrick(edition.rules.corner_bricks, True) if corner == "brick" else Fill()
        )
        return _evolve(state, parts=parts, tasks=(*tasks, task))
    if part == "centre":
        card = edition.cards[state.revealed[state.pair]]
        if card.centre == "stamp":
            task = Stamp(COLOUR_CODE[card.colour or ""])
        elif card.centre == "move":
            task = Move()
        else:
            task = FieldAndMove(edition.rules.centre_fields, 1)
        return _evolve(state, parts=parts, tasks=(*tasks, task))
    # the die
    state = _evolve(state, parts=parts)
    if state.pair >= len(state.roll):
        return state
    face = edition.die_faces[state.roll[state.pair]]
    extra: tuple[Task, ...] = ()
    if face.extra == "field":
        extra = (AddField(1, False),)
    elif face.extra == "fill":
        extra = (Fill(),)
    elif face.extra == "bramble":
        extra = (PlaceBramble(),)
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
            gnomes.append(GnomeBonus())
    if position == board.caterpillars:
        return state
    return _with_board(state, board._replace(caterpillars=position), state.tasks + tuple(gnomes))


def effect_tasks(state: GameState, effects: Sequence[Effect], plot: int, code: str = "") -> tuple[Task, ...]:
    """The tasks of ``effects`` (the feature ``code`` placed on ``plot``, or a bonus when ``plot`` is -1).

    The first effect ends on top of the stack, so it resolves first.
    """
    tasks: list[Task] = []
    for effect in effects:
        times = effect.count * (_per(state, effect.per, plot, code) if effect.per else 1)
        if times <= 0:
            continue
        if effect.action == "brick":
            tasks.append(AddBrick(times, False))
        elif effect.action == "field":
            tasks.append(AddField(times, False))
        else:
            tasks += [_EFFECT_TASKS[effect.action]] * times
    return tuple(reversed(tasks))


_EFFECT_TASKS: dict[str, Task] = {
    "fill": Fill(),
    "move": Move(),
    "fill_or_move": FillOrMove(),
    "stamp_any": StampAny(),
    "critter_fill": CritterFill(),
}
"""The task of each effect action that takes no count (``brick`` and ``field`` do)."""


def _per(state: GameState, per: str, plot: int, code: str) -> int:
    board = _board(state)
    cells = board.cells
    if per == "rows_with_flowers":
        flowers = sum(1 << p for p in PLOTS if cells[p] in FLOWER_CODES)
        return sum(1 for mask in ROW_MASKS if flowers & mask)
    if plot < 0:
        return 0
    neighbours = ADJACENCIES[state.edition.adjacency_of(code)][plot]
    if per == "adjacent_fields":
        return sum(1 for q in neighbours if is_field(cells[q]))
    # adjacent_patches: distinct flower patches with a plot among the tile's neighbours
    found = patches(cells, board.bricks, state.edition.rules.patch_min)
    near = sum(1 << q for q in neighbours)
    return sum(1 for _, mask in found if mask & near)


# --------------------------------------------------------------------------- legal actions

PLOT_ACTIONS = tuple(f"plot {name}" for name in PLOT_NAMES)
FROM_ACTIONS = tuple(f"from {name}" for name in PLOT_NAMES)
TO_ACTIONS = tuple(f"to {name}" for name in PLOT_NAMES)
EDGE_ACTIONS = tuple(f"edge {name}" for name in EDGE_NAMES)
START_ACTIONS = tuple(f"start {name}" for name in PLOT_NAMES)
SKIP = "skip"


def _fill_targets(tables: Tables, board: Board, flowers: bool) -> list[str]:
    """What a "fill a space" may fill: each critter ladder not full, each flower track not full, the rondel when open."""
    fill = tables.edition.fill
    if fill.ladders_repeat:
        targets = [f"fill {code}" for code in tables.critters]
    else:
        targets = [
            f"fill {code}" for code, filled, height in zip(tables.critters, board.ladders, tables.ladders, strict=True) if filled < height
        ]
    if flowers:
        height = len(fill.flower_track)
        open_tracks = [f"fill {name}" for name, filled in zip(tables.colours, board.tracks, strict=True) if filled < height]
        targets += open_tracks
        after = fill.rondel_after
        rondel_open = after == "always" or (not open_tracks if after == "all_tracks" else len(open_tracks) < len(tables.colours))
        if rondel_open and board.rondel < len(fill.rondel):
            targets.append("fill rondel")
    return targets


def _legal_actions(state: GameState) -> tuple[str, ...]:
    stage = state.stage
    if stage in _CHANCE or stage is Stage.OVER:
        return ()
    board = _board(state)
    cells = board.cells
    if stage is Stage.START:
        return tuple(START_ACTIONS[p] for p in state.edition.rules.starting_fields if cells[p] in state.game.tables.field_codes)
    if not state.tasks:
        if state.pair < 0:
            return _pairs(state, board)
        return tuple(f"part {part}" for part in state.parts)
    decline = state.edition.play.decline_gains
    task = state.tasks[-1]
    skip = (SKIP,) if decline else ()
    match task:
        case Stamp():
            return (*(PLOT_ACTIONS[p] for p in _empties(cells)), *skip)
        case StampAny():
            return (*(f"colour {name}" for name in state.game.tables.colours), *skip)
        case AddField(up_to=up_to):
            return (*(PLOT_ACTIONS[p] for p in _empties(cells)), *(skip or (SKIP,) * up_to))
        case AddBrick(up_to=up_to):
            bricks = board.bricks
            return (*(EDGE_ACTIONS[i] for i in range(len(EDGES)) if not bricks >> i & 1), *(skip or (SKIP,) * up_to))
        case Move():
            return (*_move_sources(state, board), *skip)
        case MoveFrom(plot=plot):
            return tuple(TO_ACTIONS[end] for end, _ in _moves(state, board, plot))
        case FieldAndMove(fields=fields, moves=moves):
            actions: list[str] = []
            if fields:
                actions += [PLOT_ACTIONS[p] for p in _empties(cells)]
            if moves:
                actions += _move_sources(state, board)
            if decline or not moves or len(actions) == 0:
                actions.append(SKIP)
            return tuple(actions)
        case Fill():
            return (*_fill_targets(state.game.tables, board, True), *skip)
        case CritterFill():
            return (*_fill_targets(state.game.tables, board, False), *skip)
        case PlaceCritter() | PlaceFeature():
            return tuple(PLOT_ACTIONS[p] for p in _empty_fields(cells))
        case GnomeBonus():
            return tuple(GNOME_VERB + " " + slug for slug, _ in _gnome_options(state, board, task))
        case ChooseFeature():
            return (*(f"feature {code}" for code in state.display), *skip)
        case FillOrMove():
            return ("choose fill", "choose move", *skip)
        case PlaceBramble():
            return tuple(PLOT_ACTIONS[p] for p in _bramble_plots(state, cells))
    raise AssertionError(f"unknown task {task!r}")


def _can_move(state: GameState, board: Board) -> bool:
    """Whether some butterfly can move (with ``"steps"`` every butterfly can: the garden is 5 plots wide)."""
    if state.edition.rules.butterfly_counts == "steps":
        return board.butterflies != 0
    return bool(_move_sources(state, board))


def _move_sources(state: GameState, board: Board) -> list[str]:
    flies = board.butterflies
    return [FROM_ACTIONS[p] for p in PLOTS if flies >> p & 1 and _moves(state, board, p)]


def _moves(state: GameState, board: Board, start: int) -> tuple[tuple[int, int], ...]:
    """(end plot, mask of plots entered) of each movement of the butterfly on ``start`` (RULES §6.6)."""
    tables = state.game.tables
    if state.edition.rules.butterfly_counts == "steps":
        return tables.moves[start]
    # "new": filled spaces are passed over freely; the line stops after 1 to `butterfly_steps` newly filled ones.
    flies = board.butterflies
    steps = state.edition.rules.butterfly_steps
    found = []
    for line in tables.rays[start]:
        mask = new = 0
        for q in line:
            mask |= 1 << q
            if not flies >> q & 1:
                new += 1
                if new > steps:
                    break
                found.append((q, mask))
    return tuple(found)


def _bramble_plots(state: GameState, cells: tuple[str, ...]) -> list[int]:
    """Where a bramble may go (RULES §6.8): an empty plot; else any plot but a bramble; else a bramble."""
    empties = _empties(cells)
    if empties:
        return empties
    if not state.edition.rules.bramble_on_bramble:
        others = [p for p in PLOTS if cells[p] != BRAMBLE]
        if others:
            return others
    return list(PLOTS)


def _pairs(state: GameState, board: Board) -> tuple[str, ...]:
    """The pairs on offer; with ``feature_without_field = "not_offered"`` a feature corner that has
    nowhere to go is not offered (unless every pair has one)."""
    pairs = tuple(f"pair {i + 1}" for i in range(len(state.revealed)))
    edition = state.edition
    if edition.play.feature_without_field == "lost" or (FIELD in board.cells and state.display):
        return pairs
    usable = tuple(a for a, c in zip(pairs, state.revealed, strict=True) if edition.cards[c].corner != "feature")
    return usable or pairs


GNOME_VERB = "gnome"


@cache
def gnome_slugs(options: tuple[Effect, ...]) -> tuple[str, ...]:
    """The word naming each gnome option in its action (``gnome stamp``): its action, made unique."""
    words = [_GNOME_WORDS.get(o.action, o.action) for o in options]
    slugs = []
    for i, (word, option) in enumerate(zip(words, options, strict=True)):
        if words.count(word) > 1:
            word = (
                f"{word}-{option.count}"
                if sum(1 for w, o in zip(words, options, strict=True) if w == word and o.count == option.count) == 1
                else f"{word}-{i + 1}"
            )
        slugs.append(word)
    return tuple(slugs)


_GNOME_WORDS = {
    "stamp_any": "stamp",
    "move": "move",
    "field": "field",
    "brick": "bricks",
    "critter_fill": "critter",
    "fill": "fill",
    "fill_or_move": "fill-or-move",
}


def _gnome_options(state: GameState, board: Board, task: GnomeBonus) -> list[tuple[str, Effect]]:
    """The gnome options that can be carried out now, with their action words (RULES §6.9)."""
    options = state.edition.play.round_bonus if task.round_bonus else state.edition.gnome
    return [(slug, o) for slug, o in zip(gnome_slugs(options), options, strict=True) if _can_do(state, board, o)]


def _can_do(state: GameState, board: Board, effect: Effect) -> bool:
    action = effect.action
    if action in ("stamp_any", "field"):
        return EMPTY in board.cells
    if action == "brick":
        return board.bricks != (1 << len(EDGES)) - 1
    if action in ("fill", "critter_fill"):
        return bool(_fill_targets(state.game.tables, board, action == "fill"))
    if action == "move":
        return _can_move(state, board)
    return True  # fill_or_move: a butterfly can always move, or a space be filled


# --------------------------------------------------------------------------- applying a decision


def _apply(state: GameState, action: str) -> GameState:
    verb, _, arg = action.partition(" ")
    board = _board(state)
    tasks = state.tasks
    if state.stage is Stage.START:
        plot = PLOT_BY_NAME[arg]
        return _with_board(state, board._replace(butterflies=1 << plot), tasks)
    if not tasks:
        if verb == "pair":
            return _evolve(state, pair=int(arg) - 1, parts=_parts(state))
        return _start_part(state, arg)
    task = tasks[-1]
    rest = tasks[:-1]
    if verb == SKIP:
        return _evolve(state, tasks=rest)
    if verb == "plot":
        plot = PLOT_BY_NAME[arg]
        cells = list(board.cells)
        match task:
            case Stamp(colour=colour):
                cells[plot] = colour
            case AddField(count=count, up_to=up_to):
                cells[plot] = FIELD
                rest = (*rest, AddField(count - 1, up_to)) if count > 1 else rest
            case FieldAndMove(fields=fields, moves=moves):
                cells[plot] = FIELD
                rest = (*rest, FieldAndMove(fields - 1, moves))
            case PlaceCritter(code=code):
                cells[plot] = code
                board = board._replace(critters=(*board.critters, (code, plot)))
            case PlaceFeature(code=code):
                cells[plot] = code
                placed = _with_board(state, board._replace(cells=tuple(cells)), rest)
                effects = state.edition.features[code].on_place
                return _evolve(placed, tasks=rest + effect_tasks(placed, effects, plot, code)) if effects else placed
            case PlaceBramble():
                cells[plot] = BRAMBLE
        return _with_board(state, board._replace(cells=tuple(cells)), rest)
    if verb == "edge":
        assert isinstance(task, AddBrick)
        rest = (*rest, AddBrick(task.count - 1, task.up_to)) if task.count > 1 else rest
        return _with_board(state, board._replace(bricks=board.bricks | 1 << EDGE_BY_NAME[arg]), rest)
    if verb == "from":
        plot = PLOT_BY_NAME[arg]
        if isinstance(task, FieldAndMove):
            rest = (*rest, FieldAndMove(task.fields, 0))
        return _evolve(state, tasks=(*rest, MoveFrom(plot)))
    if verb == "to":
        assert isinstance(task, MoveFrom)
        end = PLOT_BY_NAME[arg]
        mask = next(m for e, m in _moves(state, board, task.plot) if e == end)
        return _with_board(state, board._replace(butterflies=board.butterflies | mask), rest)
    if verb == "fill":
        return _fill(state, board, rest, arg)
    if verb == "colour":
        return _evolve(state, tasks=(*rest, Stamp(COLOUR_CODE[arg])))
    if verb == GNOME_VERB:
        assert isinstance(task, GnomeBonus)
        effect = dict(_gnome_options(state, board, task))[arg]
        chosen = _evolve(state, tasks=rest)
        return _evolve(chosen, tasks=rest + effect_tasks(chosen, (effect,), -1))
    if verb == "feature":
        return _evolve(state, tasks=(*rest, PlaceFeature(arg)))
    if verb == "choose":
        return _evolve(state, tasks=(*rest, Fill() if arg == "fill" else Move()))
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
            if state.edition.fill.ladders_repeat:
                ladders[index] = 0
            rest = (*rest, PlaceCritter(target))
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
        return _evolve(state, tasks=(*rest, Stamp(colour)))
    if icon in ("stamp", "stamp_any"):  # a rondel petal has no colour of its own
        return _evolve(state, tasks=(*rest, StampAny()))
    if icon == "gnome":
        return _evolve(state, tasks=(*rest, GnomeBonus()))
    if icon == "caterpillar":
        return _caterpillars(state, 1)
    return state


def __getattr__(name: str) -> Any:
    # card_text, die_text and effect_text moved to papillon.engine.text; old imports keep working.
    if name in ("card_text", "die_text", "effect_text"):
        from papillon.engine import text

        return getattr(text, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
