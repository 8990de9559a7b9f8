"""Hostile round 20: plugin surfaces (strategies that misbehave, restrictions, designer games fed
to the conformance suite). Each test failed on the code before its fix."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import strategies
from simtool import cli
from simtool.engine import Match
from simtool.testing import Conformance
from tests.toy_game import Climb


@dataclass
class DealerMatch(Match):
    dealer: int = 0


class DealerInMatchOver(Climb):
    """Advances its dealer as it answers match_over (end_round's work), a number, not an array."""

    id = "climb-dealer"

    def new_match(self, n, p, rules):
        m = super().new_match(n, p, rules)
        return DealerMatch(m.p, m.rules, m.totals)

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        s.leader[:] = match.dealer % match.p
        return s

    def match_over(self, match, rnd):
        match.dealer += 1
        return np.full(match.n, rnd >= 1)


class CountsItsCalls(Climb):
    """Keeps a count of match_over's calls on itself."""

    id = "climb-counts"

    def __init__(self):
        self.asked = 0

    def match_over(self, match, rnd):
        self.asked += 1
        return np.full(match.n, rnd >= 1)


class TotalsTouched(Climb):
    id = "climb-totals"

    def match_over(self, match, rnd):
        match.totals[0, 0] += 1
        return np.full(match.n, rnd >= 1)


@pytest.mark.parametrize(("game", "says"), [
    (DealerInMatchOver(), "match_over changed match.dealer"),
    (CountsItsCalls(), "match_over changed game.asked"),
    (TotalsTouched(), "match_over changed match.totals"),  # caught before, but in no words of its own
])
def test_the_suite_names_what_match_over_changed_beyond_the_matchs_arrays(game, says):
    # before: the check compared the match's arrays alone, so a dealer (a number) advanced in
    # match_over, or a count kept on the game, passed; and a changed array failed as a bare
    # `assert dict_keys(...) == ... and False`, naming no field
    with pytest.raises(AssertionError) as exc:
        Conformance().test_match_over_has_no_side_effects(game, 3)
    assert str(exc.value).startswith(says), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_match_over_that_only_reads_passes_the_suites_check():
    Conformance().test_match_over_has_no_side_effects(Climb(), 3)


@pytest.mark.parametrize("entry", ["balance~higher-colour~lower-colour", "random~lower-colour~higher-colour"])
def test_two_restrictions_of_one_decision_are_refused_not_played_as_the_first(entry, tmp_path, capsys):
    # before: accepted and named 'balance~higher-colour~lower-colour', while the play was
    # balance~higher-colour's to the deal (lower-colour never bound: the two never agree), in
    # either order; after, one line naming both and the decision, exit status 2, nothing written
    out = tmp_path / "run"
    assert cli.main(["run", "--game", "black-white", "--seat", f"0={entry}", "-n", "50", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("error: restrictions 'higher-colour' and 'lower-colour' both restrict the 'colour' decision "
                   "of black-white: where they disagree only 'higher-colour' would bind; give one of them")
    assert not out.exists()


def test_restrictions_of_different_decisions_still_play_together():
    assert strategies.canonical("target~pass-high~no-upgrade", "kansas-city") == "target~no-upgrade~pass-high"
    assert strategies.canonical("random~keep-queen~no-queen-dump", "hearts") == "random~no-queen-dump~keep-queen"


ONE_GAME = '''
from simtool import bits
from strategies import strategy


@strategy("onegame", "the lowest option", games=("kansas-city"))
def onegame(view, rng):
    return bits.lowest(view.legal)
'''


def test_a_strategys_one_game_written_without_its_comma_is_that_game(tmp_path, capsys):
    # before: games=("kansas-city") is a string, read as its letters: the refusal elsewhere said
    # "plays k, a, n, s, a, s, -, c, i, t, y, not black-white", and any game whose id is a piece
    # of the string was taken as one it plays; after, the one game
    (tmp_path / "bot.py").write_text(ONE_GAME)
    bot = f"{tmp_path / 'bot.py'}:onegame"
    assert strategies.resolve(bot, "kansas-city").games == ("kansas-city",)
    assert cli.main(["run", "--game", "black-white", "--seat", f"0={bot}", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "plays kansas-city, not black-white" in err, err
    assert not (tmp_path / "run").exists()


def test_a_play_out_policy_named_playout_is_refused_as_the_line_up_is_read(tmp_path, capsys):
    # before: 'playout' (pimc's word for its own play-out policy, the default of `own`) passed as
    # the value of `playout` itself, named no strategy, and the run stopped at its first search
    # as "strategy 'pimc@playout=playout' raised SimtoolError: unknown strategy 'playout'"; after,
    # refused as the line-up is read, naming the parameter and the valid strategies
    assert cli.main(["run", "--game", "black-white", "--seat", "0=pimc@playout=playout,samples=2", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: bad parameter playout 'playout' of strategy 'pimc': unknown strategy 'playout'; "
                          "valid for black-white: balance,"), err
    assert "raised" not in err and "\n" not in err
    assert strategies.canonical("pimc@own=playout", "black-white") == "pimc"  # own's default, as before
