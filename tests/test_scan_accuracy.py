"""A guard on the scanner's accuracy: 30 synthetic photos of random gardens (1-3 megapixels) read back.

Every photo is either refused with one of the clear failure messages or read
with every plot, edge and butterfly right or flagged for review; no item may
be read wrong with high confidence.  A second set marks and lights the sheets
in the ways issue 8 lists (ticks, crosses, ballpoint, felt spilling past the
plots, pale hatching, rubbed-out bricks, glare: ``synth.mixed_conditions``).
The measurement on 225 photos and 60 marked sheets (what this file ran until issue 23, 6 minutes
of CPU) is ``bench/bench_scan.py`` (its docstring gives the two commands), with timings and a
calibration table; these guards are its first 30 photos and 20 sheets.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

pytest.importorskip("cv2")

from photos.synth import Outcome, evaluate

pytestmark = pytest.mark.slow

FIRST_SEED = int(os.environ.get("PAPILLON_SCAN_SEED", "1000"))
SEEDS = range(FIRST_SEED, FIRST_SEED + 30)
MIN_READ = 26
"""Photos that must be read (the rest may be refused, each with a clear message): 200 of 225 before, 27 of these 30 read."""
MAX_FLAG_RATE = 0.01
"""Share of items marked for review at most (the issue's goal)."""
CLEAR_FAILURES = (
    "could not read its QR code",
    "the sheet is too small in the photo",
    "not found — keep all four corners in the frame",
    "is in the photo but too small to read",
    "the photo is too blurry",
    "the photo is too dark",
    "the sheet is not flat",
    "too compressed (JPEG quality about",
    "glare washes out much of the garden",
)
MIXED_SEEDS = range(2000, 2020)
"""Sheets marked and lit in the ways issue 8 lists (``synth.mixed_conditions``)."""
MIXED_MAX_CONFIDENT_ERROR_RATE = 0.005
"""Share of items read wrong and not flagged at most: a guard against going back, NOT issue 8's goal (0.1 %), which
is not met on these sheets yet (held-out seeds 30000-30059 measured 0.32 %)."""
MIXED_MAX_FLAG_RATE = 0.12
"""Share of items flagged at most: a guard, not the goal (3 %); held-out seeds 30000-30059 measured 8.8 %."""
HARD_CASES = [(seed, {"jpeg_quality": q}) for seed, q in ((8005, 20), (8011, 35), (8011, 45))]
HARD_CASES += [(seed, {"dark": d}) for seed, d in ((7404, 0.3), (7405, 0.3), (7405, 0.37), (7401, 0.45))]
"""Photos that once gave confident errors (compressed JPEGs, dim light) and their neighbours: refused or read right."""


def _one(seed: int) -> Outcome:
    return evaluate(seed, megapixels=(1.0, 3.0))


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_one, SEEDS, chunksize=4))


def test_no_item_is_read_wrong_with_high_confidence(outcomes):
    confident = [f"seed {o.seed}: {w}" for o in outcomes for w in o.confident_wrong]
    assert confident == []


def test_enough_photos_are_read_and_the_others_fail_clearly(outcomes):
    read = [o for o in outcomes if o.failure is None]
    refused = [o.failure for o in outcomes if o.failure is not None]
    assert len(read) >= MIN_READ, refused
    assert all(any(clue in message for clue in CLEAR_FAILURES) for message in refused), refused


def test_every_item_is_exact_or_flagged_and_few_are_flagged(outcomes):
    read = [o for o in outcomes if o.failure is None]
    items = sum(o.items for o in read)
    wrong = sum(len(o.wrong) for o in read)
    flagged = sum(o.flagged for o in read)
    seconds = sum(o.seconds for o in read) / len(read)
    print(
        f"\nscan accuracy: {len(read)}/{len(outcomes)} photos read, {items} items, accuracy {1 - wrong / items:.4%},"
        f" flagged {flagged / items:.2%}, confident errors 0, {seconds:.3f} s per photo (1-3 MP)"
    )
    assert flagged / items <= MAX_FLAG_RATE
    for outcome in read:
        assert len(outcome.wrong) <= outcome.flagged, outcome


def _hard(case: tuple[int, dict[str, float]]) -> Outcome:
    seed, camera = case
    return evaluate(seed, megapixels=(2.0, 2.0), **camera)


def test_compressed_and_dim_photos_are_refused_clearly_or_read_without_confident_errors():
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        hard = list(pool.map(_hard, HARD_CASES))
    for outcome, (_, camera) in zip(hard, HARD_CASES, strict=True):
        assert outcome.confident_wrong == (), (camera, outcome)
        if outcome.failure is not None:
            assert any(clue in outcome.failure for clue in CLEAR_FAILURES), outcome.failure
    messages = {camera.get("jpeg_quality"): o.failure for o, (_, camera) in zip(hard, HARD_CASES, strict=True)}
    assert "too compressed (JPEG quality about 20" in (messages[20] or "")
    assert "too compressed (JPEG quality about 35" in (messages[35] or "")
    assert all("the photo is too dark" in (o.failure or "") for o, (_, c) in zip(hard, HARD_CASES, strict=True) if c.get("dark") == 0.3)


def _mixed(seed: int) -> Outcome:
    return evaluate(seed, megapixels=(1.0, 3.0), mixed=True)


def test_sheets_marked_every_way_the_issue_lists_are_not_confidently_misread():
    workers = min(2, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        mixed = list(pool.map(_mixed, MIXED_SEEDS, chunksize=4))
    read = [o for o in mixed if o.failure is None]
    items = sum(o.items for o in read)
    confident = [f"seed {o.seed}: {w}" for o in read for w in o.confident_wrong]
    flagged = sum(o.flagged for o in read)
    print(f"\nmixed marks: {len(read)}/{len(mixed)} read, {items} items, flagged {flagged / items:.2%}, confident errors {confident}")
    assert all(any(clue in o.failure for clue in CLEAR_FAILURES) for o in mixed if o.failure is not None)
    assert len(read) >= 0.85 * len(mixed)
    assert len(confident) <= MIXED_MAX_CONFIDENT_ERROR_RATE * items, confident
    assert flagged <= MIXED_MAX_FLAG_RATE * items
