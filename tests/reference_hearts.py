"""An independent, deliberately plain Hearts: one deal at a time, cards as (suit, rank).

Written from docs/rules/hearts.md without reusing the engine's code, so that statistics of the
two under the random policy can be compared. Suits 0 clubs, 1 diamonds, 2 hearts, 3 spades;
ranks 2..14 (14 the ace).
"""

from __future__ import annotations

import random

DEFAULTS = {"passing": "cycle", "lead_hearts": "broken", "first_trick": "clean", "moon": "add",
            "queen": 13, "black_maria": "off", "jack": "off"}
REMOVED = {3: [(1, 2)], 4: [], 5: [(0, 2), (1, 2)]}


def points_of(card, rules) -> int:
    suit, rank = card
    if suit == 2:
        return 1
    if card == (3, 12):
        return rules["queen"]
    if rules["black_maria"] == "on" and card == (3, 13):
        return 10
    if rules["black_maria"] == "on" and card == (3, 14):
        return 7
    if rules["jack"] == "on" and card == (1, 11):
        return -10
    return 0


def pass_step(rules, p: int, rnd: int) -> int:
    """Seats to the left the passed cards go (0: no pass)."""
    if rules["passing"] == "none":
        return 0
    if rules["passing"] == "left":
        return 1
    if rules["passing"] == "right":
        return p - 1
    cycle = [1, p - 1, 2, 0] if p == 4 else [1, p - 1, 0]
    return cycle[rnd % len(cycle)]


def random_deal(rng: random.Random, p: int, rules: dict | None = None, rnd: int = 0) -> dict[str, list[int]]:
    rules = DEFAULTS | (rules or {})
    deck = [(s, r) for s in range(4) for r in range(2, 15) if (s, r) not in REMOVED[p]]
    rng.shuffle(deck)
    size = len(deck) // p
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    step = pass_step(rules, p, rnd)
    if step:
        gifts = [rng.sample(h, 3) for h in hands]
        hands = [[c for c in hands[i] if c not in gifts[i]] + gifts[(i - step) % p] for i in range(p)]
    penalty = [c for c in deck if points_of(c, rules) > 0]
    first = min(c for c in deck if c[0] == 0)
    leader = next(i for i in range(p) if first in hands[i])
    taken = [[] for _ in range(p)]
    tricks = [0] * p
    broken = False
    for t in range(size):
        trick = []
        for i in range(p):
            seat = (leader + i) % p
            hand = hands[seat]
            if not trick:
                if t == 0:
                    legal = [first]
                elif rules["lead_hearts"] == "broken" and not broken:
                    legal = [c for c in hand if c[0] != 2] or hand
                else:
                    legal = hand
            else:
                legal = [c for c in hand if c[0] == trick[0][1][0]]
                if not legal:
                    legal = hand
                    if t == 0 and rules["first_trick"] == "clean":
                        legal = [c for c in hand if c not in penalty] or hand
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        led = trick[0][1][0]
        winner = max((card[1], seat) for seat, card in trick if card[0] == led)[1]
        taken[winner] += [card for _, card in trick]
        tricks[winner] += 1
        broken = broken or any(card[0] == 2 for _, card in trick)
        leader = winner
    pen = [sum(max(points_of(c, rules), 0) for c in cs) for cs in taken]
    bonus = [sum(min(points_of(c, rules), 0) for c in cs) for cs in taken]
    moon = [int(all(c in cs for c in penalty)) for cs in taken]
    total = sum(points_of(c, rules) for c in penalty)
    if any(moon) and rules["moon"] == "add":
        pen = [0 if m else total for m in moon]
    elif any(moon) and rules["moon"] == "subtract":
        pen = [-total if m else x for m, x in zip(moon, pen, strict=True)]
    return {"score": [a + b for a, b in zip(pen, bonus, strict=True)], "tricks": tricks,
            "hearts": [sum(c[0] == 2 for c in cs) for cs in taken],
            "queen": [int((3, 12) in cs) for cs in taken], "moon": moon,
            "jack": [int((1, 11) in cs) for cs in taken]}
