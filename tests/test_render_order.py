"""`render --score` draws the bricks on top (issue 23, item 7).

The bricks decide an enclosure; a tint or a patch outline drawn over them made the picture seem to
contradict the score (``sheets/examples/nested-ring.garden``: the hedgehog field walled off inside
the ring). Every pixel of every brick's band must be brick or mortar, never the patch line's ink.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from papillon import Garden, score
from papillon.grid import EDGE_INDEX
from papillon.layout import BRICK_MM, garden_layout, grid_to_mm
from papillon.render import render_garden
from papillon.render.pen import COLOUR

EXAMPLES = Path(__file__).resolve().parent.parent / "sheets" / "examples"
DPI = 150


def _band_pixels(image: np.ndarray, slot) -> np.ndarray:
    """The pixels of the middle of a brick's band (its length, 70 % of its thickness); a PNG is the sheet's frame."""
    scale = DPI / 25.4
    samples = []
    for t in np.linspace(0.05, 0.95, 40):
        x = slot.x1_mm + (slot.x2_mm - slot.x1_mm) * t
        y = slot.y1_mm + (slot.y2_mm - slot.y1_mm) * t
        horizontal = abs(slot.y2_mm - slot.y1_mm) < 1e-6
        for d in np.linspace(-0.35 * BRICK_MM, 0.35 * BRICK_MM, 7):
            px, py = (x, y + d) if horizontal else (x + d, y)
            samples.append(image[round(py * scale), round(px * scale)])
    return np.array(samples, dtype=int)


@pytest.mark.parametrize("name", ["nested-ring", "ring-pocket", "shared-enclosure"])
def test_the_bricks_are_drawn_over_the_tint_and_the_outlines(name):
    garden = Garden.from_notation((EXAMPLES / f"{name}.garden").read_text(encoding="utf-8"))
    image = np.asarray(Image.open(io.BytesIO(render_garden(garden, score=score(garden), dpi=DPI))).convert("RGB"))
    layout = garden_layout()
    brick, joint = _rgb(COLOUR.brick), _rgb(COLOUR.brick_joint)
    for edge in sorted(garden.bricks):
        pixels = _band_pixels(image, layout.edge_slots[EDGE_INDEX[edge]])
        # Brick, mortar or an anti-aliased mix of the two: a point near the RGB segment from one to the other.
        t = np.clip((pixels - brick) @ (joint - brick) / float((joint - brick) @ (joint - brick)), 0, 1)
        off = np.linalg.norm(pixels - (brick + t[:, None] * (joint - brick)), axis=1)
        stray = int((off > 25).sum())
        assert stray == 0, f"{name}: {stray} of {len(pixels)} pixels of the brick {edge} are not brick (an outline or a tint over it)"


def _rgb(colour) -> np.ndarray:
    return np.array([round(colour.red * 255), round(colour.green * 255), round(colour.blue * 255)])


def test_a_wall_is_drawn_closed_where_its_bricks_meet():
    # nested-ring: the hedgehog's walls C3-D3 and C3-C4 meet at C3's bottom-right corner, the crossing of
    # C3 D3 C4 D4, which is inside the tinted enclosure and beside the outline's inner corner. A gap
    # there showed the tint through the wall, as if C3 were open to the yellows.
    garden = Garden.from_notation((EXAMPLES / "nested-ring.garden").read_text(encoding="utf-8"))
    image = np.asarray(Image.open(io.BytesIO(render_garden(garden, score=score(garden), dpi=DPI))).convert("RGB"))
    brick = _rgb(COLOUR.brick)
    scale = DPI / 25.4
    for col, row in [(3, 3), (2, 2), (4, 4), (2, 4)]:  # the inner corner, and three corners of the outer ring
        x, y = grid_to_mm(col, row)
        for dx, dy in [(0, 0), (0.8, 0.8), (-0.8, 0.8), (0.8, -0.8), (-0.8, -0.8)]:
            pixel = image[round((y + dy) * scale), round((x + dx) * scale)].astype(int)
            assert np.abs(pixel - brick).max() < 25, f"the crossing at grid ({col}, {row}) is not brick at {dx, dy}: {pixel}"
