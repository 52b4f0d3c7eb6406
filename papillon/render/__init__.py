"""Rendering: printable PDF sheets and pictures of gardens, drawn from :mod:`papillon.layout`.

This package needs reportlab (PDF) and, for PNG pictures, pypdfium2 and
Pillow; the model (:mod:`papillon`) never imports it.

* :func:`papillon.render.pdf.sheets_pdf`: a pad of blank sheets.
* :func:`papillon.render.pdf.garden_pdf`: one garden sheet, blank or filled.
* :func:`render_garden`: a filled garden as PNG or PDF bytes, optionally with its scoring.
"""

from __future__ import annotations

from papillon.render.png import render_garden

__all__ = ["render_garden"]
