"""Hearts rules on hand-built deals, every rule option, the heuristics, and statistics under
random play against an independent implementation (tests/reference_hearts.py)."""

from __future__ import annotations

import random
import re

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from simtool import bits, engine
from simtool.games.hearts import (
    GAME,
    LAYOUT,
    PASS,
    REMOVED,
    moon_points,
    new_round,
    opening_card,
    pack,
    pass_way,
    score,
)
from simtool.pipeline.runner import play_chunk

from .conftest import assert_matches_reference, spec
from .test_cli import cli, one_line_error
from .test_heuristics import choice_of

DEFAULTS = {o.name: o.default for o in GAME.options}


def c(label: str) -> int:
    """'QS' is the queen of spades, 'TH' the ten of hearts, '2C' the two of clubs."""
    return LAYOUT.card(label)


def cards(labels) -> np.uint64:
    return LAYOUT.hand(labels)


def hand_built(hands, rnd=0, **rules):
    """A one-deal hand of these hands (no pass unless ``passing`` is given)."""
    sets = np.array([[cards(h) for h in hands]], np.uint64)
    return new_round(sets, DEFAULTS | {"passing": "none"} | rules, rnd)


def legal(d) -> set[str]:
    return set(LAYOUT.labels(np.broadcast_to(d.legal, (1,))[0]))


def seat_of(d) -> int:
    return int(np.broadcast_to(d.seat, (1,))[0])


def play_to(s, plays):
    """The decision after the cards ``plays``, on ``s`` itself."""
    play = GAME.play(s)
    d = play.send(None)
    for label in plays:
        d = play.send(np.array([c(label)]))
    return d


# --- the trick ---------------------------------------------------------------------------------


def test_the_two_of_clubs_leads_suit_is_followed_and_the_highest_of_the_led_suit_wins():
    s = hand_built([["3C", "AH"], ["2C", "5D"], ["KC", "4S"], ["9D", "AS"]])
    d = play_to(s, [])
    assert (d.kind, seat_of(d), legal(d)) == ("lead", 1, {"2C"})
    d = play_to(s, ["2C"])
    assert (seat_of(d), legal(d)) == (2, {"KC"})  # must follow clubs
    d = play_to(s, ["KC"])
    assert (seat_of(d), legal(d)) == (3, {"9D", "AS"})  # void: anything but a penalty card
    d = play_to(s, ["AS", "3C"])  # the ace of spades is off suit: the king of clubs wins
    assert (d.kind, seat_of(d), legal(d)) == ("lead", 2, {"4S"})
    assert s.taken[0, 2] == cards(["2C", "KC", "AS", "3C"]) and s.tricks[0].tolist() == [0, 0, 1, 0]


def test_hearts_are_led_only_once_broken_or_by_a_leader_holding_nothing_else():
    hands = [["2C", "9D", "2H", "7S"], ["3C", "TD", "3H", "8S"], ["4C", "JD", "4H", "9S"],
             ["5D", "5H", "6H", "7H"]]
    d = play_to(hand_built(hands), ["2C", "3C", "4C", "5D"])
    assert (seat_of(d), legal(d)) == (2, {"JD", "9S"})  # hearts not broken
    d = play_to(hand_built(hands, lead_hearts="any"), ["2C", "3C", "4C", "5D"])
    assert legal(d) == {"JD", "9S", "4H"}
    s = hand_built(hands)
    d = play_to(s, ["2C", "3C", "4C", "5D", "JD", "5H", "9D", "TD"])  # seat 3 breaks hearts
    assert s.broken[0] and (seat_of(d), legal(d)) == (2, {"4H", "9S"})
    only = [["2C", "9D"], ["3C", "TD"], ["4C", "4H"], ["5C", "5H"]]
    d = play_to(hand_built(only), ["2C", "3C", "4C", "5C"])
    assert (seat_of(d), legal(d)) == (3, {"5H"})  # nothing but hearts: it may lead one


