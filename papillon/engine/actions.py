"""A player's decision as a value: :class:`Action`, python-chess's ``Move`` as the model.

An action has a :class:`Kind` and the typed fields that kind uses (a plot, an edge, a pair,
a part, a colour, a code, an option); ``str(action)`` is its text in a game log (``"plot C3"``,
``"edge B1-C1"``, ``"fill hb"``) and :meth:`Action.parse` reads that text back, so logs keep
the words they always had while every front end reads fields instead of splitting strings.

Actions are interned: the same text always gives the same object, so a legal-actions tuple is
searched by identity first and building the tuples costs no allocation.  An action equals its
text (and hashes like it), so ``"plot C3" in state.legal_actions()`` still reads as it did when
actions were strings; new code reads the fields.

>>> a = Action.parse("edge B1-C1")
>>> a.kind, a.edge, str(a)
(<Kind.EDGE: 'edge'>, 2, 'edge B1-C1')
>>> Action.parse("plot C3") is plot_action(12)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache

from papillon.engine.tables import EDGE_BY_NAME, EDGE_NAMES, PLOT_BY_NAME, PLOT_NAMES


class Kind(StrEnum):
    """What an action does; its value is the action's first word in a log."""

    START = "start"
    """Fill the butterfly space of a starting field (``plot``)."""
    PAIR = "pair"
    """Take a pair of this round's cards and dice (``pair``, 0-based)."""
    PART = "part"
    """Resolve that part of the pair next (``part``)."""
    PLOT = "plot"
    """Use a plot for the pending task (``plot``)."""
    EDGE = "edge"
    """Draw a brick on an edge (``edge``, an index into ``grid.EDGES``)."""
    FROM = "from"
    """Move the butterfly on ``plot``."""
    TO = "to"
    """End the chosen butterfly's line on ``plot``."""
    FILL = "fill"
    """Fill a bubble: ``code`` is a critter's ladder, a colour's track (``colour`` set too) or ``"rondel"``."""
    COLOUR = "colour"
    """Stamp a flower of ``colour`` (its name: ``"red"``)."""
    GNOME = "gnome"
    """Take the gnome option ``option`` (its word: ``"stamp"``, ``"bricks"``)."""
    FEATURE = "feature"
    """Take the tile ``code`` from the display."""
    CHOOSE = "choose"
    """Foot Path: ``option`` is ``"fill"`` or ``"move"``."""
    FIRST = "first"
    """With ``play.die_order = "player"``: resolve ``option`` first (``"caterpillars"`` or the die's extra icon)."""
    SKIP = "skip"
    """Decline a gain, or stop placing what may be placed "up to" a number."""


class Part(StrEnum):
    """The three parts of a pair (a ``StrEnum``: ``part == "die"`` reads as before)."""

    CORNER = "corner"
    CENTRE = "centre"
    DIE = "die"


RONDEL = "rondel"
"""The fill target of the rondel (a ``fill`` action's ``code``)."""

COLOURS = ("red", "blue", "yellow", "purple")


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Action:
    """One decision.  Build it with :meth:`parse` or the ``*_action`` helpers (they intern)."""

    kind: Kind
    plot: int = -1
    edge: int = -1
    pair: int = -1
    part: Part | None = None
    colour: str = ""
    code: str = ""
    option: str = ""
    text: str = field(default="", compare=False, repr=False)
    """The log text (worked out once, when the action is made)."""

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", _text(self))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action.parse({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Action:
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    @property
    def plot_name(self) -> str:
        """The plot's name (``"C3"``), for actions on a plot."""
        return PLOT_NAMES[self.plot]

    @property
    def edge_name(self) -> str:
        return EDGE_NAMES[self.edge]

    @property
    def subject(self) -> str:
        """What the action names after its verb (``"C3"``, ``"B1-C1"``, ``"hb"``, ``"2"``), as a person may type it alone."""
        return self.text.partition(" ")[2]

    @staticmethod
    def parse(text: str) -> Action:
        """The action whose log text is ``text``; ValueError when no action is written so."""
        return _parse(text)


def _text(a: Action) -> str:
    kind = a.kind
    if kind is Kind.SKIP:
        return "skip"
    if kind in (Kind.START, Kind.PLOT, Kind.FROM, Kind.TO):
        arg = PLOT_NAMES[a.plot]
    elif kind is Kind.EDGE:
        arg = EDGE_NAMES[a.edge]
    elif kind is Kind.PAIR:
        arg = str(a.pair + 1)
    elif kind is Kind.PART:
        arg = str(a.part)
    elif kind is Kind.COLOUR:
        arg = a.colour
    elif kind in (Kind.FILL, Kind.FEATURE):
        arg = a.code
    else:
        arg = a.option
    return f"{kind} {arg}"


