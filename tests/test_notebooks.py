"""Every notebook runs top to bottom (nbclient) at a small n, and is stored executed at full n."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
PRINTS = {  # a line each notebook prints once its analysis has run
    "01-quick-start": "black-white 3 players, 1000 deals, seed 1",
    "02-kansas-city-overshoot": "5p: pass 2 minus pass 3 =",
    "03-write-your-own-strategy": "against balance: Skill versus luck:",
    "04-write-your-own-search": "lookahead minus pimc:",
    "05-tune-the-rules": "tuned kansas-city: best pass_count",
    "06-review": "hidden information: ",
}


def test_there_are_the_notebooks():
    assert [p.stem for p in NOTEBOOKS] == ["01-quick-start", "02-kansas-city-overshoot",
                                           "03-write-your-own-strategy", "04-write-your-own-search",
                                           "05-tune-the-rules", "06-review"]


TABLES_ONLY = {"03-write-your-own-strategy", "04-write-your-own-search"}  # no plot


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    # the kernel is this interpreter's (the project's venv), at a small size, in a scratch folder
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("SIMTOOL_NOTEBOOK_N", "1000")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent.parent))
    stored = path.read_bytes()
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:  # the stored full-size outputs must not pass for this run's
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert PRINTS[path.stem] in printed, printed
    if path.stem not in TABLES_ONLY:  # the others end in a matplotlib plot
        assert any("image/png" in o.get("data", {}) for o in outputs)
    assert path.read_bytes() == stored  # CI runs the notebooks; only `make notebooks` rewrites them


STORED_PRINTS = {"01-quick-start": "black-white 3 players, 200000 deals, seed 1"}  # the full size


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_executed(path):
    """A reader on a code host sees every cell's output, from one top-to-bottom run at full size."""
    nbformat = pytest.importorskip("nbformat")
    assert path.stat().st_size < 1_000_000
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    outputs = [o for cell in cells for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error" or o.get("name") == "stderr"]
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert STORED_PRINTS.get(path.stem, PRINTS[path.stem]) in printed
    if path.stem not in TABLES_ONLY:
        assert any("image/png" in o.get("data", {}) for o in outputs)
