"""Leftovers of the hardening reviews, round 3: the queen of spades' verdict, tune's match
rounds, report -o onto a dangling link, --out with a newline, --resume of a file, integer
options written 1e3. Each test failed on the code before its fix."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simtool.analysis import verdicts
from simtool.cli import main
from simtool.games import get
from simtool.pipeline import runner

from .test_hardening_cli import main_error

BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q", "--n", "10", "--seed", "1"]


def test_queen_verdict_is_on_each_seats_gap_to_its_fair_share():
    # before: the most exposed seat's rate (always >= 1/p) worded as a hazard: 'Seat 2, the most
    # exposed, takes the queen of spades in 26.9% of deals ...: common', whatever the play
    even = [(s, 0.25 + d, 0.25 + d - 0.004, 0.25 + d + 0.004) for s, d in enumerate((0.002, -0.001, 0.0, -0.001))]
    v = verdicts.shared_verdict("queen", "takes the queen of spades", even, 4, 100_000)
    assert v.word == "fair"
    assert v.sentence.startswith("Every seat takes the queen of spades within 1 point of its fair share, 25.0% of "
                                 "deals: fair.")
    uneven = [(0, 0.24, 0.23, 0.25), (1, 0.25, 0.24, 0.26), (2, 0.269, 0.26, 0.278), (3, 0.241, 0.232, 0.25)]
    v = verdicts.shared_verdict("queen", "takes the queen of spades", uneven, 4, 10_000)
    assert v.word == "slight" and v.figures["seat"] == 2
    assert v.sentence.startswith("Seat 2 takes the queen of spades 1.9 points more often than its fair share, "
                                 "25.0% of deals (26.9%; 95% interval 1.0 to 2.8 points): slightly uneven.")
    strong = [(0, 0.20, 0.19, 0.21), (1, 0.30, 0.29, 0.31), (2, 0.25, 0.24, 0.26)]
    assert verdicts.shared_verdict("queen", "takes the queen of spades", strong, 3, 10_000).word == "strong"


def test_tune_match_rounds_counts_only_the_matches_that_reached_the_end(tmp_path):
    # before: measure_main took every match's rounds, a capped match's 200 as a length to the end
    from simtool.commands.tune import match_rounds
    from simtool.errors import SimtoolError

    from .test_hardening_leftovers2 import played_matches

    seats, matches = played_matches({0: (5, "reached"), 1: (7, "reached"), 2: (200, "capped"),
                                     3: (71, "small")})
    # the capped match at the cap, a length it surely reached (test_final_review_a)
    for game, reached in (("out-trumped", [5, 7, 200, 71]), ("nine-lives", [5, 7, 200])):  # the deck ran short
        value, low, high = match_rounds(get(game), seats, matches, tmp_path)
        assert value == pytest.approx(np.mean(reached)) and low < value < high
    seats, matches = played_matches({0: (200, "capped"), 1: (200, "capped")})
    with pytest.raises(SimtoolError, match="no match of .* reached the game's end .*2 by the 200-round cap"):
        match_rounds(get("out-trumped"), seats, matches, tmp_path)


def test_a_report_onto_a_link_to_nothing_is_refused_and_the_link_kept(capsys, tmp_path):
    # before: the page was written in the link's place: the user's link was gone
    run, link = tmp_path / "run", tmp_path / "dangling.html"
    assert main(["run", *BW, "--out", str(run)]) == 0
    capsys.readouterr()
    link.symlink_to(tmp_path / "gone.html")
    main_error(capsys, ["report", str(run), "-o", str(link)],
               f"cannot write report {link}: {link} is a link to {tmp_path / 'gone.html'}, which does not exist")
    assert link.is_symlink() and not (tmp_path / "gone.html").exists()


def test_an_out_folder_with_a_line_break_is_refused_before_anything_is_written(capsys, tmp_path, monkeypatch):
    # before: `run -q --out 'a<newline>b'` played, and printed the folder raw: a script reading
    # the folder from stdout saw two lines, neither of them the folder
    monkeypatch.chdir(tmp_path)
    text = main_error(capsys, ["run", *BW, "--out", "a\nb"], "bad --out 'a\\nb'; expected a path "
                                                             "without a line break")
    assert "\n" not in text and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind,words", [("file", "it is a file"), ("folder", "it is a folder holding no simtool run")])
def test_resume_of_what_is_no_run_says_there_is_nothing_to_resume(capsys, tmp_path, kind, words):
    # before: "output folder X is not empty and holds no simtool run; choose a new or empty folder"
    target = tmp_path / "x"
    if kind == "file":
        target.write_text("mine")
    else:
        target.mkdir()
        (target / "notes.txt").write_text("mine")
    text = main_error(capsys, ["run", "--resume", str(target), "-q"],
                      f"nothing to resume in {target}: {words}; --resume takes the folder of an interrupted run")
    assert "choose a new or empty folder" not in text
    assert (target.read_text() if kind == "file" else (target / "notes.txt").read_text()) == "mine"


def test_a_grid_files_seed_is_read_as_seed_reads_one():
    # before: `--seed 1e3` ran, `seed = 1e3` in a grid file was "bad seed 1000.0"
    from simtool.commands import sweep
    from simtool.errors import SimtoolError

    for written in (1e3, "1e3", "1_000", 1000):
        assert sweep.make_grid({"games": ["black-white"], "seed": written}).seed == 1000
    with pytest.raises(SimtoolError, match=r"^bad seed 1\.5; expected a whole number 0\.\.2\*\*128$"):
        sweep.make_grid({"games": ["black-white"], "seed": 1.5})


def test_integer_options_take_what_n_takes(capsys, tmp_path):
    # before: --lead-history, --trials, --deal and --match refused 1e3 with typer's
    # "'1e3' is not a valid integer." (a usage block, not simtool's one line)
    run = tmp_path / "run"
    assert main(["run", *BW, "--lead-history", "1e1", "--out", str(run)]) == 0
    assert json.loads((run / "run.json").read_text())["lead_history"]["per_chunk"] == 10
    capsys.readouterr()
    assert main(["replay", "--seed", "1", "--deal", "1e1", "--n", "1e2"]) == 0
    assert "deal 10" in capsys.readouterr().out.lower()
    main_error(capsys, ["tune", "--game", "kansas-city", "--vary", "pass_count", "--objective", "seat_spread",
                        "--trials", "0e3", "--out", str(tmp_path / "t")], "bad --trials 0")  # read, then checked
    for argv, flag in ((["run", *BW, "--lead-history", "1.5"], "--lead-history"),
                       (["replay", "--seed", "1", "--deal", "1.5"], "--deal"),
                       (["replay", "--seed", "1", "--match", "x"], "--match"),
                       (["tune", "--game", "kansas-city", "--vary", "pass_count", "--objective", "seat_spread",
                         "--trials", "2.5", "--out", str(tmp_path / "t")], "--trials")):
        text = main_error(capsys, argv, f"bad {flag} '", "expected a whole number")
        assert "not a valid integer" not in text


@pytest.mark.parametrize("given,words", [
    ("", "bad --restrictions '': it names no restriction (empty); give NAME,NAME,... or leave it out"),
    (" , ", "bad --restrictions ' , ': it names no restriction (empty)"),
    ("no-upgrade,,pass-high", "bad --restrictions 'no-upgrade,,pass-high': it holds an empty name; expected "
                              "NAME,NAME,..."),
])
def test_empty_restrictions_name_the_problem_and_the_valid_ones(capsys, tmp_path, given, words):
    # before: `restrict --restrictions ''` said "bad restrictions ''; expected NAME,NAME,...", and
    # restrict.plan(restrictions=[]) from Python "kansas-city declares no restrictions to measure"
    from simtool.commands import restrict
    from simtool.errors import SimtoolError

    main_error(capsys, ["restrict", "--game", "kansas-city", "--restrictions", given, "--n", "100",
                        "--out", tmp_path / "r"], words, "valid for kansas-city: no-upgrade, pass-high")
    assert not (tmp_path / "r").exists()
    with pytest.raises(SimtoolError, match=r"^bad restrictions \[\]: it names no restriction \(empty\).*"
                                           r"valid for kansas-city: no-upgrade, pass-high$"):
        restrict.plan("kansas-city", restrictions=[])


FRAGILE = '''
import os
from strategies import strategy

CALLS = [0]


@strategy("fragile", "plays the first legal option; raises once it has been asked FRAGILE_AFTER times")
def fragile(view, rng):
    CALLS[0] += 1
    if CALLS[0] > int(os.environ.get("FRAGILE_AFTER", "1000000000")):
        raise RuntimeError("fragile gave up")
    return view.mask.argmax(axis=1)
'''
ASKED_PER_CHUNK = 46
"""Times seat 0 decides in a chunk of 3-player Black & White (each decision of a whole chunk at once)."""


def fragile(tmp_path, name="fragile.py"):
    """The plugin's line-up entry, in a folder of its own (files beside a plugin are the run's),
    and its call counter (this process plays a --jobs 1 run)."""
    import strategies

    folder = tmp_path / name.removesuffix(".py")
    folder.mkdir()
    (folder / name).write_text(FRAGILE)
    entry = f"{folder / name}:fragile"
    return entry, strategies.resolve(entry, "black-white").choose.__globals__["CALLS"]


def fragile_run(entry, out, *more):
    return ["run", "--game", "black-white", "--seat", f"0={entry}", "--n", str(5 * 2048), "--seed", "3",
            "--jobs", "1", "-q", "--out", str(out), *more]


def test_a_strategy_failing_late_keeps_the_finished_chunks_for_resume(capsys, tmp_path, monkeypatch, small_chunks):
    # before: the run folder was removed, its two finished chunks with it
    from simtool.pipeline.folders import run_kind

    entry, calls = fragile(tmp_path)
    out, whole = tmp_path / "run", tmp_path / "whole"
    monkeypatch.setenv("FRAGILE_AFTER", str(2 * ASKED_PER_CHUNK + 1))  # in the third chunk
    main_error(capsys, fragile_run(entry, out), "strategy 'fragile.py:fragile' raised RuntimeError: fragile gave up",
               f"; 2 finished chunks are kept, the run unfinished: with the strategy unchanged (the cause lay "
               f"elsewhere: a --timeout too short, a file it reads), finish it with: simtool run --resume {out}; "
               f"a changed strategy plays it again with --force")
    assert run_kind(out) == "interrupted" and not (out / "run.json").exists() and not (out / "seats.parquet").exists()
    assert len(list(out.glob("chunks/seats-*.parquet"))) == 2
    # a resume whose strategy fails again keeps what it found and what it played
    calls[0] = 0
    monkeypatch.setenv("FRAGILE_AFTER", str(ASKED_PER_CHUNK + 1))
    main_error(capsys, ["run", "--resume", out, "-q", "--jobs", "1"], "3 finished chunks are kept, the run unfinished")
    assert run_kind(out) == "interrupted" and len(list(out.glob("chunks/seats-*.parquet"))) == 3
    # the cause gone, the resume finishes the run: the tables of an unbroken one
    monkeypatch.delenv("FRAGILE_AFTER")
    assert main(["run", "--resume", str(out), "-q", "--jobs", "1"]) == 0
    assert main(fragile_run(entry, whole)) == 0
    import polars as pl

    assert pl.read_parquet(out / "seats.parquet").equals(pl.read_parquet(whole / "seats.parquet"))


def test_a_strategy_changed_after_it_failed_is_not_resumed_into_the_chunks_of_the_old_one(capsys, tmp_path,
                                                                                        monkeypatch, small_chunks):
    entry, _ = fragile(tmp_path)
    out = tmp_path / "run"
    monkeypatch.setenv("FRAGILE_AFTER", str(ASKED_PER_CHUNK + 1))
    main_error(capsys, fragile_run(entry, out), "1 finished chunk is kept")
    plugin = tmp_path / "fragile" / "fragile.py"
    last = "view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)"
    plugin.write_text(plugin.read_text().replace("view.mask.argmax(axis=1)", last))  # fixed: another strategy
    kept = sorted(p.read_bytes() for p in out.glob("chunks/*"))
    main_error(capsys, ["run", "--resume", out, "-q", "--jobs", "1"],
               f"strategy plugin {plugin} has changed since the run started; one run plays one version of it")
    assert sorted(p.read_bytes() for p in out.glob("chunks/*")) == kept
    monkeypatch.delenv("FRAGILE_AFTER")
    assert main(fragile_run(entry, out, "--force")) == 0  # as the error said


def test_a_strategy_failing_in_the_first_chunk_leaves_nothing(capsys, tmp_path, monkeypatch, small_chunks):
    entry, _ = fragile(tmp_path)
    out = tmp_path / "run"
    monkeypatch.setenv("FRAGILE_AFTER", "3")
    text = main_error(capsys, fragile_run(entry, out), "raised RuntimeError: fragile gave up")
    assert "kept" not in text and not out.exists()


def test_a_plan_whose_strategy_fails_keeps_its_finished_chunks_for_its_resume(capsys, tmp_path, monkeypatch,
                                                                             small_chunks, charts_undrawn):
    # before: every cell's chunks were removed, the cells that had played through too
    from simtool.commands import plans
    from simtool.errors import StrategyError
    from simtool.pipeline.runner import make_spec

    entry, calls = fragile(tmp_path)
    root, whole = tmp_path / "sweep", tmp_path / "whole"
    specs = [make_spec("black-white", 3, 3 * 2048, "random", seed=5),
             make_spec("black-white", 3, 3 * 2048, "random", {0: entry}, seed=5)]
    monkeypatch.setenv("FRAGILE_AFTER", str(ASKED_PER_CHUNK + 1))  # in the second cell's second chunk
    with pytest.raises(StrategyError, match=f"4 finished chunks are kept, the sweep unfinished: .* finish it with: "
                                            f"simtool sweep --resume {root};"):
        plans.play(specs, root, jobs=1)
    assert not list(root.rglob("run.json")) and len(list(root.rglob("chunks/seats-*.parquet"))) == 4
    monkeypatch.delenv("FRAGILE_AFTER")
    assert main(["sweep", "--resume", str(root), "-q", "--jobs", "1", "-o", str(tmp_path / "sweep.html")]) == 0
    plans.play(specs, whole, jobs=1)
    import polars as pl

    for cell in whole.iterdir():
        if cell.is_dir():
            assert pl.read_parquet(root / cell.name / "seats.parquet").equals(pl.read_parquet(cell / "seats.parquet"))


def _killed_at_3(index: int) -> None:
    """Chunk 3's worker ends, once chunks 0 to 2 are whole in the folder ``$KILLED_AFTER``."""
    import os
    import time
    from pathlib import Path

    if index == 3:
        parts, waited = Path(os.environ["KILLED_AFTER"]), 0
        while not all((parts / f"sums-{i:06d}.json").is_file() for i in range(3)) and waited < 600:
            time.sleep(0.05)
            waited += 1
        os.kill(os.getpid(), 9)  # as the kernel's out-of-memory killer would


