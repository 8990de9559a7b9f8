"""Issue 27's fast paths give what the plain rule they stand for gives, and the command line's
start-up leaves polars for after the workers' fork (see simtool.lazy)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from simtool import deck, engine
from simtool.games import black_white, nine_lives
from simtool.games.nine_lives import GAME as NINE_LIVES
from simtool.games.nine_lives import Round, layout, strength
from simtool.games.tricks import play_trick
from simtool.pipeline.runner import make_spec, resolve_lineup


class _Trick(SimpleNamespace):
    """A round's state under play: the arrays key reads, and the parts it keeps worked out."""
    _seat_parts, _trick_part = Round._seat_parts, Round._trick_part


@pytest.mark.parametrize(("p", "ranks"), [(2, 9), (4, 9), (6, 10), (3, 21)])
def test_nine_lives_key_is_the_strength_rule_in_every_case(p, ranks):
    lay, n = layout(p, ranks), 20_000
    rng = np.random.default_rng(p * ranks)
    state = _Trick(layout=lay, bid=rng.integers(0, lay.cards, (n, p)),
                            trump=rng.integers(0, p, n), lead_suit=rng.integers(0, p, n))
    card = rng.integers(-1, lay.cards, n)  # -1: a deal whose round has no trick left
    at = np.arange(n) * p + rng.integers(0, p, n)
    seat_suit = lay.card_suit[np.take(state.bid, at)]
    expected = np.where(card >= 0, strength(lay, np.maximum(card, 0), seat_suit, state.trump,
                                            state.lead_suit), 0)
    assert (Round.key(state, card, at) == expected).all()
    assert set(np.unique(expected)) > {0}  # trumps, lead-suit cards and ignored ones all met


def _dealt_through_held_cards(rng, deck_sets, lay, p) -> np.ndarray:
    """The deal as every deck was dealt before the whole-deck path: through the table of the
    cards each deck holds, one group per deck size."""
    in_deck = np.bitwise_count(deck_sets).astype(np.int64)
    hands = np.zeros((len(deck_sets), p), np.uint64)
    for k in np.unique(in_deck):
        rows = np.flatnonzero(in_deck == k)
        held = np.nonzero(np.unpackbits(deck_sets[rows].view(np.uint8).reshape(-1, 8), axis=1,
                                        bitorder="little")[:, :lay.cards])[1].reshape(len(rows), k)
        order = deck.shuffled(rng, len(rows), int(k), p * int(k // p))
        hands[rows] = deck.hands(np.take_along_axis(held, order.astype(np.int64), 1), p)
    return hands


@pytest.mark.parametrize("shrunk", [False, True])
def test_nine_lives_deals_whole_decks_as_through_the_cards_held(shrunk):
    p, n = 4, 3000
    match = NINE_LIVES.new_match(n, p, {"ranks": 9, "lives_to_end": 9})
    if shrunk:  # a later round: some decks lost scored cards, the others are whole
        match.piles[::3] = np.uint64(0b101)
        match.piles[1::3] = np.uint64(1 << 20)
    lay = layout(p)
    dealt = NINE_LIVES.deal(np.random.default_rng(5), match, 1).hands
    expected = _dealt_through_held_cards(np.random.default_rng(5), lay.deck & ~match.piles, lay, p)
    assert (dealt == expected).all()


def _round(module, p: int, rules: dict, watched: bool, monkeypatch, piles: np.ndarray | None = None):
    """One round of 3000 deals of the game of ``module`` under ``random``, watched (every trick
    through the shared trick loop, books kept) or not; its results, its state at the end, and
    how many tricks the shared loop played."""
    n, game = 3000, module.GAME
    spec = make_spec(game.id, p, n, "random", seed=1, rules=rules)
    match = game.new_match(n, p, spec.rules)
    if piles is not None:  # a later round: some decks lost scored cards, so their rounds end sooner
        match.piles[:] = piles
    state = game.deal(np.random.default_rng(3), match, 0)
    shared = []
    monkeypatch.setattr(module, "play_trick", lambda *a: (shared.append(1), (yield from play_trick(*a)))[1])
    monkeypatch.setattr(engine, "_watched", lambda lineup, ctx: watched)
    results = engine.play_round(game, state, resolve_lineup(spec), np.random.default_rng(4),
                                engine.Context(game.id, 1, n, "deal", np.arange(n)))
    return results, state, len(shared)


def _same_round(seen, unseen, fields):
    (seen, seen_state, _), (unseen, unseen_state, _) = seen, unseen
    assert seen.keys() == unseen.keys()
    for name in seen:
        assert seen[name].dtype == unseen[name].dtype and (seen[name] == unseen[name]).all(), name
    for name in fields:
        before, after = getattr(seen_state, name), getattr(unseen_state, name)
        assert before.dtype == after.dtype and (before == after).all(), name


@pytest.mark.parametrize(("p", "ranks", "shrunk"), [(2, 9, False), (4, 9, False), (5, 12, False), (6, 5, False),
                                                    (4, 9, True), (3, 7, True)])
def test_nine_lives_plays_unwatched_tricks_in_their_own_loop_as_the_shared_one(p, ranks, shrunk, monkeypatch):
    piles = None
    if shrunk:  # a third of the decks whole, a third one card short, a third two: 3 trick counts
        piles = np.zeros(3000, np.uint64)
        piles[1::3], piles[2::3] = np.uint64(0b1), np.uint64(0b11 << ranks)
    rules = {"ranks": ranks}
    seen = _round(nine_lives, p, rules, True, monkeypatch, piles)
    unseen = _round(nine_lives, p, rules, False, monkeypatch, piles)
    _same_round(seen, unseen, ("hands", "keeper", "winning", "best", "tricks", "fallback", "trump", "lead_suit"))
    assert seen[0]["made"].any() and (seen[0]["fallback"] > 0).any()
    assert seen[2] == ranks - 1  # the whole decks' tricks: a hand of ranks cards less the bid
    # unwatched, the tricks every deal plays go through tricks.play_unwatched_trick; only those
    # some deals sit out (the shrunk decks' last) through the shared loop
    assert unseen[2] == (1 if shrunk else 0)


@pytest.mark.parametrize(("p", "deck_size"), [(2, 36), (3, 36), (4, 36), (3, 20)])
def test_black_white_plays_unwatched_tricks_in_their_own_loop_as_the_shared_one(p, deck_size, monkeypatch):
    seen = _round(black_white, p, {"deck": deck_size}, True, monkeypatch)
    unseen = _round(black_white, p, {"deck": deck_size}, False, monkeypatch)
    _same_round(seen, unseen, ("hands", "leader", "winning", "best", "black", "white"))
    assert seen[2] == seen[1].hand_size and unseen[2] == 0


def test_the_command_line_imports_polars_only_when_it_first_makes_a_table():
    code = "import sys, simtool.cli; print(type(sys.modules['polars']).__name__)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "_Deferred"
