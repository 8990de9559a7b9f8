"""An independent, deliberately plain Trickster: one deal at a time, cards as (suit, rank).

Written from docs/rules/trickster.md without reusing the engine's code.
"""

from __future__ import annotations

import random


def random_deal(rng: random.Random, p: int, ranks: int = 13, pip_limit: int = 13,
                points: tuple = (1, 2, 3, 4)) -> dict[str, list[int]]:
    """One deal under random play. ``ranks`` per suit, the top three the jack, queen and king
    (0 pips); ``points`` of a pip card, a jack, a queen and a king."""
    top = ranks - 3

    def pips(card) -> int:
        return card[1] if card[1] <= top else 0

    def value(card) -> int:
        return points[max(0, card[1] - top)]

    deck = [(suit, rank) for suit in range(4) for rank in range(1, ranks + 1)]
    rng.shuffle(deck)
    size = len(deck) // p
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
            if hand and (card[0] != hand[0][0] or sum(map(pips, hand)) + pips(card) > pip_limit):
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
