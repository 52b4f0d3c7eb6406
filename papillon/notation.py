"""The ``.garden`` text notation and its JSON form (``../shared/NOTATION.md``).

:func:`format_garden` writes the canonical text; :func:`parse` reads it back
strictly: it checks the whole text before building anything, and every
mistake is a :class:`~papillon.errors.NotationError` naming the line, the
column (both from 1, as editors count) and what was expected.
"""

from __future__ import annotations

import json
import re
from typing import Any

from papillon.edition import COLOURS, Edition, standard_edition
from papillon.errors import NotationError
from papillon.garden import Cell, Garden
from papillon.grid import COLUMNS, SIZE, Edge, edge_below, edge_right, parse_edge, plot_at

HEADER = "papillon garden v1"
COLUMN_HEADER = "     A     B     C     D     E"
FORMAT_NAME = "papillon-garden"
VERSION = 1

# Fixed columns of NOTATION.md §Layout, counted from 0 as there.
ROW_LABEL_END = 4  # the row number sits in columns 0-3


def cell_column(k: int) -> int:
    """First column of the cell of garden column ``k`` (0 = A)."""
    return 5 + 6 * k


def edge_column(k: int) -> int:
    """The column holding the ``|`` between garden columns ``k`` and ``k + 1``."""
    return 9 + 6 * k


CELL_WIDTH = 3
_META = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)")
_VERSION = re.compile(r"papillon\s+garden\s+v(\S+)")


# --------------------------------------------------------------------------- writing


def format_garden(garden: Garden) -> str:
    """The canonical notation of ``garden``: ``parse(format_garden(g)) == g``."""
    lines = [HEADER]
    lines += [f"{key}: {value}".rstrip() for key, value in garden.meta]
    lines += ["", COLUMN_HEADER]
    for row in range(SIZE):
        line = list(f"{row + 1:>2}".ljust(cell_column(SIZE)))
        for col in range(SIZE):
            plot = plot_at(col, row)
            text = garden.cells[plot].code + ("*" if plot in garden.butterflies else "")
            line += [" "] * (cell_column(col) + CELL_WIDTH - len(line))
            line[cell_column(col) : cell_column(col) + len(text)] = text
            right = edge_right(plot)
            if right is not None:
                line += [" "] * (edge_column(col) + 1 - len(line))
                line[edge_column(col)] = "|" if right in garden.bricks else " "
        lines.append("".join(line).rstrip())
        below = [edge_below(plot_at(col, row)) for col in range(SIZE)]
        if any(edge in garden.bricks for edge in below if edge):
            edge_line = "".join(
                " " * (cell_column(col) - cell_column(col - 1) - CELL_WIDTH if col else cell_column(0))
                + ("---" if below[col] in garden.bricks else "   ")
                for col in range(SIZE)
            )
            lines.append(edge_line.rstrip())
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading


class _Line:
    """One line of input with its number (from 1) and comment removed."""

    def __init__(self, number: int, raw: str) -> None:
        self.number = number
        self.text = raw.split("#", 1)[0].rstrip()

    def error(self, message: str, column0: int | None = None) -> NotationError:
        return NotationError(message, self.number, None if column0 is None else column0 + 1)

    def at(self, start: int, stop: int) -> str:
        return self.text[start:stop].ljust(stop - start)


def parse(text: str, edition: Edition | None = None) -> Garden:
    """The garden written in ``text``; raises NotationError on the first mistake.

    Critter and feature codes must belong to ``edition`` (standard by default).
    """
    edition = edition or standard_edition()
    lines = _lines(text)
    if not lines:
        raise NotationError(f"empty input: expected the first line {HEADER!r}", 1, 1)
    _check_header(lines[0])
    index, meta = _read_meta(lines)
    header = lines[index]
    _check_column_header(header)
    index += 1

    codes: list[str] = []
    bricks: set[Edge] = set()
    seen_rows: set[int] = set()
    last = header
    for row in range(SIZE):
        if index >= len(lines):
            raise NotationError(f"missing row {row + 1}: a garden has rows 1 to 5", last.number + 1, 1)
        line = lines[index]
        number = _row_number(line)
        if number is None:
            if _looks_like_edge_line(line):
                where = f"below row {row}" if row else "above row 1"
                raise line.error(f"unexpected edge line {where}" + ("" if row else ": bricks only go between rows"))
            raise line.error(f"expected row {row + 1}, a line starting with its number")
        _check_row_order(line, number, row, seen_rows)
        seen_rows.add(number)
        codes += _read_cells(line, row, bricks, edition)
        last, index = line, index + 1
        if index < len(lines) and _row_number(lines[index]) is None and _looks_like_edge_line(lines[index]):
            if row == SIZE - 1:
                raise lines[index].error("edge line below row 5: the garden border never holds a brick")
            _read_edge_line(lines[index], row, bricks)
            last, index = lines[index], index + 1
    if index < len(lines):
        extra = lines[index]
        number = _row_number(extra)
        if number is not None:
            raise extra.error(f"row {number} after row 5: a garden has rows 1 to 5", 0)
        raise extra.error("unexpected text after the last row", _first_text(extra))
    return Garden.from_codes([codes[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)], bricks, dict(meta))


