"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from papillon.edition import Edition, load_edition
from papillon.errors import EditionError

F = TypeVar("F", bound=Callable[..., Any])


def _edition_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Edition:
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
