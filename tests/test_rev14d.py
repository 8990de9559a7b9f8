"""Review of the changes table's sizes (rev14d): what main gained in 72c2325, 161bf06 and
85a44c1, checked on the six quick --vs-rule reviews and on hand-made rows."""

from __future__ import annotations

from simtool.analysis import verdicts
from simtool.reports import review as pages


def test_a_review_json_from_before_sizes_with_no_interval_renders_again():
    # a row of review.json with no interval (null: too few units) written before rows had
    # `small` and `threshold` is sized on rendering, as docs/review.md promises; it raised
    # "TypeError: must be real number, not NoneType" there
    old = {"question": "tension", "before": 0.30, "after": None, "delta": None, "ci": [None, None],
           "better": None, "change": "no clear change", "interval": "independent"}
    (shown,) = pages.change_rows({"changes": [old]})
    assert shown["reads"] == "no clear change"
    assert shown["delta_text"] == "n/a (n/a)"
    assert verdicts.change_small(None, None, 0.1) is None
