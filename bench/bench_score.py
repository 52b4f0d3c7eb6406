"""Benchmark: score a batch of random gardens and print gardens per second.

    python bench/bench_score.py [--count 10000] [--seed 1]

Goal (issue 2): at least 5,000 gardens/s on one core, enclosures included.
Half of the gardens get a brick ring around a random rectangle, half of those a
patch grown inside it, so the shapely path (polygonize) runs often.
"""

from __future__ import annotations

import argparse
import random
import time

from papillon import EDGES, Garden, score
from papillon.grid import SIZE, plot_at

CODES = [".", "R", "B", "Y", "P", "X", "F", "lb", "bb", "hh", "po", "sh", "bf", "bh", "tr", "fp", "ha", "gz"]
WEIGHTS = [4, 5, 5, 5, 5, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]


def random_garden(rng: random.Random) -> Garden:
    rows = [[rng.choices(CODES, WEIGHTS)[0] + ("*" if rng.random() < 0.3 else "") for _ in range(SIZE)] for _ in range(SIZE)]
    bricks = set(rng.sample(EDGES, rng.randint(0, 8)))
    if rng.random() < 0.5:
        c0, r0 = rng.randint(0, 3), rng.randint(0, 3)
        c1, r1 = rng.randint(c0, 4), rng.randint(r0, 4)
        inside = {plot_at(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
        bricks |= {e for e in EDGES if (e.a in inside) != (e.b in inside)}
        if rng.random() < 0.5:  # a patch grown inside the ring
            colour = rng.choice("RBYP")
            for plot in inside:
                rows[plot // SIZE][plot % SIZE] = colour
    return Garden.from_codes(rows, bricks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    gardens = [random_garden(rng) for _ in range(args.count)]
    start = time.perf_counter()
    enclosed = sum(score(g).categories["enclosed"] > 0 for g in gardens)
    elapsed = time.perf_counter() - start
    print(f"scored {len(gardens)} gardens in {elapsed:.2f} s: {len(gardens) / elapsed:,.0f} gardens/s ({enclosed} with an enclosed patch)")


if __name__ == "__main__":
    main()
