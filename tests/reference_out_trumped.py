"""An independent, deliberately plain Out-Trumped: one deal at a time, cards as (suit, rank).

Written from docs/rules/out-trumped.md without reusing the engine's code; covers every rule option.
"""

from __future__ import annotations

import random

HAND = {2: 15, 3: 15, 4: 15, 5: 12, 6: 10}


def random_deal(rng: random.Random, p: int, wild="dealer", follow="overtake", kitty="none"):
    deck = [(s, r) for s in range(5) for r in range(1, 13)]
    rng.shuffle(deck)
    size = HAND[p] if kitty == "none" else min(HAND[p], 55 // p)
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    pot = deck[p * size:p * size + 5] if kitty != "none" else []
    dealer = p - 1  # round 0 is dealt by seat -1 mod p
    face = rng.randrange(6)
    trump = face if face < 5 else (rng.randrange(5) if wild == "dealer" else None)
    bids, taker = [0] * p, None
    if kitty == "bid":
        standing = 0
        for i in range(p):
            seat = (dealer + 1 + i) % p
            choice = rng.choice([0] + list(range(standing + 1, size + 1)))
            if choice:
                bids[seat], standing, taker = choice, choice, seat
    elif kitty == "low-card":
        shows = []
        for i in range(p):
            seat = (dealer + 1 + i) % p
            plain = [c for c in hands[seat] if c[0] != trump] or hands[seat]
            shows.append((min(c[1] for c in plain), i, seat))
        taker = min(shows)[2]
    if taker is not None:
        hands[taker] += pot
        for card in rng.sample(hands[taker], 5):
            hands[taker].remove(card)
    tricks, trumps = [0] * p, [0] * p
    leader = 0
    for _ in range(size):
        trick = []
        for i in range(p):
            seat = (leader + i) % p
            hand = hands[seat]
            legal = hand
            if trick:
                led = trick[0][1][0]
                top = max(c[1] for _, c in trick if c[0] == led)
                higher = [c for c in hand if c[0] == led and c[1] > top]
                same = [c for c in hand if c[0] == led]
                trumped = [c for c in hand if c[0] == trump]
                if follow == "overtake":
                    legal = higher or same or trumped or hand
                else:
                    legal = higher or trumped or hand
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        led = trick[0][1][0]
        winner = max(trick, key=lambda sc: (sc[1][0] == trump, sc[1][0] == led, sc[1][1]))[0]
        tricks[winner] += 1
        trumps[winner] += sum(c[0] == trump for _, c in trick)
        leader = winner
    bonus = [0] * p
    holders = [s for s in range(p) if trumps[s] >= 1]
    if trump is not None and holders:
        if len(holders) == 1:
            bonus[holders[0]] = 2 * trumps[holders[0]]
        else:
            most = max(trumps[s] for s in holders)
            fewest = min(trumps[s] for s in holders)
            for s in holders:
                if trumps[s] == most:
                    bonus[s] = trumps[s]
                elif trumps[s] == fewest:
                    bonus[s] = -trumps[s]
    kitty_points = [0] * p
    if kitty == "bid" and taker is not None:
        kitty_points[taker] = bids[taker] if tricks[taker] >= bids[taker] else -bids[taker]
    return {"tricks": tricks, "trumps": trumps, "bonus": bonus, "kitty": kitty_points,
            "score": [tricks[s] + bonus[s] + kitty_points[s] for s in range(p)]}
