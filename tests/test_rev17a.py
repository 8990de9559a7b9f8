"""Review of the embedded dask cluster's start at the command's start (daskstart, issue 27)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX file descriptors")

ROOT = Path(__file__).resolve().parents[1]

# the installed command's process (argv as `simtool ...` gives it), started with one of the
# standard streams closed, as a daemon or `simtool ... <&-` starts it
CLOSED_STREAM = '''
import json, os, sys
os.close(int(sys.argv[1]))
args = json.loads(sys.argv[2])
sys.argv = ["/venv/bin/simtool", *args]
import simtool.cli as cli
code = cli.main(args)
print("@@", code, flush=True)
'''


@pytest.mark.parametrize("fd", [0, 2])
def test_a_dask_run_started_with_a_standard_stream_closed_plays(tmp_path, fd):
    # before: the zygote's lifeline, started with the command, took the closed stream's number
    # and the zygote's own stream replaced it: stdin closed, simtool waited for its workers for
    # ever; stderr closed, the run stopped, exit status 2. The same run of 95d5846 played.
    out = tmp_path / "dask"
    args = ["run", "--game", "black-white", "--n", "1000", "--seed", "3", "--jobs", "1", "--backend", "dask",
            "--out", str(out), "-q"]
    r = subprocess.run([sys.executable, "-c", CLOSED_STREAM, str(fd), json.dumps(args)], cwd=tmp_path,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE if fd != 2 else None, text=True, timeout=45,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert "@@ 0" in r.stdout, (r.stdout, r.stderr)
    assert (out / "seats.parquet").is_file() and (out / "run.json").is_file()


# what the zygote's start makes of the command line, as `simtool ...` gives it
STARTED = '''
import json, sys
sys.argv = ["/venv/bin/simtool", *json.loads(sys.argv[1])]
import simtool.cli
from simtool.pipeline import cluster

print("@@", "started" if cluster._early else "none", flush=True)
cluster.close_embedded()
'''


@pytest.mark.parametrize(("scheduler", "expected"), [("tcp://127.0.0.1:9", "none"), ("", "started")])
def test_no_zygote_where_the_environment_names_the_scheduler(tmp_path, scheduler, expected):
    # before: `SIMTOOL_SCHEDULER=tcp://HOST:8786 simtool run --backend dask` (the option's own
    # environment variable) started the zygote, which then imported dask and simtool for
    # nothing, killed at the end: +0.35 CPU s a run played on the scheduler's workers (0.49 ->
    # 0.73 user s for 1000 deals, measured); empty, as click reads it, is unset
    r = subprocess.run([sys.executable, "-c", STARTED, json.dumps(["run", "--backend", "dask"])], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), SIMTOOL_SCHEDULER=scheduler))
    assert f"@@ {expected}" in r.stdout, (r.stdout, r.stderr[-2000:])
