"""The hand-off between the main process and its forked workers (issue 27): workers make, write
and tally their own chunks where polars may run in them, the main process only hands out chunk
numbers and records them, and the whole tables are joined from the chunk files by copying their
row groups (simtool.pipeline.stitch), never re-encoded."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

from simtool.pipeline import forked, runner, stitch
from simtool.pipeline.folders import CHUNK_WRITE, join_chunks
from simtool.pipeline.runner import Task, make_spec, play_chunk

ROOT = Path(__file__).resolve().parents[1]


def _write(frames: list[pl.DataFrame], folder: Path, name: str) -> list[Path]:
    paths = []
    for i, frame in enumerate(frames):
        path = folder / f"{name}-{i:06d}.parquet"
        frame.write_parquet(path, **CHUNK_WRITE)
        paths.append(path)
    return paths


@pytest.mark.parametrize("unit,leads", [("deal", 0), ("match", 0), ("deal", 3)])
def test_stitched_chunks_read_as_the_concatenated_tables(tmp_path, unit, leads):
    spec = make_spec("black-white", 3, n=2_500, strategy="random", seed=5, unit=unit, lead_history=leads or None)
    spec = runner.dataclasses.replace(spec, chunk=1_000)  # three chunks, the last one short
    chunks = [play_chunk(spec, i) for i in range(spec.n_chunks)]
    for name in ("seats", "matches", "leads"):
        frames = [getattr(c, name) for c in chunks]
        if frames[0] is None:
            continue
        dest = tmp_path / f"{name}.parquet"
        assert stitch.stitch(_write(frames, tmp_path, name), dest)
        whole = pl.concat(frames)
        assert pl.read_parquet(dest).equals(whole), name
        assert pl.scan_parquet(dest).select(pl.len()).collect().item() == whole.height
        if name == "leads":  # null-bearing columns keep their nulls
            assert pl.read_parquet(dest)["spread"].null_count() == whole["spread"].null_count() > 0


def test_files_that_are_not_alike_are_refused_with_nothing_written(tmp_path):
    a = pl.DataFrame({"deal": [0, 1], "score": pl.Series([3, 4], dtype=pl.Int16)})
    b = pl.DataFrame({"deal": [2, 3], "score": pl.Series([5, 6], dtype=pl.Int32)})  # another type
    dest = tmp_path / "all.parquet"
    assert not stitch.stitch(_write([a, b], tmp_path, "x"), dest)
    assert not dest.exists()
    truncated = tmp_path / "x-000001.parquet"
    truncated.write_bytes(truncated.read_bytes()[:-20])
    assert not stitch.stitch([tmp_path / "x-000000.parquet", truncated], dest) and not dest.exists()
    garbage = tmp_path / "x-000002.parquet"  # the frame of a footer around bytes that are none
    garbage.write_bytes(b"PAR1" + b"\x19\xfc" * 40 + (80).to_bytes(4, "little") + b"PAR1")
    assert not stitch.stitch([tmp_path / "x-000000.parquet", garbage], dest) and not dest.exists()


def _parts_of_every_size(folder: Path) -> tuple[list[Path], list[pl.DataFrame]]:
    """Chunk files of 1 to 5000 rows in 1 to 9 row groups, one written with column statistics
    (its footer unlike the others': joined all the same), strings and nulls among the columns."""
    frames, paths = [], []
    for i, (rows, group) in enumerate([(3000, 3000), (1, 1), (5000, 700), (2, 1), (4097, 4096), (900, 100)]):
        frame = pl.DataFrame({
            "deal": pl.int_range(i * 10_000, i * 10_000 + rows, eager=True),
            "seat": pl.Series([j % 4 for j in range(rows)], dtype=pl.Int8),
            "score": pl.Series([None if j % 7 == 0 else j * i - 900 for j in range(rows)], dtype=pl.Int32),
            "strategy": [f"s{j % 3}" for j in range(rows)],
            "win": [j / (rows + 1) for j in range(rows)],
        })
        path = folder / f"seats-{i:06d}.parquet"
        frame.write_parquet(path, **{**CHUNK_WRITE, "statistics": i == 3}, row_group_size=group)
        frames.append(frame)
        paths.append(path)
    return paths, frames


def test_every_row_group_of_every_part_is_found_where_the_joined_footer_says(tmp_path):
    """Joined as played (:class:`stitch.Joiner`) and at the end (:func:`stitch.stitch`): the same
    bytes, whose every row group reads back as its rows (an offset moved wrong reads other pages)."""
    import hashlib

    import pyarrow.parquet as pq

    parts, frames = _parts_of_every_size(tmp_path)
    joiner = stitch.Joiner(tmp_path / "joined.parquet")
    assert all(joiner.add(part) for part in parts)
    digest = joiner.close()
    data = (tmp_path / "joined.parquet").read_bytes()
    assert digest == hashlib.sha256(data).hexdigest()
    assert stitch.stitch(parts, tmp_path / "stitched.parquet")
    assert (tmp_path / "stitched.parquet").read_bytes() == data
    whole = pl.concat(frames)
    assert pl.read_parquet(tmp_path / "joined.parquet").equals(whole)
    read = pq.ParquetFile(tmp_path / "joined.parquet")
    assert read.metadata.num_row_groups == 1 + 1 + 8 + 2 + 2 + 9
    at = 0
    for i in range(read.metadata.num_row_groups):  # each row group alone, from its own offsets
        group = pl.from_arrow(read.read_row_group(i))
        assert group.equals(whole.slice(at, group.height)), i
        at += group.height
    assert at == whole.height


def test_a_precision_stop_cuts_the_last_chunk_only(tmp_path):
    frames = [pl.DataFrame({"deal": range(i * 10, i * 10 + 10), "win": [0.5] * 10}) for i in range(3)]
    parts = _write(frames, tmp_path, "seats")
    spare = tmp_path / ".seats-000002.tmp"
    join_chunks(parts, tmp_path / "all.parquet", ("deal", 24), spare)
    assert pl.read_parquet(tmp_path / "all.parquet")["deal"].to_list() == list(range(24))
    assert not spare.exists()
    join_chunks(parts, tmp_path / "all.parquet", None, spare)  # unlimited: every row
    assert pl.read_parquet(tmp_path / "all.parquet")["deal"].to_list() == list(range(30))


def test_a_worker_writes_its_chunk_and_sends_back_no_table(tmp_path):
    spec = make_spec("black-white", 3, n=5_000, strategy="random", seed=3)
    spec = runner.dataclasses.replace(spec, chunk=2_000)
    chunk = runner.play_in_worker(Task(spec, 1, tmp_path, keep=False))
    assert chunk.index == 1 and chunk.seats is None and chunk.matches is None
    assert pl.read_parquet(tmp_path / "seats-000001.parquet").equals(play_chunk(spec, 1).seats)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_polars_started_here_is_seen_before_any_fork():
    pl.DataFrame({"a": [1, 2]}).group_by("a").len()  # this test process has polars' threads running
    assert not forked.polars_forks()


def _python(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """``script`` in a fresh interpreter (polars not started, as in ``simtool run``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


COUNT_TABLES = """
    import os
    from pathlib import Path
    from simtool.pipeline import executor, forked, runner
    from simtool.pipeline.executor import Cell, Plan
    from simtool.pipeline.runner import make_spec

    MAIN, made = os.getpid(), []
    real_tables = runner.tables

    def counted(*args):
        if os.getpid() == MAIN:  # a worker's calls count in its own copy of this list
            made.append(1)
        return real_tables(*args)

    runner.tables = counted
    # whether a forked child may call polars, asked again once polars is loaded, is a child's
    # try within PROBE_WAIT (2 s): a loaded machine must not turn its answer into a no
    forked.PROBE_WAIT = 120
    runner.CHUNK //= 16  # chunks of 2048 deals, as the tests' small chunks (conftest.SMALL): a run's own size
    spec = make_spec("black-white", 3, n=5_000, strategy="random", seed=4)  # three chunks, the last one short
    assert spec.chunk == runner.chunk_size("deal") and spec.n_chunks == 3

    def play(folder, jobs):
        return executor.execute(Plan("run", (Cell(spec, Path(folder)),), reuse=False), jobs=jobs)
"""


def test_workers_make_and_write_every_table_and_jobs_never_change_the_results(tmp_path):
    done = _python(COUNT_TABLES + """
    assert forked.polars_forks()
    play("two", 2)
    play("three", 3)
    assert not made, made  # the main process made no table: the workers did
    assert forked.polars_forks()  # joining the chunks started no polars threads here
    play("one", 1)
    assert len(made) == 3
    import polars as pl
    one = pl.read_parquet("one/seats.parquet")
    assert one.height == 3 * 5_000
    assert one.equals(pl.read_parquet("two/seats.parquet")) and one.equals(pl.read_parquet("three/seats.parquet"))
    print("ok")
    """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_worker_killed_after_writing_chunks_is_named_and_the_resume_gives_the_unbroken_tables(tmp_path):
    done = _python(COUNT_TABLES + """
    import re
    import signal
    from simtool.errors import WorkerLost
    real = runner.play_in_worker

    def killed_at_chunk_2(task, *args):
        if task.index == 2:
            os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
        return real(task, *args)

    runner.play_in_worker = killed_at_chunk_2
    try:
        play("cut", 2)
        raise SystemExit("the run went on")
    except WorkerLost as exc:
        # "1 finished chunk is kept" where the other worker was killed before chunk 1's checksums
        assert "killed by signal 9" in str(exc) and re.search("finished chunks? (is|are) kept", str(exc)), exc
    # chunk 0 went to the killed worker before chunk 2, and it writes a chunk before it replies;
    # chunk 1 is in unless the killed worker's reply for chunk 0 was lost with it (the other
    # worker is then killed too, perhaps between chunk 1's table and its checksums, written
    # last: only a chunk with its checksums is finished)
    kept = sorted(p.name for p in Path("cut/chunks").glob("sums-*.json"))
    assert kept[0] == "sums-000000.json" and "sums-000002.json" not in kept, kept
    assert not Path("cut/chunks/seats-000002.parquet").exists()
    assert not made and not Path("cut/run.json").exists() and not Path("cut/seats.parquet").exists()
    runner.play_in_worker = real
    damaged = Path("cut/chunks/seats-000000.parquet")
    damaged.write_bytes(damaged.read_bytes()[:1000])  # a truncated copy: set aside and played again
    resumed = executor.execute(executor.resume_plan(Path("cut")), jobs=2)
    assert resumed[0].meta["resumed_chunks"] == len(kept) - 1
    assert not made, made  # the resume's check of the chunk files left the workers their tables
    play("whole", 1)
    import polars as pl
    assert pl.read_parquet("cut/seats.parquet").equals(pl.read_parquet("whole/seats.parquet"))
    assert not Path("cut/chunks").exists()
    print("ok")
    """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


@pytest.mark.skipif(not runner.FORK, reason="forked workers are used on Linux only")
def test_the_threads_polars_starts_in_a_worker_leave_the_timeout_signal_to_its_main_thread(tmp_path):
    done = _python("""
    import os, re, signal, threading
    from pathlib import Path
    from simtool.pipeline import runner
    from simtool.pipeline.runner import Task, make_spec

    spec = make_spec("black-white", 3, n=3_000, strategy="random", seed=2)
    Path("parts").mkdir()
    read, write = os.pipe()
    if not os.fork():  # a worker: only the threads it starts itself
        runner.play_in_worker(Task(spec, 0, Path("parts"), keep=False))
        others, taking = [], []
        for t in os.listdir("/proc/self/task"):
            if int(t) == threading.get_native_id():
                continue
            status = open(f"/proc/self/task/{t}/status").read()
            blocked = int(re.search(r"SigBlk:\\s*([0-9a-f]+)", status)[1], 16)
            name = open(f"/proc/self/task/{t}/comm").read().strip()
            others.append(name)
            if not blocked >> (signal.SIGALRM - 1) & 1:
                taking.append(name)
        kept = not signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the main thread's mask is as it was
        os.write(write, repr((others, taking, kept)).encode())
        os._exit(0)
    os.close(write)
    others, taking, kept = eval(os.read(read, 10_000))
    assert others and not taking and kept, (others, taking, kept)
    print("ok")
    """, tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_chunk_files_written_otherwise_are_joined_by_re_encoding(tmp_path):
    """A chunk file from another writer (here pyarrow's, as an older version's could be) is not
    alike: the whole table is re-encoded from the files instead, with the same rows."""
    frames = [pl.DataFrame({"deal": range(i * 10, i * 10 + 10), "win": [0.25] * 10}) for i in range(2)]
    parts = _write(frames[:1], tmp_path, "seats")
    other = tmp_path / "seats-000001.parquet"
    frames[1].write_parquet(other, use_pyarrow=True)
    assert not stitch.stitch([*parts, other], tmp_path / "tried.parquet")
    join_chunks([*parts, other], tmp_path / "all.parquet", None, tmp_path / ".seats-000001.tmp")
    assert pl.read_parquet(tmp_path / "all.parquet").equals(pl.concat(frames))


def _played(tmp_path: Path, name: str, jobs: int = 1, stop_after: int | None = None):
    from simtool.pipeline import executor
    from simtool.pipeline.executor import Cell, Plan

    spec = make_spec("kansas-city", 4, n=5_000, strategy="random", seed=8, unit="match")
    spec = runner.dataclasses.replace(spec, chunk=700)  # eight chunks, the last one short

    def stop(done, total):
        if done == stop_after:
            raise KeyboardInterrupt

    plan = Plan("run", (Cell(spec, tmp_path / name),), reuse=False)
    return executor.execute(plan, jobs=jobs, progress=stop if stop_after else None)


def test_the_whole_tables_are_joined_while_the_chunks_are_played(tmp_path, monkeypatch):
    import hashlib

    from simtool.pipeline import folders

    whole = _played(tmp_path, "before")[0]  # joined as played
    monkeypatch.setattr(folders.RunWriter, "join_as_played", lambda self, done: None)
    after = _played(tmp_path, "after")[0]  # joined from the chunk files at the end, as before
    for name in ("seats.parquet", "matches.parquet"):
        data = (tmp_path / "before" / name).read_bytes()
        assert data == (tmp_path / "after" / name).read_bytes()
        assert whole.meta["sha256"][name] == hashlib.sha256(data).hexdigest() == after.meta["sha256"][name]
    assert not (tmp_path / "before" / "chunks").exists()


def test_a_stopped_run_leaves_no_joined_table_and_its_resume_joins_every_chunk(tmp_path, monkeypatch):
    from simtool.pipeline import executor, folders

    with pytest.raises(KeyboardInterrupt):
        _played(tmp_path, "cut", stop_after=3)
    left = sorted(p.name for p in (tmp_path / "cut" / "chunks").iterdir())
    assert not [n for n in left if "joined" in n] and not (tmp_path / "cut" / "seats.parquet").exists(), left
    # the disk full for a moment while the seats are joined: joining them gives up, and the
    # chunk files are joined at the end instead, to the same bytes
    import errno

    real_write, calls = stitch._write_at, []

    def full_once(*args):
        calls.append(1)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(*args)

    monkeypatch.setattr(stitch, "_write_at", full_once)
    re_encoded, left_over = [], []
    real = folders.join_chunks

    def join_chunks(*a):  # the half-joined table is gone by then: its room is the join's
        left_over.extend(p.name for p in (tmp_path / "cut" / "chunks").glob(".seats-joined*"))
        re_encoded.append(a[1].name)
        return real(*a)

    monkeypatch.setattr(folders, "join_chunks", join_chunks)
    executor.execute(executor.resume_plan(tmp_path / "cut"), jobs=2)
    assert re_encoded == ["seats.parquet.tmp"] and left_over == []  # the matches were joined as played
    _played(tmp_path, "whole", jobs=2)
    for name in ("seats.parquet", "matches.parquet"):
        assert (tmp_path / "cut" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    assert not (tmp_path / "cut" / "chunks").exists()
