"""Test photos of a garden sheet that is not flat: the real PDF rasterised, marked, then warped by a known smooth map.

The warp is given from the photo back to the page, so the truth is exact: photo pixel ``u`` shows
frame point :meth:`Warp.frame_mm` (u).  Three kinds of distortion a phone photo has:

* a **bowed** sheet (its middle lifted ``lift_mm``): each point moves away from the point under the
  camera by ``height × distance / camera height``;
* a **curled** edge (the right edge lifted ``lift_mm``, rising with the square of the distance from
  where the curl starts);
* **barrel** distortion of the lens (``k`` per squared half-diagonal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
import pypdfium2
from numpy.typing import NDArray

from papillon.edition import COLOUR_NAMES
from papillon.grid import EDGES, plot_name
from papillon.layout import FRAME_H_MM, FRAME_W_MM, GardenLayout, frame_offset_mm
from papillon.render.pdf import sheets_pdf

PAGE_PX_PER_MM = 8.0
CAMERA_MM = 320.0
"""Height of the camera over the sheet."""
INK = {"red": (200, 50, 60), "blue": (50, 100, 205), "yellow": (245, 200, 30), "purple": (135, 75, 190)}


@cache
def blank_page(per_page: int = 1) -> NDArray[Any]:
    """The frame of today's garden sheet (A4 PDF), RGB at :data:`PAGE_PX_PER_MM`."""
    pdf = sheets_pdf(sides=("garden",), paper="a4", per_page=per_page)
    page = pypdfium2.PdfDocument(pdf)[0]
    image = np.asarray(page.render(scale=PAGE_PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"))
    ox, oy = frame_offset_mm("a4")
    x0, y0 = round(ox * PAGE_PX_PER_MM), round(oy * PAGE_PX_PER_MM)
    return image[y0 : y0 + round(FRAME_H_MM * PAGE_PX_PER_MM), x0 : x0 + round(FRAME_W_MM * PAGE_PX_PER_MM)].copy()


def mark(page: NDArray[Any], layout: GardenLayout, *, bricks: list[int], butterflies: list[int], flowers: dict[int, str]) -> NDArray[Any]:
    """``page`` with pencil bricks on edge slots (indexes of EDGES), filled bubbles and stamped flowers (plot -> colour)."""
    out = page.copy()
    s = PAGE_PX_PER_MM

    def px(x: float, y: float) -> tuple[int, int]:
        return round(x * s * 16), round(y * s * 16)

    for index in bricks:
        slot = layout.edge_slots[index]
        cv2.line(out, px(slot.x1_mm, slot.y1_mm), px(slot.x2_mm, slot.y2_mm), (70, 70, 78), round(0.8 * s), cv2.LINE_AA, shift=4)
    for plot in butterflies:
        c = layout.bubbles[plot]
        cv2.circle(out, px(c.cx_mm, c.cy_mm), round(c.r_mm * 0.85 * s * 16), (40, 40, 50), -1, cv2.LINE_AA, shift=4)
    stamps = dict(flowers)
    for plot, colour in stamps.items():
        cx, cy = layout.plots[plot].centre_mm
        cv2.circle(out, px(cx - 1.2, cy + 1.6), round(5.6 * s * 16), INK[colour], -1, cv2.LINE_AA, shift=4)
    for colour, circle in zip(COLOUR_NAMES, layout.colour_key, strict=True):
        cv2.circle(out, px(circle.cx_mm, circle.cy_mm), round(5.0 * s * 16), INK[colour], -1, cv2.LINE_AA, shift=4)
    return out


@dataclass(frozen=True)
class Warp:
    """Photo pixel -> frame mm: a tilted camera over a sheet bowed, curled or seen through a barrel lens."""

    bow_mm: float = 0.0
    curl_mm: float = 0.0
    barrel: float = 0.0
    tilt: float = 0.08
    size: tuple[int, int] = (1800, 2400)
    """Photo width and height (px)."""

    def _homography(self) -> NDArray[Any]:
        """Flat frame mm -> photo px: the sheet filling ~80 % of the photo, a little tilted and rotated."""
        w, h = self.size
        src = np.array([[0, 0], [FRAME_W_MM, 0], [FRAME_W_MM, FRAME_H_MM], [0, FRAME_H_MM]], np.float64)
        t = self.tilt
        dst = np.array([[0.1 + t, 0.08], [0.9 - t / 2, 0.1], [0.92, 0.92], [0.08, 0.9 - t / 2]]) * (w, h)
        return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)

    def lift_mm(self, q: NDArray[Any]) -> NDArray[Any]:
        """The height of the paper over the table at frame points ``q`` (n × 2)."""
        x, y = q[:, 0], q[:, 1]
        bow = self.bow_mm * np.sin(np.pi * np.clip(x / FRAME_W_MM, 0, 1)) * np.sin(np.pi * np.clip(y / FRAME_H_MM, 0, 1))
        start = 0.6 * FRAME_W_MM
        curl = self.curl_mm * (np.clip(x - start, 0, None) / (FRAME_W_MM - start)) ** 2
        return np.asarray(bow + curl)

    def frame_mm(self, u: NDArray[Any]) -> NDArray[Any]:
        """The frame point (mm) each photo pixel ``u`` (n × 2) shows."""
        w, h = self.size
        centre = np.array([w / 2, h / 2])
        half_diagonal = math.hypot(w / 2, h / 2)
        r2 = np.sum(((u - centre) / half_diagonal) ** 2, axis=1, keepdims=True)
        undistorted = centre + (u - centre) * (1 + self.barrel * r2)
        flat = cv2.perspectiveTransform(undistorted.reshape(-1, 1, 2), np.linalg.inv(self._homography())).reshape(-1, 2)
        # A lifted point is seen further from the point under the camera; undo that (two fixed-point steps).
        below = np.array([FRAME_W_MM / 2, FRAME_H_MM / 2])
        q = flat
        for _ in range(3):
            q = below + (flat - below) / (1 + self.lift_mm(q)[:, None] / CAMERA_MM)
        return np.asarray(q)

    def photograph(self, page: NDArray[Any]) -> NDArray[Any]:
        """``page`` (the frame at :data:`PAGE_PX_PER_MM`) as this camera sees it, on a grey table."""
        w, h = self.size
        uu = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), axis=-1).reshape(-1, 2)
        q = self.frame_mm(uu).reshape(h, w, 2) * PAGE_PX_PER_MM
        table = np.full_like(page, 0)
        table[:] = (120, 110, 100)
        return cv2.remap(
            page,
            q[..., 0].astype(np.float32),
            q[..., 1].astype(np.float32),
            cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(120, 110, 100),
        )


def jpeg(image: NDArray[Any], quality: int = 92) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def edge_names(indexes: list[int]) -> list[str]:
    return [EDGES[i].name for i in indexes]


__all__ = ["Warp", "blank_page", "edge_names", "jpeg", "mark", "plot_name"]
