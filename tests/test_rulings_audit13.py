"""Audit 13 of the engines against /work/shared/RULINGS.md: whole matches under the reference
random policy, against plain per-match implementations written here from the rulings alone (the
reference_* helpers play one deal each, round 0 of a fresh match, so none of them checked who
deals and leads in later rounds, the match's end, the floor at 0, Nine Lives' life piles and the
Kittykeeper carried over, Black & White's tie-break rounds; and Black & White had no independent
implementation at all); single deals at the option values and player counts where a reference_*
helper exists but no test ran it; and hand-built deals for the rulings no other test pins.

Each statistical test compares per-seat means of the match total and the win share, and the mean
number of rounds, within 4.5 standard errors (seeded: the same figures every run)."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest

from simtool import bits
from simtool.games import out_trumped
from simtool.pipeline.runner import play_chunk

from . import test_out_trumped as ot_t
from .conftest import assert_matches_reference, spec
from .reference_hearts import random_deal as hearts_deal

CAP = 200  # the rulings, Common: the safety cap on a match's rounds
N_SIGMA = 4.5


def shares(totals: list[int], lower: bool = False) -> list[float]:
    """Win shares: tied winners share the win equally (the rulings, Common)."""
    best = min(totals) if lower else max(totals)
    k = totals.count(best)
    return [1 / k if t == best else 0.0 for t in totals]


def add(totals, scores, floor=None):
    return [t + s if floor is None else max(floor, t + s) for t, s in zip(totals, scores, strict=True)]


# --- Black & White: "Leader of round r is seat r mod p"; p rounds, then tie-break rounds ----------

def bw_round(rng: random.Random, p: int, r: int) -> dict[str, list[int]]:
    cards = list(range(1, 37))  # card k: black k, white 37 - k
    rng.shuffle(cards)
    size = 11 if p == 2 else 36 // p
    hands = [cards[i * size:(i + 1) * size] for i in range(p)]
    black, white = [0] * p, [0] * p
    leader = r % p
    for _ in range(size):
        colour = None
        best = winner = None
        for i in range(p):
            seat = (leader + i) % p
            card = rng.choice(hands[seat])  # any card may follow
            hands[seat].remove(card)
            if colour is None:
                colour = rng.randrange(2)  # (card, colour): uniform over the pairs
            number = card if colour == 0 else 37 - card
            if best is None or number > best:
                best, winner = number, seat
        (black if colour == 0 else white)[winner] += 1
        leader = winner
    if p == 2:
        off = [abs(b - w) for b, w in zip(black, white, strict=True)]
        score = [int(off[0] < off[1]), int(off[1] < off[0])]
    else:
        score = [b + w if b == w else -(b + w) for b, w in zip(black, white, strict=True)]
    return {"score": score, "black": black, "white": white}


def bw_match(rng, p):
    totals = [0] * p
    for r in range(CAP):
        totals = add(totals, bw_round(rng, p, r)["score"])
        if r + 1 >= p and totals.count(max(totals)) == 1:
            return totals, shares(totals), r + 1
    return totals, shares(totals), CAP


# --- Kansas City: round r dealt by seat r - 1, so seat r mod p leads; 3 hands or p ---------------

def kc_round(rng, p, r, pass_count):
    deck = [(suit, rank) for suit in range(7) for rank in range(1, 9)]
    rng.shuffle(deck)
    size = 14 if p == 4 else 11  # 5p: the 56th card is set aside
    table = [0, 5, 10, 15, 5, 0] if p == 4 else [0, 5, 10, 5, 0]
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    gave = [rng.sample(h, pass_count) for h in hands]
    hands = [[c for c in hands[i] if c not in gave[i]] + gave[i - 1] for i in range(p)]  # to seat s + 1
    trumps, tricks, fours = set(), [0] * p, [0] * p
    leader = r % p
    for t in range(size):
        trick = []
        for i in range(p):
            seat = (leader + i) % p
            hand = hands[seat]
            if trick:
                lead = trick[0][1]
                same = [c for c in hand if c in trumps] if lead in trumps else \
                    [c for c in hand if c not in trumps and c[0] == lead[0]]
                card = rng.choice(same or hand)
            else:
                card = rng.choice(hand)
            hand.remove(card)
            trick.append((seat, card))
        lead = trick[0][1]
        trumped = [(c[1], s) for s, c in trick if c in trumps]
        winner = max(trumped)[1] if trumped else max((c[1], s) for s, c in trick if c[0] == lead[0])[1]
        tricks[winner] += 1
        fours[winner] += sum(c[1] == 4 for _, c in trick)
        if t < size - 1:  # after every trick but the last, each loser from the winner's left
            for i in range(1, p):
                seat = (winner + i) % p
                held = {c[1] for h in hands for c in h if c in trumps}
                pick = rng.choice([None] + [c for c in hands[seat] if c not in trumps and c[1] not in held])
                if pick is not None:
                    trumps.add(pick)
        leader = winner
    return [table[min(t, len(table) - 1)] + 2 * f for t, f in zip(tricks, fours, strict=True)]


def kc_match(rng, p, hands="3", pass_count=3):
    count = 3 if hands == "3" else p
    totals = [0] * p
    for r in range(count):
        totals = add(totals, kc_round(rng, p, r, pass_count))
    return totals, shares(totals), count


# --- Trickster: p rounds, lowest total wins ----------------------------------------------------

def tr_round(rng, p):
    deck = [(suit, rank) for suit in range(4) for rank in range(1, 14)]
    rng.shuffle(deck)
    size = 52 // p
    tableau = [deck[i * size:(i + 1) * size] for i in range(p)]
    held, collected = [[] for _ in range(p)], [[] for _ in range(p)]
    pips = lambda c: c[1] if c[1] <= 10 else 0
    for turn in range(size):
        for seat in range(p):
            hand = held[seat]
            follow = [c for c in tableau[seat] if hand and c[0] == hand[0][0]]
            card = rng.choice(follow or tableau[seat])
            tableau[seat].remove(card)
            if hand and (card[0] != hand[0][0] or sum(map(pips, hand)) + pips(card) > 13):
                collected[seat] += hand
                held[seat] = [card]
            else:
                hand.append(card)
        if turn < size - 1:
            held = [held[(seat + 1) % p] for seat in range(p)]  # passed right: seat s gets s + 1's
    for seat in range(p):
        collected[seat] += held[seat]
    points = lambda c: 1 if c[1] <= 10 else c[1] - 9  # J 2, Q 3, K 4
    score = [0] * p
    for suit in range(4):
        counts = [sum(c[0] == suit for c in cs) for cs in collected]
        top = max(counts)
        moon = counts.index(top) if top > 0 and counts.count(top) == 1 else None
        for seat in range(p):
            if seat != moon:
                score[seat] += sum(points(c) for c in collected[seat] if c[0] == suit)
    return score


def tr_match(rng, p):
    totals = [0] * p
    for _ in range(p):
        totals = add(totals, tr_round(rng, p))
    return totals, shares(totals, lower=True), p


# --- Out-Trumped: dealer (r - 1) mod p, floor at 0 once per hand, then the goal check ----------

def ot_round(rng, p, r, wild="dealer", follow="overtake", kitty="none"):
    deck = [(suit, rank) for suit in range(5) for rank in range(1, 13)]
    rng.shuffle(deck)
    size = {2: 15, 3: 15, 4: 15, 5: 12, 6: 10}[p]
    if kitty != "none":
        size = min(size, 55 // p)
    hands = [deck[i * size:(i + 1) * size] for i in range(p)]
    pot = deck[p * size:p * size + 5]
    dealer = (r - 1) % p
    face = rng.randrange(6)
    trump = face if face < 5 else (rng.randrange(5) if wild == "dealer" else None)
    taker = bid = None
    if kitty == "bid":
        standing = 0
        for i in range(p):
            seat = (dealer + 1 + i) % p
            choice = rng.choice([0] + list(range(standing + 1, size + 1)))
            if choice:
                standing = bid = choice
                taker = seat
    elif kitty == "low-card":
        lowest = None
        for i in range(p):
            seat = (dealer + 1 + i) % p
            shown = min(c[1] for c in ([c for c in hands[seat] if c[0] != trump] or hands[seat]))
            if lowest is None or shown < lowest:  # a tie stays with the earlier seat
                lowest, taker = shown, seat
    if taker is not None:
        hands[taker] += pot
        for card in rng.sample(hands[taker], 5):
            hands[taker].remove(card)
    tricks, trumps = [0] * p, [0] * p
    leader = r % p
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
                legal = (higher or same or trumped or hand) if follow == "overtake" else (higher or trumped or hand)
            card = rng.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        led = trick[0][1][0]
        trumped = [(c[1], s) for s, c in trick if c[0] == trump]
        winner = max(trumped)[1] if trumped else max((c[1], s) for s, c in trick if c[0] == led)[1]
        tricks[winner] += 1
        trumps[winner] += len(trumped)
        leader = winner
    score = list(tricks)
    holders = [s for s in range(p) if trumps[s] >= 1]
    if trump is not None and len(holders) == 1:
        score[holders[0]] += 2 * trumps[holders[0]]
    elif trump is not None and holders:
        most, fewest = max(trumps[s] for s in holders), min(trumps[s] for s in holders)
        for s in holders:
            score[s] += trumps[s] if trumps[s] == most else -trumps[s] if trumps[s] == fewest else 0
    if kitty == "bid" and taker is not None:
        score[taker] += bid if tricks[taker] >= bid else -bid
    return score


def ot_match(rng, p, goal=50, **rules):
    totals = [0] * p
    for r in range(CAP):
        totals = add(totals, ot_round(rng, p, r, **rules), floor=0)
        if max(totals) >= goal:
            return totals, shares(totals), r + 1
    return totals, shares(totals), CAP


# --- Nine Lives: life piles leave the deck, the last trick's winner keeps the kitty -------------

def nl_match(rng, p, lives=9, ranks=9):
    piles, keeper, totals = set(), 0, [0] * p
    for r in range(CAP):
        deck = [(suit, rank) for suit in range(p) for rank in range(1, ranks + 1) if (suit, rank) not in piles]
        rng.shuffle(deck)
        size = len(deck) // p
        hands = [deck[i * size:(i + 1) * size] for i in range(p)]
        bids = [rng.choice(h) for h in hands]  # all at once
        for hand, b in zip(hands, bids, strict=True):
            hand.remove(b)
        tricks = [0] * p
        for _ in range(size - 1):
            trump, trick = bids[keeper][0], []
            for i in range(p):
                seat = (keeper + i) % p
                hand = hands[seat]
                card = rng.choice([c for c in hand if trick and c[0] == trick[0][1][0]] or hand)
                hand.remove(card)
                trick.append((seat, card))
            counted = [(c, s) for s, c in trick if c[0] != bids[s][0]]
            trumped = [(c[1], s) for c, s in counted if c[0] == trump]
            led = [(c[1], s) for c, s in counted if c[0] == trick[0][1][0]]
            keeper = max(trumped)[1] if trumped else max(led)[1] if led else keeper
            tricks[keeper] += 1
        one_team = len({b[0] for b in bids}) == 1
        for s in range(p):
            team = [o for o in range(p) if bids[o][0] == bids[s][0]]
            if tricks[s] == bids[s][1] or (len(team) >= 2 and not one_team and sum(tricks[o] for o in team)
                                           == sum(bids[o][1] for o in team)):
                totals[s] += bids[s][1]
                piles.add(bids[s])
        if max(totals) >= lives or (p * ranks - len(piles)) // p < 2:
            return totals, shares(totals), r + 1
    return totals, shares(totals), CAP


# --- Hearts (public rules, docs/rules/hearts.md): the pass cycle by hand, the goal -------------

def hearts_match(rng, p, goal=100, **rules):
    totals = [0] * p
    for r in range(CAP):
        totals = add(totals, hearts_deal(rng, p, rules, rnd=r)["score"])
        if max(totals) >= goal:
            return totals, shares(totals, lower=True), r + 1
    return totals, shares(totals, lower=True), CAP


def assert_matches_agree(game, p, reference, n_engine, n_reference, rules=None, **kw):
    """Per seat mean total and win share, and the mean match length, of ``n_engine`` engine
    matches (random play) and ``n_reference`` reference matches agree within N_SIGMA SE."""
    m = play_chunk(spec(game, p, n=n_engine, chunk=n_engine, unit="match", seed=23, rules=rules), 0).matches
    m = m.sort(["match", "seat"])
    mine = [m["total"].to_numpy().reshape(-1, p).astype(float), m["win"].to_numpy().reshape(-1, p).astype(float),
            m["rounds"].to_numpy().reshape(-1, p)[:, :1].astype(float)]
    rng = random.Random(p)
    played = [reference(rng, p, **kw) for _ in range(n_reference)]
    theirs = [np.array([x[0] for x in played], float), np.array([x[1] for x in played], float),
              np.array([[x[2]] for x in played], float)]
    for name, a, b in zip(("total", "win", "rounds"), mine, theirs, strict=True):
        se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b) + 1e-12)
        z = (a.mean(axis=0) - b.mean(axis=0)) / se
        assert (np.abs(z) < N_SIGMA).all(), (name, a.mean(axis=0), b.mean(axis=0), z)


# As few matches (deals) per statistical test as keep what it catches. Under random play the seats
# are alike, so a ruling that only moves who leads or deals (a later round's leader in any game,
# Kansas City's pass direction or count, Trickster's passing, Out-Trumped's floor) moves no seat's
# means: broken in a scratch copy of the references, none reached 3.5 SE at the sizes played before
# (up to four times these). What they catch is a match's length and what a rule changes for every
# seat; broken in a scratch copy of the engine, these tests fail at these sizes by: Black & White
# without tie-break rounds 11.7, 9.8 and 11.9 SE (2, 3, 4 players), Nine Lives' life piles left in
# the deck 7.9 and 8.2 (2 and 5 players), Out-Trumped's dealer fixed 11.1 (2 players, bid kitty),
# Kansas City's trick limit one more 15 to 25, matches and single deals. The cases with less to
# spare play as before: Nine Lives at 3 players (the Kittykeeper reset every round: 5.8 SE),
# Hearts (its pass cycle, reference side: 3.5) and the Out-Trumped, Trickster and Nine Lives single
# deals (Out-Trumped's follow or wild rule swapped, reference side: 5 to 9).


@pytest.mark.parametrize("p", [2, 3, 4])
def test_black_white_matches_agree_with_the_rulings(p):
    assert_matches_agree("black-white", p, bw_match, 10_000, 1500)


@pytest.mark.parametrize("p", [2, 4])
def test_black_white_deals_agree_with_the_rulings(p):
    # no reference_* helper plays Black & White: the per-seat colours of one deal, seat 0 leading
    seats = play_chunk(spec("black-white", p, n=40_000, chunk=40_000, seed=29), 0).seats.sort(["deal", "seat"])
    rng = random.Random(p)
    played = [bw_round(rng, p, 0) for _ in range(6000)]
    for col in ("black", "white", "score"):
        a = seats[col].to_numpy().reshape(-1, p).astype(float)
        b = np.array([d[col] for d in played], float)
        se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
        assert (np.abs(a.mean(axis=0) - b.mean(axis=0)) < N_SIGMA * se).all(), col


@pytest.mark.parametrize("p,rules", [(4, {}), (5, {"hands": "p", "pass_count": 1}), (4, {"pass_count": 0})])
def test_kansas_city_matches_agree_with_the_rulings(p, rules):
    assert_matches_agree("kansas-city", p, kc_match, 1500, 150, rules, **rules)


@pytest.mark.parametrize("p", [3, 5])
def test_trickster_matches_agree_with_the_rulings(p):
    assert_matches_agree("trickster", p, tr_match, 1500, 150)


@pytest.mark.parametrize("p,rules,n", [
    (4, {}, 1250),
    (2, {"follow": "literal", "kitty": "bid"}, 2500),
    (6, {"kitty": "low-card", "wild": "no-trump"}, 1250),
    (3, {"goal": 1}, 1250),
])
def test_out_trumped_matches_agree_with_the_rulings(p, rules, n):
    assert_matches_agree("out-trumped", p, ot_match, n, n // 10, rules, **rules)


@pytest.mark.parametrize("p,rules,n", [(2, {}, 4500), (5, {"lives_to_end": 5}, 4500), (4, {"lives_to_end": 1}, 1500),
                                       (3, {"ranks": 4, "lives_to_end": 3}, 6000)])
def test_nine_lives_matches_agree_with_the_rulings(p, rules, n):
    kw = {"lives": rules.get("lives_to_end", 9), "ranks": rules.get("ranks", 9)}
    assert_matches_agree("nine-lives", p, nl_match, n, n * 2 // 15, rules, **kw)


@pytest.mark.parametrize("p,rules", [(4, {"goal": 30}), (3, {"goal": 40}), (5, {"goal": 30, "moon": "subtract"})])
def test_hearts_matches_agree_with_the_public_rules(p, rules):
    assert_matches_agree("hearts", p, hearts_match, 6000, 800, rules, **rules)


# --- hand-built deals --------------------------------------------------------------------------

def test_ot_low_card_compares_ranks_only_so_an_all_trump_hands_trump_can_take_the_kitty():
    # the rulings, Out-Trumped, Kitty details: "low-card shows the lowest non-trump if the player
    # holds one, else the lowest trump; only ranks are compared". Trump A: seat 0 holds only
    # trumps and shows A1, rank 1, below seat 1's plain B2 and seat 2's C3: seat 0 takes the kitty
    s = ot_t.hand_built([["A1", "A9"], ["B2", "A3"], ["C3", "D4"]], rules={"kitty": "low-card"})
    s.kitty = np.array([ot_t.cards(["E1", "E2", "E3", "E4", "E6"])])
    d = out_trumped.GAME.play(s).send(None)
    assert s.shown.tolist() == [[1, 2, 3]] and s.taker.tolist() == [0]
    assert d.kind == "discard" and ot_t.seat_of(d) == 0 and bits.count(d.legal[0]) == 7


def test_ot_a_bid_of_the_hand_size_leaves_the_later_bidders_only_pass():
    # the rulings, Out-Trumped: "Bids run from the standing bid + 1 ... up to the hand size": once
    # seat 0 bids 2 with hands of 2, seats 1 and 2 may only pass, and seat 0 takes the kitty
    s = ot_t.hand_built([["B5", "B1"], ["A2", "C2"], ["B12", "B3"]], rules={"kitty": "bid"})
    s.kitty = np.array([ot_t.cards(["D1", "D2", "D3", "D4", "D5"])])
    play = out_trumped.GAME.play(s)
    d = play.send(None)
    assert d.legal[0] == bits.of([out_trumped.PASS, 1, 2])
    d = play.send(np.array([2]))
    assert ot_t.seat_of(d) == 1 and d.legal[0] == bits.of([out_trumped.PASS])
    d = play.send(np.array([out_trumped.PASS]))
    assert ot_t.seat_of(d) == 2 and d.legal[0] == bits.of([out_trumped.PASS])
    d = play.send(np.array([out_trumped.PASS]))
    assert d.kind == "discard" and s.taker.tolist() == [0]


def test_ot_the_floor_comes_before_the_goal_check_once_per_hand():
    # the rulings, Out-Trumped: "The floor at 0 is applied once per hand, to the running total plus
    # the hand's score ...; the 50-point check comes after it"
    m = out_trumped.GAME.new_match(1, 3, {o.name: o.default for o in out_trumped.GAME.options})
    m.totals[:] = [[3, 49, 10]]
    out_trumped.GAME.end_round(m, {"score": np.array([[-5, 1, -2]], np.int16)})
    assert m.totals.tolist() == [[0, 50, 8]] and out_trumped.GAME.match_over(m, 0).tolist() == [True]
    out_trumped.GAME.end_round(m, {"score": np.array([[4, -60, 0]], np.int16)})
    assert m.totals.tolist() == [[4, 0, 8]] and out_trumped.GAME.match_over(m, 1).tolist() == [False]


# --- single deals where a reference_* helper exists but no test ran it -------------------------

@pytest.mark.parametrize("p,passes", [(4, 0), (4, 2), (5, 1)])
def test_kansas_city_deals_agree_with_the_reference_at_other_pass_counts(p, passes):
    from .reference_kansas_city import random_deal

    rng = random.Random(p * 10 + passes)
    ref = [random_deal(rng, p, passes) for _ in range(625)]
    seats = play_chunk(spec("kansas-city", p, n=7500, chunk=7500, seed=31, rules={"pass_count": passes}), 0).seats
    assert_matches_reference(seats.with_columns(pl.col("overshoot") > 0), ref,
                             ("tricks", "upgrades", "fours", "score", "overshoot"))


@pytest.mark.parametrize("p,rules", [
    (5, {"kitty": "bid", "follow": "literal"}),  # hands of 11 (55 // 5): bids 1..11
    (6, {"kitty": "bid", "wild": "no-trump"}),  # hands of 9
    (6, {"kitty": "low-card", "follow": "literal"}),
])
def test_out_trumped_deals_agree_with_the_reference_where_the_kitty_shrinks_the_hands(p, rules):
    from .reference_out_trumped import random_deal

    full = {"wild": "dealer", "follow": "overtake", "kitty": "none"} | rules
    rng = random.Random(p)
    ref = [random_deal(rng, p, **full) for _ in range(2500)]
    seats = play_chunk(spec("out-trumped", p, n=30_000, chunk=30_000, seed=31, rules=full), 0).seats
    assert_matches_reference(seats, ref, ("tricks", "trumps", "bonus", "kitty", "score"))


@pytest.mark.parametrize("p", [3, 5])
def test_trickster_and_nine_lives_deals_agree_with_the_reference_at_odd_player_counts(p):
    from .reference_nine_lives import random_round
    from .reference_trickster import random_deal

    rng = random.Random(p)
    ref = [random_deal(rng, p) for _ in range(2500)]
    seats = play_chunk(spec("trickster", p, n=30_000, chunk=30_000, seed=31), 0).seats
    assert_matches_reference(seats, ref, ("score", "tricks", "collected", "moon"))
    ref = [random_round(rng, p) for _ in range(2500)]
    seats = play_chunk(spec("nine-lives", p, n=30_000, chunk=30_000, seed=31), 0).seats
    assert_matches_reference(seats, ref, ("tricks", "bid", "made", "score", "team_size", "fallback"))
