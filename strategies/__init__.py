"""Built-in strategies, the plugin interface, and how a line-up name becomes a strategy.

A name is one of: a built-in (``simtool strategies`` lists them), a strategy
installed under the ``simtool.strategies`` entry-point group, or a plugin file
``path/to/file.py:name`` where ``name`` is a :class:`Strategy` or a plain
``choose(view, rng)`` function in that file.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.metadata import entry_points
from pathlib import Path

from simtool.errors import SimtoolError, choices, describe

from . import basic, black_white, kansas_city, nine_lives, out_trumped, trickster
from .base import Strategy, strategy

BUILT_IN: tuple[Strategy, ...] = (
    basic.random, basic.high, basic.low, black_white.balance, black_white.duck,
    kansas_city.target, kansas_city.greedy, trickster.safe, trickster.spoiler,
    out_trumped.hoarder, out_trumped.tricks, nine_lives.exact, nine_lives.team,
)

__all__ = ["Strategy", "strategy", "registry", "resolve", "BUILT_IN"]


def registry(game_id: str | None = None) -> dict[str, Strategy]:
    """Every named strategy (built-in and installed), optionally only those that play ``game_id``."""
    found = {s.name: s for s in BUILT_IN}
    for ep in entry_points(group="simtool.strategies"):
        if ep.name not in found:
            found[ep.name] = _as_strategy(ep.load(), ep.name, f"entry point {ep.value}")
    return {k: s for k, s in found.items() if game_id is None or s.plays(game_id)}


def resolve(spec: str, game_id: str) -> Strategy:
    """The strategy named by ``spec`` for ``game_id``, or a one-line error."""
    path, sep, attr = spec.rpartition(":")
    if sep and (path.endswith(".py") or "/" in path):
        found = _load_plugin(Path(path), attr)
    else:
        known = registry()
        if spec not in known:
            valid = choices(sorted(registry(game_id)))
            raise SimtoolError(
                f"unknown strategy '{spec}'; valid for {game_id}: {valid}, or a plugin FILE.py:NAME"
            )
        found = known[spec]
    if not found.plays(game_id):
        raise SimtoolError(
            f"strategy '{found.name}' plays {choices(found.games)}, not {game_id}; "
            f"valid for {game_id}: {choices(sorted(registry(game_id)))}"
        )
    return found


def _load_plugin(path: Path, attr: str) -> Strategy:
    if not path.is_file():
        raise SimtoolError(f"strategy plugin file not found: {path}")
    module_name = f"simtool_plugin_{abs(hash(str(path.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # even SystemExit: a plugin must not end simtool silently
            raise SimtoolError(f"strategy plugin {path} failed to load: {describe(exc)}") from None
        sys.modules[module_name] = module
    if not hasattr(module, attr):
        names = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
        raise SimtoolError(f"no strategy '{attr}' in {path}; it defines: {choices(names) or 'nothing callable'}")
    return _as_strategy(getattr(module, attr), attr, str(path))


def _as_strategy(obj, name: str, origin: str) -> Strategy:
    if isinstance(obj, Strategy):
        return obj
    if not callable(obj):
        raise SimtoolError(f"strategy '{name}' in {origin} is not a function choose(view, rng)")
    doc = (obj.__doc__ or "").strip().splitlines()
    return Strategy(name, obj, doc[0] if doc else f"plugin from {origin}", None, origin)
