"""Benchmark: the bots' games per CPU-second and the rule designer's job, this tree against main 836464b, in one run.

    python bench/bench_engine.py [--rounds 2] [--baseline 836464b] [--balance-games 400] [--skip-balance]
    python bench/bench_engine.py --instructions   # instructions counted by valgrind, not seconds (fewer games)
    python bench/bench_engine.py --averages [--games 200] [--jobs 2]   # each bot's average score (issue 4)

Goals (issue 18): greedy at least 3x main's solo games per CPU-second, and 3x for four
players; search at least 3x; random at least 2x; ``papillon balance standard --set
scoring.enclosed=1,2 -n 400 --json`` with default options at least 6x faster (wall) than
main's defaults, and at most 30 s on a quiet 2-core machine; the search bot's turn in
``papillon play`` p90 under 50 ms.

Both trees run with the same Python: the baseline is a checkout of ``--baseline`` in a
temporary git worktree, put first on PYTHONPATH; each measurement runs in a fresh process
of each tree, the two alternating, ``--rounds`` times, and the best is kept.  Speed is CPU
time (what one core gives, whatever the neighbours on a shared machine do); the balance job
is timed on the wall (it uses every core) and its CPU time, children included, is shown
too.  ``--instructions`` counts what each tree executes for the same games instead
(valgrind's callgrind, a fixed hash seed): the same on a busy machine, though not time.
Every measurement also hashes the game logs (or the JSON report): the two trees
must give the same bytes, or the run stops.  The games are the seeded games
``game_seed(99, i)``; nothing was tuned on them.  The load average is printed beside
every figure.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIN_WHEN_FILED = "836464b"
"""main when issue 18 was filed: the speed goals are measured against it."""

GAMES = """
import hashlib, json, sys, time
from papillon.engine import make_bot, play_game
from papillon.engine.log import game_seed
bots, games = sys.argv[1].split(","), int(sys.argv[2])
digest = hashlib.sha256()
start = time.process_time()
for i in range(games):
    state, log = play_game(game_seed(99, i), [make_bot(bot) for bot in bots])
    digest.update(log.text().encode())
print(json.dumps({"cpu": time.process_time() - start, "digest": digest.hexdigest()}))
"""
"""Plays ``games`` seeded games with one bot per seat; prints its CPU seconds and a hash of the logs."""

TURNS = """
import hashlib, json, random, sys, time
from papillon.engine import make_bot, play_game
from papillon.engine.log import game_seed
games = int(sys.argv[1])
turns, digest = [], hashlib.sha256()

class Timed:
    # The search bot, its CPU time summed over each of its turns (every decision from the pair to the end).
    name = "search"
    def __init__(self):
        self.bot, self.turn, self.spent = make_bot("search"), None, 0.0
    def choose(self, state, rng):
        turn = (state.round, state.stage)
        if turn != self.turn:
            if self.turn is not None:
                turns.append(self.spent)
            self.turn, self.spent = turn, 0.0
        start = time.process_time()
        action = self.bot.choose(state, rng)
        self.spent += time.process_time() - start
        return action

for i in range(games):
    bot = Timed()
    state, log = play_game(game_seed(99, i), [bot, make_bot("greedy")])
    turns.append(bot.spent)
    digest.update(log.text().encode())
