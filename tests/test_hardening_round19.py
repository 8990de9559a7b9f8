"""Hostile round 19: the Python API as a notebook uses it, a review's --vs-rule and --baseline,
and the luck figure with no interval below 100 deals. Each test failed on the code before its fix."""

from __future__ import annotations

import copy
import re

import pytest

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("n", [50, 99])
def test_a_duplicate_runs_luck_sentence_under_100_deals_claims_no_bootstrap_interval(tmp_path, n):
    # before: '... 1.0% (n/a) ... 98.6% (n/a): shares of the variance of a seat's score, from the
    # duplicate deals, with 95% bootstrap intervals over deals.', on the console and the report
    out = tmp_path / "d"
    r = cli("run", "--game", "black-white", "--n", n, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert "bootstrap" not in said and "% (n/a)" not in said.split("Luck against skill: the")[1]
    assert "from the duplicate deals, too few for a 95% interval (it takes 100 or more)." in said
    r = cli("report", out, "--out", tmp_path / "report.html")
    assert r.exit_code == 0, r.output
    page = _text((tmp_path / "report.html").read_text())
    assert "bootstrap intervals over deals" not in page
    assert "too few for a 95% interval (it takes 100 or more)" in page


def test_a_duplicate_runs_luck_sentence_of_100_deals_keeps_its_intervals(tmp_path):
    r = cli("run", "--game", "black-white", "--n", 100, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "--out", tmp_path / "d")
    assert r.exit_code == 0, r.output
    assert "with 95% bootstrap intervals over deals." in " ".join(r.stdout.split())


def test_a_duplicate_run_of_one_deal_says_it_has_no_split_of_the_variance(tmp_path):
    # before: 'the cards decide about n/a of a deal's score ... with 95% bootstrap intervals'
    r = cli("run", "--game", "black-white", "--n", 1, "--duplicate", "--strategy", "random", "--seed", "1",
            "--jobs", "1", "--out", tmp_path / "d")
    assert r.exit_code == 0, r.output
    said = " ".join(r.stdout.split())
    assert ("Luck against skill: no split of the variance of a seat's score between the cards and the play (it "
            "takes two or more duplicate deals whose results vary).") in said
    assert "about n/a" not in said


def test_a_reviews_luck_table_under_100_deals_claims_no_bootstrap_interval(bw_review, tmp_path):
    # before: 'Shares of the variance of a seat's score (..., 64 deals, bootstrap intervals over
    # deals)' above a column of n/a
    from simtool.reports import review as pages

    result = copy.deepcopy(bw_review[1])
    luck = result["questions"]["luck"]
    luck["n"], luck["ci"] = 64, [None, None]
    for part in luck["parts"]:
        part["share_low"] = part["share_high"] = None
    pages.write(tmp_path, result)
    page = _text((tmp_path / "review.html").read_text())
    assert "64 deals, too few for a 95% interval)" in page and "bootstrap intervals over deals)" not in page
    pages.write(tmp_path, bw_review[1])
    assert "128 deals, bootstrap intervals over deals)" in _text((tmp_path / "review.html").read_text())


@pytest.fixture(scope="module")
def results():
    import warnings

    import simtool

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"bw": simtool.run("black-white", n=200, strategy="random", seed=1),
                "dup": simtool.run("black-white", n=40, strategy="random", seed=1, duplicate=True),
                "match": simtool.run("black-white", n=20, strategy="random", seed=1, unit="match")}


def _changed(result, **tables):
    import dataclasses

    return dataclasses.replace(result, **tables)


@pytest.mark.parametrize("run", ["bw", "dup", "match"])
def test_a_results_tables_read_its_rows_in_any_order_as_the_run_wrote_them(results, run):
    # before: a notebook's result.seats.sort("score") (or a sample) ended tables() in
    # 'ValueError: seat rows are not grouped p to a deal in seat order' from simtool/stats.py
    import polars as pl

    r = results[run]
    kind = "matches" if run == "match" else "seats"
    shuffled = _changed(r, **{kind: getattr(r, kind).sample(fraction=1.0, shuffle=True, seed=3)})
    want, got = r.tables(), shuffled.tables()
    assert want.keys() == got.keys()
    for title, frame in want.items():
        assert frame.equals(got[title]), title
    assert isinstance(got["By seat and strategy"], pl.DataFrame)


def test_a_results_table_cut_to_some_seats_or_players_is_one_line_from_tables(results):
    import polars as pl

    from simtool.errors import SimtoolError

    r = results["bw"]
    cut = _changed(r, seats=r.seats.filter(pl.col("seat") != 1))
    with pytest.raises(SimtoolError, match=r"^result\.seats does not hold one row per deal and seat \(seats 0\.\.2\) "
                                           r"of this 3-player run; give its tables as simtool\.run returned them"):
        cut.tables()
    with pytest.raises(SimtoolError, match=r"^result\.seats does not hold one row per deal and seat \(seats 0\.\.3\) "
                                           r"of this 4-player run"):
        _changed(r, meta={**r.meta, "players": 4}).tables()


