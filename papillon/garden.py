"""The garden: an immutable value holding a sheet's 25 plots, bricks and butterflies."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any

from papillon.edition import COLOURS, Edition, standard_edition
from papillon.grid import EDGES, PLOT_NAMES, PLOTS, SYMMETRIES, Edge, Plot, parse_edge, transform_edge

if TYPE_CHECKING:
    from papillon.score import ScoreCard


class Ground(Enum):
    """What a plot is: RULES.md §1.2."""

    EMPTY = "empty"
    FLOWER = "flower"
    FIELD = "field"
    BRAMBLE = "bramble"


_COLOUR_CODES = {name: code for code, name in COLOURS.items()}


@dataclass(frozen=True, slots=True)
class Cell:
    """The content of one plot.

    ``colour`` belongs to flowers and ``occupant`` (a two-letter critter or
    feature code) to fields; a cell that breaks this can be built but is
    reported by :meth:`Garden.problems`.
    """

    ground: Ground
    colour: str | None = None
    occupant: str | None = None
    code: str = field(init=False, repr=False, compare=False)
    """The notation code of this cell (``'?'`` for an impossible cell), stored: scoring reads it for every plot."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", self._code())

    @staticmethod
    @cache
    def parse(code: str) -> Cell:
        """The cell written ``code`` in the notation (without the ``*``).

        >>> Cell.parse("R")
        Cell(ground=<Ground.FLOWER: 'flower'>, colour='red', occupant=None)
        """
        if code in COLOURS:
            return Cell(Ground.FLOWER, colour=COLOURS[code])
        if code in _SIMPLE:
            return _SIMPLE[code]
        if len(code) == 2 and code.isascii() and code.isalpha() and code.islower():
            return Cell(Ground.FIELD, occupant=code)
        raise ValueError(f"not a plot code: {code!r}")

    def _code(self) -> str:
        if self.ground is Ground.FLOWER:
            return _COLOUR_CODES.get(self.colour or "", "?")
        if self.ground is Ground.FIELD and self.occupant:
            return self.occupant
        return {Ground.EMPTY: ".", Ground.FIELD: "F", Ground.BRAMBLE: "X"}[self.ground]

    @property
    def is_field(self) -> bool:
        return self.ground is Ground.FIELD

    @property
    def is_flower(self) -> bool:
        return self.ground is Ground.FLOWER

    @property
    def is_empty(self) -> bool:
        return self.ground is Ground.EMPTY


EMPTY = Cell(Ground.EMPTY)
FIELD = Cell(Ground.FIELD)
BRAMBLE = Cell(Ground.BRAMBLE)
_SIMPLE = {".": EMPTY, "F": FIELD, "X": BRAMBLE}


def flower(colour: str) -> Cell:
    """A flower cell of the colour named ``colour`` (``'red'``) or coded (``'R'``)."""
    return Cell.parse(_COLOUR_CODES.get(colour, colour))


