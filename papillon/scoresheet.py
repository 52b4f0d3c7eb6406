"""A finished sheet being entered for scoring (read from a photo, or tapped in), and a game night's sheets.

A :class:`SheetEntry` is a garden plus what is still doubtful about it: the
readings a photo could not be sure of and the fields whose critter or feature
a photo cannot read.  :meth:`SheetEntry.apply` takes one edit, as a word
string any front end can send:

- ``set C3 R`` puts a content in a plot (a notation code: ``.`` ``R`` ``B``
  ``Y`` ``P`` ``F`` ``X`` or a critter or feature code);
- ``edge B2-B3`` adds or removes the brick on an edge;
- ``butterfly C3`` adds or removes the butterfly on a plot's bubble;
- ``confirm C3`` (or ``confirm edge B2-B3``, ``confirm butterfly C3``) says a
  doubtful reading was right.

Changing an item clears its doubt.  A :class:`Night` gathers the sheets of a
game night, one per named player, and ranks them.

>>> entry = SheetEntry.blank().apply("set A1 R").apply("set B1 R").apply("set C1 R").apply("butterfly A1")
>>> entry.card().categories["flowers"], entry.card().categories["butterflies"]
(3, 1)
>>> entry.apply("set A1 Q")
Traceback (most recent call last):
...
papillon.errors.EntryError: A1: Q is not a plot content here (one of . R B Y P F X or a critter or feature code)
"""

from __future__ import annotations

import io
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from papillon.edition import COLOURS, Edition, standard_edition
from papillon.errors import EntryError, SessionError, quote
from papillon.garden import Cell, Garden
from papillon.grid import EDGES, PLOTS, Edge, Plot, parse_edge, parse_plot, plot_name
from papillon.names import check_name
from papillon.notation import format_garden
from papillon.report import Standing, rank
from papillon.score import ScoreCard, score
from papillon.words import cell_words, plural

if TYPE_CHECKING:
    from papillon.scan import ScanResult

MAX_PHOTO_BYTES = 15 * 1024 * 1024
"""The largest photo accepted (a 48-megapixel phone JPEG is about 12 MB)."""
MAX_PHOTO_PIXELS = 50_000_000
"""The most pixels a photo may have: more is refused before it is decoded (a decompression bomb)."""
MAX_NIGHT_PLAYERS = 12
PHOTO_HINT = (
    "Hint: photograph the whole sheet from above, all four corner markers in view, in even light without glare; "
    "or tap the garden in instead."
)


@dataclass(frozen=True)
class Doubt:
    """An item to check against the paper: ``C3``, ``edge B2-B3``, ``butterfly C3`` or ``field C3``."""

    item: str
    words: str

    @property
    def on_plot(self) -> bool:
        """Whether it is about what a plot holds (``C3``, ``field C3``): corrected by choosing the plot's content."""
        return self.item.rpartition(" ")[0] in ("", "field")

    @property
    def tap(self) -> str:
        """The tap on the sheet that corrects it (:meth:`SheetEntry.actions`): ``plot C3``, ``edge B2-B3``, ``butterfly C3``.

        >>> Doubt("field C3", "").tap, Doubt("edge B2-B3", "").tap
        ('plot C3', 'edge B2-B3')
        """
        kind, _, name = self.item.rpartition(" ")
        return f"plot {name}" if self.on_plot else f"{kind} {name}"

    @property
    def svg_id(self) -> str:
        """The id of its shape in :func:`papillon.render.svg.garden_svg`: ``plot-C3``, ``edge-B2-B3``, ``bubble-C3``."""
        kind, _, name = self.tap.partition(" ")
        return f"{'bubble' if kind == 'butterfly' else kind}-{name}"


def plot_choices(edition: Edition | None = None) -> list[tuple[str, str]]:
    """Every content a plot can be given: (notation code, words), as a chooser lists them."""
    edition = edition or standard_edition()
    codes = [".", *COLOURS, "F", *edition.occupant_codes, "X"]
    return [(code, "field, nothing in it" if code == "F" else cell_words(code, edition, article=False)) for code in codes]


