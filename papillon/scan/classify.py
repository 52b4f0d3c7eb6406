"""Reading every item of a rectified garden sheet: plots, edges, butterfly bubbles.

The sheet's own key is the convention (printed under the garden): a flower is
*stamped*, a field is *shaded green*, a bramble is an *X*, a butterfly is a
*filled bubble*, a brick is *a firm line over the dashed guide*.

All measurements happen on the rectified sheet (:data:`~papillon.scan.detect.RECT_PX_PER_MM`)
after dividing out the light: the paper's white is estimated everywhere by a
morphological closing larger than any mark, so gradients, colour casts and
soft shadows cancel.  Flower colours are calibrated from the colour key row
the player stamps before play (falling back to typical stamp inks when a key
circle is blank).  Each reading is a probability over the possible readings;
its confidence is the probability of the reading chosen, and the runner-up is
the next most probable reading.

What people do beyond the key is read too, or sent to a person (issue 8):

- a brick is a *grey stroke* along the edge: ink spilled out of a neighbouring
  plot (its colour is that plot's), the printed green outlines and the blurred
  rims of coloured ink are no line; a pen's dark line is one; a line much
  fainter than the photo's other bricks (a rubbed-out one) is flagged;
- a butterfly bubble with any deliberate mark (fill, scribble, tick, cross; in
  pencil or any pen) is filled; the printed butterfly (as it shows in this
  photo's lightest bubbles) and a bramble's stroke through the bubble are no
  mark; a bubble coloured over by its plot's own fill is flagged;
- glare, seen as the print under an item washed out (a plot's outline, the
  outlines beside an edge, a bubble's circle): the contrast it took is given
  back and the item read again, or, past 70 % of it, the item is flagged (and
  the photo refused when glare covers a quarter of the garden);
- a photo without colour is refused (flowers and fields are told by colour);
- pale coloured-pencil hatching is a flower of its hue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from papillon.edition import COLOUR_NAMES
from papillon.errors import ScanError
from papillon.grid import EDGES, PLOTS, SIZE, Plot, plot_col, plot_name, plot_row
from papillon.layout import Circle, GardenLayout, Rect

FloatImage = NDArray[Any]

# --------------------------------------------------------------------------- thresholds (with units)

WHITE_KERNEL_MM = 33.0
"""Side of the closing that estimates the paper's white (mm): wider than a plot, so a shaded plot is not taken for paper."""
WHITE_PX_PER_MM = 1.0
"""Resolution at which the paper's white is estimated (px per mm): light varies slowly."""
CHROMA_INK_MIN = 18.0
"""Lab chroma above which a pixel is coloured ink (stamp or green shading), not paper or graphite."""
PENCIL_CHROMA_MAX = 14.0
"""Lab chroma below which a dark pixel is graphite."""
PENCIL_TINT_MAX = 14.0
"""Largest Lab chroma (from the colour of the path around the plot) of a pencil pixel: graphite is grey."""
PENCIL_DARKNESS_MIN = 0.12
"""Darkness (1 - L/100) above the plot's own paper at which a grey pixel is pencil (a blurred line at 2 px/mm keeps ~0.15)."""
PLOT_INSET_MM = 1.4
"""Margin inside a plot box left out of its sample (the printed outline and a little slack)."""
BUBBLE_CLEARANCE_MM = 1.2
"""Margin around the butterfly bubble left out of the plot's sample."""
STAMP_FRACTION_MID = 0.02
"""Share of a plot's sample in stamp colours at which a flower is as likely as not (a stamp covers ~0.08)."""
STAMP_FRACTION_SPREAD = 0.005
"""Width of the stamp logistic (share of the sample)."""
GREEN_FRACTION_MID = 0.15
"""Share of a plot's sample shaded green at which a field is as likely as not."""
GREEN_FRACTION_SPREAD = 0.03
GREEN_SHARE_SPREAD = 0.1
"""Spread of the logistic on green's share of a plot's coloured pixels (green and stamp colours) around one half."""
X_COVERAGE_MID = 0.6
"""Share of the two diagonals' length carrying pencil at which a bramble's X is as likely as not."""
X_COVERAGE_SPREAD = 0.07
X_PEN_COVERAGE_MID = 0.78
"""The same for an X drawn in coloured ink: a pen's ink does not skip on the paper's tooth as graphite does, so its X
covers nearly all of both diagonals, while a doodled flower in the middle of the plot reaches only their middle.
(At 0.85, X's in felt or ballpoint covering 15 of the 17 bins were read `bramble` at 0.68, for review; on photogen3
seeds 820000-830079 and 100000-100039 and photogen2 seeds 900000-900039 no other plot had ink along both diagonals,
running along them and hardly off them, over 0.88 of their length, and the one at 0.88 ran along them at 0.60.)"""
X_PEN_COVERAGE_SPREAD = 0.04
X_PEN_INK_MAX = 0.3
"""Share of a plot's sample in coloured ink above which it is no X in pen (two strokes cover ~0.05-0.15)."""
X_STRAY_MID = 0.06
"""Share of a plot's sample in pencil-grey off both diagonals at which an X's reading is halved (an X leaves ~0.01)."""
X_STRAY_SPREAD = 0.015
MARKED_DARKNESS_MIN = 0.06
"""Darkness above the plot's own paper at which a pixel counts as marked by anything."""
MARKED_FRACTION_MID = 0.12
"""Share of a plot's sample marked at which "empty" loses a quarter of its weight (an empty plot ~0.01, shading 0.2-0.9)."""
MARKED_FRACTION_SPREAD = 0.03
STROKE_SCALE_MM = 0.5
"""Blur (mm, Gaussian sigma) giving the paper right beside a pencil stroke (strokes are 0.3-0.8 mm wide)."""
STROKE_DARKNESS_MIN = 0.05
"""Darkness above the paper right beside it at which a pixel is part of a stroke (paper grain and JPEG noise stay under)."""
STROKED_FRACTION_MID = 0.08
"""Share of a plot's sample in strokes at which "empty" is at most 0.75 sure (empty plots stay under 0.04, pencil
hatching 0.14+, a bramble's X ~0.06)."""
STROKED_FRACTION_SPREAD = 0.015
X_ALIGNMENT_MID = 0.65
"""Share of the pencil's gradient energy across each diagonal (the lesser of the two; the other diagonal's band left
out) at which an X is as likely as not: an X's strokes, even hand-drawn and bent, give 0.8-0.95, hatching parallel to
one diagonal ~0.1-0.4 on the other; square or diagonal cross-hatching is at most 0.5 on one of them (half its
strokes run across it)."""
X_ALIGNMENT_SPREAD = 0.04
X_BAND_MM = 3.5
"""Half-width of the band around each diagonal where an X's stroke is looked for (mm)."""
X_BINS = 12
"""Pieces each diagonal is cut into for the X's coverage."""
X_GRAIN_MM = 0.25
"""Blur (mm, Gaussian sigma) before the strokes' directions are measured: wider than the paper's grain that graphite
shows, narrower than a pencil line (0.4-0.8 mm)."""
EDGE_BAND_MM = 1.0
"""Half-width of the band along an edge slot searched for a pencil line (mm): inside the plots' printed outlines."""
EDGE_SIDE_MM = 2.0
"""How far from an edge's middle (mm) the paper beside its band is looked for: a felt line wider than the band fills
it, and only paper on both sides of it says it is a line (photogen3 seed 820101: a 2.5 mm brown felt brick read `none`
at 0.99)."""
EDGE_OUTLINE_CLEAR_MM = 0.5
"""... but no nearer than this to the plots' printed outlines, so only on release 3's 5 mm path: on release 2's 3 mm
path, whose outlines blur into the band, paper past them made 32 of 102 photos' empty edges doubts (photogen3
820000-820119)."""
EDGE_END_MM = 2.0
"""Length left out at each end of an edge slot (mm), where crossing lines meet."""
EDGE_GAP_BRIDGE_MM = 1.6
"""Gaps shorter than this (mm) along a line are bridged: the printed guide's dashes never add up to a line."""
EDGE_DARKNESS_MIN = 0.11
"""Darkness of the darkest point across an edge's band that counts as pencil at that position."""
EDGE_COVERAGE_MID = 0.5
"""Share of an edge slot's length covered by pencil at which a brick is as likely as not."""
EDGE_COVERAGE_SPREAD = 0.07
EDGE_SHORT_COVERAGE = 0.15
"""A grey line over this share of an edge's length (or more) is at least doubtful: photogen3's development photos
had short pencil and felt bricks over 15-19 % of an edge read "none" at 0.99; on photogen2's development photos 3 of
about 1,900 edges without a brick cover this much."""
EDGE_DASH_MM = 3.0
"""A dark dash (over :data:`EDGE_DARKNESS_MIN`) along an edge's band this long (mm) or longer is at least doubtful,
on a path with paper beside the band (release 3's) where no neighbour's ink or graphite shading ran into the band
(photogen3 820000-880119, spent sets: 13 bricks read "none" surely, most 2-4 mm felt and ballpoint dashes, were asked
instead, and 5 of about 23,000 other edges)."""
EDGE_SHORT_P = 0.4
"""The brick probability such a short line is given at least (so "none" at 0.6: marked for review)."""
EDGE_MEDIAN_MID = 0.1
"""Median darkness along an edge slot (its guide ~0.04, a brick 0.11-0.6) at which a brick is as likely as not."""
EDGE_MEDIAN_SPREAD = 0.012
EDGE_COLOURED_CHROMA_MAX = 30.0
"""Lab chroma (against the band's paper) under which a dark pixel too coloured for graphite may still be a pencil
line tinted by JPEG's colour bleeding: not counted as a line, but not as its absence either (stamp ink is ~40+)."""
EDGE_TINT_SLOPE = 100.0
"""Lab chroma per unit of darkness above which a dark pixel is ink's blurred rim rather than graphite tinted by
JPEG's bleeding (~75): stamps, felt and the printed outlines give 100-150, yellow far more."""
EDGE_COLOURED_WEIGHT = 0.5
"""How far an edge's brick probability moves toward what the tinted dark pixels say (0: ignore them, 1: trust them)."""
BUBBLE_CORE = 0.65
"""Part of the bubble's radius sampled (inside its printed outline)."""
BUBBLE_FILL_MID = 0.4
"""Share of the bubble's core that is pencil-dark at which a filled bubble is as likely as not."""
BUBBLE_FILL_SPREAD = 0.07
BUBBLE_RING_MM = 1.6
"""Width of the paper ring around a bubble (outside its outline) that gives the bubble's local white (mm)."""
BUBBLE_DARKNESS_MIN = 0.25
"""Darkness above which a pixel in the bubble counts as filled in (the printed faint butterfly is ~0.13)."""
KEY_CORE = 0.7
"""Part of a colour key circle's radius sampled (inside its printed ring)."""
KEY_FRACTION_MIN = 0.15
"""Share of a key circle's core that must be stamped for it to calibrate its colour."""

