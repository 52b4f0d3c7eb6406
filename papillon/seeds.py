"""Seeds: the one rule for the seed of a game or a table, as a number or as a person typed it."""

from __future__ import annotations

import secrets

from papillon.errors import QUOTE_MAX, SessionError, quote

MAX_SEED = 10**12 - 1
"""The largest seed a game takes (twelve digits: a game id holds it)."""


def check_seed(seed: int) -> int:
    """The seed, if a game (or a table, :class:`papillon.table.Table`) can take it; SessionError (about ``seed``) if not.

    >>> check_seed(10**50)
    Traceback (most recent call last):
    ...
    papillon.errors.SessionError: the seed is a whole number from 0 to 999999999999, not a number of more than 40 digits
    """
    if not 0 <= seed <= MAX_SEED:
        # str() of an int past 4,300 digits is itself an error, and a long one would flood the one line.
        shown = str(seed) if abs(seed) < 10**QUOTE_MAX else f"a number of more than {QUOTE_MAX} digits"
        raise SessionError(f"the seed is a whole number from 0 to {MAX_SEED}, not {shown}", parameter="seed")
    return seed


def random_seed() -> int:
    """A seed for a game or a table that was given none (nine digits: easy to read out and type again)."""
    return secrets.randbelow(10**9)


def parse_seed(text: str) -> int | None:
    """A seed as a person typed it: None for nothing (a random deal), else :func:`check_seed`'s.

    >>> parse_seed(" 42 "), parse_seed("")
    (42, None)
    >>> parse_seed("12x")
    Traceback (most recent call last):
    ...
    papillon.errors.SessionError: the seed is a whole number from 0 to 999999999999, not '12x'
    """
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise SessionError(f"the seed is a whole number from 0 to {MAX_SEED}, not {quote(text)}", parameter="seed")
    if len(text) > len(str(MAX_SEED)):  # no int() of a pasted page of digits
        raise SessionError(f"the seed is a whole number from 0 to {MAX_SEED}, not {quote(text)}", parameter="seed")
    return check_seed(int(text))
