"""An independent, deliberately plain Nine Lives round: one deal at a time, cards as (suit, rank).

Written from docs/rules/nine-lives.md without reusing the engine's code.
"""

from __future__ import annotations

import random


def random_round(rng: random.Random, p: int, piles=frozenset(), keeper: int = 0):
    deck = [(s, r) for s in range(p) for r in range(1, 10) if (s, r) not in piles]
    rng.shuffle(deck)
    size = len(deck) // p
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    bids = [rng.choice(h) for h in hands]  # all at once
    for h, b in zip(hands, bids, strict=True):
        h.remove(b)
    tricks, fallback = [0] * p, [0] * p
    for _ in range(size - 1):
        trump = bids[keeper][0]
        trick = []
        for i in range(p):
            seat = (keeper + i) % p
            hand = hands[seat]
            legal = hand if not trick else ([c for c in hand if c[0] == trick[0][1][0]] or hand)
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        lead = trick[0][1][0]
        counted = [(seat, c) for seat, c in trick if c[0] != bids[seat][0]]
        trumps = [(seat, c) for seat, c in counted if c[0] == trump]
        led = [(seat, c) for seat, c in counted if c[0] == lead]
        if trumps:
            winner = max(trumps, key=lambda sc: sc[1][1])[0]
        elif led:
            winner = max(led, key=lambda sc: sc[1][1])[0]
        else:
            winner = keeper
            fallback[keeper] += 1
        tricks[winner] += 1
        keeper = winner
    made = []
    one_team = len({b[0] for b in bids}) == 1
    for seat in range(p):
        mates = [o for o in range(p) if bids[o][0] == bids[seat][0]]
        team_ok = (len(mates) >= 2 and not one_team
                   and sum(tricks[o] for o in mates) == sum(bids[o][1] for o in mates))
        made.append(tricks[seat] == bids[seat][1] or team_ok)
    return {"tricks": tricks, "bid": [b[1] for b in bids], "made": [int(m) for m in made],
            "score": [b[1] if m else 0 for b, m in zip(bids, made, strict=True)],
            "team_size": [sum(bids[o][0] == bids[s][0] for o in range(p)) for s in range(p)],
            "fallback": fallback}