@dataclass(frozen=True)
class Garden:
    """One Garden sheet.

    ``cells[p]`` is the content of plot ``p`` (see :mod:`papillon.grid`);
    ``bricks`` the brick edges drawn; ``butterflies`` the plots whose
    butterfly space is filled; ``meta`` the notation's metadata in order.
    "Changing" a garden makes a new one (:meth:`with_cell` and friends).
    """

    cells: tuple[Cell, ...]
    bricks: frozenset[Edge] = frozenset()
    butterflies: frozenset[Plot] = frozenset()
    meta: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # Every garden read passes here: the common case (exact types) is checked with set operations.
        cells, bricks, butterflies = self.cells, self.bricks, self.butterflies
        if len(cells) != len(PLOTS) or not (set(map(type, cells)) <= _CELL_TYPE or all(isinstance(c, Cell) for c in cells)):
            raise ValueError(f"a garden has {len(PLOTS)} cells")
        if not (set(map(type, bricks)) <= _EDGE_TYPE or all(isinstance(e, Edge) for e in bricks)) or not _EDGE_SET.issuperset(bricks):
            raise ValueError("bricks must be interior edges of the garden")
        if not (set(map(type, butterflies)) <= _INT_TYPE or all(isinstance(p, int) for p in butterflies)) or not _PLOT_SET.issuperset(
            butterflies
        ):
            raise ValueError("butterflies must be plots 0..24")
        if self.meta:
            for key, value in self.meta:
                _check_meta(key, value)
            if len({key for key, _ in self.meta}) != len(self.meta):
                raise ValueError("metadata keys must be different")

    # -- named constructors -------------------------------------------------

    @classmethod
    def empty(cls, starting_fields: Iterable[Plot] | None = None, edition: Edition | None = None) -> Garden:
        """A blank sheet: empty plots but the starting fields (the edition's by default)."""
        if starting_fields is None:
            starting_fields = (edition or standard_edition()).rules.starting_fields
        fields = set(starting_fields)
        return cls(tuple(FIELD if p in fields else EMPTY for p in PLOTS))

    @classmethod
    def from_codes(
        cls,
        rows: Iterable[Iterable[str]],
        bricks: Iterable[str | Edge] = (),
        meta: Mapping[str, str] | None = None,
    ) -> Garden:
        """A garden from 5 rows of 5 notation codes (``'R*'`` = red, butterfly).

        >>> Garden.from_codes([["R*"] + ["."] * 4] + [["."] * 5] * 4).butterflies
        frozenset({0})
        """
        cells, butterflies = [], set()
        for plot, code in enumerate(c for row in rows for c in row):
            if code.endswith("*"):
                butterflies.add(plot)
                code = code[:-1]
            cells.append(Cell.parse(code))
        edges = frozenset(b if isinstance(b, Edge) else parse_edge(b) for b in bricks)
        return cls(tuple(cells), edges, frozenset(butterflies), tuple((meta or {}).items()))

    @classmethod
    def from_checked(
        cls, cells: tuple[Cell, ...], bricks: frozenset[Edge], butterflies: frozenset[Plot], meta: tuple[tuple[str, str], ...]
    ) -> Garden:
        """A garden of values its caller has already checked (exact types, interior edges, plots, metadata).

        The notation reader builds thousands: this skips :meth:`__post_init__`'s checks, nothing else.
        Anything else builds a garden the usual way, which refuses bad values.
        """
        garden = object.__new__(cls)
        for name, value in (("cells", cells), ("bricks", bricks), ("butterflies", butterflies), ("meta", meta)):
            object.__setattr__(garden, name, value)
        return garden

    @classmethod
    def from_notation(cls, text: str, edition: Edition | None = None) -> Garden:
        """Parse ``.garden`` text (raises :class:`~papillon.errors.NotationError`)."""
        from papillon.notation import parse

        return parse(text, edition)

    @classmethod
    def from_json(cls, data: Any, edition: Edition | None = None) -> Garden:
        """The garden of the JSON form (a parsed object, or its text)."""
        from papillon.notation import from_json

        return from_json(data, edition)

    # -- views ------------------------------------------------------------------

    def __getitem__(self, plot: Plot) -> Cell:
        return self.cells[plot]

    def to_notation(self) -> str:
        """The canonical ``.garden`` text."""
        from papillon.notation import format_garden

        return format_garden(self)

    def to_json(self) -> dict[str, Any]:
        """The JSON form of NOTATION.md, as a ``dict``."""
        from papillon.notation import to_json

        return to_json(self)

    def __str__(self) -> str:
        return self.to_notation()

    def __repr__(self) -> str:
        # The notation as a literal to paste back: readable lines where Python allows it.
        text = self.to_notation()
        if "\\" in text or "'''" in text:
            return f"Garden.from_notation({text!r})"
        return f"Garden.from_notation('''\\\n{text}''')"

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.meta)

    def plots_where(self, ground: Ground) -> tuple[Plot, ...]:
        return tuple(p for p in PLOTS if self.cells[p].ground is ground)

    def has_brick(self, edge: Edge) -> bool:
        return edge in self.bricks

    def score(self, edition: Edition | None = None) -> ScoreCard:
        """Shorthand for :func:`papillon.score.score`."""
        from papillon.score import score

        return score(self, edition)

    # -- "changes" (each returns a new garden) ----------------------------------

    def with_cell(self, plot: Plot, cell: Cell) -> Garden:
        cells = list(self.cells)
        cells[plot] = cell
        return replace(self, cells=tuple(cells))

    def with_brick(self, edge: Edge) -> Garden:
        return replace(self, bricks=self.bricks | {edge})

    def with_butterfly(self, plot: Plot) -> Garden:
        return replace(self, butterflies=self.butterflies | {plot})

    def with_meta(self, **values: str) -> Garden:
        meta = dict(self.meta)
        meta.update(values)
        return replace(self, meta=tuple(meta.items()))

    def transformed(self, symmetry: str) -> Garden:
        """The garden under one of the 8 symmetries of :data:`papillon.grid.SYMMETRIES`."""
        table = SYMMETRIES[symmetry]
        cells: list[Cell] = [EMPTY] * len(PLOTS)
        for plot, cell in enumerate(self.cells):
            cells[table[plot]] = cell
        return replace(
            self,
            cells=tuple(cells),
            bricks=frozenset(transform_edge(e, table) for e in self.bricks),
            butterflies=frozenset(table[p] for p in self.butterflies),
        )

    # -- rule checks ----------------------------------------------------------------

    def problems(self, edition: Edition | None = None) -> list[Problem]:
        """States that parse but break the rules (empty if none).

        Each is a :class:`Problem`: the sentence itself (a ``str``), with a ``code`` and the
        ``plot`` a program can branch on.
        """
        edition = edition or standard_edition()
        found: list[Problem] = []
        # A garden read from a file holds only cells the edition knows, as Cell.parse made them: nothing to look at.
        cells = () if _plain_cells(edition)[1].issuperset(map(id, self.cells)) else self.cells
        for plot, cell in enumerate(cells):
            occupant = cell.occupant
            if occupant is None and cell.code != "?" and (cell.colour is None or cell.ground is Ground.FLOWER):
                continue  # most plots: a plain cell, nothing to report
            where = PLOT_NAMES[plot]
            if cell.is_flower and cell.colour not in _COLOUR_CODES:
                found.append(Problem("flower_colour", plot, f"{where}: a flower needs one of the colours {', '.join(COLOURS.values())}"))
            if not cell.is_flower and cell.colour is not None:
                found.append(Problem("colour_not_flower", plot, f"{where}: only a flower has a colour, this plot is {cell.ground.value}"))
            if occupant is None:
                continue
            if edition.is_critter(occupant):
                thing = f"a critter ({edition.occupant_name(occupant)})"
            elif edition.is_feature(occupant):
                thing = f"a feature ({edition.occupant_name(occupant)})"
            else:
                retired = edition.retired_note(occupant)
                message = f"{where}: {occupant!r} is not a critter or feature of the {edition.name} edition"
                found.append(Problem("unknown_occupant", plot, message + (f": {retired}" if retired else "")))
                continue
            if not cell.is_field:
                found.append(Problem("occupant_not_in_field", plot, f"{where}: {thing} outside a field (the plot is {cell.ground.value})"))
        return found


