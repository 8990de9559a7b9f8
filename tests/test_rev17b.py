"""Review of hostile round 17 (rev17b): each test failed on the code before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, *flags: str, args: tuple = (), env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    environ = dict(os.environ if env is None else env)
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, *flags, "-c", code, *args], env=environ, timeout=120, **kw)


def test_the_commands_own_output_stays_unbuffered_under_python_u():
    # before: under `python -u` (or PYTHONUNBUFFERED) the command's stdout, moved to a descriptor of
    # its own (c2bebb1), was block-buffered: "b\na\nc\n" in `2>&1`, its lines held back to the end
    code = ("import sys; from simtool.cli import _results_apart; _results_apart(); "
            "print('a'); print('b', file=sys.stderr); print('c')")
    done = _python(code, "-u", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert done.stdout == "a\nb\nc\n"


def test_output_to_a_full_disk_is_one_line_not_a_traceback(tmp_path):
    # before (without PYTHONUNBUFFERED): `simtool --version > /dev/full` printed its error line,
    # then a traceback from main's last flush, exit status 120; bare `simtool`: a traceback alone
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    for args in (["--version"], ["--help"], []):
        with open("/dev/full", "w") as full:
            done = _python("import sys; sys.argv[0] = 'simtool'; from simtool.cli import main; sys.exit(main())",
                           args=tuple(args), env=env, stdout=full, stderr=subprocess.PIPE, text=True)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr == "error: No space left on device\n", args


WRAPS = '''
import numpy as np
from strategies import strategy

@strategy("wraps", "catches numpy's failed allocation and raises its own MemoryError from it")
def wraps(view, rng):
    try:
        return np.zeros(10**15)
    except MemoryError as exc:
        raise MemoryError("no room for my table") from exc
'''


def test_a_failed_allocation_raised_again_as_a_new_memory_error_is_the_machines(tmp_path):
    # before (5c08302): "strategy 'wraps.py:wraps' raised MemoryError: no room for my table", exit 2,
    # as for a plugin's bug, though the machine's memory ran out and fewer --jobs is the cure
    import simtool
    from simtool.errors import OutOfMemory

    (tmp_path / "wraps.py").write_text(WRAPS)
    with pytest.raises(OutOfMemory, match="out of memory while strategy 'wraps.py:wraps' chose"):
        simtool.run("black-white", n=30, seed=1, jobs=1, seats={0: f"{tmp_path / 'wraps.py'}:wraps"})


def test_a_run_folder_whose_chunks_is_a_link_is_refused_for_that_first(tmp_path):
    # before: simtool run --out RUN (no --force), RUN/chunks a link to a folder holding a spec:
    # "output folder RUN holds an interrupted run; finish it with --resume RUN, or replace it with
    # --force", and each of the two was then refused for the link
    import simtool
    from simtool.errors import SimtoolError

    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "spec.json").write_text("{}")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "chunks").symlink_to("../user")
    with pytest.raises(SimtoolError, match=r"chunks is a link to \.\./user: .*remove the link"):
        simtool.run("black-white", n=20, seed=1, jobs=1, strategy="random", out=tmp_path / "run")
    assert (tmp_path / "user" / "spec.json").read_text() == "{}"


ODD_NAME = '''
from strategies import strategy

class Meta(type):
    @property
    def __name__(cls):
        raise SystemExit(3)

class Odd(Exception, metaclass=Meta):
    pass

@strategy("odd", "raises an exception whose class's name raises SystemExit")
def odd(view, rng):
    raise Odd("boom")
'''


def test_a_plugin_exception_whose_class_name_raises_system_exit_is_named_not_obeyed(tmp_path):
    # before: bfa4918 caught a message (__str__) raising SystemExit, not a metaclass's __name__:
    # `simtool run --seat 0=odd.py:odd` ended with exit status 3 and not a word, at any --jobs
    import simtool
    from simtool.errors import SimtoolError

    (tmp_path / "odd.py").write_text(ODD_NAME)
    with pytest.raises(SimtoolError, match=r"strategy 'odd.py:odd' raised Odd: boom \(decision 'lead'"):
        simtool.run("black-white", n=20, seed=1, jobs=1, seats={0: f"{tmp_path / 'odd.py'}:odd"})
