"""The printed sheet as a raster, and ink laid on it.

The blank sheet is the real PDF of ``papillon sheet`` (run in-process through its click command),
rasterised with pypdfium2.  Marks are drawn in frame millimetres (the coordinates of
:func:`papillon.layout.garden_layout`) onto that raster.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import cv2
import numpy as np

from papillon.layout import PAPERS_MM, frame_offset_mm, placements

RASTER_SCALES = (5.0, 7.5, 10.0, 13.0)
"""Pixels per millimetre the blank sheet is rasterised at (the nearest above the photo's scale is used)."""


def page_of(paper: str, two_up: bool) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The (cut) page's size, where the frame's origin lies on it, and the frame's scale there (millimetres).

    A 2-up page (``--per-page 2``) is cut along its cut line; the photo shows the left half.
    """
    if not two_up:
        return PAPERS_MM[paper], frame_offset_mm(paper), 1.0
    (_, page_h), spots, cuts = placements(paper, 2)
    return (cuts[0].x1_mm, page_h), (spots[0].x_mm, spots[0].y_mm), spots[0].scale


@functools.lru_cache(maxsize=16)
def sheet_pdf(side: str, paper: str, mono: bool, random_start: int | None, two_up: bool = False) -> bytes:
    from click.testing import CliRunner

    from papillon.cli import main

    args = ["sheet", "-o", "-", "--sides", side, "--paper", paper, "--per-page", "2" if two_up else "1"]
    if mono:
        args.append("--mono")
    if random_start is not None:
        args += ["--random-start", "--seed", str(random_start)]
    result = CliRunner().invoke(main, args)
    if result.exit_code != 0:
        raise RuntimeError(f"papillon sheet failed: {result.output}")
    return result.stdout_bytes


@functools.lru_cache(maxsize=6)
def _blank(side: str, paper: str, mono: bool, random_start: int | None, scale: float, two_up: bool) -> np.ndarray:
    import pypdfium2

    doc = pypdfium2.PdfDocument(sheet_pdf(side, paper, mono, random_start, two_up))
    try:
        bitmap = doc[0].render(scale=scale * 25.4 / 72)
        image = np.asarray(bitmap.to_pil().convert("RGB")).copy()
    finally:
        doc.close()
    if two_up:  # cut along the cut line: keep the left sheet
        (width_mm, _), _, _ = page_of(paper, True)
        image = image[:, : round(width_mm * scale)].copy()
    image.flags.writeable = False
    return image


@functools.lru_cache(maxsize=4)
def _grain(shape: tuple[int, int], scale: float) -> np.ndarray:
    """Paper tooth: where a pencil or crayon catches (mean 1), fixed per scale so caching keeps it cheap."""
    rng = np.random.default_rng(20261201)
    h, w = shape
    fine = rng.random((h, w), dtype=np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), max(0.6, scale * 0.06))
    coarse = cv2.resize(rng.random((h // 8 + 2, w // 8 + 2), dtype=np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = 0.65 * fine + 0.35 * coarse
    grain = (grain - grain.mean()) / (grain.std() + 1e-6)
    return grain.astype(np.float32)


class Sheet:
    """A printed sheet being marked: an sRGB float raster of the whole page, in page pixels."""

    def __init__(
        self, side: str, paper: str, mono: bool, random_start: int | None, scale: float, rng: np.random.Generator, two_up: bool = False
    ):
        self.scale = scale
        self.paper = paper
        _, self.offset_mm, self.frame_scale = page_of(paper, two_up)
        self.image = _blank(side, paper, mono, random_start, scale, two_up).astype(np.float32) / 255.0
        h, w = self.image.shape[:2]
        self.grain = _grain((h, w), scale)
        self.grain_shift = (int(rng.integers(0, h)), int(rng.integers(0, w)))
        self.rng = rng

    # -- coordinates ---------------------------------------------------------------

    def px(self, points_mm: Sequence[tuple[float, float]] | np.ndarray) -> np.ndarray:
        """Frame millimetres to page pixels (float)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        return (pts * self.frame_scale + np.asarray(self.offset_mm)) * self.scale

    # -- ink ---------------------------------------------------------------------------

    def _roi(self, pts_px: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
        h, w = self.image.shape[:2]
        x0 = max(0, int(np.floor(pts_px[:, 0].min() - pad)))
        y0 = max(0, int(np.floor(pts_px[:, 1].min() - pad)))
        x1 = min(w, int(np.ceil(pts_px[:, 0].max() + pad)) + 1)
        y1 = min(h, int(np.ceil(pts_px[:, 1].max() + pad)) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _texture(self, roi: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = roi
        h, w = self.grain.shape
        dy, dx = self.grain_shift
        ys = (np.arange(y0, y1) + dy) % h
        xs = (np.arange(x0, x1) + dx) % w
        return self.grain[np.ix_(ys, xs)]

    def ink(
        self,
        strokes: Sequence[np.ndarray],
        *,
        width_mm: float,
        colour: tuple[float, float, float],
        opacity: float,
        grain: float = 0.0,
        fill: bool = False,
        blur_mm: float = 0.0,
        separate: bool = False,
    ) -> None:
        """Lay ink along polylines (or fill polygons) given in frame millimetres.

        ``grain`` 0 is a felt pen's even ink, 1 a crayon that only touches the paper's tooth;
        ``separate`` composites each stroke on its own, so crossing strokes darken (hatching).
        """
        pts_all = [self.px(s) for s in strokes if len(s)]
        if not pts_all:
            return
        width_px = max(1.0, width_mm * self.scale)
        roi = self._roi(np.vstack(pts_all), width_px + 3 * blur_mm * self.scale + 4)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        groups = [[p] for p in pts_all] if separate else [pts_all]
        texture = self._texture(roi) if grain > 0 else None
        colour_arr = np.asarray(colour, dtype=np.float32)
        for group in groups:
            alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
            shift = 4
            for pts in group:
                local = np.round((pts - (x0, y0)) * (1 << shift)).astype(np.int32).reshape(-1, 1, 2)
                if fill:
                    cv2.fillPoly(alpha, [local], 1.0, cv2.LINE_AA, shift)
                else:
                    cv2.polylines(alpha, [local], False, 1.0, max(1, round(width_px)), cv2.LINE_AA, shift)
            if blur_mm > 0:
                alpha = cv2.GaussianBlur(alpha, (0, 0), blur_mm * self.scale)
            if texture is not None:
                # Pigment catches the tooth's peaks first: a light stroke is broken, a heavy one nearly solid.
                alpha *= np.clip(1.0 + grain * 0.45 * texture - grain * 0.12, 0.0, 1.0)
            alpha *= opacity
            roi_img = self.image[y0:y1, x0:x1]
            roi_img *= 1.0 - alpha[:, :, None] * (1.0 - colour_arr)

    def smear(self, centre_mm: tuple[float, float], radius_mm: float, strength: float) -> None:
        """A graphite smudge: a soft grey cloud."""
        c = self.px([centre_mm])[0]
        r = radius_mm * self.scale
        roi = self._roi(np.array([c - 3 * r, c + 3 * r]), 2)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        sx, sy = r * self.rng.uniform(0.7, 1.6), r * self.rng.uniform(0.5, 1.0)
        a = np.exp(-(((xx - c[0]) / sx) ** 2 + ((yy - c[1]) / sy) ** 2)) * strength
        a *= np.clip(1 + 0.5 * self._texture(roi), 0, 1.5)
        self.image[y0:y1, x0:x1] *= 1.0 - a[:, :, None] * (1.0 - np.array([0.35, 0.35, 0.38], np.float32))

    def text(self, text: str, at_mm: tuple[float, float], height_mm: float, colour: tuple[float, float, float], opacity: float) -> None:
        """Handwriting-like text (OpenCV's Hershey script font), baseline-left at ``at_mm``."""
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if self.rng.random() < 0.6 else cv2.FONT_HERSHEY_SIMPLEX
        height_px = height_mm * self.scale
        font_scale = height_px / 22.0
        thick = max(1, round(height_px * self.rng.uniform(0.07, 0.12)))
        (tw, th), _ = cv2.getTextSize(text, font, font_scale, thick)
        base = self.px([at_mm])[0]
        roi = self._roi(np.array([[base[0] - 4, base[1] - th * 1.6], [base[0] + tw + 4, base[1] + th * 0.6]]), thick + 4)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        letters = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.putText(letters, text, (round(base[0] - x0), round(base[1] - y0)), font, font_scale, 255, thick, cv2.LINE_AA)
        alpha = letters.astype(np.float32) / 255.0
        # A slant and a wobble: nobody writes like a plotter.
        shear = self.rng.uniform(-0.25, 0.1)
        m = np.float32([[1, shear, -shear * (base[1] - y0)], [0, 1, 0]])
        alpha = cv2.warpAffine(alpha, m, (x1 - x0, y1 - y0))
        alpha *= opacity
        self.image[y0:y1, x0:x1] *= 1.0 - alpha[:, :, None] * (1.0 - np.asarray(colour, np.float32))

    def stamp(self, shape_mm: Sequence[np.ndarray], colour: tuple[float, float, float], opacity: float, hollow: np.ndarray | None) -> None:
        """A rubber stamp: filled shapes with blotchy, uneven ink and a slightly darker rim."""
        pts_all = [self.px(s) for s in shape_mm]
        roi = self._roi(np.vstack(pts_all), 6)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
        for pts in pts_all:
            cv2.fillPoly(alpha, [np.round((pts - (x0, y0)) * 16).astype(np.int32).reshape(-1, 1, 2)], 1.0, cv2.LINE_AA, 4)
        if hollow is not None:
            hp = np.round((self.px(hollow) - (x0, y0)) * 16).astype(np.int32).reshape(-1, 1, 2)
            cv2.fillPoly(alpha, [hp], 0.15, cv2.LINE_AA, 4)
        rim = alpha - cv2.GaussianBlur(alpha, (0, 0), 0.5 * self.scale)
        h, w = alpha.shape
        blotch = cv2.resize(self.rng.random((max(2, h // 12), max(2, w // 12)), dtype=np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        pressure = np.clip(0.75 + 0.4 * blotch + 0.12 * self._texture(roi), 0.2, 1.0)
        alpha = np.clip(alpha * pressure + 0.6 * np.clip(rim, 0, 1), 0, 1)
        alpha = cv2.GaussianBlur(alpha, (0, 0), 0.08 * self.scale) * opacity
        self.image[y0:y1, x0:x1] *= 1.0 - alpha[:, :, None] * (1.0 - np.asarray(colour, np.float32))

    def uint8(self) -> np.ndarray:
        return cv2.convertScaleAbs(self.image, alpha=255.0, beta=0.5)
