"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play"):
a strategy that may not use some option a designer asks about, such as never upgrading.

A :class:`Restriction` is declared next to its game's strategies (``RESTRICTIONS`` in
``strategies/<game>.py``). A line-up writes a restricted strategy as ``STRATEGY~RESTRICTION``,
several as ``STRATEGY~a~b``, after any strategy: a built-in, one with parameters
(``pimc@samples=8~no-upgrade``) or a plugin (``my.py:bot~no-upgrade``). The ``~`` pieces apply
to the whole entry.

The wrapped strategy is asked with its view narrowed (:meth:`simtool.engine.View.narrow`): at a
decision a restriction governs, its legal sets hold only the options the restriction allows.
Where a restriction allows none of the legal options it cannot bind, and that deal keeps the
legal set it had. The narrowing reads only the view, so the strategy learns nothing it could not
see; a legal choice outside the restriction (from a strategy that does not read ``view.legal``)
becomes the lowest option the restriction allows. The view also names the restrictions
(``view.restrictions``), so that a search (``pimc``) imagines its own later moves restricted as
well, not only its real ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simtool import bits
from simtool.errors import NotForGame, SimtoolError, choices, shown

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
"""A restriction's name: no ``/``, ``:``, ``.`` or ``@``, so never a piece of a plugin path or
of parameters."""


@dataclass(frozen=True)
class Restriction:
    """``allowed(view)``: the options this restriction allows at the decisions ``kinds``, ``(m,)``
    uint64 sets; ``description``: one line for listings; ``doing``: the restricted play as a
    gerund for report sentences ("never upgrading")."""

    name: str
    description: str
    doing: str
    kinds: tuple[str, ...]
    allowed: Callable[..., np.ndarray]


def restriction(name: str, description: str, doing: str, kinds: tuple[str, ...]):
    """Decorator that turns ``allowed(view) -> sets`` into a :class:`Restriction`."""

    def wrap(allowed):
        return Restriction(name, description, doing, tuple(kinds), allowed)

    return wrap


def of_game(game_id: str) -> dict[str, Restriction]:
    """The restrictions declared for ``game_id``, by name, in declaration order."""
    import strategies

    return {r.name: r for r in strategies.RESTRICTIONS.get(game_id, ())}


def split(spec: str) -> tuple[str, list[str]]:
    """``target@under=1~no-upgrade~pass-high`` as the strategy entry and its restriction names.

    Restrictions are the trailing ``~NAME`` pieces; a piece that cannot be a restriction's name
    (it holds ``/``, ``:``, ``.``) ends them, so a plugin path with a ``~`` in it (``~/bots.py:x``)
    stays a path. An empty piece is an error."""
    pieces = spec.split("~")
    name, at, _ = pieces[-1].partition("@")
    if len(pieces) > 1 and at and NAME.fullmatch(name.strip()):
        raise SimtoolError(f"bad strategy {spec!r}: parameters go before the restrictions, as in "
                           f"target@under=1~no-upgrade")
    names: list[str] = []
    while len(pieces) > 1 and (not pieces[-1].strip() or NAME.fullmatch(pieces[-1].strip())):
        name = pieces.pop().strip()
        if not name:
            raise SimtoolError(f"bad strategy {spec!r}: empty restriction after a '~'; expected "
                               f"STRATEGY~RESTRICTION, such as target~no-upgrade")
        names.insert(0, name)
    head = "~".join(pieces)
    if names and not head.strip():
        raise SimtoolError(f"bad strategy {spec!r}: no strategy before the '~'; expected "
                           f"STRATEGY~RESTRICTION, such as target~no-upgrade")
    return head, names


