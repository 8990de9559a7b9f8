"""Review of the leftovers 5b (b39095e..e4e227f): each test failed on the merged code."""

from __future__ import annotations

import time

import pytest

import simtool
from simtool.errors import StrategyError

from .designer_games.whist import Whist


class _SlowWorlds(Whist):
    """Whist that takes its time over a hand begun past its first trick, as only a world a search
    re-dealt is: the search's --timeout then runs out inside the game's code."""

    id = "designer-slow-worlds"

    def play(self, s):
        if s.trick_no:
            time.sleep(0.5)
        return (yield from super().play(s))


def test_a_search_out_of_time_inside_a_designer_games_play_out_is_the_searchs_timeout(installed):
    # before: "game 'designer-slow-worlds' (...) raised Overtime while strategy 'pimc' searched its
    # worlds": the game blamed for the strategy's --timeout, as ccffd52 took every exception
    # raised in the game's code of a play-out for the game's own
    installed(_SlowWorlds())
    with pytest.raises(StrategyError, match=r"^strategy 'pimc' did not return within timeout=0.05 s \(decision"):
        simtool.run("designer-slow-worlds", n=4, seed=1, strategy="high", seats={0: "pimc"}, timeout=0.05)


SLOW_PLAYOUT = '''
import time
from simtool import bits


calls = []


def slow(view, rng):
    calls.append(1)
    if len(calls) > 1:  # pimc's first call, on its own view, is quick; those of its play-outs are not
        time.sleep(0.5)
    return bits.lowest(view.legal)
'''


def test_a_search_out_of_time_inside_its_play_out_policy_is_the_searchs_timeout(tmp_path):
    # before: "strategy 'slow.py:slow' did not return within timeout s (decision 'play' of
    # kansas-city, re-dealt world 0 of a play-out)": the search's own timer, run out while its
    # play-out policy chose, was the policy's, in a sentence missing the timeout's value
    (tmp_path / "slow.py").write_text(SLOW_PLAYOUT)
    entry = f"pimc@playout={tmp_path}/slow.py:slow,samples=2"
    with pytest.raises(StrategyError, match=r"^strategy 'pimc@\S+' did not return within timeout=0.2 s "
                                            r"\(decision '\w+' of kansas-city, deal 0 of the run"):
        simtool.run("kansas-city", n=2, seed=1, strategy="high", seats={0: entry}, timeout=0.2,
                     rules={"pass_count": 0})




def test_a_helper_beside_a_symlinked_plugin_edited_between_two_loads_is_imported_anew(tmp_path):
    # the plugin imports its helpers from its file's own folder (as `python bot.py` does for a
    # symlink), so that folder's helpers must key its module: before, those beside the link did,
    # and the second load by the link's path (a notebook's strategies.resolve, a line-up entry
    # outside a run) gave the module imported first, its helper 'lowest' still
    import numpy as np

    import strategies
    from simtool import bits

    from .test_hardening_leftovers5b import HELPER, _bot

    class View:
        legal = np.array([0b0110], np.uint64)
        n_actions = 64

    _bot(tmp_path / "a", "lowest")
    (tmp_path / "link").mkdir()
    (tmp_path / "link" / "mine.py").symlink_to(tmp_path / "a" / "bot.py")
    entry = f"{tmp_path}/link/mine.py:bot"
    assert strategies.resolve(entry, "black-white")(View, None) == bits.lowest(View.legal) == 1
    (tmp_path / "a" / "mylib.py").write_text(HELPER.format(side="highest", extra=", view.n_actions"))
    assert strategies.resolve(entry, "black-white")(View, None) == 2


GATED_BOT = '''
import gate_{name}
import mylib


def bot(view, rng):
    return mylib.pick(view)
'''

GATE = '''
import builtins
import os
import sys
import threading
import time

try:  # both plugins' imports under way at once, each with its folder on sys.path
    builtins.review_l5b_gate.wait(timeout=1)
    # the plugin whose folder is not first on sys.path imports its helper first
    time.sleep(0.3 if sys.path[0] == os.path.dirname(__file__) else 0)
except threading.BrokenBarrierError:  # the other plugin waits for this one's import to end
    pass
'''


def test_two_threads_loading_plugins_with_same_named_helpers_each_get_their_own(tmp_path, monkeypatch):
    # threads of one process (a dask worker's --nthreads 2 playing two chunks) load plugins at
    # once: before, both folders were on sys.path and both helpers named 'mylib' went into one
    # sys.modules, so one plugin played the other's helper ('highest' for 'lowest', or the reverse)
    import builtins
    import threading

    import numpy as np

    import strategies

    from .test_hardening_leftovers5b import HELPER

    monkeypatch.setattr(builtins, "review_l5b_gate", threading.Barrier(2), raising=False)
    entries = {}
    for name, side in (("low", "lowest"), ("high", "highest")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / f"{name}.py").write_text(GATED_BOT.format(name=name))
        (folder / f"gate_{name}.py").write_text(GATE)
        (folder / "mylib.py").write_text(HELPER.format(side=side, extra=", view.n_actions" if side == "highest"
                                                       else ""))
        entries[name] = f"{folder}/{name}.py:bot"
    found = {}

    def load(name):
        found[name] = strategies.resolve(entries[name], "black-white")

    threads = [threading.Thread(target=load, args=(name,)) for name in entries]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)

    class View:
        legal = np.array([0b0110], np.uint64)
        n_actions = 64

    assert (found["low"](View, None), found["high"](View, None)) == (1, 2)


