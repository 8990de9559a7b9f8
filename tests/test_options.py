"""Every number of Kansas City and Out-Trumped as a rule option: parsing, refusals (one line, exit
2, nothing written), each option's effect on a hand-built or seeded deal, the strategies under
other values, and the tuner over the new options."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import simtool
import strategies
from simtool import bits, games, options
from simtool.commands import sweep, tune
from simtool.engine import Match
from simtool.errors import SimtoolError
from simtool.games import kansas_city as kc
from simtool.games import out_trumped as ot
from simtool.pipeline.runner import play_chunk

from .conftest import spec
from .test_cli import cli, one_line_error
from .test_conformance import watched_round

KC, OT = games.get("kansas-city"), games.get("out-trumped")


def defaults(game) -> dict:
    return {o.name: o.default for o in game.options}


# ---- parsing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game,assign,value", [
    ("kansas-city", "limit=4", 4),
    ("kansas-city", "limit=sheet", "sheet"),
    ("kansas-city", "score_table=0,5,10,15,20,5,0", "0,5,10,15,20,5,0"),
    ("kansas-city", "score_table=[0, 5, -5]", "0,5,-5"),  # as a TOML list reads
    ("kansas-city", "four_bonus=-3", -3),
    ("kansas-city", "hand_size=10", 10),
    ("out-trumped", "goal=30", 30),
    ("out-trumped", "hand_size=sheet", "sheet"),
    ("out-trumped", "hand_size=9", 9),
    ("out-trumped", "kitty_size=3", 3),
    ("out-trumped", "sole_bonus=3", 3),
    ("out-trumped", "trump_bonus=0", 0),
    ("out-trumped", "penalty=2", 2),
    ("out-trumped", "ranks=8", 8),
    ("out-trumped", "suits=4", 4),
])
def test_every_new_option_parses(game, assign, value):
    name, _, text = assign.partition("=")
    with_kitty = {"kitty": "bid"} if name == "kitty_size" else {}  # no kitty has no size
    rules = options.resolve(games.get(game), {name: text, **with_kitty})
    assert rules[name] == value
    games.get(game).check_rules(rules, games.get(game).default_players)


def test_games_lists_each_option_with_its_default_and_range():
    r = cli("games")
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    for needle in ("limit: sheet (3 at 4p, 2 at 5p, at most the hand size) or 1..14", "four_bonus: 2 (-10..10)",
                   "hand_size: sheet (14 at 4p, 11 at 5p) or 1..14", "goal: 50 (1..1000)",
                   "kitty_size: 5 (1..20)", "ranks: 12 (2..64)", "suits: 5 (1..8)",
                   "pass_count: 3, 0, 1, 2", "kitty: none, bid, low-card"):
        assert needle in text, needle


def test_option_words_and_vary_forms():
    limit = next(o for o in KC.options if o.name == "limit")
    table = next(o for o in KC.options if o.name == "score_table")
    assert limit.valid() == "sheet or a whole number 1..14" and limit.domain() == tuple(range(1, 15))
    assert limit.select("kansas-city", "2..4") == (2, 3, 4)
    assert limit.select("kansas-city", "4,sheet,2") == ("sheet", 2, 4)
    assert table.select("kansas-city", "0,5,10,5,0; 0,5,10,15,5,0") == ("0,5,10,5,0", "0,5,10,15,5,0")
    with pytest.raises(SimtoolError, match="needs the values to try"):
        table.select("kansas-city", None)
    assert sweep.rules_arg(["score_table=0,5,5;1,2", "four_bonus=0,2"]) == {
        "score_table": ["0,5,5", "1,2"], "four_bonus": ["0", "2"]}


def test_a_sweep_file_gives_score_tables_as_lists_or_text():
    grid = sweep.make_grid({"games": ["kansas-city"], "rules": {
        "score_table": [[0, 5, 10, 15, 5, 0], "0,5,10,15,10,0"], "limit": [3, 4]}})
    assert grid.rules == {"score_table": ["0,5,10,15,5,0", "0,5,10,15,10,0"], "limit": ["3", "4"]}
    cells = list(sweep.variants(grid))
    assert len(cells) == 4 and {c[2]["score_table"] for c in cells} == {"0,5,10,15,5,0", "0,5,10,15,10,0"}


def test_records_name_a_number_only_when_changed():
    rules = defaults(KC) | {"pass_count": 2}
    assert options.named(KC, rules) == {"pass_count": 2, "hands": "3"}
    assert options.named(KC, rules | {"limit": 4}) == {"pass_count": 2, "hands": "3", "limit": 4}


# ---- refusals ---------------------------------------------------------------------------------

BAD = [
    ("kansas-city", ["limit=0"], "bad rule limit '0' for kansas-city; expected sheet or a whole number 1..14"),
    ("kansas-city", ["limit=15"], "expected sheet or a whole number 1..14"),
    ("kansas-city", ["limit=x"], "expected sheet or a whole number 1..14"),
    ("kansas-city", ["score_table=5"], "expected sheet or 2-15 whole numbers -99..99, comma-separated"),
    ("kansas-city", ["score_table=0,5,x"], "bad rule score_table"),
    ("kansas-city", ["score_table=0,100"], "bad rule score_table"),
    ("kansas-city", ["score_table=" + ",".join(["0"] * 16)], "bad rule score_table"),
    ("kansas-city", ["four_bonus=11"], "expected a whole number -10..10"),
    ("kansas-city", ["four_bonus=1.5"], "expected a whole number -10..10"),
    ("kansas-city", ["hand_size=0"], "expected sheet or a whole number 1..14"),
    ("kansas-city", ["hand_size=15"], "expected sheet or a whole number 1..14"),
    ("out-trumped", ["goal=0"], "expected a whole number 1..1000"),
    ("out-trumped", ["hand_size=33"], "expected sheet or a whole number 1..32"),
    ("out-trumped", ["kitty_size=0"], "expected a whole number 1..20"),
    ("out-trumped", ["sole_bonus=11"], "expected a whole number -10..10"),
    ("out-trumped", ["trump_bonus=one"], "expected a whole number -10..10"),
    ("out-trumped", ["penalty=-11"], "expected a whole number -10..10"),
    ("out-trumped", ["ranks=1"], "expected a whole number 2..64"),
    ("out-trumped", ["suits=9"], "expected a whole number 1..8"),
]
UNPLAYABLE = [
    ("kansas-city", ["hand_size=12", "-p", "5"],
     "hand_size 12 at 5p deals 61 cards (the set-aside card included) but the deck has 56: at most 11"),
    ("kansas-city", ["hand_size=5", "limit=6"], "limit 6 is above the hand size of 5 at 4p: at most 5"),
    ("kansas-city", ["hand_size=2", "limit=3"], "limit 3 is above the hand size of 2 at 4p: at most 2"),
    ("kansas-city", ["hand_size=5", "score_table=0,1,2,3,4,5,6"],
     "score_table has 7 entries but a hand of 5 cards wins 0..5 tricks: at most 6 entries"),
    ("out-trumped", ["ranks=13"], "suits 5 x ranks 13 make 65 cards; a card set holds 64 at most"),
    ("out-trumped", ["hand_size=16"],
     "hand_size 16 at 4p deals 64 cards but the deck has 60 (5 suits x 12 ranks): at most hand_size 15"),
    ("out-trumped", ["kitty=bid", "hand_size=14"], "with a kitty of 5 deals 61 cards"),
    ("out-trumped", ["kitty=low-card", "hand_size=13", "kitty_size=20"],
     "at most hand_size 10 with this kitty or kitty_size 8 with these hands"),
    ("out-trumped", ["ranks=2", "suits=1", "-p", "3"], "the deck has 2 (1 suits x 2 ranks): too few"),
]


@pytest.mark.parametrize("game,rules,message", BAD + UNPLAYABLE,
                         ids=[f"{g}-{'-'.join(r)}" for g, r, _ in BAD + UNPLAYABLE])
def test_bad_values_and_unplayable_combinations_are_one_line_exit_2(game, rules, message, tmp_path):
    args = []
    for item in rules:
        args += [item] if item.startswith("-") or item.isdigit() else ["--rule", item]
    out = tmp_path / "run"
    one_line_error(cli("run", "--game", game, "--n", "50", "--jobs", "1", "--out", out, *args), message)
    assert not out.exists()


def test_an_unplayable_sweep_cell_stops_the_sweep_before_it_starts(tmp_path):
    r = cli("sweep", "--game", "out-trumped", "--rule", "ranks=8,13", "--n", "50", "--jobs", "1",
            "--runs", tmp_path / "runs", "--out", tmp_path / "s.html")
    one_line_error(r, "suits 5 x ranks 13 make 65 cards")
    assert not (tmp_path / "runs").exists() and not (tmp_path / "s.html").exists()


# ---- each option's effect ---------------------------------------------------------------------

def _sweep_four_tricks(**numbers):
    """Seat 0 holds the 8 of every suit it leads and wins all four tricks."""
    from .test_kansas_city import c, hand_built

    s = hand_built([["A8", "B8", "C8", "D8"], ["A1", "B1", "C1", "D1"], ["A2", "B2", "C2", "D2"],
                    ["A3", "B3", "C3", "D3"]], **numbers)
    script = []
    for i, suit in enumerate("ABCD"):
        script += [c(f"{suit}{rank}") for rank in (8, 1, 2, 3)] + [kc.DECLINE] * (3 if i < 3 else 0)
    from .conftest import drive

    results, _ = drive(KC, s, script)
    return results


def test_limit_4_scores_four_tricks_without_overshoot():
    rules = defaults(KC) | {"limit": 4}
    assert kc.limit_of(rules, 4) == 4 and kc.score_table(rules, 4) == (0, 5, 10, 15, 20, 5, 0)
    at_4 = _sweep_four_tricks(limit=4, table=kc.score_table(rules, 4))
    assert at_4["score"].tolist() == [[20, 0, 0, 0]] and at_4["overshoot"].tolist() == [[0, 0, 0, 0]]
    sheet = _sweep_four_tricks()  # the sheet's limit of 3: four tricks overshoot by one
    assert sheet["score"].tolist() == [[5, 0, 0, 0]] and sheet["overshoot"].tolist() == [[1, 0, 0, 0]]


def test_copying_six_deals_keeps_a_six_entry_table_whole():
    """The table is no per-deal array, even when it has as many entries as there are deals."""
    s = KC.deal(np.random.default_rng(2), Match(4, defaults(KC), np.zeros((6, 4), np.int32)), 0)
    assert s.take(np.arange(2)).table == s.repeat(3).table == (0, 5, 10, 15, 5, 0)


def test_a_score_table_of_ones_own():
    table = kc.score_table(defaults(KC) | {"score_table": "1,2,7"}, 4)
    results = _sweep_four_tricks(table=table)
    assert results["score"].tolist() == [[7, 1, 1, 1]]  # the last entry: 2 tricks or more


@pytest.mark.parametrize("bonus,points", [(2, 5 + 6), (0, 5), (-1, 5 - 3)])
def test_four_bonus(bonus, points):
    from .conftest import drive
    from .test_kansas_city import c, hand_built

    # seat 0 wins the one trick with A8; the others, void in A, throw their 4s into it
    s = hand_built([["A8"], ["B4"], ["C4"], ["D4"]], four_bonus=bonus)
    results, _ = drive(KC, s, [c("A8"), c("B4"), c("C4"), c("D4")])
    assert results["fours"].tolist() == [[3, 0, 0, 0]] and results["score"][0, 0] == points


@pytest.mark.parametrize("p,hand", [(4, 10), (5, 8)])
def test_hand_size_deals_that_many_and_leaves_the_rest_out(p, hand):
    match = Match(p, defaults(KC) | {"hand_size": hand}, np.zeros((300, p), np.int32))
    s = KC.deal(np.random.default_rng(3), match, 0)
    assert (bits.count(s.hands) == hand).all() and (bits.count(s.dealt) == p * hand).all()
    aside = int(p == 5)
    assert (bits.count(s.left_out) == kc.CARDS - p * hand - aside).all()
    assert ((s.left_out & s.dealt) == 0).all()
    seats = play_chunk(spec("kansas-city", p, n=200, rules={"hand_size": hand, "limit": 2}), 0).seats
    per_deal = seats.group_by("deal").agg(pl.col("tricks").sum())
    assert (per_deal["tricks"] == hand).all()


def test_goal_30_ends_matches_earlier():
    rules = defaults(OT)
    totals = np.array([[10, 30, 29], [10, 29, 29]], np.int32)
    assert OT.match_over(Match(3, rules | {"goal": 30}, totals), 0).tolist() == [True, False]
    assert OT.match_over(Match(3, rules, totals), 0).tolist() == [False, False]
    short = play_chunk(spec("out-trumped", 4, n=150, unit="match", rules={"goal": 30}), 0).matches
    full = play_chunk(spec("out-trumped", 4, n=150, unit="match"), 0).matches
    assert (short.group_by("match").agg(pl.col("total").max())["total"] >= 30).all()
    assert short["rounds"].mean() < full["rounds"].mean()


def test_ranks_8_deals_only_ranks_1_to_8():
    match = Match(4, defaults(OT) | {"ranks": 8}, np.zeros((500, 4), np.int32))
    s = OT.deal(np.random.default_rng(5), match, 0)
    layout = s.layout
    assert (layout.suits, layout.ranks) == (5, 8) and s.hand_size == 10  # 40 cards among 4
    seen = np.bitwise_or.reduce(s.dealt)
    assert seen == bits.full(40)  # every card of the 40-card deck, none beyond
    assert OT.label_at(s, "lead", 39) == "E8" and OT.label_at(s, "lead", 8) == "B1"


def test_suits_3_rolls_a_four_faced_die_and_the_dealer_picks_among_3():
    match = Match(4, defaults(OT) | {"suits": 3}, np.zeros((400, 4), np.int32))
    s = OT.deal(np.random.default_rng(6), match, 0)
    assert set(np.unique(s.die)) == {0, 1, 2, 3}
    assert ((s.trump == ot.NO_TRUMP) == (s.die == 3)).all()
    d = OT.play(s).send(None)
    assert d.kind == ot.TRUMP and d.legal == bits.full(3) and (d.active == (s.die == 3)).all()


def test_hand_size_and_kitty_size():
    rules = defaults(OT) | {"kitty": "bid", "kitty_size": 3, "hand_size": 9}
    s = OT.deal(np.random.default_rng(7), Match(4, rules, np.zeros((200, 4), np.int32)), 0)
    assert (bits.count(s.hands) == 9).all() and (bits.count(s.kitty) == 3).all()
    watch, r = watched_round(OT, 4, "hoarder", n=300, unit_rules=rules)
    assert r["taker"].any()
    assert [k for k, _, _ in watch.seen].count(ot.DISCARD) == 3  # the taker discards as many
    assert ot.hand_size(defaults(OT) | {"kitty": "bid", "kitty_size": 10}, 4) == 12  # the sheet's, shrunk


@pytest.mark.parametrize("numbers,trumps,bonus", [
    ({}, [3, 0, 0, 0], [6, 0, 0, 0]),
    ({"sole": 5}, [3, 0, 0, 0], [15, 0, 0, 0]),
    ({"most_bonus": 2, "penalty": 3}, [3, 3, 1, 0], [6, 6, -3, 0]),
    ({"penalty": 0}, [4, 2, 1, 1], [4, 0, 0, 0]),
])
def test_trump_scores(numbers, trumps, bonus):
    r = ot.score(np.zeros((1, 4), np.int16), np.array([trumps], np.int16), np.array([0]),
                 np.full((1, 4), -1), np.array([-1]), "none", **numbers)
    assert r["bonus"].tolist() == [bonus]


def test_trump_score_options_reach_the_round():
    from .conftest import drive
    from .test_out_trumped import c, hand_built

    # trump A; seat 1 trumps B5 with A2 and is the only one to take a trump
    s = hand_built([["B5"], ["A2"], ["B7"]], trump=0, rules={"sole_bonus": 5})
    results, _ = drive(OT, s, [c("B5"), c("A2"), c("B7")])
    assert results["bonus"].tolist() == [[0, 5, 0]]


# ---- strategies under other values ------------------------------------------------------------

KC_VARIANTS = [{"limit": 4, "score_table": "0,5,10,15,20,5,0"}, {"hand_size": 6, "limit": 1, "pass_count": 1},
               {"four_bonus": -2, "score_table": "0,3,9,1"}]
OT_VARIANTS = [{"ranks": 8, "suits": 4}, {"kitty": "bid", "kitty_size": 3, "ranks": 9},
               {"kitty": "low-card", "suits": 8, "ranks": 8, "hand_size": 7},
               {"goal": 20, "sole_bonus": 0, "penalty": 4, "suits": 2, "ranks": 20}]


@pytest.mark.parametrize("game,variant", [(KC, v) for v in KC_VARIANTS] + [(OT, v) for v in OT_VARIANTS],
                         ids=[f"{g}-{i}" for g, vs in (("kc", KC_VARIANTS), ("ot", OT_VARIANTS))
                              for i in range(len(vs))])
def test_every_heuristic_plays_other_values_and_the_invariants_hold(game, variant):
    for name, s in strategies.registry(game.id).items():
        if s.relative_cost() > 1:
            continue
        for p in game.players[:2]:
            game.check_rules(defaults(game) | variant, p)
            watch, results = watched_round(game, p, name, n=150, unit_rules=variant)
            assert watch.seen and results["score"].shape == (150, p)


@pytest.mark.parametrize("game,variant", [("kansas-city", {"hand_size": 7, "limit": 2}),
                                          ("out-trumped", {"ranks": 9, "kitty": "bid", "kitty_size": 2})])
def test_the_search_plays_other_values(game, variant):
    r = simtool.run(game, 12, strategy="pimc@samples=2", rules=variant, seed=4, jobs=1)
    assert r.seats.height == 12 * games.get(game).default_players


# ---- the tuner over the new options -----------------------------------------------------------

def test_a_small_tuning_over_a_new_option(tmp_path):
    config = tune.configure("kansas-city", ["four_bonus=0..1"], ["seat_spread"], trials=4, n=300, seed=3)
    result = tune.tune(config, tmp_path / "t", jobs=1)
    assert sorted(result["trials"]["four_bonus"]) == ["0", "1"] and not result["skipped"]


def test_an_unplayable_trial_is_skipped_and_said(tmp_path):
    config = tune.configure("kansas-city", ["hand_size=2..4"], ["overshoot=0.5"], trials=5, n=200,
                            seed=3, rules={"pass_count": "0", "limit": "3"})
    result = tune.tune(config, tmp_path / "t", jobs=1)
    states = dict(zip(result["trials"]["hand_size"], result["trials"]["state"], strict=True))
    assert states == {"2": "PRUNED", "3": "COMPLETE", "4": "COMPLETE"}
    assert result["skipped"] == ["limit 3 is above the hand size of 2 at 4p: at most 2"]


def test_a_vary_range_with_nothing_playable_is_refused(tmp_path, capsys):
    with pytest.raises(SimtoolError, match="no combination of the vary values can be played: "
                                           "suits 5 x ranks 13"):
        tune.configure("out-trumped", ["ranks=13..14"], ["seat_spread"], trials=4, n=100)
    code = simtool.cli.main(["tune", "--game", "kansas-city", "--vary", "hand_size=1..2", "--rule", "limit=3",
                             "--objective", "seat_spread", "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "no combination" in err
    assert not (tmp_path / "t").exists()


def test_a_run_saved_before_the_numbers_were_options_resumes_with_the_sheets_values(tmp_path):
    import json

    from simtool.pipeline.folders import SPEC

    n, out = 2 * 32768 - 100, tmp_path / "run"

    def stop(done, total):
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simtool.run("kansas-city", n=n, seed=3, jobs=1, out=out, progress=stop, strategy="random")
    saved = out / "chunks" / SPEC
    data = json.loads(saved.read_text())
    data["rules"] = {"pass_count": 3, "hands": "3"}  # as such a run saved them
    del data["sha256"]  # which wrote no checksum of its specification either
    saved.write_text(json.dumps(data))
    r = cli("run", "--resume", out, "-q")
    assert r.exit_code == 0, r.output
    whole = simtool.run("kansas-city", n=n, seed=3, jobs=1, strategy="random")
    assert pl.read_parquet(out / "seats.parquet").equals(whole.seats)
    assert json.loads((out / "run.json").read_text())["rules"] == defaults(KC)
