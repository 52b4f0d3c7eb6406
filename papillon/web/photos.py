"""A photo reduced before the scanner sees it: the server's memory stays bounded whatever phone took it.

A 48-megapixel JPEG decodes to 144 MB of pixels (and the scanner's copies on top); the scanner works
with the sheet at :data:`papillon.scan.detect.RECT_PX_PER_MM` (about 1,800 px for its height), so a
photo whose long side is :data:`WORK_SIDE_PX` loses nothing it reads.  The header gives the size first;
a JPEG is then decoded already scaled down (Pillow's ``draft``: the decoder skips the detail), another
format decoded and ``reduce``d.  :data:`DECODING` lets two photos be decoded and read at once; a third waits.
"""

from __future__ import annotations

import io
import threading

WORK_SIDE_PX = 3000
"""The long side a photo is reduced to (the sheet fills at most the whole photo: 1,800 px of sheet height fit)."""
DECODING = threading.BoundedSemaphore(2)


def give_back_memory() -> None:
    """Hand freed memory back to the system (glibc keeps a photo's worth per thread otherwise); nothing elsewhere."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        if libc is not None and hasattr(libc, "malloc_trim"):
            libc.malloc_trim(0)
    except OSError:
        pass


def reduced(data: bytes) -> bytes:
    """The photo's bytes, as they are when small enough, else re-encoded at most :data:`WORK_SIDE_PX` on its long side."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size  # from the header: nothing is decoded yet
        if max(width, height) <= WORK_SIDE_PX:
            return data
        if image.format == "JPEG":
            image.draft("RGB", (WORK_SIDE_PX * width // max(width, height), WORK_SIDE_PX * height // max(width, height)))
        picture = ImageOps.exif_transpose(image.convert("RGB"))
    factor = max(picture.size) // WORK_SIDE_PX
    if factor > 1:
        picture = picture.reduce(factor)
    if max(picture.size) > WORK_SIDE_PX:
        picture.thumbnail((WORK_SIDE_PX, WORK_SIDE_PX))
    out = io.BytesIO()
    picture.save(out, format="JPEG", quality=95)
    return out.getvalue()
