"""Audit of /work/shared/RULINGS.md, "The reference random policy": at every kind of decision of
every game, ``random`` (through the engine's own decision path) chooses uniformly among exactly the
options the ruling enumerates, on hand-built deals whose option sets are worked out by hand in the
comments; and the seat rulings of the Common section that no other test pins (who deals and
leads round r). Each deal is copied n times and every copy decides on its own, so the counts of
each option are a sample of ``random``'s choice there: a chi-square test against the uniform
distribution on the ruled set (seeded: the same counts every run), and no option outside it."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import numpy as np
from scipy.stats import chisquare

from simtool import bits, engine
from simtool.games import black_white, hearts, kansas_city, nine_lives, out_trumped, trickster
from simtool.games.out_trumped import PASS as OT_PASS

from . import test_black_white as bw_t
from . import test_hearts as h_t
from . import test_kansas_city as kc_t
from . import test_nine_lives as nl_t
from . import test_out_trumped as ot_t
from . import test_trickster as tr_t
from .conftest import ctx_for, lineup_of

N = 6000
P_MIN = 1e-4
"""A chi-square p-value below this rejects uniformity (the tests are seeded: no flakiness)."""


class Driver:
    """``state`` (one hand-built deal) copied ``N`` times and played through the engine's decision
    path: scripted choices (the same in every copy) up to a decision, then ``random`` there."""

    def __init__(self, game, state, players: int, seed: int = 1):
        self.game, self.state = game, state.repeat(N)
        self.lineup = lineup_of(game, players, ["random"] * players)
        self.ctx = ctx_for(game, N)
        self.rng = np.random.default_rng(seed)
        self.play = game.play(self.state)
        self.d = self.play.send(None)

    def scripted(self, *choices) -> None:
        """Send each choice (one option, or one per seat at a simultaneous decision) in every copy."""
        for choice in choices:
            shape = (N, self.state.p) if self.d.seat is None else (N,)
            self.d = self.play.send(np.broadcast_to(np.asarray(choice, np.int64), shape).copy())

    def random(self) -> tuple[engine.Decision, np.ndarray]:
        """``random``'s choices at the current decision (then sent on); the decision it faced."""
        d = self.d
        choice = engine._decide(self.game, self.state, d, self.lineup, self.rng, self.ctx)
        try:
            self.d = self.play.send(choice)
        except StopIteration:
            self.d = None
        return d, choice


def legal_of(d, seat: int | None = None) -> set[int]:
    """The options of a decision's first copy (of ``seat`` at a simultaneous one)."""
    legal = np.asarray(d.legal)
    row = legal.reshape(-1)[0] if seat is None else np.broadcast_to(legal, (N, legal.shape[-1]))[0, seat]
    return set(np.flatnonzero(bits.to_mask(np.uint64(row), 64)).tolist())


def assert_uniform(picked, options) -> None:
    """Every pick is one of ``options`` (hashable), and they come up uniformly."""
    options = list(options)
    picked = list(picked)
    assert set(picked) <= set(options), set(picked) - set(options)
    counts = [picked.count(o) for o in options]
    assert chisquare(counts).pvalue > P_MIN, dict(zip(options, counts, strict=True))


def as_set(cards) -> frozenset[int]:
    return frozenset(np.flatnonzero(bits.to_mask(np.uint64(cards), 64)).tolist())


# --- Kansas City -------------------------------------------------------------------------------

def test_kc_pass_is_a_uniform_3_card_subset_of_the_hand():
    # hands of 5: C(5, 3) = 10 subsets, each passed by seat 0 in a tenth of the copies
    hands = [["A1", "A2", "B3", "C4", "D5"], ["B1", "B2", "C3", "D4", "E5"],
             ["C1", "C2", "D3", "E4", "F5"], ["D1", "D2", "E3", "F4", "G5"]]
    run = Driver(kansas_city.GAME, kc_t.hand_built(hands, pass_count=3), 4)
    for _ in range(3):
        d, _ = run.random()
        assert d.kind == kansas_city.PASS
    assert run.d.kind == "lead"
    subsets = [frozenset(kc_t.c(x) for x in s) for s in combinations(hands[0], 3)]
    assert_uniform([as_set(g) for g in run.state.gave[:, 0]], subsets)
    # and each seat received its right-hand neighbour's pass (clockwise: to seat s + 1)
    assert ((run.state.hands[:, 1] & run.state.gave[:, 0]) == run.state.gave[:, 0]).all()


