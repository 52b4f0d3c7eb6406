"""Options and helpers shared by the commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from papillon.edition import Edition, load_edition
from papillon.errors import EditionError, NotationError
from papillon.files import write_atomic
from papillon.garden import Garden
from papillon.layout import parse_starting_fields
from papillon.notation import load_text
from papillon.scan import review_marks

F = TypeVar("F", bound=Callable[..., Any])


EDITION_FILE = "papillon.edition_file"
"""Key of ``ctx.meta`` holding the ``--edition FILE`` given (None for the standard edition)."""


def _edition_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Edition:
    ctx.meta[EDITION_FILE] = value  # a command that prints follow-up commands repeats it
    try:
        return load_edition(value)
    except EditionError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def edition_option(function: F) -> F:
    """``--edition FILE``: corrections merged over the standard edition; passes ``edition``."""
    return click.option(
        "--edition",
        "edition",
        metavar="FILE",
        callback=_edition_callback,
        help="A TOML file of rule corrections or extra tiles, merged over the standard edition.",
    )(function)


def _starting_fields(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    try:
        return parse_starting_fields(value)
    except ValueError as error:
        raise click.BadParameter(f"{error} (like B4,D2)", ctx=ctx, param=param) from None


def starting_fields_option(function: F) -> F:
    """``--starting-fields B4,D2``: 1 to 4 plots printed as fields; passes ``starting_fields``."""
    return click.option(
        "--starting-fields",
        callback=_starting_fields,
        metavar="B4,D2",
        help="1 to 4 plots printed as fields (default: the edition's).",
    )(function)


MAX_GARDEN_BYTES = 1_000_000
"""A garden is a few hundred bytes; anything this big is the wrong file."""


def read_source(source: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    if source == "-":
        data = sys.stdin.buffer.read(MAX_GARDEN_BYTES + 1)
    else:
        with Path(source).open("rb") as handle:
            data = handle.read(MAX_GARDEN_BYTES + 1)
    if len(data) > MAX_GARDEN_BYTES:
        raise NotationError(f"too large for a garden (over {MAX_GARDEN_BYTES // 1_000_000} MB): is this the right file?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotationError("not a text file (expected .garden notation or its JSON form; 'papillon score' also reads photos)") from None


def source_name(source: str) -> str:
    return "<stdin>" if source == "-" else source


def read_garden(source: str, edition: Edition, *, accept_review: bool = True) -> Garden | None:
    """The garden in a file (notation or JSON); on a bad input, one line on stderr and None.

    With ``accept_review=False`` a text that still holds a scan's review marks
    (``# ?`` lines) is refused: somebody has to check those readings first.
    """
    name = source_name(source)
    try:
        text = read_source(source)
        garden = load_text(text, edition)
    except NotationError as error:
        where = f"{name}:{error.line}:{error.column or 1}" if error.line else name
        click.echo(f"{where}: {error.message}", err=True)
        return None
    except OSError as error:
        click.echo(f"{name}: cannot read ({error.strerror})", err=True)
        return None
    marks = [] if accept_review else review_marks(text)
    if marks:
        click.echo(f"{name}: {len(marks)} reading(s) still marked for review ('# ?' lines): {REVIEW_ADVICE}", err=True)
        return None
    for problem in garden.problems(edition):
        click.echo(f"{name}: warning: {problem}", err=True)
    return garden


REVIEW_ADVICE = "check them against the sheet and delete the marks, or pass --accept-uncertain"


def check_output(output: str, force: bool) -> None:
    """Refuse, before any work, an output that exists (without ``force``) or has no directory."""
    target = Path(output)
    if target.exists() and not force:
        raise click.UsageError(f"{output} exists (use --force to overwrite it)")
    if not target.parent.is_dir():
        raise click.UsageError(f"cannot write {output}: no directory {target.parent}")


def write_output(output: str, data: str | bytes, force: bool) -> None:
    """Write a command's output file atomically; a refusal or failure is a usage error."""
    try:
        write_atomic(output, data, force=force)
    except FileExistsError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise click.UsageError(f"cannot write {output}: {error.strerror}") from None
