"""A last hostile review of 23135f5..25dc6ee (folder-lock fixes, review's page-kind refusal,
RunWriter's wording for tune and review cells, the run summary's title on one line): each test
failed on 25dc6ee."""

from __future__ import annotations

import fcntl
import os

import pytest

from simtool.commands import review
from simtool.errors import SimtoolError
from simtool.pipeline.folders import HOLDER, FolderLock

# the head of a review page written before pages said their kind (c6e983e..9a6d150)
OLD_REVIEW = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
              '<meta name="generator" content="simtool 0.9.0">\n'
              '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
              '<title>Balance review: Black &amp; White, 4 players</title>\n</head>\n</html>\n')


def test_a_review_folder_whose_untagged_page_lost_its_json_is_reviewed_again(tmp_path):
    # before: a review written before pages said their kind, stopped between renaming its page
    # and its review.json into place, was refused when played again into its own folder: 'review.html
    # is a simtool balance report page, not a review' (exit 2), of the review's own page
    out = tmp_path / "r"
    out.mkdir()
    (out / "review.html").write_text(OLD_REVIEW)
    review.check_folder(out)  # no refusal
    # a balance report there is still refused, as a tuning's page is
    (out / "review.html").write_text(OLD_REVIEW.replace("Balance review: ", "Kansas City: "))
    with pytest.raises(SimtoolError, match="is a simtool balance report page, not a review"):
        review.check_folder(out)


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