def test_kc_upgrade_is_decline_or_one_eligible_card_two_of_one_rank_two_options():
    # seat 0 leads A8 and wins; seat 1 (first loser, the winner's left) holds E3, F3 (one rank:
    # two options) and G4 (rank 4 is held as an unplayed trump by seat 3: not eligible)
    hands = [["A8", "B1", "B2", "B5"], ["A1", "E3", "F3", "G4"], ["A2", "C1", "C2", "C5"],
             ["A3", "B4", "D1", "D2"]]
    run = Driver(kansas_city.GAME, kc_t.hand_built(hands, trump=["B4"]), 4)
    run.scripted(*(kc_t.c(x) for x in ("A8", "A1", "A2", "A3")))
    d, choice = run.random()
    assert d.kind == kansas_city.UPGRADE and int(np.broadcast_to(d.seat, (N,))[0]) == 1
    options = {kc_t.c("E3"), kc_t.c("F3"), kansas_city.DECLINE}
    assert legal_of(d) == options
    assert_uniform(choice.tolist(), sorted(options))


def test_kc_round_r_is_dealt_by_seat_r_minus_1_so_seat_r_mod_p_leads():
    match = kansas_city.GAME.new_match(4, 5, {o.name: o.default for o in kansas_city.GAME.options})
    for rnd in range(6):
        s = kansas_city.GAME.deal(np.random.default_rng(rnd), match, rnd)
        assert (s.leader == rnd % 5).all()


# --- Trickster ---------------------------------------------------------------------------------

def test_trickster_turn_is_uniform_over_the_cards_that_follow_the_held_hand():
    # seat 0 holds a heart hand (5H, pips 5): its tableau's hearts 2H and KH must be played;
    # seat 1 holds nothing: any of its 4 cards
    tableaus = [["2H", "KH", "3S", "4D"], ["5S", "6S", "7D", "8C"]]
    s = tr_t.hand_built(tableaus, hands=[["5H"], []], pips=[5, 0])
    run = Driver(trickster.GAME, s, 2)
    d, choice = run.random()
    assert legal_of(d, 0) == {tr_t.c("2H"), tr_t.c("KH")}
    assert_uniform(choice[:, 0].tolist(), [tr_t.c("2H"), tr_t.c("KH")])
    assert_uniform(choice[:, 1].tolist(), [tr_t.c(x) for x in tableaus[1]])


# --- Black & White -----------------------------------------------------------------------------

def test_bw_lead_is_a_uniform_card_colour_pair():
    # the leader holds 4 cards: 8 (card, colour) pairs, each an eighth of the copies
    s = bw_t.hand_built([[1, 10, 20, 36], [2, 11, 21, 35], [3, 12, 22, 34]])
    run = Driver(black_white.GAME, s, 3)
    d, card = run.random()
    assert d.kind == "lead"
    d, colour = run.random()
    assert d.kind == black_white.COLOUR and legal_of(d) == {black_white.BLACK, black_white.WHITE}
    pairs = [(bw_t.card(k), col) for k in (1, 10, 20, 36) for col in (0, 1)]
    assert_uniform(list(zip(card.tolist(), colour.tolist(), strict=True)), pairs)


# --- Out-Trumped -------------------------------------------------------------------------------

def test_ot_wild_trump_is_a_uniform_suit_picked_by_the_dealer():
    hands = [["A1", "B2"], ["C3", "D4"], ["E5", "A6"], ["B7", "C8"]]
    s = ot_t.hand_built(hands, trump=out_trumped.NO_TRUMP, die=out_trumped.WILD, rules={"wild": "dealer"})
    run = Driver(out_trumped.GAME, s, 4)
    d, choice = run.random()
    assert d.kind == out_trumped.TRUMP and int(np.broadcast_to(d.seat, (N,))[0]) == 3  # the dealer, seat p - 1
    assert legal_of(d) == set(range(5))
    assert_uniform(choice.tolist(), range(5))
    assert set(np.unique(run.state.trump).tolist()) == set(range(5))


def test_ot_bid_is_pass_or_a_bid_above_the_standing_one_up_to_the_hand():
    # hands of 4; seat 0 (the dealer's left) bids 2: seat 1 may pass, bid 3 or bid 4
    hands = [["A1", "B2", "C3", "D4"], ["A5", "B6", "C7", "D8"], ["A9", "B10", "C11", "D12"],
             ["E1", "E2", "E3", "E4"]]
    s = ot_t.hand_built(hands, rules={"kitty": "bid"})
    run = Driver(out_trumped.GAME, s, 4)
    assert run.d.kind == out_trumped.BID and int(np.broadcast_to(run.d.seat, (N,))[0]) == 0
    run.scripted(2)
    d, choice = run.random()
    assert int(np.broadcast_to(d.seat, (N,))[0]) == 1 and legal_of(d) == {OT_PASS, 3, 4}
    assert_uniform(choice.tolist(), [OT_PASS, 3, 4])


def test_ot_discard_is_a_uniform_subset_of_hand_and_kitty():
    # hands of 2 and a kitty of 2: the taker (seat 0, the only bidder) discards 2 of 4 cards,
    # C(4, 2) = 6 subsets, kitty cards included
    hands = [["A1", "B2"], ["C3", "D4"], ["E5", "A6"], ["B7", "C8"]]
    s = ot_t.hand_built(hands, rules={"kitty": "bid", "kitty_size": 2})
    s.kitty[:] = ot_t.cards(["D9", "E10"])
    run = Driver(out_trumped.GAME, s, 4)
    run.scripted(1, OT_PASS, OT_PASS, OT_PASS)
    for _ in range(2):
        d, _ = run.random()
        assert d.kind == out_trumped.DISCARD
    pool = ["A1", "B2", "D9", "E10"]
    assert_uniform([as_set(x) for x in run.state.discarded],
                   [frozenset(ot_t.c(x) for x in pair) for pair in combinations(pool, 2)])


