"""Fit the expert bot's outlook (papillon/engine/outlook.py) on positions of bots' games, and write its weights.

    nice -n 10 python bench/fit_outlook.py [--games 150] [--master 5] [--bot search,expert] [--jobs 2] [--ridge 1.0] [--data FILE]

Each bot of ``--bot`` plays ``--games`` solo games of the standard edition, game ``i`` on the seed
``game_seed(master, i)`` (master 5: seeds the bench's measurement, master 2026, never sees), and
keeps every position where a line of the expert's look-ahead ends (after a start, a round bonus or a
turn): the outlook's signs there, the turns left, and the points the garden gained from there to the
end.  Two policies' games, search's and the expert's, judge positions better than either's alone
(docs/ENGINE.md, "Bots"): each policy reaches positions the other avoids (the expert never draws a
Bird Feeder, search builds fewer patches), and the fit must rank them all.  The weights of
``(a·t + b·t²) × sign`` are the ridge least squares fit of those gains (``--ridge`` on the squared
weights), written to papillon/engine/outlook_weights.py.  ``--data`` keeps the positions (JSON
lines) and refits from them when the file exists.  The expert plays with the weights of the time:
the kept weights' expert games were played with the weights before them (fitted on its own games on
``game_seed(3, i)``), so a run from scratch today gives other positions.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from papillon.edition import standard_edition
from papillon.engine import make_bot, new_game
from papillon.engine.log import GameLog, game_seed, step
from papillon.engine.outlook import signs, turns_left

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "papillon" / "engine" / "outlook_weights.py"


def positions(master: int, index: int, bot: str = "expert") -> list[dict[str, Any]]:
    """The look-ahead's end positions of one game, each with the points gained from there to the end."""
    seed = game_seed(master, index)
    edition = standard_edition()
    agent = make_bot(bot)
    state = new_game([bot], edition)
    log = GameLog(seed, edition, [{"name": bot, "bot": bot}])
    found = []
    while not state.is_over():
        deciding, start = state.player, state.round
        state = step(state, log, [agent])
        if deciding == 0 and (state.player != 0 or state.round != start):
            found.append({"t": turns_left(state), "score": state.score(0), "signs": signs(state, 0)})
    final = state.score(0)
    for position in found:
        position["gain"] = final - position.pop("score")
    return [p for p in found if p["t"] > 0]


def fit(data: list[dict[str, Any]], ridge: float) -> dict[str, tuple[float, float]]:
    names = sorted({name for p in data for name in p["signs"]})
    rows = []
    for p in data:
        t = p["t"]
        rows.append([v for name in names for v in (t * p["signs"].get(name, 0.0), t * t * p["signs"].get(name, 0.0))])
    x = np.array(rows, dtype=float)
    y = np.array([p["gain"] for p in data], dtype=float)
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    solved = np.linalg.solve(xs.T @ xs + ridge * np.eye(xs.shape[1]), xs.T @ y) / scale
    residual = y - x @ solved
    print(f"{len(data)} positions, {len(names)} signs: gain mean {y.mean():.2f}, sd {y.std():.2f}, residual sd {residual.std():.2f}")
    return {name: (round(float(solved[2 * i]), 5), round(float(solved[2 * i + 1]), 6)) for i, name in enumerate(names)}


def write(weights: dict[str, tuple[float, float]], note: str) -> None:
    lines = [
        f'"""Written by bench/fit_outlook.py ({note}): rerun it, do not edit."""',
        "",
        "WEIGHTS: dict[str, tuple[float, float]] = {",
        *(f"    {json.dumps(name)}: {weight!r}," for name, weight in weights.items()),
        "}",
        '"""Each sign\'s (a, b): it weighs a·t + b·t² with t turns left (papillon.engine.outlook)."""',
        "",
    ]
    handle, name = tempfile.mkstemp(dir=WEIGHTS_FILE.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as out:
        out.write("\n".join(lines))
    os.replace(name, WEIGHTS_FILE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games per bot")
    parser.add_argument("--master", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--bot", default="search,expert", help="the bots whose games are fitted on, comma-separated")
    parser.add_argument("--data", type=Path, help="positions file (JSON lines): refit from it if it exists, else write it")
    args = parser.parse_args()
    if args.data and args.data.exists():
        data = [json.loads(line) for line in args.data.read_text().splitlines()]
    else:
        data = []
        bots = args.bot.split(",")
        with ProcessPoolExecutor(args.jobs) as pool:
            for bot in bots:
                for game in pool.map(positions, [args.master] * args.games, range(args.games), [bot] * args.games):
                    data.extend(game)
        if args.data:
            args.data.write_text("".join(json.dumps(p) + "\n" for p in data))
    weights = fit(data, args.ridge)
    write(weights, f"{args.bot.replace(',', ' and ')} games on game_seed({args.master}, i), i < {args.games} each, ridge {args.ridge}")
    for name, weight in weights.items():
        print(f"  {name:18} {weight[0]:+.4f}·t {weight[1]:+.5f}·t²")


if __name__ == "__main__":
    main()
