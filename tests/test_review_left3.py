"""Review of the left3 change (strategy/game errors keep chunks, shadowed names, installed
plugins recorded, plugin files reloaded when edited). Each test failed on the code before its fix."""

from __future__ import annotations

import json


def test_an_isolated_plugin_edited_between_two_runs_of_one_process_plays_as_edited(tmp_path):
    # before: the in-process plugin was loaded anew once its file changed, the --isolate one was
    # not: the plugin's process of the first run played the second (a notebook's) with the old
    # code, filed under the checksum of the edited file
    import simtool

    first = "def last(view, rng):\n    return view.mask.argmax(axis=1)\n"
    edited = "def last(view, rng):\n    return view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)\n"
    plugin, copy = tmp_path / "mine" / "last.py", tmp_path / "copy" / "last.py"
    for path, text in ((plugin, first), (copy, edited)):
        path.parent.mkdir()
        path.write_text(text)

    def played(path):
        return simtool.run("black-white", 200, players=3, seats={0: f"{path}:last"}, seed=2, isolate=True).seats

    before = played(plugin)
    plugin.write_text(edited)
    after = played(plugin)
    assert not after.equals(before) and after.equals(played(copy))


def test_a_tuning_whose_strategy_fails_says_to_go_on_with_the_tuning(capsys, tmp_path, monkeypatch, small_chunks,
                                                                     charts_undrawn):
    # before: "...; 1 finished chunk is kept, the sweep unfinished: ... finish it with: simtool
    # sweep --resume OUT/runs/deck-14_n6144_s1; a changed strategy plays it again with --force":
    # that sweep's cells finished no tuning, and tune has no --force
    from simtool.cli import main

    from .test_hardening_cli import main_error
    from .test_hardening_leftovers3 import ASKED_PER_CHUNK, fragile

    entry, calls = fragile(tmp_path)
    out = tmp_path / "tuning"
    argv = ["tune", "--game", "black-white", "--vary", "deck", "--objective", "seat_spread", "--trials", "2",
            "--n", str(3 * 2048), "--lineup", f"{entry},random,random", "--seed", "1", "--jobs", "1", "-q",
            "--out", str(out)]
    monkeypatch.setenv("FRAGILE_AFTER", str(ASKED_PER_CHUNK + 1))  # in the first trial's second chunk
    text = main_error(capsys, argv, "raised RuntimeError: fragile gave up",
                      f"; 1 finished chunk is kept, the tune unfinished: with the strategy unchanged (the cause "
                      f"lay elsewhere: a --timeout too short, a file it reads), finish it with: simtool tune "
                      f"--resume {out}; a changed strategy plays it again with a new --out")
    assert "sweep" not in text and "--force" not in text
    monkeypatch.delenv("FRAGILE_AFTER")
    calls[0] = 0
    assert main(["tune", "--resume", str(out), "-q", "--jobs", "1"]) == 0  # as the error said
    assert json.loads((out / "tune.json").read_text())["trials"] == 2


def test_a_review_whose_game_fails_says_to_run_the_same_review_again(capsys, tmp_path, monkeypatch, small_chunks):
    # before: "...kept, the review unfinished: ... finish it with: simtool sweep --resume
    # OUT/runs/QUESTION; a changed game plays it again with --force": that sweep finished one
    # question and no review, and review has no --force (Ctrl-C said: run the same review again)
    import sys

    from .test_hardening_cli import main_error
    from .test_hardening_round5 import TOY
    from .test_hardening_round12 import installed

    failing = TOY.replace("    def deal(self, rng, match: Match, rnd: int) -> State:\n",
                          "    def deal(self, rng, match: Match, rnd: int) -> State:\n"
                          "        DEALT.append(rnd)\n"
                          "        if len(DEALT) > int(__import__('os').environ.get('CLIMB_FAILS_AFTER', '1000000')):\n"
                          "            raise ValueError('the deck ran out')\n") + "\nDEALT = []\n"
    installed(tmp_path, monkeypatch, "failing_climb", failing, "failing-climb", "climb")
    out = tmp_path / "review"
    try:
        monkeypatch.setenv("CLIMB_FAILS_AFTER", "6")
        text = main_error(capsys, ["review", "--game", "climb", "--seed", "3", "--jobs", "1", "-q", "--out", out],
                          "game 'climb' (failing_climb) raised ValueError: the deck ran out",
                          f"the review unfinished: with the game unchanged (the cause lay elsewhere: a --timeout "
                          f"too short, a file it reads), finish it with: the same simtool review (--out {out}) "
                          f"again; a changed game plays it again with a new --out")
        assert "sweep" not in text and "--force" not in text
    finally:
        sys.modules.pop("failing_climb", None)