@lru_cache(maxsize=4096)  # bounded: a server parses whatever people type
def _parse(text: str) -> Action:
    verb, space, arg = text.partition(" ") if isinstance(text, str) else ("", "", "")
    try:
        kind = Kind(verb)
    except ValueError:
        raise ValueError(f"not an action: {text!r}") from None
    if kind is Kind.SKIP:
        if space:
            raise ValueError(f"not an action: {text!r}")
        return SKIP
    if not arg or " " in arg:
        raise ValueError(f"not an action: {text!r}")
    if kind in (Kind.START, Kind.PLOT, Kind.FROM, Kind.TO):
        if arg not in PLOT_BY_NAME:
            raise ValueError(f"{text!r}: {arg!r} is not a plot")
        return _plot_kind(kind, PLOT_BY_NAME[arg])
    if kind is Kind.EDGE:
        if arg not in EDGE_BY_NAME:
            raise ValueError(f"{text!r}: {arg!r} is not an edge")
        return EDGE_ACTIONS[EDGE_BY_NAME[arg]]
    if kind is Kind.PAIR:
        if not (arg.isascii() and arg.isdigit() and len(arg) < 3 and int(arg) >= 1):
            raise ValueError(f"{text!r}: {arg!r} is not a pair number")
        return pair_action(int(arg) - 1)
    if kind is Kind.PART:
        if arg not in Part.__members__.values():
            raise ValueError(f"{text!r}: {arg!r} is not a part")
        return part_action(Part(arg))
    if kind is Kind.COLOUR:
        return colour_action(arg)
    if kind is Kind.FILL:
        return fill_action(arg)
    if kind is Kind.FEATURE:
        return feature_action(arg)
    return option_action(kind, arg)


def _plot_kind(kind: Kind, plot: int) -> Action:
    table = {Kind.START: START_ACTIONS, Kind.PLOT: PLOT_ACTIONS, Kind.FROM: FROM_ACTIONS, Kind.TO: TO_ACTIONS}[kind]
    return table[plot]


SKIP = Action(Kind.SKIP)
PLOT_ACTIONS = tuple(Action(Kind.PLOT, plot=p) for p in range(len(PLOT_NAMES)))
FROM_ACTIONS = tuple(Action(Kind.FROM, plot=p) for p in range(len(PLOT_NAMES)))
TO_ACTIONS = tuple(Action(Kind.TO, plot=p) for p in range(len(PLOT_NAMES)))
START_ACTIONS = tuple(Action(Kind.START, plot=p) for p in range(len(PLOT_NAMES)))
EDGE_ACTIONS = tuple(Action(Kind.EDGE, edge=i) for i in range(len(EDGE_NAMES)))


def plot_action(plot: int) -> Action:
    return PLOT_ACTIONS[plot]


@cache
def pair_action(pair: int) -> Action:
    return Action(Kind.PAIR, pair=pair)


@cache
def part_action(part: Part) -> Action:
    return Action(Kind.PART, part=Part(part))


@cache
def colour_action(colour: str) -> Action:
    return Action(Kind.COLOUR, colour=colour)


@cache
def fill_action(code: str) -> Action:
    """Fill a bubble of ``code``: a critter's ladder, a colour's track, or the rondel."""
    return Action(Kind.FILL, code=code, colour=code if code in COLOURS else "")


@cache
def feature_action(code: str) -> Action:
    return Action(Kind.FEATURE, code=code)


@cache
def option_action(kind: Kind, option: str) -> Action:
    """A gnome option, a Foot Path choice or a die order, by its word."""
    return Action(kind, option=option)


def as_action(action: Action | str) -> Action:
    """``action`` itself, or the action its text names (ValueError when none)."""
    return action if isinstance(action, Action) else _parse(action)


def verb_and_subject(action: Action | str) -> tuple[str, str]:
    """An action's verb and what it names (``("plot", "C3")``); also for a tap written like an action
    that is not one of the engine's (a score sheet's ``"butterfly C3"``, :mod:`papillon.scoresheet`)."""
    if isinstance(action, Action):
        return str(action.kind), action.subject
    verb, _, subject = action.partition(" ")
    return verb, subject
