"""The README's plugin example, run as written."""

import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from simtool.cli import app

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

README = (Path(__file__).parents[1] / "README.md").read_text()


def test_readme_plugin_example_runs(tmp_path):
    code = re.search(r"```python\n(# my_strategy\.py\n.*?)```", README, re.S).group(1)
    (tmp_path / "my_strategy.py").write_text(code)
    command = re.search(r"simtool run --game black-white --seat 0=my_strategy\.py:greedy.*", README).group(0)
    args = command.split()[1:] + ["--n", "2000", "--seed", "1", "--jobs", "1", "--out", str(tmp_path / "run"), "-q"]
    args = [a.replace("my_strategy.py", str(tmp_path / "my_strategy.py")) for a in args]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"][0] == "my_strategy.py:greedy"


def test_readme_shows_the_two_commands_first():
    first_screen = README[:600]
    assert "make demo" in first_screen and "make test" in first_screen


def test_readme_sweep_grid_runs(tmp_path):
    grid = re.search(r"```toml\n(.*?)```", README, re.S).group(1)
    (tmp_path / "grid.toml").write_text(grid)
    r = CliRunner().invoke(app, ["sweep", str(tmp_path / "grid.toml"), "--n", "500", "-q",
                                 "--runs", str(tmp_path / "cells"), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 0, r.output
    assert len([c for c in (tmp_path / "cells").iterdir() if c.is_dir()]) == 8  # 2 x 2 rules x 2 line-ups


def test_readme_search_example_plays(tmp_path):
    code = re.search(r"```python\n(# my_search\.py\n.*?)```", README, re.S).group(1)
    (tmp_path / "my_search.py").write_text(code)
    r = CliRunner().invoke(app, ["run", "--game", "black-white", "--n", "4", "--seed", "1", "--jobs", "1",
                                 "--seat", f"0={tmp_path / 'my_search.py'}:search", "--strategy", "random",
                                 "--out", str(tmp_path / "run"), "-q"])
    assert r.exit_code == 0, r.output
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"][0] == "my_search.py:search"