def test_an_installed_strategy_playing_a_searchs_play_outs_is_recorded_and_a_changed_one_refused(tmp_path,
                                                                                                  monkeypatch):
    # before: only the line-up's own entries were asked: 'pimc@samples=2,playout=lowest' recorded
    # nothing, so a resume after the package of 'lowest' changed joined chunks of its two versions
    import sys

    import pytest

    from simtool.errors import SimtoolError
    from simtool.pipeline.folders import RunWriter, installed_by

    from .test_hardening_leftovers3 import HEURISTIC, claiming

    claiming(tmp_path, monkeypatch, "[simtool.strategies]\nlowest = my_heuristics:lowest\n")
    source = tmp_path / "site" / "my_heuristics.py"
    source.write_text(HEURISTIC)
    spec = {"game": "black-white", "lineup": ["pimc@samples=2,playout=lowest", "random", "random"]}
    try:
        found = installed_by(spec)
        assert list(found) == ["strategy lowest"] and found["strategy lowest"].startswith(
            "my_heuristics:lowest of my-cards 0.1, source sha256 ")
        out = tmp_path / "run"
        RunWriter(out, spec=spec).interrupted()  # a run stopped before its resume
        source.write_text(HEURISTIC.replace("argmax", "argmin"))
        with pytest.raises(SimtoolError, match=f"^cannot resume {out}: installed strategy lowest changed since"):
            RunWriter(out, resume=True)
        source.write_text(HEURISTIC)
        RunWriter(out, resume=True).interrupted()  # the version that played its chunks: resumed
    finally:
        sys.modules.pop("my_heuristics", None)


def test_a_plan_plays_again_a_finished_cell_whose_installed_strategy_changed(tmp_path, monkeypatch):
    # before: a finished cell was kept when simtool's and numpy's versions were the same, whatever
    # the installed strategy it played: the same sweep after the package changed set the old
    # version's cells beside the new one's in one report
    import sys

    import polars as pl

    from simtool.commands import plans
    from simtool.pipeline.runner import make_spec

    from .test_hardening_leftovers3 import HEURISTIC, claiming

    claiming(tmp_path, monkeypatch, "[simtool.strategies]\nlowest = my_heuristics:lowest\n")
    source = tmp_path / "site" / "my_heuristics.py"
    source.write_text(HEURISTIC)
    try:
        spec = make_spec("black-white", 3, 300, "random", {0: "lowest"}, seed=3)
        (cell,) = plans.play([spec], tmp_path / "sweep", jobs=1)
        old = pl.read_parquet(cell / "seats.parquet")
        assert json.loads((cell / "run.json").read_text())["installed_by"]["strategy lowest"].startswith(
            "my_heuristics:lowest of my-cards 0.1, source sha256 ")
        (kept,) = plans.play([spec], tmp_path / "sweep", jobs=1)  # unchanged: kept as it was
        assert pl.read_parquet(kept / "seats.parquet").equals(old)
        sys.modules.pop("my_heuristics", None)
        source.write_text(HEURISTIC.replace("view.mask.argmax(axis=1)",  # its last legal option
                                            "view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)"))
        (again,) = plans.play([spec], tmp_path / "sweep", jobs=1)
        (fresh,) = plans.play([spec], tmp_path / "fresh", jobs=1)
        new = pl.read_parquet(again / "seats.parquet")
        assert not new.equals(old) and new.equals(pl.read_parquet(fresh / "seats.parquet"))
    finally:
        sys.modules.pop("my_heuristics", None)
