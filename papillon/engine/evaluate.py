"""The end-game score of a :class:`~papillon.engine.state.Board`, for bots.

The rules are :mod:`papillon.rules`, the same functions :func:`papillon.score.score`
explains; here only the number is wanted, many times per decision, so the total
is memoised by garden (and the enclosures by brick set, inside the rules).

A bot weighs every legal action of a decision (about 31 of them for the greedy
bot), and most actions draw one plot, one brick or nothing: :func:`candidate_gardens`
works out the garden each leaves without building the game state after it, and
:func:`sheet_potential` / :func:`garden_potential` split :func:`potential` into
the part the actions share and the part each garden adds.  The numbers are the
same, to the last bit, as scoring ``state.apply(action)`` (tests/test_bots.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple, cast

from papillon.edition import Edition
from papillon.engine.actions import Action, Kind
from papillon.engine.state import (
    EDGE_ACTIONS,
    Board,
    GameState,
    _moves,  # the paths of a butterfly: the engine's rule, not a copy
    after_legal,
)
from papillon.engine.tables import BRAMBLE, FIELD, Tables
from papillon.engine.tasks import (
    AddBrick,
    AddField,
    ChooseFeature,
    FieldAndMove,
    FillOrMove,
    GnomeBonus,
    Move,
    MoveFrom,
    PlaceBramble,
    PlaceCritter,
    PlaceFeature,
    Stage,
    Stamp,
    StampAny,
)
from papillon.grid import ORTHOGONAL_NEIGHBOURS, PLOTS
from papillon.rules import (
    BORDER_MASK,
    FLOWER_CODES,
    NEIGHBOUR_EDGES,
    Evaluation,
    counted_faces,
    evaluate,
    joining_edges,
    patches,
    rule_tables,
    total,
    totals_with_bricks,
    totals_with_plots,
)


def board_score(board: Board, edition: Edition) -> int:
    """The scorer's total for the board's garden."""
    return total(board.cells, board.bricks, board.butterflies, edition)


def board_categories(board: Board, edition: Edition) -> dict[str, int]:
    """Points per category of RULES.md §3 (the keys of :data:`papillon.rules.CATEGORIES`)."""
    return board_evaluation(board, edition).categories


def board_evaluation(board: Board, edition: Edition) -> Evaluation:
    """What the scorer counts in the board's garden, each category's points and the things counted, without the
    enclosures' polygons (so without shapely): what a run of many games keeps of each (:mod:`papillon.simulation`)."""
    return evaluate(board.cells, board.bricks, board.butterflies, rule_tables(edition), counted_faces)


def potential(board: Board, tables: Tables) -> float:
    """A rough worth of what the Fill sheet and the open plots promise (bots' tie-break).

    Progress up a critter ladder is part of the critter (if a field waits for it);
    track bubbles and caterpillars are worth part of the stamps and bonuses ahead;
    a patch that more bricks could enclose is worth part of its enclosure points
    (:func:`ring_progress`, paid as the edition pays enclosures: nothing when it pays nothing).
    """
    return garden_potential(sheet_potential(board, tables), board.cells, board.bricks, tables)


def sheet_potential(board: Board, tables: Tables) -> float:
    """The Fill sheet's share of :func:`potential`: what actions that only draw in the garden leave as it is.

    Memoised by the sheet's bubbles: a game's sheet changes a few times a turn, and every decision weighed asks.
    """
    key = (board.ladders, board.tracks, board.rondel, board.caterpillars, tables)
    value = _SHEETS.get(key)
    if value is None:
        ladder_weights = _weights(tables)[0]
        value = 0.6 * sum(board.tracks) + 0.35 * board.rondel + 0.3 * board.caterpillars
        for filled, weight in zip(board.ladders, ladder_weights, strict=True):
            value += filled * weight
        if len(_SHEETS) >= SHEETS:
            _SHEETS.clear()
        _SHEETS[key] = value
    return value


