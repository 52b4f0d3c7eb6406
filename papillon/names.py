"""Names: the one rule for a person's name in every front end (a game, a night, the history)."""

from __future__ import annotations

from collections.abc import Sequence

from papillon.errors import SessionError
from papillon.notation import player_name


def check_name(text: str) -> str:
    """A person's name, trimmed; SessionError (one line) if it cannot be one.

    The one check every front end uses: printable, no ``#`` (a ``.garden`` file reads the rest as a
    comment), 1 to 60 characters (:func:`papillon.notation.player_name`).
    """
    try:
        return player_name(text)
    except ValueError as error:
        raise SessionError(str(error)) from None


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Every player's name checked by :func:`check_name`, and all different."""
    checked = tuple(check_name(name) for name in names)
    if len(set(checked)) != len(checked):
        raise SessionError("each player needs a different name")
    return checked
