"""Strategy names as plain text (issue 29, item 12): a plugin may call itself anything, and every
place that shows the name (the run's summary, the report's charts and tables) shows it as
written, never as mathtext, rich markup or HTML; a very long name is clipped where it labels a
chart or a table cell, the whole name kept in the cell's tooltip."""

from __future__ import annotations

import re
import warnings

import pytest

from simtool.analysis import labels
from simtool.reports import balance as report

from .test_cli import cli

MATH = r"$\foo$ and $x$"  # mathtext: an unknown symbol stopped the report with a traceback
MARKUP = "[red]red[/red] [/bold] :smile:"  # rich: a closing tag with no opening one was a traceback
HTML = "<script>alert(1)</script>"
LONG = "n" * 2990 + "-long-tail"  # 3000 characters: a legend that no chart could hold

PLUGIN = f'''
from simtool import bits
from strategies import strategy


def lowest(view, rng):
    return bits.lowest(view.legal)


math = strategy({MATH!r}, "lowest")(lowest)
markup = strategy({MARKUP!r}, "lowest")(lowest)
html = strategy({HTML!r}, "lowest")(lowest)
long = strategy({LONG!r}, "lowest")(lowest)
'''


@pytest.fixture(scope="module")
def named(tmp_path_factory):
    """Two rotated runs of the four plugins (the report rates strategies over several runs) and
    a skill ladder whose top rung is a plugin in a folder named like mathtext (``$\\foo$``)."""
    base = tmp_path_factory.mktemp("labels")
    (base / "$\\foo$").mkdir()
    plugin = base / "$\\foo$" / "p.py"
    plugin.write_text(PLUGIN)
    seats = [f"--seat={seat}={plugin}:{name}" for seat, name in enumerate(("math", "markup", "html", "long"))]
    runs, outputs = [base / "one", base / "two"], []
    for seed, run in enumerate(runs, 1):
        r = cli("run", "-p", "4", "--n", "200", "--seed", seed, "--rotate", "--jobs", "1", "-o", run, *seats)
        assert r.exit_code == 0, r.output
        outputs.append(r.stdout)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(base)  # the rung is named by its path: a short one, shown whole on the chart's axis
        r = cli("ladder", "-p", "3", "--rungs", "random,$\\foo$/p.py:math", "--n", "200", "--seed", "1",
                "--jobs", "1", "--runs", base / "ladder", "-o", base / "ladder.html", "-q")
    assert r.exit_code == 0, r.output
    rungs = sorted(p for p in (base / "ladder").iterdir() if p.is_dir())
    return {"runs": runs, "rungs": rungs, "stdout": outputs[0]}


def test_the_run_summary_prints_every_name_as_written(named):
    for name in (MATH, MARKUP, HTML):
        assert name in named["stdout"]


@pytest.fixture(scope="module")
def page(named):
    """The report of both runs and the ladder's rungs, rendered once for the two tests below; any
    warning while rendering fails them."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "constrained_layout not applied" included
        return report.render([*named["runs"], *named["rungs"]])


def test_the_report_renders_every_name_as_plain_text_without_a_warning(page):
    html = page
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "[red]red[/red] [/bold] :smile:" in html
    # charts keep their text in comments: the legend and the ladder's axis show the names as written
    assert "<!-- p.py:$\\foo$ and $x$ -->" in html  # a plugin is labelled by its file and name
    assert "<!-- $\\foo$/p.py:math -->" in html


def test_a_long_name_is_clipped_in_charts_and_tables_and_kept_whole_in_a_tooltip(page):
    html = page  # the runs' sections, beside the rungs' (which hold no long name)
    shown = f"p.py:{LONG}"  # a plugin is labelled by its file and name
    clipped = labels.clip(shown)
    assert len(clipped) == labels.LIMIT and clipped.endswith("…" + LONG[-labels.TAIL:])
    assert f"<!-- {clipped} -->" in html  # the legend of the distribution by strategy
    assert f'<span title="{shown}">{clipped}</span>' in html  # strategy strength and ratings
    assert not re.search(f"<t[dh]>[^<]*{LONG}", html)  # no table cell holds it whole


def test_clip_keeps_short_names_and_both_ends_of_long_ones():
    assert labels.clip("target") == "target"
    assert labels.clip("x" * labels.LIMIT) == "x" * labels.LIMIT
    long = "a" * 30 + "b" * 30
    assert labels.clip(long) == "a" * 27 + "…" + "b" * 12
    assert str(labels.html("<b>")) == "&lt;b&gt;"
    assert str(labels.html("<" * 50)).startswith('<span title="' + "&lt;" * 50 + '">')
