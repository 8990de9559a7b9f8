"""Leftovers of the last review (4): the balance report's differences between runs that share no
deals, its ladder table beside the verdict, and one helper for signed points (each test failed on
the code before its fix)."""

from __future__ import annotations

import inspect

from simtool.analysis import ladder, strength, verdicts
from simtool.reports import balance


def test_signed_points_is_one_function_that_the_ladder_the_strength_table_and_the_report_share():
    # before: ladder._signed, strength._points and balance.points each wrote the same line
    assert verdicts.signed_points(0.0004) == verdicts.signed_points(-0.0004) == "0.0"
    assert verdicts.signed_points(0.0006) == "+0.1" and verdicts.signed_points(-0.0006) == "-0.1"
    assert verdicts.signed_points(0.00996, (1.0,)) == "+0.996"  # never onto a threshold it is not on
    assert verdicts.signed_points(0.01, (1.0,)) == "+1.0"  # one on it stays short
    for module in (ladder, strength, balance):
        own = [name for name, f in inspect.getmembers(module, inspect.isfunction)
               if f.__module__ == module.__name__ and 'sign="+"' in inspect.getsource(f)
               and "100 *" in inspect.getsource(f) and len(inspect.getsource(f).splitlines()) <= 6]
        assert not own, f"{module.__name__} keeps its own signed points: {own}"
    assert balance.environment().globals["points"] is verdicts.signed_points