turns.sort()
print(json.dumps({"p90": turns[int(0.9 * (len(turns) - 1))], "median": turns[len(turns) // 2], "turns": len(turns),
                  "digest": digest.hexdigest()}))
"""
"""The search bot's turns against greedy, as ``papillon play`` asks them: p90 and median CPU seconds per turn."""


def load() -> str:
    return "load " + " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "load ?"


def python(tree: Path, code: str, *args: str, counted: bool = False) -> dict[str, float | str]:
    """Run ``code`` with papillon from ``tree``; with ``counted``, under valgrind, adding the instructions it executed."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] if counted else []
    result = subprocess.run([*valgrind, sys.executable, "-c", code, *args], cwd=tree, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{tree}: {result.stderr[-800:]}")
    found: dict[str, float | str] = json.loads(result.stdout)
    if counted:
        count = re.search(r"Collected : (\d+)", result.stderr)
        if not count:
            raise SystemExit(f"{tree}: valgrind counted nothing: {result.stderr[-500:]}")
        found["instructions"] = int(count[1])
    return found


def instructions(trees: dict[str, Path], bots: str, games: int, goal: float) -> None:
    """Instructions per game of each tree: ``games`` games less none (the start-up, imports included)."""
    for tree in trees.values():  # once first, so that no count includes compiling to bytecode
        python(tree, GAMES, bots, "0")
    found = {name: python(tree, GAMES, bots, str(games), counted=True) for name, tree in trees.items()}
    same({name: str(f["digest"]) for name, f in found.items()}, bots)
    start = {name: int(python(tree, GAMES, bots, "0", counted=True)["instructions"]) for name, tree in trees.items()}
    per_game = {name: (int(f["instructions"]) - start[name]) / games for name, f in found.items()}
    print(f"{bots}, {games} games, instructions per game, start-up left out ({load()}):")
    for name, count in per_game.items():
        print(f"  {name:<16} {count / 1e6:8.1f} M   (start-up {start[name] / 1e6:.0f} M)")
    old, new = per_game.values()
    print(f"  fewer instructions {old / new:.2f}x (goal {goal:g}x); logs byte-identical")


def command(tree: Path, args: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (children included) of ``python -m papillon ARGS`` importing papillon from ``tree``, and its output."""
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "papillon", *args], cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{tree}: papillon {' '.join(args)} failed: {result.stderr[-800:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stdout


def same(outputs: dict[str, str], what: str) -> None:
    if len(set(outputs.values())) != 1:
        raise SystemExit(f"{what}: the two trees did not give the same bytes")


def games_per_cpu_second(trees: dict[str, Path], bots: str, games: int, rounds: int, goal: float) -> None:
    best: dict[str, float] = {}
    digests: dict[str, str] = {}
    loads = []
    for _ in range(rounds):
        for name, tree in trees.items():
            loads.append(load())
            found = python(tree, GAMES, bots, str(games))
            best[name] = min(best.get(name, float("inf")), float(found["cpu"]))
            digests[name] = str(found["digest"])
    same(digests, bots)
    (old_name, old), (new_name, new) = best.items()
    seats = len(bots.split(","))
    print(f"{bots} ({seats} {'seat' if seats == 1 else 'seats'}), {games} games, best of {rounds} ({loads[0]} .. {loads[-1]}):")
    print(f"  {old_name:<16} {games / old:8.2f} games per CPU second")
    print(f"  {new_name:<16} {games / new:8.2f} games per CPU second")
    print(f"  speed-up {old / new:.2f}x (goal {goal:g}x): {'met' if old / new >= goal else 'NOT met'}; logs byte-identical")


def search_turns(trees: dict[str, Path], games: int) -> None:
    found = {name: python(tree, TURNS, str(games)) for name, tree in trees.items()}
    same({name: str(f["digest"]) for name, f in found.items()}, "search turns")
    print(f"search bot's turn against greedy, {games} games ({load()}):")
    for name, f in found.items():
        print(f"  {name:<16} p90 {1000 * float(f['p90']):6.1f} ms   median {1000 * float(f['median']):6.1f} ms CPU over {f['turns']} turns")
    new_p90 = 1000 * float(list(found.values())[1]["p90"])
    print(f"  goal p90 < 50 ms: {'met' if new_p90 < 50 else 'NOT met'}")


def balance(trees: dict[str, Path], games: int) -> None:
    args = ["balance", "standard", "--set", "scoring.enclosed=1,2", "-n", str(games), "--json"]
    outputs = {}
    timings = {}
    for name, tree in trees.items():
        before = load()
        wall, cpu, outputs[name] = command(tree, args)
        timings[name] = (wall, cpu, before)
    same(outputs, "balance")
    print(f"papillon {' '.join(args)} (default options: main --jobs 1, this tree every CPU it may use):")
    for name, (wall, cpu, before) in timings.items():
        print(f"  {name:<16} wall {wall:7.1f} s   CPU {cpu:7.1f} s   ({before})")
    (old_wall, old_cpu, _), (new_wall, new_cpu, _) = timings.values()
    print(f"  speed-up: wall {old_wall / new_wall:.2f}x (goal 6x), CPU {old_cpu / new_cpu:.2f}x; report byte-identical")


def averages(games: int, jobs: int) -> None:
    """Each bot's average score over the same seeds as ``papillon simulate --seed 1`` (issue 4: search beats greedy)."""
    from multiprocessing import Pool

    with Pool(jobs) as pool:
        for bot in ("random", "greedy", "search"):
            start = time.perf_counter()
            scores = pool.map(_score_of, [(bot, i) for i in range(games)], chunksize=4)
            q1, median, q3 = statistics.quantiles(scores, n=4, method="inclusive")
            print(
                f"{bot:>7}: average {statistics.fmean(scores):6.2f} over {games} seeds"
                f" (Q1 {q1:g}, median {median:g}, Q3 {q3:g}; {time.perf_counter() - start:.1f} s with {jobs} jobs)"
            )


def _score_of(job: tuple[str, int]) -> int:
    from papillon.engine import make_bot, play_game
    from papillon.engine.log import game_seed

    bot, index = job
    return play_game(game_seed(1, index), [make_bot(bot)])[0].score(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", default=MAIN_WHEN_FILED, help="the commit to compare with")
    parser.add_argument("--balance-games", type=int, default=400)
    parser.add_argument("--skip-balance", action="store_true")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of timing")
    parser.add_argument("--averages", action="store_true", help="print each bot's average score instead")
    parser.add_argument("--games", type=int, default=200, help="seeds for --averages")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --averages")
    args = parser.parse_args()
    if args.averages:
        averages(args.games, args.jobs)
        return
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline], check=True)
        try:
            trees = {f"main ({args.baseline})": base, "this tree": ROOT}
            if args.instructions:
                for bots, games, goal in (("random", 60, 2), ("greedy", 8, 3), ("greedy,greedy,greedy,greedy", 2, 3), ("search", 1, 3)):
                    instructions(trees, bots, games, goal)
                return
            games_per_cpu_second(trees, "random", 400, args.rounds, 2)
            games_per_cpu_second(trees, "greedy", 60, args.rounds, 3)
            games_per_cpu_second(trees, "greedy,greedy,greedy,greedy", 15, args.rounds, 3)
            games_per_cpu_second(trees, "search", 4, args.rounds, 3)
            search_turns(trees, 3)
            if not args.skip_balance:
                balance(trees, args.balance_games)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=True)


if __name__ == "__main__":
    main()
