"""Gaps a hostile round left: ``make strength`` after a strategy's defaults changed, ``pimc``
parameters that did nothing silently, dask workers outliving a killed main process. Each test
failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import json

import pytest

import strategies
from simtool.commands import strength
from simtool.errors import SimtoolError


def pimc_samples_default(monkeypatch, samples: int) -> None:
    """pimc as if its default ``samples`` had been changed in strategies/pimc.py."""
    i = next(i for i, s in enumerate(strategies.BUILT_IN) if s.name == "pimc")
    old = strategies.BUILT_IN[i]
    params = tuple(dataclasses.replace(p, default=samples) if p.name == "samples" else p for p in old.params)
    monkeypatch.setattr(strategies, "BUILT_IN", (*strategies.BUILT_IN[:i], dataclasses.replace(old, params=params),
                                                 *strategies.BUILT_IN[i + 1:]))


def test_strength_replaces_its_plan_when_a_default_changed(tmp_path, monkeypatch):
    # before: "runs holds an unfinished strength of 7 other runs (3 left); ... delete plan.json",
    # and once deleted, the `pimc` cells played with the old default were kept as they were
    from simtool.pipeline.folders import RunWriter

    runs, said, cut = tmp_path / "runs", [], "black-white_3p_deck-30_pimc+balance"
    finish = RunWriter.finish

    def stopped(self, *args, **kw):  # Ctrl-C with the 4th cell's chunk on disk, before its tables
        if self.out.name == cut:
            raise KeyboardInterrupt
        return finish(self, *args, **kw)

    monkeypatch.setattr(RunWriter, "finish", stopped)
    with pytest.raises(KeyboardInterrupt):
        strength.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=said.append)
    monkeypatch.setattr(RunWriter, "finish", finish)
    first = {p.parent.name: json.loads(p.read_text()) for p in runs.glob("*/run.json")}
    assert len(first) == 3 and "black-white_3p_pimc@samples=16+balance" in first
    assert list((runs / cut / "chunks").glob("seats-*.parquet"))  # interrupted, played with samples=8
    pimc_samples_default(monkeypatch, 12)
    said.clear()
    cells, context = strength.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=said.append)
    replaced = [line for line in said if "replaced" in line]
    assert len(replaced) == 1 and "\n" not in replaced[0], said
    assert ("1 cells played before kept, 2 played with other settings played again (black-white_3p_deck-30_"
            "pimc+balance, black-white_3p_pimc+balance)") in replaced[0]
    assert "1 old cells' folders removed (black-white_3p_pimc@samples=16+balance)" in replaced[0]
    assert context["kept"] == 1 and context["played"] == 6
    now = {p.parent.name: json.loads(p.read_text()) for p in runs.glob("*/run.json")}
    assert len(now) == 7 and "black-white_3p_pimc@samples=24+balance" in now  # doubled: 2 x 12
    assert now["black-white_3p_clairvoyant+balance"] == first["black-white_3p_clairvoyant+balance"]
    for name, meta in now.items():
        if "pimc" in name:
            assert meta["params"][meta["lineup"][0]]["samples"] in (12, 24), name
    assert now[cut]["resumed_chunks"] == 0  # played afresh: its chunk was played with samples=8
    # and again, nothing changed: every cell kept, no plan replaced
    said.clear()
    again, context = strength.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=said.append)
    assert again == cells and context["played"] == 0 and not [line for line in said if "replaced" in line]


def kinds_played(game_id: str, rules: dict, n: int = 40) -> set[str]:
    """The decision kinds one round of ``n`` deals under ``rules`` asks for (random play)."""
    import numpy as np

    from simtool import bits, engine, games

    game, seen = games.get(game_id), set()

    @strategies.strategy("recorder", "random play, noting each decision's kind")
    def recorder(view, rng):
        seen.add(view.kind)
        return bits.uniform(view.legal, rng, view.n_actions)

    rules = {o.name: o.default for o in game.options} | rules
    p = game.default_players
    state = game.deal(np.random.default_rng(1), game.new_match(n, p, rules), 0)
    engine.play_round(game, state, engine.Lineup([recorder], np.zeros(p, int)), np.random.default_rng(2),
                      engine.Context(game_id, 0, n, "deal", np.arange(n)))
    return seen


@pytest.mark.parametrize("game_id", strength.GAMES)
def test_each_game_declares_the_decision_kinds_it_asks_for(game_id):
    from simtool import games

    declared = games.get(game_id).decisions
    seen = set().union(*(kinds_played(game_id, rules) for rules in ({}, *strength.VARIANTS[game_id])))
    assert seen <= set(declared) and len(set(declared)) == len(declared)
    assert seen == set(declared), (game_id, seen)


@pytest.mark.parametrize(("game_id", "entry", "says"), [
    ("black-white", "pimc@focus=bid,focus_samples=16",
     "bad parameter focus 'bid' of strategy 'pimc': black-white has no decision of that kind; "
     "choose one of: none, lead, colour, play"),
    ("nine-lives", "pimc@focus=pass",
     "bad parameter focus 'pass' of strategy 'pimc': nine-lives has no decision of that kind; "
     "choose one of: none, bid, lead, play"),
    ("hearts", "pimc@keep=3", "bad parameters keep=3, deep=0 of strategy 'pimc': a second look needs both"),
    ("hearts", "pimc@deep=16", "bad parameters keep=0, deep=16 of strategy 'pimc': a second look needs both"),
    ("nine-lives", "pimc@deep=0", "bad parameters keep=4, deep=0 of strategy 'pimc'"),  # keep's default is 4 there
])
def test_pimc_refuses_what_would_do_nothing(tmp_path, game_id, entry, says):
    # before: accepted, and played as plain pimc (a focus never met, a second look given half)
    from .test_cli import cli

    r = cli("run", "-g", game_id, "-n", "10", "--seat", f"0={entry}", "-q", "-o", tmp_path / "run")
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line and says in line, line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("game_id", "entry"), [("black-white", "pimc@focus=colour,focus_samples=4,samples=2"),
                                               ("hearts", "pimc@keep=2,deep=2,samples=2"),
                                               ("nine-lives", "pimc@keep=0,deep=0,samples=2")])
def test_pimc_still_takes_what_the_game_has(tmp_path, game_id, entry):
    from .test_cli import cli

    r = cli("run", "-g", game_id, "-n", "10", "--seat", f"0={entry}", "-q", "--jobs", "1", "-o", tmp_path / "run")
    assert r.exit_code == 0, r.output


STARTING = """
import sys, time
from simtool.pipeline import cluster
import dask.distributed

