"""Round hostile32: the plugin imports record, the per-deal win check and the --precision null
check of safe32, attacked as a careless user would, in one process as a notebook runs them."""

from __future__ import annotations

import hashlib
import json

import polars as pl
import pytest

from simtool.cli import main

from .test_hardening_cli import main_error
from .test_hostile28 import forget_modules  # noqa: F401 (autouse: applies here too)
from .test_safe32 import PICK, helped  # noqa: F401 (a fixture)


def imports(folder) -> dict:
    return next(iter(json.loads((folder / "run.json").read_text())["plugins"].values()))["imports"]


@pytest.mark.usefixtures("helped")
@pytest.mark.parametrize(("edited", "isolate"), [("lib/far32.py", []), ("bots/kit/near32.py", []),
                                                 ("lib/far32.py", ["--isolate"])])
def test_a_notebooks_next_run_after_a_helper_is_edited_plays_the_edit_not_refused(tmp_path, edited, isolate):
    # failed before: the process kept the plugin (under --isolate, its process) as first imported,
    # with its record of the old helper, and the new run (a new folder) was refused: '..., which
    # strategy plugin bot32.py imports, has changed or gone since the run started ...; restore the
    # file, or start a new run'
    run = ["run", "-s", "random", "--seat", f"0={tmp_path / 'bots' / 'bot32.py'}:bot", "--n", "60", "--seed", "3",
           "-j", "1", "-q", *isolate, "-o"]
    assert main([*run, str(tmp_path / "a")]) == 0
    (tmp_path / edited).write_text(PICK.format("bits.highest(view.legal)") + "# edited\n")
    assert main([*run, str(tmp_path / "b")]) == 0
    now = hashlib.sha256((tmp_path / edited).read_bytes()).hexdigest()
    assert imports(tmp_path / "b")[str(tmp_path / edited)] == now != imports(tmp_path / "a")[str(tmp_path / edited)]
    # the edit played (highest cards for lowest; bot32 plays far32's pick), not the helper first imported
    played = [pl.read_parquet(tmp_path / f / "seats.parquet") for f in ("a", "b")]
    assert played[0].equals(played[1]) == (edited != "lib/far32.py")


@pytest.mark.usefixtures("helped")
def test_a_helper_a_notebook_imported_then_edited_is_refused_not_played_as_first_imported(tmp_path, capsys):
    # failed before: the plugin bound the notebook's far32 as first imported (lowest cards) and
    # run.json recorded the edited file's checksum; -j 1 and forked -j 2 played the old helper
    # (seat 0 -6.4628 at 2e4 deals, seed 1), --backend dask's workers the edit (-6.48835), exit 0
    import importlib

    import far32

    run = ["run", "-s", "random", "--seat", f"0={tmp_path / 'bots' / 'bot32.py'}:bot", "--n", "60", "--seed", "3",
           "-j", "1", "-q", "-o"]
    assert main([*run, str(tmp_path / "a")]) == 0  # imported before, unedited: no refusal
    (tmp_path / "lib" / "far32.py").write_text(PICK.format("bits.highest(view.legal)") + "# edited\n")
    main_error(capsys, [*run, tmp_path / "b"], f"{tmp_path / 'lib' / 'far32.py'}, which strategy plugin ",
               "was imported by this process before the plugin and has been edited since", "importlib.reload")
    importlib.reload(far32)
    assert main([*run, str(tmp_path / "c")]) == 0
    played = [pl.read_parquet(tmp_path / f / "seats.parquet") for f in ("a", "c")]
    assert not played[0].equals(played[1])
