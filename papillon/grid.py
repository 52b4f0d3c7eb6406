"""Coordinates of the 5×5 garden: plots, edges and neighbours.

This is the only module that does row/column arithmetic.  A plot is an
``int`` from 0 (``A1``, top-left) to 24 (``E5``, bottom-right), numbered row
by row, the way python-chess numbers squares.  An edge is the boundary
between two orthogonally adjacent plots, named by both (``"A1-A2"``).

Geometry uses *grid units*: plot ``(col, row)`` is the unit square
``[col, col + 1] × [row, row + 1]`` with y growing downwards, as on paper.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from papillon.errors import quote

SIZE = 5
COLUMNS = "ABCDE"
ROWS = "12345"

Plot = int
"""A plot index, 0..24 (row-major from A1)."""

PLOTS: tuple[Plot, ...] = tuple(range(SIZE * SIZE))


def plot_at(col: int, row: int) -> Plot:
    """The plot in column ``col`` (0 = A) and row ``row`` (0 = row 1).

    >>> plot_name(plot_at(2, 0))
    'C1'
    """
    if not (0 <= col < SIZE and 0 <= row < SIZE):
        raise ValueError(f"no plot at column {col}, row {row}")
    return row * SIZE + col


def plot_col(plot: Plot) -> int:
    """Column index, 0 (A) to 4 (E)."""
    return plot % SIZE


def plot_row(plot: Plot) -> int:
    """Row index, 0 (row 1) to 4 (row 5)."""
    return plot // SIZE


def plot_name(plot: Plot) -> str:
    """``'A1'`` .. ``'E5'``."""
    return COLUMNS[plot % SIZE] + ROWS[plot // SIZE]


PLOT_NAMES: tuple[str, ...] = tuple(plot_name(p) for p in PLOTS)
"""``PLOT_NAMES[p] == plot_name(p)``, for code that names every plot of many gardens."""


def parse_plot(text: str) -> Plot:
    """The plot named ``text`` (``'c3'`` is accepted as ``C3``).

    >>> parse_plot("C3")
    12
    """
    name = text.strip().upper()
    if len(name) != 2 or name[0] not in COLUMNS or name[1] not in ROWS:
        raise ValueError(f"not a plot name: {quote(text)} (expected A1 to E5)")  # quote cuts a pasted page short
    return plot_at(COLUMNS.index(name[0]), ROWS.index(name[1]))


def plot_center(plot: Plot) -> tuple[float, float]:
    """Centre of the plot in grid units (x right, y down)."""
    return plot_col(plot) + 0.5, plot_row(plot) + 0.5


def plot_square(plot: Plot) -> tuple[int, int, int, int]:
    """The plot's unit square in grid units: (left, top, right, bottom)."""
    col, row = plot_col(plot), plot_row(plot)
    return col, row, col + 1, row + 1


def on_border(plot: Plot) -> bool:
    """Whether the plot touches the outer border of the garden."""
    col, row = plot_col(plot), plot_row(plot)
    return col in (0, SIZE - 1) or row in (0, SIZE - 1)


def mask_plots(mask: int) -> list[Plot]:
    """The plots of a plot mask, lowest first (one step per plot in it, not per plot of the garden: a
    garden's butterflies or a patch are a few)."""
    plots = []
    while mask:
        low = mask & -mask
        plots.append(low.bit_length() - 1)
        mask ^= low
    return plots


