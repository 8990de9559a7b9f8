"""Review of the Student's-interval and rule-of-three commits (rev26a): each test asserts the figure
worked out by hand from the definition, where the merged code printed another."""

import re

import numpy as np
import polars as pl


def test_a_mean_score_no_deal_moved_is_bounded_by_the_seats_scores_not_certain(tmp_path, charts_undrawn):
    # failed before: Hearts, 60 deals of seed 3, moon=add against moon=subtract: no moon was shot,
    # so every deal's mean score is 6.5 in both runs and the spread of those means is 0; the Δ
    # read "0.000 ± 0.000", the certainty the rule of three was to end. By hand: at most
    # 1 - 0.05^(1/60) of the deals moved unseen, each by at most the widest spread of scores seen
    # at any seat (as restricted play bounds a score change)
    from .test_cli import cli

    a, b, page = tmp_path / "a", tmp_path / "b", tmp_path / "page.html"
    for folder, rule in ((a, "moon=add"), (b, "moon=subtract")):
        r = cli("run", "-g", "hearts", "-n", "60", "--seed", "3", "-j", "1", "-q", "-o", folder, "--rule", rule)
        assert r.exit_code == 0, r.output
    scores = [pl.read_parquet(f / "seats.parquet")["score"].to_numpy() for f in (a, b)]
    assert (scores[0] == scores[1]).all() and (scores[0].reshape(-1, 4).mean(axis=1) == 6.5).all()
    half = (1 - 0.05 ** (1 / 60)) * float(np.ptp(np.concatenate(scores)))
    assert f"{half:.1f}" == "1.2"
    r = cli("report", a, b, "-o", page)
    assert r.exit_code == 0, r.output
    row = re.search(r"mean score \(all seats\).*?</tr>", page.read_text(), re.S).group(0)
    assert "Δ from run 1: 0.0 ± 1.2" in row
