"""The round engine: a game of Papillon Gardens as immutable states and small decisions.

The shape is OpenSpiel's: a :class:`GameState` offers :meth:`~GameState.legal_actions`
and :meth:`~GameState.apply` (which returns a new state and never changes the
old one), :meth:`~GameState.is_over` and :meth:`~GameState.score`.  Chance
(the deal at setup and each round's roll) is an explicit node: the state holds
no generator; a driver asks :meth:`~GameState.sample_chance` with its own
seeded :class:`random.Random` and applies the outcome like any action, so a
log of actions replays the game exactly.

Every decision is an :class:`~papillon.engine.actions.Action`, a small value whose
text (``"pair 2"``, ``"plot C3"``, ``"edge B1-C1"``, ``"to C1"``) is what a log
records, so a log is readable and a person or a bot picks among a finite list.
docs/ENGINE.md lists them and every rule reading.

The players act at the same time, as in the book: :meth:`GameState.acting_players`
are the seats that may decide now, and :meth:`~GameState.legal_actions` and
:meth:`~GameState.apply` take any of them (the lowest when no seat is named).
One seat's turn is "loaded" in ``current``/``pair``/``parts``/``tasks``; the
others wait in ``turns``, so a sequential game costs nothing more.

>>> import random
>>> state = new_game(players=("Ann",))
>>> state = state.apply(state.sample_chance(random.Random(1)))
>>> [str(a) for a in state.legal_actions()]
['start B4', 'start D2']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import FrozenInstanceError, dataclass
from functools import cache, lru_cache
from itertools import compress, repeat
from operator import attrgetter, is_
from typing import Any, NamedTuple

from papillon.edition import FEATURE_TYPES, Card, DieFace, Edition, Effect, standard_edition
from papillon.engine.actions import (
    EDGE_ACTIONS,
    FROM_ACTIONS,
    PLOT_ACTIONS,
    RONDEL,
    SKIP,
    START_ACTIONS,
    TO_ACTIONS,
    Action,
    Kind,
    Part,
    as_action,
    colour_action,
    feature_action,
    fill_action,
    option_action,
    pair_action,
    part_action,
)
from papillon.engine.tables import (
    BRAMBLE,
    COLOUR_CODE,
    EMPTY,
    FIELD,
    FLOWER_CODES,
    ROW_MASKS,
    Tables,
    tables_for,
)
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
from papillon.errors import IllegalActionError, quote
from papillon.garden import Cell, Garden
from papillon.grid import ADJACENCIES, EDGES, PLOTS, mask_plots
from papillon.rules import is_field, patches, total
from papillon.score import ScoreCard, score
from papillon.words import noun, plural

PARTS = (Part.CORNER, Part.CENTRE, Part.DIE)

# Enum members read as module constants: ``Stage.OVER`` is a Python-level class lookup in 3.11 (about
# 0.15 µs, ten times a global's), and the engine's hot paths compare stages and kinds at every step.
S_BONUS = Stage.BONUS
S_DEAL = Stage.DEAL
S_OVER = Stage.OVER
S_REVEAL = Stage.REVEAL
S_ROLL = Stage.ROLL
S_START = Stage.START
S_TURN = Stage.TURN
K_CHOOSE = Kind.CHOOSE
K_COLOUR = Kind.COLOUR
K_EDGE = Kind.EDGE
K_FEATURE = Kind.FEATURE
K_FILL = Kind.FILL
K_FIRST = Kind.FIRST
K_FROM = Kind.FROM
K_GNOME = Kind.GNOME
K_PAIR = Kind.PAIR
K_PLOT = Kind.PLOT
K_SKIP = Kind.SKIP
K_TO = Kind.TO


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
        cells = tuple(map(Cell.parse, self.cells))  # memoised by code
        # The masks' bits read from their binary text, lowest first: a pass in C over every edge and plot.
        bricks = frozenset(compress(EDGES, _bits(self.bricks, _EDGE_DIGITS)))
        butterflies = frozenset(compress(PLOTS, _bits(self.butterflies, _PLOT_DIGITS)))
        return Garden(cells, bricks, butterflies, tuple((meta or {}).items()))


def _bits(mask: int, digits: str, table: bytes = bytes.maketrans(b"01", b"\x00\x01")) -> bytes:
    """Bit ``i`` of ``mask`` as byte ``i`` (0 or 1), for ``digits`` bits (a ``format`` spec, ``"040b"``): its binary
    text reversed and translated, all in C (a Python loop over the bits costs more)."""
    return format(mask, digits)[::-1].encode().translate(table)


_CLEAR = bytes.maketrans(b"01", b"\x01\x00")
"""``_bits``' table for the clear bits."""


def _unseen_cards(seen: int, count: int) -> list[int]:
    """The cards (of ``count``) not yet revealed: the clear bits of the ``seen`` mask, lowest first."""
    return list(compress(range(count), _bits(seen, f"0{count}b", _CLEAR)))


_EDGE_DIGITS = f"0{len(EDGES)}b"
_PLOT_DIGITS = f"0{len(PLOTS)}b"

CELLS, BRICKS, BUTTERFLIES, LADDERS, TRACKS, RONDEL_FIELD, CATERPILLARS, CRITTERS = range(len(Board._fields))
assert Board._fields[CRITTERS] == "critters" and Board._fields[RONDEL_FIELD] == "rondel", "update the field numbers"
_new_tuple = tuple.__new__


def _board_with(board: Board, index: int, value: Any) -> Board:
    """``board`` with field number ``index`` set to ``value`` (``Board._replace`` costs several times more)."""
    return _new_tuple(Board, (*board[:index], value, *board[index + 1 :]))


class Turn(NamedTuple):
    """A seat's progress this round while another seat's turn is loaded in the state."""

    pair: int
    parts: tuple[Part, ...]
    tasks: tuple[Task, ...]


@dataclass(frozen=True, eq=False)
class Game:
    """What does not change during a game: the edition and the players' names."""

    edition: Edition
    players: tuple[str, ...]
    tables: Tables


class _Slots:
    """A :class:`GameState`'s slots, written by this plain class's constructor: its attribute stores are the
    interpreter's fastest (a frozen class's go through ``object.__setattr__``, several times slower), and a
    state is made at nearly every step.  The new object then becomes a :class:`GameState`, which refuses
    every assignment (:func:`_state`)."""

    __slots__ = (  # noqa: RUF023 -- in the fields' order: _STATE_FIELDS, __eq__ and __hash__ read them so
        "game",
        "stage",
        "round",
        "current",
        "boards",
        "display",
        "revealed",
        "seen",
        "roll",
        "pair",
        "parts",
        "tasks",
        "turns",
        "_legal",
        "_hash",
    )
    game: Game
    stage: Stage
    round: int
    current: int
    boards: tuple[Board, ...]
    display: tuple[str, ...]
    revealed: tuple[int, ...]
    seen: int
    roll: tuple[int, ...]
    pair: int
    parts: tuple[Part, ...]
    tasks: tuple[Task, ...]
    turns: tuple[Turn | None, ...]
    _legal: tuple[Action, ...] | None
    _hash: int | None

    def __init__(
        self,
        game: Game,
        stage: Stage,
        round: int,
        current: int,
        boards: tuple[Board, ...],
        display: tuple[str, ...],
        revealed: tuple[int, ...],
        seen: int,
        roll: tuple[int, ...],
        pair: int,
        parts: tuple[Part, ...],
        tasks: tuple[Task, ...],
        turns: tuple[Turn | None, ...],
    ) -> None:
        self.game = game
        self.stage = stage
        self.round = round
        self.current = current
        self.boards = boards
        self.display = display
        self.revealed = revealed
        self.seen = seen
        self.roll = roll
        self.pair = pair
        self.parts = parts
        self.tasks = tasks
        self.turns = turns
        self._legal = None
        self._hash = None


