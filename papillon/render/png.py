"""Pictures: the PDF rasterised with pypdfium2, so a PNG and a PDF come from one drawing path."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from papillon.edition import Edition, standard_edition
from papillon.errors import PapillonError
from papillon.garden import Garden
from papillon.layout import FRAME_H_MM, FRAME_W_MM, frame_offset_mm
from papillon.score import ScoreCard

if TYPE_CHECKING:
    from PIL.Image import Image

FORMATS = ("png", "pdf")
DEFAULT_DPI = 150
MM_PER_INCH = 25.4


def pdf_page_to_png(
    pdf: bytes, *, dpi: int = DEFAULT_DPI, page: int = 0, crop_mm: tuple[float, float, float, float] | None = None
) -> bytes:
    """One page of ``pdf`` as PNG bytes at ``dpi``; ``crop_mm`` = (x, y, w, h) from the page's top-left."""
    image = rasterise(pdf, dpi=dpi, page=page)
    if crop_mm is not None:
        scale = dpi / MM_PER_INCH
        x, y, w, h = crop_mm
        image = image.crop((round(x * scale), round(y * scale), round((x + w) * scale), round((y + h) * scale)))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def rasterise(pdf: bytes, *, dpi: int = DEFAULT_DPI, page: int = 0) -> Image:
    """One page of ``pdf`` as an RGB ``PIL.Image`` at ``dpi``."""
    try:
        import pypdfium2
    except ImportError:  # pragma: no cover - an install without the picture dependency
        raise PapillonError("PNG output needs pypdfium2 (pip install pypdfium2), or ask for a .pdf") from None
    document = pypdfium2.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72)
        image: Image = bitmap.to_pil().convert("RGB")
        return image
    finally:
        document.close()


def render_garden(
    garden: Garden | None,
    *,
    score: ScoreCard | None = None,
    edition: Edition | None = None,
    fmt: str = "png",
    dpi: int = DEFAULT_DPI,
    mono: bool = False,
    paper: str = "a4",
) -> bytes:
    """A picture of ``garden`` on the Garden sheet's layout, as PNG or PDF bytes.

    With ``score`` (``papillon.score.score(garden, edition)``) the enclosures
    are shaded, the patches outlined and the points listed.  A PNG shows the
    sheet's frame (210 × 279.4 mm) without the paper's extra margins.
    """
    from papillon.render.pdf import garden_pdf

    if fmt not in FORMATS:
        raise ValueError(f"unknown picture format {fmt!r} (expected png or pdf)")
    pdf = garden_pdf(garden, score=score, edition=edition or standard_edition(), paper=paper, mono=mono)
    if fmt == "pdf":
        return pdf
    x, y = frame_offset_mm(paper)
    return pdf_page_to_png(pdf, dpi=dpi, crop_mm=(x, y, FRAME_W_MM, FRAME_H_MM))
