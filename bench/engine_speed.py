"""In-process engine speed: deals/s of one chunk played by ``engine.play_deals`` (no tables).

    python bench/engine_speed.py [--n 32768] [--repeat 3]

CPU time of this process, best of ``repeat`` per cell (the machine is shared: wall time is noise),
for every game at 3 and 4 players (4 and 5 for Kansas City),
under ``random`` and the game's default heuristic. Small and focused: the figure moves
only with the engine and the games, so a before/after comparison in the same minute is fair.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import simtool.games
from simtool import engine
from simtool.pipeline.runner import make_spec, resolve_lineup


def deals_per_second(game, p: int, name: str, n: int, repeat: int) -> float:
    spec = make_spec(game.id, p, n, name, seed=1)
    lineup = resolve_lineup(spec)
    best = float("inf")
    for i in range(repeat):
        ctx = engine.Context(game.id, 1, n, "deal", np.arange(n))
        deal_rng, play_rng = np.random.default_rng(i), np.random.default_rng(100 + i)
        start = time.process_time()
        engine.play_deals(game, p, spec.rules, lineup, n, deal_rng, play_rng, ctx)
        best = min(best, time.process_time() - start)
    return n / best


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1 << 15)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    print("| game | players | strategy | deals/s |")
    print("| --- | --- | --- | --- |")
    for game in simtool.games.registry().values():
        if args.game and game.id != args.game:
            continue
        for p in [q for q in game.players if q in (3, 4, 5)][:2]:
            for name in ("random", game.default_strategy):
                rate = deals_per_second(game, p, name, args.n, args.repeat)
                print(f"| {game.id} | {p} | {name} | {rate:,.0f} |", flush=True)
