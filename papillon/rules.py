"""The end-game rules (RULES.md §2, §3, §5), each written once, on a compact garden.

A *compact garden* is what the engine keeps: ``cells`` (the notation code of
each plot: ``'.'``, ``'R'``, ``'F'``, ``'X'``, ``'lb'`` ...), ``bricks`` (a bit
mask, bit ``i`` = ``grid.EDGES[i]``) and ``butterflies`` (bit ``p`` = plot
``p``).  :func:`evaluate` finds every patch, enclosure, critter and feature
there and the points of each category.  :mod:`papillon.score` turns its result
into the explained :class:`~papillon.score.ScoreCard`; the engine's bots sum
its categories.  There is no other copy of these rules.

Enclosures come from shapely (:mod:`papillon.geometry`), memoised by brick
set: a game draws few brick sets, and scores its gardens many times.

These functions run for every garden scored and every action a bot weighs, so
they are written for speed where it reads no worse: ``tuple([...])`` rather
than ``tuple(...)`` of a generator (a list is built faster), plot masks grown
all at once rather than one plot at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple, cast

from papillon.edition import COLOURS, Edition, Scoring
from papillon.geometry import Enclosure, closes_ring, enclosures, face_masks, ring_closers
from papillon.grid import (
    ADJACENCIES,
    ALL_PLOTS_MASK,
    BORDER_MASK,
    EDGE_INDEX,
    EDGES,
    ORTHOGONAL_NEIGHBOURS,
    PLOTS,
    SIZE,
    edge_between,
    flood,
    linked,
    links,
    open_sides,
)

EMPTY = "."
FIELD = "F"
BRAMBLE = "X"
FLOWER_CODES = frozenset(COLOURS)
_COLOUR_CODE = {name: code for code, name in COLOURS.items()}

CATEGORIES = ("flowers", "patches", "enclosed", "butterflies", "critters", "features", "unique_features")
"""The scoring categories of RULES.md §3, in score-pad order."""

NEIGHBOUR_EDGES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((q, EDGE_INDEX[edge_between(p, q)]) for q in ORTHOGONAL_NEIGHBOURS[p]) for p in PLOTS
)
"""For each plot: (orthogonal neighbour, index of the edge between them)."""
_PLOT_BITS = tuple(1 << p for p in PLOTS)


class FeatureRule(NamedTuple):
    """A feature tile's scoring (its ``score`` table), with what counting it looks up."""

    counts: str
    """What it counts (``score.count``; not ``count``, which a tuple already has)."""
    points: int
    """Points per thing counted."""
    max: int | None
    """The cap on its points, if any."""
    want: str | None
    """The colour code it counts only (``rule.colour``), or None."""
    neighbours: tuple[tuple[int, ...], ...]
    """Its neighbours of every plot (the tile's or the edition's adjacency)."""
    flower_ok: Callable[[str], bool]
    """Whether a cell code is a flower it counts."""


@dataclass(frozen=True, eq=False)
class RuleTables:
    """What the rules look up for one edition, built once (:func:`rule_tables`)."""

    edition: Edition
    critter_points: dict[str, int]
    feature_codes: tuple[str, ...]
    """Feature codes in edition order."""
    feature_rules: dict[str, FeatureRule | None]
    """For each feature code: how it scores (None for a tile that scores nothing itself)."""
    forbids: frozenset[str]
    """Grounds that spoil an enclosure (``rules.enclosure_forbids``)."""


@cache
def rule_tables(edition: Edition) -> RuleTables:
    return RuleTables(
        edition=edition,
        critter_points={code: c.points for code, c in edition.critters.items()},
        feature_codes=tuple(edition.features),
        feature_rules={code: _feature_rule(code, edition) for code in edition.features},
        forbids=frozenset(edition.rules.enclosure_forbids),
    )


def _feature_rule(code: str, edition: Edition) -> FeatureRule | None:
    rule = edition.features[code].score
    if rule is None:
        return None
    want = _COLOUR_CODE[rule.colour] if rule.colour else None
    # Bound methods, not closures: this runs for every feature of every garden a bot weighs.
    flower_ok = FLOWER_CODES.__contains__ if want is None else want.__eq__
    return FeatureRule(rule.count, rule.points, rule.max, want, ADJACENCIES[edition.adjacency_of(code)], flower_ok)


def is_field(code: str) -> bool:
    """A field plot, empty or holding a critter or feature (any two-letter code is an occupant)."""
    return code == FIELD or len(code) == 2


