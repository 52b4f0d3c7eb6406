"""Marks drawn on the sheet raster: flowers, fields, brambles, bricks and butterflies, as people draw them.

Ink is modelled as a filter over the paper (reflectance × transmittance per coat, in linear
light): felt and ballpoint dyes darken where strokes overlap, graphite and coloured pencil
catch only on the paper's tooth (a grain texture), stamps leave speckled pigment with a rim.
Every size is in millimetres and turned into raster pixels here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from .sheet import PX_PER_MM, Sheet, srgb_to_linear

SHIFT = 4
"""Sub-pixel bits for OpenCV's drawing calls."""
ONE = 1 << SHIFT


@dataclass(frozen=True)
class Ink:
    """A pen: ``kind`` (felt, pencil, graphite, ballpoint, stamp), its colour at one full coat (sRGB 0-255), stroke width."""

    kind: str
    rgb: tuple[float, float, float]
    width_mm: float
    strength: float = 1.0
    """Pressure: how much of a full coat one stroke lays down."""

    @property
    def transmittance(self) -> np.ndarray:
        return srgb_to_linear(np.array(self.rgb, dtype=np.float32)).reshape(1, 1, 3)


# Hue families for flower pens: a nominal colour and the range people's pens actually span
# (within reason: a "red" pen is never orange, a "purple" never pink or navy).
PEN_COLOURS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "red": ((214, 38, 46), (196, 30, 58), (226, 60, 50), (180, 28, 40), (222, 48, 80)),
    "blue": ((40, 100, 210), (30, 70, 180), (50, 130, 220), (35, 60, 150), (60, 110, 230)),
    "yellow": ((250, 214, 40), (252, 196, 30), (245, 226, 70), (250, 185, 35), (240, 210, 20)),
    "purple": ((130, 60, 180), (110, 50, 160), (150, 70, 190), (120, 40, 140), (140, 80, 200)),
    "green": ((70, 170, 70), (40, 140, 60), (110, 190, 80), (60, 150, 100), (90, 160, 50)),
}


def pen_colour(rng: np.random.Generator, name: str) -> tuple[float, float, float]:
    """One pen of the colour ``name``: a typical pen's colour, jittered a little."""
    options = PEN_COLOURS[name]
    base = np.array(options[int(rng.integers(0, len(options)))], dtype=np.float64)
    base = np.clip(base + rng.normal(0, 7, 3), 0, 255)
    return float(base[0]), float(base[1]), float(base[2])


GRAPHITE = (95.0, 97.0, 102.0)
BLUE_BALLPOINT = (35.0, 50.0, 150.0)
BLACK_BALLPOINT = (30.0, 30.0, 38.0)


@cache
def _grain_tile() -> np.ndarray:
    """Paper tooth: 0-1 noise, fibrous, 512 px square (tiled over the sheet)."""
    rng = np.random.default_rng(12345)
    noise = rng.standard_normal((512, 512)).astype(np.float32)
    fine = cv2.GaussianBlur(noise, (0, 0), 0.7, borderType=cv2.BORDER_REFLECT)
    fibres = cv2.GaussianBlur(noise, (0, 0), sigmaX=3.0, sigmaY=0.6, borderType=cv2.BORDER_REFLECT)
    grain = fine / fine.std() + 0.6 * fibres / fibres.std()
    ranks = grain.ravel().argsort().argsort().reshape(grain.shape)
    return (ranks / ranks.size).astype(np.float32)


