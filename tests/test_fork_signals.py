"""A process a plugin forks (a multiprocessing pool) ends on SIGTERM as any process does: it
inherited the command's handler, raised KeyboardInterrupt where ``Pool.terminate()`` meant to end
it, sometimes inside the lock of the pool's queue, and the run hung as the plugin was imported
(test_rev14e's pool plugin: 3 of 40 runs at load 5)."""

import subprocess
import sys

PLUGIN = '''
import multiprocessing
import time

from simtool import bits

process = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
process.start()
time.sleep(0.2)
process.terminate()
process.join(30)
with open("exitcode.txt", "w") as f:
    f.write(str(process.exitcode))


def play(view, rng):
    return bits.lowest(view.legal)
'''


def test_a_process_a_plugin_forks_ends_on_sigterm(tmp_path):
    (tmp_path / "forks.py").write_text(PLUGIN)
    r = subprocess.run([sys.executable, "-c", "import sys; from simtool.cli import main; sys.exit(main())",
                        "run", "--game", "black-white", "--n", "20", "--seed", "1", "--jobs", "1", "-q",
                        "--seat", "0=forks.py:play", "--out", "out"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    # before: 1 (KeyboardInterrupt raised by simtool's handler in the child, a traceback on stderr)
    assert (tmp_path / "exitcode.txt").read_text() == "-15"
    assert "KeyboardInterrupt" not in r.stderr
