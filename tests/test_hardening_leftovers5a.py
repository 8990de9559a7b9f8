"""Leftovers (5a): a line-up's ``default``, messages of the Python API, a grid file's numbers, an
isolated plugin's empty error, a plan's resume advice and plugin paths holding ``@`` (each test
failed on the code before its fix)."""

from __future__ import annotations

import json

import pytest

import simtool

from .conftest import stopped_after
from .test_cli import cli, one_line_error


def test_default_names_the_games_default_strategy_at_any_seat_from_python_and_the_command_line(tmp_path):
    # before: simtool.run(seats={0: "default"}) and `run --seat 0=default` were refused, "unknown
    # strategy 'default'", though a sweep's line-up and a play-out policy read it as the game's
    # default; after: every line-up reads it so, recorded by the strategy's own name
    named = simtool.run("black-white", n=60, players=3, seats={0: "default"}, strategy="random", seed=1)
    plain = simtool.run("black-white", n=60, players=3, seats={0: "balance"}, strategy="random", seed=1)
    assert named.spec.lineup == plain.spec.lineup == ("balance", "random", "random")
    assert named.seats.equals(plain.seats)
    out = tmp_path / "kc"
    r = cli("run", "--game", "kansas-city", "--n", "40", "--seed", "1", "--strategy", "default",
            "--seat", "0=default@under=1~no-upgrade", "--jobs", "1", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["lineup"] == ["target@under=1~no-upgrade"] + ["target"] * 3
    assert simtool.restrict.plan("kansas-city", n=40, seed=1, strategy="default",
                                 restrictions=["no-upgrade"])[1][0]["restrict"]["strategy"] == "target"


def test_the_python_api_of_tune_and_review_names_its_arguments_and_the_command_line_its_options(tmp_path):
    # before: tune.configure(trials=2.0) said "bad --trials 2.0" (and --objective, --vary, --rule,
    # --strong, --weak, review's --vs-rule and --baseline likewise), options a Python caller never
    # gave; after: the arguments, as simtool.run's messages name them, and the options from the CLI
    from simtool.commands import tune

    base = {"game": "kansas-city", "vary": ["pass_count"], "objective": ["skill:max"]}
    for given, message in [
        ({"trials": 2.0}, "bad trials 2.0; expected a whole number, 1 or more (at most 2^63 - 1)"),
        ({"objective": []}, "give at least one objective, such as seat_spread:min"),
        ({"objective": ["skill", "skill"]}, "an objective is given twice"),
        ({"vary": ["nope"]}, "unknown rule 'nope' to vary for kansas-city"),
        ({"vary": ["pass_count=2"]}, "bad vary pass_count=2 for kansas-city: name two values or more to vary "
                                     "(valid: 0, 1, 2, 3); fix one value with rules"),
        ({"rules": {"pass_count": 2}}, "rule pass_count is both varied and fixed with rules; give one"),
        ({"strong": "random"}, "skill compares two strategies; strong and weak are both random"),
    ]:
        try:
            tune.configure(**base | given)
        except simtool.SimtoolError as exc:
            assert message in str(exc) and "--" not in str(exc), (given, str(exc))
        else:
            raise AssertionError(f"{given} was taken")
    for given, message in [
        ({"vs_rules": {"pass_count": 3}}, "vs_rules pass_count=3 gives the rules under review"),
        ({"vs_rules": {"pass_count": 2}, "baseline": tmp_path}, "give vs_rules or baseline, not both"),
        ({"baseline": tmp_path}, f"baseline {tmp_path} holds no review.json; give the out folder"),
    ]:
        try:
            simtool.review.review("kansas-city", tmp_path / "r", **given)
        except simtool.SimtoolError as exc:
            assert message in str(exc) and "--" not in str(exc), (given, str(exc))
        else:
            raise AssertionError(f"{given} was taken")
    r = cli("tune", "--game", "kansas-city", "--vary", "pass_count=2", "--objective", "skill", "--out", tmp_path / "t")
    assert r.exit_code == 2 and "bad --vary pass_count=2" in r.output and "with --rule" in r.output, r.output
    r = cli("review", "--game", "kansas-city", "--vs-rule", "pass_count=3", "--out", tmp_path / "r")
    assert r.exit_code == 2 and "--vs-rule pass_count=3 gives the rules under review" in r.output, r.output


@pytest.mark.parametrize("line, message", [
    ("n = 1e400", "bad n 1e400; expected a positive whole number such as 1e6, 1000000 or 1_000_000, of deals "
                  "(or matches) up to 9223372036854775807 (2^63 - 1"),
    ("n = -1e400", "bad n -1e400; expected a positive whole number"),
    ("n = nan", "bad n nan; expected a positive whole number"),
    ("n = 1000.00000000000001", "bad n 1000.00000000000001; expected a positive whole number"),
    ("seed = 1e400", "bad seed 1e400; expected a whole number 0..2**128"),
    ("seed = -inf", "bad seed -inf; expected a whole number 0..2**128"),
    ("players = [1e400]", "bad players 1e400; expected whole numbers such as [4, 5]"),
    ("players = [nan]", "bad players nan; expected whole numbers such as [4, 5]"),
    ("[rules]\npass_count = [1e400]", "bad rule pass_count '1e400' for kansas-city; expected one of 3, 0, 1, 2"),
    ("[rules]\npass_count = [-inf]", "bad rule pass_count '-inf' for kansas-city"),
    ("[rules]\nscore_table = [[1e400, 2]]", "bad rule score_table '1e400,2' for kansas-city; expected sheet or "
                                            "2-15 whole numbers"),
])
def test_a_grid_files_numbers_are_quoted_as_written_and_named_with_their_limits(tmp_path, line, message):
    # before: TOML reads 1e400 as a float's inf, so "bad n inf; at most ..." (n = 1e400), "bad seed
    # inf", "bad players inf", "bad rule pass_count 'inf'", and a list rule's float "expected a value
    # such as 2 or "low""; n = 1000.00000000000001 was taken as 1000 where --n refuses it; after: the
    # number as the file writes it, and what the key takes
    grid = tmp_path / "grid.toml"
    grid.write_text(f'games = ["kansas-city"]\n{line}\n')
    r = cli("sweep", grid, "--out", tmp_path / "page.html", "--runs", tmp_path / "runs", "-q", "-j", "1")
    assert r.exit_code == 2 and f"error: {message}" in r.output and r.output.count("\n") == 1, r.output
    assert not (tmp_path / "runs").exists()


def test_whole_numbers_of_a_grid_file_are_read_as_the_command_line_reads_them(tmp_path):
    # before: seed = 1e30 was the float's 1000000000000000019884624838656 (--seed 1e30 is 10^30),
    # players = [4.0] refused (--players 4.0 is 4)
    from simtool.commands import sweep

    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["kansas-city"]\nplayers = [4.0]\nseed = 1e30\nn = 2e3\n')
    made = sweep.make_grid(sweep.read_toml(grid))
    assert (made.players, made.seed, made.n) == ([4], 10 ** 30, 2000)


@pytest.mark.parametrize("field, value, message", [
    ('"n": 10', '"n": 1e400', "cell 1: n 1e400 is not a whole number 1..9223372036854775807"),
    ('"seed": 1', '"seed": -Infinity', "cell 1: seed -Infinity is not a whole number 0..2**128"),
    ('"players": 4', '"players": 1e400', "cell 1: players 1e400 is not a whole number 1..64"),
])
def test_a_plan_file_changed_by_hand_names_the_cell_and_the_value_as_written(tmp_path, field, value, message,
                                                                             charts_undrawn):
    # before: every such plan.json was "cannot resume DIR: plan.json is damaged", naming nothing
    runs = tmp_path / "runs"
    r = cli("sweep", "--game", "kansas-city", "--n", "10", "--seed", "1", "--runs", runs, "--out",
            tmp_path / "page.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    plan = (runs / "plan.json").read_text()
    assert field in plan
    (runs / "plan.json").write_text(plan.replace(field, value, 1))
    r = cli("sweep", "--resume", runs, "-q", "-j", "1")
    assert r.exit_code == 2 and f"error: cannot resume {runs}: plan.json is damaged: " in r.output, r.output
    assert message.replace("2**128", str(2 ** 128)) in r.output and r.output.count("\n") == 1, r.output


@pytest.mark.parametrize("source, message", [
    # its module's __getattr__ raises as the strategy is looked up (hasattr lets only AttributeError by)
    ("def __getattr__(name):\n    raise ValueError()\n", "strategy plugin {path} failed to load: ValueError"),
    # the strategy's cost, asked as the run is planned (and by the isolated process, to describe it)
    ("from strategies import Strategy\n\ndef _cost(params):\n    raise ValueError()\n\n"
     "bot = Strategy('bot', lambda view, rng: view.mask.argmax(1), 'mine', cost=_cost)\n",
     "strategy 'bot.py:bot' could not give its cost: ValueError"),
])
@pytest.mark.parametrize("isolate", [False, True])
def test_a_plugin_failing_as_it_is_loaded_without_a_message_is_named_by_its_error_type(tmp_path, source, message,
                                                                                         isolate):
    # before: with --isolate, "error: isolated strategy bot.py:bot could not start: " (its process
    # sent str(exc), empty for a bare `raise ValueError()`), and without it a traceback; after: one
    # line naming the plugin and the type of its error
    path = tmp_path / "bot.py"
    path.write_text(source)
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:bot", "--out", tmp_path / "r", "-q",
            *(["--isolate"] if isolate else []))
    assert r.exit_code == 2 and "Traceback" not in r.output and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: ") and message.format(path=path) in r.output, r.output
    assert not (tmp_path / "r").exists()


def test_an_isolated_plugin_failing_as_its_process_describes_it_is_named_by_its_error_type(tmp_path):
    # its process reads its choose function's attributes to describe it (does it offer a belief?):
    # before, "could not start: " with nothing after it; after, the type of what it raised
    path = tmp_path / "bot.py"
    path.write_text("from strategies import Strategy\n\nclass Choose:\n    def __call__(self, view, rng):\n"
                    "        return view.mask.argmax(1)\n\n    def __getattr__(self, name):\n"
                    "        if name == 'redeal':\n            raise ValueError()\n"
                    "        raise AttributeError(name)\n\n"
                    "bot = Strategy('bot', Choose(), 'mine')\n")
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:bot", "--out", tmp_path / "r", "-q",
            "--isolate")
    assert r.exit_code == 2 and r.output == f"error: isolated strategy {path}:bot could not start: ValueError\n", \
        r.output


