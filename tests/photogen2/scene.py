"""What lies around the sheet: procedural tables (wood, cloth, desk) and other documents."""

from __future__ import annotations

import cv2
import numpy as np

from .sheet import PX_PER_MM, Sheet, srgb_to_linear

TABLE_PX_PER_MM = 2.0


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth value noise: a small random grid upsampled (cubic) to ``shape``."""
    small = rng.standard_normal((max(cells[0], 2), max(cells[1], 2))).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def table(rng: np.random.Generator, kind: str, size_mm: tuple[float, float]) -> np.ndarray:
    """A table top ``size_mm`` (w, h) at :data:`TABLE_PX_PER_MM`, linear reflectance (H, W, 3)."""
    w, h = int(size_mm[0] * TABLE_PX_PER_MM), int(size_mm[1] * TABLE_PX_PER_MM)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / TABLE_PX_PER_MM
    if kind == "wood":
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        warp = _noise(rng, (h, w), (h // 120 + 2, w // 120 + 2)) * rng.uniform(4, 12)
        period = rng.uniform(4.0, 12.0)
        grain = 0.5 + 0.5 * np.sin((v + warp) * 2 * np.pi / period)
        fine = _noise(rng, (h, w), (h // 3 + 2, w // 3 + 2))
        plank = rng.uniform(80, 160)
        seam = (np.abs(((u / plank) % 1.0) - 0.5) > 0.495).astype(np.float32)
        base = np.array(rng.choice([[150, 105, 65], [190, 150, 105], [110, 70, 45], [205, 170, 125]]), np.float32) + rng.normal(0, 10, 3)
        shade = 0.85 + 0.08 * grain + 0.03 * fine - 0.3 * seam
        srgb = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array([rng.uniform(40, 220) for _ in range(3)], np.float32)
        p = rng.uniform(1.6, 3.0)
        weave = 0.5 + 0.25 * (np.sin(2 * np.pi * xx / p) + np.sin(2 * np.pi * yy / p))
        folds = _noise(rng, (h, w), (h // 200 + 2, w // 200 + 2))
        shade = 0.8 + 0.12 * weave + 0.08 * folds
        srgb = base[None, None, :] * shade[..., None]
    else:  # desk laminate: white, grey, beige or black, with speckle
        base = np.array(rng.choice([[235, 235, 230], [180, 180, 178], [215, 200, 175], [45, 45, 48], [120, 130, 140]]), np.float32)
        speck = _noise(rng, (h, w), (h // 2 + 2, w // 2 + 2))
        slow = _noise(rng, (h, w), (h // 300 + 2, w // 300 + 2))
        srgb = base[None, None, :] * (0.95 + 0.02 * speck + 0.03 * slow)[..., None]
    srgb = np.clip(srgb + rng.normal(0, 2, 3).astype(np.float32), 0, 255)
    return srgb_to_linear(srgb)


def text_document(rng: np.random.Generator, paper: str = "a4") -> Sheet:
    """A different document: a printed page of text (grey word blocks), a heading and maybe a table."""
    from papillon.layout import PAPERS_MM

    w_mm, h_mm = PAPERS_MM[paper]
    w, h = int(w_mm * PX_PER_MM), int(h_mm * PX_PER_MM)
    page = np.full((h, w), 250, np.uint8)
    y = 25.0
    cv2.rectangle(
        page, (int(25 * PX_PER_MM), int(y * PX_PER_MM)), (int(rng.uniform(90, 160) * PX_PER_MM), int((y + 7) * PX_PER_MM)), 40, -1
    )
    y += 18
    while y < h_mm - 25:
        if rng.random() < 0.08:
            # a ruled table
            rows = int(rng.integers(3, 7))
            for r in range(rows + 1):
                yy = int((y + r * 7) * PX_PER_MM)
                cv2.line(page, (int(25 * PX_PER_MM), yy), (int((w_mm - 25) * PX_PER_MM), yy), 60, 2)
            y += rows * 7 + 8
            continue
        x = 25.0
        end = w_mm - 25 - (rng.uniform(0, 60) if rng.random() < 0.15 else 0)
        while x < end:
            word = rng.uniform(4, 22)
            cv2.rectangle(
                page, (int(x * PX_PER_MM), int(y * PX_PER_MM)), (int(min(x + word, end) * PX_PER_MM), int((y + 2.4) * PX_PER_MM)), 70, -1
            )
            x += word + 2.0
        y += rng.uniform(4.8, 6.0) + (6 if rng.random() < 0.12 else 0)
    page = cv2.GaussianBlur(page, (0, 0), 1.2)
    rgb = np.repeat(page[..., None], 3, axis=2)
    return Sheet(srgb_to_linear(rgb), paper, (0.0, 0.0))
