"""Benchmark: the expert bot against the search bot, paired by seed, and the expert's thinking time (issue 22).

    nice -n 10 python bench/bench_expert.py [--games 200] [--master 2026] [--jobs 2] [--json] [--bots expert,search]

Every bot plays the same solo games of the standard edition, game ``i`` on the seed
``game_seed(master, i)``; the expert was tuned on masters 1 and 7 to 19 (docs/ENGINE.md says
which seeds of each) and its outlook fitted on ``game_seed(5, i)``, i < 150 (bench/fit_outlook.py),
so masters 2026 and up measure it on seeds it was never tuned on.  Printed: each bot's average, the paired
difference expert − search (the mean of the per-seed differences, with its standard error),
and the expert's CPU time per decision (``time.process_time``: what one core gives, whatever
the neighbours do) at p50, p90 and max, and per turn (every decision of one round).
Goals: the expert at least 8 points above search, its decisions and turns under 1 s at p90.
The load average is printed beside the figures.

``--variants search,search16,expert2x`` plays bench-only variants instead (:data:`VARIANTS`: the
search bot with more rollouts, the expert with more exploring lines, paired against ``search``) and
prints each one's average, its paired difference with search and its points per category: where
the ceiling of more search lies (issue 22).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from papillon.engine import GameState, make_bot, play_game
from papillon.engine.bots import Bot, SearchBot
from papillon.engine.evaluate import board_categories
from papillon.engine.expert import ExpertBot
from papillon.engine.log import game_seed

BOTS = ("random", "greedy", "search", "expert")

VARIANTS: dict[str, Callable[[], Bot]] = {
    "search": SearchBot,
    "search4": lambda: SearchBot(rollouts=4),
    "search8": lambda: SearchBot(rollouts=8),
    "search16": lambda: SearchBot(rollouts=16),
    "expert": ExpertBot,
    "expert2x": lambda: ExpertBot(explore=3),
    "expert4x": lambda: ExpertBot(explore=7),
    "expert_margin0": lambda: ExpertBot(margin=0.0),
}
"""Bench-only bots by name: search with 2x, 4x, 8x its rollouts; the expert with 2x, 4x its lines, and with its
exploring lines counted at their full worth."""


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


def play(master: int, index: int, bots: tuple[str, ...] = BOTS) -> dict[str, Any]:
    """One seed: each of ``bots``' scores (the expert and search among them), and the expert's decision and turn times."""
    seed = game_seed(master, index)
    scores = {}
    for name in bots:
        if name == "expert":
            timed = Timed(name)
            state, _ = play_game(seed, [timed])
            decisions, turns = timed.decisions, list(timed.turns.values())
        else:
            state, _ = play_game(seed, [make_bot(name)])
        scores[name] = state.score(0)
    return {"index": index, "seed": seed, "scores": scores, "decisions": decisions, "turns": turns}


def play_variants(master: int, index: int, names: tuple[str, ...]) -> dict[str, Any]:
    """One seed: each variant's score, points per category and CPU seconds for the game."""
    seed = game_seed(master, index)
    found = {}
    for name in names:
        start = time.process_time()
        state, _ = play_game(seed, [VARIANTS[name]()])
        categories = board_categories(state.boards[0], state.edition)
        found[name] = {"score": state.score(0), "categories": categories, "cpu_s": time.process_time() - start}
    return found


def compare_variants(master: int, games: int, jobs: int, names: tuple[str, ...]) -> None:
    names = tuple(dict.fromkeys(("search", *names)))
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(play_variants, [master] * games, range(games), [names] * games))
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    print(f"{games} solo games, seeds game_seed({master}, i), load average {' '.join(load)}")
    for name in names:
        diffs = [r[name]["score"] - r["search"]["score"] for r in results]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        average = statistics.mean(r[name]["score"] for r in results)
        cpu = statistics.mean(r[name]["cpu_s"] for r in results)
        per = {c: round(statistics.mean(r[name]["categories"][c] for r in results), 2) for c in results[0][name]["categories"]}
        print(f"  {name:9} average {average:6.2f}, - search {statistics.mean(diffs):+.2f} ± {error:.2f}, {cpu:.2f} s CPU a game, {per}")


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
        "averages": {name: round(statistics.mean(g["scores"][name] for g in games), 2) for name in BOTS if name in games[0]["scores"]},
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
    parser.add_argument("--bots", default=",".join(BOTS), help="bots to play, expert and search among them (expert,search saves time)")
    parser.add_argument("--out", type=Path, help="also write each seed's result to this JSON-lines file as it comes")
    parser.add_argument("--summarise", type=Path, help="only summarise the seeds of an --out file (of a run cut short)")
    parser.add_argument("--variants", help=f"compare bench-only variants with search instead: some of {', '.join(VARIANTS)}")
    args = parser.parse_args()
    if args.variants:
        wanted = tuple(args.variants.split(","))
        unknown = [name for name in wanted if name not in VARIANTS]
        if unknown:
            parser.error(f"unknown variant {unknown[0]!r}: expected some of {', '.join(VARIANTS)}")
        compare_variants(args.master, args.games, args.jobs, wanted)
        return
    bots = tuple(name for name in BOTS if name in args.bots.split(","))
    if not {"expert", "search"} <= set(bots):
        parser.error(f"--bots {args.bots!r}: expected expert and search among some of {', '.join(BOTS)}")
    if args.summarise:
        games = [json.loads(line) for line in args.summarise.read_text().splitlines()]
    else:
        games = []
        with ProcessPoolExecutor(args.jobs) as pool, args.out.open("w") if args.out else open(os.devnull, "w") as out:
            for game in pool.map(play, [args.master] * args.games, range(args.games), [bots] * args.games):
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
