"""Shapely geometry of the garden: plot squares, brick segments, enclosures.

Coordinates are grid units from :mod:`papillon.grid` (plot ``(col, row)`` is
the unit square at ``(col, row)``, y down).  The renderer scales them to
millimetres; nothing here knows about paper.

An *enclosure* is a face of the brick drawing: shapely's ``polygonize`` of
the brick segments (plus the border when the edition's ``border_encloses``
is on).  The plots whose centres lie in a face are the plots that reach each
other without crossing a brick, which is RULES.md §2.2's "region"; the plots
inside the face's exterior ring (its holes filled) are the region plus the
pockets it surrounds, RULES.md §2.2's "encircled area".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from papillon.grid import (
    ALL_PLOTS_MASK,
    BORDER_MASK,
    BORDER_SEGMENTS,
    EDGE_INDEX,
    EDGES,
    PLOTS,
    SIZE,
    Edge,
    Plot,
    flood,
    links,
    open_sides,
    plot_center,
    plot_square,
)

if TYPE_CHECKING:
    import numpy as np
    from shapely.geometry import Polygon

# numpy and shapely load on the first enclosure looked for, not with `import papillon`:
# a garden with fewer than four bricks has none, and a one-file `papillon score` starts faster.


@cache
def _shapes() -> tuple[Any, Any, Any, Any]:
    """The brick segments, the border segments and the plot centres, as shapely and numpy arrays."""
    import numpy as np
    import shapely

    segments = shapely.linestrings(np.array([edge.segment() for edge in EDGES], dtype=float))
    # The border in unit segments: polygonize needs a node wherever a brick meets it.
    border = shapely.linestrings(np.array(BORDER_SEGMENTS, dtype=float))
    centres_x, centres_y = np.array([plot_center(p) for p in PLOTS]).T
    return segments, border, centres_x, centres_y


def plot_polygon(plot: Plot) -> Polygon:
    """The unit square of a plot."""
    from shapely.geometry import box

    return box(*plot_square(plot))


def brick_lines(bricks: Iterable[Edge], border: bool = False) -> np.ndarray:
    """The brick segments as an array of shapely LineStrings (with the border if asked)."""
    import numpy as np

    segments, border_lines, _, _ = _shapes()
    lines = segments[[EDGE_INDEX[edge] for edge in sorted(bricks)]]
    return np.concatenate([lines, border_lines]) if border else lines


@dataclass(frozen=True)
class Enclosure:
    """One face of the brick drawing and the plots inside it."""

    polygon: Polygon
    plots: frozenset[Plot]
    """The region: plots whose centres lie in the face (its holes excluded)."""
    encircled: frozenset[Plot] = frozenset()
    """The encircled area: plots whose centres lie inside the face's exterior ring."""


def _vertex(point: tuple[int, int]) -> int:
    return point[1] * (SIZE + 1) + point[0]


_EDGE_ENDS = tuple((_vertex(a), _vertex(b)) for a, b in (edge.segment() for edge in EDGES))
"""The two grid points of each edge, as vertex numbers."""


def closes_ring(bricks: int) -> bool:
    """Whether the bricks of a mask (bit ``i`` = ``EDGES[i]``) close a ring, without shapely.

    Without a ring, polygonize finds no face: a cheap test (union-find on the grid points: an
    edge between two points already joined closes a ring) that spares shapely most brick sets.

    >>> from papillon.grid import EDGE_INDEX, EDGES, parse_plot
    >>> ring = sum(1 << EDGE_INDEX[e] for e in EDGES if parse_plot("C3") in e)
    >>> closes_ring(ring), closes_ring(ring & ring - 1)
    (True, False)
    """
    return _joined(list(range(_POINTS)), bricks)


_POINTS = (SIZE + 1) ** 2
"""Grid points (the corners of the plots), numbered row by row as :func:`_vertex` numbers them."""


def _root(parent: list[int], v: int) -> int:
    while parent[v] != v:
        parent[v] = v = parent[parent[v]]
    return v


