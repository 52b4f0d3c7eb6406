"""``papillon scan``: read photographed garden sheets into reviewable notation."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable

import click

from papillon.cli import error_line, usage_error
from papillon.cli.common import check_output, edition_option, fields_option, quiet_native_stderr, read_input, write_output
from papillon.cli.common import source_name as read_name
from papillon.edition import Edition
from papillon.errors import ScanError, TooLargeError, quote
from papillon.grid import Plot, plot_name
from papillon.scan.impact import moot_line
from papillon.words import plural


def field_asker(edition: Edition) -> Callable[[Plot], str | None]:
    """A prompt on stderr for each field's critter or feature (Enter: an empty field)."""
    codes = " ".join(edition.occupant_codes)

    def ask(plot: Plot) -> str | None:
        while True:
            answer = click.prompt(
                f"{plot_name(plot)}: field — which critter or feature? [{codes}, Enter for none]", default="", show_default=False, err=True
            ).strip()
            if answer == "" or answer in edition.occupant_codes:
                return answer
            click.echo(f"  not a critter or feature code: {quote(answer)}", err=True)

    return ask


@click.command(name="scan")
@click.argument("photos", nargs=-1, required=True, metavar="PHOTO...")
@click.option("-o", "--output", metavar="OUT.garden", help="Write the notation here (one photo only) instead of printing it.")
@click.option("--debug-dir", metavar="DIR", help="Write each rectified sheet with every reading drawn on it into DIR.")
@fields_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per photo: the garden, every item's reading and confidence.")
@click.option("--force", is_flag=True, help="Overwrite the -o file if it exists.")
@edition_option
def command(
    photos: tuple[str, ...],
    output: str | None,
    debug_dir: str | None,
    fields: str | None,
    as_json: bool,
    force: bool,
    edition: Edition,
) -> None:
    """Read photos of garden sheets (side A) into .garden notation.

    Every item read with a confidence under 0.9 whose answer can change the
    score is marked for review with a '# ? ...' comment naming it and the
    runner-up reading, the most consequential first; the notation still
    parses.  Doubts that cannot change the score are named once in a
    comment.  Fields are written F; in a terminal papillon asks what each
    one holds, or give them with --fields.

    Exit status: 0 when every photo was read (review marks or not), 1 when a
    photo could not be read (one line each on stderr, nothing written).
    """
    from papillon.scan import check_debug_dir, debug_stems, read_photo
    from papillon.scan.transcribe import parse_fields

    if output and len(photos) > 1:
        raise click.UsageError("-o/--output takes one photo")
    wanted = parse_fields(fields, edition)  # once, before any photo is read (fields_option has checked it)
    if output:
        check_output(output, force)
    if debug_dir is not None:
        try:
            check_debug_dir(debug_dir)
        except ScanError as error:
            if error.parameter is None:  # the folder cannot be made: a failed write, exit 1
                raise click.ClickException(str(error)) from None
            raise usage_error(error) from None
    interactive = sys.stdin.isatty() and not as_json
    failed = False
    for photo, stem in zip(photos, debug_stems(list(photos)), strict=True):
        try:
            read = read_input(photo, photos=True)
        except TooLargeError as error:
            click.echo(f"papillon scan: {read_name(photo)}: too large ({error.strerror})", err=True)
            failed = True
            continue
        except OSError as error:
            click.echo(f"papillon scan: {read_name(photo)}: cannot read the file ({error.strerror or error})", err=True)
            failed = True
            continue
        try:
            with quiet_native_stderr() if not interactive else contextlib.nullcontext():
                result = read_photo(
                    read.data,
                    name=read.name,
                    fields=wanted,
                    accept_uncertain=True,
                    ask=field_asker(edition) if interactive else None,
                    debug_dir=debug_dir,
                    edition=edition,
                    debug_stem=stem,
                )
        except ScanError as error:
            click.echo(f"papillon scan: {error_line(error)}", err=True)
            failed = True
            continue
        text = json.dumps(result.json(), separators=(", ", ": ")) + "\n" if as_json else result.notation
        if output:
            write_output(output, text, force)
        else:
            click.echo(text, nl=False)
        if result.needs_review:
            names = ", ".join(r.item for r in result.asked)
            readings = plural(len(result.asked), "reading")
            click.echo(f"{photo}: {readings} to review: {names}", err=True)
        moot = moot_line(result.moot)
        if moot:
            click.echo(f"{photo}: {moot}", err=True)
    if failed:
        sys.exit(1)
