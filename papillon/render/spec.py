"""Custom sheet definitions: small TOML files (``sheets/*.toml``) for ``papillon sheet --from``.

Every key is optional and is the long name of a ``papillon sheet`` option;
an option given on the command line wins over the file::

    # sheets/family-night.toml
    players = ["Ann", "Ben", "Cleo", "Dev"]
    starting_fields = ["B4", "D2"]
    sides = ["garden", "fill", "score"]
    paper = "a4"

A relative ``edition`` path is read from the definition file's directory.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from papillon.errors import SheetSpecError
from papillon.files import loads_toml, read_text
from papillon.grid import Plot
from papillon.layout import PAPERS_MM, parse_starting_fields

SIDES = ("garden", "fill", "score")
MAX_COPIES = 1000


@dataclass(frozen=True)
class SheetSpec:
    """What to print; ``None`` means "not said" (the command's default applies)."""

    name: str | None = None
    """The definition's name: the title of the PDF (its document properties)."""
    players: tuple[str, ...] | None = None
    starting_fields: tuple[Plot, ...] | None = None
    random_start: bool | None = None
    seed: int | None = None
    copies: int | None = None
    paper: str | None = None
    per_page: int | None = None
    mono: bool | None = None
    edition: str | None = None
    sides: tuple[str, ...] | None = None


def parse_sides(value: str | list[Any] | tuple[Any, ...]) -> tuple[str, ...]:
    """``'garden,fill'`` (or a list) -> ``('garden', 'fill')``; ValueError names a bad side.

    >>> parse_sides("garden, score")
    ('garden', 'score')
    """
    names = [s.strip() for s in value.split(",")] if isinstance(value, str) else list(value)
    if not names or names == [""]:
        raise ValueError(f"expected one or more of {', '.join(SIDES)}")
    for name in names:
        if name not in SIDES:
            raise ValueError(f"unknown side {name!r} (expected {', '.join(SIDES)})")
    if len(set(names)) != len(names):
        raise ValueError("a side is named twice")
    return tuple(names)


def load_sheet_spec(path: str | Path) -> SheetSpec:
    """The sheet definition in ``path`` (raises :class:`SheetSpecError`, naming the file and key)."""
    path = Path(path)
    try:
        data = loads_toml(read_text(path))  # bounded in size and nesting, a byte order mark dropped
    except OSError as error:
        raise SheetSpecError(f"{path}: cannot read sheet definition ({error.strerror})") from None
    except UnicodeDecodeError:
        raise SheetSpecError(f"{path}: not a text file (expected TOML in UTF-8)") from None
    except tomllib.TOMLDecodeError as error:
        raise SheetSpecError(f"{path}: {error}") from None
    return spec_from_data(data, source=str(path), base=path.parent)


def spec_from_data(data: dict[str, Any], *, source: str = "<sheet>", base: Path | None = None) -> SheetSpec:
    """A :class:`SheetSpec` from parsed TOML, every key checked."""

    def fail(key: str, message: str) -> SheetSpecError:
        return SheetSpecError(f"{source}: {key}: {message}")

    def typed(key: str, kind: type, what: str) -> Any:
        value = data.get(key)
        if value is None:
            return None
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise fail(key, f"expected {what}, got {value!r}")
        return value

    known = set(SheetSpec.__dataclass_fields__) | {"per-page", "random-start", "starting-fields"}
    for key in data:
        if key not in known:
            raise fail(key, f"unknown key (expected one of {', '.join(sorted(SheetSpec.__dataclass_fields__))})")
    for dashed in ("per-page", "random-start", "starting-fields"):
        if dashed in data:
            data = {**data, dashed.replace("-", "_"): data[dashed]}
    players = typed("players", list, "a list of names")
    if players is not None and not all(isinstance(p, str) and p.strip() and "\n" not in p for p in players):
        raise fail("players", "expected a list of one-line names")
    fields = typed("starting_fields", list, 'a list of plots like ["B4", "D2"]')
    starting_fields = None
    if fields is not None:
        try:
            starting_fields = parse_starting_fields([str(f) for f in fields])
        except ValueError as error:
            raise fail("starting_fields", str(error)) from None
    sides_value = typed("sides", list, 'a list like ["garden", "fill"]')
    sides = None
    if sides_value is not None:
        try:
            sides = parse_sides(sides_value)
        except ValueError as error:
            raise fail("sides", str(error)) from None
    copies = typed("copies", int, "a whole number")
    if copies is not None and not 1 <= copies <= MAX_COPIES:
        raise fail("copies", f"expected 1 to {MAX_COPIES}, got {copies}")
    per_page = typed("per_page", int, "1 or 2")
    if per_page is not None and per_page not in (1, 2):
        raise fail("per_page", f"expected 1 or 2, got {per_page}")
    paper = typed("paper", str, "a4 or letter")
    if paper is not None and paper.lower() not in PAPERS_MM:
        raise fail("paper", f"expected a4 or letter, got {paper!r}")
    edition = typed("edition", str, "a file name")
    if edition is not None and base is not None and not Path(edition).is_absolute():
        edition = str(base / edition)
    return SheetSpec(
        name=typed("name", str, "a string"),
        players=tuple(p.strip() for p in players) if players is not None else None,
        starting_fields=starting_fields,
        random_start=typed("random_start", bool, "true or false"),
        seed=typed("seed", int, "a whole number"),
        copies=copies,
        paper=paper.lower() if paper else None,
        per_page=per_page,
        mono=typed("mono", bool, "true or false"),
        edition=edition,
        sides=sides,
    )
