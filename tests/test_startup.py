"""What ``simtool run`` does in its own process before and after its workers play (issue 27):
only what the run needs, so that the serial start and end of a run stay short."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import typer
from typer.testing import CliRunner

from simtool import cli

ROOT = Path(__file__).resolve().parents[1]


def _fresh(script: str, cwd: Path) -> str:
    """``script``'s output in a fresh interpreter, as the installed command starts."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_quiet_run_loads_no_pydantic_rich_or_statistics_and_its_workers_share_polars(tmp_path):
    shown = _fresh("""
        import json, sys
        from simtool import cli
        from simtool.pipeline import forked

        forks = []
        real = forked.ForkPool.__init__

        def pool(self, workers):  # what the main process holds when it forks its workers
            forks.append(sorted(m for m in sys.modules if "__file__" in vars(sys.modules[m])))
            real(self, workers)

        forked.ForkPool.__init__ = pool
        code = cli._main(["run", "--game", "black-white", "--strategy", "random", "--n", "70000",
                          "--jobs", "2", "--seed", "3", "--out", "run", "--quiet"])
        loaded = sorted(m for m in sys.modules if "__file__" in vars(sys.modules[m]))
        print(json.dumps({"code": code, "at_fork": forks[0], "at_end": loaded}))
    """, tmp_path)
    result = json.loads(shown.splitlines()[-1])
    assert result["code"] == 0 and shown.splitlines()[0] == "run"  # --quiet prints the folder only
    at_fork, at_end = set(result["at_fork"]), set(result["at_end"])
    assert "polars" in at_fork  # imported once, before the fork: the workers share it
    for heavy in ("pydantic", "rich", "rich.console", "simtool.stats", "simtool.analysis.summary",
                  "simtool.pipeline.cluster"):
        assert heavy not in at_end, heavy
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    import polars as pl

    assert meta["versions"]["polars"] == pl.__version__
    assert pl.read_parquet(tmp_path / "run" / "seats.parquet").height == 3 * 70_000


def test_options_read_without_pydantic_are_read_as_typer_reads_them(tmp_path):
    """Text, lists of text and paths, read without typer's pydantic adapters, arrive as typer's
    own coercion gives them; a number still goes through typer (and its error)."""
    app = typer.Typer()
    seen = {}

    @app.command()
    def show(name: str = typer.Option("x", "--name"), tags: list[str] = typer.Option([], "--tag"),
             where: Path = typer.Option(None, "--where"), size: float = typer.Option(1.0, "--size")):
        seen.update(name=name, tags=tags, where=where, size=size)

    runner = CliRunner()
    done = runner.invoke(app, ["--name", "b c", "--tag", "1", "--tag", "", "--where", str(tmp_path),
                               "--size", "2.5"])
    assert done.exit_code == 0, done.output
    assert seen == {"name": "b c", "tags": ["1", ""], "where": tmp_path, "size": 2.5}
    assert type(seen["where"]) is type(tmp_path)
    done = runner.invoke(app, [])
    assert done.exit_code == 0 and seen == {"name": "x", "tags": [], "where": None, "size": 1.0}
    done = runner.invoke(app, ["--size", "big"])
    assert done.exit_code == 2 and "--size" in done.output  # typer's own error


def test_a_run_folder_given_as_a_file_is_refused_in_one_line(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("someone's notes")
    done = CliRunner().invoke(cli.app, ["run", "--n", "1000", "--jobs", "1", "--out", str(taken), "--quiet"])
    assert done.exit_code == 2
    assert taken.read_text() == "someone's notes"
