"""Lead histories (``--lead-history``): what they hold, and that recording them changes no play,
gives the same rows for any ``--jobs``, and survives an interrupted run's resume."""

from __future__ import annotations

import dataclasses
import json
import shutil

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import simtool
from simtool.commands.run import execute_run
from simtool.engine import scaled_rank
from simtool.errors import SimtoolError
from simtool.pipeline.folders import RunWriter
from simtool.pipeline.runner import make_spec, play_chunk


def test_scaled_rank_on_known_scores():
    scores = np.array([[3, 1, 2, 2], [0, 0, 0, 0], [5, 4, 3, 2]])
    assert scaled_rank(scores, lower_wins=False).tolist() == [
        [1, 0, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5], [1, 2 / 3, 1 / 3, 0]]
    assert scaled_rank(scores[:1], lower_wins=True).tolist() == [[0, 1, 0.5, 0.5]]


def _spec(leads: int | None, n: int = 5, chunk: int = 2, **kw):
    spec = make_spec("hearts", 4, n, "random", seats={1: "pimc@samples=2"}, seed=3,
                     lead_history=leads, **kw)
    # three chunks, the last short: the sample is per chunk. The first deal of each chunk of 2
    # (5 deals) shows it as the first 2 of each chunk of 3 (7 deals) did, with 5 of 7 searched
    # deals and 3 of 5 recorded ones (recording is most of this file's CPU); several sampled deals
    # of one chunk are the command line's test's (3 of a chunk of 50)
    return dataclasses.replace(spec, chunk=chunk)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The recorded run, played by two processes: the run gone on with below plays every chunk
    of it in this one."""
    out = tmp_path_factory.mktemp("leads") / "run"
    return execute_run(_spec(1), 2, out, False, None, keep=True)


def test_a_lead_history_holds_every_seat_at_every_decision_of_the_sampled_deals(recorded):
    leads = recorded.leads
    # the first deal of each chunk of 2: deals 0, 2, 4 (the last chunk holds only 1)
    assert sorted(leads["deal"].unique().to_list()) == [0, 2, 4]
    per = leads.group_by("deal").agg(pl.len().alias("rows"), pl.col("decision").n_unique().alias("d"))
    # Hearts 4p: three pass steps (every seat at once) and 52 cards played
    assert per["d"].to_list() == [55] * 3 and per["rows"].to_list() == [220] * 3
    assert leads["estimate"].is_between(0, 1).all()
    # only the search reports its own estimate, and only where it chose among several options
    own = leads.filter("own")
    assert set(own["seat"].to_list()) == {1}
    assert ((own["acting"] == 1) | (own["acting"] == -1)).all()
    assert own["choices"].min() >= 2 and own["spread"].is_not_null().any()
    assert leads.filter(~pl.col("own"))["spread"].is_null().all()
    # choices: the acting seat's legal options, null for the seats not acting
    assert leads.filter(pl.col("acting") >= 0).filter(pl.col("seat") != pl.col("acting"))["choices"].is_null().all()
    meta = json.loads((recorded.path / "run.json").read_text())
    assert meta["leads"] == 1 and meta["lead_history"]["sampled"] == 3
    assert "own play-outs" in meta["lead_history"]["estimator"]["pimc@samples=2"]
    assert meta["lead_history"]["estimator"]["random"].startswith("observer: 8 re-deals")
    assert_frame_equal(pl.read_parquet(recorded.path / "leads.parquet"), leads)


def test_recording_changes_no_play(recorded):
    plain = execute_run(_spec(None), 1, None, False, None, keep=True)
    assert_frame_equal(plain.seats, recorded.seats)


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """The recorded run stopped by Ctrl-C with its chunks 1 and 2 on disk and chunk 0 not (as a
    run of several jobs leaves it)."""
    spec = _spec(1)
    out = tmp_path_factory.mktemp("stopped") / "run"
    writer = RunWriter(out, spec=spec.as_dict())
    for index in (1, 2):
        play_chunk(spec, index, parts=writer.parts, keep=False)
    writer.interrupted()
    return out


def test_a_run_gone_on_in_one_process_gives_the_history_of_two_and_plays_a_lost_lead_file_again(recorded, stopped,
                                                                                                 tmp_path):
    # any --jobs give the same history: chunks 1 and 2 played here, then chunk 0 and chunk 1 again
    # by the run gone on with one job, against the recorded run of two. Chunk 2 is kept with its
    # lead file, as a run gone on keeps every finished chunk (one test: a copy of the stopped run
    # gone on whole replayed chunk 0 a second time and read chunk 2's files as this one does)
    out = tmp_path / "partial"
    shutil.copytree(stopped, out)
    (out / "chunks" / "leads-000001.parquet").unlink()  # a copy that lost its lead file
    resumed = execute_run(None, 1, out, False, None, keep=True, resume=True)
    assert resumed.meta["resumed_chunks"] == 1  # chunk 2 kept, chunk 1 played again
    assert_frame_equal(pl.read_parquet(out / "leads.parquet"), recorded.leads)
    assert_frame_equal(pl.read_parquet(out / "seats.parquet"), recorded.seats)


def test_whole_matches_record_every_round_with_its_number():
    result = simtool.run("black-white", 2, players=3, unit="match", seed=1, lead_history=1, jobs=1)
    leads = result.leads
    assert leads["match"].unique().to_list() == [0]
    rounds = result.seats.filter(pl.col("match") == 0)["round"].n_unique()
    assert leads["round"].n_unique() == rounds and leads["estimate"].is_between(0, 1).all()


def test_bad_lead_history_is_one_line():
    with pytest.raises(SimtoolError, match="bad lead_history"):
        make_spec("hearts", 4, 10, lead_history=-1)


def test_the_command_line_records_them_and_a_resume_keeps_the_runs_own_setting(tmp_path):
    from typer.testing import CliRunner

    from simtool.cli import app

    runner = CliRunner()
    out = tmp_path / "cli"
    done = runner.invoke(app, ["run", "--game", "black-white", "-p", "3", "-n", "50", "--seed", "2",
                               "--jobs", "1", "-q", "--lead-history", "3", "--out", str(out)])
    assert done.exit_code == 0, done.output
    leads = pl.read_parquet(out / "leads.parquet")
    assert leads["deal"].unique().sort().to_list() == [0, 1, 2]
    again = runner.invoke(app, ["run", "--resume", str(out), "--lead-history", "5"])
    assert again.exit_code == 2 and "--lead-history" in again.output
    bad = runner.invoke(app, ["run", "--game", "black-white", "-n", "5", "--lead-history", "0.5",
                              "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2


def test_a_searchs_report_channel_leads_to_nothing_but_copies():
    """``view._report`` must not reach the round state (nor the recorder holding it): a strategy
    may read only what its seat may know."""
    import gc

    import strategies
    from simtool import engine, games
    from simtool.pipeline.leads import Recorder

    game = games.get("hearts")
    match = game.new_match(4, 4, {o.name: o.default for o in game.options})
    state = game.deal(np.random.default_rng(0), match, 0)
    lineup = engine.Lineup([strategies.resolve("random", "hearts")], np.zeros(4, np.int64))
    recorder = Recorder(game, lineup, 2, np.random.default_rng(1), strategies.resolve)
    recorder.round(0, match.totals)
    recorder.before(game, state, next(game.play(state)), np.arange(4))
    report = recorder.reporter(np.arange(4))
    seen, todo = set(), [report]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, (engine.RoundState, Recorder)), type(obj)
        todo.extend(gc.get_referents(obj))
    assert report.wanted.tolist() == [True, True, False, False]