_SHEETS: dict[tuple[tuple[int, ...], tuple[int, ...], int, int, Tables], float] = {}
""":func:`sheet_potential`'s memo (forgotten all at once when full, as the bots' memos are)."""
SHEETS = 1 << 12


def garden_potential(sheet: float, cells: tuple[str, ...], bricks: int, tables: Tables) -> float:
    """:func:`potential` of a garden whose Fill sheet is worth ``sheet`` (:func:`sheet_potential`).

    The terms are added in :func:`potential`'s order, so the float is the same to the last bit.
    """
    value, rings = _plots_potential(sheet, cells, tables)
    return value + _ring_potential(cells, bricks, tables) if rings else value


def candidate_potentials(candidates: Candidates, wanted: Sequence[bool], tables: Tables) -> list[float]:
    """:func:`potential` after each action of :func:`candidate_gardens` that is ``wanted`` (0.0 for the others).

    The actions of a decision share their Fill sheet, and a brick's share their plots:
    what those give is worked out once for the decision.
    """
    if candidates.plots is not None:
        return _drawn_potentials(candidates, wanted, tables)
    sheets: dict[int, float] = {}
    plots: dict[tuple[int, int], tuple[float, bool]] = {}
    found = []
    last_sheet: Board | None = None
    last_cells: tuple[str, ...] | None = None
    value, rings = 0.0, False
    base = candidates.base  # with bricks: each garden is its plots with one brick more, or none
    base_lines: tuple[Outline, ...] | None = None
    joining = 0
    _, enclosed, patch_min, border = _weights(tables)
    for (cells, bricks, _), sheet, want in zip(candidates.gardens, candidates.sheets, wanted, strict=True):
        if not want:
            found.append(0.0)
            continue
        if sheet is not last_sheet or cells is not last_cells:  # a brick's candidates share both: looked up once
            last_sheet, last_cells = sheet, cells
            key = (id(sheet), id(cells))
            known = plots.get(key)
            if known is None:
                shared = sheets.get(id(sheet))
                if shared is None:
                    shared = sheets[id(sheet)] = sheet_potential(sheet, tables)
                known = plots[key] = _plots_potential(shared, cells, tables)
            value, rings = known
        if not rings:
            found.append(value)
            continue
        if base is not None and cells is base[0]:
            if base_lines is None:
                joining = joining_edges(cells)
                base_lines = outlines(cells, base[1], patch_min, border)
            if not (bricks ^ base[1]) & joining:  # a brick that splits no patch leaves the outlines as they were
                found.append(value + enclosed * _progress(base_lines, bricks))
                continue
        found.append(value + _ring_potential(cells, bricks, tables))
    return found


def _drawn_potentials(candidates: Candidates, wanted: Sequence[bool], tables: Tables) -> list[float]:
    """:func:`candidate_potentials` of actions that each draw one plot (or nothing) on ``candidates.base``.

    A plot drawn without a flower, there before or after, leaves the patches as they were, so
    whether a ring could pay and what the rings promise are the garden's own: worked out once.
    """
    assert candidates.base is not None and candidates.plots is not None
    base, bricks, _ = candidates.base
    base_rings: bool | None = None
    base_ring_worth = 0.0
    base_fields = base.count(FIELD)
    last_sheet: Board | None = None
    shared = 0.0
    unchanged: float | None = None  # the garden's own worth under ``last_sheet``: what each action drawing nothing gets
    found = []
    for (cells, _, _), sheet, want, plot in zip(candidates.gardens, candidates.sheets, wanted, candidates.plots, strict=True):
        if not want:
            found.append(0.0)
            continue
        if sheet is not last_sheet:
            last_sheet, shared, unchanged = sheet, sheet_potential(sheet, tables), None
        if plot < 0 or (base[plot] not in FLOWER_CODES and cells[plot] not in FLOWER_CODES):  # the same patches
            if base_rings is None:
                base_rings = _rings_possible(base, tables)
                if base_rings:
                    base_ring_worth = _ring_potential(base, bricks, tables)
            if plot < 0:
                if unchanged is None:
                    unchanged = _fields_worth(shared, base_fields)
                    if base_rings:
                        unchanged = unchanged + base_ring_worth
                found.append(unchanged)
                continue
            # the garden's free fields, give or take the drawn plot
            value = _fields_worth(shared, base_fields - (base[plot] == FIELD) + (cells[plot] == FIELD))
            if base_rings:
                value = value + base_ring_worth
        else:
            value = _fields_worth(shared, base_fields - (base[plot] == FIELD) + (cells[plot] == FIELD))
            if _rings_possible(cells, tables):
                value = value + _ring_potential(cells, bricks, tables)
        found.append(value)
    return found


