"""Run every notebook top to bottom at full size and store it with its outputs (`make notebooks`).

A designer who opens a notebook on a code host sees its tables and plots without running it.
The notebooks run in a scratch folder, so the run folders, reports and strategy file they
write do not land in the repository; their own paths in the outputs are relative.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
LIMIT = 1_000_000  # bytes per stored notebook: plots are PNG, tables are short


def execute(path: Path, scratch: Path) -> int:
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    NotebookClient(notebook, timeout=3600, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(scratch)}}).execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    if errors:
        raise SystemExit(f"{path.name}: {errors[0].ename}: {errors[0].evalue}")
    text = nbformat.writes(notebook) + "\n"
    if len(text.encode()) > LIMIT:
        raise SystemExit(f"{path.name}: {len(text.encode()):,} bytes with outputs, over {LIMIT:,}")
    path.write_text(text, encoding="utf-8")
    return len(text.encode())


def main(names: list[str]) -> None:
    # the kernel is this interpreter's (the project's venv), at the notebooks' own full size
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    os.environ["PYTHONPATH"] = str(HERE.parent)
    os.environ.pop("SIMTOOL_NOTEBOOK_N", None)
    paths = [HERE / n for n in names] if names else sorted(HERE.glob("*.ipynb"))
    for path in paths:
        with tempfile.TemporaryDirectory(prefix="simtool-notebook-") as scratch:
            size = execute(path, Path(scratch))
        print(f"{path.relative_to(HERE.parent)}: executed, {size:,} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
