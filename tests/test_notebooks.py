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


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """One kernel for the notebooks of this module, each run in an emptied namespace and a folder
    of its own (:func:`test_notebook_runs`): a kernel's start with its imports (simtool, polars,
    matplotlib) took 1.3 s of CPU and 3 s of wall time per notebook. The kernel is this
    interpreter's (the project's venv), at a small size; killed at the end, not waited for."""
    pytest.importorskip("nbformat")
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync

    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               SIMTOOL_NOTEBOOK_N="1000", PYTHONPATH=str(Path(__file__).parent.parent))
    manager = AsyncKernelManager(kernel_name="python3")
    run_sync(manager.start_kernel)(env=env, cwd=str(tmp_path_factory.mktemp("kernel")))
    yield manager
    run_sync(manager.shutdown_kernel)(now=True)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, kernel):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    stored = path.read_bytes()
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:  # the stored full-size outputs must not pass for this run's
        if cell.cell_type == "code":
            cell.outputs = []
    # first, in the shared kernel: this notebook's own scratch folder, a fresh kernel's inline
    # plots (a notebook may switch the backend) and an empty namespace
    # (the names of a notebook run before are gone: a notebook that misses an import still fails)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(
        f"import os\nos.chdir({str(tmp_path)!r})\n%matplotlib inline\n%reset -f"))
    client = NotebookClient(notebook, km=kernel, timeout=300, kernel_name="python3")
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    fresh = notebook.cells.pop(0)
    assert not fresh.outputs, fresh.outputs
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
