"""Review of hostile round 11: the deals that settle an unclear verdict, plugin prints at import,
output folders behind links, sweep and tune arguments. Each test failed on the code before its fix."""

from __future__ import annotations

import math

from simtool.analysis import verdicts

# ---- settle: an edge's interval across 0 --------------------------------------------------------


def _enough(n: int, more: int, v: float, lo: float, hi: float, t: float) -> bool:
    """Whether, ``more`` units on and each end narrowed as 1/sqrt(n), ``|x| < t`` all along."""
    s = math.sqrt(n / (n + more))
    return v - (v - lo) * s > -t and v + (hi - v) * s < t


def test_an_edge_inside_a_threshold_counts_both_ends_of_its_interval():
    # An edge of -0.03 points whose interval (-2.96 to 3.15: a seat's win share below 1/2 has a
    # Wilson interval longer upward) reaches past +3 but not -3. Before, only the end on the
    # estimate's side (the lower, 2.93 from it) was counted: "about 1 more deal would settle it",
    # after which the upper end still lay at 3.14, past 3.
    n, v, lo, hi = 769, -0.0325, -2.9621, 3.1460
    more = verdicts.settle(n, [(v, lo, hi)], (3.0,), magnitude=True)
    assert more == 76  # 769 ((3.1460 + 0.0325) / (3 + 0.0325))^2 - 769 = 75.1
    assert _enough(n, more, v, lo, hi, 3.0) and not _enough(n, more - 2, v, lo, hi, 3.0)
    # mirrored, a positive edge reaching past -3 only: the same count
    assert verdicts.settle(n, [(-v, -hi, -lo)], (3.0,), magnitude=True) == 76
    # the side nearer the threshold still decides where it needs more
    assert verdicts.settle(100, [(0.2, -3.5, 2.5)], (3.0,), magnitude=True) == 34  # (3.7 / 3.2)^2
