"""Where seeing the hidden cards would pay Out-Trumped's ``pimc`` (docs/reference-player.md,
"Out-Trumped: where seeing the cards would pay"): ``pimc`` at its default in one seat against
3 x ``hoarder``, seats rotated, but at the decisions of a window (decision kinds and tricks) the
same search is run on the true deal, as ``clairvoyant`` runs it (one world, the true one; the
search's own play-outs, ``ruffer`` at its seat and ``hoarder`` elsewhere, ``value=margin``).
Every window is played on the same deals with the same random numbers up to its first seeing
decision, so each is paired deal by deal with plain ``pimc`` (the window "none"). A window's gain
bounds what any fair improvement of the search at those decisions can buy (an exact endgame, more
worlds, a better belief), under the same play-outs.

    python bench/ot_seeing.py [DEALS=4096] [SEED=11] [JOBS=2]
    python bench/ot_seeing.py leads [DEALS=2048] [SEED=11]

``leads``: at each free lead of plain ``pimc`` in tricks 1-11, the kind of card it leads beside
the kind the same search on the true deal leads at that decision (in one process): trump or
plain, and unbeatable (no unseen card of its suit above it), low (no unseen card of its suit
between it and the lowest card of the suit held) or middle (neither).

A measurement, not a player: the diagnostic strategy is given the true deal the way the engine
gives it to ``clairvoyant`` (``Lineup.sees``), and asks the fair search through the game's own
re-deal elsewhere (as bench/ot_regret.py does).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import strategies
from simtool import bits, engine, games
from simtool.pipeline.runner import make_spec
from strategies import out_trumped, pimc

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from ot_regret import fair  # noqa: E402  (a sibling script, not a package)

OT = games.get("out-trumped")
CHUNK = 512
TRICKS = 15
WINDOWS = (  # (label, decision kinds, first trick, trick after the last; tricks counted from 0)
    ("none (plain pimc)", (), 0, 0),
    ("every lead and follow", ("lead", "play"), 0, TRICKS),
    ("leads and follows, tricks 1-5", ("lead", "play"), 0, 5),
    ("leads and follows, tricks 6-11", ("lead", "play"), 5, 11),
    ("leads and follows, tricks 12-15 (the endgame)", ("lead", "play"), 11, TRICKS),
    ("leads, tricks 1-11", ("lead",), 0, 11),
    ("follows, tricks 1-11", ("play",), 0, 11),
    ("the first lead", ("lead",), 0, 1),
    ("the wild trump pick", ("trump",), 0, 1),
)


def player(window):
    kinds, first, last = window
    search = strategies.resolve("pimc", OT.id)
    p = search.values

    def choose(view, rng):
        if view.kind in kinds and first <= int(view.trick_no) < last:
            return pimc.search(view, rng, 1, p.playout, p.value, p.own)  # view.redeal: the true deal
        return search(fair(view), rng)

    return strategies.Strategy("pimc, seeing in a window", choose, "")


def chunk(args):
    window, seed, n, first = args
    return play(player(window), seed, n, first)


def play(strategy, seed: int, n: int, first: int):
    """Deals ``first`` .. ``first + CHUNK`` (of ``n``) with ``strategy`` at line-up position 0 (it
    sees the true deal through ``view.redeal``): its seat's win share per deal, and CPU seconds."""
    hoarder = strategies.resolve("hoarder", OT.id)
    lineup = engine.Lineup([strategy, hoarder], np.array([0, 1, 1, 1]), rotate=True, sees=(True, False))
    rules = make_spec(OT.id, 4, n, "hoarder", seed=seed).rules
    ids = np.arange(first, min(first + CHUNK, n))
    start = time.process_time()
    out = engine.play_deals(OT, 4, rules, lineup, len(ids), np.random.default_rng([seed, first]),
                            np.random.default_rng([seed, first, 1]), engine.Context(OT.id, seed, n, "deal", ids))
    return out.rounds["win"][np.arange(len(ids)), (-ids) % 4], time.process_time() - start  # position 0's seat


KINDS = ("trump, unbeatable", "trump, low", "trump, middle", "plain, unbeatable", "plain, low", "plain, middle")


def kind(view, card):
    """Per deal, the index in :data:`KINDS` of the held ``card`` (one per deal) led."""
    layout = view.layout
    bit = bits.BIT[card]
    suit = layout.suit[layout.card_suit[card]]
    unseen = layout.deck & ~(view.hand | view.played)
    lowest = bits.lowest(view.hand & suit)  # the card is held, so the suit is not empty
    low = (unseen & suit & bits.below(card) & ~bits.below(lowest + 1)) == 0
    unbeatable = (out_trumped._boss(view, view.hand) & bit) != 0
    trump = (layout.suit_cards(view.trump) & bit) != 0
    return 3 * ~trump + np.where(unbeatable, 0, np.where(low, 1, 2))


def leads(n: int, seed: int) -> None:
    search = strategies.resolve("pimc", OT.id)
    p = search.values
    seen = Counter()

    def choose(view, rng):
        choice = search(fair(view), rng)
        if view.kind == "lead" and int(view.trick_no) < 11:
            free = np.flatnonzero(bits.count(view.legal) > 1)
            true = pimc.search(view, rng, 1, p.playout, p.value, p.own)  # view.redeal: the true deal
            mine, best = kind(view, choice), kind(view, true)
            for i in free:
                seen[int(view.trick_no) >= 5, mine[i], best[i]] += 1
        return choice

    for first in range(0, n, CHUNK):
        play(strategies.Strategy("pimc, watched", choose, ""), seed, n, first)
    print(f"{n} deals, seed {seed}: the card pimc leads, beside the card the same search on the true deal leads")
    print("| tricks | led by | " + " | ".join(KINDS) + " | decisions |")
    print("| --- | --- | " + " | ".join("---" for _ in KINDS) + " | --- |")
    for later, label in ((False, "1-5"), (True, "6-11")):
        total = sum(v for (t, *_), v in seen.items() if t == later)
        for who, axis in (("pimc", 1), ("on the true deal", 2)):
            shares = [sum(v for key, v in seen.items() if key[0] == later and key[axis] == k) / total
                      for k in range(len(KINDS))]
            print(f"| {label} | {who} | " + " | ".join(f"{x:.1%}" for x in shares) + f" | {total} |")


def main(n: int, seed: int, jobs: int) -> None:
    half = lambda x: 1.96 * x.std(ddof=1) / np.sqrt(len(x))  # noqa: E731
    print(f"{n} deals, seed {seed}: pimc in one seat against 3 x hoarder, seats rotated")
    print("| pimc sees the true deal at | win share | paired change (points) | deals per CPU s |")
    print("| --- | --- | --- | --- |")
    base = None
    with ProcessPoolExecutor(jobs) as pool:
        for label, *window in WINDOWS:
            parts = list(pool.map(chunk, [(tuple(window), seed, n, f) for f in range(0, n, CHUNK)]))
            won = np.concatenate([w for w, _ in parts])
            rate = n / sum(t for _, t in parts)
            change = "" if base is None else f"{100 * (won - base).mean():+.2f} ± {100 * half(won - base):.2f}"
            base = won if base is None else base
            print(f"| {label} | {won.mean():.3f} ± {half(won):.3f} | {change} | {rate:.0f} |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["leads"]:
        args = [int(a) for a in sys.argv[2:]]
        leads(*(args + [2048, 11][len(args):]))
    else:
        args = [int(a) for a in sys.argv[1:]]
        main(*(args + [4096, 11, 2][len(args):]))
