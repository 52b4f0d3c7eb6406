"""Editions: the rules of the game as data.

The standard edition lives in ``editions/standard.toml``.  A player's edition
file uses the same keys; :func:`load_edition` merges it over the standard one
(tables merge key by key, any other value replaces ours) and checks every key,
so a typo gets an error that names it instead of being ignored.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from papillon.errors import EditionError
from papillon.files import loads_toml, read_text
from papillon.grid import Plot, parse_plot

EDITIONS_DIR = Path(__file__).with_name("editions")
"""The editions papillon ships (``standard.toml`` and the older ones a saved game may name)."""

COLOURS: dict[str, str] = {"R": "red", "B": "blue", "Y": "yellow", "P": "purple"}
"""Flower colour codes of the notation and their names."""

COLOUR_NAMES = tuple(COLOURS.values())

SCORE_COUNTS = (
    "distinct_adjacent",
    "adjacent_critters",
    "adjacent_flowers",
    "adjacent_fields",
    "adjacent_brambles",
    "adjacent_butterflies",
    "patch_colours",
    "flowers_with_butterfly",
    "flowers",
    "patches",
    "enclosed_patches",
    "butterflies",
    "brambles",
    "fields",
)
"""What a feature's end-game ``score.count`` may count (docs/EDITIONS.md)."""

COLOUR_FILTERED_COUNTS = ("adjacent_flowers", "flowers_with_butterfly", "flowers", "patches")


class EffectAction(StrEnum):
    """What a gnome option or a tile's effect does (a ``StrEnum``: it compares equal to its word)."""

    BRICK = "brick"
    FIELD = "field"
    FILL = "fill"
    MOVE = "move"
    FILL_OR_MOVE = "fill_or_move"
    STAMP_ANY = "stamp_any"
    CRITTER_FILL = "critter_fill"


class CardCentre(StrEnum):
    STAMP = "stamp"
    MOVE = "move"
    FIELD_MOVE = "field_move"


class CardCorner(StrEnum):
    FEATURE = "feature"
    BRICK = "brick"
    FILL = "fill"


class DieExtra(StrEnum):
    FIELD = "field"
    FILL = "fill"
    BRAMBLE = "bramble"


class Adjacency(StrEnum):
    """What a plot counts as its neighbours: the 8 around it, or the 4 beside it."""

    KING = "king"
    ORTHOGONAL = "orthogonal"


class FeatureCopies(StrEnum):
    """Whether every copy of a tile scores its effect, or only the best copy."""

    EACH = "each"
    BEST = "best"


EFFECT_ACTIONS = tuple(EffectAction)
"""What a feature's ``on_place`` or a gnome bonus may do."""

EFFECT_PER = ("adjacent_fields", "adjacent_patches", "rows_with_flowers")
"""What an effect may be repeated for."""

CARD_CENTRES = tuple(CardCentre)
CARD_CORNERS = tuple(CardCorner)
DIE_EXTRAS = tuple(DieExtra)
TRACK_ICONS = ("", "stamp", "caterpillar", "gnome", "stamp_any")
FEATURE_TYPES = ("A", "B", "C", "D")


@dataclass(frozen=True)
class Critter:
    code: str
    name: str
    points: int
    ladder: int
    """Bubbles on its Fill-sheet ladder; filling the top one gains the critter."""


@dataclass(frozen=True)
class FeatureScore:
    count: str
    points: int
    max: int | None = None
    colour: str | None = None


@dataclass(frozen=True)
class Effect:
    action: EffectAction
    count: int = 1
    per: str | None = None


@dataclass(frozen=True)
class Feature:
    code: str
    name: str
    type: str
    score: FeatureScore | None = None
    on_place: tuple[Effect, ...] = ()
    adjacency: Adjacency | None = None
    """What this tile counts as its neighbours, when it differs from ``rules.adjacency``."""


