"""--isolate: a plugin seat plays in a process of its own that receives only its views."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import polars as pl
import pytest

import simtool
import simtool.games
import strategies
from simtool.pipeline.runner import execute, make_spec, spec_from_dict

from .test_cli import cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

PLUGINS = Path(__file__).parent / "plugins"
# draws from its rng on some decisions, from numpy's and Python's global generators on all, and
# plays restricted: every way an isolated plugin's choices could drift from the in-process run's
LINEUP = {0: f"{PLUGINS}/good.py:first_or_random", 1: f"{PLUGINS}/hostile.py:draws_globals~lower-colour"}


def _seats(isolate: bool, jobs: int) -> pl.DataFrame:
    # three chunks, the last short: two workers share them (1,500 deals, not 3,000: a drift of the
    # isolated plugin's draws shows in the first chunk's deals already, and each isolated decision
    # is a round trip to its process)
    spec = make_spec("black-white", 3, 1500, "balance", LINEUP, seed=11, isolate=isolate)
    spec = dataclasses.replace(spec, chunk=512)
    return pl.concat([c.seats for c in execute(spec, jobs=jobs)])


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_isolated_run_has_the_results_of_the_run_in_process(jobs):
    here = _seats(False, 1)
    assert here["strategy"].unique().len() == 3
    assert _seats(True, jobs).equals(here)


@pytest.mark.parametrize("game", [g.id for g in simtool.games.BUILT_IN])
def test_every_games_heuristic_as_an_isolated_plugin_plays_as_in_process(game):
    """Each game's heuristic reads many view fields, and the public rules its view keeps."""
    default = simtool.games.get(game).default_strategy
    seats = {0: f"{PLUGINS}/heuristics.py:{default}"}
    here = simtool.run(game, 300, strategy="random", seats=seats, seed=2)
    assert simtool.run(game, 300, strategy="random", seats=seats, seed=2, isolate=True).seats.equals(here.seats)


def test_built_in_strategies_are_not_isolated_and_plugins_are():
    built_in = strategies.resolve("balance", "black-white", isolate=True)
    assert built_in.choose is strategies.resolve("balance", "black-white").choose  # the function itself
    plugin = strategies.resolve(f"{PLUGINS}/good.py:lowest_card", "black-white", isolate=True)
    assert type(plugin.choose).__name__ == "_Remote" and plugin.name == "good.py:lowest_card"


def test_a_built_in_search_plays_its_plugin_policy_isolated_too():
    from strategies import isolate

    kw = {"strategy": "balance", "seed": 3, "seats": {0: f"pimc@samples=2,playout={PLUGINS}/good.py:first_or_random"}}
    here = simtool.run("black-white", 60, **kw)
    for child in list(isolate._CHILDREN.values()):
        isolate._end(child)
    assert simtool.run("black-white", 60, isolate=True, **kw).seats.equals(here.seats)
    assert [key[0] for key in isolate._CHILDREN] == [f"{PLUGINS}/good.py:first_or_random"]


def test_the_run_folder_keeps_isolate_so_a_resume_isolates_too():
    spec = make_spec("black-white", 3, 100, f"{PLUGINS}/good.py:lowest_card", seed=1, isolate=True)
    assert spec_from_dict(spec.as_dict()) == spec and spec_from_dict(spec.as_dict()).isolate


