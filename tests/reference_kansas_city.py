"""An independent, deliberately plain Kansas City: one deal at a time, cards as (suit, rank).

Written from docs/rules/kansas-city.md without reusing the engine's code, so that statistics of the two
under the random policy can be compared.
"""

from __future__ import annotations

import random

LIMIT = {4: 3, 5: 2}


def random_deal(rng: random.Random, p: int, pass_count: int = 3, size: int | None = None) -> dict[str, list[int]]:
    """One deal under random play; ``size`` cards a hand (the sheet's: 14, or 11 at 5p). The sheet's
    limit and score table follow a smaller hand (the limit is at most the hand size), and a hand
    smaller than ``pass_count`` is passed whole."""
    deck = [(suit, rank) for suit in range(7) for rank in range(1, 9)]
    rng.shuffle(deck)
    size = size or (14 if p == 4 else 11)
    limit = min(LIMIT[p], size)
    table = [5 * t for t in range(limit + 1)] + [5, 0]  # 5 a trick to the limit, 5 for one more, then 0
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    passed = [rng.sample(h, min(pass_count, size)) for h in hands]
    hands = [[c for c in hands[i] if c not in passed[i]] + passed[i - 1] for i in range(p)]
    trumps: set = set()
    tricks, fours, upgrades = [0] * p, [0] * p, [0] * p
    leader = 0
    for t in range(size):
        trick = []
        for i in range(p):
            seat = (leader + i) % p
            hand = hands[seat]
            legal = hand
            if trick:
                lead = trick[0][1]
                if lead in trumps:
                    same = [c for c in hand if c in trumps]
                else:
                    same = [c for c in hand if c not in trumps and c[0] == lead[0]]
                legal = same or hand
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        lead = trick[0][1]

        def strength(card, lead=lead):
            if card in trumps:
                return 100 + card[1]
            if lead not in trumps and card[0] == lead[0]:
                return card[1]
            return 0

        winner = max(trick, key=lambda sc: strength(sc[1]))[0]
        tricks[winner] += 1
        fours[winner] += sum(card[1] == 4 for _, card in trick)
        if t < size - 1:
            for i in range(1, p):
                seat = (winner + i) % p
                held = {c[1] for h in hands for c in h if c in trumps}
                options = [None] + [c for c in hands[seat] if c not in trumps and c[1] not in held]
                pick = rng.choice(options)
                if pick is not None:
                    trumps.add(pick)
                    upgrades[seat] += 1
        leader = winner
    return {
        "tricks": tricks, "fours": fours, "upgrades": upgrades,
        "score": [table[min(t, len(table) - 1)] + 2 * f for t, f in zip(tricks, fours, strict=True)],
        "overshoot": [int(t > limit) for t in tricks],
    }
