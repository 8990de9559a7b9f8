"""What today's reviewers found and left (left10): each test failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import typer

import simtool.cli
from simtool.errors import SimtoolError


def _help_texts(cap: str) -> dict[str, str]:
    """The help of run's --n and replay's --precision, of simtool/cli.py as written with
    PRECISION_CAP set to ``cap``."""
    source = Path(simtool.cli.__file__).read_text()
    assert source.count('PRECISION_CAP = "1e8"') == 1
    namespace = {"__name__": "simtool._cli_cap", "__package__": "simtool", "__file__": simtool.cli.__file__}
    exec(compile(source.replace('PRECISION_CAP = "1e8"', f'PRECISION_CAP = "{cap}"'), "cli", "exec"), namespace)
    commands = typer.main.get_command(namespace["app"]).commands
    run = next(p for p in commands["run"].params if p.name == "n")
    replay = next(p for p in commands["replay"].params if p.name == "precision")
    return {"run --n": run.help, "replay --precision": replay.help}


def test_the_precision_cap_s_help_follows_the_constant():
    # before: run --n and replay --precision said "1e8" in words beside PRECISION_CAP, which
    # replay plays: a cap changed there left both helps naming the old one
    for name, text in _help_texts("2e9").items():
        assert "2e9" in text and "1e8" not in text, (name, text)


def test_a_review_takes_numpy_whole_numbers_for_its_sizes(tmp_path):
    # before: Sizes(deals=np.int64(64), ...) was "bad sizes ...; expected ... of whole numbers",
    # though review() takes numpy's whole numbers for players and seed
    from simtool.commands import review

    given = review.Sizes(*map(np.int64, (64, 16, 64, 16, 8)), random=np.int32(0), leads=np.uint8(2))
    assert given == review.Sizes(64, 16, 64, 16, 8, 0, 2)
    assert all(type(v) is int for v in dataclasses.asdict(given).values())
    assert review.sound(given) and json.loads(json.dumps(dataclasses.asdict(given)))["leads"] == 2
    # the sizes pass: the next check, of the backend, is what refuses (before anything is played)
    with pytest.raises(SimtoolError, match="^unknown backend 'none'"):
        review.review("black-white", tmp_path / "r", seed=np.int64(3), sizes=given, backend="none")
    for refused in (np.bool_(True), np.float64(64)):  # numpy's, as Python's True and 64.0 are
        assert not review.sound(review.Sizes(refused, 16, 64, 16, 8))
