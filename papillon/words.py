"""Small helpers for the English papillon writes: counts with the right noun form.

Every generated sentence that puts a number before a noun goes through :func:`plural`,
so "1 field" and "2 fields" are both right (tests/test_words.py checks every template).
"""

from __future__ import annotations


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``count`` and the noun in the form that goes with it.

    >>> plural(1, "field"), plural(2, "field"), plural(0, "patch", "patches")
    ('1 field', '2 fields', '0 patches')
    """
    return f"{count} {noun(count, singular, plural_form)}"


def noun(count: int, singular: str, plural_form: str | None = None) -> str:
    """The noun alone, in the form that goes with ``count`` ("brick edge" / "brick edges")."""
    if count == 1:
        return singular
    return plural_form if plural_form is not None else singular + "s"
