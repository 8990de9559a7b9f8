"""Review of hostile round 20 (merge 064f224): the conformance suite's match_over check must not
fail a game that changes nothing, and its scribbling strategy must reach the tables an object of
the view holds. Each test failed on the merge's code."""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pytest

from simtool.testing import Conformance
from tests.toy_game import Climb, ClimbView


class CachedLimit(Climb):
    """Reads its round limit through a cached_property: filled on the first read, a cache."""

    id = "climb-cached"

    @cached_property
    def rounds(self):
        return 2

    def match_over(self, match, rnd):
        return np.full(match.n, rnd + 1 >= self.rounds)


class HoldsAGenerator(Climb):
    """Holds a numpy Generator that match_over never reads (a deep copy of it is another object)."""

    id = "climb-holds"

    def __init__(self):
        self.shuffler = np.random.default_rng(0)


class DrawsFromItsGenerator(HoldsAGenerator):
    """Draws from the generator it holds as it answers: a side effect, still caught."""

    id = "climb-draws"

    def match_over(self, match, rnd):
        self.shuffler.random()
        return super().match_over(match, rnd)


@pytest.mark.parametrize("game", [CachedLimit(), HoldsAGenerator()], ids=lambda g: g.id)
def test_match_over_changing_nothing_passes_however_its_game_keeps_its_tables(game):
    # before: "match_over changed game.rounds (added)" when the test ran first in its process
    # (-k, xdist), and "match_over changed game.shuffler" for a generator nothing drew from
    Conformance().test_match_over_has_no_side_effects(game, 3)


def test_match_over_drawing_from_the_games_generator_is_still_named():
    with pytest.raises(AssertionError, match="match_over changed game.shuffler"):
        Conformance().test_match_over_has_no_side_effects(DrawsFromItsGenerator(), 3)


class BonusRules:
    """A game's rule table kept in an object, marked read-only only: numpy lets anyone holding
    it mark it writable again (the old cards.fixed, behind Out-Trumped's view.layout)."""

    def __init__(self):
        self.bonus = np.zeros(8, np.int16)
        self.bonus.flags.writeable = False


RULES = BonusRules()


class RulesView(ClimbView):
    @property
    def rules(self):
        """The game's rule table (shared, read-only)."""
        return RULES


class ScoresByItsRules(Climb):
    """Scores tricks and banks plus a bonus read from the rule table each view hands out."""

    id = "climb-rules"
    View = RulesView

    def play(self, s):
        results = yield from super().play(s)
        return results | {"score": results["score"] + RULES.bonus[results["tricks"]]}


def test_the_suite_reaches_a_table_held_by_an_object_of_the_view():
    # before: the scribbling strategy looked into a view's arrays, tuples, lists and dicts only, so
    # a table inside an object (view.rules.bonus; Out-Trumped's view.layout, Nine Lives' _layout
    # before hostile round 20) passed while a strategy could rewrite it; after, it is named
    try:
        with pytest.raises(AssertionError, match="changed the game's 'score' results"):
            Conformance().test_a_view_is_a_copy(ScoresByItsRules(), 2)
    finally:
        RULES.bonus = np.zeros(8, np.int16)


def test_a_strategy_made_directly_with_one_game_as_text_plays_that_game_alone():
    # the @strategy decorator read games="kansas-city" as one game; Strategy(...) made directly,
    # as a plugin may, still played any game whose id is a piece of the text
    from strategies.base import Strategy

    made = Strategy("x", lambda view, rng: None, "one game", games="kansas-city")
    assert made.games == ("kansas-city",) and made.plays("kansas-city") and not made.plays("kansas")
    assert Strategy("y", lambda view, rng: None, "any", games=None).games is None
    assert Strategy("z", lambda view, rng: None, "two", games=["hearts", "trickster"]).games == ("hearts", "trickster")


@pytest.mark.parametrize("games", [5, [5], ("hearts", None)])
def test_a_strategy_whose_games_are_not_game_ids_is_refused_with_what_they_must_be(games):
    # games=5 ended in "'int' object is not iterable", which names neither the field nor the fix
    from strategies.base import Strategy

    with pytest.raises(TypeError, match=r"strategy 'x': games must be game ids .* or None for any game"):
        Strategy("x", lambda view, rng: None, "bad", games=games)
