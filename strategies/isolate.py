"""``--isolate``: a plugin strategy played in a process of its own that receives only its views.

A plugin playing in simtool's process is trusted code, as a pytest plugin is (docs/trust.md):
simtool hands it copies and checks its choices, but code bent on it could walk the interpreter's
frames to the game. An isolated plugin runs in a fresh Python process, started with
``subprocess`` and not forked, so that it holds nothing of the run (no round state, no seed).
For each decision it receives a copy of the view's fields and the state of the generators it may
draw from (its ``rng``, numpy's and Python's global ones), and sends back its choices and the
generators' new state: the run's results are those of the same run played in-process, and
nothing it does in its process reaches the game. Its choices are checked as any strategy's.
"""

from __future__ import annotations

import io
import os
import pickle
import random
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, replace
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np

from simtool.engine import ViewFailed
from simtool.errors import COMMAND_LINE, NotForGame, SimtoolError, describe

from .base import STRATEGY, Param, Params, Strategy, file_identity


def described(entry: str, game_id: str, file: Path | None) -> Strategy:
    """The plugin named by the line-up ``entry`` (without restrictions, from ``file``) for
    ``game_id``, played in a process of its own. That process imports it, parses and checks its
    parameters, and sends its description back as plain values (:func:`describe_strategy`): its
    module never runs in this process. Its errors are the one-line errors of the plugin loaded
    here."""
    remote = _Remote(entry, game_id, None if file is None else str(file), identity=file_identity(file))
    import strategies

    if file is not None and strategies.stale_imports(Path(file)):
        # a helper of its own edited since its process imported it (a notebook's next run): that
        # process played the old one, and the run was refused for the helper's record
        for child in [c for k, c in _CHILDREN.items() if k[2] == str(file) and k[3] == os.getpid()]:
            _end(child)
    about = _child(remote).about
    try:
        return _from_description(about, remote)
    except (KeyError, TypeError, ValueError) as exc:  # an untrusted process's reply: checked
        raise SimtoolError(f"isolated strategy {entry} could not start: its process sent no "
                           f"description ({describe(exc)})") from None


KINDS = {"int": int, "float": float, "str": str, STRATEGY: STRATEGY}
"""A parameter's kind as it travels (a type would need a pickle that names a class)."""


def describe_strategy(found: Strategy) -> dict:
    """``found`` (parameters given) as plain values: what a run asks of a strategy besides its
    choices: its name, games, parameters and their values, cost, whether it offers a belief."""
    return {"name": found.name, "description": found.description, "origin": found.origin,
            "games": None if found.games is None else list(found.games),
            "params": [[p.name, p.kind if p.kind == STRATEGY else p.kind.__name__, p.default, p.help,
                        p.low, p.high, None if p.values is None else list(p.values),
                        [list(pair) for pair in p.by_game]] for p in found.params],
            "values": None if found.values is None else found.values.as_dict(),
            "cost": found.relative_cost(), "belief": hasattr(found.choose, "redeal"), "label": found.label}


def _from_description(about: dict, remote: _Remote) -> Strategy:
    params = tuple(Param(name, KINDS[kind], default, str(help_), low, high,
                         None if values is None else tuple(map(str, values)),
                         tuple((str(g), v) for g, v in by_game))
                   for name, kind, default, help_, low, high, values, by_game in about["params"])
    games = about["games"]
    cost = float(about["cost"])
    return Strategy(str(about["name"]), replace(remote, belief=bool(about["belief"])),
                    str(about["description"]), None if games is None else tuple(map(str, games)),
                    str(about["origin"]), params, None if about["values"] is None else Params(dict(about["values"])),
                    cost=partial(_fixed, cost), label=None if about["label"] is None else str(about["label"]))


def _fixed(cost: float, params) -> float:
    """A cost the plugin's process computed for the parameters given."""
    return cost


class RemoteError(Exception):
    """What an isolated plugin raised, named as it named it (``ValueError: my bug``)."""