EDGE_PAPER_DARKNESS_MAX = 0.06
"""Darkness under which a pixel of an edge's band is taken for paper when measuring the band's colour cast."""
EDGE_PAPER_SHARE_MIN = 0.15
"""Share of a band that must be paper for its own colour cast to be measured (else the sheet's white is trusted)."""
PAPER_CAST_MAX = 8.0
"""Largest Lab chroma of a colour cast left on the white-corrected paper: more is ink, not light."""
EDGE_GREY_SLOPE = 60.0
"""Lab chroma a pencil pixel may carry per unit of darkness (plus :data:`EDGE_GREY_NOISE`): graphite stays grey as it
darkens, while the blurred rim of coloured ink (felt spilling out of a plot) is as coloured as it is dark (~100-150)."""
EDGE_GREY_NOISE = 4.0
"""Lab chroma of noise and JPEG's colour blocks that any pixel may carry."""
SPILL_STRIP_MM = (0.6, 2.6)
"""Distances (mm) inside a plot's box between which its ink is measured where it could spill into the path."""
SPILL_JOIN_MM = 2.6
"""How far into a plot (mm from its side) ink must run, unbroken, from the edge band to count as that plot's spill."""
SPILL_DEEP_MM = (2.6, 6.0)
"""Where (mm in from a plot's side) the plot's own fill must carry the same ink for ink at its side to be spill."""
SPILL_INKED_SHARE = 0.2
"""Share of that strip in coloured ink above which the plot's ink reaches its border (and may spill past it)."""
SPILL_HUE_DEG = 35.0
"""Hue difference (degrees) within which a coloured pixel in the path is taken for its neighbour's spilled ink."""
SPILL_DARKER_MAX = 0.2
"""How much darker (0-1) than its plot's fill at the border (90th percentile) ink in the gap may be and still be that
fill's spill."""
SPILL_RIM_MM = 0.8
"""How far (mm) from spilled ink its blurred rim reaches, and the seam where two fills meet (:func:`read_edge`)."""
SPILL_RIM_CHROMA_MIN = 8.0
SPILL_RIM_SHARE = 0.8
"""A pixel by spilled ink, of its hue, at this Lab chroma or more (against the band's paper; graphite stays under ~5
there) and lighter than this share of the fill's darkness is the spill's rim.  A pen's brick of the same colour beside
the spill is as dark as the fill along its middle (photogen3 seed 790012: a felt brick read as spill's rim)."""
EDGE_SPILL_SHARE_MAX = 0.02
"""Share of an edge's band in a neighbour's spilled ink under which a dark coloured stroke there is a pen's line."""
INK_CHROMA_SLOPE = 70.0
"""Lab chroma per unit of darkness above which a pixel is coloured like ink: felt, stamps, the printed outlines and
ballpoint give 75-150 (yellow far more), graphite ~30 even tinted by a colour cast."""
SPILL_CHROMA_MIN = 6.0
"""Lab chroma above which a pixel in the path may be spilled ink (its blurred rim included)."""
EDGE_PEN_CHROMA_MIN = 15.0
"""Lab chroma (against the band's paper) from which a pixel of an edge's band is a pen's colour: a thin ballpoint line
over 15 % of the edge is then reviewed however faint its darkness (photogen3 development seeds 2002, 2003, 2020: short
ballpoint bricks read none at 0.96-1.00)."""
EDGE_CORE_MM = 0.75
"""Half-width (mm) of the middle of an edge's path where green ink is a pen's line, not a printed plot outline (the
outlines lie half a path, 1.5 or 2.5 mm, from the middle): photogen3 development seeds 2001, 2029, 2047 had green felt bricks read as none
at 0.99-1.00."""
EDGE_GHOST_RATIO = 0.5
"""An edge line darker than this share of the photo's sure bricks' median darkness is a brick; a fainter line is
likely a rubbed-out one (a ghost) and is marked for review."""
EDGE_GHOST_REFERENCE_MAX = 0.35
"""Darkest reference for ghosts: a firm graphite line's darkness (0.2-0.45); darker sure bricks are ink, which no
eraser leaves a ghost of."""
EDGE_GHOST_MIN_BRICKS = 3
"""Sure bricks needed in a photo before their darkness is the reference for ghosts."""
EDGE_GHOST_CONFIDENCE = 0.6
"""Confidence left to a brick whose line is as faint as a ghost (below the review threshold)."""
TRUSTED_SHIFT_MM = {"plot": 1.0, "edge": 0.5, "butterfly": 0.8}
"""Largest estimated misregistration (mm) at which a reading of each kind is trusted as read (``detect`` doubts the
rest): an edge's band is 1 mm either side of its path's middle, so a brick drawn along the middle leaves it beyond
0.5 mm, and on a 3 mm path an outline enters it (on the independent photos, edge errors rose from 2.7 % below 0.2 mm
to 35 % above 0.8 mm); a bubble has a 3.4 mm radius; a plot is 25 mm wide.  Beyond it a plot is sampled further in and
an edge is re-read shifted across its path (:func:`read_sheet`)."""
PLOT_MARGIN_MAX_MM = 2.0
"""Furthest (mm) a misregistered plot's sample is moved in from its outline and bubble (its sample stays 17 mm wide):
a plot estimated off by more than 1 + 2 mm is doubted."""
EDGE_SHIFT_MAX_MM = 1.0
"""Largest shift (mm) across its path at which an edge is re-read when its misregistration estimate is high: its band
is 1 mm either side of the path's middle and the printed outlines lie 1.5 mm out (2.5 mm on release 3), so a shift of up to 1 mm keeps a
brick off the middle in the band and moves an outline slid into it back out."""
ROBUST_CONFIDENCE = 0.9
"""An edge re-read shifted both ways tolerates the shift when both readings agree with it at least this surely (the
review threshold)."""
PATH_PAPER_CHROMA_MAX = 12.0
"""Lab chroma under which a pixel of the path around a plot counts as paper for the plot's colour cast."""
PATH_PAPER_DARKNESS_MAX = 0.1
"""Darkness under which a pixel of the path around a plot counts as paper for the plot's colour cast."""
PALE_CHROMA_MIN = 10.0
"""Lab chroma (against the plot's own paper) above which a pixel is tinted by pale coloured pencil."""
PALE_FRACTION_MID = 0.12
"""Share of a plot's sample tinted toward a stamp colour (pale coloured pencil) at which a flower is as likely as not."""
PALE_FRACTION_SPREAD = 0.03
BUBBLE_MARK_DARKNESS = 0.15
"""Darkness above the paper around a bubble and the printed butterfly at which a pixel is a deliberate mark, in any
pen."""
BUBBLE_PAPER_MIN_SHARE = 0.2
"""Share of the ring around a bubble that must look like paper to measure it (else the sheet's white is trusted)."""
BUBBLE_PRINT_SLACK_MM = 0.5
"""How far (mm) the printed butterfly may lie from where the bubbles' common image puts it."""
BUBBLE_PRINT_LEVEL_SLACK = 1.15
"""Darkest a bubble's printed butterfly may be taken to be, as a share of the photo's typical one."""
BUBBLE_INNER_PAPER_PERCENTILE = 10
"""Percentile of a bubble's core taken as the paper inside it (the printed butterfly covers less than half the core):
the bubble's paper is never darker than this."""
BUBBLE_PRINT_MAX = 0.25
"""Darkest the printed butterfly may be taken to be (a fill is darker: a sheet of filled bubbles keeps its marks)."""
BUBBLE_BRAMBLE_MIN = 0.1
"""Probability of a bramble in the plot from which a stroke through its bubble may be the bramble's X."""
BUBBLE_MARK_MID = 0.07
"""Share of the bubble's core marked at which a mark (tick, cross, scribble) is as likely as not (a tick ~0.12-0.2)."""
BUBBLE_MARK_SPREAD = 0.015
BUBBLE_X_BAND_MM = 0.9
"""Half-width (mm) of a bramble's stroke through its plot's bubble: left out of the bubble's marks."""
BUBBLE_X_ALONG_MM = 2.0
"""Length (mm) along the diagonal, from just outside the bubble toward the plot's centre, searched for the stroke."""
BUBBLE_X_MARGIN_MM = 0.3
"""Added (mm) to the half-width a bramble's stroke shows outside the bubble, for its wobble inside it."""
BUBBLE_X_MIN_MM2 = 0.5
"""Area (mm²) of pencil outside the bubble along the diagonal that makes a bramble's stroke through it."""
BUBBLE_X_SEARCH_MM = 2.5
"""How far (mm) from the diagonal through the bubble a bramble's stroke is looked for."""
THROUGH_FROM_MM = 1.2
THROUGH_TO_MM = 4.2
"""Distances (mm) past a bubble's outline, toward its plot's centre, over which a stroke through the bubble is followed:
a mark in the bubble reaches about a millimetre past its outline, a bramble's stroke runs on to the plot's centre."""
THROUGH_STEP_MM = 0.5
THROUGH_STEPS = 6
"""Pieces (of THROUGH_STEP_MM) of that length a stroke through the bubble must all reach: a line, not a blot."""
THROUGH_HALF_WIDTH_MAX_MM = 0.9
"""Widest (mm, 90th percentile of its pixels' distance from its middle) a stroke through the bubble may be: a pen's line
blurred by the camera, not a fill or a stroke across the diagonal."""
THROUGH_AREA_MAX = 0.5
"""Share of the searched area a stroke through the bubble may cover (more is a fill)."""
RUN_IN_NEAR_MM = 1.2
RUN_IN_FAR_MM = 4.0
"""A stroke in the plot that runs in to a bubble reaches within RUN_IN_NEAR_MM of its outline from at least
RUN_IN_FAR_MM past it: a tick's arm overshoots the outline by a millimetre or two, a bramble's stroke comes from the
plot's middle."""
RUN_IN_INWARD_MM = 2.5
"""How far past the outline (mm), toward the plot's centre, such a stroke must reach: a bramble's X comes from the plot's
middle, a tick's arm may run out as far toward the plot's outline (a ballpoint tick's arm was taken for one)."""
RUN_IN_FIT_MM = 3.0
"""How far past the outline (mm) a stroke's pixels give its direction into the bubble (its tangent there: strokes bend)."""
RUN_IN_PLOT_INSET_MM = 0.8
"""Inset (mm) of the plot's box where such strokes are looked for: clear of its printed outline and the gutter."""
RUN_IN_HALF_WIDTH_MAX_MM = 1.5
"""Widest (mm, 90th percentile of its pixels' distance from its tangent) a stroke running in to a bubble may be: a
felt line blurred by the camera and bent, not a blot or a fill."""
RUN_IN_OUTLINE_MM = 0.5
"""Half-width (mm) of the bubble's printed outline, which parts a stroke's pixels outside the bubble from those inside."""
RUN_IN_BEND_MM = 0.8
"""How far (mm) a stroke inside the bubble may bend away from its tangent at the outline."""
BUBBLE_OWN_DARKNESS_MIN = 0.06
"""Darkness above the paper and the printed butterfly from which a pixel in the plot's colour is colour laid over the
bubble (a felt or pencil fill darkens it 0.1-0.5)."""
BUBBLE_OWN_MID = 0.3
"""Share of the bubble's core in its plot's own colour (a felt fill run over it) at which it is doubtful."""
BUBBLE_OWN_SPREAD = 0.05
OWN_DARKNESS_SLACK = 0.1
"""How much darker than the plot's own ink (darkness) a pixel of its colour may be and still be that ink."""
BUBBLE_OWN_RING_SHARE = 0.3
"""Share of the ring around a bubble in its plot's own colour from which the plot's fill may have run over it."""
BUBBLE_OWN_CONFIDENCE = 0.5
"""Probability of *filled* for a bubble coloured over by its plot's fill (either reading needs a person)."""
BUBBLE_SURROUNDED_RING_SHARE = 0.8
"""Share of the ring around a bubble in its plot's own colour from which the plot's fill surrounds it: coloured on
across the bubble, it is no mark (photogen3 development seeds 2000-2049: 45 empty bubbles so coloured, all read
'empty' at 0.5 before; the bubbles deliberately filled in their plot's colour had 0.32-0.43 of their ring so)."""
BUBBLE_OWN_FILLED_MIN = 0.5
"""Share of a bubble's core in its plot's own colour, with paper around the bubble, from which that colour is a mark
(the bubble filled with the flower's pen) rather than the flower's edge overlapping it."""
BUBBLE_SURROUNDED_MARK_MAX = 0.03
"""Largest share of a surrounded bubble's core darker than its plot's fill (a mark over it) for it to be read as
the fill's alone; ticks and pencil over a fill measured 0.14-0.42, the fill's own unevenness up to 0.17."""
"""Probability of *filled* for a bubble coloured over by its plot's fill (either reading needs a person)."""
BUBBLE_BETWEEN_WINGS = 0.3
"""Share of the printed butterfly's peak darkness (in the bubbles' common image) under which a pixel of the core lies
between its wings: paper, unless the bubble is marked."""
BUBBLE_LAYER_MID = 0.075
"""Darkness above the bubble's paper of the paper between the wings (its lighter quarter) at which a grey layer over
the whole bubble (a light pencil fill, the fill's edge run past the outline) is as likely a fill as not: pencil fills
measured 0.11-0.2, empty bubbles at most 0.04 (photogen3 development seeds 100000-100059)."""
BUBBLE_LAYER_SPREAD = 0.01
BUBBLE_OVER_FILL_MID = 0.2
"""How much darker (median) the paper between the wings is than the plot's own colour in the ring around the bubble
(median), where that fill runs around it, at which the bubble is as likely filled over the fill as not: fills over a
fill measured up to 0.56 (the two pencil fills read `empty` before 0.21 and 0.25), empty bubbles under a flower's or
field's fill at most 0.07 (photogen3 development seeds 100000-100059, 120000-120049)."""
BUBBLE_OVER_FILL_SPREAD = 0.015
BUBBLE_OVER_MARKS_MID = 0.12
"""Share of a surrounded bubble's core darker than the fill's own colour in the ring around it by a mark's darkness
(over the print) at which it is as likely marked over the fill as not: empty bubbles under a fill measured at most
0.07, marks over one 0.16-0.97 (photogen3 development seeds 100000-100059, 120000-120049)."""
BUBBLE_OVER_MARKS_SPREAD = 0.015
BUBBLE_UNDER_FILL_OWN_MIN = 0.1
"""Share of a surrounded bubble's core in its plot's own colour from which, with the paper between its wings no darker
than the fill around it (by :data:`BUBBLE_UNDER_FILL_LEVEL_MAX`) and nothing over it darker than that fill (under
:data:`BUBBLE_SURROUNDED_MARK_MAX`), what reads as a mark may be the fill itself: such a bubble is never read `filled`
surely (a pale red pencil colouring run over an empty bubble, its grain not taken for the flower's colour, read
`filled` at 0.97: photogen3 development seed 200006; a ballpoint tick under a flower's fill, 200041, looks the same)."""
BUBBLE_UNDER_FILL_LEVEL_MAX = 0.05
"""How much darker than the fill around a surrounded bubble the paper between its wings may lie and still be that fill:
empty bubbles coloured over measured -0.07 to 0.05, fills over a fill 0.11 and more (development seeds 200000-200059)."""
BUBBLE_JOIN_REACH_MM = 1.0
"""How far (mm) past the paper ring around a bubble the plot's own colour is looked for, to join a fill to it."""
BUBBLE_PEN_GAP = 20.0
"""Lab a*b* distance from a stroke's own ink (where it comes in from the plot) beyond which a mark taken away with the
stroke through a bubble is in another pen: a tick or cross along a bramble's stroke, not the stroke."""
BUBBLE_OTHER_PEN_MID = 0.09
"""Share of a bubble's core in another pen than the stroke through it at which the bubble is even odds filled (with
:data:`BUBBLE_OTHER_PEN_SHARE`).  Ticks so taken away measured 0.11-0.18, empty bubbles under a stroke at most 0.08
(photogen3 development seeds 200000-200059, 300000-300059, 770000-790059)."""
BUBBLE_OTHER_PEN_SPREAD = 0.008
BUBBLE_OTHER_PEN_SHARE = 0.35
"""...and the share of the marks taken away with the stroke that is in another pen: ticks 0.42-0.59, empty bubbles
at most 0.31 (the stroke's edges over the printed butterfly mix its ink with the print's colour)."""
BUBBLE_OTHER_PEN_SHARE_SPREAD = 0.03
FIELD_INK_PERCENTILE = 95
"""Percentile of the darkness of a field's green in its plot taken as how dark its ink is (its strokes' cores)."""
OWN_HUE_DEG = 30.0
"""Hue difference (degrees) within which a bubble's colour is its plot's own colour."""
COLOUR_OUTLINE_MM = 0.6
"""Width (mm) of the strip along each printed plot outline in which the photo's colour is measured."""
COLOUR_CHROMA_MIN = 4.0
"""Median Lab chroma of the printed green plot outlines under which the photo has no usable colour (colour photos
give 9-16, a greyscale one 0, one with a third of its colour ~3)."""
WASHOUT_STRIP_MM = 2.0
"""Width (mm) of the strip across a printed plot outline (or a bubble's circle) in which its darkness is measured."""
CIRCLE_PERCENTILE = 80
"""Percentile of the darkness around a bubble's printed circle taken as how dark the circle shows."""
CIRCLE_REFERENCE_PERCENTILE = 25
"""Percentile of the circles' darkness taken as how dark an unwashed circle shows."""
CIRCLE_SECTORS = 8
"""Sectors of a bubble's circle measured apart (:func:`_circle_darkness`)."""
CIRCLE_COVERED_SHARE = 0.5
"""A bubble whose core is darker than this share of its circle's rise above the core is filled or coloured over: its
circle says nothing of glare."""
GLARE_WASHOUT = 0.35
"""Share of the usual darkness of the print under an item lost (glare washing the ink out, :func:`washout`) at which
the item is read again with the contrast given back (:func:`_restore`), or past :data:`GLARE_RESTORE_MAX` flagged."""
GLARE_CONFIDENCE_MAX = 0.7
"""Highest confidence of a reading under glare (below the review threshold: a washed-out mark looks like none)."""
GLARE_RESTORE_MAX = 0.7
"""Largest washout at which an item's lost contrast is restored and the item read as the rest (:func:`_restore`);
one more washed out is flagged.  (Restoring multiplies the photo's noise by 1 / (1 - washout): 3.3 times here.  On
photogen3's spent held-out seeds 820000-830079, 0.6 -> 0.7 left 17 fewer flags and 0.7 -> 0.8 another 8, neither a
wrong reading.)"""
GLARE_FIELD_CELL_MM = 2.0
"""Cell (mm) of the grid the washout of the print around each point is gathered on (:func:`washout_field`)."""
GLARE_FIELD_MM = 4.0
"""How far (mm, a Gaussian's sigma) the washout measured on the print spreads to the points around it."""
GLARE_FIELD_MIN = 0.05
"""Washout of the print around a point under which the point is left as photographed (:func:`_restore`)."""
GLARE_REFUSE_SHARE = 0.25
"""Share of the garden's plots under glare at which the photo is refused instead of read."""
GLARE_BRIGHT_RATIO = 1.08
"""A plot's paper this much brighter than the sheet's median plot's is lit by glare (:func:`glare_bright`)."""
GLARE_CLIPPED = 248.0
"""... or this bright (8-bit grey, the 90th percentile): clipped highlights, when the whole sheet is bright."""
MARKS_DARKNESS_MIN = 0.12
"""Darkness (0-1, white-corrected) from which a pixel of the garden or the key is a mark or print, for
:func:`marks_colour`."""
MARKS_PIXELS_MIN = 200.0
"""Fewest such pixels (in mm², so per sheet, any resolution) for the marks' colour to say anything."""
MARKS_CHROMA_SHARE = 0.05
"""The most colourful share of the marked pixels whose lowest chroma is the marks' colour."""
MARKS_CHROMA_MIN = 12.0
"""Marks' chroma under which a photo whose printed outlines show no colour is refused as without colour."""

X_FLOWER_COVERAGE_MIN = 0.6
"""A flower whose pen ink covers this share of both diagonals' length, ..."""
X_FLOWER_OFF_MAX = 0.06
"""... with less than this share of the plot inked off them, ..."""
X_FLOWER_ALIGNMENT_MIN = 0.45
"""... and strokes running along the diagonals this well (a filled flower: 0.13-0.44, one 0.50; X's 0.49-0.61),
is doubted as a bramble's X (:func:`_doubt_x_like_flower`)."""
SOLID_DISC_MM = 1.0
"""A flower's ink is solid where a disc this wide fits in it (a stamp, felt or crayon colouring); a pen line is not."""
GREY_SPILL_RIM_MM = 0.3
GREY_SPILL_MIN = 0.1
GREY_SPILL_CONFIDENCE = 0.5
"""An edge band darkest within this of its side, where the plot beyond is shaded grey this dark or more along its
border (median darkness), is that shading run into the gap, not surely a brick: at most this sure (photogen3 development
seed 200027: a field shaded in graphite read as a brick at 0.998)."""
OUTLINE_WINDOW_MM = (-0.5, 0.9)
OUTLINE_LINE_RATIO = 2.1
OUTLINE_LINE_CONFIDENCE = 0.5
"""A plot outline beside an edge (within this of where it is printed, half a path from the middle; mm inward, then
outward, ``(-0.5, 0.9)``) darker than the photo's typical outline by this ratio, where no fill reaches it, is a brick drawn along the
outline instead of over the guide: an edge read ``none`` is then left to a person (photogen3 development seeds
200040, 200052: pencil and ballpoint bricks read ``none`` at 0.999, ratio 2.8-3.2; edges without a brick measured
at most 1.84 there and 1.8 on photogen2 seeds 900000-900039)."""
TINTED_PLOT_MIN = 10.0
TINTED_PLOT_CONFIDENCE = 0.5
"""An ``empty`` plot whose median chroma against the path's paper around it exceeds this is coloured all over (pale
pencil over the whole plot, no paper left to compare with): a person decides.  Empty plots measured at most 7.3 on
photogen3 development seeds 200000-200059 and 6.9 on photogen2 seeds 900000-900039; pale red and purple pencil over
the whole plot 11.1-13.2 (read ``empty`` at 0.97-0.98 twice)."""
SHADED_PLOT_MIN = 0.025
"""An ``empty`` plot whose median darkness exceeds that of the paper around it (the darkest side of the path, which a
shadow over the plot reaches too) by this is shaded all over (a field shaded in grey pencil, read ``empty`` at
0.96-0.97 on photogen3 development seed 200041, 2 MP: 0.033-0.057): a person decides.  Empty plots measured at most
-0.03 there and -0.001 on photogen2 seeds 900000-900039 (under shadow too); grey-shaded fields 0.03-0.3."""
PEN_COLOUR = "blue"
PEN_SOLID_MAX = 0.55
PEN_DARKNESS_MIN = 0.63
PEN_SHARE_MAX = 0.3
"""A blue flower (ballpoint ink is navy) whose ink is mostly lines (under this share solid), dark (its 90th-percentile
darkness over this) and over under 30 % of the plot is maybe drawn in a pen, not coloured in: a bramble scribbled in
ballpoint, or a critter's code written in it over a field shaded in grey (photogen3 development seeds 200007, 200028,
200041, 200056: blue at 0.996-1.00).  Coloured-pencil flowers drawn as lines were paler there (darkness 0.19-0.61),
felt and crayon ones solid (0.6 and more); photogen2's dark pencil hatching covers more of its plot (0.33-0.75)."""
PEN_PART_SOLID_MAX = 0.8
PEN_PART_SHARE_MAX = 0.25
PEN_PART_DARKNESS_MIN = 0.6
"""... and so is one whose dark ink is partly solid (under this share) but covers under a quarter of the plot: a ballpoint
scribble's tangle fills its loops (photogen3 820000-890119, spent: 9 scribbled brambles read blue at 0.998-1.00, ink
solid 0.28-0.76 over 0.10-0.22 of the plot, darkness 0.61-0.66; no blue flower read surely there was caught, the
crayon and felt ones drawn in outline covering 0.25 or more)."""
WRITING_INK_SHARE_MAX = 0.15
WRITING_GREY_MIN = 0.08
WRITING_GREY_RATIO = 2.0
"""A flower read from dark pen ink (over :data:`PEN_DARKNESS_MIN`) over under this share of the plot, where the plot
is also shaded all over (:data:`SHADED_PLOT_MIN`) or marked grey over at least this share and this many times its
ink's share, is maybe a critter's code or icon written over a field shaded in grey pencil: marked for review, field
the runner-up.  photogen3 development seeds 770000-770059, 780000-780059, 790000-790059, 200000-200059 and
300000-300059: all 10 such fields read as a flower at 0.91-1.00 (ink 0.03-0.13 of the plot, grey 2.5-5.8 times it or
shade 0.11-0.20); no flower read surely there or on photogen2 seeds 900000-900039 came within a ratio of 0.9 (dark
doodles) or a shade of -0.06."""
X_FLOWER_CONFIDENCE = 0.6
"""The doubted flower's probability (under the review threshold); the bramble takes most of the rest."""
X_FLOWER_CONFIDENCE_REST = 0.05
"""What the other readings keep between them."""
PRINTED_KEY_RGB = {"red": (0xD8, 0x43, 0x4B), "blue": (0x3B, 0x7D, 0xD8), "yellow": (0xF1, 0xBD, 0x1F), "purple": (0x8C, 0x55, 0xC4)}
"""The colour key circles' printed outline colours (papillon/render/pen.py's colour palette; a test keeps them equal)."""
PRINTED_OUTLINE_RGB = (0x6F, 0x9A, 0x5F)
"""The plot outlines' printed green (pen.py's palette ``plot``)."""
KEY_RING_MM = (0.88, 1.25)
"""The annulus around a key circle's radius (times it) where its printed coloured outline is measured."""
KEY_RING_TOP_SHARE = 0.2
"""The most chromatic share of the annulus taken as the printed ring (a stamp, paper and text make up the rest)."""
KEY_SHIFT_MAX_DEG = 25.0
"""The printed key rings' mean hue shift (degrees) from their printed colours over which the photo's colours are
refused as filtered: measured 0-12 deg on photogen2's photos (seeds 800000-800059, warm and cool light included);
a 20 deg hue rotation still read as the original, a 40 deg one did not."""
KEY_RING_GAP_MAX_DEG = 45.0
"""The most any one key ring's hue may stray from its printed colour (natural: up to 23 deg, blue)."""
KEY_RING_CHROMA_MIN = 15.0
"""A key ring (or the outlines) under this chroma shows no colour to judge by (sepia: 5-10; natural: 22-92; a
``--mono`` sheet's grey rings)."""
KEY_STAMP_DARKNESS = 0.15
"""Darker than this (0-1) in a key circle's core is a stamp's ink (paper ~0, the printed letter lies outside)."""
KEY_GREY_STAMPS_MIN = 2
"""Key stamps without colour, next to key rings without colour, that make a photo's colours refused as toned."""
COLOUR_SHIFTED = (
    "the photo's colours are off (the colour key's printed red, blue, yellow and purple rings do not look like those"
    " colours: a sepia or colour filter, or strongly tinted light?) — take it without a filter, in white light"
)
NO_COLOUR = "the photo has no colour (greyscale or nearly) — take it in colour: flowers are told apart by colour"
"""The refusal of a photo without usable colour (here, or before anything else when it has none at all)."""

