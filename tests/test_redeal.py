"""Re-dealing what a seat cannot see (``view.redeal``) and playing the worlds out.

For every game that re-deals: (b) ``worlds.view`` equals the original view field by field,
(c) a re-dealt world passes the game's invariants and plays to a legal end, (e) the re-deal is
uniform over the consistent layouts of a small hand-built position.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from scipy import stats as sps

import simtool.games
import strategies
from simtool import bits, engine
from simtool.errors import StrategyError

from .conftest import ctx_for, rule_variants

REDEALT = ["black-white", "kansas-city", "trickster", "nine-lives", "out-trumped", "hearts"]
GAMES = [simtool.games.get(g) for g in REDEALT]
MATCH_END = {"goal", "lives_to_end", "hands"}
"""The options that say only when a match ends (Out-Trumped's and Hearts' goal, Nine Lives' lives,
Kansas City's number of hands). The test plays single rounds, which are the same at every value
of these: their variants played the default's rounds, worlds and play-outs bit for bit (checked
for every game and player count when they were left out), so only the default plays them."""


SCORE_ONLY = {"sole_bonus", "trump_bonus", "penalty", "pip_points", "jack_points", "queen_points",
              "king_points", "four_bonus", "limit", "moon", "queen", "jack"}
"""The options that change only the scores (Out-Trumped's bonuses and penalty, Trickster's card
points, Kansas City's four bonus and trick limit, Hearts' moon, queen and jack points): at each of their
values every deal, view, re-dealt world, choice and play-out column but ``score``, ``win`` and the
game's score columns is the default's bit for bit (fingerprinted for every game and player count).
What they change here is only the play-out's scoring, which one player count checks: they are
played at the game's first player count only."""


def _round_variants(game, p: int):
    """:func:`rule_variants` less those that play the default's rounds: a match-end option's other
    values, and a hand size set to the number the sheet deals at ``p`` anyway (its own module's
    ``hand_size(rules, p)``; Black & White at 3 and 4 players, Kansas City at 4 and 5, Out-Trumped
    at 4 to 6, also fingerprinted the same bit for bit); and past the first player count, the
    values of a :data:`SCORE_ONLY` option."""
    default = {o.name: o.default for o in game.options}
    hand_size = getattr(importlib.import_module(f"simtool.games.{game.id.replace('-', '_')}"), "hand_size", None)

    def same_rounds(r):
        changed = {k for k in r if r[k] != default[k]}
        if changed & MATCH_END:
            return True
        if changed and changed <= SCORE_ONLY and p != game.players[0]:
            return True
        return changed == {"hand_size"} and hand_size is not None and hand_size(default, p) == r["hand_size"]

    return [r for r in rule_variants(game, p) if not same_rounds(r)]


CASES = [(g, p, r) for g in GAMES for p in g.players for r in _round_variants(g, p)]
NUMBERS = {  # a game's numbers at other values together: other hand, kitty and deck sizes
    "kansas-city": [{"limit": 4, "hand_size": 9}, {"hand_size": 6, "limit": 1, "pass_count": 1}],
    "out-trumped": [{"ranks": 8, "suits": 4}, {"kitty": "bid", "kitty_size": 3, "ranks": 9},
                    {"kitty": "low-card", "suits": 8, "ranks": 8, "hand_size": 7}],
}
CASES += [(g, p, {o.name: o.default for o in g.options} | v) for g in GAMES for p in g.players[:2]
          for v in NUMBERS.get(g.id, [])]
IDS = [f"{g.id}-{p}p-{'-'.join(f'{k}={v}' for k, v in r.items())}" for g, p, r in CASES]


def _plain_suit(game, state, suit: int) -> np.ndarray:
    """The cards of ``suit`` a seat void in it cannot hold, per deal ``(n, 1)``."""
    from simtool.games import kansas_city

    if game.id == "kansas-city":
        return (kansas_city.SUIT[suit] & ~state.trump)[:, None] if suit < kansas_city.SUITS \
            else np.zeros((state.n, 1), np.uint64)
    return np.full((state.n, 1), state.layout.suit[suit] if suit < state.layout.suits else 0, np.uint64)


