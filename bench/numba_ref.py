"""Compiled references in numba (issue 27's yardstick): one single-threaded ``@njit`` loop per game.

Each loop plays ``n`` whole deals at the game's default player count (round 0 of a fresh match, as
``simtool run`` does by default) with every seat choosing uniformly among its legal options, as
simtool's ``random`` does; the rules are those of ``docs/rules/<game>.md`` and of the C loops in
``bench/compiled/``. Written as plain numba: hands are arrays of card numbers, the legal cards are
gathered into a small buffer and one is drawn with ``np.random.randint`` (numba's own generator,
seeded inside the loop), work arrays are allocated once per call.

    from numba_ref import LOOPS, figures
    sums = LOOPS["black-white"](1_000_000, 1)   # per seat: score, score², tricks, tricks², rate, win
    figures(sums, 1_000_000)                    # the per-seat figures bench/ratio.py compares

``cache=True`` keeps the compiled code beside this file; ``warm_up`` compiles (or loads) every loop
so that no timing includes the compiler. The helpers shared by the loops are typed once, in
their decorators: called with constant arguments (a hand of 13, ``lower_wins=True``) numba would
otherwise compile one copy per constant, nine in all instead of three, a second and a half of a
fresh clone's compile.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SCORE, SCORE_SQ, TRICKS, TRICKS_SQ, RATE, WIN = range(6)


@njit("void(float64[:, ::1], int64[::1], int64[::1], int64[::1], boolean)", cache=True)
def tally(sums, score, tricks, rate, lower_wins):
    """One deal's per-seat results into ``sums``; the win is shared among the best scores."""
    best = score[0]
    for s in range(1, score.size):
        best = min(best, score[s]) if lower_wins else max(best, score[s])
    leaders = 0
    for s in range(score.size):
        leaders += score[s] == best
    for s in range(score.size):
        sums[s, SCORE] += score[s]
        sums[s, SCORE_SQ] += score[s] * score[s]
        sums[s, TRICKS] += tricks[s]
        sums[s, TRICKS_SQ] += tricks[s] * tricks[s]
        sums[s, RATE] += rate[s]
        if score[s] == best:
            sums[s, WIN] += 1.0 / leaders


@njit("void(int64[::1], int64[:, ::1], int64[::1], int64)", cache=True)
def deal(deck, hands, counts, hand):
    """A uniform deal of ``hand`` cards to every seat (the deck is shuffled in place)."""
    np.random.shuffle(deck)
    for s in range(hands.shape[0]):
        hands[s, :hand] = deck[s * hand:(s + 1) * hand]
        counts[s] = hand


@njit("int64(int64[:, ::1], int64[::1], int64, int64)", cache=True)
def take(hands, counts, seat, i):
    """Remove and return the ``i``-th card of ``seat``'s hand (the last card fills the gap)."""
    card = hands[seat, i]
    counts[seat] -= 1
    hands[seat, i] = hands[seat, counts[seat]]
    return card


@njit(cache=True)
def black_white(n, seed):
    """Black & White, 3 players: 36 cards, card c counts black c + 1 or white 36 - c; 12 each; the
    leader picks a card and a colour, any card follows; highest in the colour wins. Score:
    ``+(b + w)`` if ``b == w`` else ``-(b + w)``. Rate: balanced."""
    np.random.seed(seed)
    p, cards, hand = 3, 36, 12
    deck = np.arange(cards)
    hands = np.empty((p, hand), np.int64)
    counts = np.empty(p, np.int64)
    black, white = np.empty(p, np.int64), np.empty(p, np.int64)
    score, tricks, balanced = np.empty(p, np.int64), np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, hands, counts, hand)
        black[:] = 0
        white[:] = 0
        leader = 0
        for _t in range(hand):
            card = take(hands, counts, leader, np.random.randint(0, counts[leader]))
            colour = np.random.randint(0, 2)  # 0 black, 1 white
            best = cards - card if colour else card + 1
            winner = leader
            for i in range(1, p):
                seat = (leader + i) % p
                card = take(hands, counts, seat, np.random.randint(0, counts[seat]))
                value = cards - card if colour else card + 1
                if value > best:
                    best, winner = value, seat
            if colour:
                white[winner] += 1
            else:
                black[winner] += 1
            leader = winner
        for s in range(p):
            tricks[s] = black[s] + white[s]
            balanced[s] = black[s] == white[s]
            score[s] = tricks[s] if balanced[s] else -tricks[s]
        tally(sums, score, tricks, balanced, False)
    return sums


