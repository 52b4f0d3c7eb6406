"""Options and helpers shared by the commands."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from papillon.cli import usage_error
from papillon.edition import Edition, load_edition
from papillon.errors import EditionError, FieldsError, NotationError, TooLargeError, quote
from papillon.files import HEAD_BYTES, read_bounded, write_atomic
from papillon.garden import Garden
from papillon.notation import load_text, metadata_comments
from papillon.scan import is_image, review_marks
from papillon.words import plural

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
        from papillon.layout import parse_starting_fields  # the sheet's layout loads only when this option is given

        return parse_starting_fields(value)
    except ValueError as error:
        like = "" if str(error).endswith(")") else " (like B4,D2)"  # never two brackets in a row
        raise click.BadParameter(f"{error}{like}", ctx=ctx, param=param) from None


def starting_fields_option(function: F) -> F:
    """``--starting-fields B4,D2``: 1 to 4 plots printed as fields; passes ``starting_fields``."""
    return click.option(
        "--starting-fields",
        callback=_starting_fields,
        metavar="B4,D2",
        help="1 to 4 plots printed as fields (default: the edition's).",
    )(function)


def fields_option(function: F) -> F:
    """``--fields B4=po,D2=lb``: what each field of a photo holds; passes ``fields`` (the text).

    The text is checked by the scanner's own :func:`~papillon.scan.transcribe.parse_fields`, against
    the command's ``edition``, before the command runs: a bad entry or a plot given twice is a usage
    error even when no input turns out to be a photo.
    """

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        from papillon.scan.transcribe import parse_fields

        try:
            parse_fields(kwargs["fields"], kwargs.get("edition"))
        except FieldsError as error:
            raise usage_error(error) from None
        return function(*args, **kwargs)

    return click.option(
        "--fields",
        metavar="B4=po,D2=lb",
        help="For a photo: the critter or feature in each field (a drawing cannot be read).",
    )(cast(F, checked))


MAX_GARDEN_BYTES = 1_000_000
"""A garden is a few hundred bytes; anything this big is the wrong file."""

MAX_PHOTO_BYTES = 200_000_000
"""A photo of a sheet is a few megabytes; the scanner refuses more than 120 megapixels anyway."""


@dataclass(frozen=True)
class Input:
    """What a command read from one FILE argument (or ``-``), read once: a pipe or a FIFO works too."""

    name: str
    data: bytes

    @property
    def is_image(self) -> bool:
        return is_image(self.data[:HEAD_BYTES])


def read_input(source: str, *, photos: bool = False) -> Input:
    """The bytes of a file, or of standard input for ``-``, read once and bounded.

    The first bytes decide the limit: a photo (when ``photos``) may be large, a garden may not.
    Raises OSError (TooLargeError past the limit).
    """
    name = source_name(source)

    def limit_for(head: bytes) -> int:
        return MAX_PHOTO_BYTES if photos and is_image(head) else MAX_GARDEN_BYTES

    if source == "-":
        data, limit = read_bounded(sys.stdin.buffer.read, limit_for)
    else:
        # The file descriptor itself, not a Python file object: scoring thousands of small files, the
        # object's buffers cost more than the reading.
        fd = os.open(source, os.O_RDONLY)
        try:
            data, limit = read_bounded(lambda size: os.read(fd, size), limit_for)
        finally:
            os.close(fd)
    if len(data) > limit:
        raise TooLargeError(name, limit)
    return Input(name, data)


def read_source(source: str) -> str:
    """The text of a file, or of standard input for ``-``."""
    return decode_garden(read_input(source).data)


def decode_garden(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotationError("not a text file (expected .garden notation or its JSON form; 'papillon score' also reads photos)") from None


@contextlib.contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Hide what C libraries (libtiff, libjpeg) print straight to file descriptor 2 while a photo is decoded.

    A damaged image gets papillon's one line, not libtiff's complaints before it.  Only where
    nobody is asked anything on stderr meanwhile (the field questions of a terminal).
    """
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):  # not a real file (a test runner's buffer)
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), fd)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, fd)
        os.close(saved)


def source_name(source: str) -> str:
    return "<stdin>" if source == "-" else source


def read_garden(source: str, edition: Edition, *, accept_review: bool = True) -> Garden | None:
    """The garden in a file (notation or JSON); on a bad input, one line on stderr and None.

    With ``accept_review=False`` a text that still holds a scan's review marks
    (``# ?`` lines) is refused: somebody has to check those readings first.
    """
    try:
        read = read_input(source)
    except TooLargeError as error:
        click.echo(f"{source_name(source)}: too large for a garden ({error.strerror})", err=True)
        return None
    except OSError as error:
        click.echo(f"{source_name(source)}: cannot read ({error.strerror or error})", err=True)
        return None
    return garden_from_input(read, edition, accept_review=accept_review)


def garden_from_input(read: Input, edition: Edition, *, accept_review: bool = True) -> Garden | None:
    """The garden in bytes already read; on a bad input, one line on stderr and None."""
    name = read.name
    if name == "<stdin>" and not read.data.strip():
        # `papillon replay ... --garden | papillon score -` where replay failed: say so, not "expected the first line".
        click.echo(f"{name}: nothing on standard input (did the command before the '|' fail?)", err=True)
        return None
    try:
        text = decode_garden(read.data)
        garden = load_text(text, edition)
    except NotationError as error:
        where = f"{name}:{error.line}:{error.column or 1}" if error.line else name
        click.echo(f"{where}: {error.message}", err=True)
        return None
    marks = [] if accept_review or "#" not in text else review_marks(text)  # no '#', no mark: skip the line-by-line look
    if marks:
        readings = plural(len(marks), "reading")
        click.echo(f"{name}: {readings} still marked for review ('# ?' lines): {REVIEW_ADVICE}", err=True)
        return None
    if "#" in text:
        for line, key, value in metadata_comments(text):
            click.echo(f"{name}:{line}: warning: '#' starts a comment: {key} is {quote(value)}", err=True)
    for problem in garden.problems(edition):
        click.echo(f"{name}: warning: {problem}", err=True)
    return garden


REVIEW_ADVICE = "check them against the sheet and delete the marks, or pass --accept-uncertain"


def check_output(output: str, force: bool) -> None:
    """Refuse, before any work, an output that exists (without ``force``) or has no directory.

    A device or a pipe (``/dev/null``) is not a file to overwrite: it needs no ``force``.
    """
    if output == "":
        raise click.UsageError("-o: expected a file name, got ''")
    target = Path(output)
    if target.is_dir():
        raise click.UsageError(f"cannot write {output}: it is a directory")
    if target.is_file() and not force:
        raise click.UsageError(f"{output} exists (use --force to overwrite it)")
    if not target.parent.is_dir():
        raise click.UsageError(f"cannot write {output}: no directory {target.parent}")


def write_output(output: str, data: str | bytes, force: bool) -> None:
    """Write a command's output file atomically; an existing file without ``force`` is a usage error (2), a failed write exit 1."""
    try:
        write_atomic(output, data, force=force)
    except FileExistsError:
        raise click.UsageError(f"{output} exists (use --force to overwrite it)") from None
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
