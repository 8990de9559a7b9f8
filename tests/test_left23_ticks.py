"""The review card's interval chart labelled its 1-point ticks "1 pts" and "-1 pts"."""

from __future__ import annotations

import re

from simtool.reports.review import interval_svg


def test_one_point_is_singular_on_the_ticks_and_in_the_label():
    chart = interval_svg(1.0, 0.2, 1.8, [1.0, 3.0], " pts", True)
    assert re.findall(r'class="tick">([^<]*)<', chart) == ["-3 pts", "-1 pt", "1 pt", "3 pts"]
    assert 'aria-label="1 pt, 95% interval 0.2 pts to 1.8 pts"' in chart


def test_shares_keep_their_percent_sign():
    chart = interval_svg(0.05, 0.02, 0.08, [0.01, 0.1], "%", scale=100)
    assert re.findall(r'class="tick">([^<]*)<', chart) == ["1%", "10%"]