class Edge(NamedTuple):
    """The boundary between two orthogonally adjacent plots, ``a < b``."""

    a: Plot
    b: Plot

    @property
    def name(self) -> str:
        return f"{plot_name(self.a)}-{plot_name(self.b)}"

    @property
    def vertical(self) -> bool:
        """True for an edge between left/right neighbours (a vertical line)."""
        return self.b == self.a + 1

    def segment(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The edge as a line segment in grid units."""
        col, row = plot_col(self.b), plot_row(self.b)
        if self.vertical:
            return (col, row), (col, row + 1)
        return (col, row), (col + 1, row)

    def __repr__(self) -> str:
        return f"Edge({self.name})"


def edge_between(p: Plot, q: Plot) -> Edge:
    """The edge between two orthogonally adjacent plots, in either order."""
    a, b = min(p, q), max(p, q)
    same_row = plot_row(a) == plot_row(b) and b == a + 1
    same_col = b == a + SIZE
    if not (same_row or same_col) or not (a >= 0 and b < SIZE * SIZE):
        raise ValueError(f"{_safe_name(p)} and {_safe_name(q)} are not neighbours")
    return Edge(a, b)


def _safe_name(plot: Plot) -> str:
    return plot_name(plot) if 0 <= plot < SIZE * SIZE else repr(plot)


def parse_edge(text: str) -> Edge:
    """The edge named ``'A1-A2'`` (either order).

    >>> parse_edge("C3-B3").name
    'B3-C3'
    """
    parts = text.split("-")
    if len(parts) != 2:
        raise ValueError(f"not an edge name: {quote(text)} (expected two plots like 'A1-A2')")
    return edge_between(parse_plot(parts[0]), parse_plot(parts[1]))


def _all_edges() -> tuple[Edge, ...]:
    edges = []
    for plot in PLOTS:
        if plot_col(plot) < SIZE - 1:
            edges.append(Edge(plot, plot + 1))
        if plot_row(plot) < SIZE - 1:
            edges.append(Edge(plot, plot + SIZE))
    return tuple(sorted(edges))


EDGES: tuple[Edge, ...] = _all_edges()
"""The 40 interior edges, sorted."""

EDGE_INDEX: dict[Edge, int] = {edge: i for i, edge in enumerate(EDGES)}

BORDER_SEGMENTS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = tuple(
    segment
    for i in range(SIZE)
    for segment in (((i, 0), (i + 1, 0)), ((i, SIZE), (i + 1, SIZE)), ((0, i), (0, i + 1)), ((SIZE, i), (SIZE, i + 1)))
)
"""The garden's outer border as unit segments in grid units (one per plot side on the border)."""

ROW_PLOTS: tuple[tuple[Plot, ...], ...] = tuple(tuple(row * SIZE + col for col in range(SIZE)) for row in range(SIZE))
"""The plots of each row, row 1 first."""


def edge_right(plot: Plot) -> Edge | None:
    """The edge on the right of ``plot`` (None in column E)."""
    return Edge(plot, plot + 1) if plot_col(plot) < SIZE - 1 else None


def edge_below(plot: Plot) -> Edge | None:
    """The edge below ``plot`` (None in row 5)."""
    return Edge(plot, plot + SIZE) if plot_row(plot) < SIZE - 1 else None


# --------------------------------------------------------------------------- plot masks
# A set of plots as an int, bit ``p`` for plot ``p``; a set of edges likewise, bit ``i`` for ``EDGES[i]``.
# Flood fills on masks move every plot of a set one step at once.

ALL_PLOTS_MASK = (1 << len(PLOTS)) - 1
"""Every plot."""
BORDER_MASK = sum(1 << p for p in PLOTS if on_border(p))
"""The plots on the garden's border."""

_EDGE_MASK_BYTES = (len(EDGES) + 7) // 8


def _walls_table(chunk: int, vertical: bool) -> tuple[int, ...]:
    """For each value of the ``chunk``-th byte of an edge mask: the plots whose right (or lower) side it walls."""
    sides = [1 << e.a if e.vertical == vertical else 0 for e in EDGES[8 * chunk : 8 * chunk + 8]]
    table = [0]
    for bit, side in enumerate(sides):  # the values below 2**bit, then each of them with this bit set
        table += [walls | side for walls in table[: 1 << bit]]
    return tuple(table + [0] * (256 - len(table)))


_RIGHT_WALLS = tuple(_walls_table(chunk, True) for chunk in range(_EDGE_MASK_BYTES))
_LOWER_WALLS = tuple(_walls_table(chunk, False) for chunk in range(_EDGE_MASK_BYTES))
_OPEN_RIGHT = sum(1 << p for p in PLOTS if plot_col(p) < SIZE - 1)
_OPEN_DOWN = sum(1 << p for p in PLOTS if plot_row(p) < SIZE - 1)


def open_sides(walls: int) -> tuple[int, int]:
    """The plots one may step right from, and down from, without crossing an edge of the mask ``walls``.

    >>> right, down = open_sides(1 << EDGE_INDEX[parse_edge("A1-B1")])
    >>> right & 1, down & 1, right >> 1 & 1
    (0, 1, 1)
    """
    right, down = _OPEN_RIGHT, _OPEN_DOWN
    for chunk in range(_EDGE_MASK_BYTES):
        byte = walls >> 8 * chunk & 255
        if byte:
            right &= ~_RIGHT_WALLS[chunk][byte]
            down &= ~_LOWER_WALLS[chunk][byte]
    return right, down


def links(plots: int, right: int, down: int) -> tuple[int, int]:
    """The steps of :func:`open_sides` (``right``, ``down``) that stay inside the mask ``plots``, as
    links for :func:`flood`: plots of ``plots`` whose right, and lower, neighbour is in it too."""
    return plots & plots >> 1 & right, plots & plots >> SIZE & down


def linked(right: int, down: int) -> int:
    """The plots at either end of a link."""
    return right | right << 1 | down | down << SIZE


def flood(plots: int, right: int, down: int) -> int:
    """Every plot reached from the mask ``plots`` by steps along links: bit ``p`` of ``right`` links ``p`` and
    the plot on its right, of ``down`` ``p`` and the plot below it.

    >>> flood(1, right=0b11, down=0) == 0b111
    True
    """
    while True:
        grown = plots | (plots & right) << 1 | (plots >> 1) & right | (plots & down) << SIZE | (plots >> SIZE) & down
        if grown == plots:
            return plots
        plots = grown


def _orthogonal(plot: Plot) -> tuple[Plot, ...]:
    col, row = plot_col(plot), plot_row(plot)
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
    return tuple(plot_at(col + dc, row + dr) for dc, dr in steps if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE)


def _king(plot: Plot) -> tuple[Plot, ...]:
    col, row = plot_col(plot), plot_row(plot)
    return tuple(
        plot_at(col + dc, row + dr)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dc or dr) and 0 <= col + dc < SIZE and 0 <= row + dr < SIZE
    )


