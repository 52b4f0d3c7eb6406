"""``--debug-dir``: the rectified sheet with every reading drawn on it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from papillon.errors import ScanError
from papillon.files import write_atomic
from papillon.grid import EDGES, PLOTS
from papillon.scan import check_debug_dir
from papillon.scan.detect import RECT_PX_PER_MM

if TYPE_CHECKING:
    from papillon.scan import ScanResult

SURE_BGR = (60, 150, 40)
DOUBT_BGR = (200, 0, 220)


def overlay(result: ScanResult) -> np.ndarray:
    """The rectified sheet (BGR) with each plot's reading, each brick and each filled bubble marked."""
    layout = result.sheet.layout
    image = cv2.cvtColor(result.sheet.rectified, cv2.COLOR_RGB2BGR)
    s = RECT_PX_PER_MM
    review = {r.item for r in result.review}
    plots = result.readings[: len(PLOTS)]
    edges = result.readings[len(PLOTS) : len(PLOTS) + len(EDGES)]
    bubbles = result.readings[len(PLOTS) + len(EDGES) :]
    for plot, reading in zip(PLOTS, plots, strict=True):
        box = layout.plots[plot]
        colour = DOUBT_BGR if reading.item in review else SURE_BGR
        cv2.rectangle(image, (round(box.x_mm * s), round(box.y_mm * s)), (round(box.right_mm * s), round(box.bottom_mm * s)), colour, 2)
        text = f"{reading.value} {reading.confidence:.2f}"
        cv2.putText(
            image,
            text,
            (round((box.x_mm + 1) * s), round((box.bottom_mm - 2) * s)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.07 * s,
            colour,
            1,
            cv2.LINE_AA,
        )
    for index, reading in enumerate(edges):
        slot = layout.edge_slots[index]
        doubt = reading.item in review
        if reading.value == "brick" or doubt:
            colour = DOUBT_BGR if doubt else SURE_BGR
            cv2.line(
                image,
                (round(slot.x1_mm * s), round(slot.y1_mm * s)),
                (round(slot.x2_mm * s), round(slot.y2_mm * s)),
                colour,
                3 if doubt else 2,
            )
    for plot, reading in zip(PLOTS, bubbles, strict=True):
        circle = layout.bubbles[plot]
        doubt = reading.item in review
        if reading.value == "filled" or doubt:
            cv2.circle(
                image, (round(circle.cx_mm * s), round(circle.cy_mm * s)), round((circle.r_mm + 1) * s), DOUBT_BGR if doubt else SURE_BGR, 2
            )
    return image


def write_debug(directory: Path, stem: str, result: ScanResult) -> None:
    """Write ``<stem>-read.png`` (the overlay) into ``directory``; ScanError if it cannot be written."""
    check_debug_dir(directory)
    ok, data = cv2.imencode(".png", overlay(result))
    if ok:
        try:
            write_atomic(directory / f"{stem}-read.png", data.tobytes())
        except OSError as error:
            raise ScanError(f"cannot write the debug image into {directory} ({error.strerror})") from None