def ground(code: str) -> str:
    """The ground of a cell code: ``'empty'``, ``'flower'``, ``'field'`` or ``'bramble'``."""
    if code in FLOWER_CODES:
        return "flower"
    if code == EMPTY:
        return "empty"
    if code == BRAMBLE:
        return "bramble"
    return "field" if is_field(code) else "unknown"


# --------------------------------------------------------------------------- patches and enclosures


class PatchFound(NamedTuple):
    """A patch (RULES §2.1), its enclosure if any, and what spoils the face around it."""

    colour: str
    """The colour's notation code (``'R'``)."""
    plots: int
    face: Face | None
    """The face of the brick drawing around the patch (None when the region is open)."""
    spoilers: int
    """Plots of the face's area that may not be inside an enclosure (0 when enclosed)."""

    @property
    def enclosed(self) -> bool:
        return self.face is not None and not self.spoilers


class Face(NamedTuple):
    """One face of the brick drawing as masks: its region and its encircled area."""

    region: int
    encircled: int
    enclosure: Enclosure


def patches(cells: tuple[str, ...], bricks: int, patch_min: int) -> list[tuple[str, int]]:
    """Connected same-colour flowers, never across a brick, of at least ``patch_min`` plots (RULES §2.1):
    (colour code, plot mask), by their first plot."""
    right, down = open_sides(bricks)
    found = []
    for colour, plots in flower_masks(cells):
        same_right, same_down = links(plots, right, down)  # two flowers of this colour, no brick between them
        # A patch of two or more flowers starts at a linked one: lone flowers are never looked at.
        starts = plots if patch_min <= 1 else linked(same_right, same_down)
        while starts:
            group = flood(starts & -starts, same_right, same_down)
            starts &= ~group
            if group.bit_count() >= patch_min:
                found.append((colour, group))
    found.sort(key=lambda patch: patch[1] & -patch[1])
    return found


