"""Reading a photographed garden sheet back into notation (``papillon scan``).

>>> from papillon.scan import review_marks
>>> review_marks("papillon garden v1\\n# ? edge B2-B3: read brick (0.55), runner-up none\\n")
['# ? edge B2-B3: read brick (0.55), runner-up none']

:func:`read_photo` runs the whole chain: load the photo (Pillow, EXIF
orientation honoured), find the four markers and the homography
(:mod:`~papillon.scan.detect`), check scale, flatness, light and focus, read
the QR code (layout and starting fields), read every plot, edge and bubble
(:mod:`~papillon.scan.classify`) and write the reviewable notation
(:mod:`~papillon.scan.transcribe`).  OpenCV is needed only here, imported
when a photo is read; without it the message says how to install it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papillon.errors import ScanError
from papillon.garden import Garden
from papillon.grid import Plot, plot_name
from papillon.scan.transcribe import review_marks, sheet_confidence
from papillon.words import plural

if TYPE_CHECKING:
    from papillon.edition import Edition
    from papillon.scan.classify import Calibration, Reading
    from papillon.scan.detect import Sheet

INSTALL_HINT = "reading photos needs OpenCV: pip install 'papillon-gardens[scan]'"

IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*")
"""Leading bytes of JPEG, PNG, GIF, BMP and TIFF files."""


def is_image(head: bytes) -> bool:
    """Whether ``head`` (a file's first 16 bytes) starts like an image: JPEG, PNG, GIF, BMP, TIFF, WebP, HEIF/AVIF.

    >>> is_image(b"\\xff\\xd8\\xff\\xe0"), is_image(b"papillon garden v1")
    (True, False)
    """
    if head.startswith(IMAGE_MAGIC):
        return True
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return True
    return head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"avif")


def is_image_file(path: str | Path) -> bool:
    """Whether the file at ``path`` is an image, by its magic bytes (not its name); False if unreadable or ``-``."""
    if str(path) == "-":
        return False
    try:
        with open(path, "rb") as handle:
            return is_image(handle.read(16))
    except OSError:
        return False


def check_debug_dir(directory: str | Path) -> None:
    """Create the folder for debug pictures if needed; ScanError (one line) if it is a file (about ``debug_dir``) or cannot be made."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise ScanError(f"{directory}: not a directory", parameter="debug_dir")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ScanError(f"{directory}: cannot create it ({error.strerror})") from None  # a failed write, not a bad option


def debug_stems(photos: list[str]) -> list[str]:
    """A distinct debug image name for each photo: its file name, numbered when two share one.

    >>> debug_stems(["a/sheet.jpg", "b/sheet.jpg", "c/other.png"])
    ['sheet-1', 'sheet-2', 'other']
    """
    stems = [Path(p).stem or "photo" for p in photos]
    counts = {s: stems.count(s) for s in stems}
    seen: dict[str, int] = {}
    named = []
    for stem in stems:
        if counts[stem] > 1:
            seen[stem] = seen.get(stem, 0) + 1
            named.append(f"{stem}-{seen[stem]}")
        else:
            named.append(stem)
    return named


class ScanReviewError(ScanError):
    """The photo was read, but some readings are doubtful; ``result`` holds the reviewable transcription.

    A front end that can score anyway (``accept_uncertain``) says how in its own words.
    """

    def __init__(self, message: str, result: ScanResult) -> None:
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class ScanResult:
    """What a photo was read as."""

    source: str
    garden: Garden
    notation: str
    """Canonical notation with ``# ?`` review comments (it parses back to :attr:`garden`)."""
    readings: tuple[Reading, ...]
    review: tuple[Reading, ...]
    fields_unknown: tuple[Plot, ...]
    sheet: Sheet
    calibration: Calibration
    asked: tuple[Reading, ...] = ()
    """The doubts whose answer can change the score, the most consequential first (what a person is asked)."""
    moot: tuple[Reading, ...] = ()
    """The doubts whose answer cannot change the score: in :attr:`review`, not asked."""

    @property
    def needs_review(self) -> bool:
        """Whether a person must check something: a doubt whose answer can change the score."""
        return bool(self.asked)

    @property
    def confidence(self) -> float:
        """The sheet's confidence: the minimum over every item."""
        return sheet_confidence(self.readings)

    def json(self) -> dict[str, Any]:
        """Everything read, for ``--json``: the garden, the notation, every item with its confidence."""
        from papillon.notation import to_json

        located = self.sheet.located
        return {
            "source": self.source,
            "layout": self.sheet.layout.id,
            "starting_fields": [plot_name(p) for p in self.sheet.starting_fields],
            "confidence": round(self.confidence, 4),
            "needs_review": self.needs_review,
            "review": [r.item for r in self.review],
            "asked": [r.item for r in self.asked],
            "moot": [r.item for r in self.moot],
            "fields_unknown": [plot_name(p) for p in self.fields_unknown],
            "garden": to_json(self.garden),
            "notation": self.notation,
            "items": [
                {
                    "item": r.item,
                    "kind": r.kind,
                    "read": r.value,
                    "confidence": round(r.confidence, 4),
                    "runner_up": r.runner_up[0],
                    "runner_up_confidence": round(r.runner_up[1], 4),
                    "review": r in self.review,
                    "evidence": {k: round(v, 4) for k, v in r.evidence},
                }
                for r in self.readings
            ],
            "photo": {
                "px_per_mm": round(located.px_per_mm, 3),
                "reprojection_mm": round(located.reprojection_mm, 3),
                "marker_px": round(located.marker_px, 1),
                "paper_grey": round(self.sheet.paper_grey, 1),
                "edge_width_mm": round(self.sheet.edge_width_mm, 3),
                # Local registration (None on a release-1 sheet): dots found, and the largest estimated misregistration.
                "registration_dots": self.sheet.registration.found if self.sheet.registration else None,
                "misregistration_mm": round(self.sheet.misregistration.worst_mm, 3) if self.sheet.misregistration else None,
                "colour_key": {c: self.calibration.from_key[c] for c in self.calibration.inks},
            },
        }


def read_photo(
    source: str | Path | bytes,
    *,
    fields: str | Mapping[Plot, str] | None = None,
    accept_uncertain: bool = False,
    ask: Callable[[Plot], str | None] | None = None,
    debug_dir: str | Path | None = None,
    name: str | None = None,
    edition: Edition | None = None,
    debug_stem: str | None = None,
) -> ScanResult:
    """Read a photo of a garden sheet (a path or the file's bytes).

    ``fields`` gives the critter or feature of field plots (``'B4=po,D2=lb'``
    or {plot: code}); ``ask(plot)`` is called for the others (return a code,
    ``''`` for an empty field, or None to leave it unknown).  Raises
    ScanError with a one-line message when the photo cannot be read, and
    :class:`ScanReviewError` (carrying the result) when some reading is
    doubtful unless ``accept_uncertain``.  ``debug_dir`` receives the
    rectified sheet with every reading drawn on it, as ``<debug_stem>-read.png``
    (default: the photo's file name without extension).  Every message starts
    with ``name`` (default: the path).
    """
    label = name or ("the photo" if isinstance(source, bytes) else str(source))
    stem = debug_stem or (Path(label).stem if not isinstance(source, bytes) else "photo")
    try:
        return _read(source, label, fields, accept_uncertain, ask, debug_dir, edition, stem)
    except ScanReviewError:
        raise
    except ScanError as error:
        raise ScanError(f"{label}: {error}", parameter=error.parameter) from None


def _read(
    source: str | Path | bytes,
    label: str,
    fields: str | Mapping[Plot, str] | None,
    accept_uncertain: bool,
    ask: Callable[[Plot], str | None] | None,
    debug_dir: str | Path | None,
    edition: Edition | None,
    debug_stem: str,
) -> ScanResult:
    try:
        from papillon.scan import classify, detect, transcribe
    except ImportError:
        raise ScanError(INSTALL_HINT) from None
    if isinstance(fields, str) or fields is None:
        try:
            wanted = transcribe.parse_fields(fields, edition)
        except ValueError as error:
            raise ScanError(str(error), parameter="fields") from None
    else:
        wanted = dict(fields)
    if debug_dir is not None:
        check_debug_dir(debug_dir)
    photo = detect.load_photo(source if isinstance(source, bytes) else Path(source))
    sheet = detect.find_sheet(photo)
    off = sheet.misregistration
    shifts = (off.plots, off.edges) if off else None
    readings, calibration = classify.read_sheet(sheet.rectified, sheet.layout, sheet.starting_fields, detect.RECT_PX_PER_MM, shifts)
    assumed_note: list[str] = []
    if sheet.start_assumed:  # the starting fields are a guess: the plots it could change are doubted
        readings = detect.doubt_assumed_start(readings, sheet)
        fields_text = " ".join(plot_name(p) for p in sheet.starting_fields) or "none"
        assumed_note.append(
            f"# QR code unreadable: layout told by its registration dots and round track; starting fields assumed ({fields_text})"
        )
    readings = detect.doubt_misregistered(readings, sheet)
    header = [f"# read from {Path(label).name}: layout {sheet.layout.id}, confidence {sheet_confidence(readings):.2f}", *assumed_note]
    if not all(calibration.from_key.values()):
        blank = ", ".join(c for c, ok in calibration.from_key.items() if not ok)
        header.append(f"# colour key not stamped for {blank}: typical ink colours assumed")
    result_t = transcribe.transcribe(readings, fields=wanted, ask=ask, header=header, edition=edition)
    result = ScanResult(
        label,
        result_t.garden,
        result_t.notation,
        result_t.readings,
        result_t.review,
        result_t.fields_unknown,
        sheet,
        calibration,
        result_t.asked,
        result_t.moot,
    )
    if debug_dir is not None:
        from papillon.scan.debug import write_debug

        write_debug(Path(debug_dir), debug_stem, result)
    if result.needs_review and not accept_uncertain:
        items = ", ".join(r.item for r in result.asked[:4]) + (", ..." if len(result.asked) > 4 else "")
        count = len(result.asked)
        raise ScanReviewError(
            f"{label}: {plural(count, 'reading')} need{'' if count > 1 else 's'} review ({items}) — check them against the sheet",
            result,
        )
    return result


__all__ = [
    "INSTALL_HINT",
    "ScanResult",
    "ScanReviewError",
    "check_debug_dir",
    "debug_stems",
    "is_image",
    "is_image_file",
    "read_photo",
    "review_marks",
]
