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
from unittest import mock

import cv2
import numpy as np
import pypdfium2
from numpy.typing import NDArray

from papillon.edition import COLOUR_NAMES
from papillon.grid import EDGES, plot_name
from papillon.layout import FRAME_H_MM, FRAME_W_MM, GardenLayout, frame_offset_mm, garden_layout, released_garden_layouts
from papillon.render.pdf import sheets_pdf
from papillon.scan.detect import Sheet

PAGE_PX_PER_MM = 8.0
CAMERA_MM = 320.0
"""Height of the camera over the sheet."""
TABLE_RGB = (120, 110, 100)
INK = {"red": (200, 50, 60), "blue": (50, 100, 205), "yellow": (245, 200, 30), "purple": (135, 75, 190)}


def page_image(pdf: bytes) -> NDArray[Any]:
    """The frame of the first page of an A4 ``pdf``, RGB at :data:`PAGE_PX_PER_MM`: pixel (i, j) covers frame mm
    [i, i + 1) / PAGE_PX_PER_MM (the frame's 8.8 mm offset on A4 is a whole number of 0.125 mm pixels... nearly:
    the 0.4 px left over is kept in :data:`PAGE_SHIFT_PX`)."""
    page = pypdfium2.PdfDocument(pdf)[0]
    image = np.asarray(page.render(scale=PAGE_PX_PER_MM * 25.4 / 72).to_pil().convert("RGB"))
    ox, oy = frame_offset_mm("a4")
    x0, y0 = math.floor(ox * PAGE_PX_PER_MM), math.floor(oy * PAGE_PX_PER_MM)
    return image[y0 : y0 + round(FRAME_H_MM * PAGE_PX_PER_MM), x0 : x0 + round(FRAME_W_MM * PAGE_PX_PER_MM)].copy()


PAGE_SHIFT_PX = (frame_offset_mm("a4")[0] * PAGE_PX_PER_MM % 1, frame_offset_mm("a4")[1] * PAGE_PX_PER_MM % 1)
"""Where frame mm 0 lies in :func:`page_image`'s pixels, beyond the pixel edge it was cut at."""


@cache
def blank_page(per_page: int = 1) -> NDArray[Any]:
    """The frame of today's garden sheet (A4 PDF), RGB at :data:`PAGE_PX_PER_MM`."""
    return page_image(sheets_pdf(sides=("garden",), paper="a4", per_page=per_page))


