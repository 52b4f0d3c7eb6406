"""Finding the sheet in a photo: markers, homography, quality checks and the QR code.

The four ArUco markers (``DICT_4X4_50``, ids 0-3 clockwise from the top-left
on the garden side) give 16 corner points whose positions in frame
millimetres the layout knows; a least-squares homography maps the frame onto
the photo.  Its reprojection error says whether the sheet lies flat, its
scale whether the photo resolves the sheet's marks.  The sheet is then
*rectified*: resampled into an image of :data:`RECT_PX_PER_MM` pixels per
millimetre in frame coordinates, where every layout box is a fixed slice.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from numpy.typing import NDArray

from papillon.errors import ScanError
from papillon.grid import EDGES, Plot, parse_edge, parse_plot, plot_name
from papillon.layout import (
    FRAME_H_MM,
    FRAME_W_MM,
    PAYLOAD_FORMAT,
    PAYLOAD_VERSION,
    Circle,
    GardenLayout,
    garden_layout,
    parse_starting_fields,
    released_garden_layouts,
)
from papillon.scan import is_image
from papillon.scan.classify import TRUSTED_SHIFT_MM
from papillon.words import noun

if TYPE_CHECKING:
    from papillon.scan.classify import Reading

Image = NDArray[Any]

# --------------------------------------------------------------------------- thresholds (with units)

DETECT_MAX_SIDE_PX = 1800
"""Long side of the copy of the photo searched for markers (px): bigger photos are shrunk first."""
MIN_MARKER_PX = 16.0
"""Smallest marker side in the photo (px) the scanner accepts: below it the pencil marks are a few pixels wide."""
MIN_SHEET_PX_PER_MM = 2.0
"""Smallest resolution of the sheet in the photo (px per mm): a 0.5 mm pencil line must cover a pixel."""
MAX_REPROJECTION_MM = 1.0
"""Largest RMS distance (mm) between the marker corners found and where a flat sheet puts them."""
BOWED_REPROJECTION_MM = 2.0
"""... or this, on a sheet whose registration dots are found: a bow with a curled edge moves its markers 1.0-1.2 mm
off a flat sheet (photogen3 development seeds 2015, 4000) and the dots' local fit follows it; the grid's own
bend then decides (:data:`BENT_SHEET_MM`)."""
RECT_PX_PER_MM = 6.0
"""Resolution of the rectified sheet (px per mm)."""
MAP_STEP_MM = 3.0
"""Spacing (mm) of the points where the local map is computed exactly; it is interpolated between them."""
DOT_SEARCH_MM = 5.0
"""How far (mm) from where the homography puts it a registration dot is looked for: bowed sheets and lens
distortion move the middle of the grid up to ~4 mm."""
DOT_REFINE_MM = 1.5
"""How far (mm) from where the dots already found predict it a dot is looked for again: a sheet lifted 10-15 mm moves
the middle of the grid 5-7 mm, beyond :data:`DOT_SEARCH_MM`, but the fit through the nearer dots puts it within ~1 mm."""
DOT_REFINE_PASSES = 2
"""Searches around the fit's prediction (each one's new dots sharpen the next prediction)."""
DOT_CORE_MM = 0.8
DOT_RING_MM = (1.2, 1.9)
"""The dot's matched filter: mean darkness within DOT_CORE_MM minus mean darkness in this ring (mm), the paper
around the 0.7 mm dot (clear of the plots' rounded corners at 2.9 mm from a crossing)."""
MIN_DOT_CONTRAST = 0.3
"""A dot's filter response must reach this share of the markers' paper-to-black difference to count as found."""
MIN_DOTS_FOUND = 0.6
"""Share of the registration dots that must be found (ink over the rest is fine: neighbours stand in)."""
MAX_DOT_DISAGREEMENT_MM = 1.2
"""A dot further than this (mm) from what the others predict there is not the dot (a pen stroke through it)."""
SPLINE_UNIT_MM = 100.0
"""Length unit of the thin-plate spline's arithmetic (keeps its matrix well conditioned)."""
SPLINE_SMOOTHING = 1e-4
"""Regularisation of the thin-plate spline (in its units): absorbs the dots' ~0.05 mm location noise."""
RESIDUAL_REACH_MM = 25.0
"""An item's misregistration estimate is the largest error of the dots within this distance (a plot's four
crossings lie 19.8 mm from its centre on release 2, 21.2 mm on release 3)."""
RESIDUAL_SAFETY = 2.5
"""An item's misregistration estimate is this many times the leave-one-out errors of the dots around it: measured on
warped test sheets, the largest true error between the dots was up to ~2.9 times the largest leave-one-out error nearby
when the paper rippled faster than the dots' 28-30 mm spacing (bows, curls and lens distortion stay far below)."""
DOT_NOISE_MM = 0.1
"""Added to every misregistration estimate: how precisely a dot is located (measured: ~0.05 mm on sharp photos)."""
MISSING_DOT_REACH_MM = 40.0
"""A dot not found takes the largest error of the found dots within this distance."""
MAX_MISREGISTRATION_MM = TRUSTED_SHIFT_MM
"""Largest estimated misregistration (mm) at which a reading of each kind is trusted, unless its evidence says it
stands more (``tolerates_mm``: a plot sampled further in, an edge re-read shifted; see ``classify.read_sheet``)."""
DOUBT_CONFIDENCE = 0.6
"""The confidence a reading is lowered to when its item may be misregistered, so it is marked for review."""
BENT_SHEET_MM = 1.5
"""When the median estimated misregistration of the grid's items exceeds this (mm), the sheet is refused as bent."""
PATH_END_MM = 3.0
"""Length left out at each end of an edge slot when its path is located (the plots' rounded corners and the crossing)."""
PATH_SEARCH_MM = 0.6
"""How far (mm) from where the local fit puts it each printed plot outline is looked for across an edge."""
PATH_LINE_SIDE_MM = 0.6
"""A printed outline (0.35 mm) is darker than the paper this far (mm) on both its sides."""
PATH_LINE_MIN = 0.06
"""Least darkness of a printed outline over both its sides, against the paper beside it, as a share of the markers'
black against their paper (``contrast``, 0-1)."""
PATH_WIDTH_SLACK_MM = 0.25
"""The two outlines found must lie the path's printed width apart within this (mm), else they are not both outlines."""
PATH_HALVES_AGREE_MM = 0.25
"""The two halves of an edge slot must put its path within this (mm) of each other to count as measured."""
PATH_NOISE_MM = 0.1
"""Misregistration (mm) left at an edge whose path was located: how precisely the outlines are found."""
RING_ANGLES = 48
"""Rays along which a bubble's printed outline is looked for."""
BUBBLE_RING_SEARCH_MM = 0.6
"""How far (mm) from its printed radius a bubble's outline is looked for along each ray."""
RING_MIN_SHARE = 0.5
"""Share of the rays that must show the outline for the bubble's centre to count as measured."""
RING_FIT_MAX_MM = 0.2
"""Largest RMS distance (mm) of the outline points from the circle fitted through them (more: not all the outline)."""
GREY_CHANNEL_GAP = 4
"""Largest difference (8-bit) between a pixel's channels, at the 99th percentile, of a photo without any colour: a grey
photo saved as JPEG keeps them equal within rounding, a colour photo of a sheet on a table differs by 90-200."""
QR_PX_PER_MM = 10.0
"""Resolution of the rectified QR code patch (px per mm)."""
QR_QUIET_MM = 5.0
"""White margin kept around the QR code's modules when cutting it out (mm)."""
DARK_PAPER_MAX = 95.0
"""Paper brighter than this (8-bit grey, around the markers) is light enough to read; below it the photo is too dark.
Measured: at paper grey 70-88 pencil marks sink into noise and JPEG steps (a bramble read empty at 0.93-0.97),
at 92-100 none was misread; normally lit photos give 105-240."""
MIN_MARKER_CONTRAST = 35.0
"""Smallest grey difference (8-bit) between a marker's black and the paper around it."""
MAX_EDGE_WIDTH_MM = 1.15
"""Widest blur (mm) of a marker's black-to-white edge (10-90 % rise) before the photo is too blurry."""
BLURRY_PHOTO_EDGE_PX = 7.0
"""When no marker is found: a photo whose sharpest edges rise over more than this (px) is called too blurry."""
BLURRY_MARKERS_EDGE_PX = 3.5
"""When some markers are found and others not: a photo whose sharpest edges rise over more than this (px, at
detection size) is called too blurry rather than badly framed (measured: blur sigma 2.2 px gives 3.6-5.9, sharp
photos with a corner out of frame 1.7-3.4)."""
MARKER_RETRY_SCALES = (0.66, 0.45, 0.3)
"""When a garden marker is missing, the photo is searched again at these fractions of the detection size: defocus
blurs a marker's edges over more pixels than the detector's corner finding allows, fewer in a smaller copy."""
LOCAL_MARKER_SIDE_PX = 96.0
"""A marker the whole photo lost is looked for again in a crop around where the markers found put it, resampled
so that the marker's side spans about this many pixels (a small marker, 31 px, is then drawn large enough for the
detector's corner finding; a defocused one is drawn smaller, its blur spanning fewer pixels)."""
LOCAL_MARKER_SCALES = (1.0, 0.6, 0.4)
"""Fractions of :data:`LOCAL_MARKER_SIDE_PX` tried in the crop (the sharp size first, then for defocus)."""
LOCAL_MARKER_REACH = 0.5
"""Furthest a marker found in the crop may lie from where the others put it, in marker sides (else another
sheet's)."""
SMALL_MARKER_PX = 32.0
"""When a marker in the frame is lost and the ones found are smaller than this (px), the sheet is too small in the
photo for its markers to be read reliably: the photo is blamed on distance, not on a cover or a shadow."""
FOREIGN_MARKER_MM = 25.0
"""A marker further than this (mm) from where the other three put it belongs to another sheet (or a folded corner):
a sheet bent enough to move a corner marker that far is not readable anyway."""
DARK_PHOTO_MAX = 45.0
"""A photo less than 1 % of which reaches this grey (8-bit) is called too dark, whatever else is found or lost in it
(its paper is then far below :data:`DARK_PAPER_MAX`; its markers may be lost in the dark, its colours too)."""
MIN_JPEG_QUALITY = 50
"""Lowest JPEG quality (IJG scale, estimated from the file's luminance quantisation table) read: below it the
compression's colour bleeding and blocks make pencil lines look coloured or broken (measured: quality 20-35
gave confident errors, 50 none)."""
MAX_PHOTO_PIXELS = 120_000_000
MIN_PHOTO_SIDE_PX = 200
"""Largest photo (pixels) decoded: a phone's biggest photos are ~108 megapixels; beyond is no photo (or a decompression bomb)."""
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"mif1", b"msf1")
"""ISO media brands of HEIC/HEIF photos (an iPhone's default), which Pillow cannot read without a plugin."""
IJG_LUMINANCE = (
    (16, 11, 10, 16, 24, 40, 51, 61),
    (12, 12, 14, 19, 26, 58, 60, 55),
    (14, 13, 16, 24, 40, 57, 69, 56),
    (14, 17, 22, 29, 51, 87, 80, 62),
    (18, 22, 37, 56, 68, 109, 103, 77),
    (24, 35, 55, 64, 81, 104, 113, 92),
    (49, 64, 78, 87, 103, 121, 120, 101),
    (72, 92, 95, 98, 112, 100, 103, 99),
)
"""The standard (IJG, JPEG annex K) luminance quantisation table, quality 50, in natural order."""
EXIF_ORIENTATION = 0x0112
"""The EXIF tag of how the camera was held (1: upright; :func:`load_photo` turns the others)."""

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
GARDEN_MARKER_IDS = (0, 1, 2, 3)
FILL_MARKER_IDS = (4, 5, 6, 7)


