"""End-game scoring (RULES.md §3), pure and itemised.

:func:`score` returns a :class:`ScoreCard` that says *why*: which plots form
each patch, which enclosure holds it (and if not, why not), what each feature
counted.  One function per rule, so each can be read against the rulebook.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from papillon.edition import COLOURS, Edition, standard_edition
from papillon.garden import Garden
from papillon.geometry import Enclosure
from papillon.grid import EDGE_INDEX, PLOT_NAMES, PLOTS, Plot, mask_plots, plot_name
from papillon.rules import BORDER_MASK, CATEGORIES, FLOWER_CODES, FeatureFound, PatchFound, evaluate, rule_tables
from papillon.words import cell_words

CATEGORY_TITLES = {
    "flowers": "Flowers",
    "patches": "Patches",
    "enclosed": "Enclosed patches",
    "butterflies": "Butterflies",
    "critters": "Critters",
    "features": "Features",
    "unique_features": "Unique features",
}


class Patch(NamedTuple):
    """A maximal set of at least ``patch_min`` contiguous same-colour flowers.

    Items of a score card are named tuples, like the rules' own findings: a garden makes a dozen,
    and building a frozen dataclass costs three times as much.
    """

    colour: str
    plots: frozenset[Plot]
    enclosure: Enclosure | None
    """The brick face holding it, when it encloses the patch."""
    why_open: str | None
    """Why it is not enclosed (None when it is)."""

    @property
    def enclosed(self) -> bool:
        return self.enclosure is not None


class Item(NamedTuple):
    """Points one plot earned in one category, and what was counted for them."""

    plot: Plot
    code: str
    name: str
    points: int
    counted: tuple[str, ...] = ()
    uncapped: int | None = None
    """The points before the tile's cap, when the cap cut them (None otherwise)."""
    max: int | None = None
    """The tile's cap, when it cut the points."""

    def summary(self) -> str:
        """``'Gazebo D2 8 (12 counted, max 8): red flower B2, ...'``: the item in one line."""
        capped = f" ({self.uncapped} counted, max {self.max})" if self.uncapped is not None else ""
        counted = f": {', '.join(self.counted)}" if self.counted else ""
        return f"{self.name} {plot_name(self.plot)} {self.points}{capped}{counted}"


def summaries(items: Iterable[Item]) -> list[str]:
    """Each item in one line, but copies of a tile that counted the same things told once.

    Four Gazebos that each count the same 11 flowers read ``'Gazebo A5 B5 C5 D5 8 each (11
    counted, max 8): ...'``, not the 11 flowers four times; copies that counted different things
    (two Ponds) keep a line each.
    """
    groups: dict[tuple[object, ...], list[Item]] = {}
    for item in items:
        groups.setdefault((item.code, item.points, item.counted, item.uncapped, item.max), []).append(item)
    out = []
    for copies in groups.values():
        if len(copies) == 1:
            out.append(copies[0].summary())
            continue
        first = copies[0]
        where = " ".join(plot_name(c.plot) for c in copies)
        capped = f" ({first.uncapped} counted, max {first.max})" if first.uncapped is not None else ""
        counted = f": {', '.join(first.counted)}" if first.counted else ""
        out.append(f"{first.name} {where} {first.points} each{capped}{counted}")
    return out


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
    return [PLOT_NAMES[p] for p in sorted(plots)]


def _item(item: Item) -> dict[str, Any]:
    data: dict[str, Any] = {
        "plot": PLOT_NAMES[item.plot],
        "code": item.code,
        "name": item.name,
        "points": item.points,
        "counted": list(item.counted),
    }
    if item.uncapped is not None:
        data |= {"uncapped": item.uncapped, "max": item.max}
    return data


def score(garden: Garden, edition: Edition | None = None) -> ScoreCard:
    """Score a garden under ``edition`` (the standard one by default).

    The rules live in :mod:`papillon.rules`; this turns what they found into words.

    >>> from papillon.garden import Garden
    >>> score(Garden.from_codes([["R", "R", "R", ".", "."]] + [["."] * 5] * 4)).total
    6
    """
    edition = edition or standard_edition()
    cells, bricks, butterflies = compact(garden)
    tables = rule_tables(edition)
    found = evaluate(cells, bricks, butterflies, tables)
    patches = tuple([_patch(p, garden, edition) for p in found.patches])
    critters = tuple([Item(plot, code, edition.occupant_name(code), points) for plot, code, points in found.critters])
    features = tuple([_feature(f, garden, edition) for f in found.features])
    flowers = tuple([p for p, code in enumerate(cells) if code in FLOWER_CODES])
    return ScoreCard(found.categories, patches, flowers, tuple(sorted(garden.butterflies)), critters, features, found.unique_features)


