"""Leftovers of the last review (5b): a designer's game writing a negative seat, a designer's game
failing inside a search's play-out, a plugin's helper module beside it, results tables holding
values the game cannot produce, and tiny win shares shown as zero (each test failed on the code
before its fix)."""

from __future__ import annotations

import numpy as np
import pytest

import simtool
from simtool import engine, games
from simtool.errors import GameError
from simtool.games.tricks import play_trick, record_trick

from .designer_games.whist import Whist


@pytest.fixture
def installed(monkeypatch):
    """Registers games for a test, as the conformance suite does for a game not installed."""
    def install(*added):
        monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, *added))
    return install


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
