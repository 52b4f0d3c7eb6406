"""Hypothesis strategies for random gardens, shared by the property tests.

``gardens()`` draws any garden the notation can write: every code of the standard
edition (flowers weighted up so patches form), any butterflies, any subset of the
40 interior edges, optional metadata.  ``ring_gardens()`` draws bricks as rings around
rectangles (nested, with a gap, touching the border or not) with flower patches inside,
so enclosures actually occur.  Use them as ``@given(ring_gardens())`` after
``from strategies import ring_gardens`` (pytest puts ``tests/`` on the path).
"""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

from papillon.edition import COLOURS, standard_edition
from papillon.garden import Cell, Garden
from papillon.grid import EDGES, PLOTS, SIZE, Edge, Plot, edge_between, plot_at, plot_col, plot_row

FLOWER_CODES = tuple(COLOURS)
"""``R B Y P``."""

STANDARD_CODES = (".", *FLOWER_CODES, "X", "F", *standard_edition().occupant_codes)
"""Every plot code of the standard edition (``.`` first: hypothesis shrinks towards it)."""

# Flowers four times as likely as any other code, so patches of 3 and more are common.
_WEIGHTED_CODES = (".", *FLOWER_CODES * 4, "X", "F", *standard_edition().occupant_codes)

codes = st.sampled_from(_WEIGHTED_CODES)
"""One plot code, without ``*``."""

bricks = st.frozensets(st.sampled_from(EDGES))
"""Any subset of the 40 interior edges."""

edges = st.sampled_from(EDGES)
"""One interior edge."""

butterflies = st.frozensets(st.sampled_from(PLOTS))
"""Any set of plots with a filled butterfly space."""

meta_keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,11}", fullmatch=True)
"""A metadata key the notation can write (``player``, ``round_2``, ``colour-blind``)."""

meta_values = st.text(
    # Printable text on one line: no control characters, line or paragraph separators,
    # surrogates or '#' (a comment); surrounding spaces are not kept by the notation.
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="#"),
    max_size=24,
).map(lambda value: value.strip(" "))
"""A metadata value the notation can write back exactly."""

metas = st.lists(st.tuples(meta_keys, meta_values), max_size=4, unique_by=lambda item: item[0]).map(tuple)
"""Optional metadata: a few distinct keys in order."""


def garden_of(
    cells: Iterable[str], bricks: Iterable[Edge] = (), butterflies: Iterable[Plot] = (), meta: tuple[tuple[str, str], ...] = ()
) -> Garden:
    """A garden from 25 codes (row by row, no ``*``), its bricks, butterflies and metadata."""
    return Garden(tuple(Cell.parse(code) for code in cells), frozenset(bricks), frozenset(butterflies), meta)


@st.composite
def gardens(draw: st.DrawFn, *, with_meta: bool = True) -> Garden:
    """Any garden of the standard edition, every plot, butterfly and brick independent."""
    cells = draw(st.lists(codes, min_size=len(PLOTS), max_size=len(PLOTS)))
    meta = draw(metas) if with_meta else ()
    return garden_of(cells, draw(bricks), draw(butterflies), meta)


Rectangle = tuple[int, int, int, int]
"""``(first column, first row, last column, last row)``, from 0, inclusive."""


def rectangle_plots(rect: Rectangle) -> frozenset[Plot]:
    col0, row0, col1, row1 = rect
    return frozenset(plot_at(c, r) for c in range(col0, col1 + 1) for r in range(row0, row1 + 1))


def ring(rect: Rectangle) -> frozenset[Edge]:
    """The bricks around a rectangle of plots (the border of the garden holds none)."""
    inside = rectangle_plots(rect)
    return frozenset(edge_between(p, q) for p in inside for q in _neighbours(p) if q not in inside)


def _neighbours(plot: Plot) -> list[Plot]:
    col, row = plot_col(plot), plot_row(plot)
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
    return [plot_at(col + dc, row + dr) for dc, dr in steps if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE]


def _within(outer: Rectangle, inner: Rectangle) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


RECTANGLES: tuple[Rectangle, ...] = tuple(
    (c0, r0, c1, r1) for c0 in range(SIZE) for r0 in range(SIZE) for c1 in range(c0, SIZE) for r1 in range(r0, SIZE)
)
"""Every rectangle of plots (225)."""

_CLOSED = tuple(r for r in RECTANGLES if _within((1, 1, SIZE - 2, SIZE - 2), r) and len(rectangle_plots(r)) >= 3)
"""Rectangles off the border and big enough for a patch: their ring closes around it."""

