"""Audit of /work/shared/METRICS.md against simtool.analysis.metrics, on a tiny hand-made table
worked out by hand below (2 players, so CardStock's d is 0.5 and fairness peaks at 1/2), and of the
figures that rebuild match totals from round scores: a game whose totals have a floor
(Out-Trumped: never below 0) must have them floored there as the game scores them, in the match
tension (review and report) and in a lead history's standings."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import games
from simtool.analysis import metrics as M
from simtool.analysis import tension
from simtool.pipeline.leads import standing

# Three deals of a 2-player game: deal 0 seat 1 wins alone, deal 1 is a tie, deal 2 seat 0 wins.
WINS = [[0.0, 1.0], [0.5, 0.5], [1.0, 0.0]]
# per deal, per decision: (acting seat, -1 both at once; both seats' estimates)
HISTORY = {
    0: [(0, [0.6, 0.4]), (1, [0.7, 0.3]), (0, [0.5, 0.5]), (1, [0.2, 0.8])],
    1: [(-1, [0.5, 0.5]), (0, [0.9, 0.1])],
    2: [(0, [0.4, 0.6]), (1, [0.6, 0.4]), (0, [1.0, 0.0])],
}


def hand_made(lineup=("pimc", "random")) -> M.Run:
    p = len(lineup)
    seats = pl.DataFrame({"deal": np.repeat(np.arange(len(WINS)), p), "seat": np.tile(np.arange(p), len(WINS)),
                          "strategy": list(lineup) * len(WINS), "win": np.ravel(WINS)})
    rows = [{"deal": deal, "decision": i, "seat": s, "acting": acting, "estimate": est[s], "own": False,
             "choices": 2 if acting in (s, -1) else None, "spread": None}
            for deal, decisions in HISTORY.items() for i, (acting, est) in enumerate(decisions) for s in range(p)]
    leads = pl.DataFrame(rows, schema_overrides={"choices": pl.Int8, "spread": pl.Float32})
    meta = {"players": p, "lineup": list(lineup), "unit": "deal", "n": len(WINS), "rotate": False,
            "lead_history": {"sampled": len(HISTORY), "sample": "all", "estimator": {"pimc": "hand"}}}
    return M.from_tables("hand-made", meta, seats, None, leads)


def test_cardstock_drama_and_security_by_hand():
    # d = (1 + 0/1) / 2 = 0.5. Sole winners, their path through every decision: deal 0 seat 1
    # (0.4, 0.3 below; 0.5, 0.8), deal 2 seat 0 (0.4 below; 0.6, 1.0); the tie (deal 1) counts
    # for neither. Per game, then the mean over games.
    assert M.threshold(2) == 0.5
    assert M.drama(hand_made()).value == pytest.approx(((math.sqrt(0.1) + math.sqrt(0.2)) / 2 + math.sqrt(0.1)) / 2)
    assert M.security(hand_made()).value == pytest.approx(((1 - 2 / 4) + (1 - 1 / 3)) / 2)


def test_ludii_estimate_metrics_by_hand():
    run = hand_made()
    # leading sets: deal 0 {0} {0} {0,1} {1}: 2 changes / 4; deal 1 {0,1} {0}: 1 / 2; deal 2 {1} {0} {0}: 1 / 3
    assert M.lead_change(run).value == pytest.approx((2 / 4 + 1 / 2 + 1 / 3) / 3)
    # losers' best: deal 0 seat 0 reaches 0.7; deal 1 has no loser (left out); deal 2 seat 1 0.6
    assert M.decisiveness_threshold(run).value == pytest.approx((0.7 + 0.6) / 2)
    # the winner first passes it: deal 0 at decision 3 of 4 (0.8 > 0.7); deal 2 at 2 of 3
    # (0.6 at decision 1 is not above 0.6)
    assert M.decisiveness_moves(run).value == pytest.approx((3 / 4 + 2 / 3) / 2)
    # leader minus the winners' mean: deal 0 0.2, 0.4, 0, 0; deal 1 0, 0.9 - 0.5; deal 2 0.2, 0, 0
    assert M.drama_ludii(run).value == pytest.approx((0.6 / 4 + 0.4 / 2 + 0.2 / 3) / 3)
    per_deal = [sum(np.var([e[s] for _, e in d]) for s in range(2)) for d in HISTORY.values()]
    assert M.stability(run).value == pytest.approx(np.mean(per_deal))


def test_outcome_metrics_by_hand():
    run = hand_made()
    # seat shares 0.5 and 0.5: balanced; one tie in three deals (Ludii's seat figures from one
    # strategy at every seat: of pimc among random seats they are the search's strength)
    alike = hand_made(("random", "random"))
    assert M.balance(alike).value == pytest.approx(1.0)
    assert M.advantage_p1(alike).value == pytest.approx(0.5)
    with pytest.raises(M.Misfit, match="needs one strategy at every seat, or the line-up rotated"):
        M.advantage_p1(run)
    assert M.drawishness(run).value == pytest.approx(1 / 3)
    # pimc holds seat 0: a = 0.5 = e at n = 2, so order 0
    assert M.order(run).value == pytest.approx(0.0)
    # w = 1/n exactly: fairness 1 from either branch of CardStock's formula; 0.75 at 3 players:
    # 3/2 (1 - 0.75) = 0.375; 0.1 at 4: 0.4
    assert M.fairness(hand_made(("random", "random"))).value == pytest.approx(1.0)
    assert M.fairness_value(0.75, 3) == pytest.approx(0.375) and M.fairness_value(0.1, 4) == pytest.approx(0.4)
    f = M.fairness(hand_made(("random", "random")))
    assert f.low <= f.value <= f.high == 1.0


# --- totals with a floor: Out-Trumped ----------------------------------------------------------

# One 3-seat match of Out-Trumped-like scores. Raw sums: [-4, 1, 0], [1, 1, 2], [1, 4, 2]; as
# the game floors them at 0 once per hand: [0, 1, 0], [5, 1, 2], [5, 4, 2]: seat 0 wins by 1.
ROUNDS = [[-4, 1, 0], [5, 0, 2], [0, 3, 0]]
FLOORED = [[0, 1, 0], [5, 1, 2], [5, 4, 2]]


def floored_match():
    seats = pl.DataFrame([{"match": 0, "round": r, "seat": s, "score": v}
                          for r, scores in enumerate(ROUNDS) for s, v in enumerate(scores)])
    matches = pl.DataFrame([{"match": 0, "seat": s, "total": t, "win": float(s == 0), "rounds": 3}
                            for s, t in enumerate(FLOORED[-1])])
    return seats, matches


def test_running_totals_are_floored_as_the_game_floors_them():
    seats, _ = floored_match()
    totals = tension.running_totals(seats, games.get("out-trumped").total_floor).sort("round", "seat")
    assert totals["total"].to_list() == [t for row in FLOORED for t in row]
    plain = tension.running_totals(seats).sort("round", "seat")
    assert plain["total"].to_list() == [-4, 1, 0, 1, 1, 2, 1, 4, 2]


def test_match_tension_reads_the_floored_totals():
    # floored leaders: seat 1, then seat 0 from round 1 on: one change, the winner leads for good
    # from round 2 (decided after 2 of 3 rounds) and is not behind at half-time (round 1: 5 of 5).
    # The raw sums would say: seat 1, seat 2, seat 1 (2 changes), the winner never leading.
    rows = tension.per_match(*floored_match(), False, games.get("out-trumped").total_floor)
    assert rows["lead_changes"].to_list() == [1]
    assert rows["decided_after"].to_list() == [2]
    assert rows["behind_first"].to_list() == [True] and rows["behind_half"].to_list() == [False]
    assert rows["margin"].to_list() == [1]


def test_real_out_trumped_matches_end_on_their_own_totals():
    # with the kitty bid, a failed bid takes totals below 0 often: the floored running totals
    # after each match's last round are the match table's totals, and its winner leads there
    r = simtool.run("out-trumped", 60, unit="match", strategy="random", rules={"kitty": "bid"}, seed=5)
    seats, matches = (t.collect() if isinstance(t, pl.LazyFrame) else t for t in (r.seats, r.matches))
    game = games.get("out-trumped")
    last = (tension.running_totals(seats, game.total_floor)
            .filter(pl.col("round") == pl.col("round").max().over("match")))
    both = last.join(matches.select("match", "seat", "total"), on=["match", "seat"], suffix="_match")
    assert both.height == matches.height
    assert (both["total"] == both["total_match"]).all()
    # and the floor bites in this sample: plain sums end elsewhere for some seat
    raw = (tension.running_totals(seats).filter(pl.col("round") == pl.col("round").max().over("match"))
           .join(matches.select("match", "seat", "total"), on=["match", "seat"], suffix="_match"))
    assert (raw["total"] != raw["total_match"]).any()


def test_a_lead_history_standing_ranks_floored_totals():
    # match totals 0, 0, 0 and one world's round scores -3, 0, -1: floored, all three stand at 0
    # and share the mean rank (standing 0.5 each); unfloored, seat 1 would lead and seat 0 be last
    totals, scores = np.zeros((1, 3), np.int32), np.array([[[-3, 0, -1]]])
    for seat in range(3):
        assert standing(totals, np.array([seat]), scores, False, 0)[0] == pytest.approx(0.5)
    assert standing(totals, np.array([0]), scores, False)[0] == pytest.approx(0.0)
    # a single deal ranks its own scores (its win is by score, not by a floored total)
    assert standing(None, np.array([0]), scores, False, 0)[0] == pytest.approx(0.0)


# --- verdict sentences -------------------------------------------------------------------------

def test_black_and_white_balanced_rate_speaks_of_tricks():
    # the rate is b == w over the tricks won in each colour (the score's condition), not cards
    from simtool.analysis import of as analysis_of
    from simtool.analysis import verdicts

    text = analysis_of(games.get("black-white")).rate_text["balanced"]
    v = verdicts.hazard_verdict("balanced", text, 0.2, 0.19, 0.21, 1000)
    assert "as many black as white tricks" in v.sentence and "cards" not in v.sentence
