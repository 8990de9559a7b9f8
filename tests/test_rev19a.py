"""Defects found reviewing the merge of left19 (rev19a): each test failed on the code before its fix."""

from __future__ import annotations

import os

import simtool

from .test_cli import cli


def test_report_without_o_names_its_page_within_the_systems_255_bytes(tmp_path, monkeypatch, charts_undrawn):
    # before: the page was named after up to 80 characters of the run folders' names, up to 320
    # bytes of UTF-8: "error: File name too long ('reports/😀😀...'); choose a shorter path",
    # exit 2, for runs any folder can hold; after: the names cut at 80 bytes, the page written
    monkeypatch.chdir(tmp_path)
    runs = [tmp_path / f"r{i}" / ("😀" * 39) for i in range(2)]
    for seed, run in enumerate(runs):
        simtool.run("black-white", n=64, seed=seed, jobs=1, out=run)
    said = cli("report", *runs)
    assert said.exit_code == 0, said.output
    page = tmp_path / said.stdout.strip()
    assert page.is_file() and len(os.fsencode(page.name)) <= 80 + len(".html")
    assert page.name == "😀" * 15 + "+1-more.html"