def check(names: list[str], game_id: str) -> list[Restriction]:
    """The restrictions ``names`` for ``game_id`` in declaration order (so that ``~a~b`` and
    ``~b~a`` are one strategy, one name), or a one-line error naming the valid ones."""
    import strategies

    own = of_game(game_id)
    valid = choices(own) or "none"
    for name in names:
        if name not in own:
            elsewhere = [g for g, rs in strategies.RESTRICTIONS.items() if name in {r.name for r in rs}]
            if elsewhere:  # another game's: a sweep of several games skips this one's cells
                raise NotForGame(f"restriction {shown(name)} is for {choices(elsewhere)}, not {game_id}; "
                                 f"valid for {game_id}: {valid}")
            raise SimtoolError(f"restriction {shown(name)} is unknown for {game_id}; valid for {game_id}: {valid}")
        if names.count(name) > 1:
            raise SimtoolError(f"restriction '{name}' given twice; give each restriction once")
    found = [r for r in own.values() if r.name in names]
    # two at one kind of decision: where they disagree the second cannot bind (Black & White's
    # higher-colour and lower-colour, never both, played as the first alone under both names)
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if shared := [k for k in a.kinds if k in b.kinds]:
                raise SimtoolError(f"restrictions '{a.name}' and '{b.name}' both restrict the '{shared[0]}' "
                                   f"decision of {game_id}: where they disagree only '{a.name}' would bind; "
                                   f"give one of them")
    return found


def wrap(inner, found: list[Restriction], game_id: str):
    """``inner`` (a Strategy) playing under the restrictions ``found``."""
    from .base import Strategy

    suffix = "".join(f"~{r.name}" for r in found)
    # ismcts runs pimc's search under restrictions, which reports the seat's standing as pimc's does
    return Strategy(inner.name + suffix, Restricted(inner, tuple(found)),
                    f"{inner.description}; restricted: " + "; ".join(r.description for r in found),
                    (game_id,), inner.origin, cost=_Cost(inner.relative_cost()),
                    reports="always" if inner.reports else None)


@dataclass(frozen=True)
class _Cost:
    """The wrapped strategy's work per deal: a restriction adds none (a plain class, so that a
    restricted strategy pickles as its parts do)."""

    value: float

    def __call__(self, params) -> float:
        return self.value


@dataclass(frozen=True)
class Restricted:
    """The choice function of a restricted strategy (see the module's docstring). ``seat``: bind
    only where that seat acts (a search's play-outs restrict the searching seat alone)."""

    inner: object
    restrictions: tuple[Restriction, ...]
    seat: int | None = None

    def __call__(self, view, rng) -> np.ndarray:
        # a search plays its own imagined later moves under the same restrictions (strategies.pimc);
        # bound to one seat, only a view wholly of that seat is restricted
        if self.seat is None or (view.seat == self.seat).all():
            view.restrictions = (*view.restrictions, *(r.name for r in self.restrictions))
        governing = [r for r in self.restrictions if view.kind in r.kinds]
        if not governing:  # nothing to narrow at this decision: the inner strategy as it is
            return self.inner(view, rng)
        legal = view.legal.copy()
        allowed = legal
        for r in governing:
            kept = allowed & np.asarray(r.allowed(view), np.uint64)
            allowed = np.where(kept != 0, kept, allowed)  # it cannot bind: legal as it was
        if self.seat is not None:
            allowed = np.where(view.seat == self.seat, allowed, legal)
        view.narrow(allowed)
        picked = np.asarray(self.inner(view, rng))
        if picked.dtype == np.bool_:  # options 0 and 1, as the engine reads them: left as they
            picked = picked.astype(np.int64)  # were, a colour given as booleans was never restricted
        if picked.shape != legal.shape or not np.issubdtype(picked.dtype, np.integer):
            return picked  # malformed: the engine's own check names the strategy
        # a heuristic that answers a two-way choice without reading view.legal (a colour, a
        # decline) still plays restricted: its legal pick outside the restriction becomes the
        # lowest allowed option. An illegal pick is left for the engine to report.
        bit = bits.BIT[np.clip(picked, 0, 63)]
        swap = (picked >= 0) & (picked < 64) & ((legal & bit) != 0) & ((allowed & bit) == 0)
        return np.where(swap, bits.lowest(allowed), picked)


def restricted_name(spec: str, game_id: str) -> tuple[str, list[Restriction]]:
    """The strategy entry of ``spec`` and its restrictions, checked (see :func:`split`)."""
    head, names = split(spec)
    return head, check(names, game_id) if names else []

