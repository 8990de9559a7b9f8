"""Hostile round 28: the conformance suite given a game module that ends the program as it loads."""

from __future__ import annotations

import pytest

from simtool.testing import load_game


def test_a_game_module_that_exits_as_it_loads_is_the_suites_one_line_error(tmp_path, monkeypatch):
    # failed before: `python -m pytest --simtool-game quits:GAME` on a module calling sys.exit(3)
    # printed pytest's INTERNALERROR traceback ("mainloop: caught unexpected SystemExit!"), exit 3
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(pytest.UsageError) as caught:
        load_game("quits:GAME")
    assert str(caught.value) == ("--simtool-game quits:GAME: importing quits raised SystemExit: 3 "
                                 "(python -c 'import quits' shows where)")
