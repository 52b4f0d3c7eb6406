"""Benchmark: how long a game review takes, how uncertain it is, and whether it ranks play as the scores do.

    python bench/bench_review.py time [--jobs 2] [--seeds 3]      # 10-round games: solo and 3 seats
    python bench/bench_review.py ranking [--random 20] [--others 4] [--jobs 2]

Goals (issue 22): a review of a 10-round game under 30 s on the 2-core machine; the review ranks
play as the scores do (the random bot's games lose more than greedy's, which lose more than
search's; means of each solo game's ``lost_points``).  Times are CPU seconds of the review, the
worker processes included (``resource.getrusage`` of the children), and the wall seconds beside
them with the load average: on a shared machine the wall depends on the neighbours, the CPU time
much less.  The games are ``game_seed(7, i)`` of ``play_game``; nothing was tuned on them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time

from papillon.engine import make_bot, play_game
from papillon.engine.log import game_seed
from papillon.game_review import review


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def one(bot: str, seats: int, index: int, jobs: int) -> dict[str, object]:
    seed = game_seed(7, index)
    _, log = play_game(seed, [make_bot(bot) for _ in range(seats)])
    cpu, wall = _cpu(), time.perf_counter()
    result = review(log, jobs=jobs)
    cpu, wall = _cpu() - cpu, time.perf_counter() - wall
    errors = [d.stderr for d in result.decisions if d.coach != d.action]
    return {
        "bot": bot,
        "seats": seats,
        "seed": seed,
        "scores": log.end["scores"] if log.end else None,
        "decisions": len(result.decisions),
        "agree": sum(1 for d in result.decisions if d.coach == d.action),
        "median_stderr": round(statistics.median(errors), 2) if errors else 0.0,
        "lost_points": result.lost_points,
        "cpu": round(cpu, 1),
        "wall": round(wall, 1),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["time", "ranking"])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--random", type=int, default=20)
    parser.add_argument("--others", type=int, default=4)
    args = parser.parse_args()
    if args.what == "time":
        for seats in (1, 3):
            for i in range(args.seeds):
                print(json.dumps(one("greedy", seats, i, args.jobs)), flush=True)
        return
    means = {}
    for bot, count in (("random", args.random), ("greedy", args.others), ("search", args.others)):
        lost = []
        for i in range(count):
            row = one(bot, 1, i, args.jobs)
            print(json.dumps(row), flush=True)
            lost.append(row["lost_points"][0])  # type: ignore[index]
        means[bot] = statistics.mean(lost)
        se = statistics.stdev(lost) / len(lost) ** 0.5 if len(lost) > 1 else 0.0
        print(json.dumps({"bot": bot, "games": count, "mean_lost": round(means[bot], 2), "se": round(se, 2)}), flush=True)
    ranked = means["random"] > means["greedy"] > means["search"]
    print(json.dumps({"ranks_as_scores": ranked, **{k: round(v, 2) for k, v in means.items()}}))


if __name__ == "__main__":
    main()
