"""Sealed views: what a strategy receives is its own copy, and nothing it does changes the game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simtool.games
import strategies
from simtool import engine
from simtool.errors import StrategyError
from simtool.pipeline.runner import play_chunk

from .conftest import spec
from .test_cli import cli, one_line_error

PLUGINS = Path(__file__).parent / "plugins"
GAMES = list(simtool.games.registry().values())
CASES = [(g, p) for g in GAMES for p in g.players]
IDS = [f"{g.id}-{p}p" for g, p in CASES]


def test_a_view_holds_no_reference_to_the_state():
    game = simtool.games.get("black-white")
    seen = []

    def look(view, rng):
        seen.append(view)
        return strategies.resolve("random", game.id)(view, rng)

    state = game.deal(np.random.default_rng(1), game.new_match(50, 3, {}), 0)
    lineup = engine.Lineup([strategies.Strategy("look", look, "")], np.zeros(3, np.int64))
    engine.play_round(game, state, lineup, np.random.default_rng(2),
                      engine.Context(game.id, 0, 50, "deal", np.arange(50)))
    live = [v for v in vars(state).values() if isinstance(v, np.ndarray)]
    for view in seen:
        assert not hasattr(view, "_state")
        for value in vars(view).values():
            assert not any(value is a for a in live)
            if isinstance(value, np.ndarray):
                assert not any(np.shares_memory(value, a) for a in live)


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_writing_into_every_view_array_changes_nothing(game, p, monkeypatch):
    from tests.plugins import hostile

    scribbler = strategies.Strategy("random", hostile.scribbles, "")
    plain = play_chunk(spec(game.id, p, n=300, seed=5), 0).seats
    monkeypatch.setitem(strategies.registry.__globals__, "BUILT_IN",
                        tuple(s if s.name != "random" else scribbler for s in strategies.BUILT_IN))
    assert strategies.resolve("random", game.id).choose is hostile.scribbles
    scribbled = play_chunk(spec(game.id, p, n=300, seed=5), 0).seats
    assert scribbled.equals(plain)


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_a_widened_legal_set_does_not_make_a_card_legal(game, p):
    from tests.plugins import hostile

    cheat = strategies.Strategy("widens_legal", hostile.widens_legal, "")
    random = strategies.resolve("random", game.id)
    rules = {o.name: o.default for o in game.options}
    state = game.deal(np.random.default_rng(3), game.new_match(200, p, rules), 0)
    seats = np.zeros(p, np.int64)
    seats[p - 1] = 1
    lineup = engine.Lineup([random, cheat], seats)
    ctx = engine.Context(game.id, 0, 200, "deal", np.arange(200))
    with pytest.raises(StrategyError, match="strategy 'widens_legal' chose the illegal option"):
        engine.play_round(game, state, lineup, np.random.default_rng(4), ctx)


@pytest.mark.parametrize("name,needles", [
    ("rewrites_piles", ["strategy 'hostile.py:rewrites_piles' raised AttributeError", "_state"]),
    ("widens_legal", ["strategy 'hostile.py:widens_legal' chose the illegal option", "deal 0"]),
])
def test_cheating_plugins_stop_the_run_with_one_line(tmp_path, name, needles):
    out = tmp_path / "run"
    r = cli("run", "--n", "2000", "--seed", "4", "--jobs", "1", "--out", out,
            "--seat", f"2={PLUGINS}/hostile.py:{name}", "--strategy", "random")
    one_line_error(r, *needles)
    assert not (out / "seats.parquet").exists()


def test_kansas_city_blames_the_cheating_seat(tmp_path):
    r = cli("run", "--game", "kansas-city", "--n", "500", "--seed", "4", "--jobs", "1",
            "--seat", f"1={PLUGINS}/hostile.py:widens_legal", "--strategy", "target")
    one_line_error(r, "strategy 'hostile.py:widens_legal' chose the illegal option")


def test_a_kept_view_expires_with_its_decision():
    game = simtool.games.get("black-white")
    kept = []

    def keep(view, rng):
        kept.append(view)
        if len(kept) == 1:
            _ = view.played  # read while deciding: the strategy's copy for good
        return strategies.resolve("random", game.id)(view, rng)

    state = game.deal(np.random.default_rng(1), game.new_match(20, 3, {}), 0)
    lineup = engine.Lineup([strategies.Strategy("keep", keep, "")], np.zeros(3, np.int64))
    engine.play_round(game, state, lineup, np.random.default_rng(2),
                      engine.Context(game.id, 0, 20, "deal", np.arange(20)))
    assert (kept[0].played == 0).all()  # the copy taken at the first lead, not the end of the round
    with pytest.raises(AttributeError, match="expires"):
        _ = kept[0].hand


def _reachable(roots) -> set[int]:
    """Ids of every object reachable from ``roots`` by reference, entering no module outside
    simtool, strategies and tests (numpy's or the interpreter's own objects are no route a
    strategy could take to the game by name)."""
    import gc
    import types

    ours = ("simtool", "strategies", "tests")
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, types.ModuleType) and not obj.__name__.startswith(ours):
            continue
        todo.extend(gc.get_referents(obj))
    return seen


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_nothing_reachable_by_name_leads_a_strategy_to_the_state(game):
    """While a strategy decides, no simtool module (nor the view, every field read) leads to the
    round state or any of its arrays, however deep it is followed: the state lives only in the
    engine's frame."""
    import sys

    p = game.default_players
    state = game.deal(np.random.default_rng(1), game.new_match(20, p, {o.name: o.default for o in game.options}), 0)
    found = []

    def search(view, rng):
        if not found:
            for name in type(view).fields():
                getattr(view, name)  # every field read: copies, not the state's arrays
            modules = [m for name, m in list(sys.modules.items()) if name.startswith(("simtool", "strategies"))]
            reached = _reachable([*modules, view])
            found.append([name for name, value in vars(state).items()
                          if isinstance(value, np.ndarray) and id(value) in reached]
                         + ["the state"] * (id(state) in reached))
        return strategies.resolve("random", game.id)(view, rng)

    lineup = engine.Lineup([strategies.Strategy("search", search, "")], np.zeros(p, np.int64))
    engine.play_round(game, state, lineup, np.random.default_rng(2),
                      engine.Context(game.id, 0, 20, "deal", np.arange(20)))
    assert found == [[]]


