"""Hostile round 21: the command line's shell (replay, restrict, ladder, games, strategies,
sweep and its grid files, every option's forms). Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

from simtool import cli
from simtool.errors import SimtoolError


@pytest.mark.parametrize("strategy", ["bogus", "target", "balance@mistakes=7"])
def test_a_strategy_that_plays_no_seat_is_still_checked(tmp_path, capsys, strategy):
    """Every seat given by --seat: a --strategy no game has was taken without a word."""
    out = tmp_path / "run"
    code = cli.main(["run", "-g", "black-white", "-n", "1", "-q", "--out", str(out), "--strategy", strategy,
                     "--seat", "0=random", "--seat", "1=random", "--seat", "2=random"])
    assert code == 2
    assert "valid" in capsys.readouterr().err or strategy.startswith("balance")
    assert not out.exists()
    assert cli.main(["replay", "--seed", "1", "--deal", "1", "--strategy", strategy, "--seat", "0=random",
                     "--seat", "1=random", "--seat", "2=random"]) == 2


@pytest.mark.parametrize("unit, said", [("deal", "1 deal in"), ("match", "1 match in")])
def test_a_sweep_of_one_deal_says_one_deal(tmp_path, charts_undrawn, capsys, unit, said):
    """The line before a sweep plays read '1 cell, 1 deals in 1 chunk'."""
    assert cli.main(["sweep", "-g", "black-white", "-n", "1", "--unit", unit, "--seed", "1",
                     "--runs", str(tmp_path / "runs"), "-o", str(tmp_path / "page.html")]) == 0
    assert f"sweep: 1 cell, {said} 1 chunk, seed 1" in capsys.readouterr().out


def _stopped(*_args, **_kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command, planner", [
    (["sweep", "-g", "black-white"], "simtool.commands.sweep.plan"),
    (["ladder", "--rungs", "random,balance"], "simtool.commands.ladder.plan"),
    (["restrict"], "simtool.commands.restrict.plan"),
])
def test_ctrl_c_while_planning_offers_no_resume_of_a_plan_never_written(tmp_path, capsys, monkeypatch,
                                                                         command, planner):
    """A grid of millions of cells takes minutes to plan: Ctrl-C then said 'finished chunks are
    kept: finish the sweep with simtool sweep --resume RUNS' of a folder that did not exist."""
    runs = tmp_path / "runs"
    monkeypatch.setattr(planner, _stopped)
    assert cli.main([*command, "-n", "1", "-q", "--runs" if command[0] != "restrict" else "-o", str(runs)]) == 130
    err = capsys.readouterr().err
    assert "--resume" not in err and "no result was written" in err, err
    assert not runs.exists()


def test_ctrl_c_while_planning_does_not_offer_the_plan_already_in_the_folder(tmp_path, charts_undrawn, capsys,
                                                                              monkeypatch):
    runs, page = tmp_path / "runs", tmp_path / "page.html"
    base = ["sweep", "-g", "black-white", "-n", "1", "-q", "--seed", "1", "--runs", str(runs), "-o", str(page)]
    assert cli.main(base) == 0
    monkeypatch.setattr("simtool.commands.sweep.plan", _stopped)
    assert cli.main([*base, "-p", "2", "--force"]) == 130  # another grid: resuming would play the old one
    assert "--resume" not in capsys.readouterr().err


def test_ctrl_c_once_the_plan_is_saved_still_offers_the_resume(tmp_path, capsys, monkeypatch):
    runs = tmp_path / "runs"
    monkeypatch.setattr("simtool.pipeline.executor.execute", _saves_then_stops)
    assert cli.main(["sweep", "-g", "black-white", "-n", "1", "-q", "--runs", str(runs)]) == 130
    assert f"simtool sweep --resume {runs}" in capsys.readouterr().err


def _saves_then_stops(plan, **_kwargs):
    from simtool.pipeline.executor import plan_record
    from simtool.pipeline.folders import write_json

    plan.root.mkdir(parents=True)
    write_json(plan.root / "plan.json", plan_record(plan))
    raise KeyboardInterrupt


def test_a_grid_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Notepad's "UTF-8 with BOM": 'cannot read grid file g.toml: Invalid statement (at line 1,
    column 1)', naming nothing the user could see in the file."""
    from simtool.commands import sweep

    grid = tmp_path / "g.toml"
    grid.write_bytes(b'\xef\xbb\xbfgames = ["black-white"]\nn = 5\n')
    assert sweep.read_toml(grid) == {"games": ["black-white"], "n": 5}
    grid.write_bytes(b'\xef\xbb\xbfgames = ["black-white"]\xff\n')
    with pytest.raises(SimtoolError, match="byte 0xff at offset 26"):
        sweep.read_toml(grid)


def test_replay_docs_ask_for_n_wherever_the_last_chunk_was_cut(capsys):
    """docs/cli.md asked for --n only 'where the run played fewer deals than a chunk': a run of
    40,000 deals played other deals 32768..39999 than replay without --n wrote out."""
    text = " ".join(open("docs/cli.md", encoding="utf-8").read().split())
    assert "fewer deals than a chunk" not in text
    assert "where the deal lies in the run's last chunk and the run cut it short" in text
    hands = []
    for n in ([], ["-n", "40000"], ["-n", "65536"]):
        assert cli.main(["replay", "--seed", "5", "--deal", "35000", *n]) == 0
        hands.append([line for line in capsys.readouterr().out.splitlines() if " holds " in line])
    assert hands[0] != hands[1] and hands[0] == hands[2]


