"""Match tension's means from a few matches: the normal interval reached below what a mean can be
("a match lasts 40 ± 60 rounds" of two Nine Lives matches, down to -20 rounds)."""

from __future__ import annotations

import re

import simtool
from simtool.analysis import tension
from simtool.reports import balance


def test_a_tension_interval_stops_at_what_the_figure_can_be():
    r = simtool.run("nine-lives", n=2, unit="match", strategy="random", seed=1)
    a = balance.analysis(r.meta, r.seats, r.matches)
    table = dict(a.metrics)[tension.TABLE].row(0, named=True)
    for name, floor in tension.FLOORS.items():
        assert table[f"{name}_low"] >= floor, (name, table[f"{name}_low"])
    said = tension.text(dict(a.metrics)[tension.TABLE], a.game.lower_wins, a.sides)
    # before: "a match lasts 75 ± 80 rounds" (down to -5), "4.0 ± 5.9 points apart" (down to -1.9)
    # Student's interval on 1 degree of freedom: "75 (1 to 596) rounds" reached past the 200-round cap
    assert re.search(r"a match lasts 75 \(1 to 200\) rounds", said) and "4 (0 to 42) points apart" in said, said
    assert table["mean_decided_after_high"] <= 200 and table["mean_lead_changes_high"] <= 199
    assert not re.search(r"\(-\d", said)


def test_many_matches_keep_their_symmetric_interval():
    r = simtool.run("kansas-city", n=400, unit="match", strategy="random", seed=1)
    said = tension.text(tension.analyse(r.seats, r.matches, False)[1], False)
    mean = r"\d+\.\d+ ± \d+\.\d+"
    assert re.match(rf"Match tension: a match lasts {mean} rounds with {mean} lead changes", said), said
