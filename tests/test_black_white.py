"""Black & White rules on hand-built deals, and statistics under random play."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simtool import bits
from simtool.engine import Match, shares
from simtool.games import black_white
from simtool.games.black_white import BLACK, CARDS, GAME, WHITE, Round, score, sheet_hand
from simtool.pipeline.runner import play_chunk

from .conftest import drive, spec


def card(k: int) -> int:
    """Option number of the printed card k (black k, white 37 - k)."""
    return k - 1


def hand_built(hands: list[list[int]], leader: int = 0, cards: int = CARDS) -> Round:
    """One deal with the given printed cards per seat, from a deck of ``cards``."""
    p = len(hands)
    sets = np.array([[bits.of(card(k) for k in h) for h in hands]], np.uint64)
    return Round(p=p, rnd=0, hand_size=len(hands[0]), dealt=np.bitwise_or.reduce(sets, axis=1),
                 hands=sets, totals=np.zeros((1, p), np.int32), leader=np.array([leader]),
                 played=np.zeros(1, np.uint64), trick=np.full((1, p), -1, np.int8),
                 colour=np.full(1, -1, np.int8), best=np.zeros(1, np.int16),
                 winning=np.zeros(1, np.int64), black=np.zeros((1, p), np.int8),
                 white=np.zeros((1, p), np.int8), cards=cards)


@pytest.mark.parametrize("colour,winner", [(WHITE, 2), (BLACK, 1)])
def test_the_highest_number_in_the_announced_colour_wins(colour, winner):
    # cards 10, 30, 5: black 10, 30, 5 / white 27, 7, 32
    s = hand_built([[10], [30], [5]])
    results, seen = drive(GAME, s, [card(10), colour, card(30), card(5)])
    assert [d.kind for d in seen] == ["lead", "colour", "play", "play"]
    won = results["black"] if colour == BLACK else results["white"]
    assert won.tolist() == [[int(seat == winner) for seat in range(3)]]
    assert results["tricks"].sum() == 1


def test_any_card_may_follow_and_the_winner_leads_next():
    s = hand_built([[1, 2], [35, 36], [17, 18]])
    play = GAME.play(s)
    lead = play.send(None)
    assert lead.kind == "lead" and int(lead.seat[0]) == 0
    play.send(np.array([card(1)]))
    play.send(np.array([BLACK]))  # black 1: anything beats it
    follow = play.send(np.array([card(36)]))
    assert follow.kind == "play" and int(follow.seat[0]) == 2
    assert follow.legal[0] == s.hands[0, 2]  # the whole hand: following is always possible
    nxt = play.send(np.array([card(17)]))
    assert nxt.kind == "lead" and int(nxt.seat[0]) == 1  # black 36 won


def test_balanced_tricks_score_plus_unbalanced_minus():
    black = np.array([[2, 0, 3, 0]], np.int8)
    white = np.array([[2, 0, 1, 1]], np.int8)
    assert score(black, white)["score"].tolist() == [[4, 0, -4, -1]]  # 0-0 scores 0


def test_two_players_the_closer_to_balance_wins_the_round():
    r = score(np.array([[2, 3], [1, 2], [0, 4]], np.int8), np.array([[2, 1], [2, 1], [5, 0]], np.int8))
    # off by 0 beats 2; 1 and 1 draw; off by 4 beats off by 5
    assert r["score"].tolist() == [[1, 0], [0, 0], [0, 1]]
    assert r["tricks"].tolist() == [[4, 4], [3, 3], [5, 4]]


def test_two_player_rounds_are_never_drawn_and_a_draw_would_split_the_win():
    # 11 tricks: the seats' trick counts differ in parity, so their |b - w| can never tie
    c = play_chunk(spec("black-white", 2, n=3000), 0).seats
    per_deal = c.group_by("deal").agg(pl.col("score").sum().alias("wins"))
    assert (per_deal["wins"] == 1).all()
    assert shares(np.array([[0, 0]]), lower_wins=False).tolist() == [[0.5, 0.5]]


@pytest.mark.parametrize("p", [2, 3, 4])
def test_deal_sizes_and_leader_rotation(p):
    rng = np.random.default_rng(1)
    match = Match(p, {}, np.zeros((500, p), np.int32))
    for rnd in range(p + 1):
        s = GAME.deal(rng, match, rnd)
        assert (bits.count(s.hands) == sheet_hand(CARDS, p)).all()
        assert (s.leader == rnd % p).all()
    assert (np.bitwise_or.reduce(s.hands, axis=1) == s.dealt).all()
    dealt_cards = bits.count(s.dealt)
    assert (dealt_cards == p * sheet_hand(CARDS, p)).all()  # 2p: 22 cards used, 14 unused


def test_match_needs_p_rounds_and_a_single_leader():
    m = Match(3, {}, np.array([[3, 1, 0], [2, 2, 0], [5, 5, 5]], np.int32))
    assert not GAME.match_over(m, 1).any()  # only 2 of 3 rounds played
    assert GAME.match_over(m, 2).tolist() == [True, False, False]  # ties for first play on
    assert GAME.match_over(m, 7).tolist() == [True, False, False]


@pytest.mark.parametrize("p", [2, 3, 4])
def test_whole_matches_end_with_one_leader_or_the_cap(p):
    c = play_chunk(spec("black-white", p, n=400, unit="match"), 0)
    m = c.matches
    assert (m["rounds"] >= p).all()
    capped = m.filter(pl.col("capped"))
    decided = m.filter(~pl.col("capped"))
    top = decided.group_by("match").agg((pl.col("total") == pl.col("total").max()).sum().alias("leaders"))
    assert (top["leaders"] == 1).all()
    assert (decided.group_by("match").agg(pl.col("win").max())["win"] == 1.0).all()
    assert capped.height == 0 or (capped["rounds"] == 200).all()
    if p == 2:  # 2p totals are round wins
        wins = c.seats.group_by("match", "seat").agg(pl.col("score").sum()).sort("match", "seat")
        assert (wins["score"].to_numpy() == m.sort("match", "seat")["total"].to_numpy()).all()


@pytest.mark.parametrize("p", [2, 3, 4])
def test_random_play_shares_tricks_evenly(p):
    """Under random play each seat's mean tricks is hand size / p, within 4 standard errors."""
    n = 40_000
    seats = play_chunk(spec("black-white", p, n=n, chunk=n, seed=2024), 0).seats
    per_seat = seats.group_by("seat").agg(pl.col("tricks").mean().alias("m"),
                                          pl.col("tricks").std().alias("sd"))
    expected = sheet_hand(CARDS, p) / p
    for m, sd in per_seat.select("m", "sd").rows():
        assert abs(m - expected) < 4 * sd / np.sqrt(n), (m, expected)


