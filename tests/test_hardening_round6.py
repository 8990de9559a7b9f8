"""Hostile round 6: a tuning gone on under another version, report claims checked against the
runs they pair, a terminal locale that cannot encode a path, and careless or malicious input to
every command. Each test failed on the code before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import optuna
import pytest

from simtool.analysis import review
from simtool.cli import main
from simtool.commands import tune
from simtool.pipeline import folders

from .conftest import smaller_chunks
from .test_cli import cli, one_line_error
from .test_hardening_cli import main_error
from .test_hardening_tune_sweep import fake_measure

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ROOT = Path(__file__).resolve().parents[1]


def study_trials(out: Path) -> list[tuple]:
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    return [(t.number, t.state.name, t.params, t.values) for t in study.trials]


# ---- a tuning gone on under another version ----------------------------------------------------

TUNE = ["tune", "--game", "kansas-city", "--vary", "pass_count", "--vary", "limit=1..3",
        "--objective", "seat_spread", "--n", "100", "--seed", "5", "--jobs", "1", "-q"]


def test_a_tuning_gone_on_under_another_version_is_refused_and_its_study_kept(tmp_path, monkeypatch, capsys):
    # before: the trials made by one simtool (or numpy) and those of the next were set in one
    # study, and its best chosen among them, as if one version had measured them all
    monkeypatch.setattr(tune, "measure", fake_measure)
    out = tmp_path / "t"
    assert main([*TUNE, "--trials", "3", "--out", str(out)]) == 0
    made, config = study_trials(out), (out / "tune.json").read_bytes()
    real = folders.played_by()
    monkeypatch.setattr(folders, "played_by", lambda: {"simtool": "9.9.9", "numpy": np.__version__})
    for again in ([*TUNE, "--trials", "5", "--out", str(out)], ["tune", "--resume", str(out), "-q"]):
        error = main_error(capsys, again, f"cannot go on with the tuning in {out}: its trials were measured by "
                                          f"simtool {real['simtool']} with numpy",
                           "this is simtool 9.9.9", "choose another --out")
        assert "Traceback" not in error
        assert study_trials(out) == made and (out / "tune.json").read_bytes() == config
    monkeypatch.undo()
    monkeypatch.setattr(tune, "measure", fake_measure)
    assert main([*TUNE, "--trials", "5", "--out", str(out)]) == 0  # the same version goes on
    assert len(study_trials(out)) == 5


def test_a_tuning_recorded_before_versions_were_is_checked_against_its_runs(tmp_path, monkeypatch, capsys):
    # a tune.json written before it named its versions: the trials' run.json files say which played
    monkeypatch.setattr(tune, "measure", fake_measure)
    out = tmp_path / "t"
    assert main([*TUNE, "--trials", "3", "--out", str(out)]) == 0
    record = json.loads((out / "tune.json").read_text())
    del record[folders.PLAYED_BY]
    (out / "tune.json").write_text(json.dumps(record))
    played = out / "runs" / "pass_count-2_limit-1_n100_s5" / "main"
    played.mkdir(parents=True)
    (played / "run.json").write_text(json.dumps({"versions": {"simtool": "0.0.1", "numpy": "1.0"}}))
    main_error(capsys, ["tune", "--resume", str(out), "--trials", "4", "-q"],
               "measured by simtool 0.0.1 with numpy 1.0")
    (played / "run.json").write_text(json.dumps({"versions": folders.played_by()}))
    assert main(["tune", "--resume", str(out), "--trials", "4", "-q"]) == 0


# ---- a report's claim that two runs share their deals ---------------------------------------

def plain_run(out: Path, *args) -> Path:
    seed = () if "--seed" in args else ("--seed", "3")
    assert cli("run", "-g", "black-white", "-n", "300", *seed, "-j", "1", "-q", "-s", "random",
               "--out", out, *args).exit_code == 0
    return out


def test_runs_of_other_chunks_are_not_said_to_share_their_deals(tmp_path):
    # before: one seed, n and player count were taken for the same deals, and the report said
    # "shares its deals with run 1 ... paired deal by deal" of runs whose chunks (a simtool
    # default that has changed before) drew other deals
    first = plain_run(tmp_path / "a")
    with smaller_chunks():
        other = plain_run(tmp_path / "b", "--rule", "deck=34")
    assert cli("report", first, other, "-o", tmp_path / "r.html").exit_code == 0
    page = (tmp_path / "r.html").read_text()
    assert "shares its deals" not in page
    assert "Run 2 does not share its deals with run 1 (chunks of 2,048 deals against 32,768)" in page
    again = plain_run(tmp_path / "c", "--rule", "deck=34")  # the same chunks: paired as before
    assert cli("report", first, again, "-o", tmp_path / "s.html").exit_code == 0
    # paired, though a deck of 34 cards deals other hands than one of 36 (tests/test_hardening_round18.py)
    assert ("Run 2 has the seed, n, players, chunks and versions of run 1, but its rules deal other cards "
            "(deck=34 against 36)") in (tmp_path / "s.html").read_text()


def test_runs_of_another_numpy_are_not_said_to_share_their_deals(tmp_path):
    first, other = plain_run(tmp_path / "a"), plain_run(tmp_path / "b", "--rule", "deck=34")
    meta = json.loads((other / "run.json").read_text())
    meta["versions"]["numpy"] = "1.26.4"  # another numpy's generators draw other deals
    (other / "run.json").write_text(json.dumps(meta))
    assert cli("report", first, other, "-o", tmp_path / "r.html").exit_code == 0
    page = (tmp_path / "r.html").read_text()
    assert "shares its deals" not in page and "played by numpy 1.26.4 against" in page


def test_restricted_play_of_other_deals_than_its_baseline_is_refused(tmp_path):
    # before: a restriction's cost was a "paired" difference against a baseline that played other
    # deals (another chunk size), and a restriction that never binds did not cost exactly 0
    args = ("restrict", "-g", "black-white", "-n", "300", "--seed", "2", "-j", "1", "-q",
            "--restrictions", "higher-colour")
    with smaller_chunks():
        assert cli(*args, "--out", tmp_path / "small", "--report", tmp_path / "small.html").exit_code == 0
    assert cli(*args, "--out", tmp_path / "whole", "--report", tmp_path / "whole.html").exit_code == 0
    baseline = tmp_path / "small" / "black-white_3p_balance"
    restricted = tmp_path / "whole" / "black-white_3p_balance~higher-colour+balance"
    one_line_error(cli("report", baseline, restricted, "-o", tmp_path / "r.html"),
                   f"{restricted} and its baseline {baseline} hold different deals (chunks of 32,768 deals "
                   f"against 2,048)")
    assert not (tmp_path / "r.html").exists()


def test_a_ladder_whose_rungs_drew_other_deals_is_not_said_to_play_the_same_deals(tmp_path):
    # before: "The rungs play the same deals (one seed)" under every ladder, though a search
    # rung's smaller chunks draw other deals than the heuristic rungs'
    args = ("ladder", "-g", "black-white", "-n", "60", "--seed", "1", "-j", "1", "-q")
    assert cli(*args, "--rungs", "random,balance,pimc@samples=2", "--runs", tmp_path / "mixed",
               "--out", tmp_path / "mixed.html").exit_code == 0
    page = (tmp_path / "mixed.html").read_text()
    # 60 deals, chunk 0 of every rung: one stream whatever the chunks' length (tests/test_readthru.py);
    # chunks that cut the deals otherwise are "not the same deals" (test_readthru's same_cuts_deals)
    assert "The rungs play the same deals (one seed)" in page
    # the reference rung's own run: its clairvoyant is named as no fair player, and no heuristic
    assert "best heuristic" not in page
    assert ("Skill versus luck: the strongest strategy here, clairvoyant (sees every card: not a fair "
            "player), wins") in page
    # the review's hidden-information question reads the same two runs: 60 deals, chunk 0 of
    # each, drawn from the one stream whatever the chunks' length (tests/test_readthru.py)
    mixed = tmp_path / "mixed"
    hidden = review.hidden_question({"over heuristic": mixed / "black-white_3p_pimc@samples=2+balance",
                                     "clairvoyant": [mixed / "black-white_3p_clairvoyant+balance"]}, "pimc")
    assert hidden["play"].endswith("seats rotated, the same deals"), hidden["play"]
    assert cli(*args, "--rungs", "random,low", "--runs", tmp_path / "plain",
               "--out", tmp_path / "plain.html").exit_code == 0
    assert "The rungs play the same deals (one seed); each is a run" in (tmp_path / "plain.html").read_text()


# ---- a locale that is not UTF-8 -----------------------------------------------------------------

C_LOCALE = {**{k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8")},
            "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "PYTHONPATH": str(ROOT)}
"""A POSIX locale as a bare container or cron has it: Python decodes names as ASCII, a byte above
127 as an escaped surrogate; polars (Rust) takes only UTF-8 text."""


def c_locale(*args, cwd):
    return subprocess.run([sys.executable, "-m", "simtool.cli", *map(os.fsencode, args)], capture_output=True,
                          env=C_LOCALE, cwd=cwd, timeout=120)


def test_a_non_ascii_folder_under_the_c_locale_is_written_and_read(tmp_path):
    # before: the run was written, then reading it back for the summary raised polars'
    # "Object does not have a .read() method" (a traceback, exit 1); the summary's ± then broke
    # the terminal; the report could not write a page naming the folder; tune failed at its study
    out = tmp_path / "dé"
    done = c_locale("run", "-g", "black-white", "-n", "300", "-j", "1", "-s", "random", "--seed", "1",
                    "--out", out, cwd=tmp_path)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert b"Seat verdict" in done.stdout and (out / "run.json").is_file()
    page = tmp_path / "ré.html"
    done = c_locale("report", out, "-o", page, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert "dé" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [
    ["run", "-g", "black-white", "-n", "300", "-j", "1", "-q", "-s", "random", "--out"],
    ["tune", "-g", "kansas-city", "--vary", "pass_count=3,2", "--objective", "seat_spread", "-n", "200",
     "--trials", "2", "-j", "1", "-q", "--out"],
])
def test_a_folder_name_that_is_not_utf8_is_one_line_before_anything_is_written(tmp_path, command):
    # a name of Latin-1 bytes: polars cannot open it; before, the run was written whole and then
    # could not be read (a traceback), and the tuning wrote its tune.json first
    out = os.fsencode(tmp_path) + b"/b\xe9"
    done = c_locale(*command, out, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr.decode(errors="replace")
    assert b"its name is not UTF-8 text" in done.stderr and b"b\\udce9" in done.stderr
    assert not os.path.exists(out)


# ---- plugins that misbehave ---------------------------------------------------------------------

MISCHIEF = '''
import sys
import numpy as np
from simtool import bits

def prints(view, rng):
    print("chatter from the plugin")
    return bits.lowest(view.legal)

def closes_stdout(view, rng):
    sys.stdout.close()
    return bits.lowest(view.legal)

def huge(view, rng):
    return np.full(len(view), 2**64 - 1, np.uint64)

def interrupts(view, rng):
    raise KeyboardInterrupt
'''


@pytest.fixture
def mischief(tmp_path) -> Path:
    path = tmp_path / "mischief.py"
    path.write_text(MISCHIEF)
    return path


@pytest.mark.parametrize("name", ["prints", "closes_stdout"])
def test_a_plugin_printing_or_closing_standard_output_leaves_the_results_line_alone(tmp_path, mischief, name):
    # before: a plugin's prints came out among what the command printed, so `run -q`'s one line
    # (the folder, for a script to read) was lost among them; a plugin closing sys.stdout
    # ended a finished run in a traceback (exit 1) where it printed the folder
    out = tmp_path / "r"
    done = cli("run", "-g", "black-white", "-n", "200", "-j", "1", "-q", "-s", "random",
               "--seat", f"0={mischief}:{name}", "--out", out)
    assert done.exit_code == 0, done.output
    assert done.stdout == f"{out}\n" and (out / "run.json").is_file()
    if name == "prints":
        assert "chatter from the plugin" in done.stderr


def test_an_option_beyond_int64_is_named_as_returned(tmp_path, mischief):
    # before: 2**64 - 1 was named "option -1", the value it wraps to, not the one the plugin returned
    one_line_error(cli("run", "-g", "black-white", "-n", "200", "-j", "1", "-s", "random",
                       "--seat", f"0={mischief}:huge", "--out", tmp_path / "r"),
                   "strategy 'mischief.py:huge' chose option 18446744073709551615, outside 0..63")


def test_a_plugin_file_python_cannot_import_is_one_line(tmp_path):
    # before: /etc/passwd:x (any name not ending in .py) was an AttributeError traceback
    notes = tmp_path / "notes.txt"
    notes.write_text("def x(view, rng):\n    return 0\n")
    one_line_error(cli("run", "-g", "black-white", "-n", "200", "-j", "1", "-s", f"{notes}:x",
                       "--out", tmp_path / "r"), f"strategy plugin {notes} is not a Python file; expected FILE.py:NAME")
    assert not (tmp_path / "r").exists()


# ---- paths ------------------------------------------------------------------------------------------

def test_symbolic_links_in_a_circle_are_one_line(tmp_path, capsys):
    # before: pathlib's RuntimeError "Symlink loop from ..." was a traceback (report, run, sweep, tune)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    run = plain_run(tmp_path / "run")
    for argv in (["report", tmp_path / "a", "-o", tmp_path / "r.html"],
                 ["sweep", "-g", "black-white", "--lineup", "random", "-n", "100", "-j", "1", "-q", "--runs",
                  tmp_path / "a", "--out", tmp_path / "s.html"]):
        main_error(capsys, argv, f"symbolic links loop from '{tmp_path / 'a'}", "a path must lead to a file or folder")
    # a loop above the report, or the report itself, is named by the report's own check (review
    # round 11), link by link
    for report in (tmp_path / "a" / "r.html", tmp_path / "a"):
        main_error(capsys, ["report", run, "-o", report],
                   f"{tmp_path / 'a'} is a link to {tmp_path / 'b'}, a link to {tmp_path / 'a'}: a loop of links")
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "s.html").exists()


def test_a_run_starting_in_a_folder_is_named_as_one_not_as_a_strangers_files(tmp_path):
    # before: between a run's lock and its spec.json (chunks/writer.json alone), a second run
    # there was told the folder held someone else's files (a flaky failure of test_data_safety)
    out = tmp_path / "r"
    (out / "chunks").mkdir(parents=True)
    (out / "chunks" / "writer.json").write_text(json.dumps({"pid": 4242, "started": "now", "command": "run"}))
    held = folders.FolderLock(out)
    try:
        one_line_error(cli("run", "-g", "black-white", "-n", "100", "-j", "1", "--out", out, "--force"),
                       f"output folder {out} is being written by another simtool run (pid 4242")
    finally:
        held.release()
    # once its lock is gone (the run killed before its spec.json), the next run takes the folder
    # (round 7: it was refused for good as a stranger's files)
    assert cli("run", "-g", "black-white", "-n", "100", "-j", "1", "--out", out, "--force").exit_code == 0
    assert (out / "run.json").is_file()


def test_a_report_of_a_run_whose_table_was_swapped_for_another_runs_is_refused(tmp_path):
    # before: another run's seats.parquet of the same shape (another seed) copied into a run
    # folder was reported as that run's, its seed and set-up printed above the other's deals
    mine, theirs = plain_run(tmp_path / "a"), plain_run(tmp_path / "b", "--seed", "4")
    (mine / "seats.parquet").write_bytes((theirs / "seats.parquet").read_bytes())
    one_line_error(cli("report", mine, "-o", tmp_path / "r.html"),
                   f"{mine}: seats.parquet is not what its run.json records (the SHA-256 differs)")
    assert not (tmp_path / "r.html").exists()
    assert cli("report", theirs, "-o", tmp_path / "r.html").exit_code == 0


def test_a_run_json_with_a_chunk_simtool_never_writes_is_one_line(tmp_path):
    # before: a 'chunk' of "big" (or 0) in run.json was read as it stood, and the report pairing
    # runs by it broke on formatting it (a traceback)
    first, other = plain_run(tmp_path / "a"), plain_run(tmp_path / "b", "--rule", "deck=34")
    meta = json.loads((other / "run.json").read_text())
    for chunk in ("big", 0, True):
        (other / "run.json").write_text(json.dumps(meta | {"chunk": chunk}))
        one_line_error(cli("report", first, other, "-o", tmp_path / "r.html"),
                       f"{other / 'run.json'}: 'chunk' is {chunk!r}, not a whole number of deals")


@pytest.mark.parametrize("key, value", [("n", "200"), ("trials", "5"), ("seed", 1.5), ("vary", ["pass_count"]),
                                        ("unit", "round"), ("n", True)])
def test_a_tune_json_holding_what_no_tuning_writes_is_one_line(tmp_path, monkeypatch, capsys, key, value):
    # before: "n": "200" went on as n * 4 = "200200200200" deals for the re-measures (a run of
    # 2e11 deals), "trials": "5" was a TypeError traceback
    monkeypatch.setattr(tune, "measure", fake_measure)
    out = tmp_path / "t"
    assert main([*TUNE, "--trials", "2", "--out", str(out)]) == 0
    record = json.loads((out / "tune.json").read_text())
    (out / "tune.json").write_text(json.dumps(record | {key: value}))
    made = study_trials(out)
    main_error(capsys, ["tune", "--resume", out, "-q"], f"cannot resume {out}: tune.json is damaged ('{key}' is "
                                                           f"{value!r}, which no tuning writes)")
    assert study_trials(out) == made


@pytest.mark.parametrize("change, says", [
    ({"not_fair": 5}, "'not_fair' is 5, which no simtool run writes"),
    ({"ladder": "x"}, "'ladder' is 'x', which no simtool run writes"),
    ({"ladder": {"rung": 1}}, "'ladder' is {'rung': 1}, which no simtool run writes"),
    ({"duplicate": "yes"}, "'duplicate' is 'yes', which no simtool run writes"),
    ({"rules": {"deck": "x"}}, "bad rule deck 'x' for black-white"),
    ({"rules": {"deck": 36, "nope": 1}}, "unknown rule 'nope' for black-white"),
])
def test_a_run_json_changed_by_hand_in_what_a_report_reads_is_one_line(tmp_path, change, says):
    # before: TypeError and KeyError tracebacks (not_fair, ladder), or a report printing rules
    # the game does not have ("nope = 1") as the run's
    run = plain_run(tmp_path / "a")
    meta = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps(meta | change))
    one_line_error(cli("report", run, "-o", tmp_path / "r.html"), f"{run / 'run.json'}: ", says)
    assert not (tmp_path / "r.html").exists()


def test_a_sweep_value_given_as_the_sheet_and_as_its_number_is_one_cell(tmp_path):
    # before: hand_size = ["sheet", 12] at 3 players (the sheet's hand is 12) played the same
    # game twice, set side by side in the report and counted twice in its ratings
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["black-white"]\nplayers = [2, 3]\nn = 200\nseed = 1\nlineups = ["random"]\n'
                    '[rules]\nhand_size = ["sheet", 12, 11]\n')
    assert cli("sweep", grid, "-j", "1", "-q", "--runs", tmp_path / "runs", "--out", tmp_path / "s.html").exit_code == 0
    cells = sorted(p.name for p in (tmp_path / "runs").iterdir() if p.is_dir())
    # 2p: the sheet's 11, and 12; 3p: the sheet's 12, and 11
    assert cells == ["black-white_2p_hand_size-12_random", "black-white_2p_random",
                     "black-white_3p_hand_size-11_random", "black-white_3p_random"], cells


@pytest.mark.parametrize("sources, says", [(5, "bad sources 5"), (None, "bad sources None"),
                                           (b"runs/a", "bad sources b'runs/a'"), ([5], "bad source 5")])
def test_metrics_of_what_is_no_run_names_the_argument(sources, says):
    # before: TypeError / AttributeError out of simtool.metrics, where every other API call
    # names an argument of the wrong type in a SimtoolError
    import simtool
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match="expected a finished run folder") as found:
        simtool.metrics(sources)
    assert str(found.value).startswith(says)


def test_a_plugin_raising_keyboard_interrupt_in_a_worker_is_its_error(tmp_path, mischief):
    # before: taken for the user's Ctrl-C (exit 130, "finish the run with --resume", where it
    # stopped again); a worker ignores Ctrl-C, so one raised there is the plugin's
    out = tmp_path / "r"
    one_line_error(cli("run", "-g", "black-white", "-n", "40000", "-j", "2", "--seed", "2", "-s", "random",
                       "--seat", f"0={mischief}:interrupts", "--out", out),
                   "strategy 'mischief.py:interrupts' raised KeyboardInterrupt", "seed 2")
    assert not (out / "run.json").exists() and not (out / "seats.parquet").exists()


def test_a_bad_match_length_target_suggests_one_a_match_can_have(capsys):
    # before: "expected match_rounds=NUMBER, such as match_rounds=0.5", a target refused itself
    main_error(capsys, ["tune", "-g", "kansas-city", "--vary", "pass_count", "--objective", "match_rounds=1e400"],
               "such as match_rounds=10")
    main_error(capsys, ["tune", "-g", "kansas-city", "--vary", "pass_count", "--objective", "overshoot=nan"],
               "such as overshoot=0.5")


def test_a_grid_file_without_end_is_one_line_and_a_pipe_still_reads(tmp_path, capsys):
    # before: `simtool sweep /dev/zero` read for ever (and a grid's pipe, `<(...)`, must still work)
    main_error(capsys, ["sweep", "/dev/zero"], "grid file /dev/zero holds more than 1,024 kB, which no grid needs")
    read, write = os.pipe()
    os.write(write, b'games = ["black-white"]\nn = 200\nseed = 1\nlineups = ["random"]\n')
    os.close(write)
    try:
        assert main(["sweep", f"/dev/fd/{read}", "-j", "1", "-q", "--runs", str(tmp_path / "runs"),
                     "--out", str(tmp_path / "s.html")]) == 0
    finally:
        os.close(read)
    assert (tmp_path / "runs" / "black-white_3p_random" / "run.json").is_file()
