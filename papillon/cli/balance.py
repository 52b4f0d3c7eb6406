"""``papillon balance``: the same seeds under several editions, rule settings or bots, compared."""

from __future__ import annotations

import logging
import sys

import click

from papillon.balance import LADDER, Collector, bot_variants, build_variants, parse_set, play, summarise
from papillon.balance.lab import BalanceReport
from papillon.balance.table import text
from papillon.cli import usage_error
from papillon.cli.common import check_output, write_output
from papillon.cli.simulate import GAMES, JOBS, JOBS_DEFAULT, BotType, progress
from papillon.errors import EditionError
from papillon.simulation import CLUSTER_TIMEOUT, ClusterTimeoutError, workers_for


@click.command(name="balance")
@click.argument("editions", nargs=-1, metavar="[EDITION]...")
@click.option("-n", "--games", type=GAMES, default=200, show_default=True, help="Games per variant (the same seeds for each).")
@click.option("--bot", type=BotType(), default="greedy", show_default=True, help="Who plays (search:N: N rollouts per option).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed: game i gets a seed derived from it.")
@click.option(
    "--set", "settings", multiple=True, metavar="KEY=V1,V2", help="Try each value of an edition key (repeatable: all combinations)."
)
@click.option("--ladder", is_flag=True, help=f"Compare the bots {', '.join(LADDER)} on the (first) edition instead.")
@click.option("--jobs", type=JOBS, default=None, show_default=JOBS_DEFAULT, help="Worker processes (results do not depend on it).")
@click.option("--cluster", metavar="ADDRESS", help="Play on a Dask cluster (tcp://HOST:8786), or 'local' for one on this machine.")
@click.option(
    "--cluster-timeout",
    type=click.FloatRange(0.1, 3600),
    default=CLUSTER_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait for the --cluster scheduler to answer.",
)
@click.option("--json", "as_json", is_flag=True, help="The report as JSON, every game in seed order (equal runs give equal bytes).")
@click.option("-o", "--output", metavar="FILE.html", help="Also write an HTML report with plots.")
@click.option("--force", is_flag=True, help="Overwrite the -o file.")
def command(
    editions: tuple[str, ...],
    games: int,
    bot: str,
    seed: int,
    settings: tuple[str, ...],
    ladder: bool,
    jobs: int | None,
    cluster: str | None,
    cluster_timeout: float,
    as_json: bool,
    output: str | None,
    force: bool,
) -> None:
    """Compare editions, rule settings or bots over the same seeds.

    EDITION is `standard` (the built-in rules, the default) or a TOML file of
    corrections.  Each variant plays the same games, so the report's paired
    changes show what a rule is worth, game by game:

    \b
      papillon balance standard mine.toml -n 2000 -o report.html
      papillon balance --set scoring.enclosed=1,2 --set rules.adjacency=orthogonal,king
      papillon balance --ladder -n 50

    Ctrl-C stops and reports the games finished so far.
    """
    if output:
        if not output.lower().endswith((".html", ".htm")):
            raise click.UsageError(f"-o {output}: the report is HTML: name the file FILE.html")
        check_output(output, force)
        _check_plots_extra(output)  # before the games: a -n 2000 run is minutes
    try:
        if ladder:
            if settings or len(editions) > 1:
                raise click.UsageError("--ladder compares bots on one edition: give at most one EDITION and no --set")
            variants = bot_variants(editions[0] if editions else "standard", LADDER)
        else:
            variants = build_variants(list(editions), [parse_set(s) for s in settings], bot)
    except EditionError as error:
        raise usage_error(error) from None
    if cluster is not None:
        # Dask's own chatter (workers slow to stop, and the like) is not the user's business; its errors still show.
        logging.getLogger("distributed").setLevel(logging.ERROR)
    collector = Collector(variants)
    interrupted = False
    try:
        with workers_for(jobs, cluster, timeout=cluster_timeout) as workers:
            label = "bots playing" if ladder else f"{bot} playing"
            for number, result in progress(play(variants, seed, games, workers), games * len(variants), label):
                collector.add(number, result)
    except ClusterTimeoutError as error:
        raise click.ClickException(f"{error}; --cluster-timeout SECONDS waits longer") from None
    except KeyboardInterrupt:
        interrupted = True
        click.echo(f"interrupted: reporting the {len(collector.complete())} games every variant finished", err=True)
    if not collector.complete():
        sys.exit(130)
    report = summarise(collector, seed, games)
    click.echo(report.json_text() if as_json else text(report), nl=not as_json)
    if output:
        _write_html(output, report, ladder, force)
    if interrupted:
        sys.exit(130)


def _check_plots_extra(output: str) -> None:
    """The HTML report's plots need matplotlib (the ``lab`` extra): a missing one is one line, exit 1."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(f"-o {output} draws plots with matplotlib: pip install 'papillon-gardens[lab]'") from None


def _write_html(output: str, report: BalanceReport, ladder: bool, force: bool) -> None:
    from papillon.balance.report import html_report

    write_output(output, html_report(report, ladder), force)
