"""Strategy parameters: NAME@KEY=VALUE,... in every line-up, checked, named canonically."""

from __future__ import annotations

import json

import polars as pl
import pytest

import simtool
import strategies
from simtool.errors import SimtoolError

from .test_cli import PLUGINS, cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

PLUGIN = '''
import numpy as np
from simtool import bits
from strategies import Param, strategy


@strategy("picky", "plays its lowest legal option, or with a share of random picks",
          params=(Param("share", float, 0.0, "share of random picks", 0.0, 1.0),
                  Param("side", str, "low", "which end", values=("low", "high"))))
def picky(view, rng, params):
    pick = bits.lowest(view.legal) if params.side == "low" else bits.highest(view.legal, view.n_actions)
    if params.share > 0:
        pick = np.where(rng.random(len(view)) < params.share,
                        bits.uniform(view.legal, rng, view.n_actions), pick)
    return pick
'''


@pytest.mark.parametrize("entry,game,name", [
    ("target", "kansas-city", "target"),
    ("target@under=0", "kansas-city", "target"),  # the default: the same strategy
    ("target@under=1", "kansas-city", "target@under=1"),
    ("target@mistakes=0.1,under=1", "kansas-city", "target@under=1,mistakes=0.1"),  # declared order
    ("target@under=1,mistakes=0", "kansas-city", "target@under=1"),
    ("target@ under = 2 ", "kansas-city", "target@under=2"),
    ("balance@mistakes=1", "black-white", "balance@mistakes=1"),
    ("balance@mistakes=0.25", "black-white", "balance@mistakes=0.25"),
    ("balance@mistakes=2.5e-1", "black-white", "balance@mistakes=0.25"),
])
def test_canonical_names(entry, game, name):
    assert strategies.canonical(entry, game) == name
    assert strategies.resolve(entry, game).name == name


def test_plugins_take_parameters_and_keep_their_path(tmp_path):
    plugin = tmp_path / "my@bots" / "picky.py"  # an '@' in a path is not a parameter list
    plugin.parent.mkdir()
    plugin.write_text(PLUGIN)
    assert strategies.canonical(f"{plugin}:picky", "black-white") == f"{plugin}:picky"
    assert strategies.canonical(f"{plugin}:picky@side=high,share=0", "black-white") == f"{plugin}:picky@side=high"
    found = strategies.resolve(f"{plugin}:picky@share=0.5", "black-white")
    assert found.name == "picky.py:picky@share=0.5" and found.values.share == 0.5 and found.values.side == "low"
    r = cli("run", "--n", "300", "--seed", "1", "-j", "1", "--out", tmp_path / "run", "-q",
            "--seat", f"0={plugin}:picky@side=high")
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["lineup"][0] == f"{plugin}:picky@side=high"
    assert meta["plugins"][f"{plugin}:picky@side=high"]["path"] == str(plugin.resolve())
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == ["picky.py:picky@side=high"]


def test_line_ups_split_on_commas_between_strategies_only():
    assert strategies.split_lineup("greedy,target@under=1,mistakes=0.1,random") == [
        "greedy", "target@under=1,mistakes=0.1", "random"]
    assert strategies.split_lineup("target@under=1, greedy") == ["target@under=1", "greedy"]
    assert strategies.split_lineup("a.py:x@k=1,b.py:y") == ["a.py:x@k=1", "b.py:y"]


def test_a_parameter_changes_play_and_its_default_does_not(tmp_path):
    base = ["run", "-g", "kansas-city", "--n", "4000", "--seed", "3", "-j", "1", "-q", "-s", "target",
            "--rotate"]
    for name, seat in [("plain", "target"), ("default", "target@under=0,mistakes=0"),
                       ("under", "target@under=1")]:
        assert cli(*base, "--seat", f"0={seat}", "--out", tmp_path / name).exit_code == 0
    plain, default, under = (pl.read_parquet(tmp_path / n / "seats.parquet") for n in ("plain", "default", "under"))
    assert default.equals(plain)
    assert json.loads((tmp_path / "default" / "run.json").read_text())["lineup"] == ["target"] * 4
    means = under.group_by("strategy").agg(pl.col("tricks").mean(), pl.col("overshoot").mean())
    aim_lower = means.filter(pl.col("strategy") == "target@under=1").row(0, named=True)
    aim_limit = means.filter(pl.col("strategy") == "target").row(0, named=True)
    # aiming a trick under the limit takes fewer tricks and overshoots less often
    assert aim_lower["tricks"] < aim_limit["tricks"] - 0.5
    assert aim_lower["overshoot"] < aim_limit["overshoot"] - 0.1


def test_mistakes_move_a_heuristic_towards_random():
    share = {}
    for rate in (0, 0.5, 1):
        r = simtool.run("black-white", 6000, strategy="random", seats={0: f"balance@mistakes={rate}"},
                        seed=2, rotate=True)
        name = "balance" if rate == 0 else f"balance@mistakes={rate}"
        row = r.seats.filter(pl.col("strategy") == name)
        share[rate] = row["win"].mean()
    assert share[0] > share[0.5] + 0.03 > share[1] + 0.06
    assert abs(share[1] - 1 / 3) < 0.03  # careless at every decision: random play


