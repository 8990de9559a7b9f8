"""Modules imported on the first read of one of their attributes, not by ``import``.

The command line defers polars (0.12-0.15 s of import) before importing the rest of simtool;
the Python API imports it as usual. A command that never makes or reads a table (``--help``,
``games``, a usage error) never loads it. ``simtool run`` loads it just before it forks its
workers (:func:`simtool.pipeline.forked.polars_forks`), which then share it and make the
tables; its own process makes none, and reads polars' version for ``run.json`` without it.
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
