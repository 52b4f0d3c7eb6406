"""The physical layout of papillon's printed sheets, in millimetres.

One layout drives both the PDF renderer (:mod:`papillon.render.pdf`) and the
photo reader: every box, bubble, edge slot, marker and text position of each
sheet is a frozen value here, and nothing else decides where things go.

Coordinate convention
---------------------
* Unit: millimetres (every field ends in ``_mm``; font sizes end in ``_pt``).
* Origin: the top-left corner of the **frame**, x to the right, **y downwards**
  (as on paper and in an image).
* The frame is :data:`FRAME_W_MM` × :data:`FRAME_H_MM` = 210 × 279.4 mm, the
  intersection of A4 and US Letter, so one PDF prints unscaled on either.  On
  a physical page the frame is centred: :func:`frame_offset_mm` gives where its
  origin lies on a page of each paper size.
* Garden coordinates come from :mod:`papillon.grid` in *grid units* (plot
  ``(col, row)`` is the unit square at ``(col, row)``) and reach millimetres
  through one function, :func:`grid_to_mm`.
* A scanner should not trust the page: it finds the four ArUco markers
  (:attr:`GardenLayout.markers`, ``DICT_4X4_50``, ids 0-3 on the garden side,
  4-7 on the fill side, clockwise from the top-left) and maps the marker
  corners, given here in frame millimetres, onto the photo.

Each layout has an ``id``: the first 8 hex digits of the SHA-256 of its
geometry (the JSON of every number rounded to 0.01 mm).  It is printed on the
sheet and carried in the garden sheet's QR payload (:func:`sheet_payload`).

>>> layout = garden_layout()
>>> len(layout.plots), len(layout.bubbles), len(layout.edge_slots), len(layout.markers)
(25, 25, 40, 4)
>>> layout.plots[0].x_mm, layout.plots[0].y_mm
(32.5, 64.5)
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import random
import typing
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import TypeVar

from papillon.edition import COLOUR_NAMES, COLOURS, Edition
from papillon.grid import EDGES, PLOTS, SIZE, Edge, Plot, parse_plot, plot_col, plot_name, plot_row

# --------------------------------------------------------------------------- paper

FRAME_W_MM = 210.0
"""Width of the frame: A4's width (Letter is 215.9 mm)."""
FRAME_H_MM = 279.4
"""Height of the frame: Letter's height (A4 is 297 mm)."""