@pytest.mark.parametrize("rules,seat1,seat3", [
    ({}, {"5D"}, {"KS", "8D"}),  # no penalty card on the first trick; the king of spades is none
    ({"first_trick": "any"}, {"QS", "5D"}, {"KS", "8D"}),
    ({"black_maria": "on"}, {"5D"}, {"8D"}),  # the king of spades is a penalty card too
])
def test_the_first_trick_takes_no_penalty_card_unless_a_seat_holds_nothing_else(rules, seat1, seat3):
    s = hand_built([["2C", "3C"], ["QS", "5D"], ["AH", "KH"], ["KS", "8D"]], **rules)
    assert legal(play_to(s, ["2C"])) == seat1
    s = hand_built([["2C", "3C"], ["QS", "5D"], ["AH", "KH"], ["KS", "8D"]], **rules)
    assert legal(play_to(s, ["2C", "5D"])) == {"AH", "KH"}  # only hearts: forced
    s = hand_built([["2C", "3C"], ["QS", "5D"], ["AH", "KH"], ["KS", "8D"]], **rules)
    assert legal(play_to(s, ["2C", "5D", "KH"])) == seat3


# --- scoring -----------------------------------------------------------------------------------

ALL_HEARTS = [f"{r}H" for r in "23456789TJQKA"]


def scores(taken, **rules):
    sets = np.array([[cards(t) for t in taken]], np.uint64)
    return score(sets, np.zeros(sets.shape, np.int16), DEFAULTS | rules)


@pytest.mark.parametrize("rules,expected", [
    ({}, [11, 13, 1, 0]),
    ({"queen": 7}, [11, 7, 1, 0]),
    ({"black_maria": "on"}, [11, 13, 1, 17]),
    ({"jack": "on"}, [11, 13, 1, -10]),
    ({"black_maria": "on", "jack": "on"}, [11, 13, 1, 7]),
])
def test_card_points(rules, expected):
    r = scores([ALL_HEARTS[2:], ["QS", "2C"], ["2H"], ["KS", "AS", "JD", "3H"]], **rules)
    assert r["score"][0].tolist() == [e + (x == 3) for x, e in enumerate(expected)]  # 3H: 1 point
    assert r["hearts"][0].tolist() == [11, 0, 1, 1] and r["queen"][0].tolist() == [0, 1, 0, 0]
    assert r["jack"][0].tolist() == [0, 0, 0, 1] and r["moon"][0].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("rules,expected", [
    ({}, [0, 26, 26, 26]),
    ({"moon": "subtract"}, [-26, 0, 0, 0]),
    ({"moon": "off"}, [26, 0, 0, 0]),
    ({"queen": 7}, [0, 20, 20, 20]),  # the moon is every penalty point of the hand
    ({"jack": "on"}, [0, 16, 26, 26]),  # the jack's bonus counts apart from the moon
    ({"jack": "on", "moon": "subtract"}, [-26, -10, 0, 0]),
])
def test_shooting_the_moon(rules, expected):
    r = scores([ALL_HEARTS + ["QS"], ["JD"], [], ["2C"]], **rules)
    assert r["score"][0].tolist() == expected and r["moon"][0].tolist() == [1, 0, 0, 0]


def test_the_moon_follows_the_penalty_cards():
    assert moon_points(DEFAULTS | {"black_maria": "on"}) == 43
    r = scores([ALL_HEARTS + ["QS", "KS", "AS"], [], [], []], black_maria="on")
    assert r["score"][0].tolist() == [0, 43, 43, 43] and r["moon"][0, 0] == 1
    r = scores([ALL_HEARTS + ["QS", "KS"], ["AS"], [], []], black_maria="on")  # missed the ace
    assert r["score"][0].tolist() == [36, 7, 0, 0] and r["moon"][0].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("p", [3, 4, 5])
