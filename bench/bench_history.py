"""Measure the history's statistics on a large history (issue 23: the web history page took 34 s at 200,000 entries).

    python bench/bench_history.py                # 200,000 entries, 40 players, games of 2 to 4 and bots
    python bench/bench_history.py -n 20000 --players 10

Builds the history in a temporary folder (made up here: random totals and categories from a fixed seed,
one edition's data stored once), then times what the page asks for: every player's statistics cold
(the first visit), warm (every other visit), after one entry is added (brought up to date), one
player's newest 50 entries, every entry, and (``--old``) the old way: ``player_stats`` over all
entries, once per player.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from papillon.edition import standard_edition
from papillon.history import Entry, History, player_stats
from papillon.score import CATEGORIES


def build(path: Path, count: int, players: int, seed: int) -> None:
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(players)]
    entries, game = [], 0
    while len(entries) < count:
        game += 1
        for name in rng.sample(names, rng.randint(1, 4)):
            cats = {c: rng.randint(0, 12) for c in CATEGORIES}
            day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T20:00:00Z"
            entries.append(Entry(name, sum(cats.values()), cats, "play", day, edition_data=standard_edition().data, game=f"g{game}"))
    History(path).add_many(entries[:count])
    with sqlite3.connect(path) as db:  # a bot in every third game
        db.executemany("INSERT INTO opponents VALUES (?, 0, 'greedy bot', ?)", [(f"g{g}", rng.randint(30, 80)) for g in range(1, game, 3)])


def timed(label: str, work) -> object:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = work()
    print(f"{label:<44} {time.perf_counter() - start:8.3f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000, help="entries [200000]")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--old", action="store_true", help="also time the old way (minutes at 200,000 entries)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.sqlite3"
        timed(f"build {args.n} entries", lambda: build(path, args.n, args.players, args.seed))
        history = History(path)
        timed("all players' statistics, cold", history.all_stats)
        timed("all players' statistics, warm", history.all_stats)
        history.add(
            Entry("Player 1", 50, {c: 7 for c in CATEGORIES[:-1]} | {CATEGORIES[-1]: 8}, "typed", "2026-12-01T20:00:00Z", game="g1")
        )
        timed("... after one entry added (caught up)", history.all_stats)
        timed("one player's newest 50 entries", lambda: history.entries("Player 1", last=50))
        entries = timed("every entry (History.entries)", history.entries)
        if args.old:
            names = sorted({e.player for e in entries})  # type: ignore[attr-defined]
            timed("old: player_stats per player", lambda: [player_stats(entries, n) for n in names])  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