@njit(cache=True)
def kansas_city(n, seed):
    """Kansas City, 4 players: 56 cards, card c of suit c // 8, rank c % 8 + 1; 14 each; everyone
    passes 3 cards left at once; seat 0 leads; follow the led suit (an upgraded card is trump only);
    highest trump, else highest of the led suit, wins. After every trick but the last each loser,
    clockwise from the winner's left, may upgrade one non-trump card of a rank no one holds an
    unplayed trump of, or decline. Score 0, 5, 10, 15, 5, 0 for 0..5+ tricks, +2 a captured 4.
    Rate: overshoot (more than 3 tricks)."""
    np.random.seed(seed)
    p, cards, hand, passes = 4, 56, 14, 3
    table = np.array([0, 5, 10, 15, 5, 0])
    deck = np.arange(cards)
    hands = np.empty((p, hand), np.int64)
    counts = np.empty(p, np.int64)
    passing = np.empty((p, passes), np.int64)
    legal = np.empty(hand, np.int64)
    trump = np.zeros(cards, np.bool_)
    live_trumps = np.zeros(8, np.int64)  # unplayed trumps of each rank
    trick = np.empty(p, np.int64)
    tricks, fours = np.empty(p, np.int64), np.empty(p, np.int64)
    score, over = np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, hands, counts, hand)
        for s in range(p):
            for k in range(passes):
                passing[s, k] = take(hands, counts, s, np.random.randint(0, counts[s]))
        for s in range(p):
            for k in range(passes):
                hands[(s + 1) % p, counts[(s + 1) % p]] = passing[s, k]
                counts[(s + 1) % p] += 1
        trump[:] = False
        live_trumps[:] = 0
        tricks[:] = 0
        fours[:] = 0
        leader = 0
        for t in range(hand):
            card = take(hands, counts, leader, np.random.randint(0, counts[leader]))
            trick[0] = card
            trump_led, led_suit = trump[card], card // 8
            best = 16 + card % 8 + 1 if trump_led else card % 8 + 1
            winner = leader
            for i in range(1, p):
                seat = (leader + i) % p
                m = 0
                for j in range(counts[seat]):
                    c = hands[seat, j]
                    follows = trump[c] if trump_led else not trump[c] and c // 8 == led_suit
                    if follows:
                        legal[m] = j
                        m += 1
                j = legal[np.random.randint(0, m)] if m else np.random.randint(0, counts[seat])
                card = take(hands, counts, seat, j)
                trick[i] = card
                key = 16 + card % 8 + 1 if trump[card] else (card % 8 + 1 if card // 8 == led_suit else 0)
                if key > best:
                    best, winner = key, seat
            tricks[winner] += 1
            for c in trick:
                fours[winner] += c % 8 == 3
                if trump[c]:
                    live_trumps[c % 8] -= 1
            if t < hand - 1:
                for i in range(1, p):
                    seat = (winner + i) % p
                    m = 0
                    for j in range(counts[seat]):
                        c = hands[seat, j]
                        if not trump[c] and live_trumps[c % 8] == 0:
                            legal[m] = c
                            m += 1
                    choice = np.random.randint(0, m + 1)  # m: decline
                    if choice < m:
                        trump[legal[choice]] = True
                        live_trumps[legal[choice] % 8] += 1
            leader = winner
        for s in range(p):
            score[s] = table[min(tricks[s], 5)] + 2 * fours[s]
            over[s] = tricks[s] > 3
        tally(sums, score, tricks, over, False)
    return sums


@njit(cache=True)
def trickster(n, seed):
    """Trickster prototype A, 4 players: 52 cards, card c of suit c // 13, rank c % 13 + 1; 13 each
    as a face-up tableau; 4 hands circulate. Each turn every seat adds a tableau card to the hand it
    holds (of the hand's suit if it can): another suit, or a pip sum over 13 (J, Q, K add 0), makes
    it collect the hand first and start a new one; then hands pass right. At the end each collects
    the hand it holds. Points: A..10 1, J 2, Q 3, K 4, but none in a suit where the seat collected
    strictly the most cards (the moon). Lowest score wins; tricks = collections. Rate: a moon."""
    np.random.seed(seed)
    p, cards, ranks, turns = 4, 52, 13, 13
    deck = np.arange(cards)
    tableau = np.empty((p, turns), np.int64)
    counts = np.empty(p, np.int64)
    legal = np.empty(turns, np.int64)
    # the circulating hands: all of one suit, so their size, points and pips are all they need
    size, points, pips, suit = (np.empty(p, np.int64), np.empty(p, np.int64), np.empty(p, np.int64),
                                np.empty(p, np.int64))
    collected = np.empty((p, 4), np.int64)  # cards collected per seat and suit
    collected_points = np.empty((p, 4), np.int64)
    collections = np.empty(p, np.int64)
    score, moon = np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, tableau, counts, turns)
        size[:] = 0
        collected[:] = 0
        collected_points[:] = 0
        collections[:] = 0
        for t in range(turns):
            for s in range(p):
                h = (s + t) % p  # hands pass right: seat s holds the hand seat s + t started
                m = 0
                if size[h]:
                    for j in range(counts[s]):
                        if tableau[s, j] // ranks == suit[h]:
                            legal[m] = j
                            m += 1
                j = legal[np.random.randint(0, m)] if m else np.random.randint(0, counts[s])
                card = take(tableau, counts, s, j)
                rank = card % ranks + 1
                pip = rank if rank <= 10 else 0
                if size[h] == 0 or card // ranks != suit[h] or pips[h] + pip > 13:
                    if size[h]:
                        collected[s, suit[h]] += size[h]
                        collected_points[s, suit[h]] += points[h]
                        collections[s] += 1
                    size[h], points[h], pips[h], suit[h] = 0, 0, 0, card // ranks
                size[h] += 1
                points[h] += 1 if rank <= 10 else rank - 9
                pips[h] += pip
        for s in range(p):
            h = (s + turns - 1) % p
            collected[s, suit[h]] += size[h]
            collected_points[s, suit[h]] += points[h]
            collections[s] += 1
        score[:] = 0
        moon[:] = 0
        for k in range(4):
            most, holders, who = 0, 0, -1
            for s in range(p):
                if collected[s, k] > most:
                    most, holders, who = collected[s, k], 1, s
                elif collected[s, k] == most:
                    holders += 1
            for s in range(p):
                if holders == 1 and s == who:
                    moon[s] = 1
                else:
                    score[s] += collected_points[s, k]
        tally(sums, score, collections, moon, True)
    return sums


