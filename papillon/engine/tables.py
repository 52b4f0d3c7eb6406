"""Precomputed tables for one edition: what the engine looks up instead of recomputing.

Everything here is derived from :mod:`papillon.grid` (the only row/column
arithmetic) and the edition; a :class:`Tables` is built once per edition and
shared by every state of every game played under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from papillon.edition import COLOURS, Edition
from papillon.grid import ADJACENCIES, DIRECTIONS, EDGES, PLOTS, ROW_PLOTS, SIZE, plot_name, ray
from papillon.rules import BORDER_MASK, BRAMBLE, EMPTY, FIELD, FLOWER_CODES, NEIGHBOUR_EDGES

__all__ = ["BORDER_MASK", "BRAMBLE", "EMPTY", "FIELD", "FLOWER_CODES", "NEIGHBOUR_EDGES", "Tables", "tables_for"]

COLOUR_CODE: dict[str, str] = {name: code for code, name in COLOURS.items()}
"""Colour name (``'red'``) -> notation code (``'R'``)."""

PLOT_NAMES: tuple[str, ...] = tuple(plot_name(p) for p in PLOTS)
PLOT_BY_NAME: dict[str, int] = {name: p for p, name in enumerate(PLOT_NAMES)}
EDGE_NAMES: tuple[str, ...] = tuple(edge.name for edge in EDGES)
EDGE_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(EDGE_NAMES)}
for _i, _edge in enumerate(EDGES):  # "B1-A1" names the same edge as "A1-B1"
    EDGE_BY_NAME[f"{plot_name(_edge.b)}-{plot_name(_edge.a)}"] = _i

ROW_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in row) for row in ROW_PLOTS)


@dataclass(frozen=True, eq=False)
class Tables:
    """Lookup tables for one edition."""

    edition: Edition
    colours: tuple[str, ...]
    """Colour names in Fill-sheet order (the order of :data:`COLOURS`)."""
    critters: tuple[str, ...]
    ladders: tuple[int, ...]
    critter_points: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Neighbours by the edition's ``adjacency`` (patches always use orthogonal contact)."""
    moves: tuple[tuple[tuple[int, int], ...], ...]
    """For each plot: (end plot, mask of plots entered) of every legal butterfly movement (``butterfly_counts = "steps"``)."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    reach: tuple[int, ...]
    """The mask of every plot on a ray from each plot (where a butterfly there may fly, counting "new" plots)."""
    """For each plot: the plots of each straight line from it to the garden's edge (``butterfly_counts = "new"``)."""
    field_codes: frozenset[str]
    critter_codes: frozenset[str]
    feature_codes: frozenset[str]
    occupant_names: dict[str, str]
    gnome_spaces: frozenset[int]
    pairs: int
    decline_gains: bool
    """``play.decline_gains``: every gain may be declined (a ``skip`` beside its uses)."""


@cache
def _tables(edition: Edition) -> Tables:
    rules = edition.rules
    directions = [d for d in DIRECTIONS if rules.butterfly_diagonal or len(d) == 1]
    moves = []
    for p in PLOTS:
        options = []
        for direction in directions:
            for steps in range(1, rules.butterfly_steps + 1):
                path = ray(p, direction, steps)
                if path is not None:
                    options.append((path[-1], sum(1 << q for q in path)))
        moves.append(tuple(options))
    rays = tuple(tuple(line for d in directions if (line := _longest_ray(p, d))) for p in PLOTS)
    return Tables(
        edition=edition,
        colours=tuple(COLOURS.values()),
        critters=tuple(edition.critters),
        ladders=tuple(c.ladder for c in edition.critters.values()),
        critter_points=tuple(c.points for c in edition.critters.values()),
        neighbours=ADJACENCIES[rules.adjacency],
        moves=tuple(moves),
        rays=rays,
        reach=tuple(sum(1 << q for line in lines for q in line) for lines in rays),
        field_codes=frozenset({FIELD, *edition.occupant_codes}),
        critter_codes=frozenset(edition.critters),
        feature_codes=frozenset(edition.features),
        occupant_names={code: edition.occupant_name(code) for code in edition.occupant_codes},
        gnome_spaces=frozenset(edition.fill.caterpillar_gnome_spaces),
        pairs=edition.decks,
        decline_gains=edition.play.decline_gains,
    )


def _longest_ray(plot: int, direction: str) -> tuple[int, ...]:
    for steps in range(SIZE - 1, 0, -1):
        line = ray(plot, direction, steps)
        if line is not None:
            return line
    return ()


def tables_for(edition: Edition) -> Tables:
    """The (cached) tables of ``edition``."""
    return _tables(edition)
