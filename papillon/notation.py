r"""The ``.garden`` text notation and its JSON form (``../shared/NOTATION.md``).

:func:`format_garden` writes the canonical text; :func:`parse` reads it back
strictly: it checks the whole text before building anything, and every
mistake is a :class:`~papillon.errors.NotationError` naming the line, the
column (both from 1, as editors count) and what was expected.

Positions in errors: every line of the input counts, comments and blank lines
too (``\n``, ``\r\n`` or a lone ``\r`` ends a line); the column points at what
was found wrong, or, when something is missing, at where it should be.
Messages say what was expected, then what was found:

>>> parse("papillon garden v2\n")
Traceback (most recent call last):
...
papillon.errors.NotationError: line 1, column 17: expected version 'v1', found 'v2': this papillon reads 'papillon garden v1'
"""

from __future__ import annotations

import itertools
import json
import operator
import re
import unicodedata
from functools import cache
from typing import Any

from papillon.edition import Edition, standard_edition
from papillon.errors import NotationError, quote
from papillon.files import json_reason, loads_json
from papillon.garden import Cell, Garden, valid_meta_key, valid_meta_value
from papillon.grid import COLUMNS, ROW_PLOTS, SIZE, Edge, edge_below, edge_right, parse_edge, plot_at

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
_META = re.compile(r"([A-Za-z][A-Za-z0-9_-]*) *:(.*)")
_VERSION = re.compile(r"papillon\s+garden\s+v(\S+)")


MAX_NAME = 60
"""Characters of a player's name: room for any real name, not for a pasted paragraph."""


def player_name(text: str) -> str:
    """A name as a person typed it, ready for a ``player:`` line; ValueError (one line) if it cannot be one.

    Spaces around it are dropped.  Refused: an empty name, ``#`` (the notation reads it as the start of
    a comment and has no escape for it), characters that print as nothing or break the line, and a
    name with nothing visible (a lone accent, a Hangul filler: it would show as a blank).

    >>> player_name("  Zoé ")
    'Zoé'
    >>> player_name("Ann #1")
    Traceback (most recent call last):
    ...
    ValueError: a name cannot hold '#' (a .garden file reads the rest as a comment): 'Ann #1'
    """
    name = text.strip()
    if not name:
        raise ValueError("a name cannot be empty or only spaces")
    if "#" in name:
        raise ValueError(f"a name cannot hold '#' (a .garden file reads the rest as a comment): {quote(name)}")
    invisible = next((ch for ch in name if not ch.isprintable()), None)
    if invisible is not None:
        raise ValueError(f"a name cannot hold the invisible or control character U+{ord(invisible):04X}: {quote(name)}")
    if not any(_visible(ch) for ch in name):
        only = ", ".join(f"U+{ord(ch):04X}" for ch in dict.fromkeys(name))
        raise ValueError(f"a name needs a visible character, got only {only}: {quote(name)}")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, got {len(name)}: {quote(name)}")
    return name


