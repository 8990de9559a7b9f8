"""Review of hardening round 13: a plugin's KeyboardInterrupt at import, Ctrl-C while a plugin
is imported, and what docs/trust.md says of them. Each test failed on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from simtool.cli import main

from .test_cli import cli
from .test_hardening_cli import main_error

RAISES_AT_IMPORT = '''
from strategies import strategy

raise KeyboardInterrupt

@strategy("never", "its module raises KeyboardInterrupt as it is imported")
def never(view, rng):
    return view.mask.argmax(axis=1)
'''

PRESSED_AT_IMPORT = '''
import os, signal, time
from strategies import strategy

os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C while the module is imported
time.sleep(5)

@strategy("never", "the user presses Ctrl-C while its module is imported")
def never(view, rng):
    return view.mask.argmax(axis=1)
'''


def test_a_plugin_raising_keyboard_interrupt_as_it_is_imported_is_its_error(tmp_path, capsys):
    # before: a traceback ending in "UnboundLocalError: cannot access local variable 'folder'",
    # exit status 1
    (tmp_path / "ki.py").write_text(RAISES_AT_IMPORT)
    said = main_error(capsys, ["run", "--n", "100", "--seed", "1", "--jobs", "1", "-q",
                               "--seat", f"0={tmp_path / 'ki.py'}:never", "--out", tmp_path / "r"])
    assert said == f"error: strategy plugin {tmp_path / 'ki.py'} failed to load: KeyboardInterrupt"
    assert not (tmp_path / "r").exists()


def test_ctrl_c_while_a_plugin_is_imported_stops_in_one_line(tmp_path, capsys):
    # before: the same traceback, exit status 1: the run's folder was not yet named
    (tmp_path / "pressed.py").write_text(PRESSED_AT_IMPORT)
    code = main(["run", "--n", "100", "--seed", "1", "--jobs", "1", "-q",
                 "--seat", f"0={tmp_path / 'pressed.py'}:never", "--out", str(tmp_path / "r")])
    assert code == 130
    assert capsys.readouterr().err.strip() == "interrupted; no result was written"
    assert not (tmp_path / "r").exists()


def test_the_trust_page_says_a_plugins_own_keyboard_interrupt_is_its_error():
    # before: "a plugin that raises KeyboardInterrupt there stops the run as Ctrl-C does (exit
    # status 130 ...)", what round 13 changed (tests/test_hardening_round13.py and above)
    page = (Path(__file__).resolve().parents[1] / "docs/trust.md").read_text()
    said = next(part for part in page.split("\n\n") if "raises `KeyboardInterrupt`" in part)
    assert "exit status 2" in said and "130" not in said, said


PLAYS_OUT_AN_ILLEGAL_OPTION = '''
import numpy as np
from strategies import strategy

@strategy("illegal_play_out", "plays out, in every world, an option its seat does not hold")
def illegal_play_out(view, rng):
    worlds = view.redeal(2, rng)
    worlds.play_out(np.repeat((~view.mask).argmax(axis=1), 2), "random")
    return view.mask.argmax(axis=1)
'''


def test_a_search_playing_out_an_illegal_option_is_told_which(tmp_path, capsys):
    # before: "... legal options (integers) ...; got int64 of shape (200,)", what it had to be
    (tmp_path / "po.py").write_text(PLAYS_OUT_AN_ILLEGAL_OPTION)
    said = main_error(capsys, ["run", "--n", "100", "--seed", "1", "--jobs", "1", "-q",
                               "--seat", f"0={tmp_path / 'po.py'}:illegal_play_out", "--out", tmp_path / "r"])
    assert said.startswith("error: strategy 'po.py:illegal_play_out' misused its worlds: play_out: the choices "
                           "must be 200 legal options (integers) of the 'lead' decision in every world; got "
                           "option 0 in world 0 (decision 'lead'"), said


@pytest.mark.parametrize("text", [" ", "1 0", "10s "])
def test_a_timeout_that_is_no_number_is_quoted_as_given(capsys, text):
    # before: "bad --timeout ''" for a space, its text stripped where every other option's is
    # quoted as given (errors.shown)
    said = main_error(capsys, ["run", "--n", "10", "-q", "--timeout", text])
    assert said == f"error: bad --timeout {text!r}; expected seconds above 0 and at most 31536000 (a year), such as 10"


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


@pytest.mark.parametrize("isolate", [False, True])
def test_a_plugin_file_whose_name_holds_at_and_a_parameters_shape_plays(tmp_path, isolate):
    # before: "strategy 'a' takes no parameters (given k)": its label a@k=v.py:low was read
    # back as strategy 'a' with k='v.py:low', and the entry written a@k=v.py:low@k=v.py:low
    plugin = tmp_path / "a@k=v.py"
    plugin.write_text(LOWEST_OR_HIGHEST)
    for entry, label in [(f"{plugin}:low", "a@k=v.py:low"), (f"{plugin}:low@share=0.5", "a@k=v.py:low@share=0.5")]:
        out = tmp_path / f"r{len(label)}"
        done = cli("run", "--n", "200", "--seed", "1", "--jobs", "1", "-q", "--seat", f"0={entry}", "--out", out,
                   *(["--isolate"] if isolate else []))
        assert done.exit_code == 0, done.output
        assert json.loads((out / "run.json").read_text())["lineup"] == [entry, "balance", "balance"]
        assert pl.read_parquet(out / "seats.parquet").filter(pl.col("seat") == 0)["strategy"].unique().to_list() \
            == [label]
