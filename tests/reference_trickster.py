"""An independent, deliberately plain Trickster: one deal at a time, cards as (suit, rank).

Written from RULINGS.md without reusing the engine's code.
"""

from __future__ import annotations

import random


def pips(card) -> int:
    return card[1] if card[1] <= 10 else 0


def value(card) -> int:
    return {11: 2, 12: 3, 13: 4}.get(card[1], 1)


def random_deal(rng: random.Random, p: int) -> dict[str, list[int]]:
    deck = [(suit, rank) for suit in range(4) for rank in range(1, 14)]
    rng.shuffle(deck)
    size = 52 // p
    tableaus = [deck[i * size:(i + 1) * size] for i in range(p)]
    held = [[] for _ in range(p)]  # the hand each seat holds
    collections = [[] for _ in range(p)]
    collects = [0] * p
    for turn in range(size):
        picks = []
        for seat in range(p):
            hand, tableau = held[seat], tableaus[seat]
            follow = [c for c in tableau if hand and c[0] == hand[0][0]]
            picks.append(rng.choice(follow or tableau))
        for seat, card in enumerate(picks):
            tableaus[seat].remove(card)
            hand = held[seat]
            if hand and (card[0] != hand[0][0] or sum(map(pips, hand)) + pips(card) > 13):
                collections[seat] += hand
                collects[seat] += 1
                held[seat] = [card]
            else:
                held[seat] = hand + [card]
        if turn < size - 1:
            held = held[1:] + held[:1]  # pass right: seat s now holds seat s+1's hand
    for seat in range(p):
        collections[seat] += held[seat]
        collects[seat] += 1
    per_suit = [[sum(c[0] == k for c in coll) for k in range(4)] for coll in collections]
    score, moons = [], []
    for seat in range(p):
        ignored = [k for k in range(4)
                   if all(per_suit[seat][k] > per_suit[o][k] for o in range(p) if o != seat)]
        score.append(sum(value(c) for c in collections[seat] if c[0] not in ignored))
        moons.append(len(ignored))
    return {"score": score, "tricks": collects, "collected": [len(c) for c in collections],
            "moon": moons}