class GameState(_Slots):
    """A moment of a game (immutable).  Build the first one with :func:`new_game`.

    ``stage`` is a :class:`~papillon.engine.tasks.Stage`: ``DEAL``, ``REVEAL`` and ``ROLL``
    (chance nodes), ``START`` (each player fills their first butterfly), ``BONUS`` (the
    round bonus), ``TURN`` (a player takes and resolves a pair) or ``OVER``.  ``tasks`` is
    the current player's pending work (:mod:`papillon.engine.tasks`), the last on top.
    ``revealed`` holds this round's cards (indices into ``edition.cards``), one per deck, empty
    before the reveal; ``seen`` is the bit mask of every card revealed so far (the past, never
    the future: no deck order is held).  ``turns`` is each seat's turn this round (START, BONUS,
    TURN), None once finished; the loaded seat's own entry (``current``) is out of date: its turn
    is in ``pair``, ``parts`` and ``tasks``.
    """

    __slots__ = ()

    def __new__(
        cls,
        game: Game,
        stage: Stage,
        round: int,
        current: int,
        boards: tuple[Board, ...],
        display: tuple[str, ...] = (),
        revealed: tuple[int, ...] = (),
        seen: int = 0,
        roll: tuple[int, ...] = (),
        pair: int = -1,
        parts: tuple[Part, ...] = (),
        tasks: tuple[Task, ...] = (),
        turns: tuple[Turn | None, ...] = (),
    ) -> GameState:
        return _state(game, stage, round, current, boards, display, revealed, seen, roll, pair, parts, tasks, turns)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # __new__ wrote every field

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not GameState:
            return NotImplemented
        return self is other or _fields_of(self) == _fields_of(other)

    def __repr__(self) -> str:
        return "GameState(" + ", ".join(f"{name}={value!r}" for name, value in zip(_STATE_FIELDS, _fields_of(self), strict=True)) + ")"

    def __hash__(self) -> int:
        # Bots remember states by value (GreedyBot's memo): hashed once, by the fields __eq__ compares.
        found = self._hash
        if found is None:
            found = hash(_fields_of(self))
            _set_hash(self, found)
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # What pickle and copy keep: the fields, not the memos (a str's hash differs from one process to the next).
        return (_state, _fields_of(self))

    # -- the OpenSpiel surface ----------------------------------------------------

    def is_over(self) -> bool:
        return self.stage is S_OVER

    def is_chance(self) -> bool:
        """Whether the next action is chance (the deal, a round's cards or its roll), not a player's decision."""
        return self.stage in _CHANCE

    @property
    def edition(self) -> Edition:
        return self.game.edition

    @property
    def player(self) -> int:
        """The lowest seat that may decide now (-1 at chance nodes and at the end)."""
        return -1 if self.stage in _CHANCE or self.stage is S_OVER else self.current

    def acting_players(self) -> tuple[int, ...]:
        """The seats (0-based) that may decide now, in any order: those who have not finished
        this round's starting field, round bonus or turn (empty at chance nodes and at the end)."""
        if self.stage in _CHANCE or self.stage is S_OVER:
            return ()
        current = self.current
        return tuple(p for p, turn in enumerate(self.turns) if p == current or turn is not None)

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        """The decisions seat ``player`` (default: the lowest acting seat) may take now, in a fixed
        order that depends on that seat alone (empty when it may not act)."""
        if player is not None and player != self.current:
            return _legal_actions(_load(self, player)) if player in self.acting_players() else ()
        legal = self._legal
        if legal is None:
            legal = _legal_actions(self)
            _set_legal(self, legal)
        return legal

    def apply(self, action: Action | str, player: int | None = None) -> GameState:
        """The state after seat ``player``'s ``action`` (an :class:`Action` or its text; default seat:
        the lowest acting one), or after a chance outcome (a string like ``'roll 1 2 3'``);
        raises IllegalActionError (state unchanged) if not allowed."""
        stage = self.stage
        if stage is not S_TURN and (stage is S_DEAL or stage is S_REVEAL or stage is S_ROLL):  # a turn's decisions first
            if not isinstance(action, str):
                raise IllegalActionError(f"a chance outcome is a string like 'roll 1 2 3', got {action!r}")
            if player is not None:
                raise IllegalActionError(f"a chance event belongs to no player, got player {player!r}")
            return _settle(_apply_chance(self, action))
        state = self
        if player is not None and player != self.current:
            if player not in self.acting_players():
                raise IllegalActionError(f"player {player!r} may not decide now: {_seats_waiting(self)}")
            state = _load(self, player)
        legal = state._legal
        if legal is None:
            legal = state.legal_actions()
        chosen: Action | None = action if action.__class__ is Action else _parsed(action)
        # Actions are interned: a bot hands back one of ``legal`` itself, found by identity (in C).
        if chosen is None or not (any(map(is_, legal, repeat(chosen))) or chosen in legal):
            from papillon.engine.text import why_illegal

            raise IllegalActionError(why_illegal(state, action))
        after = _settle(_apply(state, chosen))
        return after if state is self else _lowest_loaded(after)

    def alone(self, player: int) -> GameState:
        """This state with every other seat set aside: what seat ``player``'s own decisions lead to.

        For a bot's look-ahead in a game played simultaneously: the view depends only on this
        seat's own progress, never on how far the others are.  Not a state of the game."""
        if player not in self.acting_players():
            raise IllegalActionError(f"player {player!r} may not decide now: {_seats_waiting(self)}")
        loaded = _load(self, player)
        turns = tuple(None if p != player else Turn(loaded.pair, loaded.parts, loaded.tasks) for p in range(len(self.turns)))
        return _evolve(loaded, turns=turns)

    def solo(self, player: int) -> GameState:
        """Seat ``player`` as a solo game from here: the same sheets, cards seen, display and round.

        Players share only the cards and dice, so a look-ahead to the game's end for one seat (a
        hint's or a review's rollouts) needs no other seat; the solo game's one seat is 0.  Not a
        state of this game: its log would be another game's."""
        if player not in self.acting_players():
            raise IllegalActionError(f"player {player!r} may not decide now: {_seats_waiting(self)}")
        loaded = _load(self, player)
        alone = _evolve(loaded, current=0, boards=(loaded.boards[player],), turns=(None,))
        _set(alone, "game", Game(self.edition, (self.game.players[player],), self.game.tables))
        return alone

    def sample_chance(self, rng: random.Random) -> str:
        """A chance outcome drawn from ``rng`` (only at a chance node)."""
        stage = self.stage
        edition = self.game.edition
        if stage is S_ROLL:
            faces = len(edition.die_faces)
            return "roll " + " ".join([str(rng.randrange(faces) + 1) for _ in range(edition.dice)])
        if stage is S_REVEAL:
            return _reveal_text(_draw_cards(self, rng))
        if stage is S_DEAL:
            return _sample_deal(self.game, rng)
        raise IllegalActionError(f"no chance event now: {self.prompt()}")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        """Every outcome of this chance node with its probability (only at a chance node).

        A roll has ``faces ** dice`` outcomes; a reveal every ordered choice of unseen cards
        (tens of thousands: iterate, do not print); the deal every display of the edition.
        """
        edition = self.edition
        if self.stage is S_ROLL:
            faces = range(1, len(edition.die_faces) + 1)
            rolls = list(itertools.product(faces, repeat=edition.dice))
            return tuple(("roll " + " ".join(map(str, r)), 1 / len(rolls)) for r in rolls)
        if self.stage is S_REVEAL:
            draws = list(itertools.permutations(_unseen_cards(self.seen, len(edition.cards)), edition.decks))
            return tuple(("reveal " + ".".join(map(str, d)), 1 / len(draws)) for d in draws)
        if self.stage is S_DEAL:
            choices = [list(itertools.combinations(tiles, count)) for tiles, count in _display_choices(self.game)]
            displays = list(itertools.product(*choices))
            return tuple((_deal_text([c for part in d for c in part], edition), 1 / len(displays)) for d in displays)
        raise IllegalActionError(f"no chance event now: {self.prompt()}")

    def score(self, player: int = 0) -> int:
        """The end-game score of ``player``'s garden now (the scorer's total, without its explanations)."""
        board = self.boards[player]
        return total(board.cells, board.bricks, board.butterflies, self.edition)

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

    def seat(self, player: int) -> GameState:
        """This state with seat ``player``'s turn loaded, to read its ``pair``, ``parts`` and ``tasks``
        (a seat that may not act: the state itself)."""
        return _load(self, player) if player != self.current and player in self.acting_players() else self

    def prompt(self, player: int | None = None) -> str:
        """What the game waits for (from seat ``player``, default the lowest acting one), in one sentence."""
        from papillon.engine.text import prompt  # the words import the rules, not the other way round

        return prompt(self if player is None else self.seat(player))

    def describe(self, action: Action | str, player: int | None = None) -> str:
        """What ``action`` does, for a person's ``?`` help."""
        from papillon.engine.text import describe

        return describe(self if player is None else self.seat(player), as_action(action))