@njit(cache=True)
def out_trumped(n, seed):
    """Out-Trumped, 4 players, default rules: 60 cards, card c of suit c // 12, rank c % 12 + 1; 15
    each. A six-faced die picks trump: a suit, or wild, when the dealer picks one of the 5 suits.
    Seat 0 leads. A follower must beat every led-suit card in the trick with the led suit if able,
    else follow suit, else trump, else anything; highest trump, else highest of the led suit, wins.
    Score: +1 a trick; among seats with t >= 1 trumps captured: a sole one +2t, else the most +t and
    (if fewer) the fewest -t. Rate: out-trumped (a negative bonus)."""
    np.random.seed(seed)
    p, cards, ranks, hand = 4, 60, 12, 15
    deck = np.arange(cards)
    hands = np.empty((p, hand), np.int64)
    counts = np.empty(p, np.int64)
    higher, same, trumps_held = np.empty(hand, np.int64), np.empty(hand, np.int64), np.empty(hand, np.int64)
    tricks, trumps = np.empty(p, np.int64), np.empty(p, np.int64)
    score, out = np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, hands, counts, hand)
        trump = np.random.randint(0, 6)
        if trump == 5:  # wild: the dealer's pick
            trump = np.random.randint(0, 5)
        tricks[:] = 0
        trumps[:] = 0
        leader = 0
        for _t in range(hand):
            card = take(hands, counts, leader, np.random.randint(0, counts[leader]))
            led, top = card // ranks, card % ranks + 1
            best = 100 + top if led == trump else top
            winner, captured = leader, 1 if led == trump else 0
            for i in range(1, p):
                seat = (leader + i) % p
                a = b = c = 0
                for j in range(counts[seat]):
                    suit, rank = hands[seat, j] // ranks, hands[seat, j] % ranks + 1
                    if suit == led:
                        same[b] = j
                        b += 1
                        if rank > top:
                            higher[a] = j
                            a += 1
                    if suit == trump:
                        trumps_held[c] = j
                        c += 1
                if a:
                    j = higher[np.random.randint(0, a)]
                elif b:
                    j = same[np.random.randint(0, b)]
                elif c:
                    j = trumps_held[np.random.randint(0, c)]
                else:
                    j = np.random.randint(0, counts[seat])
                card = take(hands, counts, seat, j)
                suit, rank = card // ranks, card % ranks + 1
                if suit == led:
                    top = max(top, rank)
                captured += suit == trump
                key = 100 + rank if suit == trump else (rank if suit == led else 0)
                if key > best:
                    best, winner = key, seat
            tricks[winner] += 1
            trumps[winner] += captured
            leader = winner
        holders, most, fewest = 0, -1, 1 << 20
        for s in range(p):
            if trumps[s] >= 1:
                holders += 1
                most, fewest = max(most, trumps[s]), min(fewest, trumps[s])
        for s in range(p):
            t, bonus = trumps[s], 0
            if t >= 1:
                if holders == 1:
                    bonus = 2 * t
                elif t == most:
                    bonus = t
                elif t == fewest and fewest < most:
                    bonus = -t
            score[s] = tricks[s] + bonus
            out[s] = bonus < 0
        tally(sums, score, tricks, out, False)
    return sums