@dataclass(frozen=True)
class Rules:
    starting_fields: tuple[Plot, ...]
    border_encloses: bool
    adjacency: Adjacency
    butterfly_diagonal: bool
    butterfly_steps: int
    patch_min: int
    rounds: int
    bonus_rounds: tuple[int, ...]
    corner_bricks: int
    centre_fields: int
    enclosure: str
    """``"encircled"``: the region plus the pockets it surrounds (RULES §2.2); ``"reachable"``: the region only."""
    enclosure_forbids: tuple[str, ...]
    """Grounds that may not sit inside an enclosure."""
    bramble_on_bramble: bool
    """Whether a bramble may go on a bramble while another non-empty plot exists."""
    butterfly_counts: str
    """``"steps"``: every step uses one of ``butterfly_steps``; ``"new"``: only newly filled spaces do."""


@dataclass(frozen=True)
class Scoring:
    flower: int
    patch: int
    enclosed: int
    butterfly: int
    unique_feature: int
    feature_copies: FeatureCopies
    """``"each"``: every copy of a tile scores its effect; ``"best"``: only the best copy of each tile does."""


@dataclass(frozen=True)
class Card:
    centre: CardCentre
    corner: CardCorner
    colour: str | None = None


@dataclass(frozen=True)
class DieFace:
    caterpillars: int
    extra: DieExtra | None = None


@dataclass(frozen=True)
class FillSheet:
    flower_track: tuple[str, ...]
    rondel: tuple[str, ...]
    caterpillar_track: int
    caterpillar_gnome_spaces: tuple[int, ...]
    ladders_repeat: bool
    """Whether a full critter ladder starts again (unlimited critters) or stays full."""
    rondel_after: str
    """When fills may go to the rondel: ``"all_tracks"`` full, ``"any_track"`` full, or ``"always"``."""


@dataclass(frozen=True)
class Play:
    """Readings of the round that the engine needs (``[play]``, docs/ENGINE.md)."""

    round_bonus: tuple[Effect, ...] = ()
    """The options of the round bonus of ``rules.bonus_rounds`` (one is chosen)."""
    decline_gains: bool = True
    """Whether a player may decline a gain (a stamp, field, brick, fill, move, feature)."""
    die_order: str = "caterpillars_first"
    """Whether a die's caterpillars or its extra icon resolve first."""
    max_players: int = 6
    feature_without_field: str = "lost"
    """A feature corner with no empty field: ``"lost"`` (it may still be chosen) or ``"not_offered"``."""


DIE_ORDERS = ("caterpillars_first", "extra_first", "player")
ADJACENCIES = tuple(Adjacency)
ENCLOSURES = ("encircled", "reachable")
GROUNDS = ("empty", "field", "bramble")
"""What ``rules.enclosure_forbids`` may name (flowers never spoil an enclosure)."""
BUTTERFLY_COUNTS = ("steps", "new")
RONDEL_AFTER = ("all_tracks", "any_track", "always")
FEATURE_WITHOUT_FIELD = ("lost", "not_offered")
MAX_PLAYERS = 6
"""The most players papillon's sheets, score pad and engine are built for."""

RETIRED_CODES: dict[str, str] = {"bh": "the Birdhouse is the Bird Feeder: write bf"}
"""Codes an older standard edition had, and what to write instead (RULES.md §5)."""


