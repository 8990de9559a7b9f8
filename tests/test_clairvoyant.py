"""The clairvoyant reference player: pimc's search run on the true deal. The engine gives the true
deal only to the strategy a line-up marks as seeing (a run marks only the built-in, by name), no
plugin can obtain it, and every table, report and listing says it is not a fair player; a fair
line-up refuses it in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simtool
import simtool.games
import strategies
from simtool import bits, engine
from simtool.errors import SimtoolError
from simtool.pipeline.runner import make_spec, resolve_lineup

from .test_cli import cli, one_line_error

PLUGINS = Path(__file__).parent / "plugins"
SEER = PLUGINS / "seer.py"
SEER_COPY = PLUGINS / "seer_copy.py"


def _probe(seen: list):
    """Records the other seats' hands in two worlds of its first decision's re-deal."""

    def choose(view, rng):
        if not seen:
            worlds = view.redeal(2, rng)
            seen.append(worlds._state.hands.copy())  # the worlds' private state: this test's look
        return bits.lowest(view.legal)

    return strategies.Strategy("probe", choose, "")


@pytest.mark.parametrize("sees", [True, False])
def test_only_a_strategy_the_line_up_marks_as_seeing_gets_the_true_deal(sees):
    game = simtool.games.get("black-white")
    state = game.deal(np.random.default_rng(1), game.new_match(64, 3, {}), 0)
    truth = state.hands.copy()  # the first decision is the first lead: nothing played yet
    seen: list = []
    lineup = engine.Lineup([_probe(seen)], np.zeros(3, np.int64), sees=(sees,))
    engine.play_round(game, state, lineup, np.random.default_rng(2),
                      engine.Context(game.id, 0, 64, "deal", np.arange(64)))
    same = (seen[0] == np.repeat(truth, 2, axis=0)).all(axis=1)
    if sees:
        assert same.all()
    else:  # re-dealt: the other seats' hands match the truth in almost no world
        assert same.mean() < 0.05


@pytest.mark.parametrize("spec,sees", [
    ("clairvoyant", True), ("clairvoyant@value=win", True), ("clairvoyant~no-upgrade", True),
    ("pimc", False), ("target", False), (f"{SEER}:clairvoyant", False), (f"{SEER_COPY}:copied", False),
])
def test_the_built_in_registry_alone_decides_who_sees(spec, sees):
    assert strategies.sees_all(spec) is sees
    run = make_spec("kansas-city", 4, 100, "target", {0: spec}, seed=1)
    assert resolve_lineup(run).sees[0] is sees


def _wins(seat0: str, **extra) -> pl.DataFrame:
    result = simtool.run("black-white", 240, players=3, strategy="balance", seats={0: seat0}, seed=3,
                         rotate=True, jobs=1, **extra)
    return result.seats.drop("strategy"), result


def test_a_plugin_cannot_obtain_the_true_deal():
    """A plugin that calls itself clairvoyant, asks to see and runs the built-in's own search (or
    copies the built-in's Strategy object) plays exactly pimc with one re-dealt world: the same
    tables, deal for deal. The built-in clairvoyant, given the true deal, plays otherwise."""
    fair, _ = _wins("pimc@samples=1")
    for path, name in ((SEER, "clairvoyant"), (SEER_COPY, "copied")):
        plugin, result = _wins(f"{path}:{name}")
        assert plugin.equals(fair), name
        assert "not_fair" not in result.meta
        assert result.seats["strategy"][0] == f"{path.name}:clairvoyant"  # labelled by its file
    seeing, result = _wins("clairvoyant")
    assert not seeing.equals(fair)
    assert result.meta["not_fair"] == ["clairvoyant"]


def test_clairvoyant_wins_more_than_the_same_search_on_re_dealt_worlds():
    # Kansas City: reading the hidden cards is worth a great deal (issue 31: 0.93 against target)
    result = simtool.run("kansas-city", 600, strategy="target", seats={0: "clairvoyant", 1: "pimc@samples=1"},
                         seed=5, rotate=True, jobs=1)
    wins = result.seats.group_by("strategy").agg(pl.col("win").mean())
    share = dict(zip(wins["strategy"].cast(str), wins["win"], strict=True))
    assert share["clairvoyant"] > share["pimc@samples=1"] + 0.05


@pytest.mark.usefixtures("charts_undrawn")  # the page's words are looked at, not its charts
def test_every_table_and_listing_says_it_is_not_fair(tmp_path):
    out = tmp_path / "kc"
    r = cli("run", "-g", "kansas-city", "-n", "16", "--seed", "1", "--seat", "0=clairvoyant",
            "--rotate", "-j", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert "clairvoyant sees every hidden card: a reference, not a fair player" in r.stdout
    assert json.loads((out / "run.json").read_text())["not_fair"] == ["clairvoyant"]
    page = tmp_path / "page.html"
    assert cli("report", out, "-o", page).exit_code == 0
    html = page.read_text()
    assert "clairvoyant (sees every card: not a fair player)" in html
    listing = cli("strategies", "-g", "kansas-city").stdout
    assert "NOT a fair player" in listing and "NOT A FAIR PLAYER" in listing


@pytest.mark.parametrize("args,needles", [
    (["restrict", "-g", "kansas-city", "--strategy", "clairvoyant", "-n", "100"],
     ["'clairvoyant' sees every hidden card", "cannot be the strategy restricted play measures"]),
    (["tune", "-g", "kansas-city", "--vary", "pass_count=0,1", "--objective", "seat_spread:min",
      "--lineup", "clairvoyant,target", "-n", "100"], ["cannot be in a tuning's --lineup"]),
    (["tune", "-g", "kansas-city", "--vary", "pass_count=0,1", "--objective", "skill:max",
      "--strong", "clairvoyant@value=win", "-n", "100"], ["'clairvoyant@value=win' sees every hidden card"]),
    (["ladder", "-g", "kansas-city", "--rungs", "target,clairvoyant", "-n", "100"],
     ["cannot be a rung of the fair chain", "--reference"]),
    (["run", "-g", "kansas-city", "-n", "100", "--seat", "0=pimc@playout=clairvoyant"],
     ["parameter playout 'clairvoyant' of strategy 'pimc'", "a play-out policy"]),
])
def test_a_fair_line_up_refuses_it_in_one_line(tmp_path, args, needles):
    one_line_error(cli(*args, "--runs" if args[0] == "ladder" else "--out",
                       tmp_path / "out"), *needles)


def test_clairvoyant_takes_no_samples():
    with pytest.raises(SimtoolError, match="parameter 'samples'"):
        strategies.resolve("clairvoyant@samples=8", "black-white")


def test_it_is_no_game_s_default_and_a_game_that_names_it_is_refused(monkeypatch):
    assert not any(strategies.sees_all(g.default_strategy) for g in simtool.games.registry().values())
    game = simtool.games.get("black-white")
    monkeypatch.setattr(type(game), "default_strategy", "clairvoyant")
    with pytest.raises(SimtoolError, match="cannot be black-white's default strategy"):
        make_spec("black-white", 3, 100, seed=1)
    with pytest.raises(SimtoolError, match="cannot be black-white's default strategy"):
        strategies.resolve("pimc@playout=default", "black-white")


def test_its_play_out_policy_is_built_in():
    # asked in play-outs of the true deal, a plugin would see every seat's cards and could keep
    # them for a seat of its own
    with pytest.raises(SimtoolError, match="play-out policy must be a built-in strategy"):
        strategies.resolve(f"clairvoyant@playout={PLUGINS / 'good.py'}:lowest_card", "black-white")
    assert strategies.resolve("clairvoyant@playout=duck", "black-white").values.playout == "duck"
