"""Beliefs: per game, how well a re-dealt world fits what the other seats chose this round, for a
search that keeps the worlds that fit best (``pimc@infer=``).

A belief is ``keep(view, hands, k, draw, rng) -> (rows, hands)``: of ``k * draw`` worlds per deal
of the view, whose seats hold ``hands`` ``(m * k * draw, p)`` (deal-major), the rows of the ``k``
per deal to keep, deal-major ``(m * k,)``, and the hands those worlds are to hold ``(m * k, p)``
(the belief may mend them: the same cards unseen, each seat as many)."""

from __future__ import annotations

from . import nine_lives_belief

# per game: whether a view holds any of the others' choices to go by, and the belief
BELIEFS = {"nine-lives": (nine_lives_belief.evidence, nine_lives_belief.keep)}


def belief(view):
    """The game's belief at this view, or None where the game has none or the view shows none of
    the others' choices yet (a search then keeps the worlds as drawn)."""
    found = BELIEFS.get(view.game)
    return found[1] if found is not None and found[0](view) else None