@njit(cache=True)
def nine_lives(n, seed):
    """Nine Lives, 4 players, round 0: one suit of ranks 1..9 per player, card c of suit c // 9,
    rank c % 9 + 1; 9 each. Everyone bids a card at once (it leaves the hand; its rank is the bid,
    its suit is ignored for that player). The Kittykeeper (seat 0) leads; trump is the Kittykeeper's
    bid suit; follow the lead suit if able. Among the cards not of their player's bid suit the
    highest trump, else the highest of the lead suit, wins; none: the Kittykeeper keeps it, and the
    winner becomes the Kittykeeper. A seat scores its bid if its tricks equal it, or if it shares a
    bid suit with others (not all seats) and their tricks equal their bids together. Rate: made."""
    np.random.seed(seed)
    p, ranks, hand = 4, 9, 9
    deck = np.arange(ranks * p)
    hands = np.empty((p, hand), np.int64)
    counts = np.empty(p, np.int64)
    legal = np.empty(hand, np.int64)
    bid_suit, bid, tricks = np.empty(p, np.int64), np.empty(p, np.int64), np.empty(p, np.int64)
    score, made = np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, hands, counts, hand)
        for s in range(p):
            card = take(hands, counts, s, np.random.randint(0, counts[s]))
            bid_suit[s], bid[s] = card // ranks, card % ranks + 1
        tricks[:] = 0
        keeper = 0
        for _t in range(hand - 1):
            trump = bid_suit[keeper]
            card = take(hands, counts, keeper, np.random.randint(0, counts[keeper]))
            lead = card // ranks
            best = 0 if lead == trump else card % ranks + 1  # a lead of the keeper's own bid suit: no strength
            winner = keeper
            for i in range(1, p):
                seat = (keeper + i) % p
                m = 0
                for j in range(counts[seat]):
                    if hands[seat, j] // ranks == lead:
                        legal[m] = j
                        m += 1
                j = legal[np.random.randint(0, m)] if m else np.random.randint(0, counts[seat])
                card = take(hands, counts, seat, j)
                suit, rank = card // ranks, card % ranks + 1
                key = 0 if suit == bid_suit[seat] else (100 + rank if suit == trump else (rank if suit == lead else 0))
                if key > best:
                    best, winner = key, seat
            tricks[winner] += 1
            keeper = winner
        one_team = True
        for s in range(1, p):
            one_team &= bid_suit[s] == bid_suit[0]
        for s in range(p):
            size = team_tricks = team_bids = 0
            for o in range(p):
                if bid_suit[o] == bid_suit[s]:
                    size += 1
                    team_tricks += tricks[o]
                    team_bids += bid[o]
            made[s] = tricks[s] == bid[s] or (size >= 2 and not one_team and team_tricks == team_bids)
            score[s] = bid[s] if made[s] else 0
        tally(sums, score, tricks, made, False)
    return sums


