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


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_disk_full_before_any_chunk_is_finished_promises_no_chunks(tmp_path, monkeypatch, jobs):
    # failed before: "cannot write .../seats-000000.parquet: No space left on device; the finished
    # chunks are kept: finish the run with: simtool run --resume ..." with no chunk finished, and
    # the folder left holding chunks/spec.json alone
    import errno
    from pathlib import Path

    import simtool
    from simtool.errors import DiskFull

    real = Path.write_bytes

    def full(path, data):
        if path.parent.name == "chunks" and "seats-" in path.name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    out = tmp_path / "r"
    with pytest.raises(DiskFull) as raised:
        simtool.run("black-white", n=3000, jobs=jobs, out=out, seed=1)
    assert str(raised.value).endswith("seats-000000.parquet: No space left on device"), raised.value
    assert not out.exists()  # taken back, as a run stopped by a strategy before its first chunk is
