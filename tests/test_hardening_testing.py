"""Hostile tests of the conformance plugin ``simtool.testing``: what a game author gets wrong
on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from simtool import testing

ROOT = Path(__file__).parents[1]


def test_a_game_module_that_fails_on_import_is_one_line(tmp_path, monkeypatch):
    # once: pytest's INTERNALERROR with the plugin's traceback
    (tmp_path / "boom_game.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(pytest.UsageError, match=r"boom_game:GAME: importing boom_game raised RuntimeError: boom "
                                               r"\(python -c 'import boom_game' shows where\)"):
        testing.load_game("boom_game:GAME")


def test_a_game_named_twice_is_tested_once(pytester):
    # once: "--simtool-game black-white --simtool-game black-white" ran every test twice.
    # A session of its own, in this process (a pytest process of its own took a second to start)
    pytester.makepyfile(test_nothing="def test_x():\n    pass\n")

    def collected(*games: str) -> str:
        args = [a for g in games for a in ("--simtool-game", g)]
        done = pytester.runpytest_inprocess("-p", "simtool.testing", *args, "-p", "no:cacheprovider",
                                            "-q", "-n", "0", "--co", "-k", "same_seed")
        assert done.ret == 0, done.outlines + done.errlines
        return next(line for line in done.outlines if "collected" in line).partition(" in ")[0]

    once = collected("black-white")
    assert once.startswith("3/") and collected("black-white", "black-white") == once  # 2, 3 and 4 players
