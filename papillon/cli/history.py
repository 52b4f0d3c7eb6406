"""``papillon history``: the games and scored sheets remembered, and each player's statistics."""

from __future__ import annotations

import sys

import click

from papillon.cli.common import write_output
from papillon.history import History, HistoryError, json_lines, open_history, player_stats
from papillon.score import CATEGORIES, CATEGORY_TITLES
from papillon.words import plural


@click.command(name="history")
@click.option("--player", metavar="NAME", help="Only this player's entries and statistics.")
@click.option("--json", "as_json", is_flag=True, help="The entries as JSON (one object per line), with each player's statistics.")
@click.option("--csv", "as_csv", is_flag=True, help="The entries as CSV (the columns --import reads back).")
@click.option("--import", "import_csv", type=click.Path(dir_okay=False), metavar="FILE.csv", help="Add the entries of a CSV export.")
@click.option("--output", "-o", metavar="FILE", help="Write to FILE (atomically) instead of standard output.")
@click.option(
    "--file", "history_file", type=click.Path(dir_okay=False), metavar="FILE", help="The history file [default: in the data folder]."
)
def command(player: str | None, as_json: bool, as_csv: bool, import_csv: str | None, output: str | None, history_file: str | None) -> None:
    """Show the score history: every game played in papillon and every sheet scored with --record.

    The history lives in the user's data folder ($PAPILLON_DATA_DIR, else the
    XDG data folder) as history.sqlite3; docs/HISTORY.md describes it.
    """
    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    try:
        history = History(history_file) if history_file else open_history()
        if import_csv is not None:
            added = history.import_csv_file(import_csv)
            click.echo(f"added {plural(added, 'entry', 'entries')} from {import_csv}", err=True)
            return
        entries = history.entries(player)
        everyone = history.entries() if player is not None else entries
    except HistoryError as error:
        click.echo(f"papillon history: error: {error}", err=True)
        sys.exit(1)
    names = [player] if player is not None else sorted({e.player for e in entries}, key=str.casefold)
    # Wins count over everyone's games; the CSV export has no statistics.
    stats = [] if as_csv else [player_stats(everyone, name) for name in names]
    if as_csv:
        text = history.export_csv(player)
    elif as_json:
        text = json_lines(entries, stats)
    else:
        out = []
        if not entries:
            out.append("No games recorded yet." if player is None else f"No games recorded for {player}.")
        else:
            short = " ".join(CATEGORY_TITLES[c][:2] for c in CATEGORIES)
            out.append(f"{'date (UTC)':<16}  {'player':<16} {'total':>4}  {'source':<8} {short}")
        for e in entries:
            cats = " ".join(f"{e.categories[c]:>2}" for c in CATEGORIES) if e.categories else ""
            out.append(f"{e.date[:16].replace('T', ' '):<16}  {e.player:<16} {e.total:>4}  {e.source:<8} {cats}".rstrip())
        if entries:
            out.append("")
            for one in stats:
                out.extend(one.lines())
        text = "\n".join(out) + "\n"
    if output:
        write_output(output, text, force=True)
    else:
        click.echo(text, nl=False)
