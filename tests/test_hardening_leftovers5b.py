"""Leftovers of the last review (5b): a designer's game writing a negative seat, a designer's game
failing inside a search's play-out, a plugin's helper module beside it, results tables holding
values the game cannot produce, and tiny win shares shown as zero (each test failed on the code
before its fix)."""

from __future__ import annotations

import hashlib
import json
import sys

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import engine, games
from simtool.errors import GameError
from simtool.games.tricks import play_trick, record_trick

from .designer_games.whist import Whist


class _CountedBack(Whist):
    """Credits each trick to the seat on the winner's right, counted back without ``% p``: seat
    -1 where seat 0 wins."""

    id = "designer-back"

    def play(self, s):
        cell = engine.cells(s.n, s.p)
        while s.trick_no < s.hand_size:
            yield from play_trick(s, cell, s.leader)
            engine.add(s.tricks, cell(s.winning - 1), 1)
            record_trick(s, s.leader)
            s.trick[:] = -1
            s.leader = s.winning
            s.trick_no += 1
            s.step = 0
        return {"score": s.tricks.astype(np.int16), "tricks": s.tricks.astype(np.int8)}


def test_a_designer_game_writing_a_negative_seat_is_the_games_error(installed):
    # before: numpy read seat -1 as the previous deal's last seat (deal 0's: the last deal's), so
    # the run played on, each deal's trick count moved to its neighbour (8 to 19 tricks a deal
    # of 13), and its tables looked real
    installed(_CountedBack())
    with pytest.raises(GameError, match=r"^game 'designer-back' \(tests.test_hardening_leftovers5b\) wrote a seat "
                                        r"outside the table: seat -1 in deal \d+ of an array of 100 deals x 4 seats; "
                                        r"cells\(n, p\)\(seat\) needs 0 <= seat < 4"):
        simtool.run("designer-back", n=100, seed=1, strategy="random")


@pytest.mark.parametrize("seat", [-1, 4])
def test_cells_refuse_a_seat_outside_the_table_in_any_deal(seat):
    # before: only a seat p or more in the last deal reached numpy's IndexError; a seat -1 or p
    # in any other deal landed on a neighbour's cell
    cell = engine.cells(3, 4)
    with pytest.raises(engine.OutsideTable, match=rf"^a seat outside the table: seat {seat} in deal 1 of an array "
                                                  r"of 3 deals x 4 seats"):
        cell(np.array([0, seat, 2]))
    assert (cell(np.array([0, 3, 2])) == [0, 7, 10]).all()


@pytest.mark.parametrize("change", [engine.add, engine.put])
def test_put_and_add_refuse_a_negative_cell_a_game_computed_itself(change):
    # before: cell -1 (deal 0, seat -1, in a game's own arithmetic) wrapped to the last deal's last seat
    table = np.zeros((3, 4), np.int16)
    with pytest.raises(engine.OutsideTable, match=r"^a seat outside the table: cell -1 of an array of 3 deals x 4 "
                                                  r"seats is before the first deal"):
        change(table, np.array([-1, 5, 9]), 1)
    assert not table.any()


class _MidHand(Whist):
    """Whist whose scoring fails for a hand begun past its first trick, as only a world a search
    re-dealt at a later decision is: normal play never reaches the fault."""

    id = "designer-midhand"

    def play(self, s):
        begun = s.trick_no
        results = yield from super().play(s)
        if begun:
            raise ValueError("no score for a hand begun mid-way")
        return results


