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