class Canvas:
    """The sheet raster being marked, with the paper's grain at a random offset."""

    def __init__(self, sheet: Sheet, rng: np.random.Generator) -> None:
        self.sheet = sheet
        self.image = sheet.image.copy()
        self.rng = rng
        self.grain_offset = (int(rng.integers(0, 512)), int(rng.integers(0, 512)))

    # -- coordinates -------------------------------------------------------

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return self.sheet.to_px(x_mm, y_mm)

    def roi(self, cx_mm: float, cy_mm: float, half_mm: float) -> tuple[int, int, int, int]:
        """A pixel window (x0, y0, w, h) around a point, clipped to the raster."""
        x, y = self.px(cx_mm, cy_mm)
        half = half_mm * PX_PER_MM
        h_img, w_img = self.image.shape[:2]
        x0, y0 = max(int(x - half), 0), max(int(y - half), 0)
        x1, y1 = min(int(x + half) + 1, w_img), min(int(y + half) + 1, h_img)
        return x0, y0, x1 - x0, y1 - y0

    def grain(self, x0: int, y0: int, w: int, h: int) -> np.ndarray:
        tile = _grain_tile()
        ys = (np.arange(y0, y0 + h) + self.grain_offset[1]) % 512
        xs = (np.arange(x0, x0 + w) + self.grain_offset[0]) % 512
        return tile[ys[:, None], xs[None, :]]

    # -- laying ink --------------------------------------------------------

    def lay(self, window: tuple[int, int, int, int], coats: np.ndarray, ink: Ink) -> None:
        """Darken ``window`` by ``coats`` (float, 0 = none, 1 = one full coat) of ``ink``."""
        x0, y0, w, h = window
        if w <= 0 or h <= 0:
            return
        coats = coats * ink.strength
        if ink.kind in ("graphite", "pencil"):
            # Pencil catches on the paper's tooth: light pressure leaves only the grain's peaks.
            grain = self.grain(x0, y0, w, h)
            catch = np.clip((grain - (1.0 - np.clip(coats, 0, 1.2))) * 3.0 + 0.35, 0.0, 1.0)
            coats = np.minimum(coats, 1.0) * catch
        region = self.image[y0 : y0 + h, x0 : x0 + w]
        trans = ink.transmittance
        if ink.kind == "graphite":
            # Graphite is a grey film, not a dye: it covers (and levels) what is under it.
            a = np.clip(coats, 0, 1)[..., None] * 0.9
            region[...] = region * (1 - a) + a * trans
        else:
            region[...] = region * np.power(trans, coats[..., None])

    def strokes(self, window: tuple[int, int, int, int], paths: list[np.ndarray], width_mm: float) -> np.ndarray:
        """A 0-1 mask of polylines (paths in sheet pixels) drawn ``width_mm`` wide, in ``window``."""
        x0, y0, w, h = window
        mask = np.zeros((h, w), np.uint8)
        thickness = max(round(width_mm * PX_PER_MM), 1)
        pts = [np.round((p - np.array([x0, y0])) * ONE).astype(np.int32).reshape(-1, 1, 2) for p in paths]
        cv2.polylines(mask, pts, False, 255, thickness, cv2.LINE_AA, SHIFT)
        return mask.astype(np.float32) / 255.0

    def polygon(self, window: tuple[int, int, int, int], poly_px: np.ndarray) -> np.ndarray:
        x0, y0, w, h = window
        mask = np.zeros((h, w), np.uint8)
        pts = np.round((poly_px - np.array([x0, y0])) * ONE).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, SHIFT)
        return mask.astype(np.float32) / 255.0


# --------------------------------------------------------------------------- paths


def wobbly_line(rng: np.random.Generator, a: np.ndarray, b: np.ndarray, wobble_mm: float, step_mm: float = 0.5) -> np.ndarray:
    """Points (mm) from a to b with a smooth sideways wobble of about ``wobble_mm``."""
    length = float(np.hypot(*(b - a)))
    n = max(int(length / step_mm), 2)
    t = np.linspace(0, 1, n)
    normal = np.array([-(b - a)[1], (b - a)[0]]) / max(length, 1e-6)
    offset = np.zeros(n)
    for _ in range(3):
        freq = rng.uniform(0.5, 3.0)
        offset += rng.normal(0, wobble_mm / 2) * np.sin(2 * np.pi * freq * t + rng.uniform(0, 2 * np.pi))
    return a + np.outer(t, b - a) + np.outer(offset, normal)


def zigzag(rng: np.random.Generator, centre: np.ndarray, half: float, angle: float, spacing: float, jitter: float) -> np.ndarray:
    """A back-and-forth colouring stroke covering a square of half-size ``half`` mm, rotated by ``angle``."""
    rows = np.arange(-half, half + spacing, spacing)
    pts = []
    for i, v in enumerate(rows):
        ends = (-half - rng.uniform(0, jitter), half + rng.uniform(0, jitter))
        if i % 2:
            ends = ends[::-1]
        for u in ends:
            pts.append((u, v + rng.normal(0, spacing * 0.15)))
    p = np.array(pts)
    c, s = np.cos(angle), np.sin(angle)
    return centre + p @ np.array([[c, s], [-s, c]])


def rounded_box(x: float, y: float, w: float, h: float, r: float, rng: np.random.Generator, jitter: float) -> np.ndarray:
    """A hand-drawn-ish rounded rectangle outline (mm), ``jitter`` mm of wobble."""
    pts = []
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
    for cx, cy, start in corners:
        for a in np.radians(np.linspace(start, start + 90, 6)):
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    p = np.array(pts)
    return p + rng.normal(0, jitter, p.shape)
