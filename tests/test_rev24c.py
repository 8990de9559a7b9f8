"""Defects found reviewing session 24's changes (rev24c)."""
from __future__ import annotations

import json

import pytest

from .test_cli import cli

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a sweep's charts


def two_game_sweep(tmp_path, *args):
    """A sweep of Black & White and Kansas City with ``args`` (line-ups, n), and its run folders'
    ``game:line-up`` (played cells)."""
    r = cli("sweep", "-g", "black-white,kansas-city", *args, "--seed", "1", "-j", "1", "-q",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    played = sorted((m := json.loads((f / "run.json").read_text()))["game"] + ":" + ",".join(m["lineup"])
                    for f in (tmp_path / "runs").iterdir() if (f / "run.json").is_file())
    return r, played


def test_a_restricted_line_up_one_game_of_a_sweep_cannot_play_skips_that_games_cells(tmp_path):
    # failed before: "error: restriction 'higher-colour' is for black-white, not kansas-city", the
    # whole grid refused, though a strategy one game lacks skips that game's cells with a note
    r, played = two_game_sweep(tmp_path, "-l", "random~higher-colour", "-l", "random", "-n", "40")
    assert r.stderr.splitlines() == [
        "note: skipped kansas-city, line-up random~higher-colour: restriction 'higher-colour' is for "
        "black-white, not kansas-city; valid for kansas-city: no-upgrade, pass-high"]
    assert played == ["black-white:random,random,random", "black-white:random~higher-colour,random~higher-colour,"
                      "random~higher-colour", "kansas-city:random,random,random,random"]


def test_an_isolated_plugin_one_game_of_a_sweep_cannot_play_skips_that_games_cells(tmp_path):
    # failed before: with --isolate the plugin's process refused it as a plain error, so the whole
    # grid was refused ("error: strategy 'bot.py:bwhigh' plays black-white, not kansas-city"),
    # where without --isolate kansas-city's cell was skipped with a note
    (tmp_path / "bot.py").write_text(
        "import numpy as np\nfrom strategies import strategy\n\n\n"
        "@strategy('bwhigh', 'highest card', games=('black-white',))\n"
        "def bwhigh(view, rng):\n"
        "    if view.kind == 'colour':\n"
        "        return np.zeros(len(view), dtype=np.int64)\n"
        "    return np.where(view.mask, view.strength, -1).argmax(axis=1)\n")
    bot = f"{tmp_path / 'bot.py'}:bwhigh"
    r, played = two_game_sweep(tmp_path, "-l", bot, "-l", "random", "--isolate", "-n", "40")
    assert r.stderr.splitlines() == [
        f"note: skipped kansas-city, line-up {bot}: strategy 'bot.py:bwhigh' plays black-white, not kansas-city; "
        "valid for kansas-city: clairvoyant, greedy, high, low, pimc, random, target"]
    assert [cell.split(":")[0] for cell in played] == ["black-white", "black-white", "kansas-city"]


def test_a_search_whose_play_out_policy_one_game_of_a_sweep_lacks_skips_that_games_cells(tmp_path):
    # failed before: "error: bad parameter playout 'target' of strategy 'pimc': strategy 'target'
    # plays kansas-city, not black-white", the whole grid refused, though Kansas City plays it
    r, played = two_game_sweep(tmp_path, "-l", "pimc@playout=target", "-l", "random", "-n", "4")
    assert r.stderr.splitlines() == [
        "note: skipped black-white, line-up pimc@playout=target: bad parameter playout 'target' of strategy 'pimc': "
        "strategy 'target' plays kansas-city, not black-white; valid for black-white: balance, clairvoyant, duck, "
        "high, low, pimc, random"]
    assert [cell.split(":")[0] for cell in played] == ["black-white", "kansas-city", "kansas-city"]


def test_a_tuning_says_nothing_to_choose_only_where_every_setting_measured_alike():
    # failed before: two options each unmoved where a trial had a neighbour differing in it alone,
    # but pass_count=1, four_bonus=0 (no such neighbour) measured 0.01 against 0.04: the answer was
    # "No setting tried measured differently ...: there is nothing to choose. Keep the sheet."
    from types import SimpleNamespace

    from simtool.analysis.tuning import advice, unmoved
    from simtool.commands import tune as tuning

    def trial(pass_count: str, four_bonus: str, value: float) -> SimpleNamespace:
        return SimpleNamespace(params={"pass_count": pass_count, "four_bonus": four_bonus}, values=[value],
                               user_attrs={"intervals": {"seat_spread:min": [value - 0.001, value + 0.001]}})

    config = tuning.configure("kansas-city", ["pass_count", "four_bonus"], ["seat_spread:min"], trials=4, n=2000,
                              seed=1)
    trials = [trial("3", "2", 0.04), trial("2", "2", 0.04), trial("3", "1", 0.04), trial("1", "0", 0.01)]
    assert unmoved(config, trials) == ["pass_count", "four_bonus"]
    chosen = [{"params": {"pass_count": "1", "four_bonus": "0"}, "label": "best"}]
    text = advice(config, trials, [], chosen)
    assert "nothing to choose" not in text and "Keep the sheet" not in text, text
    assert "nothing to choose" in advice(config, trials[:3], [], chosen)


def test_a_search_focus_one_game_of_a_sweep_lacks_skips_that_games_cells(tmp_path):
    # failed before: "error: bad parameter focus 'colour' of strategy 'pimc': kansas-city has no
    # decision of that kind", the whole grid refused, though Black & White has it
    r, played = two_game_sweep(tmp_path, "-l", "pimc@focus=colour", "-l", "random", "-n", "4")
    assert r.stderr.splitlines() == [
        "note: skipped kansas-city, line-up pimc@focus=colour: bad parameter focus 'colour' of strategy 'pimc': "
        "kansas-city has no decision of that kind; choose one of: none, pass, upgrade, lead, play"]
    assert [cell.split(":")[0] for cell in played] == ["black-white", "black-white", "kansas-city"]
