"""Round ver29b: a designer's rate with no value on any row, or NaN on some, and --resume given
the run's own settings again."""

from __future__ import annotations

import html
import re
import sys

import pytest

from simtool.cli import main

from .test_hardening_cli import main_error
from .test_hostile28 import WORDS_AS_A_LIST, analysed


@pytest.fixture(autouse=True)
def forget_modules(tmp_path):
    """Takes the test's own modules (written under ``tmp_path``) out of ``sys.modules`` after it."""
    yield
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def rated(tmp_path, monkeypatch, game_id: str, rate: str) -> None:
    """Installs the toy game as ``game_id``, its one rate ``level`` the expression ``rate``."""
    analysed(tmp_path, monkeypatch, game_id, f"{game_id}_rates", WORDS_AS_A_LIST.replace(
        'rates={"level": pl.col("score") == 0}, rate_text=["level"]', f'rates={{"level": {rate}}}'))



def test_a_rate_null_on_every_row_has_no_share_not_zero(tmp_path, monkeypatch, capsys):
    # failed before: a rate pl.lit(None) printed "0.0% (0.0–27.8)" in every row of the run's
    # tables, and the report read "in nan% of deals (95% interval nan% to nan%)" and "most often
    # seat 0, 0.0% (0.0–27.8)"
    rated(tmp_path, monkeypatch, "nullrate", "pl.lit(None, dtype=pl.Float64)")
    assert main(["run", "--game", "nullrate", "--n", "10", "-j", "1", "--seed", "1", "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    rows = [line for line in printed.splitlines() if line.startswith("│")]
    assert len(rows) == 4 and all(line.split("│")[-2].strip() == "n/a" for line in rows), printed
    assert main(["report", str(tmp_path / "r"), "-o", str(tmp_path / "r.html")]) == 0
    page = re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", html.unescape((tmp_path / "r.html").read_text())))
    assert "nan" not in page and "0.0% (0.0" not in page, page
    assert page.count("Each seat has level in n/a of deals: the rate 'level' is null on every row, so it has "
                      "no share.") == 2, page


def test_a_rate_with_nan_on_some_rows_is_refused_as_one_out_of_range_is(tmp_path, monkeypatch, capsys):
    # failed before: a rate NaN where the score is 0 passed the 0..1 check (polars' least and
    # largest values pass over NaN) and was printed as a share
    rated(tmp_path, monkeypatch, "nanrate", 'pl.when(pl.col("score") == 0).then(float("nan")).otherwise(0.5)')
    main_error(capsys, ["run", "--game", "nanrate", "--n", "10", "-j", "1", "--seed", "1", "--out", tmp_path / "r"],
               "game 'nanrate' has a rate 'level' that cannot be computed on its results: its values hold NaN on ",
               " rows, and NaN is not a share (a rate is a boolean, or a number from 0 to 1, per seat row")
    assert (tmp_path / "r" / "run.json").exists()  # the run is kept, as for a rate beyond 0 to 1