@dataclass(frozen=True)
class _Remote:
    """A plugin's ``choose``, called in its process: the view's fields go out, choices come back."""

    entry: str
    game_id: str
    file: str | None
    isolated = True  # what a search asks before it would use the plugin's belief (pimc@infer)
    belief: bool = False  # whether the plugin offers one (choose.redeal), which isolated it cannot
    identity: tuple = ()  # the plugin file as described (see file_identity): its process plays that

    def __call__(self, view, rng, params=None) -> np.ndarray:  # params: the plugin's own copy has them
        fields = type(view).fields()
        # what the view holds now (its kind, seats, legal sets, the public rules a game's view
        # keeps, fields already read), not the engine's links; the rest of its fields go only when
        # the plugin reads them, as a strategy in-process pays only for what it reads
        given = {k: v for k, v in vars(view).items() if k not in ("_game", "_resolve")}
        child = _child(self)
        # and the fields it has asked for at this kind of decision before, with the call: a
        # heuristic reads the same ones every time, and each question is a round trip
        read = child.reads.setdefault(view.kind, set())
        given |= {name: getattr(view, name) for name in read}
        try:
            child.send((given, rng.bit_generator.state, np.random.get_state(), random.getstate()))
            while (reply := child.receive())[0] == "field":
                if reply[1] in fields:  # the only names this side reads for it
                    read.add(reply[1])
                child.send(getattr(view, reply[1]) if reply[1] in fields else None)
        except BaseException:  # a timeout or Ctrl-C mid-call: the process is out of step, end it
            _end(child)
            raise
        if reply[0] == "raised":  # named as the plugin named it, in one word: the error is one line
            raise type(re.sub(r"\W", "", reply[1])[:80] or "Exception", (RemoteError,), {})(reply[2])
        if reply[0] == "view":  # the game's view class raised there, as it would have here
            raise ViewFailed(reply[1][:200], reply[2][:2000])
        choices, rng.bit_generator.state, numpy_state, python_state = reply[1:]
        np.random.set_state(numpy_state)
        random.setstate(python_state)
        return choices


class _Child:
    def __init__(self, key: tuple):
        self.key = key
        down_read, down_write = os.pipe()  # to the plugin's process
        up_read, up_write = os.pipe()  # from it
        # its sys.path is this one's, so that simtool and the plugins import there as here
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"from strategies.isolate import serve; serve({down_read}, {up_write})"],
            pass_fds=(down_read, up_write), env=env,
            # nothing of the terminal: an untrusted plugin cannot print forged results among the
            # run's, nor leave a process behind holding its output open (a pipeline would hang)
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(down_read)
        os.close(up_write)
        self.down, self.up = Connection(down_write, readable=False), Connection(up_read, writable=False)
        self.reads: dict[str, set[str]] = {}  # the fields it asked for, by kind of decision
        self.about: dict = {}  # its description, sent once loaded

    def send(self, message) -> None:
        try:
            self.down.send(message)
        except OSError:  # it has ended: receive says how
            pass

    def receive(self) -> tuple:
        """The plugin's next message: ``("ready", DESCRIPTION)`` once loaded (or ``("refused",
        ERROR)``, ``("not for game", ERROR)``), ``("field", NAME)``, ``("ok",
        choices, *generator states)``, ``("raised", TYPE, MESSAGE)`` or ``("view", CLASS, MESSAGE)``
        (the game's view code failed there); anything else, or its process's end, as ``raised``."""
        try:
            data = self.up.recv_bytes()
        except (EOFError, OSError):
            code = self.process.wait()
            how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
            _end(self)
            return ("raised", "ProcessEnded", f"its isolated process ended ({how}); a plugin must "
                    f"return, never end its process")
        try:
            reply = _Replies(io.BytesIO(data)).load()
        except Exception as exc:  # noqa: BLE001 - whatever it sent, the run says so in one line
            return ("raised", "BadReply", f"its process sent something other than choices: {describe(exc)}")
        shapes = {"ready": (2, dict), "refused": (2, str), "not for game": (2, str), "field": (2, str),
                  "ok": (5, object), "raised": (3, str), "view": (3, str)}
        shape = shapes.get(reply[0]) if isinstance(reply, tuple) and reply else None
        if shape is None or len(reply) != shape[0] or not all(isinstance(x, shape[1]) for x in reply[1:]):
            return ("raised", "BadReply", "its process sent something other than choices")
        return reply


class _Replies(pickle.Unpickler):
    """Reads what a plugin's process sends: plain values and numpy arrays only. A pickle may call
    any function it names, so one from an untrusted process could run its code here."""

    SAFE = {(f"numpy.{core}.{module}", name) for core in ("core", "_core")
            for module, name in (("numeric", "_frombuffer"), ("multiarray", "_reconstruct"),
                                 ("multiarray", "scalar"))} | {("numpy", "ndarray"), ("numpy", "dtype")}

    def find_class(self, module: str, name: str):
        if (module, name) not in self.SAFE:
            raise pickle.UnpicklingError(f"{module}.{name} is not a value")
        return super().find_class(module, name)


_CHILDREN: dict[tuple, _Child] = {}
"""The isolated plugins' processes this process started, by plugin, game, process id and file version (a
forked worker starts its own: it must not talk on its parent's pipes)."""