def test_a_duplicate_results_table_cut_to_some_rotations_is_one_line_from_tables(results):
    # before: result.seats.filter(pl.col("rotation") < 2) of a 3-player duplicate run (one row
    # per deal, rotation and seat still) ended tables() in numpy's 'ValueError: cannot reshape
    # array of size 240 into shape (3,3)'
    import polars as pl

    from simtool.errors import SimtoolError

    r = results["dup"]
    with pytest.raises(SimtoolError, match=r"^result\.seats does not hold one row per deal and rotation and seat "
                                           r"\(seats 0\.\.2\) of this 3-player run"):
        _changed(r, seats=r.seats.filter(pl.col("rotation") < 2)).tables()
    some = _changed(r, seats=r.seats.filter(pl.col("deal") < pl.col("deal").min() + 20)).tables()  # some deals
    assert some["By seat and strategy"].height > 0


@pytest.mark.parametrize("call", ["summary", "tables", "metrics"])
def test_a_results_frames_replaced_by_what_cannot_be_read_are_one_line(results, call):
    # before: no rows -> polars' ColumnNotFoundError 'unable to find column "score"'; a pandas
    # frame -> "AttributeError: 'DataFrame' object has no attribute 'lazy'" (metrics: 'sort');
    # metrics of seats without 'win' -> ColumnNotFoundError, of a LazyFrame -> TypeError
    import polars as pl

    import simtool
    from simtool.errors import SimtoolError

    r = results["bw"]

    def ask(result):
        return simtool.metrics(result) if call == "metrics" else getattr(result, call)()

    with pytest.raises(SimtoolError, match="pandas DataFrame; expected a polars DataFrame"):
        ask(_changed(r, seats=r.seats.to_pandas()))
    with pytest.raises(SimtoolError, match="lack"):
        ask(_changed(r, seats=r.seats.drop("win")))
    if call != "metrics":  # the metrics of no deals are no figures (as before)
        with pytest.raises(SimtoolError, match=r"^result\.seats holds no rows; give its tables with at least one "
                                               r"deal$"):
            ask(_changed(r, seats=r.seats.head(0)))
    lazy = ask(_changed(r, seats=r.seats.lazy()))
    plain = ask(r)
    if call == "metrics":
        assert lazy == plain
    elif call == "summary":
        assert lazy.equals(plain)
    else:
        assert all(lazy[t].equals(plain[t]) for t in plain)
    assert isinstance(r.seats, pl.DataFrame)


def test_a_review_run_again_into_its_folder_with_other_settings_names_what_differs(tmp_path, monkeypatch):
    # before: a notebook's review cell run again with vs_rules={'deck': 32} (or another player
    # count, effort or game) was told '... holds the runs of another review, or of one whose
    # sizes.json is missing or unreadable; run that review's own command to go on', naming neither
    from simtool.commands.review import Sizes, review
    from simtool.errors import SimtoolError

    # each play at its least, and the search's plays left out as for a game no search plays (a deal
    # of search at every seat, five plays a version, was most of the CPU): what is read is the
    # refusal, before anything is played again
    tiny = Sizes(deals=1, matches=1, restrictions=1, duplicate=1, search=1, random=1, leads=1)
    monkeypatch.setattr("simtool.commands.review.search_names", lambda game_id: (None, None))
    out = tmp_path / "rv"
    review("black-white", out, seed=1, jobs=1, sizes=tiny, vs_rules={"deck": 30})
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    for kwargs, said in (
            ({"vs_rules": {"deck": 32}}, "vs_rules deck=30 (this one deck=32)"),
            ({}, "vs_rules deck=30 (this one none)"),
            ({"vs_rules": {"deck": 30}, "players": 4}, "players 3 (this one 4)"),
            ({"vs_rules": {"deck": 30}, "effort": "standard"}, "effort quick (this one standard)"),
            ({"rules": {"deck": 30}, "vs_rules": {"deck": 36}},
             "the rules deck=36 (this one deck=30); vs_rules deck=30 (this one deck=36)")):
        with pytest.raises(SimtoolError) as caught:
            review("black-white", out, seed=1, jobs=1, sizes=tiny, **kwargs)
        assert str(caught.value) == (f"{out} holds a review played with {said}; give the same to go on there, "
                                     f"or choose a new folder for out")
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    r = cli("review", "-g", "black-white", "--out", out, "--vs-rule", "deck=34", "--seed", 1, "-q", "-j", 1)
    assert r.exit_code == 2
    assert "holds a review played with --vs-rule deck=30 (this one deck=34); give the same" in r.output