def _plots_potential(sheet: float, cells: tuple[str, ...], tables: Tables) -> tuple[float, bool]:
    """The sheet's worth plus the free fields', and whether a patch there could be worth a ring."""
    return _fields_worth(sheet, cells.count(FIELD)), _rings_possible(cells, tables)


def _fields_worth(sheet: float, fields_free: int) -> float:
    """The sheet's worth plus the worth of ``fields_free`` free fields."""
    return sheet + 0.6 * (fields_free if fields_free < 2 else 2)


def _rings_possible(cells: tuple[str, ...], tables: Tables) -> bool:
    """Whether a patch could be worth a ring (what the ring term of :func:`potential` needs first)."""
    _, enclosed, patch_min, border = _weights(tables)
    # Most gardens a bot weighs have no patch off the border: one memoised count says so.
    return bool(enclosed) and (border or _most_inner_flowers(cells) >= patch_min)


def _ring_potential(cells: tuple[str, ...], bricks: int, tables: Tables) -> float:
    _, enclosed, patch_min, border = _weights(tables)
    return enclosed * ring_progress(cells, bricks, patch_min, border)


_WEIGHTS: dict[Tables, tuple[tuple[float, ...], int, int, bool]] = {}


def _weights(tables: Tables) -> tuple[tuple[float, ...], int, int, bool]:
    """What :func:`potential` needs of an edition, looked up once (a dict: this runs for every garden a bot weighs).

    Each ladder bubble's worth (0.7 × its critter's points / the ladder's height),
    then ``scoring.enclosed``, ``rules.patch_min`` and ``rules.border_encloses``.
    """
    found = _WEIGHTS.get(tables)
    if found is None:
        edition = tables.edition
        ladders = tuple(0.7 * points / height for height, points in zip(tables.ladders, tables.critter_points, strict=True))
        found = _WEIGHTS[tables] = (ladders, edition.scoring.enclosed, edition.rules.patch_min, edition.rules.border_encloses)
    return found


_BOUNDS: dict[Tables, float] = {}


def potential_bound(tables: Tables) -> float:
    """A bound on the size of :func:`potential` under the tables' edition: ``|potential(board, tables)| <= potential_bound(tables)``.

    Every term at its fullest: full ladders, tracks, rondel and caterpillar track,
    two free fields, and every plot a flower of a patch with its ring nearly done.
    """
    bound = _BOUNDS.get(tables)
    if bound is None:
        fill = tables.edition.fill
        ladders, enclosed, _, _ = _weights(tables)
        bound = _BOUNDS[tables] = (
            sum(abs(weight) * height for weight, height in zip(ladders, tables.ladders, strict=True))
            + 0.6 * len(tables.colours) * len(fill.flower_track)
            + 0.35 * len(fill.rondel)
            + 0.3 * fill.caterpillar_track
            + 0.6 * 2
            + abs(enclosed) * len(PLOTS)
        )
    return bound


# --------------------------------------------------------------------------- progress towards enclosures


class Outline(NamedTuple):
    """A patch that more bricks could enclose, and the sides of its plots a ring round it must brick."""

    flowers: int
    edges: int
    """Bit mask (bit ``i`` = ``grid.EDGES[i]``) of the edges between the patch and the plots around it."""
    border_sides: int
    """Sides of its plots on the garden's edge (they count as brick: only with ``border_encloses``)."""


