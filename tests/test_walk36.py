"""A designer's own game broken on purpose, one slip at a time (walk36): the conformance suite
names each slip in words a designer reads, never as a strategy's error."""

from __future__ import annotations

import numpy as np
import pytest

from simtool.engine import Field, Game
from simtool.errors import SimtoolError
from simtool.testing import Conformance
from tests.designer_games.whist import Whist, WhistView


class PeekingView(WhistView):
    left_hand = Field(lambda s, rows, seat: s.hands[np.arange(s.n) if rows is None else rows, (seat + 1) % s.p],
                      "The next seat's hand, ``(m,)`` sets.")


class PeekingWhist(Whist):
    View = PeekingView


class NoHiddenCards(Whist):
    hidden_cards = Game.hidden_cards


def test_a_view_showing_another_seats_hand_is_named_in_one_line():
    # before: "StrategyError: strategy 'probe' raised AssertionError: a re-dealt world shows the
    # seat another 'left_hand' at 'play' assert np.False_ + where np.False_ = <built-in method all
    # ...>" and a `simtool replay` of a run nobody made; after, one line naming the field and why
    with pytest.raises(AssertionError) as exc:
        Conformance().test_worlds_show_the_seat_what_it_saw(PeekingWhist(), 4)
    assert str(exc.value) == ("view field 'left_hand' at 'play' differs between deal 0 and the worlds re-dealt "
                              "from what its seat saw: it shows the seat something hidden from it (another "
                              "seat's cards?), or restore() sets it otherwise")


def test_a_game_without_hidden_cards_is_told_what_the_re_deal_needs():
    # before: "strategy 'probe' raised SimtoolError: designer-whist declares hidden cards but does
    # not say which (hidden_cards) (decision 'lead' ..., `simtool replay --seed 0 --n 30 ...`)"
    with pytest.raises(SimtoolError) as exc:
        Conformance().test_worlds_show_the_seat_what_it_saw(NoHiddenCards(), 4)
    assert str(exc.value).startswith("game 'designer-whist' declares hidden cards (a cards= field) but no "
                                     "hidden_cards(view)")
