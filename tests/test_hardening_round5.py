"""Hostile round 5: a careless or malicious user of the newest commands, broken game modules fed
to the conformance suite, plugins that keep what they returned, and environment oddities. Each
test failed on the code before its fix."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simtool
from simtool.errors import SimtoolError
from simtool.pipeline import folders

from .conftest import smaller_chunks
from .test_cli import cli, one_line_error
from .test_data_safety import chunk_files, interrupted_run

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ROOT = Path(__file__).resolve().parents[1]

# ---- a plugin that reuses the array it returned --------------------------------------------

REUSE = '''
import numpy as np
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


# ---- broken game modules: the conformance suite, and installed games -----------------------

TOY = (Path(__file__).with_name("toy_game.py")).read_text()
ENDLESS = TOY.replace('        return {"score": s.tricks + s.banks', '''        while True:  # the designer's bug
            yield Decision("bank", s.leader, bits.of((0, 1)))
        return {"score": s.tricks + s.banks''')
NEVER_OVER = TOY.replace("return np.full(match.n, rnd >= 1)", "return np.full(match.n, False)")


def suite(pytester, module: str, text: str, *args: str):
    pytester.makepyfile(**{module: text})
    pytester.syspathinsert()
    return pytester.runpytest_inprocess("-p", "simtool.testing", "--simtool-game", f"{module}:GAME",
                                        "-p", "no:cacheprovider", "-q", "-n", "0", *args)


def test_a_game_whose_play_never_ends_fails_the_suite_instead_of_hanging(pytester, monkeypatch):
    # before: the suite (and `simtool run` of the game) hung for ever, its memory growing. The
    # engine's cap at 1,000 decisions, not 10,000: the suite checks every decision it asks, and the
    # ten thousand were most of this file's CPU; the cap's own value a run meets is checked below
    from simtool import engine

    monkeypatch.setattr(engine, "DECISION_CAP", 1000)
    done = suite(pytester, "endless_game", ENDLESS, "-x", "-k", "legal_options and 2p")
    assert done.ret == 1
    done.stdout.fnmatch_lines(["*game 'climb' asked for more than 1000 decisions in one round: its play never "
                               "ends (a loop in endless_game.Climb.play that never reaches its return)*"])


def test_a_run_of_a_game_whose_play_never_ends_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "endless_run_game.py").write_text(ENDLESS)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module("endless_run_game").GAME
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    with pytest.raises(SimtoolError, match="asked for more than 10000 decisions in one round"):
        simtool.run("climb", n=20, jobs=1, strategy="random", out=tmp_path / "r")
    assert not (tmp_path / "r" / "seats.parquet").exists()


def test_a_match_that_never_ends_fails_the_suite(pytester, monkeypatch):
    # before: the engine's cap of 200 rounds ended every match, and "whole matches end" passed. The
    # cap at 20 rounds: the toy's matches end after 2, and 200 rounds of 60 matches at each player
    # count were most of this test's CPU
    from simtool import engine

    monkeypatch.setattr(engine, "ROUND_CAP", 20)
    done = suite(pytester, "never_over_game", NEVER_OVER, "-k", "matches_end")
    assert done.ret == 1
    done.stdout.fnmatch_lines(["*none of 60 matches ended within 20 rounds (match_over never true?)*"])
    done.assert_outcomes(failed=3)  # 2, 3 and 4 players


@pytest.mark.parametrize("players,default,says", [
    ("()", "3", "declares players = (): it must be a non-empty tuple of player counts, such as (4,)"),
    ("(4)", "4", "declares players = 4: it must be a non-empty tuple"),  # the comma forgotten
    ("(2, 3, 4)", "5", "declares default_players = 5, not one of its players (2, 3, 4)"),
])
def test_player_counts_nobody_can_play_stop_the_suite_in_one_line(pytester, players, default, says):
    # before: players = () skipped every check and the suite passed (exit 0); (4) stopped
    # collection with a TypeError
    text = TOY.replace("players = (2, 3, 4)", f"players = {players}").replace("default_players = 3",
                                                                              f"default_players = {default}")
    done = suite(pytester, "counts_game", text)
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert any(says in line for line in done.errlines), done.errlines


INSTALLED = {
    "boom": ("boom_game:GAME", "failed to load: RuntimeError: boom at import"),
    "four": ("four_game:GAME", "declares players = 4: it must be a non-empty tuple"),
    "other": ("climb_game:GAME", "calls itself 'climb': the entry point's name must be the game's id"),
    "whole": ("climb_game", "is a module, not a simtool.engine.Game"),
}


def test_a_broken_installed_game_fails_only_where_it_is_named(tmp_path, monkeypatch):
    # before: one installed game whose package raised at import made `simtool games`, and any
    # unknown game, a traceback (exit 1); the others were played under the wrong id or crashed
    (tmp_path / "boom_game.py").write_text("raise RuntimeError('boom at import')\n")
    (tmp_path / "climb_game.py").write_text(TOY)
    (tmp_path / "four_game.py").write_text(TOY.replace("players = (2, 3, 4)", "players = (4)")
                                           .replace('id = "climb"', 'id = "four"').replace("default_players = 3",
                                                                                            "default_players = 4"))
    info = tmp_path / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simtool.games]\n" + "".join(f"{name} = {value}\n" for name, (value, _)
                                                                         in INSTALLED.items()))
    # installed here, in this process: the commands look the entry points up (and import their
    # modules) at each call, as a fresh `simtool` does at its start (0.5 s of CPU each, 7 times)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        listed = cli("games")
        assert listed.exit_code == 0 and "kansas-city" in listed.stdout, listed.output
        for name, (_, says) in INSTALLED.items():
            assert f"not playable: installed game '{name}'" in listed.stdout and says in listed.stdout
            named = cli("run", "--game", name, "--n", "10", "-j", "1", "--out", tmp_path / name)
            assert named.exit_code == 2 and named.stderr.count("\n") == 1 and says in named.stderr, named.output
            assert not (tmp_path / name).exists()
        unknown = cli("run", "--game", "nope", "--n", "10", "-j", "1", "--out", tmp_path / "x")
        assert unknown.exit_code == 2 and "unknown game 'nope'; valid: black-white, hearts" in unknown.stderr
        played = cli("run", "--game", "black-white", "--n", "10", "-j", "1", "-q", "--out", tmp_path / "bw")
        assert played.exit_code == 0, played.output
    finally:
        for module in ("boom_game", "climb_game", "four_game"):
            sys.modules.pop(module, None)


# ---- a resume under another version --------------------------------------------------------

def test_a_resume_under_another_version_is_refused_and_keeps_the_chunks(tmp_path, monkeypatch):
    # before: chunks played by one simtool (or numpy, whose generators a release may change)
    # were joined with chunks of another into one table, and run.json named only the second
    out = tmp_path / "r"
    interrupted_run(out, 2, n=100_000)
    kept, real = chunk_files(out), folders.played_by()["simtool"]
    monkeypatch.setattr(folders, "played_by", lambda: {"simtool": "9.9.9", "numpy": np.__version__})
    error = one_line_error(cli("run", "--resume", out, "-j", "1"), f"cannot resume {out}: its chunks were played by "
                                                                       f"simtool {real} with numpy")
    assert "this is simtool 9.9.9 with numpy" in error and "play it again with --force" in error
    assert chunk_files(out) == kept and not (out / "run.json").exists()
    monkeypatch.undo()
    assert cli("run", "--resume", out, "-j", "1", "-q").exit_code == 0  # the same version goes on
    assert (out / "run.json").exists()


# ---- a terminal that cannot show a table's characters --------------------------------------

def test_a_terminal_that_cannot_show_a_tables_characters_gets_the_table(tmp_path):
    # before: the run was written, then its summary (± and rich's box lines) raised
    # UnicodeEncodeError: a traceback and exit status 1 (PYTHONIOENCODING=ascii, a code page)
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(ROOT)}

    def simtool_cli(*args):
        return subprocess.run([sys.executable, "-m", "simtool.cli", *args], capture_output=True, env=env,
                              cwd=tmp_path, timeout=120)

    out = tmp_path / "dossier é"
    done = simtool_cli("run", "-n", "500", "-j", "1", "-s", "random", "--seed", "1", "--out", str(out))
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert b"Seat verdict" in done.stdout and b" ? 0." in done.stdout  # the sign of ± replaced
    assert (out / "run.json").is_file()
    listed = simtool_cli("games")
    assert listed.returncode == 0 and b"kansas-city" in listed.stdout, listed.stderr
    quiet = simtool_cli("run", "-n", "50", "-j", "1", "-q", "-s", "random", "--out", str(out), "--force")
    assert quiet.returncode == 0 and quiet.stdout == os.fsencode(out) + b"\n"  # the folder as spelt
    refused = simtool_cli("run", "--game", "skät", "-n", "50")
    assert refused.returncode == 2 and refused.stderr.count(b"\n") == 1 and b"unknown game 'sk" in refused.stderr


# ---- numbers at the edges ------------------------------------------------------------------

@pytest.mark.parametrize("precision", [1e-300, 5e-324])
def test_a_precision_no_float_can_reach_plays_to_the_cap(tmp_path, small_chunks, precision):
    # before: the estimate of the deals it needs overflowed a float after the first batch
    # (OverflowError, a traceback); now it plays to --n and says the cap left the widest
    done = cli("run", "-s", "random", "--n", str(5 * 2048), "--seed", "1", "-j", "1", "--precision", str(precision),
               "--out", tmp_path / "r")
    assert done.exit_code == 0, done.output
    meta = json.loads((tmp_path / "r" / "run.json").read_text())
    assert meta["n"] == 5 * 2048 and meta["precision_cap"] == 5 * 2048
    assert meta["precision_reached"] > precision


def toy_variant(tmp_path, monkeypatch, module: str, text: str):
    """The toy game ``climb`` changed as ``text`` says, registered for this test (in-process runs)."""
    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module(module).GAME
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, game))
    return game


BANK = 'bank = yield Decision("bank", winner, bits.of((0, 1)), active=due)'


@pytest.mark.parametrize("legal,says", [
    ("np.zeros(s.n, np.uint64)", "game 'climb' offered no legal option at decision 'bank' (match "),
    ("bits.of((20, 21))", "game 'climb' offered options beyond its n_actions (16) at decision 'bank' (match "),
])
@pytest.mark.parametrize("strategy", ["random", "high"])
def test_a_game_offering_no_option_is_blamed_not_the_strategy(tmp_path, monkeypatch, legal, says, strategy):
    # before: "strategy 'random' chose the illegal option 0": a designer hunted a bug in random
    toy_variant(tmp_path, monkeypatch, f"offers_{strategy}_{len(legal)}",
                TOY.replace(BANK, BANK.replace("bits.of((0, 1))", legal)))
    with pytest.raises(SimtoolError) as raised:
        simtool.run("climb", n=100, jobs=1, strategy=strategy, unit="match", seed=1)
    assert says in str(raised.value) and f"not that of strategy '{strategy}'" in str(raised.value)
    assert "python -m pytest --simtool-game climb" in str(raised.value)


@pytest.mark.parametrize("where,change,says", [
    ("match_over", ("def match_over(self, match, rnd):",
                    "def match_over(self, match, rnd):\n        raise ValueError('oops in match_over')"),
     r"game 'climb' \(raises_match_over\) raised ValueError: "),
    # a seat beyond the table: once numpy's IndexError, named since round 13 before it is read
    ("seat", (BANK, BANK.replace("winner,", "winner + s.p,")),
     r"game 'climb' gave decision 'bank' a seat of [3-5]: expected seat numbers 0\.\.2 of its 3 players"),
])
def test_a_game_that_raises_is_one_line_naming_it(tmp_path, monkeypatch, capsys, where, change, says):
    # before: a traceback from deep in the engine (exit 1), nothing naming the game's module
    toy_variant(tmp_path, monkeypatch, f"raises_{where}", TOY.replace(*change))
    with pytest.raises(SimtoolError, match=says) as raised:
        simtool.run("climb", n=100, jobs=1, strategy="random", unit="match", seed=1)
    if where == "match_over":
        assert isinstance(raised.value.__cause__, ValueError)  # kept for a debugger
    from simtool import cli as cli_module

    code = cli_module.main(["run", "--game", "climb", "--unit", "match", "--n", "100", "-j", "1",
                            "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "game 'climb'" in err and "Traceback" not in err
    assert not (tmp_path / "r").exists()


RESULT = 'return {"score": s.tricks + s.banks, "tricks": s.tricks, "banks": s.banks}'


@pytest.mark.parametrize("score,says", [
    ("(s.tricks + s.banks) / 2", "'score' holding values that are not whole numbers (stored as int16)"),
    ("(s.tricks + s.banks).astype(np.int64) * 20000", "'score' holding values beyond int16's -32768..32767"),
    ("(s.tricks + s.banks)[:, 0]", "'score' of shape (100,), not (100, 3)"),
])
@pytest.mark.parametrize("unit", ["deal", "match"])
def test_a_round_result_the_tables_cannot_hold_is_refused_naming_it(tmp_path, monkeypatch, score, says, unit):
    # before: a half-point score was cut to a whole one in seats.parquet without a word (a wrong
    # figure in every table), one beyond int16 or of another shape stopped with a traceback
    toy_variant(tmp_path, monkeypatch, f"scores_{unit}_{len(score)}",
                TOY.replace(RESULT, RESULT.replace('"score": s.tricks + s.banks', f'"score": {score}')))
    with pytest.raises(SimtoolError) as raised:
        simtool.run("climb", n=100, jobs=1, strategy="random", unit=unit, seed=1, out=tmp_path / "r")
    assert f"game 'climb' ended a round with {says}" in str(raised.value)
    assert not (tmp_path / "r" / "seats.parquet").exists()


def test_a_round_result_without_a_declared_column_is_refused_naming_it(tmp_path, monkeypatch):
    # before: KeyError: 'banks', a traceback from the table writer
    toy_variant(tmp_path, monkeypatch, "no_banks", TOY.replace(RESULT, RESULT.replace(', "banks": s.banks', "")))
    with pytest.raises(SimtoolError, match="game 'climb' ended a round with no 'banks' "
                                           r"\(each of score, tricks, banks is one number per deal and seat"):
        simtool.run("climb", n=100, jobs=1, strategy="random", seed=1)


@pytest.mark.parametrize("games,shown", [("(GAME)", "Climb"), ('("climb",)', "str 'climb'")])
def test_a_conformance_class_naming_its_games_wrongly_says_how_to(pytester, games, shown):
    # before: `games = (GAME)` (the comma forgotten) stopped collection with "TypeError: 'Climb'
    # object is not iterable", and ids with an AttributeError from deep in the suite
    pytester.makepyfile(climb_game=TOY, test_mine=f"from simtool.testing import Conformance\n"
                                                  f"from climb_game import GAME\n\n\n"
                                                  f"class TestMine(Conformance):\n    games = {games}\n")
    pytester.syspathinsert()
    done = pytester.runpytest_inprocess("-p", "simtool.testing", "-p", "no:cacheprovider", "-q", "-n", "0",
                                        "test_mine.py")
    assert done.ret == pytest.ExitCode.INTERRUPTED
    done.stdout.fnmatch_lines([f"*UsageError: TestMine.games must be a tuple of simtool.engine.Game objects, "
                               f"such as (GAME,); it holds {shown}*"])


LEAK = TOY.replace('''    hand = own("hands", "The acting seat's cards, ``(m,)`` sets.")
''', '''    hand = own("hands", "The acting seat's cards, ``(m,)`` sets.")
    everyone = Field(lambda s, rows, seat: (s.hands,), "Every hand, in a tuple: the live state's array.")
''').replace("import Decision, Game,", "import Decision, Field, Game,")


def test_a_view_field_handing_out_the_state_inside_a_tuple_fails_the_suite(pytester):
    # before: the suite wrote only into arrays a view held directly, so a field that handed out
    # the round's live hands inside a tuple (a leak, and a way to change the game) passed
    done = suite(pytester, "leaky_game", LEAK, "-k", "a_view_is_a_copy")
    assert done.ret == 1
    done.assert_outcomes(failed=3)
    done.stdout.fnmatch_lines(["*a strategy writing into its view changed the game (scribbles: *"])
    assert suite(pytester, "whole_game", TOY, "-k", "a_view_is_a_copy").ret == 0


UNMARK = '''
import numpy as np
from simtool import bits
from strategies import strategy

@strategy("unmark", "random, after making its read-only view.strength writable and writing into it")
def unmark(view, rng):
    strength = view.strength
    try:
        strength.flags.writeable = True
        strength[...] = 1
    except ValueError:  # truly read-only: nothing to write through
        pass
    return bits.uniform(view.legal, rng, view.n_actions)
'''


@pytest.mark.parametrize("game", ["hearts", "kansas-city", "out-trumped", "nine-lives"])
def test_a_plugin_unmarking_a_read_only_field_changes_nothing_of_the_game(tmp_path, game):
    # before: Hearts' and Kansas City's view.strength was a read-only view of the game's own rank
    # table; a plugin setting flags.writeable = True (as one does after "assignment destination
    # is read-only") rewrote the ranks for every later deal: Hearts' scores went to 26-26-0
    (tmp_path / "unmark.py").write_text(UNMARK)
    plain = simtool.run(game, n=300, seed=5, jobs=1, strategy="random").seats.drop("strategy")
    unmarked = simtool.run(game, n=300, seed=5, jobs=1, strategy=f"{tmp_path / 'unmark.py'}:unmark")
    again = simtool.run(game, n=300, seed=5, jobs=1, strategy="random").seats.drop("strategy")
    assert unmarked.seats.drop("strategy").equals(plain) and again.equals(plain)


OPTION = 'options = (Option("hand", (3, 2, 4), "cards dealt to each player"),)'


@pytest.mark.parametrize("options,says", [
    ("n_actions = 100", "game 'climb' declares n_actions = 100: a decision's options are 0..63 at most, so "
                        "1..64"),  # before: checks failed far from the cause, and a run played on
    ('options = (number("hand", 7, 2, 4, "cards dealt"),)',
     "game 'climb' declares a default its rule option refuses: bad rule hand 7 for climb; expected a whole "
     "number 2..4"),
    ('options = (Option("hand", (3, 2, 4), "cards"), Option("hand", (2, 3), "again"))',
     "game 'climb' declares rule option 'hand' twice"),
])
def test_rule_options_nobody_can_play_stop_the_suite_in_one_line(pytester, options, says):
    # before: the suite passed the last two; `simtool run` played hand=7 unchecked (each seat dealt more
    # cards than the deck holds, then "no legal option"), and --rule hand=... set one of the two
    text = TOY.replace(OPTION, options) if options.startswith("options") else \
        TOY.replace("    n_actions = 16\n", f"    {options}\n")
    text = text.replace("from simtool.options import Option", "from simtool.options import Option, number")
    done = suite(pytester, "options_game", text)
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert any(says in line for line in done.errlines), done.errlines


# ---- a full disk keeps the chunks ----------------------------------------------------------

@pytest.mark.parametrize("where", ["joining", "polars", "chunk"])
def test_a_full_disk_keeps_the_finished_chunks_for_the_resume(tmp_path, monkeypatch, small_chunks, where):
    # before: a disk that filled up while the chunks were joined into seats.parquet (which needs
    # as much room again as the chunks) threw every chunk away: hours of play lost for want of
    # room that the user could have made
    from simtool.pipeline import stitch

    from .test_hardening_cli import disk_full, fills_the_disk

    args = ("run", "-s", "random", "--n", str(4 * 2048), "--seed", "2", "-j", "1", "-q")
    assert cli(*args, "--out", tmp_path / "whole").exit_code == 0
    out = tmp_path / "r"
    if where != "chunk":  # full from the first join on: the joining while playing gives up too
        monkeypatch.setattr(stitch, "_write_at", disk_full)
    if where == "joining":
        monkeypatch.setattr(stitch, "_copy_all", disk_full)
    elif where == "polars":  # the chunks re-encoded, polars saying it in its words
        monkeypatch.setattr(stitch, "stitch", lambda parts, dest: False)
        monkeypatch.setattr(pl.LazyFrame, "sink_parquet", fills_the_disk(pl.LazyFrame.sink_parquet,
                                                                         name="seats.parquet"))
    else:  # the third chunk's file
        real = Path.write_bytes
        third = ".seats-000002.parquet.tmp"
        monkeypatch.setattr(Path, "write_bytes", lambda path, data: disk_full() if path.name.endswith(third)
                            else real(path, data))
    error = one_line_error(cli(*args, "--out", out), "No space left on device", "finished chunks are kept: "
                           f"finish the run with: simtool run --resume {out}")
    assert "cannot write" in error and not (out / "run.json").exists() and not (out / "seats.parquet").exists()
    assert len(list((out / "chunks").glob("seats-*.parquet"))) == (2 if where == "chunk" else 4)
    assert not list(out.rglob("*.tmp")) and not list(out.rglob(".*.tmp"))
    monkeypatch.undo()
    with smaller_chunks():
        assert cli("run", "--resume", out, "-j", "1", "-q").exit_code == 0
    assert (out / "seats.parquet").read_bytes() == (tmp_path / "whole" / "seats.parquet").read_bytes()


@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_a_run_started_with_its_output_closed_ends_well(tmp_path, quiet):
    # before: `simtool run ... >&-` wrote the run, then a traceback (sys.stdout is None), exit 1
    out = tmp_path / "r"
    command = [sys.executable, "-m", "simtool.cli", "run", "-n", "300", "-j", "1", "-s", "random", *quiet,
               "--out", str(out)]
    done = subprocess.run(["sh", "-c", '"$@" >&-', "sh", *command], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert (out / "run.json").is_file()


def test_a_plan_plays_again_a_finished_cell_of_another_version(tmp_path, monkeypatch):
    # before: a sweep run again after an upgrade kept the cells the older simtool (or numpy) had
    # played and set them beside new ones in one report, as if one version had played them all
    args = ("sweep", "-g", "black-white", "--lineup", "random", "--lineup", "high", "--n", "300", "--seed", "4",
            "-j", "1", "-q", "--runs", tmp_path / "runs", "--out", tmp_path / "sweep.html")
    assert cli(*args).exit_code == 0
    table = tmp_path / "runs" / "black-white_3p_random" / "seats.parquet"
    # a cell played again gets a new file, renamed into place; the file system may hand the new
    # file the inode number of the old one, removed before it, but not its time of writing
    played = (table.stat().st_ino, table.stat().st_mtime_ns)
    assert cli(*args).exit_code == 0
    assert (table.stat().st_ino, table.stat().st_mtime_ns) == played  # the same version keeps it
    monkeypatch.setattr(folders, "played_by", lambda: {"simtool": "9.9.9", "numpy": np.__version__})
    assert cli(*args).exit_code == 0
    assert (table.stat().st_ino, table.stat().st_mtime_ns) != played


OVER = "return np.full(match.n, rnd >= 1)"


def test_a_match_over_answering_in_integers_is_one_line_not_a_garbage_table(tmp_path, monkeypatch):
    # before: 0/1 integers were taken as row numbers: 2000 matches wrote 1,200,000 rows holding
    # 3 matches of 100 rounds on average, and the run ended as if all was well
    toy_variant(tmp_path, monkeypatch, "int_over", TOY.replace(OVER, "return np.full(match.n, rnd >= 1).astype(int)"))
    with pytest.raises(SimtoolError, match=r"game 'climb' match_over returned int64 of shape \(200,\); expected "
                                           r"booleans, one for each match still playing \(200,\)"):
        simtool.run("climb", n=200, jobs=1, strategy="random", unit="match", seed=1, out=tmp_path / "r")
    assert not (tmp_path / "r" / "matches.parquet").exists()


def test_a_match_over_answering_one_bool_for_all_plays_whole_matches(tmp_path, monkeypatch):
    toy_variant(tmp_path, monkeypatch, "one_over", TOY.replace(OVER, "return rnd >= 1"))
    matches = simtool.run("climb", n=200, jobs=1, strategy="random", unit="match", seed=1).matches
    assert matches.height == 200 * 3 and matches["match"].n_unique() == 200 and (matches["rounds"] == 2).all()


DEALT = "hands = deck.hands(deck.shuffled(rng, n, 4 * p, p * h), p)"


@pytest.mark.parametrize("unit", ["deal", "match"])
def test_a_deal_of_fewer_deals_than_asked_is_one_line(tmp_path, monkeypatch, unit):
    # before: the deal unit ended in a polars ShapeError traceback writing the table
    toy_variant(tmp_path, monkeypatch, f"half_{unit}", TOY.replace(DEALT, DEALT + "\n        n = n // 2\n"
                                                                          "        hands = hands[:n]"))
    with pytest.raises(SimtoolError, match="game 'climb' dealt 100 deals when asked for 200"):
        simtool.run("climb", n=200, jobs=1, strategy="random", unit=unit, seed=1)


COLUMNS = 'columns = {"banks": np.int8}'


@pytest.mark.parametrize("columns,says", [
    ('columns = {"banks": np.int8, "seat": np.int8}', "declares a column 'seat' in columns, a name simtool's "
                                                      "tables hold already"),  # before: polars DuplicateError
    ('columns = {"banks": np.int8, "win": np.float32}', "declares a column 'win' in columns"),  # silently replaced
    ('columns = {"banks": str}', "declares column 'banks' of type <class 'str'>: a column holds numbers or booleans"),
])
def test_result_columns_no_table_can_hold_stop_the_suite_in_one_line(pytester, columns, says):
    done = suite(pytester, "columns_game", TOY.replace(COLUMNS, columns))
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert any(says in line for line in done.errlines), done.errlines


def test_a_terminal_of_no_columns_still_gets_the_error_line():
    # before: rich took COLUMNS=0 at its word and printed nothing: a terminal so set got exit
    # status 2 and no line saying why (and a run no table, no verdict)
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "simtool.cli", "run", "-g", "skat", "-q"], stdin=follower,
                              stdout=follower, stderr=follower, timeout=120,
                              env={**os.environ, "COLUMNS": "0", "PYTHONPATH": str(ROOT)})
        os.close(follower)
        follower = None
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal's other end is closed, all read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert done.returncode == 2 and b"error: unknown game 'skat'; valid: black-white" in shown, shown
