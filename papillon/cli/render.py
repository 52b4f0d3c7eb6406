"""``papillon render``: a picture of a filled garden (PNG or PDF), optionally with its scoring."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from papillon.cli.common import check_output, edition_option, read_garden, source_name, write_output
from papillon.edition import Edition
from papillon.errors import quote
from papillon.layout import PAPERS_MM, default_paper
from papillon.score import score as score_garden

FORMATS = {".png": "png", ".pdf": "pdf"}

STREAMS = ("-", "/dev/stdout")
"""Outputs that mean standard output: the picture is written to it as a stream."""


@click.command(name="render")
@click.argument("source", metavar="FILE.garden | -")
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="OUT.png|OUT.pdf|-",
    help="The picture to write; its extension picks the format (- for standard output).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(set(FORMATS.values())), case_sensitive=False),
    help="png or pdf  [default: from OUT's extension; png for standard output].",
)
@click.option("--score", "with_score", is_flag=True, help="Overlay the scoring: patches outlined, enclosures shaded, points per category.")
@click.option("--dpi", type=click.IntRange(30, 600), default=150, show_default=True, help="Resolution of a PNG.")
@click.option("--mono", is_flag=True, help="Grayscale (every colour also carries its letter).")
@click.option("--paper", type=click.Choice(sorted(PAPERS_MM), case_sensitive=False), help="Page size of a PDF  [default: from the locale].")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
@edition_option
def command(
    source: str, output: str, fmt: str | None, with_score: bool, dpi: int, mono: bool, paper: str | None, force: bool, edition: Edition
) -> None:
    """Draw a garden written in .garden notation (or its JSON form) on the Garden sheet.

    \b
    Examples:
      papillon render sheets/examples/notation-example.garden -o garden.png
      papillon render mine.garden --score -o mine-scored.pdf
      papillon render mine.garden -o - --format pdf | lpr

    Stamped flowers, bricks, fields with their critters and features, brambles
    and butterflies are drawn where the printed sheet has them.  With --score
    the enclosures are shaded, each patch outlined (solid when enclosed) and
    the points of each category listed under the garden.
    """
    stream = output in STREAMS
    fmt = _format(output, fmt and fmt.lower(), stream)
    if stream and sys.stdout.isatty():
        raise click.UsageError(f"-o {output}: a {fmt.upper()} is not for the terminal: redirect it (> garden.{fmt}) or pipe it")
    if not stream:
        check_output(output, force)
    garden = read_garden(source, edition)
    if garden is None:
        sys.exit(1)

    from papillon.render import render_garden
    from papillon.render.fonts import missing_glyphs

    player = garden.metadata.get("player")
    missing = missing_glyphs(player) if player else ""
    if missing:
        click.echo(
            f"{source_name(source)}: warning: the sheet's font cannot draw {', '.join(repr(ch) for ch in missing)}"
            f" in player {quote(player or '')}: drawn without them",
            err=True,
        )

    card = score_garden(garden, edition) if with_score else None
    data = render_garden(
        garden, score=card, edition=edition, fmt=fmt, dpi=dpi, mono=mono, paper=(paper or default_paper(os.environ)).lower()
    )
    if stream:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)  # through the CLI's guard: a closed pipe or a full disk is one line
        sys.stdout.buffer.flush()
    else:
        write_output(output, data, force)


def _format(output: str, asked: str | None, stream: bool) -> str:
    """The picture's format: ``--format``, else the extension of OUT (png for standard output); usage errors as words."""
    named = None if stream else FORMATS.get(Path(output).suffix.lower())
    if not stream and named is None:
        raise click.BadParameter(f"{output}: expected a .png or .pdf file name, or - for standard output", param_hint="'-o'")
    if asked and named and asked != named:
        raise click.UsageError(f"-o {output} is a .{named} name but --format is {asked}")
    return asked or named or "png"
