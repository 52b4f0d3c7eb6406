"""The independent photo generator photogen3: deterministic, complete truth, honest refusals, bounded sizes."""

import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from photogen3 import HELD_OUT_FROM, make_photo
from photogen3.conditions import REFUSALS, draw_conditions

from papillon.garden import Garden
from papillon.grid import EDGES, PLOT_NAMES

PLOT_TRUTHS = {"empty", "red", "blue", "yellow", "purple", "field", "bramble"}


def _readable_seed() -> int:
    import numpy as np

    return next(seed for seed in range(100, 5000) if draw_conditions(np.random.default_rng(seed), 1.0).refuse_cause is None)


def _refused_seed(cause: str) -> int:
    """The first development seed whose conditions refuse for ``cause`` (conditions are drawn first, cheaply)."""
    import numpy as np

    for seed in range(5000):
        if draw_conditions(np.random.default_rng(seed), 2.0).refuse_cause == cause:
            return seed
    raise AssertionError(f"no seed below 5000 refuses for {cause}")


def test_the_same_seed_gives_the_same_bytes():
    first, again = make_photo(3, max_megapixels=1.0), make_photo(3, max_megapixels=1.0)
    assert first.jpeg == again.jpeg
    assert first.truth == again.truth
    assert make_photo(4, max_megapixels=1.0).jpeg != first.jpeg


def test_the_truth_has_every_item_and_a_valid_garden():
    truth = make_photo(_readable_seed(), max_megapixels=1.0).truth
    assert set(truth["plots"]) == set(PLOT_NAMES)
    assert set(truth["butterflies"]) == set(PLOT_NAMES)
    assert set(truth["edges"]) == {edge.name for edge in EDGES}
    assert all(item["truth"] in PLOT_TRUTHS for item in truth["plots"].values())
    assert all(item["truth"] in ("brick", "none") for item in truth["edges"].values())
    assert all(item["truth"] in ("filled", "empty") for item in truth["butterflies"].values())
    garden = Garden.from_notation(truth["notation"])
    assert garden.problems() == []
    # The item maps and the notation tell the same garden.
    assert {e.name for e in garden.bricks} == {name for name, item in truth["edges"].items() if item["truth"] == "brick"}
    assert {PLOT_NAMES[p] for p in garden.butterflies} == {n for n, item in truth["butterflies"].items() if item["truth"] == "filled"}
    json.dumps(truth)  # the bench stores it as JSON


def test_the_truth_keys_the_bench_reads():
    truth = make_photo(12, max_megapixels=1.0).truth
    for key in ("seed", "should_read", "refuse_cause", "refuse_words", "tags", "flat", "follows_key", "size", "notation"):
        assert key in truth
    assert truth["seed"] == 12
    assert isinstance(truth["tags"], list) and any(tag.startswith("mp_") for tag in truth["tags"])


@pytest.mark.parametrize("cause", sorted(REFUSALS))
def test_a_refused_photo_says_why(cause):
    truth = make_photo(_refused_seed(cause), max_megapixels=2.0).truth
    assert truth["should_read"] is False
    assert truth["refuse_cause"] == cause
    assert truth["refuse_words"] == list(REFUSALS[cause][1])
    assert all(word == word.lower() for word in truth["refuse_words"])
    if cause == "marker_out_of_frame":
        assert 2 <= len(truth["markers_in_frame"]) <= 3
    if cause == "cut_off":
        assert len(truth["markers_in_frame"]) <= 2


def test_a_readable_photo_has_no_cause():
    truth = make_photo(_readable_seed(), max_megapixels=1.0).truth
    assert truth["should_read"] is True
    assert truth["refuse_cause"] is None and truth["refuse_words"] == []
    assert truth["markers_in_frame"] == [0, 1, 2, 3]


@pytest.mark.parametrize("cap", [0.5, 2.0])
def test_sizes_respect_max_megapixels(cap):
    from PIL import Image

    for seed in (21, 22):
        photo = make_photo(seed, max_megapixels=cap)
        with Image.open(io.BytesIO(photo.jpeg)) as image:
            assert image.format == "JPEG"
            assert list(image.size) == photo.truth["size"]
            assert image.size[0] * image.size[1] <= cap * 1e6


def test_flat_paper_has_no_warp():
    import numpy as np

    seed = next(s for s in range(2000) if (c := draw_conditions(np.random.default_rng(s), 1.0)).bow_mm == 0 and c.curl_mm == 0)
    truth = make_photo(seed, max_megapixels=1.0).truth
    assert all(item["warp_mm"] == 0.0 for group in ("plots", "edges", "butterflies") for item in truth[group].values())


def test_held_out_seeds_start_at_700000():
    assert HELD_OUT_FROM == 700000


@pytest.mark.slow
def test_a_12_megapixel_photo():
    photo = make_photo(1000, max_megapixels=12.0)
    width, height = photo.truth["size"]
    assert width * height <= 12e6
