"""Modules imported on the first read of one of their attributes, not by ``import``.

``simtool run`` forks its workers before it makes its first table. With polars deferred
(0.12-0.15 s of import), the command's process loads it after the fork, while the workers
already play: the serial start of a run is that much shorter. The command line defers
polars before importing the rest of simtool; the Python API imports it as usual.
"""

from __future__ import annotations

import importlib
import sys
import types


class _Deferred(types.ModuleType):
    """Stands for a module in ``sys.modules`` until an attribute of it is first read.

    ``import name`` finds it and binds it as it is (it reads nothing but ``__spec__``, which is
    None here); the first attribute read imports the real module, which takes its place in
    ``sys.modules``, and this stand-in answers from the real module's attributes from then on.
    """

    def __getattr__(self, attr: str):
        real = sys.modules.get(self.__name__)
        if real is self:
            del sys.modules[self.__name__]
            try:
                real = importlib.import_module(self.__name__)
            except BaseException:
                sys.modules[self.__name__] = self
                raise
            self.__dict__.update(real.__dict__)
        return getattr(real, attr)


def defer(name: str) -> None:
    """Import ``name`` when one of its attributes is first read (unless it is imported already)."""
    if name not in sys.modules:
        sys.modules[name] = _Deferred(name)


def load(name: str) -> types.ModuleType:
    """The module ``name``, imported now whether it was deferred or not."""
    module = importlib.import_module(name)  # a deferred one is found as it stands in sys.modules
    if isinstance(module, _Deferred):
        getattr(module, "__file__")  # noqa: B009 - its first read imports the real module
        module = sys.modules[name]
    return module
