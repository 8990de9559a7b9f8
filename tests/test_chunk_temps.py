"""Chunk files are renamed into place from a temporary name of their writer's own."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simtool.pipeline import folders


def test_two_writers_of_one_chunk_never_share_a_temporary_file(tmp_path, monkeypatch):
    # before: both wrote chunks/.seats-000003.tmp, so that the first one's rename could leave the
    # second writing into the file then read as finished (dask runs a task again when it takes a
    # worker for lost while that worker still plays)
    written, real = [], Path.write_bytes
    monkeypatch.setattr(Path, "write_bytes", lambda path, data: (written.append(path.name), real(path, data))[1])
    table = pl.DataFrame({"deal": [0, 1], "seat": [0, 1]})
    for _ in range(2):
        folders.write_chunk(tmp_path, 3, seats=table)
    temps = [name for name in written if name.endswith(".seats-000003.parquet.tmp")]
    assert len(temps) == 2 and temps[0] != temps[1], written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seats-000003.parquet", "sums-000003.json"]
    assert pl.read_parquet(tmp_path / "seats-000003.parquet").equals(table)
    # a writer killed before its rename leaves its temporary file, which a run may remove as its own
    assert all(folders.OUR_CHUNKS.fullmatch(name) for name in temps)
    assert folders.OUR_CHUNKS.fullmatch(written[-1]) and written[-1].endswith(".sums-000003.json.tmp")
    assert not folders.OUR_CHUNKS.fullmatch(".123-0badcafe.notes-000003.parquet.tmp")
