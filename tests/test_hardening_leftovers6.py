"""Leftovers of the last review (6): run-folder refusals reached from Python that named the
command line's flags, and two sweeps at once writing one default report (each test failed on the
code before its fix)."""

from __future__ import annotations

import json

import pytest

import simtool
from simtool.errors import COMMAND_LINE, SimtoolError
from simtool.pipeline import executor
from simtool.pipeline.folders import RunWriter


def _from_cli(call):
    token = COMMAND_LINE.set(True)
    try:
        return call()
    finally:
        COMMAND_LINE.reset(token)


def _refusal(call) -> str:
    with pytest.raises(SimtoolError) as info:
        call()
    return str(info.value)


def test_a_finished_run_folder_is_replaced_with_force_true_from_python(tmp_path):
    out = tmp_path / "r"
    simtool.run("black-white", n=20, players=3, seed=1, out=out)
    said = _refusal(lambda: simtool.run("black-white", n=20, players=3, seed=1, out=out))
    assert "force=True" in said and "--force" not in said
    assert "--force" in _from_cli(lambda: _refusal(lambda: RunWriter(out)))


def test_an_interrupted_run_folder_from_python_names_the_command_and_force_true(tmp_path):
    out = tmp_path / "r"
    (out / "chunks").mkdir(parents=True)
    (out / "chunks" / "spec.json").write_text("{}")
    said = _refusal(lambda: simtool.run("black-white", n=20, players=3, seed=1, out=out))
    # simtool.run has no resume argument: the command that finishes it, and force=True
    assert f"simtool run --resume {out}" in said and "force=True" in said and "--force" not in said
    cli = _from_cli(lambda: _refusal(lambda: RunWriter(out)))
    assert f"finish it with --resume {out}, or replace it with --force" in cli


def test_a_resume_of_another_version_offers_force_true_from_python(tmp_path):
    out = tmp_path / "r"
    (out / "chunks").mkdir(parents=True)
    (out / "chunks" / "spec.json").write_text(json.dumps({"played_by": {"simtool": "0.0.1"}}))
    said = _refusal(lambda: RunWriter(out, resume=True))
    assert "one run plays one version" in said and "force=True" in said and "--force" not in said
    assert "play it again with --force" in _from_cli(lambda: _refusal(lambda: RunWriter(out, resume=True)))


def test_out_of_memory_names_jobs_as_its_caller_wrote_it():
    said = str(executor.out_of_memory(MemoryError()))
    assert "fewer jobs," in said and "--jobs" not in said
    assert "fewer --jobs," in _from_cli(lambda: str(executor.out_of_memory(MemoryError())))


def test_a_duplicate_match_of_a_game_dealing_from_the_match_names_the_arguments_from_python():
    said = _refusal(lambda: simtool.run("nine-lives", n=4, unit="match", duplicate=True, seed=1))
    assert said.endswith("use duplicate with unit='deal'") and "--" not in said


def test_a_report_over_the_plans_own_file_names_the_report_argument_from_python(tmp_path):
    from simtool.commands import plans

    plan = plans.make_plan([], tmp_path / "runs")
    said = _refusal(lambda: plans.check_report(tmp_path / "runs" / "plan.json", plan))
    assert said.endswith("choose another report file") and "--out" not in said
    assert _from_cli(lambda: _refusal(lambda: plans.check_report(tmp_path / "runs" / "plan.json", plan))) \
        .endswith("choose another --out")


@pytest.mark.parametrize("command, args", [
    ("sweep", ["--game", "black-white", "--n", "20"]),
    ("ladder", ["--game", "black-white", "--rungs", "random,high", "--n", "20"]),
])
def test_two_commands_at_once_without_out_write_two_reports(tmp_path, monkeypatch, command, args, charts_undrawn):
    # before: both sweeps (ladders) of one second wrote reports/sweep.html (reports/ladder.html),
    # their runs in runs/sweep-T and runs/sweep-T-2: the first's user read a page of the second's
    import datetime as real

    from simtool import cli as cli_module

    from .test_cli import cli

    class Frozen(real.datetime):
        @classmethod
        def now(cls, tz=None):
            return real.datetime(2026, 11, 27, 8, 30, 0)

    monkeypatch.setattr(cli_module, "datetime", Frozen)
    monkeypatch.chdir(tmp_path)
    first = cli(command, *args, "--seed", "1", "-q", "-j", "1")
    assert first.exit_code == 0, first.output
    stem = f"{command}-black-white" if command == "ladder" else command
    page = tmp_path / "reports" / f"{stem}-20261127-083000.html"
    assert first.output.strip().endswith(f"in runs/{stem}-20261127-083000; report reports/{page.name}")
    before = page.read_bytes()
    second = cli(command, *args, "--seed", "2", "-q", "-j", "1")
    assert second.exit_code == 0, second.output
    assert second.output.strip().endswith(f"in runs/{stem}-20261127-083000-2; report "
                                          f"reports/{stem}-20261127-083000-2.html")
    assert page.read_bytes() == before and (tmp_path / "reports" / f"{stem}-20261127-083000-2.html").is_file()
