"""Hostile round 5: a careless or malicious user of the newest commands, broken game modules fed
to the conformance suite, plugins that keep what they returned, and environment oddities. Each
test failed on the code before its fix."""

from __future__ import annotations

import pytest

import simtool

# ---- a plugin that reuses the array it returned --------------------------------------------

REUSE = '''
from simtool import bits
from strategies import strategy

KEPT = []

@strategy("reuse", "random, and writes over every array it returned before (a reused buffer)")
def reuse(view, rng):
    for earlier in KEPT:
        earlier[...] = 0
    choice = np.asarray(bits.uniform(view.legal, rng, view.n_actions), np.int64)
    KEPT.append(choice)
    return choice

@strategy("fresh", "random")
def fresh(view, rng):
    return np.asarray(bits.uniform(view.legal, rng, view.n_actions), np.int64)
'''


@pytest.mark.parametrize("game", ["trickster", "nine-lives", "hearts", "kansas-city"])
def test_a_plugin_writing_over_an_array_it_returned_changes_nothing_of_the_game(tmp_path, game):
    # before: in a decision every seat takes at once (a pass, a bid, Trickster's turn) the engine
    # held each seat's returned array until the last seat had chosen, so a plugin reusing its
    # buffer changed earlier seats' checked choices: Trickster and Nine Lives played on silently
    # with other (unchecked) cards, Hearts and Kansas City stopped on a later "illegal" lead
    (tmp_path / "reuse.py").write_text(REUSE)
    tables = [simtool.run(game, n=300, seed=5, jobs=1, strategy=f"{tmp_path / 'reuse.py'}:{name}").seats
              .drop("strategy") for name in ("reuse", "fresh")]
    assert tables[0].equals(tables[1])
