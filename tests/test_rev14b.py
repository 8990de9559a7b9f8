"""Review of the designer's Spades walkthrough (merge 1c183ea): what it got wrong, found by running it."""

from __future__ import annotations

from .test_cli import cli, one_line_error


def test_a_plugin_whose_module_getattr_raises_is_one_line_again(tmp_path):
    """The lookup by declared name ran its ``hasattr`` outside the guard that turns a plugin's own
    error into one line: a module ``__getattr__`` raising RuntimeError was a traceback (before the
    merge, and now again: 'strategy plugin ... failed to load: RuntimeError: boom')."""
    path = tmp_path / "bot.py"
    path.write_text("def __getattr__(name):\n    raise RuntimeError('boom')\n")
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:bot", "--out", tmp_path / "r", "-q")
    one_line_error(r, f"strategy plugin {path} failed to load: RuntimeError: boom")
    assert not (tmp_path / "r" / "run.json").exists()