GREEN_LAB = (72.0, -25.0, 25.0)
"""Lab of green shading (a green pencil or felt pen): only its hue is used."""
PATH_RING_MM = (0.9, 1.5)
"""Distances (mm) outside a plot's box between which the path's paper gives its colour cast."""
GREEN_CHROMA_MIN = 7.0
"""Lab chroma above which a pixel may be green shading (pale coloured pencil; white paper stays under ~3)."""
GREEN_HUE_RANGE_DEG = 35.0
"""Largest hue difference (degrees) from :data:`GREEN_LAB` for a pixel to count as the printed green outline."""
FIELD_HUE_RANGE_DEG = 50.0
"""Largest hue difference (degrees) from :data:`GREEN_LAB` for a pixel in a plot to count as green shading (if nearer
green than any stamp's colour): green pens run from yellowish to teal (Lab hue ~125-165), and light pencil over paper
with a warm cast leans further still; no stamp colour lies between yellow and blue."""
HUE_SPREAD_DEG = 12.0
"""Standard deviation (degrees of Lab hue) of a stamp's colour around its key colour."""
DENSITY_HUE_SPREAD_DEG = 8.0
"""Standard deviation (degrees) of a flower's ink around its key's ink in the hue of optical density (see
:func:`density_hue`): the same pen gives 1-4 degrees in a photo, blurred rims and a doodle's outline up to ~15."""
START_PENCIL_CHROMA_MAX = 24.0
"""On a printed (green) starting field, graphite over the grass keeps some green: a looser chroma limit."""
START_COLOURED_CHROMA_MAX = 36.0
"""On a printed starting field, Lab chroma under which a dark pixel may be graphite greened by JPEG's bleeding:
not counted for an X, but not against one either."""
START_PENCIL_DARKNESS_MIN = 0.12
"""On a printed starting field the grass is darker than paper, so a pencil line stands out less: a lower limit."""
START_X_COVERAGE_MID = 0.65
"""On a printed starting field, the X coverage at which a bramble is as likely as not (its printed tufts reach ~0.35)."""
INK_CLEARANCE_MM = 0.7
"""Pencil pixels this close to coloured ink are left out (a blurred stamp's rim looks grey)."""
DEFAULT_INK_LAB: dict[str, tuple[float, float, float]] = {
    "red": (50.0, 60.0, 30.0),
    "blue": (50.0, 5.0, -50.0),
    "yellow": (82.0, 5.0, 75.0),
    "purple": (45.0, 40.0, -40.0),
}
"""Typical stamp inks, used for a colour whose key circle was left blank."""

PLOT_READINGS = ("empty", *COLOUR_NAMES, "field", "bramble")
EDGE_READINGS = ("brick", "none")
BUBBLE_READINGS = ("filled", "empty")


@dataclass(frozen=True)
class Reading:
    """One item read from the sheet: the readings ranked by probability."""

    item: str
    """``'C3'`` (a plot), ``'edge B2-B3'`` or ``'butterfly C3'``."""
    kind: str
    """``plot``, ``edge`` or ``butterfly``."""
    probabilities: tuple[tuple[str, float], ...]
    """Every possible reading with its probability, most probable first."""
    evidence: tuple[tuple[str, float], ...] = ()
    """The measurements behind it (for ``--json`` and the debug overlay)."""

    @property
    def value(self) -> str:
        return self.probabilities[0][0]

    @property
    def confidence(self) -> float:
        return self.probabilities[0][1]

    @property
    def runner_up(self) -> tuple[str, float]:
        return self.probabilities[1] if len(self.probabilities) > 1 else ("none", 0.0)


@dataclass(frozen=True)
class Calibration:
    """The colours of this photo: paper-relative Lab of each stamp, and which came from the key row."""

    inks: dict[str, tuple[float, float, float]]
    from_key: dict[str, bool]
    density_hues: dict[str, float] = field(default_factory=dict)
    """Each stamp colour's hue of optical density (:func:`density_hue`), as stamped in the key (or its typical ink's)."""


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(x, 40.0), -40.0)))


def _ranked(scores: dict[str, float]) -> tuple[tuple[str, float], ...]:
    total = sum(scores.values()) or 1.0
    return tuple(sorted(((k, v / total) for k, v in scores.items()), key=lambda kv: -kv[1]))


# --------------------------------------------------------------------------- light


