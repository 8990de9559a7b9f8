"""A last hostile review of 23135f5..25dc6ee (folder-lock fixes, review's page-kind refusal,
RunWriter's wording for tune and review cells, the run summary's title on one line): each test
failed on 25dc6ee."""

from __future__ import annotations

import fcntl
import os

import pytest

from simtool.errors import SimtoolError
from simtool.pipeline.folders import HOLDER, FolderLock


@pytest.mark.parametrize("record", ["[1, 2]", "null", '"pid"'])
def test_a_held_folder_whose_record_is_no_object_is_refused_in_one_line(tmp_path, record):
    # before: AttributeError: 'list' object has no attribute 'get' (a traceback) where the record
    # of the folder's holder was JSON but no object; 'details unknown' before the host was read
    folder = tmp_path / "held"
    folder.mkdir()
    (folder / HOLDER).write_text(record)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(SimtoolError) as caught:
            FolderLock(folder, "command", folder / HOLDER)
        assert str(caught.value) == (f"output folder {folder} is being written by another simtool command "
                                     f"(details unknown); wait for it to end or choose another folder")
    finally:
        os.close(fd)
