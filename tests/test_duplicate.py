"""--duplicate: every deal (or match) played once per rotation of the line-up, the same cards;
and the luck-against-skill split it makes possible."""

import dataclasses

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import stats
from simtool.commands.run import execute_run
from simtool.pipeline.runner import make_spec
from simtool.reports.balance import analysis

from .test_cli import cli


@pytest.mark.parametrize("game, unit", [("black-white", "deal"), ("trickster", "deal"),
                                         ("black-white", "match"), ("out-trumped", "match")])
def test_copies_get_the_same_cards(game, unit):
    """``high`` uses no randomness: at every seat, every copy of a deal (every round of every
    copy of a match) must play out exactly alike, which only the same cards give."""
    r = simtool.run(game, n=40, players=3, strategy="high", seed=2, unit=unit, duplicate=True)
    key = "deal" if unit == "deal" else "match"
    rows = r.seats.sort(key, "rotation", *(["round"] if unit == "match" else []), "seat")
    first = rows.filter(pl.col("rotation") == 0).drop("rotation")
    for copy in (1, 2):
        assert rows.filter(pl.col("rotation") == copy).drop("rotation").equals(first)
    if unit == "match":
        rounds = r.matches.group_by(key).agg(pl.col("rounds").n_unique())
        assert (rounds["rounds"] == 1).all()


def test_every_strategy_holds_every_seats_cards():
    r = simtool.run("black-white", n=30, players=3, strategy="random", seats={0: "balance"}, seed=1,
                    duplicate=True)
    assert r.seats.height == 30 * 3 * 3
    held = r.seats.filter(pl.col("strategy") == "balance").group_by("deal").agg(
        pl.col("seat").sort(), pl.col("rotation").sort())
    assert held["seat"].to_list() == [[0, 1, 2]] * 30
    assert held["rotation"].to_list() == [[0, 1, 2]] * 30
    # copy r seats line-up position (s + r) mod p in seat s, as --rotate does for deal r
    at = r.seats.filter(pl.col("strategy") == "balance").select((pl.col("seat") + pl.col("rotation")) % 3)
    assert (at.to_series() == 0).all()


def test_duplicate_results_do_not_depend_on_jobs_or_chunks():
    spec = dataclasses.replace(make_spec("kansas-city", 4, 50, "target", {0: "greedy"}, seed=3,
                                         duplicate=True, unit="match"), chunk=8)
    one = execute_run(spec, 1, None, False, None, keep=True)
    two = execute_run(spec, 2, None, False, None, keep=True)
    assert one.seats.equals(two.seats) and one.matches.equals(two.matches)
    assert one.matches["match"].unique().sort().to_list() == list(range(50))


def test_plain_runs_are_unchanged_by_the_duplicate_code():
    """A run without --duplicate deals one shuffle per deal as before: no rotation column."""
    r = simtool.run("black-white", n=20, players=3, seed=1)
    assert "rotation" not in r.seats.columns and r.seats.height == 60


def test_a_game_dealing_from_the_match_so_far_refuses_duplicate_matches():
    with pytest.raises(simtool.SimtoolError, match="nine-lives deals each round from the match"):
        make_spec("nine-lives", 4, 10, unit="match", duplicate=True)
    r = cli("run", "--game", "nine-lives", "--unit", "match", "--duplicate", "--n", "5")
    assert r.exit_code == 2 and "--duplicate with --unit deal" in r.output


