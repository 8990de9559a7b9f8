"""Hardening: the figures the per-game analysis, restricted play and the published metrics print,
each checked on a case whose answer is known (hard9)."""

from __future__ import annotations

import math

import polars as pl
import pytest

from simtool.analysis import hearts, nine_lives, out_trumped, tension, verdicts
from simtool.analysis import metrics as M
from simtool.analysis import restrict as costs
from simtool.commands import restrict

from .test_metrics import _run as metrics_run


def test_a_restriction_no_deal_reacts_to_is_bounded_by_the_rule_of_three_not_exact(tmp_path):
    """No kitty rule: the restriction cannot bind, no deal differs. 200 paired deals cannot show a
    cost exactly 0 (the old interval was [0, 0] and the verdict 'nothing'): at most 1 - 0.05^(1/200)
    = 1.5% of such deals could differ at 95%, each by at most 1 in win share."""
    table, _ = restrict.measure("out-trumped", tmp_path / "ot", n=200, seed=2, restrictions=["no-kitty"], jobs=1)
    row = table.row(0, named=True)
    bound = 1 - 0.05 ** (1 / 200)
    assert row["changed"] == 0 and row["win_cost"] == 0
    assert (row["win_cost_low"], row["win_cost_high"]) == pytest.approx((-bound, bound))
    assert row["score_change"] == 0 and row["score_change_high"] > 0
    # no deal changed: the review's "never binds", whatever its interval (tests/test_words31.py)
    assert row["verdict"] == "never binds"
    assert "changed no result in 200 deals" in costs.sentence(row)


def seat_rows(columns: dict, p: int) -> pl.LazyFrame:
    """Seat rows of deals ``0..n-1``, ``p`` seats each, from per-row column lists."""
    n = len(next(iter(columns.values()))) // p
    return pl.DataFrame({"deal": [d for d in range(n) for _ in range(p)], "seat": list(range(p)) * n,
                         "strategy": ["random"] * (n * p), **columns}).lazy()


def test_the_hands_with_a_moon_count_the_moons_not_every_hand():
    """Two hands of four, a moon in one: the table said 'a seat takes every penalty card | Count 2'
    for 2 hands, i.e. every hand, beside 50%; the count is 1 hand, out of 2."""
    seats = seat_rows({"hearts": [13, 0, 0, 0, 5, 4, 3, 1], "queen": [1, 0, 0, 0, 0, 1, 0, 0],
                       "moon": [1, 0, 0, 0, 0, 0, 0, 0]}, 4)
    table = dict(hearts.tables(seats, ["deal"]))["Hands with a moon"].row(0, named=True)
    assert (table["n"], table["out_of"], table["share"]) == (1, 2, 0.5)


def test_the_team_and_fallback_counts_are_what_their_labels_name():
    """One deal of four: two seats in a team, one of them scoring; 1 of 3 tricks by the fallback. The
    'Count' beside 'seat-rounds in a team' was every seat-round (4), beside 'team members who scored'
    every team member (2), beside 'tricks won by the Kittykeeper fallback' every trick (3)."""
    seats = seat_rows({"bid": [1, 2, 1, 3], "made": [True, False, False, False], "team_size": [2, 2, 1, 1],
                       "fallback": [1, 0, 0, 0], "tricks": [1, 1, 1, 0]}, 4)
    table = dict(nine_lives.tables(seats, ["deal"]))["Teams and the Kittykeeper fallback"]
    rows = {r["what"]: (r["n"], r["out_of"], r["rate"]) for r in table.iter_rows(named=True)}
    assert rows == {"seat-rounds in a team": (2, 4, 0.5), "team members who scored": (1, 2, 0.5),
                    "tricks won by the Kittykeeper fallback": (1, 3, pytest.approx(1 / 3))}


def tension_rows(rounds: list[int], decided: list[int]) -> pl.DataFrame:
    n = len(rounds)
    return pl.DataFrame({"match": list(range(n)), "rounds": rounds, "lead_changes": [0] * n,
                         "decided_after": decided, "behind_first": [False] * n, "behind_half": [False] * n,
                         "margin": [1] * n})


def test_how_far_into_a_match_it_is_decided_weighs_every_match_alike():
    """A 2-round match decided after round 1 (half of it) and a 10-round one decided in its last round
    (all of it): 75% of the way through on average. Rounds summed first printed 11/12 = 91.7%, the
    long match counting five times the short one."""
    table = tension.summary(tension_rows([2, 10], [1, 10]))
    assert table["decided_share_of_match"][0] == pytest.approx(0.75)
    assert table["decided_share_of_match_low"][0] < 0.75 < table["decided_share_of_match_high"][0]