@pytest.mark.parametrize("game,p", CASES, ids=IDS)
def test_every_view_field_reads_at_every_decision(game, p):
    """Each documented field holds one entry per deal of the view (or one number), and says what it is."""
    table = engine.field_table(game)
    assert all(doc for _, _, doc in table), [name for name, _, doc in table if not doc]
    names = [name for name, _, _ in table]
    kinds = set()

    def read_all(view, rng):
        for name in names:
            value = getattr(view, name)
            if isinstance(value, np.ndarray):
                assert value.shape[0] == len(view), (view.kind, name, value.shape)
        kinds.add(view.kind)
        return strategies.resolve("random", game.id)(view, rng)

    rules = {o.name: o.default for o in game.options}
    state = game.deal(np.random.default_rng(1), game.new_match(40, p, rules), 0)
    lineup = engine.Lineup([strategies.Strategy("read_all", read_all, "")], np.zeros(p, np.int64))
    engine.play_round(game, state, lineup, np.random.default_rng(2),
                      engine.Context(game.id, 0, 40, "deal", np.arange(40)))
    assert kinds


def test_history_and_voids_on_a_hand_built_kansas_city_trick():
    from .test_kansas_city import c, cards, hand_built

    game = simtool.games.get("kansas-city")
    # A5 led; seat 1's only A card is upgraded (trump), so it trumps: it has shown void in plain A
    s = hand_built([["A5", "B1"], ["A3", "C8"], ["A1", "D2"], ["A2", "E2"]], trump=["A3"])
    play = game.play(s)
    d = play.send(None)
    for card in ("A5", "A3", "A1", "A2"):
        d = play.send(np.array([c(card)]))
    assert d.kind == "upgrade"
    from simtool.games.kansas_city import HIDDEN_TRUMP

    view = engine.view_of(game, s, d.kind, np.broadcast_to(d.seat, (1,)), np.broadcast_to(d.legal, (1,)))
    # seat 2 saw only the back of seat 1's trump: rank 3, printed suit unseen
    assert view.history[0, 0].tolist() == [c("A5"), HIDDEN_TRUMP + 2, c("A1"), c("A2")]
    assert view.trump[0] == 0 and view.played[0] == cards(["A5", "A1", "A2"])
    owner = engine.view_of(game, s, d.kind, np.ones(1, np.int64), np.broadcast_to(d.legal, (1,)))
    assert owner.history[0, 0, 1] == c("A3") and owner.trump[0] == cards(["A3"])
    assert view.history[0, 1].tolist() == [-1] * 4
    assert view.leaders[0].tolist() == [0, -1] and view.winners[0].tolist() == [1, -1]
    assert view.winning[0] == 1  # the upgrades go clockwise from the winner's left
    assert view.voids[0].tolist() == [0, 1, 0, 0]  # seat 1: suit A (bit 0)


def test_fields_are_listed_from_the_command_line():
    r = cli("strategies", "--game", "black-white", "--fields")
    assert r.exit_code == 0, r.output
    for name in ("history", "leaders", "winners", "colours", "hand_sizes", "legal"):
        assert name in r.stdout
    one_line_error(cli("strategies", "--fields"), "--fields needs --game")
