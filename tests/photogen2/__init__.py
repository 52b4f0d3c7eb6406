"""photogen2: an independent generator of simulated phone photos of a filled garden sheet.

Written without reading the scanner (``papillon/scan/``) or its own photo generator, so that
the scanner can be measured on photos it was not tuned on (issue 8, "How to verify it").

What it uses from papillon: the real PDF (``papillon sheet``), the sheet's geometry in
millimetres (:func:`papillon.layout.garden_layout`) and the garden model and notation
(:mod:`papillon.garden`, :mod:`papillon.notation`) for the truth.  Everything else (the marks,
the paper's shape, the camera, the light, the phone's processing) is modelled here.

>>> from photogen2 import make_photo  # doctest: +SKIP
>>> photo = make_photo(900000)        # doctest: +SKIP
>>> photo.truth["should_read"], photo.truth["notation"]  # doctest: +SKIP

Every random choice comes from one ``numpy.random.Generator`` seeded with the photo's seed, so
the same seed gives the same bytes.
"""

from .photo import Photo, make_photo

__all__ = ["Photo", "make_photo"]