def _reports(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_in_process_a_plugin_can_reach_the_state_it_is_trusted_code(tmp_path, monkeypatch):
    """The trust model's other side, kept honest: walking frames, a plugin in simtool's process
    finds the round state (docs/trust.md). --isolate is for plugins that are not trusted."""
    monkeypatch.setenv("SIMTOOL_SNOOP_REPORT", str(tmp_path / "report"))
    simtool.run("black-white", 50, strategy=f"{PLUGINS}/snoops.py:snoops", seed=3)
    assert all(r["states"] >= 1 and r["pid"] == os.getpid() for r in _reports(tmp_path / "report"))


def test_an_isolated_plugin_finds_no_state_and_its_writes_do_not_reach_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMTOOL_SNOOP_REPORT", str(tmp_path / "report"))
    seats = {0: f"{PLUGINS}/snoops.py:tampers"}
    wrecker = simtool.run("black-white", 500, strategy="balance", seats=seats, seed=4, isolate=True)
    reports = _reports(tmp_path / "report")
    assert reports and all(r["states"] == 0 and r["pid"] != os.getpid() for r in reports)
    # it zeroed every state it reached (none) and its own view: the game went on as if it had
    # played its lowest option and done nothing else
    plain = simtool.run("black-white", 500, strategy="balance", seats={0: f"{PLUGINS}/good.py:lowest_card"},
                        seed=4)
    columns = [c for c in plain.seats.columns if c != "strategy"]
    assert wrecker.seats.select(columns).equals(plain.seats.select(columns))


@pytest.mark.parametrize("name,problem", [
    ("good.py:crashes", "strategy 'good.py:crashes' raised ValueError: my bug"),
    ("good.py:cheats", "strategy 'good.py:cheats' chose the illegal option"),
    ("hostile.py:dies", "strategy 'hostile.py:dies' raised ProcessEnded: its isolated process ended"),
])
def test_an_isolated_plugin_that_raises_cheats_or_dies_stops_the_run_with_one_line(tmp_path, name, problem):
    r = cli("run", "--n", "300", "--seed", "1", "--isolate", "--quiet", "--out", str(tmp_path / "r"),
            "--seat", f"0={PLUGINS}/{name}")
    one_line_error(r, problem)


def test_an_isolated_plugin_past_its_timeout_is_stopped(tmp_path):
    r = cli("run", "--n", "300", "--seed", "1", "--isolate", "--timeout", "0.5", "--quiet",
            "--out", str(tmp_path / "r"), "--seat", f"0={PLUGINS}/hostile.py:sleeps")
    one_line_error(r, "strategy 'hostile.py:sleeps' did not return within --timeout 0.5 s")


def test_a_sweep_isolates_the_plugins_of_every_cell_its_grid_asks_for(tmp_path, monkeypatch):
    from simtool.commands import sweep
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match="bad isolate 'yes'; expected true or false"):
        sweep.make_grid({"games": ["black-white"], "isolate": "yes"})
    monkeypatch.setenv("SIMTOOL_SNOOP_REPORT", str(tmp_path / "report"))
    r = cli("sweep", "--game", "black-white", "--lineup", f"{PLUGINS}/snoops.py:snoops,balance",
            "--lineup", "balance", "--n", "200", "--seed", "1", "--jobs", "1", "--isolate", "--quiet",
            "--runs", tmp_path / "runs", "--out", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    reports = _reports(tmp_path / "report")
    assert reports and all(r["states"] == 0 and r["pid"] != os.getpid() for r in reports)
    cells = sorted((tmp_path / "runs").glob("*/run.json"))
    first = [c.read_text() for c in cells]
    assert len(cells) == 2 and all(json.loads(text)["isolate"] for text in first)
    # the same sweep again keeps its finished cells: their run.json says they were isolated
    again = cli("sweep", "--game", "black-white", "--lineup", f"{PLUGINS}/snoops.py:snoops,balance",
                "--lineup", "balance", "--n", "200", "--seed", "1", "--jobs", "1", "--isolate", "--quiet",
                "--runs", tmp_path / "runs", "--out", tmp_path / "sweep.html")
    assert again.exit_code == 0, again.output
    assert [c.read_text() for c in cells] == first


def test_what_an_isolated_plugin_sends_back_cannot_run_code_in_the_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMTOOL_SNOOP_REPORT", str(tmp_path / "created"))
    r = cli("run", "--n", "300", "--seed", "1", "--isolate", "--quiet", "--out", str(tmp_path / "r"),
            "--seat", f"0={PLUGINS}/snoops.py:smuggles")
    one_line_error(r, "strategy 'snoops.py:smuggles' raised BadReply: its process sent something "
                      "other than choices: UnpicklingError: io.open is not a value")
    assert not (tmp_path / "created").exists()