@dataclass(frozen=True)
class Located:
    """A sheet found in a photo: the homography and the quality figures that accepted it."""

    homography: NDArray[Any]
    """Maps frame millimetres (x, y, 1) to photo pixels."""
    reprojection_mm: float
    px_per_mm: float
    """The smallest resolution of the sheet in the photo (at its least resolved marker)."""
    marker_px: float
    """The smallest marker side in the photo (px)."""
    marker_corners_px: NDArray[Any] | None = None
    """The 16 marker corners found (px, markers 0-3 in order, each clockwise from its top-left)."""


@dataclass(frozen=True)
class Sheet:
    """A located, rectified and identified garden sheet."""

    located: Located
    rectified: Image
    """RGB, frame coordinates at :data:`RECT_PX_PER_MM`."""
    layout: GardenLayout
    starting_fields: tuple[Plot, ...]
    payload: dict[str, object]
    paper_grey: float
    edge_width_mm: float
    registration: Registration | None = None
    """The local fit (None on a release-1 sheet, which has no registration dots: the homography alone)."""
    misregistration: Misregistration | None = None
    """Estimated misregistration (mm) of each item after the local fit; None when unknown (release-1 sheet)."""

    @property
    def start_assumed(self) -> bool:
        """True when the QR code was unreadable: the layout was told by the sheet's geometry and the starting
        fields, which only the QR code carries, are the edition's, assumed."""
        return self.payload.get("told_by") == "geometry"


# --------------------------------------------------------------------------- loading


def load_photo(source: str | Path | bytes) -> Image:
    """The photo as an RGB array, turned upright by its EXIF orientation (Pillow).

    ``source`` is a path or the file's bytes.  Not an image: ScanError.
    """
    import io

    from PIL import Image as PILImage
    from PIL import ImageOps, UnidentifiedImageError

    if isinstance(source, bytes):
        data = source
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise ScanError(f"cannot read the file ({error.strerror})") from None
    if not is_image(data[:16]):
        raise ScanError("not an image (expected a photo of a garden sheet: JPEG, PNG, WebP...)")
    heif = data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS
    quiet_libtiff()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # Pillow's "Corrupt EXIF data" and the like: the photo gets papillon's words
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as opened:
                width, height = opened.size
                if width * height > MAX_PHOTO_PIXELS:
                    raise PILImage.DecompressionBombError
                if min(width, height) < MIN_PHOTO_SIDE_PX:  # a 1x5000 strip would fail deep inside OpenCV
                    raise ScanError(f"too small for a photo of a sheet ({width}x{height} pixels, need {MIN_PHOTO_SIDE_PX} on each side)")
                quality = jpeg_quality(opened)
                if quality is not None and quality < MIN_JPEG_QUALITY:
                    raise ScanError(
                        f"too compressed (JPEG quality about {quality}, need {MIN_JPEG_QUALITY}) — "
                        "use the original photo, not one re-sent by a messaging app"
                    )
                # each copy of a 12 MP photo costs ~0.1 s: converted and turned only when it must be
                turned = opened.getexif().get(EXIF_ORIENTATION, 1) != 1
                direct = None if turned or opened.format != "JPEG" or opened.mode != "RGB" else _decode_jpeg(data, (width, height))
                if direct is not None:
                    return direct
                upright = ImageOps.exif_transpose(opened) if turned else opened
                rgb = np.asarray(upright if upright.mode == "RGB" else upright.convert("RGB"))
    except PILImage.DecompressionBombError:
        raise ScanError(f"too large for a photo (over {MAX_PHOTO_PIXELS // 1_000_000} megapixels) — is this the right file?") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        if heif:
            raise ScanError("HEIC photos cannot be read here: export it as JPEG") from None
        raise ScanError("not an image Pillow can read (a damaged or unsupported file)") from None
    return rgb


def _decode_jpeg(data: bytes, size: tuple[int, int]) -> Image | None:
    """An upright RGB JPEG decoded by OpenCV straight into an array, or None to let Pillow decode it.

    Both use libjpeg-turbo's default decoder, pixel for pixel the same (checked on every development photo), but
    Pillow's array is a second copy made through its raw encoder: 0.3 s of CPU for a 48 MP photo, 0.05 s at 12 MP.
    A file cut short is left to Pillow, which refuses it (OpenCV would fill in the missing rows).
    """
    if data.rstrip(b"\x00")[-2:] != b"\xff\xd9":
        return None
    rgb_flag = getattr(cv2, "IMREAD_COLOR_RGB", None)  # OpenCV 4.10 and later; before, BGR and a channel swap
    flags = (cv2.IMREAD_COLOR if rgb_flag is None else rgb_flag) | cv2.IMREAD_IGNORE_ORIENTATION
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if decoded is None or decoded.shape != (size[1], size[0], 3):
        return None
    return np.asarray(decoded if rgb_flag is not None else cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB))


@cache
def quiet_libtiff() -> None:
    """Silence libtiff: a damaged TIFF makes it print to file descriptor 2, past Python, whoever is serving.

    ``papillon serve`` has no terminal of its own to hide it from, so the library's own handlers are
    set to none, once (process-wide and thread-safe, unlike redirecting stderr).  The decoder still
    fails, and papillon says so in its words.  Where Pillow's libtiff cannot be found, nothing changes.
    """
    import ctypes

    from PIL import features

    if not features.check_codec("libtiff"):
        return
    path = _loaded_library("libtiff")
    if path is None:
        return
    try:
        library = ctypes.CDLL(path)
        for name in ("TIFFSetWarningHandler", "TIFFSetErrorHandler"):
            setter = getattr(library, name)
            setter.restype = ctypes.c_void_p
            setter.argtypes = [ctypes.c_void_p]
            setter(None)
    except (OSError, AttributeError):  # another build of libtiff: its messages stay, nothing breaks
        return


def _loaded_library(stem: str) -> str | None:
    """The path of the shared library ``stem`` this process has loaded (Linux: /proc/self/maps), or None."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            return next((line.split()[-1] for line in maps if f"/{stem}" in line and ".so" in line), None)
    except OSError:  # not Linux
        return None


def jpeg_quality(opened: Any) -> int | None:
    """The quality (1-100, IJG scale) a JPEG was saved with, estimated from its luminance table; None if no JPEG.

    Encoders scale the standard table by quality (libjpeg: 5000/q % below 50, 200 - 2q % above), so the
    quality whose scaled table is nearest to the file's is the estimate.
    """
    tables = getattr(opened, "quantization", None)
    if getattr(opened, "format", None) != "JPEG" or not tables or 0 not in tables or len(tables[0]) != 64:
        return None
    table = np.asarray(tables[0], np.float64)
    standard = np.asarray(IJG_LUMINANCE, np.float64).ravel()
    best, best_gap = 100, math.inf
    for q in range(1, 101):
        scale = 5000 / q if q < 50 else 200 - 2 * q
        scaled = np.clip(np.floor((standard * scale + 50) / 100), 1, 255)
        gap = float(np.abs(np.log(scaled) - np.log(table)).sum())
        if gap < best_gap:
            best, best_gap = q, gap
    return best


# --------------------------------------------------------------------------- markers


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMax = 53
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _find_markers(grey: Image) -> dict[int, list[NDArray[Any]]]:
    """Marker id -> the corners (px in ``grey``) of every instance of it, biggest first (another sheet may be in view)."""
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, list[NDArray[Any]]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        found.setdefault(int(marker_id), []).append(quad.reshape(4, 2))
    for quads in found.values():
        quads.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))
    return found


def _add_instance(found: dict[int, list[NDArray[Any]]], marker_id: int, quad: NDArray[Any]) -> None:
    """Add a marker instance found in another copy of the photo, unless an instance of it is already there."""
    side = math.sqrt(max(cv2.contourArea(quad.astype(np.float32)), 1.0))
    known = found.setdefault(marker_id, [])
    if all(np.linalg.norm(q.mean(axis=0) - quad.mean(axis=0)) > side for q in known):
        known.append(quad)
        known.sort(key=lambda q: -cv2.contourArea(q.astype(np.float32)))


def _edge_rise_px(grey: Image) -> float:
    """How many pixels the photo's sharpest edges take to rise: a blur measure without a sheet."""
    small = grey.astype(np.float32)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3) / 8
    grad = float(np.percentile(np.hypot(gx, gy), 99.9))
    contrast = float(np.percentile(small, 99) - np.percentile(small, 1))
    return contrast / max(grad, 1e-6)


def _names(ids: list[int]) -> str:
    names = [f"{i} ({CORNER_NAMES[i]})" for i in ids]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _missing_message(missing: list[int]) -> str:
    word = noun(len(missing), "marker")
    return f"{word} {_names(missing)} not found — keep all four corners in the frame"


def _fit(layout: GardenLayout, quads: dict[int, NDArray[Any]]) -> tuple[NDArray[Any] | None, float]:
    """The homography (frame mm -> px) of the markers in ``quads`` and its RMS error (mm); (None, inf) if none."""
    ids = sorted(quads)
    src = np.array([pt for i in ids for pt in layout.markers[i].box.corners_mm()], np.float64)
    dst = np.array([pt for i in ids for pt in quads[i]], np.float64)
    if len(ids) >= 2:
        homography, _ = cv2.findHomography(src, dst, 0)
    else:
        affine, _ = cv2.estimateAffinePartial2D(src, dst)
        homography = None if affine is None else np.vstack([affine, [0.0, 0.0, 1.0]])
    if homography is None or abs(np.linalg.det(homography)) < 1e-12:
        return None, math.inf
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
    scale = float(np.mean([_px_per_mm(homography, *layout.markers[i].box.centre_mm) for i in ids]))
    if scale <= 0 or _mirrored(homography, layout):
        return None, math.inf
    return homography, float(np.sqrt(np.mean(np.sum((projected - dst) ** 2, axis=1))) / scale)


