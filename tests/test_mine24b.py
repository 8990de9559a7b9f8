"""A printed match or duplicate run makes its duplicate, luck and tension tables without the rest
of the report (the headline figures' per-match rates grouped every seat row at once): the tables
and sentences the report makes of the same rows."""

from __future__ import annotations

import pytest

import simtool
from simtool.reports import balance


@pytest.mark.parametrize("game, kw", [("kansas-city", {"unit": "match", "rotate": True}),
                                      ("black-white", {"duplicate": True, "seats": {0: "balance"}}),
                                      ("hearts", {"unit": "match", "duplicate": True})])
def test_the_printed_tables_and_sentences_are_the_reports(game, kw):
    r = simtool.run(game, n=120, strategy="random", seed=6, **kw)
    a = balance.analysis(r.meta, r.seats, r.matches)
    metrics, sentences = balance.printed_metrics(r.meta, r.seats, r.matches)
    assert [c for c, _ in metrics] == [c for c, _ in a.metrics] and len(metrics) >= 2
    assert all(t.equals(u) for (_, t), (_, u) in zip(metrics, a.metrics, strict=True))
    assert sentences == balance.metric_sentences(a.metrics, a.unit, r.meta["n"], a.game.lower_wins, a.sides)
    assert all(s in a.findings for s in sentences)
