"""Benchmark: read synthetic photos of random gardens and report accuracy and speed.

    python bench/bench_scan.py [--count 40] [--megapixels 12] [--seed 5000] [--workers 1]
                               [--jpeg-quality Q] [--dark D] [--mixed] [--min-megapixels M]

The measurement tests/test_scan_accuracy.py once made on every run (225 photos of 1-3 megapixels
from seed 1000, and 60 sheets marked every way from seed 2000); the test keeps a guard on the
first 30 and 20 of them:

    python bench/bench_scan.py --count 225 --seed 1000 --megapixels 3 --min-megapixels 1 --workers 2
    python bench/bench_scan.py --count 60 --seed 2000 --megapixels 3 --min-megapixels 1 --workers 2 --mixed

Goals (issue 8): confident errors (wrong and not flagged) at most 0.1 % of items,
at most 3 % of items flagged for review, under 1 s per 12-megapixel photo on one
core; a calibration table (confidence bins against accuracy) is printed.  Each
photo is made by ``tests/photos/synth.py`` (the printed sheet rasterised,
the garden drawn in by hand, photographed at any angle with light, shadow,
blur, noise and JPEG) from its seed; only the reading is timed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the photo generator is a test tool, not installed
sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy_independent import check_bins
from photos.synth import Outcome, evaluate

from papillon.scan.transcribe import calibration_table, format_calibration


def _run(args: tuple[int, float, float, int | None, float | None, bool]) -> Outcome:
    seed, smallest, megapixels, quality, dark, mixed = args
    return evaluate(seed, megapixels=(smallest, megapixels), jpeg_quality=quality, dark=dark, mixed=mixed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="photos to make and read")
    parser.add_argument("--megapixels", type=float, default=12.0, help="photo size (each photo is 95-100 %% of it)")
    parser.add_argument("--min-megapixels", type=float, help="the smallest photo size (default: 95 %% of --megapixels)")
    parser.add_argument("--seed", type=int, default=5000, help="first seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (timings are per photo, in one process each)")
    parser.add_argument("--jpeg-quality", type=int, help="save every photo at this JPEG quality (default: 60-92 at random)")
    parser.add_argument("--dark", type=float, help="light every photo evenly at this share of full light (default: varied)")
    parser.add_argument(
        "--mixed", action="store_true", help="mark and light each sheet in one of the ways issue 8 lists (synth.mixed_conditions)"
    )
    args = parser.parse_args()
    smallest = args.megapixels * 0.95 if args.min_megapixels is None else args.min_megapixels
    seeds = range(args.seed, args.seed + args.count)
    jobs = [(seed, smallest, args.megapixels, args.jpeg_quality, args.dark, args.mixed) for seed in seeds]
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(min(args.workers, os.cpu_count() or 1)) as pool:
            outcomes = list(pool.map(_run, jobs))
    else:
        outcomes = [_run(job) for job in jobs]
    wall = time.perf_counter() - started
    read = [o for o in outcomes if o.failure is None]
    items = sum(o.items for o in read)
    wrong = sum(len(o.wrong) for o in read)
    confident = [f"seed {o.seed}: {w}" for o in read for w in o.confident_wrong]
    flagged = sum(o.flagged for o in read)
    exact = sum(1 for o in read if not o.wrong)
    seconds = sorted(o.seconds for o in read)
    for o in outcomes:
        if o.failure:
            print(f"refused  {o.failure}")
    for line in confident:
        print(f"CONFIDENT ERROR  {line}")
    print(f"photos            {len(outcomes)} at {args.megapixels:g} MP (seeds {args.seed}-{args.seed + args.count - 1})")
    print(f"read              {len(read)} ({len(outcomes) - len(read)} refused with a message)")
    print(f"photos exact      {exact} (the others have every wrong item flagged)" if not confident else f"photos exact      {exact}")
    if items:
        print(f"per-item accuracy {1 - wrong / items:.4%} ({wrong} wrong of {items})")
        print(f"flagged           {flagged / items:.2%} ({flagged} items)   goal <= 3 %")
    print(f"confident errors  {len(confident)}   goal 0")
    print(f"confident errors  {len(confident) / max(items, 1):.3%} of items   goal <= 0.1 %")
    if read:
        bins = check_bins([o.flagged for o in read])
        cells = ", ".join(f"{label}: {bins[label]}" for label in ("0", "1-2", "3-17", "over 17", "at most 2"))
        print(f"checks per photo  flagged items per read photo: {cells} (of {len(read)})   goal: at most 2 on 80 %")
    print("calibration (every item of the photos read):")
    print(format_calibration(calibration_table((confidence, right) for o in read for _, confidence, right in o.scored)))
    if seconds:
        mean, median = sum(seconds) / len(seconds), seconds[len(seconds) // 2]
        print(f"seconds per photo mean {mean:.3f}, median {median:.3f}, max {seconds[-1]:.3f}   goal < 1 s")
        print(f"photos per second {len(seconds) / sum(seconds):.2f} (reading only; the whole run incl. generation took {wall:.0f} s)")
    return 1 if confident else 0


if __name__ == "__main__":
    sys.exit(main())