@cache
def _plain_cells(edition: Edition) -> tuple[tuple[Cell, ...], frozenset[int]]:
    """The cells of every code ``edition`` knows, as :meth:`Cell.parse` makes them once, and their identities.

    A garden made of these cells has no problem.  Identities, not equality: a cell's hash is computed in
    Python, an ``id`` is not, and the cells are kept here, so no other object can take their identities.
    """
    cells = tuple(Cell.parse(code) for code in edition.plot_codes)
    return cells, frozenset(map(id, cells))


_EDGE_SET = frozenset(EDGES)
_PLOT_SET = frozenset(PLOTS)
_CELL_TYPE, _EDGE_TYPE, _INT_TYPE = {Cell}, {Edge}, {int}


class Problem(str):
    """One rule a garden breaks: the sentence (this ``str``), its ``code`` and its ``plot``.

    Codes: ``"flower_colour"``, ``"colour_not_flower"``, ``"unknown_occupant"``,
    ``"occupant_not_in_field"``.  A ``str`` so that printing it, or comparing it with a
    sentence, reads as before.

    >>> p = Problem("unknown_occupant", 0, "A1: 'zz' is not a critter or feature of the standard edition")
    >>> p.code, p.plot, p == "A1: 'zz' is not a critter or feature of the standard edition"
    ('unknown_occupant', 0, True)
    """

    code: str
    plot: Plot

    def __new__(cls, code: str, plot: Plot, message: str) -> Problem:
        problem = super().__new__(cls, message)
        problem.code = code
        problem.plot = plot
        return problem

    @property
    def message(self) -> str:
        return str.__str__(self)


def valid_meta_key(key: object) -> bool:
    """A metadata key: ASCII letters, digits, ``_`` or ``-``, starting with a letter."""
    return isinstance(key, str) and key[:1].isalpha() and key.isascii() and all(c.isalnum() or c in "_-" for c in key)


def valid_meta_value(value: object) -> bool:
    """A value the notation writes back exactly: one line, no ``#``, no surrounding spaces."""
    return isinstance(value, str) and value == value.strip(" ") and "#" not in value and not any(_is_control(c) for c in value)


def _check_meta(key: str, value: str) -> None:
    """Refuse metadata the notation could not write back exactly."""
    if not valid_meta_key(key):
        raise ValueError(f"metadata key {key!r}: expected letters, digits, '_' or '-', starting with a letter")
    if not valid_meta_value(value):
        raise ValueError(f"metadata {key}: a value is one line without '#', control characters or surrounding spaces")


def _is_control(char: str) -> bool:
    # Line and paragraph separators end a line for some readers; other control characters have no place in one.
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")
