"""Errors a user can cause and fix: the CLI prints them as one line and exits 2."""


class SimtoolError(Exception):
    """Bad input or a misbehaving plugin; the message names the problem and the valid choices."""


class StrategyError(SimtoolError):
    """A strategy raised, or returned something that is not a legal choice."""


class WorkerLost(SimtoolError):
    """A worker process ended while playing built-in strategies only (the system ran out of
    memory, or someone killed it): nothing was wrong with the run, so its finished chunks are
    worth keeping for ``--resume``."""


class OutOfMemory(WorkerLost):
    """The run ran out of memory: the machine's limit, not the run's fault, so its finished chunks
    are kept for ``--resume`` as for a worker the system killed."""


def choices(values) -> str:
    return ", ".join(str(v) for v in values)


def describe(exc: BaseException) -> str:
    """``Type: message`` on one line, even for an exception whose ``str`` fails."""
    try:
        text = " ".join(str(exc).split())
    except Exception:
        text = "(an exception whose message cannot be printed)"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