_PLAY, _PLAY_AND_TABLES = runner.play_outcome, runner.play_in_worker


def _outcome_killed_at_3(spec, index, *args):
    _killed_at_3(index)
    return _PLAY(spec, index, *args)


def _tables_killed_at_3(task, *args):
    _killed_at_3(task.index)
    return _PLAY_AND_TABLES(task, *args)


def test_a_worker_ending_while_a_plugin_plays_keeps_the_finished_chunks(tmp_path, monkeypatch, small_chunks):
    # before: "a worker process ended without a word ... while playing the plugin strategies": the
    # folder removed, though the system's memory killer ends a plugin's worker as it ends any
    from simtool.commands.run import execute_run
    from simtool.errors import StrategyError
    from simtool.pipeline.folders import run_kind
    from simtool.pipeline.runner import make_spec

    if not runner.FORK:
        pytest.skip("forked workers are used on Linux only")
    entry, _ = fragile(tmp_path)
    out = tmp_path / "run"
    # the worker plays (play_outcome) or plays and makes the tables (play_in_worker), as polars allows
    monkeypatch.setattr(runner, "play_outcome", _outcome_killed_at_3)
    monkeypatch.setattr(runner, "play_in_worker", _tables_killed_at_3)
    spec = make_spec("black-white", 3, 4 * 2048, "random", {0: entry}, seed=3)  # chunk 3 the last
    monkeypatch.setenv("KILLED_AFTER", str(out / "chunks"))
    with pytest.raises(StrategyError, match="while playing the plugin strategies .*; 3 finished chunks are "
                                            f"kept, the run unfinished: .* simtool run --resume {out};"):
        execute_run(spec, 2, out, False, None, keep=False)
    assert run_kind(out) == "interrupted" and len(list(out.glob("chunks/sums-*.json"))) == 3


