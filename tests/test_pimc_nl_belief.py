"""Nine Lives' belief (``strategies.nine_lives_belief``, ``pimc@infer=``): re-dealt worlds are
judged by whether ``exact`` would have bid and played as the other seats did, and the search keeps
and mends those that fit."""

from __future__ import annotations

import numpy as np
import pytest

import simtool.games
import strategies
from simtool import bits
from simtool.engine import view_of
from strategies import nine_lives_belief, pimc
from strategies import nine_lives_belief as belief

GAME = simtool.games.get("nine-lives")


def exact_round(n: int, seed: int, p: int = 4):
    """Every decision of one round of ``n`` deals with ``exact`` at every seat: ``(state, view)``
    at each lead and follow, the state the true one (the hands every seat holds)."""
    exact = strategies.resolve("exact", "nine-lives")
    rng = np.random.default_rng(seed)
    state = GAME.deal(rng, GAME.new_match(n, p, {"lives_to_end": 9, "ranks": 9}), 0)
    play = GAME.play(state)
    d = next(play)
    while True:
        if d.seat is None:  # the bid, all at once
            choice = np.stack([exact(view_of(GAME, state, d.kind, np.full(n, q), d.legal[:, q]), rng)
                               for q in range(p)], axis=1)
        else:
            view = view_of(GAME, state, d.kind, np.broadcast_to(d.seat, (n,)).astype(np.int64),
                           np.broadcast_to(d.legal, (n,)))
            yield state, view
            choice = exact(view, rng)
        try:
            d = play.send(choice)
        except StopIteration:
            return


def test_the_true_hands_always_fit_exact_players():
    """Against `exact` the true deal explains every bid and card seen: no misfit at any decision."""
    for state, view in exact_round(300, 1):
        assert (belief.misfits(view, state.hands.copy(), np.arange(len(view))) == 0).all()


def void_swaps(n: int, seed: int):
    """Worlds of `exact` rounds where seat ``a`` is handed, from seat ``b``, a card of a suit ``a``
    showed void in (and gives ``b`` one of its own back): (view, hands, rows, a, b, hit, card),
    ``hit`` the deals where such a swap exists."""
    for state, view in exact_round(n, seed):
        lay, rows = GAME.View(GAME, state, view.kind, view.seat, view.legal)._layout, np.arange(len(view))
        for a in range(4):
            for b in range(4):
                suits = (view.voids[:, a] >> np.arange(4)[:, None]) & 1  # (4, m): a is void in suit
                give = np.bitwise_or.reduce(np.where(suits.T == 1, lay.suit[None, :], bits.EMPTY), axis=1)
                movable = state.hands[:, b] & give
                hit = (a != b) & (view.seat != a) & (view.seat != b) & (movable != 0) & (state.hands[:, a] != 0)
                if not hit.any():
                    continue
                hands = state.hands.copy()
                card = bits.BIT[bits.lowest(np.where(hit, movable, bits.BIT[0]))]
                back = bits.BIT[bits.lowest(np.where(hit, hands[:, a], bits.BIT[0]))]
                hands[hit, a] = hands[hit, a] & ~back[hit] | card[hit]
                hands[hit, b] = hands[hit, b] & ~card[hit] | back[hit]
                yield view, hands, rows, a, b, hit, card


@pytest.fixture(scope="module")
def void_replayed():
    """Each of :func:`void_swaps` ``(300, 2)`` with its misfits and the replay's counts and culprits,
    each of its own copy of the hands, worked out while the swap's view is live: the two tests
    below read them (each worked the misfits out anew: 1.5 s of CPU)."""
    return [(swap, belief.misfits(view, hands.copy(), rows), *belief._replay(view, hands.copy(), rows))
            for swap in void_swaps(300, 2) for view, hands, rows in [swap[:3]]]


def test_a_card_of_a_suit_a_seat_showed_void_in_misfits(void_replayed):
    """A seat that did not follow the led suit cannot hold one of its cards: given one, the replay of
    `exact` follows where the seat did not, so that seat misfits (and no other seat's count moves)."""
    checked = 0
    for (_, _, _, a, b, hit, _), seen, _, _ in void_replayed:
        assert (seen[hit, a] >= 1).all()
        others = [s for s in range(4) if s not in (a, b)]
        assert (seen[:, others] == 0).all() and (seen[~hit] == 0).all()
        checked += int(hit.sum())
    assert checked > 50