OTHER_SHEET_LARGER_MARKERS = 2
"""A photo whose chosen sheet has this many markers with a larger instance elsewhere in view is refused as showing
two sheets (photogen2 seed 800021: a blank sheet beside the marked one, two of whose markers were lost, was read)."""


OTHER_SHEET_AREA_RATIO = 1.3
"""How much larger (area) another instance of a marker must be to count against the chosen sheet: a second sheet
lying nearer the camera, partly in view, shows markers 10-15 % larger (photogen2 seed 800032); 800021's 45-55 %."""


def _choose_sheet(layout: GardenLayout, found: dict[int, list[NDArray[Any]]]) -> dict[int, NDArray[Any]]:
    """One instance of each garden marker found, those that form one sheet; ScanError when two sheets are in view.

    With one instance of each there is nothing to choose.  With another sheet partly in view, the
    combinations are tried: the one whose markers fit a flat sheet wins; two disjoint ones that both
    fit mean two whole sheets are in view.
    """
    ids = [i for i in GARDEN_MARKER_IDS if i in found]
    if all(len(found[i]) == 1 for i in ids) or len(ids) < 3:
        # Fewer than three markers always fit some sheet: nothing to learn from the geometry.
        return {i: found[i][0] for i in ids}
    fitting = []
    for picks in itertools.product(*(range(len(found[i])) for i in ids)):
        quads = {i: found[i][k] for i, k in zip(ids, picks, strict=True)}
        _, error = _fit(layout, quads)
        if error <= MAX_REPROJECTION_MM:
            fitting.append((error, picks))
    fitting.sort()
    if not fitting:
        return {i: found[i][0] for i in ids}
    best = fitting[0][1]
    if len(ids) == len(GARDEN_MARKER_IDS) and any(all(a != b for a, b in zip(best, other, strict=True)) for _, other in fitting[1:]):
        raise ScanError("two garden sheets are in view — photograph one sheet at a time")
    # Markers of a second sheet larger in the photo than the chosen sheet's: the sheet the photo was taken of is
    # likely that one, with some of its markers lost (the chosen one is then a sheet lying beside it).
    larger = [
        i for i, k in zip(ids, best, strict=True) if any(_area(q) > OTHER_SHEET_AREA_RATIO * _area(found[i][k]) for q in found[i][:k])
    ]
    if len(larger) >= OTHER_SHEET_LARGER_MARKERS:
        raise ScanError("two garden sheets are in view — photograph one sheet at a time")
    return {i: found[i][k] for i, k in zip(ids, best, strict=True)}


def _area(quad: NDArray[Any]) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def _foreign(layout: GardenLayout, quads: dict[int, NDArray[Any]]) -> tuple[int, float] | None:
    """A marker far from where the other three put it (another sheet's, or a folded corner): its id and distance (mm)."""
    if len(quads) != len(GARDEN_MARKER_IDS):
        return None
    for odd in GARDEN_MARKER_IDS:
        rest = {i: q for i, q in quads.items() if i != odd}
        homography, error = _fit(layout, rest)
        if homography is None or error > MAX_REPROJECTION_MM:
            continue
        centre = np.array([[layout.markers[odd].box.centre_mm]], np.float64)
        expected = cv2.perspectiveTransform(centre, homography).reshape(2)
        off_px = float(np.linalg.norm(quads[odd].mean(axis=0) - expected))
        off_mm = off_px / _px_per_mm(homography, *layout.markers[odd].box.centre_mm)
        if off_mm > FOREIGN_MARKER_MM:
            return odd, off_mm
    return None


def _why_missing(
    layout: GardenLayout, quads: dict[int, NDArray[Any]], missing: list[int], size: tuple[int, int], small: Image, shrink: float
) -> str:
    """The true cause of missing markers: out of the frame, or in it but lost (blur, shade, cover, curl)."""
    homography, _ = _fit(layout, quads)
    h, w = size
    outside: list[int] = []
    inside: list[int] = []
    for i in missing:
        if homography is None:
            outside.append(i)
            continue
        corners = np.array(layout.markers[i].box.corners_mm(), np.float64).reshape(-1, 1, 2)
        pts = cv2.perspectiveTransform(corners, homography).reshape(-1, 2)
        in_frame = bool(np.all((pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)))
        (inside if in_frame else outside).append(i)
    if outside:
        return _missing_message(outside)
    # Every lost marker lies inside the photo: it was not framed out, something hid it.
    if _edge_rise_px(small) > BLURRY_MARKERS_EDGE_PX:
        return "the photo is too blurry — hold the camera still and focus on the sheet"
    word = "marker" if len(inside) == 1 else "markers"
    verb = "is" if len(inside) == 1 else "are"
    seen_px = min(math.sqrt(cv2.contourArea(q.astype(np.float32))) for q in quads.values()) / shrink
    if seen_px < SMALL_MARKER_PX:
        return f"{word} {_names(inside)} {verb} in the photo but too small to read ({seen_px:.0f} px) — move closer and focus on the sheet"
    return f"{word} {_names(inside)} {verb} in the photo but could not be read — uncover it, keep it out of shadow and lay the corner flat"


def _search_near(layout: GardenLayout, quads: dict[int, NDArray[Any]], grey: Image, shrink: float) -> dict[int, NDArray[Any]]:
    """Markers lost in the whole photo, found again where the markers in ``quads`` (px at ``shrink``) put them.

    The detector's thresholds are tuned for markers of some size and sharpness; a crop around the predicted
    marker, resampled to a standard marker size and stretched to its own black and white, is read when the marker
    is small (31 px), defocused or in a shadow.  Only an instance where it is expected is kept.
    """
    homography, error = _fit(layout, quads)
    if homography is None or error > MAX_REPROJECTION_MM:
        return {}
    h, w = grey.shape
    found: dict[int, NDArray[Any]] = {}
    for marker_id in GARDEN_MARKER_IDS:
        if marker_id in quads:
            continue
        corners = np.array(layout.markers[marker_id].box.corners_mm(), np.float64).reshape(-1, 1, 2)
        expected = cv2.perspectiveTransform(corners, homography).reshape(-1, 2) / shrink
        side = math.sqrt(max(cv2.contourArea(expected.astype(np.float32)), 1.0))
        centre = expected.mean(axis=0)
        x0, y0 = max(0, int(centre[0] - 1.5 * side)), max(0, int(centre[1] - 1.5 * side))
        x1, y1 = min(w, int(centre[0] + 1.5 * side) + 1), min(h, int(centre[1] + 1.5 * side) + 1)
        if x1 - x0 < side or y1 - y0 < side:
            continue
        crop = grey[y0:y1, x0:x1]
        lo, hi = np.percentile(crop, 1), np.percentile(crop, 99)
        stretched = np.clip((crop.astype(np.float32) - lo) * 255.0 / max(hi - lo, 1.0), 0, 255).astype(np.uint8)
        for fraction in LOCAL_MARKER_SCALES:
            factor = LOCAL_MARKER_SIDE_PX * fraction / side
            size = (max(8, round((x1 - x0) * factor)), max(8, round((y1 - y0) * factor)))
            resized = cv2.resize(stretched, size, interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)
            padded = cv2.copyMakeBorder(resized, 16, 16, 16, 16, cv2.BORDER_REPLICATE)
            instances = [(q - 16) / factor + (x0, y0) for q in _find_markers(padded).get(marker_id, [])]
            near = [q for q in instances if np.linalg.norm(q.mean(axis=0) - centre) <= LOCAL_MARKER_REACH * side]
            if near:
                found[marker_id] = near[0] * shrink
                break
    return found


def _not_flat(error_mm: float) -> str:
    return f"the sheet is not flat (its markers are {error_mm:.1f} mm off a flat sheet) — lay it flat and photograph it from above"


def locate(photo: Image, layout: GardenLayout | None = None) -> Located:
    """The homography of the garden sheet in ``photo``, or ScanError saying what is wrong."""
    layout = layout or garden_layout()
    grey = cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)
    h, w = grey.shape
    shrink = min(1.0, DETECT_MAX_SIDE_PX / max(h, w))
    small = cv2.resize(grey, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA) if shrink < 1 else grey
    found = _find_markers(small)
    if shrink < 1 and not all(i in found for i in GARDEN_MARKER_IDS):
        full = _find_markers(grey)  # small markers may need every pixel
        if len([i for i in GARDEN_MARKER_IDS if i in full]) > len([i for i in GARDEN_MARKER_IDS if i in found]):
            found, shrink = full, 1.0
    for factor in MARKER_RETRY_SCALES:
        if all(i in found for i in GARDEN_MARKER_IDS) or any(i in found for i in FILL_MARKER_IDS):
            break
        # A defocused marker's blur spans fewer pixels in a smaller copy, where the detector finds its square again.
        size = (round(w * shrink * factor), round(h * shrink * factor))
        if min(size) < MIN_PHOTO_SIDE_PX:
            break
        smaller = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        for marker_id, instances in _find_markers(smaller).items():
            for quad in instances:
                _add_instance(found, marker_id, quad / factor)
    garden_ids = [i for i in GARDEN_MARKER_IDS if i in found]
    if 2 <= len(garden_ids) < len(GARDEN_MARKER_IDS):
        for marker_id, quad in _search_near(layout, _choose_sheet(layout, found), grey, shrink).items():
            _add_instance(found, marker_id, quad)
        garden_ids = [i for i in GARDEN_MARKER_IDS if i in found]
    if not garden_ids:
        if any(i in found for i in FILL_MARKER_IDS):
            raise ScanError("this is the fill sheet (side B) — photograph the garden side (side A)")
        if _edge_rise_px(small) > BLURRY_PHOTO_EDGE_PX:
            raise ScanError("the photo is too blurry — hold the camera still and focus on the sheet")
        raise ScanError("no papillon garden sheet found in the photo (none of its four corner markers)")
    quads = _choose_sheet(layout, found)
    foreign = _foreign(layout, quads)
    if foreign is not None:
        odd, off_mm = foreign
        raise ScanError(
            f"marker {_names([odd])} is {off_mm:.0f} mm from where the other three put it — "
            "another sheet's marker, or a folded corner: photograph one sheet, flat"
        )
    missing = [i for i in GARDEN_MARKER_IDS if i not in quads]
    if missing:
        raise ScanError(_why_missing(layout, quads, missing, small.shape[:2], small, shrink))
    src = np.array([pt for i in GARDEN_MARKER_IDS for pt in layout.markers[i].box.corners_mm()], np.float64)
    dst = np.array([pt / shrink for i in GARDEN_MARKER_IDS for pt in quads[i]], np.float64)
    marker_px = min(math.sqrt(cv2.contourArea(quads[i].astype(np.float32))) / shrink for i in GARDEN_MARKER_IDS)
    if marker_px < MIN_MARKER_PX:
        shown = math.floor(marker_px * 10) / 10  # 15.96 px must not read "16 px, need 16"
        raise ScanError(f"the sheet is too small in the photo (markers of {shown:.1f} px, need {MIN_MARKER_PX:g}) — move closer")
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None or abs(np.linalg.det(homography)) < 1e-12:
        raise ScanError("the markers found do not form a sheet — photograph the whole garden side, flat")
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
    scales = [_px_per_mm(homography, *layout.markers[i].box.centre_mm) for i in GARDEN_MARKER_IDS]
    if min(scales) <= 0 or _mirrored(homography, layout):
        raise ScanError("the markers found do not form a sheet — photograph the whole garden side, flat")
    error_px = np.sqrt(np.mean(np.sum((projected - dst) ** 2, axis=1)))
    error_mm = float(error_px / (sum(scales) / len(scales)))
    if error_mm > BOWED_REPROJECTION_MM:
        raise ScanError(_not_flat(error_mm))
    px_per_mm = min(scales)
    if px_per_mm < MIN_SHEET_PX_PER_MM:
        raise ScanError(f"the sheet is too small in the photo ({px_per_mm:.1f} px per mm, need {MIN_SHEET_PX_PER_MM}) — move closer")
    return Located(homography, error_mm, px_per_mm, marker_px, dst.reshape(-1, 2))


