"""Gaps a hostile round left: ``make strength`` after a strategy's defaults changed, ``pimc``
parameters that did nothing silently, dask workers outliving a killed main process. Each test
failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import json

import pytest

import strategies
from simtool.commands import strength


def stopped_after(cells: int, said: list[str]):
    """A ``say`` that stops the table (Ctrl-C) once ``cells`` cells are done."""
    def say(line: str) -> None:
        said.append(line)
        if line.startswith(f"[{cells}/"):
            raise KeyboardInterrupt

    return say


def pimc_samples_default(monkeypatch, samples: int) -> None:
    """pimc as if its default ``samples`` had been changed in strategies/pimc.py."""
    i = next(i for i, s in enumerate(strategies.BUILT_IN) if s.name == "pimc")
    old = strategies.BUILT_IN[i]
    params = tuple(dataclasses.replace(p, default=samples) if p.name == "samples" else p for p in old.params)
    monkeypatch.setattr(strategies, "BUILT_IN", (*strategies.BUILT_IN[:i], dataclasses.replace(old, params=params),
                                                 *strategies.BUILT_IN[i + 1:]))


def test_strength_replaces_its_plan_when_a_default_changed(tmp_path, monkeypatch):
    # before: "runs holds an unfinished strength of 7 other runs (3 left); ... delete plan.json",
    # and once deleted, the `pimc` cells played with the old default were kept as they were
    runs, said = tmp_path / "runs", []
    with pytest.raises(KeyboardInterrupt):
        strength.measure(runs, ["black-white"], n=64, seed=3, jobs=1, say=stopped_after(4, said))
    first = {p.parent.name: json.loads(p.read_text()) for p in runs.glob("*/run.json")}
    assert len(first) == 4 and "black-white_3p_pimc@samples=16+balance" in first
    pimc_samples_default(monkeypatch, 12)
    said.clear()
    cells, context = strength.measure(runs, ["black-white"], n=64, seed=3, jobs=1, say=said.append)
    replaced = [line for line in said if "replaced" in line]
    assert len(replaced) == 1 and "\n" not in replaced[0], said
    assert ("1 cells played before kept, 2 played with other settings played again (black-white_3p_deck-30_"
            "pimc+balance, black-white_3p_pimc+balance)") in replaced[0]
    assert "1 old cells' folders removed (black-white_3p_pimc@samples=16+balance)" in replaced[0]
    assert context["kept"] == 1 and context["played"] == 6
    now = {p.parent.name: json.loads(p.read_text()) for p in runs.glob("*/run.json")}
    assert len(now) == 7 and "black-white_3p_pimc@samples=24+balance" in now  # doubled: 2 x 12
    assert now["black-white_3p_clairvoyant+balance"] == first["black-white_3p_clairvoyant+balance"]
    for name, meta in now.items():
        if "pimc" in name:
            assert meta["params"][meta["lineup"][0]]["samples"] in (12, 24), name
    # and again, nothing changed: every cell kept, no plan replaced
    said.clear()
    again, context = strength.measure(runs, ["black-white"], n=64, seed=3, jobs=1, say=said.append)
    assert again == cells and context["played"] == 0 and not [line for line in said if "replaced" in line]
