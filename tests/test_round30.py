"""Round 30: a game whose deals read each other's rows fails the conformance suite; a changes row's
difference never shows on an end of its interval it is not on."""

from __future__ import annotations

import importlib

import pytest

from simtool.reports import review as pages
from simtool.testing import suite

from .test_hardening_round5 import TOY
from .test_hostile28 import forget_modules  # noqa: F401 (autouse: each case imports its own across_game)

RETURN = '        return {"score": s.tricks + s.banks'


@pytest.mark.parametrize(("bug", "says"), [
    # the round's total tricks where the deal's were meant: the same in any order, not with fewer deals
    (RETURN + " + (s.tricks.sum() > 600)", "differs when the round's other deals are fewer"),
    # one deal's row read for another's: an index over deals where one over seats was meant
    (RETURN + " + s.tricks[::-1] % 2", "differs when the round's other deals are another order"),
])
def test_a_round_that_reads_across_its_deals_fails_the_suite(tmp_path, monkeypatch, bug, says):
    # failed before: both games passed every check of the suite, their results depending on the
    # deals that happened to share a chunk
    (tmp_path / "across_game.py").write_text(TOY.replace(RETURN, bug))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module("across_game").GAME
    with pytest.raises(AssertionError, match=f"{says}: its results read other deals than its own"):
        suite.Conformance().test_a_deal_plays_alike_whatever_deals_share_its_round(game, 3)
    fine = importlib.import_module("tests.toy_game").GAME
    suite.Conformance().test_a_deal_plays_alike_whatever_deals_share_its_round(fine, 3)


@pytest.mark.parametrize(("delta", "ci", "shown"), [
    (0.0556640625, [-0.0106, 0.1219], "+0.06 (-0.01 to +0.12)"),  # Hearts' passing=left, quick review
    # 11.08 -> 11.12 beside "0.0" read as no difference (tests/test_words31.py)
    (0.04, [-0.01, 0.07], "+0.04 (-0.01 to +0.07)"),
    (0.3, [0.25, 0.3], "+0.3 (+0.2 to +0.3)"),  # on its end, where it is: as before
])
def test_a_difference_never_shows_on_an_end_it_is_not_on(delta, ci, shown):
    # failed before: match rounds 11.08 -> 11.14 read "difference +0.1 (-0.01 to +0.1)", the
    # difference of 0.06 shown as its interval's upper end
    row = {"question": "match: rounds", "before": 11.0807, "after": 11.0807 + delta, "delta": delta, "ci": ci,
           "better": None, "change": "no clear change", "interval": "independent", "small": None,
           "threshold": None, "crosses": None}
    (got,) = pages.change_rows({"changes": [row]})
    assert got["delta_text"] == shown
