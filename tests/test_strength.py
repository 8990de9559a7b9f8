"""The strength table (``make strength``): the search plays each rule variant's own rules, and the
table's figures (win shares, intervals, rates, the fair-share check) are right on known cases."""

from __future__ import annotations

import dataclasses
import json
from math import comb, sqrt

import numpy as np
import polars as pl
import pytest

import strategies
from simtool import engine
from simtool.analysis import strength
from simtool.analysis.ladder import climber_share
from simtool.commands import strength as command
from simtool.games.black_white import BLACK, WHITE
from simtool.games.black_white import GAME as BW

from .test_black_white import card, hand_built


def _colour(deck: int, entry: str) -> int:
    """The colour ``entry`` announces after leading printed card 16 to a lone trick in 3p, with
    a deck of ``deck`` cards (the other seats' cards hidden from it)."""
    state = hand_built([[16], [1], [2]], cards=deck)
    play = BW.play(state)
    play.send(None)
    d = play.send(np.array([card(16)]))
    assert d.kind == "colour"
    view = engine.view_of(BW, state, d.kind, np.broadcast_to(d.seat, (1,)), np.broadcast_to(d.legal, (1,)))
    return int(strategies.resolve(entry, BW.id)(view, np.random.default_rng(0))[0])


def _wins_lone_trick(number: int, deck: int) -> float:
    """The chance that ``number`` beats the other two seats' numbers in its colour, their cards
    dealt at random from the other ``deck - 1`` (each colour numbers the deck 1..deck)."""
    return comb(number - 1, 2) / comb(deck - 1, 2)


@pytest.mark.parametrize("deck", [36, 24])
def test_the_search_plays_the_variants_deck(deck):
    # one trick in 3p: taking it alone (1-0) scores -1, losing it 0, so the leader announces the
    # colour in which its card is the lower number. Card 16 is black 16 and white deck + 1 - 16:
    # white 21 with the sheet's 36 cards, so black; white 9 with 24, so white. pimc re-deals the
    # hidden cards and plays them out under the deal's own deck: its choice must follow the rule
    white = deck + 1 - 16
    best = WHITE if _wins_lone_trick(white, deck) < _wins_lone_trick(16, deck) else BLACK
    assert best == (BLACK if deck == 36 else WHITE)
    assert _colour(deck, "pimc@samples=32") == best


def _outcome(p: int, deals: int, wins) -> pl.DataFrame:
    """Seat rows of a rotated one-seat run: the climber sits in seat ``(p - deal % p) % p``; it
    wins the deals where ``wins(deal)``, else the seat after it wins."""
    rows = {"deal": [], "seat": [], "win": []}
    for i in range(deals):
        own = (p - i % p) % p
        winner = own if wins(i) else (own + 1) % p
        rows["deal"] += [i] * p
        rows["seat"] += list(range(p))
        rows["win"] += [float(s == winner) for s in range(p)]
    return pl.DataFrame(rows)


def test_the_climbers_share_and_interval_on_a_fake_run():
    # 300 deals, 3 players: the climber wins 2 deals in 5, as often in every seat (40 in each
    # rotation's 100): a share of 0.4 with the binomial half-width 1.96 sqrt(0.4 * 0.6 / 300)
    row = climber_share(_outcome(3, 300, lambda i: i % 5 < 2), 3, "pimc", "balance")
    assert row["win"] == pytest.approx(0.4)
    half = (row["win_high"] - row["win_low"]) / 2
    assert half == pytest.approx(1.96 * sqrt(0.4 * 0.6 / 300), rel=0.01)
    assert row["win_low"] < 0.4 < row["win_high"]
    # a climber that wins every deal in which it sits in seat 0 (one in 3) and no other
    row = climber_share(_outcome(3, 300, lambda i: i % 3 == 0), 3, "pimc", "balance")
    assert row["win"] == pytest.approx(1 / 3) and row["skill"] == pytest.approx(0)


def _cell(role="fair", share=0.4, half=0.02, search="pimc", cpu=16.0, variant="default") -> strength.Cell:
    return strength.Cell("kansas-city", variant, role, search, "target", 4, 4096, share, share - half,
                         share + half, 0.25, 8.0, 2, cpu)


