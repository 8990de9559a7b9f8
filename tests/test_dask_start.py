"""The embedded dask cluster's start: workers forked by one zygote that imported dask and simtool
once (simtool/pipeline/daskworker.py; docs/speed.md, "The dask backend against local")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simtool.pipeline import cluster
from simtool.pipeline.forked import WorkerDied

pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")
pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX sessions and process groups")


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def gone(pids: list[int], within: float = 15) -> bool:
    ends = time.monotonic() + within
    while any(map(alive, pids)) and time.monotonic() < ends:
        time.sleep(0.05)
    return not any(map(alive, pids))


@pytest.fixture
def own():
    cluster.close_embedded()
    yield cluster.embedded(2)
    cluster.close_embedded()


def test_the_workers_are_forked_by_one_zygote_and_do_not_import_again(own):
    # before: each worker was a fresh interpreter importing dask and simtool, 0.8 s of CPU on
    # this 2-core machine; forked, one joins in some 0.02 s, the imports paid once by the zygote
    own.client.wait_for_workers(2, timeout=60)
    zygote = psutil.Process(own.zygote.pid)
    workers = [psutil.Process(pid) for pid in own.pids()]
    assert len(workers) == 2 and all(w.ppid() == zygote.pid for w in workers)
    assert sorted(own.client.run(os.getpid).values()) == sorted(w.pid for w in workers)
    imports = sum(zygote.cpu_times()[:2])
    assert all(sum(w.cpu_times()[:2]) < imports / 4 for w in workers), (imports, [w.cpu_times() for w in workers])
    # each in a session of its own: Ctrl-C at a terminal reaches neither them nor the zygote
    assert {os.getsid(p.pid) for p in (zygote, *workers)} == {zygote.pid, *(w.pid for w in workers)}
    assert os.getsid(zygote.pid) != os.getsid(0)


def test_a_killed_zygote_stops_the_run_in_one_line_and_its_workers_end_with_the_cluster(own):
    own.client.wait_for_workers(2, timeout=60)
    workers = own.pids()
    os.kill(own.zygote.pid, signal.SIGKILL)  # the out-of-memory killer, say
    own.zygote.wait(timeout=30)
    with pytest.raises(WorkerDied, match="killed by signal 9: the process that starts the dask workers ended"):
        own.check()
    assert len(workers) == 2 and all(map(alive, workers))  # orphans, held by the lifeline alone
    cluster.close_embedded()
    assert gone(workers)


STARTING = """
import sys, time
from simtool.pipeline import cluster
import dask.distributed

def slow_scheduler(*args, **kw):
    time.sleep(120)

dask.distributed.LocalCluster = slow_scheduler
real = cluster.Embedded._start_zygote

def start(self):
    real(self)
    print(self.zygote.pid, flush=True)

cluster.Embedded._start_zygote = start
cluster.embedded(2)
"""


def test_a_zygote_still_importing_ends_with_a_killed_simtool_and_forks_nothing():
    root = str(Path(__file__).resolve().parents[1])
    main = subprocess.Popen([sys.executable, "-c", STARTING], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=root))
    try:
        zygote = int(main.stdout.readline())
        process = psutil.Process(zygote)
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    forked = set()
    ends = time.monotonic() + 15
    while alive(zygote) and time.monotonic() < ends:
        try:
            forked.update(c.pid for c in process.children())
        except psutil.Error:
            break
        time.sleep(0.01)
    left = alive(zygote)
    if left:  # not left running for the next test
        os.killpg(zygote, signal.SIGKILL)
    assert not left and not forked


def test_the_zygote_forks_where_the_local_backend_does():
    from simtool.pipeline import daskworker, runner

    assert daskworker.FORK == runner.FORK


CONNECTING = """
import asyncio, os, signal, sys
import distributed.client

connect = distributed.client.Client._ensure_connected

async def killed_meanwhile(self, *args, **kwargs):  # `kill` (or Ctrl-C) as the client connects
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.sleep(0.3)
    return await connect(self, *args, **kwargs)