@lru_cache(maxsize=1 << 16)
def flower_masks(cells: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """(colour code, plot mask) of each colour in the garden, by its first plot (memoised: a bot scores
    one garden under many brick sets, and :func:`patches` runs for every garden scored)."""
    colours: dict[str, int] = {}
    for bit, code in zip(_PLOT_BITS, cells, strict=True):
        if code in FLOWER_CODES:
            colours[code] = colours.get(code, 0) | bit
    return tuple(colours.items())


FacesOf = Callable[[int, bool], tuple[Face, ...]]
"""What finds the faces of a brick drawing: :func:`faces` (with polygons) or :func:`counted_faces` (without)."""


@lru_cache(maxsize=1 << 14)
def faces(bricks: int, border: bool) -> tuple[Face, ...]:
    """The faces of the brick drawing (shapely's polygonize), as plot masks."""
    if not border and not closes_ring(bricks):
        return ()  # no ring, no face: shapely need not load or run
    found = enclosures((EDGES[i] for i in range(len(EDGES)) if bricks >> i & 1), border)
    return tuple(Face(_mask(e.plots), _mask(e.encircled), e) for e in found)


def _mask(plots: frozenset[int]) -> int:
    return sum(1 << p for p in plots)


_UNDRAWN = Enclosure(cast(Any, None), frozenset())
"""The enclosure of a face :func:`counted_faces` finds: what only counts has no polygon to draw (nothing reads it)."""


@lru_cache(maxsize=1 << 14)
def counted_faces(bricks: int, border: bool) -> tuple[Face, ...]:
    """:func:`faces` without shapely, for the totals that only count (:func:`_total`, :func:`totals_with_plots`):
    the same regions and encircled areas (:func:`~papillon.geometry.face_masks`), no polygons, in another order."""
    if not border and not closes_ring(bricks):
        return ()
    return tuple(Face(region, encircled, _UNDRAWN) for region, encircled in face_masks(bricks, border))


def find_patches(cells: tuple[str, ...], bricks: int, tables: RuleTables, faces_of: FacesOf | None = None) -> tuple[PatchFound, ...]:
    """Every patch with its face and the plots that keep it from being enclosed (RULES §2.2).

    ``faces_of`` finds the faces (default :func:`faces`; the counting totals pass :func:`counted_faces`):
    a patch's face is the one whose region holds it, and the regions are disjoint, so their order does not matter."""
    rules = tables.edition.rules
    border = rules.border_encloses
    found = patches(cells, bricks, rules.patch_min)
    if not found:
        return ()
    # A patch touching the border is open unless the border counts as brick: shapely only runs when one could close.
    could_close = border or any(not mask & BORDER_MASK for _, mask in found)
    all_faces = (faces_of or faces)(bricks, border) if could_close else ()
    encircled = rules.enclosure == "encircled"
    forbidden = -1  # worked out once, when a face is found
    result = []
    for colour, mask in found:
        face = next((f for f in all_faces if f.region & mask), None)
        spoilers = 0
        if face is not None:
            if forbidden < 0:
                bad = tables.forbids
                forbidden = sum(1 << p for p, code in enumerate(cells) if ground(code) in bad)
            spoilers = (face.encircled if encircled else face.region) & forbidden
        result.append(PatchFound(colour, mask, face, spoilers))
    return tuple(result)


# --------------------------------------------------------------------------- critters and features


class FeatureFound(NamedTuple):
    """One feature tile sitting in a field and what it scores (RULES §5)."""

    plot: int
    code: str
    points: int
    """Points after the cap and the ``feature_copies`` rule."""
    counted: tuple[tuple[str, int], ...]
    """What was counted: (kind, plot mask) each; the kind is a cell code, ``'butterfly'``, or a patch colour code."""
    uncapped: int
    """``points per thing × things counted``, before the cap."""
    best_copy: bool = True
    """False when another copy of the tile scores instead (``scoring.feature_copies = "best"``)."""


def count_for_feature(
    rule: FeatureRule, plot: int, cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables
) -> tuple[tuple[str, int], ...]:
    """What a feature scoring by ``rule`` on ``plot`` counts (its ``score.count``), one (kind, plot mask) per thing."""
    count, want, flower_ok = rule.counts, rule.want, rule.flower_ok
    if count == "distinct_adjacent":
        kinds: dict[str, int] = {}
        for q in rule.neighbours[plot]:
            c = cells[q]
            if c != EMPTY and c != FIELD and c not in kinds:
                kinds[c] = 1 << q
        return tuple(kinds.items())
    if count == "adjacent_critters":
        return _matching(cells, rule.neighbours[plot], tables.critter_points.__contains__)
    if count == "adjacent_flowers":
        return _matching(cells, rule.neighbours[plot], flower_ok)
    if count == "adjacent_fields":
        return _matching(cells, rule.neighbours[plot], is_field)
    if count == "adjacent_brambles":
        return _matching(cells, rule.neighbours[plot], BRAMBLE.__eq__)
    if count == "adjacent_butterflies":
        return tuple([("butterfly", 1 << q) for q in rule.neighbours[plot] if butterflies >> q & 1])
    if count == "patch_colours":
        colours: dict[str, int] = {}
        for patch in found:
            colours[patch.colour] = colours.get(patch.colour, 0) | patch.plots
        return tuple(colours.items())
    if count == "flowers_with_butterfly":
        return tuple([(cells[p], 1 << p) for p in PLOTS if butterflies >> p & 1 and flower_ok(cells[p])])
    if count == "flowers":
        return _matching(cells, PLOTS, flower_ok)
    if count == "patches":
        return tuple([(p.colour, p.plots) for p in found if want is None or p.colour == want])
    if count == "enclosed_patches":
        return tuple([(p.colour, p.plots) for p in found if p.enclosed and (want is None or p.colour == want)])
    if count == "butterflies":
        return tuple([("butterfly", 1 << p) for p in PLOTS if butterflies >> p & 1])
    if count == "brambles":
        return _matching(cells, PLOTS, BRAMBLE.__eq__)
    if count == "fields":
        return _matching(cells, PLOTS, is_field)
    raise AssertionError(f"edition loader let through an unknown count {count!r}")


def feature_count(
    rule: FeatureRule, plot: int, cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables
) -> int:
    """``len(count_for_feature(...))``, counted without the records (the bots' totals count features for every garden
    they weigh; tests/test_fast_evaluation.py checks it against :func:`count_for_feature`)."""
    count, want, flower_ok = rule.counts, rule.want, rule.flower_ok
    if count == "distinct_adjacent":
        return len({c for c in map(cells.__getitem__, rule.neighbours[plot]) if c != EMPTY and c != FIELD})
    if count == "adjacent_critters":
        return sum(map(tables.critter_points.__contains__, map(cells.__getitem__, rule.neighbours[plot])))
    if count == "adjacent_flowers":
        return sum(map(flower_ok, map(cells.__getitem__, rule.neighbours[plot])))
    if count == "adjacent_fields":
        return sum(map(is_field, map(cells.__getitem__, rule.neighbours[plot])))
    if count == "adjacent_brambles":
        return list(map(cells.__getitem__, rule.neighbours[plot])).count(BRAMBLE)
    if count == "adjacent_butterflies":
        return sum([butterflies >> q & 1 for q in rule.neighbours[plot]])
    if count == "patch_colours":
        return len({patch.colour for patch in found})
    if count == "flowers_with_butterfly":
        return sum([1 for p in PLOTS if butterflies >> p & 1 and flower_ok(cells[p])])
    if count == "flowers":
        return sum(map(flower_ok, cells))
    if count == "patches":
        return len(found) if want is None else sum([1 for p in found if p.colour == want])
    if count == "enclosed_patches":
        return sum([1 for p in found if p.enclosed and (want is None or p.colour == want)])
    if count == "butterflies":
        return butterflies.bit_count()
    if count == "brambles":
        return cells.count(BRAMBLE)
    if count == "fields":
        return sum(map(is_field, cells))
    return len(count_for_feature(rule, plot, cells, butterflies, found, tables))


def _matching(cells: tuple[str, ...], where: Iterable[int], ok: Callable[[str], bool]) -> tuple[tuple[str, int], ...]:
    """(code, plot bit) of the plots of ``where`` whose code passes ``ok``."""
    return tuple([(cells[q], 1 << q) for q in where if ok(cells[q])])


def find_features(cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables) -> list[FeatureFound]:
    """Every feature in a field with its points (RULES §5; ``scoring.feature_copies``)."""
    rules = tables.feature_rules
    items: list[FeatureFound] = []
    if rules.keys().isdisjoint(cells):
        return items
    for plot, code in enumerate(cells):
        if code not in rules:
            continue
        rule = rules[code]
        if rule is None:
            items.append(FeatureFound(plot, code, 0, (), 0))
            continue
        counted = count_for_feature(rule, plot, cells, butterflies, found, tables)
        uncapped = rule.points * len(counted)
        items.append(FeatureFound(plot, code, uncapped if rule.max is None else min(uncapped, rule.max), counted, uncapped))
    if tables.edition.scoring.feature_copies == "best":
        best: dict[str, FeatureFound] = {}
        for item in items:
            if item.code not in best or item.points > best[item.code].points:
                best[item.code] = item
        items = [item if best[item.code] is item else item._replace(points=0, best_copy=False) for item in items]
    return items


def find_critters(cells: tuple[str, ...], tables: RuleTables) -> list[tuple[int, str, int]]:
    """(plot, code, points) of every critter (a critter code is only ever a field's occupant)."""
    points = tables.critter_points
    if points.keys().isdisjoint(cells):
        return []
    return [(plot, code, points[code]) for plot, code in enumerate(cells) if code in points]


def unique_features(cells: tuple[str, ...], tables: RuleTables) -> tuple[str, ...]:
    """The different feature codes in the garden, in edition order."""
    if tables.feature_rules.keys().isdisjoint(cells):
        return ()
    present = set(cells)
    return tuple(code for code in tables.feature_codes if code in present)


# --------------------------------------------------------------------------- the whole score


class Evaluation(NamedTuple):
    """Everything the end-game score counts, and the points of each category."""

    categories: dict[str, int]
    patches: tuple[PatchFound, ...]
    critters: list[tuple[int, str, int]]
    features: list[FeatureFound]
    unique_features: tuple[str, ...]

    @property
    def total(self) -> int:
        return sum(self.categories.values())


def evaluate(cells: tuple[str, ...], bricks: int, butterflies: int, tables: RuleTables, faces_of: FacesOf | None = None) -> Evaluation:
    """The end-game score of a compact garden (RULES.md §3): every category, and what it counted.

    ``faces_of`` finds the faces of the brick drawing, as for :func:`find_patches` (:func:`counted_faces`
    when no enclosure's polygon is wanted: everything else is the same)."""
    points, found, critters, features, unique = _score(cells, bricks, butterflies, tables, faces_of)
    return Evaluation(dict(zip(CATEGORIES, points, strict=True)), found, critters, features, unique)


def _score(
    cells: tuple[str, ...], bricks: int, butterflies: int, tables: RuleTables, faces_of: FacesOf | None = None
) -> tuple[tuple[int, ...], tuple[PatchFound, ...], list[tuple[int, str, int]], list[FeatureFound], tuple[str, ...]]:
    """The points of each category (in :data:`CATEGORIES` order) and the things they count."""
    scoring = tables.edition.scoring
    found = find_patches(cells, bricks, tables, faces_of)
    critters = find_critters(cells, tables)
    features = find_features(cells, butterflies, found, tables)
    unique = unique_features(cells, tables)
    in_patches, in_enclosed = _plots_in(found)
    points = (
        scoring.flower * sum(map(FLOWER_CODES.__contains__, cells)),
        scoring.patch * in_patches,
        scoring.enclosed * in_enclosed,
        scoring.butterfly * butterflies.bit_count(),
        sum([c[2] for c in critters]),
        sum([f.points for f in features]),
        scoring.unique_feature * len(unique),
    )
    return points, found, critters, features, unique


def _plots_in(found: tuple[PatchFound, ...]) -> tuple[int, int]:
    """How many plots are in patches, and in enclosed patches that nothing spoils."""
    in_patches = in_enclosed = 0
    for patch in found:
        size = patch.plots.bit_count()
        in_patches += size
        if patch.face is not None and not patch.spoilers:
            in_enclosed += size
    return in_patches, in_enclosed


@lru_cache(maxsize=1 << 16)
def total(cells: tuple[str, ...], bricks: int, butterflies: int, edition: Edition) -> int:
    """The end-game total of a compact garden (memoised: bots ask for the same gardens again).

    Bricks count in two ways only: the faces they draw (enclosures) and the
    patches they split (a brick between two flowers of one colour).  When the
    bricks draw no face, the others change nothing, so a second memo forgets
    them: most new bricks a bot weighs then score as a garden scored before.
    """
    if not counted_faces(bricks, edition.rules.border_encloses):
        bricks &= joining_edges(cells)
    return _total(cells, bricks, butterflies, edition)


def totals_with_bricks(cells: tuple[str, ...], bricks: int, butterflies: int, brick_sets: Iterable[int], edition: Edition) -> list[int]:
    """``[total(cells, drawn, butterflies, edition) for drawn in brick_sets]``, each of ``brick_sets``
    being ``bricks`` or ``bricks`` and one brick more (a bot weighing every brick it may draw).

    Where ``bricks`` close no ring (and the border does not enclose), a new brick draws a face only
    if it closes one (:func:`~papillon.geometry.ring_closers`, worked out once for them all), and
    otherwise changes the score only if it splits a patch: the others score as ``bricks`` do.
    """
    closers = None if edition.rules.border_encloses else ring_closers(bricks)
    if closers is None:
        return [total(cells, drawn, butterflies, edition) for drawn in brick_sets]
    joining = joining_edges(cells)
    same = _total(cells, bricks & joining, butterflies, edition)
    found = []
    for drawn in brick_sets:
        new = drawn & ~bricks
        if new & closers or new & (new - 1) or drawn & bricks != bricks:
            found.append(total(cells, drawn, butterflies, edition))  # a ring, or not one brick more: the plain way
        elif new & joining:
            found.append(_total(cells, drawn & joining, butterflies, edition))
        else:
            found.append(same)
    return found


_DRAWN_TOTALS: dict[tuple[tuple[str, ...], int, int, Edition], int] = {}
""":func:`totals_with_plots`' memo (forgotten all at once when full, as the bots' memos are)."""
DRAWN_TOTALS = 1 << 16


def totals_with_plots(
    cells: tuple[str, ...], bricks: int, butterflies: int, drawings: Iterable[tuple[tuple[str, ...], int]], edition: Edition
) -> list[int]:
    """``[total(drawn, bricks, butterflies, edition) for drawn, _ in drawings]``, each ``drawn`` being
    ``cells`` with plot ``plot`` changed (-1: none; a bot weighing every plot it may draw on).

    A plot that holds no flower before or after leaves every patch as it was, and each
    enclosure too, unless its ground spoils one and the plot's old ground did not (or the
    other way round): such gardens share the patches of ``cells``, found once, and their points,
    and count the rest.
    """
    tables = rule_tables(edition)
    forbids = tables.forbids
    memo = _DRAWN_TOTALS
    found: tuple[PatchFound, ...] | None = None
    faced = False
    flower_points = 0
    occupants: _Occupants | None = None
    flowered: _Flowered | None = None
    no_faces: bool | None = None
    same: int | None = None  # the total of ``cells``, for the drawings of no plot
    totals = []
    for drawn, plot in drawings:
        if plot < 0:
            if same is None:
                same = total(cells, bricks, butterflies, edition)
            totals.append(same)
            continue
        if cells[plot] in FLOWER_CODES:
            totals.append(total(drawn, bricks, butterflies, edition))
            continue
        new_flower = drawn[plot] in FLOWER_CODES
        if new_flower:
            if no_faces is None:
                no_faces = not counted_faces(bricks, edition.rules.border_encloses)
            if not no_faces or cells[plot] != EMPTY:
                totals.append(total(drawn, bricks, butterflies, edition))
                continue
        key = (drawn, bricks, butterflies, edition)
        known = memo.get(key)
        if known is None:
            if found is None:
                found = find_patches(cells, bricks, tables, counted_faces)
                faced = any(patch.face is not None for patch in found)
                flower_points = _flower_points(cells, found, tables)
            if occupants is None:
                occupants = _Occupants(cells, butterflies, found, tables)
            if new_flower:
                if flowered is None:
                    flowered = _Flowered(cells, bricks, found, flower_points, tables)
                known = flowered.with_flower(drawn, plot, occupants)
            elif faced and (ground(cells[plot]) in forbids) != (ground(drawn[plot]) in forbids):
                known = total(drawn, bricks, butterflies, edition)
            else:
                known = flower_points + occupants.with_plot(drawn, plot)
            if len(memo) >= DRAWN_TOTALS:
                memo.clear()
            memo[key] = known
        totals.append(known)
    return totals


_UNMOVED_BY_A_PLOT = frozenset(
    {"patch_colours", "patches", "enclosed_patches", "butterflies", "adjacent_butterflies", "flowers", "flowers_with_butterfly"}
)
"""Feature counts that read only the flowers, the patches and the butterflies: a plot drawn without a flower leaves them as
they were."""
_BY_NEIGHBOURS = frozenset({"distinct_adjacent", "adjacent_critters", "adjacent_flowers", "adjacent_fields", "adjacent_brambles"})
"""Feature counts that read only the cells next to the tile: a plot drawn elsewhere leaves them as they were."""


def _changed_by(rule: FeatureRule | None, at: int, unmoved: frozenset[str]) -> int:
    """The plots whose drawing can change what the tile on ``at`` counts (a mask), its count being in ``unmoved`` if
    it reads nothing such a drawing changes: none then, the tile's neighbours for a count of its neighbours, else all."""
    if rule is None or rule.counts in unmoved:
        return 0
    if rule.counts in _BY_NEIGHBOURS:
        return sum([1 << q for q in rule.neighbours[at]])
    return ALL_PLOTS_MASK


_UNMOVED_BY_A_FLOWER = frozenset(
    {"butterflies", "adjacent_butterflies", "fields", "brambles", "adjacent_fields", "adjacent_brambles", "adjacent_critters"}
)
"""Feature counts that read only the butterflies, fields, brambles and critters: a flower drawn on an empty plot leaves
them as they were."""


class _Flowered:
    """:func:`_total` of gardens that differ from ``cells`` by a flower on an empty plot, where the bricks draw no
    face (:func:`totals_with_plots`): only the new flower's colour can join into a new patch (the flood from
    the plot, through its colour's flowers); the other patches, and the points of the rest, are ``cells``'."""

    def __init__(self, cells: tuple[str, ...], bricks: int, found: tuple[PatchFound, ...], flower_points: int, tables: RuleTables) -> None:
        self.found, self.flower_points, self.tables = found, flower_points, tables
        self.colours = dict(flower_masks(cells))
        self.right, self.down = open_sides(bricks)

    def with_flower(self, drawn: tuple[str, ...], plot: int, occupants: _Occupants) -> int:
        colour = drawn[plot]
        plots = self.colours.get(colour, 0) | 1 << plot
        group = flood(1 << plot, *links(plots, self.right, self.down))
        scoring = self.tables.edition.scoring
        patch_min = self.tables.edition.rules.patch_min
        kept = tuple([patch for patch in self.found if patch.colour != colour or not patch.plots & group])
        lost = sum([patch.plots.bit_count() for patch in self.found if patch.colour == colour and patch.plots & group])
        size = group.bit_count()
        gained = size if size >= patch_min else 0
        found = (*kept, PatchFound(colour, group, None, 0)) if gained else kept
        points = self.flower_points + scoring.flower + scoring.patch * (gained - lost)
        return points + occupants.with_flower(drawn, plot, found)


class _Occupants:
    """:func:`_occupant_points` of gardens that differ from ``cells`` in one plot holding no flower before or after
    (:func:`totals_with_plots`), the patches ``found`` being the same: the critters and each feature tile are
    counted once on ``cells``, and for a drawn garden only what the changed plot can change is counted again."""

    def __init__(self, cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables) -> None:
        self.cells, self.butterflies, self.found, self.tables = cells, butterflies, found, tables
        critter_points = tables.critter_points
        self.critters = sum([critter_points[code] for code in cells if code in critter_points])
        rules = tables.feature_rules
        self.tiles = [
            (plot, code, self._got(code, plot, cells), _changed_by(rules[code], plot, _UNMOVED_BY_A_PLOT))
            for plot, code in enumerate(cells)
            if code in rules
        ]
        """Each tile: its plot, code, points on ``cells``, and the plots a drawing without a flower can change it by."""
        self.by_flower = [_changed_by(rules[code], at, _UNMOVED_BY_A_FLOWER) for at, code, _, _ in self.tiles]
        """The plots a new flower can change each tile by."""
        self.moved = self.moved_by_flower = 0
        """The plots whose drawing (a new flower's) can change some tile's points (a tile's own plot included)."""
        for (at, _, _, by_plot), by_flower in zip(self.tiles, self.by_flower, strict=True):
            self.moved |= 1 << at | by_plot
            self.moved_by_flower |= by_flower
        scoring = tables.edition.scoring
        self.tile_points = 0
        """The tiles' points on ``cells``, unique tiles included."""
        if self.tiles:
            points = _tiles_points([(code, got) for _, code, got, _ in self.tiles], scoring)
            self.tile_points = points + scoring.unique_feature * len({code for _, code, _, _ in self.tiles})

    def _got(self, code: str, plot: int, cells: tuple[str, ...]) -> int:
        return _tile_points(self.tables.feature_rules[code], plot, cells, self.butterflies, self.found, self.tables)

    def with_flower(self, drawn: tuple[str, ...], plot: int, found: tuple[PatchFound, ...]) -> int:
        """``_occupant_points(drawn, ..., found)``, ``drawn`` being ``cells`` with a flower on the empty ``plot`` and
        ``found`` its patches: only the tiles that count flowers or patches, or have ``plot`` for a neighbour, are
        counted again (the critters, fields, brambles and butterflies are those of ``cells``)."""
        tables = self.tables
        scoring = tables.edition.scoring
        points = scoring.butterfly * self.butterflies.bit_count() + self.critters
        if not self.moved_by_flower >> plot & 1:
            return points + self.tile_points
        rules = tables.feature_rules
        tiles = []
        for (at, code, got, _), by_flower in zip(self.tiles, self.by_flower, strict=True):
            if by_flower >> plot & 1:
                got = _tile_points(rules[code], at, drawn, self.butterflies, found, tables)
            tiles.append((code, got))
        return points + _tiles_points(tiles, scoring) + scoring.unique_feature * len({code for code, _ in tiles})

    def with_plot(self, drawn: tuple[str, ...], plot: int) -> int:
        """``_occupant_points(drawn, ...)``, ``drawn`` being ``cells`` with ``plot`` changed (no flower there, before or after)."""
        tables = self.tables
        scoring = tables.edition.scoring
        critter_points = tables.critter_points
        rules = tables.feature_rules
        points = scoring.butterfly * self.butterflies.bit_count()
        points += self.critters - critter_points.get(self.cells[plot], 0) + critter_points.get(drawn[plot], 0)
        if not self.moved >> plot & 1 and drawn[plot] not in rules:
            return points + self.tile_points
        tiles = []
        for at, code, got, by_plot in self.tiles:
            if at == plot:
                continue  # the plot's old occupant is gone; its new one is counted below
            if by_plot >> plot & 1:
                got = self._got(code, at, drawn)
            tiles.append((code, got))
        if drawn[plot] in rules:
            tiles.append((drawn[plot], self._got(drawn[plot], plot, drawn)))
        if not tiles:
            return points
        return points + _tiles_points(tiles, scoring) + scoring.unique_feature * len({code for code, _ in tiles})


@lru_cache(maxsize=1 << 16)
def _total(cells: tuple[str, ...], bricks: int, butterflies: int, edition: Edition) -> int:
    """``sum(_score(...)[0])``, counting only: the same finders, without the records the scorer explains
    (tests/test_rules.py checks it against :func:`evaluate` on many gardens)."""
    tables = rule_tables(edition)
    return _counted(cells, butterflies, find_patches(cells, bricks, tables, counted_faces), tables)


def _counted(cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables) -> int:
    """:func:`_total` of a garden whose patches are ``found``."""
    return _flower_points(cells, found, tables) + _occupant_points(cells, butterflies, found, tables)


def _flower_points(cells: tuple[str, ...], found: tuple[PatchFound, ...], tables: RuleTables) -> int:
    """The flowers', patches' and enclosures' points: what only the flowers and the patches ``found`` give."""
    scoring = tables.edition.scoring
    in_patches, in_enclosed = _plots_in(found)
    return scoring.flower * sum(map(FLOWER_CODES.__contains__, cells)) + scoring.patch * in_patches + scoring.enclosed * in_enclosed


def _occupant_points(cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables) -> int:
    """The butterflies', critters' and features' points."""
    scoring = tables.edition.scoring
    points = scoring.butterfly * butterflies.bit_count()
    critter_points = tables.critter_points
    if not critter_points.keys().isdisjoint(cells):
        points += sum([critter_points[code] for code in cells if code in critter_points])
    rules = tables.feature_rules
    if not rules.keys().isdisjoint(cells):
        points += _feature_points(cells, butterflies, found, tables) + scoring.unique_feature * len(rules.keys() & set(cells))
    return points


def _feature_points(cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables) -> int:
    """The features' points of :func:`find_features`, summed (with ``feature_copies = "best"``, each tile's best copy)."""
    rules = tables.feature_rules
    tiles = [(code, _tile_points(rules[code], plot, cells, butterflies, found, tables)) for plot, code in enumerate(cells) if code in rules]
    return _tiles_points(tiles, tables.edition.scoring)


def _tile_points(
    rule: FeatureRule | None, plot: int, cells: tuple[str, ...], butterflies: int, found: tuple[PatchFound, ...], tables: RuleTables
) -> int:
    """The points of one feature tile on ``plot``, after its cap (0 for a tile the edition scores nothing for)."""
    if rule is None:
        return 0
    got = rule.points * feature_count(rule, plot, cells, butterflies, found, tables)
    return rule.max if rule.max is not None and got > rule.max else got


def _tiles_points(tiles: list[tuple[str, int]], scoring: Scoring) -> int:
    """The features' points from each tile's ``(code, points)``: every copy's, or with ``feature_copies = "best"``
    each tile's best copy's."""
    if scoring.feature_copies != "best":
        return sum([got for _, got in tiles])
    best: dict[str, int] = {}
    for code, got in tiles:
        if code not in best or got > best[code]:
            best[code] = got
    return sum(best.values())


@lru_cache(maxsize=1 << 16)
def joining_edges(cells: tuple[str, ...]) -> int:
    """Mask of the edges between two flowers of one colour: the only bricks that change the patches."""
    joining = 0
    for _, plots in flower_masks(cells):
        # Plots whose right (lower) neighbour holds the same colour, then the edges between, a byte of plots at a time.
        right, down = plots & plots >> 1 & _NOT_LAST_COLUMN, plots & plots >> SIZE
        chunk = 0
        while right | down:
            joining |= _RIGHT_LINK_EDGES[chunk][right & 255] | _LOWER_LINK_EDGES[chunk][down & 255]
            right >>= 8
            down >>= 8
            chunk += 1
    return joining


def _link_edges(side: int) -> tuple[tuple[int, ...], ...]:
    """For each byte of a plot mask: the mask of the edges between its plots and their neighbours ``side`` plots on."""
    edge_of = [
        1 << EDGE_INDEX[edge_between(p, p + side)] if p + side < len(PLOTS) and (side != 1 or p % SIZE != SIZE - 1) else 0 for p in PLOTS
    ]
    tables = []
    for chunk in range((len(PLOTS) + 7) // 8):
        table = [0]
        for bit, edges in enumerate(edge_of[8 * chunk : 8 * chunk + 8]):  # the values below 2**bit, then each with this bit set
            table += [found | edges for found in table[: 1 << bit]]
        tables.append(tuple(table + [0] * (256 - len(table))))
    return tuple(tables)


_NOT_LAST_COLUMN = sum(1 << p for p in PLOTS if p % SIZE != SIZE - 1)
_RIGHT_LINK_EDGES = _link_edges(1)
_LOWER_LINK_EDGES = _link_edges(SIZE)