def test_a_ladder_whose_strategy_fails_mid_plan_advises_its_own_resume_which_finishes_it(tmp_path, monkeypatch,
                                                                                         small_chunks, charts_undrawn):
    # before: "...; N finished chunks are kept, the ladder unfinished: ... finish it with: simtool
    # sweep --resume RUNS", and a sweep into that folder "an unfinished ladder ...; finish it with
    # simtool sweep --resume RUNS"; ladder had no --resume; after: `simtool ladder --resume RUNS`,
    # which finishes it with its own rungs and writes its report
    from .test_hardening_leftovers3 import fragile

    entry, calls = fragile(tmp_path)
    runs, page = tmp_path / "ladder", tmp_path / "ladder.html"
    monkeypatch.setenv("FRAGILE_AFTER", "20")
    r = cli("ladder", "--game", "black-white", "--players", "3", "--rungs", f"random,high,{entry}", "--n", 3 * 2048,
            "--seed", "1", "--runs", runs, "--out", page, "-j", "1", "-q")
    one_line_error(r, "finished chunks are kept, the ladder unfinished", f"finish it with: simtool ladder --resume "
                   f"{runs}; a changed strategy plays it again with --force")
    one_line_error(cli("sweep", "-g", "black-white", "--n", "10", "--runs", runs, "-o", tmp_path / "s.html"),
                   f"{runs} holds an unfinished ladder of 2 other runs",
                   f"finish it with simtool ladder --resume {runs}")
    one_line_error(cli("ladder", "--resume", runs, "--n", "10"), "--n cannot change")
    one_line_error(cli("restrict", "--resume", runs), f"{runs} holds the runs of simtool ladder, not of simtool "
                   f"restrict; finish them with simtool ladder --resume {runs}")
    monkeypatch.delenv("FRAGILE_AFTER")
    calls[0] = 0
    r = cli("ladder", "--resume", runs, "-j", "1")
    assert r.exit_code == 0, r.output
    assert "Skill ladder: black-white 3p, 6,144 deals per rung, seed 1" in r.output and page.is_file()
    assert len(list(runs.glob("*/run.json"))) == 2


