"""Re-deal and play-out speed: worlds per second, a dozen decisions into a round.

    python bench/worlds_speed.py

For every game at its default player count: ``view.redeal(32)`` of 1024 deals (32768 worlds),
``worlds.view``, and ``worlds.play_out`` with ``random`` and with the default heuristic; CPU time
of this process, best of ``--repeat`` (the machine is shared: wall time is noise).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import simtool.games
import strategies
from simtool import bits, engine

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", default=None)
    args = parser.parse_args()
    print("| game | players | decision | redeal | worlds.view | play_out random | play_out default |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for game in simtool.games.registry().values():
        if args.game and game.id != args.game:
            continue
        p, m, k = game.default_players, 1024, 32
        rules = {o.name: o.default for o in game.options}
        state = game.deal(np.random.default_rng(1), game.new_match(m, p, rules), 0)
        play, rng = game.play(state), np.random.default_rng(2)
        lineup = engine.Lineup([strategies.resolve("random", game.id)], np.zeros(p, np.int64))
        ctx = engine.Context(game.id, 0, m, "deal", np.arange(m))
        d = next(play)
        for _ in range(12):
            d = play.send(engine._decide(game, state, d, lineup, rng, ctx))
        seat = np.zeros(m, np.int64) if d.seat is None else np.broadcast_to(np.asarray(d.seat), (m,))
        legal = np.broadcast_to(d.legal, (m, p))[:, 0] if d.seat is None else np.broadcast_to(d.legal, (m,))
        view = engine.view_of(game, state, d.kind, seat, legal)
        best = [float("inf")] * 4
        for i in range(args.repeat):
            rng = np.random.default_rng(10 + i)
            clock = [time.process_time()]
            worlds = view.redeal(k, rng)
            clock.append(time.process_time())
            choice = bits.uniform(worlds.view.legal, rng, game.n_actions)
            clock.append(time.process_time())
            for name in ("random", game.default_strategy):
                # by the strategy itself: a name resolves only inside a run
                worlds.play_out(choice, strategies.resolve(name, game.id))
                clock.append(time.process_time())
            best = [min(t, b - a) for t, a, b in zip(best, clock, clock[1:], strict=False)]
        rates = [m * k / t for t in best]
        print(f"| {game.id} | {p} | {d.kind} | " + " | ".join(f"{r:,.0f}/s" for r in rates) + " |", flush=True)
