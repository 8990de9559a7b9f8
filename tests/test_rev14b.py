"""Review of the designer's Spades walkthrough (merge 1c183ea): what it got wrong, found by running it."""

from __future__ import annotations

import polars as pl

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


AMBIGUOUS = '''
from strategies import strategy


@strategy("b", "the first legal option")
def a(view, rng):
    return view.mask.argmax(axis=1)


@strategy("c", "the last legal option")
def b(view, rng):
    return view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)


@strategy("x", "the first legal option again")
def d(view, rng):
    return view.mask.argmax(axis=1)


@strategy("x", "and again")
def e(view, rng):
    return view.mask.argmax(axis=1)


best = a  # an alias is the same strategy, no second reading
'''


def test_a_plugin_name_that_reads_as_two_strategies_is_refused(tmp_path):
    """`FILE.py:NAME` reads NAME as a function of the file or as a strategy's declared name. Before:
    `:b` played the function `b` (its tables `amb.py:c`) though the tables of `a`, declared 'b',
    showed `amb.py:b`, so that label copied into a line-up played another strategy without a word;
    and `:x`, declared by two functions, was "no strategy 'x' in amb.py; it defines: a, b, d, e".
    Now both are one-line errors naming the strategies the name reads as; unambiguous names play."""
    path = tmp_path / "amb.py"
    path.write_text(AMBIGUOUS)
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:b", "--out", tmp_path / "b", "-q")
    one_line_error(r, f"'b' in {path} names 2 strategies: b (declared 'c'), a (declared 'b'); rename one")
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:x", "--out", tmp_path / "x", "-q")
    one_line_error(r, f"'x' in {path} names 2 strategies: d (declared 'x'), e (declared 'x'); "
                      f"name one by its function ({path}:d or {path}:e)")
    for name, label in (("a", "amb.py:b"), ("best", "amb.py:b"), ("c", "amb.py:c"), ("d", "amb.py:x")):
        out = tmp_path / name
        r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:{name}", "--out", out, "-q")
        assert r.exit_code == 0, r.output
        assert pl.read_parquet(out / "seats.parquet").filter(pl.col("seat") == 0)["strategy"].cast(str).unique() \
            .to_list() == [label], name


def test_the_report_of_a_game_without_a_sheet_still_says_where_its_rules_are(installed, monkeypatch, tmp_path,
                                                                            charts_undrawn):
    """Nothing checks that a designer's game declares ``sheet``, and such a game plays. Before: its
    report's run setup read 'the complete rules are in ' and stopped; now it names the module."""
    import simtool
    from simtool.reports import balance
    from tests.designer_games.whist import Whist

    monkeypatch.delattr(Whist, "sheet")
    installed(Whist())
    simtool.run("designer-whist", n=40, seed=1, strategy="random", jobs=1, out=tmp_path / "w")
    balance.write([tmp_path / "w"], tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert ("the complete rules are in its module tests.designer_games.whist (the game names no rules sheet)"
            in page)


PARAMS = '''
from strategies import Param, strategy


@strategy("spades-first", "the first legal option", params=(Param("k", int, 0, "unused"),))
def first(view, rng, params):
    return view.mask.argmax(axis=1)
'''


def test_a_plugin_label_with_parameters_plays_as_its_function_name_does(tmp_path):
    """A declared name need not be an identifier (``spades-first``), and the parameters were split
    off a plugin's NAME only where it was one. Before: ``mine.py:first@k=2`` played, labelled
    ``mine.py:spades-first@k=2`` in its tables, and that label copied into a line-up was "no
    strategy 'spades-first@k=2' in mine.py; it defines: first"; now both play alike."""
    import simtool

    path = tmp_path / "mine.py"
    path.write_text(PARAMS)
    by_function = simtool.run("black-white", n=200, seed=1, jobs=1, seats={0: f"{path}:first@k=2"})
    by_label = simtool.run("black-white", n=200, seed=1, jobs=1, seats={0: f"{path}:spades-first@k=2"})
    assert set(by_label.seats["strategy"].cast(str)) >= {"mine.py:spades-first@k=2"}
    assert by_label.seats.equals(by_function.seats)
    r = cli("run", "--game", "black-white", "--n", "10", "--seat", f"0={path}:spades-first@k=x", "--out",
            tmp_path / "bad", "-q")
    one_line_error(r, "bad parameter k 'x' of strategy 'mine.py:spades-first'; expected a whole number")


def test_partnerships_of_unequal_size_have_their_seats_fair_shares():
    """Each seat's fair share is 1/p and the note says a partnership's share and fair share are its
    seats'. Before: 3 seats against 2 (5 players) were 'fair 50.0% each', which no seat's 20% adds
    up to; now 'fair 0+2+4 60.0%, 1+3 40.0%'. Equal partnerships read as before."""
    import numpy as np

    from simtool.analysis import verdicts

    side = np.random.default_rng(2).integers(-50, 100, (100, 2))
    sides = verdicts.partners(side[:, [0, 1, 0, 1, 0]])
    assert sides == [(0, 2, 4), (1, 3)]
    note = verdicts.partners_note(sides, [(s, 0.2, 0.1, 0.3) for s in range(5)])
    assert note.endswith("The partnerships win 0+2+4 60.0%, 1+3 40.0% of deals (fair 0+2+4 60.0%, 1+3 40.0%).")
    even = verdicts.partners_note([(0, 2), (1, 3)], [(s, 0.25, 0.2, 0.3) for s in range(4)])
    assert even.endswith("The partnerships win 0+2 50.0%, 1+3 50.0% of deals (fair 50.0% each).")


def test_duplicate_copies_of_a_deal_count_once_towards_the_partners_threshold(installed, tmp_path):
    """Partners are taken from 30 deals (or matches) or more; with --duplicate each deal is played
    once per seat, and its copies were counted as deals. Before: 8 duplicate deals of Spades
    (32 copies) printed 'Seats 0+2 and 1+3 scored alike in every deal, as partners'; now only
    30 of them or more do, as without --duplicate."""
    from simtool.pipeline.folders import load
    from simtool.reports import balance
    from tests.designer_games.spades import Spades

    installed(Spades())
    for n, said in ((8, False), (30, True)):
        out = tmp_path / str(n)
        r = cli("run", "--game", "designer-spades", "--n", n, "--seed", "2", "--duplicate", "--seat", "0=high",
                "--jobs", "1", "--out", out)
        assert r.exit_code == 0, r.output
        assert ("scored alike in every deal, as partners" in r.stdout.replace("\n", " ")) is said, n
        meta, seats, _ = load(out)
        assert bool(balance.analysis(meta, seats.collect(), None).sides) is said, n
