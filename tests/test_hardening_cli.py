"""Hostile input (issue 14): huge counts, dead schedulers, hanging or dying plugins, full disks,
broken installed strategies and sloppy options each end with one line and exit status 2."""

from __future__ import annotations

import errno
import json
import os
import socket
import threading
from pathlib import Path

import polars as pl
import pytest

from simtool.cli import main
from simtool.commands.run import execute_run
from simtool.errors import SimtoolError
from simtool.pipeline import runner as runners
from simtool.pipeline.runner import make_spec

from .test_cli import PLUGINS, cli, one_line_error

HOSTILE = PLUGINS / "hostile.py"


def main_error(capsys, argv, *needles):
    """``simtool ARGV`` through the real entry point: exit status 2 and one line naming needles."""
    assert main([str(a) for a in argv]) == 2
    text = capsys.readouterr().err.strip()
    assert "\n" not in text and text.startswith("error: "), text
    for needle in needles:
        assert needle in text, text
    return text


def no_result(folder: Path) -> None:
    assert not (folder / "run.json").exists() and not (folder / "seats.parquet").exists()
    assert not list(folder.rglob("*.tmp")) and not list(folder.rglob(".*.tmp"))


# 7. any n that a deal number can carry runs in bounded memory; larger n is one line

@pytest.mark.parametrize("n", ["1e20", "1e99", "9223372036854775808"])
def test_n_beyond_int64_deal_numbers_is_one_line(tmp_path, n):
    one_line_error(cli("run", "--n", n, "--jobs", "1", "--out", tmp_path / "r"), f"bad --n '{n}'",
                   "9223372036854775807")
    one_line_error(cli("sweep", "--game", "black-white", "--n", n, "--runs", tmp_path / "s",
                       "--out", tmp_path / "s.html"), f"bad --n '{n}'")
    assert not (tmp_path / "r").exists() and not (tmp_path / "s").exists()


class Enough(Exception):
    """Stops a run that would take for ever once it has shown it is under way."""


def stop_after(chunks: int):
    def progress(done, total):
        assert total > 10**9  # the whole plan is known, though never listed
        if done >= chunks:
            raise Enough
    return progress


@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed")
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_largest_n_starts_at_once_in_bounded_memory(tmp_path, jobs):
    spec = make_spec("black-white", 3, 2 ** 63 - 1, "random", seed=1)
    with pytest.raises(Enough):
        execute_run(spec, jobs, tmp_path / "r", False, stop_after(2), keep=False)
    assert not (tmp_path / "r" / "run.json").exists()


def test_a_sweep_of_huge_cells_starts_at_once(tmp_path, monkeypatch):
    from simtool.commands import plans, sweep

    specs = sweep.cells(sweep.make_grid({"games": ["black-white"], "n": "1e15", "seed": 2,
                                         "lineups": ["random", "high"]}))
    with pytest.raises(Enough):
        plans.play(specs, tmp_path / "s", 1, progress=stop_after(2))


# 10. --jobs is capped at the chunks there are, and run.json records what was used

