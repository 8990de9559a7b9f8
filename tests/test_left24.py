"""Leftovers of earlier sessions' notes (session 24), each a defect found and left then."""
from __future__ import annotations

import pytest

from .test_cli import cli, one_line_error


@pytest.mark.parametrize("option, text", [("--precision", "0e5"), ("--precision", "Infinity"),
                                          ("--timeout", "0e5"), ("--timeout", "-Infinity"),
                                          ("--timeout", "-0"), ("--precision", "1e-400")])
def test_a_number_out_of_range_is_quoted_as_typed(tmp_path, option, text):
    # failed before: "bad --precision 0.0", "bad --timeout -inf": the range was checked after the
    # text was read as a float, and the float quoted, a figure the user never typed
    one_line_error(cli("run", "-g", "black-white", "-n", "30", option, text, "--out", tmp_path / "r"),
                   f"bad {option} '{text}'; expected")
    assert not (tmp_path / "r").exists()