starting = []

def slow_scheduler(*args, **kw):  # the scheduler's start-up, caught half-way by the kill
    own = starting[0]
    while len(own.pids()) < 2:  # forked by the zygote, waiting for this scheduler
        time.sleep(0.05)
    print(own.zygote.pid, *own.pids(), flush=True)
    time.sleep(120)

dask.distributed.LocalCluster = slow_scheduler
real = cluster.Embedded._start

def start(self):
    starting.append(self)
    real(self)

cluster.Embedded._start = start
cluster.embedded(2)
"""


def alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.skipif(not hasattr(__import__("os"), "killpg"), reason="POSIX process groups")
def test_dask_workers_end_with_a_main_process_killed_during_the_clusters_start_up():
    # before: the workers waited for a scheduler that never came (--death-timeout 30) and
    # outlived the killed process by 30 s to over a minute
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    pytest.importorskip("distributed")
    root = str(Path(__file__).resolve().parents[1])
    main = subprocess.Popen([sys.executable, "-c", STARTING], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=root))
    workers = []
    try:
        workers = [int(pid) for pid in main.stdout.readline().split()]  # the zygote and its two workers
        assert all(alive(pid) for pid in workers)
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    ends = time.monotonic() + 15  # at once when fixed (milliseconds); before, 30 s and more
    while any(alive(pid) for pid in workers) and time.monotonic() < ends:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # not left running for the next test
        os.killpg(pid, signal.SIGKILL)
    assert not left and len(workers) == 3


def test_a_cells_parameters_are_recorded_for_heuristics_without_any():
    spec = next(s for s, role in strength.plan(["out-trumped"]) if "pimc" in s.lineup)
    recorded = strength.params(spec)
    assert recorded["hoarder"] == {} and recorded["pimc"]["infer"] == 3


@pytest.mark.parametrize("game_id, entry, says", [
    ("black-white", "pimc@infer=2", "'balance' offers no belief"),
    ("nine-lives", "pimc@infer=3,playout=random", "policy that offers one: exact"),
    ("out-trumped", "pimc@infer=1,playout=tricks", "policy that offers one: hoarder"),
])
def test_inference_from_a_policy_without_a_belief_is_refused(game_id, entry, says):
    with pytest.raises(SimtoolError, match=says):
        strategies.resolve(entry, game_id)


def test_the_games_own_inference_is_off_under_a_policy_without_a_belief():
    # pimc@playout=random in Nine Lives keeps its default infer=1, which then reads nothing
    assert strategies.resolve("pimc@playout=random", "nine-lives").values.infer == 1
    assert strategies.resolve("pimc@infer=3", "nine-lives").values.infer == 3