@pytest.mark.parametrize(("game", "rule", "expected"), [
    ("kansas-city", "four_bonus", "a whole number -10..10"),
    ("kansas-city", "pass_count", "one of 3, 0, 1, 2"),
    ("black-white", "hand_size", "sheet or a whole number 1..32")])
def test_numpys_true_for_a_rule_is_refused_as_pythons_is(tmp_path, game, rule, expected):
    # before: rules={'four_bonus': np.True_} (a cell of a notebook's frame of flags) played
    # four_bonus=1, pass_count=1, hand_size=1, where True itself is refused
    import numpy as np

    import simtool
    from simtool.commands.review import Sizes
    from simtool.errors import SimtoolError

    message = f"^bad rule {rule} np.True_ for {game}; expected {expected}$"
    with pytest.raises(SimtoolError, match=message):
        simtool.run(game, n=8, strategy="random", seed=1, rules={rule: np.True_})
    with pytest.raises(SimtoolError, match=message):
        simtool.review.review(game, tmp_path / "rv", seed=1, jobs=1, vs_rules={rule: np.True_},
                              sizes=Sizes(64, 2, 16, 8, 2, 64, 2))
    assert not (tmp_path / "rv" / "runs").exists()
    assert simtool.run(game, n=8, strategy="random", seed=1, rules={rule: np.int64(2)}).meta["rules"][rule] == 2


def test_a_ladder_climbed_again_after_its_plugin_changed_names_the_file_in_one_short_line(tmp_path):
    # before: the refusal quoted both records of the plugin whole, the SHA-256 of every file
    # beside it (a notebook's folder: kilobytes in one line), and blamed 'the ladder, or a
    # default of simtool's'
    import simtool
    from simtool.errors import SimtoolError

    folder = tmp_path / "plugins"
    folder.mkdir()
    for i in range(30):  # a notebook's folder: its outputs beside the plugin
        (folder / f"out{i}.html").write_text(str(i))
    plugin = folder / "mine.py"
    plugin.write_text("from simtool import bits\n\n\ndef mine(view, rng):\n    return bits.lowest(view.legal)\n")
    rungs, runs = ["random", f"{plugin}:mine"], tmp_path / "ladder"
    simtool.ladder.climb("black-white", runs, n=60, rungs=rungs, jobs=1, seed=1)
    plugin.write_text(plugin.read_text().replace("bits.lowest(view.legal)", "bits.highest(view.legal)"))
    with pytest.raises(SimtoolError) as caught:
        simtool.ladder.climb("black-white", runs, n=60, rungs=rungs, jobs=1, seed=1)
    said = str(caught.value)
    assert re.search(rf"holds a run played with other settings: strategy plugin {re.escape(str(plugin))} "
                     r"\(sha256 [0-9a-f]{12}, now [0-9a-f]{12}\) \(a plugin's file, or one beside it, changed\); "
                     r"play it again with force=True, or choose another folder$", said), said
    assert len(said) < 300 + 3 * len(str(tmp_path)) and "out1.html" not in said
    (folder / "out3.html").write_text("changed")
    (folder / "weights.csv").write_text("1,2")
    with pytest.raises(SimtoolError, match=rf"files beside {re.escape(str(plugin))} changed: out3\.html, "
                                           r"weights\.csv \(a plugin's file, or one beside it, changed\)"):
        simtool.ladder.climb("black-white", runs, n=60, rungs=rungs, jobs=1, seed=1)