@pytest.mark.parametrize("command, flag, words, cells", [("ladder", "--runs", "finish the ladder with", 1),
                                                         ("restrict", "--out", "finish the restricted play with", 2)])
def test_ladder_and_restricted_play_stopped_by_ctrl_c_name_their_own_resume(tmp_path, monkeypatch, small_chunks,
                                                                           command, flag, words, cells, charts_undrawn):
    # before: "interrupted; finished chunks are kept: finish ... with simtool sweep --resume RUNS"
    from simtool.pipeline import executor

    real, stopped = stopped_after(executor, 2)
    runs = tmp_path / "runs"
    monkeypatch.chdir(tmp_path)  # the ladder's default report, reports/runs.html, not in the checkout
    given = ["--rungs", "random,high"] if command == "ladder" else ["--restrictions", "no-upgrade"]
    game = "black-white" if command == "ladder" else "kansas-city"
    monkeypatch.setattr(executor, "execute_tasks", stopped)
    r = cli(command, "--game", game, *given, "--n", 3 * 2048, "--seed", "2", flag, runs, "-j", "1", "-q")
    assert r.exit_code == 130 and f"{words} simtool {command} --resume {runs}" in r.stderr, r.output
    monkeypatch.setattr(executor, "execute_tasks", real)
    r = cli(command, "--resume", runs, "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert len(list(runs.glob("*/run.json"))) == cells


def test_a_plugin_in_a_folder_whose_name_holds_an_at_sign_is_a_plugin_from_any_folder(tmp_path, monkeypatch,
                                                                                       small_chunks):
    # before: `runs@x=1/bot.py:n` was read as strategy 'runs' with x = '1/bot.py:n': "unknown
    # strategy 'runs'"; after: a path that exists as a file (its ':NAME' split off) is the
    # plugin's, recorded as ./runs@x=1/bot.py:n so that it reads so from any folder (a resume)
    from simtool.pipeline import executor

    folder = tmp_path / "runs@x=1"
    folder.mkdir()
    (folder / "bot.py").write_text("def n(view, rng):\n    return view.mask.argmax(axis=1)\n")
    monkeypatch.chdir(tmp_path)
    relative = simtool.run("black-white", n=300, players=3, seats={0: "runs@x=1/bot.py:n"}, seed=1)
    absolute = simtool.run("black-white", n=300, players=3, seats={0: f"{folder}/bot.py:n"}, seed=1)
    assert relative.spec.lineup[0] == "./runs@x=1/bot.py:n" and relative.seats.equals(absolute.seats)
    with pytest.raises(simtool.SimtoolError, match="strategy 'bot.py:n' takes no parameters"):
        simtool.run("black-white", n=10, players=3, seats={0: "runs@x=1/bot.py:n@k=1"})
    assert simtool.run("black-white", n=10, players=3, seats={0: "balance@mistakes=0.5"}).spec.lineup[0] == \
        "balance@mistakes=0.5"
    real, stopped = stopped_after(executor, 1)
    out = tmp_path / "run"
    monkeypatch.setattr(executor, "execute_tasks", stopped)
    r = cli("run", "--game", "black-white", "--seat", "0=runs@x=1/bot.py:n", "--n", 3 * 2048, "--seed", "2",
            "--out", "run", "-j", "1", "-q")
    assert r.exit_code == 130, r.output
    monkeypatch.setattr(executor, "execute_tasks", real)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    r = cli("run", "--resume", out, "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["lineup"][0] == "./runs@x=1/bot.py:n"