def _px_per_mm(homography: NDArray[Any], x: float, y: float) -> float:
    """The local scale of the homography at frame point (x, y): sqrt of its Jacobian's area factor."""
    pts = np.array([[[x, y]], [[x + 1, y]], [[x, y + 1]]], np.float64)
    p = cv2.perspectiveTransform(pts, homography).reshape(3, 2)
    jac = np.array([p[1] - p[0], p[2] - p[0]])
    return float(math.sqrt(abs(np.linalg.det(jac))))


def _mirrored(homography: NDArray[Any], layout: GardenLayout) -> bool:
    pts = np.array([[[FRAME_W_MM / 2, FRAME_H_MM / 2]], [[FRAME_W_MM / 2 + 1, FRAME_H_MM / 2]], [[FRAME_W_MM / 2, FRAME_H_MM / 2 + 1]]])
    p = cv2.perspectiveTransform(pts, homography).reshape(3, 2)
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return bool(ax * by - ay * bx < 0)


# --------------------------------------------------------------------------- rectifying


def shrunk(photo: Image, located: Located, px_per_mm: float, start: tuple[Image, float] | None = None) -> tuple[Image, float]:
    """The photo halved until it resolves the sheet no finer than needed for ``px_per_mm``, and the factor it shrank by.

    Averaging (a pyramid) beats skipping pixels when resampling.  ``start`` is this function's result for a finer
    ``px_per_mm``: the halving goes on from there (the same levels, each halving of a 48 MP photo made once).
    """
    source, level = start or (photo, 1.0)
    while located.px_per_mm / (level * 2) >= px_per_mm * 1.3:
        source = cv2.pyrDown(source)
        level *= 2
    return source, level


