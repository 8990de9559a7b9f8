"""Hostile round on the words and figures of `simtool sweep`, `simtool ladder` and the
comparison pages of `simtool report`: a figure printed beside a word never reads as the other
side of that word's threshold, and a mark follows from the interval shown with it. Each test
failed on the code before its fix."""

from __future__ import annotations

import re

import polars as pl
import pytest
from typer.testing import CliRunner

from simtool.cli import app
from simtool.reports import balance


@pytest.fixture(scope="module")
def kc_runs(tmp_path_factory):
    """Two small Kansas City runs on the same deals, 3 and 2 cards passed."""
    root = tmp_path_factory.mktemp("kc")
    folders = []
    for passed in (3, 2):
        out = root / f"pass{passed}"
        played = CliRunner().invoke(app, ["run", "--game", "kansas-city", "--strategy", "target", "--n", "200",
                                          "--seed", "3", "--jobs", "1", "--rule", f"pass_count={passed}",
                                          "--out", str(out), "-q"])
        assert played.exit_code == 0, played.output
        folders.append(out)
    return folders


def _seat_cells(page: str) -> list[str]:
    table = page[page.index('<table class="seat-advantage">'):]
    table = table[:table.index("</table>")]
    return [re.findall(r"<td>(.*?)</td>", row)[3] for row in re.findall(r"<tr><td>.*?</tr>", table)]


def test_the_seat_table_never_rounds_an_edge_onto_a_seat_threshold(kc_runs, monkeypatch):
    # before: seat 0 winning 2.96 points over the fair share (under 3: at most "slight") read
    # "+3.0 pts" in the run's seat-advantage table, where the comparison table and the verdict
    # beside it on the same page said "+2.96"; -0.99 read "-1.0 pts" (1 point: fair/slight)
    analyse = balance.analyse

    def edged(path, *args, **kwargs):
        a = analyse(path, *args, **kwargs)
        fair = 1 / a.p
        win = [fair + 0.0296, fair - 0.0099, fair + 0.0201, fair - 0.0398][:a.p]
        a.seats = a.seats.with_columns(pl.Series("win", win))
        return a

    monkeypatch.setattr(balance, "analyse", edged)
    page = balance.render(kc_runs[:1])
    assert _seat_cells(page) == ["+2.96 pts", "-0.99 pts", "+2.0 pts", "-4.0 pts"]
