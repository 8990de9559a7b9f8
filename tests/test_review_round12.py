"""Hostile review, round 12, of the merges of flaky (signals) and left2 (queen verdict, integer
options). Each test failed on the code before its fix."""

from __future__ import annotations

import pytest

from simtool.analysis import verdicts
from simtool.cli import main

from .test_hardening_cli import main_error

BW = ["--game", "black-white", "--strategy", "random", "--jobs", "1", "-q", "--n", "10", "--seed", "1"]


def test_lead_history_below_zero_is_named_as_the_command_line_option(capsys, tmp_path):
    # before: 'bad lead_history -1; expected ... or 0 or None for none': the Python API's
    # argument and Python's None, in an error of the command line
    text = main_error(capsys, ["run", *BW, "--out", tmp_path / "r", "--lead-history", "-1"],
                      "--lead-history", "-1", "0..9223372036854775807")
    assert "None" not in text and "lead_history" not in text
    assert not (tmp_path / "r").exists()


def test_fair_queen_verdict_claims_no_more_than_its_intervals_show():
    # before: 'Every seat takes the queen of spades within 1 point of its fair share, ...: no seat
    # takes the queen of spades more than its fair share. The largest gap is seat 0's, +0.2
    # points': a seat above its fair share, said in the sentence that denied it
    even = [(s, 0.25 + d, 0.25 + d - 0.004, 0.25 + d + 0.004) for s, d in enumerate((0.002, -0.001, 0.0, -0.001))]
    v = verdicts.shared_verdict("queen", "takes the queen of spades", even, 4, 100_000)
    assert v.word == "fair" and v.figures["edge_pts"] > 0
    assert "no seat takes the queen of spades more than its fair share" not in v.sentence
    assert v.sentence.startswith("Every seat takes the queen of spades within 1 point of its fair share, "
                                 "25.0% of deals: fair. The largest gap is seat 0's, +0.2 points")


def test_a_ctrl_c_as_the_command_ends_leaves_no_handler_nor_interrupt_behind(monkeypatch, tmp_path):
    # before: a second Ctrl-C as _main's finally began (before SIGTERM's handler was put back)
    # left errors.interrupt as both handlers and the interrupt remembered: in a process that goes
    # on (a test, a notebook calling main), the next Python API run stopped after its first chunk
    import signal

    from simtool import errors

    real, term, ctrl_c = signal.signal, signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    hit = []

    def restoring(signum, handler):
        if signum == signal.SIGTERM and handler is not errors.interrupt and not hit:
            hit.append(True)
            errors.interrupt()  # the Ctrl-C, taken by the command's handler still in place
        return real(signum, handler)

    monkeypatch.setattr(signal, "signal", restoring)
    try:
        try:
            code = main(["run", *BW, "--out", str(tmp_path / "r")])
        except KeyboardInterrupt:
            code = 130
        assert hit and code == 130
        assert signal.getsignal(signal.SIGTERM) == term and signal.getsignal(signal.SIGINT) == ctrl_c
        errors.raise_if_interrupted()  # nothing remembered: the next API run goes on
    finally:
        real(signal.SIGTERM, term)
        real(signal.SIGINT, ctrl_c)
        errors.forget_interrupt()


@pytest.mark.parametrize("command, flag", [
    (["run", *BW, "--resume"], "--resume"),  # before: 'bad out ...', an option not given
    (["run", *BW, "--out"], "--out"),  # before: 'bad out ...', the API's argument
    (["review", "--game", "black-white", "--jobs", "1", "-q", "--seed", "1", "--out"], "--out"),
    (["sweep", "--game", "black-white", "--jobs", "1", "-q", "--n", "10", "--seed", "1", "--rule",
      "hand_size=5,6", "--out"], "--out"),  # before: the report written, its path printed as two lines
    (["tune", "--resume"], "--resume"),
])
def test_a_path_with_a_line_break_is_refused_naming_the_option_given(capsys, tmp_path, monkeypatch, command, flag):
    monkeypatch.chdir(tmp_path)
    bent = str(tmp_path / "a\nb")
    text = main_error(capsys, [*command, bent], f"bad {flag} ", "without a line break")
    assert "bad out " not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_report_with_a_line_break_is_refused(capsys, tmp_path):
    run = tmp_path / "run"
    assert main(["run", *BW, "--out", str(run)]) == 0
    capsys.readouterr()
    main_error(capsys, ["report", run, "-o", tmp_path / "a\nb.html"], "bad --out ", "without a line break")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_lead_history_larger_than_a_chunk_is_recorded_as_every_deal_of_each_chunk(tmp_path):
    # before: run.json said "the first 1000000 deals of each chunk of 32768", more than a chunk
    # holds, beside "sampled": 10 (every deal)
    import json

    run = tmp_path / "r"
    assert main(["run", *BW, "--out", str(run), "--lead-history", "1e6"]) == 0
    record = json.loads((run / "run.json").read_text())["lead_history"]
    assert record["sampled"] == 10 and record["sample"] == "every one of the deals of each chunk"
    from simtool.pipeline.executor import sample_text

    assert sample_text(2, 3, "matches") == "the first 2 matches of each chunk of 3"
