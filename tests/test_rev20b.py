"""Review of hostile round 22 (rev20b): the conformance suite's fresh-process check and duplicate
matches' own totals. Each test failed on the code before its fix."""

from __future__ import annotations

import sys

import pytest

from .test_hardening_round5 import TOY
from .test_hostile22 import DEALT, HASHED, LEADER, SCORED


def test_a_game_dealing_by_a_strings_hash_fails_the_suite_under_a_fixed_hash_seed(pytester, monkeypatch):
    """tox (and many CI set-ups) run the tests with PYTHONHASHSEED set: the fresh process inherited
    the suite's seed, dealt a hash()-reading game alike, and the suite passed, while two `simtool
    run`s of one seed outside it (each process its own hash seed) dealt differently."""
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    pytester.makepyfile(hashed_game=HASHED)
    info = pytester.path / "hashed_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hashed-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simtool.games]\nclimb = hashed_game:GAME\n")
    done = pytester.runpytest_subprocess("-p", "simtool.testing", "--simtool-game", "climb", "-p", "no:cacheprovider",
                                         "-q", "-n", "0", "-k", "fresh")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert said and all("gave other results in a fresh process" in line for line in said), said


# a field of the seats' weights 1, 2, 3 (not the match totals), which the play checks
WEIGHTED = TOY.replace(LEADER, LEADER + "    weight: np.ndarray = None\n").replace(
    DEALT, DEALT[:-1] + ", np.tile(np.arange(1, p + 1), (n, 1)))").replace(
    SCORED, '        if not (s.weight == np.arange(1, s.p + 1)).all():\n'
            '            raise ValueError(f"weights {s.weight[0]} overwritten")\n'
            '        return {"score": s.tricks * s.weight + s.banks,')


@pytest.mark.parametrize("n", [1, 10])
def test_a_duplicate_match_alone_in_its_batch_keeps_a_field_of_small_numbers(tmp_path, monkeypatch, n):
    """A duplicate match's round state takes each copy's totals in the fields equal to the fresh
    match's marks; the marks were 1, 2, ... p for a batch of one match (--n 1, or a run's last
    chunk of one match), so a field holding 1..p in every deal (the seats' weights) was taken for
    the totals and overwritten: 'game 'climb' ... raised ValueError: weights [0 0 0] overwritten'."""
    import importlib

    import simtool
    from simtool import games

    (tmp_path / "weighted_game.py").write_text(WEIGHTED)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("weighted_game").GAME))
    try:
        r = simtool.run("climb", n=n, unit="match", duplicate=True, strategy="random", seed=2, jobs=1)
    finally:
        sys.modules.pop("weighted_game", None)
    assert r.matches.height == n * 3 * 3 and r.seats["round"].max() == 1


# the match totals copied into int8 (a game to 100 points), checked by the play: before a round
# of climb no seat holds more than 8 points
NARROW = TOY.replace(LEADER, LEADER + "    totals: np.ndarray = None\n").replace(
    "        return State(p, h,", "        seen = match.totals.astype(np.int8)\n        return State(p, h,").replace(
    DEALT, DEALT[:-1] + ", seen)").replace(
    SCORED, '        if s.totals.min() < 0 or s.totals.max() > 8:\n'
            '            raise ValueError(f"totals {s.totals[0]} before the round")\n' + SCORED)


@pytest.mark.parametrize("n", [1, 50])
def test_a_duplicate_match_finds_the_totals_copied_into_a_narrower_type(tmp_path, monkeypatch, n):
    """A deal copying the match totals into int8 passes the suite (the copy equals the totals);
    the engine looked for the marks themselves, which int8 holds only up to 127: 50 matches (150
    marks) left that field the wrapped marks ('raised ValueError: totals [-128 -127 -126] before
    the round'), where the copies' own totals belong (at 10,007 on, any batch)."""
    import importlib

    import simtool
    from simtool import games

    (tmp_path / "narrow_game.py").write_text(NARROW)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("narrow_game").GAME))
    try:
        r = simtool.run("climb", n=n, unit="match", duplicate=True, strategy="random", seed=2, jobs=1)
    finally:
        sys.modules.pop("narrow_game", None)
    assert r.matches.height == n * 3 * 3 and r.seats["round"].max() == 1