def compact(garden: Garden) -> tuple[tuple[str, ...], int, int]:
    """The garden as :mod:`papillon.rules` reads it: cell codes, brick mask, butterfly mask."""
    cells = tuple([cell.code for cell in garden.cells])
    bricks = sum(map(_EDGE_BIT.__getitem__, garden.bricks))
    butterflies = sum(map(_PLOT_BIT.__getitem__, garden.butterflies))
    return cells, bricks, butterflies


_EDGE_BIT = {edge: 1 << i for edge, i in EDGE_INDEX.items()}
_PLOT_BIT = [1 << p for p in PLOTS]


def _plots(mask: int) -> frozenset[Plot]:
    return frozenset(mask_plots(mask))


def _patch(found: PatchFound, garden: Garden, edition: Edition) -> Patch:
    plots = _plots(found.plots)
    colour = COLOURS[found.colour]
    if found.face is None:
        why = "touches the garden border" if found.plots & BORDER_MASK else "no closed ring of bricks around it"
        return Patch(colour, plots, None, why)
    face = found.face
    area = face.encircled if edition.rules.enclosure == "encircled" else face.region
    enclosure = Enclosure(face.enclosure.polygon, _plots(area), _plots(face.encircled))
    if found.enclosed:
        return Patch(colour, plots, enclosure, None)
    spoilers = sorted(_plots(found.spoilers))
    listed = ", ".join(f"{garden.cells[p].ground.value} plot {PLOT_NAMES[p]}" for p in spoilers[:WHY_LISTS_MAX])
    more = len(spoilers) - WHY_LISTS_MAX
    walled = [p for p in spoilers if not face.region >> p & 1]
    why = f"its ring also holds {listed}" + (f" and {more} more" if more > 0 else "")
    if walled and len(walled) == len(spoilers):
        why += f" ({'walled off by its own bricks' if len(walled) == 1 else 'each walled off'}, but inside the ring all the same)"
    return Patch(colour, plots, None, why)


WHY_LISTS_MAX = 3
"""Plots an explanation names before it says "and N more"."""


def _feature(found: FeatureFound, garden: Garden, edition: Edition) -> Item:
    feature = edition.features[found.code]
    rule = feature.score
    if not found.best_copy:
        return Item(found.plot, found.code, feature.name, 0, ("another copy scores",))
    count = rule.count if rule else ""
    counted = tuple([_thing(kind, mask, edition, count) for kind, mask in found.counted])
    cap = rule.max if rule else None
    uncapped = found.uncapped if cap is not None and found.uncapped > cap else None
    return Item(found.plot, found.code, feature.name, found.points, counted, uncapped, cap if uncapped is not None else None)


@lru_cache(maxsize=1 << 12)  # a few hundred (kind, plots, count) occur; a garden names many of them
def _thing(kind: str, mask: int, edition: Edition, count: str) -> str:
    """One thing a feature counted, in words: ``'red flower B2'``, ``'red patch B2-C2-D2'``, ``'hedgehog (C3)'``."""
    where = [PLOT_NAMES[p] for p in mask_plots(mask)]
    if kind == "butterfly":
        return f"butterfly {where[0]}"
    if count in ("patch_colours",):
        return f"{COLOURS[kind]} patch"
    if count in ("patches", "enclosed_patches"):
        return f"{COLOURS[kind]} patch {'-'.join(where)}"
    words = _describe(kind, edition)
    if count == "distinct_adjacent":
        return f"{words} ({where[0]})"
    return f"{words} {where[0]}"


def _describe(code: str, edition: Edition) -> str:
    """A counted thing by its code: a tile or critter by its name, anything else as every front end says it."""
    if code in COLOURS or code in (".", "F", "X"):
        return cell_words(code, edition, article=False)
    return edition.occupant_name(code)


__all__ = ["CATEGORIES", "Item", "Patch", "ScoreCard", "score"]
