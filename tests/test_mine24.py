"""The tension figures of whole matches read in batches of matches (the rounds' lists of every
match at once took 320 MiB per 100,000 Kansas City matches): the rows of one pass."""

from __future__ import annotations

import pytest

import simtool
from simtool.analysis import tension, verdicts
from simtool.games import get
from tests.designer_games.spades import Spades


def one_pass(seats, matches, game, sides):
    return tension.per_match(*tension.as_sides(seats, matches, sides), game.lower_wins, game.total_floor)


@pytest.mark.parametrize("game, kw", [("kansas-city", {"rotate": True}), ("black-white", {"duplicate": True}),
                                      ("hearts", {}), ("designer-spades", {})])
def test_matches_read_in_batches_give_the_rows_and_tables_of_one_pass(installed, monkeypatch, game, kw):
    installed(Spades())
    # 100 matches in batches of 7: 15 batches, the last of 2 (the rows are compared whole, so
    # 300 matches' 43 batches showed nothing 15 do not; the batches were most of the CPU)
    r = simtool.run(game, n=100, unit="match", strategy="random", seed=5, **kw)
    seats, matches, g = r.seats, r.matches, get(game)
    score = matches.sort("match", *(["rotation"] if "rotation" in matches.columns else []), "seat")
    sides = verdicts.partners(score["total"].to_numpy().reshape(-1, r.meta["players"])) if game == "designer-spades" \
        else []
    assert bool(sides) == (game == "designer-spades")  # the partners' case is read by sides too
    whole = one_pass(seats, matches, g, sides)
    monkeypatch.setattr(tension, "BATCH_MATCHES", 7)
    batched = tension.matchwise(seats, matches, g.lower_wins, g.total_floor, sides)
    assert batched.height == whole.height >= 100 and batched.equals(whole)
    rows, table, lengths = tension.analyse(seats, matches, g.lower_wins, g.total_floor, sides)
    assert rows.equals(whole)
    assert table.equals(tension.summary(whole)) and lengths.equals(tension.lengths(whole))


def test_sparse_match_numbers_are_batched_by_the_matches_there(monkeypatch):
    # a replay's few matches carry their own numbers, far apart: batches are of matches present,
    # not of the numbers between them
    r = simtool.run("kansas-city", n=40, unit="match", strategy="random", seed=2)
    far = {m: m * 10 ** 15 for m in range(40)}
    seats, matches = (t.filter(t["match"] % 3 == 0).with_columns(t["match"].replace_strict(far).alias("match")
                                                                  .filter(t["match"] % 3 == 0))
                      for t in (r.seats, r.matches))
    g = get("kansas-city")
    monkeypatch.setattr(tension, "BATCH_MATCHES", 4)
    assert tension.matchwise(seats, matches, g.lower_wins, g.total_floor).equals(one_pass(seats, matches, g, []))