def _same(a, b, what):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (what, a.shape, b.shape, a.dtype, b.dtype)
    assert (a == b).all(), what


class Probe:
    """Plays `random`, and re-deals and checks the worlds at the first decision of each kind and at
    every ``every``-th decision. 13 is prime to every player count, so the checks walk through each
    seat's place in the trick (every 5th pinned all of a 5-player game's checks to one place and
    never checked its leads); the first of each kind checks a rare bid, trump, kitty or pass choice
    that every 5th missed in 78 of the 166 cases; and each check costs as much as the rest of a
    round, so with 13 about 1,600 checks stand for every 5th's 3,071."""

    def __init__(self, game, k=3, every=13):
        self.game, self.k, self.every, self.calls, self.checked = game, k, every, 0, set()
        self.random = strategies.resolve("random", game.id)
        self.name = "probe"
        self.state = None  # the real round, to check what the view infers against it

    def __call__(self, view, rng):
        self.calls += 1
        if view.kind not in self.checked or self.calls % self.every == 0:
            self.check(view, rng)
        return self.random(view, rng)

    def check(self, view, rng):
        k = self.k
        fields = {name: getattr(view, name) for name in type(view).fields()}
        worlds = view.redeal(k, np.random.default_rng(self.calls))
        w = worlds.view
        assert len(w) == len(view) * k and w.kind == view.kind
        _same(w.seat, np.repeat(view.seat, k), "seat")
        _same(w.legal, np.repeat(view.legal, k), "legal")
        for name, value in fields.items():
            if isinstance(value, np.ndarray):
                _same(getattr(w, name), np.repeat(value, k, axis=0), name)
            else:
                assert getattr(w, name) == value, name
        if hasattr(view, "excluded"):  # what the follows ruled out holds in the real deal and every world
            excluded = view.excluded
            if self.state is not None and len(view) == self.state.n:
                assert ((self.state.hands & excluded) == 0).all(), "the real deal breaks an inference"
            assert ((worlds._state.hands & np.repeat(excluded, k, axis=0)) == 0).all()
        if hasattr(view, "voids"):  # no world gives a seat a card of a suit it showed void in
            voids, hands = np.repeat(view.voids, k, axis=0), worlds._state.hands
            for suit in range(8):
                cards = _plain_suit(self.game, worlds._state, suit)
                assert ((hands & cards)[((voids >> suit) & 1) == 1] == 0).all(), suit
                if self.state is not None and len(view) == self.state.n:
                    real = self.state.hands & _plain_suit(self.game, self.state, suit)
                    assert (real[((view.voids >> suit) & 1) == 1] == 0).all(), "a shown void is wrong"
        if getattr(view, "kitty_rule", None) == "low-card":  # the shown cards stay where they can be
            _check_shown_cards(view.shown_card, k, worlds._state)
            if self.state is not None and len(view) == self.state.n:
                _check_shown_cards(view.shown_card, 1, self.state)
        for name, ok in self.game.invariants(worlds._state).items():
            assert np.asarray(ok).all(), f"re-dealt world breaks '{name}' at '{view.kind}'"
        choice = bits.uniform(w.legal, np.random.default_rng(0), view.n_actions)
        results = worlds.play_out(choice, "random")
        p = view.players
        assert results["score"].shape == (len(w), p) and results["win"].shape == (len(w), p)
        assert np.allclose(results["win"].sum(axis=1), 1)
        self.checked.add(view.kind)


