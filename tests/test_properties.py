"""Property tests (hypothesis): notation round trips, symmetry of the score, shapely vs flood fill.

Every expectation is computed here independently of the code under test where the
brief allows: the patch and region flood fills below do their own row/column steps.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter

import oracle
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import STANDARD_CODES, any_gardens, edges, garden_of, gardens, ring, ring_gardens

from papillon import rules
from papillon.edition import Edition, edition_from_toml, standard_edition
from papillon.engine.evaluate import board_categories, board_score
from papillon.engine.state import Board
from papillon.errors import NotationError
from papillon.garden import Garden
from papillon.geometry import enclosures
from papillon.grid import EDGES, PLOTS, SIZE, SYMMETRIES, Edge, Plot, regions
from papillon.notation import format_garden, from_json, parse, to_json
from papillon.score import CATEGORIES, compact, score

CI = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""A fixed profile for CI: enough examples to find a broken rule, the whole file in seconds."""

EDITIONS = {
    "standard": standard_edition(),
    "border": edition_from_toml("[rules]\nborder_encloses = true\n"),
    "orthogonal": edition_from_toml('[rules]\nadjacency = "orthogonal"\n'),
    "reachable": edition_from_toml('[rules]\nenclosure = "reachable"\n'),
}

OPTIONS = {
    "rules.adjacency": ('"king"', '"orthogonal"'),
    "rules.enclosure": ('"encircled"', '"reachable"'),
    "rules.border_encloses": ("false", "true"),
    "scoring.feature_copies": ('"each"', '"best"'),
}
"""Every scoring option of the edition with both of its values (the others do not change a score)."""


def _combination(values: tuple[str, ...]) -> Edition:
    tables: dict[str, list[str]] = {}
    for key, value in zip(OPTIONS, values, strict=True):
        table, name = key.split(".")
        tables.setdefault(table, []).append(f"{name} = {value}")
    # one extra: a Pond counting orthogonally while the edition counts 8 plots, and brambles spoiling enclosures
    tables["rules"].append('enclosure_forbids = ["empty", "field", "bramble"]' if values[1] == '"reachable"' else "patch_min = 3")
    text = "".join(f"[{table}]\n" + "\n".join(lines) + "\n" for table, lines in tables.items())
    if values[0] == '"king"':
        text += '[features.po]\nadjacency = "orthogonal"\n'
    return edition_from_toml(text)


EVERY_COMBINATION = {" ".join(values): _combination(values) for values in itertools.product(*OPTIONS.values())}


# --------------------------------------------------------------------------- independent helpers


def neighbours(plot: Plot) -> list[Plot]:
    """Orthogonal neighbours, computed here rather than taken from papillon.grid."""
    col, row = plot % SIZE, plot // SIZE
    found = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        if 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
            found.append((row + dr) * SIZE + col + dc)
    return found


def walled(bricks: frozenset[Edge], p: Plot, q: Plot) -> bool:
    return Edge(min(p, q), max(p, q)) in bricks


def flood(start: Plot, bricks: frozenset[Edge], allowed: set[Plot] | None = None) -> frozenset[Plot]:
    """Every plot reachable from ``start`` without crossing a brick (staying in ``allowed``)."""
    seen, stack = {start}, [start]
    while stack:
        p = stack.pop()
        for q in neighbours(p):
            if q not in seen and not walled(bricks, p, q) and (allowed is None or q in allowed):
                seen.add(q)
                stack.append(q)
    return frozenset(seen)


