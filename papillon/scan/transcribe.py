"""From readings to a reviewable transcription: the garden, its notation with ``# ?`` marks, and JSON."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papillon.edition import Edition, standard_edition
from papillon.errors import FieldsError
from papillon.garden import BRAMBLE, EMPTY, FIELD, Cell, Garden, flower
from papillon.grid import EDGES, PLOTS, Plot, parse_plot, plot_name
from papillon.notation import format_garden
from papillon.scan.impact import moot_line, weigh_doubts
from papillon.score import compact

if TYPE_CHECKING:
    from papillon.scan.classify import Reading

REVIEW_CONFIDENCE = 0.9
"""Readings less probable than this (0-1) are marked for review (``# ?``) instead of trusted."""
REVIEW_PREFIX = "# ?"
"""How a review mark starts in the notation: a comment, so the text still parses."""
_REVIEW_LINE = re.compile(r"^\s*# \?")
"""A review mark: a line that starts (after any indent) with ``# ?``, one space between; ``#? note`` is a comment."""


def review_marks(text: str) -> list[str]:
    """The review lines (``# ? ...``) left in a notation text: what ``papillon score`` refuses to trust."""
    return [line.strip() for line in text.splitlines() if _REVIEW_LINE.match(line)]


def parse_fields(text: str | None, edition: Edition | None = None) -> dict[Plot, str]:
    """``'B4=po,D2=lb'`` -> {plot: code}; FieldsError (a ValueError) naming the bad entry, or a plot given twice.

    >>> parse_fields("b4=po, D2=lb")
    {16: 'po', 8: 'lb'}
    >>> parse_fields("B4=po,b4=lb")
    Traceback (most recent call last):
    ...
    papillon.errors.FieldsError: plot B4 is given twice
    """
    edition = edition or standard_edition()
    result: dict[Plot, str] = {}
    if not text:
        return result
    for entry in text.split(","):
        name, sep, code = entry.strip().partition("=")
        if not sep:
            raise FieldsError(f"expected PLOT=CODE like B4=po, found {entry.strip()!r}")
        try:
            plot = parse_plot(name)
        except ValueError as error:
            raise FieldsError(str(error)) from None
        code = code.strip()
        if code not in edition.occupant_codes and code not in ("", "-"):
            raise FieldsError(f"{name.strip()}={code}: not a critter or feature ({' '.join(edition.occupant_codes)})")
        if plot in result:  # refused, not the last one kept silently
            raise FieldsError(f"plot {plot_name(plot)} is given twice")
        result[plot] = "" if code == "-" else code
    return result


def review_line(reading: Reading) -> str:
    """``# ? C3: read red (0.62), runner-up purple (0.31)``; an edge's runner-up is ``brick (p)`` or ``none``."""
    second, p2 = reading.runner_up
    runner = "none" if second == "none" else f"{second} ({p2:.2f})"
    return f"{REVIEW_PREFIX} {reading.item}: read {reading.value} ({reading.confidence:.2f}), runner-up {runner}"


@dataclass(frozen=True)
class Transcription:
    """The garden read from a photo and how sure each part is."""

    garden: Garden
    notation: str
    readings: tuple[Reading, ...]
    review: tuple[Reading, ...]
    """Every reading the scanner is unsure of (``review: true`` in ``--json``), asked or not."""
    fields_unknown: tuple[Plot, ...]
    asked: tuple[Reading, ...] = ()
    """The doubts whose answer can change the score, the most consequential first: the ``# ?`` marks."""
    moot: tuple[Reading, ...] = ()
    """The doubts whose answer cannot change the score (not asked; said once in a comment)."""

    @property
    def confidence(self) -> float:
        return sheet_confidence(self.readings)

    @property
    def needs_review(self) -> bool:
        return bool(self.asked)


def sheet_confidence(readings: Iterable[Reading]) -> float:
    """The sheet's confidence: its least sure reading (1.0 when nothing was read)."""
    return min((r.confidence for r in readings), default=1.0)


def transcribe(
    readings: list[Reading],
    *,
    fields: Mapping[Plot, str] | None = None,
    ask: Callable[[Plot], str | None] | None = None,
    header: list[str] | None = None,
    review_confidence: float = REVIEW_CONFIDENCE,
    edition: Edition | None = None,
) -> Transcription:
    """The garden of the readings (plots, then edges, then bubbles, as :func:`classify.read_sheet` gives them).

    Field contents come from ``fields`` (plot -> code), else from ``ask(plot)``
    (a prompt in a terminal), else stay ``F``.  Readings under ``review_confidence`` are doubts; those whose
    answer can change the score under ``edition`` are marked ``# ?``, the most consequential first
    (:func:`papillon.scan.impact.weigh_doubts`), the others are said once in a comment.
    """
    fields = dict(fields or {})
    plots, edges, bubbles = readings[: len(PLOTS)], readings[len(PLOTS) : len(PLOTS) + len(EDGES)], readings[len(PLOTS) + len(EDGES) :]
    cells: list[Cell] = []
    for reading in plots:
        value = reading.value
        if value == "field":
            cells.append(FIELD)
        elif value == "bramble":
            cells.append(BRAMBLE)
        elif value == "empty":
            cells.append(EMPTY)
        else:
            cells.append(flower(value))
    for plot, given in fields.items():
        if not cells[plot].is_field:
            raise FieldsError(f"{plot_name(plot)}={given}: {plot_name(plot)} was read as {plots[plot].value}, not a field")
    unknown: list[Plot] = []
    for plot in PLOTS:
        if not cells[plot].is_field:
            continue
        code: str | None = fields.get(plot)
        if code is None and ask is not None:
            code = ask(plot)
        if code:
            cells[plot] = Cell.parse(code)
        elif code is None:
            unknown.append(plot)
    bricks = frozenset(edge for edge, r in zip(EDGES, edges, strict=True) if r.value == "brick")
    butterflies = frozenset(plot for plot, r in zip(PLOTS, bubbles, strict=True) if r.value == "filled")
    garden = Garden(tuple(cells), bricks, butterflies)
    slots = [i for i, r in enumerate(readings) if r.confidence < review_confidence]
    review = tuple(readings[i] for i in slots)
    weighed = weigh_doubts(*compact(garden), readings, slots, unknown, edition or standard_edition())
    lines = format_garden(garden).splitlines()
    extra = list(header or [])
    if unknown:
        names = ", ".join(plot_name(p) for p in unknown)
        extra.append(f"# fields whose critter or feature was not given: {names} (write each F as what it holds, like po or lb)")
    moot = moot_line(weighed.moot)
    if moot:
        extra.append(f"# {moot}: {', '.join(r.item for r in weighed.moot)}")
    extra += [review_line(r) for r in weighed.asked]
    notation = "\n".join([lines[0], *extra, *lines[1:]]) + "\n"
    return Transcription(garden, notation, tuple(readings), review, tuple(unknown), weighed.asked, weighed.moot)


CALIBRATION_BINS = (0.0, 0.5, 0.7, 0.9, 0.95, 0.99, 0.999, 1.0)
"""Confidence bin edges of the calibration table (the last bin includes 1.0)."""


@dataclass(frozen=True)
class CalibrationBin:
    """Readings whose confidence fell in ``[low, high)`` and how many of them were right."""

    low: float
    high: float
    count: int
    right: int

    @property
    def accuracy(self) -> float:
        """Share of these readings that were right (1.0 for an empty bin)."""
        return self.right / self.count if self.count else 1.0


def calibration_table(scored: Iterable[tuple[float, bool]], edges: tuple[float, ...] = CALIBRATION_BINS) -> list[CalibrationBin]:
    """How often readings were right at each confidence: ``scored`` holds (confidence, right) pairs.

    Calibrated confidences have each bin's accuracy at least its lower edge (a reading at 0.95 is right at
    least 95 % of the time).

    >>> [(b.count, b.right) for b in calibration_table([(0.6, True), (0.65, False), (0.97, True), (1.0, True)])]
    [(0, 0), (2, 1), (0, 0), (0, 0), (1, 1), (0, 0), (1, 1)]
    """
    counts = [0] * (len(edges) - 1)
    right = [0] * (len(edges) - 1)
    for confidence, ok in scored:
        i = next((k for k in range(len(edges) - 2, -1, -1) if confidence >= edges[k]), 0)
        counts[i] += 1
        right[i] += bool(ok)
    return [CalibrationBin(edges[i], edges[i + 1], counts[i], right[i]) for i in range(len(counts))]


def format_calibration(bins: list[CalibrationBin]) -> str:
    """The calibration table as text, one bin a line, flagging bins less accurate than their lower edge.

    >>> print(format_calibration(calibration_table([(0.6, True), (0.65, False), (0.8, False), (0.97, True)], (0.0, 0.5, 0.9, 1.0))))
    confidence     items    right  accuracy
    0.000-0.500        0        0         -
    0.500-0.900        3        1   33.33 %  below 0.5
    0.900-1.000        1        1  100.00 %
    """
    lines = ["confidence     items    right  accuracy"]
    for b in bins:
        accuracy = f"{b.accuracy:8.2%}".replace("%", " %") if b.count else "        -"
        short = f"  below {b.low:g}" if b.count and b.accuracy < b.low else ""
        lines.append(f"{b.low:.3f}-{b.high:.3f} {b.count:8d} {b.right:8d} {accuracy}{short}")
    return "\n".join(lines)
