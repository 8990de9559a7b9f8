"""Leftovers (5a): a line-up's ``default``, messages of the Python API, a grid file's numbers, an
isolated plugin's empty error, a plan's resume advice and plugin paths holding ``@`` (each test
failed on the code before its fix)."""

from __future__ import annotations

import json

import simtool

from .test_cli import cli


def test_default_names_the_games_default_strategy_at_any_seat_from_python_and_the_command_line(tmp_path):
    # before: simtool.run(seats={0: "default"}) and `run --seat 0=default` were refused, "unknown
    # strategy 'default'", though a sweep's line-up and a play-out policy read it as the game's
    # default; after: every line-up reads it so, recorded by the strategy's own name
    named = simtool.run("black-white", n=60, players=3, seats={0: "default"}, strategy="random", seed=1)
    plain = simtool.run("black-white", n=60, players=3, seats={0: "balance"}, strategy="random", seed=1)
    assert named.spec.lineup == plain.spec.lineup == ("balance", "random", "random")
    assert named.seats.equals(plain.seats)
    out = tmp_path / "kc"
    r = cli("run", "--game", "kansas-city", "--n", "40", "--seed", "1", "--strategy", "default",
            "--seat", "0=default@under=1~no-upgrade", "--jobs", "1", "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "run.json").read_text())["lineup"] == ["target@under=1~no-upgrade"] + ["target"] * 3
    assert simtool.restrict.plan("kansas-city", n=40, seed=1, strategy="default",
                                 restrictions=["no-upgrade"])[1][0]["restrict"]["strategy"] == "target"


def test_the_python_api_of_tune_and_review_names_its_arguments_and_the_command_line_its_options(tmp_path):
    # before: tune.configure(trials=2.0) said "bad --trials 2.0" (and --objective, --vary, --rule,
    # --strong, --weak, review's --vs-rule and --baseline likewise), options a Python caller never
    # gave; after: the arguments, as simtool.run's messages name them, and the options from the CLI
    from simtool.commands import tune

    base = {"game": "kansas-city", "vary": ["pass_count"], "objective": ["skill:max"]}
    for given, message in [
        ({"trials": 2.0}, "bad trials 2.0; expected a whole number, 1 or more"),
        ({"objective": []}, "give at least one objective, such as seat_spread:min"),
        ({"objective": ["skill", "skill"]}, "an objective is given twice"),
        ({"vary": ["nope"]}, "unknown rule 'nope' to vary for kansas-city"),
        ({"vary": ["pass_count=2"]}, "bad vary pass_count=2 for kansas-city: name two values or more to vary "
                                     "(valid: 0, 1, 2, 3); fix one value with rules"),
        ({"rules": {"pass_count": 2}}, "rule pass_count is both varied and fixed with rules; give one"),
        ({"strong": "random"}, "skill compares two strategies; strong and weak are both random"),
    ]:
        try:
            tune.configure(**base | given)
        except simtool.SimtoolError as exc:
            assert message in str(exc) and "--" not in str(exc), (given, str(exc))
        else:
            raise AssertionError(f"{given} was taken")
    for given, message in [
        ({"vs_rules": {"pass_count": 3}}, "vs_rules pass_count=3 gives the rules under review"),
        ({"vs_rules": {"pass_count": 2}, "baseline": tmp_path}, "give vs_rules or baseline, not both"),
        ({"baseline": tmp_path}, f"baseline {tmp_path} holds no review.json; give the out folder"),
    ]:
        try:
            simtool.review.review("kansas-city", tmp_path / "r", **given)
        except simtool.SimtoolError as exc:
            assert message in str(exc) and "--" not in str(exc), (given, str(exc))
        else:
            raise AssertionError(f"{given} was taken")
    r = cli("tune", "--game", "kansas-city", "--vary", "pass_count=2", "--objective", "skill", "--out", tmp_path / "t")
    assert r.exit_code == 2 and "bad --vary pass_count=2" in r.output and "with --rule" in r.output, r.output
    r = cli("review", "--game", "kansas-city", "--vs-rule", "pass_count=3", "--out", tmp_path / "r")
    assert r.exit_code == 2 and "--vs-rule pass_count=3 gives the rules under review" in r.output, r.output