def test_match_lengths_of_duplicate_matches_count_every_copy():
    """One deal of cards played twice (--duplicate) as whole matches of 2 and 4 hands: 2 matches of
    3 hands on average. Grouped by the deal alone, the table said 1 match of 4 hands (the longest
    copy's), against the tension table's 3."""
    rows = [{"match": 0, "rotation": r, "round": k, "seat": s, "strategy": "random", "score": 1, "bonus": 0}
            for r, length in enumerate((2, 4)) for k in range(length) for s in range(4)]
    table = dict(out_trumped.tables(pl.DataFrame(rows).lazy(), ["match", "rotation", "round"]))[
        "Hands to reach 50 (the matches that got there)"]
    assert (table["matches"][0], table["mean"][0], table["max"][0]) == (2, 3.0, 4)


@pytest.mark.parametrize("figure", ["convergence", "stability"])
def test_identical_games_give_a_bootstrap_figure_no_interval_rather_than_an_exact_one(figure):
    """Two deals with the same wins and lead history: the bootstrap resamples two equal units and
    printed [v, v], an unbounded figure known exactly from two games; there is no interval to give."""
    history = {d: [(0, [0.5, 0.5, 0.5], 3, 0.2), (1, [0.25, 0.9, 0.25], 2, None), (0, [1.0, 0.5, 0.0], 1, None)]
               for d in (0, 1)}
    found = getattr(M, figure)(metrics_run(wins=[[1.0, 0.0, 0.0]] * 2, history=history))
    assert math.isfinite(found.value) and math.isnan(found.low) and math.isnan(found.high)
    assert found.record(figure)["ci"] == [None, None]


def test_half_time_of_an_odd_length_is_after_the_round_that_passes_the_middle():
    """3 rounds, seats 0 and 1: totals [5, 0], [5, 6], [10, 6]. Seat 0 wins; at half-time of 3
    rounds (after round 2, docs/language.md) it was behind; after round 1 it led."""
    seats = pl.DataFrame({"match": [0] * 6, "round": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3,
                          "score": [5, 0, 0, 6, 5, 0]})
    matches = pl.DataFrame({"match": [0, 0], "seat": [0, 1], "total": [10, 6], "win": [1.0, 0.0], "rounds": [3, 3]})
    rows = tension.per_match(seats, matches, False)
    assert rows["behind_first"].to_list() == [False] and rows["behind_half"].to_list() == [True]


def test_one_round_matches_have_no_comeback_figure_and_no_low_tension_verdict():
    """Matches of one round (Hearts with goal=1): their end is their 'half-time', where a winner is never
    behind. Counted, 40 such matches read 'behind at half-time in 0.0% (0.0-8.8%)': low tension. There
    is no comeback to measure, and more matches would not find one."""
    rows = tension_rows([1] * 40, [1] * 40).with_columns(pl.lit(None, pl.Boolean).alias("behind_first"),
                                                         pl.lit(None, pl.Boolean).alias("behind_half"))
    seats = pl.DataFrame({"match": [0, 0], "round": [0, 0], "seat": [0, 1], "score": [3, 1]})
    matches = pl.DataFrame({"match": [0, 0], "seat": [0, 1], "total": [3, 1], "win": [1.0, 0.0], "rounds": [1, 1]})
    one = tension.per_match(seats, matches, False)
    assert one["behind_first"].to_list() == [None] and one["behind_half"].to_list() == [None]
    table = tension.summary(rows)
    assert math.isnan(table["winner_behind_at_half_time"][0]) and math.isnan(table["winner_behind_after_round_1"][0])
    assert "no match lasted more than one round" in tension.text(table, False)
    r = table.row(0, named=True)
    v = verdicts.tension_verdict(*[(r[f], r[f"{f}_low"], r[f"{f}_high"]) for f in (
        "winner_behind_at_half_time", "mean_lead_changes", "decided_share_of_match")], 40)
    assert v.word == "unclear" and v.more is None and "no comeback to measure" in v.sentence


def test_capped_duplicate_matches_are_counted_out_of_every_copy_played():
    """2 deals of 2-player Black & White played as whole matches with --duplicate: 4 matches, one of them
    stopped by the cap. The finding said '1 of 2 matches (50.0%)', the copies counted over the deals."""
    from simtool.reports import balance as report

    lineup, seats, matches = ("balance", "random"), [], []
    for d in range(2):
        for r in range(2):
            for s in range(2):
                strategy, win = lineup[(s + r) % 2], float(s == 0)
                seats.append({"match": d, "rotation": r, "round": 0, "seat": s, "strategy": strategy,
                              "score": int(win), "tricks": 5, "win": win, "black": 2, "white": 3})
                matches.append({"match": d, "rotation": r, "seat": s, "strategy": strategy, "total": int(win),
                                "win": win, "rounds": 1, "capped": (d, r) == (1, 1)})
    meta = {"game": "black-white", "players": 2, "lineup": list(lineup), "duplicate": True, "rotate": False,
            "unit": "match", "n": 2, "seed": 1, "chunk": 2, "rules": {"deck": 30, "hand_size": "sheet"},
            "versions": {"simtool": "x", "numpy": "y"}}
    frame = lambda rows: pl.DataFrame(rows).with_columns(pl.col("strategy").cast(pl.Categorical))  # noqa: E731
    a = report.analysis(meta, frame(seats), frame(matches))
    flagged = [f for f in a.findings if "-round cap" in f]
    assert len(flagged) == 1 and flagged[0].startswith("1 of 4 matches (25.0%) hit the")


