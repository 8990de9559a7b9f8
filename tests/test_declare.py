"""A round state declared once (``engine.declare``): the view's fields and the re-deal derived from it.

A tiny declared game: 8 cards in two suits (0-3, 4-7), hands of 2 at 3 seats. Its view must show
exactly the declared fields, and its re-deal must copy what the seat sees and deal what it does not
uniformly among the layouts the game's constraints allow (shown voids, cards known to be held).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pytest
from scipy import stats as sps

from simtool import bits, engine
from simtool.engine import HIDDEN, OWN, PUBLIC, Game, Hidden, Match, RoundState, View, declare
from simtool.errors import SimtoolError

SUITS = np.array([bits.of(range(4)), bits.of(range(4, 8))], np.uint64)


@dataclass
class Tiny(RoundState):
    p: int
    hands: np.ndarray = declare(OWN, "n p", "The acting seat's cards, ``(m,)`` sets.", view="hand", cards=True)
    played: np.ndarray = declare(PUBLIC, "n", "Cards played, ``(m,)`` sets.")
    score: np.ndarray = declare(PUBLIC, "n p", "Every seat's score, ``(m, p)``.",
                                mine=("my_score", "The acting seat's score, ``(m,)``."))
    turn: int = declare(PUBLIC, "", "Turns played (one number).", default=0)
    dealt: np.ndarray | None = declare(HIDDEN, "n", default=None)

    @property
    def n(self) -> int:
        return self.hands.shape[0]


class TinyView(View, state=Tiny):
    @cached_property
    def unseen(self) -> np.ndarray:
        return bits.full(8) & ~self.hand & ~self.played


class TinyGame(Game):
    """Seat 1 is known to hold card 5 (say, passed to it); seat 2 has shown void in suit 1."""

    id, title, sheet, players, default_players, n_actions = "tiny", "Tiny", "", (3,), 3, 8
    View = TinyView

    def deal(self, rng, match: Match, rnd: int):
        raise NotImplementedError  # positions are built by hand

    def play(self, state):
        yield engine.Decision("play", 0, state.hands[:, 0])
        return {"score": state.score}

    def match_over(self, match, rnd):
        return np.ones(match.n, bool)

    def invariants(self, state):
        return {}

    def hidden_cards(self, view: TinyView) -> Hidden:
        m = len(view)
        known = np.zeros((m, 3), np.uint64)
        known[:, 1] = bits.BIT[5]
        voids = np.zeros((m, 3), np.int64)
        voids[:, 2] = 0b10
        return Hidden(view.unseen, np.full((m, 3), 2), 8, voids=voids, suits=SUITS, known=known)

    def restore(self, view: TinyView, state: dict, k: int, rng) -> None:
        state["dealt"] = np.bitwise_or.reduce(state["hands"], axis=1) | state["played"]


class Forgetful(TinyGame):
    def restore(self, view, state, k, rng) -> None:
        pass


def _position(game=None, m=1):
    """Seat 0 holds cards 0 and 4; seat 1 holds 5 and 1, seat 2 holds 2 and 3; nothing played."""
    hands = np.tile(np.array([bits.of((0, 4)), bits.of((1, 5)), bits.of((2, 3))], np.uint64), (m, 1))
    state = Tiny(3, hands, np.zeros(m, np.uint64), np.tile(np.array([[1, 2, 3]], np.int16), (m, 1)), 7)
    view = engine.view_of(game or TinyGame(), state, "play", np.zeros(m, np.int64), hands[:, 0])
    return state, view


def test_the_view_shows_exactly_the_declared_fields():
    fields = TinyView.fields()
    assert sorted(fields) == ["hand", "my_score", "played", "score", "turn"]
    assert fields["hand"].__doc__ == "The acting seat's cards, ``(m,)`` sets."
    _, view = _position(m=2)
    assert (view.hand == bits.of((0, 4))).all() and view.turn == 7
    assert (view.my_score == 1).all() and view.score.tolist() == [[1, 2, 3]] * 2
    assert not hasattr(view, "dealt") and "hands" not in fields


def test_a_view_field_declared_twice_is_refused():
    with pytest.raises(TypeError, match="played: the round state declares"):
        class Twice(View, state=Tiny):
            played = engine.public("played", "again")


@pytest.mark.parametrize("see,shape,kwargs,problem", [
    ("seen", "n", {}, "see must be one of"),
    (OWN, "n", {}, "own field is"),
    (OWN, "n p", {"mine": ("x", "")}, "mine= is public"),
    (PUBLIC, "n", {"cards": True}, "cards= is for an own field"),
    (HIDDEN, "n", {"view": "x"}, "hidden field has no view field"),
])
def test_a_bad_declaration_is_refused(see, shape, kwargs, problem):
    with pytest.raises(TypeError, match=problem):
        declare(see, shape, "", **kwargs)


def test_a_redeal_that_leaves_a_field_unset_names_it():
    _, view = _position(Forgetful())
    with pytest.raises(SimtoolError, match="sets no dealt"):
        view.redeal(2, np.random.default_rng(0))


def test_the_redeal_copies_what_the_seat_sees_and_keeps_the_constraints():
    state, view = _position(m=2)
    world = view.redeal(3, np.random.default_rng(1))._state
    assert world.n == 6 and world.turn == 7
    assert (world.hands[:, 0] == bits.of((0, 4))).all()
    assert (world.score == np.repeat(state.score, 3, axis=0)).all()
    assert ((world.hands[:, 1] & bits.BIT[5]) != 0).all()  # known
    assert ((world.hands[:, 2] & SUITS[1]) == 0).all()  # void
    assert (bits.count(world.hands) == 2).all()
    assert (world.dealt == np.bitwise_or.reduce(world.hands, axis=1)).all()


def test_the_redeal_is_uniform_over_the_consistent_layouts():
    """Seat 1 holds 5 and one of 1, 2, 3, 6, 7; seat 2 two of 1, 2, 3 (not the one seat 1 has):
    9 layouts, each as likely."""
    _, view = _position(m=1)
    world = view.redeal(9000, np.random.default_rng(2))._state
    seen = Counter(zip(world.hands[:, 1].tolist(), world.hands[:, 2].tolist(), strict=True))
    layouts = [(bits.of((5, x)), bits.of(y)) for x in (1, 2, 3, 6, 7)
               for y in [(1, 2), (1, 3), (2, 3)] if x not in y]
    assert sorted(seen) == sorted((int(a), int(b)) for a, b in layouts) and len(layouts) == 9
    assert sps.chisquare(list(seen.values())).pvalue > 1e-3
