"""Review of hostile round 22 (rev20b): the conformance suite's fresh-process check and duplicate
matches' own totals. Each test failed on the code before its fix."""

from __future__ import annotations

from .test_hostile22 import HASHED


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