_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Printable characters that draw nothing: the Hangul fillers and the blank Braille pattern."""


def _visible(ch: str) -> bool:
    """Whether ``ch`` leaves a mark on its own: not a space, not a combining mark alone, not a blank filler."""
    return ch != " " and ch not in _BLANK_LETTERS and unicodedata.category(ch) not in ("Mn", "Me")


def metadata_comments(text: str) -> list[tuple[int, str, str]]:
    r"""Metadata lines whose value a ``#`` cut short: (line number, key, the value kept), for a warning.

    ``player: Zoe #1`` is the player ``Zoe`` and a comment, as everywhere; a person may not expect that.

    >>> metadata_comments("papillon garden v1\nplayer: Zoe #1\n\n     A     B")
    [(2, 'player', 'Zoe')]
    """
    found = []
    for number, raw in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1):
        content, hash_mark, _ = raw.partition("#")
        if number > 1 and content.strip(" ") == "" and not hash_mark:
            continue
        if _is_column_header(_Line(number, raw)):
            break
        match = _META.fullmatch(content.rstrip(" "))
        if hash_mark and match:
            found.append((number, match[1], match[2].strip(" ")))
    return found


# --------------------------------------------------------------------------- writing


def format_garden(garden: Garden) -> str:
    """The canonical notation of ``garden``: ``parse(format_garden(g)) == g``."""
    lines = [HEADER]
    lines += [f"{key}: {value}".rstrip(" ") for key, value in garden.meta]  # only spaces: parse strips no other
    return "\n".join([*lines, "", format_grid(garden)])


_PLOT_AT = tuple(tuple(plot_at(col, row) for col in range(SIZE)) for row in range(SIZE))
_EDGE_RIGHT = tuple(edge_right(plot) for plot in range(SIZE * SIZE))
_EDGE_BELOW = tuple(edge_below(plot) for plot in range(SIZE * SIZE))
"""The grid's geometry, worked out once: every game's log writes its final gardens."""


_ROW_LABELS = tuple(f"{row + 1:>2}".ljust(cell_column(0)) for row in range(SIZE))
_ROOM = edge_column(0) - cell_column(0)
"""The longest cell text (code and ``*``) that ends before its edge column: any cell whose occupant is two letters."""
_RIGHT_EDGES = tuple(tuple(_EDGE_RIGHT[plot] for plot in plots[:-1]) for plots in _PLOT_AT)
"""Each row's edges between its cells, left to right."""
_BELOW_EDGES = tuple(frozenset(_EDGE_BELOW[plot] for plot in plots) - {None} for plots in _PLOT_AT)
_BELOW_ORDER = tuple(tuple(_EDGE_BELOW[plot] for plot in plots) for plots in _PLOT_AT)
_EDGE_GAP = " " * (cell_column(1) - cell_column(0) - CELL_WIDTH)
"""The spaces between two cells' places in an edge line (the first cell's are the row label's)."""


def format_grid(garden: Garden) -> str:
    """Just the grid of the notation (column header, rows, edge lines), for showing a garden."""
    lines = [COLUMN_HEADER]
    cells, bricks, butterflies = garden.cells, garden.bricks, garden.butterflies
    for row, plots in enumerate(_PLOT_AT):
        texts = [cells[plot].code + "*" if plot in butterflies else cells[plot].code for plot in plots]
        if max(map(len, texts)) <= _ROOM:
            # Each text padded to its edge column, then the edge and the space before the next cell: the
            # general way below in one join (a grid is written for every garden of every game's log).
            last = texts.pop()
            pieces = [text.ljust(_ROOM) + ("| " if right in bricks else "  ") for text, right in zip(texts, _RIGHT_EDGES[row], strict=True)]
            lines.append((_ROW_LABELS[row] + "".join(pieces) + last).rstrip())
        else:
            lines.append(_overflowing_row(garden, row))
        if not bricks.isdisjoint(_BELOW_EDGES[row]):
            segments = ["---" if edge in bricks else "   " for edge in _BELOW_ORDER[row]]
            lines.append((" " * cell_column(0) + _EDGE_GAP.join(segments)).rstrip())
    return "\n".join(lines) + "\n"


def _overflowing_row(garden: Garden, row: int) -> str:
    """A cell row of :func:`format_grid` with a text too long for its cell (an impossible cell's): each text
    written over its place, an edge over whatever reached its column."""
    line = list(_ROW_LABELS[row])
    for col in range(SIZE):
        plot = _PLOT_AT[row][col]
        text = garden.cells[plot].code + ("*" if plot in garden.butterflies else "")
        line += [" "] * (cell_column(col) + CELL_WIDTH - len(line))
        line[cell_column(col) : cell_column(col) + len(text)] = text
        right = _EDGE_RIGHT[plot]
        if right is not None:
            line += [" "] * (edge_column(col) + 1 - len(line))
            line[edge_column(col)] = "|" if right in garden.bricks else " "
    return "".join(line).rstrip()


