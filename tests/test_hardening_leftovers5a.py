"""Leftovers (5a): a line-up's ``default``, messages of the Python API, a grid file's numbers, an
isolated plugin's empty error, a plan's resume advice and plugin paths holding ``@`` (each test
failed on the code before its fix)."""

from __future__ import annotations

import json

import simtool

from .test_cli import cli


def test_default_names_the_games_default_strategy_at_any_seat_from_python_and_the_command_line(tmp_path):
    # before: simtool.run(seats={0: "default"}) and `run --seat 0=default` were refused, "unknown
    # strategy 'default'", though a sweep's line-up and a play-out policy read it as the game's
    # default; after: every line-up reads it so, recorded by the strategy's own name
    named = simtool.run("black-white", n=60, players=3, seats={0: "default"}, strategy="random", seed=1)
    plain = simtool.run("black-white", n=60, players=3, seats={0: "balance"}, strategy="random", seed=1)
    assert named.spec.lineup == plain.spec.lineup == ("balance", "random", "random")
    assert named.seats.equals(plain.seats)
    out = tmp_path / "kc"
    r = cli("run", "--game", "kansas-city", "--n", "40", "--seed", "1", "--strategy", "default",
            "--seat", "0=default@under=1~no-upgrade", "--jobs", "1", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["lineup"] == ["target@under=1~no-upgrade"] + ["target"] * 3
    assert simtool.restrict.plan("kansas-city", n=40, seed=1, strategy="default",
                                 restrictions=["no-upgrade"])[1][0]["restrict"]["strategy"] == "target"