def after_legal(state: GameState, action: Action) -> GameState:
    """``state.apply(action)`` for an action taken from ``state.legal_actions()`` itself, unchecked.

    For a bot's look-ahead, which weighs every legal action of a decision, and for
    :func:`papillon.engine.log.play_game`'s random bot: checking each against the list it
    came from is a good share of applying it.  Anything else
    (a person's, a log's or an unknown bot's action) goes through :meth:`GameState.apply`."""
    return _settle(_apply(state, action))


_STATE_FIELDS = _Slots.__slots__[:-2]
assert _STATE_FIELDS[-1] == "turns", "update _state"
_fields_of = attrgetter(*_STATE_FIELDS)
_set = object.__setattr__
_set_legal = vars(_Slots)["_legal"].__set__  # a state's memos are written past its refusal
_set_hash = vars(_Slots)["_hash"].__set__


def _state(
    game: Game,
    stage: Stage,
    round: int,
    current: int,
    boards: tuple[Board, ...],
    display: tuple[str, ...],
    revealed: tuple[int, ...],
    seen: int,
    roll: tuple[int, ...],
    pair: int,
    parts: tuple[Part, ...],
    tasks: tuple[Task, ...],
    turns: tuple[Turn | None, ...],
) -> GameState:
    """A new state of these fields."""
    new = _Slots(game, stage, round, current, boards, display, revealed, seen, roll, pair, parts, tasks, turns)
    new.__class__ = GameState  # the same slots: from now on it refuses assignments
    return new  # type: ignore[return-value]


