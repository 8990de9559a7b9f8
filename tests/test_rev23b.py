"""Review of hostile round 23 (rev23b): a suggested command it left unquoted, a chunk of another run
that names none. Each test failed on the code before its fix, but the one of a run begun before
runs were named, which keeps what it was trusted with."""

from __future__ import annotations

import shlex

from .test_cli import cli

TUNE = ["tune", "--game", "black-white", "--vary", "deck=34,36", "--trials", "2", "--seed", "1", "--jobs", "1", "-q",
        "--objective", "seat_spread"]


def test_the_resume_a_tuning_of_other_settings_suggests_runs_as_pasted(tmp_path):
    # failed before: "my t holds a tuning with other settings (n differs); resume it with --resume
    # my t": pasted, --resume got the folder "my" and an extra argument "t" (hostile23 quoted every
    # other suggested --resume)
    out = tmp_path / "my t"
    assert cli(*TUNE, "--n", "300", "--out", out).exit_code == 0
    r = cli(*TUNE, "--n", "400", "--out", out)
    assert r.exit_code == 2, r.output
    suggested = r.output.split("resume it with ", 1)[1].split(", or choose", 1)[0]
    assert shlex.split(suggested) == ["--resume", str(out)], suggested
    assert cli("tune", *shlex.split(suggested), "-q", "--jobs", "1").exit_code == 0


def test_a_chunk_copied_in_from_a_run_of_an_older_simtool_is_played_again(tmp_path, small_chunks):
    # failed before: a chunk whose checksum file names no run (written before runs were named in
    # them) was trusted in any run, so chunk 1 of yesterday's run of seed 4, restored into today's
    # run of seed 3, was joined: "finished", seed 3 in run.json, 2,048 deals of seed 4 in its table
    import json
    import shutil

    import polars as pl

    import simtool

    from .test_hostile23 import N, stopped_run

    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    stopped_run(ours, seed=3)
    stopped_run(theirs, seed=4)
    shutil.copy(theirs / "chunks" / "seats-000001.parquet", ours / "chunks")
    sums = json.loads((theirs / "chunks" / "sums-000001.json").read_text())
    del sums["run"]  # as a simtool before 2026-11-28 wrote it
    (ours / "chunks" / "sums-000001.json").write_text(json.dumps(sums))
    r = cli("run", "--resume", ours, "-q", "--jobs", "1")
    assert r.exit_code == 0, r.output
    fresh = simtool.run("black-white", n=N, seed=3, jobs=1, strategy="random").seats
    assert pl.read_parquet(ours / "seats.parquet").equals(fresh)


def test_a_run_begun_before_runs_were_named_in_its_checksums_resumes_with_its_chunks(tmp_path, small_chunks,
                                                                                   monkeypatch):
    # its spec.json says nothing of named chunks and no checksum file names a run: the chunks on
    # disk are kept (none set aside, none played again), as before runs were named in them
    import json

    from simtool.pipeline import executor, folders

    from .conftest import stopped_after
    from .test_hostile23 import stopped_run

    ours = tmp_path / "ours"
    stopped_run(ours, seed=3)
    parts = ours / "chunks"
    spec = {k: v for k, v in json.loads((parts / "spec.json").read_text()).items()
            if k not in ("sha256", "named_chunks")}
    (parts / "spec.json").write_text(json.dumps({**spec, "sha256": folders._spec_sum(spec)}))
    for f in parts.glob("sums-*.json"):
        f.write_text(json.dumps({k: v for k, v in json.loads(f.read_text()).items() if k != "run"}))
    kept = {f.name: f.read_bytes() for f in parts.glob("seats-*.parquet")}
    assert len(kept) == 3
    monkeypatch.setattr(executor, "execute_tasks", stopped_after(executor, 1)[1])
    assert cli("run", "--resume", ours, "-q", "--jobs", "1").exit_code == 130
    assert {f.name: f.read_bytes() for f in parts.glob("seats-*.parquet") if f.name in kept} == kept
    assert not list(parts.glob("*.damaged")) and len(list(parts.glob("seats-*.parquet"))) == 4
