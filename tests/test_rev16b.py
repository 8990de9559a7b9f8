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