@pytest.mark.parametrize("search", ["pimc", "clairvoyant", "pimc@playout=random"])
def test_a_designer_game_failing_in_a_searchs_play_out_is_the_games_error(installed, search):
    # before: "strategy 'pimc' raised ValueError: no score for a hand begun mid-way (decision
    # 'lead' ...)": the search blamed, the game unnamed
    installed(_MidHand())
    with pytest.raises(GameError, match=r"^game 'designer-midhand' \(tests.test_hardening_leftovers5b\) raised "
                                        r"ValueError: no score for a hand begun mid-way while strategy "
                                        rf"'{search.split('@')[0]}\S*' searched its worlds \(decision '\w+' of "
                                        r"designer-midhand, deal \d+ of the run with seed 1.*; its conformance suite "
                                        r"shows where: python -m pytest --simtool-game designer-midhand$") as failed:
        simtool.run("designer-midhand", n=20, seed=1, strategy="high", seats={0: search})
    assert isinstance(failed.value.__cause__, ValueError)  # kept for a debugger and pytest
    simtool.run("designer-midhand", n=20, seed=1, strategy="high")  # normal play never fails


def test_the_command_line_names_the_game_failing_in_a_searchs_play_out(installed, capsys, tmp_path):
    from .test_hardening_cli import main_error

    installed(_MidHand())
    main_error(capsys, ["run", "--game", "designer-midhand", "--strategy", "high", "--seat", "0=pimc", "--n", 20,
                        "--jobs", 1, "--out", tmp_path / "run"],
               "game 'designer-midhand' (tests.test_hardening_leftovers5b) raised ValueError: no score for a hand "
               "begun mid-way while strategy 'pimc' searched its worlds")


class _RedealFails(Whist):
    """Whist whose re-deal (its own ``restore``) fails: only a search reaches it."""

    id = "designer-redeal-fails"

    def restore(self, view, state, k, rng):
        raise KeyError("trump")


def test_a_designer_game_failing_in_its_re_deal_is_the_games_error(installed):
    installed(_RedealFails())
    with pytest.raises(GameError, match=r"^game 'designer-redeal-fails' \(tests.test_hardening_leftovers5b\) raised "
                                        r"KeyError: 'trump' while strategy 'pimc' searched its worlds"):
        simtool.run("designer-redeal-fails", n=20, seed=1, strategy="high", seats={0: "pimc"})


# 3. a plugin imports a helper module beside it

HELPER = '''
from simtool import bits


def pick(view):
    return bits.{side}(view.legal{extra})
'''

BOT = '''
import mylib


def bot(view, rng):
    return mylib.pick(view)
'''


def _bot(folder, side: str, name: str = "bot"):
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(BOT)
    extra = ", view.n_actions" if side == "highest" else ""
    (folder / "mylib.py").write_text(HELPER.format(side=side, extra=extra))
    return f"{folder}/{name}.py:bot"


def _plays(entry, **kw):
    return simtool.run("black-white", n=400, seed=5, players=3, strategy="random", seats={0: entry}, jobs=1, **kw)


def _inline(folder, side: str, name: str = "bot") -> str:
    """The same plugin as one file, its helper written into it."""
    folder.mkdir()
    extra = ", view.n_actions" if side == "highest" else ""
    (folder / f"{name}.py").write_text(HELPER.format(side=side, extra=extra) + BOT.replace("import mylib", "")
                                       .replace("mylib.pick", "pick"))
    return f"{folder}/{name}.py:bot"


def _same(one, other) -> bool:
    return one.seats.drop("strategy").equals(other.seats.drop("strategy"))


@pytest.mark.parametrize("isolate", [False, True])
def test_a_plugin_imports_the_helper_module_beside_it(tmp_path, isolate):
    # before: "strategy plugin .../bot.py failed to load: ModuleNotFoundError: No module named
    # 'mylib'", though docs/plugins.md says a plugin may use a helper module beside it
    assert _same(_plays(_bot(tmp_path / "a", "lowest"), isolate=isolate), _plays(_inline(tmp_path / "i", "lowest")))


