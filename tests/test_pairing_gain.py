"""What pairing gained, told only where it means something (simtool.reports.balance.Comparison)."""

from __future__ import annotations

from simtool.reports import balance


def comparison(gains: list[float]) -> balance.Comparison:
    return balance.Comparison(["a", "b"], [], [0], [True], [gains])


def test_a_paired_interval_wider_than_the_independent_one_is_called_wider():
    # two runs whose figures moved against each other deal by deal: pairing widens their intervals
    assert "intervals 40% wider at the median" in comparison([-0.4, -0.4, -0.2]).gain_text(2)
    text = comparison([-0.1, 0.5, 0.6]).gain_text(2)
    assert "from 10% wider to 60% narrower than between independent runs (median 50%)" in text
    assert "-" not in text.replace("independent", "")
    assert "20–60% narrower" in comparison([0.2, 0.5, 0.6]).gain_text(2)


def _compared(tmp_path, *args: str) -> str:
    """The report page of Kansas City before and after pass_count=0, both run with ``args``."""
    from typer.testing import CliRunner

    from simtool.cli import app

    cli = CliRunner()
    for name, rule in (("a", []), ("b", ["--rule", "pass_count=0"])):
        r = cli.invoke(app, ["run", "-g", "kansas-city", "--seed", "3", *args, *rule, "--out", str(tmp_path / name),
                             "-q", "-j", "1"])
        assert r.exit_code == 0, r.output
    r = cli.invoke(app, ["report", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "r.html").read_text()
    assert "paired deal by deal" in page
    return page


def test_two_deals_say_nothing_of_what_pairing_gained(tmp_path, charts_undrawn):
    """2 deals of Kansas City before and after pass_count=0 read 'intervals -40% narrower at the
    median ...: the two rule sets do not share much of each deal's luck' of two runs on one deal
    set: the alike difference's Wilson interval set against a normal one, and a ratio of noise."""
    page = _compared(tmp_path, "--n", "2")
    assert "Pairing" not in page and "narrower" not in page and "wider" not in page


def test_what_pairing_gained_counts_the_deals_of_a_duplicate_run_not_their_copies(tmp_path, charts_undrawn):
    """8 deals of Kansas City under --duplicate are 32 copies at 4 players: counted as copies,
    they passed GAIN_UNITS (30 deals) and the report said 'Pairing gained little here (intervals
    15% wider at the median ...)' of 8 deals, the noise of each interval the threshold keeps out."""
    page = _compared(tmp_path, "--n", "8", "--duplicate")
    assert "Pairing" not in page and "narrower" not in page and "wider" not in page