def white_corrected(rectified: NDArray[Any], px_per_mm: float) -> FloatImage:
    """The sheet divided by its estimated paper white, per channel: paper ~1, ink < 1."""
    h, w = rectified.shape[:2]
    small_size = (max(1, round(w / px_per_mm * WHITE_PX_PER_MM)), max(1, round(h / px_per_mm * WHITE_PX_PER_MM)))
    small = cv2.resize(rectified, small_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    k = max(3, round(WHITE_KERNEL_MM * WHITE_PX_PER_MM) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    white = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    white = cv2.GaussianBlur(white, (0, 0), 2.0 * WHITE_PX_PER_MM)
    white = cv2.resize(white, (w, h), interpolation=cv2.INTER_LINEAR)
    # In place (a 2 MP float image per step saved); the quotient is never negative, so only its top is clipped.
    corrected: FloatImage = rectified.astype(np.float32)
    np.divide(corrected, np.maximum(white, 1.0, out=white), out=corrected)
    return np.minimum(corrected, 1.0, out=corrected)


@dataclass(frozen=True)
class Maps:
    """Per-pixel views of the white-corrected sheet."""

    lab: FloatImage
    chroma: FloatImage
    darkness: FloatImage
    px_per_mm: float
    rgb: FloatImage | None = None
    """The white-corrected sheet itself (RGB, paper ~1): what a dye's optical density is measured from."""

    def px(self, mm: float) -> int:
        return round(mm * self.px_per_mm)

    def box(self, rect: Rect, inset_mm: float = 0.0) -> tuple[slice, slice]:
        return (
            slice(self.px(rect.y_mm + inset_mm), self.px(rect.bottom_mm - inset_mm)),
            slice(self.px(rect.x_mm + inset_mm), self.px(rect.right_mm - inset_mm)),
        )


def maps(rectified: NDArray[Any], px_per_mm: float) -> Maps:
    corrected = white_corrected(rectified, px_per_mm)
    lab, chroma, darkness = _views(corrected)
    return Maps(lab, chroma, darkness, px_per_mm, corrected)


def _views(corrected: FloatImage) -> tuple[FloatImage, FloatImage, FloatImage]:
    """The white-corrected sheet's Lab, chroma and darkness."""
    lab = cv2.cvtColor(corrected, cv2.COLOR_RGB2Lab)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    darkness = 1.0 - lab[..., 0] / 100.0
    return lab, chroma, darkness


def _disc(m: Maps, circle: Circle, radius_mm: float) -> tuple[tuple[slice, slice], NDArray[Any]]:
    x0, y0 = m.px(circle.cx_mm - radius_mm), m.px(circle.cy_mm - radius_mm)
    x1, y1 = m.px(circle.cx_mm + radius_mm) + 1, m.px(circle.cy_mm + radius_mm) + 1
    yy, xx = np.ogrid[y0:y1, x0:x1]
    inside = (xx + 0.5 - circle.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - circle.cy_mm * m.px_per_mm) ** 2 <= (radius_mm * m.px_per_mm) ** 2
    return (slice(y0, y1), slice(x0, x1)), inside


# --------------------------------------------------------------------------- colours


def calibrate(m: Maps, layout: GardenLayout) -> Calibration:
    """Each stamp colour as stamped in the key row (or its typical ink if that circle is blank)."""
    inks: dict[str, tuple[float, float, float]] = {}
    from_key: dict[str, bool] = {}
    density_hues: dict[str, float] = {}
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        where, inside = _disc(m, circle, circle.r_mm * KEY_CORE)
        inked = inside & (m.chroma[where] > CHROMA_INK_MIN)
        if inked.sum() >= KEY_FRACTION_MIN * inside.sum():
            lab = m.lab[where][inked]
            inks[colour] = (float(np.median(lab[:, 0])), float(np.median(lab[:, 1])), float(np.median(lab[:, 2])))
            from_key[colour] = True
            density_hues[colour] = density_hue(_density(m, where)[inked].sum(axis=0))
        else:
            inks[colour] = DEFAULT_INK_LAB[colour]
            from_key[colour] = False
            typical = cv2.cvtColor(np.array([[DEFAULT_INK_LAB[colour]]], np.float32), cv2.COLOR_Lab2RGB)
            density_hues[colour] = density_hue(-np.log(np.clip(typical.reshape(3), 1e-3, 1.0)))
    return Calibration(inks, from_key, density_hues)


def _density(m: Maps, where: tuple[slice, slice]) -> FloatImage:
    """Optical density (-ln of the white-corrected value) per channel over ``where``."""
    rgb = m.rgb[where] if m.rgb is not None else np.ones((*m.darkness[where].shape, 3), np.float32)
    density: FloatImage = -np.log(np.maximum(rgb, 1e-3))
    return density


def density_hue(density: NDArray[Any]) -> float:
    """The hue (degrees) of an optical density vector (R, G, B): its direction once its grey part is taken out.

    A dye over white paper darkens each channel by its own fixed ratio however thick the coat (Beer-Lambert: the
    density is proportional to the amount of dye), and a colour cast or the camera's gamma scales every channel's
    density alike; graphite and black ink add the same density to all three.  So this hue does not move with ink
    load, unlike the Lab hue (a thick blue's Lab hue runs toward purple): a blue dye absorbs red most, a purple dye
    green most.
    """
    r, g, b = (float(v) for v in density)
    return math.degrees(math.atan2((r + g - 2 * b) / math.sqrt(6), (r - g) / math.sqrt(2)))


def _hue(lab: tuple[float, float, float]) -> float:
    return math.degrees(math.atan2(lab[2], lab[1]))


def _hue_gap(hues: NDArray[Any], ref: float) -> NDArray[Any]:
    """Angular distance (degrees, 0-180) from each hue to ``ref``: ink load changes chroma and lightness, hardly hue."""
    shifted = hues - ref + 180.0
    if shifted.size and not (float(shifted.min()) > -360.0 and float(shifted.max()) < 720.0):
        wrapped = shifted % 360.0
    else:
        # Hues and references within ±180: the remainder is one add or subtract (numpy's % is as exact, twice as slow).
        wrapped = np.where(shifted < 0.0, shifted + 360.0, np.where(shifted >= 360.0, shifted - 360.0, shifted))
    gap: NDArray[Any] = np.abs(wrapped - 180.0)
    return gap


# --------------------------------------------------------------------------- plots


def _plot_sample(m: Maps, layout: GardenLayout, plot: Plot, margin_mm: float = 0.0) -> tuple[tuple[slice, slice], NDArray[Any]]:
    """The plot's sample: its box inset from the outline and clear of its bubble, both ``margin_mm`` further (the
    sheet's estimated misregistration there beyond what the plain inset absorbs)."""
    box = layout.plots[plot]
    where = m.box(box, PLOT_INSET_MM + margin_mm)
    bubble = layout.bubbles[plot]
    yy, xx = np.ogrid[where[0], where[1]]
    r = (bubble.r_mm + BUBBLE_CLEARANCE_MM + margin_mm) * m.px_per_mm
    keep = (xx + 0.5 - bubble.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - bubble.cy_mm * m.px_per_mm) ** 2 > r * r
    return where, keep


@dataclass(frozen=True)
class _XGeometry:
    """The masks :func:`_x_coverage` lays over a plot sample of one size: they depend on its shape alone."""

    nears: tuple[NDArray[Any], NDArray[Any]]
    """Per diagonal: the pixels within its band."""
    own: tuple[NDArray[Any], NDArray[Any]]
    """Per diagonal: its band without the other's (where the X's two strokes cross)."""
    near_any: NDArray[Any]
    bins: tuple[tuple[tuple[NDArray[Any], int], ...], tuple[tuple[NDArray[Any], int], ...]]
    """Per diagonal: each inner bin along it (the very corners are often left short), its pixels and their count."""


@lru_cache(maxsize=64)  # plot samples come in a few sizes (a misregistered plot is sampled further in)
def _x_geometry(h: int, w: int, px_per_mm: float) -> _XGeometry:
    """The diagonal bands and bins of an h × w plot sample (computed once per size: 25 plots read 2-3 times share it)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    band = X_BAND_MM * px_per_mm
    # Distance from each diagonal: the other diagonal's band is left out of a band's directions (where the X's two
    # strokes cross, the other stroke runs across this one and is no sign of hatching).
    nears = (
        np.abs((xx / w - yy / h) * min(w, h) / math.sqrt(2)) <= band,
        np.abs((xx / w - (h - yy) / h) * min(w, h) / math.sqrt(2)) <= band,
    )
    per_diagonal = []
    for diag, near in enumerate(nears):
        # Position along the diagonal (0-1).
        along = (xx / w + yy / h) / 2 if diag == 0 else (xx / w + (h - yy) / h) / 2
        bins = np.minimum((along * X_BINS).astype(np.int32), X_BINS - 1)
        sels = [near & (bins == b) for b in range(1, X_BINS - 1)]
        per_diagonal.append(tuple((sel, int(sel.sum())) for sel in sels))
    geometry = _XGeometry(nears, (nears[0] & ~nears[1], nears[1] & ~nears[0]), nears[0] | nears[1], (per_diagonal[0], per_diagonal[1]))
    for mask in (*geometry.nears, *geometry.own, geometry.near_any, *(sel for bins in geometry.bins for sel, _ in bins)):
        mask.flags.writeable = False  # shared by every later call
    return geometry


def _x_coverage(pencil: NDArray[Any], keep: NDArray[Any], px_per_mm: float, dark: NDArray[Any]) -> tuple[float, float, float]:
    """How an X fits the plot's pencil marks: the share of the two diagonals' length carrying pencil (an X
    covers most of both), the share of the sample in pencil off them (hatching or writing), and how well
    the strokes in each diagonal's band run along it (0-1, the lesser of the two: an X's strokes do,
    hatching parallel to one diagonal only crosses the other)."""
    h, w = pencil.shape
    geometry = _x_geometry(h, w, px_per_mm)
    covered = []
    # Directions at the scale of a stroke, not of the paper's grain (graphite catches on the tooth: its speckle has
    # gradients every way and would make any pencil line look like hatching).
    smooth = cv2.GaussianBlur(dark.astype(np.float32), (0, 0), X_GRAIN_MM * px_per_mm)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    strokes = cv2.dilate(pencil.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    alignment = []
    for diag, normal in ((0, (1.0, -1.0)), (1, (1.0, 1.0))):
        for sel, size in geometry.bins[diag]:
            usable = sel & keep
            if usable.sum() < 0.5 * size or not size:
                continue
            covered.append(bool((pencil & usable).sum() >= max(2.0, 0.3 * px_per_mm * px_per_mm)))
        # A stroke along the diagonal has its darkness gradient across it, along the diagonal's normal.
        sel = geometry.own[diag] & keep & strokes
        across = (gx[sel] * normal[0] + gy[sel] * normal[1]) ** 2 / 2
        total = gx[sel] ** 2 + gy[sel] ** 2
        alignment.append(float(across.sum() / total.sum()) if total.sum() > 0 else 0.0)
    stray = float((pencil & keep & ~geometry.near_any).sum()) / max(int(keep.sum()), 1)
    return (float(np.mean(covered)) if covered else 0.0), stray, min(alignment)


def _path_tint(m: Maps, layout: GardenLayout, plot: Plot) -> tuple[float, float, float]:
    """Median Lab (a, b) of the path between this plot and its neighbours: the paper's leftover colour cast there; and
    how dark the paper around the plot lies (the darkest side's median: a shadow over the plot reaches a side).

    Only the sides facing another plot: on the garden's border the printed green frame would pass for a cast.
    """
    box = layout.plots[plot]
    near, far = PATH_RING_MM
    col, row = plot_col(plot), plot_row(plot)
    strips = []
    if row > 0:
        strips.append(Rect(box.x_mm, box.y_mm - far, box.w_mm, far - near))
    if row < SIZE - 1:
        strips.append(Rect(box.x_mm, box.bottom_mm + near, box.w_mm, far - near))
    if col > 0:
        strips.append(Rect(box.x_mm - far, box.y_mm, far - near, box.h_mm))
    if col < SIZE - 1:
        strips.append(Rect(box.right_mm + near, box.y_mm, far - near, box.h_mm))
    pixels = np.concatenate([m.lab[m.box(strip)].reshape(-1, 3) for strip in strips])
    darkness = max(float(np.median(m.darkness[m.box(strip)])) for strip in strips)
    return (*_paper_cast(pixels), darkness)


def _paper_cast(lab: NDArray[Any]) -> tuple[float, float]:
    """The colour cast (Lab a, b) of the paper among ``lab`` pixels (N x 3): the median of those that look like paper.

    Ink in the sample (a neighbour's spilled felt, a ballpoint brick) must not pass for a cast: pixels too dark or
    too coloured for paper are left out, and with too few paper pixels the sheet's own white (no cast) is trusted.
    """
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    paper = (chroma < PATH_PAPER_CHROMA_MAX) & (1.0 - lab[:, 0] / 100.0 < PATH_PAPER_DARKNESS_MAX)
    if paper.sum() < EDGE_PAPER_SHARE_MIN * len(lab):
        # A blurred photo darkens the narrow path around the printed outlines: judge paper by its colour alone.
        paper = chroma < PATH_PAPER_CHROMA_MAX
    if paper.sum() < EDGE_PAPER_SHARE_MIN * len(lab):
        return 0.0, 0.0
    a, b = float(np.median(lab[paper, 1])), float(np.median(lab[paper, 2]))
    size = math.hypot(a, b)
    if size > PAPER_CAST_MAX:
        a, b = a * PAPER_CAST_MAX / size, b * PAPER_CAST_MAX / size
    return a, b


def read_plot(m: Maps, layout: GardenLayout, plot: Plot, calibration: Calibration, *, starting: bool, margin_mm: float = 0.0) -> Reading:
    """A plot's reading; ``margin_mm`` samples it that much further in from its outline and bubble (a misregistered
    plot), and its evidence then says so (``tolerates_mm``: the misregistration the reading stands)."""
    reading = _read_plot(m, layout, plot, calibration, starting=starting, margin_mm=margin_mm)
    if margin_mm <= 0:
        return reading
    return Reading(
        reading.item, reading.kind, reading.probabilities, (*reading.evidence, ("tolerates_mm", TRUSTED_SHIFT_MM["plot"] + margin_mm))
    )


def _read_plot(m: Maps, layout: GardenLayout, plot: Plot, calibration: Calibration, *, starting: bool, margin_mm: float) -> Reading:
    where, keep = _plot_sample(m, layout, plot, margin_mm)
    lab, chroma, dark = m.lab[where], m.chroma[where], m.darkness[where]
    total = max(int(keep.sum()), 1)
    inked = keep & (chroma > CHROMA_INK_MIN)
    # Darkness against this plot's own paper: a white estimate off by a little shifts both alike.
    relative = dark - float(np.median(dark[keep])) if keep.any() else dark
    near_ink = _within(inked, INK_CLEARANCE_MM, m)
    tint_a, tint_b, path_dark = _path_tint(m, layout, plot)
    rel_a, rel_b = lab[..., 1] - tint_a, lab[..., 2] - tint_b
    if starting:
        pencil = (chroma < START_PENCIL_CHROMA_MAX) & (relative > START_PENCIL_DARKNESS_MIN)
    else:
        # Graphite is as grey as the paper around the plot; pale green shading strokes are not.
        rel_chroma = np.hypot(rel_a, rel_b)  # also the green shading's, below
        pencil = (rel_chroma < PENCIL_TINT_MAX) & (relative > PENCIL_DARKNESS_MIN) & ~near_ink
    x_cov, stray, aligned = _x_coverage(pencil, keep, m.px_per_mm, dark)
    p_x = _sigmoid((x_cov - (START_X_COVERAGE_MID if starting else X_COVERAGE_MID)) / X_COVERAGE_SPREAD)
    p_x *= _sigmoid((aligned - X_ALIGNMENT_MID) / X_ALIGNMENT_SPREAD)
    if not starting:
        # Much pencil-grey off the diagonals (pale hatching, writing) makes an X doubtful, never sure.
        p_x *= 1.0 - 0.5 * _sigmoid((stray - X_STRAY_MID) / X_STRAY_SPREAD)
        # An X drawn with a coloured pen (blue ballpoint) is no flower: two thin strokes along the diagonals and
        # nothing else, where a stamp, a felt fill or a doodle lies off them (or leaves the diagonals' ends bare).
        # (Without coloured ink the pencil's own fit is the same; ink over a third of the plot is no two strokes.)
        n_inked = int(inked.sum())
        if n_inked == 0:
            x_cov_pen, stray_pen, aligned_pen = x_cov, stray, aligned
        elif n_inked > X_PEN_INK_MAX * total:
            x_cov_pen, stray_pen, aligned_pen = 0.0, 1.0, 0.0
        else:
            x_cov_pen, stray_pen, aligned_pen = _x_coverage(pencil | inked, keep, m.px_per_mm, dark)
        p_x_pen = _sigmoid((x_cov_pen - X_PEN_COVERAGE_MID) / X_PEN_COVERAGE_SPREAD) * _sigmoid(
            (aligned_pen - X_ALIGNMENT_MID) / X_ALIGNMENT_SPREAD
        )
        p_x_pen *= 1.0 - _sigmoid((stray_pen - X_STRAY_MID) / X_STRAY_SPREAD)
        p_x = max(p_x, p_x_pen)
    if starting:
        # Over the printed grass JPEG's chroma bleeding greens the graphite: dark pixels turned away only for
        # that tint are no evidence against an X; when counting them makes one, the plot goes halfway to review.
        tinted = (chroma < START_COLOURED_CHROMA_MAX) & (relative > START_PENCIL_DARKNESS_MIN)
        cov_t, _, aligned_t = _x_coverage(tinted, keep, m.px_per_mm, dark)
        p_tinted = _sigmoid((cov_t - START_X_COVERAGE_MID) / X_COVERAGE_SPREAD) * _sigmoid(
            (aligned_t - X_ALIGNMENT_MID) / X_ALIGNMENT_SPREAD
        )
        if p_tinted > p_x:
            p_x += (p_tinted - p_x) * EDGE_COLOURED_WEIGHT
        # A printed field: still a field, unless a bramble's X overwrote it.
        seen = (("x_coverage", x_cov), ("x_alignment", aligned), ("x_coverage_tinted", cov_t))
        return Reading(plot_name(plot), "plot", _ranked({"field": 1.0 - p_x, "bramble": p_x}), seen)
    refs = {c: _hue(v) for c, v in calibration.inks.items()}
    hues = np.degrees(np.arctan2(lab[..., 2][inked], lab[..., 1][inked])).astype(np.float32)
    gaps = np.stack([_hue_gap(hues, h) for h in refs.values()] + [_hue_gap(hues, _hue(GREEN_LAB))])
    nearest = np.argmin(gaps, axis=0) if len(hues) else np.zeros(0, np.int64)
    # Green shading is often pale: counted from a lower chroma, within a hue range no stamp reaches, and
    # measured from the tint of the path around the plot (paper left with a cast must not look green).
    tinted = keep & (rel_chroma > GREEN_CHROMA_MIN)
    all_hues = np.degrees(np.arctan2(rel_b[tinted], rel_a[tinted])).astype(np.float32)
    to_green = _hue_gap(all_hues, _hue(GREEN_LAB))
    closer = np.all(np.stack([to_green < _hue_gap(all_hues, h) for h in refs.values()]), axis=0) if len(all_hues) else np.zeros(0, bool)
    green = np.zeros(keep.shape, bool)
    green[tinted] = (to_green < FIELD_HUE_RANGE_DEG) & closer
    green_fraction = float(green.sum()) / total
    stamp_hues = hues[nearest < len(refs)]
    stamp_fraction = len(stamp_hues) / total
    # Pale coloured pencil (a hatched flower) stays under the ink chroma: pixels tinted (against the plot's own
    # paper between the strokes) nearer a stamp's hue than green.
    own_a, own_b = _paper_cast(lab[keep])
    pale_a, pale_b = lab[..., 1] - own_a, lab[..., 2] - own_b
    pale_chroma = np.hypot(pale_a, pale_b)
    pale_mask = keep & (pale_chroma > PALE_CHROMA_MIN)
    pale_hues = np.degrees(np.arctan2(pale_b[pale_mask], pale_a[pale_mask])).astype(np.float32)
    pale_to_green = _hue_gap(pale_hues, _hue(GREEN_LAB))
    pale = (
        np.any(np.stack([_hue_gap(pale_hues, h) < pale_to_green for h in refs.values()]), axis=0) if len(pale_hues) else np.zeros(0, bool)
    )
    pale_fraction = float(pale.sum()) / total
    evidence = [
        ("stamp_fraction", stamp_fraction),
        ("pale_fraction", pale_fraction),
        ("green_fraction", green_fraction),
        ("x_coverage", x_cov),
        ("off_diagonal", stray),
        ("x_alignment", aligned),
        ("x_coverage_pen", x_cov_pen),
        ("off_diagonal_pen", stray_pen),
        ("x_alignment_pen", aligned_pen),
    ]
    p_green = _sigmoid((green_fraction - GREEN_FRACTION_MID) / GREEN_FRACTION_SPREAD)
    # Green and a stamp's colour both over much of the plot: one ink between them (yellow pencil under a cool light
    # looks half green).  Whichever covers more is the likelier, and near a tie a person decides.
    if stamp_fraction > 0:
        p_green *= _sigmoid((green_fraction / (green_fraction + stamp_fraction) - 0.5) / GREEN_SHARE_SPREAD)
    # Green shading and an X together: a bramble over a field, or hatching taken for an X; a person decides.  Green
    # only along the diagonals is the X's own ink (drawn in dark green felt), no field's shading.
    off_x = keep & ~_x_geometry(*keep.shape, m.px_per_mm).near_any
    green_off = float((green & off_x).sum()) / max(int(off_x.sum()), 1)
    p_x *= 1.0 - 0.5 * min(p_green, _sigmoid((green_off - GREEN_FRACTION_MID) / GREEN_FRACTION_SPREAD))
    p_stamp = _sigmoid((stamp_fraction - STAMP_FRACTION_MID) / STAMP_FRACTION_SPREAD)
    p_pale = _sigmoid((pale_fraction - PALE_FRACTION_MID) / PALE_FRACTION_SPREAD)
    colour_probs = {c: 1.0 / len(refs) for c in refs}
    ink_pixels = inked.copy()
    if p_pale > p_stamp and pale.any():
        # A hatched flower: its colour is the hue of the pale strokes (against the paper's cast).
        p_stamp = p_pale
        stamp_hues = pale_hues[pale]
        weights_all = pale_chroma[pale_mask][pale]
        ink_pixels = pale_mask.copy()
        ink_pixels[pale_mask] = pale
    else:
        weights_all = chroma[inked][nearest < len(refs)] if len(stamp_hues) else np.zeros(0, np.float32)
        ink_pixels[inked] = nearest < len(refs)
    if len(stamp_hues):
        weights = weights_all
        rad = np.radians(stamp_hues)
        mean = math.degrees(math.atan2(float((np.sin(rad) * weights).sum()), float((np.cos(rad) * weights).sum())))
        gap = {c: float(_hue_gap(np.array([mean], np.float32), h)[0]) for c, h in refs.items()}
        best = min(gap.values())
        # Two views of the same ink: its Lab hue, and its hue of optical density against the key's (which does
        # not drift with the ink's load).  Pooled as a geometric mean, so the pixels count once and a disagreement
        # between the views lowers the confidence.
        log_likes = {c: -(v * v - best * best) / (2 * HUE_SPREAD_DEG**2) for c, v in gap.items()}
        if calibration.density_hues and m.rgb is not None:
            density = _density(m, where)
            paper = keep & ~inked & ~pale_mask & (relative < MARKED_DARKNESS_MIN)
            paper_density = np.median(density[paper], axis=0) if paper.sum() >= 0.1 * total else np.zeros(3, np.float32)
            ink_hue = density_hue((density[ink_pixels] - paper_density).sum(axis=0))
            gap_d = {c: abs((ink_hue - h + 180.0) % 360.0 - 180.0) for c, h in calibration.density_hues.items()}
            best_d = min(gap_d.values())
            log_likes = {c: (v - (gap_d[c] ** 2 - best_d**2) / (2 * DENSITY_HUE_SPREAD_DEG**2)) / 2 for c, v in log_likes.items()}
            evidence += [("density_hue", ink_hue)]
        likes = {c: math.exp(v - max(log_likes.values())) for c, v in log_likes.items()}
        norm = sum(likes.values())
        colour_probs = {c: w / norm for c, w in likes.items()}
        evidence += [("hue", mean)]
        # How much of the ink lies in solid areas (what a 1 mm disc's opening keeps): a stamp or a coloured-in flower
        # is solid, a scribble or writing in a thin pen (ballpoint) is lines.  Measured on the ink's dark core (over
        # half its 90th-percentile darkness): JPEG's chroma bleeding widens a line's coloured halo, not its core.
        ink_mask = ink_pixels & keep
        if ink_mask.any():
            level = float(np.percentile(dark[ink_mask], 90))
            core = (ink_mask & (dark > 0.5 * level)).astype(np.uint8)
            disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (m.px(SOLID_DISC_MM) | 1,) * 2)
            solid = float(cv2.morphologyEx(core, cv2.MORPH_OPEN, disc).sum()) / max(int(core.sum()), 1)
            evidence += [("ink_solid", solid), ("ink_darkness", level), ("ink_share", float(ink_mask.sum()) / total)]
    # A plot with much ink that no reading explains (pale shading, a smudge, a shadow's edge) is less surely empty.
    marked = float((keep & (relative > MARKED_DARKNESS_MIN)).sum()) / total
    p_marked = _sigmoid((marked - MARKED_FRACTION_MID) / MARKED_FRACTION_SPREAD)
    evidence.append(("marked", marked))
    # A plot coloured all over in pale pencil, or shaded all over in graphite, has no paper of its own to be darker
    # than: its median colour and darkness against the path's paper around it say so (what it is, a person says).
    tint = float(np.median(rel_chroma[keep])) if keep.any() else 0.0
    evidence.append(("tint", tint))
    shade = float(np.median(dark[keep])) - path_dark if keep.any() else 0.0
    evidence.append(("shade", shade))
    rest = 1.0 - p_x
    scores = {
        "bramble": p_x,
        "field": rest * p_green,
        "empty": rest * (1 - p_green) * (1 - p_stamp) * (1 - 0.5 * p_marked),
    }
    for colour in refs:
        scores[colour] = rest * (1 - p_green) * p_stamp * colour_probs[colour]
    # Strokes (pencil darker than the paper right beside it) over much of the plot: something is drawn there even
    # when no reading explains it (very pale coloured pencil), so "empty" is never sure.  A shadow's edge or uneven
    # light is smooth at this scale and leaves no strokes.
    fine = dark.astype(np.float32) - cv2.GaussianBlur(dark.astype(np.float32), (0, 0), STROKE_SCALE_MM * m.px_per_mm)
    stroked = float((keep & (fine > STROKE_DARKNESS_MIN)).sum()) / total
    evidence.append(("stroked", stroked))
    reading = Reading(plot_name(plot), "plot", _ranked(scores), tuple(evidence))
    if reading.value == "empty":
        reading = _capped(reading, 1.0 - 0.5 * _sigmoid((stroked - STROKED_FRACTION_MID) / STROKED_FRACTION_SPREAD), ("stroked", stroked))
        if tint > TINTED_PLOT_MIN:
            reading = _capped(reading, TINTED_PLOT_CONFIDENCE, ("tinted", tint))
        if shade > SHADED_PLOT_MIN:
            reading = _capped(reading, TINTED_PLOT_CONFIDENCE, ("shaded", shade))
    return reading


# --------------------------------------------------------------------------- edges and bubbles


def _border_strip(layout: GardenLayout, plot: Plot, toward: Plot) -> Rect:
    """The strip along ``plot``'s side facing ``toward``, just inside its outline (:data:`SPILL_STRIP_MM`)."""
    return _inward_strip(layout.plots[plot], plot, toward, *SPILL_STRIP_MM)


def _border_grey(m: Maps, layout: GardenLayout, plot: Plot, toward: Plot) -> float:
    """How dark a grey (graphite) fill lies along ``plot``'s side facing ``toward``: the strip's median darkness when
    its median pixel is grey, else 0."""
    where = m.box(_border_strip(layout, plot, toward))
    if float(np.median(m.chroma[where])) >= PENCIL_CHROMA_MAX:
        return 0.0
    return float(np.median(m.darkness[where]))


def _border_ink(m: Maps, layout: GardenLayout, plot: Plot, toward: Plot) -> tuple[float, float, float] | None:
    """The ink that reaches ``plot``'s side facing ``toward`` (a felt fill run to the border), else None: its hue,
    its chroma per unit of darkness (how coloured it is for how dark: graphite over it adds only darkness) and how
    dark it is (the 90th percentile of its darkness there)."""
    where = m.box(_border_strip(layout, plot, toward))
    inked = m.chroma[where] > CHROMA_INK_MIN
    if inked.sum() < SPILL_INKED_SHARE * inked.size:
        return None
    lab = m.lab[where][inked]
    ratio = float(np.median(m.chroma[where][inked] / np.maximum(m.darkness[where][inked], 0.02)))
    level = float(np.percentile(m.darkness[where][inked], 90))
    hue = math.degrees(math.atan2(float(np.median(lab[:, 2])), float(np.median(lab[:, 1]))))
    # Spilled ink is continuous with the plot's own fill: the same ink lies further in.  A pen's brick that
    # wobbles into the strip is no fill (photogen2 seeds 800014, 800038: blue ballpoint bricks read as spill).
    deep = _inward_strip(layout.plots[plot], plot, toward, *SPILL_DEEP_MM)
    where_deep = m.box(deep)
    inked_deep = m.chroma[where_deep] > CHROMA_INK_MIN
    if inked_deep.sum() < SPILL_INKED_SHARE * inked_deep.size:
        return None
    lab_deep = m.lab[where_deep][inked_deep]
    hue_deep = math.degrees(math.atan2(float(np.median(lab_deep[:, 2])), float(np.median(lab_deep[:, 1]))))
    if abs((hue_deep - hue + 180.0) % 360.0 - 180.0) >= SPILL_HUE_DEG:
        return None
    return hue, ratio, level


def _inward_strip(box: Rect, plot: Plot, toward: Plot, near: float, far: float) -> Rect:
    """The strip of ``box`` from ``near`` to ``far`` mm in from its side facing ``toward``."""
    if toward == plot + 1:
        return Rect(box.right_mm - far, box.y_mm, far - near, box.h_mm)
    if toward == plot - 1:
        return Rect(box.x_mm + near, box.y_mm, far - near, box.h_mm)
    if toward > plot:
        return Rect(box.x_mm, box.bottom_mm - far, box.w_mm, far - near)
    return Rect(box.x_mm, box.y_mm + near, box.w_mm, far - near)


def _joined_to_fill(m: Maps, layout: GardenLayout, plot: Plot, toward: Plot, hue: float, ys: slice, xs: slice) -> NDArray[Any]:
    """Which pixels of the edge band ``(ys, xs)`` are joined, through ink of ``hue``, to ``plot``'s fill.

    Spilled ink is one blob with the flower it ran out of; a pen's brick of the same colour drawn along the gap is
    a line of its own, with the printed outline and paper between it and the fill (photogen2 seeds 800038, 800014:
    navy bricks beside blue flowers were taken for spill and read as no brick).
    """
    box = layout.plots[plot]
    reach = SPILL_JOIN_MM
    if toward in (plot + 1, plot - 1):
        x0 = min(xs.start, m.px(box.right_mm - reach)) if toward == plot + 1 else xs.start
        x1 = xs.stop if toward == plot + 1 else max(xs.stop, m.px(box.x_mm + reach))
        y0, y1 = ys.start, ys.stop
        deep = (slice(None), slice(0, 2)) if toward == plot + 1 else (slice(None), slice(-2, None))
    else:
        y0 = min(ys.start, m.px(box.bottom_mm - reach)) if toward > plot else ys.start
        y1 = ys.stop if toward > plot else max(ys.stop, m.px(box.y_mm + reach))
        x0, x1 = xs.start, xs.stop
        deep = (slice(0, 2), slice(None)) if toward > plot else (slice(-2, None), slice(None))
    lab = m.lab[y0:y1, x0:x1]
    hues = np.degrees(np.arctan2(lab[..., 2], lab[..., 1])).astype(np.float32)
    chroma = m.chroma[y0:y1, x0:x1]
    # A dense felt fill is too dark to look like ink's rim (``_ink_like``) but is as coloured as a stamp.
    inked = (chroma > CHROMA_INK_MIN) | _ink_like(chroma, m.darkness[y0:y1, x0:x1])
    ink = (inked & (_hue_gap(hues, hue) < SPILL_HUE_DEG)).astype(np.uint8)
    _, labels = cv2.connectedComponents(ink, connectivity=8)
    fill = np.unique(labels[deep][ink[deep] > 0])
    joined = np.isin(labels, fill[fill > 0])
    result: NDArray[Any] = joined[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]
    return result


def _within(mask: NDArray[Any], mm: float, m: Maps) -> NDArray[Any]:
    """The pixels within ``mm`` of ``mask`` (its own included)."""
    k = 2 * m.px(mm) + 1
    grown: NDArray[Any] = cv2.dilate(mask.astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    return grown


def _ink_like(chroma: FloatImage, darkness: FloatImage) -> NDArray[Any]:
    """Pixels coloured like ink (or its blurred rim), not like graphite: chroma grows with darkness far faster."""
    mask: NDArray[Any] = chroma > np.maximum(SPILL_CHROMA_MIN, INK_CHROMA_SLOPE * darkness)
    return mask


def read_edge(m: Maps, layout: GardenLayout, index: int, across_mm: float = 0.0) -> Reading:
    """An edge's reading from a band along its path; ``across_mm`` shifts the band across the path (toward the
    second plot), to see whether a reading stands if the sheet is misregistered there."""
    slot = layout.edge_slots[index]
    band, end = EDGE_BAND_MM, EDGE_END_MM
    vertical = slot.x1_mm == slot.x2_mm  # a vertical line between left/right neighbours
    ends = sorted((slot.y1_mm, slot.y2_mm) if vertical else (slot.x1_mm, slot.x2_mm))
    along = slice(m.px(ends[0] + end), m.px(ends[1] - end))
    middle = (slot.x1_mm if vertical else slot.y1_mm) + across_mm
    # (Shifted with the band: a sheet misregistered there has its outlines shifted as much.)
    side = min(EDGE_SIDE_MM, layout.path_mm / 2 - EDGE_OUTLINE_CLEAR_MM)
    left, centre, right = (
        (along, across) if vertical else (across, along)
        for across in (
            slice(m.px(middle - side), m.px(middle - band)),
            slice(m.px(middle - band), m.px(middle + band) + 1),
            slice(m.px(middle + band) + 1, m.px(middle + side) + 1),
        )
    )
    axis = 1 if vertical else 0
    ys, xs = centre
    dark, lab = m.darkness[ys, xs], m.lab[ys, xs]
    # The paper beside the band, where it shows on both sides (a line wider than the band fills it); none on a path
    # too narrow for it (its strips hold no pixels).
    left_dark, right_dark = m.darkness[left], m.darkness[right]
    sides = bool(left_dark.size and right_dark.size)
    beside = np.maximum(left_dark.min(axis=axis), right_dark.min(axis=axis)) if sides else np.full(dark.shape[1 - axis], np.inf, np.float32)
    # Colour against the band's own paper (its paper-looking pixels: ink covering the band must not pass for the
    # paper's cast), so a colour cast or JPEG's chroma bleeding from a stamp nearby shifts paper and pencil alike.
    tint = _paper_cast(lab.reshape(-1, 3)) if dark.size else (0.0, 0.0)
    rel_a, rel_b = lab[..., 1] - tint[0], lab[..., 2] - tint[1]
    chroma = np.hypot(rel_a, rel_b)
    # Ink spilled out of a neighbouring plot has that plot's colour: it is no line, whatever its shape.
    edge = EDGES[index]
    spill = np.zeros(dark.shape, bool)
    inky = _ink_like(chroma, dark)
    hues = np.degrees(np.arctan2(rel_b, rel_a)).astype(np.float32)
    base = dark.copy()
    darker = np.zeros(dark.shape, bool)
    blurred = np.zeros(dark.shape, bool)
    seam = np.zeros(dark.shape, bool)
    inks = 0
    for plot, other in ((edge.a, edge.b), (edge.b, edge.a)):
        ink = _border_ink(m, layout, plot, other)
        if ink is not None:
            hue, ratio, level = ink
            inks += 1
            # Spilled ink is the fill's own ink, no darker than it: a line far darker in its hue is a pen's brick (a
            # dark green felt brick beside a field's pale green hatching, photogen3 development seeds 2002, 2030).
            joined = inky & (_hue_gap(hues, hue) < SPILL_HUE_DEG) & _joined_to_fill(m, layout, plot, other, hue, ys, xs)
            theirs = joined & (dark < level + SPILL_DARKER_MAX)
            darker |= joined & ~theirs
            # A photo keeps colour at half resolution (JPEG): a felt edge fades to paper over most of a millimetre through
            # pixels paler than ink yet still of its hue; where two fills meet in the path, their seam is grey.  Along
            # spills that end inside the band (felt run 3 mm into release 3's 5 mm path, tests/photos) either read as a
            # brick at 0.95-1.00.  Graphite beside the spill stays grey (a pencil brick there, photogen3 seed 790006).
            near = _within(theirs, SPILL_RIM_MM, m)
            blurred |= near & (dark < SPILL_RIM_SHARE * level) & (chroma > SPILL_RIM_CHROMA_MIN) & (_hue_gap(hues, hue) < SPILL_HUE_DEG)
            seam = (seam & near) if inks == 2 else near
            spill |= theirs
            # Graphite over the spilled ink darkens it without colouring it: what is left is the pencil's.
            base = np.where(theirs, np.maximum(dark - chroma / ratio, 0.0), base)
    spill |= (blurred | seam) if inks == 2 else blurred
    spilled = float(spill.mean()) if spill.size else 0.0
    # The printed plot outlines are green: slid into the band (a bent sheet), they are no line either.
    printed = inky & (_hue_gap(hues, _hue(GREEN_LAB)) < GREEN_HUE_RANGE_DEG) & ~spill
    # A pencil line is grey however dark it is; the blurred rim of coloured ink is as coloured as it is dark.
    grey = (chroma < PENCIL_CHROMA_MAX) & (chroma < EDGE_GREY_NOISE + EDGE_GREY_SLOPE * dark) & ~spill & ~printed
    p, coverage, darkness, _ = _edge_line(np.where(grey, dark, 0.0), dark, axis, m, beside)
    if spilled > 0:
        # What graphite would add over the spilled ink (two inks overlapping add it too): at most halfway, for review.
        p_over, *_ = _edge_line(np.where(grey | spill, base, 0.0), base, axis, m, beside)
        if p_over > p:
            p += (p_over - p) * EDGE_COLOURED_WEIGHT
    # A green line along the path's middle is no printed outline (those lie half a path out, and slide in only where the
    # sheet is misregistered, which is doubted or re-read shifted): a brick drawn in green felt or ballpoint.
    across = np.abs(np.arange(dark.shape[axis]) + 0.5 - dark.shape[axis] / 2) / m.px_per_mm
    core = np.broadcast_to((across < EDGE_CORE_MM).reshape((1, -1) if axis == 1 else (-1, 1)), dark.shape)
    spill |= printed & ~core
    # Dark pixels turned away only for their colour (too coloured for graphite, too pale for a stamp, not a
    # neighbour's ink) are no evidence either way: when counting them would make a line, the edge goes halfway
    # toward it, for review.  A ballpoint line is one of them: blue ink is read as a line outright.
    tinted = (chroma < EDGE_COLOURED_CHROMA_MAX) & (chroma < EDGE_TINT_SLOPE * dark) & ~spill
    p_coloured, *_ = _edge_line(np.where(tinted, base, 0.0), base, axis, m, beside)
    if p_coloured > p:
        p += (p_coloured - p) * EDGE_COLOURED_WEIGHT
    p_pen, _, pen_darkness, dash_mm = _edge_line(np.where(~spill, base, 0.0), base, axis, m, beside)
    line_darkness = darkness
    if p_pen > p and spilled < EDGE_SPILL_SHARE_MAX:
        # Nothing spilled here: a dark coloured stroke along the edge is a pen's line.
        p = p_pen
        line_darkness = max(darkness, pen_darkness)
    elif p_pen > p:
        # Ink spilled beside it: a coloured line apart from the spill may be a pen's brick or the spill's unjoined rim;
        # a person decides (photogen3 development seeds 2001, 2013: bricks beside spilled felt read none at 0.93-0.98).
        # (It only ever lowers a reading of "none" to a doubt: it never makes a brick surer.)
        p = max(p, min(p_pen, 0.5))
    # A line along the path's middle in the spill's hue but far darker than the fill it would have run from is a pen's.
    # (Where both neighbours' fills reach the gap, their inks overlapping there are darker than either: no pen's.)
    p_darker, _, darker_darkness, _ = _edge_line(np.where(darker & core, base, 0.0), base, axis, m, beside)
    if inks == 1 and p_darker >= ROBUST_CONFIDENCE and p_darker > p:
        p = p_darker
        line_darkness = max(line_darkness, darker_darkness)
    # A thin pen line (ballpoint) is too faint in darkness to cover the edge but plainly coloured against the paper.
    coloured_line = (chroma > EDGE_PEN_CHROMA_MIN) & ~spill & ~printed
    profile = coloured_line.any(axis=axis).astype(np.uint8) if coloured_line.size else np.zeros(0, np.uint8)
    k = max(1, m.px(EDGE_GAP_BRIDGE_MM))
    pen_coverage = float(cv2.erode(profile.reshape(1, -1), np.ones((1, k), np.uint8)).mean()) if profile.size else 0.0
    # A plot shaded in graphite whose hatching runs into the gap darkens the band from its side, fading toward the
    # other: a line there is the shading's edge unless it is darker than the shading beside it (a brick's peak).
    across_profile = np.median(dark, axis=1 - axis) if dark.size else np.zeros(1, np.float32)
    peak = int(np.argmax(across_profile))
    rim = max(1, m.px(GREY_SPILL_RIM_MM))
    grey_side = min(edge.a, edge.b) if peak < rim else max(edge.a, edge.b) if peak >= len(across_profile) - rim else None
    grey_fill = _border_grey(m, layout, grey_side, edge.b if grey_side == edge.a else edge.a) if grey_side is not None else 0.0
    if grey_fill > GREY_SPILL_MIN and p > GREY_SPILL_CONFIDENCE:
        p = GREY_SPILL_CONFIDENCE
    coverage_seen = max(coverage, pen_coverage)
    # A dark dash along the path a few millimetres long, with paper beside the band on both sides and no neighbour's
    # ink or graphite shading run into it (a fill's scalloped edge leaves such dashes, and reaches the middle of
    # release 2's 3 mm path: 5 of its empty edges were asked on photogen3 820000-820119): a short brick (photogen3
    # marks some 2-4 mm), or a stray stroke.
    dash = sides and dash_mm >= EDGE_DASH_MM and spilled < EDGE_SPILL_SHARE_MAX and grey_fill <= GREY_SPILL_MIN
    if (coverage_seen >= EDGE_SHORT_COVERAGE or dash) and p < EDGE_SHORT_P:
        # A clear line over part of the edge: a short brick, or a stray stroke; a person decides.
        p = EDGE_SHORT_P
    name = f"edge {edge.name}"
    evidence = (
        ("coverage", coverage),
        ("darkness", darkness),
        ("line_darkness", line_darkness),
        ("coloured", p_coloured),
        ("pen", p_pen),
        ("spill", spilled),
        ("pen_coverage", pen_coverage),
        ("grey_fill", grey_fill),
        ("dash_mm", dash_mm),
    )
    return Reading(name, "edge", _ranked({"brick": p, "none": 1 - p}), evidence)


def _edge_line(grey: FloatImage, dark: FloatImage, axis: int, m: Maps, beside: FloatImage) -> tuple[float, float, float, float]:
    """How surely the pencil pixels ``grey`` (others 0) make a line along an edge band: (p, coverage, darkness, and
    the length in mm of its longest unbroken piece); ``beside``, the paper on both sides of the band at each position
    along it (:func:`read_edge`)."""
    # Darkest grey point across the band against the lightest one at the same position (or beside the band): a
    # shadow's edge cancels.
    profile = (grey.max(axis=axis) - np.minimum(dark.min(axis=axis), beside)).astype(np.float32) if grey.size else np.zeros(0, np.float32)
    # A running minimum over a gap's length: the dashes of the printed guide fall apart, a line does not.
    k = max(1, m.px(EDGE_GAP_BRIDGE_MM))
    bridged = (
        cv2.erode(profile.reshape(1, -1), np.ones((1, k), np.uint8), borderType=cv2.BORDER_REPLICATE).ravel() if len(profile) else profile
    )
    coverage = float((bridged > EDGE_DARKNESS_MIN).mean()) if len(bridged) else 0.0
    darkness = float(np.median(bridged)) if len(bridged) else 0.0
    # The longest piece that running minimum keeps, at its full length (it keeps pieces of at least its window).
    longest = _longest_run(profile > EDGE_DARKNESS_MIN)
    dash_mm = longest / m.px_per_mm if longest >= k else 0.0
    # Two views of one line: how much of the slot it covers, and how dark the slot is along its length.
    # Sure when they agree; a faint line (dark enough, too faint to cover) lands in between, for review.
    p = (_sigmoid((coverage - EDGE_COVERAGE_MID) / EDGE_COVERAGE_SPREAD) + _sigmoid((darkness - EDGE_MEDIAN_MID) / EDGE_MEDIAN_SPREAD)) / 2
    return p, coverage, darkness, dash_mm


def _longest_run(flags: NDArray[Any]) -> int:
    """The length of the longest run of True in a 1-D array."""
    if not flags.any():
        return 0
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return int((edges[1::2] - edges[::2]).max())


def _bubble_window(m: Maps, circle: Circle) -> tuple[tuple[slice, slice], NDArray[Any]]:
    """A square of one size for every bubble around its centre, and the bubble's core in it (the same for all)."""
    half = math.ceil(circle.r_mm * BUBBLE_CORE * m.px_per_mm) + 1
    cx, cy = round(circle.cx_mm * m.px_per_mm), round(circle.cy_mm * m.px_per_mm)
    yy, xx = np.ogrid[-half : half + 1, -half : half + 1]
    inside = (xx**2 + yy**2) <= (circle.r_mm * BUBBLE_CORE * m.px_per_mm) ** 2
    return (slice(cy - half, cy + half + 1), slice(cx - half, cx + half + 1)), inside


def _bubble_ring(m: Maps, circle: Circle) -> tuple[tuple[slice, slice], NDArray[Any]]:
    """The paper ring around a bubble: from half a millimetre past its outline to :data:`BUBBLE_RING_MM` past it."""
    around, disc = _disc(m, circle, circle.r_mm + BUBBLE_RING_MM)
    yy, xx = np.ogrid[around[0], around[1]]
    outside = (xx + 0.5 - circle.cx_mm * m.px_per_mm) ** 2 + (yy + 0.5 - circle.cy_mm * m.px_per_mm) ** 2 > (
        (circle.r_mm + 0.5) * m.px_per_mm
    ) ** 2
    ring: NDArray[Any] = disc & outside
    return around, ring


def _bubble_paper(m: Maps, circle: Circle) -> float:
    """The darkness of the paper just around a bubble (its lighter part, no ink: a field's fill may reach it)."""
    around, ring = _bubble_ring(m, circle)
    dark = m.darkness[around]
    # Coloured pixels are ink (a plot's dark felt run up to the bubble is not coloured enough for _ink_like), never paper.
    paper = ring & ~_ink_like(m.chroma[around], dark) & (m.chroma[around] < PATH_PAPER_CHROMA_MAX)
    ring_paper = float(np.percentile(dark[paper], 25)) if paper.sum() >= BUBBLE_PAPER_MIN_SHARE * ring.sum() else 0.0
    # The paper between the printed butterfly's wings inside the bubble caps it: a plot's pencil hatching all round
    # the bubble (low chroma, so not ink) would otherwise pass for dark paper and sink the bubble below its print.
    where, inside = _bubble_window(m, circle)
    return min(ring_paper, float(np.percentile(m.darkness[where][inside], BUBBLE_INNER_PAPER_PERCENTILE)))


def bubble_prints(m: Maps, layout: GardenLayout) -> tuple[list[FloatImage], NDArray[Any]]:
    """The printed butterfly inside each bubble as this photo shows it there (darkness above the paper around it), and
    the pixels of the bubbles' window between its wings (under :data:`BUBBLE_BETWEEN_WINGS` of its peak).

    Its shape is what most bubbles show (the median over the 25: marks differ from bubble to bubble, the print does
    not); its strength is measured in each bubble over the print's darker half, since glare or clipped highlights
    wash the pale print out far more than the dark marks or the bubble's outline.  A bubble's print is never taken
    darker than :data:`BUBBLE_PRINT_LEVEL_SLACK` times the typical one (a mark over the print is no print), nor than
    :data:`BUBBLE_PRINT_MAX` (a sheet whose every bubble is filled keeps its marks); it is widened by
    :data:`BUBBLE_PRINT_SLACK_MM` for a bubble's placement.
    """
    stack = []
    inside = np.zeros(0, bool)
    for plot in PLOTS:
        circle = layout.bubbles[plot]
        where, inside = _bubble_window(m, circle)
        stack.append(m.darkness[where] - _bubble_paper(m, circle))
    darkness = np.stack(stack).astype(np.float32)
    typical = np.median(darkness, axis=0)
    peak = float(typical[inside].max()) if inside.any() else 0.0
    if peak <= 0:
        return [np.zeros_like(typical) for _ in PLOTS], inside
    shape = np.clip(typical / peak, 0.0, 1.0) * inside
    between = inside & (shape < BUBBLE_BETWEEN_WINGS)
    darker = shape > 0.5
    levels = np.array([float(np.median(d[darker])) for d in darkness]) / float(np.median(shape[darker]))
    ceiling = BUBBLE_PRINT_LEVEL_SLACK * float(np.median(levels))
    k = 2 * max(1, m.px(BUBBLE_PRINT_SLACK_MM)) + 1
    widened: FloatImage = cv2.dilate(shape.astype(np.float32), np.ones((k, k), np.uint8))
    return [np.clip(widened * min(max(level, 0.0), ceiling), 0.0, BUBBLE_PRINT_MAX) for level in levels], between


def _own_colour(m: Maps, where: tuple[slice, slice], hue: float) -> NDArray[Any]:
    """Pixels of ``where`` in the hue of the plot's own colour and visibly coloured (ink, felt or coloured pencil)."""
    lab = m.lab[where]
    hues = np.degrees(np.arctan2(lab[..., 2], lab[..., 1])).astype(np.float32)
    own: NDArray[Any] = (m.chroma[where] > PALE_CHROMA_MIN) & (_hue_gap(hues, hue) < OWN_HUE_DEG)
    return own


def _own_ink_in_plot(m: Maps, layout: GardenLayout, plot: Plot, hue: float) -> float:
    """How dark the plot's own colour lies in its sample (clear of the bubble): its :data:`FIELD_INK_PERCENTILE`th
    percentile, 0 without any."""
    where, keep = _plot_sample(m, layout, plot)
    own = _own_colour(m, where, hue) & keep
    return float(np.percentile(m.darkness[where][own], FIELD_INK_PERCENTILE)) if own.any() else 0.0


def _joined_to_plot(m: Maps, circle: Circle, where: tuple[slice, slice], hue: float) -> NDArray[Any]:
    """The pixels of ``where`` in the plot's own colour joined, through that colour, to the plot beyond the paper ring
    around the bubble: a fill, hatching or flower's edge run over the bubble is; a tick or scribble in the same pen,
    within the bubble, is a mark of its own (a felt tick in the flower's colour was read `empty` at 0.99)."""
    around, _ = _disc(m, circle, circle.r_mm + BUBBLE_RING_MM + BUBBLE_JOIN_REACH_MM)
    yy, xx = np.ogrid[around[0], around[1]]
    distance = np.hypot(xx + 0.5 - circle.cx_mm * m.px_per_mm, yy + 0.5 - circle.cy_mm * m.px_per_mm) / m.px_per_mm
    own = _own_colour(m, around, hue).astype(np.uint8)
    count, labels = cv2.connectedComponents(own, connectivity=8)
    beyond = np.unique(labels[(own > 0) & (distance > circle.r_mm + BUBBLE_RING_MM)])
    joined = np.isin(labels, beyond[beyond > 0]) if count > 1 else np.zeros(labels.shape, bool)
    # ``where`` lies within ``around`` (the bubble's core window inside its ringed disc).
    y0, x0 = where[0].start - around[0].start, where[1].start - around[1].start
    inner: NDArray[Any] = joined[y0 : y0 + where[0].stop - where[0].start, x0 : x0 + where[1].stop - where[1].start]
    return inner


def _ring_darkness(m: Maps, circle: Circle, paper: float, hue: float) -> float:
    """The median darkness, above ``paper``, of the plot's own colour in the ring around a bubble (its fill there)."""
    around, ring = _bubble_ring(m, circle)
    own = _own_colour(m, around, hue) & ring
    return float(np.median(m.darkness[around][own])) - paper if own.any() else 0.0


def _own_ink_around(m: Maps, circle: Circle, hue: float) -> tuple[float, float]:
    """The share of the paper ring around a bubble in the plot's own colour (its fill reaches the bubble; a stamp
    does not), and how dark that colour is there (its 75th percentile, 0 without any)."""
    around, ring = _bubble_ring(m, circle)
    own = _own_colour(m, around, hue) & ring
    share = float(own.sum()) / max(int(ring.sum()), 1)
    return share, (float(np.percentile(m.darkness[around][own], 75)) if own.any() else 0.0)


def read_bubble(
    m: Maps,
    layout: GardenLayout,
    plot: Plot,
    plot_reading: Reading | None = None,
    calibration: Calibration | None = None,
    printed: FloatImage | None = None,
    between: NDArray[Any] | None = None,
) -> Reading:
    """A butterfly bubble: filled by any deliberate mark (a fill, scribble, tick or cross, in pencil or any pen).

    ``plot_reading`` (its plot, read first) says which colour is the plot's own (a fill run over the bubble is no
    mark, and doubtful) and whether a bramble's X may run through the bubble (its stroke is no mark either);
    ``printed`` is this bubble's :func:`bubble_prints` (what is printed in the bubble is no mark), ``between`` the
    pixels between the printed wings (the whole core without it).
    """
    circle = layout.bubbles[plot]
    where, inside = _bubble_window(m, circle)
    paper = _bubble_paper(m, circle)
    darkness, chroma = m.darkness[where] - paper, m.chroma[where]
    dark = (darkness > BUBBLE_DARKNESS_MIN) & (chroma < PENCIL_CHROMA_MAX * 2)
    n = max(int(inside.sum()), 1)
    # The plot's own colour (its stamp's or a field's green), if a fill of it may have run over the bubble.
    own_hue = None
    if plot_reading is not None and calibration is not None:
        if plot_reading.value in calibration.inks:
            own_hue = _hue(calibration.inks[plot_reading.value])
        elif plot_reading.value == "field":
            own_hue = _hue(GREEN_LAB)
    own = np.zeros(inside.shape, bool)
    spread = surrounded = False
    if own_hue is not None and plot_reading is not None and calibration is not None:
        # Pixels in the plot's own colour, no darker than its ink (as stamped in the key, or as it lies around
        # the bubble): the plot's fill or hatching, not a pen's mark.
        share, around_dark = _own_ink_around(m, circle, own_hue)
        spread = share >= BUBBLE_OWN_RING_SHARE
        surrounded = share >= BUBBLE_SURROUNDED_RING_SHARE
        ink_dark = max(1.0 - calibration.inks.get(plot_reading.value, GREEN_LAB)[0] / 100.0, around_dark if spread else 0.0)
        if plot_reading.value == "field":
            # A field's green has no stamp in the key to say how dark it is: its felt strokes are as dark as they lie
            # in the plot (dark felt hatching run into the bubble passed for a green mark: read `filled` at 0.96-1.0).
            ink_dark = max(ink_dark, _own_ink_in_plot(m, layout, plot, own_hue))
        own = _own_colour(m, where, own_hue) & (m.darkness[where] < ink_dark + OWN_DARKNESS_SLACK)
        own &= _joined_to_plot(m, circle, where, own_hue)
    above_print = darkness - (printed if printed is not None and printed.shape == darkness.shape else 0.0)
    # Only colour laid over the paper counts as the plot's fill over the bubble: the printed butterfly's own tint, or
    # the phone's chroma smoothing bleeding the fill's colour over the white bubble, leave it as light as paper.
    own_fraction = float((own & inside & (above_print > BUBBLE_OWN_DARKNESS_MIN)).sum()) / n
    # The plot's own colour is its fill only where that fill reaches the bubble's surroundings: ink of that colour over
    # most of a bubble ringed by paper was put there, a mark (the bubble filled with the flower's own pen).  A little
    # of it is the flower's edge overlapping the bubble (photogen2 seed 900005: 13 %).
    own_is_mark = not spread and own_fraction >= BUBBLE_OWN_FILLED_MIN
    marked = (above_print > BUBBLE_MARK_DARKNESS) & (own_is_mark | ~own) & inside
    run_in = _run_in_stroke(m, layout, plot, circle, where, paper, marked)
    stroke = _through_stroke(m, layout, plot, circle, where, paper) | run_in
    # A plot only doubted as a bramble (another reading on top) cannot say surely that strokes through its bubble are
    # the bramble's: the marks they would take away keep the bubble as doubtful as they make it, up to even odds (a
    # tick along a scribbled bramble's stroke was read `empty` at 0.98 on photogen3 held-out seed 770030).
    p_doubt = 0.0
    if plot_reading is not None and dict(plot_reading.probabilities).get("bramble", 0.0) > BUBBLE_BRAMBLE_MIN:
        if plot_reading.value != "bramble":
            kept = float((marked & ~stroke).sum()) / n
            p_doubt = min(_sigmoid((kept - BUBBLE_MARK_MID) / BUBBLE_MARK_SPREAD), BUBBLE_OWN_CONFIDENCE)
        stroke |= _bramble_stroke(m, layout, plot, circle, where, paper)
    taken = marked & stroke
    other = _other_pen(m, layout, plot, circle, where, paper, taken)
    other_pen = float(other.sum()) / n
    p_other = min(
        _sigmoid((other_pen - BUBBLE_OTHER_PEN_MID) / BUBBLE_OTHER_PEN_SPREAD),
        _sigmoid((float(other.sum()) / max(int(taken.sum()), 1) - BUBBLE_OTHER_PEN_SHARE) / BUBBLE_OTHER_PEN_SHARE_SPREAD),
    )
    marked &= ~stroke
    mark_fraction = float(marked.sum()) / n
    # What is dark along a stroke running in is the stroke's, not a fill's (a felt X covered 40-54 % of the core).  (The
    # bands of the strokes along the diagonal are wider than the stroke: they may cover a cross or fill it runs into.)
    fraction = float((dark & inside & ~run_in).sum()) / n
    p_fill = _sigmoid((fraction - BUBBLE_FILL_MID) / BUBBLE_FILL_SPREAD)
    p_mark = _sigmoid((mark_fraction - BUBBLE_MARK_MID) / BUBBLE_MARK_SPREAD)
    p = max(p_fill, p_mark, p_doubt, p_other)
    if surrounded and mark_fraction < BUBBLE_SURROUNDED_MARK_MAX:
        # The plot's fill runs on all round the bubble and across it, with nothing darker than it inside: the
        # flower or field was coloured over the bubble, no mark.  (A deliberate fill in the plot's colour stays
        # inside the bubble and leaves paper around it.)  What is dark inside is then the fill's, not a mark's.
        p = max(_sigmoid((float((dark & inside & ~own).sum()) / n - BUBBLE_FILL_MID) / BUBBLE_FILL_SPREAD), p_mark)
    else:
        # Coloured over by the plot's own fill: a mark may hide under it, or none be there; a person decides.
        w = _sigmoid((own_fraction - BUBBLE_OWN_MID) / BUBBLE_OWN_SPREAD) if spread else 0.0
        p = p * (1 - w) + BUBBLE_OWN_CONFIDENCE * w
    # The paper between the printed wings says what lies over the whole bubble.  A grey layer there is a fill, however
    # light (a pencil fill run past the outline all round leaves no paper around it to be darker than: it was read
    # `empty` at 0.96-0.99); where the plot's fill runs around the bubble, paper there much darker than that fill is a
    # fill over it (pencil over a flower keeps the flower's hue, so it passed for the flower's own colour).
    gap = (between if between is not None and between.shape == inside.shape else inside) & inside
    layer = over_fill = 0.0
    if gap.any():
        layer = float(np.percentile(darkness[gap], 25))
        if float(np.median(chroma[gap])) < PALE_CHROMA_MIN:
            p = max(p, _sigmoid((layer - BUBBLE_LAYER_MID) / BUBBLE_LAYER_SPREAD))
        if spread and own_hue is not None:
            over_fill = float(np.median(darkness[gap])) - _ring_darkness(m, circle, paper, own_hue)
            p = max(p, _sigmoid((over_fill - BUBBLE_OVER_FILL_MID) / BUBBLE_OVER_FILL_SPREAD))
    over_marks = 0.0
    if surrounded and own_hue is not None:
        # A fill all round the bubble says how dark its colour lies there: strokes much darker than it in the core are
        # marks over it, whatever their hue (pencil over a flower keeps the flower's hue: read `empty` at 0.99), but a
        # bramble's stroke through it is not (an X over a printed starting field: photogen2 seed 900007).
        fill_level = _ring_darkness(m, circle, paper, own_hue)
        over_marks = float(((above_print > fill_level + BUBBLE_MARK_DARKNESS) & inside & ~stroke).sum()) / n
        p = max(p, _sigmoid((over_marks - BUBBLE_OVER_MARKS_MID) / BUBBLE_OVER_MARKS_SPREAD))
        lies_across = own_fraction >= BUBBLE_UNDER_FILL_OWN_MIN and over_fill < BUBBLE_UNDER_FILL_LEVEL_MAX
        if lies_across and over_marks < BUBBLE_SURROUNDED_MARK_MAX:
            # The fill lies on across the bubble with nothing darker over it: its grain may pass for a mark, or hide a
            # tick in its own shade; a person decides.
            p = min(p, BUBBLE_OWN_CONFIDENCE)
    plot_seen = dict(plot_reading.evidence) if plot_reading is not None else {}
    if plot_reading is not None and (plot_reading.value == "empty" or "writing_over_shading" in plot_seen):
        # A plot doubted empty for being shaded grey all over (a field shaded in pencil), or doubted as writing over
        # such a field, may have run its shading over the bubble, as a coloured fill does: a grey layer there no darker
        # than the shading is no sure mark (:data:`SHADED_PLOT_MIN`; photogen3 development seeds 780024, 780031,
        # 300053: hatching read `filled` at 1.0).
        shade = plot_seen.get("shade", 0.0)
        if shade > SHADED_PLOT_MIN and layer < shade + OWN_DARKNESS_SLACK:
            p = min(p, BUBBLE_OWN_CONFIDENCE)
    evidence = (
        ("fill", fraction),
        ("mark", mark_fraction),
        ("own_colour", own_fraction),
        ("layer", layer),
        ("over_fill", over_fill),
        ("over_marks", over_marks),
        ("other_pen", other_pen),
    )
    return Reading(f"butterfly {plot_name(plot)}", "butterfly", _ranked({"filled": p, "empty": 1 - p}), evidence)


@dataclass(frozen=True)
class _Diagonal:
    """Pixels around a bubble in the frame of the line from its centre to its plot's centre (where an X passes)."""

    dx: float
    dy: float
    """The unit direction from the bubble's centre to the plot's."""
    around: tuple[slice, slice]
    disc: NDArray[Any]
    along: NDArray[Any]
    """Millimetres along that line from the bubble's centre, per pixel of ``around``."""
    offset: NDArray[Any]
    """Millimetres across it."""

    def band(self, m: Maps, circle: Circle, where: tuple[slice, slice], centre: float, half_width: float) -> NDArray[Any]:
        """The pixels of ``where`` within ``half_width`` of the parallel line at offset ``centre``."""
        yy, xx = (a.astype(np.float32) for a in np.ogrid[where[0], where[1]])
        ux, uy = (xx + 0.5) / m.px_per_mm - circle.cx_mm, (yy + 0.5) / m.px_per_mm - circle.cy_mm
        band: NDArray[Any] = np.abs(ux * self.dy - uy * self.dx - centre) < half_width
        return band


def _towards_centre(m: Maps, layout: GardenLayout, plot: Plot, circle: Circle, reach_mm: float) -> _Diagonal:
    cx, cy = layout.plots[plot].centre_mm
    dx, dy = cx - circle.cx_mm, cy - circle.cy_mm
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    around, disc = _disc(m, circle, reach_mm)
    yy, xx = (a.astype(np.float32) for a in np.ogrid[around[0], around[1]])
    ux, uy = (xx + 0.5) / m.px_per_mm - circle.cx_mm, (yy + 0.5) / m.px_per_mm - circle.cy_mm
    return _Diagonal(dx, dy, around, disc, ux * dx + uy * dy, ux * dy - uy * dx)


def _bramble_stroke(m: Maps, layout: GardenLayout, plot: Plot, circle: Circle, where: tuple[slice, slice], paper: float) -> NDArray[Any]:
    """The pixels of ``where`` on a bramble's stroke that runs on through the bubble (its X passes the plot's corner).

    The stroke is found outside the bubble, on the way to the plot's centre, within :data:`BUBBLE_X_SEARCH_MM` of the
    line from the bubble's centre to the plot's; its offset from that line is where it crosses the bubble.
    """
    diagonal = _towards_centre(m, layout, plot, circle, circle.r_mm + BUBBLE_RING_MM + BUBBLE_X_SEARCH_MM)
    around, disc, along, offset = diagonal.around, diagonal.disc, diagonal.along, diagonal.offset
    # Short of the plot's centre, where the X's other stroke crosses.
    search = disc & (along > circle.r_mm + 0.6) & (along < circle.r_mm + 0.6 + BUBBLE_X_ALONG_MM) & (np.abs(offset) < BUBBLE_X_SEARCH_MM)
    dark = m.darkness[around] - paper
    stroke = search & (dark > BUBBLE_MARK_DARKNESS) & ~_ink_like(m.chroma[around], dark)
    if stroke.sum() < BUBBLE_X_MIN_MM2 * m.px_per_mm**2:
        return np.zeros((where[0].stop - where[0].start, where[1].stop - where[1].start), bool)
    centre = float(np.median(offset[stroke]))
    # As wide as the stroke shows outside the bubble (blur widens it), at least BUBBLE_X_BAND_MM.
    half_width = max(BUBBLE_X_BAND_MM, float(np.percentile(np.abs(offset[stroke] - centre), 90)) + BUBBLE_X_MARGIN_MM)
    return diagonal.band(m, circle, where, centre, half_width)


def _through_stroke(m: Maps, layout: GardenLayout, plot: Plot, circle: Circle, where: tuple[slice, slice], paper: float) -> NDArray[Any]:
    """The pixels of ``where`` on a straight stroke, in any ink, that runs on through the bubble from deep in the plot.

    A bramble's X (in pencil or any pen) passes the plot's corner, where the bubble is: its stroke crosses the bubble
    along the diagonal.  A mark in the bubble (fill, tick, cross, scribble) stays within about a millimetre of its
    outline, so a narrow line along the diagonal from :data:`THROUGH_FROM_MM` to :data:`THROUGH_TO_MM` past the
    outline toward the plot's centre is no mark; what it covers inside the bubble is left out of the marks.
    """
    empty = np.zeros((where[0].stop - where[0].start, where[1].stop - where[1].start), bool)
    diagonal = _towards_centre(m, layout, plot, circle, circle.r_mm + THROUGH_TO_MM + BUBBLE_X_SEARCH_MM)
    around, disc, along, offset = diagonal.around, diagonal.disc, diagonal.along, diagonal.offset
    search = disc & (along > circle.r_mm + THROUGH_FROM_MM) & (along < circle.r_mm + THROUGH_TO_MM) & (np.abs(offset) < BUBBLE_X_SEARCH_MM)
    stroke = search & (m.darkness[around] - paper > BUBBLE_MARK_DARKNESS)
    if not stroke.any() or stroke.sum() > THROUGH_AREA_MAX * search.sum():
        return empty  # nothing there, or a fill rather than a line
    centre = float(np.median(offset[stroke]))
    spread = float(np.percentile(np.abs(offset[stroke] - centre), 90))
    # A line covers the whole length searched, every part of it near one straight path along the diagonal.
    steps = np.minimum(((along[stroke] - circle.r_mm - THROUGH_FROM_MM) / THROUGH_STEP_MM).astype(int), THROUGH_STEPS - 1)
    if spread > THROUGH_HALF_WIDTH_MAX_MM or len(np.unique(steps)) < THROUGH_STEPS:
        return empty
    half_width = max(BUBBLE_X_BAND_MM, spread + BUBBLE_X_MARGIN_MM)
    return diagonal.band(m, circle, where, centre, half_width)


def _other_pen(
    m: Maps, layout: GardenLayout, plot: Plot, circle: Circle, where: tuple[slice, slice], paper: float, taken: NDArray[Any]
) -> NDArray[Any]:
    """The pixels of ``taken`` (marks in the bubble taken for a stroke through it) in another pen than that stroke.

    A bramble's X passes the bubble's corner of the plot, and a tick's long arm often lies along it: taken away with
    the stroke, the tick was read `empty` at 0.90-0.95 (photogen3 development seeds 300022, 770053, 790029).  The
    stroke's own ink is where it comes in from the plot (dark pixels past the outline toward the plot's centre); a
    ballpoint tick over a pencil or felt X differs from it in colour by far more than its edges do over the print.
    """
    if not taken.any():  # most bubbles: nothing was taken away, so nothing to look at
        return taken
    diagonal = _towards_centre(m, layout, plot, circle, circle.r_mm + BUBBLE_RING_MM + BUBBLE_X_SEARCH_MM)
    around = diagonal.around
    near = diagonal.disc & (diagonal.along > circle.r_mm + 0.6) & (np.abs(diagonal.offset) < BUBBLE_X_SEARCH_MM)
    above = m.darkness[around] - paper
    coming_in, background = near & (above > BUBBLE_MARK_DARKNESS), near & (above < BUBBLE_OWN_DARKNESS_MIN)
    # Over a coloured field (green shading) the stroke's ink takes the field's colour outside the bubble, not inside it.
    if not coming_in.any() or not background.any() or np.median(m.chroma[around][background]) >= PATH_PAPER_CHROMA_MAX:
        return np.zeros(taken.shape, bool)
    a, b = float(np.median(m.lab[around][..., 1][coming_in])), float(np.median(m.lab[around][..., 2][coming_in]))
    lab = m.lab[where]
    other: NDArray[Any] = taken & (np.hypot(lab[..., 1] - a, lab[..., 2] - b) > BUBBLE_PEN_GAP)
    return other


def _main_axis(px: NDArray[Any], py: NDArray[Any]) -> tuple[float, float, float, float]:
    """The straight line that best fits points: their centre and the unit direction of their largest spread."""
    cx, cy = float(px.mean()), float(py.mean())
    _, vectors = np.linalg.eigh(np.cov(np.stack([px - cx, py - cy])))
    return cx, cy, float(vectors[0, 1]), float(vectors[1, 1])


def _line_spread(px: NDArray[Any], py: NDArray[Any]) -> float:
    """How far (mm, 95th percentile) points lie from the straight line that best fits them (by their main axis)."""
    if px.size < 3:
        return 0.0
    cx, cy, dx, dy = _main_axis(px, py)
    return float(np.percentile(np.abs((px - cx) * dy - (py - cy) * dx), 95))


def _run_in_stroke(
    m: Maps, layout: GardenLayout, plot: Plot, circle: Circle, where: tuple[slice, slice], paper: float, marked: NDArray[Any]
) -> NDArray[Any]:
    """The pixels of ``where`` on a pen or pencil stroke that runs in to the bubble from the plot, in any direction.

    A bramble's X is drawn by hand: its strokes bend, stray from the diagonal and end in the bubble or run past it
    (read `filled` at 0.91-1.0 when only strokes along the diagonal were known: photogen3 seeds 770012, 770026,
    780035, 780059).  A stroke found in the plot, outside the bubble's outline, that reaches from
    :data:`RUN_IN_FAR_MM` away to within :data:`RUN_IN_NEAR_MM` of it and stays a line (no wider than
    :data:`RUN_IN_HALF_WIDTH_MAX_MM`) is followed into the bubble: a piece of the ``marked`` pixels (over the print)
    joined to it across the printed outline is its, when all of it lies near its tangent there (within
    :data:`RUN_IN_BEND_MM` more than its width, for its bend); a wider piece is a tick, cross or fill the stroke runs
    into, and only the stroke's width along its tangent is left out of it.  A mark stays within a millimetre or two of
    the outline and is never such a stroke.
    """
    h, w = where[0].stop - where[0].start, where[1].stop - where[1].start
    lines = np.zeros((h, w), bool)
    around, disc = _disc(m, circle, circle.r_mm + RUN_IN_FAR_MM + 0.5)
    yy, xx = (a.astype(np.float32) for a in np.ogrid[around[0], around[1]])
    ux, uy = np.broadcast_arrays((xx + 0.5) / m.px_per_mm - circle.cx_mm, (yy + 0.5) / m.px_per_mm - circle.cy_mm)
    past = np.hypot(ux, uy) - circle.r_mm
    box = layout.plots[plot]
    in_plot = (np.abs(ux + circle.cx_mm - box.centre_mm[0]) < box.w_mm / 2 - RUN_IN_PLOT_INSET_MM) & (
        np.abs(uy + circle.cy_mm - box.centre_mm[1]) < box.h_mm / 2 - RUN_IN_PLOT_INSET_MM
    )
    dark = disc & (m.darkness[around] - paper > BUBBLE_MARK_DARKNESS)
    # Inside the bubble only what lies over the print is a stroke's; the printed outline parts inside from outside.
    y0, x0 = where[0].start - around[0].start, where[1].start - around[1].start
    window = (slice(y0, y0 + h), slice(x0, x0 + w))
    dark[window] = marked | (dark[window] & (past[window] > circle.r_mm * (BUBBLE_CORE - 1)))
    outside = (dark & in_plot & (past > RUN_IN_OUTLINE_MM)).astype(np.uint8)
    inner = (dark & (past < -RUN_IN_OUTLINE_MM)).astype(np.uint8)
    count, labels = cv2.connectedComponents(outside, connectivity=8)
    if count < 2:
        return lines
    # How near to the outline and how far from it each piece reaches, for all pieces at once.
    ids, distances = labels[outside > 0], past[outside > 0]
    nearest, farthest = np.full(count, np.inf), np.full(count, -np.inf)
    np.minimum.at(nearest, ids, distances)
    np.maximum.at(farthest, ids, distances)
    # From the plot's middle, not from its corner: a tick's long arm may run as far out toward the plot's outline.
    cx_plot, cy_plot = box.centre_mm
    toward = math.hypot(cx_plot - circle.cx_mm, cy_plot - circle.cy_mm) or 1.0
    along = (ux * (cx_plot - circle.cx_mm) + uy * (cy_plot - circle.cy_mm)) / toward - circle.r_mm
    inward = np.full(count, -np.inf)
    np.maximum.at(inward, ids, along[outside > 0])
    runs_in = np.flatnonzero((nearest <= RUN_IN_NEAR_MM) & (farthest >= RUN_IN_FAR_MM) & (inward >= RUN_IN_INWARD_MM))
    if runs_in.size == 0:
        return lines
    _, inner_labels = cv2.connectedComponents(inner, connectivity=8)
    reach = 2 * m.px(2 * RUN_IN_OUTLINE_MM + 0.2) + 1
    for label in runs_in:
        piece = labels == label
        near = piece & (past < RUN_IN_FIT_MM)
        px, py = ux[near], uy[near]
        cx, cy, dx, dy = _main_axis(px, py)  # the stroke's tangent at the outline
        half_width = float(np.percentile(np.abs((px - cx) * dy - (py - cy) * dx), 90))
        if half_width > RUN_IN_HALF_WIDTH_MAX_MM:
            continue  # a blot or a fill, not a line
        across = np.abs((ux - cx) * dy - (uy - cy) * dx)
        touching = cv2.dilate(piece.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0
        for joined in np.unique(inner_labels[touching & (inner > 0)]):
            follows = inner_labels == joined
            # All of it near the stroke's tangent, bent a little: the stroke goes on.  Anything wider is a tick, cross or
            # fill the stroke runs into: only the stroke's own width along its tangent is the stroke's.
            if float(np.percentile(across[follows], 95)) > half_width + BUBBLE_X_MARGIN_MM + RUN_IN_BEND_MM or (
                _line_spread(ux[follows], uy[follows]) > half_width + BUBBLE_X_MARGIN_MM
            ):
                follows &= across < half_width + BUBBLE_X_MARGIN_MM
            lines |= follows[window]
    return lines


def photo_colour(m: Maps, layout: GardenLayout) -> float:
    """How colourful the photo is: the median Lab chroma along the printed (green) plot outlines, at its strongest
    across each outline."""
    strips = []
    half = COLOUR_OUTLINE_MM / 2
    for box in layout.plots:
        for side in (Rect(box.x_mm - half, box.y_mm, 2 * half, box.h_mm), Rect(box.right_mm - half, box.y_mm, 2 * half, box.h_mm)):
            strips.append(m.chroma[m.box(side)].max(axis=1))
    return float(np.median(np.concatenate(strips)))


def _printed_hue(rgb: tuple[int, int, int]) -> float:
    lab = cv2.cvtColor(np.array([[rgb]], np.float32) / 255.0, cv2.COLOR_RGB2Lab).reshape(3)
    return math.degrees(math.atan2(float(lab[2]), float(lab[1])))


def key_rings(m: Maps, layout: GardenLayout) -> dict[str, tuple[float, float]]:
    """Each colour key circle's printed outline as photographed: (signed hue gap to its printed colour in degrees, chroma).

    The outline is printed in the flower's colour whether or not a stamp was put in the circle, and a stamp there
    is of that colour: so the four rings tell whether the photo's colours are the colours printed.
    """
    rings = {}
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        lo, hi = KEY_RING_MM
        where, inside = _disc(m, circle, circle.r_mm * hi)
        yy, xx = np.ogrid[where[0], where[1]]
        d = np.hypot(xx + 0.5 - circle.cx_mm * m.px_per_mm, yy + 0.5 - circle.cy_mm * m.px_per_mm) / m.px_per_mm
        ring = inside & (d >= circle.r_mm * lo)
        chroma = m.chroma[where][ring]
        if chroma.size == 0:
            continue
        top = chroma >= np.quantile(chroma, 1.0 - KEY_RING_TOP_SHARE)
        lab = m.lab[where][ring][top]
        a, b = float(lab[:, 1].mean()), float(lab[:, 2].mean())
        gap = (math.degrees(math.atan2(b, a)) - _printed_hue(PRINTED_KEY_RGB[colour]) + 180.0) % 360.0 - 180.0
        rings[colour] = (gap, math.hypot(a, b))
    return rings


def outline_hue_gap(m: Maps, layout: GardenLayout) -> float | None:
    """The printed green plot outlines' hue as photographed, less their printed hue (degrees); None if too grey."""
    half = COLOUR_OUTLINE_MM / 2
    a_parts, b_parts = [], []
    for box in layout.plots:
        for side in (Rect(box.x_mm - half, box.y_mm, 2 * half, box.h_mm), Rect(box.right_mm - half, box.y_mm, 2 * half, box.h_mm)):
            where = m.box(side)
            strongest = m.chroma[where].argmax(axis=1)
            rows = np.arange(len(strongest))
            a_parts.append(m.lab[where][rows, strongest, 1])
            b_parts.append(m.lab[where][rows, strongest, 2])
    a, b = float(np.median(np.concatenate(a_parts))), float(np.median(np.concatenate(b_parts)))
    if math.hypot(a, b) < KEY_RING_CHROMA_MIN:
        return None
    return (math.degrees(math.atan2(b, a)) - _printed_hue(PRINTED_OUTLINE_RGB) + 180.0) % 360.0 - 180.0


def grey_stamps(m: Maps, layout: GardenLayout) -> int:
    """How many colour key circles hold a stamp (dark ink over their core) that shows no colour."""
    count = 0
    for circle in layout.colour_key:
        where, inside = _disc(m, circle, circle.r_mm * KEY_CORE)
        dark = inside & (m.darkness[where] > KEY_STAMP_DARKNESS)
        if dark.sum() >= KEY_FRACTION_MIN * inside.sum() and float(np.median(m.chroma[where][dark])) < CHROMA_INK_MIN:
            count += 1
    return count


def colours_shifted(rings: dict[str, tuple[float, float]], outline_gap: float | None, grey_stamped: int) -> bool:
    """Whether the printed colours say the photo's colours are not the printed ones (a filter, sepia, a tinted light).

    The references are the colour key rings that show colour and the green plot outlines where they are strong
    enough to tell a hue.  Rings that show no colour (sepia, or a ``--mono`` sheet's grey print) say something
    only with stamps in the key that show none either: stamps are coloured inks.
    """
    gaps = [g for g, chroma in rings.values() if chroma >= KEY_RING_CHROMA_MIN]
    if not gaps and grey_stamped >= KEY_GREY_STAMPS_MIN:
        return True
    if outline_gap is not None:
        gaps.append(outline_gap)
    if not gaps:
        return False
    mean_shift = math.degrees(math.atan2(sum(math.sin(math.radians(g)) for g in gaps), sum(math.cos(math.radians(g)) for g in gaps)))
    return abs(mean_shift) > KEY_SHIFT_MAX_DEG or max(map(abs, gaps)) > KEY_RING_GAP_MAX_DEG


@dataclass(frozen=True)
class Washout:
    """How washed out the print under each item is (0: as on the rest of the sheet, 1: gone): glare lifts the ink's
    darkness, and a mark under it fades as the print does."""

    plots: list[float]
    """Per plot: its outline as a whole (the median of its four sides)."""
    edges: list[float]
    """Per edge: the more washed out of the two outlines beside it (a brick is drawn between them)."""
    bubbles: list[float]
    """Per bubble: its printed circle or its plot's outline, the more washed out."""

    def per_item(self) -> list[float]:
        """In the order of :func:`read_sheet`'s readings: plots, edges, bubbles."""
        return self.plots + self.edges + self.bubbles


def washout(m: Maps, layout: GardenLayout) -> Washout:
    """How washed out each plot, edge and bubble is, measured on what every sheet has printed there.

    A plot outline's darkness is the darkest point across it, the median along each side; a bubble's, its printed
    circle's (:func:`_circle_darkness`).  Each is taken against the median over all plots (or the lighter bubbles).
    Spilled ink or a line over an outline only darkens it; light and shadow cancel in the white-corrected sheet.  A
    glare spot covers part of a plot: an edge is judged by the two sides beside it, not by the plot's outline as a whole
    (photogen3 held-out seeds 820000-830079: 95 edges under glare were flagged although nothing on them was washed
    out), and a bubble by its circle as well as its plot's outline.
    """
    sides = [  # per plot: left, right, top, bottom
        [float(np.median(m.darkness[m.box(strip)].max(axis=1 if vertical else 0))) for strip, vertical in _outline_strips(box)]
        for box in layout.plots
    ]
    contrast = [float(np.median(four)) for four in sides]
    reference = float(np.median(contrast)) or 1.0
    # The side of ``a`` toward ``b`` and of ``b`` toward ``a``: right and left, or bottom and top.
    beside = [(sides[e.a][1], sides[e.b][0]) if e.vertical else (sides[e.a][3], sides[e.b][2]) for e in EDGES]
    circles = [_circle_darkness(m, layout.bubbles[p]) for p in PLOTS]
    # A bubble filled or coloured over hides its circle, which then says nothing (washed-out felt over a circle is as
    # dark as the print: photogen2 seed 900028, a filled bubble read `empty` at 0.99).
    seen = [ring if core < CIRCLE_COVERED_SHARE * ring else None for ring, core in circles]
    # Against the lighter circles: a mark over a circle darkens it (a felt tick, a circled bubble), and on some sheets
    # most bubbles are marked; glare over more than a quarter of the garden is refused (:func:`check_sheet`).
    shown = [ring for ring in seen if ring is not None]
    circle_reference = float(np.percentile(shown, CIRCLE_REFERENCE_PERCENTILE)) if shown else 0.0
    plots = [max(0.0, 1.0 - c / reference) for c in contrast]
    return Washout(
        plots,
        [max(0.0, 1.0 - min(pair) / reference) for pair in beside],
        # A bubble lies in its plot's corner: glare over its circle or its plot's outline may hide its marks (a ballpoint
        # cross faded under glare where the circle's darker print held: photogen3 held-out seed 840082, read `empty`).
        [
            max(plots[p], 1.0 - ring / circle_reference if ring is not None and circle_reference > 0 else 0.0)
            for p, ring in zip(PLOTS, seen, strict=True)
        ],
    )


def _outline_strips(box: Rect) -> tuple[tuple[Rect, bool], ...]:
    """The strips :data:`WASHOUT_STRIP_MM` wide across a plot's printed outline, left, right, top and bottom, each
    with whether it runs vertically."""
    half = WASHOUT_STRIP_MM / 2
    return (
        (Rect(box.x_mm - half, box.y_mm, 2 * half, box.h_mm), True),
        (Rect(box.right_mm - half, box.y_mm, 2 * half, box.h_mm), True),
        (Rect(box.x_mm, box.y_mm - half, box.w_mm, 2 * half), False),
        (Rect(box.x_mm, box.bottom_mm - half, box.w_mm, 2 * half), False),
    )


def _circle_darkness(m: Maps, circle: Circle) -> tuple[float, float]:
    """How dark a bubble's printed circle shows, and its core.

    The circle: within :data:`WASHOUT_STRIP_MM` / 2 of it, the :data:`CIRCLE_PERCENTILE` of the darkness of each of
    :data:`CIRCLE_SECTORS` sectors (the circle fills about a third of each), the median sector's: a tick or cross over
    the circle darkens a few sectors, a glare spot (far larger than a bubble) all of them.  Both against the core: the
    darkness of the paper inside that ring (its lighter quarter, between the printed wings), also returned.
    """
    half = math.ceil((circle.r_mm + WASHOUT_STRIP_MM / 2) * m.px_per_mm) + 1
    cx, cy = round(circle.cx_mm * m.px_per_mm), round(circle.cy_mm * m.px_per_mm)
    dark = m.darkness[cy - half : cy + half + 1, cx - half : cx + half + 1]
    geometry = _circle_geometry(half, circle.r_mm, m.px_per_mm)
    if dark.shape != geometry.inner.shape:
        return 0.0, 0.0  # a bubble cut off by the sheet's edge: no circle to measure
    core = float(np.percentile(dark[geometry.inner], 25))
    # Each sector's value at its percentile, all sectors in one sort (the ring's pixels ordered by sector, then value).
    values = dark[geometry.ring]
    ordered = values[np.lexsort((values, geometry.sector))]
    levels = ordered[geometry.ranks]
    # Against the paper inside it: a plot's fill around the bubble darkens the ring's outer part, not the print's rise.
    return float(np.median(levels)) - core, core


@dataclass(frozen=True)
class _CircleGeometry:
    inner: NDArray[Any]
    """The core: the pixels inside the ring."""
    ring: NDArray[Any]
    """The circle's ring: within :data:`WASHOUT_STRIP_MM` / 2 of it."""
    sector: NDArray[Any]
    """The sector of each of the ring's pixels (in the order ``window[ring]`` lists them)."""
    ranks: NDArray[Any]
    """Where each sector's :data:`CIRCLE_PERCENTILE` falls among the ring's pixels sorted by sector, then value."""


@lru_cache(maxsize=8)  # every bubble of a sheet has the same size
def _circle_geometry(half: int, r_mm: float, px_per_mm: float) -> _CircleGeometry:
    """For a window of ``half`` pixels either side of a bubble's centre: its core, its circle's ring and sectors."""
    yy, xx = np.ogrid[-half : half + 1, -half : half + 1]
    distance = np.hypot(xx, yy) / px_per_mm
    inner = distance < r_mm - WASHOUT_STRIP_MM / 2
    ring = ~inner & (distance <= r_mm + WASHOUT_STRIP_MM / 2)
    sector = (((np.arctan2(yy, xx) + math.pi) / (2 * math.pi) * CIRCLE_SECTORS).astype(int) % CIRCLE_SECTORS)[ring]
    counts = np.bincount(sector, minlength=CIRCLE_SECTORS)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    ranks = starts + np.floor((counts - 1) * CIRCLE_PERCENTILE / 100).astype(int)
    for mask in (inner, ring, sector, ranks):
        mask.flags.writeable = False  # shared by every later call
    return _CircleGeometry(inner, ring, sector, ranks)


def marks_colour(m: Maps, layout: GardenLayout) -> float:
    """How colourful the marks are: the Lab chroma of the inked pixels of the garden and the colour key (their
    :data:`MARKS_CHROMA_SHARE` most colourful share).  A sheet printed in grey (``--mono``) has grey outlines,
    yet its stamps and felt are as colourful as on a colour sheet; a greyscale photo's marks show no colour."""
    parts = [m.chroma[m.box(layout.garden)][m.darkness[m.box(layout.garden)] > MARKS_DARKNESS_MIN]]
    for circle in layout.colour_key:
        where, inside = _disc(m, circle, circle.r_mm * KEY_CORE)
        parts.append(m.chroma[where][inside & (m.darkness[where] > MARKS_DARKNESS_MIN)])
    inked = np.concatenate(parts)
    if inked.size < MARKS_PIXELS_MIN * m.px_per_mm**2:
        return 0.0
    return float(np.quantile(inked, 1.0 - MARKS_CHROMA_SHARE))


def glare_bright(rectified: NDArray[Any], layout: GardenLayout, px_per_mm: float) -> list[bool]:
    """Whether each plot's paper is lit beyond the sheet's own (glare adds light: it is brighter than the paper
    elsewhere, or clipped), from the photo as taken (not white-corrected): the 90th percentile of its grey over
    the plot and the gutter around it, against the median of that over all plots."""
    # The channels' mean, as numpy's mean(axis=2) of the float32 sheet has it (the sum of three bytes is exact, then
    # one division), in OpenCV's passes: numpy reduces an axis of three slowly (70 ms a sheet).
    red, green, blue = cv2.split(rectified)
    total = cv2.add(cv2.add(red, green, dtype=cv2.CV_16U), blue, dtype=cv2.CV_16U)
    grey = total.astype(np.float32) / np.float32(3.0)
    levels = []
    for box in layout.plots:
        pad = layout.path_mm / 2
        ys = slice(round((box.y_mm - pad) * px_per_mm), round((box.bottom_mm + pad) * px_per_mm))
        xs = slice(round((box.x_mm - pad) * px_per_mm), round((box.right_mm + pad) * px_per_mm))
        levels.append(float(np.percentile(grey[ys, xs], 90)))
    reference = float(np.median(levels))
    return [level >= min(GLARE_BRIGHT_RATIO * reference, GLARE_CLIPPED) for level in levels]


def check_sheet(m: Maps, rectified: NDArray[Any], layout: GardenLayout) -> Washout:
    """ScanError when the photo has no usable colour, its colours are filtered, or glare hides much of the garden;
    else how washed out each item is (:func:`washout`), for the items under glare to be read again or doubted.

    Glare is judged by what it hides and by its light: a plot counts toward the refusal only when its printed
    outline is washed out *and* its paper is brighter than the sheet's (:func:`glare_bright`).  Low light, a warm
    white balance, a bow's shading or a shadow lower the outlines' contrast in places too, but never lift the paper.
    """
    if photo_colour(m, layout) < COLOUR_CHROMA_MIN and marks_colour(m, layout) < MARKS_CHROMA_MIN:
        raise ScanError(NO_COLOUR)
    if colours_shifted(key_rings(m, layout), outline_hue_gap(m, layout), grey_stamps(m, layout)):
        raise ScanError(COLOUR_SHIFTED)
    washed = washout(m, layout)
    bright = glare_bright(rectified, layout, m.px_per_mm)
    glared = sum(share >= GLARE_WASHOUT and lit for share, lit in zip(washed.plots, bright, strict=True))
    if glared >= GLARE_REFUSE_SHARE * len(PLOTS):
        raise ScanError("glare washes out much of the garden — tilt the sheet or move the light so no reflection falls on it")
    return washed


def _capped(reading: Reading, confidence: float, why: tuple[str, float]) -> Reading:
    """``reading`` with its chosen value's probability lowered to ``confidence`` (the rest shared as before)."""
    top, p = reading.probabilities[0]
    if p <= confidence:
        return Reading(reading.item, reading.kind, reading.probabilities, (*reading.evidence, why))
    rest = reading.probabilities[1:]
    others = sum(q for _, q in rest)
    scale = (1.0 - confidence) / others if others > 0 else 0.0
    spread = [(k, q * scale) for k, q in rest] if others > 0 else [(k, (1.0 - confidence) / len(rest)) for k, _ in rest]
    return Reading(reading.item, reading.kind, _ranked({top: confidence, **dict(spread)}), (*reading.evidence, why))


def _doubt_x_like_flower(reading: Reading) -> Reading:
    """A flower whose ink lies along both diagonals and hardly anywhere else is maybe a bramble's X drawn in a
    coloured pen (a scribbled X in felt or ballpoint), and one drawn in dark pen lines (:data:`PEN_SOLID_MAX`) maybe a
    bramble scribbled over: marked for review, bramble the runner-up.

    photogen3's development seeds 1012, 1016, 1019: such X's were read as blue or red flowers at 0.94-1.00; of
    about 80 flowers read on development photos whose ink covers both diagonals, only one lines up with them this
    well (photogen2 seed 800008, a yellow one at 0.50).
    """
    e = dict(reading.evidence)
    x_like = (
        e.get("x_coverage_pen", 0.0) >= X_FLOWER_COVERAGE_MIN
        and e.get("off_diagonal_pen", 1.0) < X_FLOWER_OFF_MAX
        and e.get("x_alignment_pen", 0.0) >= X_FLOWER_ALIGNMENT_MIN
    )
    solid, share, dark = e.get("ink_solid", 1.0), e.get("ink_share", 1.0), e.get("ink_darkness", 0.0)
    pen_lines = reading.value == PEN_COLOUR and (
        (solid < PEN_SOLID_MAX and dark > PEN_DARKNESS_MIN and share < PEN_SHARE_MAX)
        or (solid < PEN_PART_SOLID_MAX and dark > PEN_PART_DARKNESS_MIN and share < PEN_PART_SHARE_MAX)
    )
    if reading.value not in COLOUR_NAMES or not (x_like or pen_lines):
        return reading
    return _doubted_flower(reading, "bramble", "x_like" if x_like else "pen_lines")


def _doubted_flower(reading: Reading, runner_up: str, why: str) -> Reading:
    """``reading`` (a flower) at :data:`X_FLOWER_CONFIDENCE`, ``runner_up`` taking most of the rest; ``why`` joins its
    evidence."""
    rest = {k: q for k, q in reading.probabilities[1:] if k != runner_up}
    scale = X_FLOWER_CONFIDENCE_REST / max(sum(rest.values()), 1e-9) if rest else 0.0
    scores = {reading.value: X_FLOWER_CONFIDENCE, runner_up: 1.0 - X_FLOWER_CONFIDENCE - X_FLOWER_CONFIDENCE_REST}
    scores |= {k: q * scale for k, q in rest.items()}
    return Reading(reading.item, reading.kind, _ranked(scores), (*reading.evidence, (why, 1.0)))


def _doubt_writing_over_shading(reading: Reading) -> Reading:
    """A flower whose few dark pen strokes lie on a plot shaded grey is maybe writing over a field shaded in pencil
    (:data:`WRITING_INK_SHARE_MAX`): marked for review, field the runner-up."""
    e = dict(reading.evidence)
    ink, grey = e.get("ink_share", 1.0), e.get("marked", 0.0) - e.get("ink_share", 1.0)
    written = ink < WRITING_INK_SHARE_MAX and e.get("ink_darkness", 0.0) > PEN_DARKNESS_MIN
    shaded = e.get("shade", 0.0) > SHADED_PLOT_MIN or grey > max(WRITING_GREY_MIN, WRITING_GREY_RATIO * ink)
    # A flower already doubted as a bramble (:func:`_doubt_x_like_flower`) keeps that runner-up.
    doubted = any(k in ("x_like", "pen_lines") for k, _ in reading.evidence)
    if reading.value not in COLOUR_NAMES or doubted or not (written and shaded):
        return reading
    return _doubted_flower(reading, "field", "writing_over_shading")


def _plot_margin(estimate_mm: float) -> float:
    """How much further in a plot estimated misregistered by ``estimate_mm`` is sampled."""
    return min(max(0.0, estimate_mm - TRUSTED_SHIFT_MM["plot"]), PLOT_MARGIN_MAX_MM)


def _shift_tested(m: Maps, layout: GardenLayout, index: int, reading: Reading, estimate_mm: float) -> Reading:
    """``reading`` of edge ``index``, whose misregistration estimate exceeds what an edge tolerates, re-read with its
    band shifted that far across the path both ways (at most :data:`EDGE_SHIFT_MAX_MM`): when both agree surely, the
    reading stands that shift and its evidence says so (``tolerates_mm``), else it is left to be doubted.

    On photogen3's development photos (seeds 2000-2049) 45 sure bricks and 16 sure empty edges were flagged only for
    their estimate (0.5-1.6 mm; the estimate is 2.5 times the dots' errors nearby, a brick's pen covers the outlines
    that would measure the edge), every one of them right.
    """
    if reading.confidence < ROBUST_CONFIDENCE:
        return reading
    shift = min(estimate_mm, EDGE_SHIFT_MAX_MM)
    for across in (-shift, shift):
        other = read_edge(m, layout, index, across)
        if other.value != reading.value or other.confidence < ROBUST_CONFIDENCE:
            return reading
    return Reading(
        reading.item, reading.kind, reading.probabilities, (*reading.evidence, ("tolerates_mm", TRUSTED_SHIFT_MM["edge"] + shift))
    )


def _outline_darkness(m: Maps, layout: GardenLayout, index: int) -> tuple[float, ...]:
    """How much darker than the paper beside it each of edge ``index``'s two printed outlines lies (darkness summed
    over :data:`OUTLINE_WINDOW_MM` about the outline, its median along the edge, in darkness x mm), or 0 for a side
    whose plot has ink or graphite shading along that border (a fill run over its outline darkens it too)."""
    slot, edge = layout.edge_slots[index], EDGES[index]
    near, far = (layout.path_mm / 2 + d for d in OUTLINE_WINDOW_MM)
    sides = []
    for sign, plot in ((-1, min(edge.a, edge.b)), (1, max(edge.a, edge.b))):
        other = edge.b if plot == edge.a else edge.a
        if _border_ink(m, layout, plot, other) is not None or _border_grey(m, layout, plot, other) >= GREY_SPILL_MIN:
            sides.append(0.0)
            continue
        lo, hi = (near, far) if sign > 0 else (-far, -near)
        if slot.x1_mm == slot.x2_mm:
            ys = slice(m.px(min(slot.y1_mm, slot.y2_mm) + EDGE_END_MM), m.px(max(slot.y1_mm, slot.y2_mm) - EDGE_END_MM))
            profile = np.median(m.darkness[ys, m.px(slot.x1_mm + lo) : m.px(slot.x1_mm + hi)], axis=0)
        else:
            xs = slice(m.px(min(slot.x1_mm, slot.x2_mm) + EDGE_END_MM), m.px(max(slot.x1_mm, slot.x2_mm) - EDGE_END_MM))
            profile = np.median(m.darkness[m.px(slot.y1_mm + lo) : m.px(slot.y1_mm + hi), xs], axis=1)
        sides.append(float((profile - profile.min()).sum()) / m.px_per_mm if profile.size else 0.0)
    return tuple(sides)


def _outline_bricks(m: Maps, layout: GardenLayout, edges: list[Reading]) -> list[Reading]:
    """Edges read ``none`` whose printed outline lies far darker than this photo's typical outline (a brick drawn
    along the outline rather than over the guide), marked for review."""
    darkness = [_outline_darkness(m, layout, i) for i in range(len(edges))]
    clean = [d for sides in darkness for d in sides if d > 0]
    if not clean:
        return edges
    typical = float(np.median(clean))
    return [
        _capped(r, OUTLINE_LINE_CONFIDENCE, ("outline_line", max(sides) / typical))
        if r.value == "none" and typical > 0 and max(sides) > OUTLINE_LINE_RATIO * typical
        else r
        for r, sides in zip(edges, darkness, strict=True)
    ]


def _ghosts(edges: list[Reading]) -> list[Reading]:
    """Bricks whose line is much fainter than this photo's sure bricks: likely rubbed out, marked for review."""
    sure = [dict(r.evidence)["line_darkness"] for r in edges if r.value == "brick" and r.confidence >= 0.9]
    if len(sure) < EDGE_GHOST_MIN_BRICKS:
        return edges
    # Only graphite rubs out: a photo's ink bricks (black felt ~0.9) say nothing of how faint its pencil lines are.
    reference = min(float(np.median(sure)), EDGE_GHOST_REFERENCE_MAX)
    return [
        _capped(r, EDGE_GHOST_CONFIDENCE, ("ghost", 1.0))
        if r.value == "brick" and dict(r.evidence)["line_darkness"] < EDGE_GHOST_RATIO * reference
        else r
        for r in edges
    ]


def read_sheet(
    rectified: NDArray[Any],
    layout: GardenLayout,
    starting: tuple[Plot, ...],
    px_per_mm: float,
    misregistration: tuple[tuple[float, ...], tuple[float, ...]] | None = None,
) -> tuple[list[Reading], Calibration]:
    """Every plot, edge and butterfly bubble of the sheet (in that order), and the colour calibration.

    ``misregistration`` (the estimated misregistration in mm of each plot and each edge, when known): a plot
    estimated off by more than it tolerates is sampled that much further in, and such an edge is re-read shifted
    across its path (:func:`_shift_tested`); a reading that stands it carries ``tolerates_mm`` in its evidence.

    ScanError when the photo has no usable colour or glare covers much of the garden; items under glare are
    marked for review.
    """
    m = maps(rectified, px_per_mm)
    washed = check_sheet(m, rectified, layout)
    shares = washed.per_item()
    calibration = calibrate(m, layout)
    readings = _read_items(m, layout, starting, calibration, misregistration)
    again = {i for i, share in enumerate(shares) if GLARE_WASHOUT <= share <= GLARE_RESTORE_MAX}
    if again:
        # Glare adds light: the print and every mark under it keep their shape at a fraction of their contrast.
        # Restored by that fraction (as the print around them lost it), items moderately washed out read as the rest.
        _restore(m, layout)  # the sheet as photographed is read: its maps are this call's own
        readings = _read_items(m, layout, starting, calibration, misregistration, again, readings)
    return [
        _capped(r, GLARE_CONFIDENCE_MAX, ("glare", share)) if share > GLARE_RESTORE_MAX else r
        for r, share in zip(readings, shares, strict=True)
    ], calibration


def _read_items(
    m: Maps,
    layout: GardenLayout,
    starting: tuple[Plot, ...],
    calibration: Calibration,
    misregistration: tuple[tuple[float, ...], tuple[float, ...]] | None,
    only: set[int] | None = None,
    earlier: list[Reading] | None = None,
) -> list[Reading]:
    """Every plot, edge and bubble as ``m`` shows them (:func:`read_sheet`); with ``only`` (indices into that list),
    those items, the others kept from ``earlier``."""

    def wanted(index: int) -> bool:
        return only is None or earlier is None or index in only

    def kept(index: int) -> Reading:
        assert earlier is not None
        return earlier[index]

    plot_error, edge_error = misregistration or ((0.0,) * len(PLOTS), (0.0,) * len(EDGES))
    plots = [
        _doubt_writing_over_shading(
            _doubt_x_like_flower(read_plot(m, layout, p, calibration, starting=p in starting, margin_mm=_plot_margin(plot_error[p])))
        )
        if wanted(p)
        else kept(p)
        for p in PLOTS
    ]
    first_edge, first_bubble = len(PLOTS), len(PLOTS) + len(EDGES)
    edges = [read_edge(m, layout, i) if wanted(first_edge + i) else kept(first_edge + i) for i in range(len(EDGES))]
    edges = [
        _shift_tested(m, layout, i, r, edge_error[i]) if edge_error[i] > TRUSTED_SHIFT_MM["edge"] and wanted(first_edge + i) else r
        for i, r in enumerate(edges)
    ]
    # Edges kept from ``earlier`` were judged there (bricks along an outline, ghosts); only those read again are here.
    judged = _ghosts(_outline_bricks(m, layout, edges))
    edges = [judged[i] if wanted(first_edge + i) else edges[i] for i in range(len(EDGES))]
    readings = plots + edges
    if not any(wanted(first_bubble + p) for p in PLOTS):
        return readings + [kept(first_bubble + p) for p in PLOTS]
    printed, between = bubble_prints(m, layout)
    return readings + [
        read_bubble(m, layout, p, plots[p], calibration, printed[p], between) if wanted(first_bubble + p) else kept(first_bubble + p)
        for p in PLOTS
    ]


def _restore(m: Maps, layout: GardenLayout) -> None:
    """Restore in ``m`` the contrast glare took: each pixel's ink as dark against paper as it would be without the
    light glare added there (1 - (1 - value) / (1 - washout), the white-corrected sheet's value), where the washout
    is that of the print around it (:func:`washout_field`), at most :data:`GLARE_RESTORE_MAX`.  In place (copies of
    the sheet's views cost more than the rest of the reading): only the part of the sheet under glare changes."""
    assert m.rgb is not None
    field = washout_field(m, layout)
    rows, cols = np.nonzero(field > GLARE_FIELD_MIN)
    if not rows.size:
        return
    where = (slice(int(rows.min()), int(rows.max()) + 1), slice(int(cols.min()), int(cols.max()) + 1))
    kept = 1.0 - np.minimum(field[where], GLARE_RESTORE_MAX)
    m.rgb[where] = np.clip(1.0 - (1.0 - m.rgb[where]) / kept[..., None], 0.0, 1.0)
    m.lab[where], m.chroma[where], m.darkness[where] = _views(np.ascontiguousarray(m.rgb[where]))


def washout_field(m: Maps, layout: GardenLayout) -> FloatImage:
    """Per pixel of the sheet, how much of its contrast against paper the print around it lost: at each point of every
    plot outline, its darkness across against the sheet's typical outline's, spread over :data:`GLARE_FIELD_MM` (a
    plot's middle lies 12 mm from its outline).  Measured on the white-corrected sheet's own values (1 - their mean),
    in which :func:`_restore` gives the contrast back."""
    assert m.rgb is not None
    h, w = m.darkness.shape
    cell = GLARE_FIELD_CELL_MM * m.px_per_mm
    size = (math.ceil(h / cell), math.ceil(w / cell))
    points, levels, typical = [], [], []
    for box in layout.plots:
        sides = []
        for strip, vertical in _outline_strips(box):
            ys, xs = m.box(strip)
            profile = 1.0 - m.rgb[ys, xs].mean(axis=2).min(axis=1 if vertical else 0)
            along = np.arange(len(profile)) + 0.5
            rows = (ys.start + along) if vertical else np.full(len(profile), (ys.start + ys.stop) / 2)
            cols = np.full(len(profile), (xs.start + xs.stop) / 2) if vertical else (xs.start + along)
            points.append((np.clip((rows / cell).astype(int), 0, size[0] - 1), np.clip((cols / cell).astype(int), 0, size[1] - 1)))
            levels.append(profile)
            sides.append(float(np.median(profile)))
        typical.append(float(np.median(sides)))
    reference = float(np.median(typical)) or 1.0
    total, weight = np.zeros(size, np.float32), np.zeros(size, np.float32)
    for (r, c), profile in zip(points, levels, strict=True):
        np.add.at(total, (r, c), np.clip(1.0 - profile / reference, 0.0, 1.0))
        np.add.at(weight, (r, c), 1.0)
    sigma = GLARE_FIELD_MM / GLARE_FIELD_CELL_MM
    spread = cv2.GaussianBlur(total, (0, 0), sigma) / np.maximum(cv2.GaussianBlur(weight, (0, 0), sigma), 1e-6)
    field: FloatImage = cv2.resize(spread.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return field