def test_every_seat_in_one_team_is_no_team_in_the_team_figures():
    """2 players who bid cards of one suit are one team whose rule the game ignores: no team plays.
    Counted, the table said 'seat-rounds in a team 50%' at 2 players where no team rule ever applies."""
    seats = seat_rows({"bid": [1, 2, 1, 3], "made": [True, False, False, True], "team_size": [2, 2, 1, 1],
                       "fallback": [0, 0, 0, 0], "tricks": [1, 1, 1, 1]}, 2)
    table = dict(nine_lives.tables(seats, ["deal"]))["Teams and the Kittykeeper fallback"]
    rows = {r["what"]: (r["n"], r["out_of"]) for r in table.iter_rows(named=True)}
    assert rows["seat-rounds in a team"] == (0, 4) and "team members who scored" not in rows


def test_the_review_shows_no_tension_figure_where_every_match_is_one_round(tmp_path):
    """Hearts to a goal of 1: every match ends after its first round, so there is no comeback
    share. The review's tension card printed 'nan% (95% interval nan to nan%)' beside a chart point
    at x='nan', and the NaN went on into review.json and the changes table (rev)."""
    from simtool import games
    from simtool.analysis import review as answers
    from simtool.commands.run import execute_run
    from simtool.pipeline import runner
    from simtool.reports import review as page

    spec = runner.make_spec("hearts", None, 12, "ducker", rules={"goal": "1"}, unit="match", seed=3)
    execute_run(spec, 1, tmp_path / "run", False, None, keep=True)
    tension_answer, _ = answers.match_questions(games.get("hearts"), tmp_path / "run")
    assert math.isnan(tension_answer["behind_at_half"]) and tension_answer["figure"] is None
    assert "no comeback to measure" in tension_answer["sentence"]
    assert "tension" not in answers.headlines({"seats": {"figure": None}, "skill": {}, "luck": {"figure": None},
                                               "tension": tension_answer, "hazards": [], "restrictions": []})
    shown = page.card("tension", "Does a match stay open?", tension_answer, None)
    assert (shown["figure"], shown["chart"]) == ("", "")
    luck = {"verdict": "low", "sentence": "", "figure": {"name": "luck", "value": 0.1, "ci": [0.05, 0.2]}}
    seats = {"verdict": "fair", "sentence": "",
             "seats": [{"seat": 0, "share": 0.5, "fair": 0.5, "edge_pts": 0.0, "ci_pts": [-1.0, 1.0]}]}
    questions = {"seats": seats, "skill": {"verdict": "unclear", "sentence": ""}, "luck": luck,
                 "tension": tension_answer, "hazards": []}
    cards = {c["key"]: c for c in page.cards(questions)}
    assert "nan" not in cards["tension"]["figure"] + cards["tension"]["chart"]


def test_a_share_of_nothing_shows_as_n_a_in_the_tables():
    """The balance report's tension table of matches that all last one round printed 'nan% (n/a)'
    under 'Winner was behind at half-time' (rev)."""
    from simtool import stats

    assert stats.fmt_share(math.nan, math.nan, math.nan) == "n/a"
    rows = tension_rows([1, 1], [1, 1]).with_columns(pl.lit(None, pl.Boolean).alias("behind_first"),
                                                     pl.lit(None, pl.Boolean).alias("behind_half"))
    _, cells = stats.frame_cells(tension.summary(rows))
    assert not any("nan" in cell for row in cells for cell in row)
    assert stats.fmt_share(0.5, 0.4, 0.6) == "50.0% ± 10.0%"


def test_a_figure_just_under_a_threshold_is_never_shown_on_it():
    """verdicts.fixed took at most two more decimals: 0.9996 beside 'fair: under 1 point' showed
    as '1.000', the band above (rev). A figure on a threshold, even a scaled one, stays short."""
    assert verdicts.fixed(0.9996, (1.0, 3.0)) == "0.9996"
    assert verdicts.fixed(2.99996, (1.0, 3.0), "+") == "+2.99996"
    assert verdicts._pct(0.0099996, (0.01, 0.05)) == "0.99996%"
    assert verdicts.fixed(0.97, (1.0,)) == "0.97" and verdicts.fixed(1.0, (1.0,)) == "1.0"
    assert verdicts.fixed(100 * 0.29, (100 * 0.29,), digits=0) == "29"  # 28.999999999999996: on it