@dataclass(frozen=True, eq=False)
class Edition:
    """Everything the rules leave to data.  Build one with :func:`load_edition`."""

    name: str
    rules: Rules
    scoring: Scoring
    critters: Mapping[str, Critter]
    features: Mapping[str, Feature]
    display: Mapping[str, int | str]
    decks: int
    deck_size: int
    cards: tuple[Card, ...]
    dice: int
    die_faces: tuple[DieFace, ...]
    fill: FillSheet
    gnome: tuple[Effect, ...]
    data: Mapping[str, Any] = field(repr=False)
    """The merged raw data, as written in a game log."""
    play: Play = Play()
    """How the engine plays a round (``[play]``); see docs/ENGINE.md."""
    display_exclude: tuple[str, ...] = ()
    """Tiles of the edition never put on display (``display.exclude``)."""

    # An edition is never changed once made, so what is worked out from its data is kept: every game log's header
    # writes both of these, and working them out (two JSON dumps of the whole edition) cost a fifth of a random game.
    @cached_property
    def fingerprint(self) -> str:
        """A short hash of the rules, so a game log can tell editions apart."""
        import hashlib  # here, not at start-up: it loads OpenSSL, and only game logs need a fingerprint

        text = json.dumps(self.data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @cached_property
    def data_json(self) -> str:
        """:attr:`data` as a game log's header writes it (compact JSON, in the data's own order)."""
        return json.dumps(self.data, separators=(",", ":"), ensure_ascii=False)

    @property
    def occupant_codes(self) -> tuple[str, ...]:
        """Every critter and feature code, critters first."""
        return tuple(self.critters) + tuple(self.features)

    @property
    def plot_codes(self) -> tuple[str, ...]:
        """Every code a plot may hold (without the butterfly's ``*``), in the order messages list them."""
        return (".", *COLOURS, "X", "F", *self.occupant_codes)

    def is_critter(self, code: str | None) -> bool:
        return code in self.critters

    def is_feature(self, code: str | None) -> bool:
        return code in self.features

    def occupant_name(self, code: str) -> str:
        thing = self.critters.get(code) or self.features.get(code)
        return thing.name if thing else code

    def retired_note(self, code: str) -> str | None:
        """Why an unknown ``code`` is not accepted when it is one an older edition used (``'bh'``)."""
        if code in self.critters or code in self.features:
            return None
        return RETIRED_CODES.get(code)

    def adjacency_of(self, code: str) -> Adjacency:
        """What the feature ``code`` counts as its neighbours: its own ``adjacency`` or the edition's."""
        feature = self.features.get(code)
        return (feature.adjacency if feature else None) or self.rules.adjacency


def standard_edition() -> Edition:
    """The standard edition bundled with papillon."""
    return _load_cached(None)


def load_edition(path: str | Path | None = None) -> Edition:
    """The standard edition with the corrections of the TOML file ``path`` merged in."""
    if path is None:
        return standard_edition()
    path = Path(path)
    try:
        text = read_text(path)  # bounded in size, a byte order mark dropped
    except OSError as error:
        raise EditionError(f"{path}: cannot read edition file ({error.strerror})") from None
    except UnicodeDecodeError:
        raise EditionError(f"{path}: not a text file (expected TOML in UTF-8)") from None
    # A file of corrections that does not name itself is not "standard" any more.
    return edition_from_toml(text, source=str(path), name=f"standard+{path.stem}")


def edition_from_toml(text: str, source: str = "<edition>", name: str | None = None) -> Edition:
    """The standard edition with the TOML ``text`` merged over it.

    ``name`` names the result unless the text sets ``edition.name`` itself.
    """
    try:
        overrides = loads_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise EditionError(f"{source}: not valid TOML: {error}") from None
    if name is not None and isinstance(overrides.get("edition", {}), dict) and "name" not in overrides.get("edition", {}):
        overrides = _merge(overrides, {"edition": {"name": name}})
    merged = _merge(_standard_data(), overrides)
    return _build(merged, source)


def earlier_standard_editions() -> tuple[Edition, ...]:
    """The standard editions of earlier papillon versions, kept as data so their game logs replay."""
    return (_load_cached("standard-v1.toml"),)


def edition_from_data(data: Any, source: str = "<edition>") -> Edition:
    """The edition whose complete data is ``data`` (as a game log carries it; nothing merged in)."""
    if not isinstance(data, Mapping):
        raise EditionError(f"{source}: expected a table of edition data, got {_kind(data)}")
    return _build(dict(data), source)


@cache
def _load_cached(name: str | None) -> Edition:
    if name is None:
        return _build(_standard_data(), "standard edition")
    return _build(_standard_data(name), name)


def _standard_data(name: str = "standard.toml") -> dict[str, Any]:
    # A file next to this module, not importlib.resources, which costs more at start-up than the reading
    # (papillon is installed as files, as pip installs it, never run from a zip archive).
    text = (EDITIONS_DIR / name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


class _Reader:
    """Reads one table of edition data, naming the full key in every error."""

    def __init__(self, data: Any, path: str, source: str) -> None:
        if not isinstance(data, Mapping):
            raise EditionError(f"{source}: {path or 'edition'}: expected a table, got {_kind(data)}")
        self.data = data
        self.path = path
        self.source = source
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, message: str) -> EditionError:
        return EditionError(f"{self.source}: {self.key(name)}: {message}")

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        self.used.add(name)
        if name not in self.data:
            if default is ...:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # bool is an int in Python; an edition's integers must not be true/false.
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            expected = " or ".join(_TYPE_NAMES[k] for k in kinds)
            raise self.error(name, f"expected {expected}, got {_kind(value)}")
        return value

    def int(self, name: str, low: int = 0, high: int = 1000, default: Any = ...) -> Any:
        """A whole number in ``low..high`` (or ``default``, which may be None, when absent)."""
        value = self.get(name, int, default)
        if value is not None and not low <= value <= high:
            raise self.error(name, f"expected a whole number from {low} to {high}, got {value}")
        return value

    def choice(self, name: str, options: tuple[str, ...], default: Any = ...) -> Any:
        """One of ``options``; an enum's member when the options are an enum's (``tuple(Adjacency)``)."""
        value = self.get(name, str, default)
        words = tuple(str(o) for o in options)
        if value is not None and value not in words:
            listed = ", ".join(repr(w) for w in words)
            raise self.error(name, f"expected one of {listed}, got {value!r}")
        if value is not None and options and isinstance(options[0], StrEnum):
            return type(options[0])(value)
        return value

    def table(self, name: str) -> _Reader:
        self.used.add(name)
        if name not in self.data:
            raise self.error(name, "missing")
        return _Reader(self.data[name], self.key(name), self.source)

    def items(self, name: str) -> list[_Reader]:
        values = self.get(name, list)
        return [_Reader(v, f"{self.key(name)}[{i}]", self.source) for i, v in enumerate(values)]

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], "unknown key")


_TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false", list: "a list", dict: "a table"}


def _kind(value: Any) -> str:
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, bool):
            return "true or false"
        if isinstance(value, kind):
            return name
    return type(value).__name__


LEGACY_DEFAULTS: dict[str, Any] = {
    "rules.enclosure": "reachable",
    "rules.enclosure_forbids": ["empty", "field"],
    "rules.bramble_on_bramble": True,
    "rules.butterfly_counts": "steps",
    "fill.ladders_repeat": True,
    "fill.rondel_after": "all_tracks",
    "display.exclude": [],
    "play.max_players": MAX_PLAYERS,
    "play.feature_without_field": "lost",
}
"""What a key added by the rules revision of issue 9 means when an edition's data lacks it:
what papillon did before (so ``standard-v1.toml`` and the editions of old logs play as they did)."""


def _build(data: dict[str, Any], source: str) -> Edition:
    top = _Reader(data, "", source)
    name = top.table("edition").get("name", str, "custom")
    rules = _rules(top.table("rules"))
    edition = Edition(
        name=name,
        rules=rules,
        scoring=_scoring(top.table("scoring")),
        critters=_critters(top.table("critters")),
        features=_features(top.table("features")),
        display=(shown := _display(top.table("display")))[0],
        display_exclude=shown[1],
        **_cards(top.table("cards")),
        **_dice(top.table("dice")),
        fill=_fill(top.table("fill")),
        gnome=(gnome := _gnome(top.table("gnome"))),
        data=data,
        play=_play(top.table("play"), gnome) if "play" in data else Play(round_bonus=gnome),
    )
    top.done()
    clash = set(edition.critters) & set(edition.features)
    if clash:
        raise EditionError(f"{source}: code {sorted(clash)[0]!r} is both a critter and a feature")
    _check_playable(edition, source)
    return edition


def _check_playable(edition: Edition, source: str) -> None:
    """Refuse, with one line naming the key, an edition the engine could not play to the end."""
    rules = edition.rules
    if edition.deck_size < rules.rounds:
        raise EditionError(
            f"{source}: cards.deck_size: decks of {edition.deck_size} cards cannot last {rules.rounds} rounds (rules.rounds)"
        )
    for code in edition.display_exclude:
        if code not in edition.features:
            raise EditionError(f"{source}: display.exclude: {code!r} is not a feature tile of this edition")
    for effect in (*edition.gnome, *edition.play.round_bonus):
        if effect.per == "adjacent_fields" or effect.per == "adjacent_patches":
            raise EditionError(f"{source}: gnome.options: a bonus has no plot, so it cannot repeat per {effect.per!r}")