def _lines(text: str) -> list[_Line]:
    """The meaningful lines: tabs refused, comments and blank lines dropped."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if "\t" in raw.split("#", 1)[0]:
            raise NotationError("tab character: use spaces to line up the garden", number, raw.index("\t") + 1)
        line = _Line(number, raw)
        if line.text.strip():
            lines.append(line)
    return lines


def _first_text(line: _Line) -> int:
    return len(line.text) - len(line.text.lstrip())


def _check_header(line: _Line) -> None:
    text = line.text.strip()
    if text == HEADER:
        return
    match = _VERSION.fullmatch(text)
    if match:
        raise line.error(f"unsupported notation version 'v{match[1]}': this papillon reads {HEADER!r}", 0)
    raise line.error(f"expected the first line {HEADER!r}, found {text!r}", 0)


def _read_meta(lines: list[_Line]) -> tuple[int, list[tuple[str, str]]]:
    meta: list[tuple[str, str]] = []
    index = 1
    while index < len(lines) and lines[index].text.strip() != COLUMN_HEADER.strip():
        line = lines[index]
        if _row_number(line) is not None or line.text.lstrip().startswith("A "):
            break  # a row or a misaligned column header: reported by the caller
        match = _META.fullmatch(line.text)
        if not match:
            raise line.error(f"expected a metadata line 'key: value' or the column header, found {line.text.strip()!r}", _first_text(line))
        key, value = match[1], match[2].strip()
        if key in dict(meta):
            raise line.error(f"duplicate metadata key {key!r}", 0)
        meta.append((key, value))
        index += 1
    if index >= len(lines):
        last = lines[-1]
        raise NotationError("missing the column header '     A     B     C     D     E'", last.number + 1, 1)
    return index, meta


def _check_column_header(line: _Line) -> None:
    if line.text == COLUMN_HEADER:
        return
    for k, letter in enumerate(COLUMNS):
        if line.at(cell_column(k), cell_column(k) + 1) != letter:
            where = line.text.find(letter)
            found = f"found it at column {where + 1}" if where >= 0 else "it is missing"
            raise line.error(f"column header: expected {letter!r} at column {cell_column(k) + 1}, {found}", cell_column(k))
    raise line.error("column header: expected only the letters A to E, each above its column", 0)


def _row_number(line: _Line) -> int | None:
    label = line.text[:ROW_LABEL_END].strip()
    return int(label) if label.isdigit() else None


def _looks_like_edge_line(line: _Line) -> bool:
    return bool(line.text.strip()) and set(line.text) <= set(" -+")


def _check_row_order(line: _Line, number: int, row: int, seen: set[int]) -> None:
    if number == row + 1:
        return
    column = _first_text(line)
    if number in seen:
        raise line.error(f"duplicate row {number}: expected row {row + 1}", column)
    if not 1 <= number <= SIZE:
        raise line.error(f"row {number}: a garden has rows 1 to 5", column)
    raise line.error(f"missing row {row + 1}: found row {number} instead", column)


def _read_cells(line: _Line, row: int, bricks: set[Edge], edition: Edition) -> list[str]:
    name = str(row + 1)
    if line.text[ROW_LABEL_END : cell_column(0)].strip():
        raise line.error(f"row {name}: expected a space before column A", ROW_LABEL_END)
    codes = []
    for col in range(SIZE):
        start = cell_column(col)
        cell = line.at(start, start + CELL_WIDTH)
        plot = f"{COLUMNS[col]}{name}"
        if not cell.strip():
            raise line.error(f"{plot}: missing cell (write '.' for an empty plot)", start)
        if cell[0] == " ":
            raise line.error(f"{plot}: misaligned cell: it must start at column {start + 1}", start)
        code = cell.rstrip()
        if " " in code:
            raise line.error(f"{plot}: expected one code, found {code!r}", start)
        codes.append(_check_code(line, code, plot, start, edition))
        for gap in (start + CELL_WIDTH, edge_column(col) + 1):
            if col < SIZE - 1 and line.at(gap, gap + 1) != " ":
                raise line.error(f"{plot}: unexpected {line.at(gap, gap + 1)!r}: cells are 3 columns wide and '|' goes at column {edge_column(col) + 1}", gap)
        if col < SIZE - 1:
            mark = line.at(edge_column(col), edge_column(col) + 1)
            if mark == "|":
                bricks.add(Edge(plot_at(col, row), plot_at(col + 1, row)))
            elif mark != " ":
                raise line.error(f"expected '|' or a space between {plot} and {COLUMNS[col + 1]}{name}, found {mark!r}", edge_column(col))
    rest = line.text[cell_column(SIZE - 1) + CELL_WIDTH :]
    if rest.strip():
        column = cell_column(SIZE - 1) + CELL_WIDTH + len(rest) - len(rest.lstrip())
        if rest.strip() == "|":
            raise line.error(f"'|' after column E{name}: the garden border never holds a brick", column)
        raise line.error(f"unexpected text after column E: {rest.strip()!r}", column)
    return codes


def _check_code(line: _Line, text: str, plot: str, column: int, edition: Edition) -> str:
    code = text[:-1] if text.endswith("*") else text
    if code in COLOURS or code in (".", "F", "X") or code in edition.occupant_codes:
        return text
    if code.endswith("*"):
        raise line.error(f"{plot}: one '*' marks a filled butterfly space, found {text!r}", column)
    known = " ".join([".", *COLOURS, "X", "F", *edition.occupant_codes])
    raise line.error(f"{plot}: unknown plot code {code!r} (expected one of {known}, then '*' for a butterfly)", column)


def _read_edge_line(line: _Line, row: int, bricks: set[Edge]) -> None:
    slots = {cell_column(col): col for col in range(SIZE)}
    column = 0
    text = line.text
    while column < len(text):
        char = text[column]
        if column in slots and text.startswith("-", column):
            col = slots[column]
            mark = line.at(column, column + CELL_WIDTH)
            below = f"{COLUMNS[col]}{row + 1}-{COLUMNS[col]}{row + 2}"
            if mark != "---":
                raise line.error(f"brick {below}: expected '---' under column {COLUMNS[col]}, found {mark.rstrip()!r}", column)
            bricks.add(Edge(plot_at(col, row), plot_at(col, row + 1)))
            column += CELL_WIDTH
            continue
        if char == "-":
            nearest = min(slots, key=lambda s: abs(s - column))
            raise line.error(f"misaligned brick: '---' goes under a cell, at column {nearest + 1} for {COLUMNS[slots[nearest]]}", column)
        column += 1


# --------------------------------------------------------------------------- JSON


def to_json(garden: Garden) -> dict[str, Any]:
    """The JSON form of NOTATION.md as a dict (bricks sorted by edge)."""
    rows = []
    for row in range(SIZE):
        rows.append([garden.cells[plot_at(c, row)].code + ("*" if plot_at(c, row) in garden.butterflies else "") for c in range(SIZE)])
    return {
        "format": FORMAT_NAME,
        "version": VERSION,
        "meta": dict(garden.meta),
        "plots": rows,
        "bricks": [edge.name for edge in sorted(garden.bricks)],
    }


def from_json(data: Any, edition: Edition | None = None) -> Garden:
    """The garden of a JSON form (a dict, or JSON text); errors name the bad key."""
    edition = edition or standard_edition()
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise NotationError(f"not valid JSON: {error.msg}", error.lineno, error.colno) from None
    if not isinstance(data, dict):
        raise NotationError("JSON garden: expected an object")
    if data.get("format") != FORMAT_NAME:
        raise NotationError(f"JSON garden: expected \"format\": \"{FORMAT_NAME}\"")
    if data.get("version") != VERSION:
        raise NotationError(f"JSON garden: unsupported version {data.get('version')!r}: this papillon reads version {VERSION}")
    unknown = set(data) - {"format", "version", "meta", "plots", "bricks"}
    if unknown:
        raise NotationError(f"JSON garden: unknown key {sorted(unknown)[0]!r}")
    meta = data.get("meta", {})
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise NotationError("JSON garden: \"meta\" must be an object of strings")
    plots = data.get("plots")
    if not (isinstance(plots, list) and len(plots) == SIZE and all(isinstance(r, list) and len(r) == SIZE for r in plots)):
        raise NotationError("JSON garden: \"plots\" must be 5 rows of 5 codes")
    for r, row in enumerate(plots):
        for c, text in enumerate(row):
            code = text[:-1] if isinstance(text, str) and text.endswith("*") else text
            if not isinstance(code, str) or not (code in COLOURS or code in (".", "F", "X") or code in edition.occupant_codes):
                raise NotationError(f"JSON garden: plots[{r}][{c}] ({COLUMNS[c]}{r + 1}): unknown plot code {text!r}")
    bricks = data.get("bricks", [])
    if not isinstance(bricks, list):
        raise NotationError("JSON garden: \"bricks\" must be a list like [\"A1-A2\"]")
    edges = []
    for i, name in enumerate(bricks):
        try:
            edges.append(parse_edge(name if isinstance(name, str) else repr(name)))
        except ValueError as error:
            raise NotationError(f"JSON garden: bricks[{i}]: {error}") from None
    try:
        return Garden.from_codes(plots, edges, meta)
    except ValueError as error:
        raise NotationError(f"JSON garden: {error}") from None


def load_text(text: str, edition: Edition | None = None) -> Garden:
    """A garden from notation text or JSON text, whichever ``text`` is."""
    if text.lstrip().startswith("{"):
        return from_json(text, edition)
    return parse(text, edition)
