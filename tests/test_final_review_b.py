"""Final hostile review (b) of the session's CLI, pipeline and engine changes: each test a defect
found, on a case whose answer is known."""

from __future__ import annotations

import pytest

from simtool.cli import main


@pytest.mark.parametrize("command", ["run", "sweep", "tune"])
@pytest.mark.parametrize("blank", ["", " "])
def test_a_blank_resume_folder_is_refused_by_its_own_name(capsys, tmp_path, monkeypatch, command, blank):
    """``--resume " "`` was refused as "bad --out ' '" (run), or looked for a run in a folder
    named " " or in the working folder (``--resume ""``)."""
    monkeypatch.chdir(tmp_path)
    assert main([command, "--resume", blank]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: bad --resume '{blank}'; expected a folder path, such as runs/first"