def _rules(r: _Reader) -> Rules:
    fields: list[Plot] = []
    for i, name in enumerate(r.get("starting_fields", list)):
        try:
            fields.append(parse_plot(str(name)))
        except ValueError as error:
            raise r.error(f"starting_fields[{i}]", str(error)) from None
    if not 1 <= len(fields) <= 4 or len(set(fields)) != len(fields):
        raise r.error("starting_fields", "expected 1 to 4 different plots")
    rounds = r.int("rounds", 1, 100)
    bonus = tuple(r.get("bonus_rounds", list))
    if any(isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= rounds for b in bonus):
        raise r.error("bonus_rounds", f"expected round numbers from 1 to {rounds}")
    rules = Rules(
        starting_fields=tuple(fields),
        border_encloses=r.get("border_encloses", bool),
        adjacency=r.choice("adjacency", ADJACENCIES),
        butterfly_diagonal=r.get("butterfly_diagonal", bool),
        butterfly_steps=r.int("butterfly_steps", 1, 4),
        patch_min=r.int("patch_min", 2, 25),
        rounds=rounds,
        bonus_rounds=bonus,
        corner_bricks=r.int("corner_bricks", 0, 40),
        centre_fields=r.int("centre_fields", 0, 25),
        enclosure=r.choice("enclosure", ENCLOSURES, LEGACY_DEFAULTS["rules.enclosure"]),
        enclosure_forbids=_grounds(r, "enclosure_forbids"),
        bramble_on_bramble=r.get("bramble_on_bramble", bool, LEGACY_DEFAULTS["rules.bramble_on_bramble"]),
        butterfly_counts=r.choice("butterfly_counts", BUTTERFLY_COUNTS, LEGACY_DEFAULTS["rules.butterfly_counts"]),
    )
    r.done()
    return rules


def _grounds(r: _Reader, name: str) -> tuple[str, ...]:
    values = r.get(name, list, LEGACY_DEFAULTS[f"rules.{name}"])
    for i, value in enumerate(values):
        if value not in GROUNDS:
            raise r.error(f"{name}[{i}]", f"expected one of {', '.join(repr(g) for g in GROUNDS)}, got {value!r}")
    return tuple(dict.fromkeys(values))


def _scoring(r: _Reader) -> Scoring:
    points = {key: r.int(key, 0, 100) for key in ("flower", "patch", "enclosed", "butterfly", "unique_feature")}
    scoring = Scoring(**points, feature_copies=r.choice("feature_copies", tuple(FeatureCopies)))
    r.done()
    return scoring


def _check_code(r: _Reader, code: str) -> None:
    if not (len(code) == 2 and code.isascii() and code.isalpha() and code.islower()):
        raise r.error(code, "a critter or feature code is two lower-case letters")


def _critters(r: _Reader) -> dict[str, Critter]:
    critters = {}
    for code in r.data:
        _check_code(r, code)
        c = r.table(code)
        critters[code] = Critter(code, c.get("name", str), c.int("points", 0, 100), c.int("ladder", 1, 20))
        c.done()
    return critters


def _features(r: _Reader) -> dict[str, Feature]:
    features = {}
    for code in r.data:
        _check_code(r, code)
        if r.data[code] is False:  # `po = false` removes the tile from the edition
            r.used.add(code)
            continue
        f = r.table(code)
        score = None
        if "score" in f.data:
            s = f.table("score")
            count = s.choice("count", SCORE_COUNTS)
            colour = s.choice("colour", COLOUR_NAMES, None)
            if colour is not None and count not in COLOUR_FILTERED_COUNTS:
                raise s.error("colour", f"only {', '.join(COLOUR_FILTERED_COUNTS)} take a colour")
            score = FeatureScore(count, s.int("points", 0, 100), s.int("max", 0, 1000, None), colour)
            s.done()
        on_place = tuple(_effect(e) for e in f.items("on_place")) if "on_place" in f.data else ()
        adjacency = f.choice("adjacency", ADJACENCIES, None)
        features[code] = Feature(code, f.get("name", str), f.choice("type", FEATURE_TYPES), score, on_place, adjacency)
        f.done()
    return features


def _effect(r: _Reader) -> Effect:
    effect = Effect(r.choice("action", EFFECT_ACTIONS), r.int("count", 1, 40, 1), r.choice("per", EFFECT_PER, None))
    r.done()
    return effect