def rectify(
    photo: Image,
    located: Located,
    *,
    px_per_mm: float = RECT_PX_PER_MM,
    box_mm: tuple[float, float, float, float] | None = None,
    registration: Registration | None = None,
    pyramid: tuple[Image, float] | None = None,
) -> Image:
    """The frame (or the part ``box_mm`` = x, y, w, h of it) resampled at ``px_per_mm``, RGB.

    ``pyramid`` is :func:`shrunk`'s result for this ``px_per_mm`` when the caller already has it.

    Pixel (i, j) holds frame point (x0 + i / px_per_mm, y0 + j / px_per_mm).  Without ``registration``
    the homography alone maps the frame onto the photo; with it, each point first moves by the local
    shift the registration dots measured, so a bowed or curled sheet comes out right region by region.
    """
    x0, y0, bw, bh = box_mm or (0.0, 0.0, FRAME_W_MM, FRAME_H_MM)
    source, level = shrunk(photo, located, px_per_mm) if pyramid is None else pyramid
    size = (round(bw * px_per_mm), round(bh * px_per_mm))
    if registration is None:
        to_px = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]], np.float64)
        shrink = np.diag([1 / level, 1 / level, 1.0])
        matrix = shrink @ located.homography @ to_px
        return cv2.warpPerspective(source, matrix, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    # The map is computed every MAP_STEP_MM and interpolated: the shift and the homography are smooth at that scale.
    # cv2.resize puts coarse sample k at output pixel (k + 0.5) * step - 0.5, so the samples are taken there.
    step = max(1, round(px_per_mm * MAP_STEP_MM))
    cols, rows = -(-size[0] // step), -(-size[1] // step)
    xs = x0 + ((np.arange(cols) + 0.5) * step - 0.5) / px_per_mm
    ys = y0 + ((np.arange(rows) + 0.5) * step - 0.5) / px_per_mm
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    moved = grid + registration.shift_mm(grid)
    photo_px = cv2.perspectiveTransform(moved.reshape(-1, 1, 2), located.homography).reshape(rows, cols, 2) / level
    map_x = cv2.resize(photo_px[..., 0].astype(np.float32), (cols * step, rows * step), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(photo_px[..., 1].astype(np.float32), (cols * step, rows * step), interpolation=cv2.INTER_LINEAR)
    return cv2.remap(source, map_x[: size[1], : size[0]], map_y[: size[1], : size[0]], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# --------------------------------------------------------------------------- local registration


def _tps_kernel(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    """The thin-plate spline's radial function r² log r between every point of ``a`` and of ``b`` (decimetres)."""
    d2 = np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        k = 0.5 * d2 * np.log(d2)
    return np.where(d2 > 0, k, 0.0)


@dataclass(frozen=True)
class Registration:
    """How far each region of the sheet lies from where the corner markers' homography puts it.

    A thin-plate spline through the shifts measured at the registration dots (and at the marker
    corners): frame point p appears in the photo at ``homography(p + shift_mm(p))``.  Each dot's
    leave-one-out error (how far the spline misses it when fitted without it) measures how well
    the fit can be trusted around it.
    """

    points_mm: NDArray[Any]
    """The control points (frame mm): the dots found, then the 16 marker corners."""
    shifts_mm: NDArray[Any]
    """The shift measured at each control point (mm)."""
    weights: NDArray[Any]
    affine: NDArray[Any]
    dots_mm: NDArray[Any]
    """Every registration dot of the layout (frame mm), found or not."""
    dot_found: tuple[bool, ...]
    dot_error_mm: tuple[float, ...]
    """Per dot: its leave-one-out error (mm); for a dot not found, the largest of its found neighbours'."""

    def shift_mm(self, points_mm: NDArray[Any]) -> NDArray[Any]:
        """The shift (mm) at each of ``points_mm`` (n × 2)."""
        pts = np.asarray(points_mm, np.float64) / SPLINE_UNIT_MM
        basis = np.hstack([np.ones((len(pts), 1)), pts])
        return np.asarray(_tps_kernel(pts, self.points_mm / SPLINE_UNIT_MM) @ self.weights + basis @ self.affine)

    def residual_mm(self, x_mm: float, y_mm: float) -> float:
        """How far the local fit may be off at (x, y) (mm): the largest error of the dots within :data:`RESIDUAL_REACH_MM`."""
        near = np.hypot(self.dots_mm[:, 0] - x_mm, self.dots_mm[:, 1] - y_mm) <= RESIDUAL_REACH_MM
        errors = np.asarray(self.dot_error_mm)[near]
        return float(errors.max()) if len(errors) else float(max(self.dot_error_mm))

    @property
    def found(self) -> int:
        return sum(self.dot_found)


@dataclass(frozen=True)
class Misregistration:
    """The estimated local misregistration (mm) of every item the classifier reads, indexed as in the layout.

    Measured on sheets with registration dots; a reading whose item lies where the fit may be off by
    more than the width it samples should be flagged for review rather than trusted.
    """

    plots: tuple[float, ...]
    edges: tuple[float, ...]
    bubbles: tuple[float, ...]
    colour_key: tuple[float, ...]

    @property
    def worst_mm(self) -> float:
        return max(self.plots + self.edges + self.bubbles)

    def of(self, item: str) -> float:
        """The estimate for a reading's item: ``'C3'`` (a plot), ``'edge B2-B3'`` or ``'butterfly C3'``."""
        kind, _, name = item.rpartition(" ")
        if kind == "edge":
            return self.edges[EDGES.index(parse_edge(name))]
        return (self.bubbles if kind == "butterfly" else self.plots)[parse_plot(name)]


def doubt_misregistered(readings: Sequence[Reading], sheet: Sheet) -> list[Reading]:
    """``readings`` with those whose item may be misregistered beyond :data:`MAX_MISREGISTRATION_MM` (or beyond the
    ``tolerates_mm`` of their evidence, when the classifier checked the reading stands more) lowered to
    :data:`DOUBT_CONFIDENCE` (so they are reviewed, not trusted), their evidence carrying the estimate."""
    if sheet.misregistration is None:
        return list(readings)
    out = []
    for reading in readings:
        item, kind = reading.item, reading.kind
        estimate = sheet.misregistration.of(item)
        tolerated = max(MAX_MISREGISTRATION_MM.get(kind, 0.5), float(dict(reading.evidence).get("tolerates_mm", 0.0)))
        if estimate > tolerated:
            (value, p), *rest = reading.probabilities
            evidence = (*reading.evidence, ("misregistration_mm", estimate))
            reading = dataclasses.replace(reading, probabilities=((value, min(p, DOUBT_CONFIDENCE)), *rest), evidence=evidence)
        out.append(reading)
    return out


def doubt_assumed_start(readings: Sequence[Reading], sheet: Sheet) -> list[Reading]:
    """``readings`` of a sheet whose starting fields were assumed (its QR code unreadable), with each assumed starting
    field lowered to :data:`DOUBT_CONFIDENCE`: a wrong guess is then reviewed, never trusted.  Only those plots are
    read as printed starting fields, so no other plot's reading depends on the guess.  (Their bubbles' readings do,
    through the plot's reading; they are not doubted for it, as they never were.)"""
    assumed = {plot_name(p) for p in sheet.starting_fields}
    out = []
    for reading in readings:
        if reading.kind == "plot" and reading.item in assumed:
            (value, p), *rest = reading.probabilities
            evidence = (*reading.evidence, ("starting_field_assumed", 1.0))
            reading = dataclasses.replace(reading, probabilities=((value, min(p, DOUBT_CONFIDENCE)), *rest), evidence=evidence)
        out.append(reading)
    return out


def _fit_spline(points: NDArray[Any], shifts: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Thin-plate spline weights, affine part and each point's leave-one-out error (mm) (Rippa's formula)."""
    pts = points / SPLINE_UNIT_MM
    n = len(pts)
    system = np.zeros((n + 3, n + 3))
    system[:n, :n] = _tps_kernel(pts, pts) + SPLINE_SMOOTHING * np.eye(n)
    basis = np.hstack([np.ones((n, 1)), pts])
    system[:n, n:] = basis
    system[n:, :n] = basis.T
    rhs = np.vstack([shifts, np.zeros((3, 2))])
    inverse = np.linalg.inv(system)
    solution = inverse @ rhs
    weights, affine = solution[:n], solution[n:]
    loo = np.hypot(*(weights / np.diag(inverse)[:n, None]).T)
    return weights, affine, loo


def _find_dot(image: Image, kernel: NDArray[Any], centre_px: tuple[float, float], reach_px: float) -> tuple[float, float, float]:
    """The strongest dot response within ``reach_px`` of ``centre_px`` in the RGB ``image``: its x, y (sub-pixel) and strength.

    Darkness here ignores colour: printed black is dark in every channel, felt and stamp ink are not.
    """
    h, w = image.shape[:2]
    half = kernel.shape[0] // 2
    cx, cy = centre_px
    x0, x1 = max(0, math.floor(cx - reach_px) - half), min(w, math.ceil(cx + reach_px) + half + 1)
    y0, y1 = max(0, math.floor(cy - reach_px) - half), min(h, math.ceil(cy + reach_px) + half + 1)
    if x1 - x0 <= 2 * half + 2 or y1 - y0 <= 2 * half + 2:
        return cx, cy, 0.0
    dark = 255.0 - image[y0:y1, x0:x1].max(axis=2).astype(np.float32)
    response = cv2.filter2D(dark, cv2.CV_32F, kernel, borderType=cv2.BORDER_REPLICATE)
    yy, xx = np.ogrid[y0:y1, x0:x1]
    response[(xx - cx) ** 2 + (yy - cy) ** 2 > reach_px * reach_px] = -np.inf
    j, i = np.unravel_index(int(np.argmax(response)), response.shape)
    best = float(response[j, i])

    def vertex(a: float, b: float, c: float) -> float:
        # The peak of the parabola through three samples, as an offset from the middle one.
        denominator = a - 2 * b + c
        return 0.0 if not math.isfinite(denominator) or denominator >= 0 else float(np.clip(0.5 * (a - c) / denominator, -0.5, 0.5))

    dx = vertex(response[j, i - 1], best, response[j, i + 1]) if 0 < i < response.shape[1] - 1 else 0.0
    dy = vertex(response[j - 1, i], best, response[j + 1, i]) if 0 < j < response.shape[0] - 1 else 0.0
    return x0 + i + dx, y0 + j + dy, best


@cache
def _dot_kernel(px_per_mm: float) -> NDArray[Any]:
    """A matched filter for a registration dot: mean darkness in its core minus mean darkness in a ring of paper around it."""
    half = math.ceil(DOT_RING_MM[1] * px_per_mm)
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1] / px_per_mm
    r = np.hypot(xx, yy)
    core = r <= DOT_CORE_MM
    ring = (r >= DOT_RING_MM[0]) & (r <= DOT_RING_MM[1])
    return (core / core.sum() - ring / ring.sum()).astype(np.float32)


def register(
    coarse: Image, layout: GardenLayout, located: Located, contrast: float, px_per_mm: float = RECT_PX_PER_MM
) -> Registration | None:
    """Measure the local shifts at ``layout``'s registration dots in ``coarse`` (the homography's rectified sheet).

    None when the layout has no dots or too few of them are found (a release-1 sheet has none).
    ``contrast`` is the markers' paper-minus-black grey difference: a dot must reach
    :data:`MIN_DOT_CONTRAST` of it.
    """
    if not layout.registration:
        return None
    kernel = _dot_kernel(px_per_mm)
    dots = np.array([(c.cx_mm, c.cy_mm) for c in layout.registration], np.float64)

    def measure(predicted_mm: NDArray[Any], reach_mm: float) -> list[tuple[float, float] | None]:
        out: list[tuple[float, float] | None] = []
        for (x, y), (px, py) in zip(dots, predicted_mm, strict=True):
            fx, fy, strength = _find_dot(coarse, kernel, (px * px_per_mm, py * px_per_mm), reach_mm * px_per_mm)
            out.append((fx / px_per_mm - x, fy / px_per_mm - y) if strength >= MIN_DOT_CONTRAST * contrast else None)
        return out

    measured = measure(dots, DOT_SEARCH_MM)
    if sum(m is not None for m in measured) < MIN_DOTS_FOUND * len(dots):
        return None
    corners_mm = np.array([pt for i in GARDEN_MARKER_IDS for pt in layout.markers[i].box.corners_mm()], np.float64)
    if located.marker_corners_px is not None:
        inverse = np.linalg.inv(located.homography)
        seen = cv2.perspectiveTransform(located.marker_corners_px.reshape(-1, 1, 2).astype(np.float64), inverse).reshape(-1, 2)
        corner_shifts = seen - corners_mm
    else:
        corner_shifts = np.zeros_like(corners_mm)
    fit = _fit_dots(dots, measured, corners_mm, corner_shifts)
    for _ in range(DOT_REFINE_PASSES):
        # A sheet lifted 10-15 mm moves the middle of the grid further than the first search reaches: the dots found
        # predict where the others are, and a short search around that prediction finds them.
        predicted = dots + fit.shift_mm(dots)
        again = measure(predicted, DOT_REFINE_MM)
        if sum(m is not None for m in again) <= fit.found:
            break
        measured = again
        fit = _fit_dots(dots, measured, corners_mm, corner_shifts)
    return fit


def _fit_dots(
    dots: NDArray[Any], measured: Sequence[tuple[float, float] | None], corners_mm: NDArray[Any], corner_shifts: NDArray[Any]
) -> Registration:
    """The spline through the dots ``measured`` (shift mm, None if not found) and the marker corners, with each dot's error."""
    found = [m is not None for m in measured]
    dropped: dict[int, float] = {}
    # Drop, one at a time, a dot the others contradict (a pen stroke through it, or paper creased there); what it
    # contradicted by stays as that region's error, since the fit cannot tell which was right.
    while True:
        idx = [k for k, ok in enumerate(found) if ok]
        points = np.vstack([dots[idx], corners_mm])
        shifts = np.vstack([np.array([measured[k] for k in idx], np.float64), corner_shifts])
        weights, affine, loo = _fit_spline(points, shifts)
        worst = int(np.argmax(loo[: len(idx)]))
        if loo[worst] <= MAX_DOT_DISAGREEMENT_MM or sum(found) <= MIN_DOTS_FOUND * len(dots):
            break
        found[idx[worst]] = False
        dropped[idx[worst]] = float(loo[worst])
    errors = dict(zip(idx, loo[: len(idx)].tolist(), strict=True)) | dropped
    dot_error = []
    for k, (x, y) in enumerate(dots):
        if k in errors:
            dot_error.append(DOT_NOISE_MM + RESIDUAL_SAFETY * errors[k])
            continue
        near = [errors[j] for j in errors if math.hypot(*(dots[j] - (x, y))) <= MISSING_DOT_REACH_MM]
        dot_error.append(DOT_NOISE_MM + RESIDUAL_SAFETY * (max(near) if near else max(errors.values())))
    return Registration(points, shifts, weights, affine, dots, tuple(found), tuple(dot_error))


def misregistration(registration: Registration, layout: GardenLayout) -> Misregistration:
    """The estimated misregistration at every plot, edge slot, bubble and colour key circle."""

    def at(x: float, y: float) -> float:
        return round(registration.residual_mm(x, y), 3)

    return Misregistration(
        plots=tuple(at(*box.centre_mm) for box in layout.plots),
        edges=tuple(at((s.x1_mm + s.x2_mm) / 2, (s.y1_mm + s.y2_mm) / 2) for s in layout.edge_slots),
        bubbles=tuple(at(c.cx_mm, c.cy_mm) for c in layout.bubbles),
        colour_key=tuple(at(c.cx_mm, c.cy_mm) for c in layout.colour_key),
    )


def path_offsets(
    rectified: Image, layout: GardenLayout, contrast: float = 1.0, px_per_mm: float = RECT_PX_PER_MM
) -> tuple[float | None, ...]:
    """Per edge slot: how far (mm, across the slot) the path between its two printed plot outlines lies from where the
    rectified sheet puts it, or None where the outlines are not both clearly seen.

    The outlines are the sheet's own ruler at every edge: two thin printed lines exactly the layout's path
    (:attr:`~papillon.layout.GardenLayout.path_mm`) apart.
    Each half of the slot is measured apart (its darkness profile across, the median along it); the halves must agree.
    A pen's brick between them, ink spilled over one, or a shaded plot's fill against it (no thin line there) leave the
    edge unmeasured rather than mismeasured.
    """
    grey = cv2.cvtColor(rectified, cv2.COLOR_RGB2GRAY).astype(np.float32)
    half_gap = layout.path_mm / 2
    reach = half_gap + PATH_SEARCH_MM + PATH_LINE_SIDE_MM + 2 / px_per_mm  # two pixels more: a peak needs neighbours
    offsets: list[float | None] = []
    for slot in layout.edge_slots:
        vertical = slot.x1_mm == slot.x2_mm
        lo, hi = (
            (min(slot.y1_mm, slot.y2_mm), max(slot.y1_mm, slot.y2_mm))
            if vertical
            else (min(slot.x1_mm, slot.x2_mm), max(slot.x1_mm, slot.x2_mm))
        )
        centre = slot.x1_mm if vertical else slot.y1_mm
        across = slice(round((centre - reach) * px_per_mm), round((centre + reach) * px_per_mm) + 1)
        halves = []
        for a, b in ((lo + PATH_END_MM, (lo + hi) / 2), ((lo + hi) / 2, hi - PATH_END_MM)):
            along = slice(round(a * px_per_mm), round(b * px_per_mm))
            strip = grey[along, across] if vertical else grey[across, along].T
            halves.append(_path_centre(np.median(strip, axis=0), across.start, centre, layout.path_mm, contrast, px_per_mm))
        if None in halves:
            offsets.append(None)
            continue
        first, second = (h for h in halves if h is not None)
        offsets.append((first + second) / 2 if abs(first - second) <= PATH_HALVES_AGREE_MM else None)
    return tuple(offsets)


def bubble_offsets(
    rectified: Image, layout: GardenLayout, contrast: float = 1.0, px_per_mm: float = RECT_PX_PER_MM
) -> tuple[float | None, ...]:
    """Per bubble: how far (mm) its printed outline's centre lies from where the rectified sheet puts it, or None where
    the outline is not clearly seen around enough of the circle.

    Along :data:`RING_ANGLES` rays from the bubble's centre the outline is the thin dark line nearest its radius; a
    circle fitted through those points gives the centre.  A fill or mark over the outline, or a plot's ink against it,
    leaves no thin line on that ray, which is left out; the rays kept must surround the centre.
    """
    grey = cv2.cvtColor(rectified, cv2.COLOR_RGB2GRAY).astype(np.float32)
    angles = np.linspace(0.0, 2 * math.pi, RING_ANGLES, endpoint=False)
    step = 1.0 / px_per_mm
    side = max(1, round(PATH_LINE_SIDE_MM * px_per_mm))
    reach = BUBBLE_RING_SEARCH_MM + PATH_LINE_SIDE_MM + 2 * step  # two samples more: a peak needs neighbours
    offsets: list[float | None] = []
    for circle in layout.bubbles:
        radii = np.arange(circle.r_mm - reach, circle.r_mm + reach + step / 2, step)
        xs = (circle.cx_mm + np.cos(angles)[:, None] * radii[None, :]) * px_per_mm
        ys = (circle.cy_mm + np.sin(angles)[:, None] * radii[None, :]) * px_per_mm
        profiles = cv2.remap(grey, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        darkness = 1.0 - profiles / max(float(profiles.max()), 1.0)  # against the paper here: a shadow dims the line too
        line = darkness[:, side:-side] - np.maximum(darkness[:, : -2 * side], darkness[:, 2 * side :])
        r = radii[side:-side]
        window = np.abs(r - circle.r_mm) <= BUBBLE_RING_SEARCH_MM
        cols = np.flatnonzero(window)
        k = cols[np.argmax(line[:, window], axis=1)]
        rows = np.arange(len(angles))
        inner = (k > 0) & (k < line.shape[1] - 1)
        kk = np.clip(k, 1, line.shape[1] - 2)
        peak = line[rows, kk]
        ok = inner & (peak >= PATH_LINE_MIN * contrast) & (peak >= line[rows, kk - 1]) & (peak >= line[rows, kk + 1])
        quadrants = {int(q) for q in (angles[ok] // (math.pi / 2))}
        if ok.sum() < RING_MIN_SHARE * len(angles) or len(quadrants) < 4:
            offsets.append(None)
            continue
        # Sub-sample: the vertex of the parabola through each peak and its neighbours.
        before, after = line[rows, kk - 1][ok], line[rows, kk + 1][ok]
        curve = before - 2 * peak[ok] + after
        shift = np.where(curve < 0, np.clip(0.5 * (before - after) / np.where(curve < 0, curve, -1.0), -0.5, 0.5), 0.0)
        found = r[kk[ok]] + shift * step
        # r(θ) = R + dx cos θ + dy sin θ: the centre's offset (dx, dy) and the radius as the photo shows it.
        design = np.stack([np.ones(int(ok.sum())), np.cos(angles[ok]), np.sin(angles[ok])], axis=1)
        coef, *_ = np.linalg.lstsq(design, found, rcond=None)
        spread = float(np.sqrt(np.mean((design @ coef - found) ** 2)))
        dx, dy = float(coef[1]), float(coef[2])
        offsets.append(float(math.hypot(dx, dy)) if spread <= RING_FIT_MAX_MM else None)
    return tuple(offsets)


def _path_centre(profile: NDArray[Any], start_px: int, centre_mm: float, path_mm: float, contrast: float, px_per_mm: float) -> float | None:
    """The offset (mm) of the midpoint between the two thin dark lines nearest ±``path_mm`` / 2 in a grey ``profile``
    across an edge (pixel 0 at ``start_px``), or None unless both are clear lines exactly a path's width apart."""
    darkness = 1.0 - profile / max(float(np.max(profile)), 1.0)  # against the paper here: a shadow dims the line too
    side = max(1, round(PATH_LINE_SIDE_MM * px_per_mm))
    # A thin line is darker than both its sides; a fill's border (a step) is not.
    line = darkness[side:-side] - np.maximum(darkness[: -2 * side], darkness[2 * side :])
    positions = (np.arange(len(line)) + side + start_px) / px_per_mm - centre_mm  # pixel i holds frame point i / px_per_mm
    found = []
    for sign in (-1.0, 1.0):
        window = np.abs(positions - sign * path_mm / 2) <= PATH_SEARCH_MM
        if not window.any():
            return None
        k = int(np.flatnonzero(window)[np.argmax(line[window])])
        # A peak on the window's border is the flank of a line further off: not found where it should be.
        if line[k] < PATH_LINE_MIN * contrast or k in (0, len(line) - 1) or line[k] < max(line[k - 1], line[k + 1]):
            return None
        # Sub-pixel: the vertex of the parabola through the peak and its neighbours.
        a, b, c = line[k - 1], line[k], line[k + 1]
        denominator = a - 2 * b + c
        shift = float(np.clip(0.5 * (a - c) / denominator, -0.5, 0.5)) if denominator < 0 else 0.0
        found.append(positions[k] + shift / px_per_mm)
    left, right = found
    if abs((right - left) - path_mm) > PATH_WIDTH_SLACK_MM:
        return None
    return float((left + right) / 2)


def check_quality(rectified: Image, layout: GardenLayout, px_per_mm: float = RECT_PX_PER_MM) -> tuple[float, float]:
    """The paper's grey level and the markers' edge blur (mm); ScanError if too dark or blurry."""
    paper, width, _ = _quality(rectified, layout, px_per_mm)
    return paper, width


def _quality(rectified: Image, layout: GardenLayout, px_per_mm: float) -> tuple[float, float, float]:
    """:func:`check_quality`'s paper grey and edge blur, and the markers' paper-to-black difference."""
    grey = cv2.cvtColor(rectified, cv2.COLOR_RGB2GRAY).astype(np.float32)
    papers, inks, widths = [], [], []
    for marker in layout.markers:
        box = marker.box
        pad = 2.0
        x0, y0 = round((box.x_mm - pad) * px_per_mm), round((box.y_mm - pad) * px_per_mm)
        x1, y1 = round((box.right_mm + pad) * px_per_mm), round((box.bottom_mm + pad) * px_per_mm)
        patch = grey[max(y0, 0) : y1, max(x0, 0) : x1]
        ring = np.concatenate([patch[: round(pad * px_per_mm * 0.7)].ravel(), patch[-round(pad * px_per_mm * 0.7) :].ravel()])
        border = round((pad + marker.cell_mm * 0.5) * px_per_mm)
        papers.append(float(np.median(ring)))
        inks.append(float(np.percentile(patch[border:-border, border:-border], 10)))
        widths.append(_edge_width_mm(patch, pad, marker.cell_mm, px_per_mm))
    paper, ink = float(np.median(papers)), float(np.median(inks))
    if paper < DARK_PAPER_MAX or paper - ink < MIN_MARKER_CONTRAST:
        raise ScanError("the photo is too dark — photograph the sheet in brighter light")
    width = float(np.median(widths))
    if width > MAX_EDGE_WIDTH_MM:
        raise ScanError("the photo is too blurry — hold the camera still and focus on the sheet")
    return paper, width, paper - ink


def _edge_width_mm(patch: NDArray[Any], pad_mm: float, cell_mm: float, px_per_mm: float) -> float:
    """10-90 % rise (mm) of the marker's outer edge, averaged over its four sides."""
    n = patch.shape[0]
    mid = slice(round((pad_mm + cell_mm) * px_per_mm), n - round((pad_mm + cell_mm) * px_per_mm))
    start = round((pad_mm - 1.5) * px_per_mm)
    stop = round((pad_mm + cell_mm * 0.8) * px_per_mm)
    profiles = [
        patch[mid, start:stop].mean(axis=0),
        patch[mid, ::-1][:, start:stop].mean(axis=0),
        patch[start:stop, mid].mean(axis=1),
        patch[::-1][start:stop, mid].mean(axis=1),
    ]
    widths = []
    for profile in profiles:
        hi, lo = float(profile[:3].mean()), float(profile[-3:].mean())
        if hi - lo < 1:
            continue
        level = (profile - lo) / (hi - lo)
        above90 = np.where(level > 0.9)[0]
        below10 = np.where(level < 0.1)[0]
        if not len(above90) or not len(below10):
            continue
        widths.append(max(float(below10[0] - above90[above90 < below10[0]][-1]) if (above90 < below10[0]).any() else 1.0, 1.0) / px_per_mm)
    return float(np.median(widths)) if widths else 0.0


# --------------------------------------------------------------------------- the QR code


def known_layouts() -> dict[str, GardenLayout]:
    """Layout id -> garden layout, for every released layout (frozen data: :func:`papillon.layout.released_garden_layouts`)."""
    return {layout_id: released.layout for layout_id, released in released_garden_layouts().items()}


QR_SIZES = tuple(range(21, 58, 4))
"""Module counts tried when sampling the QR grid (versions 1-10)."""
QR_FINDER_MIN = 0.8
"""Share of the three finder patterns' modules that must match for a module count to be tried."""
QR_MODULE_PX = 8
"""Side of a module in the clean QR image handed to the decoder (px)."""


def _finder() -> NDArray[Any]:
    pattern = np.ones((7, 7), bool)
    pattern[1:6, 1:6] = False
    pattern[2:5, 2:5] = True
    return pattern


QR_SHIFTS = (0.0, -0.25, 0.25)
"""Offsets (in modules) of the sampling grid tried in x and y: the homography may be off by a fraction of a module."""
QR_DEBLUR_FACTORS = (0.33, 0.42)
"""Gaussian blur sigmas tried for deblurring the QR code, as fractions of the markers' 10-90 % edge width (0.25 read
no code that 0.33 did not, on the 44 of photogen3 820000-880119 and photogen2 900000-900039 that needed redrawing)."""
QR_WIENER_NOISE = 0.01
"""Noise-to-signal ratio of the Wiener filter that deblurs the QR code."""
QR_ITERATIONS = 4
"""Rounds of the blur-aware module decision."""


def _sample_modules(patch: NDArray[Any], quiet_px: int, n: int, dx: float = 0.0, dy: float = 0.0) -> tuple[NDArray[Any], float, float]:
    """The n×n modules (True = dark) of the QR patch, the finder patterns' agreement (0-1) and the fit's residual.

    At two pixels per module the blur mixes each module with its neighbours,
    so a module is decided by a small linear model fitted to the code itself:
    value = own·dark + Σ(4 neighbours)·a + Σ(4 diagonals)·b + paper, refitted
    a few times, each module taking the state that explains its value best.
    """
    side = patch.shape[0] - 2 * quiet_px
    cell = side / n
    xs = (quiet_px + (np.arange(n) + 0.5 + dx) * cell - 0.5).astype(np.float32)
    ys = (quiet_px + (np.arange(n) + 0.5 + dy) * cell - 0.5).astype(np.float32)
    values = cv2.remap(patch, np.tile(xs, (n, 1)), np.tile(ys[:, None], (1, n)), cv2.INTER_LINEAR)
    lo, hi = np.percentile(values, (5, 95))
    dark = (values < (lo + hi) / 2).astype(np.float32)
    cross = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], np.float32)
    diagonal = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], np.float32)
    residual = float("inf")
    for _ in range(QR_ITERATIONS):
        padded = np.pad(dark, 1)
        near = cv2.filter2D(padded, -1, cross)[1:-1, 1:-1]
        far = cv2.filter2D(padded, -1, diagonal)[1:-1, 1:-1]
        design = np.stack([dark.ravel(), near.ravel(), far.ravel(), np.ones(dark.size, np.float32)], axis=1).astype(np.float64)
        # Least squares through its 4×4 normal equations: the same fit at half the cost.
        coef, *_ = np.linalg.lstsq(design.T @ design, design.T @ values.ravel(), rcond=None)
        base = coef[1] * near + coef[2] * far + coef[3]
        fit_dark, fit_light = np.abs(values - (coef[0] + base)), np.abs(values - base)
        dark = (fit_dark < fit_light).astype(np.float32)
        residual = float(np.minimum(fit_dark, fit_light).mean() / max(abs(float(coef[0])), 1e-6))
    decided = dark > 0.5
    finder = _finder()
    corners = (decided[:7, :7], decided[:7, -7:], decided[-7:, :7])
    match = float(np.mean([np.mean(c == finder) for c in corners]))
    return decided, match, residual


def _clean_qr(dark: NDArray[Any]) -> NDArray[Any]:
    n = dark.shape[0]
    image = np.full(((n + 8) * QR_MODULE_PX,) * 2, 255, np.uint8)
    cells = np.where(dark, 0, 255).astype(np.uint8)
    image[4 * QR_MODULE_PX : (4 + n) * QR_MODULE_PX, 4 * QR_MODULE_PX : (4 + n) * QR_MODULE_PX] = np.kron(
        cells, np.ones((QR_MODULE_PX,) * 2, np.uint8)
    )
    return image


def _clean_qr_corners(image: NDArray[Any]) -> NDArray[Any]:
    """The corners of the code :func:`_clean_qr` drew in ``image``: the decoder need not look for it (a third of its
    time, and a code whose finder patterns came out imperfect, yet fit at :data:`QR_FINDER_MIN`, is still decoded)."""
    lo, hi = 4 * QR_MODULE_PX, image.shape[0] - 4 * QR_MODULE_PX
    return np.array([[[lo, lo], [hi, lo], [hi, hi], [lo, hi]]], np.float32)


def _wiener(patch: NDArray[Any], sigma_px: float) -> NDArray[Any]:
    """``patch`` deblurred by a Gaussian of ``sigma_px`` (Wiener filter, noise ratio :data:`QR_WIENER_NOISE`)."""
    h, w = patch.shape
    yy, xx = np.mgrid[0:h, 0:w]
    yy, xx = np.minimum(yy, h - yy), np.minimum(xx, w - xx)
    psf = np.exp(-(xx**2 + yy**2) / (2 * sigma_px * sigma_px))
    otf = np.fft.fft2(psf / psf.sum())
    mean = float(patch.mean())
    spectrum = np.fft.fft2(patch - mean) * np.conj(otf) / (np.abs(otf) ** 2 + QR_WIENER_NOISE)
    return (np.real(np.fft.ifft2(spectrum)) + mean).astype(np.float32)


def _qr_patch(
    photo: Image, located: Located, layout: GardenLayout, registration: Registration | None, pyramid: tuple[Image, float] | None
) -> NDArray[Any]:
    """The sheet's QR code with its quiet zone, rectified at :data:`QR_PX_PER_MM`, in grey."""
    qr = layout.qr
    box = (qr.x_mm - QR_QUIET_MM, qr.y_mm - QR_QUIET_MM, qr.w_mm + 2 * QR_QUIET_MM, qr.h_mm + 2 * QR_QUIET_MM)
    sheet_part = rectify(photo, located, px_per_mm=QR_PX_PER_MM, box_mm=box, registration=registration, pyramid=pyramid)
    return cv2.cvtColor(sheet_part, cv2.COLOR_RGB2GRAY)


def _redrawn_codes(grey: NDArray[Any], sigma_px: float) -> Iterator[NDArray[Any]]:
    """Clean codes redrawn from the modules sampled on ``grey``, deblurred by a Gaussian of ``sigma_px`` first (if
    any): at the module count whose finder patterns fit best (the second best never read a code on those 44 photos),
    the grids that fit best first; none whose finder patterns fit under :data:`QR_FINDER_MIN`."""
    version = _wiener(grey, sigma_px) if sigma_px else grey
    quiet_px = round(QR_QUIET_MM * QR_PX_PER_MM)
    centred = {n: _sample_modules(version, quiet_px, n) for n in QR_SIZES}
    n = max(QR_SIZES, key=lambda n: centred[n][1])
    grids = [centred[n] if dx == dy == 0.0 else _sample_modules(version, quiet_px, n, dx, dy) for dx in QR_SHIFTS for dy in QR_SHIFTS]
    for dark, match, _ in sorted(grids, key=lambda g: g[2]):
        if match >= QR_FINDER_MIN:
            yield _clean_qr(dark)


def read_qr(
    photo: Image,
    located: Located,
    layout: GardenLayout,
    edge_width_mm: float = 0.0,
    registrations: tuple[Registration | None, ...] = (None,),
    pyramid: tuple[Image, float] | None = None,
) -> str | None:
    """The text of the sheet's QR code, or None if it cannot be decoded.

    The code is rectified through each of ``registrations`` (a bent sheet's local fit, or None for the homography
    alone) and handed to OpenCV's decoder as photographed: that reads nine in ten photos (photogen3 820000-880119).
    Otherwise the homography already says where every module is, so the modules are sampled on a grid and redrawn as
    a clean code: this reads codes whose modules are under two pixels wide in the photo.  When that fails, the patch
    is deblurred by the blur measured on the markers (``edge_width_mm``) and sampled again.  Each step is tried on
    every rectification before the next, costlier one.  ``pyramid`` is :func:`shrunk`'s result at
    :data:`QR_PX_PER_MM`, when the caller already has it.
    """
    detector = cv2.QRCodeDetector()
    patches = []
    for registration in registrations:  # one at a time: the first reads nine codes in ten
        patches.append(_qr_patch(photo, located, layout, registration, pyramid))
        text = _decode(detector, patches[-1])
        if text:
            return text
    greys = [patch.astype(np.float32) for patch in patches]
    for deblur in (0.0, *QR_DEBLUR_FACTORS):
        for grey in greys:
            for code in _redrawn_codes(grey, deblur * max(edge_width_mm, 0.6) * QR_PX_PER_MM):
                text = _decode(detector, code, _clean_qr_corners(code))
                if text:
                    return text
    return None


def _decode(detector: cv2.QRCodeDetector, image: NDArray[Any], corners: NDArray[Any] | None = None) -> str | None:
    """The text of the code in ``image``, found by the detector or at ``corners`` (none: unreadable)."""
    try:
        text = detector.decode(image, corners)[0] if corners is not None else detector.detectAndDecode(image)[0]
    except cv2.error:
        return None
    return str(text) if text else None


QR_UNREADABLE = "found the sheet's markers but could not read its QR code — keep it sharp, unshaded and uncovered"


def identify(text: str | None) -> tuple[GardenLayout, tuple[Plot, ...], dict[str, object]]:
    """The layout and starting fields named by the QR text, or ScanError."""
    if text is None:
        raise ScanError(QR_UNREADABLE)
    try:
        payload = json.loads(text)
    except json.JSONDecodeError:
        payload = None
    if not isinstance(payload, dict) or payload.get("format") != PAYLOAD_FORMAT:
        raise ScanError("the QR code on this sheet is not a papillon garden sheet's — print the sheet with 'papillon sheet'")
    if payload.get("version") != PAYLOAD_VERSION:
        raise ScanError(
            f"the sheet's QR code has version {payload.get('version')!r}; this papillon reads version {PAYLOAD_VERSION} — update papillon"
        )
    if payload.get("render"):
        raise ScanError("this is a picture drawn by 'papillon render', not a photo of a filled-in sheet — score its .garden file instead")
    layout_id = payload.get("layout")
    layout = known_layouts().get(str(layout_id))
    if layout is None:
        raise ScanError(f"unknown sheet layout {layout_id!r} — print the sheet with this papillon, or update papillon to read it")
    try:
        fields = parse_starting_fields(str(payload.get("fields", "")))
    except ValueError as error:
        raise ScanError(f"the sheet's QR code names bad starting fields: {error}") from None
    return layout, fields, payload


ROUND_RING_MM = 0.8
"""Half-width (mm) of the band around a round-track space's printed circle where its ring is looked for (a bowed
sheet moves it that much before the local fit)."""
ROUND_SIDE_MM = 0.8
"""How far (mm) beyond that band, in and out, the grey it is compared with lies."""
ROUND_RING_MIN = 0.06
"""Darkness (share of the paper's grey) by which the ring of every space of a round count must exceed the paper
outside it for that count to fit."""
ROUND_ANGLES = 48
"""Directions in which a space's ring is sampled."""
ROUND_COUNTS = tuple(range(1, 31))
"""Round counts a released layout may be printed for (:func:`papillon.layout.released_garden_layouts`)."""


def _ring_contrast(grey: Image, space: Circle, px_per_mm: float, paper: float) -> float:
    """How much a round-track space's printed circle shows as a thin line: in each direction, the darkest grey within
    :data:`ROUND_RING_MM` of the circle below the darker of the grey :data:`ROUND_SIDE_MM` further in and out,
    as a share of ``paper``, the sheet's grey (median over the directions).  A crossed or coloured space stays a line; a stroke or a
    fill where no circle is printed is not one (dark on one side at least)."""
    angles = np.linspace(0.0, 2 * math.pi, ROUND_ANGLES, endpoint=False)

    def sample(radii: NDArray[Any]) -> NDArray[Any]:
        xs = ((space.cx_mm + np.outer(np.cos(angles), radii)) * px_per_mm - 0.5).astype(np.float32)
        ys = ((space.cy_mm + np.outer(np.sin(angles), radii)) * px_per_mm - 0.5).astype(np.float32)
        return np.asarray(cv2.remap(grey, xs, ys, cv2.INTER_LINEAR))

    r = space.r_mm
    ring = sample(r + np.linspace(-ROUND_RING_MM, ROUND_RING_MM, 9)).min(axis=1)
    sides = np.minimum(
        sample(np.array([r - ROUND_RING_MM - ROUND_SIDE_MM]))[:, 0], sample(np.array([r + ROUND_RING_MM + ROUND_SIDE_MM]))[:, 0]
    )
    return float(np.median(sides - ring)) / paper


def round_count(coarse: Image, px_per_mm: float = RECT_PX_PER_MM) -> int | None:
    """The round count the sheet's round track was printed for, or None when the track does not say it surely.

    It is the largest count every one of whose spaces shows a printed circle; counts of fewer rounds put their
    spaces on some of its spaces, so the spaces two more rounds would add (where they lie apart from its own)
    must show clean paper, neither a circle nor a mark: a track half hidden fits a smaller count too.
    """
    grey = cv2.cvtColor(coarse, cv2.COLOR_RGB2GRAY).astype(np.float32)
    paper = float(np.percentile(grey, 90)) or 1.0  # once, not for each of the 30 counts' 465 spaces (9 s of CPU)

    def contrast(space: Circle) -> float:
        return _ring_contrast(grey, space, px_per_mm, paper)

    fitting = [n for n in ROUND_COUNTS if min(contrast(s) for s in garden_layout(n).rounds) >= ROUND_RING_MIN]
    if not fitting:
        return None
    rounds = max(fitting)
    own = garden_layout(rounds).rounds
    if rounds + 2 in ROUND_COUNTS:
        added = [s for s in garden_layout(rounds + 2).rounds if all(abs(s.cx_mm - o.cx_mm) > 2 * s.r_mm for o in own)]
        if any(abs(contrast(s)) >= ROUND_RING_MIN for s in added):
            return None
    return rounds


def identify_by_geometry(
    photo: Image, located: Located, registration: Registration | None, pyramid: tuple[Image, float], family: GardenLayout
) -> tuple[GardenLayout, tuple[Plot, ...], dict[str, object]]:
    """The layout of a sheet whose QR code cannot be decoded, told by what is printed (ScanError if it cannot be).

    The registration dots found (those of ``family``, :func:`register_release`) say the release (release 1 has none);
    the round track's circles say the round count (each count puts them elsewhere; every release puts its track where
    release 2 did).  No count that fits, or not exactly one released layout for it, and
    the photo is refused as before.  The starting fields, carried only by the QR code, are taken as the standard
    edition's (the output says so).
    """
    if registration is None:
        raise ScanError(QR_UNREADABLE)
    # Through the dots' local fit: a bow moves the round track a millimetre or more off the homography's place.
    rounds = round_count(rectify(photo, located, registration=registration, pyramid=pyramid))
    candidates = [
        (layout_id, released)
        for layout_id, released in released_garden_layouts().items()
        if released.rounds == rounds and released.layout.registration == family.registration
    ]
    if len(candidates) != 1:
        raise ScanError(QR_UNREADABLE)
    layout_id, released = candidates[0]
    from papillon.edition import standard_edition

    fields = tuple(standard_edition().rules.starting_fields)
    return released.layout, fields, {"format": PAYLOAD_FORMAT, "layout": layout_id, "told_by": "geometry"}


def _sample(photo: Image) -> Image:
    """Every 4th pixel of every 4th row of ``photo`` (enough to judge its light and its colour)."""
    # Gathered as whole 3-byte pixels: numpy copies those faster than bytes.
    pixels = photo.view(np.dtype((np.void, 3))) if photo.flags.c_contiguous else None
    return np.ascontiguousarray(pixels[::4, ::4]).view(np.uint8) if pixels is not None else np.ascontiguousarray(photo[::4, ::4])


def _too_dark(sample: Image) -> bool:
    """Whether a photo (its :func:`_sample`) is too dark to be read at all: under 1 % of it reaches grey
    :data:`DARK_PHOTO_MAX`."""
    grey = cv2.cvtColor(sample, cv2.COLOR_RGB2GRAY)
    return int(np.count_nonzero(grey >= DARK_PHOTO_MAX)) < 0.01 * grey.size


def _colourless(sample: Image) -> bool:
    """Whether a photo (its :func:`_sample`) has no colour at all (a greyscale photo, or one converted to grey and
    saved as RGB)."""
    red, green, blue = cv2.split(sample)
    gap = cv2.max(cv2.max(cv2.absdiff(red, green), cv2.absdiff(green, blue)), cv2.absdiff(blue, red))
    # The 99th percentile lies between two order statistics near rank 0.99 (n - 1): read off a histogram, they
    # settle it unless they straddle the threshold, when numpy's interpolation between them does (as before).
    counts = cv2.calcHist([gap], [0], None, [256], [0, 256]).ravel()  # float32: exact below 2**24 pixels
    cumulative = np.cumsum(counts.astype(np.int64))
    rank = math.floor(0.99 * (gap.size - 1))
    lowest, highest = (int(np.searchsorted(cumulative, min(max(k, 0), gap.size - 1), side="right")) for k in (rank - 1, rank + 2))
    if highest <= GREY_CHANNEL_GAP or lowest > GREY_CHANNEL_GAP:
        return highest <= GREY_CHANNEL_GAP
    return float(np.percentile(gap.astype(np.int16), 99)) <= GREY_CHANNEL_GAP


@cache
def _releases() -> tuple[GardenLayout, ...]:
    """Today's garden layout, then one released layout for each other way a release prints its registration dots and
    QR code (newest first): what :func:`find_sheet` looks for before it knows the sheet's release.  Only their
    geometry serves: each carries the id of one of its release's round counts, whichever came first."""
    found = [garden_layout()]
    for released in sorted(released_garden_layouts().values(), key=lambda r: -r.release):
        if all((released.layout.registration, released.layout.qr) != (f.registration, f.qr) for f in found):
            found.append(released.layout)
    return tuple(found)


def register_release(coarse: Image, located: Located, contrast: float) -> tuple[GardenLayout, Registration | None]:
    """The registration through the dots of the release they fit (:func:`register` with each of :func:`_releases`),
    and a layout of that release; today's layout and None when no release's dots are found.

    Releases place their dots a few millimetres apart, so another release's search windows catch some of a sheet's
    dots too: the release whose dots are found most often, then whose fit disagrees least with them, is the sheet's
    (photogen3 development seeds 100000-100039: all 36 of release 3's dots against 21 of release 2's, which disagreed
    by 2-3 mm).
    """
    best: tuple[tuple[int, float], GardenLayout, Registration] | None = None
    for layout in _releases():
        registration = register(coarse, layout, located, contrast)
        if registration is not None:
            score = (sum(registration.dot_found), -float(np.median(registration.dot_error_mm)))
            if best is None or score > best[0]:
                best = (score, layout, registration)
    return (garden_layout(), None) if best is None else (best[1], best[2])


def find_sheet(photo: Image) -> Sheet:
    """Locate, check, identify and rectify the garden sheet in ``photo`` (ScanError on any failure).

    Every release shares the markers, so the sheet is found before its release is known.  The registration dots of
    each release are looked for (:func:`register_release`): the release whose dots are there says where the QR code
    lies, and a bent sheet's code is read through their local fit.  With no dots found, the code is looked for where
    each release prints it.
    """
    sample = _sample(photo)
    if _too_dark(sample):
        # Said first: in a photo this dark the markers are lost (the cause is not a cover or the framing), and so are
        # its colours (it is not greyscale).
        raise ScanError("the photo is too dark — photograph the sheet in brighter light")
    if _colourless(sample):
        # Said next: a greyscale photo is refused whatever else is wrong with it, and its markers or dots may be lost too.
        from papillon.scan.classify import NO_COLOUR

        raise ScanError(NO_COLOUR)
    located = locate(photo)
    qr_pyramid = shrunk(photo, located, QR_PX_PER_MM)
    pyramid = shrunk(photo, located, RECT_PX_PER_MM, start=qr_pyramid)
    coarse = rectify(photo, located, pyramid=pyramid)
    paper, width, contrast = _quality(coarse, garden_layout(), RECT_PX_PER_MM)
    family, registration = register_release(coarse, located, contrast)
    # Through the dots' local fit first (a bent sheet), then the homography alone (dots misplaced by a pen's stroke).
    text = read_qr(photo, located, family, width, (registration, None) if registration is not None else (None,), qr_pyramid)
    tried = [family.qr]
    for other in _releases() if text is None and registration is None else ():
        # No dots found (a release-1 sheet): the code may lie where another release prints it.  Where dots were found
        # their release is the sheet's (another's fit only by catching some of these), and looking elsewhere cost a
        # sheet with an unreadable code 0.25 s (photogen3 820046, 820073).
        if other.qr not in tried:
            tried.append(other.qr)
            text = read_qr(photo, located, other, width, pyramid=qr_pyramid)
            if text is not None:
                break
    if located.reprojection_mm > MAX_REPROJECTION_MM and registration is None:
        raise ScanError(_not_flat(located.reprojection_mm))
    layout, fields, payload = identify(text) if text is not None else identify_by_geometry(photo, located, registration, pyramid, family)
    if located.reprojection_mm > MAX_REPROJECTION_MM and not layout.registration:
        raise ScanError(_not_flat(located.reprojection_mm))
    if not layout.registration:
        return Sheet(located, coarse, layout, fields, payload, paper, width)
    if registration is None or layout.registration != family.registration:
        registration = register(coarse, layout, located, contrast)
    if registration is None:
        raise ScanError(
            "found the sheet but not the small black dots around its grid — uncover them, keep the sheet out of shadow and in focus"
        )
    error = misregistration(registration, layout)
    grid_errors = sorted(error.plots + error.edges + error.bubbles)
    if grid_errors[len(grid_errors) // 2] > BENT_SHEET_MM:
        raise ScanError(
            f"the sheet is bent (its grid is up to {error.worst_mm:.1f} mm off a smooth fit) — lay it flat and photograph it from above"
        )
    rectified = rectify(photo, located, registration=registration, pyramid=pyramid)
    # Where an edge's own printed outlines (or a bubble's) are found, they say how far off it is: no need to infer it
    # from dots 14-15 mm away (a dot under a pen's stroke, or a little noise, would make the inference doubt it).
    relative = contrast / max(paper, 1.0)
    located_edges = path_offsets(rectified, layout, relative)
    edges = tuple(e if o is None else round(abs(o) + PATH_NOISE_MM, 3) for e, o in zip(error.edges, located_edges, strict=True))
    located_bubbles = bubble_offsets(rectified, layout, relative)
    bubbles = tuple(e if o is None else round(o + PATH_NOISE_MM, 3) for e, o in zip(error.bubbles, located_bubbles, strict=True))
    # A plot whose every path and bubble was located is pinned on each side it shares and at its corner.
    plots = []
    for plot, estimate in enumerate(error.plots):
        around = [located_edges[i] for i, edge in enumerate(EDGES) if plot in (edge.a, edge.b)] + [located_bubbles[plot]]
        plots.append(estimate if None in around else round(max(abs(o) for o in around if o is not None) + PATH_NOISE_MM, 3))
    error = dataclasses.replace(error, plots=tuple(plots), edges=edges, bubbles=bubbles)
    return Sheet(located, rectified, layout, fields, payload, paper, width, registration, error)
