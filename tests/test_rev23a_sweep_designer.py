"""A sweep of several games skips a cell a game refuses (its check_rules raising a SimtoolError
that names the limit), not one where the designer's check_rules is broken: that is the game's
bug, named in one line as `simtool run` names it, not a note beside a finished report."""

from __future__ import annotations

from .test_hardening_cli import main_error
from .test_hostile22 import checked_game  # noqa: F401 - the fixture


def test_a_check_rules_that_crashes_in_a_grid_of_several_games_is_refused(checked_game, tmp_path, capsys,  # noqa: F811
                                                                         monkeypatch):
    # before: exit 0, "note: skipped climb, 4 players, hand=4: game 'climb' (checked_game) raised
    # KeyError: 'hand' in check_rules(rules, 4)", the report written without the cell
    monkeypatch.chdir(tmp_path)
    main_error(capsys, ["sweep", "-g", "climb,black-white", "-p", "3,4", "--rule", "hand=3,4", "-n", "10", "-q",
                        "-j", "1", "--runs", "runs", "-o", "sweep.html"],
               "game 'climb' (checked_game) raised KeyError: 'hand' in check_rules(rules, 4)")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "sweep.html").exists()


def test_a_check_rules_that_returns_its_reason_in_a_grid_of_several_games_is_refused(checked_game, tmp_path,  # noqa: F811
                                                                                    capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    main_error(capsys, ["sweep", "-g", "climb,black-white", "-p", "3", "--rule", "hand=2,3", "-n", "10", "-q",
                        "-j", "1", "--runs", "runs", "-o", "sweep.html"],
               "check_rules(rules, 3) returned 'two cards cannot be played'")
    assert not (tmp_path / "runs").exists()
