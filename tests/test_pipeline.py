"""One executor behind every command: for each of them, a run stopped by Ctrl-C or by a worker the
system killed keeps its finished chunks and goes on to the tables of an unbroken run."""

from __future__ import annotations

import os
import re
from pathlib import Path

import polars as pl
import pytest

from simtool.commands import ladder, plans, restrict, review, sweep, tune
from simtool.commands.run import execute_run
from simtool.errors import WorkerLost
from simtool.pipeline import executor, runner
from simtool.pipeline.runner import make_spec

from .conftest import SMALL, smaller_chunks

N = 70_000 // SMALL  # three chunks of 2048 deals per run: as many chunks as at full size, 16 times cheaper


@pytest.fixture(scope="module", autouse=True)
def module_small_chunks():
    """Every test here, and the unbroken plays they share, at the tests' small chunks (how a
    command stops and goes on does not depend on a chunk's size)."""
    with smaller_chunks():
        yield


def _run(root: Path, jobs: int):
    spec = make_spec("black-white", 3, N, "random", seed=4)
    if (root / "chunks").is_dir():
        return execute_run(None, jobs, root, False, None, keep=False, resume=True)
    return execute_run(spec, jobs, root, False, None, keep=False)


def _sweep(root: Path, jobs: int):
    specs, extra = sweep.plan(sweep.make_grid({"games": ["black-white", "kansas-city"], "lineups": ["random"],
                                               "n": N, "seed": 5}))
    return plans.play(specs, root, jobs, extra=extra)


def _ladder(root: Path, jobs: int):
    return ladder.climb("black-white", root, rungs=["random", "duck", "balance"], n=N, seed=6, jobs=jobs)


def _restrict(root: Path, jobs: int):
    return restrict.measure("black-white", root, n=N, seed=7, strategy="balance", jobs=jobs)


def _tune(root: Path, jobs: int):
    config = tune.configure("kansas-city", ["pass_count=0..2"], ["overshoot=0.3"], trials=3, n=N, seed=8,
                            lineup="random")
    # the re-measures at n, not 4n: each still a run of three chunks through the executor, and the
    # tuning a quarter of the deals (the factor is the tuning's statistics, not the executor's)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tune, "CONFIRM_FACTOR", 1)
        return tune.tune(config, root, jobs=jobs)


def _review(root: Path, jobs: int):
    # without the search's plays, as for a game no search plays: each of them is one deal in one
    # chunk, played after the stop as every later play is, and they were most of the review's CPU
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(review, "search_names", lambda game_id: (None, None))
        return review.review("black-white", root, seed=9, jobs=jobs, sizes=review.Sizes(N, 32, 64, 32, 1))


COMMANDS = {"run": _run, "sweep": _sweep, "ladder": _ladder, "restrict": _restrict, "tune": _tune,
            "review": _review}


def tables(root: Path) -> dict[str, pl.DataFrame]:
    """Every finished run's seat table under ``root``, by its folder."""
    return {str(p.parent.relative_to(root)): pl.read_parquet(p) for p in sorted(root.rglob("seats.parquet"))}


@pytest.fixture(scope="module")
def unbroken(tmp_path_factory):
    """Each command's tables played through unbroken, once for both ways of stopping it."""
    played = {}

    def whole(command: str) -> dict[str, pl.DataFrame]:
        if command not in played:
            root = tmp_path_factory.mktemp(command) / "whole"
            COMMANDS[command](root, 1)
            played[command] = tables(root)
        return played[command]

    return whole


def stop_after(chunks: int):
    """``executor.execute_tasks`` interrupted (Ctrl-C) once ``chunks`` chunks are in."""
    real = executor.execute_tasks

    def stopped(*args, **kw):
        for done, chunk in enumerate(real(*args, **kw), start=1):
            yield chunk
            if done == chunks:
                raise KeyboardInterrupt

    return stopped


@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_keeps_the_finished_chunks_and_going_on_gives_the_unbroken_tables(command, tmp_path, monkeypatch,
                                                                                  unbroken):
    play = COMMANDS[command]
    whole = unbroken(command)  # played before anything is patched
    cut = tmp_path / "cut"
    monkeypatch.setattr(executor, "execute_tasks", stop_after(2))
    with pytest.raises(KeyboardInterrupt):
        play(cut, 1)
    kept = list(cut.rglob("chunks/seats-*.parquet"))
    assert len(kept) == 2 and not list(cut.rglob("run.json"))
    monkeypatch.undo()
    play(cut, 2)
    assert tables(cut).keys() == whole.keys()
    for name, seats in whole.items():
        assert tables(cut)[name].equals(seats), name


_PLAY = runner.play_outcome


def _killed_at_chunk_2(spec, index, *args):
    if index == 2:
        os.kill(os.getpid(), 9)  # as the kernel's out-of-memory killer would
    return _PLAY(spec, index, *args)


@pytest.mark.skipif(not runner.FORK, reason="forked workers are used on Linux only")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_killed_worker_keeps_the_finished_chunks_and_going_on_gives_the_unbroken_tables(command, tmp_path,
                                                                                        monkeypatch, unbroken):
    play = COMMANDS[command]
    whole = unbroken(command)  # played before anything is patched
    cut = tmp_path / "cut"
    monkeypatch.setattr(runner, "play_outcome", _killed_at_chunk_2)
    with pytest.raises(WorkerLost) as lost:
        play(cut, 2)
    # what the message promises is on disk: a worker killed before any chunk was finished
    # (the ladder's first step here) keeps none, and says none
    finished = len(list(cut.rglob("chunks/sums-*.json")))
    said = re.search(r"(\d+) finished chunks? (?:is|are) kept", str(lost.value))
    assert (int(said[1]) if said else 0) == finished, (finished, str(lost.value))
    assert not list(cut.rglob("run.json"))  # what finished before stays in chunks/, nothing looks whole
    monkeypatch.setattr(runner, "play_outcome", _PLAY)
    play(cut, 2)
    assert tables(cut).keys() == whole.keys()
    for name, seats in whole.items():
        assert tables(cut)[name].equals(seats), name
