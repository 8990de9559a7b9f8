"""Where Out-Trumped's ``pimc`` loses against the true deal, by decision kind and trick, and how many
of its worlds reach different information sets at its next own decision (docs/reference-player.md,
"Out-Trumped: information-set search").

    python bench/ot_regret.py [DEALS=1024] [SEED=11] [WORLDS=16]

``pimc`` at its default plays one seat against 3 x ``hoarder``, seats rotated. At each of its
free decisions every distinct option is also played out on the true deal with the search's own
play-outs (``ruffer`` at its seat, ``hoarder`` elsewhere): *differs* says its choice is not the
true deal's best by margin, *regret* sums the true deal's win share of the best option less
that of its choice. *Next information sets*: of ``WORLDS`` worlds drawn by its belief, how many
different histories its seat has seen at its next own decision after its choice.

A measurement, not a player: the diagnostic strategy is given the true deal the way the engine
gives it to ``clairvoyant`` (``Lineup.sees``), and asks the fair search through the game's own
re-deal.
"""

from __future__ import annotations

import sys
import time
import types
from collections import defaultdict

import numpy as np

import strategies
from simtool import bits, engine, games
from simtool.pipeline.runner import make_spec
from strategies import pimc

OT = games.get("out-trumped")
HASH = np.random.default_rng(5).integers(1, 2**63, size=400, dtype=np.uint64) | np.uint64(1)
CHUNK = 256


def fair(view):
    """``view`` whose ``redeal`` re-deals what the seat cannot see (not the true deal)."""
    def redeal(self, k, rng):
        return engine.Worlds(self._game, self._game.redeal(self, int(k), rng), np.repeat(self.seat, k), rng,
                             self._resolve)
    view.redeal = types.MethodType(redeal, view)
    return view


def next_sets(view, rng, choice, k, hoarder, ruffer, infer):
    """Per deal, the different histories seen at the seat's next own decision in ``k`` believed
    worlds after ``choice`` (and whether any world reached one)."""
    worlds = pimc._believed(hoarder, infer)(fair(view), k, rng)
    seat = np.repeat(view.seat, k)
    n = len(seat)
    key, seen = np.zeros(n, np.uint64), np.zeros(n, bool)

    def recorder(v, r):
        at = (v.seat == seat) & ~seen
        if at.any():
            h = (v.history.reshape(n, -1).astype(np.int64) + 2).astype(np.uint64)
            key[at] = (h * HASH[:h.shape[1]]).sum(axis=1)[at]
            seen[at] = True
        return np.where(v.seat == seat, ruffer(v, r), hoarder(v, r))

    worlds.play_out(np.repeat(choice, k), recorder)
    keys = np.sort(np.where(seen, key, np.uint64(0)).reshape(-1, k), axis=1)
    return 1 + (np.diff(keys, axis=1) != 0).sum(axis=1), seen.reshape(-1, k).any(axis=1)


def main(n: int, seed: int, k: int) -> None:
    search = strategies.resolve("pimc", OT.id)
    hoarder, ruffer = strategies.resolve("hoarder", OT.id), strategies.resolve("ruffer", OT.id)
    stats = defaultdict(lambda: np.zeros(5))  # decisions, differs, regret, margin lost, next sets (and count)
    counted = defaultdict(int)

    def diagnose(view, rng):
        choice = search(fair(view), rng)
        free = bits.count(view.legal) > 1
        if not free.any():
            return choice
        truth = engine.View.redeal(view, 1, rng)  # the engine's: the true deal (Lineup.sees)
        tried = np.where(free, view.distinct | bits.BIT[choice], bits.EMPTY)
        deal, option = np.nonzero(bits.to_mask(tried, view.n_actions))
        seats = view.seat[deal]
        results = pimc._play_out(truth.take(deal), np.arange(len(deal)), option, hoarder, (), seats, OT.id, ruffer)
        win, margin = (pimc._value(results, v, seats, OT.id) for v in ("win", "margin"))
        best_win, best_margin = np.full(len(view), -np.inf), np.full(len(view), -np.inf)
        np.maximum.at(best_win, deal, win)
        np.maximum.at(best_margin, deal, margin)
        mine = option == choice[deal]
        got_win, got_margin = np.zeros(len(view)), np.zeros(len(view))
        got_win[deal[mine]], got_margin[deal[mine]] = win[mine], margin[mine]
        sets, reached = next_sets(view, rng, choice, k, hoarder, ruffer, search.values.infer) \
            if view.kind in ("lead", "play") else (np.zeros(len(view)), np.zeros(len(view), bool))
        for i in np.flatnonzero(free):
            key = (view.kind, int(view.trick_no))
            stats[key] += (1, best_margin[i] > got_margin[i] + 1e-9, best_win[i] - got_win[i],
                           best_margin[i] - got_margin[i], sets[i] if reached[i] else 0)
            counted[key] += bool(reached[i])
        return choice

    lineup = engine.Lineup([strategies.Strategy("diagnosed pimc", diagnose, ""), hoarder], np.array([0, 1, 1, 1]),
                           rotate=True, sees=(True, False))
    rules = make_spec(OT.id, 4, n, "hoarder", seed=seed).rules
    start, won = time.process_time(), 0.0
    for first in range(0, n, CHUNK):
        ids = np.arange(first, min(first + CHUNK, n))
        out = engine.play_deals(OT, 4, rules, lineup, len(ids), np.random.default_rng([seed, first]),
                                np.random.default_rng([seed, first, 1]), engine.Context(OT.id, seed, n, "deal", ids))
        won += out.rounds["win"][np.arange(len(ids)), (-ids) % 4].sum()  # the seat of position 0
    print(f"{n} deals, seed {seed}: pimc won {won / n:.3f}; {time.process_time() - start:.0f} CPU s")
    print(f"| decision | trick | free decisions | differs | regret (points per deal) | margin lost per decision "
          f"| next information sets of {k} |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (kind, trick), s in sorted(stats.items()):
        print(f"| {kind} | {trick + 1} | {s[0]:.0f} | {s[1] / s[0]:.1%} | {100 * s[2] / n:.2f} | {s[3] / s[0]:.2f} "
              f"| {s[4] / max(counted[kind, trick], 1):.1f} |")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args + [1024, 11, 16][len(args):]))
