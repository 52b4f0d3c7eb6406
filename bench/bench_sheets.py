"""Speed and size of printable pads: the goal is a 100-sheet pad in under 3 s and under 1 MB.

Run:  python bench/bench_sheets.py            (prints one line per case)
      python bench/bench_sheets.py --check    (exits 1 if the 100-sheet pad misses the goal)

Each case is timed in-process, best of 3, after one warm-up run (fonts registered,
layouts cached), and once more cold in a fresh interpreter for the default pad.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable

from papillon.render.pdf import sheets_pdf

GOAL_S = 3.0
GOAL_BYTES = 1_000_000

CASES: dict[str, Callable[[], bytes]] = {
    "1 sheet (garden+fill)": lambda: sheets_pdf(copies=1),
    "100-sheet pad (garden+fill, 200 pages)": lambda: sheets_pdf(copies=100),
    "100-sheet pad, mono, 2 per page": lambda: sheets_pdf(copies=100, mono=True, per_page=2),
    "100-sheet pad for 4 named players + score pads": lambda: sheets_pdf(
        copies=25, players=("Ann", "Ben", "Cleo", "Dev"), sides=("garden", "fill", "score")
    ),
}

COLD = (
    "import time; t = time.perf_counter(); from papillon.render.pdf import sheets_pdf; "
    "n = len(sheets_pdf(copies=100)); print(time.perf_counter() - t, n)"
)


def measure(make: Callable[[], bytes]) -> tuple[float, int]:
    make()
    best = float("inf")
    size = 0
    for _ in range(3):
        start = time.perf_counter()
        size = len(make())
        best = min(best, time.perf_counter() - start)
    return best, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the 100-sheet pad misses the goal")
    args = parser.parse_args()
    ok = True
    for name, make in CASES.items():
        seconds, size = measure(make)
        print(f"{name:<50} {seconds:6.3f} s  {size / 1000:8.1f} kB")
        if name.startswith("100-sheet pad (") and (seconds > GOAL_S or size > GOAL_BYTES):
            ok = False
    cold = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True).stdout.split()
    print(f"{'100-sheet pad, cold start (imports + fonts)':<50} {float(cold[0]):6.3f} s  {int(cold[1]) / 1000:8.1f} kB")
    if float(cold[0]) > GOAL_S:
        ok = False
    print(f"goal: under {GOAL_S} s and {GOAL_BYTES / 1e6:.0f} MB: {'met' if ok else 'MISSED'}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