@njit(cache=True)
def hearts(n, seed):
    """Hearts, 4 players, default rules: 52 cards, card c of suit c // 13 (clubs, diamonds, hearts,
    spades), rank c % 13 + 1 (the two lowest); 13 each. Everyone passes 3 cards left at once. The
    holder of the two of clubs leads it; follow the led suit if able; on the first trick no penalty
    card (a heart, the queen of spades) unless a player holds nothing else; no heart led before one
    has been played unless the leader holds only hearts; the highest of the led suit wins. Score:
    1 a heart, 13 the queen; a seat that takes all 26 scores 0 and the others 26. Lowest wins.
    Rate: the moon (taking every penalty card)."""
    np.random.seed(seed)
    p, cards, hand, passes, queen = 4, 52, 13, 3, 3 * 13 + 10
    deck = np.arange(cards)
    hands = np.empty((p, hand), np.int64)
    counts = np.empty(p, np.int64)
    passing = np.empty((p, passes), np.int64)
    legal = np.empty(hand, np.int64)
    tricks, points = np.empty(p, np.int64), np.empty(p, np.int64)
    score, moon = np.empty(p, np.int64), np.empty(p, np.int64)
    sums = np.zeros((p, 6))
    for _ in range(n):
        deal(deck, hands, counts, hand)
        for s in range(p):
            for k in range(passes):
                passing[s, k] = take(hands, counts, s, np.random.randint(0, counts[s]))
        for s in range(p):
            for k in range(passes):
                hands[(s + 1) % p, counts[(s + 1) % p]] = passing[s, k]
                counts[(s + 1) % p] += 1
        tricks[:] = 0
        points[:] = 0
        leader, first, broken = 0, 0, False
        for s in range(p):
            for j in range(hand):
                if hands[s, j] == 0:  # the two of clubs
                    leader, first = s, j
        for t in range(hand):
            if t == 0:
                j = first
            else:
                m = 0
                for j in range(counts[leader]):
                    if broken or hands[leader, j] // 13 != 2:
                        legal[m] = j
                        m += 1
                j = legal[np.random.randint(0, m)] if m else np.random.randint(0, counts[leader])
            card = take(hands, counts, leader, j)
            led, best, winner = card // 13, card % 13, leader
            hearts_in, queen_in = 1 if led == 2 else 0, card == queen
            for i in range(1, p):
                seat = (leader + i) % p
                m = 0
                for j in range(counts[seat]):
                    if hands[seat, j] // 13 == led:
                        legal[m] = j
                        m += 1
                if m == 0 and t == 0:  # cannot follow the first trick: no penalty card if it can help
                    for j in range(counts[seat]):
                        c = hands[seat, j]
                        if c // 13 != 2 and c != queen:
                            legal[m] = j
                            m += 1
                j = legal[np.random.randint(0, m)] if m else np.random.randint(0, counts[seat])
                card = take(hands, counts, seat, j)
                hearts_in += card // 13 == 2
                queen_in |= card == queen
                if card // 13 == led and card % 13 > best:
                    best, winner = card % 13, seat
            broken |= hearts_in > 0
            tricks[winner] += 1
            points[winner] += hearts_in + 13 * queen_in
            leader = winner
        for s in range(p):
            moon[s] = points[s] == 26
        shot = moon.any()
        for s in range(p):
            score[s] = 0 if moon[s] else (26 if shot else points[s])
        tally(sums, score, tricks, moon, True)
    return sums


LOOPS = {"black-white": black_white, "kansas-city": kansas_city, "trickster": trickster,
         "out-trumped": out_trumped, "nine-lives": nine_lives, "hearts": hearts}
"""Game id -> ``loop(n, seed)``: per-seat sums (rows: seats; columns: score, score², tricks,
tricks², rate, win share). ``hearts`` is timed and checked once simtool has the game."""


def warm_up(games=LOOPS) -> None:
    """Compile (or load from the cache) every loop, so that timings leave the compiler out."""
    for game in games:
        LOOPS[game](10, 1)


def figures(sums: np.ndarray, n: int) -> dict[str, list[float]]:
    """Per seat: ``score``, ``score_sd``, ``tricks``, ``tricks_sd``, ``rate``, ``win`` (as
    bench/ratio.py's ``run_loop`` reads them from a C loop)."""
    mean = sums / n

    def sd(mean_col, sq_col):
        return [math.sqrt(max(v, 0.0)) for v in mean[:, sq_col] - mean[:, mean_col] ** 2]

    return {"score": mean[:, SCORE].tolist(), "score_sd": sd(SCORE, SCORE_SQ),
            "tricks": mean[:, TRICKS].tolist(), "tricks_sd": sd(TRICKS, TRICKS_SQ),
            "rate": mean[:, RATE].tolist(), "win": mean[:, WIN].tolist()}