@cache
def released_page(layout_id: str) -> NDArray[Any]:
    """The frame of the garden sheet printed under ``layout_id`` by an earlier release (A4), RGB at
    :data:`PAGE_PX_PER_MM`: today's drawing of that release's frozen layout."""
    layout = released_garden_layouts()[layout_id].layout
    with mock.patch("papillon.render.pdf.garden_layout", lambda rounds=10: layout):
        return page_image(sheets_pdf(sides=("garden",), paper="a4"))


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
    ripple_mm: float = 0.0
    """Crumpled paper over the grid: an in-plane wave of this amplitude and a 40 mm period, more than a smooth fit follows."""
    tilt: float = 0.08
    size: tuple[int, int] = (1800, 2400)
    """Photo width and height (px)."""
    box: tuple[float, float, float, float] = (0.1, 0.08, 0.92, 0.92)
    """Where the frame lies in the photo, as fractions of its width and height: left, top, right, bottom."""

    def _homography(self) -> NDArray[Any]:
        """Flat frame mm -> photo px: the sheet filling ~80 % of the photo, a little tilted and rotated."""
        w, h = self.size
        src = np.array([[0, 0], [FRAME_W_MM, 0], [FRAME_W_MM, FRAME_H_MM], [0, FRAME_H_MM]], np.float64)
        left, top, right, bottom = self.box
        t = self.tilt * (right - left)
        dst = np.array([[left + t, top], [right - t / 2, top + 0.02], [right, bottom], [left - 0.02, bottom - t / 2]]) * (w, h)
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
        if self.ripple_mm:
            # Only over the grid (35-175 x 62-202 mm), fading out over 10 mm: the markers and the QR code lie flat.
            wave = 2 * np.pi / 40.0
            x, y = q[:, 0], q[:, 1]
            window = (
                np.clip((x - 35) / 10, 0, 1) * np.clip((175 - x) / 10, 0, 1) * np.clip((y - 62) / 10, 0, 1) * np.clip((202 - y) / 10, 0, 1)
            )
            q = q + (self.ripple_mm * window)[:, None] * np.stack([np.sin(wave * y), np.sin(wave * x)], axis=1)
        return np.asarray(q)

    def photograph(self, page: NDArray[Any], background: NDArray[Any] | None = None) -> NDArray[Any]:
        """``page`` (the frame at :data:`PAGE_PX_PER_MM`) as this camera sees it, on a grey table or over ``background``."""
        w, h = self.size
        uu = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), axis=-1).reshape(-1, 2)
        # Page pixel i's centre is (i + 0.5) / PAGE_PX_PER_MM mm past the cut, which lies PAGE_SHIFT_PX before frame mm 0.
        q = (self.frame_mm(uu).reshape(h, w, 2) * PAGE_PX_PER_MM + np.array(PAGE_SHIFT_PX) - 0.5).astype(np.float32)
        photo = cv2.remap(page, q[..., 0], q[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE_RGB)
        if background is not None:
            on_page = (q[..., 0] >= 0) & (q[..., 0] < page.shape[1] - 1) & (q[..., 1] >= 0) & (q[..., 1] < page.shape[0] - 1)
            photo = np.where(on_page[..., None], photo, background)
        return np.asarray(photo)


def jpeg(image: NDArray[Any], quality: int = 92) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def edge_names(indexes: list[int]) -> list[str]:
    return [EDGES[i].name for i in indexes]


__all__ = ["Warp", "blank_page", "edge_names", "jpeg", "mark", "plot_name"]


def grid_errors_mm(warp: Warp, sheet: Sheet) -> tuple[np.ndarray, np.ndarray]:
    """At 3000 photo pixels inside the grid: how far (mm) the homography alone and the local fit put their frame point."""
    u = np.random.default_rng(0).uniform(0, 1, (3000, 2)) * warp.size
    p = warp.frame_mm(u)
    g = garden_layout().garden
    keep = (p[:, 0] > g.x_mm) & (p[:, 0] < g.right_mm) & (p[:, 1] > g.y_mm) & (p[:, 1] < g.bottom_mm)
    p, u = p[keep], u[keep]
    h = sheet.located.homography
    assert sheet.registration is not None
    plain = cv2.perspectiveTransform(p.reshape(-1, 1, 2), h).reshape(-1, 2)
    local = cv2.perspectiveTransform((p + sheet.registration.shift_mm(p)).reshape(-1, 1, 2), h).reshape(-1, 2)
    # Back to frame mm through the warp's own truth: the frame point each predicted pixel really shows.
    return np.hypot(*(warp.frame_mm(plain) - p).T), np.hypot(*(warp.frame_mm(local) - p).T)


def covered(photo: np.ndarray, marker: int, warp: Warp) -> np.ndarray:
    """``photo`` with a grey card over ``marker`` (frame mm mapped to the photo through the warp's homography)."""
    box = garden_layout().markers[marker].box
    corners = np.array(
        [
            [[box.x_mm - 2, box.y_mm - 2]],
            [[box.right_mm + 2, box.y_mm - 2]],
            [[box.right_mm + 2, box.bottom_mm + 2]],
            [[box.x_mm - 2, box.bottom_mm + 2]],
        ]
    )
    quad = cv2.perspectiveTransform(corners, warp._homography()).reshape(-1, 2)
    out = photo.copy()
    cv2.fillPoly(out, [np.round(quad).astype(np.int32)], (150, 140, 130))
    return out