def test_ot_round_r_is_dealt_by_seat_r_minus_1_who_picks_a_wild_trump_and_seat_r_mod_p_leads():
    rules = {o.name: o.default for o in out_trumped.GAME.options}
    match = out_trumped.GAME.new_match(4, 3, rules)
    for rnd in range(5):
        s = out_trumped.GAME.deal(np.random.default_rng(rnd), match, rnd)
        assert s.dealer == (rnd - 1) % 3 and (s.leader == rnd % 3).all()


# --- Nine Lives --------------------------------------------------------------------------------

def test_nl_bid_is_a_uniform_card_of_the_hand_for_every_seat_at_once():
    hands = [["A1", "B5", "C9"], ["A2", "B6", "C8"], ["A3", "B7", "C7"]]
    run = Driver(nine_lives.GAME, nl_t.hand_built(hands), 3)
    d, choice = run.random()
    assert d.kind == nine_lives.BID and d.seat is None
    for seat, hand in enumerate(hands):
        assert legal_of(d, seat) == {nl_t.c(x) for x in hand}
        assert_uniform(choice[:, seat].tolist(), [nl_t.c(x) for x in hand])


# --- Hearts ------------------------------------------------------------------------------------

def test_hearts_pass_is_a_uniform_3_card_subset_then_the_two_of_clubs_is_the_only_lead():
    hands = [["2C", "3D", "4H", "5S", "6C"], ["7C", "8D", "9H", "TS", "JC"],
             ["QC", "KD", "AH", "2S", "3C"], ["4C", "5D", "6H", "7S", "8C"]]
    run = Driver(hearts.GAME, h_t.hand_built(hands, passing="left"), 4)
    for _ in range(3):
        d, _ = run.random()
        assert d.kind == hearts.PASS
    assert run.d.kind == "lead" and legal_of(run.d) == {h_t.c("2C")}
    subsets = [frozenset(h_t.c(x) for x in s) for s in combinations(hands[0], 3)]
    assert_uniform([as_set(g) for g in run.state.gave[:, 0]], subsets)


# --- Common: the round cap ---------------------------------------------------------------------

@dataclasses.dataclass
class _Round(engine.RoundState):
    n: int
    p: int = 3


class _Fixed(engine.Game):
    """A game of no decisions whose every round scores ``SCORES``; its match ends after round
    ``end`` (``None``: never)."""

    id, title, sheet, players, default_players, n_actions = "fixed", "Fixed (test)", "-", (3,), 3, 1
    SCORES = (1, 1, 0)

    def __init__(self, end: int | None, lower_wins: bool = False):
        self.end, self.lower_wins = end, lower_wins

    def deal(self, rng, match, rnd):
        return _Round(match.n)

    def play(self, state):
        return {"score": np.tile(np.array(self.SCORES, np.int16), (state.n, 1)),
                "tricks": np.zeros((state.n, 3), np.int8)}
        yield  # a generator that asks for nothing

    def match_over(self, match, rnd):
        return np.full(match.n, self.end is not None and rnd >= self.end)

    def invariants(self, state):
        return {}


def _matches(game: _Fixed) -> dict:
    lineup = engine.Lineup([lambda view, rng: None], np.zeros(3, np.int64))
    ctx = engine.Context("fixed", 0, 2, "match", np.arange(2))
    rng = np.random.default_rng(0)
    return engine.play_matches(game, 3, {}, lineup, 2, rng, rng, ctx).matches


def test_a_match_at_the_cap_is_a_draw_among_the_leaders_and_counted_as_capped():
    # seats 0 and 1 tie for the lead for ever: 200 rounds, then a draw between them
    m = _matches(_Fixed(None))
    assert (m["rounds"] == engine.ROUND_CAP).all() and m["capped"].all()
    assert m["total"].tolist() == [[200, 200, 0]] * 2 and m["win"].tolist() == [[0.5, 0.5, 0.0]] * 2
    # lowest wins: seat 2 alone leads at the cap
    assert _matches(_Fixed(None, lower_wins=True))["win"].tolist() == [[0.0, 0.0, 1.0]] * 2


def test_the_end_condition_is_checked_before_the_cap():
    # the match ends by its own rule in the cap's round: not capped
    m = _matches(_Fixed(engine.ROUND_CAP - 1))
    assert (m["rounds"] == engine.ROUND_CAP).all() and not m["capped"].any()
    m = _matches(_Fixed(4))
    assert (m["rounds"] == 5).all() and not m["capped"].any() and m["total"].tolist() == [[5, 5, 0]] * 2
