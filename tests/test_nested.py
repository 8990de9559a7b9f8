"""A plugin file named among a search's parameters (``pimc@playout=bot.py:bot``,
``pimc@own=bot.py:bot``) is the run's as a seat's plugin is (docs/plugins.md): recorded with its
checksum, checked before each chunk and on a resume, and found from any working directory. Each
test failed on the code before: the file was not recorded at all."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil

import pytest

from simtool.commands.run import execute_run
from simtool.errors import SimtoolError
from simtool.pipeline.runner import make_spec

from .test_cli import cli, one_line_error
from .test_hardening_runs import interrupted
from .test_hostile17 import EDITED  # saves itself again as the first chunk plays

BOT = '''
from simtool import bits
from strategies import strategy

@strategy("bot", "the lowest legal card")
def bot(view, rng):
    return bits.lowest(view.legal)
'''

PARAMS = ["playout", "own"]


def nested_spec(bot, param: str, chunks: int = 4):
    """Black & White 3p, pimc at seat 0 with ``bot`` as its ``param``, in chunks of 8 deals."""
    entry = f"pimc@samples=2,{param}={bot}:bot"
    spec = make_spec("black-white", 3, 8 * chunks, "random", {0: entry}, seed=5)
    return dataclasses.replace(spec, chunk=8)


@pytest.mark.parametrize("param", PARAMS)
def test_the_run_records_a_plugin_among_a_searchs_parameters(tmp_path, param):
    # before: spec.plugins and run.json's plugins were {} for pimc@playout=bot.py:bot
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    spec = nested_spec(bot, param, chunks=1)
    execute_run(spec, 1, tmp_path / "r", False, None, keep=False)
    plugins = json.loads((tmp_path / "r" / "run.json").read_text())["plugins"]
    assert [p["path"] for p in plugins.values()] == [str(bot.resolve())]
    assert list(plugins.values())[0]["sha256"] == spec.plugins[f"{bot}:bot"]["sha256"]


@pytest.mark.parametrize("param", PARAMS)
def test_a_nested_plugin_edited_while_the_run_plays_is_refused_and_the_chunks_kept(tmp_path, param):
    # before: the run went on and finished (exit 0), its table mixing two versions of the player
    bot = tmp_path / "bot.py"
    bot.write_text(EDITED)
    out = tmp_path / "r"
    with pytest.raises(SimtoolError, match=r"strategy plugin .*bot.py has changed since the run started; .*"
                                           r"1 finished chunk is kept, the run unfinished: .*--resume"):
        execute_run(nested_spec(bot, param), 1, out, False, None, keep=False)
    assert (out / "chunks" / "sums-000000.json").is_file() and not (out / "run.json").exists()


def test_a_nested_plugin_edited_between_the_kill_and_the_resume_is_refused(tmp_path):
    # before: the resume played the edited file for the chunks left (exit 0, two players in one table)
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    out = tmp_path / "r"
    interrupted(out, nested_spec(bot, "playout"), after=2)
    bot.write_text(BOT.replace("lowest", "highest"))
    one_line_error(cli("run", "--resume", out), "strategy plugin", "bot.py has changed since the run started")
    assert not (out / "run.json").exists()


def resumed_elsewhere(tmp_path, decoy: bool):
    """The run of ``bot.py`` as pimc's play-out policy, played whole and cut after 2 chunks in
    src/, the cut one moved and resumed from elsewhere/ (holding another ``bot.py`` where
    ``decoy``): the resume's result, and the two run folders."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bot.py").write_text(BOT)
    (tmp_path / "elsewhere").mkdir()
    here = os.getcwd()
    os.chdir(tmp_path / "src")
    try:
        spec = nested_spec("bot.py", "playout")
        execute_run(spec, 1, tmp_path / "whole", False, None, keep=False)
        interrupted(tmp_path / "cut", spec, after=2)
        shutil.move(tmp_path / "cut", tmp_path / "moved")
        os.chdir(tmp_path / "elsewhere")
        if decoy:
            (tmp_path / "elsewhere" / "bot.py").write_text(BOT.replace("lowest", "highest"))
        return cli("run", "--resume", tmp_path / "moved", "-q"), tmp_path / "moved", tmp_path / "whole"
    finally:
        os.chdir(here)


def test_an_unchanged_nested_plugin_resumes_from_another_folder_to_the_uninterrupted_table(tmp_path):
    # before: from another working directory the resume looked for bot.py there and stopped
    r, cut, whole = resumed_elsewhere(tmp_path, decoy=True)
    assert r.exit_code == 0, r.output
    assert (cut / "seats.parquet").read_bytes() == (whole / "seats.parquet").read_bytes()
