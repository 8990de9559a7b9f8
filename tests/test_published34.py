"""A designer's game set beside every game of CardStock's published table, not beside Hearts
alone: where each CardStock figure stands among the six, in words, on the review page."""

import re

import pytest

from simtool.analysis import metrics
from simtool.reports import review as pages


@pytest.mark.parametrize(("args", "said"), [
    (("order", 0.40, 0.37, 0.43), "between Stealing Bundles (0.36) and LAMA (0.48); no published game within its "
                                  "interval"),
    (("order", 0.50, 0.45, 0.55), "between LAMA (0.48) and Hearts (0.52); within its interval: LAMA, Hearts"),
    (("order", 0.10, 0.05, 0.30), "below all 6 games (the lowest: Agram, 0.28); within its interval: Agram"),
    (("fairness", 0.99, 0.95, 1.0), "above all 6 games (the highest: Agram and LAMA, 0.96); within its interval: "
                                    "Agram, LAMA"),
    (("convergence", 0.50, None, None), "level with Pairs and Ninety-Eight (0.50); no interval"),
    (("spread", 0.14, 0.13, 0.15), "level with Stealing Bundles and Hearts (0.14); within its interval: "
                                   "Stealing Bundles, Hearts"),
])
def test_a_figure_is_placed_among_the_published_games(args, said):
    assert metrics.among(*args) == said


def test_only_cardstocks_own_metrics_are_placed():
    # Ludii's metrics and a seat's or a play's fairness are not what CardStock's table measured
    for name in ("balance", "lead_change", "fairness (seat 1)", "fairness (pimc play)", "duplicate_gain"):
        assert metrics.among(name, 0.5, 0.4, 0.6) is None
    assert metrics.among("order", None) is None


def test_the_table_is_the_published_pages_and_hearts_reads_from_it():
    table = metrics.CARDSTOCK_TABLE["values"]
    assert list(table) == ["Agram", "Pairs", "Ninety-Eight", "Stealing Bundles", "Hearts", "LAMA"]
    assert table["Ninety-Eight"] == {"order": 0.91, "fairness": 0.68, "convergence": 0.50, "spread": 0.37,
                                     "drama": 0.39, "security": 0.60}
    assert metrics.published("hearts", 4)["values"] == table["Hearts"]


def test_the_review_page_places_its_figures_and_shows_the_table(bw_review):
    _, result = bw_review
    page = pages.render(result)
    order = result["metrics"]["order"]
    placed = metrics.among("order", order["value"], *order["ci"])
    assert placed and placed.replace("'", "&#39;") in page
    assert "<th>Published: among CardStock's games</th>" in page
    assert re.search(r"<tr><td>Ninety-Eight</td>" + "".join(f"<td>{v}</td>" for v in
                     ("0.91", "0.68", "0.50", "0.37", "0.39", "0.60")) + "</tr>", page)
    ours = [f"{result['metrics'][name]['value']:.2f}" for name in metrics.CARDSTOCK_METRICS]
    assert re.search(r"<tr class=\"this\"><td><strong>black-white, 3 players \(this review\)</strong></td>" + "".join(
        f"<td><strong>{v}</strong></td>" for v in ours) + "</tr>", page)


def test_a_win_share_that_is_one_in_p_by_rule_has_no_measured_interval_in_the_api():
    # before: one strategy at every seat read win 0.2500000003762543 (0.232 to 0.269) in
    # Result.tables() where the console prints "1/4 by rule": each deal's win sums to one
    import simtool

    pooled = simtool.run("kansas-city", n=300, seed=1, jobs=1).tables()["By strategy (seats pooled)"]
    assert pooled.select("win", "win_low", "win_high").row(0) == (0.25, 0.25, 0.25)
    mixed = simtool.run("kansas-city", n=300, seed=1, jobs=1, strategy="target", seats={0: "greedy"})
    low, win, high = mixed.tables()["By strategy (seats pooled)"].select("win_low", "win", "win_high").row(0)
    assert low < win < high  # two strategies: measured