def ring_progress(cells: tuple[str, ...], bricks: int, patch_min: int, border_encloses: bool) -> float:
    """Flowers of the patches more bricks could enclose, each weighted by how much of its enclosure is drawn.

    An enclosure is drawn in pieces: the patch's flowers and the bricks of its
    outline (every side of its plots that faces another plot).  A patch whose
    whole outline is brick (with ``border_encloses``, the garden's edge counts as
    brick) has a region of its own plots only, so it is enclosed (RULES.md §2.2,
    decided by the rules, not here).  Each patch counts ``flowers × share``, the
    share being the pieces drawn over all its pieces: counting the flowers as
    pieces makes a patch off the border worth something before its first brick,
    so flowers gather where a ring can go, and every brick of its outline adds
    the same.  Patches that touch the border (when it does not enclose) never
    count, nor do complete outlines: bricks can bring them nothing more.  A ring
    round a larger region (the patch and other flowers) also encloses it; the
    patch's own outline is the ring to aim for one brick at a time.

    (A squared share, which makes the closing bricks worth most, cost the greedy
    bot fewer critters but made the bots' play differ more between
    ``scoring.enclosed=1`` and ``2``, so the balance lab saw the change less
    clearly: docs/BALANCE.md.)
    """
    return _progress(outlines(cells, bricks, patch_min, border_encloses), bricks)


def _progress(found: tuple[Outline, ...], bricks: int) -> float:
    """:func:`ring_progress` of the outlines ``found`` under ``bricks``."""
    progress = 0.0
    for flowers, edges, border_sides in found:
        drawn = (bricks & edges).bit_count()
        sides = edges.bit_count()
        if drawn < sides:
            share = (flowers + border_sides + drawn) / (flowers + border_sides + sides)
            progress += flowers * share
    return progress


def outlines(cells: tuple[str, ...], bricks: int, patch_min: int, border_encloses: bool) -> tuple[Outline, ...]:
    """The outline of every patch that bricks could enclose (touching the border only if ``border_encloses``).

    Memoised by the garden's plots and the bricks that split flowers of one
    colour (the only bricks that change the patches): most gardens a bot weighs
    differ from the last one by a brick elsewhere, or have no patch off the border.
    """
    if not border_encloses and _most_inner_flowers(cells) < patch_min:
        return ()
    return _outlines(cells, bricks & joining_edges(cells), patch_min, border_encloses)


_inner_cells = itemgetter(*(p for p in PLOTS if not BORDER_MASK >> p & 1))
"""The codes of the plots off the border (a tuple: the garden is 5 × 5, so there are 9)."""

BORDER_SIDES: tuple[int, ...] = tuple(4 - len(ORTHOGONAL_NEIGHBOURS[p]) for p in PLOTS)
"""How many sides of each plot are the garden's edge (2 in a corner, 1 along a side, 0 inside)."""


@lru_cache(maxsize=1 << 16)
def _most_inner_flowers(cells: tuple[str, ...]) -> int:
    """The most flowers of one colour off the border (a patch there needs ``patch_min`` of them)."""
    inner = _inner_cells(cells)
    return max(inner.count(colour) for colour in FLOWER_CODES)


@lru_cache(maxsize=1 << 14)
def _outlines(cells: tuple[str, ...], splitting: int, patch_min: int, border_encloses: bool) -> tuple[Outline, ...]:
    found = []
    for _, mask in patches(cells, splitting, patch_min):
        if not border_encloses and mask & BORDER_MASK:
            continue
        edges = border_sides = 0
        for p in PLOTS:
            if mask >> p & 1:
                border_sides += BORDER_SIDES[p]
                for q, edge in NEIGHBOUR_EDGES[p]:
                    if not mask >> q & 1:
                        edges |= 1 << edge
        found.append(Outline(mask.bit_count(), edges, border_sides if border_encloses else 0))
    return tuple(found)


