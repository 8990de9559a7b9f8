"""Each built-in heuristic against random players: win share per seat held, seats rotated.

    python bench/heuristics.py                      # every game, heuristic and player count
    python bench/heuristics.py --game trickster --n 1e5 --strategy safe

One heuristic sits among ``p - 1`` random players, the line-up rotating one seat per deal;
the table gives its win share per seat held with a 95% interval, the fair share ``1/p``, and
deals/s (in-process, one core).
"""

from __future__ import annotations

import argparse
import time

import simtool
import simtool.games
import strategies
from simtool import stats


def measure(game: str, players: int, name: str, n: int, seed: int, rules=None) -> tuple[float, float, float]:
    start = time.perf_counter()
    r = simtool.run(game, n=n, players=players, strategy="random", seats={0: name}, rotate=True,
                    seed=seed, jobs=1, rules=rules)
    wall = time.perf_counter() - start
    seats = r.seats.sort(["deal", "seat"])
    win = stats.panel(seats, "win", players)
    codes = (stats.panel(seats, "strategy", players) == name).astype(int)
    share, half = stats.mean_interval(stats.held_share(win, codes, 1))
    return share, half, n / wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", action="append")
    ap.add_argument("--strategy", action="append")
    ap.add_argument("--players", action="append", type=int)
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rules = dict(r.split("=", 1) for r in a.rule) or None
    print("| game | players | heuristic | win share per seat held | fair | deals/s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game in simtool.games.registry().values():
        if a.game and game.id not in a.game:
            continue
        names = [name for name, s in strategies.registry(game.id).items()
                 if name not in ("random", "high", "low") and s.relative_cost() == 1]
        for name in names:
            if a.strategy and name not in a.strategy:
                continue
            for p in game.players:
                if a.players and p not in a.players:
                    continue
                share, half, speed = measure(game.id, p, name, int(a.n), a.seed, rules)
                print(f"| {game.id} | {p} | {name} | {100 * share:.1f}% ± {100 * half:.1f}% "
                      f"| {100 / p:.1f}% | {speed:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