@pytest.mark.parametrize("rules,total", [
    ({"moon": "off"}, 26), ({"moon": "off", "queen": 7}, 20), ({"moon": "off", "black_maria": "on"}, 43),
    ({"moon": "off", "jack": "on"}, 16),
])
def test_every_hand_scores_its_penalty_points(p, rules, total):
    seats = play_chunk(spec("hearts", p, n=400, rules=rules, seed=p), 0).seats
    per_deal = seats.group_by("deal").agg(pl.col("score").sum(), pl.col("hearts").sum(), pl.col("queen").sum(),
                                          pl.col("tricks").sum())
    assert (per_deal["score"] == total).all() and (per_deal["hearts"] == 13).all()
    assert (per_deal["queen"] == 1).all() and (per_deal["tricks"] == (52 - len(REMOVED[p])) // p).all()


def test_with_the_moon_a_hand_scores_26_or_three_times_26():
    seats = play_chunk(spec("hearts", 4, n=3000, seed=2), 0).seats
    per_deal = seats.group_by("deal").agg(pl.col("score").sum(), pl.col("moon").sum())
    assert set(per_deal["score"].unique()) == {26, 78}
    assert ((per_deal["score"] == 78) == (per_deal["moon"] == 1)).all()


# --- passing -----------------------------------------------------------------------------------


def test_pass_cycles():
    assert [pass_way("cycle", 4, r) for r in range(8)] == ["left", "right", "across", "hold"] * 2
    for p in (3, 5):
        assert [pass_way("cycle", p, r) for r in range(6)] == ["left", "right", "hold"] * 2
    assert {pass_way("left", 4, r) for r in range(4)} == {"left"}
    assert {pass_way("right", 3, r) for r in range(4)} == {"right"}
    assert {pass_way("none", 5, r) for r in range(4)} == {"hold"}


@pytest.mark.parametrize("p,rnd,offset", [(4, 0, 1), (4, 1, 3), (4, 2, 2), (4, 3, 0), (4, 4, 1),
                                          (3, 0, 1), (3, 1, 2), (3, 2, 0), (5, 0, 1), (5, 1, 4), (5, 2, 0)])
def test_the_passed_cards_go_to_the_seat_of_the_hand_s_direction(p, rnd, offset):
    s = GAME.deal(np.random.default_rng(rnd), GAME.new_match(50, p, DEFAULTS), rnd)
    before = s.hands.copy()
    play = GAME.play(s)
    d = play.send(None)
    picks = 0
    while d.kind == PASS:  # each seat passes its lowest cards
        d = play.send(bits.lowest(d.legal))
        picks += 1
    assert picks == (3 if offset else 0)
    gave = s.gave
    assert (bits.count(gave) == (3 if offset else 0)).all() and ((gave & ~before) == 0).all()
    assert (s.hands == (before & ~gave) | np.roll(gave, offset, axis=1)).all()
    for seat in range(p):  # seat gets the cards of seat - offset
        assert ((s.hands[:, (seat + offset) % p] & gave[:, seat]) == gave[:, seat]).all()
    opening = bits.BIT[opening_card(p)]
    assert d.kind == "lead" and ((s.hands[np.arange(50), d.seat] & opening) != 0).all()
    assert (d.legal == opening).all()


# --- players and the deal ----------------------------------------------------------------------


@pytest.mark.parametrize("p,removed,hand,opening", [(3, ["2D"], 17, "2C"), (4, [], 13, "2C"),
                                                    (5, ["2C", "2D"], 10, "3C")])
def test_the_deal_at_each_player_count(p, removed, hand, opening):
    assert len(pack(p)) == 52 - len(removed) and LAYOUT.label(opening_card(p)) == opening
    s = GAME.deal(np.random.default_rng(1), GAME.new_match(2000, p, DEFAULTS), 0)
    assert (bits.count(s.hands) == hand).all() and s.hand_size == hand
    assert (s.dealt == LAYOUT.deck & ~cards(removed)).all()
    # every card in play reaches every seat (a uniform deal), the removed ones never
    held = np.stack([bits.to_mask(s.hands[:, seat], 52).mean(axis=0) for seat in range(p)])
    assert (held[:, [c(x) for x in removed]] == 0).all()
    live = np.setdiff1d(np.arange(52), [c(x) for x in removed])
    assert np.allclose(held[:, live], 1 / p, atol=0.05)


# --- the match ---------------------------------------------------------------------------------


def test_a_match_ends_once_someone_reaches_the_goal_and_the_lowest_total_wins():
    goal = 40
    c_ = play_chunk(spec("hearts", 4, n=300, unit="match", rules={"goal": goal}, seed=4), 0)
    totals = c_.seats.sort("match", "round", "seat").group_by("match", "seat", maintain_order=True).agg(
        pl.col("score").cum_sum().alias("running"))
    by_match = totals.group_by("match").agg(pl.col("running"))
    for running in by_match["running"]:
        table = np.array([list(r) for r in running]).T  # (rounds, seats)
        assert table[-1].max() >= goal and (len(table) == 1 or table[-2].max() < goal)
    m = c_.matches.sort("match", "seat")
    total = m["total"].to_numpy().reshape(-1, 4)
    win = m["win"].to_numpy().reshape(-1, 4)
    lowest = total == total.min(axis=1, keepdims=True)
    assert np.allclose(win, lowest / lowest.sum(axis=1, keepdims=True))
    assert (lowest.sum(axis=1) > 1).any()  # shared wins happen, and are split
    assert np.allclose(engine.shares(np.array([[30, 30, 41, 12]]), GAME.lower_wins), [[0, 0, 0, 1]])


def test_match_hands_rotate_the_pass_direction():
    from simtool.pipeline.runner import replay

    text = "\n".join(replay(spec("hearts", 4, n=1, unit="match", lineup=["ducker"] * 4, seed=1), 0))
    ways = [line.split("pass: ")[1] for line in text.splitlines() if line.startswith("  pass: ")]
    assert len(ways) >= 5 and ways[:5] == ["left", "right", "across", "hold", "left"]


# --- statistics under the random policy --------------------------------------------------------

VARIANT = {"passing": "right", "lead_hearts": "any", "first_trick": "any", "moon": "subtract",
           "queen": 7, "black_maria": "on", "jack": "on"}


@pytest.mark.parametrize("p,rules", [(3, {}), (4, {}), (5, {}), (4, VARIANT)])
def test_random_play_matches_an_independent_implementation(p, rules):
    """Per seat mean score, tricks and hearts, and the queen, moon and jack rates under the random
    policy agree with a plain per-deal implementation of docs/rules/hearts.md within 4.5 standard
    errors, with the default rules and with every option at another value."""
    from .reference_hearts import random_deal

    rng = random.Random(p)
    ref = [random_deal(rng, p, rules) for _ in range(3000)]
    n = 40_000
    seats = play_chunk(spec("hearts", p, n=n, chunk=n, seed=17, rules=rules), 0).seats
    rare = ("moon",) if rules else ()  # with Black Maria a moon needs 16 cards: too rare to compare
    columns = [col for col in ("score", "tricks", "hearts", "queen", "moon", "jack") if col not in rare]
    assert_matches_reference(seats, ref, columns)


def test_random_play_shares_the_points_and_the_queen_evenly():
    n = 40_000
    seats = play_chunk(spec("hearts", 4, n=n, chunk=n, seed=5, rules={"moon": "off"}), 0).seats
    by_seat = seats.group_by("seat").agg(pl.col("score").mean(), pl.col("score").std().alias("sd"),
                                         pl.col("queen").sum()).sort("seat")
    se = by_seat["sd"].to_numpy() / np.sqrt(n)
    assert (np.abs(by_seat["score"].to_numpy() - 6.5) < 4.5 * se).all()  # 26 / 4: seats are alike
    assert sps.chisquare(by_seat["queen"].to_numpy()).pvalue > 1e-4
    moon = play_chunk(spec("hearts", 4, n=n, chunk=n, seed=6), 0).seats
    rate = moon.group_by("deal").agg(pl.col("moon").max())["moon"].mean()
    assert 0.006 < rate < 0.015  # a random player takes every penalty card about once in 100 hands


# --- heuristics and restrictions ---------------------------------------------------------------


def test_ducker_passes_the_queen_then_high_spades_and_hearts():
    hands = [["2C", "QS", "AS", "KH", "AD"], ["3C", "4C", "5C", "6C", "7C"],
             ["8C", "9C", "TC", "JC", "QC"], ["KC", "AC", "2D", "3D", "4D"]]
    picks = [[[c("QS"), c("3C"), c("8C"), c("KC")]], [[c("AS"), c("4C"), c("9C"), c("AC")]]]
    passed = [choice_of(GAME, "ducker", hand_built(hands, passing="left"), picks[:k], seat=0) for k in range(3)]
    assert passed == ["QS", "AS", "KH"]  # once the queen is going, the ace of spades is a danger


def test_ducker_ducks_with_the_highest_loser_and_dumps_the_queen_when_void():
    hands = [["2C", "2D", "3D", "4D"], ["9C", "5C", "KC", "5D"], ["TC", "QS", "AH", "6D"],
             ["JC", "3C", "7D", "8D"]]
    s = hand_built(hands)
    assert choice_of(GAME, "ducker", s, [c("2C")]) == "5C"  # every club wins: the lowest, not last
    s = hand_built(hands)
    assert choice_of(GAME, "ducker", s, [c("2C"), c("9C"), c("TC")]) == "3C"  # JC would win: duck
    void = [["2C", "2D"], ["QS", "AH"], ["3C", "4C"], ["5C", "6C"]]
    s = hand_built(void, first_trick="any")
    assert choice_of(GAME, "ducker", s, [c("2C")]) == "QS"  # void: the queen goes first


def test_ducker_leads_low_and_hunter_flushes_the_queen_with_low_spades():
    hands = [["2C", "2S", "3D", "9H"], ["3C", "QS", "4D", "TH"], ["4C", "5S", "5D", "JH"],
             ["AC", "6S", "6D", "QH"]]
    script = [c("2C"), c("3C"), c("4C"), c("AC")]  # seat 3 wins and leads
    assert choice_of(GAME, "ducker", hand_built(hands), script) == "6D"  # lowest rank; no heart yet
    assert choice_of(GAME, "hunter", hand_built(hands), script) == "6S"  # holds no Q, K, A of spades


def test_restrictions_keep_the_queen():
    s = hand_built([["2C", "QS", "AS", "KH"], ["3C", "4C", "5C", "6C"], ["8C", "9C", "TC", "JC"],
                    ["KC", "AC", "2D", "3D"]], passing="left")
    assert choice_of(GAME, "ducker~keep-queen", s, seat=0) == "KH"  # the queen stays: so do the high spades
    void = [["2C", "2D"], ["QS", "AH"], ["3C", "4C"], ["5C", "6C"]]
    s = hand_built(void, first_trick="any")
    assert choice_of(GAME, "ducker~no-queen-dump", s, [c("2C")]) == "AH"


# --- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize("args,needles", [
    (["--rule", "queen=12"], ["bad rule queen '12' for hearts", "13, 7"]),
    (["--rule", "passing=across"], ["bad rule passing 'across'", "cycle, left, right, none"]),
    (["--players", "6"], ["hearts is for 3, 4, 5 players, not 6"]),
])
def test_bad_rules_are_one_line_errors(args, needles):
    one_line_error(cli("run", "--game", "hearts", "--n", "10", *args), *needles)


def test_replay_writes_out_a_hand():
    r = cli("replay", "--game", "hearts", "--seed", "3", "--deal", "2", "--strategy", "ducker")
    assert r.exit_code == 0, r.output
    assert "seat 0 holds" in r.stdout and "pass: left" in r.stdout and "results:" in r.stdout
    assert len(re.findall(r"seat \d pass: ", r.stdout)) == 12 and r.stdout.count(" lead: ") == 13
