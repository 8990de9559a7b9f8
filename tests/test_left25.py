"""Leftovers of earlier sessions' notes, mended (2026-11-28)."""

from __future__ import annotations

from simtool.analysis import ladder as ladders


def _rung(name, below, share, low, high, fair=1 / 3):
    return ladders.Rung(1, name, below, share, low, high, fair, 0.0, None)


def test_a_reference_against_a_search_says_its_price_may_be_low():
    # Black & White 3p, 600 deals: "knowing the hidden cards is worth -0.9 points (-5.9 to +4.2)"
    # against 2 x pimc@samples=32, with no word that the reference models them as balance
    def sentence(below, share, low, high):
        top = _rung("pimc@samples=64", below, 0.335, 0.30, 0.37)
        ref = _rung("clairvoyant", below, share, low, high)
        return ladders.reference_sentence(ladders.Ladder("black-white", 3, {}, "deal", [top], reference=ref))

    searched = sentence("pimc@samples=32", 0.326, 0.291, 0.361)
    assert "worth -0.9 points" in searched and "not as the search pimc@samples=32 is" in searched
    assert "may price the cards low" in searched
    # against the play-out policy itself its model is right: no such word
    assert "price the cards low" not in sentence("balance", 0.326, 0.291, 0.361)
    # nor where it clearly prices the cards above 0 against a search
    assert "price the cards low" not in sentence("pimc@samples=32", 0.60, 0.57, 0.63)