def ring_edges(board: Board, tables: Tables) -> int:
    """The unbricked edges of the outlines :func:`ring_progress` counts (0 when the edition pays nothing for enclosures)."""
    _, enclosed, patch_min, border = _weights(tables)
    if not enclosed:
        return 0
    edges = 0
    for outline in outlines(board.cells, board.bricks, patch_min, border):
        edges |= outline.edges
    return edges & ~board.bricks


# --------------------------------------------------------------------------- the gardens a decision's actions leave

Compact = tuple[tuple[str, ...], int, int]
"""A compact garden: (cells, bricks, butterflies), what :func:`papillon.rules.total` scores."""


class Candidates(NamedTuple):
    """What each action of a decision leaves ``player``: the garden, and the board whose Fill sheet it leaves."""

    gardens: list[Compact]
    sheets: list[Board]
    """Read only for the Fill sheet (ladders, tracks, rondel, caterpillars): its garden may be another's."""
    base: Compact | None = None
    """The garden now, when every action draws one brick, or one plot, or nothing on it
    (:func:`candidate_totals` scores them together; a decision that draws nothing has one)."""
    plots: list[int] | None = None
    """With ``base``: the plot each action draws on (-1: none); None when they draw bricks."""


def candidate_totals(candidates: Candidates, edition: Edition) -> list[int]:
    """The scorer's total of each garden of :func:`candidate_gardens`."""
    base = candidates.base
    if base is None:
        return [total(cells, bricks, flies, edition) for cells, bricks, flies in candidates.gardens]
    cells, bricks, flies = base
    if candidates.plots is None:
        return totals_with_bricks(cells, bricks, flies, [drawn for _, drawn, _ in candidates.gardens], edition)
    drawings = zip([drawn for drawn, _, _ in candidates.gardens], candidates.plots, strict=True)
    return totals_with_plots(cells, bricks, flies, drawings, edition)


_PLOT, _EDGE, _TO, _FROM, _SKIP = Kind.PLOT, Kind.EDGE, Kind.TO, Kind.FROM, Kind.SKIP
"""The kinds :func:`candidate_gardens` reads by field (an action's hash is a Python call); a skip and
picking the butterfly to move (its path is the next decision) draw nothing."""
_ALL_EDGES = (1 << len(EDGE_ACTIONS)) - 1
_SETS_UP = frozenset((ChooseFeature, StampAny, FillOrMove, GnomeBonus))
"""Tasks whose every action only sets up the next decision (a tile, a colour, a gnome's gain): nothing drawn yet."""


