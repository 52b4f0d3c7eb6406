"""Benchmark: complete solo games per second by bot, and each bot's average score.

    python bench/bench_engine.py [--games 200] [--seed 1] [--jobs 2] [--skip-search]

Goals (issue 4): the random bot plays at least 200 complete solo games per
second on one core, greedy at least 20; the search bot beats greedy on
average over 200 seeds.  Speed is measured in this process (one core: CPU
time, so other work on a shared machine does not count), with the game log
kept as `papillon simulate` keeps it; the averages use the same per-game
seeds as `papillon simulate --seed`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool

from papillon.engine import make_bot, play_game
from papillon.engine.log import game_seed


def _one(job: tuple[str, int, int]) -> int:
    bot, master, index = job
    return play_game(game_seed(master, index), [make_bot(bot)])[0].score(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per bot for the averages")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the search bot's games")
    parser.add_argument("--skip-search", action="store_true")
    args = parser.parse_args()

    for bot, timed in (("random", 400), ("greedy", 60)):
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(timed):
            play_game(game_seed(99, i), [make_bot(bot)])
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        # CPU time is what "one core" means on a shared machine; wall time is shown too.
        print(f"{bot:>7}: {timed / used:8.1f} complete solo games/s of CPU time on one core ({timed / elapsed:.1f}/s wall, {timed} games)")

    bots = ["random", "greedy"] + ([] if args.skip_search else ["search"])
    for bot in bots:
        start = time.perf_counter()
        with Pool(args.jobs) as pool:
            scores = pool.map(_one, [(bot, args.seed, i) for i in range(args.games)], chunksize=4)
        elapsed = time.perf_counter() - start
        q1, median, q3 = statistics.quantiles(scores, n=4, method="inclusive")
        print(
            f"{bot:>7}: average {statistics.fmean(scores):6.2f} over {args.games} seeds"
            f" (Q1 {q1:g}, median {median:g}, Q3 {q3:g}; {elapsed:.1f} s with {args.jobs} jobs)"
        )


if __name__ == "__main__":
    main()
