"""Match tension on hand-made matches with known lead changes, and on real runs."""

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import games
from simtool.analysis import tension

# running totals (seat 0, 1, 2) after each round of match 0:
# [5,3,0] seat 0 leads; [5,7,0] seat 1 (1st change); [5,7,7] and [8,7,8] tied, no one leads;
# [8,7,10] seat 2 (2nd change); [13,7,10] seat 0 (3rd change), and wins by 3.
MATCH_0 = [[5, 3, 0], [0, 4, 0], [0, 0, 7], [3, 0, 1], [0, 0, 2], [5, 0, 0]]
# match 1: seat 1 leads from the first round to the end: no change, decided at once
MATCH_1 = [[1, 4, 0], [1, 1, 1]]


def frames(sign: int):
    seats, matches = [], []
    for m, rounds in enumerate((MATCH_0, MATCH_1)):
        for r, scores in enumerate(rounds):
            seats += [{"match": m, "round": r, "seat": s, "score": sign * v} for s, v in enumerate(scores)]
        totals = np.sum(rounds, axis=0) * sign
        best = totals.min() if sign < 0 else totals.max()
        matches += [{"match": m, "seat": s, "total": int(t), "win": float(t == best), "rounds": len(rounds)}
                    for s, t in enumerate(totals)]
    return pl.DataFrame(seats), pl.DataFrame(matches)


@pytest.mark.parametrize("sign, lower_wins", [(1, False), (-1, True)])
def test_a_known_lead_sequence_gives_its_counts(sign, lower_wins):
    """The same matches with negated scores in a lower-is-better game lead alike."""
    rows = tension.per_match(*frames(sign), lower_wins)
    assert rows["lead_changes"].to_list() == [3, 0]
    assert rows["decided_after"].to_list() == [6, 1]  # match 0: the winner led alone only at the end
    assert rows["behind_first"].to_list() == [False, False]  # tied for the lead is not behind
    assert rows["behind_half"].to_list() == [True, False]  # after round 3 of 6: 5 against 7
    assert rows["margin"].to_list() == [3, 3]  # 13 - 10; 5 - 2
    assert rows["rounds"].to_list() == [6, 2]
    table = tension.summary(rows)
    assert table["mean_lead_changes"][0] == 1.5 and table["winner_behind_at_half_time"][0] == 0.5
    assert table["decided_share_of_match"][0] == pytest.approx((6 / 6 + 1 / 2) / 2)  # each match alike


def test_a_shared_win_has_no_winner_to_decide():
    seats, matches = frames(1)
    matches = matches.with_columns(pl.when(pl.col("match") == 1).then(0.5).otherwise("win").alias("win"))
    rows = tension.per_match(seats, matches, False)
    assert rows["decided_after"].to_list() == [6, None]
    assert rows["lead_changes"].to_list() == [3, 0]


@pytest.mark.parametrize("game", ["trickster", "black-white"])
def test_real_matches_end_with_their_winner_leading(game):
    r = simtool.run(game, n=300, seed=2, unit="match")
    rows = tension.per_match(r.seats, r.matches, games.get(game).lower_wins)
    sole = rows.filter(pl.col("decided_after").is_not_null())
    assert sole.height > 250
    assert (sole["decided_after"] <= sole["rounds"]).all() and (sole["decided_after"] >= 1).all()
    assert (rows["margin"] >= 0).all()
    t = r.tables()
    assert tension.TABLE in t and {"mean_lead_changes_low", "mean_lead_changes_high"} <= set(t[tension.TABLE].columns)


def test_duplicate_matches_cluster_on_the_deal():
    r = simtool.run("black-white", n=60, players=3, seed=2, unit="match", strategy="random",
                    seats={0: "balance"}, duplicate=True)
    rows = tension.per_match(r.seats, r.matches, False)
    assert rows.height == 180 and "rotation" in rows.columns
    table = tension.summary(rows)
    assert table["matches"][0] == 180 and np.isfinite(table["mean_lead_changes_low"][0])