def _check_shown_cards(shown_card, k, state):
    """Out-Trumped's low-card show, as a view saw it (``shown_card``), holds in the round ``state``
    (rows ``i*k + j`` for view row ``i``): each shown card not played since is in its shower's hand, or the taker's
    among its discards; the taker held its shown card before the kitty came and nothing it would
    have shown instead (the kitty it picked up brought any such card)."""
    from simtool.games.out_trumped import _kitty_held_instead, shown_sets

    shown = np.repeat(shown_sets(shown_card), k, axis=0)
    n, p = shown.shape
    rows = np.arange(n)
    is_taker = np.arange(p)[None, :] == state.taker[:, None]
    holds = state.hands | np.where(is_taker, state.discarded[:, None], bits.EMPTY)
    lost = shown & ~state.played[:, None] & ~holds
    assert (lost == 0).all(), "a shown card left its shower"
    at = np.maximum(state.taker, 0)
    took = np.concatenate([state.past[rows, :, at], state.trick[rows, at][:, None]], axis=1)  # its plays
    played = np.bitwise_or.reduce(np.where(took >= 0, bits.BIT[np.maximum(took, 0)], bits.EMPTY), axis=1)
    before = (state.hands[rows, at] | state.discarded | played) & ~state.kitty  # the taker's own dealt hand
    card = np.repeat(shown_card, k, axis=0)[rows, at]
    picked = state.picked
    assert ((before & shown[rows, at] != 0) | ~picked).all(), "the taker's kitty held its shown card"
    instead = before & _kitty_held_instead(card, state.trump, state.layout)
    assert ((instead == 0) | ~picked).all(), "the taker held a card it would have shown instead"


@pytest.mark.parametrize("game,p,rules", CASES, ids=IDS)
def test_worlds_show_the_seat_what_it_saw_and_play_to_a_legal_end(game, p, rules):
    n = 30
    probe = Probe(game)
    lineup = engine.Lineup([probe], np.zeros(p, np.int64))
    for rnd in (0, 1):  # round 1 of a match: totals and a later leader
        match = game.new_match(n, p, rules)
        match.totals[:] = np.arange(p)
        state = game.deal(np.random.default_rng(rnd), match, rnd)
        probe.state = state
        engine.play_round(game, state, lineup, np.random.default_rng(9), ctx_for(game, n))
    assert probe.checked


def test_play_out_refuses_an_illegal_choice():
    game = simtool.games.get("black-white")
    seen = []

    def grab(view, rng):
        if not seen:
            worlds = view.redeal(2, rng)
            bad = bits.lowest(~worlds.view.legal & bits.full(view.n_actions))
            with pytest.raises(StrategyError, match="legal options"):
                worlds.play_out(bad, "random")
            seen.append(view.kind)
        return bits.lowest(view.legal)

    state = game.deal(np.random.default_rng(1), game.new_match(10, 3, {}), 0)
    engine.play_round(game, state, engine.Lineup([strategies.Strategy("grab", grab, "")], np.zeros(3, np.int64)),
                      np.random.default_rng(2), ctx_for(game, 10))
    assert seen == ["lead"]


def _view_at_start(game, state, seat=0):
    d = next(game.play(state.take(np.arange(state.n))))
    legal = np.broadcast_to(d.legal, (state.n, state.p))[:, seat] if d.seat is None \
        else np.broadcast_to(d.legal, (state.n,))
    return engine.view_of(game, state, d.kind, np.full(state.n, seat), legal)


def _chi_square_uniform(layouts: np.ndarray, expected_kinds: int) -> float:
    _, counts = np.unique(layouts, axis=0, return_counts=True)
    assert len(counts) == expected_kinds, (len(counts), expected_kinds)
    return sps.chisquare(counts).pvalue


def test_black_white_redeal_is_uniform_over_the_layouts():
    from .test_black_white import card, hand_built

    game = simtool.games.get("black-white")
    # a 6-card deck dealt out: seat 0 leads holding 1 and 2; the other 4 cards (3..6) split 2-2
    # between seats 1 and 2: 6 ways
    state = hand_built([[1, 2], [3, 4], [5, 6]], cards=6)
    view = _view_at_start(game, state)
    worlds = view.redeal(6000, np.random.default_rng(7))
    hands = worlds._state.hands
    assert (hands[:, 0] == state.hands[0, 0]).all()
    assert (hands[:, 1] | hands[:, 2] == bits.of(card(c) for c in (3, 4, 5, 6))).all()
    assert _chi_square_uniform(hands[:, 1:], 6) > 1e-4
    # 2p: seat 1 holds 2 of the 34 cards seat 0 has not seen, any 2 alike: 561 ways
    state = hand_built([[1, 2], [3, 4]])
    worlds = _view_at_start(game, state).redeal(56100, np.random.default_rng(8))
    assert _chi_square_uniform(worlds._state.hands[:, 1:], 561) > 1e-4
    assert (bits.count(worlds._state.hands[:, 1]) == 2).all()