def test_the_games_listing_header_says_how_its_rows_read(capsys, monkeypatch):
    """'rule options: default (valid values)' above 'pass_count: 3, 0, 1, 2' (no parentheses) and
    'limit: sheet (3 at 4p, ...) or 1..14' (the parentheses the sheet's meaning, not values)."""
    monkeypatch.setenv("COLUMNS", "400")
    assert cli.main(["games"]) == 0
    text = capsys.readouterr().out
    assert "rule options: the default first, then the valid values" in text
    assert "pass_count: 3, 0, 1, 2" in text  # 3, the sheet's, is the default


def test_a_missing_command_names_the_commands(capsys):
    """'simtool --' said 'error: Missing command.' and no command."""
    assert cli.main(["--"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Missing command.") and "valid: games, ladder, replay" in err, err


def test_a_grid_files_score_table_in_one_pair_of_brackets_says_to_nest_it(tmp_path):
    """score_table = [5, 5, 5, 0] is four values to vary: refused as "bad rule score_table '5'
    ...; expected ... 2-15 whole numbers, comma-separated", as if 5,5,5,0 were not that."""
    from simtool.commands import sweep

    with pytest.raises(SimtoolError, match=r"^rule score_table = \[5, 5, 5, 0\] lists 4 values to vary, "
                                           r".* write score_table = \[\[5, 5, 5, 0\]\] for one table"):
        sweep.make_grid({"games": ["kansas-city"], "rules": {"score_table": [5, 5, 5, 0]}})
    grid = sweep.make_grid({"games": ["kansas-city"], "rules": {"score_table": [[5, 5, 5, 0], "sheet"]}})
    assert grid.rules == {"score_table": ["5,5,5,0", "sheet"]}


LONG = "a" * 5000


@pytest.mark.parametrize("args, said", [
    (["-g", LONG], "unknown game 'aaa"),
    (["-s", LONG], "unknown strategy 'aaa"),
    (["-r", f"{LONG}=1"], "unknown rule 'aaa"),
])
def test_an_unknown_name_is_quoted_short(capsys, args, said):
    """A 5,000-character name was quoted whole in 'unknown game ...' (strategy, rule, unit,
    backend, restriction): a line of 5,100 characters, where every other value is cut at 60."""
    assert cli.main(["replay", "--seed", "1", "--deal", "0", *args]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err) < 300, len(err)


@pytest.mark.parametrize("command", [["ladder", "--unit", LONG], ["restrict", "--restrictions", LONG],
                                     ["run", "--backend", LONG], ["sweep", "-g", "black-white", "-r", f"{LONG}=1"]])
def test_an_unknown_name_is_quoted_short_in_every_command(capsys, command):
    assert cli.main([*command, "-n", "1"]) == 2
    assert len(capsys.readouterr().err) < 300


def test_replay_of_a_duplicate_nine_lives_match_names_its_own_option(capsys):
    """'use --duplicate with --unit deal' was said to replay, which has no --unit."""
    assert cli.main(["replay", "-g", "nine-lives", "--seed", "1", "--match", "0", "--duplicate"]) == 2
    err = capsys.readouterr().err
    assert "--unit" not in err and "give --deal N instead of --match" in err, err


@pytest.mark.parametrize("command", [
    ["sweep", "-g", "black-white", "-o", ""],
    ["ladder", "--rungs", "random,duck", "-o", ""],
    ["restrict", "--report", ""],
    ["tune", "--vary", "pass_count", "--objective", "seat_spread", "--report", ""],
])
def test_an_empty_report_name_is_refused_as_a_blank_one_is(tmp_path, capsys, monkeypatch, command):
    """'-o \"$PAGE\"' with PAGE unset: sweep and ladder wrote reports/RUNS.html, restrict wrote no
    page, exit 0, where report -o '' and -o ' ' everywhere were refused."""
    monkeypatch.chdir(tmp_path)  # where a default page would go
    runs = tmp_path / "runs"
    where = ["--out", str(runs)] if command[0] in ("restrict", "tune") else ["--runs", str(runs)]
    assert cli.main([*command, "-n", "2", "-q", *where]) == 2
    assert "report '' is a blank name; give a file name such as report.html" in capsys.readouterr().err
    assert not runs.exists()


@pytest.mark.parametrize("n", ["", " "])
def test_replay_refuses_an_empty_n(capsys, n):
    """replay -n '' wrote deal 0 out as a run of one deal played it, without the line that says
    which run that is."""
    assert cli.main(["replay", "--seed", "1", "--deal", "0", "-n", n]) == 2
    assert f"bad --n '{n}'; expected a positive whole number" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["", " "])
def test_a_blank_grid_file_name_is_refused_as_blank(capsys, name):
    """sweep '' read Path(''), the working folder: 'cannot read grid file .: Is a directory'."""
    assert cli.main(["sweep", name]) == 2
    assert f"bad grid file '{name}'; expected a TOML file such as grid.toml" in capsys.readouterr().err
