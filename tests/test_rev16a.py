"""Review of the day's commits since e2fed90 (hostile16's fixes, the test-speed changes, the
16-core figures): what they got wrong. Each test failed on the code before its fix."""

from __future__ import annotations

import errno
import json
import os

import pytest

from simtool.analysis import review as answers
from simtool.errors import SimtoolError


@pytest.mark.parametrize("code", [errno.EACCES, errno.EIO])
def test_a_baseline_review_json_that_cannot_be_read_is_not_called_a_pipe(tmp_path, monkeypatch, code):
    # before: a review.json the user may not read (or a disk's read error) was "not a regular
    # file (a pipe, a device or a folder)"; it is a regular file, and the system says why
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "review.json").write_text("{}")

    def unreadable(path):
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(answers, "read_record", unreadable)
    with pytest.raises(SimtoolError) as raised:
        answers.read_review(tmp_path / "b")
    text = str(raised.value)
    assert "pipe" not in text and os.strerror(code) in text and str(tmp_path / "b" / "review.json") in text
    assert "earlier simtool review" in text and "\n" not in text


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="drops root's rights to be refused")
def test_a_baseline_folder_the_user_may_not_search_is_one_line_not_a_traceback(tmp_path):
    # before: path.exists() raised PermissionError out of the command; root reads any file, so
    # the process drops to nobody once simtool is imported
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "review.json").write_text("{}")
    (tmp_path / "b").chmod(0o600)
    code = ("import os, sys; from simtool.analysis import review as a; from simtool.errors import SimtoolError\n"
            "os.setgroups([]); os.setgid(65534); os.setuid(65534)\n"
            "try:\n    a.read_review(sys.argv[1])\nexcept SimtoolError as e:\n    print(e)\n")
    root = str(Path(__file__).resolve().parents[1])
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "b")], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=root), timeout=60)
    assert r.returncode == 0 and not r.stderr, r.stderr[-2000:]
    assert r.stdout.strip() == f"{tmp_path / 'b' / 'review.json'} cannot be read (Permission denied); give the " \
                               f"folder of an earlier simtool review"


@pytest.mark.parametrize("place", [("questions", "seats", "seats", 0, "share"),
                                   ("questions", "skill", "over_heuristic_pts"), ("metrics", "fairness", "value")])
def test_a_baseline_number_too_large_for_a_float_is_refused_in_one_line(bw_review, tmp_path, place):
    # before (6c619b8's rendering of the page before anything is played): a share, a figure or a
    # published metric of 10**400 (JSON sets no limit) raised OverflowError out of the command
    from .test_cli import cli, one_line_error

    _, r = bw_review
    bad = json.loads(json.dumps(r))
    at = bad
    for key in place[:-1]:
        at = at[key]
    at[place[-1]] = 10 ** 400
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "review.json").write_text(json.dumps(bad))
    result = cli("review", "-g", "black-white", "--baseline", tmp_path / "b", "--out", tmp_path / "o", "-q")
    one_line_error(result, "review.json is not a whole simtool review", "earlier simtool review")
    assert not (tmp_path / "o").exists()
