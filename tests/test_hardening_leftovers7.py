"""Leftovers of the last review (7): a review that replaced a balance report's page, tune and
review cells told to replay with a --force they do not take, and designer titles printed raw to
the terminal (each test failed on the code before its fix)."""

from __future__ import annotations

import pytest

import simtool
from simtool.commands import review as reviews
from simtool.errors import SimtoolError

from .test_cli import cli
from .test_hardening_round16 import one_line


def test_a_review_never_replaces_a_balance_reports_page(tmp_path, charts_undrawn):
    # before: `simtool review --out DIR` with DIR/review.html a balance report (written by
    # `simtool report RUN -o DIR/review.html`) replaced that page without a word, the other way
    # round from the report, which refuses a review's page
    run, out = tmp_path / "run", tmp_path / "bw"
    simtool.run("black-white", n=100, seed=1, jobs=1, out=run)
    assert cli("report", run, "-o", out / "review.html").exit_code == 0
    page = (out / "review.html").read_bytes()
    one_line(cli("review", "-g", "black-white", "--out", out, "--seed", "3"),
             f"{out / 'review.html'} is a simtool balance report page, not a review", "choose another --out")
    assert (out / "review.html").read_bytes() == page and sorted(p.name for p in out.iterdir()) == ["review.html"]
    with pytest.raises(SimtoolError, match="choose another out folder$"):
        reviews.review("black-white", out, seed=3, jobs=1)
    # a page simtool did not write is refused too
    (out / "review.html").write_text("<html>mine</html>")
    one_line(cli("review", "-g", "black-white", "--out", out, "--seed", "3"),
             f"{out / 'review.html'} exists and is not a simtool page")
    assert (out / "review.html").read_text() == "<html>mine</html>"


@pytest.mark.usefixtures("small_chunks")
def test_a_review_cell_of_another_version_is_told_to_play_again_in_a_new_folder_not_with_force(tmp_path,
                                                                                                monkeypatch):
    # before: "...resume it with that version, or play it again with force=True" (--force on the
    # command line), which neither a review nor a tuning takes: their plans play again in a new out
    import numpy as np

    from simtool.commands import plans
    from simtool.pipeline import folders
    from simtool.pipeline.runner import make_spec

    from .test_data_safety import N

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt

    specs, runs = [make_spec("black-white", n=N, strategy="random", seed=3)], tmp_path / "bw" / "runs" / "seats"
    play = dict(jobs=1, command="review", again="a new out folder")
    with pytest.raises(KeyboardInterrupt):
        plans.play(specs, runs, progress=stop, **play)
    cell = next(p for p in runs.iterdir() if p.is_dir())
    monkeypatch.setattr(folders, "played_by", lambda: {"simtool": "9.9.9", "numpy": np.__version__})
    with pytest.raises(SimtoolError) as refused:
        plans.play(specs, runs, **play)
    assert str(refused.value).startswith(f"cannot resume {cell}: its chunks were played by simtool ")
    assert str(refused.value).endswith("resume it with that version, or play it again in a new out folder")
    # a plan that takes force=True (a sweep's) is told of it, as before
    with pytest.raises(SimtoolError, match="play it again with force=True$"):
        plans.play(specs, runs, jobs=1, command="review")


def test_a_designer_games_title_is_printed_on_one_line_its_controls_written_out(tmp_path, installed):
    # before: `simtool run` printed a game's title as it was: a newline broke the summary's title
    # in two, and U+202E turned the rest of it right to left in the terminal (error lines already
    # wrote both out)
    import polars as pl

    from .designer_games import whist_heuristic  # noqa: F401 (registers its heuristic)
    from .designer_games.whist import Whist

    class Odd(Whist):
        id = "designer-odd"
        title = "Whist\nof \u202eodd"

    installed(Odd())
    r = cli("run", "-g", "designer-odd", "-n", "100", "--seed", "1", "-j", "1", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert "\u202e" not in r.output and "Whist\nof" not in r.output
    assert "Whist\\nof \\u202eodd: 4 players, 100 deals, seed 1" in r.stdout
    # the results are the game's, as before
    assert pl.read_parquet(tmp_path / "r" / "seats.parquet").height == 400