def test_kept_and_mended_worlds_fit_better_and_keep_the_unseen_cards_and_sizes():
    rng = np.random.default_rng(3)
    k, draw = 4, 3
    for state, view in exact_round(200, 3):
        if view.trick_no not in (2, 5):
            continue
        m = len(view)
        drawn = GAME.redeal(view, k * draw, rng).hands
        rows, kept = belief.keep(view, drawn, k, draw, rng)
        deal = np.repeat(np.arange(m), k)
        assert np.array_equal(rows // (k * draw), deal)  # k worlds of each deal, deal-major
        before = belief.misfits(view, drawn, np.repeat(np.arange(m), k * draw)).sum(axis=1)
        chosen = belief.misfits(view, drawn[rows], deal).sum(axis=1)
        after = belief.misfits(view, kept, deal).sum(axis=1)
        assert chosen.mean() < before.mean() and (after <= chosen).all() and after.mean() < chosen.mean()
        # every world still deals exactly the unseen cards, each seat as many as it holds
        others = np.arange(4)[None, :] != view.seat[deal, None]
        assert np.array_equal(np.bitwise_or.reduce(np.where(others, kept, bits.EMPTY), axis=1),
                              view.unseen[deal])
        assert np.array_equal(np.where(others, bits.count(kept), 0),
                              np.where(others, view.hand_sizes[deal], 0))
        # and it places more of the hidden cards right than the plain re-deal
        true = state.hands[deal]
        assert (bits.count(kept & true)[others].sum() > bits.count(drawn[rows[::1]] & true)[others].sum()
                or view.trick_no == 0)


def test_before_the_bids_nothing_is_inferred():
    rng = np.random.default_rng(4)
    n = 50
    state = GAME.deal(rng, GAME.new_match(n, 4, {"lives_to_end": 9, "ranks": 9}), 0)
    d = next(GAME.play(state))
    view = view_of(GAME, state, d.kind, np.zeros(n, np.int64), d.legal[:, 0])
    assert not nine_lives_belief.evidence(view)  # the search then re-deals as before
    plain, believed = (np.random.default_rng(8) for _ in range(2))
    assert (nine_lives_belief.redeal(view, 3, believed, 2)._state.hands ==
            view.redeal(3, plain)._state.hands).all()


def test_only_nine_lives_and_out_trumped_search_with_a_belief_by_default():
    assert strategies.resolve("pimc", "nine-lives").values.infer == 1
    assert strategies.resolve("pimc", "out-trumped").values.infer == 3
    for game in ("black-white", "trickster", "kansas-city", "hearts"):
        assert strategies.resolve("pimc", game).values.infer == 0
    assert pimc._believed(strategies.resolve("exact", "nine-lives"), 2).func is nine_lives_belief.redeal
    assert pimc._believed(strategies.resolve("team", "nine-lives"), 2) is None
    assert "infer" not in {p.name for p in pimc.CLAIRVOYANT}


def test_the_belief_changes_the_play_and_never_the_bid():
    """The bids come before any choice of the others is seen, so the search bids exactly as without
    the belief (the same worlds: the belief draws nothing there); the play then differs."""
    entry = "pimc@samples=2,deep=2,focus_samples=2,infer={}"
    runs = [simtool.run("nine-lives", 60, strategy="exact", seats={0: entry.format(i)}, seed=5, jobs=1,
                        rotate=True).seats.sort("deal", "seat") for i in (0, 2)]
    off, on = (r.filter(r["strategy"].cast(str).str.starts_with("pimc")) for r in runs)
    assert off["bid"].equals(on["bid"])
    assert not off["tricks"].equals(on["tricks"])


def test_a_card_given_into_a_void_suit_is_the_card_to_give_away(void_replayed):
    """A seat handed a card of a suit it showed void in would have followed with it (the only card of
    that suit it then held), so that card is what ``exact`` would have chosen instead: the guided
    swap gives it away first."""
    checked = 0
    for (_, hands, _, a, _, hit, card), misfit, count, culprit in void_replayed:
        assert np.array_equal(count, misfit)
        assert ((culprit[hit, a] & card[hit]) == card[hit]).all()
        # a culprit is always a card the seat holds, and only a misfitting seat has one
        assert ((culprit & ~hands) == 0).all() and ((culprit != 0) <= (count > 0)).all()
        checked += int(hit.sum())
    assert checked > 50


def test_the_true_hands_have_no_card_to_give_away():
    for state, view in exact_round(200, 6):
        count, culprit = belief._replay(view, state.hands.copy(), np.arange(len(view)))
        assert (count == 0).all() and (culprit == 0).all()


_REPLAY = belief._replay


def _unguided(view, hands, *args, **kwargs):
    """The replay with no card to give away: the mending's swaps are then all random."""
    return _REPLAY(view, hands, *args, **kwargs)[0], np.zeros_like(hands)


def test_guided_swaps_place_more_hidden_cards_right_than_random_ones():
    """On the same re-dealt worlds, swapping away the card exact would have chosen instead fits the
    others' choices more often and places more of their hidden cards right than random swaps
    (the former mending)."""
    k, fit, right = 8, {}, {}
    for guided in (True, False):
        rng, fits, hits, cards = np.random.default_rng(7), [], 0, 0
        for state, view in exact_round(300, 5):
            if view.trick_no not in (2, 4):
                continue
            deal = np.repeat(np.arange(len(view)), k)
            drawn = GAME.redeal(view, k, rng).hands
            if guided:
                hands = belief.mend(view, drawn, deal, rng, 8)
            else:
                with pytest.MonkeyPatch.context() as mp:  # no card to give away: every swap random
                    mp.setattr(belief, "_replay", _unguided)
                    hands = belief.mend(view, drawn, deal, rng, 8)
            fits.append((belief.misfits(view, hands, deal).sum(axis=1) == 0).mean())
            others = np.arange(4)[None, :] != view.seat[deal, None]
            hits += bits.count(hands & state.hands[deal])[others].sum()
            cards += bits.count(state.hands[deal])[others].sum()
        fit[guided], right[guided] = np.mean(fits), hits / cards
    assert fit[True] > fit[False] + 0.1 and right[True] > right[False] + 0.03
