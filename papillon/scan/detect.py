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

import json
import math
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from papillon.errors import ScanError
from papillon.grid import Plot
from papillon.layout import FRAME_H_MM, FRAME_W_MM, PAYLOAD_FORMAT, PAYLOAD_VERSION, GardenLayout, garden_layout, parse_starting_fields
from papillon.scan import is_image

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
RECT_PX_PER_MM = 6.0
"""Resolution of the rectified sheet (px per mm)."""
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
DARK_PHOTO_MAX = 45.0
"""When no marker is found: a photo whose 99th-percentile grey is below this (8-bit) is called too dark."""
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

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
GARDEN_MARKER_IDS = (0, 1, 2, 3)
FILL_MARKER_IDS = (4, 5, 6, 7)
KNOWN_ROUNDS = range(1, 31)
"""Round-track lengths whose layouts this papillon knows (the layout id changes with it)."""


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
    try:
        with warnings.catch_warnings():
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
                upright = ImageOps.exif_transpose(opened)
                rgb = np.asarray(upright.convert("RGB"))
    except PILImage.DecompressionBombError:
        raise ScanError(f"too large for a photo (over {MAX_PHOTO_PIXELS // 1_000_000} megapixels) — is this the right file?") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        if heif:
            raise ScanError("HEIC photos cannot be read here: export it as JPEG") from None
        raise ScanError("not an image Pillow can read (a damaged or unsupported file)") from None
    return rgb


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


def _find_markers(grey: Image) -> dict[int, NDArray[Any]]:
    """Marker id -> its 4 corners (px in ``grey``); the biggest instance of an id wins."""
    corners, ids, _ = _detector().detectMarkers(grey)
    found: dict[int, NDArray[Any]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        pts = quad.reshape(4, 2)
        key = int(marker_id)
        if key not in found or cv2.contourArea(pts) > cv2.contourArea(found[key]):
            found[key] = pts
    return found


def _edge_rise_px(grey: Image) -> float:
    """How many pixels the photo's sharpest edges take to rise: a blur measure without a sheet."""
    small = grey.astype(np.float32)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3) / 8
    grad = float(np.percentile(np.hypot(gx, gy), 99.9))
    contrast = float(np.percentile(small, 99) - np.percentile(small, 1))
    return contrast / max(grad, 1e-6)


def _missing_message(missing: list[int]) -> str:
    names = [f"{i} ({CORNER_NAMES[i]})" for i in missing]
    if len(names) == 1:
        return f"marker {names[0]} not found — keep all four corners in the frame"
    return f"markers {', '.join(names[:-1])} and {names[-1]} not found — keep all four corners in the frame"


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
    garden_ids = [i for i in GARDEN_MARKER_IDS if i in found]
    if not garden_ids:
        if any(i in found for i in FILL_MARKER_IDS):
            raise ScanError("this is the fill sheet (side B) — photograph the garden side (side A)")
        if float(np.percentile(small, 99)) < DARK_PHOTO_MAX:
            raise ScanError("the photo is too dark — photograph the sheet in brighter light")
        if _edge_rise_px(small) > BLURRY_PHOTO_EDGE_PX:
            raise ScanError("the photo is too blurry — hold the camera still and focus on the sheet")
        raise ScanError("no papillon garden sheet found in the photo (none of its four corner markers)")
    missing = [i for i in GARDEN_MARKER_IDS if i not in found]
    if missing:
        # A blurred marker is lost as surely as one out of frame: blame the blur when the photo shows it.
        if _edge_rise_px(small) > BLURRY_MARKERS_EDGE_PX:
            raise ScanError("the photo is too blurry — hold the camera still and focus on the sheet")
        raise ScanError(_missing_message(missing))
    src = np.array([pt for i in GARDEN_MARKER_IDS for pt in layout.markers[i].box.corners_mm()], np.float64)
    dst = np.array([pt / shrink for i in GARDEN_MARKER_IDS for pt in found[i]], np.float64)
    marker_px = min(math.sqrt(cv2.contourArea(found[i].astype(np.float32))) / shrink for i in GARDEN_MARKER_IDS)
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
    if error_mm > MAX_REPROJECTION_MM:
        raise ScanError(
            f"the sheet is not flat (its markers are {error_mm:.1f} mm off a flat sheet) — lay it flat and photograph it from above"
        )
    px_per_mm = min(scales)
    if px_per_mm < MIN_SHEET_PX_PER_MM:
        raise ScanError(f"the sheet is too small in the photo ({px_per_mm:.1f} px per mm, need {MIN_SHEET_PX_PER_MM}) — move closer")
    return Located(homography, error_mm, px_per_mm, marker_px)


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


