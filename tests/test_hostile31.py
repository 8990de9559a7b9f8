"""Round hostile31: ``simtool replay --run``, the paired report of two runs and a designer's rate
breaking in a later chunk, used as a careless or malicious user would."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from simtool.cli import main

from .test_data_safety import chunk_files
from .test_hardening_cli import main_error, no_result
from .test_hardening_round5 import TOY
from .test_hardening_round12 import installed
from .test_hostile28 import analysed, forget_modules  # noqa: F401 (autouse: applies here too)
from .test_keep31 import LATE, PRECISE
from .test_replay31 import folder_rows, replayed, results

HELPER = "from simtool import bits\n\n\ndef pick(view, rng):\n    return {}\n"


@pytest.fixture
def helper(tmp_path, monkeypatch):
    """A plugin whose play lies in a module it imports from elsewhere on the path (PYTHONPATH): the
    run records the plugin's file, those beside it and (since safe32) that module."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "bots").mkdir()
    (tmp_path / "lib" / "pick31.py").write_text(HELPER.format("bits.lowest(view.legal)"))
    (tmp_path / "bots" / "bot31.py").write_text("from pick31 import pick\n\n\ndef bot(view, rng):\n"
                                               "    return pick(view, rng)\n")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    yield tmp_path
    forget(tmp_path)


def forget(tmp_path) -> None:
    """This process's imports of the modules under ``tmp_path``, as a new process starts without them."""
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def test_a_replay_that_plays_otherwise_than_the_run_is_refused_not_printed_as_its_deal(tmp_path, capsys, helper):
    # failed before: the helper edited since the run, `simtool replay --run` printed other results
    # as the run's deal 3 (seat 0 score -5, where seats.parquet holds -8 at 1,500 deals, seed 2)
    folder = tmp_path / "r"
    assert main(["run", "-s", "random", "--seat", f"0={tmp_path / 'bots' / 'bot31.py'}:bot", "--n", "40",
                 "--seed", "2", "-j", "1", "-q", "-o", str(folder)]) == 0
    capsys.readouterr()
    assert results(replayed(capsys, folder, "deal", 3)) == folder_rows(folder, "deal", 3)
    (tmp_path / "lib" / "pick31.py").write_text(HELPER.format("bits.highest(view.legal)"))
    forget(tmp_path)
    # refused before it plays since safe32 (run.json records the modules a plugin imports)
    main_error(capsys, ["replay", "--run", folder, "--deal", "3"], f"{tmp_path / 'lib' / 'pick31.py'}, which "
               f"strategy plugin {tmp_path / 'bots' / 'bot31.py'} imports, has changed or gone since the run started")


def test_a_replay_of_a_run_whose_installed_game_changed_names_the_game_not_equal_versions(tmp_path, capsys,
                                                                                          monkeypatch):
    # failed before: "note: simtool 0.1.0 with numpy 2.4.6 played this run, simtool 0.1.0 with numpy
    # 2.4.6 replays it", the same versions on both sides and the change unnamed (a finished run),
    # or no note at all (an unfinished one)
    installed(tmp_path, monkeypatch, "edited31_game", TOY.replace('id = "climb"', 'id = "edited31"'),
              "edited31", "edited31")
    folder = tmp_path / "r"
    assert main(["run", "--game", "edited31", "--n", "20", "--seed", "1", "-j", "1", "-q", "-o", str(folder)]) == 0
    capsys.readouterr()
    assert replayed(capsys, folder, "deal", 3)[1].startswith("line-up: ")
    with (tmp_path / "edited31_game.py").open("a") as module:
        module.write("# edited since the run\n")
    forget(tmp_path)
    note = replayed(capsys, folder, "deal", 3)[1]
    assert note == ("note: installed game edited31 changed since the run (installed_by in run.json): where it "
                    "deals or plays otherwise, this is not the run's deal")


@pytest.mark.parametrize("recorded", [1, {"path": 3, "sha256": "0"}, {"path": "/x.py", "sha256": "0", "beside": [1]}])
def test_a_run_json_whose_plugin_record_was_edited_is_refused_in_one_line(tmp_path, capsys, recorded):
    # failed before: plugins {"x": 1} in run.json ended replay --run in a traceback, TypeError: 'int'
    # object is not subscriptable (plugins is no checksummed key: edited, the run stays "unchanged")
    folder = tmp_path / "r"
    assert main(["run", "--n", "10", "--seed", "1", "-j", "1", "-q", "-o", str(folder)]) == 0
    meta = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps(meta | {"plugins": {"x.py:bot": recorded}}))
    main_error(capsys, ["replay", "--run", folder, "--deal", "3"], f"{folder}/run.json is damaged (ValueError: "
               "plugin 'x.py:bot' is ", "not its file's path, sha256 and the files beside it")


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile31") / "plain"
    assert main(["run", "--n", "10", "--seed", "1", "-j", "1", "-q", "-o", str(folder)]) == 0
    return folder


@pytest.mark.parametrize(("text", "said"), [
    ('{"game": ', "run.json is not valid JSON (Expecting value"),
    ("[1]", "run.json is not a JSON object, so not a simtool run.json"),
    ("VERSIONS", "run.json: 'versions' is 'x', not a JSON object"),
])
def test_a_damaged_run_json_is_named_not_said_to_be_missing(tmp_path, capsys, plain, text, said):
    # failed before: each read "--run r holds no simtool run (no run.json, no chunks/spec.json); give
    # a run folder", run.json there (what simtool report and run --resume say of it named its fault)
    folder = tmp_path / "r"
    shutil.copytree(plain, folder)
    if text == "VERSIONS":
        text = json.dumps(json.loads((folder / "run.json").read_text()) | {"versions": "x"})
    (folder / "run.json").write_text(text)
    assert main_error(capsys, ["replay", "--run", folder, "--deal", "3"], said).startswith(f"error: {folder}/run.json")


def test_a_rate_null_on_later_rows_of_a_precision_run_keeps_its_chunks_as_nan_does(tmp_path, monkeypatch, capsys,
                                                                                    small_chunks):
    # failed before: the tally read the nulls as "no", the run stopped by that and was written
    # finished (2,144 deals of 1e5, exit 2 with the rate's error, exit 0 with -q), where the rate
    # once fixed stops the same run at 2,400 (its level rate the widest); a finished run has nothing
    # to resume, so the run of the fixed rate had to be played again from the start
    analysed(tmp_path, monkeypatch, "nully", "null_rates", LATE.replace('float("nan")', "None"))
    out = tmp_path / "r"
    main_error(capsys, ["run", "--game", "nully", *PRECISE, "--out", out],
               "game 'nully' has a rate 'level' that cannot be computed on its results: it is null on ",
               "; 3 finished chunks are kept, the run unfinished")
    assert list(chunk_files(out)) == [f"seats-00000{i}.parquet" for i in range(3)]
    no_result(out)
