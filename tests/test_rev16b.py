"""Review of the suiteprof speed commits: each test failed on the code before its fix."""

from __future__ import annotations

import os
from importlib.metadata import entry_points

from simtool import games


def test_an_entry_point_edited_in_place_is_seen(monkeypatch, tmp_path):
    # before (158c596): the installed packages' entry points were read once while sys.path and
    # its folders' times stayed the same; `setup.py develop` rewrites an .egg-info's
    # entry_points.txt in place, which changes neither, so a game or strategy added to it (or
    # moved to another function) stayed unknown to the session, where a fresh read sees it
    info = tmp_path / "plugx.egg-info"
    info.mkdir()
    (info / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: plugx\nVersion: 1.0\n")
    points = info / "entry_points.txt"
    points.write_text("[simtool.strategies]\nfoo = plugx:foo\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def declared() -> list[tuple[str, str]]:
        return sorted((ep.name, ep.value) for ep in games.declared("simtool.strategies", entry_points)
                      if ep.dist.name == "plugx")

    assert declared() == [("foo", "plugx:foo")]
    folder = os.stat(tmp_path).st_mtime_ns
    points.write_text("[simtool.strategies]\nfoo = plugx:bar\nbaz = plugx:baz\n")
    stat = os.stat(points)
    os.utime(points, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # a coarse clock's same tick
    assert os.stat(tmp_path).st_mtime_ns == folder
    assert declared() == [("baz", "plugx:baz"), ("foo", "plugx:bar")]


def test_a_plugin_raising_overtime_under_a_timeout_is_not_said_to_run_past_it(tmp_path):
    # before (b29cb73 fixed it without --timeout only): with --timeout 5, a plugin raising simtool's
    # Overtime at once read "did not return within --timeout 5 s", and raised as it was imported
    # "took longer than 5 s (--timeout 5) to import", where it took no time: the timer is not
    # what stopped it; after, as without a timer, its own raise
    import pytest

    import simtool
    from simtool.errors import SimtoolError

    (tmp_path / "ot.py").write_text("from simtool.engine import Overtime\n\n\ndef x(view, rng):\n    raise Overtime\n")
    with pytest.raises(SimtoolError, match=r"strategy 'ot.py:x' raised Overtime \(decision 'lead'"):
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'ot.py'}:x"}, timeout=5)
    (tmp_path / "oti.py").write_text("from simtool.engine import Overtime\n\nraise Overtime\n")
    with pytest.raises(SimtoolError, match=r"oti.py failed to load: Overtime$"):
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'oti.py'}:x"}, timeout=5)
    # the timer's own expiry reads as before
    (tmp_path / "slow.py").write_text("import time\n\n\ndef x(view, rng):\n    time.sleep(1)\n    return 0\n")
    with pytest.raises(SimtoolError, match=r"'slow.py:x' did not return within timeout=0.2 s|"
                                           r"'slow.py:x' did not return within --timeout 0.2 s"):
        simtool.run("black-white", n=30, seed=1, seats={0: f"{tmp_path / 'slow.py'}:x"}, timeout=0.2)
