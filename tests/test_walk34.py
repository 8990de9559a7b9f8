"""A designer's walk through the README's questions (walk34): each test fails before its fix."""

from pathlib import Path

from simtool.analysis import ladder as ladders


def _rung(k: int, name: str, below: str, share: float, low: float, high: float) -> ladders.Rung:
    return ladders.Rung(k, name, below, share, low, high, 0.25, (share - 0.25) / 0.75, Path("."))


def _ladder(*rungs: ladders.Rung) -> ladders.Ladder:
    return ladders.Ladder("kansas-city", 4, {}, "deal", list(rungs))


def test_a_flat_rung_below_a_rung_that_pays_does_not_say_skill_stops_paying():
    # before: Kansas City's random, greedy, target, pimc at 200 deals (seed 9) read "The ladder
    # flattens at rung 2: target wins 21.8% ± 5.2% ... from there, more skill (more search) stops
    # paying." beside rung 3's pimc over target, +19.7 pts (+13.6 to +25.9), "pays: yes"
    climbed = _ladder(_rung(1, "greedy", "random", 0.359, 0.299, 0.424),
                      _rung(2, "target", "greedy", 0.218, 0.170, 0.274),
                      _rung(3, "pimc", "target", 0.447, 0.386, 0.509))
    text = ladders.verdict(climbed)
    assert text.startswith("The ladder flattens at rung 2: target wins")
    assert "stops paying" not in text
    assert "yet rung 3, pimc, pays over target (+19.7 pts (+13.6 to +25.9)), so more skill still pays above it" in text
    # a weaker rung below one that pays: the chain rises again, not "stops rising there"
    climbed = _ladder(_rung(1, "greedy", "random", 0.359, 0.299, 0.424),
                      _rung(2, "target", "greedy", 0.20, 0.17, 0.23),
                      _rung(3, "pimc", "target", 0.447, 0.386, 0.509))
    text = ladders.verdict(climbed)
    assert "it is weaker than the rung below; yet rung 3, pimc, pays over target" in text
    assert "stops rising" not in text
    # no rung above pays: as before
    climbed = _ladder(_rung(1, "greedy", "random", 0.359, 0.299, 0.424),
                      _rung(2, "target", "greedy", 0.218, 0.170, 0.274),
                      _rung(3, "pimc", "target", 0.26, 0.23, 0.27))
    assert "from there, more skill (more search) stops paying." in ladders.verdict(climbed)


def test_a_tables_share_never_shows_an_end_on_its_estimate_or_on_the_other_end():
    from simtool import stats

    # before: Kansas City's 70 deals of 20,000 with three seats over the limit, "0.4% (0.3–0.4)",
    # and the pooled overshoot at 5 players with limit=3, "1.7% (1.6–1.7)" in the console beside
    # the report's "1.67% (95% interval 1.59% to 1.75%)"
    low, high = stats.wilson(70, 20_000)
    assert stats.fmt_rate(70 / 20_000, float(low), float(high)) == "0.35% (0.28–0.44)"
    assert stats.fmt_rate(0.016660, 0.015921, 0.017452) == "1.67% (1.59–1.75)"
    assert stats.fmt_share(0.0035, 0.002771, 0.004419) == "0.35% (0.28–0.44%)"
    # ends apart already, or an end that is the estimate (none, or all): as before
    assert stats.fmt_rate(0.276, 0.2705, 0.2815) == "27.6% (27.1–28.1)"
    assert stats.fmt_rate(0.0, 0.0, 0.071) == "0.0% (0.0–7.1)"
    assert stats.fmt_rate(1.0, 0.99996, 1.0) == "100.0% (99.996–100.0)"
