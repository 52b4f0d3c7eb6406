"""``papillon format``: a garden in canonical notation, or converted to JSON and back."""

from __future__ import annotations

import json
import sys

import click

from papillon.cli.common import check_output, edition_option, read_garden, write_output
from papillon.edition import Edition


@click.command(name="format")
@click.argument("source", metavar="FILE | -")
@click.option("--json", "as_json", is_flag=True, help="Write the JSON form instead of the notation.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option("--accept-uncertain", is_flag=True, help="Format a scanned garden even though '# ?' review marks remain (they are dropped).")
@edition_option
def command(source: str, as_json: bool, output: str | None, force: bool, accept_uncertain: bool, edition: Edition) -> None:
    """Check a garden and print it in canonical form.

    Reads .garden notation or its JSON form; writes canonical notation (comments
    dropped, cells aligned) or, with --json, the JSON form. Gardens that parse but
    break the rules (a critter outside a field, ...) are reported as warnings.
    A scanned garden whose '# ?' review marks remain is refused, since dropping
    the comments would hide them.
    """
    if output is not None:
        check_output(output, force)
    garden = read_garden(source, edition, accept_review=accept_uncertain)
    if garden is None:
        sys.exit(1)
    text = json.dumps(garden.to_json(), indent=1) + "\n" if as_json else garden.to_notation()
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text, force)