def test_two_plugins_each_import_their_own_helper_of_one_name(tmp_path):
    def both(a, b):
        return simtool.run("black-white", n=400, seed=5, players=3, strategy="random", seats={0: a, 1: b}, jobs=1)

    low, high = _bot(tmp_path / "a", "lowest", "low"), _bot(tmp_path / "b", "highest", "high")
    assert _same(both(low, high), both(_inline(tmp_path / "i", "lowest", "low"),
                                       _inline(tmp_path / "j", "highest", "high")))
    assert "mylib" not in sys.modules  # off the names: not the next plugin's


@pytest.mark.parametrize("isolate", [False, True])
def test_a_helper_edited_between_two_runs_of_one_process_is_imported_anew(tmp_path, isolate):
    # as an edited plugin is (a notebook's session), the plugin file itself untouched
    entry = _bot(tmp_path / "a", "lowest")
    assert _same(_plays(entry, isolate=isolate), _plays(_inline(tmp_path / "i", "lowest")))
    (tmp_path / "a" / "mylib.py").write_text(HELPER.format(side="highest", extra=", view.n_actions"))
    assert _same(_plays(entry, isolate=isolate), _plays(_inline(tmp_path / "j", "highest")))


def test_a_resume_refuses_a_helper_module_changed_since_the_run_started(tmp_path):
    from .test_hardening_runs import cli, interrupted, one_line_error, small_spec

    entry = _bot(tmp_path / "a", "lowest")
    out, spec = tmp_path / "run", small_spec([entry])
    assert spec.plugins[entry]["beside"].keys() == {"mylib.py"}
    interrupted(out, spec, 2)
    _bot(tmp_path / "a", "highest")
    one_line_error(cli("run", "--resume", out), "mylib.py beside strategy plugin", "changed or went since the run "
                   "started")


# 4. results tables holding values the game cannot produce

@pytest.fixture(scope="module")
def kc_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("kc") / "run"
    simtool.run("kansas-city", n=300, seed=1, jobs=1, out=run)
    return run


@pytest.mark.parametrize("edit, needle", [
    (pl.when(pl.col("seat") == 0).then(15).otherwise(pl.col("tricks")).cast(pl.Int8).alias("tricks"),
     "column 'tricks' has 300 values outside 0..14 (the tricks a round of 4 players holds under these rules)"),
    (pl.when(pl.col("deal") == 5).then(-1).otherwise(pl.col("tricks")).cast(pl.Int8).alias("tricks"),
     "column 'tricks' has 4 values outside 0..14"),
    (pl.col("strategy").cast(pl.String).str.replace("target", "ghost").cast(pl.Enum(["ghost"])).alias("strategy"),
     "column 'strategy' names 'ghost', which run.json's line-up does not (target)"),
    (pl.when(pl.col("seat") == 3).then(7).otherwise(pl.col("seat")).cast(pl.Int8).alias("seat"),
     "has rows for seats 0, 1, 2, 7 but run.json says 4 players"),  # refused before too
])
def test_a_table_with_values_the_game_cannot_produce_and_its_checksum_rehashed_is_refused(kc_run, tmp_path, edit,
                                                                                         needle):
    # before: 15 tricks of a 14-card hand, -1 tricks and a strategy the line-up never named were
    # reported as the run's results (exit 0)
    import shutil

    from .test_cli import cli
    from .test_hardening_round15 import rehashed

    run = tmp_path / "run"
    shutil.copytree(kc_run, run)
    pl.read_parquet(run / "seats.parquet").with_columns(edit).write_parquet(run / "seats.parquet")
    rehashed(run)
    r = cli("report", run, "-o", tmp_path / "page.html")
    assert r.exit_code == 2, r.output
    assert needle in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "page.html").exists()


