"""Review of the nested plugins (docs/plugins.md: a plugin a search names among its parameters is
the run's as a seat's plugin is). Each test failed on the code before its fix."""

from __future__ import annotations

import os
import shutil

from simtool.commands.run import execute_run

from .test_cli import cli
from .test_hardening_runs import interrupted
from .test_nested import BOT, nested_spec


def test_a_moved_run_resumes_its_nested_plugin_from_a_folder_without_the_file(tmp_path):
    # before: the play-outs looked for bot.py in the resume's folder: "strategy plugin file not
    # found: bot.py", exit 2 (the play-outs were pinned to the recorded file only where one of
    # that name happened to be found from the working directory)
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
        r = cli("run", "--resume", tmp_path / "moved", "-q")
    finally:
        os.chdir(here)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "moved" / "seats.parquet").read_bytes() == (tmp_path / "whole" / "seats.parquet").read_bytes()
