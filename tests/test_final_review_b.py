"""Final hostile review (b) of the session's CLI, pipeline and engine changes: each test a defect
found, on a case whose answer is known."""

from __future__ import annotations

import pytest

from simtool.cli import main


@pytest.mark.parametrize("command", ["run", "sweep", "tune"])
@pytest.mark.parametrize("blank", ["", " "])
def test_a_blank_resume_folder_is_refused_by_its_own_name(capsys, tmp_path, monkeypatch, command, blank):
    """``--resume " "`` was refused as "bad --out ' '" (run), or looked for a run in a folder
    named " " or in the working folder (``--resume ""``)."""
    monkeypatch.chdir(tmp_path)
    assert main([command, "--resume", blank]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: bad --resume '{blank}'; expected a folder path, such as runs/first"


def test_an_installed_game_printing_at_import_leaves_a_quiet_runs_output_alone(capsys, tmp_path, monkeypatch):
    """A game package's top-level ``print`` (a debugging line left in) came out on standard
    output before what ``simtool run -q`` prints for scripts, the run's folder: a strategy
    plugin's print goes to standard error (engine.printing_aside), a game's did not."""
    from importlib.metadata import EntryPoint

    from simtool import games

    (tmp_path / "loud_game_frb.py").write_text(
        "import copy\nfrom simtool.games.black_white import GAME as BW\nprint('forged line')\n"
        "GAME = copy.copy(BW)\nGAME.id = 'loud'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = EntryPoint("loud", "loud_game_frb:GAME", "simtool.games")
    monkeypatch.setattr(games, "entry_points", lambda group: [ep] if group == "simtool.games" else [])
    out = tmp_path / "run"
    argv = ["run", "-g", "loud", "-s", "random", "-n", "40", "--jobs", "1", "-q", "--seed", "1", "-o", str(out)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out == f"{out}\n"
    assert "forged line" in captured.err


@pytest.mark.parametrize("command", [["tune", "--vary", "pass_count", "--objective", "seat_spread:min"],
                                     ["restrict"]])
def test_a_report_path_with_a_line_break_is_refused_before_anything_is_played(capsys, tmp_path, command):
    """``tune --report`` and ``restrict --report`` took a name with a line break (the other path
    options refuse one): the command played, wrote ``a<newline>b.html`` and printed its path as
    two lines, where scripts read one."""
    report = str(tmp_path / "a\nb.html")
    argv = [*command, "-g", "kansas-city", "-n", "50", "--jobs", "1", "-o", str(tmp_path / "out"), "--report", report]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()  # the path quoted as given, cut at 60 characters
    assert err.startswith("error: bad --report '") and "\n" not in err
    assert err.endswith("; expected a path without a line break (simtool prints it as one line, for scripts to read)")
    assert list(tmp_path.iterdir()) == []


def test_sigterm_while_a_strategy_chooses_stops_a_run_whose_ctrl_c_is_ignored(capsys, tmp_path):
    """A run started where Ctrl-C is ignored (a script's background job, nohup) and played in
    this process (``--jobs 1``), stopped by SIGTERM as a strategy chose: the engine took the
    KeyboardInterrupt for the strategy's own (as in a worker, which ignores Ctrl-C), blamed it
    ("strategy 'balance' raised KeyboardInterrupt"), exit status 2, and the run's folder, its
    finished chunks with it, was removed."""
    import signal

    plugin = tmp_path / "stops.py"
    plugin.write_text("import os, signal\nfrom simtool import bits\nsent = []\n\n\n"
                      "def stops(view, rng):\n"
                      "    if not sent:\n"
                      "        sent.append(1)\n"
                      "        os.kill(os.getpid(), signal.SIGTERM)\n"
                      "    return bits.lowest(view.legal)\n")
    out = tmp_path / "run"
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code = main(["run", "-n", "50", "--jobs", "1", "-q", "--seed", "1", "-s", f"{plugin}:stops", "-o", str(out)])
    finally:
        signal.signal(signal.SIGINT, before)
    assert (code, capsys.readouterr().err.strip()) == (
        130, f"interrupted; finish the run with: simtool run --resume {out}")
    assert (out / "chunks" / "spec.json").is_file()
