"""Review of readthru3's merge (rev20a): each test asserts the figure worked out by hand from the
definition in the docs, where the merged code printed another or the docs said another."""

import math
import re
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_say_a_difference_alike_in_every_deal_keeps_its_interval_from_fewer_than_30(
        tmp_path, charts_undrawn):
    # Kansas City, 20 deals of seed 3 before and after four_bonus=3: the mean score rises by
    # exactly 1.75 in every deal, 20 deals that differ. The report pairs it all the same,
    # Wilson's on the 20 deals, where each run's own interval can be 0 wide (2 deals: 14.750 ±
    # 0.000 and 13.500 ± 0.000, "-1.250 ± 0.000" combined); docs/cli.md and docs/language.md said
    # a figure whose values differ in fewer than 30 deals is combined as independent, and named
    # no exception. By hand: the share (1.75 / spread + 1) / 2 of 20 deals, Wilson's, its ends
    # back on the spread of the values seen
    from .test_cli import cli

    a, b, page = tmp_path / "a", tmp_path / "b", tmp_path / "page.html"
    for folder, rule in ((a, []), (b, ["--rule", "four_bonus=3"])):
        r = cli("run", "-g", "kansas-city", "-n", "20", "--seed", "3", "-j", "1", "-q", "-o", folder, *rule)
        assert r.exit_code == 0, r.output
    mean = [pl.read_parquet(f / "seats.parquet")["score"].to_numpy().reshape(-1, 4).mean(axis=1) for f in (a, b)]
    assert (mean[1] - mean[0] == 1.75).all()  # alike in every one of 20 deals
    spread = float(np.ptp(np.concatenate(mean)))
    z, n, share = 1.959963984540054, 20, (1.75 / spread + 1) / 2
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = spread * (2 * (centre - half) - 1), spread * (2 * (centre + half) - 1)
    assert (f"{low:+.1f}", f"{high:+.1f}") == ("+0.5", "+2.5")
    r = cli("report", a, b, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    row = re.search(r"mean score \(all seats\).*?</tr>", text, re.S).group(0)
    assert "Δ from run 1: +1.8 (+0.5 to +2.5)" in row
    # the mean score named in neither sentence: the overshoot rate, moved in no deal, has its own
    assert "Where they differ in no deal (seat 2 edge over fair share; overshoot rate (seats pooled)), the" in text
    assert "mean score (all seats)" not in text[text.index("Where the two runs differ"):text.index("the rule of three")]
    for doc in ("docs/cli.md", "docs/language.md"):
        said = " ".join((ROOT / doc).read_text().split())
        assert "alike in every deal keeps Wilson's interval on the deals" in said, doc
