"""Leftovers of the last review (4): the balance report's differences between runs that share no
deals, its ladder table beside the verdict, and one helper for signed points (each test failed on
the code before its fix)."""

from __future__ import annotations

import inspect

from simtool.analysis import ladder, strength, verdicts
from simtool.reports import balance


def test_signed_points_is_one_function_that_the_ladder_the_strength_table_and_the_report_share():
    # before: ladder._signed, strength._points and balance.points each wrote the same line
    assert verdicts.signed_points(0.0004) == verdicts.signed_points(-0.0004) == "0.0"
    assert verdicts.signed_points(0.0006) == "+0.1" and verdicts.signed_points(-0.0006) == "-0.1"
    assert verdicts.signed_points(0.00996, (1.0,)) == "+0.996"  # never onto a threshold it is not on
    assert verdicts.signed_points(0.01, (1.0,)) == "+1.0"  # one on it stays short
    for module in (ladder, strength, balance):
        own = [name for name, f in inspect.getmembers(module, inspect.isfunction)
               if f.__module__ == module.__name__ and 'sign="+"' in inspect.getsource(f)
               and "100 *" in inspect.getsource(f) and len(inspect.getsource(f).splitlines()) <= 6]
        assert not own, f"{module.__name__} keeps its own signed points: {own}"
    assert balance.environment().globals["points"] is verdicts.signed_points


def test_the_report_ladder_table_shows_the_interval_that_decides_whether_a_rung_pays():
    # before: the page's ladder table printed the gain alone, "0.0 pts" for +0.04 points beside
    # "Pays: yes" (and the skill sentence "above the 25.0% of pure chance: 0.0 points"); now each
    # rung's edge with its 95% interval, as the CLI's ladder table, kept off fair where the
    # interval is on one side of it (a rung whose interval holds fair keeps "0.0", no side)
    from pathlib import Path

    fair = ladder.Rung(1, "duck", "random", 0.2504, 0.23, 0.27, 0.25, 0.0, Path("r"))
    pays = ladder.Rung(2, "high", "duck", 0.2504, 0.2501, 0.2507, 0.25, 0.0, Path("r"))
    climbed = ladder.Ladder("black-white", 4, {}, "deal", [fair, pays])
    assert fair.verdict == "no" and pays.verdict == "yes"
    rows = balance.ladder_rows(climbed)
    assert rows == [(fair, "0.0 pts (-2.0 to +2.0)"), (pays, "+0.04 pts (+0.01 to +0.1)")]
    assert "above the 25.0% of pure chance: +0.04 pts (+0.01 to +0.1), a skill" in balance.ladder_skill(climbed)
    # the page's table, as the report's template writes it
    source = (Path(balance.__file__).parent / "templates" / "report.html.j2").read_text()
    table = source[source.index('<table class="ladder-table">'):]
    table = table[:table.index("</table>") + len("</table>")]
    env = balance.environment()
    html = env.from_string(table).render(lv={"rows": rows}, lad=climbed, unfair=())
    assert "<td>+0.04 pts (+0.01 to +0.1)</td><td>0.00</td><td>yes</td>" in html
    assert "<td>0.0 pts (-2.0 to +2.0)</td><td>0.00</td><td>no</td>" in html


def black_white_run(seat0_wins, seed: int):
    """The balance report's analysis of a hand-made 2-player Black & White run (seat 0 plays
    balance, seat 1 random), seat 0 winning the deals of ``seat0_wins``."""
    import polars as pl

    lineup = ("balance", "random")
    rows = [{"deal": d, "seat": s, "strategy": lineup[s], "score": int(w if s == 0 else 1 - w), "tricks": 0,
             "win": float(w if s == 0 else 1 - w), "black": s, "white": 0}
            for d, w in enumerate(seat0_wins) for s in range(2)]
    meta = {"game": "black-white", "players": 2, "lineup": list(lineup), "rotate": False, "unit": "deal",
            "n": len(seat0_wins), "seed": seed, "chunk": len(seat0_wins), "rules": {"deck": 30, "hand_size": "sheet"},
            "versions": {"simtool": "x", "numpy": "y"}}
    return balance.analysis(meta, pl.DataFrame(rows).with_columns(pl.col("strategy").cast(pl.Categorical)), None)


def test_a_difference_between_runs_that_share_no_deals_takes_each_end_from_its_own_side():
    # a risk that 0 of 3 deals met, then 2 of 3 (Wilson: 0.0% to 56.1%, then 20.8% to 93.9%), in
    # runs of other seeds. Before: "+66.7 pts ± 46.1 pts" (up to 112.8, past what two shares can
    # differ by) and "worse"; Newcombe's ends (stats.mover_difference): -5.9 to +93.9, no clear change
    import dataclasses

    from simtool import stats

    def risk(k: int) -> balance.Figure:
        low, high = (float(x) for x in stats.wilson(k, 3))
        return balance.Figure(k / 3, low, high, None, better="lower")

    runs = [dataclasses.replace(black_white_run([1, 0, 1], seed), figures={"risk rate": risk(k)})
            for seed, k in ((1, 0), (2, 2))]
    c = balance.compare(runs)
    assert c.paired == [False]
    assert c.rows == [("risk rate", [stats.fmt_share(*[getattr(risk(k), a) for a in ("value", "low", "high")])
                                     for k in (0, 2)],
                       [("Δ from run 1: +66.7 pts (-5.9 to +93.9)", "")])]
    d, low, high = stats.mover_difference(*[(f.value, f.low, f.high) for f in (risk(2), risk(0))])
    assert balance.change_class(risk(2), risk(0), low, high) == ""
    # a clear rise between independent runs is still "worse", its lower end kept off 0
    assert balance.change_class(risk(2), risk(0), 0.0002, high) == "worse"
    assert balance.show_change(0.5, 0.0002, 0.8, True) == "+50.0 pts (+0.02 to +80.0)"
    # symmetric ends keep "±", as a paired difference prints
    assert balance.show_change(0.02, 0.01, 0.03, True) == "+2.0 pts ± 1.0 pts"
    assert balance.show_change(1.5, 0.2, 2.1, False) == "+1.50 (+0.20 to +2.10)"  # digits as fmt_mean


def test_an_edge_between_independent_runs_is_better_only_where_its_ends_say_so():
    # seat 0's edge over fair in two runs of other seeds, 3 of 3 deals won then 2 of 3: before,
    # half-widths laid around the difference; now the ends of the edge's change in size
    import dataclasses

    from simtool import stats

    def edge(k: int) -> balance.Figure:
        low, high = (float(x) for x in stats.wilson(k, 3))
        return balance.Figure(k / 3 - 0.5, low - 0.5, high - 0.5, None, points=True, better="fair")

    runs = [dataclasses.replace(black_white_run([1, 1, 1], seed), figures={"edge": edge(k)})
            for seed, k in ((1, 3), (2, 2))]
    (_, _, [(text, kind)]), = balance.compare(runs).rows
    d, low, high = stats.mover_difference(*[(f.value, f.low, f.high) for f in (edge(2), edge(3))])
    assert text == f"Δ from run 1: -33.3 pts ({100 * low:+.1f} to {100 * high:+.1f})" and low < 0 < high
    assert kind == ""  # the first edge's interval reaches across fair: sizes overlap
