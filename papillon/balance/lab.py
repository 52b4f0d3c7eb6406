"""Play the same seeds under every variant and summarise what changed.

:func:`play` yields each game as it finishes (for a progress bar, and so that
Ctrl-C keeps what is done); a :class:`Collector` gathers them; :func:`summarise`
turns the games every variant has finished into a :class:`BalanceReport`.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from papillon.balance.stats import LEVEL, Estimate, PairedTest, estimate, paired_test, quartiles
from papillon.balance.variants import Variant
from papillon.simulation import Batch, GameResult, SimulationError, Workers, batch_size, check_games, make_player, run

MAX_BALANCE_GAMES = 10_000_000
"""Games per variant: the lab keeps every game's scores for the paired tests."""


def plan(variants: Sequence[Variant], seed: int, games: int, size: int) -> Iterator[Batch]:
    """Batches seed block by seed block, every variant in turn: an interrupted run has whole seeds done."""
    for start in range(0, games, size):
        for variant in variants:
            yield Batch(variant.toml, variant.bot, seed, start, min(games, start + size))


def play(variants: Sequence[Variant], seed: int, games: int, workers: Workers | None = None) -> Iterator[tuple[int, GameResult]]:
    """(variant number, game) for every game of the run, in plan order, wherever ``workers`` plays them."""
    check_games(games)
    if games > MAX_BALANCE_GAMES:
        raise SimulationError(
            f"{games:,} games: a balance run keeps every game; expected at most {MAX_BALANCE_GAMES:,} per variant", parameter="games"
        )
    for variant in variants:
        make_player(variant.bot)
    size = batch_size(games, workers.count if workers and workers.submit else 1)
    owners = (
        number for batch_start in range(0, games, size) for number in range(len(variants)) for _ in range(min(size, games - batch_start))
    )
    for result in run(plan(variants, seed, games, size), workers):
        yield next(owners), result


@dataclass
class Collector:
    """The games finished so far, per variant, by game number."""

    variants: Sequence[Variant]
    games: list[dict[int, GameResult]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.games = [{} for _ in self.variants]

    def add(self, variant: int, result: GameResult) -> None:
        self.games[variant][result.index] = result

    def complete(self) -> list[int]:
        """Game numbers every variant has finished, in order."""
        if not self.games:
            return []
        return sorted(set.intersection(*(set(g) for g in self.games)))


# --------------------------------------------------------------------------- the summary


@dataclass(frozen=True)
class Spread:
    sd: float
    low: int
    q1: float
    median: float
    q3: float
    high: int


@dataclass(frozen=True)
class TileUse:
    """One feature tile: in what share of games the bot took it, how many copies, and its points when taken."""

    code: str
    name: str
    taken: float
    copies: float
    points: Estimate | None
    """Points per copy placed (None when the bot never took it)."""


@dataclass(frozen=True)
class VariantSummary:
    label: str
    bot: str
    edition: str
    fingerprint: str
    total: Estimate
    spread: Spread
    categories: Mapping[str, Estimate]
    versus_first: PairedTest | None
    category_changes: Mapping[str, PairedTest]
    tiles: tuple[TileUse, ...]
    critters: Estimate
    enclosure_rate: float | None
    """Enclosed patches / patches, over all games (None when no game had a patch)."""
    games_with_enclosure: float


@dataclass(frozen=True)
class BalanceReport:
    """What a balance run measured, over the seeds every variant finished."""

    seed: int
    requested: int
    variants: tuple[VariantSummary, ...]
    seeds: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]
    """totals[v][g]: the total of game g (in seed order) under variant v."""
    categories: tuple[tuple[Mapping[str, int], ...], ...]

    @property
    def games(self) -> int:
        return len(self.seeds)

    @property
    def complete(self) -> bool:
        return self.games == self.requested

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: summaries, then every game in seed order; no timings, so equal runs are identical."""
        return {
            "format": "papillon-balance",
            "version": 1,
            "seed": self.seed,
            "games_requested": self.requested,
            "games": self.games,
            "confidence": LEVEL,
            "variants": [_plain(v) for v in self.variants],
            "results": [
                {
                    "seed": seed,
                    "totals": [self.totals[v][g] for v in range(len(self.variants))],
                    "categories": [dict(self.categories[v][g]) for v in range(len(self.variants))],
                }
                for g, seed in enumerate(self.seeds)
            ],
        }

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"


def _plain(value: Any) -> Any:
    """Dataclasses to dicts, floats rounded to 6 places (NaN and infinities to null) so the JSON is plain."""
    if isinstance(value, float):
        return round(value, 6) if math.isfinite(value) else None
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def summarise(collector: Collector, seed: int, requested: int) -> BalanceReport:
    numbers = collector.complete()
    if not numbers:
        raise ValueError("no game was finished under every variant")
    per_variant = [[collector.games[v][i] for i in numbers] for v in range(len(collector.variants))]
    first = [r.total for r in per_variant[0]]
    summaries = tuple(
        _summary(variant, games, first if v else None, per_variant[0] if v else None)
        for v, (variant, games) in enumerate(zip(collector.variants, per_variant, strict=True))
    )
    return BalanceReport(
        seed=seed,
        requested=requested,
        variants=summaries,
        seeds=tuple(r.seed for r in per_variant[0]),
        totals=tuple(tuple(r.total for r in games) for games in per_variant),
        categories=tuple(tuple(r.categories for r in games) for games in per_variant),
    )


def _summary(variant: Variant, games: list[GameResult], first: list[int] | None, first_games: list[GameResult] | None) -> VariantSummary:
    totals = [r.total for r in games]
    names = list(dict.fromkeys(c for r in games for c in r.categories))
    q1, median, q3 = quartiles(totals)
    total = estimate(totals)
    changes = {}
    if first_games is not None:
        changes = {c: paired_test([r.categories.get(c, 0) for r in first_games], [r.categories.get(c, 0) for r in games]) for c in names}
    patches = sum(r.patches for r in games)
    return VariantSummary(
        label=variant.label,
        bot=variant.bot,
        edition=variant.edition.name,
        fingerprint=variant.edition.fingerprint,
        total=total,
        spread=Spread(total.sd, min(totals), q1, median, q3, max(totals)),
        categories={c: estimate([r.categories.get(c, 0) for r in games]) for c in names},
        versus_first=paired_test(first, totals) if first is not None else None,
        category_changes=changes,
        tiles=_tiles(variant, games),
        critters=estimate([len(r.critters) for r in games]),
        enclosure_rate=sum(r.enclosed for r in games) / patches if patches else None,
        games_with_enclosure=sum(1 for r in games if r.enclosed) / len(games),
    )


def _tiles(variant: Variant, games: list[GameResult]) -> tuple[TileUse, ...]:
    points: dict[str, list[int]] = {code: [] for code in variant.edition.features}
    taken: Counter[str] = Counter()
    for game in games:
        for code, scored in game.features:
            points.setdefault(code, []).append(scored)
        taken.update({code for code, _ in game.features})
    n = len(games)
    return tuple(
        TileUse(code, variant.edition.occupant_name(code), taken[code] / n, len(values) / n, estimate(values) if values else None)
        for code, values in points.items()
    )
