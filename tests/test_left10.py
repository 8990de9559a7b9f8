"""What today's reviewers found and left (left10): each test failed on the code before its fix."""

from __future__ import annotations

from pathlib import Path

import typer

import simtool.cli


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