def test_trickster_play_out_draws_the_other_seats_choices_of_the_turn():
    """The worlds are the deal itself; at the simultaneous turn the others' cards come from the
    play-out strategy, so fixed choices still give different results across copies."""
    game = simtool.games.get("trickster")
    state = game.deal(np.random.default_rng(3), game.new_match(4, 4, {}), 0)
    view = _view_at_start(game, state)
    worlds = view.redeal(200, np.random.default_rng(4))
    assert (worlds._state.tableau == np.repeat(state.tableau, 200, axis=0)).all()
    choice = np.repeat(bits.lowest(view.legal), 200)
    results = worlds.play_out(choice, strategies.resolve("random", game.id))  # outside a run: no names
    per_deal = results["score"].reshape(4, 200, 4)
    assert (per_deal.std(axis=1) > 0).any()


def test_nine_lives_redeal_keeps_shown_voids_and_is_uniform():
    from .test_nine_lives import c, cards, hand_built

    game = simtool.games.get("nine-lives")
    s = hand_built([["A1", "A2", "B1", "B2", "C1", "C5"], ["A3", "A4", "B3", "C2", "C3", "B9"],
                    ["B4", "B5", "C4", "B6", "C6", "B7"]])
    play = game.play(s)
    play.send(None)
    play.send(np.array([[c("C5"), c("B9"), c("B7")]]))  # the bids
    for card in ("A1", "A3", "B4"):  # seat 2 cannot follow A: it has shown void in A
        play.send(np.array([c(card)]))
    view = engine.view_of(game, s, "play", np.zeros(1, np.int64), s.hands[:, 0].copy())
    assert view.voids[0].tolist() == [0, 0, 1]
    worlds = view.redeal(7000, np.random.default_rng(11))
    hands = worlds._state.hands
    assert (hands[:, 0] == s.hands[0, 0]).all()
    assert (hands[:, 1] | hands[:, 2] == cards(["A4", "B3", "C2", "C3", "B5", "C4", "B6", "C6"])).all()
    assert (hands[:, 1] & cards(["A4"]) != 0).all()  # the only A card left must be seat 1's
    assert (bits.count(hands[:, 1:]) == 4).all()
    # A4 with seat 1, and any 3 of the other 7 cards: 35 layouts, equally likely
    assert _chi_square_uniform(hands[:, 1:], 35) > 1e-4


def test_kansas_city_redeal_keeps_the_rank_backs_and_is_uniform():
    from simtool.games.kansas_city import RANK

    from .test_kansas_city import cards, hand_built

    game = simtool.games.get("kansas-city")
    # seat 0 sees everyone's ranks: seats 1-3 each hold a 1 and a 2; the 1s (B1, C1, D1) and the
    # 2s (A2, C2, D2) it cannot see go one to each seat: 3! * 3! = 36 layouts, equally likely
    s = hand_built([["A1", "B2"], ["A2", "C1"], ["B1", "C2"], ["D1", "D2"]])
    view = _view_at_start(game, s)
    worlds = view.redeal(7200, np.random.default_rng(12))
    hands = worlds._state.hands
    assert (hands[:, 0] == cards(["A1", "B2"])).all()
    for rank in (0, 1):
        assert (bits.count(hands[:, 1:] & RANK[rank]) == 1).all()
    assert _chi_square_uniform(hands[:, 1:], 36) > 1e-4


