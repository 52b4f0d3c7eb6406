"""``papillon simulate``: many solo games of one bot, and their score distribution."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import click

from papillon.cli.common import edition_option
from papillon.edition import Edition
from papillon.files import write_atomic
from papillon.simulation import MAX_GAMES, MAX_JOBS, SimulationError, Tally, bot_names, default_jobs, make_player, simulate, workers_for

T = TypeVar("T")


class BotType(click.ParamType):
    """A bot name, or ``search:N`` (the search bot with N rollouts per option)."""

    name = "bot"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(bot_names()) + "|search:N]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            make_player(str(value))
        except SimulationError as error:
            self.fail(str(error), param, ctx)
        return str(value)


GAMES = click.IntRange(1, MAX_GAMES)
JOBS = click.IntRange(1, MAX_JOBS)
JOBS_DEFAULT = f"the CPUs this process may use, {default_jobs()} here"
"""What ``--help`` shows as the default of ``--jobs`` (None: :func:`~papillon.simulation.default_jobs`)."""


def progress(items: Iterable[T], total: int, label: str) -> Iterator[T]:
    """Yield ``items``, drawing a bar with the time left on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        yield from items
        return
    from papillon.cli import no_colour

    clear = "\r" + " " * 79 + "\r" if no_colour() else "\r\x1b[K"  # a dumb terminal gets spaces, not an escape sequence
    start = time.monotonic()
    drawn = 0.0
    done = 0
    try:
        for item in items:
            yield item
            done += 1
            now = time.monotonic()
            if now - drawn > 0.2 or done == total:
                drawn = now
                left = (now - start) / done * (total - done)
                filled = round(30 * done / total)
                sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}  {_duration(left)} left ")
                sys.stderr.flush()
    finally:
        sys.stderr.write(clear)
        sys.stderr.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


@click.command(name="simulate")
@click.option("-n", "--games", type=GAMES, default=100, show_default=True, help="How many solo games.")
@click.option("--bot", type=BotType(), default="greedy", show_default=True, help="Who plays them (search:N: N rollouts per option).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed: game i gets a seed derived from it.")
@click.option("--jobs", type=JOBS, default=None, show_default=JOBS_DEFAULT, help="Worker processes (results do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game, one per line, in game order.")
@click.option("--logs", "logs_dir", type=click.Path(file_okay=False), help="Write each game's log to this directory (seed.jsonl).")
@edition_option
def command(games: int, bot: str, seed: int, jobs: int | None, as_json: bool, logs_dir: str | None, edition: Edition) -> None:
    """Play solo games with a bot and print the score distribution.

    Each game's seed is derived from --seed and the game's number, so the
    same --seed gives the same games for any --jobs; a game's seed, given to
    `papillon play --seed`, deals the same cards and dice.  Ctrl-C stops and
    prints the summary of the games finished.
    """
    if logs_dir:
        _check_logs_dir(Path(logs_dir))
    tally = Tally(bot)
    try:
        with workers_for(jobs) as workers:
            stream = simulate(seed, bot, games, edition, workers=workers, keep_logs=bool(logs_dir))
            for result in progress(stream, games, f"{bot} playing"):
                if logs_dir and result.log is not None:
                    target = Path(logs_dir) / f"{result.seed}.jsonl"
                    try:
                        write_atomic(target, result.log)
                    except OSError as error:
                        raise click.ClickException(f"cannot write the game log {target}: {error.strerror or error}") from None
                if as_json:
                    click.echo(json.dumps(result.to_json(), separators=(", ", ": ")))
                tally.add(result)
    except KeyboardInterrupt:
        click.echo(f"interrupted after {tally.games} of {games} games", err=True)
        if as_json or tally.games == 0:
            sys.exit(130)
        click.echo(tally.text())
        sys.exit(130)
    if not as_json:
        click.echo(tally.text())


def _check_logs_dir(directory: Path) -> None:
    """Make the --logs directory and try writing in it, before any game is played."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise click.ClickException(f"cannot write the game logs to {directory}: {error.strerror or error}") from None  # a failed write: 1