def rectify(
    photo: Image, located: Located, *, px_per_mm: float = RECT_PX_PER_MM, box_mm: tuple[float, float, float, float] | None = None
) -> Image:
    """The frame (or the part ``box_mm`` = x, y, w, h of it) resampled at ``px_per_mm``, RGB."""
    x0, y0, bw, bh = box_mm or (0.0, 0.0, FRAME_W_MM, FRAME_H_MM)
    source = photo
    level = 1.0
    # Shrink a photo that resolves the sheet much finer than needed: averaging beats skipping pixels.
    while located.px_per_mm / (level * 2) >= px_per_mm * 1.3:
        source = cv2.pyrDown(source)
        level *= 2
    to_px = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]], np.float64)
    shrink = np.diag([1 / level, 1 / level, 1.0])
    matrix = shrink @ located.homography @ to_px
    size = (round(bw * px_per_mm), round(bh * px_per_mm))
    return cv2.warpPerspective(source, matrix, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def check_quality(rectified: Image, layout: GardenLayout, px_per_mm: float = RECT_PX_PER_MM) -> tuple[float, float]:
    """The paper's grey level and the markers' edge blur (mm); ScanError if too dark or blurry."""
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
    return paper, width


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


@cache
def known_layouts() -> dict[str, GardenLayout]:
    """Layout id -> garden layout, for every round-track length this papillon prints."""
    return {garden_layout(r).id: garden_layout(r) for r in KNOWN_ROUNDS}


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
QR_DEBLUR_FACTORS = (0.33, 0.25, 0.42)
"""Gaussian blur sigmas tried for deblurring the QR code, as fractions of the markers' 10-90 % edge width."""
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
    lo, hi = np.percentile(values, 5), np.percentile(values, 95)
    dark = (values < (lo + hi) / 2).astype(np.float32)
    cross = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], np.float32)
    diagonal = np.array([[1, 0, 1], [0, 0, 0], [1, 0, 1]], np.float32)
    residual = float("inf")
    for _ in range(QR_ITERATIONS):
        padded = np.pad(dark, 1)
        near = cv2.filter2D(padded, -1, cross)[1:-1, 1:-1]
        far = cv2.filter2D(padded, -1, diagonal)[1:-1, 1:-1]
        design = np.stack([dark.ravel(), near.ravel(), far.ravel(), np.ones(dark.size, np.float32)], axis=1)
        coef, *_ = np.linalg.lstsq(design, values.ravel(), rcond=None)
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


def read_qr(photo: Image, located: Located, layout: GardenLayout, edge_width_mm: float = 0.0) -> str | None:
    """The text of the sheet's QR code, or None if it cannot be decoded.

    The homography already says where every module is, so the modules are
    sampled on a grid and redrawn as a clean code for OpenCV's decoder: this
    reads codes whose modules are under two pixels wide in the photo.  When
    that fails, the patch is deblurred by the blur measured on the markers
    (``edge_width_mm``) and sampled again.
    """
    qr = layout.qr
    box = (qr.x_mm - QR_QUIET_MM, qr.y_mm - QR_QUIET_MM, qr.w_mm + 2 * QR_QUIET_MM, qr.h_mm + 2 * QR_QUIET_MM)
    patch = cv2.cvtColor(rectify(photo, located, px_per_mm=QR_PX_PER_MM, box_mm=box), cv2.COLOR_RGB2GRAY)
    grey = patch.astype(np.float32)
    detector = cv2.QRCodeDetector()
    quiet_px = round(QR_QUIET_MM * QR_PX_PER_MM)
    for deblur in (0.0, *QR_DEBLUR_FACTORS):
        version = _wiener(grey, deblur * max(edge_width_mm, 0.6) * QR_PX_PER_MM) if deblur else grey
        sizes = sorted(QR_SIZES, key=lambda n: -_sample_modules(version, quiet_px, n)[1])[:2]
        for n in sizes:
            grids = [_sample_modules(version, quiet_px, n, dx, dy) for dx in QR_SHIFTS for dy in QR_SHIFTS]
            for dark, match, _ in sorted(grids, key=lambda g: g[2]):
                if match < QR_FINDER_MIN:
                    continue
                text = _decode(detector, _clean_qr(dark))
                if text:
                    return text
    return _decode(detector, patch)


def _decode(detector: cv2.QRCodeDetector, image: NDArray[Any]) -> str | None:
    try:
        text, _, _ = detector.detectAndDecode(image)
    except cv2.error:
        return None
    return str(text) if text else None


def identify(text: str | None) -> tuple[GardenLayout, tuple[Plot, ...], dict[str, object]]:
    """The layout and starting fields named by the QR text, or ScanError."""
    if text is None:
        raise ScanError("found the sheet's markers but could not read its QR code — keep it sharp, unshaded and uncovered")
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


def find_sheet(photo: Image) -> Sheet:
    """Locate, check, identify and rectify the garden sheet in ``photo`` (ScanError on any failure)."""
    located = locate(photo)
    default = garden_layout()
    rectified = rectify(photo, located)
    paper, width = check_quality(rectified, default)
    layout, fields, payload = identify(read_qr(photo, located, default, width))
    return Sheet(located, rectified, layout, fields, payload, paper, width)