distributed.client.Client._ensure_connected = killed_meanwhile
from simtool.cli import main
sys.argv = ["simtool", "run", "--n", "1000", "--backend", "dask", "--jobs", "1", "--out", sys.argv[1], "-q"]
sys.exit(main())
"""


def test_a_stop_as_the_embedded_client_connects_ends_simtool_at_once_in_one_line(tmp_path):
    # before: the half-connected client was left to its finalizer, which ran once the scheduler's
    # event loop had stopped: simtool hung 60 s after its line, then printed a TimeoutError
    root = str(Path(__file__).resolve().parents[1])
    main = subprocess.Popen([sys.executable, "-c", CONNECTING, str(tmp_path / "run")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=root))
    try:
        err = main.communicate(timeout=30)[1]
    finally:
        main.kill()
    assert main.returncode == 130 and err.strip().startswith("interrupted") and "\n" not in err.strip(), err


def open_files(pid: int) -> list[str]:
    """The pipes, /dev/nulls and unlinked files among ``pid``'s file descriptors (not what dask
    itself opens and closes meanwhile: sockets, its scratch space, /proc)."""
    fds = Path(f"/proc/{pid}/fd")
    links = []
    for fd in fds.iterdir():
        try:
            links.append(os.readlink(fd))
        except FileNotFoundError:  # closed meanwhile
            pass
    return sorted(link for link in links
                  if link.startswith("pipe:") or link == os.devnull or link.endswith("(deleted)"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir() or not cluster.daskworker.FORK,
                    reason="Linux's /proc, forked workers")
def test_a_forked_worker_holds_the_lifeline_and_its_own_log_and_nothing_else_of_the_zygotes():
    # before: fork copied every file of the zygote's into each worker: the zygote's wake-up pipe,
    # two /dev/nulls and the logs of every worker forked before it (their space in /tmp held
    # until it ended too)
    cluster.close_embedded()
    own = cluster.embedded(3)
    try:
        own.client.wait_for_workers(3, timeout=60)
        lifeline = os.readlink(f"/proc/self/fd/{own.life}")
        assert open_files(own.zygote.pid).count("/dev/null") == 1
        for pid in own.pids():
            log = os.readlink(f"/proc/{pid}/fd/1")
            assert log.endswith("(deleted)") and os.readlink(f"/proc/{pid}/fd/2") == log
            assert set(open_files(pid)) == {"/dev/null", lifeline, log}, (pid, open_files(pid))
            assert open_files(pid).count("/dev/null") == 1
    finally:
        cluster.close_embedded()


SPAWNING = """
import runpy, sys
sys.platform = "darwin"  # where fork is unsafe for numpy: the zygote spawns each worker
sys.argv[0] = "daskworker"
runpy.run_module("simtool.pipeline.daskworker", run_name="__main__", alter_sys=True)
"""


def test_a_zygote_that_cannot_fork_spawns_working_workers():
    # before: it spawned `python -m __main__` (its own __name__, run as -m), and every worker
    # ended at once: "Error while finding module specification for '__main__'"
    import json

    root = str(Path(__file__).resolve().parents[1])
    life, lifeline = os.pipe()
    zygote = subprocess.Popen([sys.executable, "-c", SPAWNING, "zygote", cluster.PRELOAD], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, pass_fds=(life,),
                              env=dict(os.environ, PYTHONPATH=root, **{cluster.daskworker.PIPE: str(life)}))
    os.close(life)
    try:
        zygote.stdin.write(json.dumps(["w", "--version"]).encode() + b"\n")
        zygote.stdin.flush()
        forked, ended = zygote.stdout.readline().split(), zygote.stdout.readline().decode()
    finally:
        os.close(lifeline)  # the zygote's end, as simtool's
        zygote.wait(timeout=30)
        zygote.stdin.close()
        zygote.stdout.close()
    assert forked[0] == b"w" and ended.startswith("w end 0 dask worker, version"), ended


RACING = """
import os, runpy, signal, sys, threading, time
# a thread that takes SIGTERM, as polars' out-of-core cleaner in the zygote does
bystander = threading.Thread(target=time.sleep, args=(3600,), daemon=True)
bystander.start()
fork = os.fork

def forked_then_stopped():
    pid = fork()
    if pid:  # simtool's close (SIGTERM) between the fork and the record of the child
        print(pid, file=sys.stderr, flush=True)
        signal.pthread_kill(bystander.ident, signal.SIGTERM)
        time.sleep(0.5)
    return pid

os.fork = forked_then_stopped
sys.argv[0] = "daskworker"
runpy.run_module("simtool.pipeline.daskworker", run_name="__main__", alter_sys=True)
"""


@pytest.mark.skipif(not cluster.daskworker.FORK, reason="forked workers")
def test_a_zygote_stopped_as_it_forks_leaves_no_worker_running():
    # before: SIGTERM was blocked in the zygote's main thread only; another thread took it, and
    # the zygote ended before it recorded the child it had just forked, which it left running
    import json

    root = str(Path(__file__).resolve().parents[1])
    life, lifeline = os.pipe()
    zygote = subprocess.Popen([sys.executable, "-c", RACING, "zygote", cluster.PRELOAD], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(life,),
                              env=dict(os.environ, PYTHONPATH=root, **{cluster.daskworker.PIPE: str(life)}))
    os.close(life)
    worker = None
    try:
        waiting = ["tcp://127.0.0.1:9", "--no-nanny", "--no-dashboard", "--death-timeout", "60"]  # for no scheduler
        zygote.stdin.write(json.dumps(["w", *waiting]).encode() + b"\n")
        zygote.stdin.flush()
        worker = int(zygote.stderr.readline())
        zygote.wait(timeout=30)
        left = not gone([worker], within=3)
    finally:
        os.close(lifeline)  # what is left ends with it, as with simtool
        zygote.kill()
        zygote.wait()
        zygote.stdin.close()
        zygote.stderr.close()
    assert zygote.returncode == 0 and not left
