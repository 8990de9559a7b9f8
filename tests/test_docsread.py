"""The docs say what the code does after the day's merges (docsread): each test names the
statement that had gone false."""

from pathlib import Path

ROOT = Path(__file__).parents[1]


def _doc(name: str) -> str:
    return " ".join((ROOT / name).read_text().split())


def test_cli_md_prices_the_embedded_clusters_start_by_its_forked_workers():
    # before: "about 2 CPU seconds (each worker imports dask and simtool before its first chunk)";
    # the workers are forked from one zygote since 863e907 (1.00-1.08 CPU s with 2 workers)
    from simtool.pipeline import daskworker

    doc = _doc("docs/cli.md")
    assert "each worker imports dask and simtool" not in doc
    assert "forks every worker from it" in doc and daskworker.__doc__.startswith("The embedded dask workers")