def touches_border(plots: frozenset[Plot]) -> bool:
    return any(p % SIZE in (0, SIZE - 1) or p // SIZE in (0, SIZE - 1) for p in plots)


def expected_patches(garden: Garden, edition: Edition) -> set[tuple[str, frozenset[Plot], bool]]:
    """(colour, plots, enclosed) of every patch, by RULES.md §2.1-2.2 read literally (tests/oracle.py)."""
    return {(colour, frozenset(plots), enclosed) for colour, plots, enclosed in oracle.patches(garden, edition)}


def flower_groups(garden: Garden) -> list[frozenset[Plot]]:
    """Connected same-colour flowers of any size, never across a brick."""
    groups, done = [], set()
    for p in PLOTS:
        cell = garden.cells[p]
        if p in done or not cell.is_flower:
            continue
        same = {q for q in PLOTS if garden.cells[q].is_flower and garden.cells[q].colour == cell.colour}
        group = flood(p, garden.bricks, same)
        done |= group
        groups.append(group)
    return groups


def scored_patches(garden: Garden, edition: Edition) -> set[tuple[str, frozenset[Plot], bool]]:
    return {(p.colour, p.plots, p.enclosed) for p in score(garden, edition).patches}


@CI
@given(gardens(), st.integers(1, 4))
def test_the_patches_of_any_size_are_the_flower_groups(garden: Garden, patch_min: int) -> None:
    """rules.patches grows every group at once on plot masks; here, one flower at a time."""
    cells, bricks, _ = compact(garden)
    found = rules.patches(cells, bricks, patch_min)
    expected = [group for group in flower_groups(garden) if len(group) >= patch_min]
    assert [frozenset(p for p in PLOTS if mask >> p & 1) for _, mask in found] == expected
    assert [colour for colour, _ in found] == [cells[min(group)] for group in expected]


# --------------------------------------------------------------------------- notation


@CI
@given(any_gardens)
def test_notation_round_trips(garden: Garden) -> None:
    text = format_garden(garden)
    assert parse(text) == garden
    assert format_garden(parse(text)) == text
    assert from_json(to_json(garden)) == garden
    assert from_json(json.dumps(to_json(garden))) == garden
    assert to_json(from_json(to_json(garden))) == to_json(garden)


@CI
@given(st.one_of(gardens(with_meta=False), ring_gardens()))
def test_repr_is_notation_that_evaluates_back(garden: Garden) -> None:
    assert eval(repr(garden), {"Garden": Garden}) == garden


@pytest.mark.parametrize("value", ["C:\\new", "three ''' quotes"])
def test_repr_evaluates_back_with_any_metadata(value: str) -> None:
    garden = Garden.empty().with_meta(note=value)
    assert eval(repr(garden), {"Garden": Garden}) == garden


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """The canonical text of a random garden with a few characters inserted, deleted or replaced."""
    text = format_garden(draw(any_gardens))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(("insert", "delete", "replace")))
        char = draw(st.sampled_from(" .*|-+#\t\nRFlbAx1" + "\r\x0c\u2028é"))
        if action == "insert":
            text = text[:at] + char + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at + 1 :]
    return text


@CI
@given(mangled())
def test_parse_returns_a_garden_or_a_positioned_notation_error(text: str) -> None:
    try:
        garden = parse(text)
    except NotationError as error:
        lines = re.split(r"\r\n|\r|\n", text)  # as editors count them: a final newline starts one more line
        assert error.line is not None and 1 <= error.line <= len(lines)
        assert error.column is not None and error.column >= 1
        assert str(error) == f"line {error.line}, column {error.column}: {error.message}"
    else:
        assert parse(format_garden(garden)) == garden


# --------------------------------------------------------------------------- score


@CI
@given(any_gardens, st.sampled_from(sorted(EDITIONS)))
def test_score_is_the_same_under_the_8_symmetries(garden: Garden, edition_name: str) -> None:
    edition = EDITIONS[edition_name]
    card = score(garden, edition)
    for name in SYMMETRIES:
        turned = score(garden.transformed(name), edition)
        assert turned.categories == card.categories, name
        assert turned.total == card.total


@CI
@given(any_gardens)
def test_transformations_compose_back_to_the_garden(garden: Garden) -> None:
    inverse = {"rotate90": "rotate270", "rotate270": "rotate90"}
    for name in SYMMETRIES:
        assert garden.transformed(name).transformed(inverse.get(name, name)) == garden


@CI
@given(st.one_of(ring_gardens(), gardens(with_meta=False)), st.sampled_from(sorted(EDITIONS)))
def test_a_patch_is_enclosed_iff_its_encircled_area_holds_no_empty_or_field(garden: Garden, edition_name: str) -> None:
    edition = EDITIONS[edition_name]
    expected = expected_patches(garden, edition)
    assert scored_patches(garden, edition) == expected
    categories = score(garden, edition).categories
    assert categories["patches"] == sum(len(plots) for _, plots, _ in expected)
    assert categories["enclosed"] == sum(len(plots) for _, plots, enclosed in expected if enclosed)


@CI
@given(any_gardens, edges)
def test_a_brick_never_merges_patches_nor_adds_flowers_to_them(garden: Garden, edge: Edge) -> None:
    assume(edge not in garden.bricks)
    after = garden.with_brick(edge)
    groups_before = flower_groups(garden)
    patches_before = [p.plots for p in score(garden).patches]
    patches_after = [p.plots for p in score(after).patches]
    for patch in patches_after:
        assert any(patch <= group for group in groups_before)
        assert any(patch <= before for before in patches_before)
    assert sum(map(len, patches_after)) <= sum(map(len, patches_before))


