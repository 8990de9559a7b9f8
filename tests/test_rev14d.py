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


def test_the_docs_say_a_row_with_no_interval_is_unsized():
    # docs/review.md's schema said `small` is null only where the interval reaches across the
    # threshold or there is none; a row with no interval (ci of nulls) has null too
    from pathlib import Path

    doc = " ".join((Path(__file__).parents[1] / "docs/review.md").read_text().split())
    assert "or there is no threshold or no interval (`ci` of nulls" in doc
    row = {"question": "seats", "before": 1.0, "after": None, "delta": None, "ci": [None, None],
           "better": None, "change": "no clear change", "interval": "independent"}
    assert pages.size(row) == (None, 1.0, None)
