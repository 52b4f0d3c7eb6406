"""A plausible garden a family ends a game with, built with papillon's own model."""

from __future__ import annotations

import numpy as np

from papillon.edition import COLOUR_NAMES, standard_edition
from papillon.garden import BRAMBLE, EMPTY, FIELD, Cell, Garden, Ground, flower
from papillon.grid import EDGES, ORTHOGONAL_NEIGHBOURS, PLOTS, Edge, edge_between, ray

STAGES = (("blank", 0.03), ("early", 0.10), ("middle", 0.17), ("finished", 0.70))
"""How far the game had got when the photo was taken: most photos are taken to score a finished game."""


def random_garden(rng: np.random.Generator, starting_fields: tuple[int, ...]) -> tuple[Garden, str]:
    """A valid garden of the standard edition and the game stage it was drawn at."""
    edition = standard_edition()
    names, weights = zip(*STAGES, strict=True)
    stage = str(names[int(rng.choice(len(names), p=np.asarray(weights) / sum(weights)))])
    rounds = {"blank": 0, "early": int(rng.integers(2, 5)), "middle": int(rng.integers(5, 8)), "finished": 10}[stage]
    cells: list[Cell] = [FIELD if p in starting_fields else EMPTY for p in PLOTS]

    def empty_plots() -> list[int]:
        return [p for p in PLOTS if cells[p].ground is Ground.EMPTY]

    # Fields: mostly grown next to fields already there (the rules let a field go anywhere; players cluster them).
    for _ in range(int(rng.binomial(rounds, 0.3))):
        free = empty_plots()
        near = [p for p in free if any(cells[q].is_field for q in ORTHOGONAL_NEIGHBOURS[p])]
        pool = near if near and rng.random() < 0.75 else free
        if pool:
            cells[int(rng.choice(pool))] = FIELD
    # Flowers: a stamp per round or so, most next to a flower of the same colour to grow patches.
    favourite = list(rng.permutation(COLOUR_NAMES))
    for _ in range(round(rounds * rng.uniform(1.0, 1.9))):
        free = empty_plots()
        if not free:
            break
        colour = str(favourite[min(int(rng.geometric(0.45)) - 1, 3)])
        near = [p for p in free if any(cells[q].colour == colour for q in ORTHOGONAL_NEIGHBOURS[p])]
        pool = near if near and rng.random() < 0.7 else free
        cells[int(rng.choice(pool))] = flower(colour)
    # Brambles from the die: on an empty plot while one is left.
    for _ in range(int(rng.binomial(rounds, 0.28))):
        free = empty_plots()
        if free:
            cells[int(rng.choice(free))] = BRAMBLE
    # Critters (each ladder gives its critter once) and features go into empty fields.
    empty_fields = [p for p in PLOTS if cells[p] == FIELD]
    rng.shuffle(empty_fields)
    occupants = [c for c in edition.critters if rng.random() < rounds / 18]
    occupants += [str(c) for c in rng.choice(list(edition.features), size=int(rng.binomial(rounds, 0.2)))]
    for plot, code in zip(empty_fields, occupants, strict=False):
        cells[plot] = Cell(Ground.FIELD, occupant=code)
    bricks = _bricks(rng, cells, int(rng.binomial(rounds * 2, 0.4)))
    butterflies = _butterflies(rng, starting_fields, rounds)
    garden = Garden(tuple(cells), frozenset(bricks), frozenset(butterflies))
    problems = garden.problems(edition)
    if problems:  # the generator's own bug: say it loudly rather than write a wrong truth
        raise AssertionError(f"generated an invalid garden: {problems}")
    return garden, stage


def _bricks(rng: np.random.Generator, cells: list[Cell], count: int) -> set[Edge]:
    """Bricks mostly where a patch meets something else (players wall patches in), some anywhere."""
    chosen: set[Edge] = set()
    boundary = [
        edge_between(p, q)
        for p in PLOTS
        for q in ORTHOGONAL_NEIGHBOURS[p]
        if p < q and cells[p].is_flower and cells[q].colour != cells[p].colour
    ]
    for _ in range(count):
        pool = [e for e in boundary if e not in chosen] if boundary and rng.random() < 0.7 else [e for e in EDGES if e not in chosen]
        if pool:
            chosen.add(pool[int(rng.integers(len(pool)))])
    return chosen


def _butterflies(rng: np.random.Generator, starting_fields: tuple[int, ...], rounds: int) -> set[int]:
    """The start butterfly and the lines that butterfly movements fill."""
    filled = {int(rng.choice(starting_fields))}
    for _ in range(int(rng.binomial(rounds, 0.6))):
        start = int(rng.choice(sorted(filled)))
        path = ray(start, str(rng.choice(["N", "E", "S", "W"])), int(rng.integers(1, 4)))
        if path:
            filled.update(path)
    return filled
