"""Hostile round 17: results the same for any --jobs, and the self-contained pages against
hostile names. Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

from simtool.reports import balance, review, tune

from .test_cli import cli

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it reads right to left, to its paragraph's end

BOT = '''
from simtool import bits
from strategies import strategy


@strategy("bot", "lowest")
def bot(view, rng):
    return bits.lowest(view.legal)
'''


def test_a_direction_control_in_a_name_stays_inside_the_name_on_the_report(tmp_path):
    # before: a plugin file named 'b\u202eot.py' put U+202E on the page as it is, and the rest of
    # each sentence and cell holding the name ("..., random elsewhere") read right to left
    plugin = tmp_path / f"b{RLO}ot.py"
    plugin.write_text(BOT)
    run, page = tmp_path / "run", tmp_path / "page.html"
    r = cli("run", "-g", "black-white", "-n", "300", "--seed", "1", "--jobs", "1", "-q", "-o", run,
            "--seat", f"0={plugin}:bot", "--strategy", "random")
    assert r.exit_code == 0, r.output
    r = cli("report", run, "-o", page)
    assert r.exit_code == 0, r.output
    text = page.read_text()
    assert RLO not in text
    assert "b\\u202eot.py:bot" in text  # written out, as an error line quotes it


@pytest.mark.parametrize("page", [balance, review, tune])
def test_every_page_writes_direction_controls_out(page):
    # the review's and the tuning's pages show rule values and titles a game plugin declares
    template = page.environment().from_string("<p>{{ name }}, {{ chart|safe }} and the rest</p>")
    text = template.render(name=f"x{RLO}y\u2067z", chart=f"<svg>{RLO}</svg>")
    assert text == "<p>x\\u202ey\\u2067z, <svg>\\u202e</svg> and the rest</p>"
