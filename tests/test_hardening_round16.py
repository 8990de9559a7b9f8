"""Hostile round 16: the Python API in notebooks, two writers of one folder, rule values at
their edges, reviews compared. Each test failed on the code before its fix."""

from __future__ import annotations

import json

from simtool.pipeline import folders

from .test_cli import cli


def one_line(result, *parts) -> str:
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and "Traceback" not in line, line
    for part in parts:
        assert part in line, line
    return line


def test_a_run_into_a_folder_another_run_is_writing_names_that_run_not_an_interrupted_one(tmp_path):
    # before: "output folder X holds an interrupted run; finish it with --resume X, or replace it
    # with --force" while the first run was still playing (and both of those were then refused)
    out = tmp_path / "run"
    writer = folders.RunWriter(out, spec={"game": "black-white"})
    try:
        for extra in ((), ("--resume",)):
            args = ("run", "--resume", out) if extra else ("run", "-g", "black-white", "-n", "100", "--out", out)
            line = one_line(cli(*args), f"output folder {out} is being written by another simtool run", "pid")
            assert "interrupted" not in line
        assert json.loads((out / "chunks" / "spec.json").read_text())["game"] == "black-white"
    finally:
        writer.abort()