def _evolve(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes`` (by field name)."""
    return _state(*[changes.get(name, value) for name, value in zip(_STATE_FIELDS, _fields_of(state), strict=True)])


def _with_tasks(s: GameState, tasks: tuple[Task, ...]) -> GameState:
    """``s`` with its loaded seat's pending tasks ``tasks`` (the commonest step of all)."""
    new = _Slots(s.game, s.stage, s.round, s.current, s.boards, s.display, s.revealed, s.seen, s.roll, s.pair, s.parts, tasks, s.turns)
    new.__class__ = GameState  # as _state, without its frame
    return new  # type: ignore[return-value]


def _with_turn(s: GameState, pair: int, parts: tuple[Part, ...], tasks: tuple[Task, ...]) -> GameState:
    """``s`` with its loaded seat's turn at ``pair``, ``parts`` and ``tasks``."""
    new = _Slots(s.game, s.stage, s.round, s.current, s.boards, s.display, s.revealed, s.seen, s.roll, pair, parts, tasks, s.turns)
    new.__class__ = GameState
    return new  # type: ignore[return-value]


def _with_seat(s: GameState, current: int, turn: Turn, turns: tuple[Turn | None, ...]) -> GameState:
    """``s`` with seat ``current``'s ``turn`` loaded and ``turns`` for the others."""
    return _state(
        s.game, s.stage, s.round, current, s.boards, s.display, s.revealed, s.seen, s.roll, turn.pair, turn.parts, turn.tasks, turns
    )


# --------------------------------------------------------------------------- setup


def new_game(players: Sequence[str] = ("Player",), edition: Edition | None = None) -> GameState:
    """The state before the deal: blank sheets for 1 to 6 players."""
    edition = edition or standard_edition()
    most = edition.play.max_players
    if not 1 <= len(players) <= most:
        raise ValueError(f"a game of the {edition.name} edition has 1 to {most} players, got {len(players)}")
    tables = tables_for(edition)
    game = Game(edition, tuple(players), tables)
    return GameState(game, S_DEAL, 0, 0, (_blank_board(tables),) * len(players))


@cache
def _blank_board(tables: Tables) -> Board:
    """A player's sheets before the game (one per edition's tables: a board is a value)."""
    fields = set(tables.edition.rules.starting_fields)
    return Board(
        cells=tuple(FIELD if p in fields else EMPTY for p in PLOTS),
        bricks=0,
        butterflies=0,
        ladders=(0,) * len(tables.critters),
        tracks=(0,) * len(tables.colours),
        rondel=0,
        caterpillars=0,
        critters=(),
    )


def _display_choices(game: Game) -> tuple[tuple[tuple[str, ...], int], ...]:
    """For each tile type: the tiles that may be on display and how many are shown."""
    return _edition_display_choices(game.edition)


@lru_cache(maxsize=256)
def _edition_display_choices(edition: Edition) -> tuple[tuple[tuple[str, ...], int], ...]:
    """:func:`_display_choices` by edition (an edition is never changed once made: worked out once)."""
    choices = []
    for kind in FEATURE_TYPES:
        tiles = tuple(code for code, f in edition.features.items() if f.type == kind and code not in edition.display_exclude)
        wanted = edition.display[kind]
        choices.append((tiles, len(tiles) if wanted == "all" else min(int(wanted), len(tiles))))
    return tuple(choices)


@lru_cache(maxsize=256)
def _feature_order(edition: Edition) -> dict[str, int]:
    """Each feature tile's place in the edition, by code."""
    return {code: i for i, code in enumerate(edition.features)}


NO_TILES = "-"
"""The deal's display when no tile is on show."""


def _deal_text(display: Sequence[str], edition: Edition) -> str:
    return "deal " + (",".join(sorted(display, key=_feature_order(edition).__getitem__)) or NO_TILES)


def _sample_deal(game: Game, rng: random.Random) -> str:
    display: list[str] = []
    for tiles, count in _display_choices(game):
        display += rng.sample(tiles, count)
    return _deal_text(display, game.edition)


def _apply_chance(state: GameState, action: str) -> GameState:
    edition = state.game.edition
    if state.stage is S_DEAL:
        words = action.split()
        if len(words) != 2 or words[0] != "deal":
            raise IllegalActionError(f"expected the deal ('deal <tiles>', like 'deal po,sh,bf'), got {action!r}")
        display = () if words[1] == NO_TILES else tuple(words[1].split(","))
        if len(set(display)) != len(display) or any(code not in edition.features or code in edition.display_exclude for code in display):
            raise IllegalActionError(f"deal: {words[1]!r} is not a display of {edition.name} feature tiles")
        for (tiles, count), kind in zip(_display_choices(state.game), FEATURE_TYPES, strict=True):
            shown = [code for code in display if code in tiles]
            if len(shown) != count:
                raise IllegalActionError(f"deal: the display shows {plural(count, 'tile')} of type {kind}, got {len(shown)}")
        return _evolve(state, stage=S_START, current=0, display=display, turns=(START_TURN,) * len(state.boards))
    if state.stage is S_REVEAL:
        picked, mask = _cards_of(action, edition.decks, len(edition.cards))
        if state.seen & mask:
            raise IllegalActionError(_reveal_expected(action, edition.decks, len(edition.cards)))
        return _revealed(state, picked, mask)
    roll = _faces_of(action, edition.dice, len(edition.die_faces))
    s = state
    return _state(
        s.game, S_TURN, s.round, 0, s.boards, s.display, s.revealed, s.seen, roll, -1, _parts(s), s.tasks, (FRESH_TURN,) * len(s.boards)
    )


def _revealed(s: GameState, picked: tuple[int, ...], mask: int) -> GameState:
    """``s`` after the reveal of the cards ``picked`` (their bit ``mask``): the roll comes next."""
    return _state(s.game, S_ROLL, s.round, s.current, s.boards, s.display, picked, s.seen | mask, s.roll, s.pair, s.parts, s.tasks, s.turns)


def _draw_cards(state: GameState, rng: random.Random) -> list[int]:
    """The cards of a reveal drawn from ``rng``: one per deck, among those not yet seen."""
    edition = state.game.edition
    return rng.sample(_unseen_cards(state.seen, len(edition.cards)), edition.decks)


def _reveal_text(picked: Sequence[int]) -> str:
    return "reveal " + ".".join(map(str, picked))


def draw_chance(state: GameState, rng: random.Random) -> tuple[str, GameState]:
    """``outcome = state.sample_chance(rng)`` and ``state.apply(outcome)`` at once, for a driver that draws its chance
    events itself (:func:`papillon.engine.log.play_game`): the cards of a reveal, new text nearly every time, are not
    read back from its text."""
    if state.stage is S_REVEAL:  # the roll comes next: a chance node, which apply's _settle leaves as it is
        picked = _draw_cards(state, rng)
        return _reveal_text(picked), _revealed(state, tuple(picked), sum(map(_ONE_BIT.__lshift__, picked)))
    outcome = state.sample_chance(rng)
    return outcome, state.apply(outcome)


@lru_cache(maxsize=1 << 10)
def _cards_of(action: str, decks: int, count: int) -> tuple[tuple[int, ...], int]:
    """The cards a reveal names (``decks`` different numbers below ``count``) and their bit mask (memoised by text)."""
    words = action.split()
    cards = words[1].split(".") if len(words) == 2 and words[0] == "reveal" else []
    # Digits only, so none is negative; 3 of them (as ever) or as many as the card count has, so none is huge to read.
    picked = [int(c) for c in cards if c.isascii() and c.isdigit() and len(c) <= max(3, len(str(count)))]
    # Checked and summed in C, without generators' frames: a reveal is new text nearly every time (the memo misses).
    if len(picked) != decks or len(picked) != len(cards) or len(set(picked)) != len(picked) or max(picked, default=-1) >= count:
        raise IllegalActionError(_reveal_expected(action, decks, count))
    return tuple(picked), sum(map(_ONE_BIT.__lshift__, picked))


_ONE_BIT = 1


def _reveal_expected(action: str, decks: int, count: int) -> str:
    return (
        f"expected this round's cards ('reveal' and {plural(decks, 'card number')} joined by '.',"
        f" different, from 0 to {count - 1}, none revealed before), got {quote(action)}"
    )


@lru_cache(maxsize=1 << 10)
def _faces_of(action: str, dice: int, faces: int) -> tuple[int, ...]:
    """The faces (0-based) a roll names (memoised by text: a game's rolls are a few hundred texts)."""
    words = action.split()
    if len(words) != dice + 1 or words[0] != "roll" or not all(w.isascii() and w.isdigit() and 1 <= int(w) <= faces for w in words[1:]):
        expected = f"'roll' and {plural(dice, 'face')} from 1 to {faces}"
        raise IllegalActionError(f"expected the roll of {plural(dice, 'die', 'dice')} ({expected}), got {quote(action)}")
    return tuple(int(w) - 1 for w in words[1:])


def _parts(state: GameState) -> tuple[Part, ...]:
    return PARTS


def _parsed(action: object) -> Action | None:
    """The action ``action`` names (an Action or its text), or None."""
    try:
        return as_action(action)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None


def _seats_waiting(state: GameState) -> str:
    acting = state.acting_players()
    if not acting:
        return state.prompt()
    return f"the {noun(len(acting), 'seat')} that may decide now: {', '.join(map(str, acting))}"


def _load(state: GameState, player: int) -> GameState:
    """``state`` with seat ``player``'s turn loaded (the loaded one parked in ``turns``)."""
    current = state.current
    if player == current:
        return state
    turns = list(state.turns)
    turns[current] = Turn(state.pair, state.parts, state.tasks)
    turn = turns[player]
    assert turn is not None, "only an acting seat is loaded"
    return _with_seat(state, player, turn, tuple(turns))


def _lowest_loaded(state: GameState) -> GameState:
    """``state`` with its lowest acting seat loaded, as every state the public API returns."""
    acting = state.acting_players()
    return _load(state, acting[0]) if acting and acting[0] != state.current else state


def _next_seat(state: GameState) -> GameState | None:
    """The loaded seat has finished this round's stage: load the lowest seat still acting (None if none is)."""
    turns = state.turns
    current = state.current
    for p, turn in enumerate(turns):
        if p != current and turn is not None:
            return _with_seat(state, p, turn, (*turns[:current], None, *turns[current + 1 :]))
    return None


def _begin_round(state: GameState, number: int) -> GameState:
    rules = state.game.edition.rules
    s = state
    if number > rules.rounds:
        return _state(s.game, S_OVER, rules.rounds, 0, s.boards, s.display, s.revealed, s.seen, s.roll, -1, (), (), ())
    if number in rules.bonus_rounds:
        turns = (BONUS_TURN,) * len(s.boards)
        return _state(s.game, S_BONUS, number, 0, s.boards, s.display, (), s.seen, (), -1, (), (ROUND_BONUS,), turns)
    return _state(s.game, S_REVEAL, number, 0, s.boards, s.display, (), s.seen, (), -1, (), (), ())


ROUND_BONUS = GnomeBonus(round_bonus=True)
T_FILL, T_MOVE, T_STAMP_ANY, T_CRITTER_FILL, T_FILL_OR_MOVE = Fill(), Move(), StampAny(), CritterFill(), FillOrMove()
T_CHOOSE_FEATURE, T_PLACE_BRAMBLE, T_GNOME = ChooseFeature(), PlaceBramble(), GnomeBonus()
"""The tasks without fields, made once (a frozen dataclass costs about a microsecond to build)."""


@cache
def _task(kind: type[Task], *args: Any) -> Task:
    """The task ``kind(*args)``, made once: tasks are values, and the engine makes one at nearly every step."""
    return kind(*args)


START_TURN = Turn(-1, (), ())
BONUS_TURN = Turn(-1, (), (ROUND_BONUS,))
FRESH_TURN = Turn(-1, PARTS, ())
_CHANCE = (S_DEAL, S_REVEAL, S_ROLL)
"""The chance stages, as a tuple: membership by identity (an enum member's hash is a Python call)."""


# --------------------------------------------------------------------------- the flow


def _settle(state: GameState) -> GameState:
    """Resolve everything that needs no decision, up to the next decision or chance node."""
    while True:
        stage = state.stage
        if stage is S_TURN:  # the commonest by far: the loaded seat's pair
            if state.tasks:
                resolved = _auto(state)
                if resolved is None:
                    return state
                state = resolved
                continue
            if state.pair < 0:
                return state
            parts = state.parts
            if len(parts) > 1:
                return state
            if parts:
                state = _start_part(state, parts[0])
                continue
            state = _next_seat(state) or _begin_round(state, state.round + 1)
            continue
        if stage is S_DEAL or stage is S_REVEAL or stage is S_ROLL or stage is S_OVER:
            return state
        if state.tasks:
            resolved = _auto(state)
            if resolved is None:
                return state
            state = resolved
            continue
        if stage is S_START:
            if state.boards[state.current].butterflies == 0:
                return state
            state = _next_seat(state) or _begin_round(state, 1)
            continue
        # stage == "bonus"
        s = state
        state = _next_seat(s) or _state(
            s.game, S_REVEAL, s.round, 0, s.boards, s.display, s.revealed, s.seen, s.roll, s.pair, s.parts, s.tasks, ()
        )


def _board(state: GameState) -> Board:
    return state.boards[state.current]


def _with_board(s: GameState, board: Board, tasks: tuple[Task, ...]) -> GameState:
    """``s`` with the loaded seat's ``board`` and pending ``tasks``."""
    boards = s.boards
    current = s.current
    boards = (board,) if len(boards) == 1 else (*boards[:current], board, *boards[current + 1 :])  # _boards_with, without its frame
    new = _Slots(s.game, s.stage, s.round, current, boards, s.display, s.revealed, s.seen, s.roll, s.pair, s.parts, tasks, s.turns)
    new.__class__ = GameState
    return new  # type: ignore[return-value]


def _boards_with(s: GameState, board: Board) -> tuple[Board, ...]:
    """``s``'s boards with the loaded seat's ``board``."""
    boards = s.boards
    current = s.current
    return (board,) if len(boards) == 1 else (*boards[:current], board, *boards[current + 1 :])


def _empties(cells: tuple[str, ...]) -> list[int]:
    return [p for p in PLOTS if cells[p] == EMPTY]


def _empty_fields(cells: tuple[str, ...]) -> list[int]:
    return [p for p in PLOTS if cells[p] == FIELD]


def _auto(state: GameState) -> GameState | None:
    """Resolve the top task if it offers no decision (a gain with nowhere to go is lost, RULES §6.9)."""
    tasks = state.tasks
    task = tasks[-1]
    kind = task.__class__  # no task type has subclasses: told by identity, commonest first
    board = state.boards[state.current]
    if kind is AddBrick:
        possible = task.count > 0 and board.bricks != ALL_EDGES  # type: ignore[union-attr]
    elif kind is Stamp or kind is StampAny:
        possible = EMPTY in board.cells
    elif kind is GnomeBonus:
        possible = any(_can_do(state, board, o) for o in task.options(state.game.edition))  # type: ignore[union-attr]
    elif kind is Fill or kind is CritterFill:
        possible = bool(_fill_targets(state.game.tables, board, kind is Fill))
    elif kind is FieldAndMove:
        possible = bool(task.moves and _can_move(state, board)) or bool(task.fields and EMPTY in board.cells)  # type: ignore[union-attr]
    elif kind is AddField:
        possible = task.count > 0 and EMPTY in board.cells  # type: ignore[union-attr]
    elif kind is Move:
        possible = _can_move(state, board)
    elif kind is ChooseFeature:
        possible = FIELD in board.cells and bool(state.display)
    elif kind is PlaceFeature:
        possible = FIELD in board.cells
    elif kind is PlaceCritter:
        if FIELD in board.cells:
            return None
        board = _board_with(board, CRITTERS, (*board.critters, (task.code, -1)))  # type: ignore[union-attr]
        return _with_board(state, board, tasks[:-1])
    else:  # PlaceBramble, MoveFrom, FillOrMove, DieOrder: always a decision
        return None
    return None if possible else _with_tasks(state, tasks[:-1])


ALL_EDGES = (1 << len(EDGES)) - 1


def _start_part(state: GameState, part: Part) -> GameState:
    edition = state.game.edition
    parts = _without(state.parts, part)
    tasks = state.tasks
    if part == "corner":
        corner = edition.cards[state.revealed[state.pair]].corner
        task: Task = (
            T_CHOOSE_FEATURE if corner == "feature" else _task(AddBrick, edition.rules.corner_bricks, True) if corner == "brick" else T_FILL
        )
        return _with_turn(state, state.pair, parts, (*tasks, task))
    if part == "centre":
        card = edition.cards[state.revealed[state.pair]]
        if card.centre == "stamp":
            task = _task(Stamp, COLOUR_CODE[card.colour or ""])
        elif card.centre == "move":
            task = T_MOVE
        else:
            task = _task(FieldAndMove, edition.rules.centre_fields, 1)
        return _with_turn(state, state.pair, parts, (*tasks, task))
    # the die
    pair = state.pair
    if pair >= len(state.roll):
        return _with_turn(state, pair, parts, tasks)
    face = state.roll[pair]
    order = edition.play.die_order
    if order == "player":
        die = edition.die_faces[face]
        if die.extra and _gnomes_reached(state, die.caterpillars):
            return _with_turn(state, pair, parts, (*tasks, _task(DieOrder, face, die.extra)))
    return _resolve_die(state, face, order != "extra_first", parts)


@cache
def _without(parts: tuple[Part, ...], part: Part) -> tuple[Part, ...]:
    """The parts still to resolve once ``part`` is."""
    return tuple(p for p in parts if p != part)


def _gnomes_reached(state: GameState, count: int) -> int:
    """How many gnome spaces ``count`` caterpillars reach on the loaded seat's track."""
    position = _board(state).caterpillars
    end = min(position + count, state.edition.fill.caterpillar_track)
    return sum(1 for space in state.game.tables.gnome_spaces if position < space <= end)


def _resolve_die(state: GameState, face: int, caterpillars_first: bool, parts: tuple[Part, ...] | None = None) -> GameState:
    """The die ``face``'s caterpillars (and the gnome bonuses they reach) and its extra icon, in that order or the other
    (the loaded turn's ``parts`` too, when they change with it: one new state).

    The task stack resolves its top first: "caterpillars first" puts the extra below the gnome bonuses."""
    game = state.game
    die = game.edition.die_faces[face]
    extra: tuple[Task, ...] = ()
    if die.extra == "field":
        extra = (_task(AddField, 1, False),)
    elif die.extra == "fill":
        extra = (T_FILL,)
    elif die.extra == "bramble":
        extra = (T_PLACE_BRAMBLE,)
    board = state.boards[state.current]
    position, gnomes = _climb(game, board.caterpillars, die.caterpillars)
    tasks = state.tasks + extra + gnomes if caterpillars_first else state.tasks + gnomes + extra
    if parts is not None:
        if position == board.caterpillars:
            return _with_turn(state, state.pair, parts, tasks)
        s = state
        boards = _boards_with(s, _board_with(board, CATERPILLARS, position))
        return _state(s.game, s.stage, s.round, s.current, boards, s.display, s.revealed, s.seen, s.roll, s.pair, parts, tasks, s.turns)
    if position == board.caterpillars:
        return _with_tasks(state, tasks)
    return _with_board(state, _board_with(board, CATERPILLARS, position), tasks)


def _climb(game: Game, position: int, count: int) -> tuple[int, tuple[Task, ...]]:
    """Where ``count`` caterpillars take the track from ``position``, and the gnome bonuses they reach."""
    track = game.edition.fill.caterpillar_track
    spaces = game.tables.gnome_spaces
    gnomes: tuple[Task, ...] = ()
    for _ in range(count):
        if position >= track:
            break  # a full track takes no more caterpillars
        position += 1
        if position in spaces:
            gnomes += (T_GNOME,)
    return position, gnomes


def _caterpillars(state: GameState, count: int) -> GameState:
    """Advance the caterpillar track; each gnome space reached gives a gnome bonus."""
    board = state.boards[state.current]
    position, gnomes = _climb(state.game, board.caterpillars, count)
    if position == board.caterpillars:
        return state
    return _with_board(state, _board_with(board, CATERPILLARS, position), state.tasks + gnomes)


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
            tasks.append(_task(AddBrick, times, False))
        elif effect.action == "field":
            tasks.append(_task(AddField, times, False))
        else:
            tasks += [_EFFECT_TASKS[effect.action]] * times
    return tuple(reversed(tasks))


_EFFECT_TASKS: dict[str, Task] = {
    "fill": T_FILL,
    "move": T_MOVE,
    "fill_or_move": T_FILL_OR_MOVE,
    "stamp_any": T_STAMP_ANY,
    "critter_fill": T_CRITTER_FILL,
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

CHOOSE_FILL = option_action(K_CHOOSE, "fill")
CHOOSE_MOVE = option_action(K_CHOOSE, "move")
FIRST_CATERPILLARS = option_action(K_FIRST, "caterpillars")


def _fill_targets(tables: Tables, board: Board, flowers: bool) -> tuple[Action, ...]:
    """What a "fill a space" may fill: each critter ladder not full, each flower track not full, the rondel when open."""
    return _fill_sheet_targets(tables, board.ladders, board.tracks, board.rondel, flowers)


@lru_cache(maxsize=1 << 12)
def _fill_sheet_targets(
    tables: Tables, ladders: tuple[int, ...], tracks: tuple[int, ...], rondel: int, flowers: bool
) -> tuple[Action, ...]:
    """:func:`_fill_targets` by the Fill sheet's bubbles (memoised: a bot weighs many states of one sheet)."""
    fill = tables.edition.fill
    if fill.ladders_repeat:
        targets = [fill_action(code) for code in tables.critters]
    else:
        targets = [
            fill_action(code) for code, filled, height in zip(tables.critters, ladders, tables.ladders, strict=True) if filled < height
        ]
    if flowers:
        height = len(fill.flower_track)
        open_tracks = [fill_action(name) for name, filled in zip(tables.colours, tracks, strict=True) if filled < height]
        targets += open_tracks
        after = fill.rondel_after
        rondel_open = after == "always" or (not open_tracks if after == "all_tracks" else len(open_tracks) < len(tables.colours))
        if rondel_open and rondel < len(fill.rondel):
            targets.append(fill_action(RONDEL))
    return tuple(targets)


def _legal_actions(state: GameState) -> tuple[Action, ...]:
    stage = state.stage
    if stage is S_TURN or stage is S_BONUS:
        tasks = state.tasks
        if tasks:
            task = tasks[-1]
            return _TASK_ACTIONS[task.__class__](state, state.boards[state.current], task)
        if state.pair < 0:
            return _pairs(state, state.boards[state.current])
        return _part_actions(state.parts)
    if stage is S_START:
        cells = state.boards[state.current].cells
        fields = state.game.tables.field_codes
        return tuple(START_ACTIONS[p] for p in state.game.edition.rules.starting_fields if cells[p] in fields)
    return ()


_SKIPS = ((), (SKIP,))
"""What a gain offers besides its uses, by ``play.decline_gains``: nothing, or ``skip``."""


def _stamp_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return _empty_plot_actions(board.cells) + _SKIPS[state.game.tables.decline_gains]


def _stamp_any_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    tables = state.game.tables
    return _colour_actions(tables.colours) + _SKIPS[tables.decline_gains]


def _add_field_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return _empty_plot_actions(board.cells) + (_SKIPS[state.game.tables.decline_gains] or (SKIP,) * task.up_to)


def _add_brick_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return _free_edge_actions(board.bricks) + (_SKIPS[state.game.tables.decline_gains] or (SKIP,) * task.up_to)


def _move_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return (*_move_sources(state, board), *_SKIPS[state.game.tables.decline_gains])


def _move_from_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return tuple(TO_ACTIONS[end] for end, _ in _moves(state, board, task.plot))


def _field_and_move_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    moves = task.moves
    actions: list[Action] = []
    if task.fields:
        actions += [PLOT_ACTIONS[p] for p in _empties(board.cells)]
    if moves:
        actions += _move_sources(state, board)
    if state.game.tables.decline_gains or not moves or len(actions) == 0:
        actions.append(SKIP)
    return tuple(actions)


def _fill_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    tables = state.game.tables
    return _fill_targets(tables, board, True) + _SKIPS[tables.decline_gains]


def _critter_fill_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    tables = state.game.tables
    return _fill_targets(tables, board, False) + _SKIPS[tables.decline_gains]


def _place_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return tuple(PLOT_ACTIONS[p] for p in _empty_fields(board.cells))


def _gnome_bonus_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    options = task.options(state.game.edition)
    return tuple([a for a, o in zip(_gnome_table(options)[1], options, strict=True) if _can_do(state, board, o)])


def _choose_feature_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return (*(feature_action(code) for code in state.display), *_SKIPS[state.game.tables.decline_gains])


def _fill_or_move_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return (CHOOSE_FILL, CHOOSE_MOVE, *_SKIPS[state.game.tables.decline_gains])


def _die_order_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return (FIRST_CATERPILLARS, option_action(K_FIRST, task.extra))


def _bramble_actions(state: GameState, board: Board, task: Any) -> tuple[Action, ...]:
    return tuple(PLOT_ACTIONS[p] for p in _bramble_plots(state, board.cells))


_TASK_ACTIONS: dict[type, Any] = {
    Stamp: _stamp_actions,
    StampAny: _stamp_any_actions,
    AddField: _add_field_actions,
    AddBrick: _add_brick_actions,
    Move: _move_actions,
    MoveFrom: _move_from_actions,
    FieldAndMove: _field_and_move_actions,
    Fill: _fill_actions,
    CritterFill: _critter_fill_actions,
    PlaceCritter: _place_actions,
    PlaceFeature: _place_actions,
    GnomeBonus: _gnome_bonus_actions,
    ChooseFeature: _choose_feature_actions,
    FillOrMove: _fill_or_move_actions,
    DieOrder: _die_order_actions,
    PlaceBramble: _bramble_actions,
}
"""The legal actions of each kind of pending task (its decision), by the task's class."""


@cache
def _colour_actions(colours: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(colour_action(name) for name in colours)


@cache
def _part_actions(parts: tuple[Part, ...]) -> tuple[Action, ...]:
    return tuple(part_action(part) for part in parts)


@cache
def _pair_actions(count: int) -> tuple[Action, ...]:
    return tuple(pair_action(i) for i in range(count))


@lru_cache(maxsize=1 << 12)
def _empty_plot_actions(cells: tuple[str, ...]) -> tuple[Action, ...]:
    """A plot action for each empty plot (memoised: a bot weighs many states of one garden)."""
    return tuple([PLOT_ACTIONS[p] for p in PLOTS if cells[p] == EMPTY])


@lru_cache(maxsize=1 << 12)
def _free_edge_actions(bricks: int) -> tuple[Action, ...]:
    """An edge action for each edge without a brick (memoised by brick set; a miss joins a byte's edges at a time)."""
    found: tuple[Action, ...] = ()
    for shift, chunk in _FREE_EDGES_BY_BYTE:
        found += chunk[bricks >> shift & 255]
    return found


def _free_in_byte(shift: int, byte: int) -> tuple[Action, ...]:
    return tuple(EDGE_ACTIONS[i] for i in range(shift, min(shift + 8, len(EDGES))) if not byte >> (i - shift) & 1)


_FREE_EDGES_BY_BYTE = tuple((shift, tuple(_free_in_byte(shift, byte) for byte in range(256))) for shift in range(0, len(EDGES), 8))
"""For each byte of a brick mask: the edge actions of its free edges, for every value of the byte."""


def _can_move(state: GameState, board: Board) -> bool:
    """Whether some butterfly can move (with ``"steps"`` every butterfly can: the garden is 5 plots wide)."""
    rules = state.game.edition.rules
    flies = board.butterflies
    if rules.butterfly_counts == "steps":
        return flies != 0
    if rules.butterfly_steps >= 1:  # see _move_sources
        reach = state.game.tables.reach
        return any(reach[p] & ~flies for p in mask_plots(flies))
    return any(_moves(state, board, p) for p in mask_plots(flies))


def _move_sources(state: GameState, board: Board) -> list[Action]:
    flies = board.butterflies
    rules = state.game.edition.rules
    if rules.butterfly_counts != "steps" and rules.butterfly_steps >= 1:
        # "new": a butterfly moves when a line from it holds a plot without a butterfly (its first such plot
        # is one newly filled, within the steps): a mask test, not its every movement.
        reach = state.game.tables.reach
        return [FROM_ACTIONS[p] for p in mask_plots(flies) if reach[p] & ~flies]
    return [FROM_ACTIONS[p] for p in mask_plots(flies) if _moves(state, board, p)]


def _moves(state: GameState, board: Board, start: int) -> tuple[tuple[int, int], ...]:
    """(end plot, mask of plots entered) of each movement of the butterfly on ``start`` (RULES §6.6)."""
    tables = state.game.tables
    rules = state.game.edition.rules
    if rules.butterfly_counts == "steps":
        return tables.moves[start]
    # "new": filled spaces are passed over freely; the line stops after 1 to `butterfly_steps` newly filled ones.
    flies = board.butterflies
    steps = rules.butterfly_steps
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


def _pairs(state: GameState, board: Board) -> tuple[Action, ...]:
    """The pairs on offer; with ``feature_without_field = "not_offered"`` a feature corner that has
    nowhere to go is not offered (unless every pair has one)."""
    pairs = _pair_actions(len(state.revealed))
    edition = state.game.edition
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


@cache
def _gnome_effects(options: tuple[Effect, ...]) -> dict[str, Effect]:
    """Each gnome option by its action word."""
    return dict(zip(gnome_slugs(options), options, strict=True))


@cache
def _gnome_actions(options: tuple[Effect, ...]) -> tuple[Action, ...]:
    """The action of each gnome option (:func:`_gnome_options` keeps those that can be carried out)."""
    return tuple(option_action(K_GNOME, slug) for slug in gnome_slugs(options))


def _gnome_table(options: tuple[Effect, ...]) -> tuple[tuple[Effect, ...], tuple[Action, ...], dict[str, Effect]]:
    """The options, their actions and each option by its word, found by the options' identity (an edition's
    gnome and round bonus options are one tuple each; hashing their effects is a Python call apiece)."""
    found = _GNOME_TABLES.get(id(options))
    if found is None or found[0] is not options:
        found = _GNOME_TABLES[id(options)] = (options, _gnome_actions(options), _gnome_effects(options))
    return found


_GNOME_TABLES: dict[int, tuple[tuple[Effect, ...], tuple[Action, ...], dict[str, Effect]]] = {}

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
    options = task.options(state.edition)
    return [(slug, o) for slug, o in zip(gnome_slugs(options), options, strict=True) if _can_do(state, board, o)]


def _can_do(state: GameState, board: Board, effect: Effect) -> bool:
    need = _NEEDS.get(effect.action)  # one look-up, not a string comparison per kind
    if need is _NEEDS_EMPTY_PLOT:
        return EMPTY in board.cells
    if need is _NEEDS_FREE_EDGE:
        return board.bricks != ALL_EDGES
    if need is _NEEDS_BUBBLE:
        return bool(_fill_targets(state.game.tables, board, effect.action == "fill"))
    if need is _NEEDS_MOVE:
        return _can_move(state, board)
    return True  # fill_or_move: a butterfly can always move, or a space be filled


_NEEDS_EMPTY_PLOT, _NEEDS_FREE_EDGE, _NEEDS_BUBBLE, _NEEDS_MOVE = "empty plot", "free edge", "bubble", "move"
_NEEDS = {
    "stamp_any": _NEEDS_EMPTY_PLOT,
    "field": _NEEDS_EMPTY_PLOT,
    "brick": _NEEDS_FREE_EDGE,
    "fill": _NEEDS_BUBBLE,
    "critter_fill": _NEEDS_BUBBLE,
    "move": _NEEDS_MOVE,
}
"""What each effect needs to be carried out (RULES §6.9), by its action."""


# --------------------------------------------------------------------------- applying a decision


def _apply(state: GameState, action: Action) -> GameState:
    kind = action.kind
    board = state.boards[state.current]
    tasks = state.tasks
    if state.stage is S_START:
        return _with_board(state, _board_with(board, BUTTERFLIES, 1 << action.plot), tasks)
    if not tasks:
        if kind is K_PAIR:
            return _with_turn(state, action.pair, PARTS, tasks)
        assert action.part is not None
        return _start_part(state, action.part)
    task = tasks[-1]
    rest = tasks[:-1]
    if kind is K_SKIP:
        return _with_tasks(state, rest)
    if kind is K_PLOT:
        plot = action.plot
        cells = list(board.cells)
        match task:
            case Stamp(colour=colour):
                cells[plot] = colour
            case AddField(count=count, up_to=up_to):
                cells[plot] = FIELD
                rest = (*rest, _task(AddField, count - 1, up_to)) if count > 1 else rest
            case FieldAndMove(fields=fields, moves=moves):
                cells[plot] = FIELD
                rest = (*rest, _task(FieldAndMove, fields - 1, moves))
            case PlaceCritter(code=code):
                cells[plot] = code
                board = _board_with(board, CRITTERS, (*board.critters, (code, plot)))
            case PlaceFeature(code=code):
                cells[plot] = code
                placed = _with_board(state, _board_with(board, CELLS, tuple(cells)), rest)
                effects = state.edition.features[code].on_place
                return _with_tasks(placed, rest + effect_tasks(placed, effects, plot, code)) if effects else placed
            case PlaceBramble():
                cells[plot] = BRAMBLE
        return _with_board(state, _board_with(board, CELLS, tuple(cells)), rest)
    if kind is K_EDGE:
        assert isinstance(task, AddBrick)
        rest = (*rest, _task(AddBrick, task.count - 1, task.up_to)) if task.count > 1 else rest
        return _with_board(state, _board_with(board, BRICKS, board.bricks | 1 << action.edge), rest)
    if kind is K_FROM:
        if isinstance(task, FieldAndMove):
            rest = (*rest, _task(FieldAndMove, task.fields, 0))
        return _with_tasks(state, (*rest, _task(MoveFrom, action.plot)))
    if kind is K_TO:
        assert isinstance(task, MoveFrom)
        end = action.plot
        mask = next(m for e, m in _moves(state, board, task.plot) if e == end)
        return _with_board(state, _board_with(board, BUTTERFLIES, board.butterflies | mask), rest)
    if kind is K_FILL:
        return _fill(state, board, rest, action.code)
    if kind is K_COLOUR:
        return _with_tasks(state, (*rest, _task(Stamp, COLOUR_CODE[action.colour])))
    if kind is K_GNOME:
        assert isinstance(task, GnomeBonus)
        # The option is legal, so it is doable: it is found by its word alone.  Its tasks read the
        # board and edition only, which taking the option leaves as they are.
        effect = _gnome_table(task.options(state.game.edition))[2][action.option]
        return _with_tasks(state, rest + effect_tasks(state, (effect,), -1))
    if kind is K_FEATURE:
        return _with_tasks(state, (*rest, _task(PlaceFeature, action.code)))
    if kind is K_CHOOSE:
        return _with_tasks(state, (*rest, T_FILL if action.option == "fill" else T_MOVE))
    if kind is K_FIRST:
        assert isinstance(task, DieOrder)
        return _resolve_die(_with_tasks(state, rest), task.face, action is FIRST_CATERPILLARS)
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
            rest = (*rest, _task(PlaceCritter, target))
        return _with_board(state, _board_with(board, LADDERS, tuple(ladders)), rest)
    if target == "rondel":
        icon = fill.rondel[board.rondel]
        board = _board_with(board, RONDEL_FIELD, board.rondel + 1)
        colour = ""
    else:
        index = tables.colours.index(target)
        tracks = list(board.tracks)
        icon = fill.flower_track[tracks[index]]
        tracks[index] += 1
        board = _board_with(board, TRACKS, tuple(tracks))
        colour = COLOUR_CODE[target]
    state = _with_board(state, board, rest)
    if icon == "stamp" and colour:
        return _with_tasks(state, (*rest, _task(Stamp, colour)))
    if icon in ("stamp", "stamp_any"):  # a rondel petal has no colour of its own
        return _with_tasks(state, (*rest, T_STAMP_ANY))
    if icon == "gnome":
        return _with_tasks(state, (*rest, T_GNOME))
    if icon == "caterpillar":
        return _caterpillars(state, 1)
    return state


def __getattr__(name: str) -> Any:
    # card_text, die_text and effect_text moved to papillon.engine.text; old imports keep working.
    if name in ("card_text", "die_text", "effect_text"):
        from papillon.engine import text

        return getattr(text, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
