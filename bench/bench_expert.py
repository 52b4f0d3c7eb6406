"""Benchmark: the expert bot against the search bot, paired by seed, and the expert's thinking time (issue 22).

    nice -n 10 python bench/bench_expert.py [--games 200] [--master 2026] [--jobs 2] [--json]

Every bot plays the same solo games of the standard edition, game ``i`` on the seed
``game_seed(master, i)``; the expert was tuned on ``game_seed(1, i)``, i < 30, and its outlook
fitted on ``game_seed(3, i)``, i < 150 (bench/fit_outlook.py), so the default master 2026
measures it on seeds it never saw.  Printed: each bot's average, the paired
difference expert − search (the mean of the per-seed differences, with its standard error),
and the expert's CPU time per decision (``time.process_time``: what one core gives, whatever
the neighbours do) at p50, p90 and max, and per turn (every decision of one round).
Goals: the expert at least 8 points above search, its decisions and turns under 1 s at p90.
The load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from papillon.engine import GameState, make_bot, play_game
from papillon.engine.log import game_seed

BOTS = ("random", "greedy", "search", "expert")


class Timed:
    """A bot whose every decision's CPU time is kept, and summed by round (its turn)."""

    def __init__(self, name: str) -> None:
        self.bot = make_bot(name)
        self.name = name
        self.decisions: list[float] = []
        self.turns: dict[int, float] = {}

    def choose(self, state: GameState, rng: Any) -> Any:
        start = time.process_time()
        action = self.bot.choose(state, rng)
        spent = time.process_time() - start
        self.decisions.append(spent)
        self.turns[state.round] = self.turns.get(state.round, 0.0) + spent
        return action


def play(master: int, index: int) -> dict[str, Any]:
    """One seed: every bot's score, and the expert's decision and turn times."""
    seed = game_seed(master, index)
    scores = {}
    for name in BOTS:
        if name == "expert":
            timed = Timed(name)
            state, _ = play_game(seed, [timed])
            decisions, turns = timed.decisions, list(timed.turns.values())
        else:
            state, _ = play_game(seed, [make_bot(name)])
        scores[name] = state.score(0)
    return {"index": index, "seed": seed, "scores": scores, "decisions": decisions, "turns": turns}


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(times: list[float]) -> dict[str, float]:
    return {"p50": round(quantile(times, 0.5), 4), "p90": round(quantile(times, 0.9), 4), "max": round(max(times), 3)}


def summary(games: list[dict[str, Any]], master: int) -> dict[str, Any]:
    diffs = [g["scores"]["expert"] - g["scores"]["search"] for g in games]
    decisions = [t for g in games for t in g["decisions"]]
    turns = [t for g in games for t in g["turns"]]
    return {
        "seeds": f"game_seed({master}, i), i < {len(games)}",
        "averages": {name: round(statistics.mean(g["scores"][name] for g in games), 2) for name in BOTS},
        "expert_minus_search": round(statistics.mean(diffs), 2),
        "standard_error": round(statistics.stdev(diffs) / len(diffs) ** 0.5, 2) if len(diffs) > 1 else None,
        "expert_wins": sum(d > 0 for d in diffs),
        "decision_cpu_s": spread(decisions),
        "turn_cpu_s": spread(turns),
        "load_average": Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--master", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--out", type=Path, help="also write each seed's result to this JSON-lines file as it comes")
    parser.add_argument("--summarise", type=Path, help="only summarise the seeds of an --out file (of a run cut short)")
    args = parser.parse_args()
    if args.summarise:
        games = [json.loads(line) for line in args.summarise.read_text().splitlines()]
    else:
        games = []
        with ProcessPoolExecutor(args.jobs) as pool, args.out.open("w") if args.out else open(os.devnull, "w") as out:
            for game in pool.map(play, [args.master] * args.games, range(args.games)):
                games.append(game)
                out.write(json.dumps(game) + "\n")
                out.flush()
    result = summary(games, args.master)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{len(games)} solo games, seeds {result['seeds']}, load average {' '.join(result['load_average'] or [])}")
    for name, average in result["averages"].items():
        print(f"  {name:7} average {average:6.2f}")
    paired = f"{result['expert_minus_search']:+.2f} ± {result['standard_error']}"
    print(f"  expert - search: {paired} (paired, standard error); expert ahead on {result['expert_wins']} seeds")
    d, t = result["decision_cpu_s"], result["turn_cpu_s"]
    print(f"  expert CPU per decision: p50 {d['p50']} s, p90 {d['p90']} s, max {d['max']} s")
    print(f"  expert CPU per turn:     p50 {t['p50']} s, p90 {t['p90']} s, max {t['max']} s")


if __name__ == "__main__":
    main()
