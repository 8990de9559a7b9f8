"""``Strategy(games=[])`` made a strategy that plays no game: run, it was refused as "strategy
'x' plays , not hearts". Refused where it is made, in one line."""

from __future__ import annotations

import pytest

from strategies.base import Strategy

from .test_cli import cli, one_line_error


@pytest.mark.parametrize("games", [[], (), set()])
def test_a_strategy_of_no_game_is_refused_where_it_is_made(games):
    with pytest.raises(ValueError, match=r"^strategy 'x': games is empty, so it plays no game; give game ids"):
        Strategy("x", lambda view, rng: None, "none", games=games)


@pytest.mark.parametrize("games", ["", ("hearts", ""), [" "]])
def test_a_strategy_of_an_empty_game_id_is_refused_where_it_is_made(games):
    # before: games="" made a strategy of the game "", refused only when run as "strategy
    # 'emptyg.py:emptyg' plays , not hearts"
    with pytest.raises(ValueError, match=r"^strategy 'x': games holds an empty id \(.*\), which no game has; give"):
        Strategy("x", lambda view, rng: None, "none", games=games)


@pytest.mark.parametrize(("games", "said"), [("[]", "games is empty, so it plays no game"),
                                            ("''", "games holds an empty id ('')")])
def test_a_plugin_of_no_game_is_refused_in_one_line(tmp_path, games, said):
    plugin = tmp_path / "nogame.py"
    plugin.write_text("from strategies.base import Strategy\n"
                      f"NOGAME = Strategy('nogame', lambda view, rng: None, 'plays nothing', games={games})\n")
    r = cli("run", "--game", "hearts", "--n", "100", "--jobs", "1", "--quiet", "--strategy", f"{plugin}:NOGAME",
            "--out", tmp_path / "run")
    text = one_line_error(r, said)
    assert "plays , not" not in text
