"""Benchmark: CPU seconds to read each photo in one process, by megapixel class, against issue 21's speed goal.

    python bench/bench_read_time.py PHOTO_OR_FOLDER...              # e.g. a folder kept by accuracy_independent.py --keep
    python bench/bench_read_time.py out/ --save after.json          # also every reading (``papillon scan --json``'s)
    python bench/bench_read_time.py --compare before.json after.json

Goal (issue 21): a 12 MP photo is read in under 1 s of CPU in process on one core, a 48 MP one in under 2 s.
Each photo is read once with ``papillon.scan.read_photo`` (after one untimed read that loads the libraries),
timed with ``time.process_time``: the figures move with the machine's load, which is printed with them.
``--compare`` checks that two saved runs read every photo the same, item by item (a speed change must not
change a reading), and prints both runs' times side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from papillon.errors import ScanError
from papillon.scan import is_image_file, read_photo

CLASSES = (
    (0.0, 3.0, "up to 3 MP"),
    (3.0, 8.0, "3-8 MP"),
    (8.0, 16.0, "8-16 MP (12 MP)"),
    (16.0, 30.0, "16-30 MP"),
    (30.0, 1e9, "over 30 MP (48 MP)"),
)
"""Megapixel classes the times are summarised in (lower bound included)."""
GOALS_S = {"8-16 MP (12 MP)": 1.0, "over 30 MP (48 MP)": 2.0}
"""Issue 21's goals, CPU seconds per photo."""


def photos(sources: list[Path]) -> list[Path]:
    """The image files among ``sources`` and in the folders among them, in name order."""
    found: list[Path] = []
    for source in sources:
        found += sorted(p for p in source.iterdir() if is_image_file(p)) if source.is_dir() else [source]
    return found


def megapixels(path: Path) -> float:
    from PIL import Image

    with Image.open(path) as image:
        return image.size[0] * image.size[1] / 1e6


def read_all(paths: list[Path]) -> dict[str, Any]:
    """Each photo's CPU seconds, megapixels and reading (or refusal)."""
    if paths:  # untimed: imports and caches (a photo that is refused warms them up too)
        with contextlib.suppress(ScanError):
            read_photo(paths[0], accept_uncertain=True)
    rows = []
    for path in paths:
        start = time.process_time()
        try:
            result: dict[str, Any] = read_photo(path, accept_uncertain=True).json()
        except ScanError as error:
            result = {"refused": str(error)}
        rows.append({"photo": str(path), "cpu_s": time.process_time() - start, "megapixels": megapixels(path), "result": result})
    return {"loadavg": Path("/proc/loadavg").read_text().split()[:3], "rows": rows}


def summary(run: dict[str, Any], name: str) -> list[str]:
    """Per megapixel class: count, p50, p90 and max CPU seconds, and the goal where issue 21 sets one."""
    lines = []
    for low, high, label in CLASSES:
        times = sorted(r["cpu_s"] for r in run["rows"] if low <= r["megapixels"] < high)
        if not times:
            continue
        p90 = times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]
        goal = GOALS_S.get(label)
        verdict = "" if goal is None else f"  goal < {goal:g} s: {'met' if times[-1] < goal else 'not met'} (max)"
        figures = f"p50 {statistics.median(times):.3f} s, p90 {p90:.3f} s, max {times[-1]:.3f} s"
        lines.append(f"{name:>8} {label:>20}: {len(times):3} photos, {figures}{verdict}")
    lines.append(f"{name:>8} load average {' '.join(run['loadavg'])}")
    return lines


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Lines naming each photo whose reading differs between the runs (every key, every item), then the count."""
    lines = []
    pairs = {r["photo"]: r for r in before["rows"]}
    differ = 0
    for row in after["rows"]:
        old = pairs.get(row["photo"])
        if old is None or old["result"] != row["result"]:
            differ += 1
            lines.append(f"differs: {row['photo']}")
    lines.append(f"{len(after['rows']) - differ} of {len(after['rows'])} photos read exactly the same, {differ} differ")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="*", type=Path, help="photos, or folders of them")
    parser.add_argument("--save", type=Path, help="write the times and every reading to this JSON file")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two saved runs")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        print("\n".join(compare(before, after) + summary(before, "before") + summary(after, "after")))
        return 0
    paths = photos(args.photos)
    if not paths:
        print("bench_read_time: no photos given", file=sys.stderr)
        return 2
    run = read_all(paths)
    if args.save:
        args.save.write_text(json.dumps(run))
    print("\n".join(summary(run, "read")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
