"""The bundled open-licence fonts (Quicksand, SIL OFL 1.1), registered with reportlab.

The TTF files live in the repository's top-level ``fonts/`` directory (with
``OFL.txt``).  An installed package carries them as ``papillon/fonts/``; a
source checkout (or an editable install) finds them beside the package.
Nothing is looked up among the fonts installed on the machine.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from papillon.errors import PapillonError

REGULAR = "Quicksand"
BOLD = "Quicksand-Bold"
FONT_FILES = {REGULAR: "Quicksand-Regular.ttf", BOLD: "Quicksand-Bold.ttf"}


def font_dir() -> Path:
    """The directory holding the bundled TTF files."""
    candidates = [
        Path(str(resources.files("papillon") / "fonts")),
        Path(__file__).resolve().parent.parent.parent / "fonts",
    ]
    for candidate in candidates:
        if all((candidate / name).is_file() for name in FONT_FILES.values()):
            return candidate
    raise PapillonError(f"papillon's fonts are missing: expected {', '.join(FONT_FILES.values())} in {candidates[0]}")


@cache
def register_fonts() -> None:
    """Register the fonts with reportlab once (they are embedded as subsets in each PDF)."""
    directory = font_dir()
    for name, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(directory / filename)))


@cache
def _charmaps() -> tuple[frozenset[int], ...]:
    register_fonts()
    return tuple(frozenset(pdfmetrics.getFont(name).face.charToGlyph) for name in FONT_FILES)


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` that the bundled fonts (regular or bold) cannot draw, each once, in order.

    reportlab would draw them as nothing, so a caller refuses or warns.

    >>> missing_glyphs("Ann"), missing_glyphs("Zoë → 李")
    ('', '→李')
    """
    charmaps = _charmaps()
    return "".join(dict.fromkeys(ch for ch in text if any(ord(ch) not in charmap for charmap in charmaps)))


def drawable(text: str) -> str:
    """``text`` without the characters the bundled fonts cannot draw (runs of spaces left behind are closed up).

    >>> drawable("Li 李 Wei")
    'Li Wei'
    """
    missing = missing_glyphs(text)
    if not missing:
        return text
    return " ".join("".join(ch for ch in text if ch not in missing).split())
