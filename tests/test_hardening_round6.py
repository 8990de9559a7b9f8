"""Hostile round 6: a tuning gone on under another version, report claims checked against the
runs they pair, a terminal locale that cannot encode a path, and careless or malicious input to
every command. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import optuna
import pytest

from simtool.cli import main
from simtool.commands import tune
from simtool.pipeline import folders

from .test_cli import cli, one_line_error
from .test_hardening_cli import main_error
from .test_hardening_tune_sweep import fake_measure

ROOT = Path(__file__).resolve().parents[1]


def study_trials(out: Path) -> list[tuple]:
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    return [(t.number, t.state.name, t.params, t.values) for t in study.trials]


# ---- a tuning gone on under another version ----------------------------------------------------

TUNE = ["tune", "--game", "kansas-city", "--vary", "pass_count", "--vary", "limit=1..3",
        "--objective", "seat_spread", "--n", "100", "--seed", "5", "--jobs", "1", "-q"]


def test_a_tuning_gone_on_under_another_version_is_refused_and_its_study_kept(tmp_path, monkeypatch, capsys):
    # before: the trials made by one simtool (or numpy) and those of the next were set in one
    # study, and its best chosen among them, as if one version had measured them all
    monkeypatch.setattr(tune, "measure", fake_measure)
    out = tmp_path / "t"
    assert main([*TUNE, "--trials", "3", "--out", str(out)]) == 0
    made, config = study_trials(out), (out / "tune.json").read_bytes()
    real = folders.played_by()
    monkeypatch.setattr(folders, "played_by", lambda: {"simtool": "9.9.9", "numpy": np.__version__})
    for again in ([*TUNE, "--trials", "5", "--out", str(out)], ["tune", "--resume", str(out), "-q"]):
        error = main_error(capsys, again, f"cannot go on with the tuning in {out}: its trials were measured by "
                                          f"simtool {real['simtool']} with numpy",
                           "this is simtool 9.9.9", "choose another --out")
        assert "Traceback" not in error
        assert study_trials(out) == made and (out / "tune.json").read_bytes() == config
    monkeypatch.undo()
    monkeypatch.setattr(tune, "measure", fake_measure)
    assert main([*TUNE, "--trials", "5", "--out", str(out)]) == 0  # the same version goes on
    assert len(study_trials(out)) == 5


def test_a_tuning_recorded_before_versions_were_is_checked_against_its_runs(tmp_path, monkeypatch, capsys):
    # a tune.json written before it named its versions: the trials' run.json files say which played
    monkeypatch.setattr(tune, "measure", fake_measure)
    out = tmp_path / "t"
    assert main([*TUNE, "--trials", "3", "--out", str(out)]) == 0
    record = json.loads((out / "tune.json").read_text())
    del record[folders.PLAYED_BY]
    (out / "tune.json").write_text(json.dumps(record))
    played = out / "runs" / "pass_count-2_limit-1_n100_s5" / "main"
    played.mkdir(parents=True)
    (played / "run.json").write_text(json.dumps({"versions": {"simtool": "0.0.1", "numpy": "1.0"}}))
    main_error(capsys, ["tune", "--resume", str(out), "--trials", "4", "-q"],
               "measured by simtool 0.0.1 with numpy 1.0")
    (played / "run.json").write_text(json.dumps({"versions": folders.played_by()}))
    assert main(["tune", "--resume", str(out), "--trials", "4", "-q"]) == 0
