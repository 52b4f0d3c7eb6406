"""Random valid gardens with a realistic density, built with papillon's own garden model."""

from __future__ import annotations

import numpy as np

from papillon.garden import BRAMBLE, EMPTY, FIELD, Cell, Garden, flower
from papillon.grid import EDGES, PLOTS, SIZE, Edge, edge_between, plot_col, plot_row
from papillon.layout import random_starting_fields

COLOURS = ("red", "blue", "yellow", "purple")
CRITTERS = ("lb", "bb", "hh")
FEATURES = ("po", "sh", "bf", "tr", "fp", "ha", "gz")


def neighbours(plot: int) -> list[int]:
    col, row = plot_col(plot), plot_row(plot)
    spots = ((col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1))
    return [r * SIZE + c for c, r in spots if 0 <= c < SIZE and 0 <= r < SIZE]


def starting_fields(rng: np.random.Generator) -> tuple[int, ...]:
    """The printed starting fields: the edition's B4 and D2 on most sheets, else a random start."""
    if rng.random() < 0.8:
        return (16, 8)
    return random_starting_fields(int(rng.integers(0, 4)))


def random_garden(rng: np.random.Generator, fields: tuple[int, ...]) -> Garden:
    """A garden as players leave it: from a few rounds in to a full end-of-game sheet."""
    cells: list[Cell] = [EMPTY] * len(PLOTS)
    for plot in fields:
        cells[plot] = BRAMBLE if rng.random() < 0.04 else _field(rng)
    free = [p for p in PLOTS if p not in fields]
    filled = round(len(free) * rng.uniform(0.25, 0.95))
    order = list(rng.permutation(free))
    chosen = order[:filled]
    kinds = rng.choice(["flower", "field", "bramble"], size=len(chosen), p=[0.7, 0.17, 0.13])
    flowers = []
    for plot, kind in zip(chosen, kinds, strict=True):
        if kind == "field":
            cells[plot] = _field(rng)
        elif kind == "bramble":
            cells[plot] = BRAMBLE
        else:
            flowers.append(int(plot))
    # Flowers come in patches: a flower next to one already coloured often takes its colour.
    for plot in flowers:
        coloured = [cells[n].colour for n in neighbours(plot) if cells[n].is_flower]
        colour = str(rng.choice(coloured)) if coloured and rng.random() < 0.55 else str(rng.choice(COLOURS))
        cells[plot] = flower(colour)
    butterflies = set()
    for plot in PLOTS:
        chance = 0.45 if cells[plot].is_flower else 0.2
        if rng.random() < chance * rng.uniform(0.4, 1.0):
            butterflies.add(plot)
    return Garden(tuple(cells), _bricks(rng), frozenset(butterflies))


def _field(rng: np.random.Generator) -> Cell:
    if rng.random() < 0.35:
        return FIELD
    return Cell.parse(str(rng.choice(CRITTERS + FEATURES)))


def _bricks(rng: np.random.Generator) -> frozenset[Edge]:
    """Bricks as drawn in play: a ring round a plot or two sometimes, plus loose walls."""
    bricks: set[Edge] = set()
    if rng.random() < 0.35:
        col, row = int(rng.integers(0, SIZE)), int(rng.integers(0, SIZE))
        w, h = int(rng.integers(1, 3)), int(rng.integers(1, 3))
        inside = {r * SIZE + c for c in range(col, min(col + w, SIZE)) for r in range(row, min(row + h, SIZE))}
        for plot in inside:
            for n in neighbours(plot):
                if n not in inside:
                    bricks.add(edge_between(plot, n))
    for _ in range(int(rng.integers(0, 9))):
        bricks.add(EDGES[int(rng.integers(0, len(EDGES)))])
    return frozenset(bricks)