@CI
@given(any_gardens, edges, st.sampled_from(sorted(EDITIONS)))
def test_a_brick_never_changes_flowers_butterflies_critters_or_unique_features(garden: Garden, edge: Edge, edition_name: str) -> None:
    edition = EDITIONS[edition_name]
    before = score(garden, edition).categories
    after = score(garden.with_brick(edge), edition).categories
    for category in ("flowers", "butterflies", "critters", "unique_features"):
        assert after[category] == before[category], category
    assert set(after) == set(before) == set(CATEGORIES)


@CI
@given(st.one_of(ring_gardens(), gardens(with_meta=False), any_gardens), st.sampled_from(sorted(EVERY_COMBINATION)))
def test_the_scorer_agrees_with_the_oracle_under_every_option_combination(garden: Garden, options: str) -> None:
    edition = EVERY_COMBINATION[options]
    assert dict(score(garden, edition).categories) == oracle.categories(garden, edition)


@CI
@given(st.one_of(ring_gardens(), gardens(with_meta=False)), st.sampled_from(sorted(EVERY_COMBINATION)))
def test_the_bots_evaluator_gives_the_scorers_points_under_every_option_combination(garden: Garden, options: str) -> None:
    edition = EVERY_COMBINATION[options]
    cells, bricks, butterflies = compact(garden)
    board = Board(cells, bricks, butterflies, (0, 0, 0), (0, 0, 0, 0), 0, 0, ())
    card = score(garden, edition)
    assert board_categories(board, edition) == dict(card.categories)
    assert board_score(board, edition) == card.total


# --------------------------------------------------------------------------- shapely vs flood fill


brick_sets = st.one_of(st.frozensets(edges), ring_gardens().map(lambda garden: garden.bricks))


@CI
@given(brick_sets)
def test_shapely_faces_are_the_closed_flood_fill_regions(bricks: frozenset[Edge]) -> None:
    faces = enclosures(bricks)
    face_plots = [face.plots for face in faces]
    for region in regions(bricks):
        assert region == flood(min(region), bricks)  # papillon's flood fill agrees with ours
        if touches_border(region):
            assert not any(region & plots for plots in face_plots)
        else:
            assert face_plots.count(region) == 1
    assert all(plots for plots in face_plots)  # every face holds a plot...
    assert len(set(face_plots)) == len(face_plots)  # ...and no two faces the same ones
    for face in faces:
        assert face.polygon.area == pytest.approx(len(face.plots))


@CI
@given(brick_sets)
def test_a_faces_exterior_ring_holds_its_region_and_the_pockets_it_surrounds(bricks: frozenset[Edge]) -> None:
    for face in enclosures(bricks):
        region = set(face.plots)
        pockets: set[Plot] = set()
        for start in set(PLOTS) - region:
            pocket = oracle.flood(start, lambda q, r=region: q not in r, None)  # bricks ignored
            if not touches_border(frozenset(pocket)):
                pockets |= pocket
        assert face.encircled == frozenset(region | pockets)


@CI
@given(brick_sets)
def test_with_the_border_as_brick_every_region_is_one_face(bricks: frozenset[Edge]) -> None:
    faces = enclosures(bricks, border=True)
    assert sorted(sorted(face.plots) for face in faces) == sorted(sorted(region) for region in regions(bricks))
    for face in faces:
        assert face.polygon.area == pytest.approx(len(face.plots))


# --------------------------------------------------------------------------- the strategies themselves


def test_the_ring_strategy_often_draws_the_interesting_cases() -> None:
    """Enclosed patches, shared enclosures, nested rings and spoiled rings all occur (a fixed seed)."""
    seen: Counter[str] = Counter()

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)
    @given(ring_gardens())
    def draw(garden: Garden) -> None:
        card = score(garden)
        held = [p.enclosure.plots for p in card.patches if p.enclosure is not None]
        seen["gardens"] += 1
        seen["enclosed"] += bool(held)
        seen["shared"] += len(set(held)) < len(held)
        seen["nested"] += any(list(face.polygon.interiors) for face in enclosures(garden.bricks))
        seen["spoiled"] += any((p.why_open or "").startswith("its ring also holds") for p in card.patches)

    draw()
    assert seen["enclosed"] >= seen["gardens"] // 6, seen
    assert min(seen["shared"], seen["nested"], seen["spoiled"]) >= 3, seen


def test_the_strategy_helpers() -> None:
    inside = {6, 7, 8, 11, 12, 13, 16, 17, 18}  # B2 to D4
    assert ring((1, 1, 3, 3)) == frozenset(e for e in EDGES if (e.a in inside) != (e.b in inside))
    assert ring((0, 0, 4, 4)) == frozenset()
    everything = garden_of(STANDARD_CODES + (".",) * (len(PLOTS) - len(STANDARD_CODES)), EDGES)
    assert parse(format_garden(everything)) == everything