def test_jobs_beyond_the_chunks_is_capped_and_recorded(tmp_path, monkeypatch):
    started = []
    real = runners.play_task

    def spy(task, *args, **kw):
        started.append(task.index)
        return real(task, *args, **kw)

    monkeypatch.setattr(runners, "play_task", spy)
    r = cli("run", "--n", "500", "--seed", "1", "--jobs", "1000", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r" / "run.json").read_text())["jobs"] == 1
    assert started == [0]  # played here, not in 1000 (or any) worker processes
    r = cli("run", "--n", "40000", "--seed", "1", "--jobs", "1000", "--out", tmp_path / "r2", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r2" / "run.json").read_text())["jobs"] == 2


def test_sweep_records_the_jobs_it_used(tmp_path):
    from simtool.commands import plans, sweep

    specs = sweep.cells(sweep.make_grid({"games": ["black-white"], "n": 300, "seed": 1,
                                         "lineups": ["random", "high"]}))
    for cell in plans.play(specs, tmp_path / "s", jobs=64):
        assert json.loads((cell / "run.json").read_text())["jobs"] == 2


# 12. a sweep's grid file is checked value by value

@pytest.mark.parametrize("line,needles", [
    ('seed = "abc"', ["bad seed 'abc'", "whole number"]),
    ("seed = -3", ["bad seed -3"]),
    ('players = ["x"]', ["bad players 'x'", "whole numbers"]),
    ("players = 3.7", ["bad players 3.7", "whole numbers"]),
    ("players = true", ["bad players True"]),
    ('rotate = "no"', ["bad rotate 'no'", "true or false"]),
    ("rotate = 1", ["bad rotate 1", "true or false"]),
    ("unit = 3", ["bad unit 3"]),
    ("games = [3]", ["bad games 3"]),
    ("lineups = [true]", ["bad lineups True"]),
    ("[rules]\npass_count = []", ["rule 'pass_count' has no values", "empty"]),
    ("players = []", ["players = [] lists no values", "empty"]),
    ("lineups = []", ["lineups = [] lists no values", "empty"]),
    ("[rules]\npass_count = [[2]]", ["bad rule pass_count [2]"]),
])
def test_bad_grid_values_are_one_line(tmp_path, line, needles):
    grid = tmp_path / "grid.toml"
    head = ("" if line.startswith("games") else 'games = ["kansas-city"]\n') + "n = 100\n"
    grid.write_text(head + line + "\n")
    one_line_error(cli("sweep", grid, "--runs", tmp_path / "s", "--out", tmp_path / "s.html"), *needles)
    assert not (tmp_path / "s").exists()


def test_grid_rotate_false_stays_false(tmp_path):
    from simtool.commands import sweep

    assert sweep.make_grid({"games": ["black-white"], "rotate": False}).rotate is False
    assert sweep.make_grid({"games": ["black-white"], "rotate": True}).rotate is True


# 13. replay of a number no run can hold, and a full disk

def test_replay_of_a_huge_deal_number_is_one_line():
    one_line_error(cli("replay", "--seed", "1", "--deal", "99999999999999999999"),
                   "bad --deal 99999999999999999999", "9223372036854775806")
    one_line_error(cli("replay", "--seed", "1", "--match", "9223372036854775807"), "bad --match 9223372036854775807")
    r = cli("replay", "--seed", "1", "--deal", "9223372036854775806")
    assert r.exit_code == 0, r.output
    assert "deal 9223372036854775806" in r.stdout


def disk_full(*args, **kw):
    raise OSError(errno.ENOSPC, "No space left on device")


def fills_the_disk(real, after: int = 0, name: str = ""):
    """A parquet writer that writes ``after`` files (whose name has ``name``), then leaves half a
    file and fails as polars does on a full disk."""
    calls = []

    def write(self, target, *args, **kw):
        # polars' DataFrame.write_parquet may sink a LazyFrame, and a chunk is encoded in memory
        if not isinstance(target, (str, os.PathLike)) or name not in Path(target).name:
            return real(self, target, *args, **kw)
        calls.append(target)
        if len(calls) <= after:
            return real(self, target, *args, **kw)
        Path(target).write_bytes(b"PAR1 half a table")
        raise pl.exceptions.ComputeError("parquet: File out of specification: underlying IO "
                                         "error: No space left on device (os error 28)")
    return write


def test_disk_full_while_writing_chunks(tmp_path, monkeypatch):
    real = Path.write_bytes

    def write_bytes(self, data):  # the second chunk's seats file: half on the disk, then full
        if not self.name.endswith(".seats-000001.parquet.tmp"):
            return real(self, data)
        real(self, data[:len(data) // 2])
        disk_full()
    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    out = tmp_path / "r"
    r = cli("run", "--n", "40000", "--seed", "1", "--jobs", "1", "--out", out, "-q")
    one_line_error(r, "cannot write", "seats-000001.parquet", "No space left on device")
    no_result(out)


@pytest.mark.parametrize("path", ["joined", "re-encoded"])
def test_disk_full_while_writing_the_final_table(tmp_path, monkeypatch, path):
    from simtool.pipeline import stitch

    # the disk full from the first join on: the joining while the chunks are played gives up too
    monkeypatch.setattr(stitch, "_write_at", disk_full)
    if path == "joined":  # the chunk files' bytes copied into the whole table (simtool.pipeline.stitch)
        real = stitch._copy_all

        def copy_all(spans, dst):
            real(spans[:1], dst)  # half a table on the disk, then full
            disk_full()
        monkeypatch.setattr(stitch, "_copy_all", copy_all)
    else:  # chunk files that cannot be joined are encoded again by polars
        monkeypatch.setattr(stitch, "stitch", lambda parts, dest: False)
        monkeypatch.setattr(pl.LazyFrame, "sink_parquet",
                            fills_the_disk(pl.LazyFrame.sink_parquet, name="seats.parquet"))
    out = tmp_path / "r"
    r = cli("run", "--n", "100", "--seed", "1", "--jobs", "1", "--out", out, "-q")
    one_line_error(r, "cannot write", "seats.parquet", "No space left on device")
    no_result(out)


def test_disk_full_while_writing_run_json(tmp_path, monkeypatch):
    from simtool.pipeline import folders as results

    real = Path.write_text

    def write_text(self, *args, **kw):
        if self.name.startswith("run.json"):
            real(self, "{")
            disk_full()
        return real(self, *args, **kw)

    monkeypatch.setattr(results.Path, "write_text", write_text)
    out = tmp_path / "r"
    one_line_error(cli("run", "--n", "100", "--seed", "1", "--jobs", "1", "--out", out, "-q"),
                   "No space left on device")
    no_result(out)


# 16. options that used to be accepted silently

@pytest.mark.parametrize("args,needles", [
    (["--n", ""], ["bad --n ''"]),
    (["--n", "__1"], ["bad --n '__1'"]),
    (["--n", "1_000_"], ["bad --n '1_000_'"]),
    (["--n", "1__000"], ["bad --n '1__000'"]),
    (["--strategy", ""], ["unknown strategy ''", "balance"]),
    (["--rule", "x=1", "--rule", "x=2"], ["--rule x given twice"]),
    (["--seat", "1=high", "--seat", "1=low"], ["--seat 1 given twice"]),
    (["--seat", "1=high", "--seat", "01=low"], ["seat 1 given twice"]),
    (["--players", "three"], ["bad --players 'three'", "2, 3, 4"]),
])
def test_sloppy_options_are_refused(tmp_path, args, needles):
    one_line_error(cli("run", "--jobs", "1", "--out", tmp_path / "r", *args), *needles)
    assert not (tmp_path / "r").exists()


def test_underscores_between_digits_still_work(tmp_path):
    r = cli("run", "--n", "1_0_0", "--jobs", "1", "--seed", "1", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r" / "run.json").read_text())["n"] == 100


def test_framework_errors_name_the_valid_choices(capsys):
    main_error(capsys, ["frobnicate"], "No such command 'frobnicate'",
               "valid: games, ladder, replay, report, restrict, review, run, strategies, sweep")
    main_error(capsys, ["run", "--players", "three"], "bad --players 'three'", "2, 3, 4")
    main_error(capsys, ["run", "--bogus"], "No such option: --bogus", "--game", "--seed")
    main_error(capsys, ["run", "--seed", "x"], "bad --seed 'x'", "expected a whole number 0..2**128")
    main_error(capsys, ["replay", "--seed", "1", "--deal", "x"], "--deal", "whole number")
    main_error(capsys, ["run", "--timeout", "soon"], "bad --timeout 'soon'", "expected seconds above 0")
    main_error(capsys, ["sweep", "--players", "three", "--game", "black-white"], "bad --players 'three'")


# 9. --timeout: a strategy that never returns stops the run, named with its deal

def test_a_hanging_plugin_is_stopped_by_timeout_in_this_process(tmp_path):
    out = tmp_path / "r"
    r = cli("run", "--n", "100", "--seed", "4", "--jobs", "1", "--timeout", "0.3", "--out", out,
            "--seat", f"1={HOSTILE}:sleeps", "--strategy", "random")
    one_line_error(r, "strategy 'hostile.py:sleeps' did not return within --timeout 0.3 s", "black-white",
                   "deal 0", "seed 4")
    no_result(out)


def test_a_hanging_plugin_is_stopped_by_timeout_in_a_worker(tmp_path):
    out = tmp_path / "r"
    # a wall-clock limit per decision: the legitimate ones of the first chunk took up to 83 ms at load 12
    r = cli("run", "--n", "40000", "--seed", "4", "--jobs", "2", "--timeout", "1.5", "--out", out,
            "--seat", f"0={HOSTILE}:spins_late")
    one_line_error(r, "strategy 'hostile.py:spins_late' did not return within --timeout 1.5 s", "deal 32768")
    no_result(out)


def test_a_timeout_survives_except_exception(tmp_path):
    r = cli("run", "--n", "100", "--jobs", "1", "--timeout", "0.3", "--out", tmp_path / "r",
            "--strategy", f"{HOSTILE}:shrugs_off_timeouts")
    one_line_error(r, "strategy 'hostile.py:shrugs_off_timeouts' did not return within --timeout 0.3 s")


def test_timeout_leaves_results_alone(tmp_path):
    for name, extra in (("plain", []), ("timed", ["--timeout", "30"])):
        r = cli("run", "--n", "2000", "--seed", "3", "--jobs", "1", "--strategy", "balance",
                "--out", tmp_path / name, "-q", *extra)
        assert r.exit_code == 0, r.output
    a, b = (pl.read_parquet(tmp_path / n / "seats.parquet") for n in ("plain", "timed"))
    assert a.equals(b)


def test_sweep_and_api_take_a_timeout(tmp_path):
    import simtool

    with pytest.raises(SimtoolError, match="'hostile.py:sleeps' did not return within timeout=0.2 s"):
        simtool.run("black-white", 100, strategy=f"{HOSTILE}:sleeps", timeout=0.2)
    r = cli("sweep", "--game", "black-white", "--n", "100", "--lineup", f"{HOSTILE}:sleeps",
            "--timeout", "0.2", "--runs", tmp_path / "s", "--out", tmp_path / "s.html", "--jobs", "1")
    one_line_error(r, "'hostile.py:sleeps' did not return within --timeout 0.2 s")
    assert not (tmp_path / "s.html").exists()


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan"])
def test_bad_timeout_is_one_line(tmp_path, value):
    one_line_error(cli("run", "--n", "100", "--timeout", value, "--out", tmp_path / "r"), "bad --timeout")
    assert not (tmp_path / "r").exists()


# 14. plugins that raise what is not an Exception, or end their process

@pytest.mark.parametrize("name,jobs,needles", [
    ("base_exception", "1", ["strategy 'hostile.py:base_exception' raised Boom: bang", "deal 0"]),
    ("unprintable", "1", ["strategy 'hostile.py:unprintable' raised Unprintable", "cannot be printed"]),
    ("exits_zero", "1", ["strategy 'hostile.py:exits_zero' raised SystemExit: 0", "deal 0"]),
    ("exits_zero", "2", ["strategy 'hostile.py:exits_zero' raised SystemExit: 0", "seed 2"]),
])
def test_plugins_that_raise_anything_are_one_line(tmp_path, name, jobs, needles):
    out = tmp_path / "r"
    n = "100" if jobs == "1" else "40000"
    r = cli("run", "--n", n, "--seed", "2", "--jobs", jobs, "--out", out,
            "--seat", f"0={HOSTILE}:{name}")
    one_line_error(r, *needles)
    no_result(out)


def test_a_plugin_that_exits_at_import_is_one_line(tmp_path):
    plugin = PLUGINS / "exits_on_import.py"
    r = cli("run", "--n", "100", "--out", tmp_path / "r", "--strategy", f"{plugin}:x")
    one_line_error(r, f"strategy plugin {plugin} failed to load: SystemExit: 3")
    assert not (tmp_path / "r").exists()


def test_a_plugin_that_kills_its_worker_is_one_line(tmp_path):
    out = tmp_path / "r"
    r = cli("run", "--n", "40000", "--seed", "2", "--jobs", "2", "--out", out,
            "--seat", f"1={HOSTILE}:dies")
    one_line_error(r, "a worker process ended", f"{HOSTILE}:dies")
    no_result(out)


# 15. a broken installed strategy fails only the runs that use it

@pytest.fixture
def installed(monkeypatch):
    from importlib.metadata import EntryPoint

    import strategies

    group = "simtool.strategies"
    eps = [EntryPoint("shipped", "tests.plugins.good:lowest_card", group),
           EntryPoint("wrecked", "tests.plugins.broken:anything", group),
           EntryPoint("quits", "tests.plugins.exits_on_import:x", group)]
    monkeypatch.setattr(strategies, "entry_points", lambda group: eps if group == eps[0].group else [])


def test_a_broken_installed_strategy_fails_only_where_used(tmp_path, installed):
    for name in ("random", "shipped"):
        r = cli("run", "--n", "100", "--jobs", "1", "--strategy", name, "--out", tmp_path / name, "-q")
        assert r.exit_code == 0, r.output
    one_line_error(cli("run", "--n", "100", "--strategy", "wrecked", "--out", tmp_path / "w"),
                   "installed strategy 'wrecked'", "tests.plugins.broken:anything",
                   "failed to load: RuntimeError: this plugin cannot even load")
    one_line_error(cli("run", "--n", "100", "--strategy", "quits", "--out", tmp_path / "q"),
                   "installed strategy 'quits'", "SystemExit: 3")
    one_line_error(cli("run", "--n", "100", "--strategy", "genius", "--out", tmp_path / "g"),
                   "unknown strategy 'genius'", "shipped", "random")
    assert not (tmp_path / "w").exists() and not (tmp_path / "q").exists()


def test_strategies_lists_a_broken_installed_strategy(installed):
    r = cli("strategies")
    assert r.exit_code == 0, r.output
    rows = {line.split("│")[1].strip(): line for line in r.stdout.splitlines() if line.count("│") > 2}
    assert "shipped" in rows and "balance" in rows and "broken" not in rows["shipped"]
    assert "broken: installed strategy 'wrecked'" in rows["wrecked"]
    assert "broken: installed strategy 'quits'" in rows["quits"]


# 8. every scheduler problem ends within a bounded time, with one line

class Server:
    """A TCP server on 127.0.0.1 that accepts and then does ``reply`` (or nothing); it stops by
    itself after ``life`` seconds at the latest."""

    def __init__(self, reply: bytes | None = None, life: float = 30):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.reply, self.life = reply, life
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self):
        held = []
        for _ in range(int(self.life / 0.1)):
            if self.stop.is_set():
                break
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if self.reply is not None:
                conn.sendall(self.reply)
        for conn in held:
            conn.close()
        self.sock.close()

    def __enter__(self):
        self.thread.start()
        return self.address

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


@pytest.fixture
def http_server():
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def dask_run(tmp_path, address):
    return cli("run", "--n", "100", "--backend", "dask", "--scheduler", address,
               "--out", tmp_path / "r")


@pytest.fixture
def quick_scheduler_wait(monkeypatch):
    pytest.importorskip("dask.distributed")
    from simtool.pipeline import cluster

    monkeypatch.setattr(cluster, "SCHEDULER_WAIT", 0.5)


def test_a_silent_scheduler_address_is_one_line(tmp_path, quick_scheduler_wait):
    with Server() as address:
        one_line_error(dask_run(tmp_path, address), f"no answer from a dask scheduler at {address}",
                       "within 0.5 s")
    assert not (tmp_path / "r").exists()


def test_an_http_server_as_scheduler_is_one_line(tmp_path, quick_scheduler_wait, http_server):
    one_line_error(dask_run(tmp_path, http_server), http_server)
    assert not (tmp_path / "r").exists()


def test_a_scheduler_address_that_answers_garbage_is_one_line(tmp_path, quick_scheduler_wait):
    # eight bytes read as a frame count asked numpy for exabytes: "Unable to allocate 3.07 EiB"
    before = set(threading.enumerate())
    with Server(reply=b"\xff" * 64 + b"HTTP/1.0 400 Bad Request\r\n\r\n") as address:
        one_line_error(dask_run(tmp_path, address), address)
    # and the client it stopped half-way is closed, not left (status "connecting") for a later
    # garbage collection to close in whatever thread runs it, stalling that one 10 s
    import gc

    from distributed import Client

    for thread in set(threading.enumerate()) - before:  # this run's (another test's may hang on)
        if thread.name == "simtool-dask-connect":
            thread.join(30)
    assert [c.status for c in gc.get_objects()
            if isinstance(c, Client) and getattr(c, "_start_arg", None) == address] == ["closed"]


@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1", "ftp://127.0.0.1:21", "tcp://:x"])
def test_a_nonsense_scheduler_address_is_one_line(tmp_path, quick_scheduler_wait, address):
    one_line_error(dask_run(tmp_path, address), f"dask scheduler at {address}")


def test_a_scheduler_without_workers_is_one_line(tmp_path, monkeypatch):
    pytest.importorskip("dask.distributed")
    import logging

    from dask.distributed import LocalCluster

    from simtool.pipeline import cluster

    # a scheduler of no workers in this process, on this machine's loopback over TCP as any
    # other: the run reaches it as a remote one (a `dask scheduler` process took seconds of
    # imports and start-up, under load 10 s, which this test is not about); up and answering
    # once started, so SCHEDULER_WAIT is only a bound, and closed at once (it has no workers)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      silence_logs=logging.CRITICAL,
                      scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"}) as scheduler:
        address = scheduler.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        monkeypatch.setattr(cluster, "SCHEDULER_WAIT", 30.0)
        monkeypatch.setattr(cluster, "WORKER_WAIT", 0.5)
        one_line_error(dask_run(tmp_path, address), "has no workers (waited 0.5 s)", f"dask worker {address}")
