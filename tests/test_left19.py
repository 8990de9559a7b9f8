"""Defects earlier sessions noticed and left (left19): each test failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import time
import warnings

import numpy as np
import pytest

import simtool
from simtool.commands import review as reviews
from simtool.commands import tune
from simtool.errors import SimtoolError

from . import review_game
from .test_cli import cli
from .test_hardening_round16 import one_line


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    where = tmp_path_factory.mktemp("runs")
    for name, seed in (("kc-a", 1), ("kc-b", 2)):
        simtool.run("black-white", n=100, seed=seed, jobs=1, out=where / name)
    return where / "kc-a", where / "kc-b"


def test_report_without_o_never_replaces_the_page_of_other_runs(tmp_path, monkeypatch, two_runs, charts_undrawn):
    # before: `simtool report A` then `simtool report B` both wrote reports/report.html, the second
    # replacing the first's page without a word; after: each its own page, named after its runs
    monkeypatch.chdir(tmp_path)
    a, b = two_runs
    pages = [cli("report", *runs) for runs in ((a,), (b,), (a, b), (b, a), (a,))]
    assert all(r.exit_code == 0 for r in pages), [r.output for r in pages]
    assert [r.stdout.strip() for r in pages] == ["reports/kc-a.html", "reports/kc-b.html", "reports/kc-a+kc-b.html",
                                                 "reports/kc-b+kc-a.html", "reports/kc-a.html"]
    assert b"kc-b" not in (tmp_path / "reports/kc-a.html").read_bytes()
    # another run folder of the same name, and a file of the user's there, are kept
    other = tmp_path / "elsewhere" / "kc-a"
    simtool.run("black-white", n=100, seed=3, jobs=1, out=other)
    (tmp_path / "reports/kc-a-2.html").write_text("mine")
    kept = (tmp_path / "reports/kc-a.html").read_bytes()
    assert cli("report", other).stdout.strip() == "reports/kc-a-3.html"
    assert (tmp_path / "reports/kc-a.html").read_bytes() == kept
    assert (tmp_path / "reports/kc-a-2.html").read_text() == "mine"
    # an explicit -o still replaces an earlier report, as asked
    assert cli("report", b, "-o", "reports/kc-a.html").exit_code == 0
    assert (tmp_path / "reports/kc-a.html").read_bytes() != kept


@pytest.mark.parametrize("game, players, why", [
    ("kansas-city", None, "a different game: black-white against kansas-city"),
    ("black-white", 4, "a different player count: 3 against 4"),
])
def test_a_baseline_of_another_game_or_player_count_is_refused_before_anything_is_played(
        bw_review, tmp_path, game, players, why):
    # before: the whole review was played (its pilot, every run), then "no comparison: a different
    # game..."; after: exit 2, one line, nothing written
    baseline, _ = bw_review
    out = tmp_path / "r"
    args = ["review", "-g", game, "--baseline", baseline, "--out", out] + (["-p", players] if players else [])
    one_line(cli(*args), f"--baseline {baseline} cannot be compared with this review ({why}",
             f"give an earlier review of {game} with {players or 4} players")
    assert not out.exists()
    with pytest.raises(SimtoolError, match=f"^baseline {baseline} cannot be compared"):
        reviews.review(game, out, players=players, baseline=baseline, jobs=1)
    assert not out.exists()


def test_a_run_missing_a_table_its_run_json_records_names_the_missing_file(tmp_path, charts_undrawn):
    # before: "runs/x: leads.parquet is not what its run.json records (the SHA-256 differs):
    # changed or replaced since the run wrote it" for a file deleted; after: it is named missing
    run = tmp_path / "leads"
    simtool.run("black-white", n=64, players=3, seed=1, out=run, lead_history=4)
    (run / "leads.parquet").unlink()
    said = (f"{run}: leads.parquet is missing (its run.json records it): moved or deleted since the run wrote "
            f"it; put it back, or run it again")
    with pytest.raises(SimtoolError) as caught:
        simtool.metrics(run)
    assert str(caught.value) == said
    one_line(cli("report", run, "-o", tmp_path / "r.html"), said)
    assert not (tmp_path / "r.html").exists()
    # one there but of another run is still told by its checksum
    other = tmp_path / "other"
    simtool.run("black-white", n=64, players=3, seed=2, out=other, lead_history=4)
    (run / "leads.parquet").write_bytes((other / "leads.parquet").read_bytes())
    with pytest.raises(SimtoolError, match=r": leads.parquet is not what its run.json records \(the SHA-256 differs\)"):
        simtool.metrics(run)


@pytest.mark.parametrize("n", [np.float32(96), np.float16(96), np.longdouble(96), np.float64(96), 96.0, np.int8(96)])
def test_n_of_any_numpy_float_width_is_taken_as_the_python_number(n):
    # before: np.float32(96) (float16, longdouble) refused as "bad n", np.float64(96) and 96.0 taken
    r = simtool.run("black-white", n=n, players=3, seed=1)
    assert r.meta["n"] == 96 and type(r.meta["n"]) is int and r.seats.height == 96 * 3
    assert tune.configure("black-white", ["deck"], ["seat_spread"], n=n).n == 96


@pytest.mark.parametrize("n", [np.float32(1.5), np.float32("inf"), np.float32("nan"), np.float16(-64), 1.5, "96"])
def test_n_not_a_whole_number_or_given_as_text_is_refused_from_python_whatever_its_width(n):
    with pytest.raises(SimtoolError, match="^bad n "):
        simtool.run("black-white", n=n, players=3, seed=1)
    with pytest.raises(SimtoolError, match="^bad seed "):  # a seed as text too, as n
        simtool.run("black-white", n=96, players=3, seed="3")


class Spins(review_game.Draw):
    """A designer's game whose code spins (a loop that never returns nor yields) in one of its steps."""

    id = "spins"
    SPIN = 20.0

    def __init__(self, where):
        self.where = where

    def spin(self, where):
        start = time.monotonic()
        while where == self.where and time.monotonic() - start < self.SPIN:
            pass

    def deal(self, rng, match, rnd):
        self.spin("deal")
        return super().deal(rng, match, rnd)

    def play(self, s):
        self.spin("play")
        return (yield from super().play(s))

    def end_round(self, match, results):
        self.spin("end_round")
        return super().end_round(match, results)