@dataclass(frozen=True)
class SheetEntry:
    """A garden being entered, with the doubts still to check."""

    garden: Garden
    source: str = "typed"
    """``photo`` or ``typed`` (tapped or pasted in)."""
    doubts: tuple[Doubt, ...] = ()
    edition: Edition = field(default_factory=standard_edition)

    @classmethod
    def blank(cls, edition: Edition | None = None) -> SheetEntry:
        """An empty sheet with the edition's starting fields."""
        edition = edition or standard_edition()
        return cls(Garden.empty(edition=edition), "typed", (), edition)

    @classmethod
    def from_scan(cls, result: ScanResult, edition: Edition | None = None) -> SheetEntry:
        """What a photo was read as: the doubtful readings that can change the score (most consequential first) and
        the unread fields are the doubts."""
        doubts = []
        for reading in result.asked:
            second, p2 = reading.runner_up
            read = f"read {reading.value} ({reading.confidence:.0%})"
            # When the runner-up is that nothing is there, "else nothing else" said it twice.
            words = f"{read}, or perhaps nothing there" if second == "none" else f"{read}, else {second} ({p2:.0%})"
            doubts.append(Doubt(reading.item, words))
        for plot in result.fields_unknown:
            doubts.append(Doubt(f"field {plot_name(plot)}", "a field: what is in it? (a drawing cannot be read)"))
        return cls(result.garden, "photo", tuple(doubts), edition or standard_edition())

    @classmethod
    def from_notation(cls, text: str, edition: Edition | None = None) -> SheetEntry:
        """A garden pasted as notation (NotationError, one line, when it does not parse)."""
        edition = edition or standard_edition()
        return cls(Garden.from_notation(text, edition), "typed", (), edition)

    # -- edits ---------------------------------------------------------------------

    def apply(self, action: str) -> SheetEntry:
        """This entry with one edit made (see the module's words); EntryError for an edit that cannot be made."""
        verb, _, rest = action.strip().partition(" ")
        if verb == "set":
            where, _, code = rest.partition(" ")
            plot = _plot(where)
            return self._set(plot, code.strip())
        if verb == "edge":
            edge = _edge(rest)
            bricks = self.garden.bricks ^ {edge}
            return self._changed(replace(self.garden, bricks=bricks), f"edge {edge.name}")
        if verb == "butterfly":
            plot = _plot(rest)
            return self._changed(replace(self.garden, butterflies=self.garden.butterflies ^ {plot}), f"butterfly {plot_name(plot)}")
        if verb == "confirm":
            if not any(d.item == rest.strip() for d in self.doubts):
                raise EntryError(f"nothing to confirm at {rest.strip()[:20]!r}")
            return replace(self, doubts=tuple(d for d in self.doubts if d.item != rest.strip()))
        raise EntryError(f"not an edit: {action.strip()[:40]!r} (set PLOT CODE, edge A1-B1, butterfly PLOT or confirm ITEM)")

    def _set(self, plot: Plot, code: str) -> SheetEntry:
        known = {c for c, _ in plot_choices(self.edition)}
        if code not in known:
            choices = "one of . R B Y P F X or a critter or feature code"
            raise EntryError(f"{plot_name(plot)}: {code[:10] or 'nothing'} is not a plot content here ({choices})")
        garden = self.garden.with_cell(plot, Cell.parse(code))
        name = plot_name(plot)
        entry = self._changed(garden, name)  # a field's content chosen (even "nothing in it") answers its doubt too
        return replace(entry, doubts=tuple(d for d in entry.doubts if d.item != f"field {name}"))

    def _changed(self, garden: Garden, item: str) -> SheetEntry:
        return replace(self, garden=garden, doubts=tuple(d for d in self.doubts if d.item != item))

    # -- what it shows -------------------------------------------------------------

    def card(self) -> ScoreCard:
        return score(self.garden, self.edition)

    def notation(self, player: str = "") -> str:
        garden = self.garden.with_meta(player=player) if player else self.garden
        return format_garden(garden)

    def check_counts(self) -> None:
        """EntryError while an item is still doubtful: a sheet counts (in a night or the history) once each is corrected or confirmed."""
        if self.doubts:
            count = len(self.doubts)
            raise EntryError(f"{plural(count, 'item')} still to check before the sheet counts")

    def doubtful(self, item: str) -> bool:
        return any(d.item == item for d in self.doubts)

    def doubt_ids(self) -> list[str]:
        """The SVG ids (``plot-C3``, ``edge-B2-B3``, ``bubble-C3``) of the doubtful items, to highlight them."""
        return [doubt.svg_id for doubt in self.doubts]

    def actions(self) -> list[str]:
        """Every tap the sheet takes: each plot (to choose its content), each edge, each bubble."""
        return [f"plot {plot_name(p)}" for p in PLOTS] + [f"edge {e.name}" for e in EDGES] + [f"butterfly {plot_name(p)}" for p in PLOTS]


def _plot(text: str) -> Plot:
    try:
        return parse_plot(text.strip())
    except ValueError:
        raise EntryError(f"not a plot: {text.strip()[:10]!r}") from None


def _edge(text: str) -> Edge:
    try:
        return parse_edge(text.strip())
    except ValueError:
        raise EntryError(f"not an edge between two plots: {text.strip()[:10]!r}") from None


# --------------------------------------------------------------------------- photos


def check_photo(data: bytes) -> None:
    """Refuse, with one line, what is not a photo we can read: by size, by content (never by name), by pixels.

    Pillow reads only the header here, so a decompression bomb is refused before it is decoded.
    """
    from PIL import Image  # only when a photo arrives

    from papillon.scan import is_image

    if not data:
        raise EntryError("the photo is empty")
    if len(data) > MAX_PHOTO_BYTES:
        raise EntryError(f"the photo is larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB")
    if not is_image(data[:16]):
        raise EntryError("this file is not a photo (JPEG, PNG, WebP, HEIC, ...): its content says so, whatever its name")
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        raise EntryError(f"the photo has too many pixels (more than {MAX_PHOTO_PIXELS // 1_000_000} megapixels)") from None
    except (OSError, ValueError, SyntaxError):
        raise EntryError("the photo cannot be decoded (a damaged or unsupported image)") from None
    if width * height > MAX_PHOTO_PIXELS:
        raise EntryError(f"the photo has too many pixels ({width}x{height}; at most {MAX_PHOTO_PIXELS // 1_000_000} megapixels)")


