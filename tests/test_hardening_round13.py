"""Hostile round 13: a game plugin's decision naming a seat that does not exist, and
``simtool replay``'s errors naming its options. Each test failed on the code before its fix."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import polars as pl
import pytest

import simtool
from simtool import games
from simtool.cli import main
from simtool.errors import SimtoolError

from .test_cli import cli
from .test_hardening_cli import main_error
from .test_hardening_round5 import TOY, suite
from .test_hardening_round7 import sigterm_once_ready

ROOT = Path(__file__).resolve().parents[1]

BANK = 'bank = yield Decision("bank", winner, bits.of((0, 1)), active=due)'
PLAY = 'card = yield Decision("play", seat,'
BAD_SEATS = {  # a designer's slip -> the first bad seat the error names
    # -1 for "no seat": numpy read it as the last seat, which silently played the bank
    "minus-one": ((BANK, BANK.replace("winner,", "np.full(s.n, -1),")), -1),
    # one seat past the last, for all deals: an IndexError from deep inside the engine
    "p": ((BANK, BANK.replace("winner,", "s.p,")), 2),
    # seats counted from 1: seat 0's cards played by another seat's strategy, without a word
    "from-one": ((PLAY, PLAY.replace("seat,", "seat - 1,")), -1),
}


@pytest.mark.parametrize("where", list(BAD_SEATS))
def test_a_decision_for_a_seat_beyond_the_players_is_named(tmp_path, monkeypatch, where):
    change, value = BAD_SEATS[where]
    module = f"seat_{where.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(TOY.replace(*change))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module(module).GAME
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, game))
    with pytest.raises(SimtoolError) as raised:
        simtool.run("climb", n=100, players=2, jobs=1, strategy="random", unit="match", seed=1, out=tmp_path / "r")
    kind = "play" if where == "from-one" else "bank"
    assert str(raised.value) == (f"game 'climb' gave decision '{kind}' a seat of {value}: expected seat numbers "
                                 f"0..1 of its 2 players; its conformance suite: python -m pytest --simtool-game climb")
    assert not (tmp_path / "r" / "seats.parquet").exists()


def test_the_conformance_suite_fails_a_decision_for_seat_minus_one(pytester):
    # before: the suite passed (the last seat banked in every deal, no invariant broken)
    done = suite(pytester, "seat_minus_one_suite", TOY.replace(*BAD_SEATS["minus-one"][0]), "-k", "2p and never_empty")
    assert done.ret == 1
    done.assert_outcomes(failed=1)
    done.stdout.fnmatch_lines(["*game 'climb' gave decision 'bank' a seat of -1: expected seat numbers 0..1 of its "
                               "2 players*"])


def test_the_conformance_suite_fails_a_bad_seat_where_the_engine_does_not_check(pytester, monkeypatch):
    # the engine skips the check for the built-in games (it costs a run of random play about 1%):
    # the suite's watch on every decision catches it there
    from simtool import engine

    monkeypatch.setattr(engine, "_seats_in_range", lambda *_: None)
    done = suite(pytester, "seat_unchecked_suite", TOY.replace(*BAD_SEATS["minus-one"][0]), "-k", "2p and never_empty")
    assert done.ret == 1
    done.assert_outcomes(failed=1)
    done.stdout.fnmatch_lines(["*AssertionError: seat -1 at 'bank', not one of 0..1*"])


# ---- simtool replay's errors name its options ------------------------------------------------

@pytest.mark.parametrize("args,says", [
    # before: "bad deal number -1", "bad match number -1": no option of that name
    (["--deal", "-1"], "error: bad --deal -1; expected a deal number 0 to 9223372036854775806"),
    (["--match", "-1"], "error: bad --match -1; expected a match number 0 to 9223372036854775806"),
    # before: "bad n '0'"
    (["--deal", "0", "--n", "0"], "error: bad --n '0'; expected a positive whole number such as 1e6"),
    # before: "bad deal number 5; this run has 0..2", the --n that made it so unsaid
    (["--deal", "5", "--n", "3"], "error: bad --deal 5; this run has deal numbers 0..2 (--n 3)"),
], ids=["deal", "match", "n", "deal-beyond-n"])
def test_replay_errors_name_the_options_as_typed(capsys, args, says):
    assert main_error(capsys, ["replay", "--seed", "1", *args]).startswith(says)


def test_n_keeps_its_python_and_plan_file_names(tmp_path):
    # a guard on the fix's reach (it passed before): the Python API's parameter is n=, a sweep
    # plan's key n, and neither is --n
    with pytest.raises(SimtoolError, match=r"^bad n 0; expected a positive whole number"):
        simtool.run("black-white", n=0, jobs=1, out=tmp_path / "r")
    from simtool import arguments
    from simtool.commands.sweep import make_grid

    token = arguments.COMMAND_LINE.set(True)  # as `simtool sweep plan.toml` reads the plan
    try:
        with pytest.raises(SimtoolError, match=r"^bad n 0; expected a positive whole number"):
            make_grid({"games": ["black-white"], "n": 0})
    finally:
        arguments.COMMAND_LINE.reset(token)


# ---- hostile round 13 (hard13): plugins' answers, commands' odd inputs ---------------------------

HIGHEST_ILLEGAL = '''
import numpy as np
from strategies import strategy

@strategy("top", "the highest option not offered, at its decision kind")
def top(view, rng):
    if view.kind == "{kind}":
        bad = ~view.mask
        return np.where(bad.any(axis=1), view.mask.shape[1] - 1 - bad[:, ::-1].argmax(axis=1),
                        view.mask.argmax(axis=1))
    return view.mask.argmax(axis=1)
'''


@pytest.mark.parametrize("game,rules,kind,named", [
    # before: IndexError tracebacks from the labels of options no game offers
    ("black-white", [], "colour", "63 (no colour)"),
    ("out-trumped", ["kitty=bid"], "trump", "63 (no suit)"),
    ("trickster", [], "play", "63 (no card of the 52-card deck)"),
    # before: named as cards of suits the deck does not have ("H1"), or "black 64 / white -27"
    ("nine-lives", [], "bid", "63 (no card of the 36-card deck)"),
    ("black-white", [], "lead", "63 (no card of the 36-card deck)"),
])
def test_an_option_beyond_the_deck_is_named_as_such_in_the_strategys_error(tmp_path, capsys, game, rules, kind,
                                                                          named):
    (tmp_path / "top.py").write_text(HIGHEST_ILLEGAL.replace("{kind}", kind))
    rule_args = [a for r in rules for a in ("--rule", r)]
    said = main_error(capsys, ["run", "--game", game, *rule_args, "--n", "50", "--seed", "1", "--jobs", "1", "-q",
                               "--strategy", f"{tmp_path / 'top.py'}:top", "--out", tmp_path / "r"])
    assert said.startswith(f"error: strategy 'top.py:top' chose the illegal option {named} at decision '{kind}' "
                           f"of {game}"), said
    assert not (tmp_path / "r" / "run.json").exists()


RAISES_CTRL_C = '''
import os, signal, time
from strategies import strategy

@strategy("raises", "raises KeyboardInterrupt itself")
def raises(view, rng):
    raise KeyboardInterrupt

@strategy("pressed", "the user presses Ctrl-C while it thinks")
def pressed(view, rng):
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    return view.mask.argmax(axis=1)
'''


def test_a_plugin_raising_keyboard_interrupt_in_this_process_is_its_error_and_ctrl_c_still_stops(tmp_path, capsys):
    # before: with one job (the plugin in simtool's own process) taken for the user's Ctrl-C:
    # exit status 130 and "finish the run with --resume", which only stopped again
    (tmp_path / "ki.py").write_text(RAISES_CTRL_C)
    args = ["run", "--n", "300", "--seed", "1", "--jobs", "1", "-q"]
    said = main_error(capsys, [*args, "--seat", f"0={tmp_path / 'ki.py'}:raises", "--out", tmp_path / "r"])
    assert said.startswith("error: strategy 'ki.py:raises' raised KeyboardInterrupt (decision 'lead'"), said
    assert not (tmp_path / "r" / "run.json").exists()
    # a true Ctrl-C while a plugin thinks is still the user's: the run stops to be resumed
    assert main([*args, "--seat", f"0={tmp_path / 'ki.py'}:pressed", "--out", str(tmp_path / "p")]) == 130
    assert "finish the run with: simtool run --resume" in capsys.readouterr().err
    assert (tmp_path / "p" / "chunks").is_dir()


LOWEST_OR_HIGHEST = '''
import numpy as np
from strategies import Param, strategy

@strategy("low", "the lowest legal option, or the highest in a share of decisions", params=(
    Param("share", float, 0.0, "share of highest picks", 0.0, 1.0),))
def low(view, rng, params):
    lowest = view.mask.argmax(axis=1)
    highest = view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)
    return np.where(rng.random(len(lowest)) < params.share, highest, lowest)
'''


@pytest.mark.parametrize("folder,file", [
    # before: "strategy plugin file not found: .../ru ns" (the '@x=1' in the folder was read
    # as the start of the parameters, and ':' as the end of the file)
    ("ru ns:2@x=1~y", "bot.py"),
    # before: "strategy plugin file not found: .../b@t.py:low@t.py:low" (the name cut at the
    # file's '@', then written twice)
    ("runs", "b@t.py"),
])
def test_a_plugin_path_holding_the_line_ups_own_characters_plays(tmp_path, folder, file):
    (tmp_path / folder).mkdir()
    plugin = tmp_path / folder / file
    plugin.write_text(LOWEST_OR_HIGHEST)
    for entry, label in [(f"{plugin}:low", f"{file}:low"), (f"{plugin}:low@share=0.5", f"{file}:low@share=0.5")]:
        out = tmp_path / f"r{len(label)}"
        done = cli("run", "--n", "200", "--seed", "1", "--jobs", "1", "-q", "--seat", f"0={entry}", "--out", out)
        assert done.exit_code == 0, done.output
        assert json.loads((out / "run.json").read_text())["lineup"] == [entry, "balance", "balance"]
        assert pl.read_parquet(out / "seats.parquet").filter(pl.col("seat") == 0)["strategy"].unique().to_list() \
            == [label]


NO_ARRAY = '''
from strategies import strategy

class Refuses:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no array for you")

@strategy("ragged", "a ragged list")
def ragged(view, rng):
    return [[1, 2], [3]]

@strategy("refuses", "an object whose __array__ raises")
def refuses(view, rng):
    return Refuses()
'''


@pytest.mark.parametrize("name,says", [
    ("ragged", "raised ValueError: setting an array element with a sequence."),
    ("refuses", "raised RuntimeError: no array for you (decision 'lead' of black-white"),
])
def test_an_answer_numpy_cannot_read_as_an_array_is_the_strategys_error(tmp_path, capsys, name, says):
    # before: numpy's traceback (exit status 1), the strategy unnamed
    (tmp_path / "noarray.py").write_text(NO_ARRAY)
    said = main_error(capsys, ["run", "--n", "200", "--seed", "1", "--jobs", "1", "-q",
                               "--seat", f"0={tmp_path / 'noarray.py'}:{name}", "--out", tmp_path / "r"])
    assert said.startswith(f"error: strategy 'noarray.py:{name}' {says}"), said
    assert not (tmp_path / "r" / "run.json").exists()


SLOPPY_SEARCH = '''
import numpy as np
from strategies import strategy

def _search(view, rng, call):
    lowest = view.mask.argmax(axis=1)
    worlds = view.redeal(2, rng)
    call(worlds, np.repeat(lowest, 2))
    return lowest

@strategy("half_worlds", "asks for 2.5 worlds")
def half_worlds(view, rng):
    view.redeal(2.5, rng)
    return view.mask.argmax(axis=1)

@strategy("text_worlds", "asks for '3' worlds")
def text_worlds(view, rng):
    view.redeal("3", rng)
    return view.mask.argmax(axis=1)

@strategy("float_choices", "plays out choices as floats")
def float_choices(view, rng):
    return _search(view, rng, lambda w, c: w.play_out(c + 0.7, "random"))

@strategy("one_of_three", "names one strategy in a list for three seats")
def one_of_three(view, rng):
    return _search(view, rng, lambda w, c: w.play_out(c, ["high"]))

@strategy("four_of_three", "names four strategies for three seats")
def four_of_three(view, rng):
    return _search(view, rng, lambda w, c: w.play_out(c, ["random", "high", "low", "high"]))

@strategy("half_row", "takes row 0.5")
def half_row(view, rng):
    return _search(view, rng, lambda w, c: w.take([0.5]))

@strategy("mask_rows", "takes rows by a mask")
def mask_rows(view, rng):
    return _search(view, rng, lambda w, c: w.take(np.ones(len(w), bool)))
'''


@pytest.mark.parametrize("name,says", [
    # before: int() took 2.5 as 2 worlds and "3" as 3
    ("half_worlds", "view.redeal: k must be a whole number of worlds, 0 or more; got 2.5"),
    ("text_worlds", "view.redeal: k must be a whole number of worlds, 0 or more; got '3'"),
    # before: 2.7 played as option 2 without a word
    ("float_choices", "play_out: the choices must be 400 legal options (integers) of the 'lead' decision in every "
                      "world; got float64 of shape (400,)"),
    # before: one strategy in a list played every seat; four for three seats dropped the last
    ("one_of_three", "play_out: give one strategy, or one per seat (3); got 1"),
    ("four_of_three", "play_out: give one strategy, or one per seat (3); got 4"),
    # before: row 0.5 was row 0, a mask of every row was rows 0 and 1
    ("half_row", "worlds.take: rows must be row numbers (integers); got float64"),
    ("mask_rows", "worlds.take: rows must be row numbers (integers); got bool"),
])
def test_a_search_giving_its_worlds_sloppy_arguments_is_stopped_in_one_line(tmp_path, capsys, name, says):
    (tmp_path / "sloppy.py").write_text(SLOPPY_SEARCH)
    said = main_error(capsys, ["run", "--n", "200", "--seed", "1", "--jobs", "1", "-q",
                               "--seat", f"0={tmp_path / 'sloppy.py'}:{name}", "--out", tmp_path / "r"])
    # before: the line was the worlds' own, the strategy and the deal unsaid
    assert said.startswith(f"error: strategy 'sloppy.py:{name}' misused its worlds: {says} (decision 'lead' of "
                           f"black-white, deal 0 of the run"), said
    assert not (tmp_path / "r" / "run.json").exists()


def test_a_tuning_of_the_largest_seed_re_measures_on_seed_0(tmp_path, capsys):
    # before: "error: bad seed 340282366920938463463374607431768211457; expected a whole number
    # 0..2**128, or None for a fresh one", after every trial was played: the re-measure's seed + 1,
    # a number nobody typed, refused where `simtool run --seed 2**128` plays
    largest = 2 ** 128
    out = tmp_path / "t"
    assert main(["tune", "-g", "kansas-city", "--vary", "pass_count", "--objective", "seat_spread:min",
                 "--trials", "2", "-n", "100", "-j", "1", "-q", "--seed", str(largest), "-o", str(out)]) == 0, \
        capsys.readouterr().err
    record = json.loads((out / "tune.json").read_text())
    assert record["seed"] == largest and {m["seed"] for m in record["confirmed"]} == {0}


TIMER_OFF = '''
import signal, time
from strategies import strategy

@strategy("ignores", "ignores SIGALRM, then thinks for 1 s")
def ignores(view, rng):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    time.sleep(1)
    return view.mask.argmax(axis=1)

@strategy("cancels", "stops the timer, then thinks for 1 s")
def cancels(view, rng):
    signal.setitimer(signal.ITIMER_REAL, 0)
    time.sleep(1)
    return view.mask.argmax(axis=1)
'''


@pytest.mark.parametrize("name", ["ignores", "cancels"])
def test_a_plugin_that_turns_the_timer_off_is_still_stopped_by_timeout(tmp_path, capsys, name):
    # before: it played on, 1 s a decision with --timeout 0.5, for as long as the run lasted (it is
    # stopped once it returns: each test waits that second, twice the timeout)
    (tmp_path / "timer.py").write_text(TIMER_OFF)
    said = main_error(capsys, ["run", "--n", "200", "--seed", "1", "--jobs", "1", "-q", "--timeout", "0.5",
                               "--seat", f"0={tmp_path / 'timer.py'}:{name}", "--out", tmp_path / "r"])
    assert said.startswith(f"error: strategy 'timer.py:{name}' did not return within --timeout 0.5 s "
                           f"(decision 'lead' of black-white, deal 0 of the run"), said
    assert not (tmp_path / "r" / "run.json").exists()


DEAF_AT_IMPORT = '''
import os, signal, time
from pathlib import Path
from strategies import strategy

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)

@strategy("waits", "its module ignores Ctrl-C and SIGTERM; it thinks for a minute")
def waits(view, rng):
    Path(os.environ["READY"]).touch()
    time.sleep(60)
    return view.mask.argmax(axis=1)
'''


def test_a_plugin_ignoring_ctrl_c_and_sigterm_as_it_is_imported_still_lets_the_run_stop(tmp_path):
    # before: neither Ctrl-C nor `kill` stopped the run (only kill -9, without a word on resuming)
    (tmp_path / "deaf.py").write_text(DEAF_AT_IMPORT)
    out, ready = tmp_path / "r", tmp_path / "ready"
    returncode, err = sigterm_once_ready(["--n", "50", "--jobs", "1", "-q", "-s", f"{tmp_path / 'deaf.py'}:waits",
                                          "--out", str(out)], ready)
    assert returncode == 130, err
    assert err.strip() == f"interrupted; finish the run with: simtool run --resume {out}"
    assert (out / "chunks" / "spec.json").is_file() and not (out / "run.json").exists()


ANSWERS_OF_OTHER_TYPES = '''
import numpy as np
from strategies import strategy

class Lowest:
    def __init__(self, view):
        self.view = view
    def __array__(self, dtype=None, copy=None):
        return self.view.mask.argmax(axis=1)

@strategy("masked", "its lowest legal options as a masked array")
def masked(view, rng):
    return np.ma.masked_array(view.mask.argmax(axis=1), mask=False)

@strategy("wrapped", "its lowest legal options in an object numpy reads as an array")
def wrapped(view, rng):
    return Lowest(view)
'''


@pytest.mark.parametrize("name", ["masked", "wrapped"])
def test_an_answer_numpy_reads_as_an_array_plays_the_same_isolated(tmp_path, name):
    # before: --isolate stopped the run ("its process sent something other than choices:
    # UnpicklingError"), where the same plugin played in the run's process
    (tmp_path / "types.py").write_text(ANSWERS_OF_OTHER_TYPES)
    tables = []
    for isolate in ([], ["--isolate"]):
        out = tmp_path / f"r{len(isolate)}"
        done = cli("run", "--n", "200", "--seed", "1", "--jobs", "1", "-q", *isolate,
                   "--seat", f"0={tmp_path / 'types.py'}:{name}", "--out", out)
        assert done.exit_code == 0, done.output
        tables.append(pl.read_parquet(out / "seats.parquet"))
    assert tables[0].equals(tables[1])


@pytest.mark.parametrize("args,says", [
    # before: "Invalid value for '--timeout': Input should be a valid number, unable to parse
    # string as a number", the valid values unsaid
    (["--timeout", "abc"], "error: bad --timeout 'abc'; expected seconds above 0 and at most 31536000 (a year), "
                           "such as 10"),
    (["--precision", "abc"], "error: bad --precision 'abc'; expected a half-width between 0 and 0.5, such as 0.005 "
                             "for ± 0.5%"),
    # before: "bad precision 0.6", the Python API's name for it
    (["--precision", "0.6"], "error: bad --precision '0.6'; expected a half-width between 0 and 0.5, such as 0.005 "
                             "for ± 0.5%"),
])
def test_a_timeout_or_precision_that_is_no_number_is_named_as_every_option_is(tmp_path, capsys, args, says):
    assert main_error(capsys, ["run", "--n", "100", "--jobs", "1", "-q", *args, "--out", tmp_path / "r"]) == says
    assert not (tmp_path / "r").exists()


def test_a_timeout_and_precision_in_any_digits_python_reads_play(tmp_path):
    done = cli("run", "--n", "100", "--jobs", "1", "-q", "--seed", "1", "--timeout", "１０", "--precision", "０.2",
               "--out", tmp_path / "r")
    assert done.exit_code == 0, done.output
    assert json.loads((tmp_path / "r" / "run.json").read_text())["precision"] == 0.2


NO_ANSWER_FUNCTIONS = '''
from strategies import strategy

async def waits(view, rng):
    return view.mask.argmax(axis=1)

def yields(view, rng):
    yield view.mask.argmax(axis=1)

@strategy("declared", "an async function declared as a strategy")
async def declared(view, rng):
    return view.mask.argmax(axis=1)
'''


@pytest.mark.parametrize("name,kind", [("waits", "an async function"), ("yields", "a generator function"),
                                       ("declared", "an async function")])
def test_an_async_or_generator_function_is_refused_as_it_is_loaded(tmp_path, capsys, name, kind):
    # before: "returned object of shape ()" at its first decision, then three lines of Python's
    # "RuntimeWarning: coroutine ... was never awaited" after the error line
    (tmp_path / "noanswer.py").write_text(NO_ANSWER_FUNCTIONS)
    said = main_error(capsys, ["run", "--n", "100", "--seed", "1", "--jobs", "1", "-q",
                               "--seat", f"0={tmp_path / 'noanswer.py'}:{name}", "--out", tmp_path / "r"])
    assert said == (f"error: strategy '{name}' in {tmp_path / 'noanswer.py'} is {kind}; expected a plain function "
                    f"choose(view, rng) that returns its choices")
    assert not (tmp_path / "r").exists()
