"""``pimc``, the built-in search: legal in every game and decision kind, reproducible for any
--jobs, its parameters checked, and sensible on small hand-built positions."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import polars as pl
import pytest

import simtool.games
import strategies
from simtool import engine
from simtool.errors import SimtoolError
from simtool.games.black_white import BLACK, WHITE
from simtool.games.black_white import GAME as BW
from simtool.pipeline.runner import execute, make_spec

from .conftest import rule_variants
from .test_black_white import card, hand_built
from .test_cli import cli, one_line_error
from .test_redeal import MATCH_END

GAMES = list(simtool.games.registry().values())
DEFAULTS = {g.id: {o.name: o.default for o in g.options} for g in GAMES}


def _plays_the_defaults_round(game, rules) -> bool:
    """A variant whose one round is the default's, bit for bit: another value of an option that
    says only when a match ends (:data:`MATCH_END`), or a hand size set to the one the sheet deals
    at the default player count (Black & White's 12, Kansas City's 14, Out-Trumped's 15). The
    search's every view, choice and result in them was the default's (fingerprinted for each)."""
    changed = {k for k, v in rules.items() if v != DEFAULTS[game.id][k]}
    if changed & MATCH_END:
        return True
    hand_size = getattr(importlib.import_module(type(game).__module__), "hand_size", None)
    return changed == {"hand_size"} and hand_size is not None \
        and hand_size(DEFAULTS[game.id], game.default_players) == rules["hand_size"]


CASES = [(g, p, DEFAULTS[g.id]) for g in GAMES  # the fewest, the default and the most players
         for p in sorted({min(g.players), g.default_players, max(g.players)})] + [
    (g, g.default_players, rules) for g in GAMES for rules in rule_variants(g, g.default_players)
    if rules != DEFAULTS[g.id] and not _plays_the_defaults_round(g, rules)]
IDS = [f"{g.id}-{p}p-{'-'.join(f'{k}={v}' for k, v in r.items())}" for g, p, r in CASES]
KINDS = {"black-white": {"lead", "colour", "play"}, "kansas-city": {"pass", "lead", "play", "upgrade"},
         "trickster": {"play"}, "out-trumped": {"trump", "bid", "discard", "lead", "play"},
         "nine-lives": {"bid", "lead", "play"}, "hearts": {"pass", "lead", "play"}}


@pytest.mark.parametrize("game,p,rules", CASES, ids=IDS)
def test_pimc_chooses_only_legal_options_in_every_decision_kind(game, p, rules):
    pimc = strategies.resolve("pimc@samples=1,playout=random", game.id)
    seen: set[str] = set()

    def search(view, rng):  # the engine checks every choice against its own legal sets
        seen.add(view.kind)
        return pimc(view, rng)

    n = 3
    state = game.deal(np.random.default_rng(3), game.new_match(n, p, rules), 0)
    # the search in seat 0 (it leads the first trick), random players elsewhere
    lineup = engine.Lineup([strategies.Strategy("search", search, ""), strategies.resolve("random", game.id)],
                           np.array([0] + [1] * (p - 1)))
    results = engine.play_round(game, state, lineup, np.random.default_rng(4),
                                engine.Context(game.id, 0, n, "deal", np.arange(n)))
    assert results["score"].shape == (n, p)
    assert seen <= KINDS[game.id]
    if rules == DEFAULTS[game.id] and p == game.default_players:
        assert seen >= KINDS[game.id] - {"trump", "bid", "discard"}  # those need rule options


def test_every_decision_kind_was_searched():
    # the kinds that only some rule options reach, at the default player count
    ot = simtool.games.get("out-trumped")
    seen: set[str] = set()
    pimc = strategies.resolve("pimc@samples=1,playout=random", ot.id)

    def search(view, rng):
        seen.add(view.kind)
        return pimc(view, rng)

    n = 4  # with these seeds, enough deals for a wild die (the trump pick) and a taken kitty
    state = ot.deal(np.random.default_rng(5), ot.new_match(n, 4, DEFAULTS[ot.id] | {"kitty": "bid"}), 0)
    lineup = engine.Lineup([strategies.Strategy("search", search, "")], np.zeros(4, np.int64))
    engine.play_round(ot, state, lineup, np.random.default_rng(6), engine.Context(ot.id, 0, n, "deal", np.arange(n)))
    assert seen == KINDS[ot.id]


def test_search_runs_are_the_same_for_any_jobs():
    spec = make_spec("black-white", 3, 3, "random", {0: "pimc@samples=2,playout=random"}, seed=11,
                     rotate=True)
    # three chunks of one deal, not of 16: what could differ between processes lies between
    # chunks, which both runs cut alike, and one process plays each chunk whole either way
    spec = dataclasses.replace(spec, chunk=1)
    one = pl.concat([c.seats for c in execute(spec, 1)])
    two = pl.concat([c.seats for c in execute(spec, 2)])
    assert one.equals(two)
    assert one.filter(pl.col("strategy") == "pimc@samples=2,playout=random").height == 3


def test_a_search_run_is_cut_into_chunks_for_every_core():
    heuristic = make_spec("kansas-city", 4, 20_000, None, seed=1)
    search = make_spec("kansas-city", 4, 20_000, None, {0: "pimc"}, seed=1)
    assert heuristic.n_chunks == 1
    assert search.n_chunks >= 8 and search.n_chunks % 2 == 0  # 2e4 deals: even work for 2 cores
    deeper = make_spec("kansas-city", 4, 20_000, None, {0: "pimc@samples=64"}, seed=1)
    assert deeper.chunk < search.chunk


@pytest.mark.parametrize("entry,problem", [
    ("pimc@samples=0", "bad parameter samples '0'"),
    ("pimc@samples=2.5", "a whole number 1..4096"),
    ("pimc@value=points", "expected one of score, win"),
    ("pimc@playout=nosuch", "unknown strategy 'nosuch'"),
    ("pimc@playout=target", "plays kansas-city, not black-white"),
    ("pimc@depth=2", "unknown parameter 'depth' for strategy 'pimc'; valid: samples"),
])
def test_bad_parameters_stop_with_one_line(entry, problem):
    with pytest.raises(SimtoolError, match=problem.replace(".", r"\.")):
        strategies.canonical(entry, "black-white")


def test_bad_parameters_stop_the_cli_with_status_2():
    r = cli("run", "--game", "black-white", "--seat", "0=pimc@samples=-1", "--n", "10")
    one_line_error(r, "samples")


def test_names_are_canonical_and_the_playout_defaults_to_the_game_default():
    assert strategies.canonical("pimc@samples=8,value=score", "black-white") == "pimc"
    assert strategies.canonical("pimc@playout=balance", "black-white") == "pimc"
    assert strategies.canonical("pimc@value=win,samples=16", "kansas-city") == "pimc@samples=16,value=win"
    found = strategies.resolve("pimc", "trickster")
    assert found.values.playout == simtool.games.get("trickster").default_strategy


def _decide(state, script, entry="pimc@samples=32", seed=0):
    """pimc's choice at the decision reached by playing ``script`` from ``state``."""
    play = BW.play(state)
    d = play.send(None)
    for choice in script:
        d = play.send(np.array([choice]))
    view = engine.view_of(BW, state, d.kind, np.broadcast_to(d.seat, (1,)), np.broadcast_to(d.legal, (1,)))
    return d.kind, int(strategies.resolve(entry, BW.id)(view, np.random.default_rng(seed))[0])


def test_a_lone_trick_is_refused():
    # one trick in 3p: taking it (1-0) scores -1, losing it 0. Seat 0 leads 30: black 30 beats
    # almost every card, white 7 almost none, so it announces white
    state = hand_built([[30], [5], [10]])
    assert _decide(state, [card(30)]) == ("colour", WHITE)


def test_the_colour_that_wins_the_trick_it_needs():
    # seat 0 took trick 1 in black; in trick 2 it needs a white trick to balance (1-1: +2), while
    # losing leaves it unbalanced (-1) and a second black trick too (-2). Its 5 is white 32,
    # which beats the other seats' whites; its black 5 would lose
    state = hand_built([[36, 5], [10, 20], [15, 25]])
    kind, choice = _decide(state, [card(36), BLACK, card(10), card(15), card(5)])
    assert (kind, choice) == ("colour", WHITE)


@pytest.mark.parametrize("game_id", ["black-white", "kansas-city"])
def test_worlds_take_plays_the_same_worlds_again(game_id):
    # pimc plays one world under several options through worlds.take: a taken row is that world
    game = simtool.games.get(game_id)
    state = game.deal(np.random.default_rng(8), game.new_match(4, game.default_players, DEFAULTS[game_id]), 0)
    d = next(game.play(state))
    seat = np.zeros(4, np.int64) if d.seat is None else np.broadcast_to(np.asarray(d.seat), (4,))
    legal = np.broadcast_to(d.legal, (4, game.default_players))[:, 0] if d.seat is None \
        else np.broadcast_to(d.legal, (4,))
    view = engine.view_of(game, state, d.kind, seat, legal)
    worlds = view.redeal(3, np.random.default_rng(9))
    rows = np.array([5, 0, 0, 11])
    taken = worlds.take(rows)
    assert len(taken) == 4 and (taken.view.legal == worlds.view.legal[rows]).all()
    choice = strategies.resolve("low", game_id)
    first = choice(worlds.view, None)
    whole = worlds.play_out(first, choice)["score"]  # low never draws: the play-outs are fixed
    assert (taken.play_out(first[rows], choice)["score"] == whole[rows]).all()


@pytest.mark.parametrize("colour,winner", [(BLACK, 30), (WHITE, 2)])
def test_the_only_card_that_wins_the_trick_it_needs(colour, winner):
    # two tricks in 3p. Seat 0 leads 20 in the announced colour, seat 1 adds 25; seat 2 holds
    # 30 (black 30 / white 7) and 2 (black 2 / white 35), so exactly one of them takes the trick:
    # 30 in black, 2 in white. Taking it, seat 2 leads its other card in the other colour, which
    # no card left can beat: one black and one white trick, +2. Losing it scores 0 or -1 in every
    # layout of the two cards it cannot see. Its play-out policy alone (balance, which sheds
    # while its tricks are level) would throw the loser: pimc must see past it.
    state = hand_built([[20, 10], [25, 15], [30, 2]])
    kind, choice = _decide(state, [card(20), colour, card(25)], entry="pimc")
    assert (kind, choice) == ("play", card(winner))
    # the first play advanced ``state`` in place: the same position again, from a fresh deal
    fresh = hand_built([[20, 10], [25, 15], [30, 2]])
    kind, shed = _decide(fresh, [card(20), colour, card(25)], entry="balance")
    assert kind == "play"
    assert shed != card(winner)