def test_cli_summary_and_report_show_the_measured_gain_and_the_luck_split(tmp_path, charts_undrawn):
    out = tmp_path / "dup"
    r = cli("run", "--game", "black-white", "--players", "3", "--strategy", "random", "--seat",
            "0=balance", "--duplicate", "--n", "300", "--seed", "4", "--jobs", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert "narrower" in r.stdout and "the cards decide about" in r.stdout
    html = tmp_path / "dup.html"
    assert cli("report", out, "-o", html).exit_code == 0
    text = html.read_text()
    assert "Duplicate deals: every deal was played once per rotation" in text
    assert "Luck against skill" in text


def test_duplicate_gain_on_card_decided_deals():
    """Two seats; the better hand wins 90% of games, whoever holds it. Strategy A holds hand r
    in copy r, so over a deal's two copies its wins vary as Bernoulli(0.9) + Bernoulli(0.1)
    (variance 0.18 over 2 games) against a fair coin per game on fresh cards (0.25 each): the
    paired half-width is sqrt(0.18 / 0.5) = 0.6 of the rotated one."""
    rng = np.random.default_rng(0)
    deals = 20_000
    best = np.repeat(rng.integers(0, 2, deals), 2)  # the seat whose hand is better
    winner = np.where(rng.random(deals * 2) < 0.9, best, 1 - best)
    win = np.zeros((deals * 2, 2))
    win[np.arange(deals * 2), winner] = 1
    codes = np.tile([[0, 1], [1, 0]], (deals, 1))  # copy r: A in seat r
    gain = stats.duplicate_gain({"win": win}, codes, ["A", "B"], np.repeat(np.arange(deals), 2))
    a = gain.row(0, named=True)
    assert a["half_rotate"] == pytest.approx(1.96 * np.sqrt(0.25 / (2 * deals)), rel=0.02)
    assert a["narrower"] == pytest.approx(0.4, abs=0.03)
    assert a["games_ratio"] == pytest.approx(0.5 / 0.18, rel=0.08)


def test_luck_share_of_card_decided_and_skill_decided_games():
    rng = np.random.default_rng(1)
    deals, p = 2000, 4
    cards = rng.normal(size=(deals, 1, p))  # each seat's cards, whoever holds them
    luck = stats.luck_shares(np.broadcast_to(cards, (deals, p, p)) + 0.01 * rng.normal(size=(deals, p, p)))
    assert luck["share"][0] > 0.99 and luck["share_low"][0] > 0.98
    skill = 2 * rng.normal(size=(1, p, p))  # which strategy holds the seat, whatever the cards
    none = stats.luck_shares(np.broadcast_to(skill, (deals, p, p)) + 0.01 * rng.normal(size=(deals, p, p)))
    assert none["share"][0] < 0.01 and none["share"][1] > 0.99
    # known components: cards 1, strategy and seat the cells' spread, the rest 1
    mixed = stats.luck_shares(cards + skill + rng.normal(size=(deals, p, p)))
    spread = float(((skill[0] - skill[0].mean(axis=0)) ** 2).mean(axis=0).sum()
                   + ((skill[0].mean(axis=0) - skill[0].mean()) ** 2).sum())
    truth = np.array([p, spread, p]) / (2 * p + spread)
    assert np.all(np.abs(mixed["share"].to_numpy() - truth) < 0.03)
    assert np.all((mixed["share_low"].to_numpy() <= truth + 0.01) & (truth - 0.01 <= mixed["share_high"].to_numpy()))


def test_deterministic_play_leaves_all_variance_to_the_cards():
    r = simtool.run("kansas-city", n=300, players=4, strategy="target", seed=5, duplicate=True)
    a = analysis(r.meta, r.seats, r.matches)
    luck = dict(a.metrics)["Luck against skill: shares of the variance of a seat's result"]
    assert luck["score_share"][0] > 0.95 and luck["score_share"][2] < 0.01


def test_sweeps_take_duplicate_from_the_grid_file():
    from simtool.commands import sweep

    specs = sweep.cells(sweep.make_grid({"games": ["black-white"], "lineups": ["default,random"],
                                         "n": 10, "seed": 1, "duplicate": True}))
    assert [s.duplicate for s in specs] == [True] and specs[0].chunk == (1 << 15) // 3
    with pytest.raises(simtool.SimtoolError, match="bad duplicate 'yes'; expected true or false"):
        sweep.make_grid({"games": ["black-white"], "duplicate": "yes"})


def test_replay_of_a_duplicate_deal_gives_the_results_of_every_copy(tmp_path):
    run = tmp_path / "dup"
    assert cli("run", "--game", "black-white", "--players", "3", "--strategy", "random", "--seat",
               "0=balance", "--duplicate", "--n", "50", "--seed", "9", "-q", "--out", run).exit_code == 0
    r = cli("replay", "--game", "black-white", "--players", "3", "--strategy", "random", "--seat",
            "0=balance", "--duplicate", "--n", "50", "--seed", "9", "--deal", "17")
    assert r.exit_code == 0, r.output
    scores = pl.read_parquet(run / "seats.parquet").filter(pl.col("deal") == 17)["score"].to_list()
    shown = [int(line.split("score=")[1].split()[0]) for line in r.output.splitlines() if "score=" in line]
    assert shown == scores and len(shown) == 9


def test_how_much_narrower_duplicate_deals_make_is_not_told_from_a_few_deals(tmp_path):
    # before: 2 duplicate deals read "balance's score per seat held ± 0.327 against ± 2.14 (85%
    # narrower, worth 43.00 times the games)", 1 deal "± nan against ± nan"; the console's table
    # printed raw fractions (0.285) and nan beside the sentence's "± 28.52%"
    import contextlib
    import io

    from simtool.cli import main

    out_text = []
    for n, out in ((2, "two"), (1, "one"), (40, "forty")):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            said_code = main(["run", "--game", "black-white", "--duplicate", "-n", str(n), "--strategy", "random",
                              "--seat", "0=balance", "--seed", "3", "--out", str(tmp_path / out)])
        assert said_code == 0
        out_text.append(" ".join(buffer.getvalue().split()))
    two, one, forty = out_text
    for text in (two, one):
        assert "narrower, worth" not in text and "nan" not in text and "not told from fewer than 30 deals" in text
        assert "│ n/a │ n/a │" in text.replace("  ", " ")
    assert "narrower, worth" in forty or "wider, worth" in forty
    assert "± " in forty and "not told" not in forty


def test_a_gain_not_measured_at_30_deals_or_more_is_left_out_without_blaming_the_deals():
    # before (rev13): a rotated half-width of 0 at 30 deals or more (its gain NaN) read "not told
    # from fewer than 30 deals", and before that "nan% wider"
    from simtool.reports import balance

    gain = pl.DataFrame({"figure": ["win per seat held", "score per seat held"], "strategy": ["a", "a"],
                         "half_duplicate": [0.05, 0.2], "half_rotate": [0.0, 0.3],
                         "narrower": [float("nan"), 1 / 3], "games_ratio": [float("nan"), 2.25]})
    text = balance.duplicate_text(gain, "deals", 40)
    assert "nan" not in text and "not told" not in text and "a's win per seat held ± 5.00% against ± 0.00%;" in text
    assert "(33% narrower, worth 2.25 times the games)" in text
    few = balance.duplicate_text(gain, "deals", 29)
    assert "narrower, worth" not in few and "not told from fewer than 30 deals" in few
