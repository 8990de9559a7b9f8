"""Defects the last session's lead noted and left: figures that counted the wrong thing or said
nothing, readers that misread a folder being written, and CLI edges. Each test failed on the code
before its fix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simtool.analysis import of as analysis_of
from simtool.games import get
from simtool.pipeline.runner import play_chunk

from .conftest import spec
from .test_cli import cli, one_line_error


def out_trumped_by_the_sheet(trumps: np.ndarray) -> np.ndarray:
    """Who is out-trumped, per deal and seat, as the sheet says: of the players who took at
    least one trump, those with the fewest, when the most took more."""
    holding = trumps >= 1
    most = np.where(holding, trumps, -1).max(axis=1, keepdims=True)
    fewest = np.where(holding, trumps, 99).min(axis=1, keepdims=True)
    return holding & (trumps == fewest) & (fewest < most)


@pytest.mark.parametrize("rules", [{}, {"trump_bonus": -1, "sole_bonus": -2}, {"penalty": 0},
                                   {"penalty": -1, "wild": "no-trump"}])
def test_out_trumped_rate_counts_the_fewest_holders_whatever_the_points(rules):
    # before: the rate counted a negative bonus: 55.9% at trump_bonus=-1 (the most's bonus), 0.0%
    # at penalty=0 (the out-trumped lose nothing), where the sheet's out-trumped are ~20%
    seats = play_chunk(spec("out-trumped", 4, n=400, rules=rules), 0).seats.sort("deal", "seat")
    trumps = seats["trumps"].to_numpy().reshape(-1, 4).astype(int)
    # no trump suit (a wild roll under no-trump) captures no trumps: nobody is out-trumped there
    expected = out_trumped_by_the_sheet(trumps).ravel()
    rate = analysis_of(get("out-trumped")).rates["out-trumped"]
    counted = seats.select(rate.alias("x"))["x"].to_numpy()
    assert expected.sum() > 50
    assert (counted == expected).all()


@pytest.fixture(scope="module")
def hearts_run(tmp_path_factory):
    """Hearts, ducker at every seat: one seat takes the queen of spades every deal."""
    out = tmp_path_factory.mktemp("hearts") / "h"
    r = cli("run", "--game", "hearts", "--n", "1500", "--seed", "3", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    return out, r.stdout


def seat_queen_rates(folder) -> list[float]:
    seats = pl.read_parquet(folder / "seats.parquet")
    return seats.group_by("seat").agg((pl.col("queen") > 0).mean()).sort("seat")["queen"].to_list()


def test_hearts_pooled_queen_is_not_printed_as_measured(hearts_run):
    # before: "By strategy (seats pooled)" printed queen 25.0% (23.2–26.9), and the strategy's
    # penalty table "Takes the queen of spades 25.0% (...)": 1/4 in every run, whatever the play
    folder, text = hearts_run
    pooled = text.split("By strategy (seats pooled)")[1].split("\n")[4]
    assert "ducker" in pooled and "1/4 by rule" in pooled and "25.0%" not in pooled.split("│")[-2]
    assert "Penalty cards by strategy" not in text
    assert "Penalty cards by seat" in text


def test_hearts_queen_verdicts_name_each_seats_risk(hearts_run):
    # before: the report's finding, verdict and headline figure, and review's hazard, were the
    # seats-pooled 25.0% (a seat takes the queen of spades in 25.0% of deals: common)
    from simtool.analysis.review import hazards
    from simtool.reports.balance import analyse

    folder, _ = hearts_run
    rates = seat_queen_rates(folder)
    top = int(np.argmax(rates))
    a = analyse(folder, charts=False)
    assert "queen rate (seats pooled)" not in a.figures
    assert [round(a.figures[f"seat {s} queen rate over fair share"].value, 9) for s in range(4)] == \
        [round(r - 0.25, 9) for r in rates]
    sentence = next(s for q, _, s in a.verdicts if "queen" in q)  # each seat's gap to its fair share
    assert "queen of spades" in sentence and "fair share, 25.0% of deals" in sentence
    assert any(f"most often seat {top}" in f and "1/4 by rule" in f for f in a.findings)
    h = next(h for h in hazards(get("hearts"), folder) if h["name"] == "queen")
    assert h["rate"] == pytest.approx(rates[top]) and h["sentence"] == sentence
    assert h["what"] == f"of deals, seat {top} (the most exposed)"


def test_hearts_queen_is_no_tuning_target():
    # before: tune accepted queen=0.2, a target no rule can reach (seats pooled it is always 1/p)
    from simtool.commands.tune import parse_objective
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match="queen is 1/p by rule"):
        parse_objective(get("hearts"), "queen=0.2")
    assert parse_objective(get("hearts"), "moon=0.01").figure == "moon"


def played_matches(lengths: dict[int, tuple[int, str]], p: int = 2):
    """Seat rows (one per round and seat) and match rows of matches of the given ``(rounds, how it
    ended)``: ``reached``, ``capped`` or ``small`` (the deck ran short)."""
    seats = pl.DataFrame([{"match": m, "round": r, "seat": s, "bid": 3, "made": True, "team_size": 1, "fallback": 0,
                           "tricks": 3, "score": 3, "hearts": 0, "queen": 0, "moon": 0, "bonus": 0,
                           "strategy": "random"}
                          for m, (rounds, _) in lengths.items() for r in range(rounds) for s in range(p)])
    matches = pl.DataFrame([{"match": m, "seat": s, "total": 9, "rounds": rounds, "capped": how == "capped",
                             "small_deck": how == "small"} for m, (rounds, how) in lengths.items() for s in range(p)])
    return seats.lazy(), matches.lazy()


@pytest.mark.parametrize("game,title", [("nine-lives", "Rounds until someone has 9 lives"),
                                        ("out-trumped", "Hands to reach 50"),
                                        ("hearts", "Hands until someone has 100 points")])
def test_match_lengths_count_only_the_matches_that_got_there(game, title):
    # before: "Rounds until someone has 9 lives: 4 matches, mean 70.8" (200 rounds of a capped
    # match, and the small deck's 71, counted as rounds to 9 lives)
    seats, matches = played_matches({0: (5, "reached"), 1: (7, "reached"), 2: (200, "capped"),
                                     3: (71, "small" if game == "nine-lives" else "reached")})
    got = dict(analysis_of(get(game)).tables(seats, ["match", "round"], matches))
    (name,) = [t for t in got if t.startswith(title)]
    row = got[name].row(0, named=True)
    reached = [5, 7] if game == "nine-lives" else [5, 7, 71]
    what = "rounds" if game == "nine-lives" else "hands"
    assert (row["matches"], row["got there"], row[f"capped at 200 {what}"]) == (4, len(reached), 1)
    assert row["mean"] == pytest.approx(np.mean(reached)) and row["max"] == max(reached)
    assert "that got there" in name


def test_match_lengths_where_no_match_got_there_give_no_length():
    seats, matches = played_matches({0: (200, "capped"), 1: (200, "capped")})
    (table,) = [t for name, t in analysis_of(get("out-trumped")).tables(seats, ["match", "round"], matches)
                if name.startswith("Hands to reach")]
    assert table.to_dicts() == [{"matches": 2, "got there": 0, "capped at 200 hands": 2}]


def test_a_reader_of_a_folder_being_written_names_the_writer(tmp_path):
    # before: "... is not a finished run folder (no run.json)", for a folder a run was writing
    import os
    import subprocess

    import simtool
    from simtool.errors import SimtoolError
    from simtool.pipeline.folders import RunWriter

    writer = RunWriter(tmp_path / "run", spec={"game": "hearts"})
    try:
        with pytest.raises(SimtoolError, match=rf"a run is being written there \(pid {os.getpid()}, started "
                                               r".*\); wait for it to end, or pick another folder"):
            simtool.metrics(tmp_path / "run")
    finally:
        writer.abort()
    # its writer killed: an interrupted run, which --resume finishes
    writer = RunWriter(tmp_path / "cut", spec={"game": "hearts"})
    gone = subprocess.Popen(["true"])
    gone.wait()
    (tmp_path / "cut" / "chunks" / "writer.json").write_text(
        (tmp_path / "cut" / "chunks" / "writer.json").read_text().replace(str(os.getpid()), str(gone.pid)))
    writer.lock.release()
    with pytest.raises(SimtoolError, match=r"holds an interrupted run \(its writer, pid \d+, has ended\); "
                                           r"finish it with simtool run --resume"):
        simtool.metrics(tmp_path / "cut")
    with pytest.raises(SimtoolError, match="is not a finished run folder"):
        simtool.metrics(tmp_path)


def ended_pid() -> int:
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


def test_a_writer_clears_the_temporary_files_of_killed_writers_only(tmp_path):
    # before: a `simtool report` killed (SIGKILL) while writing left .PID-HEX.report.html.tmp for good
    import os
    import time

    from simtool.reports.balance import write_page

    dead, live = ended_pid(), os.getpid()
    left = tmp_path / f".{dead}-0a1b2c3d.report.html.tmp"
    other = tmp_path / f".{dead}-99aa00ff.review.json.tmp"  # a killed review's, same folder
    kept = [tmp_path / f".{live}-0a1b2c3d.report.html.tmp",  # a writer still running
            tmp_path / "notes.tmp", tmp_path / f".{dead}-xyz.report.html.tmp", tmp_path / f"{dead}-0a1b2c3d.a.tmp",
            tmp_path / f".{dead}-0a1b2c3d.report.html.tmp.bak"]
    for f in (left, other, *kept):
        f.write_text("x")
        then = time.time() - 2 * 3600  # past DEAD_TEMP_AGE: a fresh one may be a writer's elsewhere
        os.utime(f, (then, then))
    folder = tmp_path / f".{dead}-12345678.d.tmp"  # a folder of that name is no temporary file of ours
    folder.mkdir()
    write_page(tmp_path / "report.html", "<html></html>")
    assert (tmp_path / "report.html").read_text() == "<html></html>"
    assert not left.exists() and not other.exists()
    assert all(f.read_text() == "x" for f in kept) and folder.is_dir()


HOSTILE = Path(__file__).parent / "plugins" / "hostile.py"


def test_api_timeout_errors_name_the_api_argument(tmp_path):
    # before: simtool.run(..., timeout=-1) said "bad --timeout -1", a timed-out strategy "did not
    # return within --timeout 0.3 s" and a dask run "--timeout needs --backend local": options the
    # Python caller never gave
    import simtool
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match=r"^bad timeout -1; expected seconds above 0") as e:
        simtool.run("black-white", n=10, timeout=-1, out=tmp_path / "a", jobs=1)
    assert "--timeout" not in str(e.value)
    with pytest.raises(SimtoolError, match=r"did not return within timeout=0.3 s") as e:
        simtool.run("black-white", n=10, seats={1: f"{HOSTILE}:sleeps"}, timeout=0.3, out=tmp_path / "b", jobs=1)
    assert "--timeout" not in str(e.value)
    with pytest.raises(SimtoolError, match=r"^timeout needs backend='local'") as e:
        simtool.run("black-white", n=10, timeout=5, backend="dask", out=tmp_path / "c", jobs=1)
    assert "--timeout" not in str(e.value)
    # the command line still names its options, and leaves the API's words to later API calls
    one_line_error(cli("run", "--n", "10", "--timeout", "-1", "--out", tmp_path / "d"), "bad --timeout '-1'")
    one_line_error(cli("run", "--n", "10", "--timeout", "5", "--backend", "dask", "--out", tmp_path / "e"),
                   "--timeout needs --backend local")
    with pytest.raises(SimtoolError, match=r"^bad timeout -1"):
        simtool.run("black-white", n=10, timeout=-1, out=tmp_path / "f", jobs=1)


@pytest.mark.parametrize("args", [["strategies"], ["games"], ["run", "--help"],
                                  ["replay", "--game", "black-white", "--seed", "1", "--deal", "0"]])
def test_a_listing_whose_reader_has_gone_ends_quietly_with_status_0(args):
    # before: `simtool strategies | head -1` ended with status 1 (rich's broken-pipe exit);
    # a reader gone before the first line is what `head -1` is to a long listing
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)  # the reader is gone before simtool writes a byte
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-c", "import sys; from simtool.cli import main; sys.exit(main())",
                           *args], stdout=write, stderr=subprocess.PIPE, env=env, timeout=120)
    os.close(write)
    assert (done.returncode, done.stderr.decode()) == (0, "")
