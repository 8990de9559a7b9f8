"""Review of the nested plugins (docs/plugins.md: a plugin a search names among its parameters is
the run's as a seat's plugin is). Each test failed on the code before its fix."""

from __future__ import annotations

import os

from .test_nested import BOT, resumed_elsewhere


def test_a_moved_run_resumes_its_nested_plugin_from_a_folder_without_the_file(tmp_path):
    # before: the play-outs looked for bot.py in the resume's folder: "strategy plugin file not
    # found: bot.py", exit 2 (the play-outs were pinned to the recorded file only where one of
    # that name happened to be found from the working directory)
    r, cut, whole = resumed_elsewhere(tmp_path, decoy=False)
    assert r.exit_code == 0, r.output
    assert (cut / "seats.parquet").read_bytes() == (whole / "seats.parquet").read_bytes()


SEARCH = '''
import numpy as np
from simtool import bits
from strategies import strategy

@strategy("s", "the lowest card where one world played out by POLICY scores, else the highest")
def s(view, rng):
    worlds = view.redeal(1, rng)
    out = worlds.play_out(bits.lowest(worlds.view.legal), "POLICY")
    return np.where(out["score"][:, 0] > 0, bits.lowest(view.legal), bits.highest(view.legal))
'''


def test_a_second_run_of_one_process_plays_the_edited_file_a_plugin_names_as_it_plays(tmp_path, monkeypatch):
    # before: the run's resolver (pinned for a recorded plugin, here pimc's play-out policy) cached
    # every name the play-outs resolved, also pol/pol.py, which no run records: the second run,
    # pol.py edited between, played the first run's pol.py (64 deals: score sum -372 twice; -608 fresh)
    from simtool.commands.run import run

    monkeypatch.chdir(tmp_path)
    for folder in ("s", "pol", "pol2", "b"):
        (tmp_path / folder).mkdir()
    (tmp_path / "b" / "bot.py").write_text(BOT)
    (tmp_path / "pol" / "pol.py").write_text(BOT)
    (tmp_path / "pol2" / "pol.py").write_text(BOT.replace("lowest", "highest"))
    seats = {0: "s/search.py:s", 1: "pimc@samples=2,playout=b/bot.py:bot"}

    def scores(policy: str):
        (tmp_path / "s" / "search.py").write_text(SEARCH.replace("POLICY", policy))
        return run("black-white", 32, players=3, seats=seats, seed=4).seats["score"].to_list()

    scores("pol/pol.py:bot")
    (tmp_path / "pol" / "pol.py").write_text(BOT.replace("lowest", "highest"))
    assert scores("pol/pol.py:bot") == scores("pol2/pol.py:bot")


def test_the_log_a_command_appends_its_results_to_is_not_recorded_beside_the_plugin(tmp_path):
    # before: with descriptor 1 pointed at standard error (the results on a descriptor of their
    # own), `simtool sweep ... >> log` beside bot.py recorded log among the plugin's files, and
    # the same sweep again refused every cell: "files beside .../bot.py changed: log", exit 2
    import json
    import subprocess
    import sys
    from pathlib import Path

    import simtool

    (tmp_path / "bot.py").write_text(BOT)
    env = {**os.environ, "PYTHONPATH": str(Path(simtool.__file__).parents[1])}
    with open(tmp_path / "log", "ab") as log:
        r = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "--game", "black-white", "--n", "8",
                            "--seed", "1", "--jobs", "1", "--seat", "0=bot.py:bot", "--out", "r"],
                           cwd=tmp_path, env=env, stdout=log, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    assert "Black & White" in (tmp_path / "log").read_text()  # the results went to the log
    assert json.loads((tmp_path / "r" / "run.json").read_text())["plugins"]["bot.py:bot"]["beside"] == {}