def test_a_match_table_with_a_match_of_no_rounds_is_refused(tmp_path):
    from .test_cli import cli

    run = tmp_path / "run"
    simtool.run("nine-lives", n=20, seed=1, jobs=1, unit="match", out=run)
    meta = json.loads((run / "run.json").read_text())
    matches = pl.read_parquet(run / "matches.parquet")
    matches.with_columns(pl.when(pl.col("match") == 0).then(0).otherwise(pl.col("rounds"))
                         .cast(matches.schema["rounds"]).alias("rounds")).write_parquet(run / "matches.parquet")
    meta["sha256"]["matches.parquet"] = hashlib.sha256((run / "matches.parquet").read_bytes()).hexdigest()
    (run / "run.json").write_text(json.dumps(meta))
    r = cli("report", run, "-o", tmp_path / "page.html")
    assert r.exit_code == 2 and "column 'rounds' has" in r.output and "below 1" in r.output, r.output


def test_every_built_in_game_declares_the_most_tricks_of_a_round_and_the_plugin_labels_load(tmp_path):
    from simtool.pipeline import folders

    assert all(g.most_tricks(simtool.options.resolve(g, {}), g.default_players) for g in games.BUILT_IN)
    plugin = _bot(tmp_path / "a", "lowest")
    run = tmp_path / "run"
    simtool.run("black-white", n=50, seed=1, jobs=1, players=3, out=run,
                seats={0: plugin, 1: f"pimc@samples=2,playout={plugin}"})
    assert set(pl.read_parquet(run / "seats.parquet")["strategy"]) == {"bot.py:bot", f"pimc@samples=2,playout="
                                                                       f"{plugin}", "balance"}
    folders.load(run)  # a plugin is tabled by its file's name, not its path


# 5. a tiny win share is not shown as none

def test_a_tiny_share_shows_its_first_significant_figure_and_zero_stays_zero():
    from simtool import stats
    from simtool.analysis import verdicts

    # before: "0.0% (0.0–0.0%)", read as exactly none and no doubt
    assert stats.fmt_share(0.0003, 0.0002, 0.0005) == "0.03% (0.02–0.05%)"
    assert stats.fmt_rate(0.0003, 0.0002, 0.0005) == "0.03% (0.02–0.05)"
    assert stats.fmt_share(0.0, 0.0, 0.000004) == "0.0% (0.0–0.0004%)"  # none won: 0, and the doubt shows
    assert stats.fmt_share(0.25, 0.249, 0.251) == "25.0% ± 0.1%"  # as before above 0.1%
    assert stats.fmt_rate(0.333, 0.3281, 0.3384) == "33.3% (32.8–33.8)"
    shares = [(0, 0.0003, 0.0002, 0.0005), (1, 0.333, 0.332, 0.334), (2, 0.333, 0.332, 0.334),
              (3, 0.3337, 0.3327, 0.3347)]
    sentence = verdicts.seat_verdict(shares, 4, 1_000_000, "matches").sentence
    assert sentence.startswith("Seat 0 wins 0.03% of matches, 24.97 points less than a fair 25.00%"), sentence


def test_a_run_with_a_tiny_match_win_share_shows_it_in_the_table_the_report_and_keeps_it_exact(tmp_path,
                                                                                                charts_undrawn):
    # Kansas City's 'high' against three 'target' wins 4.5 of 20,000 matches (0.0225%): the CLI
    # table, the by-strategy table and the report printed "0.0% (0.0–0.1)"
    from .test_cli import cli

    run = tmp_path / "run"
    r = cli("run", "--game", "kansas-city", "--unit", "match", "--n", "20000", "--seed", "1", "--strategy", "target",
            "--seat", "0=high", "--jobs", "1", "--out", run)
    assert r.exit_code == 0, r.output
    assert r.output.count("0.02% (0.01–0.05)") == 2 and "0.0% (0.0–0.1)" not in r.output, r.output
    page = tmp_path / "page.html"
    assert cli("report", run, "-o", page).exit_code == 0
    html = page.read_text()
    assert "0.02% (0.01–0.05%)" in html and "0.0% (0.0–0.1%)" not in html
    exact = pl.read_parquet(run / "matches.parquet").filter(pl.col("seat") == 0)["win"].mean()
    assert exact == pytest.approx(0.000225)  # the tables keep the share itself