def test_the_restricted_play_table_shows_a_few_changed_deals_as_the_html_report_does():
    # before: 1 deal changed of 20,000 read "0.0%" in simtool restrict's table, "0.005%" in its HTML
    # report (94c0976 gave the report's pct filter a significant figure, not the command line)
    import io

    import polars as pl
    from rich.console import Console

    from simtool.cli import _restrict_table
    from simtool.reports.balance import environment

    row = {"game": "kansas-city", "players": 4, "rules": "", "strategy": "target", "deals": 20_000,
           "restriction": "no-upgrade", "win_cost": 0.0, "win_cost_low": -0.001, "win_cost_high": 0.001,
           "score_change": 0.0, "score_change_low": -0.01, "score_change_high": 0.01, "changed": 1 / 20_000,
           "verdict": "nothing"}
    out = io.StringIO()
    Console(file=out, width=200).print(_restrict_table(pl.DataFrame([row]), 1)[1])  # (title, table)
    assert environment().filters["pct"](row["changed"]) == "0.005%"
    assert " 0.005% " in out.getvalue() and "0.0%" not in out.getvalue(), out.getvalue()


def test_a_tiny_share_with_a_symmetric_interval_never_shows_as_0():
    # before: "0.000% ± 0.000%" for a seat winning 0.0003% of its units with an interval symmetric
    # enough for x% ± h% (some 1e8 deals): x% ± h% stops at three decimals, to which the share is 0
    from simtool import stats

    # its ends written apart, and apart from the share (walk34): "0.0003% (0.0003–0.0003%)" before
    assert stats.fmt_share(3e-6, 2.8e-6, 3.2e-6) == "0.00030% (0.00028–0.00032%)"
    assert stats.fmt_share(0.25, 0.24, 0.26) == "25.0% ± 1.0%"  # as before
    assert stats.fmt_share(0.0, -1e-6, 1e-6) == "0.000% ± 0.000%"  # exactly 0 stays 0


def test_a_search_plays_its_play_out_policys_helper_as_edited_between_two_runs_of_one_process(tmp_path):
    # as a line-up's plugin does since 45b7445 (a notebook's next run plays the edit): before, pimc
    # kept the policy it looked up first for the process, and the second run played the helper
    # imported first ('lowest' again), though run.json recorded the edited one
    from .test_hardening_leftovers5b import HELPER, _bot, _inline

    def searched(policy):
        return simtool.run("black-white", n=30, seed=5, players=3, strategy="random", jobs=1,
                           seats={0: f"pimc@samples=2,playout={policy}"}).seats.drop("strategy")

    entry = _bot(tmp_path / "a", "lowest")
    low, high = searched(_inline(tmp_path / "i", "lowest")), searched(_inline(tmp_path / "j", "highest"))
    assert not low.equals(high)  # the policy shows in the results
    assert searched(entry).equals(low)
    (tmp_path / "a" / "mylib.py").write_text(HELPER.format(side="highest", extra=", view.n_actions"))
    assert searched(entry).equals(high)


class _TooFewTricks(Whist):
    """Whist declaring one trick fewer than a seat can take (13 cards a hand)."""

    id = "designer-too-few"

    def most_tricks(self, rules, p):
        return 12


class _MostTricksFails(Whist):
    id = "designer-most-fails"

    def most_tricks(self, rules, p):
        return rules["hand_size"]  # a rule this game does not have


def test_a_designer_games_most_tricks_below_its_play_is_named_not_the_table(installed, tmp_path):
    # before: "column 'tricks' has 1 values outside 0..12 (...); the table is damaged or
    # hand-edited: run it again", of a genuine run: running it again refused it again
    from simtool.pipeline import folders

    installed(_TooFewTricks(), _MostTricksFails())
    simtool.run("designer-too-few", n=400, seed=1, strategy="high", out=tmp_path / "few")
    with pytest.raises(simtool.errors.SimtoolError, match=r"column 'tricks' has [\d,]+ values outside 0\.\.12 .*the "
                                                          r"table is damaged or hand-edited, or game 'designer-too-few'"
                                                          r"'s most_tricks is below its play: python -m pytest "
                                                          r"--simtool-game designer-too-few"):
        folders.load(tmp_path / "few")
    # before: KeyError: 'hand_size', a traceback of simtool summary; refused before the run plays
    # since round 9 (tests/test_hardening_round9.py), nothing written
    with pytest.raises(simtool.errors.GameError, match=r"^game 'designer-most-fails' \(tests.test_review_l5b\) raised "
                                                       r"KeyError: 'hand_size' in most_tricks; its conformance suite"):
        simtool.run("designer-most-fails", n=20, seed=1, out=tmp_path / "fails")
    assert not (tmp_path / "fails").exists()


def test_the_reports_share_of_capped_matches_is_never_shown_as_0(tmp_path):
    # before: "1 of 20,000 matches (0.0%) hit the 200-round cap", beside the verdict's "0.005% of
    # matches ... hit the cap" (its _pct, with a significant figure since 94c0976)
    from dataclasses import replace

    from simtool.reports import balance

    simtool.run("trickster", n=20, seed=1, unit="match", out=tmp_path / "r")
    a = balance.analyse(tmp_path / "r", charts=False)
    a = replace(a, meta={**a.meta, "n": 20_000}, capped=1)
    line = next(f for f in balance.findings(a) if "round cap" in f)
    assert line.startswith("1 of 20,000 matches (0.005%) hit the "), line
