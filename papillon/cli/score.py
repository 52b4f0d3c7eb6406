"""``papillon score``: score finished gardens and explain every point."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import click

from papillon.cli import error_line
from papillon.cli.common import (
    Input,
    edition_option,
    fields_option,
    garden_from_input,
    quiet_native_stderr,
    read_input,
    source_name,
    write_output,
)
from papillon.edition import Edition
from papillon.errors import ScanError
from papillon.files import TooLargeError
from papillon.grid import plot_name
from papillon.report import Scored, breakdown, ranking, to_json
from papillon.scan import ScanResult, ScanReviewError, read_photo
from papillon.score import score


@click.command(name="score")
@click.argument("sources", nargs=-1, required=True, metavar="FILE... | -")
@edition_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per input, one per line, in input order.")
@click.option(
    "--render",
    "render_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Also draw each scored garden, with its scoring, as DIR/NAME.png (the directory is created).",
)
@click.option("--force", is_flag=True, help="Overwrite pictures already in the --render DIR.")
@click.option("--accept-uncertain", is_flag=True, help="Score even where a photo's reading (or a '# ?' mark) needs review.")
@fields_option
@click.option("--record", is_flag=True, help="Also add each scored garden to the score history (see papillon history).")
def command(
    sources: tuple[str, ...],
    edition: Edition,
    as_json: bool,
    render_dir: str | None,
    force: bool,
    accept_uncertain: bool,
    fields: str | None,
    record: bool,
) -> None:
    """Score finished gardens: .garden notation, its JSON form, or a photo of the sheet.

    Prints each garden's breakdown (the patches and enclosures named by their
    plots, what each feature counted) and, for several gardens, a ranking.
    Use - to read one garden from standard input.

    A photo (JPEG, PNG, ...; needs the scan extra) is read first and what was
    read is shown above the breakdown. While any reading needs review, the
    photo is not scored: check the '# ?' lines, or pass --accept-uncertain.

    Exit status: 0 when every input scored, 1 when any input was bad (each
    bad input gets one line on stderr; the good ones are still scored).
    """
    pictures = picture_paths(sources, Path(render_dir)) if render_dir is not None else []
    for picture in pictures:  # before any work, as -o is: a picture someone kept is not replaced unasked
        if picture.exists() and not force:
            raise click.UsageError(f"{picture} exists (use --force to overwrite it)")
    scored: list[Scored] = []
    drawn: list[Path] = []
    photos: set[str] = set()
    failed = False
    for number, source in enumerate(sources):
        photo: ScanResult | None = None
        read = read_one(source)
        if read is None:
            garden = None
        elif read.is_image:
            photo = read_photo_garden(read, edition, fields=fields, accept_uncertain=accept_uncertain, quiet=as_json)
            garden = photo.garden if photo else None
        else:
            garden = garden_from_input(read, edition, accept_review=accept_uncertain)
        if garden is None:
            failed = True
            continue
        result = Scored(source_name(source), garden, score(garden, edition))
        scored.append(result)
        drawn.extend(pictures[number : number + 1])
        if photo:
            photos.add(result.source)
        if as_json:
            # A photo's object also carries everything the scan read, as `papillon scan --json` prints it.
            data = to_json(result)
            if photo:
                data["scan"] = photo.json()
            sys.stdout.write(_JSON_LINES.encode(data) + "\n")  # plain text: none of click.echo's colour handling is needed
        else:
            click.echo((photo.notation + "\n" if photo else "") + breakdown(result))
    if not as_json and len(scored) > 1:
        click.echo(ranking(scored))
    if record and scored:
        record_scored(scored, edition, photos)
    if render_dir is not None:
        for path in render_pictures(scored, drawn, edition, force):
            click.echo(f"wrote {path}", err=True)
    if failed:
        sys.exit(1)


_JSON_LINES = json.JSONEncoder(check_circular=False)
"""Encodes what ``to_json`` builds, which holds no cycle: the check costs a tenth of the encoding."""


def read_one(source: str) -> Input | None:
    """One input read once (a pipe works): a garden or a photo; on a failure one line on stderr and None."""
    try:
        return read_input(source, photos=True)
    except TooLargeError as error:
        click.echo(f"{source_name(source)}: too large ({error.strerror})", err=True)
    except OSError as error:
        click.echo(f"{source_name(source)}: cannot read ({error.strerror or error})", err=True)
    return None


def record_scored(scored: list[Scored], edition: Edition, photos: set[str]) -> None:
    """Add the scored gardens to the history, in one transaction (the player: the garden's ``player:``, else the file name)."""
    import secrets

    from papillon.history import HistoryError, now, open_history, scored_entry

    # Several gardens scored together are one game (the ranking printed above): wins are counted in it.
    game = f"score-{now()[:10]}-{secrets.token_hex(3)}" if len(scored) > 1 else ""
    try:
        entries = [
            scored_entry(s.garden, player=s.player, source="photo" if s.source in photos else "typed", edition=edition, game=game)
            for s in scored
        ]
        open_history().add_many(entries)
    except HistoryError as error:
        raise click.ClickException(f"not recorded: {error}") from None
    click.echo(f"recorded {len(entries)} in the history", err=True)


def read_photo_garden(read: Input, edition: Edition, *, fields: str | None, accept_uncertain: bool, quiet: bool) -> ScanResult | None:
    """Read a photo of a sheet; on a failure or doubtful readings, say so on stderr and return None."""
    from papillon.cli.scan import field_asker  # OpenCV loads only for photos

    ask = field_asker(edition) if sys.stdin.isatty() and not quiet else None
    stem = "stdin" if read.name == "<stdin>" else Path(read.name).stem
    try:
        with quiet_native_stderr() if ask is None else contextlib.nullcontext():
            photo = read_photo(
                read.data, name=read.name, debug_stem=stem, fields=fields, accept_uncertain=accept_uncertain, ask=ask, edition=edition
            )
        if photo.fields_unknown:
            plots = ", ".join(plot_name(p) for p in photo.fields_unknown)
            click.echo(f"{read.name}: warning: scoring the fields {plots} as empty (say what they hold with --fields B4=po,...)", err=True)
        return photo
    except ScanReviewError as error:
        if not quiet:
            click.echo(error.result.notation)  # what it read, so the player can check it
        click.echo(error_line(error), err=True)  # with the CLI's hint: --accept-uncertain
    except ScanError as error:
        click.echo(error_line(error), err=True)
    return None


def picture_paths(sources: tuple[str, ...], directory: Path) -> list[Path]:
    """DIR/NAME.png for each input, in order: NAME-2.png and so on for inputs of one name from different folders."""
    paths: list[Path] = []
    for source in sources:
        stem = "stdin" if source == "-" else Path(source).stem
        path, number = directory / f"{stem}.png", 1
        while path in paths:
            number += 1
            path = directory / f"{stem}-{number}.png"
        paths.append(path)
    return paths


def render_pictures(scored: list[Scored], paths: list[Path], edition: Edition, force: bool) -> list[Path]:
    """Draw each scored garden with its scoring at its path; the paths written."""
    from papillon.render import render_garden  # reportlab and pypdfium2 load only here

    for directory in dict.fromkeys(path.parent for path in paths):
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.ClickException(f"cannot create {directory}: {error.strerror}") from None  # a failed write: exit 1
    for result, path in zip(scored, paths, strict=True):
        write_output(str(path), render_garden(result.garden, score=result.card, edition=edition, fmt="png"), force)
    return paths
