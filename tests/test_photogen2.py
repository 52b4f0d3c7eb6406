"""The independent photo generator's own invariants (tests/photogen2); it does not judge the scanner."""

import cv2
import numpy as np
import pytest
from photogen2 import make_photo

from papillon.garden import Garden
from papillon.grid import EDGES, PLOTS, plot_name

pytestmark = pytest.mark.slow

SEEDS = (11, 12, 13)


@pytest.fixture(scope="module")
def photos():
    return {seed: make_photo(seed, max_megapixels=2.0) for seed in SEEDS}


def test_truth_is_a_valid_garden_and_matches_every_item(photos):
    for photo in photos.values():
        truth = photo.truth
        garden = Garden.from_notation(truth["notation"])
        assert garden.problems() == []
        assert garden.to_notation() == truth["notation"]
        assert len(truth["plots"]) == 25 and len(truth["edges"]) == 40 and len(truth["butterflies"]) == 25
        for plot in PLOTS:
            cell = garden[plot]
            expected = cell.colour if cell.is_flower else cell.ground.value
            assert truth["plots"][plot_name(plot)]["truth"] == expected
            assert truth["butterflies"][plot_name(plot)]["truth"] == ("filled" if plot in garden.butterflies else "empty")
        for edge in EDGES:
            assert truth["edges"][edge.name]["truth"] == ("brick" if edge in garden.bricks else "none")
            # An erased ghost is never a brick.
            if "erased_ghost" in truth["edges"][edge.name]["tags"]:
                assert edge not in garden.bricks


def test_photos_decode_at_the_size_the_truth_gives(photos):
    for photo in photos.values():
        image = photo.image()
        w, h = photo.truth["size"]
        assert image.shape[:2] == (h, w)
        assert w * h <= 2.0e6
        assert image.dtype == np.uint8
        if photo.truth["refuse_cause"] != "greyscale":
            assert image.ndim == 3 and image.shape[2] == 3
        assert photo.truth["should_read"] == (photo.truth["refuse_cause"] is None)


def test_the_same_seed_gives_the_same_photo(photos):
    again = make_photo(SEEDS[0], max_megapixels=2.0)
    assert again.jpeg == photos[SEEDS[0]].jpeg
    assert again.truth == photos[SEEDS[0]].truth
    assert make_photo(SEEDS[0] + 1000, max_megapixels=2.0).jpeg != again.jpeg


def test_a_photo_to_read_has_its_four_markers_in_the_frame(photos):
    for photo in photos.values():
        w, h = photo.truth["size"]
        corners = np.array(photo.truth["markers_px"])
        assert corners.shape == (16, 2)
        inside = (corners[:, 0] > 0) & (corners[:, 0] < w) & (corners[:, 1] > 0) & (corners[:, 1] < h)
        if photo.truth["should_read"]:
            assert inside.all()
        if photo.truth["refuse_cause"] == "corner_out":
            assert not inside.reshape(4, 4).any(axis=1).all()


def test_marker_corners_are_dark_in_the_photo(photos):
    # The truth's marker positions are where the photo shows them: the black border cell is dark.
    for photo in photos.values():
        if not photo.truth["should_read"]:
            continue
        grey = cv2.cvtColor(photo.image(), cv2.COLOR_BGR2GRAY).astype(float)
        corners = np.array(photo.truth["markers_px"]).reshape(4, 4, 2)
        for quad in corners:
            # A point one twelfth of the way from the top-left corner to the centre lies in the black border.
            spot = quad[0] + (quad.mean(axis=0) - quad[0]) / 6
            x, y = int(spot[0]), int(spot[1])
            assert grey[y, x] < np.percentile(grey, 60)
