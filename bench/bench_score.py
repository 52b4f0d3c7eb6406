"""Benchmark: `papillon score --json` on 3,000 random gardens, this tree against today's main, in one run.

    python bench/bench_score.py [--count 3000] [--seed 1] [--rounds 3] [--baseline 61d302c]
    python bench/bench_score.py --instructions   # instructions counted by valgrind, not seconds
    python bench/bench_score.py --library   # the scorer alone on in-memory gardens (gardens/s)

Goal (issue 10): the whole command, start-up included, at least 3x today's main on this seeded
corpus, and one file scored well under 0.18 s.  Both trees run with the same Python: the baseline is
a checkout of the ``--baseline`` commit (by default main as it was when issue 10 was filed) in a
temporary git worktree, put first on PYTHONPATH.  Each command runs ``--rounds`` times, the two
trees alternating; the best wall time and the CPU time (user + system) of each are printed, since on
a shared machine the wall time also measures the neighbours.  ``--instructions`` counts the
instructions each command executes (valgrind's callgrind, about a minute a tree): the same on a busy
machine, though not time (a system call costs more than its count says).  The corpus is generated here (half
the gardens get a brick ring, half of those a patch inside it, so the shapely path runs often);
nothing was tuned on it.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from papillon import EDGES, Garden, score
from papillon.grid import SIZE, plot_at

ROOT = Path(__file__).resolve().parent.parent
MAIN_WHEN_FILED = "61d302c"
"""main when issue 10 was filed: the speed goal is measured against it."""

CODES = [".", "R", "B", "Y", "P", "X", "F", "lb", "bb", "hh", "po", "sh", "bf", "tr", "fp", "ha", "gz"]
WEIGHTS = [4, 5, 5, 5, 5, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
"""Codes both trees accept: the Birdhouse (``bh``) left the standard edition after main was measured."""


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


def write_corpus(folder: Path, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        path = folder / f"g{i:05d}.garden"
        path.write_text(random_garden(rng).to_notation(), encoding="utf-8")
        paths.append(str(path))
    return paths


def instructions(tree: Path, args: list[str]) -> int:
    """Instructions ``python -m papillon ARGS`` executes importing papillon from ``tree`` (valgrind's count)."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}  # a fixed hash seed: the same count each run
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m", "papillon", *args]
    result = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not found:
        raise SystemExit(f"{tree}: valgrind failed: {result.stderr[-500:]}")
    return int(found[1])


def run(tree: Path, args: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of ``python -m papillon ARGS`` importing papillon from ``tree``; its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "papillon", *args], cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}, capture_output=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{tree}: papillon {args[:2]} failed: {result.stderr.decode()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stdout


def compare(trees: dict[str, Path], args: list[str], rounds: int) -> dict[str, tuple[float, float]]:
    best: dict[str, tuple[float, float]] = {}
    outputs = {}
    for _ in range(rounds):
        for name, tree in trees.items():
            wall, cpu, out = run(tree, args)
            old = best.get(name, (float("inf"), float("inf")))
            best[name] = (min(old[0], wall), min(old[1], cpu))
            outputs[name] = out
    # Not the same scores: the rules changed after main was measured (feature scoring), so each tree
    # only has to score every garden, one JSON line each; tests/ check that the scores are right.
    if {out.count(b"\n") for out in outputs.values()} != {len(args) - 2}:
        raise SystemExit("a tree did not print one line per garden")
    return best


def library(count: int, seed: int) -> None:
    rng = random.Random(seed)
    gardens = [random_garden(rng) for _ in range(count)]
    start = time.perf_counter()
    enclosed = sum(score(g).categories["enclosed"] > 0 for g in gardens)
    elapsed = time.perf_counter() - start
    print(f"scored {len(gardens)} gardens in {elapsed:.2f} s: {len(gardens) / elapsed:,.0f} gardens/s ({enclosed} with an enclosed patch)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default=MAIN_WHEN_FILED, help="the commit to compare with")
    parser.add_argument("--library", action="store_true", help="time the scorer alone, in memory")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of timing")
    args = parser.parse_args()
    if args.library:
        library(args.count, args.seed)
        return
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline], check=True)
        try:
            corpus = write_corpus(Path(temp), args.count, args.seed)
            trees = {f"main ({args.baseline})": base, "this tree": ROOT}
            for label, files in ((f"{args.count} gardens", corpus), ("1 garden", corpus[:1])):
                if args.instructions:
                    for tree in trees.values():  # once first, so that neither count includes compiling to bytecode
                        run(tree, ["score", "--json", *files])
                    counts = {name: instructions(tree, ["score", "--json", *files]) for name, tree in trees.items()}
                    print(f"score --json, {label}: " + ", ".join(f"{name} {count / 1e9:.3f} G" for name, count in counts.items()))
                    old_count, new_count = counts.values()
                    print(f"  fewer instructions: {old_count / new_count:.2f}x")
                    continue
                best = compare(trees, ["score", "--json", *files], args.rounds)
                (old_wall, old_cpu), (new_wall, new_cpu) = best.values()
                print(f"score --json, {label} (best of {args.rounds}):")
                for name, (wall, cpu) in best.items():
                    print(f"  {name:<18} wall {wall:6.2f} s   cpu {cpu:6.2f} s   ({len(files) / cpu:,.0f} gardens per cpu second)")
                print(f"  speed-up: wall {old_wall / new_wall:.2f}x, cpu {old_cpu / new_cpu:.2f}x")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True)


if __name__ == "__main__":
    main()