ORTHOGONAL_NEIGHBOURS: tuple[tuple[Plot, ...], ...] = tuple(_orthogonal(p) for p in PLOTS)
KING_NEIGHBOURS: tuple[tuple[Plot, ...], ...] = tuple(_king(p) for p in PLOTS)

ADJACENCIES = {"orthogonal": ORTHOGONAL_NEIGHBOURS, "king": KING_NEIGHBOURS}
"""Neighbour tables by the edition option ``adjacency``."""

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, -1),
    "E": (1, 0),
    "S": (0, 1),
    "W": (-1, 0),
    "NE": (1, -1),
    "SE": (1, 1),
    "SW": (-1, 1),
    "NW": (-1, -1),
}
"""Compass directions as (column step, row step); north is row 1."""


def ray(plot: Plot, direction: str, steps: int) -> tuple[Plot, ...] | None:
    """The plots entered moving ``steps`` from ``plot``; None if it leaves the garden."""
    dc, dr = DIRECTIONS[direction]
    col, row = plot_col(plot), plot_row(plot)
    path = []
    for i in range(1, steps + 1):
        c, r = col + dc * i, row + dr * i
        if not (0 <= c < SIZE and 0 <= r < SIZE):
            return None
        path.append(plot_at(c, r))
    return tuple(path)


# The eight symmetries of the square, as maps (col, row) -> (col, row).
_LAST = SIZE - 1
SYMMETRIES: dict[str, tuple[Plot, ...]] = {
    name: tuple(plot_at(*fn(plot_col(p), plot_row(p))) for p in PLOTS)
    for name, fn in {
        "identity": lambda c, r: (c, r),
        "rotate90": lambda c, r: (_LAST - r, c),
        "rotate180": lambda c, r: (_LAST - c, _LAST - r),
        "rotate270": lambda c, r: (r, _LAST - c),
        "mirror": lambda c, r: (_LAST - c, r),
        "flip": lambda c, r: (c, _LAST - r),
        "transpose": lambda c, r: (r, c),
        "antitranspose": lambda c, r: (_LAST - r, _LAST - c),
    }.items()
}
"""Each symmetry of the square as a table: plot -> image plot."""


def transform_edge(edge: Edge, table: tuple[Plot, ...]) -> Edge:
    """The image of an edge under a plot symmetry table."""
    return edge_between(table[edge.a], table[edge.b])


def regions(walls: Iterable[Edge]) -> Iterator[frozenset[Plot]]:
    """Split the garden into regions that reach each other without crossing a wall.

    This is the flood fill; :mod:`papillon.geometry` finds the same regions
    with shapely, and the tests check that they agree.
    """
    walled = set(walls)
    seen: set[Plot] = set()
    for start in PLOTS:
        if start in seen:
            continue
        region = {start}
        stack = [start]
        while stack:
            p = stack.pop()
            for q in ORTHOGONAL_NEIGHBOURS[p]:
                if q not in region and Edge(min(p, q), max(p, q)) not in walled:
                    region.add(q)
                    stack.append(q)
        seen |= region
        yield frozenset(region)
