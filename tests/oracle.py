"""An independent end-game scorer, the test oracle for papillon.rules (RULES.md §2, §3, §5 read literally).

Written from the rules text, not from papillon's code: its own row/column steps, flood fills
for regions and pockets (papillon finds enclosures with shapely), its own neighbour lists.
Slow and plain on purpose.  Used by tests/test_properties.py only.
"""

from __future__ import annotations

from collections.abc import Callable

from papillon.edition import Edition
from papillon.garden import Garden, Ground
from papillon.grid import Edge

SIZE = 5
ALL = range(SIZE * SIZE)


def orthogonal(p: int) -> list[int]:
    col, row = p % SIZE, p // SIZE
    return [(row + dr) * SIZE + col + dc for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)) if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE]


def king(p: int) -> list[int]:
    col, row = p % SIZE, p // SIZE
    return [
        (row + dr) * SIZE + col + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dc or dr) and 0 <= col + dc < SIZE and 0 <= row + dr < SIZE
    ]


def on_edge(p: int) -> bool:
    return p % SIZE in (0, SIZE - 1) or p // SIZE in (0, SIZE - 1)


def flood(start: int, ok: Callable[[int], bool], bricks: frozenset[Edge] | None) -> set[int]:
    """Plots reachable from ``start`` through plots where ``ok(q)``, not crossing ``bricks`` (None: ignore bricks)."""
    seen, stack = {start}, [start]
    while stack:
        p = stack.pop()
        for q in orthogonal(p):
            if q in seen or not ok(q):
                continue
            if bricks is not None and Edge(min(p, q), max(p, q)) in bricks:
                continue
            seen.add(q)
            stack.append(q)
    return seen


def patches(garden: Garden, edition: Edition) -> list[tuple[str, set[int], bool]]:
    """(colour, plots, enclosed) of every patch."""
    cells, bricks, rules = garden.cells, garden.bricks, edition.rules
    found, done = [], set()
    for p in ALL:
        if p in done or not cells[p].is_flower:
            continue
        colour = cells[p].colour
        group = flood(p, lambda q, c=colour: cells[q].is_flower and cells[q].colour == c, bricks)
        done |= group
        if len(group) < rules.patch_min:
            continue
        region = flood(p, lambda q: True, bricks)
        if any(on_edge(q) for q in region) and not rules.border_encloses:
            found.append((str(colour), group, False))
            continue
        area = set(region)
        if rules.enclosure == "encircled":
            outside = [q for q in ALL if q not in region]
            seen: set[int] = set()
            for q in outside:
                if q in seen:
                    continue
                pocket = flood(q, lambda r, inside=region: r not in inside, None)
                seen |= pocket
                if not any(on_edge(r) for r in pocket):
                    area |= pocket
        spoiled = any(cells[q].ground.value in rules.enclosure_forbids for q in area)
        found.append((str(colour), group, not spoiled))
    return found


def thing_kind(garden: Garden, q: int) -> str | None:
    cell = garden.cells[q]
    if cell.is_flower:
        return f"flower {cell.colour}"
    if cell.ground is Ground.BRAMBLE:
        return "bramble"
    if cell.is_field and cell.occupant:
        return cell.occupant
    return None


def feature_count(garden: Garden, edition: Edition, p: int, code: str, found: list[tuple[str, set[int], bool]]) -> int:
    feature = edition.features[code]
    rule = feature.score
    assert rule is not None
    adjacency = feature.adjacency or edition.rules.adjacency
    near = king(p) if adjacency == "king" else orthogonal(p)
    cells = garden.cells

    def flower(q: int) -> bool:
        return cells[q].is_flower and (rule.colour is None or cells[q].colour == rule.colour)

    count = rule.count
    if count == "distinct_adjacent":
        return len({k for q in near if (k := thing_kind(garden, q)) is not None})
    if count == "adjacent_critters":
        return sum(1 for q in near if cells[q].is_field and cells[q].occupant in edition.critters)
    if count == "adjacent_flowers":
        return sum(1 for q in near if flower(q))
    if count == "adjacent_fields":
        return sum(1 for q in near if cells[q].is_field)
    if count == "adjacent_brambles":
        return sum(1 for q in near if cells[q].ground is Ground.BRAMBLE)
    if count == "adjacent_butterflies":
        return sum(1 for q in near if q in garden.butterflies)
    if count == "patch_colours":
        return len({colour for colour, _, _ in found})
    if count == "flowers_with_butterfly":
        return sum(1 for q in ALL if flower(q) and q in garden.butterflies)
    if count == "flowers":
        return sum(1 for q in ALL if flower(q))
    if count == "patches":
        return sum(1 for colour, _, _ in found if rule.colour in (None, colour))
    if count == "enclosed_patches":
        return sum(1 for colour, _, enclosed in found if enclosed and rule.colour in (None, colour))
    if count == "butterflies":
        return len(garden.butterflies)
    if count == "brambles":
        return sum(1 for q in ALL if cells[q].ground is Ground.BRAMBLE)
    if count == "fields":
        return sum(1 for q in ALL if cells[q].is_field)
    raise AssertionError(count)


def categories(garden: Garden, edition: Edition) -> dict[str, int]:
    """Points per category of RULES.md §3."""
    cells, points = garden.cells, edition.scoring
    found = patches(garden, edition)
    features: list[tuple[str, int]] = []
    for p in ALL:
        code = cells[p].occupant
        if not cells[p].is_field or code not in edition.features:
            continue
        rule = edition.features[code].score
        value = 0 if rule is None else rule.points * feature_count(garden, edition, p, code, found)
        if rule is not None and rule.max is not None:
            value = min(value, rule.max)
        features.append((code, value))
    if points.feature_copies == "best":
        best: dict[str, int] = {}
        for code, value in features:
            best[code] = max(best.get(code, 0), value)
        feature_points = sum(best.values())
    else:
        feature_points = sum(value for _, value in features)
    return {
        "flowers": points.flower * sum(1 for c in cells if c.is_flower),
        "patches": points.patch * sum(len(g) for _, g, _ in found),
        "enclosed": points.enclosed * sum(len(g) for _, g, e in found if e),
        "butterflies": points.butterfly * len(garden.butterflies),
        "critters": sum(edition.critters[c.occupant].points for c in cells if c.is_field and c.occupant in edition.critters),
        "features": feature_points,
        "unique_features": points.unique_feature * len({c.occupant for c in cells if c.is_field and c.occupant in edition.features}),
    }