def claiming(tmp_path, monkeypatch, entries: str) -> None:
    """An installed package (its metadata only) declaring the entry points ``entries``."""
    info = tmp_path / "site" / "my_cards-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-cards\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entries)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))


def test_a_run_of_a_name_an_installed_package_also_takes_says_the_built_in_plays(capsys, tmp_path, monkeypatch,
                                                                                 charts_undrawn):
    # before: `simtool games` and `simtool strategies` named the shadowing, `run` played the built-in
    # Hearts silently for the designer who had installed their own "hearts"
    claiming(tmp_path, monkeypatch, "[simtool.games]\nhearts = my_cards:GAME\n\n"
                                    "[simtool.strategies]\nducker = my_cards:duck\nbalance = my_cards:balance\n")
    out = tmp_path / "run"
    assert main(["run", "--game", "hearts", "--seat", "1=hunter~keep-queen", "--n", "10", "--seed", "1", "--jobs",
                 "1", "-q", "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert said.out == f"{out}\n"
    assert said.err.splitlines() == [
        "warning: installed game 'hearts' (entry point my_cards:GAME) takes the name of a built-in game: --game "
        "hearts plays the built-in one; give yours another name",
        "warning: installed strategy 'ducker' (entry point my_cards:duck) takes the name of a built-in strategy: "
        "'ducker' plays the built-in one; give yours another name"]
    assert json.loads((out / "run.json").read_text())["title"] == get("hearts").title  # the built-in played
    # a run of names no package takes says nothing; a sweep says it once a name, not once a run
    assert main(["run", "--game", "kansas-city", "--n", "10", "--seed", "1", "--jobs", "1", "-q",
                 "--out", str(tmp_path / "kc")]) == 0
    assert capsys.readouterr().err == ""
    assert main(["sweep", "--game", "black-white", "--players", "3,4", "--lineup", "balance", "--n", "10",
                 "--seed", "1", "--jobs", "1", "-q", "--out", str(tmp_path / "sweep.html"),
                 "--runs", str(tmp_path / "runs")]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "warning: installed strategy 'balance' (entry point my_cards:balance) takes the name of a built-in "
        "strategy: 'balance' plays the built-in one; give yours another name"]


def test_the_python_api_warns_of_a_shadowed_name(tmp_path, monkeypatch):
    import simtool
    from simtool.errors import ShadowedWarning

    claiming(tmp_path, monkeypatch, "[simtool.strategies]\nrandom = my_cards:pick\n")
    with pytest.warns(ShadowedWarning, match="^installed strategy 'random' .* 'random' plays the built-in one"):
        simtool.run("black-white", 10, strategy="random", seed=1)


HEURISTIC = '''
def lowest(view, rng):
    """Plays its first legal option."""
    return view.mask.argmax(axis=1)
'''


def test_a_resume_refuses_an_installed_strategy_changed_since_its_chunks_were_played(tmp_path, monkeypatch,
                                                                                      small_chunks):
    # before: a plugin file's checksum was recorded and checked, an installed package's strategy was
    # not: edited (pip install -e) or updated after a failure, it played the rest of the run's chunks
    import sys

    import polars as pl

    from simtool.commands.run import execute_run
    from simtool.errors import SimtoolError
    from simtool.pipeline import executor
    from simtool.pipeline.runner import make_spec

    from .test_pipeline import stop_after

    site = tmp_path / "site"
    claiming(tmp_path, monkeypatch, "[simtool.strategies]\nlowest = my_heuristics:lowest\n")
    (site / "my_heuristics.py").write_text(HEURISTIC)
    try:
        spec = make_spec("black-white", 3, 4 * 2048, "random", {0: "lowest"}, seed=3)
        out, whole = tmp_path / "run", tmp_path / "whole"
        execute_run(spec, 1, whole, False, None, keep=False)
        with monkeypatch.context() as patch:
            patch.setattr(executor, "execute_tasks", stop_after(2))
            with pytest.raises(KeyboardInterrupt):
                execute_run(spec, 1, out, False, None, keep=False)
        saved = json.loads((out / "chunks" / "spec.json").read_text())["installed_by"]
        assert list(saved) == ["strategy lowest"]
        assert saved["strategy lowest"].startswith("my_heuristics:lowest of my-cards 0.1, source sha256 ")
        (site / "my_heuristics.py").write_text(HEURISTIC.replace("argmax", "argmin"))
        with pytest.raises(SimtoolError, match=f"^cannot resume {out}: installed strategy lowest changed since its "
                                               f"chunks were played \\(then my_heuristics:lowest .*; now "
                                               f"my_heuristics:lowest .*\\); one run plays one version"):
            execute_run(None, 1, out, False, None, keep=False, resume=True)
        assert len(list(out.glob("chunks/seats-*.parquet"))) == 2  # kept as they were
        (site / "my_heuristics.py").write_text(HEURISTIC)  # the version that played them
        execute_run(None, 1, out, False, None, keep=False, resume=True)
        assert pl.read_parquet(out / "seats.parquet").equals(pl.read_parquet(whole / "seats.parquet"))
    finally:
        sys.modules.pop("my_heuristics", None)


def test_a_plugin_file_edited_between_two_runs_of_one_process_plays_as_edited(tmp_path):
    # before: the module imported by the first run was played by the second (a notebook's), under
    # the checksum of the edited file: results of the old code filed as the new code's
    import simtool

    first = "def last(view, rng):\n    return view.mask.argmax(axis=1)\n"
    edited = "def last(view, rng):\n    return view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)\n"
    plugin, copy = tmp_path / "mine" / "last.py", tmp_path / "copy" / "last.py"
    for path, text in ((plugin, first), (copy, edited)):
        path.parent.mkdir()
        path.write_text(text)

    def played(path):
        return simtool.run("black-white", 200, players=3, seats={0: f"{path}:last"}, seed=2).seats

    before = played(plugin)
    plugin.write_text(edited)
    after = played(plugin)
    assert not after.equals(before) and after.equals(played(copy))


def test_a_game_plugin_failing_late_keeps_the_finished_chunks_for_resume(capsys, tmp_path, monkeypatch,
                                                                         small_chunks):
    # before: "game 'climb' (...) raised ..." took the run folder back, its finished chunks with it
    import sys

    import polars as pl

    from simtool.pipeline.folders import run_kind

    from .test_hardening_round5 import TOY
    from .test_hardening_round12 import installed

    failing = TOY.replace("    def deal(self, rng, match: Match, rnd: int) -> State:\n",
                          "    def deal(self, rng, match: Match, rnd: int) -> State:\n"
                          "        DEALT.append(rnd)\n"
                          "        if len(DEALT) > int(__import__('os').environ.get('CLIMB_FAILS_AFTER', '1000000')):\n"
                          "            raise ValueError('the deck ran out')\n") + "\nDEALT = []\n"
    installed(tmp_path, monkeypatch, "failing_climb", failing, "failing-climb", "climb")
    out, whole = tmp_path / "run", tmp_path / "whole"
    argv = ["run", "--game", "climb", "--n", str(4 * 2048), "--seed", "3", "--jobs", "1", "-q"]
    try:
        monkeypatch.setenv("CLIMB_FAILS_AFTER", "2")  # a deal a chunk: in the third
        main_error(capsys, [*argv, "--out", out], "game 'climb' (failing_climb) raised ValueError: the deck ran out",
                   "; 2 finished chunks are kept, the run unfinished: with the game unchanged (the cause lay "
                   f"elsewhere: a --timeout too short, a file it reads), finish it with: simtool run --resume {out}; "
                   "a changed game plays it again with --force")
        assert run_kind(out) == "interrupted" and len(list(out.glob("chunks/seats-*.parquet"))) == 2
        monkeypatch.delenv("CLIMB_FAILS_AFTER")
        assert main(["run", "--resume", str(out), "-q", "--jobs", "1"]) == 0
        assert main([*argv, "--out", str(whole)]) == 0
        assert pl.read_parquet(out / "seats.parquet").equals(pl.read_parquet(whole / "seats.parquet"))
    finally:
        sys.modules.pop("failing_climb", None)


def test_a_name_two_installed_packages_declare_says_which_plays(capsys, tmp_path, monkeypatch):
    # before: the first package found on sys.path played, silently; the other package's author
    # (a renamed package left installed beside its new name) took its results for theirs
    import sys

    from .test_hardening_round5 import TOY

    for folder, module, text in (("later", "later_pkg", "raise ImportError('never imported')\n"),
                                 ("first", "first_pkg", TOY + "\n" + HEURISTIC)):
        site = tmp_path / folder
        info = site / f"{module}-0.1.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
        (info / "entry_points.txt").write_text(f"[simtool.games]\nclimb = {module}:GAME\n\n"
                                               f"[simtool.strategies]\nlowest = {module}:lowest\n")
        (site / f"{module}.py").write_text(text)
        monkeypatch.syspath_prepend(str(site))  # "first" ends up first on sys.path
    try:
        assert main(["run", "--game", "climb", "--strategy", "lowest", "--n", "10", "--seed", "1", "--jobs", "1",
                     "-q", "--out", str(tmp_path / "run")]) == 0
        assert capsys.readouterr().err.splitlines() == [
            "warning: installed game 'climb' is declared by 2 entry points (first_pkg:GAME, later_pkg:GAME): "
            "--game climb plays the first, first_pkg:GAME; uninstall or rename the others",
            "warning: installed strategy 'lowest' is declared by 2 entry points (first_pkg:lowest, later_pkg:lowest): "
            "'lowest' plays the first, first_pkg:lowest; uninstall or rename the others"]
    finally:
        sys.modules.pop("first_pkg", None)
