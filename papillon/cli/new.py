"""``papillon new``: a blank garden in notation, ready to fill in an editor."""

from __future__ import annotations

import click

from papillon.cli.common import edition_option, starting_fields_option, write_output
from papillon.edition import Edition
from papillon.garden import Garden
from papillon.notation import player_name


def legend(edition: Edition) -> str:
    """Comment lines that explain the codes, the edition's critters and features included."""
    return (
        "# Fill each cell with a code, left-aligned in its 3 columns, '*' after it for a\n"
        "# filled butterfly space:  . empty  R B Y P flowers  X bramble  F field\n"
        f"# {' '.join(edition.critters)} critters  {' '.join(edition.features)} features (in a field).\n"
        "# A brick is '|' between two cells, or '---' on a line under a cell.\n"
    )


@click.command(name="new")
@click.option("--player", help="The player's name, written as metadata.")
@click.option("--date", help="A date to write as metadata (any text, e.g. 2026-11-29).")
@starting_fields_option
@click.option("--no-legend", is_flag=True, help="Leave out the comment lines that explain the codes.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@edition_option
def command(
    player: str | None,
    date: str | None,
    starting_fields: tuple[int, ...] | None,
    no_legend: bool,
    output: str | None,
    force: bool,
    edition: Edition,
) -> None:
    """Print a blank garden (the starting fields filled in) to copy a paper sheet into."""
    if player is not None:
        try:  # the one name rule every front end uses
            player = player_name(player)
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="'--player'") from None
    garden = Garden.empty(starting_fields, edition)
    meta = {key: value for key, value in (("player", player), ("date", date)) if value}
    try:
        garden = garden.with_meta(**meta)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    text = garden.to_notation()
    if not no_legend:
        first, rest = text.split("\n", 1)
        text = f"{first}\n{legend(edition)}{rest}"
    if output is None:
        click.echo(text, nl=False)
        return
    write_output(output, text, force)
