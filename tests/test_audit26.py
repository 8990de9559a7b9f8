"""Audit of the published metrics against their sources (/work/shared/METRICS.md, CardStock's blog
and the analysis that made its table): hand-built lead histories whose figures are worked out in
the comments."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simtool.analysis import metrics as M


def _run(wins, history, lineup) -> M.Run:
    """Deals of ``wins``; ``history`` per deal: (acting seat, every seat's estimate, the acting
    seat's legal options, a search's spread or None)."""
    p = len(lineup)
    seats = pl.DataFrame({"deal": np.repeat(np.arange(len(wins)), p), "seat": np.tile(np.arange(p), len(wins)),
                          "strategy": list(lineup) * len(wins), "win": np.ravel(wins)})
    rows = [{"deal": deal, "decision": i, "seat": s, "acting": acting, "estimate": est[s],
             "own": acting == s and spread is not None, "choices": choices if acting in (s, -1) else None,
             "spread": spread if acting == s else None}
            for deal, decisions in history.items() for i, (acting, est, choices, spread) in enumerate(decisions)
            for s in range(p)]
    leads = pl.DataFrame(rows, schema_overrides={"estimate": pl.Float32, "choices": pl.Int8, "spread": pl.Float32})
    meta = {"players": p, "lineup": list(lineup), "unit": "deal", "n": len(wins), "rotate": False,
            "lead_history": {"sampled": len(history), "sample": "all", "estimator": {"pimc": "hand"}}}
    return M.from_tables("hand-built", meta, seats, None, leads)


# Two players (d = 0.5). Deal 0: seat 0 wins alone; deal 1: seat 1 wins alone and never dips.
DRAMA_WINS = [[1.0, 0.0], [0.0, 1.0]]
DRAMA_HISTORY = {
    0: [(0, [0.4, 0.6], 2, None), (1, [0.1, 0.9], 2, None), (0, [0.7, 0.3], 2, None), (1, [1.0, 0.0], 2, None)],
    1: [(0, [0.4, 0.6], 2, None), (1, [0.2, 0.8], 2, None)],
}


def test_cardstock_drama_and_security_follow_the_winners_path_per_game():
    # The blog: the winner's path through the lead history (every decision, whoever acted), and
    # security divides by "the total number of moves in the game"; its table is the mean over
    # games, a game with no dip having drama 0. Deal 0: seat 0 below d at decisions 0 (0.4) and
    # 1 (0.1, seat 1 acting): drama (sqrt(0.1) + sqrt(0.4)) / 2, security 1 - 2/4. Deal 1: no
    # dip: drama 0, security 1. Before: only the winner's own decisions, pooled over games:
    # drama sqrt(0.1) = 0.316, security 1 - 1/3 = 0.667.
    run = _run(DRAMA_WINS, DRAMA_HISTORY, ("pimc", "pimc"))
    assert M.drama(run).value == pytest.approx(((math.sqrt(0.1) + math.sqrt(0.4)) / 2 + 0) / 2)
    assert M.security(run).value == pytest.approx((0.5 + 1.0) / 2)
    assert M.drama(run).low <= M.drama(run).value <= M.drama(run).high


def test_spread_counts_a_searchs_forced_play_as_0():
    # CardStock's PIPMC player is asked at every decision, one legal move too, and records its
    # best minus its worst move's estimate (0 there) for Spread; simtool's search does not search
    # a forced play. Seat 0 (pimc) reports 0.3 and 0.5 and is forced once; seat 1 (random) is
    # forced too but is no search: (0.3 + 0.5 + 0) / 3, where 0.4 was printed before.
    history = {0: [(0, [0.5, 0.5], 3, 0.3), (1, [0.5, 0.5], 1, None), (0, [0.6, 0.4], 1, None)],
               1: [(0, [0.5, 0.5], 2, 0.5), (1, [1.0, 0.0], 2, None)]}
    run = _run([[1.0, 0.0], [1.0, 0.0]], history, ("pimc", "random"))
    assert M.spread(run).value == pytest.approx((0.3 + 0.5 + 0) / 3)
