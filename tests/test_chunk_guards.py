"""A chunk takes the guards against plugins (simtool's code put back, the global generators seeded,
the process's state restored: runner._play) only where a plugin plays: a built-in game among
built-in strategies skips them, 0.4 ms of each chunk (docs/speed.md, 2026-11-27 (2 cores))."""

from __future__ import annotations

import contextlib
import dataclasses

import strategies
from simtool.pipeline import runner
from simtool.pipeline.runner import make_spec

from .test_cli import PLUGINS

HOSTILE = PLUGINS / "hostile.py"


def guards_taken(monkeypatch, spec) -> list[str]:
    """The guards ``spec``'s chunk 0 entered, by name."""
    taken = []

    def counting(name, guard):
        @contextlib.contextmanager
        def wrapped(*args):
            taken.append(name)
            with guard(*args):
                yield
        return wrapped

    monkeypatch.setattr(strategies, "untouched", counting("untouched", strategies.untouched))
    monkeypatch.setattr(runner, "seeded_globals", counting("seeded_globals", runner.seeded_globals))
    runner.play_chunk(spec, 0)
    return taken


def small(lineup: str, seats=None):
    return dataclasses.replace(make_spec("black-white", 3, 32, lineup, seats, seed=4), chunk=16)


def test_a_built_in_line_up_plays_its_chunks_unguarded(monkeypatch):
    assert guards_taken(monkeypatch, small("random")) == []
    assert guards_taken(monkeypatch, small("balance", {1: "random"})) == []


def test_a_plugin_in_the_line_up_keeps_both_guards(monkeypatch):
    assert guards_taken(monkeypatch, small("random", {0: f"{HOSTILE}:draws_globals"})) == [
        "untouched", "seeded_globals"]
    # a built-in search whose play-out policy is a plugin runs the plugin's code too
    assert guards_taken(monkeypatch, small("random", {0: f"pimc@playout={HOSTILE}:draws_globals"})) == [
        "untouched", "seeded_globals"]


def test_an_installed_play_out_policy_keeps_both_guards(monkeypatch):
    # before: only a plugin's file among a search's parameters counted as a plugin, so pimc whose
    # play-out policy (or own policy) was an installed package's strategy played unguarded: its
    # draws from numpy's global generator were not seeded, its changes to simtool not put back
    from importlib.metadata import EntryPoint

    monkeypatch.syspath_prepend(str(PLUGINS))
    ep = EntryPoint("drawer", "hostile:draws_globals", "simtool.strategies")
    monkeypatch.setattr(strategies, "entry_points", lambda group: [ep] if group == ep.group else [])
    for entry in ("pimc@samples=2,playout=drawer", "pimc@samples=2,own=drawer"):
        assert not runner.built_in_strategy(entry)
        assert "seeded_globals" in guards_taken(monkeypatch, small("random", {0: entry})), entry
    # a built-in policy, or the search's own policy named as 'playout', is still built in
    assert runner.built_in_strategy("pimc@samples=2,playout=balance,own=playout")
