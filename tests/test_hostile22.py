"""Hostile round 22: designer games whose results hang on something other than the seed (the
clock, state kept between chunks), ... Each test failed on the code before its fix."""

from __future__ import annotations

from .test_hardening_round5 import TOY, suite

CLOCKED = TOY.replace("deck.shuffled(rng,", "deck.shuffled(np.random.default_rng(int(__import__('time').time())),")


def test_a_deal_seeded_from_the_clock_fails_the_suite(pytester):
    """A deal drawn from a generator seeded by the clock's second (``default_rng(int(time.time()))``)
    passed every check: the same seed played twice within one second gave the same deals, and a
    run's results changed from one second to the next."""
    done = suite(pytester, "clocked_game", CLOCKED, "-k", "2p and same_seed")
    assert done.ret == 1
    done.assert_outcomes(failed=1)
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and "the same deals played twice gave different results" in said[0], said
    assert "(np.random.default_rng() unseeded, random, time)" in said[0]