def _gnome(r: _Reader) -> tuple[Effect, ...]:
    options = tuple(_effect(e) for e in r.items("options"))
    if not options:
        raise r.error("options", "expected at least one gnome bonus")
    r.done()
    return options


def _play(r: _Reader, gnome: tuple[Effect, ...]) -> Play:
    bonus = r.get("round_bonus", (str, list), "gnome")
    if isinstance(bonus, str):
        if bonus != "gnome":
            raise r.error("round_bonus", f'expected "gnome" or a list of effects, got {bonus!r}')
        options = gnome
    else:
        options = tuple(_effect(e) for e in r.items("round_bonus"))
        if not options:
            raise r.error("round_bonus", "expected at least one option")
    play = Play(
        options,
        r.get("decline_gains", bool, True),
        r.choice("die_order", DIE_ORDERS, "caterpillars_first"),
        r.int("max_players", 1, MAX_PLAYERS, LEGACY_DEFAULTS["play.max_players"]),
        r.choice("feature_without_field", FEATURE_WITHOUT_FIELD, LEGACY_DEFAULTS["play.feature_without_field"]),
    )
    r.done()
    return play


def _display(r: _Reader) -> tuple[dict[str, int | str], tuple[str, ...]]:
    display: dict[str, int | str] = {}
    for kind in FEATURE_TYPES:
        value = r.get(kind, (int, str), 0)
        if value != "all" and not (isinstance(value, int) and 0 <= value <= 20):
            raise r.error(kind, f'expected "all" or a number of tiles, got {value!r}')
        display[kind] = value
    exclude = r.get("exclude", list, LEGACY_DEFAULTS["display.exclude"])
    for i, code in enumerate(exclude):
        if not isinstance(code, str):
            raise r.error(f"exclude[{i}]", f"expected a tile code, got {_kind(code)}")
    r.done()
    return display, tuple(exclude)


def _cards(r: _Reader) -> dict[str, Any]:
    decks, deck_size = r.int("decks", 1, 6), r.int("deck_size", 1, 100)
    cards: list[Card] = []
    for c in r.items("mix"):
        centre = c.choice("centre", CARD_CENTRES)
        colour = c.choice("colour", COLOUR_NAMES, None)
        if (centre == "stamp") != (colour is not None):
            raise c.error("colour", "a stamp card needs a colour, and only a stamp card has one")
        card = Card(centre, c.choice("corner", CARD_CORNERS), colour)
        cards.extend([card] * c.int("count", 1, 100, 1))
        c.done()
    if len(cards) < decks * deck_size:
        raise r.error("mix", f"{len(cards)} cards cannot fill {decks} decks of {deck_size}")
    r.done()
    return {"decks": decks, "deck_size": deck_size, "cards": tuple(cards)}


def _dice(r: _Reader) -> dict[str, Any]:
    faces = []
    for f in r.items("faces"):
        faces.append(DieFace(f.int("caterpillars", 0, 10), f.choice("extra", DIE_EXTRAS, None)))
        f.done()
    if not faces:
        raise r.error("faces", "a die needs at least one face")
    dice = r.int("count", 1, 6)
    r.done()
    return {"dice": dice, "die_faces": tuple(faces)}


def _fill(r: _Reader) -> FillSheet:
    def icons(name: str) -> tuple[str, ...]:
        values = tuple(r.get(name, list))
        for i, icon in enumerate(values):
            if icon not in TRACK_ICONS:
                raise r.error(f"{name}[{i}]", f"expected one of {', '.join(repr(t) for t in TRACK_ICONS)}, got {icon!r}")
        if not values:
            raise r.error(name, "expected at least one bubble")
        return values

    track = r.int("caterpillar_track", 1, 100)
    gnome_spaces = tuple(r.get("caterpillar_gnome_spaces", list))
    if any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= track for s in gnome_spaces):
        raise r.error("caterpillar_gnome_spaces", f"expected space numbers from 1 to {track}")
    sheet = FillSheet(
        icons("flower_track"),
        icons("rondel"),
        track,
        gnome_spaces,
        r.get("ladders_repeat", bool, LEGACY_DEFAULTS["fill.ladders_repeat"]),
        r.choice("rondel_after", RONDEL_AFTER, LEGACY_DEFAULTS["fill.rondel_after"]),
    )
    r.done()
    return sheet