def test_out_trumped_redeal_keeps_what_the_follows_showed_and_is_uniform():
    from simtool.games.out_trumped import LAYOUT

    from .test_out_trumped import c, cards, hand_built

    game = simtool.games.get("out-trumped")
    # trump A. B5 led; seat 1 plays the lower B2 (so it holds no B above 5); seat 2 plays C1, so
    # it holds no B and no trump
    s = hand_built([["B5", "D3", "E4"], ["B2", "A7", "C9"], ["C1", "D8", "E2"]], trump=0)
    play = game.play(s)
    d = play.send(None)
    for card in ("B5", "B2", "C1"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "lead"
    view = engine.view_of(game, s, d.kind, np.zeros(1, np.int64), np.broadcast_to(d.legal, (1,)))
    above_five = cards([f"B{r}" for r in range(6, 13)])
    assert view.excluded[0, 1] == above_five
    assert view.excluded[0, 2] == LAYOUT.suit[0] | LAYOUT.suit[1]
    worlds = view.redeal(6000, np.random.default_rng(13))
    hands = worlds._state.hands
    assert ((hands[:, 1] & above_five) == 0).all() and ((hands[:, 2] & (LAYOUT.suit[0] | LAYOUT.suit[1])) == 0).all()
    assert (bits.count(hands[:, 1:]) == 2).all()
    # seat 2 may hold only C, D and E cards, and every one it has not seen is as likely
    free = (LAYOUT.suit[2] | LAYOUT.suit[3] | LAYOUT.suit[4]) & ~cards(["C1", "D3", "E4"])
    counts = bits.to_mask(hands[:, 2], 60)[:, bits.to_mask(np.array([free]), 60)[0]].sum(axis=0)
    assert len(counts) == 33 and sps.chisquare(counts).pvalue > 1e-4


def test_out_trumped_low_card_redeal_keeps_every_shown_card_where_it_can_be():
    from .test_out_trumped import c, cards, hand_built

    game = simtool.games.get("out-trumped")
    # trump A. Seat 0 shows B4, seat 1 C1 (it takes the kitty and discards the five it brought),
    # seat 2 D2, seat 3 E3. Seat 0 leads its shown B4, seat 1 overtakes with B9; seat 2 to play
    s = hand_built([["B4", "A5", "C8", "D9"], ["C1", "B9", "D5", "E7"], ["B3", "D2", "E10", "A9"],
                    ["E3", "B6", "C10", "D11"]], trump=0, rules={"kitty": "low-card"})
    s.kitty = np.array([cards(["E1", "E2", "A3", "D10", "B12"])])
    s.dealt |= s.kitty
    play = game.play(s)
    d = play.send(None)
    for card in ("E1", "E2", "A3", "D10", "B12", "B4", "B9"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "play" and int(np.broadcast_to(d.seat, (1,))[0]) == 2
    view = engine.view_of(game, s, d.kind, np.full(1, 2), np.broadcast_to(d.legal, (1,)))
    assert view.shown_card.tolist() == [[c("B4"), c("C1"), c("D2"), c("E3")]] and view.shown.tolist() == [[4, 1, 2, 3]]
    # no seat holds a card another showed
    assert view.excluded[0, 3] & cards(["B4", "C1", "D2", "E3"]) == cards(["B4", "C1", "D2"])
    k = 4000
    w = view.redeal(k, np.random.default_rng(5))._state
    e3, c1, b4 = (bits.BIT[c(x)] for x in ("E3", "C1", "B4"))
    assert ((w.hands[:, 3] & e3) != 0).all()  # seat 3's E3, unplayed, is in its hand in every world
    # the taker's C1 is in its hand (3 cards left) or among its 5 discards: 3 in 8 worlds in its hand
    in_hand, in_discards = (w.hands[:, 1] & c1) != 0, (w.discarded & c1) != 0
    assert (in_hand ^ in_discards).all() and ((w.kitty & c1) == 0).all()
    assert abs(in_hand.mean() - 3 / 8) < 4 * np.sqrt(3 / 8 * 5 / 8 / k)
    # B4, shown and played, is placed nowhere again
    assert ((np.bitwise_or.reduce(w.hands, axis=1) | w.discarded | w.kitty) & b4 == 0).all()
    _check_shown_cards(view.shown_card, k, w)
    for name, ok in game.invariants(w).items():
        assert np.asarray(ok).all(), name
    # seat 2 follows B3, seat 3 B6; seat 1 wins and leads its shown C1: seat 2 (void in C) sees it
    for card in ("B3", "B6", "C1"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "play" and int(np.broadcast_to(d.seat, (1,))[0]) == 2
    view = engine.view_of(game, s, d.kind, np.full(1, 2), np.broadcast_to(d.legal, (1,)))
    w = view.redeal(k, np.random.default_rng(6))._state
    assert ((np.bitwise_or.reduce(w.hands, axis=1) | w.discarded | w.kitty) & c1 == 0).all()
    assert ((w.hands[:, 3] & e3) != 0).all()
    _check_shown_cards(view.shown_card, k, w)


def test_hearts_redeal_keeps_the_passed_cards_with_their_receiver_and_is_uniform():
    from .test_hearts import GAME as HEARTS
    from .test_hearts import c, cards, hand_built

    # 3p, pass left: seat 0 passes 3C 4C 5C to seat 1 and gets JC QC KC from seat 2; at its lead it
    # has not seen 6C, TC, 7C, 8C, 9C: seat 1 holds one of them, seat 2 the other four (5 layouts)
    s = hand_built([["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"], ["TC", "JC", "QC", "KC"]],
                   passing="left")
    play = HEARTS.play(s)
    d = play.send(None)
    for picks in (["3C", "7C", "JC"], ["4C", "8C", "QC"], ["5C", "9C", "KC"]):
        d = play.send(np.array([[c(x) for x in picks]]))
    assert d.kind == "lead" and int(d.seat[0]) == 0
    view = engine.view_of(HEARTS, s, d.kind, np.zeros(1, np.int64), d.legal)
    worlds = view.redeal(5000, np.random.default_rng(14))
    hands, gave = worlds._state.hands, worlds._state.gave
    assert (hands[:, 0] == cards(["2C", "JC", "QC", "KC"])).all()
    assert ((hands[:, 1] & cards(["3C", "4C", "5C"])) == cards(["3C", "4C", "5C"])).all()
    assert (bits.count(hands) == 4).all()
    assert (gave[:, 0] == cards(["3C", "4C", "5C"])).all() and (gave[:, 2] == cards(["JC", "QC", "KC"])).all()
    assert ((gave[:, 1] & ~hands[:, 2]) == 0).all() and (bits.count(gave[:, 1]) == 3).all()
    assert _chi_square_uniform(hands[:, 1:], 5) > 1e-4


def test_hearts_redeal_keeps_what_the_first_trick_showed():
    from .test_hearts import GAME as HEARTS
    from .test_hearts import c, cards, hand_built

    # seat 2 has no club and throws the queen on the first trick: it holds nothing but penalty
    # cards, so the unseen hearts are its; seats 0 and 1 share the four diamonds (6 layouts)
    s = hand_built([["2C", "3D", "4D"], ["3C", "5D", "6D"], ["QS", "2H", "3H"], ["4C", "7D", "8D"]])
    play = HEARTS.play(s)
    d = play.send(None)
    for card in ("2C", "3C", "QS", "4C"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "lead" and int(d.seat[0]) == 3
    view = engine.view_of(HEARTS, s, d.kind, np.full(1, 3), d.legal)
    clean = view.dealt[0] & ~view.penalty
    assert view.excluded[0, 2] & clean == clean
    worlds = view.redeal(6000, np.random.default_rng(15))
    hands = worlds._state.hands
    assert (hands[:, 2] == cards(["2H", "3H"])).all()
    assert (hands[:, 0] | hands[:, 1] == cards(["3D", "4D", "5D", "6D"])).all()
    assert _chi_square_uniform(hands[:, :2], 6) > 1e-4