PAPERS_MM: Mapping[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Portrait page sizes (width, height) of the supported papers."""

LETTER_TERRITORIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PR", "SV", "NI", "PA", "DO", "BZ"})
"""Locale territories whose default paper is Letter."""


def frame_offset_mm(paper: str) -> tuple[float, float]:
    """Where the frame's origin lies on a portrait page of ``paper`` (the frame is centred).

    >>> frame_offset_mm("a4")
    (0.0, 8.8)
    """
    width, height = PAPERS_MM[paper]
    return round((width - FRAME_W_MM) / 2, 3), round((height - FRAME_H_MM) / 2, 3)


def default_paper(environ: Mapping[str, str]) -> str:
    """The paper of the locale in ``environ`` (LC_ALL, LC_PAPER, LANG): Letter in the Americas that use it, else A4.

    >>> default_paper({"LANG": "en_US.UTF-8"}), default_paper({"LANG": "fr_FR.UTF-8"}), default_paper({})
    ('letter', 'a4', 'a4')
    """
    for name in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(name, "")
        if value:
            territory = value.split(".")[0].split("@")[0].partition("_")[2].upper()
            return "letter" if territory in LETTER_TERRITORIES else "a4"
    return "a4"


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned box: top-left corner, width and height."""

    x_mm: float
    y_mm: float
    w_mm: float
    h_mm: float

    @property
    def centre_mm(self) -> tuple[float, float]:
        return self.x_mm + self.w_mm / 2, self.y_mm + self.h_mm / 2

    @property
    def right_mm(self) -> float:
        return self.x_mm + self.w_mm

    @property
    def bottom_mm(self) -> float:
        return self.y_mm + self.h_mm

    def corners_mm(self) -> tuple[tuple[float, float], ...]:
        """Top-left, top-right, bottom-right, bottom-left (ArUco's corner order)."""
        x, y, r, b = self.x_mm, self.y_mm, self.right_mm, self.bottom_mm
        return (x, y), (r, y), (r, b), (x, b)


@dataclass(frozen=True, slots=True)
class Circle:
    """A bubble: centre and radius."""

    cx_mm: float
    cy_mm: float
    r_mm: float


@dataclass(frozen=True, slots=True)
class Segment:
    """A line from (x1, y1) to (x2, y2)."""

    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float

    @property
    def length_mm(self) -> float:
        return math.hypot(self.x2_mm - self.x1_mm, self.y2_mm - self.y1_mm)


@dataclass(frozen=True, slots=True)
class Text:
    """Where a line of text sits: its anchor point on the baseline, its size and alignment."""

    x_mm: float
    y_mm: float
    size_pt: float
    align: str = "left"
    """``left``, ``centre`` or ``right`` of the anchor."""


@dataclass(frozen=True, slots=True)
class Marker:
    """A square ArUco marker (DICT_4X4_50): 4×4 data cells inside a one-cell black border."""

    id: int
    box: Rect
    bits: tuple[str, ...]
    """Four rows of four data cells, top to bottom; ``'1'`` is a white cell, as in OpenCV."""

    @property
    def cell_mm(self) -> float:
        return self.box.w_mm / (len(self.bits) + 2)


ARUCO_4X4_50_BITS: tuple[tuple[str, ...], ...] = (
    ("1011", "0101", "0011", "0010"),
    ("0000", "1111", "1001", "1010"),
    ("0011", "0011", "0010", "1101"),
    ("1001", "1001", "0100", "0110"),
    ("0101", "0100", "1001", "1110"),
    ("0111", "1001", "1100", "1101"),
    ("1001", "1110", "0010", "1110"),
    ("1100", "0100", "1111", "0010"),
)
"""Ids 0-7 of OpenCV's ``DICT_4X4_50``, made once with ``cv2.aruco.generateImageMarker`` so printing needs no OpenCV."""


# --------------------------------------------------------------------------- shared furniture

MARKER_MM = 12.0
"""Side of a fiducial marker (6 cells of 2 mm)."""
MARKER_INSET_MM = 9.0
"""Gap from the frame edge to a marker: more than any printer's unprintable margin."""
MARGIN_MM = 9.0
"""Nothing but markers lies closer than this to the frame edge."""
TITLE_PT = 24.0
CONTENT_X_MM = 28.0
"""Left edge of the content column (clear of the markers)."""
CONTENT_W_MM = FRAME_W_MM - 2 * CONTENT_X_MM


def _markers(first_id: int) -> tuple[Marker, ...]:
    far_x = FRAME_W_MM - MARKER_INSET_MM - MARKER_MM
    far_y = FRAME_H_MM - MARKER_INSET_MM - MARKER_MM
    spots = ((MARKER_INSET_MM, MARKER_INSET_MM), (far_x, MARKER_INSET_MM), (far_x, far_y), (MARKER_INSET_MM, far_y))
    return tuple(
        Marker(first_id + i, Rect(round(x, 3), round(y, 3), MARKER_MM, MARKER_MM), ARUCO_4X4_50_BITS[first_id + i])
        for i, (x, y) in enumerate(spots)
    )


def _layout_id(value: object) -> str:
    data = asdict(value)  # type: ignore[call-overload]
    data.pop("id", None)

    def rounded(v: object) -> object:
        if isinstance(v, float):
            return round(v, 2)
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [rounded(x) for x in v]
        return v

    text = json.dumps(rounded(data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


# --------------------------------------------------------------------------- the garden sheet

PLOT_PITCH_MM = 30.0
"""One grid unit: distance between the left edges of two neighbouring plots."""
PLOT_GAP_MM = 5.0
"""The path between two plots, where the edge slot (brick) lies.  Release 3 widened it from 3 mm (plots kept their
25 mm): felt coloured past a plot's outline stops short of the brick line, so spilled ink is not taken for a brick
or flagged as one (photogen3 development seeds 100000-100039: edges flagged for spill fell by half)."""
PLOT_MM = PLOT_PITCH_MM - PLOT_GAP_MM
"""Side of a plot box."""
GARDEN_MM = SIZE * PLOT_PITCH_MM
GARDEN_X_MM = (FRAME_W_MM - GARDEN_MM) / 2
"""Left edge of the garden (grid x = 0)."""
GARDEN_Y_MM = 62.0
"""Top edge of the garden (grid y = 0)."""
BUBBLE_R_MM = 3.4
"""Radius of a butterfly bubble."""
BUBBLE_INSET_MM = 5.2
"""From a plot's top and right sides to its bubble's centre."""
ROUND_R_MM = 4.6
ROUND_TRACK_MM = (52.0, 175.0)
"""Where the round track runs (frame x, mm): where release 2 put it, kept by release 3, so that a sheet's round count
is told by its track (a QR code unreadable) whatever the release."""
ROUND_PITCH_MM = 12.5
COLOUR_KEY_R_MM = 6.0
QR_MM = 27.0
"""Side of the QR code's modules area (a quiet zone of 4 modules around it is kept white)."""
RULER_MM = 50.0
RULER_TICKS_MM = (1.0, 1.8, 2.6)
"""Lengths of the ruler's ticks: every millimetre, every 5 mm, every 10 mm."""
NAME_PT = 13.0
"""Size of a name written on a player line."""
NAME_INSET_MM = 2.0
"""From the start of a player line to the name written on it."""
NAME_RISE_MM = 1.2
"""From a player line up to the baseline of the name written on it."""
HINT_GAP_MM = 4.0
"""From a heading's baseline down to its hint line."""
TITLE_ICON_GAP_MM = 7.0
"""From either end of the title to the centre of its butterfly."""
TITLE_ICON_RISE_MM = 2.8
"""From the title's baseline up to its butterflies' centres."""
TITLE_ICON_R_MM = 3.2
HEADING_ICON_GAP_MM = 4.0
"""From the end of a heading to the centre of the icon after it."""
HEADING_ICON_RISE_MM = 1.6
HEADING_ICON_R_MM = 2.6
CAPTION_ICON_R_MM = 1.3
"""A small icon in a line of text (the rondel's clockwise arrow, the cut line's scissors)."""
CAPTION_ICON_GAP_MM = 1.0
"""Between a line of text and the small icon after it."""
CAPTION_ICON_RISE_MM = 0.9
"""From a small text's baseline up to the centre of its icon."""
PLOT_CORNER_MM = 2.0
"""Corner radius of a plot box (and of the score panel)."""
GARDEN_CORNER_MM = 3.0
"""Corner radius of the garden's border."""
TOTAL_BOX_CORNER_MM = 1.5
PLOT_ICON_R_MM = 7.0
"""Size of a critter or feature icon in a rendered field."""
PLOT_ICON_OFFSET_MM = (-1.5, 1.5)
"""From a plot's centre to its critter or feature icon (left and down, clear of the bubble)."""
FLOWER_R_MM = 8.5
"""Size of a stamped flower in a rendered plot."""
FLOWER_OFFSET_MM = (-1.2, 1.6)
"""From a plot's centre to its stamped flower."""
PLOT_CAPTION_SMALL_PT = 5.5
"""A long plot caption (12 characters or more) is set at this size instead of its :class:`Text`'s."""
REGISTRATION_R_MM = 0.7
"""Radius of a registration dot: small enough to sit in a path crossing, clear of every slot's end (1.5 mm on a 3 mm
path, 1.8 mm on 5 mm)."""
REGISTRATION_OUT_MM = 3.0
"""From the garden's border to the registration dots around it (clear of the border line and the labels)."""
BRICK_MM = 2.6
"""Thickness of a drawn brick edging (a little less than release 2's 3 mm path; half of release 3's)."""
BRICK_OVERHANG_MM = 1.2
"""How far a drawn brick runs past each end of its edge slot, so a ring of bricks looks closed."""
SCORE_PANEL_ROWS = 4
"""Lines per column of the score panel (two columns)."""
SCORE_PANEL_INSET_MM = 4.0
"""From the score panel's sides to its text."""


def _name_on(line: Segment) -> Text:
    """Where a name written on ``line`` sits."""
    return Text(line.x1_mm + NAME_INSET_MM, line.y1_mm - NAME_RISE_MM, NAME_PT)


def grid_to_mm(x: float, y: float) -> tuple[float, float]:
    """The one map from garden grid units (:mod:`papillon.grid`) to frame millimetres.

    >>> grid_to_mm(0, 0), grid_to_mm(5, 5)
    ((30.0, 62.0), (180.0, 212.0))
    """
    return GARDEN_X_MM + x * PLOT_PITCH_MM, GARDEN_Y_MM + y * PLOT_PITCH_MM


def _registration_dots() -> tuple[Circle, ...]:
    """The 16 inner path crossings, then 4 dots per side at the grid lines outside the border, then the 4 corners.

    A bowed or curled sheet moves the middle of the grid away from where the corner markers put it;
    dots spread over the grid pin each region down.
    """
    inner = [grid_to_mm(i, j) for j in range(1, SIZE) for i in range(1, SIZE)]
    out = REGISTRATION_OUT_MM
    x0, y0 = grid_to_mm(0, 0)
    x5, y5 = grid_to_mm(SIZE, SIZE)
    sides = []
    for k in range(1, SIZE):
        x, y = grid_to_mm(k, k)
        sides += [(x, y0 - out), (x5 + out, y), (x, y5 + out), (x0 - out, y)]
    corners = [(x0 - out, y0 - out), (x5 + out, y0 - out), (x5 + out, y5 + out), (x0 - out, y5 + out)]
    return tuple(Circle(round(x, 3), round(y, 3), REGISTRATION_R_MM) for x, y in inner + sides + corners)


def _plot_box(plot: Plot) -> Rect:
    x, y = grid_to_mm(plot_col(plot), plot_row(plot))
    return Rect(x + PLOT_GAP_MM / 2, y + PLOT_GAP_MM / 2, PLOT_MM, PLOT_MM)


def _bubble(plot: Plot) -> Circle:
    box = _plot_box(plot)
    return Circle(box.right_mm - BUBBLE_INSET_MM, box.y_mm + BUBBLE_INSET_MM, BUBBLE_R_MM)


def _edge_slot(edge: Edge) -> Segment:
    (x1, y1), (x2, y2) = (grid_to_mm(*p) for p in edge.segment())
    # Shorten by half a path at each end: the slot runs along the plot sides, not across crossings.
    dx, dy = (x2 - x1) / PLOT_PITCH_MM, (y2 - y1) / PLOT_PITCH_MM
    trim = PLOT_GAP_MM / 2
    return Segment(x1 + dx * trim, y1 + dy * trim, x2 - dx * trim, y2 - dy * trim)


@dataclass(frozen=True)
class GardenLayout:
    """Side A: everything a printer draws and a scanner samples."""

    frame_mm: tuple[float, float]
    markers: tuple[Marker, ...]
    """Ids 0 (top-left), 1 (top-right), 2 (bottom-right), 3 (bottom-left)."""
    title: Text
    subtitle: Text
    player_label: Text
    player_line: Segment
    total_label: Text
    total_box: Rect
    round_label: Text
    rounds: tuple[Circle, ...]
    """Round 1 first."""
    garden: Rect
    """The whole 5×5 grid, grid (0, 0) to (5, 5)."""
    plots: tuple[Rect, ...]
    """Indexed by plot (0 = A1, row by row, as in :mod:`papillon.grid`)."""
    bubbles: tuple[Circle, ...]
    """The butterfly bubble of each plot, indexed by plot."""
    edge_slots: tuple[Segment, ...]
    """Where a brick is drawn, indexed like :data:`papillon.grid.EDGES`."""
    column_labels: tuple[Text, ...]
    row_labels: tuple[Text, ...]
    colour_key_label: Text
    colour_key: tuple[Circle, ...]
    """One circle per flower colour, in :data:`papillon.edition.COLOUR_NAMES` order."""
    colour_key_names: tuple[Text, ...]
    qr: Rect
    """The QR code's modules (without its quiet zone)."""
    id_text: Text
    ruler: Segment
    """A 50 mm bar to check the print scale."""
    note: Text
    score_panel: Rect
    """Where a rendered garden lists its points (the print note and ruler area)."""
    footer: Text
    player_text: Text
    """Where a player's name is written on :attr:`player_line` (``--player``, a rendered garden's ``player:``)."""
    bonus_labels: tuple[Text, ...]
    """Two lines after the last round space: "gnome bonus" and which rounds."""
    colour_key_hints: tuple[Text, ...]
    """Two lines under :attr:`colour_key_label` ("stamp each colour", "once before play")."""
    colour_key_words: tuple[Text, ...]
    """The colour's name after each :attr:`colour_key_names` letter."""
    plot_captions: tuple[Text, ...]
    """Under each plot's icon, indexed by plot: a rendered field's critter or feature name."""
    ruler_label: Text
    """The line under :attr:`note` ("This bar must measure 50 mm")."""
    ruler_numbers: tuple[Text, ...]
    """The numbers 0, 10, ... 50 under the ruler's long ticks."""
    ruler_unit: Text
    drawing_key: tuple[Text, ...]
    """Two lines under the ruler: how to draw fields, critters, brambles, butterflies and bricks."""
    score_title: Text
    """In :attr:`score_panel`: the heading, the total and the key of a rendered garden's points."""
    score_total: Text
    score_lines: tuple[Text, ...]
    """Category names in the score panel: two columns of :data:`SCORE_PANEL_ROWS`, column by column."""
    score_values: tuple[Text, ...]
    """The points of each :attr:`score_lines` entry (right-aligned)."""
    score_key: Text
    id: str = field(default="")
    registration: tuple[Circle, ...] = ()
    """Small black dots at the grid's inner crossings and around its border (empty on release 1 sheets):
    the scanner finds them to map each region of the grid through a local fit (:mod:`papillon.scan.detect`)."""

    def edge_slot(self, edge: Edge) -> Segment:
        return self.edge_slots[EDGES.index(edge)]

    @property
    def path_mm(self) -> float:
        """The path between two neighbouring plots, where a brick lies: 3 mm on releases 1-2, 5 mm from release 3."""
        return round(self.plots[1].x_mm - self.plots[0].right_mm, 3)


@cache
def garden_layout(rounds: int = 10) -> GardenLayout:
    """The garden sheet's layout (the round track has ``rounds`` spaces)."""
    centre_x = FRAME_W_MM / 2
    # The round track runs from after its label toward the garden's right edge, centred there.
    left, right = ROUND_TRACK_MM
    pitch = min(ROUND_PITCH_MM, (right - left - 2 * ROUND_R_MM) / max(rounds - 1, 1))
    radius = min(ROUND_R_MM, pitch * 0.4)
    first_x = left + (right - left - (rounds - 1) * pitch - 2 * radius) / 2 + radius
    key_pitch = 28.0
    key_first = 76.0
    garden = Rect(GARDEN_X_MM, GARDEN_Y_MM, GARDEN_MM, GARDEN_MM)
    band_y = garden.bottom_mm + 24.0
    player_line = Segment(GARDEN_X_MM + 15.0, 38.6, GARDEN_X_MM + 95.0, 38.6)
    round_spaces = tuple(Circle(round(first_x + i * pitch, 3), 50.0, radius) for i in range(rounds))
    last = round_spaces[-1]
    key_label = Text(GARDEN_X_MM, garden.bottom_mm + 10.5, 9.0)
    key_names = tuple(
        Text(key_first + i * key_pitch + COLOUR_KEY_R_MM + 1.5, garden.bottom_mm + 13.2, 9.0) for i in range(len(COLOUR_NAMES))
    )
    plots = tuple(_plot_box(p) for p in PLOTS)
    ruler = Segment(GARDEN_X_MM, band_y + 17.0, GARDEN_X_MM + RULER_MM, band_y + 17.0)
    note = Text(GARDEN_X_MM, band_y + 4.0, 8.5)
    panel = Rect(GARDEN_X_MM, band_y - 4.0, garden.w_mm - QR_MM - 6.0, QR_MM + 4.0)
    score_x, score_y = panel.x_mm + SCORE_PANEL_INSET_MM, panel.y_mm + 6.5
    score_half = (panel.w_mm - 2 * SCORE_PANEL_INSET_MM) / 2
    score_spots = [
        (score_x + col * (score_half + SCORE_PANEL_INSET_MM), score_y + 6.0 + row * 4.6)
        for col in range(2)
        for row in range(SCORE_PANEL_ROWS)
    ]
    layout = GardenLayout(
        frame_mm=(FRAME_W_MM, FRAME_H_MM),
        markers=_markers(0),
        title=Text(centre_x, 21.0, TITLE_PT, "centre"),
        subtitle=Text(centre_x, 27.0, 8.5, "centre"),
        player_label=Text(GARDEN_X_MM, 38.0, 11.0),
        player_line=player_line,
        total_label=Text(garden.right_mm - 23.0, 38.0, 11.0, "right"),
        total_box=Rect(garden.right_mm - 21.0, 31.0, 21.0, 10.0),
        round_label=Text(GARDEN_X_MM, 51.2, 11.0),
        rounds=round_spaces,
        garden=garden,
        plots=plots,
        bubbles=tuple(_bubble(p) for p in PLOTS),
        edge_slots=tuple(_edge_slot(e) for e in EDGES),
        column_labels=tuple(Text(grid_to_mm(c + 0.5, 0)[0], GARDEN_Y_MM - 1.6, 12.0, "centre") for c in range(SIZE)),
        row_labels=tuple(Text(GARDEN_X_MM - 3.0, grid_to_mm(0, r + 0.5)[1] + 1.5, 12.0, "right") for r in range(SIZE)),
        colour_key_label=key_label,
        colour_key=tuple(Circle(key_first + i * key_pitch, garden.bottom_mm + 12.0, COLOUR_KEY_R_MM) for i in range(len(COLOUR_NAMES))),
        colour_key_names=key_names,
        qr=Rect(garden.right_mm - QR_MM, band_y, QR_MM, QR_MM),
        id_text=Text(garden.right_mm, FRAME_H_MM - MARKER_INSET_MM - 2.0, 7.0, "right"),
        ruler=ruler,
        note=note,
        score_panel=panel,
        footer=Text(GARDEN_X_MM, FRAME_H_MM - MARKER_INSET_MM - 2.0, 7.0),
        player_text=_name_on(player_line),
        bonus_labels=(
            Text(last.cx_mm + last.r_mm + 2.0, last.cy_mm - 0.6, 6.5),
            Text(last.cx_mm + last.r_mm + 2.0, last.cy_mm + 2.4, 6.5),
        ),
        colour_key_hints=(
            Text(key_label.x_mm, key_label.y_mm + HINT_GAP_MM, 7.5),
            Text(key_label.x_mm, key_label.y_mm + 7.2, 7.5),
        ),
        colour_key_words=tuple(Text(name.x_mm + 4.0, name.y_mm, 8.0) for name in key_names),
        plot_captions=tuple(Text(box.centre_mm[0], box.bottom_mm - 1.6, 6.5, "centre") for box in plots),
        ruler_label=Text(note.x_mm, note.y_mm + HINT_GAP_MM, note.size_pt),
        ruler_numbers=tuple(Text(ruler.x1_mm + mm, ruler.y1_mm + 3.0, 6.0, "centre") for mm in range(0, int(RULER_MM) + 1, 10)),
        ruler_unit=Text(ruler.x2_mm + 2.0, ruler.y1_mm + 0.4, 7.0),
        drawing_key=(Text(note.x_mm, ruler.y1_mm + 8.5, 7.0), Text(note.x_mm, ruler.y1_mm + 11.6, 7.0)),
        score_title=Text(score_x, score_y, 11.0),
        score_total=Text(panel.right_mm - SCORE_PANEL_INSET_MM, score_y, 13.0, "right"),
        score_lines=tuple(Text(x, y, 8.5) for x, y in score_spots),
        score_values=tuple(Text(x + score_half - SCORE_PANEL_INSET_MM, y, 8.5, "right") for x, y in score_spots),
        score_key=Text(score_spots[-1][0], score_spots[-1][1], 6.5),
        registration=_registration_dots(),
    )
    return _with_id(layout)


_L = TypeVar("_L", "GardenLayout", "FillLayout", "ScorePadLayout")


def _with_id(layout: _L) -> _L:
    object.__setattr__(layout, "id", _layout_id(layout))
    return layout


# --------------------------------------------------------------------------- released garden layouts

GARDEN_RELEASE = 3
"""The released garden layout this papillon prints; every release stays readable (``papillon/layouts/garden-N.json``)."""
GARDEN_RELEASES = (1, 2, 3)
"""Release 1: sheets printed before local registration (no registration dots).  Release 2: registration dots,
"a tick counts" on the key, the 2-up ruler and name fitting.  Release 3: a 5 mm path between plots (3 mm before),
so the garden is 150 mm wide and 10 mm taller; the band under it (ruler, score panel, QR code) starts 4 mm closer
to the garden, 6 mm lower on the page."""
RELEASE_ROUNDS = range(1, 31)
"""Round-track lengths whose garden layouts a release records (each has its own id)."""
RELEASE_TEMPLATE_ROUNDS = 10
"""The round-track length of the layout a release file stores in full (see :func:`released_garden_layouts`)."""


def garden_release_json(release: int = GARDEN_RELEASE) -> str:
    """The data file of the current code's garden layout, to store as ``papillon/layouts/garden-<release>.json``.

    ``ids`` maps the id of each round-track length to that length; ``layout`` is the full
    :data:`RELEASE_TEMPLATE_ROUNDS`-round layout.  The layouts of other lengths differ from it only in
    the round track and its labels, which the scanner does not read.
    """
    data = {
        "release": release,
        "sheet": "garden",
        "ids": {garden_layout(r).id: r for r in RELEASE_ROUNDS},
        "layout": asdict(garden_layout(RELEASE_TEMPLATE_ROUNDS)),
    }
    return json.dumps(data, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class Released:
    """A garden layout as printed under one id: its release and its round count."""

    layout: GardenLayout
    release: int
    rounds: int


@cache
def released_garden_layouts() -> dict[str, Released]:
    """Layout id -> the released garden layout printed under it, read from the frozen data files.

    The scanner looks a sheet's id up here, never in the code that draws today's sheets, so a sheet
    stays readable whatever changes after it was printed.  For a round count other than the stored one,
    the layout is the stored one under that id (the round track is the only difference).
    """
    from importlib import resources

    known: dict[str, Released] = {}
    for release in GARDEN_RELEASES:
        text = resources.files("papillon").joinpath("layouts", f"garden-{release}.json").read_text(encoding="utf-8")
        data = json.loads(text)
        template = _load(GardenLayout, data["layout"])
        assert isinstance(template, GardenLayout)
        for layout_id, rounds in data["ids"].items():
            known[layout_id] = Released(dataclasses.replace(template, id=layout_id), release, rounds)
    return known


def _load(kind: object, value: object) -> object:
    """``value`` (parsed JSON) as ``kind``: a dataclass, a tuple type, float, int or str."""
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        assert isinstance(value, dict)
        names = {f.name for f in dataclasses.fields(kind)}
        return kind(**{k: _load(hints[k], v) for k, v in value.items() if k in names})
    origin = typing.get_origin(kind)
    if origin is tuple:
        args = typing.get_args(kind)
        assert isinstance(value, list)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(args[0], v) for v in value)
        return tuple(_load(a, v) for a, v in zip(args, value, strict=True))
    if kind is float:
        assert isinstance(value, int | float)
        return float(value)
    return value


# --------------------------------------------------------------------------- the fill sheet


@dataclass(frozen=True)
class Column:
    """A labelled column of bubbles filled bottom-up (``bubbles[0]`` is the bottom one)."""

    key: str
    """A critter code or a colour name."""
    bubbles: tuple[Circle, ...]
    icons: tuple[str, ...]
    """The icon of each bubble (``''`` for none); names as in the edition's ``TRACK_ICONS`` or a critter code."""
    label: Text
    sublabel: Text


@dataclass(frozen=True)
class FillLayout:
    """Side B, drawn from the edition's ``fill`` and ``critters`` data."""

    frame_mm: tuple[float, float]
    markers: tuple[Marker, ...]
    """Ids 4-7, so a scanner tells the sides apart."""
    title: Text
    subtitle: Text
    player_label: Text
    player_line: Segment
    critter_heading: Text
    ladders: tuple[Column, ...]
    flower_heading: Text
    tracks: tuple[Column, ...]
    rondel_heading: Text
    rondel: Circle
    petals: tuple[Circle, ...]
    """The rondel's petals, clockwise from the top."""
    petal_icons: tuple[str, ...]
    caterpillar_heading: Text
    caterpillar: tuple[Circle, ...]
    """Space 1 first."""
    gnome_spaces: tuple[int, ...]
    gnome_heading: Text
    gnome_lines: tuple[Text, ...]
    legend: Text
    id_text: Text
    footer: Text
    player_text: Text
    """Where a player's name is written on :attr:`player_line`."""
    critter_hint: Text
    """The hint line under each heading."""
    flower_hint: Text
    rondel_hint: Text
    rondel_caption: Text
    """Under the rondel: "fill clockwise", followed by a clockwise-arrow icon."""
    caterpillar_hint: Text
    caterpillar_icon: Circle
    """A caterpillar drawn before space 1."""
    caterpillar_numbers: tuple[Text, ...]
    """Under each space, for the number of a gnome space; empty when the rows are too close for it."""
    gnome_bullets: tuple[Circle, ...]
    """A dot before each of :attr:`gnome_lines`."""
    id: str = field(default="")


FILL_BUBBLE_R_MM = 4.3
FILL_TOP_MM = 50.0
FILL_COLUMNS_H_MM = 104.0
"""Height of the area of ladders and flower tracks."""
CATERPILLAR_PER_ROW = 12
LADDER_PITCH_MM = 21.0
"""Between two critter ladders: room for a name like "Bumblebee" at the labels' full size."""
FLOWER_TRACKS_DX_MM = 57.0
"""From the first critter ladder to the first flower track."""
GNOME_LINES_PER_COLUMN = 5
LADDER_LABEL_GAP_MM = 1.0
"""The least gap between two ladder labels: a longer critter name is set smaller."""
LADDER_LABEL_MAX_MM = 30.0
"""The widest ladder label when there is a single ladder."""
CATERPILLAR_NUMBER_ROOM_MM = 13.0
"""The least distance between caterpillar rows that leaves room for a number under a gnome space."""
LEGEND_ICON_R_MM = 2.4
"""Size of an icon in the fill sheet's legend line."""
LEGEND_ICON_DX_MM = 2.5
"""From the start of a legend item to its icon's centre."""
LEGEND_TEXT_DX_MM = 6.0
"""From the start of a legend item to its words."""
LEGEND_GAP_MM = 4.0
"""After a legend item's words, before the next item."""
LEGEND_ICON_RISE_MM = 1.0


def _caterpillar_number(spaces: Sequence[Circle], i: int) -> Text:
    """Where space ``i``'s number goes: under it, or beside it (outwards) where the track turns down to the next row."""
    space = spaces[i]
    turns_down = i + 1 < len(spaces) and spaces[i + 1].cy_mm > space.cy_mm
    if not turns_down:
        return Text(space.cx_mm, space.cy_mm + space.r_mm + 2.8, 6.5, "centre")
    outward = 1 if i == 0 or spaces[i - 1].cx_mm < space.cx_mm else -1
    return Text(space.cx_mm + outward * (space.r_mm + 1.0), space.cy_mm + space.r_mm + 1.2, 6.5, "left" if outward > 0 else "right")


def fill_layout(edition: Edition) -> FillLayout:
    """The fill sheet's layout: counts and icons come from ``edition``."""
    fill = edition.fill
    ladders = tuple((c.code, c.ladder) for c in edition.critters.values())
    return _fill_layout(ladders, fill.flower_track, fill.rondel, fill.caterpillar_track, fill.caterpillar_gnome_spaces, len(edition.gnome))


@cache
def _fill_layout(
    ladders: tuple[tuple[str, int], ...],
    flower_track: tuple[str, ...],
    rondel: tuple[str, ...],
    track_length: int,
    gnome_spaces: tuple[int, ...],
    gnome_options: int,
) -> FillLayout:
    centre_x = FRAME_W_MM / 2
    tallest = max([n for _, n in ladders] + [len(flower_track)])
    column_top, column_bottom = FILL_TOP_MM + 8.0, FILL_TOP_MM + FILL_COLUMNS_H_MM
    pitch = min(13.0, (column_bottom - column_top) / tallest)
    radius = min(FILL_BUBBLE_R_MM, pitch * 0.42)

    def column(key: str, x: float, icons: tuple[str, ...], label_size: float = 10.0) -> Column:
        bubbles = tuple(Circle(x, round(column_bottom - radius - i * pitch, 3), radius) for i in range(len(icons)))
        return Column(key, bubbles, icons, Text(x, column_bottom + 6.0, label_size, "centre"), Text(x, column_bottom + 10.0, 7.5, "centre"))

    left = CONTENT_X_MM + 6.0
    # Three ladders fill the critter area; more squeeze into it (with smaller labels).
    ladder_pitch = LADDER_PITCH_MM if len(ladders) <= 3 else 2 * LADDER_PITCH_MM / (len(ladders) - 1)
    label_pt = 10.0 if len(ladders) <= 3 else 7.0
    ladder_columns = tuple(
        column(code, round(left + i * ladder_pitch, 3), ("",) * (height - 1) + (code,), label_pt)
        for i, (code, height) in enumerate(ladders)
    )
    tracks_left = left + FLOWER_TRACKS_DX_MM
    track_pitch = 14.5
    flower_columns = tuple(column(name, tracks_left + i * track_pitch, flower_track) for i, name in enumerate(COLOUR_NAMES))
    rondel_centre_x = FRAME_W_MM - CONTENT_X_MM - 14.0
    rondel_circle = Circle(rondel_centre_x, column_top + 34.0, 15.0)
    petals = []
    petal_r = min(4.8, 8.8 * math.sin(math.pi / max(len(rondel), 2)) * 0.95)
    for i in range(len(rondel)):
        angle = -math.pi / 2 + 2 * math.pi * i / len(rondel)
        petals.append(
            Circle(
                round(rondel_centre_x + 8.8 * math.cos(angle), 3), round(rondel_circle.cy_mm + 8.8 * math.sin(angle), 3), round(petal_r, 3)
            )
        )
    cat_top = column_bottom + 26.0
    # 12 spaces a row, in at most 3 rows: a longer track gets more, smaller spaces per row.
    per_row = max(CATERPILLAR_PER_ROW, math.ceil(track_length / 3))
    cat_pitch = CONTENT_W_MM / per_row
    cat_rows = math.ceil(track_length / per_row)
    row_pitch = 14.0 if cat_rows <= 2 else 11.0
    caterpillar = []
    for i in range(track_length):
        row, pos = divmod(i, per_row)
        # A caterpillar winds back and forth, so each space touches the next.
        slot = pos if row % 2 == 0 else per_row - 1 - pos
        caterpillar.append(
            Circle(round(CONTENT_X_MM + (slot + 0.5) * cat_pitch, 3), round(cat_top + row * row_pitch, 3), min(cat_pitch, row_pitch) * 0.4)
        )
    gnome_top = cat_top + (cat_rows - 1) * row_pitch + 14.0
    player_line = Segment(CONTENT_X_MM + 22.0, 38.6, CONTENT_X_MM + 102.0, 38.6)
    critter_heading = Text(left - radius, FILL_TOP_MM, 12.0)
    flower_heading = Text(tracks_left - radius, FILL_TOP_MM, 12.0)
    rondel_heading = Text(rondel_centre_x, FILL_TOP_MM, 12.0, "centre")
    caterpillar_heading = Text(CONTENT_X_MM, cat_top - 9.0, 12.0)
    gnome_lines = tuple(
        Text(
            CONTENT_X_MM + 4.0 + (i // GNOME_LINES_PER_COLUMN) * CONTENT_W_MM / 2,
            gnome_top + 6.0 + (i % GNOME_LINES_PER_COLUMN) * 4.6,
            9.5,
        )
        for i in range(gnome_options)
    )
    rows_y = sorted({space.cy_mm for space in caterpillar})
    roomy = all(b - a >= CATERPILLAR_NUMBER_ROOM_MM for a, b in itertools.pairwise(rows_y))
    first_space = caterpillar[0] if caterpillar else Circle(CONTENT_X_MM, cat_top, 0.0)
    layout = FillLayout(
        frame_mm=(FRAME_W_MM, FRAME_H_MM),
        markers=_markers(4),
        title=Text(centre_x, 21.0, TITLE_PT, "centre"),
        subtitle=Text(centre_x, 27.0, 8.5, "centre"),
        player_label=Text(CONTENT_X_MM + 7.0, 38.0, 11.0),
        player_line=player_line,
        critter_heading=critter_heading,
        ladders=ladder_columns,
        flower_heading=flower_heading,
        tracks=flower_columns,
        rondel_heading=rondel_heading,
        rondel=rondel_circle,
        petals=tuple(petals),
        petal_icons=rondel,
        caterpillar_heading=caterpillar_heading,
        caterpillar=tuple(caterpillar),
        gnome_spaces=gnome_spaces,
        gnome_heading=Text(CONTENT_X_MM, gnome_top, 12.0),
        gnome_lines=gnome_lines,
        legend=Text(centre_x, FRAME_H_MM - 30.0, 8.0, "centre"),
        id_text=Text(FRAME_W_MM - CONTENT_X_MM, FRAME_H_MM - MARKER_INSET_MM - 2.0, 7.0, "right"),
        footer=Text(centre_x, FRAME_H_MM - MARKER_INSET_MM - 2.0, 7.0, "centre"),
        player_text=_name_on(player_line),
        critter_hint=Text(critter_heading.x_mm, critter_heading.y_mm + HINT_GAP_MM, 6.5),
        flower_hint=Text(flower_heading.x_mm, flower_heading.y_mm + HINT_GAP_MM, 6.5),
        rondel_hint=Text(rondel_heading.x_mm, rondel_heading.y_mm + HINT_GAP_MM, 6.5, "centre"),
        rondel_caption=Text(rondel_circle.cx_mm, rondel_circle.cy_mm + rondel_circle.r_mm + 5.0, 7.5, "centre"),
        caterpillar_hint=Text(caterpillar_heading.x_mm + 38.0, caterpillar_heading.y_mm, 7.0),
        caterpillar_icon=Circle(first_space.cx_mm - first_space.r_mm - 5.0, first_space.cy_mm, 3.0),
        caterpillar_numbers=tuple(_caterpillar_number(caterpillar, i) for i in range(len(caterpillar))) if roomy else (),
        gnome_bullets=tuple(Circle(spot.x_mm - 2.5, spot.y_mm - 1.1, 0.6) for spot in gnome_lines),
    )
    return _with_id(layout)


# --------------------------------------------------------------------------- the score pad


@dataclass(frozen=True)
class ScoreTable:
    """One game's table: a header row, one row per player, columns of :data:`papillon.score.CATEGORIES` and total."""

    title: Text
    header: tuple[Rect, ...]
    rows: tuple[tuple[Rect, ...], ...]
    """``rows[i][0]`` is the player's name cell, then one cell per category, then the total."""
    date: Text
    """The "date ____" line after the title."""
    player_heading: Text
    """The word "Player" in ``header[0]``."""
    heading_lines: tuple[tuple[Text, ...], ...]
    """For ``header[1:]``: the lines of each column's title (:data:`SCORE_HEADING_LINES`, top first)."""
    heading_hints: tuple[Text, ...]
    """For ``header[1:]``: the small line at the bottom of each header cell (how it scores)."""
    names: tuple[Text, ...]
    """Where a player's name is written in each row's name cell."""


@dataclass(frozen=True)
class ScorePadLayout:
    frame_mm: tuple[float, float]
    title: Text
    tables: tuple[ScoreTable, ...]
    id_text: Text
    footer: Text
    id: str = field(default="")


SCORE_ROWS = 6
SCORE_TABLES = 3
SCORE_ROW_MM = 8.2
SCORE_HEADER_MM = 13.0
SCORE_NAME_MM = 46.0
SCORE_NAME_PAD_MM = 2.0
"""From a name cell's sides to the name written in it."""
SCORE_HEADING_LINES = 2
"""Lines of a column title in a score table's header."""


@cache
def score_pad_layout(categories: int = 7, rows: int = SCORE_ROWS) -> ScorePadLayout:
    """The score pad: :data:`SCORE_TABLES` games per page, ``rows`` players each."""
    width = FRAME_W_MM - 2 * 16.0
    cell = (width - SCORE_NAME_MM) / (categories + 1)
    table_h = 8.0 + SCORE_HEADER_MM + rows * SCORE_ROW_MM
    tables = []
    top = 34.0
    for t in range(SCORE_TABLES):
        y = top + t * (table_h + 6.0)
        xs = [16.0] + [16.0 + SCORE_NAME_MM + i * cell for i in range(categories + 1)]
        widths = [SCORE_NAME_MM] + [cell] * (categories + 1)
        header = tuple(Rect(round(x, 3), y + 8.0, round(w, 3), SCORE_HEADER_MM) for x, w in zip(xs, widths, strict=True))
        body = tuple(
            tuple(
                Rect(round(x, 3), round(y + 8.0 + SCORE_HEADER_MM + r * SCORE_ROW_MM, 3), round(w, 3), SCORE_ROW_MM)
                for x, w in zip(xs, widths, strict=True)
            )
            for r in range(rows)
        )
        tables.append(
            ScoreTable(
                Text(16.0, y + 5.0, 11.0),
                header,
                body,
                date=Text(16.0 + 24.0, y + 5.0, 8.5),
                player_heading=Text(header[0].x_mm + 2.0, header[0].bottom_mm - 3.0, 9.0),
                heading_lines=tuple(
                    tuple(Text(cell.centre_mm[0], cell.y_mm + 4.5 + k * 3.6, 8.0, "centre") for k in range(SCORE_HEADING_LINES))
                    for cell in header[1:]
                ),
                heading_hints=tuple(Text(cell.centre_mm[0], cell.bottom_mm - 1.6, 6.0, "centre") for cell in header[1:]),
                names=tuple(Text(row[0].x_mm + SCORE_NAME_PAD_MM, row[0].bottom_mm - 2.8, 10.0) for row in body),
            )
        )
    layout = ScorePadLayout(
        frame_mm=(FRAME_W_MM, FRAME_H_MM),
        title=Text(FRAME_W_MM / 2, 22.0, TITLE_PT, "centre"),
        tables=tuple(tables),
        id_text=Text(FRAME_W_MM - 16.0, FRAME_H_MM - 12.0, 7.0, "right"),
        footer=Text(FRAME_W_MM / 2, FRAME_H_MM - 12.0, 7.0, "centre"),
    )
    return _with_id(layout)


# --------------------------------------------------------------------------- two sheets on one page


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a frame is drawn on a physical page: the frame's origin and its scale."""

    x_mm: float
    y_mm: float
    scale: float


CUT_LABEL_X_MM = 1.5
"""From a cut line to its label (page millimetres, as the cut guides of :func:`placements`)."""
CUT_LABEL_Y_MM = 6.0
"""Baseline of a cut line's label, from the top of the page."""
CUT_LABEL_PT = 7.0


def placements(paper: str, per_page: int) -> tuple[tuple[float, float], tuple[Placement, ...], tuple[Segment, ...]]:
    """The page size, where each frame goes, and the cut guides, for ``per_page`` sheets (1 or 2) per page.

    Two sheets share a landscape page side by side, scaled to fit half of the
    common frame (so the 2-up PDF also prints unscaled on either paper).

    >>> size, spots, cuts = placements("a4", 2)
    >>> size, [round(s.scale, 3) for s in spots], len(cuts)
    ((297.0, 210.0), [0.665, 0.665], 1)
    """
    width, height = PAPERS_MM[paper]
    if per_page == 1:
        x, y = frame_offset_mm(paper)
        return (width, height), (Placement(x, y, 1.0),), ()
    if per_page != 2:
        raise ValueError(f"per_page: expected 1 or 2, got {per_page}")
    page_w, page_h = height, width  # landscape
    common_w, common_h = FRAME_H_MM, FRAME_W_MM  # the landscape intersection of both papers
    scale = min(common_w / 2 / FRAME_W_MM, common_h / FRAME_H_MM)
    left = (page_w - common_w) / 2
    top = (page_h - FRAME_H_MM * scale) / 2
    spots = tuple(
        Placement(round(left + i * common_w / 2 + (common_w / 2 - FRAME_W_MM * scale) / 2, 3), round(top, 3), scale) for i in range(2)
    )
    cut = Segment(page_w / 2, 0.0, page_w / 2, page_h)
    return (page_w, page_h), spots, (cut,)


# --------------------------------------------------------------------------- starting fields and the QR payload

PAYLOAD_FORMAT = "papillon-sheet"
PAYLOAD_VERSION = 1


def random_starting_fields(seed: int, count: int = 2) -> tuple[Plot, ...]:
    """``count`` different plots drawn with ``random.Random(seed)`` (sorted): reproducible.

    >>> [plot_name(p) for p in random_starting_fields(7)]
    ['E1', 'A3']
    """
    return tuple(sorted(random.Random(seed).sample(PLOTS, count)))


def parse_starting_fields(text: str | Sequence[str]) -> tuple[Plot, ...]:
    """Plots from ``'B4,D2'`` (or a list of names): 1 to 4 different plots, else ValueError.

    >>> parse_starting_fields("b4, D2")
    (16, 8)
    """
    names = text.split(",") if isinstance(text, str) else list(text)
    plots = tuple(parse_plot(str(name)) for name in names)
    if not 1 <= len(plots) <= 4:
        raise ValueError(f"expected 1 to 4 starting fields, got {len(plots)}")
    if len(set(plots)) != len(plots):
        raise ValueError("the starting fields must be different plots")
    return plots


def sheet_payload(*, layout_id: str, paper: str, starting_fields: Sequence[Plot], seed: int | None = None, render: bool = False) -> str:
    """The text of the garden sheet's QR code: compact JSON.

    Keys: ``format`` (``"papillon-sheet"``), ``version`` (1), ``layout`` (the
    layout id), ``seed`` (the ``--seed`` of a random start, else null),
    ``paper`` (``"a4"`` or ``"letter"``), ``fields`` (the starting fields), and
    ``render: true`` only on a garden papillon drew itself (``papillon render``):
    its icons are not a player's marks, so the scanner refuses it.

    >>> sheet_payload(layout_id="0123abcd", paper="a4", starting_fields=[16, 8])
    '{"format":"papillon-sheet","version":1,"layout":"0123abcd","seed":null,"paper":"a4","fields":"B4,D2"}'
    """
    data: dict[str, object] = {
        "format": PAYLOAD_FORMAT,
        "version": PAYLOAD_VERSION,
        "layout": layout_id,
        "seed": seed,
        "paper": paper,
        "fields": ",".join(plot_name(p) for p in starting_fields),
    }
    if render:
        data["render"] = True
    return json.dumps(data, separators=(",", ":"))


def colour_letter(colour: str) -> str:
    """The notation letter of a flower colour (``'red'`` -> ``'R'``)."""
    return {name: code for code, name in COLOURS.items()}[colour]


__all__ = [
    "FRAME_H_MM",
    "FRAME_W_MM",
    "PAPERS_MM",
    "PLOT_MM",
    "Circle",
    "FillLayout",
    "GardenLayout",
    "Marker",
    "Rect",
    "Released",
    "ScorePadLayout",
    "Segment",
    "Text",
    "default_paper",
    "fill_layout",
    "frame_offset_mm",
    "garden_layout",
    "grid_to_mm",
    "placements",
    "random_starting_fields",
    "released_garden_layouts",
    "score_pad_layout",
    "sheet_payload",
]
