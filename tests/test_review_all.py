"""Final review of the merged round: defects in how the merged branches meet."""

from __future__ import annotations

import sys

import pytest

from simtool.cli import main
from simtool.pipeline.folders import run_kind

from .test_hardening_cli import main_error


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit(0)"])
def test_a_game_plugin_raising_keyboardinterrupt_or_systemexit_is_its_error(capsys, tmp_path, monkeypatch,
                                                                           small_chunks, raised):
    # before: a game plugin's own KeyboardInterrupt (in its deal) was taken for Ctrl-C, 'interrupted',
    # exit 130 and "resume", which stopped again; its SystemExit(0) ended simtool with exit status 0
    # and no result. A strategy plugin's are its error since hard13 (exit 2, finished chunks kept)
    from .test_hardening_round5 import TOY
    from .test_hardening_round12 import installed

    failing = TOY.replace("    def deal(self, rng, match: Match, rnd: int) -> State:\n",
                          "    def deal(self, rng, match: Match, rnd: int) -> State:\n"
                          "        DEALT.append(rnd)\n"
                          "        if len(DEALT) > int(__import__('os').environ.get('CLIMB_FAILS_AFTER', '1000000')):\n"
                          f"            raise {raised}\n") + "\nDEALT = []\n"
    installed(tmp_path, monkeypatch, "stopping_climb", failing, "stopping-climb", "climb")
    out = tmp_path / "run"
    try:
        monkeypatch.setenv("CLIMB_FAILS_AFTER", "2")  # a deal a chunk: in the third
        main_error(capsys, ["run", "--game", "climb", "--n", 4 * 2048, "--seed", 3, "--jobs", 1, "-q", "--out", out],
                   f"game 'climb' (stopping_climb) raised {raised.split('(')[0]}", "2 finished chunks are kept")
        assert run_kind(out) == "interrupted"
        monkeypatch.delenv("CLIMB_FAILS_AFTER")
        assert main(["run", "--resume", str(out), "-q", "--jobs", "1"]) == 0
    finally:
        sys.modules.pop("stopping_climb", None)


def test_a_game_plugin_raising_keyboardinterrupt_as_it_is_imported_is_its_error(capsys, tmp_path, monkeypatch):
    # before: 'interrupted; no result was written', exit 130, as for Ctrl-C; a strategy plugin's
    # own KeyboardInterrupt at import is 'failed to load: KeyboardInterrupt', exit 2, since hard13
    from .test_hardening_round5 import TOY
    from .test_hardening_round12 import installed

    installed(tmp_path, monkeypatch, "importing_climb", TOY + "\nraise KeyboardInterrupt\n", "importing-climb", "climb")
    try:
        main_error(capsys, ["run", "--game", "climb", "--n", 100, "-q", "--out", tmp_path / "run"],
                   "installed game 'climb' (entry point importing_climb:GAME) failed to load: KeyboardInterrupt")
        assert not (tmp_path / "run").exists()
    finally:
        sys.modules.pop("importing_climb", None)


def test_run_resume_help_names_every_option_a_resume_takes(capsys):
    # before: --help said 'only --jobs, --backend and --scheduler apply', where a resume takes
    # --timeout too (its own refusal says so, and docs/cli.md)
    main(["run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "which other flags may only repeat; --jobs, --backend, --scheduler and --timeout apply" in shown, shown


def test_a_game_plugin_adding_outside_its_table_late_keeps_the_finished_chunks(capsys, tmp_path, monkeypatch,
                                                                              small_chunks):
    # before: engine.add's 'a seat outside the table' (newgame) was a plain SimtoolError, not the
    # game's error (left3's GameError): the run took back its finished chunks, and the line named
    # no game and no way on
    from .test_hardening_round5 import TOY
    from .test_hardening_round12 import installed

    failing = TOY.replace("    def deal(self, rng, match: Match, rnd: int) -> State:\n",
                          "    def deal(self, rng, match: Match, rnd: int) -> State:\n"
                          "        DEALT.append(rnd)\n"
                          "        if len(DEALT) > int(__import__('os').environ.get('CLIMB_FAILS_AFTER', '1000000')):\n"
                          "            from simtool.engine import add\n"
                          "            add(np.zeros((match.n, match.p), np.int16), np.array([match.n * match.p]), 1)\n"
                          ) + "\nDEALT = []\n"
    installed(tmp_path, monkeypatch, "outside_climb", failing, "outside-climb", "climb")
    out = tmp_path / "run"
    try:
        monkeypatch.setenv("CLIMB_FAILS_AFTER", "2")  # a deal a chunk: in the third
        main_error(capsys, ["run", "--game", "climb", "--n", 4 * 2048, "--seed", 3, "--jobs", 1, "-q", "--out", out],
                   "a seat outside the table", "game 'climb'", "2 finished chunks are kept")
        assert run_kind(out) == "interrupted"
    finally:
        sys.modules.pop("outside_climb", None)
