"""Review of b39095e..1f068f3 (ladder and restrict --resume, a line-up's ``default``, grid numbers,
plugin paths holding ``@`` or ``=``): each test failed on the merged code."""

from __future__ import annotations

import pytest

from .conftest import stopped_after
from .test_cli import cli, one_line_error

LADDER = ("ladder", "--runs", ["--game", "black-white", "--rungs", "random,high,low"], "--out")
RESTRICT = ("restrict", "--out", ["--game", "kansas-city", "--restrictions", "no-upgrade"], "--report")


@pytest.mark.parametrize("command, runs_flag, given, report_flag", [LADDER, RESTRICT])
def test_a_resumed_ladder_or_restricted_play_checks_its_report_before_playing_and_keeps_a_new_one(
        tmp_path, monkeypatch, small_chunks, command, runs_flag, given, report_flag, charts_undrawn):
    # before: `ladder --resume RUNS --out notes.txt` (restrict's --report too) played every cell
    # left, and only then refused the report ("notes.txt exists and is not a simtool report"),
    # where `sweep --resume` refuses it before a deal is played; and a report named at a resume was
    # not saved with the plan, so the next resume wrote the first one's again. After: refused at
    # once, as sweep's, nothing more played; the new report is the plan's from then on
    from simtool.pipeline import executor

    runs, first, second = tmp_path / "runs", tmp_path / "first.html", tmp_path / "second.html"
    real, stopped = stopped_after(executor, 2)
    monkeypatch.setattr(executor, "execute_tasks", stopped)
    r = cli(command, *given, "--n", 3 * 2048, "--seed", "2", runs_flag, runs, report_flag, first, "-j", "1", "-q")
    assert r.exit_code == 130, r.output
    monkeypatch.setattr(executor, "execute_tasks", real)
    finished = sorted(runs.glob("*/run.json"))
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    one_line_error(cli(command, "--resume", runs, report_flag, notes, "-j", "1", "-q"),
                   f"{notes} exists and is not a simtool report")
    assert sorted(runs.glob("*/run.json")) == finished and notes.read_text() == "mine\n"
    real, stopped = stopped_after(executor, 1)
    monkeypatch.setattr(executor, "execute_tasks", stopped)
    r = cli(command, "--resume", runs, report_flag, second, "-j", "1", "-q")
    assert r.exit_code == 130, r.output
    monkeypatch.setattr(executor, "execute_tasks", real)
    r = cli(command, "--resume", runs, "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    assert second.is_file() and not first.exists(), r.output


def test_an_unfinished_strength_plan_is_still_finished_by_sweep_resume_as_its_advice_says(tmp_path):
    # before the merge, and as simtool/commands/strength.py says ("simtool sweep --resume finishes
    # it as well"): another command into the folder of an unfinished strength table was told "finish
    # it with simtool sweep --resume RUNS"; merged: "finish it with the same strength command again",
    # which names no command (a strength table is `make strength`); after: sweep --resume again
    import simtool
    from simtool.commands import plans
    from simtool.pipeline.executor import check_root, hold_plan, saved_plan
    from simtool.pipeline.folders import let_go
    from simtool.pipeline.runner import make_spec

    runs = tmp_path / "runs"
    one = make_spec("black-white", 3, 10, "random", {}, None, "deal", 1, False)
    other = make_spec("black-white", 3, 10, "high", {}, None, "deal", 1, False)
    let_go(hold_plan(plans.make_plan([one], runs, command="strength")))
    # (since round 18 no other command plays into a strength table's runs: the advice stays)
    with pytest.raises(simtool.SimtoolError, match=f"never plays into them: choose another folder \\(to finish its "
                                                   f"runs: simtool sweep --resume {runs}\\)$"):
        check_root(plans.make_plan([other], runs))
    assert saved_plan(runs).resume == f"simtool sweep --resume {runs}"


def test_a_plugin_in_a_folder_whose_name_holds_an_equals_sign_is_a_seat_of_its_own_after_parameters(
        tmp_path, monkeypatch):
    # docs/plugins.md: "A plugin file that exists is read as its path even where that holds @ or =".
    # Before: a line-up read `target@under=1,a=b/bot.py:n` as target with a parameter a =
    # 'b/bot.py:n' ("unknown parameter 'a' for strategy 'target'") though random,a=b/bot.py:n
    # played the plugin; after: target@under=1 at seat 0, the plugin at the others
    import simtool
    from simtool.commands import sweep

    (tmp_path / "a=b").mkdir()
    (tmp_path / "a=b" / "bot.py").write_text("def n(view, rng):\n    return view.mask.argmax(axis=1)\n")
    monkeypatch.chdir(tmp_path)
    g = simtool.games.get("kansas-city")
    assert sweep.lineup("target@under=1,a=b/bot.py:n", g, 4) == \
        {0: "target@under=1", 1: "a=b/bot.py:n", 2: "a=b/bot.py:n", 3: "a=b/bot.py:n"}
    # a parameter whose value is a path stays the parameter where no such file is there
    assert sweep.lineup("pimc@samples=8,playout=x/bot.py:n", g, 4)[3] == "pimc@samples=8,playout=x/bot.py:n"


class _RatioGame:
    """A plugin game with a number among its rule choices (docs/new-game.md allows any values)."""

    @staticmethod
    def install(monkeypatch):
        from simtool import games
        from simtool.options import Option
        from tests.designer_games.whist import Whist

        class Ratio(Whist):
            id = "designer-ratio"
            options = (Option("ratio", (0.5, 0.25), "a number of the game, as a choice"),)

        monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, Ratio()))


