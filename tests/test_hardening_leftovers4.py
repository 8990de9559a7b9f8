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
