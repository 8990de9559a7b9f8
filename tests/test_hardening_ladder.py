"""Hostile tests of the ladder's reference rung: what its sentence claims must hold for the
rungs it compares."""

from __future__ import annotations

from simtool.analysis import ladder as ladders


def _rung(name, below, share, low, high, fair=1 / 3):
    return ladders.Rung(1, name, below, share, low, high, fair, 0.0, None)


def test_a_reference_over_a_heuristic_top_is_not_called_the_price_of_hidden_information():
    # `ladder --rungs random,balance --reference` once printed "knowing the hidden cards is worth
    # -7.8 points": clairvoyant searches and balance does not, so the gap is no such price
    climbed = ladders.Ladder("black-white", 3, {}, "deal", [_rung("balance", "random", 0.617, 0.51, 0.72)],
                             reference=_rung("clairvoyant", "random", 0.539, 0.42, 0.65))
    assert ladders.price(climbed) is None
    sentence = ladders.reference_sentence(climbed)
    assert "worth" not in sentence and "balance is no search" in sentence and "not the price" in sentence
    # over a pimc top rung it is that price
    searched = ladders.Ladder("black-white", 3, {}, "deal", [_rung("pimc@samples=4", "random", 0.7, 0.65, 0.75)],
                              reference=_rung("clairvoyant", "random", 0.8, 0.75, 0.85))
    gain, low, high = ladders.price(searched)
    assert round(gain, 6) == 0.1 and low < gain < high
    assert "knowing the hidden cards is worth +10.0 points" in ladders.reference_sentence(searched)
