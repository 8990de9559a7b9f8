"""Golden deal records: seeded deals written out play by play, compared with fixtures.

Each decision also records what the acting seat's view showed (its legal options and a digest of
every view field), as OpenSpiel's playthroughs record information states: a leak shows as a diff.

A rules change that alters any play or score shows up here. After an intended
change, regenerate with ``UPDATE_GOLDEN=1 make test`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simtool.pipeline.runner import replay

from .conftest import spec

HERE = Path(__file__).parent / "golden"
RECORDS = [
    # (game, players, line-up, unit, number)
    ("black-white", 2, ["random", "random"], "deal", 3),
    ("black-white", 3, ["balance", "duck", "random"], "deal", 1),
    ("black-white", 4, ["balance"] * 4, "deal", 40000),
    ("black-white", 3, ["random", "balance", "high"], "match", 2),
    ("kansas-city", 4, ["random"] * 4, "deal", 0),
    ("kansas-city", 5, ["target", "greedy", "random", "target", "low"], "deal", 7),
    ("kansas-city", 4, ["target", "greedy", "target", "random"], "match", 1),
    ("trickster", 4, ["random"] * 4, "deal", 5),
    ("trickster", 3, ["safe", "spoiler", "random"], "match", 0),
    ("out-trumped", 4, ["random"] * 4, "deal", 9),
    ("out-trumped", 3, ["hoarder", "tricks", "random"], "deal", 4),
    ("nine-lives", 4, ["random"] * 4, "deal", 2),
    ("nine-lives", 3, ["exact", "team", "random"], "match", 1),
    ("hearts", 4, ["random"] * 4, "deal", 3),
    ("hearts", 3, ["ducker", "hunter", "random"], "deal", 1),
    ("hearts", 5, ["ducker", "random", "hunter", "ducker", "random"], "match", 0),
]
RULES = {("out-trumped", 3): {"kitty": "bid", "follow": "literal"},
         ("hearts", 5): {"goal": 40, "jack": "on", "black_maria": "on"}}


@pytest.mark.parametrize("game,p,lineup,unit,number", RECORDS,
                         ids=[f"{g}-{p}p-{u}{k}" for g, p, _, u, k in RECORDS])
def test_golden_record(game, p, lineup, unit, number):
    rules = RULES.get((game, p))
    lines = replay(spec(game, p, n=number + 1, lineup=lineup, unit=unit, seed=20261121, rules=rules),
                   number, views=True)
    text = "\n".join(lines) + "\n"
    path = HERE / f"{game}-{p}p-{unit}{number}.txt"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_text(text)
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"wrote missing golden record {path.name}; review and commit it")
    assert text == path.read_text()