def test_a_grid_files_float_matches_a_game_plugins_number_choice_as_its_value(tmp_path, monkeypatch):
    # before the merge a grid's `ratio = [0.50]` or `[5e-1]` was the float 0.5, "0.5", a game's
    # declared choice 0.5; merged, TOML floats keep their text, and a choice is matched by its
    # text: "bad rule ratio '0.50' for designer-ratio; expected one of 0.5, 0.25". After: a float
    # written in a grid file is the declared choice of that value again (errors still quote it)
    import simtool
    from simtool.commands import sweep

    _RatioGame.install(monkeypatch)
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["designer-ratio"]\nn = 10\nseed = 1\n[rules]\nratio = [0.50, 2.5e-1]\n')
    specs, _ = sweep.plan(sweep.make_grid(sweep.read_toml(grid)))
    assert [s.rules["ratio"] for s in specs] == [0.5, 0.25]
    grid.write_text('games = ["designer-ratio"]\nn = 10\n[rules]\nratio = [0.30]\n')
    with pytest.raises(simtool.SimtoolError, match=r"bad rule ratio '0\.30' for designer-ratio; expected one of "
                                                   r"0\.5, 0\.25"):
        sweep.plan(sweep.make_grid(sweep.read_toml(grid)))


@pytest.mark.parametrize("raised, name", [("SystemExit(3)", "SystemExit: 3"),
                                          ("KeyboardInterrupt()", "KeyboardInterrupt")])
def test_a_plugins_cost_ending_the_process_or_raising_ctrl_c_is_its_error_as_its_import_is(tmp_path, capsys, raised,
                                                                                           name):
    # 61c2827 named a plugin's error in its cost in one line, but caught Exception only: a cost
    # raising SystemExit(3) ended `simtool run` with status 3 and no word, and KeyboardInterrupt
    # was "interrupted", exit 130, where the same raise as the plugin is imported or looked up is
    # "failed to load: SystemExit: 3" (a plugin must not end simtool silently); after: one line,
    # exit 2, as there
    path = tmp_path / "bot.py"
    path.write_text(f"from strategies import Strategy\n\ndef _cost(params):\n    raise {raised}\n\n"
                    f"bot = Strategy('bot', lambda view, rng: view.mask.argmax(1), 'mine', cost=_cost)\n")
    from .test_hardening_cli import main_error

    main_error(capsys, ["run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:bot", "--out",
                        tmp_path / "r", "-q"], f"strategy 'bot.py:bot' could not give its cost: {name}")
    assert not (tmp_path / "r").exists()


def test_a_sweep_of_a_game_whose_rule_choice_is_a_float_is_still_resumed(tmp_path, monkeypatch, charts_undrawn):
    # 4ad043b read plan.json's floats as Written (their text kept for errors), and a cell's rules
    # are checked to be the very type the game takes: a float choice 0.25 read back as Written was
    # "another type", so `sweep --resume` of such a sweep said "cannot resume RUNS: plan.json is
    # damaged: cell 1: rule ratio 0.25 is not a value it takes" and its finished cells could not be
    # finished; after: resumed, the cell kept
    _RatioGame.install(monkeypatch)
    runs = tmp_path / "runs"
    r = cli("sweep", "--game", "designer-ratio", "--rule", "ratio=0.25", "--n", "10", "--seed", "1", "--runs", runs,
            "--out", tmp_path / "page.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    made = sorted(runs.glob("*/run.json"))
    r = cli("sweep", "--resume", runs, "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    assert sorted(runs.glob("*/run.json")) == made and len(made) == 1


@pytest.mark.parametrize("given", [{"weak": "default"}, {"strong": "default", "weak": "target"},
                                   {"strong": "target@under=0", "weak": "target"}])
def test_a_tunings_skill_of_a_strategy_against_itself_is_refused_however_it_is_named(given):
    # 826bc09 made `default` a name of the game's default strategy everywhere, but tune compared
    # strong and weak as written: weak="default" (Kansas City's target, strong's default) was no
    # longer "unknown strategy 'default'" but a tuning measuring target's skill against target,
    # an edge of nothing; after: refused, naming the strategy, as strong == weak always was
    import simtool
    from simtool.commands import tune

    with pytest.raises(simtool.SimtoolError, match="skill compares two strategies; strong and weak are both target"):
        tune.configure("kansas-city", ["pass_count"], ["skill"], trials=2, n=100, seed=1, **given)


def test_sweep_resumes_refusal_names_timeout_among_what_may_change_as_ladders_and_its_help_do(tmp_path, charts_undrawn):
    # before: "--n cannot change (only --jobs, --backend, --scheduler, --out and --title may)",
    # though sweep --resume takes --timeout (its --help says so, and ladder's and restrict's new
    # refusals name it); after: "... --scheduler, --timeout, --out and --title may"
    runs = tmp_path / "runs"
    r = cli("sweep", "--game", "black-white", "--n", "10", "--seed", "1", "--runs", runs, "--out",
            tmp_path / "page.html", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
    one_line_error(cli("sweep", "--resume", runs, "--n", "20"),
                   "--n cannot change (only --jobs, --backend, --scheduler, --timeout, --out and --title may)")
    r = cli("sweep", "--resume", runs, "--timeout", "5", "-q", "-j", "1")
    assert r.exit_code == 0, r.output