def test_rates_and_points_in_the_table():
    fair, ref = _cell(), _cell("reference", 0.55, search="clairvoyant", cpu=4.0)
    doubled = _cell("doubled", 0.43, search="pimc@samples=16", cpu=32.0)
    assert fair.per_cpu == 256 and fair.on_cores == 512 and fair.wall_rate == 512
    assert ref.on_cores == 2048
    assert _cell(cpu=None).per_cpu is None
    text = strength.markdown([fair, doubled, ref], {"date": "D", "seed": 11, "deals": 4096})
    assert ("| kansas-city | default | 3 × `target` | 0.250 | 0.400 ± 0.020 | 512 | 0.550 ± 0.020 | 2,048 "
            "| +15.0 |") in text
    # the doubled budget: +3 points for twice the CPU a deal
    assert "| `pimc@samples=16` 0.430 ± 0.020 | 256 | +3.0 | × 2.0 |" in text
    assert "None: every search wins at least the fair share." in text
    assert "win exactly the same share" not in text
    # a game that hides nothing: the reference plays as pimc does, and the table says why
    same = strength.markdown([fair, dataclasses.replace(fair, role="reference", search="clairvoyant")], {})
    # a difference that shows as 0 has no sign (round 14: "-0.0" claimed a side), as the review's
    assert "| 0.0 |" in same and "win exactly the same share in kansas-city" in same
    # a cell kept from an earlier call has no CPU time: its wall-clock rate, marked
    assert "(512 wall)" in strength.markdown([_cell(cpu=None)], {})
    (record,) = json.loads(strength.as_json([fair], {"seed": 11}))["cells"]
    assert record["half_width"] == pytest.approx(0.02) and record["deals_per_second_2_cores"] == 512
    assert strength.as_csv([fair, ref]).count("\n") == 3


def test_a_cell_below_the_fair_share_is_named():
    low = _cell(share=0.24, half=0.02, variant="pass_count=0")
    clear = _cell(share=0.20, half=0.02)
    lines = strength.below([_cell(), low, clear])
    assert len(lines) == 2
    assert "kansas-city [pass_count=0] pimc (fair) wins 0.240 ± 0.020" in lines[0]
    assert "within its 95% interval" in lines[0] and "whole 95% interval is below" in lines[1]
    assert "BELOW THE FAIR SHARE" in strength.markdown([low], {})


def test_variant_labels_name_only_the_rules_that_differ():
    assert strength.variant({"deck": 36, "hand_size": "sheet"}, {"deck": 36, "hand_size": "sheet"}) == "default"
    assert strength.variant({"deck": 30, "hand_size": 8}, {"deck": 36, "hand_size": "sheet"}) == \
        "deck=30, hand_size=8"


def test_every_game_has_two_variants_that_differ_from_its_defaults():
    cells = command.plan(n=64)
    for game in command.GAMES:
        mine = [(s, r) for s, r in cells if s.game == game]
        rules = {repr(s.rules) for s, _ in mine}
        assert len(rules) == 3  # the defaults and two variants
        assert sorted(r for _, r in mine) == ["doubled", "fair", "fair", "fair", "reference", "reference",
                                              "reference"]
        for spec, _ in mine:  # one search seat against the default heuristic, rotated
            assert spec.rotate and len(set(spec.lineup[1:])) == 1 and spec.lineup[0] != spec.lineup[1]


def test_a_small_table_is_played_and_kept(tmp_path):
    runs, said = tmp_path / "runs", []
    # 16 deals a cell (4 a seat of the rotation), as test_hardening_leftovers' strength test: what is
    # read is the table's cells and that they are kept, not its figures (64 deals: 0.6 s more CPU)
    cells, context = command.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=said.append)
    assert [c.variant for c in cells] == ["default"] * 3 + ["deck=30"] * 2 + ["hand_size=8"] * 2
    assert [c.role for c in cells] == ["fair", "doubled", "reference", "fair", "reference", "fair", "reference"]
    assert all(0 <= c.low <= c.share <= c.high <= 1 and c.on_cores > 0 for c in cells)
    assert said[0].startswith("7 cells of 16 deals") and len(said) == 8
    # again: every cell is kept as it was, with the CPU time measured the first time
    again, _ = command.measure(runs, ["black-white"], n=16, seed=3, jobs=1, say=said.append)
    assert again == cells
    assert command.cpu_file(runs).exists() and not (runs / command.cpu_file(runs).name).exists()
    files = command.write(cells, context, tmp_path / "table")
    assert [f.suffix for f in files] == [".md", ".json", ".csv"]


def test_a_doubled_budget_doubles_every_count_of_worlds_in_use():
    from simtool.commands import strength as command

    assert command.searches("black-white")["doubled"] == "pimc@samples=16"
    assert command.searches("out-trumped")["doubled"] == "pimc@samples=32,focus_samples=12,focus_deep=24"
    # Nine Lives searches its bid in focus_samples worlds and gives a second look in deep more
    assert command.searches("nine-lives")["doubled"] == "pimc@samples=16,deep=40,focus_samples=48"
