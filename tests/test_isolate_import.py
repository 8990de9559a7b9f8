"""--isolate: an isolated plugin's module is imported only in its own process, never in simtool's
(nor in its forked workers): its process describes it (name, games, parameters, cost)."""

from __future__ import annotations

import json
import os
import sys
import textwrap

import pytest

import simtool
import strategies
from simtool.errors import SimtoolError

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

PLUGIN = textwrap.dedent('''
    import json, os, sys

    # module-level code: where it runs, it could change the engine; it records the process
    with open(os.environ["SIMTOOL_TEST_IMPORTS"], "a") as out:
        out.write(json.dumps([os.getpid(), sys.orig_argv]) + "\\n")

    from strategies import Param, strategy
    from simtool import bits


    def lowest(view, rng):
        """the lowest legal option"""
        return bits.lowest(view.legal)


    @strategy("tuned", "the lowest or the highest legal option", params=(
        Param("high", int, 0, "1: the highest", 0, 1),), cost=lambda p: 3.0 + p.high)
    def tuned(view, rng, params):
        return bits.highest(view.legal) if params.high else bits.lowest(view.legal)
    ''')


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A fresh plugin file (a module name of its own) and the file its imports are recorded in."""
    path, log = tmp_path / "recorder.py", tmp_path / "imports.jsonl"
    path.write_text(PLUGIN)
    monkeypatch.setenv("SIMTOOL_TEST_IMPORTS", str(log))
    return path, log


def _importers(log) -> list[tuple[int, list[str]]]:
    return [tuple(json.loads(line)) for line in log.read_text().splitlines()] if log.exists() else []


def _only_isolated(log) -> None:
    found = _importers(log)
    assert found, "the plugin was imported nowhere"
    for pid, argv in found:
        assert pid != os.getpid()
        # a process started by strategies.isolate, not simtool's nor a worker forked from it
        assert argv != sys.orig_argv and any("strategies.isolate import serve" in a for a in argv)


@pytest.mark.parametrize("jobs", [1, 2])
def test_run_isolate_imports_the_plugin_only_in_its_own_process(plugin, jobs):
    path, log = plugin
    seats = {0: f"{path}:lowest", 1: f"{path}:tuned@high=1", 2: f"{path}:lowest~lower-colour"}
    there = simtool.run("black-white", 400, strategy="balance", seats=seats, seed=5, jobs=jobs, isolate=True)
    _only_isolated(log)
    assert f"{path}" not in str(sys.modules.keys())
    here = simtool.run("black-white", 400, strategy="balance", seats=seats, seed=5, jobs=jobs)
    assert os.getpid() in [pid for pid, _ in _importers(log)]  # the check can fail: in-process imports here
    assert there.seats.equals(here.seats)


def test_a_searchs_isolated_playout_is_imported_only_in_its_own_process(plugin):
    path, log = plugin
    seats = {0: f"pimc@samples=2,playout={path}:lowest"}
    there = simtool.run("black-white", 40, strategy="balance", seats=seats, seed=3, isolate=True)
    _only_isolated(log)
    here = simtool.run("black-white", 40, strategy="balance", seats=seats, seed=3)
    assert there.seats.equals(here.seats)


def test_an_isolated_plugins_description_is_its_own(plugin):
    path, log = plugin
    found = strategies.resolve(f"{path}:tuned@high=1", "black-white", isolate=True)
    assert (found.name, found.relative_cost(), found.values.high) == ("recorder.py:tuned@high=1", 4.0, 1)
    assert [p.name for p in found.params] == ["high"] and found.params[0].kind is int
    _only_isolated(log)


@pytest.mark.parametrize("entry", ["{path}:tuned@high=2", "{path}:tuned@low=1", "{path}:missing",
                                   "{path}:lowest@high=1"])
def test_an_isolated_plugins_errors_are_those_in_process(plugin, entry):
    path, log = plugin
    with pytest.raises(SimtoolError) as isolated:
        strategies.resolve(entry.format(path=path), "black-white", isolate=True)
    _only_isolated(log)
    with pytest.raises(SimtoolError) as here:
        strategies.resolve(entry.format(path=path), "black-white")
    assert str(isolated.value) == str(here.value) and "\n" not in str(here.value)


def test_a_plugin_raising_at_import_is_the_same_one_line_error(tmp_path):
    path = tmp_path / "raises.py"
    path.write_text("raise RuntimeError('no luck')\n")
    with pytest.raises(SimtoolError) as isolated:
        strategies.resolve(f"{path}:x", "black-white", isolate=True)
    with pytest.raises(SimtoolError) as here:
        strategies.resolve(f"{path}:x", "black-white")
    assert str(isolated.value) == str(here.value) == f"strategy plugin {path} failed to load: RuntimeError: no luck"


@pytest.fixture
def installed(plugin, tmp_path, monkeypatch):
    """The recorder plugin installed as a package's strategies ``recorded`` and ``recorded_tuned``
    (what `pip install` writes: its module and its entry points, found on sys.path)."""
    path, log = plugin
    site = tmp_path / "site"
    info = site / "recorder_pkg-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "recorder_pkg.py").write_text(path.read_text())
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: recorder-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simtool.strategies]\nrecorded = recorder_pkg:lowest\n"
                                           "recorded_tuned = recorder_pkg:tuned\n")
    monkeypatch.syspath_prepend(str(site))
    yield log
    sys.modules.pop("recorder_pkg", None)


def test_an_installed_strategy_isolated_is_imported_only_in_its_own_process(installed):
    seats = {0: "recorded", 1: "recorded_tuned@high=1"}
    there = simtool.run("black-white", 300, strategy="balance", seats=seats, seed=8, isolate=True)
    _only_isolated(installed)
    assert "recorder_pkg" not in sys.modules
    assert sorted(there.seats["strategy"].unique().to_list()) == ["balance", "recorded", "recorded_tuned@high=1"]
    assert there.seats.equals(simtool.run("black-white", 300, strategy="balance", seats=seats, seed=8).seats)


def test_an_error_listing_the_valid_strategies_under_isolate_imports_no_installed_one(installed):
    with pytest.raises(SimtoolError) as isolated:
        strategies.resolve("recordd", "black-white", isolate=True)
    _only_isolated(installed)
    assert "recorded" in str(isolated.value)
    with pytest.raises(SimtoolError) as here:
        strategies.resolve("recordd", "black-white")
    assert str(isolated.value) == str(here.value)


@pytest.mark.parametrize("restrict", [False, True])
def test_sweep_isolate_imports_the_plugin_only_in_its_own_process(plugin, tmp_path, restrict):
    from .test_cli import cli

    path, log = plugin
    lineup = f"{path}:lowest" if restrict else f"{path}:tuned@high=1,balance"
    r = cli("sweep", "--game", "black-white", "--lineup", lineup, "--n", "200", "--seed", "1", "--jobs", "1",
            "--isolate", "--quiet", *(["--restrict"] if restrict else []),
            "--runs", tmp_path / "runs", "--out", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    _only_isolated(log)
    assert all(json.loads(c.read_text())["isolate"] for c in (tmp_path / "runs").glob("*/run.json"))
