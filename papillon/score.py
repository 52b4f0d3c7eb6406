"""End-game scoring (RULES.md §3), pure and itemised.

:func:`score` returns a :class:`ScoreCard` that says *why*: which plots form
each patch, which enclosure holds it (and if not, why not), what each feature
counted.  One function per rule, so each can be read against the rulebook.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from papillon.edition import Edition, Feature, standard_edition
from papillon.garden import Cell, Garden, Ground
from papillon.geometry import Enclosure, enclosures
from papillon.grid import ADJACENCIES, ORTHOGONAL_NEIGHBOURS, PLOTS, Plot, edge_between, on_border, plot_name

CATEGORIES = ("flowers", "patches", "enclosed", "butterflies", "critters", "features", "unique_features")
"""The scoring categories of RULES.md §3, in score-pad order."""

CATEGORY_TITLES = {
    "flowers": "Flowers",
    "patches": "Patches",
    "enclosed": "Enclosed patches",
    "butterflies": "Butterflies",
    "critters": "Critters",
    "features": "Features",
    "unique_features": "Unique features",
}


@dataclass(frozen=True)
class Patch:
    """A maximal set of at least ``patch_min`` contiguous same-colour flowers."""

    colour: str
    plots: frozenset[Plot]
    enclosure: Enclosure | None
    """The brick face holding it, when it encloses the patch."""
    why_open: str | None
    """Why it is not enclosed (None when it is)."""

    @property
    def enclosed(self) -> bool:
        return self.enclosure is not None


@dataclass(frozen=True)
class Item:
    """Points one plot earned in one category, and what was counted for them."""

    plot: Plot
    code: str
    name: str
    points: int
    counted: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreCard:
    categories: Mapping[str, int]
    patches: tuple[Patch, ...]
    flowers: tuple[Plot, ...]
    butterflies: tuple[Plot, ...]
    critters: tuple[Item, ...]
    features: tuple[Item, ...]
    unique_features: tuple[str, ...]

    @property
    def total(self) -> int:
        return sum(self.categories.values())

    def details(self) -> dict[str, Any]:
        """The itemised score as plain JSON-ready data."""
        return {
            "flowers": _names(self.flowers),
            "patches": [
                {
                    "colour": p.colour,
                    "plots": _names(p.plots),
                    "enclosed": p.enclosed,
                    "enclosure": _names(p.enclosure.plots) if p.enclosure else None,
                    "polygon": p.enclosure.polygon.wkt if p.enclosure else None,
                    "why_open": p.why_open,
                }
                for p in self.patches
            ],
            "butterflies": _names(self.butterflies),
            "critters": [_item(i) for i in self.critters],
            "features": [_item(i) for i in self.features],
            "unique_features": list(self.unique_features),
        }


def _names(plots: Iterable[Plot]) -> list[str]:
    return [plot_name(p) for p in sorted(plots)]


def _item(item: Item) -> dict[str, Any]:
    return {"plot": plot_name(item.plot), "code": item.code, "name": item.name, "points": item.points, "counted": list(item.counted)}


def score(garden: Garden, edition: Edition | None = None) -> ScoreCard:
    """Score a garden under ``edition`` (the standard one by default).

    >>> from papillon.garden import Garden
    >>> score(Garden.from_codes([["R", "R", "R", ".", "."]] + [["."] * 5] * 4)).total
    6
    """
    edition = edition or standard_edition()
    points = edition.scoring
    patches = find_patches(garden, edition)
    flowers = garden.plots_where(Ground.FLOWER)
    critters = score_critters(garden, edition)
    features = score_features(garden, edition, patches)
    unique = unique_features(garden, edition)
    categories = {
        "flowers": points.flower * len(flowers),
        "patches": points.patch * sum(len(p.plots) for p in patches),
        "enclosed": points.enclosed * sum(len(p.plots) for p in patches if p.enclosed),
        "butterflies": points.butterfly * len(garden.butterflies),
        "critters": sum(i.points for i in critters),
        "features": sum(i.points for i in features),
        "unique_features": points.unique_feature * len(unique),
    }
    return ScoreCard(categories, patches, flowers, tuple(sorted(garden.butterflies)), critters, features, unique)


# --------------------------------------------------------------------------- patches


def flower_groups(garden: Garden) -> list[tuple[str, frozenset[Plot]]]:
    """Connected same-colour flowers, never across a brick, of any size."""
    seen: set[Plot] = set()
    groups = []
    for start in PLOTS:
        colour = garden.cells[start].colour
        if start in seen or not garden.cells[start].is_flower or colour is None:
            continue
        group = {start}
        stack = [start]
        while stack:
            p = stack.pop()
            for q in ORTHOGONAL_NEIGHBOURS[p]:
                cell = garden.cells[q]
                if q not in group and cell.is_flower and cell.colour == colour and edge_between(p, q) not in garden.bricks:
                    group.add(q)
                    stack.append(q)
        seen |= group
        groups.append((colour, frozenset(group)))
    return groups


def find_patches(garden: Garden, edition: Edition) -> tuple[Patch, ...]:
    """The garden's patches, each with its enclosure or the reason it has none."""
    groups = [(c, g) for c, g in flower_groups(garden) if len(g) >= edition.rules.patch_min]
    border = edition.rules.border_encloses
    # Shapely only runs when a patch could be enclosed at all.
    could_close = border or any(not any(on_border(p) for p in g) for _, g in groups)
    faces = enclosures(garden.bricks, border) if groups and could_close else ()
    face_of = {p: face for face in faces for p in face.plots}
    patches = []
    for colour, plots in groups:
        face = face_of.get(min(plots))
        why = _why_open(garden, plots, face)
        patches.append(Patch(colour, plots, face if why is None else None, why))
    return tuple(patches)


