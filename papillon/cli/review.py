"""``papillon review``: what each decision of a game cost, against the coach's choice (docs/COACH.md)."""

from __future__ import annotations

import json
from typing import Any

import click

from papillon.cli.common import check_output, edition_option, write_output
from papillon.cli.play import read_game_log
from papillon.cli.simulate import progress
from papillon.edition import Edition
from papillon.engine.log import GameLog, GameLogError
from papillon.game_review import Review, default_seed, review
from papillon.seeds import MAX_SEED
from papillon.simulation import default_jobs

JOBS = click.IntRange(1, 64)


@click.command(name="review")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False, exists=True))
@click.option("--player", type=int, metavar="N", help="Only player N (from 1); default every seat, bots included.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document: decisions and lost_points.")
@click.option("-o", "--output", metavar="FILE.html", help="Also write the review as a web page (gardens drawn).")
@click.option("--force", is_flag=True, help="Overwrite the -o file if it exists.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), help="Seed of the rollouts (default: derived from the log's seed).")
@click.option("--jobs", type=JOBS, default=None, help="Worker processes (the review does not depend on it; default: the CPUs).")
@edition_option
def command(
    log_file: str, player: int | None, as_json: bool, output: str | None, force: bool, seed: int | None, jobs: int | None, edition: Edition
) -> None:
    """Review a game log: each decision's expected final score against the coach's choice, costliest first.

    Both choices are played on to the game's end with the same cards and dice
    (paired rollouts); "lost" is how much better the better of the two did.
    """
    if output is not None:
        check_output(output, force)
    log = read_game_log(log_file, edition)
    seats = None
    if player is not None:
        if not 1 <= player <= len(log.players):
            raise click.BadParameter(f"the game has players 1 to {len(log.players)}", param_hint="--player")
        seats = [player - 1]
    try:
        result = reviewed(log, seats, seed, jobs)
    except GameLogError as error:
        raise click.ClickException(f"{log_file}: {error}") from None
    if output is not None:
        try:
            from papillon.review_html import review_document
        except ImportError:
            raise click.ClickException("-o needs papillon's drawing (reportlab is not installed)") from None
        write_output(output, review_document(result, log), force)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False))
        return
    click.echo(review_text(result))


def reviewed(log: GameLog, seats: list[int] | None, seed: int | None = None, jobs: int | None = None) -> Review:
    """The review, with its progress bar on stderr."""
    bar = _Bar()
    try:
        return review(log, seats, seed=default_seed(log) if seed is None else seed, jobs=jobs or default_jobs(), on_progress=bar.update)
    finally:
        bar.close()


def review_text(result: Review) -> str:
    lines = [*result.summary(), ""]
    costly = [d for d in result.decisions if d.lost > 0][:10]
    if costly:
        lines.append("The costliest decisions:")
    for d in costly:
        hinted = " (after a hint)" if d.hinted is not None else ""
        lines.append(
            f"  {result.names[d.player]}, round {d.round}: {d.action} expected {d.expected:.2f}, "
            f"{d.best} {d.best_expected:.2f}: lost {d.lost:.2f} ± {d.stderr:.2f}{hinted}"
        )
        lines.append(f"      chosen: {d.words}; better: {d.best_words}")
    return "\n".join(lines)


class _Bar:
    """The review's progress on stderr (the bar of ``simulate``), fed by ``review``'s callback."""

    def __init__(self) -> None:
        self.total = 0
        self.done = 0
        self.bar: Any = None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            self.total = total
            self.bar = progress(self._steps(), max(total, 1), "reviewing")
            next(self.bar, None)  # the bar counts an item once the next is asked for
        while self.done < done:
            self.done += 1
            next(self.bar, None)

    def _steps(self) -> Any:
        yield from range(self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