# --------------------------------------------------------------------------- reading

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Characters an editor shows as a line break, as a box or not at all (the tab has its
# own message).  Python's str.splitlines() would break lines at some of them and shift
# every line number after, so they are refused with their position instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_NOT_CODE = " |"  # what ends a code token in a cell line


class _Line:
    """One line of input: its number (from 1) and its text without the comment."""

    def __init__(self, number: int, raw: str) -> None:
        self.number = number
        self.text = raw.split("#", 1)[0].rstrip(" ")

    def error(self, message: str, column0: int) -> NotationError:
        """An error at ``column0`` (counted from 0, as in NOTATION.md; reported from 1)."""
        return NotationError(message, self.number, column0 + 1)

    def at(self, start: int, stop: int) -> str:
        """Columns ``start`` to ``stop - 1``, padded with spaces past the end of the line."""
        return self.text[start:stop].ljust(stop - start)

    def char(self, column0: int) -> str:
        return self.at(column0, column0 + 1)

    def token(self, start: int, stop_chars: str = _NOT_CODE) -> str:
        """The run of characters from ``start`` up to any white space (or another stop character)."""
        end = start
        while end < len(self.text) and self.text[end] not in stop_chars and not self.text[end].isspace():
            end += 1
        return self.text[start:end]

    @property
    def indent(self) -> int:
        """Column (from 0) of the first character that is not a space."""
        return len(self.text) - len(self.text.lstrip(" "))


def parse(text: str, edition: Edition | None = None) -> Garden:
    """The garden written in ``text``; raises NotationError on the first mistake.

    Critter and feature codes must belong to ``edition`` (standard by default).
    The whole text is checked before the garden is built.
    """
    edition = edition or standard_edition()
    # A well-formed garden (nearly every one) is read by one regular expression for the whole text;
    # anything else goes to the careful reader, column by column, for its exact message.
    return _parse_fast(text, edition) or _parse_checked(text, edition)


def _parse_checked(text: str, edition: Edition) -> Garden:
    """:func:`parse`, checking every column: the reader of record, whose errors the messages come from."""
    lines, end = _lines(text)
    if not lines:
        raise NotationError(f"expected the first line {HEADER!r}, found the end of the input", *end)
    _check_header(lines[0])
    index, meta = _read_meta(lines, end)
    index += 1  # past the column header

    codes: list[list[str]] = []
    bricks: set[Edge] = set()
    for row in range(SIZE):
        name = row + 1
        if index >= len(lines):
            raise NotationError(f"expected row {name}, found the end of the input", *end)
        line = lines[index]
        number = _row_number(line)
        if number is None:
            if _is_edge_line(line):
                if row == 0:
                    raise line.error("expected row 1, found an edge line: bricks go between two rows, never above row 1", line.indent)
                raise line.error(f"expected row {name}, found a second edge line below row {row}", line.indent)
            raise line.error(f"expected row {name} (its number in columns 1 to 4), found {quote(line.text.strip())}", line.indent)
        if number != name:
            again = " again" if 1 <= number < name else ""
            limits = "" if 1 <= number <= SIZE else f": a garden has rows 1 to {SIZE}"
            raise line.error(f"expected row {name}, found row {number}{again}{limits}", line.indent)
        codes.append(_read_cells(line, row, bricks, edition))
        index += 1
        if index < len(lines) and _is_edge_line(lines[index]):
            if row == SIZE - 1:
                message = f"expected the end of the garden after row {SIZE}, found an edge line: the garden border never holds a brick"
                raise lines[index].error(message, lines[index].indent)
            _read_edge_line(lines[index], row, bricks)
            index += 1
    if index < len(lines):
        extra = lines[index]
        number = _row_number(extra)
        found = f"row {number}" if number is not None else repr(extra.text.strip())
        raise extra.error(f"expected the end of the garden after row {SIZE}, found {found}", extra.indent)
    return Garden.from_codes(codes, bricks, dict(meta))


def _lines(text: str) -> tuple[list[_Line], tuple[int, int]]:
    """The meaningful lines (comments and blank lines dropped) and the position of the end.

    Line breaks are ``\\n``, ``\\r\\n`` or ``\\r``, as editors count them; a byte
    order mark at the start is ignored; tabs and control characters are refused.
    """
    text = text.removeprefix("\ufeff")
    raws = _LINE_BREAK.split(text)
    ends_with_break = raws[-1] == ""
    if ends_with_break:
        raws.pop()
    end = (len(raws) + 1, 1) if ends_with_break or not raws else (len(raws), len(raws[-1]) + 1)
    lines = []
    for number, raw in enumerate(raws, start=1):
        content = raw.split("#", 1)[0]
        if "\t" in content:
            raise NotationError("expected spaces, found a tab character: line the garden up with spaces", number, content.index("\t") + 1)
        control = _CONTROL.search(content)
        if control:
            raise NotationError(
                f"expected printable text, found the unprintable character U+{ord(control[0]):04X}", number, control.start() + 1
            )
        line = _Line(number, raw)
        if line.text.strip(" "):
            lines.append(line)
    return lines, end


def _check_header(line: _Line) -> None:
    if line.text == HEADER:
        return
    match = _VERSION.fullmatch(line.text)
    if match and match[1] != str(VERSION):
        raise line.error(f"expected version 'v{VERSION}', found 'v{match[1]}': this papillon reads {HEADER!r}", match.start(1) - 1)
    raise line.error(f"expected the first line {HEADER!r}, found {quote(line.text)}", 0)


def _read_meta(lines: list[_Line], end: tuple[int, int]) -> tuple[int, list[tuple[str, str]]]:
    """The metadata lines after the header; returns the index of the column header too."""
    meta: list[tuple[str, str]] = []
    first_seen: dict[str, int] = {}
    index = 1
    while index < len(lines):
        line = lines[index]
        if _is_column_header(line) or _row_number(line) is not None or _is_edge_line(line):
            break
        match = _META.fullmatch(line.text)
        if not match:
            raise line.error(f"expected a metadata line 'key: value' or the column header, found {quote(line.text.strip())}", line.indent)
        key = match[1]
        if key in first_seen:
            raise line.error(f"expected each metadata key once, found {quote(key)} again (first on line {first_seen[key]})", 0)
        first_seen[key] = line.number
        meta.append((key, match[2].strip(" ")))
        index += 1
    if index >= len(lines):
        raise NotationError(f"expected the column header {COLUMN_HEADER!r}, found the end of the input", *end)
    line = lines[index]
    if not _is_column_header(line):
        number = _row_number(line)
        found = f"row {number}" if number is not None else repr(line.text.strip())
        raise line.error(f"expected the column header {COLUMN_HEADER!r}, found {found}", line.indent)
    _check_column_header(line)
    return index, meta


def _is_column_header(line: _Line) -> bool:
    """Whether the line is meant as the column header (it may still be misaligned)."""
    words = line.text.split(" ")
    return line.text.strip(" ")[:1] == "A" and "A" in words


def _check_column_header(line: _Line) -> None:
    if line.text == COLUMN_HEADER:
        return
    _check_spaces(line)
    for i in range(max(len(line.text), len(COLUMN_HEADER))):
        want, got = COLUMN_HEADER[i : i + 1] or " ", line.char(i)
        if want == got:
            continue
        if want != " ":
            where = line.text.find(want)
            if where >= 0:
                raise line.error(f"column header: expected {want!r} at column {i + 1}, found it at column {where + 1}", where)
            found = "nothing" if got == " " else repr(got)
            raise line.error(f"column header: expected {want!r} at column {i + 1}, found {found}", i)
        if got in COLUMNS:
            expected = COLUMN_HEADER.index(got)
            raise line.error(f"column header: expected {got!r} at column {expected + 1}, found it at column {i + 1}", i)
        raise line.error(f"column header: expected only the letters A to E, found {quote(got)}", i)


def _row_number(line: _Line) -> int | None:
    label = line.text[:ROW_LABEL_END].strip(" ")
    return int(label) if label.isascii() and label.isdigit() else None


def _is_edge_line(line: _Line) -> bool:
    return line.text.lstrip(" ")[:1] in ("-", "+") and _row_number(line) is None


def _check_spaces(line: _Line) -> None:
    """Refuses white space other than the plain space in the grid (it would look aligned)."""
    odd = next((i for i, char in enumerate(line.text) if char.isspace() and char != " "), None)
    if odd is not None:
        raise line.error(f"expected a plain space, found the white space character U+{ord(line.text[odd]):04X}", odd)


def _read_cells(line: _Line, row: int, bricks: set[Edge], edition: Edition) -> list[str]:
    """The codes of one cell line (with their ``*``); adds its ``|`` bricks to ``bricks``."""
    _check_spaces(line)
    text = line.text
    names = [f"{letter}{row + 1}" for letter in COLUMNS]
    first = ROW_LABEL_END  # the column between the row number and column A
    if line.char(first) == "|":
        raise line.error(f"expected a space before {names[0]}, found '|': the garden border never holds a brick", first)
    if line.char(first) != " ":
        found = quote(line.token(first))
        message = f"{names[0]}: expected the code to start at column {cell_column(0) + 1}, found {found} at column {first + 1}"
        raise line.error(message, first)
    codes = []
    for col, plot in enumerate(names):
        start = cell_column(col)
        gap = start + CELL_WIDTH  # the blank column after the cell
        if line.char(start) == " ":
            shifted = next((i for i in range(start, gap + 1) if line.char(i) not in " |"), None)
            if shifted is None:
                found = "the end of the line" if len(text) <= start else "nothing"
                raise line.error(f"{plot}: expected a plot code at column {start + 1} ('.' for an empty plot), found {found}", start)
            raise line.error(
                f"{plot}: expected the code to start at column {start + 1}, found {quote(line.token(shifted))} at column {shifted + 1}",
                shifted,
            )
        if line.char(start) == "|":
            if col == 0:
                raise line.error(f"expected a plot code at column {start + 1}, found '|': the garden border never holds a brick", start)
            where = edge_column(col - 1) + 1
            raise line.error(f"expected '|' at column {where} between {names[col - 1]} and {plot}, found it at column {start + 1}", start)
        token = line.token(start)
        codes.append(_check_code(line, token, plot, start, edition))
        last = col == SIZE - 1
        for i in range(start + len(token), gap + 1 if not last else max(len(text), gap + 1)):
            char = line.char(i)
            if char == " ":
                continue
            if char == "|" and last:
                raise line.error(f"expected nothing after {plot}, found '|': the garden border never holds a brick", i)
            if char == "|":
                where = edge_column(col) + 1
                raise line.error(f"expected '|' at column {where} between {plot} and {names[col + 1]}, found it at column {i + 1}", i)
            if i < gap:
                raise line.error(f"{plot}: expected one plot code, found {quote(line.at(start, gap).strip())}", start)
            if last:
                raise line.error(f"expected the end of the line after {plot}, found {quote(text[i:].strip())}", i)
            raise line.error(f"expected a space at column {i + 1} after {plot}, found {quote(char)}", i)
        if last:
            break
        edge = edge_column(col)
        mark = line.char(edge)
        if mark == "|":
            bricks.add(Edge(plot_at(col, row), plot_at(col + 1, row)))
        elif mark != " ":
            raise line.error(
                f"expected '|' (a brick) or a space at column {edge + 1} between {plot} and {names[col + 1]}, found {quote(mark)}", edge
            )
        before = edge + 1  # the blank column before the next cell
        char = line.char(before)
        if char == "|":
            raise line.error(
                f"expected '|' at column {edge + 1} between {plot} and {names[col + 1]}, found it at column {before + 1}", before
            )
        if char != " ":
            token = line.token(before)
            if _known_code(line.token(before + 1).removesuffix("*"), edition):
                raise line.error(f"expected a space at column {before + 1} before {names[col + 1]}, found {quote(char)}", before)
            message = f"{names[col + 1]}: expected the code to start at column {before + 2}, found {quote(token)} at column {before + 1}"
            raise line.error(message, before)
    return codes


def _known_code(code: str, edition: Edition) -> bool:
    return code in edition.plot_codes


def _check_code(line: _Line, token: str, plot: str, column: int, edition: Edition) -> str:
    code = token.removesuffix("*")
    if _known_code(code, edition):
        return token
    fits = token[:CELL_WIDTH]
    if len(token) > CELL_WIDTH and "*" not in token[CELL_WIDTH:] and _known_code(fits.removesuffix("*"), edition):
        gap = column + CELL_WIDTH
        raise line.error(f"expected a space at column {gap + 1} after {plot}, found {quote(token[CELL_WIDTH])}", gap)
    if code.endswith("*") and _known_code(code.rstrip("*"), edition):
        raise line.error(f"{plot}: expected one '*' after the code (a filled butterfly space), found {quote(token)}", column)
    if code == "":
        raise line.error(f"{plot}: expected a plot code before '*', found {quote(token)}", column)
    if retired := edition.retired_note(code):
        raise line.error(f"{plot}: {quote(code)} is not a code of the {edition.name} edition: {retired}", column)
    known = " ".join(edition.plot_codes)
    raise line.error(f"{plot}: expected a plot code ({known}), found {quote(token)}", column)


def _read_edge_line(line: _Line, row: int, bricks: set[Edge]) -> None:
    """Reads the edge line below row ``row`` (from 0) into ``bricks``."""
    _check_spaces(line)
    text = line.text
    stray = next((i for i, char in enumerate(text) if char not in " -+"), None)
    if stray is not None:
        raise line.error(f"edge line below row {row + 1}: expected '---', '+' or spaces, found {quote(text[stray])}", stray)
    slots = {cell_column(col): col for col in range(SIZE)}

    def under(slot: int) -> str:
        return f"columns {slot + 1} to {slot + CELL_WIDTH} (under {COLUMNS[slots[slot]]})"

    i = 0
    while i < len(text):
        if i in slots:
            col = slots[i]
            mark = line.at(i, i + CELL_WIDTH)
            if mark == "---":
                bricks.add(Edge(plot_at(col, row), plot_at(col, row + 1)))
            elif mark.startswith("-"):
                name = f"{COLUMNS[col]}{row + 1}-{COLUMNS[col]}{row + 2}"
                raise line.error(f"brick {name}: expected '---' at {under(i)}, found {quote(mark.rstrip())}", i)
            elif "-" in mark:
                j = i + mark.index("-")
                raise line.error(f"misaligned brick: expected '---' at {under(i)}, found {quote(line.token(j, ' +'))} at column {j + 1}", j)
            elif "+" in mark:
                j = i + mark.index("+")
                raise line.error(f"expected '---' or spaces at {under(i)}, found '+'", j)
            i += CELL_WIDTH
            continue
        if text[i] == "-":
            if text[i - 1] == "-":
                raise line.error(f"expected a space or '+' at column {i + 1}, found '-': a brick is '---' under one cell", i)
            nearest = min(slots, key=lambda slot: abs(slot - i))
            raise line.error(
                f"misaligned brick: expected '---' at {under(nearest)}, found {quote(line.token(i, ' +'))} at column {i + 1}", i
            )
        i += 1


# --------------------------------------------------------------------------- reading, fast

# What the fast reader leaves to the careful one: other line breaks, tabs and control characters.
_FAST_REFUSED = re.compile(r"[\x00-\x08\x09\x0b-\x1f\x7f-\x9f\r\u2028\u2029]")
# Blank lines, taken all at once (possessive): a line of spaces is never also tried as an edge line
# without bricks, which made the choices multiply, row after row, on a file of space-only lines.
_BLANK = r"(?: *\n)*+"
# A cell is 3 columns: a code of 1 to 3 characters (no space, no '|'), padded with spaces (captured padded).
_CELL = r"([^ |\n]{3}|[^ |\n]{2} |[^ |\n]  )"
_EDGE_SLOT = r"(?:(---)|   )"


@cache
def _fast_garden() -> re.Pattern[str]:
    """One regular expression for a whole well-formed garden (NOTATION.md §Layout), every column fixed.

    Groups: the metadata lines; then each row's five codes (A to D with their padding) and the four
    brick columns between them, each followed (rows 1 to 4) by the five ``---`` slots of an edge line
    (None where there is none).  Compiled on the first garden read, not with ``import papillon``.
    """

    def row(number: int) -> str:
        label = "|".join(f"{' ' * i}{number}{' ' * (ROW_LABEL_END - 1 - i)}" for i in range(ROW_LABEL_END))
        return f"(?:{label}) " + f"{_CELL} ([ |]) " * (SIZE - 1) + f"([^ |\n]{{1,3}}) *\n{_BLANK}"

    tail = ""  # an edge line's trailing slots may be cut off, as trailing spaces are
    for _ in range(SIZE - 1):
        tail = f"(?:   {_EDGE_SLOT}{tail})?"
    edge_line = f"(?> {{{cell_column(0)}}}{_EDGE_SLOT}{tail} *\n{_BLANK})?"  # atomic: read one way only
    rows = edge_line.join(row(number) for number in range(1, SIZE + 1))
    return re.compile(f"{_BLANK}{re.escape(HEADER)} *\n((?:[^\n]*\n)*?){re.escape(COLUMN_HEADER)} *\n{_BLANK}{rows}")


# The pattern's groups: groups[0] is the metadata lines; then each row has 14 groups: code A, the brick
# column between A and B, code B, ..., code E, then the five slots of the edge line under it (rows 1 to 4).
_ROW_GROUPS = (2 * SIZE - 1) + SIZE
_CODES = operator.itemgetter(*[1 + row * _ROW_GROUPS + 2 * col for row in range(SIZE) for col in range(SIZE)])
_BRICK_COLUMNS = [slice(2 + row * _ROW_GROUPS, 1 + row * _ROW_GROUPS + 2 * SIZE - 1, 2) for row in range(SIZE)]
_EDGE_SLOTS = [slice(row * _ROW_GROUPS + 2 * SIZE, (row + 1) * _ROW_GROUPS + 1) for row in range(SIZE - 1)]


def _bricks_by_marks(edges: list[Edge], marks: tuple[str | None, str]) -> dict[tuple[str | None, ...], tuple[Edge, ...]]:
    """For each way a line's brick columns can read (``marks[0]`` where no brick, ``marks[1]`` where one): its bricks."""
    return {
        tuple(marks[here] for here in present): tuple(edge for edge, here in zip(edges, present, strict=True) if here)
        for present in itertools.product((0, 1), repeat=len(edges))
    }


_RIGHT_BRICKS = [_bricks_by_marks([e for e in map(edge_right, plots) if e], (" ", "|")) for plots in ROW_PLOTS]
_LOWER_BRICKS = [_bricks_by_marks([e for e in map(edge_below, plots) if e], (None, "---")) for plots in ROW_PLOTS[:-1]]


def _parse_fast(text: str, edition: Edition) -> Garden | None:
    """The garden of a well-formed text, or None for anything the careful reader must look at.

    Accepts only texts :func:`_parse_checked` accepts, and builds the same garden
    (tests/test_notation.py checks both on every example and on mutations of them).
    """
    if _FAST_REFUSED.search(text):
        return None
    text = text.removeprefix("\ufeff")
    if "#" in text:
        text = "\n".join(raw.split("#", 1)[0] for raw in text.split("\n"))
    match = _fast_garden().fullmatch(text if text.endswith("\n") else text + "\n")
    if not match:
        return None
    groups = match.groups()
    meta = _fast_meta(groups[0])
    if meta is None:
        return None
    cells, starred = _cells_of(edition)
    codes = _CODES(groups)
    try:
        plots = tuple(map(cells.__getitem__, codes))
    except KeyError:
        return None  # a code the edition does not know: the careful reader says which
    bricks = [edge for row, columns in enumerate(_BRICK_COLUMNS) for edge in _RIGHT_BRICKS[row][groups[columns]]]
    bricks += [edge for row, slots in enumerate(_EDGE_SLOTS) for edge in _LOWER_BRICKS[row][groups[slots]]]
    butterflies = frozenset(itertools.compress(range(len(codes)), map(starred.__contains__, codes)))
    return Garden.from_checked(plots, frozenset(bricks), butterflies, meta)


def _fast_meta(lines: str) -> tuple[tuple[str, str], ...] | None:
    """The metadata of the lines between the header and the column header; None unless plainly metadata."""
    meta: dict[str, str] = {}
    for line in lines.split("\n"):
        line = line.rstrip(" ")
        if not line:
            continue
        found = _META.fullmatch(line)
        if not found or found[1] in meta or (line.lstrip(" ")[:1] == "A" and "A" in line.split(" ")):
            return None  # maybe a misaligned column header
        meta[found[1]] = found[2].strip(" ")
    return tuple(meta.items())


@cache  # editions compare by identity
def _cells_of(edition: Edition) -> tuple[dict[str, Cell], frozenset[str]]:
    """Every code the edition knows, with and without its '*' and padded to 3 columns or not: its cell;
    and which of those codes have the '*' (a filled butterfly)."""
    cells = {code: Cell.parse(code) for code in edition.plot_codes}
    written = {f"{code}{star}": cell for code, cell in cells.items() for star in ("", "*")}
    padded = written | {code.ljust(CELL_WIDTH): cell for code, cell in written.items()}
    return padded, frozenset(code for code in padded if "*" in code)


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
    """The garden of a JSON form (a dict, or JSON text); errors name the bad key.

    The whole object is checked before the garden is built, with the same
    codes, bricks and metadata the text notation accepts.
    """
    edition = edition or standard_edition()
    if isinstance(data, str):
        try:
            data = loads_json(data)
        except json.JSONDecodeError as error:
            raise NotationError(f"not valid JSON: {json_reason(error)}", error.lineno, error.colno) from None
    if not isinstance(data, dict):
        raise NotationError(f"JSON garden: expected an object, found {_json_kind(data)}")
    unknown = [key for key in data if key not in _JSON_KEYS]
    if unknown:
        keys = ", ".join(json.dumps(key) for key in _JSON_KEYS)
        raise NotationError(f"JSON garden: expected only the keys {keys}, found {_json_value(unknown[0])}")
    if data.get("format") != FORMAT_NAME:
        raise NotationError(f'JSON garden: expected "format": "{FORMAT_NAME}", found {_json_found(data, "format")}')
    version = data.get("version")
    if type(version) is not int or version != VERSION:  # true and 1.0 equal 1 in Python
        raise NotationError(f'JSON garden: expected "version": {VERSION}, found {_json_found(data, "version")}')
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise NotationError(f'JSON garden: expected "meta" to be an object of strings, found {_json_kind(meta)}')
    for key, value in meta.items():
        if not valid_meta_key(key):
            raise NotationError(
                f"JSON garden: meta: expected a key of letters, digits, '_' or '-' starting with a letter, found {_json_value(key)}"
            )
        if not isinstance(value, str):
            raise NotationError(f"JSON garden: meta[{_json_value(key)}]: expected a string, found {_json_kind(value)}")
        if not valid_meta_value(value):
            message = "expected one line without '#', tabs, control characters or surrounding spaces"
            raise NotationError(f"JSON garden: meta[{_json_value(key)}]: {message}, found {_json_value(value)}")
    plots = data.get("plots")
    if not isinstance(plots, list) or len(plots) != SIZE:
        found = f"{len(plots)} rows" if isinstance(plots, list) else _json_found(data, "plots")
        raise NotationError(f'JSON garden: expected "plots" to be {SIZE} rows of {SIZE} codes, found {found}')
    for r, row in enumerate(plots):
        if not isinstance(row, list) or len(row) != SIZE:
            found = f"{len(row)} codes" if isinstance(row, list) else _json_kind(row)
            raise NotationError(f"JSON garden: plots[{r}] (row {r + 1}): expected {SIZE} codes, found {found}")
        for c, text in enumerate(row):
            if not (isinstance(text, str) and _known_code(text.removesuffix("*"), edition)):
                known = " ".join(edition.plot_codes)
                where = f"plots[{r}][{c}] ({COLUMNS[c]}{r + 1})"
                if isinstance(text, str) and (retired := edition.retired_note(text.removesuffix("*"))):
                    raise NotationError(f"JSON garden: {where}: {text!r} is not a code of the {edition.name} edition: {retired}")
                raise NotationError(f"JSON garden: {where}: expected a plot code ({known}) with an optional '*', found {_json_value(text)}")
    bricks = data.get("bricks", [])
    if not isinstance(bricks, list):
        raise NotationError(f'JSON garden: expected "bricks" to be a list like ["A1-A2"], found {_json_kind(bricks)}')
    edges = []
    for i, name in enumerate(bricks):
        if not isinstance(name, str):
            raise NotationError(f'JSON garden: bricks[{i}]: expected a brick like "A1-A2", found {_json_value(name)}')
        try:
            edges.append(parse_edge(name))
        except ValueError as error:
            raise NotationError(f'JSON garden: bricks[{i}]: expected a brick like "A1-A2", found {_json_value(name)} ({error})') from None
    return Garden.from_codes(plots, edges, meta)


_JSON_KEYS = ("format", "version", "meta", "plots", "bricks")


def _json_value(value: Any) -> str:
    """A value as it would be written in JSON (repr for what JSON cannot hold), cut and escaped as :func:`quote` does."""
    if isinstance(value, str):
        return quote(value, '"')
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return quote(text, "")


def _json_kind(value: Any) -> str:
    kinds = ((bool, "a boolean"), (int, "a number"), (float, "a number"), (str, "a string"), (list, "a list"), (dict, "an object"))
    if value is None:
        return "null"
    for kind, name in kinds:
        if isinstance(value, kind):
            return f"{name} {_json_value(value)}" if kind in (bool, int, float, str) else name
    return type(value).__name__


def _json_found(data: dict[str, Any], key: str) -> str:
    return _json_value(data[key]) if key in data else f"no {json.dumps(key)}"


def load_text(text: str, edition: Edition | None = None) -> Garden:
    """A garden from notation text or JSON text, whichever ``text`` is."""
    if text.lstrip().startswith("{"):
        return from_json(text, edition)
    return parse(text, edition)
