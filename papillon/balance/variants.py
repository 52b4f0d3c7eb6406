"""The variants a balance run compares: editions, ``--set`` corrections, bots.

Every variant is a full edition built through the edition module's own path
(:func:`~papillon.edition.edition_from_toml`: merged over the standard edition,
every key checked), so a ``--set`` typo gets the same message as a typo in an
edition file.

>>> [v.label for v in build_variants(["standard"], [parse_set("scoring.enclosed=1,2")], "greedy")]
['scoring.enclosed=1', 'scoring.enclosed=2']
"""

from __future__ import annotations

import copy
import itertools
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from papillon.edition import Edition, edition_from_toml, load_edition, standard_edition
from papillon.errors import EditionError, quote
from papillon.files import MAX_INT_DIGITS, MAX_TOML_DEPTH, loads_toml
from papillon.simulation import edition_toml, toml_text

STANDARD = "standard"
"""The name that stands for the built-in edition on the command line."""


@dataclass(frozen=True)
class Variant:
    """One column of a comparison: an edition (as TOML for the workers) and the bot that plays it."""

    label: str
    edition: Edition
    toml: str
    bot: str


@dataclass(frozen=True)
class Setting:
    """``--set key=v1,v2``: a dotted edition key and the values to try."""

    key: str
    values: tuple[Any, ...]
    texts: tuple[str, ...]
    """The values as typed, for labels."""


def parse_set(text: str) -> Setting:
    """``scoring.enclosed=1,2`` -> a Setting; values are TOML values, or plain words taken as strings.

    >>> parse_set('rules.starting_fields=["B4","D2"],["C3"]').values
    (['B4', 'D2'], ['C3'])
    """
    key, equals, values = text.partition("=")
    key = key.strip()
    if not equals or not key or not all(part.strip() for part in key.split(".")):
        raise EditionError(
            f"{text!r}: expected KEY=VALUE[,VALUE...] with a dotted edition key, like scoring.enclosed=1,2", parameter="settings"
        )
    bound = _over_bounds(values)
    if bound:
        raise EditionError(f"{quote(key, '')}: {quote(values)}: {bound}", parameter="settings")
    texts = tuple(part.strip() for part in _split_values(values))
    if not texts or not all(texts):
        raise EditionError(f"{text!r}: a value is missing (expected KEY=VALUE[,VALUE...])", parameter="settings")
    return Setting(key, tuple(_value(t) for t in texts), texts)


def _over_bounds(text: str) -> str:
    """What puts ``--set`` values past the bounds an edition file has (:func:`papillon.files.loads_toml`), or ''."""
    if re.search(rf"\d{{{MAX_INT_DIGITS + 1},}}", text):
        return f"a number of more than {MAX_INT_DIGITS} digits"
    depth = deepest = 0
    for char in text:  # brackets inside quotes count too: a value that deep is no edition's anyway
        depth += (char in "[{") - (char in "]}")
        deepest = max(deepest, depth)
    if deepest > MAX_TOML_DEPTH:
        return f"nested deeper than {MAX_TOML_DEPTH} levels"
    return ""


def _split_values(text: str) -> list[str]:
    """Split at the commas that are not inside brackets, braces or quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _value(text: str) -> Any:
    try:
        return loads_toml(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text  # a bare word: king, best, red


def load_named_edition(name: str) -> Edition:
    """``standard`` or the path of an edition file of corrections."""
    return standard_edition() if name == STANDARD else load_edition(name)


def edition_label(name: str) -> str:
    return STANDARD if name == STANDARD else Path(name).stem


def build_variants(editions: Sequence[str], settings: Sequence[Setting], bot: str) -> list[Variant]:
    """Every edition crossed with every combination of the settings' values, in command-line order."""
    variants = []
    for name in editions or [STANDARD]:
        base = load_named_edition(name)
        for combination in itertools.product(*[list(zip(s.values, s.texts, strict=True)) for s in settings]):
            set_words = [f"{s.key}={text}" for s, (_, text) in zip(settings, combination, strict=True)]
            label = " ".join(([edition_label(name)] if len(editions) > 1 or not set_words else []) + set_words)
            if not combination:
                variants.append(Variant(label, base, edition_toml(base), bot))
                continue
            data = copy.deepcopy(dict(base.data))
            for setting, (value, _) in zip(settings, combination, strict=True):
                _assign(data, setting.key, value, base)
            data.setdefault("edition", {})["name"] = f"{base.name} {' '.join(set_words)}"
            text = toml_text(data)
            try:
                edition = edition_from_toml(text, source=" ".join(set_words))
            except EditionError as error:  # the settings made an edition the rules refuse
                raise EditionError(str(error), parameter="settings") from None
            variants.append(Variant(label, edition, text, bot))
    labels = [v.label for v in variants]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise EditionError(f"two variants are both called {repeated[0]!r}: give each edition file its own name")
    return variants


def _assign(data: dict[str, Any], key: str, value: Any, base: Edition) -> None:
    """Set the dotted ``key`` in ``data``, refusing a path through tables the edition does not have."""
    table = data
    parts = key.split(".")
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        # A missing last key may be an optional one (features.po.score.max): the edition loader judges it.
        if not isinstance(table, dict) or (part not in table and not last):
            where = ".".join(parts[: depth + 1])
            raise EditionError(f"{key}: the {base.name!r} edition has no key {where!r} (see docs/EDITIONS.md)", parameter="settings")
        if last:
            if isinstance(table.get(part), dict):
                raise EditionError(f"{key}: {key!r} is a table; set one of its keys ({', '.join(table[part])})", parameter="settings")
            table[part] = value
        else:
            table = table[part]


def bot_variants(edition_name: str, bots: Sequence[str]) -> list[Variant]:
    """The same edition played by each bot in turn (the bot ladder)."""
    edition = load_named_edition(edition_name)
    text = edition_toml(edition)
    return [Variant(bot, edition, text, bot) for bot in bots]