def _child(remote: _Remote) -> _Child:
    entry, game_id, file = remote.entry, remote.game_id, remote.file
    key = (entry, game_id, file, os.getpid(), remote.identity)
    child = _CHILDREN.get(key)
    if child is None:
        for stale in [c for k, c in _CHILDREN.items() if k[:4] == key[:4]]:  # the file's older version
            _end(stale)
        child = _CHILDREN[key] = _Child(key)
        import strategies

        child.send((entry, game_id, file, strategies.IMPORT_LIMIT.get(), COMMAND_LINE.get()))
        reply = child.receive()
        if reply[0] == "refused":  # the one-line error it would have been in this process
            _end(child)
            raise SimtoolError(reply[1][:2000])
        if reply[0] == "not for game":  # a sweep of several games skips the cells a plugin does not play
            _end(child)
            raise NotForGame(reply[1][:2000])
        if reply[0] != "ready":
            _end(child)
            raise SimtoolError(f"isolated strategy {entry} could not start: {reply[2]}")
        child.about = reply[1]
        if isinstance(child.about, dict):
            strategies.imports_reported(child.about.get("imports"))
    return child


def _end(child: _Child) -> None:
    _CHILDREN.pop(child.key, None)
    child.process.kill()
    child.process.wait()
    child.down.close()
    child.up.close()


def serve(down: int, up: int) -> None:
    """The isolated process: load the plugin, then answer each view with its choices, until the
    run's process closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the run's to handle; it ends this
    receive, reply = Connection(down, writable=False), Connection(up, readable=False)
    import strategies
    from simtool import engine, games

    engine.elsewhere()  # its plugin's os._exit ends it, for the run's process to report
    entry, game_id, file, limit, command_line = receive.recv()
    COMMAND_LINE.set(command_line)  # its errors name options as the run's own would
    try:
        # the run's --timeout covers the import here as in its own process (an import that slept
        # for ever hung an --isolate run before its first deal); what the import set for its play
        # stays set, in this process of its own
        with strategies.importing_within(limit), strategies.import_settings() as settings:
            strategy = strategies.resolve(entry, game_id, None if file is None else Path(file))
        for setting in settings:
            setting.apply()
        game = games.get(game_id)
        # what the plugin imported of the user's own, for the run's record (never imported there)
        about = {**describe_strategy(strategy), "imports": strategies.imports_sent()}
    except SimtoolError as exc:  # a bad parameter, a name the file lacks, its import raising
        reply.send(("not for game" if isinstance(exc, NotForGame) else "refused", str(exc)))
        return
    except BaseException as exc:  # noqa: BLE001 - the run's process says it in one line
        # named by its type too: a bare `raise ValueError()` has no message ("could not start: ")
        reply.send(("raised", type(exc).__name__, describe(exc)))
        return
    reply.send(("ready", about))
    remote, rng, pid = _remote_view(game, receive, reply), None, os.getpid()
    while True:
        try:
            given, rng_state, numpy_state, python_state = receive.recv()
        except (EOFError, OSError):
            # the run has ended: so does this process, now, whatever threads the plugin left
            # running (a return would wait for them: an orphan holding the run's stdout for as
            # long as they last, hanging `simtool run ... | tee log`)
            os._exit(0)
        view = remote.__new__(remote)
        vars(view).update(given, _game=game, _resolve=strategies.resolve)
        if rng is None or rng.bit_generator.state["bit_generator"] != rng_state["bit_generator"]:
            rng = np.random.Generator(getattr(np.random, rng_state["bit_generator"])())
        rng.bit_generator.state = rng_state
        np.random.set_state(numpy_state)
        random.setstate(python_state)
        remote.deciding = view
        try:
            # read as an array here, as the engine reads an answer in the run's process: a
            # masked array, refused as no value when sent, played its values there
            message = ("ok", np.asarray(strategy(view, rng)), rng.bit_generator.state, np.random.get_state(),
                       random.getstate())
        except BaseException as exc:  # noqa: BLE001 - even SystemExit: the run names the plugin
            text = describe(exc)
            where = engine.views_own(game.View, exc)  # the game's own view code, run here: the game's error
            message = ("view", where, text) if where else \
                ("raised", type(exc).__name__, text.partition(": ")[2] if ": " in text else "")
        remote.deciding = None
        if os.getpid() != pid:  # a copy the plugin forked: the pipe is not its own
            os._exit(1)
        try:
            reply.send(message)
        except Exception as exc:  # noqa: BLE001 - choices that do not pickle
            reply.send(("raised", "TypeError", f"its choices could not be sent back: {describe(exc)}"))


def _remote_view(game, receive: Connection, reply: Connection) -> type:
    """The game's View class in the isolated process: a field the plugin reads is asked of the
    run's process, which reads it from the engine's view, only while the plugin decides."""

    class Asked:
        def __init__(self, name: str):
            self.name = name

        def __get__(self, view, owner=None):
            if view is None:
                return self
            if remote.deciding is not view:
                raise AttributeError(f"view field '{self.name}' was not read while the strategy "
                                     f"decided; a view expires when its decision is made")
            reply.send(("field", self.name))
            value = vars(view)[self.name] = receive.recv()
            return value

    fields = {name: Asked(name) for name in game.View.fields()}
    remote = type(game.View.__name__, (game.View,), {**fields, "deciding": None, "__module__": __name__})
    return remote