rectangles = st.one_of(st.sampled_from(_CLOSED), st.sampled_from(RECTANGLES))
"""A rectangle of plots, half the time one whose ring can enclose a patch."""

_ROOMY = tuple(r for r in RECTANGLES if r[2] - r[0] >= 2 and r[3] - r[1] >= 2)
"""Rectangles with room for another ring strictly inside."""

_SPLITTABLE = tuple(r for r in RECTANGLES if len(rectangle_plots(r)) >= 6 and min(r[2] - r[0], r[3] - r[1]) <= 2)
"""Rectangles that hold two patches of 3 side by side."""


@st.composite
def _fill(draw: st.DrawFn, cells: list[str], plots: frozenset[Plot], second: bool = False) -> None:
    """Fill ``plots`` with a patch: clean, with a bramble or other flower, spoiled, or left alone.

    A ``second`` patch beside another one is never spoiled and usually of another colour.
    """
    colour = draw(st.sampled_from(FLOWER_CODES))
    if second and draw(st.integers(0, 3)):
        colour = draw(st.sampled_from([c for c in FLOWER_CODES if c != cells[min(plots)]]))
    kinds = ("clean", "clean", "mixed", "random") if second else ("clean", "clean", "mixed", "spoiled", "random")
    kind = draw(st.sampled_from(kinds))
    if kind == "random":
        return
    for plot in plots:
        cells[plot] = colour
    odd = draw(st.sampled_from(sorted(plots)))
    if kind == "mixed":
        cells[odd] = draw(st.sampled_from(("X", *FLOWER_CODES)))
    elif kind == "spoiled":
        cells[odd] = draw(st.sampled_from((".", "F", *standard_edition().occupant_codes)))


@st.composite
def _rings(draw: st.DrawFn, cells: list[str]) -> set[Edge]:
    """One drawing of rings (filling ``cells`` inside them); returns their bricks."""
    shape = draw(st.sampled_from(("single", "single", "nested", "two patches")))
    if shape == "nested":
        outer = draw(st.one_of(st.just((1, 1, SIZE - 2, SIZE - 2)), st.sampled_from(_ROOMY)))
        strictly_inside = (outer[0] + 1, outer[1] + 1, outer[2] - 1, outer[3] - 1)
        rects = [outer, draw(st.sampled_from([r for r in RECTANGLES if _within(strictly_inside, r)]))]
    else:
        splittable = st.one_of(st.sampled_from([r for r in _SPLITTABLE if r in _CLOSED]), st.sampled_from(_SPLITTABLE))
        rects = [draw(splittable if shape == "two patches" else rectangles)]
    walls: set[Edge] = set()
    for rect in rects:
        around = ring(rect)
        if around and draw(st.integers(0, 4)) == 0:
            around -= {draw(st.sampled_from(sorted(around)))}  # a ring with a gap
        walls |= around
        draw(_fill(cells, rectangle_plots(rect)))
    if shape == "two patches":  # a second patch in one half, maybe of the same colour
        col0, row0, col1, row1 = rects[0]
        if col1 - col0 <= row1 - row0:
            half = (col0, row0, col0 + (col1 - col0) // 2, row1)
        else:
            half = (col0, row0, col1, row0 + (row1 - row0) // 2)
        draw(_fill(cells, rectangle_plots(half), second=True))
    return walls


@st.composite
def ring_gardens(draw: st.DrawFn, *, with_meta: bool = False) -> Garden:
    """A garden whose bricks are mostly rings: around rectangles, nested, some with a gap.

    Inside a ring the plots are mostly flowers of one colour (or two patches side
    by side), sometimes with a bramble or a flower of another colour among them,
    sometimes spoiled by an empty plot or a field; outside, any codes.  A few stray
    bricks may dangle anywhere.
    """
    cells = draw(st.lists(codes, min_size=len(PLOTS), max_size=len(PLOTS)))
    walls: set[Edge] = set(draw(st.frozensets(edges, max_size=2)))
    for _ in range(draw(st.integers(1, 2))):
        walls |= draw(_rings(cells))
    return garden_of(cells, walls, draw(butterflies), draw(metas) if with_meta else ())


any_gardens = st.one_of(gardens(), ring_gardens(with_meta=True))
"""Either kind of random garden."""

__all__ = [
    "FLOWER_CODES",
    "RECTANGLES",
    "STANDARD_CODES",
    "any_gardens",
    "bricks",
    "butterflies",
    "codes",
    "edges",
    "garden_of",
    "gardens",
    "metas",
    "rectangle_plots",
    "rectangles",
    "ring",
    "ring_gardens",
]
