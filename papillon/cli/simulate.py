"""``papillon simulate``: many solo games of one bot, and their score distribution."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import click

from papillon.cli.common import edition_option
from papillon.edition import Edition
from papillon.engine.bots import BOTS, make_bot
from papillon.engine.log import game_seed, play_game
from papillon.files import write_atomic
from papillon.score import CATEGORIES, CATEGORY_TITLES

_EDITION: Edition | None = None


def _init(edition: Edition) -> None:
    global _EDITION
    _EDITION = edition


def play_one(job: tuple[int, str, int, bool]) -> dict[str, Any]:
    """One solo game: ``(master seed, bot, index, keep log)`` -> its result as JSON-ready data."""
    master, bot, index, keep_log = job
    assert _EDITION is not None
    seed = game_seed(master, index)
    state, log = play_game(seed, [make_bot(bot)], _EDITION)
    card = state.score_card(0)
    result: dict[str, Any] = {
        "seed": seed,
        "bot": bot,
        "total": card.total,
        "categories": dict(card.categories),
        "garden": state.garden(0).to_notation(),
    }
    if keep_log:
        result["log"] = log.text()
    return result


def run(master: int, bot: str, games: int, jobs: int, edition: Edition, keep_logs: bool = False) -> Iterator[dict[str, Any]]:
    """Results of games 0..games-1, in order, whatever ``jobs`` is."""
    work = [(master, bot, i, keep_logs) for i in range(games)]
    if jobs <= 1:
        _init(edition)
        yield from map(play_one, work)
        return
    with get_context("spawn" if sys.platform == "darwin" else "fork").Pool(jobs, initializer=_init, initargs=(edition,)) as pool:
        yield from pool.imap(play_one, work, chunksize=max(1, min(16, games // (jobs * 8) or 1)))


@click.command(name="simulate")
@click.option("-n", "--games", type=click.IntRange(1), default=100, show_default=True, help="How many solo games.")
@click.option("--bot", type=click.Choice(sorted(BOTS)), default="greedy", show_default=True, help="Who plays them.")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed: game i gets a seed derived from it.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True, help="Worker processes (results do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game, one per line, in game order.")
@click.option("--logs", "logs_dir", type=click.Path(file_okay=False), help="Write each game's log to this directory (seed.jsonl).")
@edition_option
def command(games: int, bot: str, seed: int, jobs: int, as_json: bool, logs_dir: str | None, edition: Edition) -> None:
    """Play solo games with a bot and print the score distribution.

    Each game's seed is derived from --seed and the game's number, so the
    same --seed gives the same games for any --jobs; a game's seed, given to
    `papillon play --seed`, deals the same cards and dice.
    """
    results = []
    if logs_dir:
        _check_logs_dir(Path(logs_dir))
    stream = run(seed, bot, games, jobs, edition, keep_logs=bool(logs_dir))
    with click.progressbar(stream, length=games, label=f"{bot} playing", file=sys.stderr) as bar:
        for result in bar:
            if logs_dir:
                target = Path(logs_dir) / f"{result['seed']}.jsonl"
                try:
                    write_atomic(target, result.pop("log"))
                except OSError as error:
                    raise click.UsageError(f"cannot write the game log {target}: {error.strerror or error}") from None
            if as_json:
                click.echo(json.dumps(result, separators=(", ", ": ")))
            results.append(result)
    if not as_json:
        click.echo(summary(results, bot))


def _check_logs_dir(directory: Path) -> None:
    """Make the --logs directory and try writing in it, before any game is played."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise click.UsageError(f"cannot write the game logs to {directory}: {error.strerror or error}") from None


def summary(results: list[dict[str, Any]], bot: str) -> str:
    """Mean, quartiles, a small histogram and the per-category averages."""
    totals = sorted(r["total"] for r in results)
    n = len(totals)
    mean = statistics.fmean(totals)
    q1, q2, q3 = statistics.quantiles(totals, n=4, method="inclusive") if n > 1 else (totals[0],) * 3
    lines = [
        f"{n} solo games, bot {bot}",
        f"  mean {mean:.2f}   sd {statistics.pstdev(totals):.2f}",
        f"  min {totals[0]}   Q1 {q1:g}   median {q2:g}   Q3 {q3:g}   max {totals[-1]}",
        "",
        "  score     games",
    ]
    width = max(1, -(-(totals[-1] - totals[0] + 1) // 10))
    low = totals[0] - totals[0] % width
    counts: dict[int, int] = {}
    for total in totals:
        counts[low + (total - low) // width * width] = counts.get(low + (total - low) // width * width, 0) + 1
    top = max(counts.values())
    for start in range(low, totals[-1] + 1, width):
        count = counts.get(start, 0)
        label = f"{start}" if width == 1 else f"{start}-{start + width - 1}"
        lines.append(f"  {label:>7}  {count:>6} {'#' * round(40 * count / top)}")
    lines += ["", "  category            average"]
    for category in CATEGORIES:
        average = statistics.fmean(r["categories"][category] for r in results)
        lines.append(f"  {CATEGORY_TITLES[category]:<18}{average:>8.2f}")
    lines.append(f"  {'Total':<18}{mean:>8.2f}")
    return "\n".join(lines)