def _why_open(garden: Garden, plots: frozenset[Plot], face: Enclosure | None) -> str | None:
    if face is None:
        if any(on_border(p) for p in plots):
            return "touches the garden border"
        return "no closed ring of bricks around it"
    spoilers = [p for p in sorted(face.plots) if garden.cells[p].ground in (Ground.EMPTY, Ground.FIELD)]
    if not spoilers:
        return None
    listed = ", ".join(f"{garden.cells[p].ground.value} plot {plot_name(p)}" for p in spoilers[:WHY_LISTS_MAX])
    more = len(spoilers) - WHY_LISTS_MAX
    return f"its ring also holds {listed}" + (f" and {more} more" if more > 0 else "")


WHY_LISTS_MAX = 3
"""Plots an explanation names before it says "and N more"."""


# --------------------------------------------------------------------------- critters and features


def score_critters(garden: Garden, edition: Edition) -> tuple[Item, ...]:
    items = []
    for plot, cell in enumerate(garden.cells):
        critter = edition.critters.get(cell.occupant or "")
        if critter and cell.is_field:
            items.append(Item(plot, critter.code, critter.name, critter.points))
    return tuple(items)


def unique_features(garden: Garden, edition: Edition) -> tuple[str, ...]:
    """Codes of the different features sitting in fields, in edition order."""
    present = {c.occupant for c in garden.cells if c.is_field and edition.is_feature(c.occupant)}
    return tuple(code for code in edition.features if code in present)


def score_features(garden: Garden, edition: Edition, patches: tuple[Patch, ...]) -> tuple[Item, ...]:
    items = []
    for plot, cell in enumerate(garden.cells):
        feature = edition.features.get(cell.occupant or "")
        if not (feature and cell.is_field):
            continue
        counted = count_for_feature(feature, plot, garden, edition, patches)
        rule = feature.score
        points = 0
        if rule is not None:
            points = rule.points * len(counted)
            if rule.max is not None:
                points = min(points, rule.max)
        items.append(Item(plot, feature.code, feature.name, points, counted))
    if edition.scoring.feature_copies == "best":
        items = _best_copy_only(items)
    return tuple(items)


def _best_copy_only(items: list[Item]) -> list[Item]:
    """Keep the points of the best copy of each tile; the other copies score 0."""
    best: dict[str, Item] = {}
    for item in items:
        if item.code not in best or item.points > best[item.code].points:
            best[item.code] = item
    return [item if best[item.code] is item else replace(item, points=0, counted=("another copy scores",)) for item in items]


def count_for_feature(feature: Feature, plot: Plot, garden: Garden, edition: Edition, patches: tuple[Patch, ...]) -> tuple[str, ...]:
    """What a feature's ``score.count`` counts, one description per thing."""
    rule = feature.score
    if rule is None:
        return ()
    neighbours = ADJACENCIES[edition.rules.adjacency][plot]
    cells = garden.cells

    def colour_ok(cell: Cell) -> bool:
        return cell.is_flower and (rule.colour is None or cell.colour == rule.colour)

    def described(plots: Iterable[Plot]) -> tuple[str, ...]:
        return tuple(f"{_describe(cells[p], edition)} {plot_name(p)}" for p in plots)

    count = rule.count
    if count == "distinct_adjacent":
        things: dict[str, Plot] = {}
        for q in neighbours:
            kind = _thing(cells[q], edition)
            if kind is not None and kind not in things:
                things[kind] = q
        return tuple(f"{kind} ({plot_name(q)})" for kind, q in things.items())
    if count == "adjacent_critters":
        return described(q for q in neighbours if cells[q].is_field and edition.is_critter(cells[q].occupant))
    if count == "adjacent_flowers":
        return described(q for q in neighbours if colour_ok(cells[q]))
    if count == "adjacent_fields":
        return described(q for q in neighbours if cells[q].is_field)
    if count == "adjacent_brambles":
        return described(q for q in neighbours if cells[q].ground is Ground.BRAMBLE)
    if count == "adjacent_butterflies":
        return tuple(f"butterfly {plot_name(q)}" for q in neighbours if q in garden.butterflies)
    if count == "patch_colours":
        return tuple(sorted({f"{p.colour} patch" for p in patches}))
    if count == "flowers_with_butterfly":
        return described(p for p in PLOTS if colour_ok(cells[p]) and p in garden.butterflies)
    if count == "flowers":
        return described(p for p in PLOTS if colour_ok(cells[p]))
    if count in ("patches", "enclosed_patches"):
        chosen = [p for p in patches if (rule.colour in (None, p.colour)) and (p.enclosed or count == "patches")]
        return tuple(f"{p.colour} patch {'-'.join(_names(p.plots))}" for p in chosen)
    if count == "butterflies":
        return tuple(f"butterfly {plot_name(p)}" for p in sorted(garden.butterflies))
    if count == "brambles":
        return described(garden.plots_where(Ground.BRAMBLE))
    if count == "fields":
        return described(garden.plots_where(Ground.FIELD))
    raise AssertionError(f"edition loader let through an unknown count {count!r}")


def _thing(cell: Cell, edition: Edition) -> str | None:
    """The kind of thing a Pond tells apart, or None for empty plots and empty fields."""
    if cell.is_flower:
        return f"{cell.colour} flower"
    if cell.ground is Ground.BRAMBLE:
        return "bramble"
    if cell.is_field and cell.occupant:
        return edition.occupant_name(cell.occupant)
    return None


def _describe(cell: Cell, edition: Edition) -> str:
    if cell.is_flower:
        return f"{cell.colour} flower"
    if cell.is_field:
        return edition.occupant_name(cell.occupant) if cell.occupant else "field"
    return cell.ground.value


__all__ = ["CATEGORIES", "Item", "Patch", "ScoreCard", "score"]
