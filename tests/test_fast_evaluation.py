"""The bots' fast evaluation gives the plain scorer's numbers, to the last bit.

A bot weighs the gardens its actions leave without building the game states
(:func:`~papillon.engine.evaluate.candidate_gardens`), splits the promise of
the sheets (:func:`~papillon.engine.evaluate.potential`) into a shared part and a
per-garden part, and the rules' memo (:func:`~papillon.rules.total`) forgets
bricks that change nothing.  Each is checked here against the slow way: the
scorer's :class:`~papillon.score.ScoreCard` and ``state.apply(action)``.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import any_gardens

from papillon.edition import SCORE_COUNTS, Edition, edition_from_toml, standard_edition
from papillon.engine import make_bot, new_game
from papillon.engine.actions import Kind
from papillon.engine.bots import TIE, GreedyBot, value
from papillon.engine.evaluate import (
    board_score,
    candidate_gardens,
    garden_potential,
    only_sets_up,
    potential,
    potential_bound,
    sheet_potential,
)
from papillon.engine.log import game_seed
from papillon.engine.state import GameState
from papillon.engine.tables import tables_for
from papillon.grid import EDGE_INDEX, PLOTS
from papillon.rules import evaluate as evaluate_rules
from papillon.rules import rule_tables, total
from papillon.score import score

STANDARD = standard_edition()
EDITIONS = (
    STANDARD,
    edition_from_toml("[rules]\nborder_encloses = true\n"),
    edition_from_toml('[scoring]\nenclosed = 2\n[rules]\nenclosure = "encircled"\n'),
)
CI = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compact(garden):
    cells = tuple(cell.code for cell in garden.cells)
    bricks = sum(1 << EDGE_INDEX[edge] for edge in garden.bricks)
    butterflies = sum(1 << p for p in garden.butterflies)
    return cells, bricks, butterflies


@CI
@given(any_gardens, st.sampled_from(EDITIONS))
def test_the_memoised_total_is_the_score_cards_total_on_random_gardens(garden, edition):
    cells, bricks, butterflies = compact(garden)
    expected = score(garden, edition).total
    assert total(cells, bricks, butterflies, edition) == expected
    # The memo forgets the bricks that draw no face and split no patch: asked again with every brick, the same.
    assert evaluate_rules(cells, bricks, butterflies, rule_tables(edition)).total == expected


def _states(seed: int, bot: str, players: int) -> list[GameState]:
    """Every decision of one game (the states a bot chooses in), played by ``bot`` in every seat."""
    rng = random.Random(seed)
    agents = [make_bot(bot) for _ in range(players)]
    state = new_game(players=tuple(f"P{i}" for i in range(players)))
    found = []
    while not state.is_over():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        found.append(state)
        state = state.apply(agents[state.player].choose(state, rng))
    return found


def _slow_immediate(bot: GreedyBot, state: GameState, legal: tuple[str, ...], player: int) -> list[float]:
    """The greedy bot's worths the plain way (main 836464b's code): every action applied, every garden scored."""
    edition, tables, weight = state.edition, state.game.tables, bot.tie_weight
    boards = [state.apply(action).boards[player] for action in legal]
    scores = [board_score(board, edition) for board in boards]
    floor = max(scores) - 2 * weight * potential_bound(tables) - TIE
    return [score + weight * potential(board, tables) if score >= floor else -math.inf for board, score in zip(boards, scores, strict=True)]


@settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["random", "greedy"]), st.sampled_from([1, 3]))
def test_candidate_gardens_are_the_gardens_the_engine_leaves(seed, bot, players):
    greedy = GreedyBot()
    fast = sets_up = 0
    for state in _states(seed, bot, players):
        legal = state.legal_actions()
        player = state.player
        candidates = candidate_gardens(state, legal, player)
        if candidates is not None:
            fast += 1
            for action, garden, sheet in zip(legal, candidates.gardens, candidates.sheets, strict=True):
                after = state.apply(action).boards[player]
                assert garden == (after.cells, after.bricks, after.butterflies), action
                assert (sheet.ladders, sheet.tracks, sheet.rondel, sheet.caterpillars) == (
                    after.ladders,
                    after.tracks,
                    after.rondel,
                    after.caterpillars,
                ), action
        # What the greedy bot makes of them: the same floats as scoring every applied state.
        assert list(greedy._immediate(state, legal, player)) == _slow_immediate(greedy, state, legal, player)
        if only_sets_up(state):  # the look-ahead takes such a decision's best worth to be the state's value
            assert max(greedy._immediate(state, legal, player)) == value(state, player, greedy.tie_weight)
            sets_up += 1
        if legal[0].kind is Kind.EDGE:  # a brick gain's look-ahead: every brick's value, the same floats
            edges = [action for action in legal if action.kind is Kind.EDGE]
            slow = [value(state.apply(action), player, greedy.tie_weight) for action in edges]
            assert greedy._values(state, edges, player) == slow
    assert fast > 0 and sets_up > 0


def test_the_fast_path_covers_the_plots_bricks_and_paths_a_game_asks_for():
    # If the engine's actions or tasks change shape, the fast path must follow, or the bots lose their speed
    # without any test noticing: most decisions of a greedy game are plots, bricks and paths.
    states = [s for i in range(3) for s in _states(game_seed(1, i), "greedy", 1)]
    weighed = [s for s in states if len(s.legal_actions()) > 1]
    covered = [s for s in weighed if candidate_gardens(s, s.legal_actions(), s.player) is not None]
    assert len(covered) > 0.5 * len(weighed)  # 60 % on these seeds (the rest: fills, tiles, gnomes, parts)
    verbs = {str(s.legal_actions()[0]).split(" ")[0] for s in covered}
    assert {"plot", "edge", "to"} <= verbs


@CI
@given(any_gardens, st.sampled_from(EDITIONS), st.integers(0, 5), st.integers(0, 24))
def test_the_split_potential_is_the_potential_to_the_last_bit(garden, edition, ladder, caterpillars):
    tables = tables_for(edition)
    cells, bricks, butterflies = compact(garden)
    board = (
        new_game(edition=edition)
        .boards[0]
        ._replace(
            cells=cells,
            bricks=bricks,
            butterflies=butterflies,
            ladders=tuple(min(ladder, h) for h in tables.ladders),
            tracks=(1, 0, 2, 0)[: len(tables.colours)],
            caterpillars=caterpillars,
        )
    )
    assert garden_potential(sheet_potential(board, tables), cells, bricks, tables) == potential(board, tables)
    assert len(PLOTS) == len(cells)


BEST_COPY = edition_from_toml('[scoring]\nfeature_copies = "best"\nunique_feature = 2\n')
COPIES = (STANDARD, BEST_COPY)


def _scoring_every_count() -> tuple[Edition, ...]:
    """Two editions whose seven tiles between them score every count (flowers of one colour among them), uncapped:
    the recounts of one plot drawn (rules._Occupants) skip the tiles a plot cannot change, which depends on the count."""
    tiles = ("po", "sh", "bf", "tr", "fp", "ha", "gz")
    found = []
    for counts in (SCORE_COUNTS[:7], SCORE_COUNTS[7:]):
        lines = []
        for tile, count in zip(tiles, counts, strict=True):
            colour = ', colour = "blue"' if count in ("flowers", "adjacent_flowers") else ""
            lines.append(f'[features.{tile}]\nscore = {{ count = "{count}", points = 1, max = 50{colour} }}\n')
        found.append(edition_from_toml("".join(lines)))
    return tuple(found)


EVERY_COUNT = _scoring_every_count()


@CI
@given(any_gardens, st.sampled_from(COPIES))
def test_the_counting_total_is_the_sum_of_the_categories_with_every_brick(garden, edition):
    # rules._total counts without the scorer's records; asked with every brick (the memo above forgets some), the same sum.
    from papillon.rules import _total

    cells, bricks, butterflies = compact(garden)
    assert _total(cells, bricks, butterflies, edition) == sum(
        evaluate_rules(cells, bricks, butterflies, rule_tables(edition)).categories.values()
    )


@CI
@given(any_gardens)
def test_the_joining_edges_are_the_edges_between_two_flowers_of_one_colour(garden):
    # rules.joining_edges works on colour masks a byte at a time; here the rule read plot by plot.
    from papillon.grid import EDGES
    from papillon.rules import FLOWER_CODES, joining_edges

    cells = compact(garden)[0]
    expected = sum(1 << i for i, edge in enumerate(EDGES) if cells[edge.a] in FLOWER_CODES and cells[edge.a] == cells[edge.b])
    assert joining_edges(cells) == expected


@settings(max_examples=6, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from([1, 3]))
def test_a_bots_unchecked_apply_is_the_checked_one(seed, players):
    # after_legal skips apply's check for an action of legal_actions(): the same state, field by field, for every one.
    from papillon.engine.state import after_legal

    for state in _states(seed, "random", players):
        for action in state.legal_actions():
            assert after_legal(state, action) == state.apply(action)


def _ring_free(bricks: int) -> int:
    """``bricks`` less its highest bricks until what is left closes no ring."""
    from papillon.geometry import closes_ring

    while closes_ring(bricks):
        bricks &= ~(1 << (bricks.bit_length() - 1))
    return bricks


@CI
@given(any_gardens)
def test_the_ring_closers_are_the_bricks_that_close_a_ring(garden):
    # geometry.ring_closers does one union-find for a decision's bricks; here closes_ring asked of each brick.
    from papillon.geometry import closes_ring, ring_closers
    from papillon.grid import EDGES

    bricks = compact(garden)[1]
    assert ring_closers(bricks) is None if closes_ring(bricks) else True
    base = _ring_free(bricks)
    closers = ring_closers(base)
    assert closers is not None
    expected = [not base >> i & 1 and closes_ring(base | 1 << i) for i in range(len(EDGES))]
    assert [closers >> i & 1 == 1 for i in range(len(EDGES))] == expected


@CI
@given(any_gardens, st.sampled_from(EDITIONS))
def test_the_totals_of_one_more_brick_are_the_score_cards_totals(garden, edition):
    # rules.totals_with_bricks scores a decision's bricks together; here each garden is scored by the rules' records.
    from papillon.grid import EDGES
    from papillon.rules import totals_with_bricks

    cells, bricks, butterflies = compact(garden)
    tables = rule_tables(edition)
    for base in {bricks, _ring_free(bricks)}:
        brick_sets = [base, *(base | 1 << i for i in range(len(EDGES)) if not base >> i & 1), bricks | base, base & base - 1]
        expected = [evaluate_rules(cells, drawn, butterflies, tables).total for drawn in brick_sets]
        assert totals_with_bricks(cells, base, butterflies, brick_sets, edition) == expected


@CI
@given(
    any_gardens,
    st.sampled_from((*EDITIONS, BEST_COPY, *EVERY_COUNT)),
    st.integers(0, 24),
    st.sampled_from(sorted({".", "F", "X", "R", "lb", "bb", "hh", "po", "bf", "ha", "gz", "sh", "tr"})),
)
def test_the_totals_of_one_plot_drawn_are_the_score_cards_totals(garden, edition, first, code):
    # rules.totals_with_plots shares the garden's patches when a plot draws no flower; here each garden is scored by the rules' records.
    from papillon.rules import totals_with_plots

    cells, bricks, butterflies = compact(garden)
    tables = rule_tables(edition)
    drawings = [(cells, -1)]
    for plot in (*range(first, len(PLOTS)), *range(first)):
        drawn = list(cells)
        drawn[plot] = code
        drawings.append((tuple(drawn), plot))
    expected = [evaluate_rules(drawn, bricks, butterflies, tables).total for drawn, _ in drawings]
    assert totals_with_plots(cells, bricks, butterflies, drawings, edition) == expected
    assert totals_with_plots(cells, bricks, butterflies, drawings, edition) == expected  # again, from its memo


@CI
@given(any_gardens, st.sampled_from((*EDITIONS, BEST_COPY, *EVERY_COUNT)), st.integers(0, (1 << 25) - 1))
def test_the_totals_of_a_new_flower_are_the_score_cards_totals(garden, edition, emptied):
    # rules.totals_with_plots floods only the new flower's colour where the bricks draw no face (the ring-free bricks
    # below): every colour on every empty plot (more plots emptied at random), each garden scored by the rules' records.
    from papillon import rules

    cells, bricks, butterflies = compact(garden)
    cells = tuple("." if emptied >> p & 1 else code for p, code in enumerate(cells))
    tables = rule_tables(edition)
    rules._DRAWN_TOTALS.clear()  # counted here, not remembered from another test
    for base in {bricks, _ring_free(bricks)}:
        for colour in sorted(rules.FLOWER_CODES):
            drawings = [(cells, -1)]
            for plot in PLOTS:
                if cells[plot] == ".":
                    drawings.append(((*cells[:plot], colour, *cells[plot + 1 :]), plot))
            expected = [evaluate_rules(drawn, base, butterflies, tables).total for drawn, _ in drawings]
            assert rules.totals_with_plots(cells, base, butterflies, drawings, edition) == expected


@pytest.mark.parametrize("edition", EVERY_COUNT)
def test_every_count_after_one_plot_drawn_is_the_score_cards(edition):
    # The recounts of totals_with_plots skip tiles by what they count: here every count, in gardens holding every
    # tile, with every code drawn on every plot (seeded gardens: 30 of them, half with bricks that close no ring).
    from papillon import rules
    from papillon.grid import EDGES

    codes = (".", ".", ".", "F", "X", "R", "B", "Y", "P", "R", "lb", "bb", *edition.features)
    tables = rule_tables(edition)
    rules._DRAWN_TOTALS.clear()
    for seed in range(30):
        rng = random.Random(seed)
        cells = tuple(rng.choice(codes) for _ in PLOTS)
        bricks = rng.getrandbits(len(EDGES)) & rng.getrandbits(len(EDGES))
        bricks = _ring_free(bricks) if seed % 2 else bricks
        butterflies = rng.getrandbits(len(PLOTS))
        for code in sorted(set(codes)):
            drawings = [(cells, -1), *(((*cells[:p], code, *cells[p + 1 :]), p) for p in PLOTS)]
            expected = [evaluate_rules(drawn, bricks, butterflies, tables).total for drawn, _ in drawings]
            assert rules.totals_with_plots(cells, bricks, butterflies, drawings, edition) == expected, (seed, code)


def test_a_flower_joining_two_pairs_makes_one_patch_of_them_all_unless_a_brick_splits_it():
    # Hand-checked, standard edition (1 point a flower, 1 a plot in a patch of 3 or more): red A1 B1 and D1 E1, no
    # patch (4 points); red C1 joins them into a patch of 5 (10); with a brick B1-C1, C1 D1 E1 is the patch (8).
    from papillon import rules
    from papillon.grid import edge_between

    assert (STANDARD.rules.patch_min, STANDARD.scoring.flower, STANDARD.scoring.patch) == (3, 1, 1)
    cells = ("R", "R", ".", "R", "R", *("." for _ in range(20)))
    drawn = ("R", "R", "R", "R", "R", *cells[5:])
    brick = 1 << EDGE_INDEX[edge_between(1, 2)]
    rules._DRAWN_TOTALS.clear()
    assert rules.totals_with_plots(cells, 0, 0, [(cells, -1), (drawn, 2)], STANDARD) == [4, 10]
    assert rules.totals_with_plots(cells, brick, 0, [(cells, -1), (drawn, 2)], STANDARD) == [4, 8]


def test_a_bramble_on_the_one_empty_plot_of_a_ring_encloses_its_patch():
    # The one drawing totals_with_plots may not count on the garden's patches alone: the plot's ground stops spoiling.
    from papillon.grid import EDGES
    from papillon.rules import totals_with_plots

    block = {6, 7, 11, 12}  # B2, C2, B3, C3: three red flowers and an empty plot, bricked all round
    cells = tuple("R" if p in (6, 7, 11) else "." for p in PLOTS)
    ring = sum(1 << i for i, edge in enumerate(EDGES) if (edge.a in block) != (edge.b in block))
    drawn = (*cells[:12], "X", *cells[13:])
    before, after = (evaluate_rules(c, ring, 0, rule_tables(STANDARD)) for c in (cells, drawn))
    assert (before.categories["enclosed"], after.categories["enclosed"]) == (0, 3 * STANDARD.scoring.enclosed)
    assert totals_with_plots(cells, ring, 0, [(drawn, 12)], STANDARD) == [after.total]


@CI
@given(any_gardens, st.sampled_from(EDITIONS), st.sampled_from(SCORE_COUNTS), st.sampled_from([None, "R", "B"]), st.integers(0, 24))
def test_the_feature_count_is_the_number_of_things_the_feature_counts(garden, edition, count, want, plot):
    # rules.feature_count counts what rules.count_for_feature lists (the scorer's records), for every kind of count.
    from papillon.rules import FLOWER_CODES, count_for_feature, feature_count, find_patches

    tables = rule_tables(edition)
    rule = next(r for r in tables.feature_rules.values() if r is not None)
    flower_ok = FLOWER_CODES.__contains__ if want is None else want.__eq__
    rule = rule._replace(counts=count, want=want, flower_ok=flower_ok)
    cells, bricks, butterflies = compact(garden)
    found = find_patches(cells, bricks, tables)
    assert feature_count(rule, plot, cells, butterflies, found, tables) == len(
        count_for_feature(rule, plot, cells, butterflies, found, tables)
    )


@CI
@given(
    st.integers(0, 2**64),
    st.lists(st.one_of(st.integers(-(2**70), 2**70), st.text(max_size=8), st.sampled_from(["bot", "seat", "chance", "game"])), max_size=4),
)
def test_a_derived_seed_is_the_hash_of_its_whole_text(seed, parts):
    # seeded.derive_seed hashes a key's text before its last part once and copies that hasher; here the whole text at once.
    from papillon.engine.seeded import _plain_derive_seed, derive_seed

    assert derive_seed(seed, *parts) == _plain_derive_seed(seed, *parts)
    assert derive_seed(seed, *parts) == _plain_derive_seed(seed, *parts)  # again, from the kept prefix


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, (1 << len(EDGE_INDEX)) - 1), st.booleans())
def test_the_faces_found_on_plot_masks_are_shapelys(bricks, border):
    # geometry.face_masks finds the faces of a brick drawing as unions of plots; here shapely's polygonize finds them.
    from papillon.geometry import enclosures, face_masks
    from papillon.grid import EDGES

    def mask(plots):
        return sum(1 << p for p in plots)

    drawn = [EDGES[i] for i in range(len(EDGES)) if bricks >> i & 1]
    expected = sorted((mask(face.plots), mask(face.encircled)) for face in enclosures(drawn, border))
    assert sorted(face_masks(bricks, border)) == expected


@CI
@given(any_gardens, st.booleans())
def test_the_faces_of_a_gardens_bricks_are_shapelys(garden, border):
    # The same on the bricks of random and ring gardens (rings, pockets and holes in them), through the rules' memo.
    from papillon.rules import counted_faces, faces

    _, bricks, _ = compact(garden)
    assert sorted(face[:2] for face in counted_faces(bricks, border)) == sorted(face[:2] for face in faces(bricks, border))


def test_a_pocket_that_touches_the_outside_at_a_corner_only_is_encircled():
    # Bricks round B2-D4 less D4 and C3: the pocket C3 meets the outside (D4) at one grid point only, so it is in a
    # hole of the face, which encircles it (shapely says the same, checked by hand in this session); C3 is a face too.
    from papillon.geometry import face_masks
    from papillon.grid import EDGES, parse_plot

    face = {parse_plot(name) for name in ("B2", "C2", "D2", "B3", "D3", "B4", "C4")}
    pocket = parse_plot("C3")
    bricks = sum(1 << EDGE_INDEX[e] for e in EDGES if (e.a in face) != (e.b in face))
    region = sum(1 << p for p in face)
    assert sorted(face_masks(bricks)) == [(1 << pocket, 1 << pocket), (region, region | 1 << pocket)]
