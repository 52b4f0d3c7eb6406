"""Measurement: how often the bots enclose a patch, and what they score, in games of 1 to 4 players.

    python bench/bench_enclosures.py [--bot greedy] [--players 1,2,3,4] [--games 200] [--seed 1] [--jobs 2] [--set scoring.enclosed=2]

Every player of a game is the same bot; game ``i`` of each player count uses the
seed ``papillon simulate --seed`` gives game ``i``.  Per player count it prints
the mean total per player, the share of player-games with at least one enclosed
patch, and enclosed patches per player-game.  ``--set KEY=VALUE`` plays under a
variant of the standard edition (as ``papillon balance --set`` builds it).
"""

from __future__ import annotations

import argparse
import statistics
import time
from multiprocessing import Pool

from papillon.balance import build_variants, parse_set
from papillon.edition import Edition, edition_from_toml, standard_edition
from papillon.engine import play_game
from papillon.engine.log import game_seed
from papillon.simulation import make_player


def _edition(toml: str | None) -> Edition:
    return standard_edition() if toml is None else edition_from_toml(toml)


def _one(job: tuple[str, str | None, int, int, int]) -> list[tuple[int, int]]:
    """(total, enclosed patches) of each player of one game."""
    bot, toml, players, master, index = job
    agents = [make_player(bot) for _ in range(players)]
    state, _ = play_game(game_seed(master, index), agents, _edition(toml), names=[f"p{i}" for i in range(players)])
    result = []
    for player in range(players):
        card = state.score_card(player)
        result.append((card.total, sum(1 for patch in card.patches if patch.enclosed)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--players", default="1,2,3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", dest="setting", default=None, help="one KEY=VALUE of the edition")
    args = parser.parse_args()
    toml = None
    if args.setting:
        toml = build_variants([], [parse_set(args.setting)], args.bot)[0].toml
    print(f"bot {args.bot}, {args.games} games per player count, seed {args.seed}, edition {args.setting or 'standard'}")
    for players in (int(n) for n in args.players.split(",")):
        start = time.perf_counter()
        with Pool(args.jobs) as pool:
            games = pool.map(_one, [(args.bot, toml, players, args.seed, i) for i in range(args.games)], chunksize=2)
        elapsed = time.perf_counter() - start
        seats = [seat for game in games for seat in game]
        totals = [total for total, _ in seats]
        with_enclosure = sum(1 for _, enclosed in seats if enclosed) / len(seats)
        per_seat = sum(enclosed for _, enclosed in seats) / len(seats)
        sd = statistics.stdev(totals) if len(totals) > 1 else 0.0
        print(
            f"{players} player(s): mean total {statistics.fmean(totals):6.2f} (sd {sd:5.2f}, {len(seats)} player-games),"
            f" enclosure in {100 * with_enclosure:5.1f} % of player-games, {per_seat:.3f} enclosed patches each ({elapsed:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