# --------------------------------------------------------------------------- a game night


@dataclass
class Night:
    """A game night: named players, each adding one finished sheet; mutable (a driver), guarded by its lock."""

    id: str
    players: tuple[str, ...]
    sheets: dict[str, SheetEntry] = field(default_factory=dict)
    version: int = 0
    recorded: dict[str, int] = field(default_factory=dict)
    """Each player's history entry of this night: a sheet added again replaces that entry (:meth:`replaces`)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def new(cls, names: list[str]) -> Night:
        """A night of the named players (blank ones are skipped); EntryError for a bad or repeated name, or too many players.

        Each name passes :func:`papillon.names.check_name`, the one name rule of every front end.
        """
        given = [name for name in names if name.strip()]
        if not 1 <= len(given) <= MAX_NIGHT_PLAYERS:
            raise EntryError(f"a game night has 1 to {MAX_NIGHT_PLAYERS} players, got {len(given)}")
        try:
            players = tuple(check_name(name) for name in given)
        except SessionError as error:
            raise EntryError(str(error)) from None
        if len({name.casefold() for name in players}) != len(players):
            raise EntryError("each player needs a different name")
        return cls(secrets.token_hex(6), players)

    def add(self, player: str, entry: SheetEntry) -> None:
        """Set ``player``'s sheet (a later one replaces it); EntryError for a name not in the night or a sheet with doubts."""
        if player not in self.players:
            raise EntryError(f"{quote(player)} is not a player of this night")
        entry.check_counts()
        with self.lock:
            self.sheets[player] = entry
            self.version += 1

    def replaces(self, player: str) -> int | None:
        """The history entry a new sheet of ``player`` replaces (None: their first of the night)."""
        return self.recorded.get(player)

    def ranking(self) -> list[Standing]:
        """Best total first; ties share a place; players without a sheet last."""
        by_name = sorted(((p, e.card().total, e.source) for p, e in self.sheets.items()), key=lambda t: t[0].casefold())
        out = rank(by_name)  # the same ranking as ``papillon score``: ties share a place
        out += [Standing(0, p, None) for p in self.players if p not in self.sheets]
        return out


def _fitted(text: str, room: float, length: Callable[[str], float]) -> str:
    """``text``, cut and ended with ``…`` where it is longer than ``room`` as ``length`` measures it.

    >>> _fitted("Bartholomew", 5, len), _fitted("Ann", 5, len)
    ('Bart…', 'Ann')
    """
    if length(text) <= room:
        return text
    while text and length(text + "…") > room:
        text = text[:-1]
    return text + "…"


def results_png(night: Night, *, title: str = "Game night") -> bytes:
    """The night's ranking as a PNG to share (Pillow; drawn with the sheets' font)."""
    from PIL import Image, ImageDraw, ImageFont

    from papillon.render.fonts import BOLD, FONT_FILES, REGULAR, font_dir

    ranking = night.ranking()
    width, row = 720, 64
    height = 150 + row * len(ranking) + 40
    image = Image.new("RGB", (width, height), (250, 247, 238))
    draw = ImageDraw.Draw(image)
    regular = str(font_dir() / FONT_FILES[REGULAR])
    bold = str(font_dir() / FONT_FILES[BOLD])
    big = ImageFont.truetype(bold, 44)
    body = ImageFont.truetype(regular, 34)
    strong = ImageFont.truetype(bold, 34)
    draw.rectangle((0, 0, width, 110), fill=(78, 125, 66))
    draw.text((32, 30), f"Papillon Gardens · {title}", font=big, fill=(255, 255, 255))
    y = 140
    for standing in ranking:
        if standing.total is not None and standing.place == 1:
            draw.rounded_rectangle((20, y - 8, width - 20, y + row - 14), radius=12, fill=(255, 224, 130))
        place = f"{standing.place}." if standing.total is not None else "–"
        draw.text((40, y), place, font=strong, fill=(40, 40, 40))
        total = str(standing.total) if standing.total is not None else "no sheet"
        total_font = strong if standing.total is not None else body
        room = width - 40 - draw.textlength(total, font=total_font) - 24 - 110  # a name may be 60 characters: never over the points
        draw.text((110, y), _fitted(standing.player, room, lambda text: draw.textlength(text, font=body)), font=body, fill=(40, 40, 40))
        draw.text((width - 40, y), total, font=total_font, fill=(40, 40, 40), anchor="ra")
        y += row
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


__all__ = [
    "MAX_PHOTO_BYTES",
    "MAX_PHOTO_PIXELS",
    "PHOTO_HINT",
    "Doubt",
    "EntryError",
    "Night",
    "SheetEntry",
    "Standing",
    "check_photo",
    "plot_choices",
    "results_png",
]
