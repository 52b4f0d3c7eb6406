"""``papillon sheet``: printable Garden sheets, Fill sheets and score pads as one PDF."""

from __future__ import annotations

import os
import secrets
import sys
from typing import Any

import click

from papillon.cli.common import check_output, starting_fields_option, write_output
from papillon.edition import Edition, load_edition
from papillon.errors import EditionError, quote
from papillon.grid import plot_name
from papillon.layout import PAPERS_MM, default_paper, random_starting_fields
from papillon.notation import player_name
from papillon.render.spec import MAX_COPIES, SheetSpec, SheetSpecError, load_sheet_spec, parse_sides


def _sides(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    try:
        return parse_sides(value)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _spec(ctx: click.Context, param: click.Parameter, value: str | None) -> SheetSpec:
    if value is None:
        return SheetSpec()
    try:
        return load_sheet_spec(value)
    except SheetSpecError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _check_glyphs(players: tuple[str | None, ...], param_hint: str) -> None:
    """Refuse a name the bundled font cannot draw: it would print as a blank."""
    from papillon.render.fonts import missing_glyphs

    for name in players:
        missing = missing_glyphs(name or "")
        if missing:
            raise click.BadParameter(
                f"the sheet's font cannot draw {', '.join(repr(ch) for ch in missing)} in the name {quote(name or '')}"
                " (it has Latin letters; write the name in them, or leave it blank and write it by hand)",
                param_hint=param_hint,
            )


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


@click.command(name="sheet")
@click.option("-o", "--output", required=True, metavar="OUT.pdf", help="The PDF to write ('-' for standard output).")
@click.option("--force", is_flag=True, help="Overwrite OUT.pdf if it exists.")
@click.option(
    "--from", "spec", metavar="FILE.toml", callback=_spec, help="A saved sheet definition (sheets/*.toml); options given here win."
)
@click.option("--player", "players", multiple=True, metavar="NAME", help="A player's name; repeat for one set of sheets per player.")
@click.option("--copies", type=click.IntRange(1, MAX_COPIES), default=1, show_default=True, help="How many sets to print (a pad).")
@click.option("--sides", callback=_sides, metavar="garden,fill,score", help="What to print, in order  [default: garden,fill].")
@starting_fields_option
@click.option("--random-start", is_flag=True, help="Draw 2 starting fields at random (with --seed, reproducibly).")
@click.option("--seed", type=int, help="The seed of --random-start (recorded in the QR code).")
@click.option("--paper", type=click.Choice(sorted(PAPERS_MM), case_sensitive=False), help="Paper size  [default: from the locale].")
@click.option(
    "--per-page", type=click.Choice(["1", "2"]), help="Sheets per page; 2 puts two scaled sheets on a landscape page with a cut line."
)
@click.option("--mono", is_flag=True, help="Grayscale and ink-saving (every colour also carries its letter).")
@click.option("--edition", "edition_file", metavar="FILE", help="A TOML file of rule corrections merged over the standard edition.")
def command(**options: Any) -> None:
    """Print blank sheets: the Garden sheet (side A), the Fill sheet (side B) and a score pad.

    \b
    Examples:
      papillon sheet -o sheets.pdf                       one garden + fill sheet
      papillon sheet --player Ann --player Ben -o night.pdf --sides garden,fill,score
      papillon sheet --copies 100 --mono -o pad.pdf      a 100-sheet pad
      papillon sheet --random-start --seed 7 -o odd.pdf  reproducible random starting fields
      papillon sheet --from sheets/family-night.toml -o night.pdf

    Print at 100 % (actual size): the sheets fit both A4 and Letter unscaled,
    and a 50 mm bar on the Garden sheet lets you check.  For double-sided
    sheets keep the default side order (garden, fill) and flip on the long edge.
    """
    ctx = click.get_current_context()
    spec: SheetSpec = options["spec"]

    def pick(name: str, spec_value: Any, default: Any) -> Any:
        if _given(ctx, name):
            return options[name]
        return default if spec_value is None else spec_value

    players: tuple[str | None, ...] = pick("players", spec.players, ()) or (None,)
    try:  # a name that prints blank ('\u200b') or breaks the line ('a\rb') is refused, spaces around it dropped
        players = tuple(None if name is None else player_name(name) for name in players)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--player'" if _given(ctx, "players") else "'--from'") from None
    _check_glyphs(players, "'--player'" if _given(ctx, "players") else "'--from'")
    copies = int(pick("copies", spec.copies, 1))
    sides = pick("sides", spec.sides, ("garden", "fill"))
    paper = str(pick("paper", spec.paper, None) or default_paper(os.environ)).lower()
    per_page = int(pick("per_page", spec.per_page, 1))
    mono = bool(pick("mono", spec.mono, False))
    edition_file = pick("edition_file", spec.edition, None)
    random_start = bool(pick("random_start", spec.random_start, False))
    seed = pick("seed", spec.seed, None)
    fields = pick("starting_fields", spec.starting_fields, None)
    try:
        edition: Edition = load_edition(edition_file)
    except EditionError as error:
        raise click.BadParameter(str(error), param_hint="'--edition'") from None
    if _given(ctx, "random_start") and _given(ctx, "starting_fields"):
        raise click.UsageError("--random-start and --starting-fields cannot be used together")
    if _given(ctx, "starting_fields"):
        random_start = False
    elif random_start and not _given(ctx, "random_start") and spec.starting_fields is not None:
        raise click.BadParameter("random_start and starting_fields cannot be used together", param_hint="'--from'")
    if seed is not None and not random_start:
        raise click.UsageError("--seed only applies to --random-start")
    if random_start:
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        fields = random_starting_fields(seed, len(edition.rules.starting_fields))
        click.echo(f"random start (seed {seed}): fields {','.join(plot_name(p) for p in fields)}", err=True)
    output = options["output"]
    if output != "-":
        check_output(output, options["force"])

    from papillon.render.pdf import check_names, sheets_pdf

    try:
        check_names(players, sides=sides, edition=edition)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="'--player'" if _given(ctx, "players") else "'--from'") from None
    pdf = sheets_pdf(
        sides=sides,
        players=players,
        copies=copies,
        starting_fields=fields,
        seed=seed,
        edition=edition,
        paper=paper,
        per_page=per_page,
        mono=mono,
        title=spec.name,
    )
    if output == "-":
        sys.stdout.buffer.write(pdf)
        return
    write_output(output, pdf, options["force"])
