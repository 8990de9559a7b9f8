"""Hostile round 16: the Python API in notebooks, two writers of one folder, rule values at
their edges, reviews compared. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import shutil

import numpy as np
import polars as pl
import pytest

import simtool
from simtool.analysis import metrics
from simtool.pipeline import folders
from simtool.reports import balance

from .conftest import REVIEW
from .test_cli import cli
from .test_data_safety import interrupted_run


def one_line(result, *parts) -> str:
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and "Traceback" not in line, line
    for part in parts:
        assert part in line, line
    return line


def test_a_run_into_a_folder_another_run_is_writing_names_that_run_not_an_interrupted_one(tmp_path):
    # before: "output folder X holds an interrupted run; finish it with --resume X, or replace it
    # with --force" while the first run was still playing (and both of those were then refused)
    out = tmp_path / "run"
    writer = folders.RunWriter(out, spec={"game": "black-white"})
    try:
        for extra in ((), ("--resume",)):
            args = ("run", "--resume", out) if extra else ("run", "-g", "black-white", "-n", "100", "--out", out)
            line = one_line(cli(*args), f"output folder {out} is being written by another simtool run", "pid")
            assert "interrupted" not in line
        assert json.loads((out / "chunks" / "spec.json").read_text())["game"] == "black-white"
    finally:
        writer.abort()


@pytest.fixture(scope="module")
def random_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("r16") / "random"
    simtool.run("black-white", n=200, seed=1, strategy="random", jobs=1, out=folder)
    return folder


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0, True, None])
def test_cardstocks_fairness_of_a_seat_the_run_does_not_have_is_named(random_run, seat):
    # before: seat 3 of 3 and seat "0" were an IndexError, seat True or None a ValueError from
    # numpy; seat -1 was seat 2's figure labelled "seat -1's win share"
    with pytest.raises(simtool.SimtoolError, match=r"^bad seat .*; expected a seat of .*3 players, 0 to 2$"):
        metrics.fairness(random_run, seat=seat)
    with pytest.raises(simtool.SimtoolError, match=r"^bad play None; expected a strategy's name"):
        metrics.fairness(random_run, play=None)  # before: "run it with --strategy None"
    figure = metrics.fairness(random_run, seat=np.int64(2))
    assert figure == metrics.fairness(random_run, seat=2) and figure.estimator.startswith("seat 2's")


def test_metrics_given_a_table_instead_of_its_run_says_so_in_one_line(random_run):
    # before: the frame was read as a list of its columns, and the error quoted the first column
    # whole, over a dozen lines ("bad source shape: (600,) Series: 'deal' [i64] [ 0 0 0 ...")
    seats = simtool.run("black-white", n=50, seed=1, jobs=1).seats
    for given, kind in ((seats, "DataFrame"), (seats.lazy(), "LazyFrame"), (seats.to_pandas(), "DataFrame"),
                        (seats["win"], "Series"), ([random_run, seats], "DataFrame")):
        with pytest.raises(simtool.SimtoolError) as caught:
            simtool.metrics(given)
        assert str(caught.value) == (f"bad source a table ({kind}); expected a finished run folder (str or "
                                     f"pathlib.Path) or a result of simtool.run")


def test_ratings_given_one_folder_instead_of_a_list_name_the_argument(random_run):
    # before: rating_table("runs/x") read the name letter by letter: "r is not a finished run folder"
    for given in (str(random_run), random_run, 5, None, ["ok", 3]):
        with pytest.raises(simtool.SimtoolError, match=r"^bad folders .*; expected a list of finished run folders"):
            balance.rating_table(given)
    assert balance.rating_table(p for p in [random_run]) is None  # a glob's generator still reads


@pytest.mark.parametrize("given", ["2.0", "2e0", 2.0, np.float64(2)])
def test_a_listed_whole_number_rule_reads_as_a_ranges_number_does(tmp_path, given):
    # before: pass_count=2.0 was "bad rule pass_count '2.0' for kansas-city; expected one of 3, 0,
    # 1, 2" while four_bonus=2.0 (a range) read as 2 (docs/cli.md: 2.0 is the number it writes)
    plain = simtool.run("kansas-city", n=50, seed=1, jobs=1, rules={"pass_count": 2})
    r = simtool.run("kansas-city", n=50, seed=1, jobs=1, rules={"pass_count": given})
    assert r.meta["rules"] == plain.meta["rules"] and r.seats.equals(plain.seats)
    assert cli("run", "-g", "kansas-city", "--rule", f"pass_count={given}", "-n", "50", "--seed", "1", "-j", "1",
               "--out", tmp_path / "a", "-q").exit_code == 0
    assert json.loads((tmp_path / "a" / "run.json").read_text())["rules"]["pass_count"] == 2
    for wrong in ("2.5", "4.0", "nan", "True"):
        one_line(cli("run", "-g", "kansas-city", "--rule", f"pass_count={wrong}", "-n", "50", "--out", tmp_path / "b"),
                 f"bad rule pass_count '{wrong}' for kansas-city; expected one of 3, 0, 1, 2")
    with pytest.raises(simtool.SimtoolError, match="bad rule pass_count True"):
        simtool.run("kansas-city", n=50, rules={"pass_count": True})


def test_a_second_review_into_a_folder_a_review_is_writing_is_refused_and_the_first_finishes(tmp_path, monkeypatch):
    # before: a review started while another played into the same --out (both past their checks
    # before either had a runs/ folder) rewrote the first's sizes.json, played and wrote its own
    # review.json; the first then stopped: "runs/seats/... holds a run played with other settings:
    # seed 2 (now 1) ...; play them again with --force" (which review does not take)
    from simtool.commands import review as reviews

    # each play at its least (no random or lead plays, and no search plays, as for a game no search
    # plays): what is read is the folder's guard and the first review's files, whatever its sizes
    # (REVIEW's search and random deals were most of this test's CPU, and then a deal of search at
    # every seat in five plays)
    sizes = reviews.Sizes(deals=64, matches=2, restrictions=16, duplicate=8, search=1)
    monkeypatch.setattr(reviews, "search_names", lambda game_id: (None, None))
    out, real = tmp_path / "r", reviews.play_all
    second: list = []

    def meanwhile(*args, **kw):
        if not second:
            second.append("started")
            try:
                second[0] = reviews.review("black-white", out, seed=2, jobs=1, sizes=sizes)
            except simtool.SimtoolError as exc:
                second[0] = exc
        return real(*args, **kw)

    monkeypatch.setattr(reviews, "play_all", meanwhile)
    first = reviews.review("black-white", out, seed=1, jobs=1, sizes=sizes)
    (refused,) = second
    assert isinstance(refused, simtool.SimtoolError), "the second review played"
    assert str(refused).startswith(f"output folder {out} is being written by another simtool review (pid ")
    assert first["seed"] == 1 and json.loads((out / "review.json").read_text())["seed"] == 1
    assert json.loads((out / "sizes.json").read_text())["seed"] == 1
    assert sorted(p.name for p in out.iterdir()) == ["review.html", "review.json", "runs", "sizes.json"]


def test_a_review_whose_cells_a_later_default_changed_offers_no_force_it_does_not_take(bw_review, tmp_path,
                                                                                      monkeypatch):
    # before: "... (the review, or a default of simtool's, changed); play them again with --force,
    # or choose another folder": simtool review has no --force
    import shutil

    from simtool.commands import review as reviews
    from simtool.pipeline import runner

    out = tmp_path / "bw"
    shutil.copytree(bw_review[0], out)
    monkeypatch.setattr(runner, "CHUNK", runner.CHUNK // 2)  # a later simtool's default
    with pytest.raises(simtool.SimtoolError) as caught:
        reviews.review("black-white", out, seed=3, jobs=1, sizes=reviews.Sizes(**REVIEW))
    message = str(caught.value)
    assert "played with other settings: chunk 32768 (now 16384)" in message and "--force" not in message
    assert message.endswith("(the review, or a default of simtool's, changed); play them again in a new out folder")


@pytest.mark.parametrize("unit", ["deal", "match"])
def test_another_chunks_files_copied_under_a_chunks_name_are_played_again_not_joined(tmp_path, small_chunks, unit):
    # before: chunk 0's tables and sums copied as chunk 3's (a restored backup, a copy by hand)
    # read whole with their checksum: the resume joined them and ended 0 with a run.json that
    # looked finished, deals (matches) 0.. twice, which every reader then refused ("deal numbers
    # are not 0 to ... in order"), the chunks played before gone
    out = tmp_path / "run"
    n = 5 * 2048 - 100 if unit == "deal" else 5 * 1024 - 50
    whole = simtool.run("black-white", n=n, seed=3, unit=unit, jobs=1, strategy="random")
    interrupted_run(out, 2, n=n, unit=unit)
    parts = out / "chunks"
    for name in ("seats", "matches")[:2 if unit == "match" else 1]:
        shutil.copy(parts / f"{name}-000000.parquet", parts / f"{name}-000003.parquet")
    shutil.copy(parts / "sums-000000.json", parts / "sums-000003.json")
    assert cli("run", "--resume", out, "-q").exit_code == 0
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)
    assert simtool.metrics(out)["advantage_p1"]["value"] == simtool.metrics(whole)["advantage_p1"]["value"]


def test_a_plan_into_a_runs_folder_another_plan_is_playing_names_it_and_leaves_it_alone(tmp_path):
    # before: "RUNS holds an unfinished ladder of 2 other runs (2 left); finish it with simtool
    # sweep --resume RUNS, choose another folder, or delete RUNS/plan.json to give it up" while
    # the ladder played on: a resume would have met its locked cells, and deleting plan.json let
    # the second plan play beside the first, its plan.json then naming only the second's cells
    runs, second = tmp_path / "runs", []

    def meanwhile(done, total):
        if not second:
            second.append("started")
            try:
                second[0] = simtool.restrict.measure("kansas-city", runs, n=200, seed=1, jobs=1)
            except simtool.SimtoolError as exc:
                second[0] = exc

    ladder, paths = simtool.ladder.climb("black-white", runs, n=200, seed=1, jobs=1, rungs=["random", "balance"],
                                         progress=meanwhile)
    (refused,) = second
    assert isinstance(refused, simtool.SimtoolError), "the second plan played"
    assert str(refused).startswith(f"output folder {runs} is being written by another simtool command (pid ")
    assert json.loads((runs / "plan.json").read_text())["command"] == "ladder"
    assert sorted(p.name for p in runs.iterdir()) == sorted([*(p.name for p in paths), "plan.json"])


def test_a_report_never_replaces_a_reviews_or_a_tunings_page(bw_review, tmp_path, charts_undrawn):
    # before: `simtool report RUN -o REVIEW/review.html` replaced the review's page with a balance
    # report (exit 0), its review.json left beside a page of something else: a page simtool
    # wrote counted as "a simtool report" whatever it was
    out = tmp_path / "bw"
    shutil.copytree(bw_review[0], out)
    run = tmp_path / "run"
    simtool.run("black-white", n=100, seed=1, jobs=1, out=run)
    page = (out / "review.html").read_bytes()
    one_line(cli("report", run, "-o", out / "review.html"),
             f"{out / 'review.html'} is a simtool review page, not a balance report")
    assert (out / "review.html").read_bytes() == page
    # a review page written before pages said their kind is told by its review.json beside it
    (out / "review.html").write_bytes(page.replace(b'<meta name="simtool-page" content="review">\n', b""))
    one_line(cli("report", run, "-o", out / "review.html"), "is a simtool review page, not a balance report")
    # a report replaces a report, as before
    assert cli("report", run, "-o", tmp_path / "r.html").exit_code == 0
    assert cli("report", run, "-o", tmp_path / "r.html").exit_code == 0


def test_a_baseline_given_as_the_reviews_file_names_its_folder(bw_review, tmp_path):
    # before: "--baseline r/review.json holds no review.json; give the --out folder of an earlier
    # simtool review", of the very file
    given = bw_review[0] / "review.json"
    line = one_line(cli("review", "-g", "black-white", "--out", tmp_path / "r", "--baseline", given),
                    f"--baseline {given} is a file; give the folder that holds it, --baseline {bw_review[0]}")
    assert "holds no review.json" not in line and not (tmp_path / "r").exists()


def test_a_runs_own_file_given_for_the_run_names_its_folder(random_run, tmp_path):
    # before: "r/run.json is not a finished run folder (no run.json)", of the very file
    for name in ("run.json", "seats.parquet"):
        given = random_run / name
        one_line(cli("report", given, "-o", tmp_path / "page.html"),
                 f"{given} is a file, not a run folder; give the run folder that holds it, {random_run}")
        with pytest.raises(simtool.SimtoolError, match="is a file, not a run folder; give the run folder that"):
            simtool.metrics(given)
    stranger = tmp_path / "notes.txt"
    stranger.write_text("mine")
    one_line(cli("report", stranger, "-o", tmp_path / "page.html"), f"{stranger} is a file, not a run folder")
    assert not (tmp_path / "page.html").exists()


def test_a_reader_meeting_a_run_being_replaced_is_told_so(tmp_path, monkeypatch):
    # before: --force took the tables away before run.json, and a reader in between was told
    # "seats.parquet is missing; the run folder is incomplete: run it again", of a run then
    # being written
    from pathlib import Path

    out, seen = tmp_path / "run", []
    simtool.run("black-white", n=100, seed=1, jobs=1, out=out)
    unlink = Path.unlink

    def reading_meanwhile(self, *args, **kw):
        unlink(self, *args, **kw)
        if self.parent == out and not seen:
            try:
                simtool.metrics(out)
            except simtool.SimtoolError as exc:
                seen.append(str(exc))

    monkeypatch.setattr(Path, "unlink", reading_meanwhile)
    simtool.run("black-white", n=100, seed=2, jobs=1, out=out, force=True)
    assert seen and seen[0].startswith(f"{out} is not finished: a run is being written there (pid "), seen


def test_a_reviews_progress_that_is_no_function_is_told_the_call_a_review_makes(tmp_path):
    # before: "bad progress 5; expected a function progress(done, total), or None": a review
    # calls progress(question, done, total), and such a function then failed in its first call
    from simtool.commands import review as reviews

    with pytest.raises(simtool.SimtoolError, match=r"^bad progress 5; expected a function "
                                                   r"progress\(question, done, total\), or None$"):
        reviews.review("black-white", tmp_path / "r", progress=5, sizes=reviews.Sizes(**REVIEW))
    assert not (tmp_path / "r").exists()


def test_a_run_into_a_file_says_it_is_a_file(tmp_path):
    # before: "output folder notes.txt is not empty and holds no simtool run", of a file
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    for force in ((), ("--force",)):
        line = one_line(cli("run", "-g", "black-white", "-n", "100", "--out", notes, *force),
                        f"output folder {notes} is a file; choose a new or empty folder for the run")
        assert "not empty" not in line
    assert notes.read_text() == "mine"


def test_metrics_of_runs_of_two_games_player_counts_or_rules_are_refused(random_run, tmp_path):
    # before: each metric came from the first run it fitted, whatever its game: simtool.metrics
    # of a 3-player and a 4-player run gave fairness at 3 players and "fairness (seat 3)" from
    # the 4-player run in one dict, read as one game's figures
    for name, kw in (("four", {"players": 4}), ("deck", {"rules": {"deck": 40}}),
                     ("hearts", {"game": "hearts"})):
        other = tmp_path / name
        simtool.run(**{"game": "black-white", **kw}, n=100, seed=1, strategy="random", jobs=1, out=other)
        with pytest.raises(simtool.SimtoolError, match=rf"^metrics are of one game: {random_run} is black-white at "
                                                      rf"3 players \(deck=36, hand_size=sheet\), {other} is "):
            simtool.metrics([random_run, other])
    assert simtool.metrics([random_run, random_run]) == simtool.metrics(random_run)


def test_a_sweep_of_one_cell_says_one_cell(tmp_path, charts_undrawn):
    # before: "1 cells in RUNS; report PAGE"
    r = cli("sweep", "-g", "black-white", "-n", "100", "-j", "1", "--runs", tmp_path / "runs",
            "-o", tmp_path / "s.html")
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())  # the console wraps long paths at its width
    assert f"1 cell in {tmp_path / 'runs'}; report {tmp_path / 's.html'}" in said and "1 cells" not in said
