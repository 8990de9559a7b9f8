"""A plugin whose own thread calls ``os._exit`` or ``os.abort`` while it plays or is imported in
simtool's own process (``--jobs 1``) stops the run with one line naming it (docs/trust.md), as
its own call does (tests/test_exitguard.py): before, the thread ended ``simtool run`` silently,
exit status 0, its ``--out`` holding ``chunks/`` alone. Each test failed on the code before the fix."""

from __future__ import annotations

from .test_exitguard import no_result
from .test_hardening_round21 import one_line, simtool

THREAD = "import os, threading\n\n\ndef x(view, rng):\n    t = threading.Thread(target=lambda: os._exit(0))\n" \
         "    t.start()\n    t.join()\n    return 0\n"


def test_a_plugins_thread_calling_os_exit_as_it_plays_is_one_line(tmp_path):
    (tmp_path / "threads.py").write_text(THREAD)
    out = tmp_path / "r"
    r = simtool("run", "--game", "black-white", "--n", "100", "--seat", "0=threads.py:x", "--jobs", "1",
                "--out", out, cwd=tmp_path)
    one_line(r, "strategy 'threads.py:x' called os._exit(0) in a thread it started", "decision 'lead'",
             "never end its process")
    no_result(out)


def test_a_plugins_thread_calling_os_abort_at_import_is_one_line(tmp_path):
    (tmp_path / "aborts.py").write_text("import os, threading\n\nt = threading.Thread(target=os.abort)\nt.start()\n"
                                        "t.join()\n\n\ndef x(view, rng):\n    return 0\n")
    out = tmp_path / "r"
    r = simtool("run", "--game", "black-white", "--n", "100", "--seat", "0=aborts.py:x", "--jobs", "1",
                "--out", out, cwd=tmp_path)
    one_line(r, "strategy plugin aborts.py, as it was imported, called os.abort() in a thread it started")
    no_result(out)
