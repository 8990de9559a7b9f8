"""The docs say what the code does after the day's merges (docsread): each test names the
statement that had gone false."""

from pathlib import Path

from simtool.analysis import review as analysis
from simtool.analysis import verdicts

ROOT = Path(__file__).parents[1]


def _doc(name: str) -> str:
    return " ".join((ROOT / name).read_text().split())


def test_review_md_names_every_unsized_question():
    # before: docs/review.md said changes[].threshold is null for luck and match length only;
    # tension's changes are unsized too (95940a1)
    assert [q for q in ("luck", "tension", "match: rounds") if analysis.matters(q) is None] == \
        ["luck", "tension", "match: rounds"]
    assert "`null` where the question has none (luck, tension, match length)" in _doc("docs/review.md")


def test_review_md_names_every_figure_without_a_better_side():
    # before: "luck and match length have no better side", while hidden information and a
    # game's rates that are not risks read "changed" as well
    sides = verdicts.BETTER_WHEN
    assert (sides["luck"], sides["match:rounds"], sides["hidden_information"]) == (None, None, None)
    assert sides["tension"] is None  # tests/test_words31.py
    assert ("luck, tension, match length, hidden information's price and a game's rates that are not risks "
            "have no better side") in _doc("docs/review.md")


def test_cli_md_prices_the_embedded_clusters_start_by_its_forked_workers():
    # before: "about 2 CPU seconds (each worker imports dask and simtool before its first chunk)";
    # the workers are forked from one zygote since 863e907 (1.00-1.08 CPU s with 2 workers)
    from simtool.pipeline import daskworker

    doc = _doc("docs/cli.md")
    assert "each worker imports dask and simtool" not in doc
    assert "forks every worker from it" in doc and daskworker.__doc__.startswith("The embedded dask workers")


def test_readme_says_which_changes_are_unsized_and_what_timeout_covers():
    # before: the changes table "sized by the question's first threshold" for every row, and
    # --timeout "(a plugin's longest decision)", which covers its import too (d1182cb)
    from simtool.analysis import review as analysis

    doc = _doc("README.md")
    assert [analysis.matters(q) for q in ("luck", "tension", "match: rounds")] == [None] * 3
    assert "luck, tension and match length unsized" in doc
    assert "`--timeout SECONDS` (a plugin's import, longest decision or game step)" in doc  # a game's step too (left19)


def test_review_md_names_every_option_of_review():
    # before: docs/cli.md sends review's options, --quiet and --scheduler among them, to
    # docs/review.md, whose usage named neither (nor --backend but in passing)
    import re

    from typer.testing import CliRunner

    from simtool.cli import app

    usage = (ROOT / "docs/review.md").read_text().split("```")[1]
    shown = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", CliRunner().invoke(app, ["review", "--help"]).output))
    assert shown - {"--help"} - set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", usage)) == set()