def test_sweep_line_ups_and_grid_files_take_parameters(tmp_path):
    runs = tmp_path / "cells"
    r = cli("sweep", "-g", "kansas-city", "-l", "greedy,target@under=1,mistakes=0.1", "--n", "500",
            "--seed", "1", "--runs", runs, "-o", tmp_path / "s.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    (cell,) = [p for p in runs.iterdir() if p.is_dir()]
    lineup = json.loads((cell / "run.json").read_text())["lineup"]
    assert lineup == ["greedy"] + ["target@under=1,mistakes=0.1"] * 3
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["kansas-city"]\nlineups = ["default@under=1", "target@mistakes=0.2,under=0"]\n'
                    'n = 300\nseed = 1\n')
    r = cli("sweep", grid, "--runs", tmp_path / "grid", "-o", tmp_path / "g.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    lineups = sorted(json.loads((p / "run.json").read_text())["lineup"][0]
                     for p in (tmp_path / "grid").iterdir() if p.is_dir())
    assert lineups == ["target@mistakes=0.2", "target@under=1"]


def test_strategies_lists_parameters():
    r = cli("strategies", "--game", "kansas-city")
    assert r.exit_code == 0
    assert "under: a whole number 0..3, default 0" in r.stdout
    assert "mistakes: a number 0..1, default 0" in r.stdout


@pytest.mark.parametrize("entry,needles", [
    ("target@under=9", ["bad parameter under '9' of strategy 'target'", "a whole number 0..3"]),
    ("target@under=1.5", ["bad parameter under '1.5'"]),
    ("target@under=two", ["bad parameter under 'two'"]),
    ("target@mistakes=nan", ["bad parameter mistakes 'nan'", "a number 0..1"]),
    ("target@mistakes=-0.1", ["bad parameter mistakes '-0.1'"]),
    ("target@aim=2", ["unknown parameter 'aim' for strategy 'target'", "under (a whole number 0..3)",
                      "mistakes (a number 0..1)"]),
    ("greedy@under=1", ["strategy 'greedy' takes no parameters", "plain 'greedy'"]),
    ("target@under", ["bad strategy 'target@under'", "NAME@KEY=VALUE"]),
    ("target@", ["bad strategy 'target@'"]),
    ("target@under=", ["parameter 'under' has no value"]),
    ("target@under=1,under=2", ["parameter 'under' given twice"]),
    ("genius@x=1", ["unknown strategy 'genius'", "target"]),
    (f"{PLUGINS}/good.py:lowest_card@x=1", ["strategy 'good.py:lowest_card' takes no parameters"]),
])
def test_bad_parameters_are_one_line_and_exit_2(tmp_path, entry, needles):
    out = tmp_path / "never"
    for flag in ("--strategy", "--seat"):
        value = entry if flag == "--strategy" else f"1={entry}"
        r = cli("run", "-g", "kansas-city", "--n", "100", "-j", "1", "--out", out, flag, value)
        one_line_error(r, *needles)
        assert not out.exists()
    r = cli("sweep", "-g", "kansas-city", "-l", f"greedy,{entry}", "--n", "100",
            "--runs", tmp_path / "cells", "-o", tmp_path / "s.html")
    one_line_error(r, *needles)
    with pytest.raises(SimtoolError, match="parameter|strategy"):
        simtool.run("kansas-city", 100, strategy=entry)


def test_a_parameter_may_name_a_strategy_of_the_game():
    """How a search strategy declares its play-out policy: any strategy of the game, 'default'
    (the game's default heuristic) left out of the canonical name."""
    assert strategies.canonical("pimc@playout=target", "kansas-city") == "pimc"
    assert strategies.canonical("pimc@playout=default,samples=8", "kansas-city") == "pimc"
    assert strategies.canonical("pimc@playout=greedy,samples=8", "kansas-city") == "pimc@playout=greedy"
    assert strategies.resolve("pimc", "black-white").values.playout == "balance"
    assert strategies.resolve("pimc@value=win", "black-white").values.as_dict() == {
        "samples": 8, "playout": "balance", "value": "win", "own": "playout", "keep": 0, "deep": 0,
        "focus": "none", "focus_samples": 0, "focus_keep": 0, "focus_deep": 0, "infer": 0}
    # a default may differ by game: the search's samples in Out-Trumped
    assert strategies.resolve("pimc", "out-trumped").values.samples == 16
    assert strategies.canonical("pimc@samples=16", "out-trumped") == "pimc"
    assert strategies.canonical("pimc@samples=8", "out-trumped") == "pimc@samples=8"
    assert strategies.canonical("pimc@samples=12", "kansas-city") == "pimc@samples=12"
    with pytest.raises(SimtoolError, match="bad parameter playout 'genius' of strategy "
                                           "'pimc': unknown strategy 'genius'; valid for kansas-city"):
        strategies.canonical("pimc@playout=genius", "kansas-city")
    with pytest.raises(SimtoolError, match="bad parameter playout 'balance'.*plays black-white"):
        strategies.canonical("pimc@playout=balance", "kansas-city")
    with pytest.raises(SimtoolError, match="bad parameter value 'best' of strategy 'pimc'; "
                                           "expected one of score, win"):
        strategies.canonical("pimc@value=best", "kansas-city")