@pytest.mark.parametrize("where, what, unit", [("play", "yield its next decision", "deal"),
                                               ("deal", "deal its round", "match"),
                                               ("end_round", "end its round", "match")])
def test_timeout_stops_a_designer_games_code_that_never_returns(installed, tmp_path, where, what, unit):
    # before: --timeout timed strategies only; a game whose play looped without yielding ran on
    # (for ever, or here its 20 s) whatever --timeout said; after: one line naming the game
    installed(Spins(where))
    start, units = time.monotonic(), "matches" if unit == "match" else "deals"
    with pytest.raises(SimtoolError, match=rf"^game 'spins' \(tests.test_left19\) did not {what} within timeout=0.5 "
                                           rf"s \(its play of {units} 0 to 15 of the run with seed 1, n 16\)$"):
        simtool.run("spins", n=16, seed=1, jobs=1, timeout=0.5, unit=unit, out=tmp_path / "r")
    assert time.monotonic() - start < 10 and not (tmp_path / "r" / "run.json").exists()
    if where == "play":  # the command line's one line names its option
        one_line(cli("run", "-g", "spins", "--n", 16, "--seed", 1, "--jobs", 1, "--timeout", 0.5, "--out",
                     tmp_path / "c"), f"game 'spins' (tests.test_left19) did not {what} within --timeout 0.5 s")


def test_timeout_of_any_numpy_float_width_is_checked_as_the_python_number():
    # before: np.float16 cast the year's limit to inf, so timeout=np.float16("inf") passed the
    # check and failed at the timer ("the system timer refuses timeout=inf: OverflowError"), and
    # every np.float16 timeout warned "RuntimeWarning: overflow encountered in cast"
    with pytest.raises(SimtoolError, match=r"^bad timeout np.float16\(inf\); expected seconds above 0 and at most "):
        simtool.run("black-white", n=16, seed=1, timeout=np.float16("inf"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = simtool.run("black-white", n=16, seed=1, timeout=np.float16(10))
    assert r.seats.equals(simtool.run("black-white", n=16, seed=1, timeout=10.0).seats)


def test_a_changed_tuning_config_none_of_whose_combinations_plays_is_refused_before_its_folder_is_made(tmp_path):
    # before: every trial skipped, then "none of the 2 trials could be played ...; tune into
    # another out with trials=2" with study.db and tune.json written; after: refused at once, one
    # line naming the value, no folder (as configure() refuses such a tuning)
    config = tune.configure("black-white", ["deck=30,36"], ["seat_spread"], players=3, n=100, trials=4, seed=1)
    changed = dataclasses.replace(config, rules={"hand_size": 32})
    with pytest.raises(SimtoolError, match=r"^no combination of the vary values can be played: black-white: 3 hands "
                                           r"of 32 cards \(hand_size\) need 96 cards, more than the deck of 30"):
        tune.tune(changed, tmp_path / "t", jobs=1)
    assert not (tmp_path / "t").exists()
