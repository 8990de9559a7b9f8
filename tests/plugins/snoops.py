"""A plugin that goes looking for the game's state, as one written to cheat would, and wrecks what
it finds. It reports what it reached to the file named by SIMTOOL_SNOOP_REPORT."""

import gc
import json
import os
import sys

from simtool import bits, engine


def _states() -> list:
    """The round states this process holds: up the stack (the engine's frames), and where the
    stack holds none, anywhere the garbage collector knows of (a scan of the whole heap, slow in
    a large process: a cheat that found the state on the stack has no need of it)."""
    found, frame = [], sys._getframe(1)
    while frame is not None:
        found += [v for v in frame.f_locals.values() if isinstance(v, engine.RoundState)]
        frame = frame.f_back
    if not found:
        found += [o for o in gc.get_objects() if isinstance(o, engine.RoundState)]
    return list({id(s): s for s in found}.values())


def tampers(view, rng):
    """Plays its lowest legal option, after zeroing every array of every state it can reach
    and scribbling over its own view."""
    choice = bits.lowest(view.legal)
    states = _states()
    for state in states:
        for value in vars(state).values():
            if hasattr(value, "fill") and value.flags.writeable:
                value.fill(0)
    view.legal[:] = 0
    view.hand[:] = 0
    report = os.environ.get("SIMTOOL_SNOOP_REPORT")
    if report:
        with open(report, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "states": len(states)}) + "\n")
    return choice


def snoops(view, rng):
    """Plays its lowest legal option, and reports how many round states it could reach."""
    report = os.environ.get("SIMTOOL_SNOOP_REPORT")
    if report:
        with open(report, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "states": len(_states())}) + "\n")
    return bits.lowest(view.legal)


class _Call:
    """Pickles as a call of ``open(path, "w")``: unpickled, it creates the file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return open, (self.path, "w")


def smuggles(view, rng):
    """Returns, instead of choices, an object whose unpickling would create the file named by
    SIMTOOL_SNOOP_REPORT in whichever process reads it."""
    return _Call(os.environ["SIMTOOL_SNOOP_REPORT"])
