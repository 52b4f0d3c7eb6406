"""The printed sheets: the real PDF from ``papillon sheet``, rasterised with pypdfium2.

A raster is a float32 RGB reflectance image (linear light, 0-1) of the whole page, at
:data:`PX_PER_MM`; page millimetres are frame millimetres plus :func:`papillon.layout.frame_offset_mm`.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

from papillon.layout import PAPERS_MM, frame_offset_mm

PX_PER_MM = 10.0
"""Resolution of the sheet raster the marks are drawn on (254 dpi): finer than any photo samples it."""


@dataclass(frozen=True)
class Sheet:
    """A rasterised page: ``image`` is reflectance (H, W, 3) float32 in linear light."""

    image: np.ndarray
    paper: str
    offset_mm: tuple[float, float]
    """Where the layout's frame origin lies on the page."""

    @property
    def size_mm(self) -> tuple[float, float]:
        return PAPERS_MM[self.paper]

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Frame millimetres (the layout's coordinates) to raster pixels (centre of pixel = +0.5)."""
        return (x_mm + self.offset_mm[0]) * PX_PER_MM, (y_mm + self.offset_mm[1]) * PX_PER_MM


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)


_SRGB_LUT = srgb_to_linear(np.arange(256))


def _pdf(sides: str, paper: str, fields: str | None) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sheet.pdf"
        cmd = [sys.executable, "-m", "papillon", "sheet", "--sides", sides, "--paper", paper, "-o", str(out)]
        if fields:
            cmd += ["--starting-fields", fields]
        subprocess.run(cmd, check=True, capture_output=True)
        return out.read_bytes()


@cache
def sheet(sides: str = "garden", paper: str = "a4", fields: str | None = None) -> Sheet:
    """The page of ``papillon sheet --sides SIDES --paper PAPER [--starting-fields FIELDS]`` (cached)."""
    doc = pdfium.PdfDocument(_pdf(sides, paper, fields))
    page = doc[0]
    bitmap = page.render(scale=PX_PER_MM * 25.4 / 72.0)
    rgb = np.asarray(bitmap.to_pil().convert("RGB"))
    image = _SRGB_LUT[rgb]
    image.flags.writeable = False
    return Sheet(image, paper, frame_offset_mm(paper))