def candidate_gardens(state: GameState, actions: Sequence[Action], player: int) -> Candidates | None:
    """What ``player`` has after each of ``actions`` (legal now), or None where only the engine can tell.

    The same as ``state.apply(action).boards[player]``, without building the
    states, for the decisions a bot weighs most: a plot to stamp, field,
    bramble or fill with a critter or tile, a brick to draw, a butterfly to
    move or its path, or a skip.  Such an action draws one plot, brick or path and leaves
    the Fill sheet as it is; what the engine then resolves by itself changes no
    garden, with one exception: when the turn's last part is the die, the
    engine starts it once the rest of the turn is done, and its caterpillars
    move on the Fill sheet.  Whether the rest is done depends on the garden
    only through what the automatic steps look at (RULES §6.9: an empty plot,
    a free field, an undrawn edge, the butterflies), so one action of each kind
    and look is applied and its sheet stands for the others (a tile with effects
    on placing gets None: they depend on its plot).  Any other decision gets None:
    tests/test_fast_evaluation.py checks every decision of many games against
    ``state.apply``.
    """
    if state.player != player:
        return None
    board = state.boards[player]
    cells, bricks, butterflies = board.cells, board.bricks, board.butterflies
    die_next = _die_next(state)
    tasks = state.tasks
    if not tasks:
        if state.stage is Stage.TURN and state.pair < 0:  # which pair: it draws nothing, and the turn's parts are all ahead
            return _unchanged(board, len(actions))
        return None
    task = tasks[-1]
    kind = type(task)
    if kind in _SETS_UP:
        if die_next:
            return None
        return _unchanged(board, len(actions))
    gardens: list[Compact] = []
    base: Compact | None = None
    plots: list[int] | None = None
    if kind is AddBrick:
        base = (cells, bricks, butterflies)
        for action in actions:
            verb = action.kind
            if verb is _EDGE:
                gardens.append((cells, bricks | 1 << action.edge, butterflies))
            elif verb is _SKIP or verb is _FROM:
                gardens.append((cells, bricks, butterflies))
            else:
                return None
    elif isinstance(task, MoveFrom):
        paths = dict(_moves(state, board, task.plot))
        for action in actions:
            if action.kind is not _TO:
                return None
            gardens.append((cells, bricks, butterflies | paths[action.plot]))
    elif kind is Move:
        if not all(action.kind is _SKIP or action.kind is _FROM for action in actions):
            return None
        base = (cells, bricks, butterflies)
        gardens = [base] * len(actions)
        plots = [-1] * len(actions)
    else:
        code = _drawn(task)
        if code is None:
            return None
        base = (cells, bricks, butterflies)
        plots = []
        for action in actions:
            verb = action.kind
            if verb is _PLOT:
                plot = action.plot
                drawn = list(cells)
                drawn[plot] = code
                gardens.append((tuple(drawn), bricks, butterflies))
                plots.append(plot)
            elif verb is _SKIP or verb is _FROM:
                gardens.append(base)
                plots.append(-1)
            else:
                return None
    if not die_next:
        return Candidates(gardens, [board] * len(gardens), base, plots)
    if type(task) is PlaceFeature and state.edition.features[task.code].on_place:
        return None  # what the tile does when placed depends on its plot (a tile without such effects is any plot's code)
    sheets: list[Board] = []
    applied: dict[tuple[object, ...], Board] = {}
    for action, (drawn_cells, drawn_bricks, drawn_flies) in zip(actions, gardens, strict=True):
        alike = (action.kind, "." in drawn_cells, "F" in drawn_cells, drawn_bricks == _ALL_EDGES, drawn_flies)
        sheet = applied.get(alike)
        if sheet is None:
            sheet = applied[alike] = after_legal(state, action).boards[player]
        sheets.append(sheet)
    return Candidates(gardens, sheets, base, plots)


def _die_next(state: GameState) -> bool:
    """Whether the engine starts the die by itself once the decisions now are done (its caterpillars move the sheet)."""
    return state.stage is Stage.TURN and len(state.parts) == 1 and state.parts[0] == "die"


def only_sets_up(state: GameState) -> bool:
    """Whether every action of ``state`` only sets up the next decision (a tile, a colour, a gnome's gain, Foot Path's
    choice, the butterfly to move), its garden and sheets left as they are: then :func:`candidate_gardens` gives every
    action the garden now, and each is worth what the state is (tests/test_fast_evaluation.py)."""
    tasks = state.tasks
    return bool(tasks) and type(tasks[-1]) in _ONLY_SETS_UP and not _die_next(state)


_ONLY_SETS_UP = _SETS_UP | {Move}
"""The tasks of :func:`only_sets_up` (a butterfly to move: its actions pick it or skip; its path is the next decision)."""


def _unchanged(board: Board, count: int) -> Candidates:
    """``count`` actions that leave ``board`` as it is (scored as drawing on no plot: its total and promise once)."""
    garden = (board.cells, board.bricks, board.butterflies)
    return Candidates([garden] * count, [board] * count, garden, [-1] * count)


def _drawn(task: object) -> str | None:
    """The code a plot action draws for ``task``, or None for a task whose plot actions do more (a butterfly's path).

    By the task's type (no task type has subclasses): this runs for every decision a bot weighs."""
    kind = type(task)
    if kind is Stamp:
        return cast(Stamp, task).colour
    if kind is AddField or kind is FieldAndMove:
        return FIELD
    if kind is PlaceCritter or kind is PlaceFeature:
        return cast(PlaceCritter | PlaceFeature, task).code
    if kind is PlaceBramble:
        return BRAMBLE
    return None
