"""``view.distinct``: of a run of interchangeable cards (nothing left between them but the
seat's own cards and those of finished tricks) the search tries one."""

from __future__ import annotations

import numpy as np
import pytest

import simtool.games
from simtool import engine

from .test_out_trumped import c, cards, hand_built

OT = simtool.games.get("out-trumped")


@pytest.mark.parametrize("seat2,plays,distinct", [
    # B7, B8 and B10 went in trick 1: B5 B6 (B7 B8) B9 (B10) B11 is one run, one card to try
    (["B10", "E1", "E2", "E3", "E4"], ["B7", "B8", "B10", "E1"], ["B5"]),
    # B10 lies in the current trick: B11 beats it and B9 does not, so they stay apart
    (["B1", "B10", "E2", "E3", "E4"], ["B7", "B8", "B1", "D1", "B10"], ["B5", "B11"]),
])
def test_pimc_tries_one_card_of_each_run_with_nothing_left_between(seat2, plays, distinct):
    s = hand_built([["B7", "B5", "B6", "B9", "B11"], ["B8", "D1", "D2", "D3", "D4"], seat2], trump=0)
    play = OT.play(s)
    d = play.send(None)
    for card in plays:
        d = play.send(np.array([c(card)]))
    seat = np.broadcast_to(np.asarray(d.seat), (1,))
    assert seat.tolist() == [0] and d.legal.tolist() == [cards(["B5", "B6", "B9", "B11"])]
    view = engine.view_of(OT, s, d.kind, seat, np.broadcast_to(d.legal, (1,)))
    assert view.distinct.tolist() == [cards(distinct)]