@pytest.mark.parametrize("deck", [20, 30, 36])
def test_a_card_s_number_by_arithmetic_is_the_table_s_for_any_shapes(deck):
    """``value`` (arithmetic) reads as the table ``values`` for every card and colour, given arrays,
    one card in several colours, or one colour for several cards."""
    black, white = black_white.values(deck)
    cards = np.arange(deck)
    for colour, table in ((black_white.BLACK, black), (black_white.WHITE, white)):
        assert black_white.value(cards, np.full(deck, colour), deck).tolist() == table[cards].tolist()
        assert black_white.value(cards, colour, deck).tolist() == table[cards].tolist()
    both = np.array([black_white.BLACK, black_white.WHITE])
    assert black_white.value(7, both, deck).tolist() == [black[7], white[7]]


@pytest.mark.parametrize("deck", [36, 20, 64])
def test_a_trick_counts_each_card_by_its_colour_coding_as_value_does(deck):
    # the follower's number is card * sign + offset, worked out when the colour is named
    cards = np.tile(np.arange(deck), 2)
    colour = np.repeat(np.array([black_white.BLACK, black_white.WHITE], np.int8), deck)
    sign, offset = black_white._coding(colour, deck)
    coded = cards.astype(np.int16) * sign + offset
    assert coded.dtype == np.int16
    assert coded.tolist() == black_white.value(cards, colour, deck).tolist()
