"""A fast, exact end-game score of a :class:`~papillon.engine.state.Board`, for bots.

:func:`papillon.score.score` explains every point and costs about 60 µs;
bots only need the number, many times per decision.  :func:`board_score` gives
the same total (the tests check it against the scorer on thousands of
gardens) on the engine's bit masks, in a few microseconds, and caches it.
"""

from __future__ import annotations

from functools import lru_cache

from papillon.edition import Edition
from papillon.engine.state import Board, flower_patches
from papillon.engine.tables import (
    BORDER_MASK,
    BRAMBLE,
    COLOUR_CODE,
    EMPTY,
    FLOWER_CODES,
    NEIGHBOUR_EDGES,
    Tables,
    tables_for,
)
from papillon.grid import PLOTS
from papillon.score import CATEGORIES


def board_score(board: Board, edition: Edition) -> int:
    """The scorer's total for the board's garden."""
    return _cached_total(board.cells, board.bricks, board.butterflies, edition)


@lru_cache(maxsize=1 << 16)
def _cached_total(cells: tuple[str, ...], bricks: int, butterflies: int, edition: Edition) -> int:
    return sum(categories(cells, bricks, butterflies, tables_for(edition)).values())


def board_categories(board: Board, edition: Edition) -> dict[str, int]:
    """Points per category of RULES.md §3 (the keys of :data:`papillon.score.CATEGORIES`)."""
    return categories(board.cells, board.bricks, board.butterflies, tables_for(edition))


def categories(cells: tuple[str, ...], bricks: int, butterflies: int, tables: Tables) -> dict[str, int]:
    edition = tables.edition
    points = edition.scoring
    rules = edition.rules
    field_codes = tables.field_codes
    patches = flower_patches(cells, bricks, rules.patch_min)
    border = rules.border_encloses
    # A patch touching the border is open unless the border counts as brick: no flood fill needed.
    enclosed = [
        (c, mask) for c, mask in patches if (border or not mask & BORDER_MASK) and _enclosed(mask, cells, bricks, field_codes, border)
    ]
    flowers = 25 - cells.count(EMPTY) - cells.count(BRAMBLE) - sum(1 for c in cells if c in field_codes)
    found: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    found["flowers"] = points.flower * flowers
    found["patches"] = points.patch * sum(mask.bit_count() for _, mask in patches)
    found["enclosed"] = points.enclosed * sum(mask.bit_count() for _, mask in enclosed)
    found["butterflies"] = points.butterfly * butterflies.bit_count()
    critters = edition.critters
    features = edition.features
    present: set[str] = set()
    feature_values: list[tuple[str, int]] = []
    critter_points = 0
    for plot, code in enumerate(cells):
        if len(code) != 2:
            continue
        if code in critters:
            critter_points += critters[code].points
            continue
        feature = features.get(code)
        if feature is None:
            continue
        present.add(code)
        rule = feature.score
        if rule is None:
            continue
        count = _count(rule.count, rule.colour, plot, cells, butterflies, patches, enclosed, tables)
        value = rule.points * count
        feature_values.append((code, value if rule.max is None else min(value, rule.max)))
    found["critters"] = critter_points
    if points.feature_copies == "best":  # only the best copy of each tile scores
        best: dict[str, int] = {}
        for code, value in feature_values:
            best[code] = max(value, best.get(code, 0))
        found["features"] = sum(best.values())
    else:
        found["features"] = sum(value for _, value in feature_values)
    found["unique_features"] = points.unique_feature * len(present)
    return found


def _enclosed(patch: int, cells: tuple[str, ...], bricks: int, field_codes: frozenset[str], border: bool) -> bool:
    """RULES.md §2.2: the patch's region (reachable without crossing a brick) is closed and full."""
    start = (patch & -patch).bit_length() - 1
    region = 1 << start
    stack = [start]
    while stack:
        p = stack.pop()
        code = cells[p]
        if code == EMPTY or code in field_codes:
            return False
        for q, edge in NEIGHBOUR_EDGES[p]:
            if not region >> q & 1 and not bricks >> edge & 1:
                region |= 1 << q
                stack.append(q)
    return border or not region & BORDER_MASK


def _count(
    count: str,
    colour: str | None,
    plot: int,
    cells: tuple[str, ...],
    butterflies: int,
    patches: list[tuple[str, int]],
    enclosed: list[tuple[str, int]],
    tables: Tables,
) -> int:
    neighbours = tables.neighbours[plot]
    code = COLOUR_CODE[colour] if colour else None

    def flower_ok(c: str) -> bool:
        return c in FLOWER_CODES and (code is None or c == code)

    if count == "distinct_adjacent":
        kinds = set()
        for q in neighbours:
            c = cells[q]
            if c in FLOWER_CODES or c == BRAMBLE:
                kinds.add(c)
            elif len(c) == 2:
                kinds.add(tables.occupant_names.get(c, c))
        return len(kinds)
    if count == "adjacent_critters":
        return sum(1 for q in neighbours if cells[q] in tables.critter_codes)
    if count == "adjacent_flowers":
        return sum(1 for q in neighbours if flower_ok(cells[q]))
    if count == "adjacent_fields":
        return sum(1 for q in neighbours if cells[q] in tables.field_codes)
    if count == "adjacent_brambles":
        return sum(1 for q in neighbours if cells[q] == BRAMBLE)
    if count == "adjacent_butterflies":
        return sum(1 for q in neighbours if butterflies >> q & 1)
    if count == "patch_colours":
        return len({c for c, _ in patches})
    if count == "flowers_with_butterfly":
        return sum(1 for p in PLOTS if flower_ok(cells[p]) and butterflies >> p & 1)
    if count == "flowers":
        return sum(1 for c in cells if flower_ok(c))
    if count == "patches":
        return sum(1 for c, _ in patches if code is None or c == code)
    if count == "enclosed_patches":
        return sum(1 for c, _ in enclosed if code is None or c == code)
    if count == "butterflies":
        return butterflies.bit_count()
    if count == "brambles":
        return sum(1 for c in cells if c == BRAMBLE)
    if count == "fields":
        return sum(1 for c in cells if c in tables.field_codes)
    raise AssertionError(f"unknown count {count!r}")


def potential(board: Board, tables: Tables) -> float:
    """A rough worth of what the Fill sheet and the open plots promise (bots' tie-break).

    Progress up a critter ladder is part of the critter (if a field waits for it);
    track bubbles and caterpillars are worth part of the stamps and bonuses ahead.
    """
    value = 0.0
    for filled, height, points in zip(board.ladders, tables.ladders, tables.critter_points, strict=True):
        if filled:
            value += 0.7 * points * filled / height
    value += 0.6 * sum(board.tracks) + 0.35 * board.rondel + 0.3 * board.caterpillars
    fields_free = board.cells.count("F")
    return value + 0.6 * (fields_free if fields_free < 2 else 2)