def test_a_folder_of_runs_given_for_a_run_names_its_runs(tmp_path):
    # before: 'simtool report RUNS' of a sweep's (ladder's, review's) folder said only 'RUNS is not
    # a finished run folder (no run.json)', simtool.metrics(RUNS) too; 'simtool report RUNS/*'
    # took in its plan.json: 'RUNS/plan.json is a file, not a run folder; give the run folder'
    import simtool
    from simtool.errors import SimtoolError

    runs = tmp_path / "sweep"
    r = cli("sweep", "-g", "black-white", "-r", "deck=30,36", "-n", 40, "--seed", 1, "-j", 1, "-q", "--runs", runs,
            "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    r = cli("report", runs, "-o", tmp_path / "r.html")
    assert r.exit_code == 2
    assert f"{runs} is not a run folder but holds run folders; give them: {runs}/black-white_3p_" in r.output
    r = cli("report", *sorted(runs.iterdir()), "-o", tmp_path / "r.html")
    assert r.exit_code == 2
    assert f"{runs}/plan.json is a file, not a run folder; give the run folders beside it only, as {runs}/*/" \
        in " ".join(r.output.split())
    with pytest.raises(SimtoolError, match="is not a run folder but holds run folders; give them: "):
        simtool.metrics(runs)
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(("call", "said"), [
    (lambda s: s.run("black-white", n=5, sead=1),
     "simtool.run() takes no argument 'sead' (did you mean seed?); valid: game, n, players, strategy, seats, "
     "rules, unit, seed, jobs, out, force, progress, backend, scheduler, rotate, duplicate, timeout, "
     "lead_history, isolate"),
    (lambda s: s.review.review("black-white", "rv", vs_rule={"deck": 30}),
     "simtool.review.review() takes no argument 'vs_rule' (did you mean vs_rules?); valid: game, out, players, "
     "rules, effort, vs_rules, baseline, seed, jobs, progress, sizes, backend, scheduler"),
    (lambda s: s.review.review("black-white", "rv", 3),
     "simtool.review.review(): too many positional arguments; it takes game, out, then by name: players, rules, "
     "effort, vs_rules, baseline, seed, jobs, progress, sizes, backend, scheduler"),
    (lambda s: s.ladder.climb("black-white", "ld", rung=["random"]), "simtool.ladder.climb() takes no argument "
     "'rung' (did you mean rungs?); valid: game, runs_dir, players, rules, n, seed, rungs, unit, jobs, force, "
     "backend, scheduler, progress, report, timeout, duplicate, reference"),
    (lambda s: s.restrict.measure("black-white", "rs", restriction=["x"]), "simtool.restrict.measure() takes no "
     "argument 'restriction' (did you mean restrictions?); valid: game, runs_dir, players, rules, n, seed, "
     "strategy, restrictions, jobs, force, backend, scheduler, progress, report, timeout"),
    (lambda s: s.tune.configure("black-white", ["deck"], objectives=["seat_spread:min"]),
     "simtool.tune.configure() takes no argument 'objectives' (did you mean objective?); valid: game, vary, "
     "objective, players, trials, n, lineup, strong, weak, seed, rules"),
    (lambda s: s.tune.tune(None, "tu", jbos=1), "simtool.tune.tune() takes no argument 'jbos' (did you mean "
     "jobs?); valid: config, out, jobs, backend, scheduler, on_trial"),
    (lambda s: s.metrics(source="run"), "simtool.metrics() takes no argument 'source' (did you mean sources?); "
     "valid: sources")])
def test_a_keyword_typo_in_a_notebook_names_the_arguments_the_function_takes(tmp_path, monkeypatch, call, said):
    # before: Python's "TypeError: review() got an unexpected keyword argument 'vs_rule'", naming
    # no valid one (and nothing written, as now)
    import simtool
    from simtool.errors import SimtoolError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SimtoolError) as caught:
        call(simtool)
    assert str(caught.value) == said
    assert list(tmp_path.iterdir()) == []


def test_a_run_never_replaces_or_joins_the_runs_a_review_answers_from(bw_review, tmp_path):
    # before: simtool.run(..., out=REVIEW/runs/seats/RUN, force=True) (and 'simtool run --force')
    # replaced a run the review.json answers from, and a new run there sat among the review's
    import shutil

    import simtool
    from simtool.errors import SimtoolError

    out = tmp_path / "rv"
    shutil.copytree(bw_review[0], out)
    runs = out / "runs" / "seats"
    taken = next(p for p in sorted(runs.iterdir()) if (p / "run.json").is_file())
    before = (taken / "seats.parquet").read_bytes()
    for folder, force in ((taken, True), (runs / "mine", False)):
        with pytest.raises(SimtoolError, match=rf"^{re.escape(str(folder))} is in the runs of a review "
                                               r"\(review.json\), which answers from them; simtool run never plays "
                                               r"there: choose another folder$"):
            simtool.run("black-white", n=20, seed=1, out=folder, force=force)
    r = cli("run", "-g", "black-white", "-n", 20, "--force", "--out", taken)
    assert r.exit_code == 2 and "is in the runs of a review" in r.output
    assert (taken / "seats.parquet").read_bytes() == before and not (runs / "mine").exists()


def test_a_run_folder_that_does_not_exist_is_said_not_to(tmp_path):
    # before: 'simtool report runs/kc-aa' (a typo) read 'runs/kc-aa is not a finished run folder
    # (no run.json)', as of a folder that is there without its run.json
    import simtool
    from simtool.errors import SimtoolError

    gone = tmp_path / "kc-aa"
    r = cli("report", gone, "-o", tmp_path / "r.html")
    assert r.exit_code == 2
    assert " ".join(r.output.split()) == f"error: {gone} is not a finished run folder: there is no such folder"
    with pytest.raises(SimtoolError, match=r"is not a finished run folder: there is no such folder$"):
        simtool.metrics(gone)
    gone.mkdir()
    with pytest.raises(SimtoolError, match=r"is not a finished run folder \(no run\.json\)$"):
        simtool.metrics(gone)
