"""Games per second of a balance run on a local Dask cluster of 1 and of 2 worker processes.

    python bench/bench_balance.py [-n GAMES] [--bot greedy]

Plays the same seeds under the standard edition and `scoring.enclosed=2` (the
`papillon balance --set scoring.enclosed=1,2` run) on each cluster, checks that
both clusters and one plain process give the same results, and prints games/s
and the 2-worker / 1-worker ratio.  The ratio is bounded by the free cores: the
machine's load average is printed with it, because other work on the machine
takes cores away from the workers.  Needs papillon's `cluster` extra.
"""

from __future__ import annotations

import argparse
import os
import time

from papillon.balance import Collector, build_variants, parse_set, play, summarise
from papillon.simulation import cluster_workers


def timed_run(games: int, bot: str, workers_count: int | None) -> tuple[float, str]:
    """Seconds to play the run (cluster start-up excluded) and its JSON report."""
    variants = build_variants([], [parse_set("scoring.enclosed=1,2")], bot)
    collector = Collector(variants)
    if workers_count is None:
        start = time.perf_counter()
        for number, result in play(variants, 1, games):
            collector.add(number, result)
        seconds = time.perf_counter() - start
    else:
        with cluster_workers("local", workers_count) as workers:
            start = time.perf_counter()
            for number, result in play(variants, 1, games, workers):
                collector.add(number, result)
            seconds = time.perf_counter() - start
    return seconds, summarise(collector, 1, games).json_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=200, help="games per variant (2 variants)")
    parser.add_argument("--bot", default="greedy")
    options = parser.parse_args()
    played = 2 * options.games
    print(f"{played} games ({options.games} seeds x 2 variants), bot {options.bot}, {os.cpu_count()} cores")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rates = {}
    reports = {}
    for label, count in (("1 process, no cluster", None), ("local cluster, 1 worker", 1), ("local cluster, 2 workers", 2)):
        seconds, reports[label] = timed_run(options.games, options.bot, count)
        rates[label] = played / seconds
        print(f"{label:<26} {seconds:8.2f} s  {rates[label]:8.1f} games/s")
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"2 workers / 1 worker: {rates['local cluster, 2 workers'] / rates['local cluster, 1 worker']:.2f}x")
    print("same JSON report from all three:", len(set(reports.values())) == 1)


if __name__ == "__main__":
    main()
