"""Round hostile32: the plugin imports record, the per-deal win check and the --precision null
check of safe32, attacked as a careless user would, in one process as a notebook runs them."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import sys

import polars as pl
import pytest

from simtool.cli import main

from .test_hardening_cli import main_error
from .test_hostile28 import forget_modules  # noqa: F401 (autouse: applies here too)
from .test_safe32 import PICK, helped  # noqa: F401 (a fixture)


def imports(folder, record: str = "run.json") -> dict:
    return next(iter(json.loads((folder / record).read_text())["plugins"].values())).get("imports", {})


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


SHARED = "from deep32 import LOW\nfrom simtool import bits\n\n\ndef pick(view, rng):\n" \
         "    return bits.lowest(view.legal) if LOW else bits.highest(view.legal)\n"


def test_two_plugins_sharing_a_helper_each_record_it_whichever_loads_first(tmp_path, capsys, monkeypatch,
                                                                            small_chunks):
    # failed before: b32 imported shared32 already in sys.modules (a32 loaded it first, as a
    # sweep's earlier cell does) and recorded shared32 alone, not deep32, the helper it imports:
    # its run, resumed after deep32.py was edited, played both versions, exit 0
    for name, text in (("deep32", "LOW = True\n"), ("shared32", SHARED)):
        (tmp_path / f"{name}.py").write_text(text)
    for name, text in (("a32", "import shared32\n\n\ndef bot(view, rng):\n    return shared32.pick(view, rng)\n"),
                       ("b32", "from shared32 import pick as _pick\n\n\ndef bot(view, rng):\n"
                               "    return _pick(view, rng)\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["run", "-s", "random", "--seat", f"0={tmp_path / 'a32' / 'a32.py'}:bot", "--n", "20", "-j", "1",
                 "-q", "-o", str(tmp_path / "a")]) == 0
    out = tmp_path / "b"
    from .test_data_safety import interrupted_run

    interrupted_run(out, 2, n=4 * 2048, seats={0: f"{tmp_path / 'b32' / 'b32.py'}:bot"})
    assert sorted(imports(tmp_path / "a")) == sorted(imports(out / "chunks", "spec.json")) == [
        str(tmp_path / "deep32.py"), str(tmp_path / "shared32.py")]
    (tmp_path / "deep32.py").write_text("LOW = False\n")
    main_error(capsys, ["run", "--resume", out], f"{tmp_path / 'deep32.py'}, which strategy plugin ")


@pytest.mark.usefixtures("helped")
def test_a_helper_another_plugin_imported_then_edited_is_imported_anew_for_the_next(tmp_path):
    # failed before: far32, brought in by bot32's import (a sweep's earlier cell, a long-lived
    # dask worker's earlier run), stayed in sys.modules as first imported; the next plugin
    # importing it was refused, '... was imported by this process before the plugin and has been
    # edited since ...; reload it (importlib.reload), or restart the process'
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "p32.py").write_text("import far32\n\n\ndef bot(view, rng):\n"
                                               "    return far32.pick(view, rng)\n")
    run = ["run", "-s", "random", "--n", "60", "--seed", "3", "-j", "1", "-q", "--seat"]
    assert main([*run, f"0={tmp_path / 'bots' / 'bot32.py'}:bot", "-o", str(tmp_path / "a")]) == 0
    (tmp_path / "lib" / "far32.py").write_text(PICK.format("bits.highest(view.legal)") + "# edited\n")
    assert main([*run, f"0={tmp_path / 'other' / 'p32.py'}:bot", "-o", str(tmp_path / "b")]) == 0
    now = hashlib.sha256((tmp_path / "lib" / "far32.py").read_bytes()).hexdigest()
    assert imports(tmp_path / "b")[str(tmp_path / "lib" / "far32.py")] == now
    played = [pl.read_parquet(tmp_path / f / "seats.parquet").drop("strategy") for f in ("a", "b")]
    assert not played[0].equals(played[1])  # highest cards, not lowest as bot32 played them


def test_a_plugin_whose_helper_writes_a_log_beside_it_as_it_is_imported_resumes(tmp_path, small_chunks):
    # failed before: the resume imported the plugin (its helper writing import.log anew), then
    # compared the files beside it with the run's record: 'import.log beside strategy plugin
    # .../w32.py changed or went since the run started ...; restore them', exit 2, every time
    from .test_data_safety import interrupted_run
    from .test_hostile31 import forget

    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "log32.py").write_text(
        "import pathlib\nimport time\n\n"
        "(pathlib.Path(__file__).parent / 'import.log').write_text(str(time.time_ns()))\n")
    (tmp_path / "bots" / "w32.py").write_text(
        "import log32  # noqa: F401\nfrom simtool import bits\n\n\ndef bot(view, rng):\n"
        "    return bits.lowest(view.legal)\n")
    out = tmp_path / "r"
    interrupted_run(out, 2, n=4 * 2048, seats={0: f"{tmp_path / 'bots' / 'w32.py'}:bot"})
    forget(tmp_path)  # a new process imports the plugin again
    assert main(["run", "--resume", str(out), "-q"]) == 0


class _Rewriting(importlib.abc.Loader):
    """A loader that rewrites its module's source as it runs it, as pytest's assertion rewriting does."""

    def __init__(self, path):
        self.path = path

    def exec_module(self, module):
        module.__file__ = str(self.path)
        exec(compile(self.path.read_text().replace("lowest", "highest"), str(self.path), "exec"), vars(module))


def test_a_helper_its_loader_rewrote_is_not_taken_for_one_edited_since_it_was_imported(tmp_path, monkeypatch):
    # failed before: the file unchanged, its functions not what a plain compile of it gives, the
    # plugin was refused: '.../macro32.py, which strategy plugin ... imports, was imported by this
    # process before the plugin and has been edited since ...' (and a compiled extension module's
    # bytes, from Python 3.12 a SyntaxError, so too)
    (tmp_path / "macro32.py").write_text(PICK.format("bits.lowest(view.legal)"))
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "m32.py").write_text("import macro32\n\n\ndef bot(view, rng):\n"
                                            "    return macro32.pick(view, rng)\n")
    spec = importlib.util.spec_from_loader("macro32", _Rewriting(tmp_path / "macro32.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "macro32", module)
    assert main(["run", "-s", "random", "--seat", f"0={tmp_path / 'bots' / 'm32.py'}:bot", "--n", "30", "-j", "1",
                 "-q", "-o", str(tmp_path / "r")]) == 0
