"""The scanner on photos from the independent generator (tests/photogen2), as issue 8 measures it.

photogen2 was written by a helper who never read papillon/scan: a pinhole camera over curled and
bowed paper, lens distortion, the real PDF, marks drawn the many ways people draw them, other
sheets in view, glare, blur.  ``bench/accuracy_independent.py`` runs the same comparison on any
seeds; this test is a guard on a fixed set of 10 photos at phone size (12 megapixels). The
measurement on 30 (what it ran until issue 23: six minutes of a busy machine) is
``python bench/accuracy_independent.py --seed 919900 -n 30``.
Seeds 900000-919999 are photogen2's development seeds (the scanner was adjusted while looking at
some of them), so these figures guard against going back; the issue's goals are reported on
held-out seeds in the closing notes, not here.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("cv2")

from accuracy_independent import run  # bench/, on the path by tests/conftest.py

pytestmark = pytest.mark.slow

FIRST_SEED = 919900
COUNT = 10


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    return run(FIRST_SEED, COUNT, batch=10, max_mp=12.5, keep=None)


def test_every_photo_that_should_be_refused_is_refused_naming_its_cause(summary: dict[str, Any]) -> None:
    assert summary["refused_of_should_refuse"] == summary["should_refuse"]
    assert summary["refusals_naming_cause"] == summary["should_refuse"], summary["should_refuse_detail"]


def test_nine_photos_in_ten_that_should_be_read_are_read(summary: dict[str, Any]) -> None:
    assert summary["read_of_should_read"] >= 0.9 * summary["should_read"], summary["refusals_of_should_read"]


def test_flat_photos_whose_marks_follow_the_key_have_no_confident_error(summary: dict[str, Any]) -> None:
    assert summary["flat_by_key_photos"] > 0
    assert summary["flat_by_key_wrong"] == 0


def test_confident_errors_and_flags_stay_rare(summary: dict[str, Any]) -> None:
    assert summary["wrong_pct"] <= MAX_CONFIDENT_ERROR_PCT, summary["confusions"]
    assert summary["flagged_pct"] <= MAX_FLAGGED_PCT


MAX_CONFIDENT_ERROR_PCT = 0.2
"""A guard against going back, not issue 8's goal (0.1 %): the first 30 photos measured 0.133 % (3 of 2,250 items) when
the test was written, these 10 0 % (issue 23); the goal is measured on held-out seeds (closing note of issue 8)."""
MAX_FLAGGED_PCT = 6.0
"""A guard, not the goal (3 %): 4.7 % on the first 30 photos when written, 1.7 % on these 10 (2.9 % on held-out
seeds 930000-930099)."""
