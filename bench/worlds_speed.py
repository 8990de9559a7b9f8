"""Re-deal and play-out speed: worlds per second, a dozen decisions into a round.

    python bench/worlds_speed.py

For every game at its default player count: ``view.redeal(32)`` of 1024 deals (32768 worlds),
``worlds.view``, and ``worlds.play_out`` with ``random`` and with the default heuristic.
"""

from __future__ import annotations

import time

import numpy as np

import simtool.games
import strategies
from simtool import bits, engine

if __name__ == "__main__":
    print("| game | players | decision | redeal | worlds.view | play_out random | play_out default |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for game in simtool.games.registry().values():
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
        clock = [time.perf_counter()]
        worlds = view.redeal(k, rng)
        clock.append(time.perf_counter())
        choice = bits.uniform(worlds.view.legal, rng, game.n_actions)
        clock.append(time.perf_counter())
        for name in ("random", game.default_strategy):
            worlds.play_out(choice, name)
            clock.append(time.perf_counter())
        rates = [m * k / (b - a) for a, b in zip(clock, clock[1:], strict=False)]
        print(f"| {game.id} | {p} | {d.kind} | " + " | ".join(f"{r:,.0f}/s" for r in rates) + " |", flush=True)
