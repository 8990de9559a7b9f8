"""Review of the Student's-interval and rule-of-three commits (rev26a): each test asserts the figure
worked out by hand from the definition, where the merged code printed another."""


import numpy as np
import polars as pl

from simtool.analysis import review as answers


def test_a_mean_score_no_deal_moved_is_bounded_by_the_seats_scores_not_certain(tmp_path):
    # failed before: Hearts, 60 deals of seed 3, moon=add against moon=subtract: no moon was shot,
    # so every deal's mean score is 6.5 in both runs and the spread of those means is 0; the Δ
    # read "0.000 ± 0.000", the certainty the rule of three was to end. By hand: at most
    # 1 - 0.05^(1/60) of the deals moved unseen, each by at most the widest spread of scores seen
    # at any seat (as restricted play bounds a score change)
    import simtool
    from simtool.reports import balance

    folders = [simtool.run("hearts", n=60, seed=3, rules={"moon": moon}, out=tmp_path / moon).path
               for moon in ("add", "subtract")]
    scores = [pl.read_parquet(f / "seats.parquet")["score"].to_numpy() for f in folders]
    assert (scores[0] == scores[1]).all() and (scores[0].reshape(-1, 4).mean(axis=1) == 6.5).all()
    half = (1 - 0.05 ** (1 / 60)) * float(np.ptp(np.concatenate(scores)))
    assert f"{half:.1f}" == "1.2"
    c = balance.compare([balance.analyse(f, charts=False) for f in folders])
    (diff,) = next(d for name, _, d in c.rows if name == "mean score (all seats)")
    assert diff[0] == "Δ from run 1: 0.0 ± 1.2"


def test_a_cost_alike_in_every_deal_keeps_its_estimate_inside_its_interval():
    # failed before: a crude rule's cost per deal (a win less another, -1 to 1) went from -0.5 to
    # +1.0 in each of 40 deals, +150 points; Wilson's interval on the deals took each difference
    # within ± 1 and read "100 to 100", short of its own estimate. By hand, within ± 2 (SPAN):
    # the share (1.5 / 2 + 1) / 2 = 0.875 of 40, Wilson's 0.739 to 0.945, times 2 less 1, times 200
    def q(cost: float) -> dict:
        return {"seats": {"figure": None}, "skill": {}, "luck": {"figure": None}, "tension": {"figure": None},
                "hazards": [], "restrictions": [{"name": "x", "cost_pts": cost, "ci_pts": [cost - 5, cost + 5],
                                                 "changed": 1}]}

    rows = answers.changes(q(-50.0), q(100.0), {"restrictions: x": (np.full(40, 1.0), np.full(40, -0.5))})
    (row,) = rows
    assert row["interval"] == answers.PAIRED and row["delta"] == 150.0
    assert [f"{x:.1f}" for x in row["ci"]] == ["95.6", "178.2"]


def test_a_tension_mean_cut_at_its_floor_and_the_round_cap_is_tabled_by_its_ends():
    # failed before: 2 matches of 10 and 71 rounds, Student's interval on 1 degree of freedom
    # -347 to 428 rounds, cut at 1 and the 200-round cap; the table printed it "40 ± 100", as if
    # -60 to 140, where the sentence said "40 (1 to 200)"
    from simtool import stats
    from simtool.analysis import tension

    rows = pl.DataFrame({"match": [0, 1], "rounds": [10, 71], "lead_changes": [0, 2], "decided_after": [10, 71],
                         "margin": [1, 4], "behind_first": [None, 0.0], "behind_half": [1.0, 0.0]})
    table = tension.summary(rows)
    headers, (cells,) = stats.frame_cells(table)
    assert cells[headers.index("mean_rounds")] == "40 (1 to 200)"
    assert "a match lasts 40 (1 to 200) rounds" in tension.text(table, False)


def test_means_that_cannot_leave_a_range_keep_their_interval_in_it():
    # failed before: from 2 units Student's interval (t of 1 degree of freedom, 12.7) reached past
    # what the mean can be: rounds to the end of 2 matches of 10 and 71 rounds "40 ± 388" (a match
    # lasts 1 to 200 rounds), players over the limit of 2 deals with 1 and 2 of them "1.5 ± 6.4"
    # (0 to 4 of 4 players), hearts a seat took in 2 hands, 12 and 0, "6 ± 76" (0 to 13)
    from simtool import stats
    from simtool.analysis import hearts, kansas_city, lengths

    seats = pl.DataFrame({"match": [0] * 10 + [1] * 71, "round": [*range(10), *range(71)], "seat": [0] * 81})
    headers, (cells,) = stats.frame_cells(lengths.to_the_end(seats.lazy(), None, "rounds"))
    assert cells[headers.index("mean")] == "40 (1 to 200)"
    deals = {"deal": [0] * 4 + [1] * 4, "seat": [0, 1, 2, 3] * 2}
    (_, spread), = kansas_city.tables(pl.LazyFrame({**deals, "overshoot": [1, 0, 0, 0, 1, 1, 0, 0]}), ["deal"])
    assert stats.frame_cells(spread)[1][-1] == ["mean", "2", "1.5 (0.0 to 4.0)"]
    hands = pl.LazyFrame({**deals, "strategy": ["ducker"] * 8, "hearts": [12, 1, 0, 0, 0, 0, 13, 0],
                          "queen": [0] * 8, "moon": [0] * 8})
    (_, taken), *_ = hearts.tables(hands, ["deal"])
    assert stats.frame_cells(taken)[1][0][1] == "6.0 (0.0 to 13.0)"


def test_duplicate_copies_that_moved_and_cancelled_are_not_a_deal_no_rule_moved(tmp_path):
    # failed before: 2 duplicate deals of Kansas City (greedy at seat 0 among target, seed 17),
    # before and after pass_count=2: seat 0's win moved in 5 of the 8 games, +1 and -1, +1 and
    # -0.5 and -0.5 in the copies of each deal, so each deal's mean moved by 0; the note said they
    # "differ in no deal" and the Δ took the rule of three's ± 77.6 points (1 - 0.05^(1/2)), as if
    # the rule had moved no game. Now as any figure moved in fewer than 30 deals: independent
    import simtool
    from simtool.reports import balance

    runs = [balance.analyse(simtool.run("kansas-city", n=2, seed=17, duplicate=True, strategy="target",
                                        seats={0: "greedy"}, rules=rules, out=tmp_path / str(len(rules))).path,
                                charts=False)
            for rules in ({}, {"pass_count": 2})]
    after, before = (r.figures["seat 0 edge over fair share"] for r in runs[::-1])
    assert np.count_nonzero(after.per_row - before.per_row) == 5
    c = balance.compare(runs)
    (note,) = [n for n in c.notes if "Where" in n]
    assert "seat 0 edge over fair share" in note[note.index("Where the two runs differ in every one of fewer than 30"):]
    assert "differ in no deal" not in note
    (diff,) = next(d for name, _, d in c.rows if name == "seat 0 edge over fair share")
    assert diff[0] == "Δ from run 1: 0.0 pts ± 59.6 pts"
