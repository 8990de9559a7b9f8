"""One value model (simtool.options.Value) for rule options, strategy parameters and the command
line's checked options: one check, one error style, each shared option declared once."""

from __future__ import annotations

import pytest

from simtool import options
from simtool.errors import SimtoolError
from simtool.options import CHOICE, NUMBER, NUMBERS, TEXT, WHOLE, Value
from strategies.base import Param

from .test_cli import cli, one_line_error


@pytest.mark.parametrize("value,given,expected", [
    (Value(WHOLE, 1, 14, auto="sheet"), " 7 ", 7),
    (Value(WHOLE, 1, 14, auto="sheet"), "sheet", "sheet"),
    (Value(WHOLE, 1, 14), 7, 7),  # typed, from Python
    (Value(WHOLE, 1, 14), "7.0", 7),
    (Value(WHOLE, 2, 64, step=2), "36", 36),
    (Value(WHOLE, low=1), "1_000", 1000),
    (Value(NUMBER, 0, 1), "0.25", 0.25),
    (Value(NUMBER, 0, 1), "1", 1.0),
    (Value(NUMBERS, -99, 99, items=(2, 15)), "[0, 5,10]", "0,5,10"),
    (Value(CHOICE, choices=(13, 7)), "7", 7),
    (Value(CHOICE, choices=("score", "win")), "win", "win"),
    (Value(TEXT), " anything ", "anything"),
])
def test_values_are_read_as_their_kind(value, given, expected):
    got = value.check("x", given)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("value,given,message", [
    (Value(WHOLE, 1, 14, auto="sheet"), "15", "bad rule limit '15' for g; expected sheet or a whole number 1..14"),
    (Value(WHOLE, 1, 14), "1.5", "bad rule limit '1.5' for g; expected a whole number 1..14"),
    (Value(WHOLE, 1, 14), True, "bad rule limit True for g; expected a whole number 1..14"),
    (Value(WHOLE, 2, 64, step=2), "35", "expected a whole number 2..64 in steps of 2"),
    (Value(WHOLE, low=1), "0", "bad rule limit '0' for g; expected a whole number, 1 or more"),
    (Value(NUMBER, 0, 1), "nan", "expected a number 0..1"),
    (Value(NUMBER, 0, 1), "inf", "expected a number 0..1"),
    (Value(NUMBERS, -99, 99, items=(2, 15)), "5", "expected 2-15 whole numbers -99..99, comma-separated"),
    (Value(NUMBERS, -99, 99, items=(2, 15)), "0,100", "expected 2-15 whole numbers -99..99, comma-separated"),
    (Value(CHOICE, choices=(13, 7)), "12", "bad rule limit '12' for g; expected one of 13, 7"),
])
def test_a_bad_value_is_one_error_naming_the_valid_ones(value, given, message):
    with pytest.raises(SimtoolError) as caught:
        value.check("rule limit", given, " for g")
    text = str(caught.value)
    assert text.startswith("bad rule limit ") and message in text and "\n" not in text


def test_rule_options_and_parameters_of_one_kind_check_alike():
    """A whole-number range declared as a game's rule and as a strategy's parameter: the same
    values pass, and a bad one gets the same words."""
    rule = options.number("depth", 1, 0, 3, "a rule")
    param = Param("depth", int, 1, "a parameter", 0, 3)
    assert rule.value == param.value and rule.parse("g", "2") == param.parse("s", "2") == 2
    with pytest.raises(SimtoolError) as by_rule:
        rule.parse("g", "4")
    with pytest.raises(SimtoolError) as by_param:
        param.parse("s", "4")
    assert str(by_rule.value) == "bad rule depth '4' for g; expected a whole number 0..3"
    assert str(by_param.value) == "bad parameter depth '4' of strategy 's'; expected a whole number 0..3"
    listed = options.Option("value", ("score", "win"))
    assert listed.value == Param("value", str, "score", "", values=("score", "win")).value


@pytest.mark.parametrize("command", [
    ["run", "-n", "100"], ["sweep", "-g", "black-white", "-n", "100"], ["ladder", "-n", "100"],
    ["restrict", "-n", "100"], ["tune", "--vary", "pass_count", "-n", "100"], ["review", "-g", "black-white"],
])
@pytest.mark.parametrize("flag,text,message", [
    ("--jobs", "0", "bad --jobs '0'; expected a whole number, 1 or more"),
    ("--jobs", "two", "bad --jobs 'two'; expected a whole number, 1 or more"),
    ("--seed", "-1", "bad --seed '-1'; expected a whole number 0..2**128"),
])
def test_shared_options_are_checked_alike_by_every_command(tmp_path, command, flag, text, message):
    out = tmp_path / "never"
    one_line_error(cli(*command, "--out", out, flag, text), message)
    assert not out.exists()
