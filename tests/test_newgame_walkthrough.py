"""What a designer trips over walking docs/new-game.md with a game of their own (Trumpet, 3 players)."""

from typer.testing import CliRunner

from simtool.cli import app


def test_a_game_named_as_a_module_is_told_how_a_game_of_ones_own_is_named(tmp_path):
    # pytest takes `--simtool-game my_game.game:GAME` and strategies `FILE.py:NAME`, so a designer
    # tries `simtool run --game my_game.game:GAME`; it said only "unknown game ...; valid: ..."
    for name in ("my_game.game:GAME", "my_game/game.py"):
        done = CliRunner().invoke(app, ["run", "--game", name, "--n", "10", "--out", str(tmp_path / "r")])
        assert done.exit_code == 2
        lines = done.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: unknown game '{name}'; valid: black-white, ")
        assert lines[0].endswith("; a game of your own is named by its id once its package is installed "
                                 "(entry points, docs/new-game.md)")
        assert not (tmp_path / "r").exists()
    plain = CliRunner().invoke(app, ["run", "--game", "whist", "--n", "10", "--out", str(tmp_path / "r")])
    assert plain.exit_code == 2 and "installed" not in plain.output