def _joined(parent: list[int], bricks: int) -> bool:
    """Join the two points of each brick in ``parent`` (union-find); whether a brick closed a ring (it stops there)."""
    while bricks:
        low = bricks & -bricks
        a, b = _EDGE_ENDS[low.bit_length() - 1]
        bricks ^= low
        ra, rb = _root(parent, a), _root(parent, b)
        if ra == rb:
            return True
        parent[ra] = rb
    return False


@lru_cache(maxsize=1 << 12)
def ring_closers(bricks: int) -> int | None:
    """The edges whose brick, added to ``bricks`` (a mask that closes no ring), would close one, as a
    mask; None when ``bricks`` close a ring already.

    For a bot weighing every brick it may draw: one union-find for the decision, not one per brick
    (``closes_ring(bricks | 1 << i)`` is ``ring_closers(bricks) >> i & 1``; tests/test_fast_evaluation.py).
    Memoised by brick set: a game asks again for the brick sets it has weighed.
    """
    parent = list(range(_POINTS))
    if _joined(parent, bricks):
        return None
    closers = 0
    for i, (a, b) in enumerate(_EDGE_ENDS):
        if _root(parent, a) == _root(parent, b):
            closers |= 1 << i
    return closers & ~bricks


def enclosures(bricks: Iterable[Edge], border: bool = False) -> tuple[Enclosure, ...]:
    """Every face of the brick drawing, with the plots whose centres it holds.

    >>> from papillon.grid import parse_plot, EDGES
    >>> ring = [e for e in EDGES if parse_plot("C3") in e]
    >>> [sorted(e.plots) for e in enclosures(ring)]
    [[12]]
    """
    bricks = list(bricks)
    if len(bricks) + (len(BORDER_SEGMENTS) if border else 0) < 4:  # a face needs at least four unit segments
        return ()
    import numpy as np
    import shapely

    _, _, centres_x, centres_y = _shapes()
    faces = shapely.get_parts(shapely.polygonize(brick_lines(bricks, border)))
    found = []
    for face in faces:
        inside = shapely.contains_xy(face, centres_x, centres_y)
        region = frozenset(int(p) for p in np.flatnonzero(inside))
        if shapely.get_num_interior_rings(face):
            filled = shapely.contains_xy(shapely.polygons(face.exterior), centres_x, centres_y)
            encircled = frozenset(int(p) for p in np.flatnonzero(filled))
        else:
            encircled = region
        found.append(Enclosure(face, region, encircled))
    return tuple(found)


# --------------------------------------------------------------------------- the faces as plot masks, without shapely


def face_masks(bricks: int, border: bool = False) -> tuple[tuple[int, int], ...]:
    """``(region, encircled)`` of every face :func:`enclosures` finds, as plot masks, without shapely.

    The bricks lie on the lines between plots, so a face of the drawing is a union of plot
    squares: the plots one reaches from another without crossing a brick (a step through a
    grid point alone never joins two plots: a point on no brick has four open sides around
    it).  The face is bounded, so polygonize finds it, unless its plots reach the garden's
    edge while the border is no line of the drawing.  Its encircled area (the face with its
    holes filled) is every plot that cannot reach the edge without crossing the face: a plot
    on the edge is outside it, as its outer side is no side of the face.  In the order of the
    lowest plot of each region (shapely's order differs; the regions are disjoint).
    tests/test_fast_evaluation.py checks it against :func:`enclosures` on random brick sets.
    """
    right, down = open_sides(bricks)
    free_right, free_down = open_sides(0)
    found = []
    left = ALL_PLOTS_MASK
    while left:
        region = flood(left & -left, right, down)
        left &= ~region
        if not border and region & BORDER_MASK:
            continue
        rest = ALL_PLOTS_MASK & ~region
        outside = flood(BORDER_MASK & rest, *links(rest, free_right, free_down))
        found.append((region, ALL_PLOTS_MASK & ~outside))
    return tuple(found)
