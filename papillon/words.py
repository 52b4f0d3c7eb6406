"""papillon's vocabulary: the words for cards, dice, cells, tiles, critters and effects, and counts.

Every front end (the engine's prompts, the SVG pictures' labels, the score breakdown) takes
these words from here, so a thing is called the same everywhere.  Every generated sentence
that puts a number before a noun goes through :func:`plural`, so "1 field" and "2 fields"
are both right (tests/test_words.py checks every template).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from papillon.edition import COLOURS

if TYPE_CHECKING:
    from papillon.edition import Card, DieFace, Edition


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


# --------------------------------------------------------------------------- an edition's tiles and effects in words

_COUNTED: dict[str, tuple[str, bool]] = {
    # score.count: (the thing counted, whether it is counted around the tile)
    "distinct_adjacent": ("different thing (flower colour, critter, feature or bramble)", True),
    "adjacent_critters": ("critter", True),
    "adjacent_flowers": ("{colour}flower", True),
    "adjacent_fields": ("field", True),
    "adjacent_brambles": ("bramble", True),
    "adjacent_butterflies": ("filled butterfly space", True),
    "patch_colours": ("colour that has a flower patch", False),
    "flowers_with_butterfly": ("{colour}flower with a filled butterfly space", False),
    "flowers": ("{colour}flower", False),
    "patches": ("{colour}flower patch", False),
    "enclosed_patches": ("enclosed {colour}flower patch", False),
    "butterflies": ("filled butterfly space", False),
    "brambles": ("bramble", False),
    "fields": ("field", False),
}

_AROUND = {"king": "among its 8 surrounding plots", "orthogonal": "in the 4 plots beside it"}

_PER = {
    "adjacent_fields": ("field", True),
    "adjacent_patches": ("flower patch", True),
    "rows_with_flowers": ("row holding a flower", False),
}


def counted_text(count: str, colour: str | None = None, adjacency: str = "king") -> str:
    """What a feature's ``score.count`` counts, as a noun phrase: ``'critter among its 8 surrounding plots'``."""
    thing, around = _COUNTED[count]
    thing = thing.format(colour=f"{colour} " if colour else "")
    return f"{thing} {_AROUND[adjacency]}" if around else thing


def score_text(points: int, count: str, colour: str | None = None, cap: int | None = None, adjacency: str = "king") -> str:
    """A feature's end-game points in words: ``'2 points per critter among its 8 surrounding plots (max 8 points)'``."""
    text = f"{plural(points, 'point')} per {counted_text(count, colour, adjacency)}"
    return text + (f" (max {plural(cap, 'point')})" if cap is not None else "")


def effect_text(action: str, count: int = 1, per: str | None = None, adjacency: str = "king") -> str:
    """A gnome bonus or a tile's effect in words: ``'place 2 brick edges'``, ``'fill a space for each field ...'``."""
    if action == "brick":
        words = f"place {plural(count, 'brick edge')}"
    elif action == "field":
        words = f"add {plural(count, 'field')}"
    else:
        words = {
            "fill": "fill a space",
            "move": "move a butterfly",
            "fill_or_move": "fill a space or move a butterfly",
            "stamp_any": "stamp a flower of any colour",
            "critter_fill": "fill one critter space",
        }[action]
        if count > 1:
            words = f"{count} times: {words}"
    if per:
        thing, around = _PER[per]
        words += f" for each {thing}" + (f" {_AROUND[adjacency]}" if around else "")
    return words


# --------------------------------------------------------------------------- cards, dice and cells

CORNER_WORDS = {"feature": "add a feature", "brick": "place brick edging", "fill": "fill a space"}
"""A card's corner bonus, by its ``corner``."""

_CENTRE_WORDS = {"move": "move a butterfly", "field_move": "add fields & move a butterfly"}
_EXTRA_WORDS = {"field": "add a field", "fill": "fill a space", "bramble": "bramble"}


def centre_text(card: Card) -> str:
    """A card's centre action: ``'stamp a red flower'``, ``'move a butterfly'``."""
    return f"stamp a {card.colour} flower" if card.centre == "stamp" else _CENTRE_WORDS[card.centre]


def corner_text(card: Card) -> str:
    return CORNER_WORDS[card.corner]


def card_text(card: Card) -> str:
    """A card in words: ``'stamp a red flower | corner: add a feature'``."""
    return f"{centre_text(card)} | corner: {corner_text(card)}"


def die_text(face: DieFace) -> str:
    """A die face in words: ``'3 caterpillars + bramble'``."""
    return plural(face.caterpillars, "caterpillar") + (f" + {_EXTRA_WORDS[face.extra]}" if face.extra else "")


def cell_words(code: str, edition: Edition, article: bool = True) -> str:
    """What a plot holds, by its notation code: ``'a red flower'``, ``'an empty field'``, ``'a field
    with a Hedgehog'``, ``'empty'`` (``article=False``: ``'red flower'``, ``'field'``, ...)."""
    if code in COLOURS:
        return f"{'a ' if article else ''}{COLOURS[code]} flower"
    if code == ".":
        return "empty"
    if code == "F":
        return "an empty field" if article else "field"
    if code == "X":
        return "a bramble" if article else "bramble"
    return f"{'a ' if article else ''}field with a {edition.occupant_name(code)}"
