"""The game-agnostic engine: a batch of deals advances in lockstep, one decision at a time.

A game is a :class:`Game` whose :meth:`Game.play` is a generator. It yields a
:class:`Decision` (who acts in each deal, and the set of legal options), and
receives the chosen options back as an array. The engine asks the seats'
strategies, checks every choice is legal and sends them in. Simultaneous
decisions (every seat at once, as in passing or hidden bids) are one Decision
with ``seat=None``: each seat chooses without seeing the others' choices.

Strategies only ever see a :class:`View`: the acting seat's knowledge, which
the game defines by subclassing View.
"""

from __future__ import annotations

import abc
import dataclasses
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache, wraps
from typing import Any

import numpy as np

from . import bits, deck
from .arguments import option
from .errors import (
    GameError,
    OutOfMemory,
    SimtoolError,
    StrategyError,
    by_the_user,
    describe,
    put_back_stop_handlers,
    stop_handlers,
    thrown,
)

ROUND_CAP = 200
"""Safety cap on the rounds of one match (every page of docs/rules, **Common rules**)."""

RESULTS = {"score": np.int16, "tricks": np.int8}
"""The engine's result columns of a round, with the types the tables store them in; a game's own
``columns`` declare theirs."""

DECISION_CAP = 10_000
"""Decisions one round may ask for: a game's play that asks more never ends (a round of the
largest deck, 64 cards, asks a few hundred at most), and stops with one line instead of hanging."""


@dataclass
class Decision:
    """One decision point, the same kind in every deal of the batch.

    ``seat``: acting seat per deal ``(n,)`` or one seat for all; ``None`` means
    every seat decides at once, and then ``legal`` is ``(n, p)``.
    ``legal``: uint64 option sets (see :mod:`simtool.bits`), ``(n,)`` or scalar.
    ``active``: deals in which the decision is due (``None``: all). Inactive
    deals receive the choice -1.
    """

    kind: str
    seat: Any
    legal: Any
    active: np.ndarray | None = None


class Field:
    """A View field: the seat's own copy of something it may know, read from the round state.

    ``read(state, rows, seat)`` returns the field for the deals ``rows`` (``None``: every deal
    of the batch, in order) and the acting seat ``seat`` ``(m,)``; it must return a new array
    (a copy), never a slice of a live state array. ``doc`` says what the field means and its
    shape; ``simtool strategies --game G --fields`` prints it with the dtype.

    A field is copied when the strategy first reads it, and only while the strategy is
    deciding: the view itself holds no reference to the state (see :class:`View`).
    """

    def __init__(self, read: Callable, doc: str = ""):
        self.read = read
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        seen = _opened(obj)  # the frame's locals, looked up here: a call less at every first read
        if seen is None:
            _expired(self.name)
        value = self.read(seen["state"], seen["rows"], seen["seat"])
        obj.__dict__[self.name] = value  # from now on the plain attribute: the strategy's copy
        return value


def _expired(name: str):
    raise AttributeError(f"view field '{name}' was not read while the strategy decided; a view "
                         f"expires when its decision is made, and its fields are read in the "
                         f"thread that asked the strategy")


def _opened(view: View):
    """The locals of the engine frame that opened ``view`` and is still open, else ``None``: the
    round state, rows and seats behind ``view`` are found there, in the frame of :func:`_call`
    while a strategy decides (or :func:`view_of`), up the calling thread's stack.

    The state lives only in that frame's locals: no module global, no attribute of the view and
    nothing reachable from the view by name leads to it, and it is gone once the decision is
    made. A plugin that walks frames or the garbage collector can still find it: in-process
    plugins are trusted code (docs/trust.md); ``--isolate`` is for those that are not."""
    frame = sys._getframe(2)
    call, opened = _OPENERS
    while frame is not None:
        code = frame.f_code
        # by identity: `code in a_set` hashes the code object's whole contents (0.75 us a frame,
        # at every frame of every first read of a field)
        if code is call or code is opened:
            seen = frame.f_locals
            if seen.get("view") is view:
                return seen
        frame = frame.f_back
    return None


def _rows(array: np.ndarray, rows) -> np.ndarray:
    # a whole-batch copy is several times faster than gathering every row by index
    return array.copy() if rows is None else array[rows]


def public(field: str, doc: str = "") -> Field:
    """A field every seat may see: a copy of the state's per-deal array ``field``."""
    return Field(lambda s, rows, seat: _rows(getattr(s, field), rows), doc)


def own(field: str, doc: str = "") -> Field:
    """A field only the acting seat may see: its entry of the state's ``(n, p)`` array ``field``."""

    def read(s, rows, seat):
        base = _first_cells(s.n, s.p) if rows is None else rows * s.p
        return getattr(s, field).take(base + seat)

    return Field(read, doc)


def scalar(field: str, doc: str = "") -> Field:
    """A field that is one number for the whole batch (the position of the lockstep play)."""
    return Field(lambda s, rows, seat: getattr(s, field), doc)


PUBLIC = "public"
"""A round-state field every seat sees."""
OWN = "own"
"""A round-state field, ``(n, p)``, of which each seat sees its own entry only."""
HIDDEN = "hidden"
"""A round-state field no seat sees (what others hold, the deal's bookkeeping): a re-deal draws it."""
_SEEN = "simtool.seen"  # the key of a declared field's metadata


@dataclass(frozen=True)
class Seen:
    """Who sees a round-state field, and its shape (see :func:`declare`)."""

    see: str
    shape: tuple[str, ...]
    doc: str
    view: str | None
    mine: tuple[str, str] | None
    cards: bool


def declare(see: str, shape: str = "", doc: str = "", *, view: str | None = "",
            mine: tuple[str, str] | None = None, cards: bool = False, **kwargs) -> Any:
    """A field of a round-state dataclass, declared once with who sees it and its shape; the
    game's views (:class:`View` with ``state=``) and re-deals (:func:`redeal_declared`) are
    derived from these declarations.

    ``see``: :data:`PUBLIC`, :data:`OWN` (an ``(n, p)`` field, each seat its own entry) or
    :data:`HIDDEN`. ``shape``: its axes, the deals first (``"n"``, ``"n p"``, ``"n T p"``), or
    ``""`` for one number for the whole batch (the position of the lockstep play). ``doc``: the
    view field's meaning and shape, as a strategy reads it.

    ``view``: the view field's name (default: the state field's); ``None``: the view shows it only
    through fields of the game's own, and the game's :meth:`Game.restore` puts it back in a
    re-deal. ``mine``: for a public ``(n, p)`` field, ``(name, doc)`` of one more view field,
    the acting seat's entry. ``cards``: an own field of card sets whose other entries a re-deal
    deals anew from the cards the seat has not seen (:meth:`Game.hidden_cards`). Other keyword
    arguments go to ``dataclasses.field`` (``default=``)."""
    axes = tuple(shape.split())
    problem = (f"see must be one of {PUBLIC}, {OWN}, {HIDDEN}, not {see!r}" if see not in (PUBLIC, OWN, HIDDEN)
               else "an own field is (n, p): shape 'n p'" if see == OWN and axes != ("n", "p")
               else "a field with mine= is public, shape 'n p'" if mine and (see != PUBLIC or axes != ("n", "p"))
               else "cards= is for an own field" if cards and see != OWN
               else "a hidden field has no view field" if see == HIDDEN and view
               else "")
    if problem:
        raise TypeError(f"declare: {problem}")
    seen = Seen(see, axes, doc, None if see == HIDDEN else view, mine, cards)
    return field(metadata={_SEEN: seen}, **kwargs)


@cache
def declared(state_class) -> dict[str, Seen]:
    """The declared fields of a round-state dataclass, by name, in declaration order."""
    return {f.name: f.metadata[_SEEN] for f in dataclasses.fields(state_class) if _SEEN in f.metadata}


def _declared_fields(state_class) -> dict[str, Field]:
    """The view fields a round state's declarations give, by view field name."""
    out: dict[str, Field] = {}
    for name, seen in declared(state_class).items():
        if seen.view is not None:
            make = scalar if not seen.shape else public if seen.see == PUBLIC else own
            out[seen.view or name] = make(name, seen.doc)
        if seen.mine:
            out[seen.mine[0]] = own(name, seen.mine[1])
    return out


@cache
def _fields(cls) -> dict[str, Field]:
    found: dict[str, Field] = {}
    for klass in reversed(cls.__mro__):
        found |= {k: v for k, v in vars(klass).items() if isinstance(v, Field)}
    return found


@lru_cache(maxsize=8)
def _all_rows(n: int) -> np.ndarray:
    """``arange(n)``, read-only and shared: the rows of a decision every deal takes."""
    rows = np.arange(n)
    rows.flags.writeable = False
    return rows


@lru_cache(maxsize=8)
def _first_cells(n: int, p: int) -> np.ndarray:
    """Flat position of seat 0 of every deal in ``(n, p)`` arrays (read-only, shared)."""
    base = np.arange(n, dtype=np.int64) * p
    base.flags.writeable = False
    return base


class _InWorlds(GameError):
    """A game failed in its own code as a search re-dealt or played out its worlds (its re-deal,
    its play, its results): the game's failure, not the searching strategy's; :func:`_ask` adds
    the strategy and the deal."""

    def __init__(self, failed: str):
        super().__init__(failed)
        self.failed = failed


def _games_code(method):
    """``method`` of a view or of worlds runs the game's code for a search: what that code raises
    is the game's failure (:class:`_InWorlds`), as it is in the round itself (:func:`_game_errors`)."""
    @wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except BaseException as exc:
            failed = games_failure(self._game, exc)
            if failed is None:
                raise
            raise _InWorlds(failed) from exc
    return guarded


class View:
    """What the acting seat may know at a decision, for ``m`` deals at once.

    A view holds copies of what the seat may know and nothing else: no reference to the game's
    state, which only the engine's frame deciding holds (see :func:`_opened`), so a strategy
    that writes into a view changes only its own copy, and the engine checks every choice
    against its own legal sets. This guards against mistakes, not attack: an in-process plugin
    is trusted code, and ``--isolate`` plays one that is not in a process of its own
    (docs/trust.md).

    Games subclass View and declare their fields with :func:`public`, :func:`own`,
    :func:`scalar` or :class:`Field`, each copied on first reading (a strategy pays only for what
    it reads); fields derived from those may be ``cached_property`` computed from the view itself.
    """

    game: str
    """The game id."""
    kind: str
    """The decision: ``lead``, ``play``, ``colour``, ``pass``, ``upgrade``, ``bid``, ..."""
    players: int
    """Seats at the table, ``p``."""
    n_actions: int
    """Size of the option space: options are ``0..n_actions-1``."""
    seat: np.ndarray
    """Acting seat per deal, ``(m,)`` int64."""
    legal: np.ndarray
    """Legal options per deal as uint64 sets (see :mod:`simtool.bits`), ``(m,)``; the strategy's own copy."""
    restrictions: tuple[str, ...] = ()
    """The names of the restrictions the strategy plays under (``STRATEGY~RESTRICTION``), set by
    their wrapper: a search plays its own imagined moves under them too; empty for an
    unrestricted strategy."""
    _resolve = None  # the run's strategy names, for a search's play-outs (see Context.resolve)
    _report = None
    """Where a search reports its own play-outs while a lead history is recorded (else None):
    ``_report.played(deal, option, seat, scores)`` for the (deal, option) pairs it tried,
    ``scores`` ``(pairs, worlds, p)``, and ``_report.chose(choices)`` once it has chosen
    (``simtool.pipeline.leads.Report``)."""

    state: type | None = None
    """The round-state dataclass whose declared fields (:func:`declare`) give this view's plain
    fields, for a game that declares its state (``class MyView(View, state=Round)``)."""

    def __init_subclass__(cls, state=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if state is None:
            return
        cls.state = state
        for name, made in _declared_fields(state).items():
            if name in vars(cls):
                raise TypeError(f"{cls.__name__}.{name}: the round state declares a view field of "
                                f"that name; declare the state field with view=None to show it "
                                f"through a field of the game's own")
            setattr(cls, name, made)
            made.__set_name__(cls, name)

    def __init__(self, game: Game, state, kind: str, seat: np.ndarray, legal: np.ndarray, rows=None):
        self._game = game  # the rules (a stateless singleton), for redeal; never the state
        self.game = game.id
        self.kind = kind
        self.players = state.p
        self.n_actions = game.n_actions
        self.seat = np.array(seat, np.int64)
        self.legal = np.array(legal, np.uint64)

    @classmethod
    def fields(cls) -> dict[str, Field]:
        """Every game field of this view class, by name, in declaration order."""
        return dict(_fields(cls))

    def __len__(self) -> int:
        return len(self.seat)

    @cached_property
    def mask(self) -> np.ndarray:
        """Legal options as booleans, ``(m, n_actions)``."""
        return bits.to_mask(self.legal, self.n_actions)

    @cached_property
    def strength(self) -> np.ndarray:
        """How high each option ranks at this decision, ``(m, n_actions)``; ``high``/``low`` use it."""
        return np.broadcast_to(np.arange(self.n_actions), (len(self), self.n_actions))

    @cached_property
    def distinct(self) -> np.ndarray:
        """The legal options a search must tell apart, ``(m,)`` sets: where options are
        interchangeable (two cards with nothing left between them), a game keeps one of each such
        group, since either can take just the tricks the other can, now and later; by default
        every legal option."""
        return self.legal.copy()

    def narrow(self, allowed: np.ndarray) -> None:
        """Keep only the options in ``allowed`` ``(m,)`` of this view's legal sets, for a wrapper
        that restricts the strategy it asks (``strategies.restrictions``); a deal where none would
        be left keeps its legal set. Everything derived from ``legal`` is derived afresh. The
        view's own copy changes, never the game: the engine checks against its own legal sets."""
        kept = self.legal & np.asarray(allowed, np.uint64)
        self.legal = np.where(kept != 0, kept, self.legal)
        for name in [k for k in vars(self) if isinstance(getattr(type(self), k, None), cached_property)]:
            del self.__dict__[name]

    def mine(self, per_seat: np.ndarray) -> np.ndarray:
        """The acting seat's entry of an ``(m, p)`` view array."""
        return per_seat[np.arange(len(self)), self.seat]

    def redeal(self, k: int, rng: np.random.Generator) -> Worlds:
        """``k`` copies of each deal in which everything this seat cannot know is re-dealt.

        Hidden cards (and other seats' pending simultaneous choices) are drawn uniformly among
        the layouts consistent with everything the seat has seen. Row ``i*k + j`` of the
        :class:`Worlds` is copy ``j`` of deal ``i``. Only for a strategy the engine was told
        sees every card (:attr:`Lineup.sees`: the built-in ``clairvoyant`` reference player, never
        a plugin) is every copy the true deal instead.
        """
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:  # int() took 2.5 as 2, "3" as 3
            raise WorldsMisuse(f"view.redeal: k must be a whole number of worlds, 0 or more; got {k!r}")
        if not isinstance(rng, np.random.Generator):  # a seed or a RandomState failed deep in the draw
            raise WorldsMisuse(f"view.redeal: rng must be a numpy Generator (the strategy's rng, or "
                               f"np.random.default_rng(seed)); got {type(rng).__name__}")
        seen = _opened(self)
        if seen is not None and seen.get("sees") is True:
            # the clairvoyant reference player (see Lineup.sees): every copy is the true deal
            rows = seen["rows"]
            rows = _all_rows(seen["state"].n) if rows is None else rows
            state = seen["state"].take(np.repeat(rows, int(k)))
        else:
            state = self._redealt(int(k), rng)
        return Worlds(self._game, state, np.repeat(self.seat, k), rng, self._resolve)

    @_games_code
    def _redealt(self, k: int, rng: np.random.Generator):
        return self._game.redeal(self, k, rng)


class OutsideTable(GameError):
    """A game's :func:`put` or :func:`add` on a cell beyond its ``(n, p)`` table: the game's error
    (its run keeps its finished chunks), named with the game as it plays (:func:`_game_errors`)."""


class WorldsMisuse(StrategyError):
    """A search called its view's re-deal or its worlds with arguments they cannot take; the
    engine names the strategy and the deal (the line was "play_out: ...", the strategy unsaid)."""


_PLAYING_OUT: ContextVar[bool] = ContextVar("simtool_playing_out", default=False)
"""True while worlds are played out (in this thread or task: dask plays in threads): a strategy
of a play-out that plays out worlds of its own searches inside a search, which a plugin naming
itself as its play-out did without end (twice the memory per level, until the system killed the
run), as ``pimc@playout=pimc`` is refused."""


def _not_nested(call: str) -> None:
    if _PLAYING_OUT.get():
        raise WorldsMisuse(f"{call}: called from a play-out (the play-out's strategy searches worlds of its "
                           f"own, a search in a search, which nests without end where a search plays out "
                           f"itself); play the play-outs with a strategy that does not search")


@dataclass
class Hidden:
    """The hands' cards a seat has not seen, per deal of its view (:meth:`Game.hidden_cards`)."""

    pool: np.ndarray
    """``(m,)`` sets: the cards to deal to the other seats (any beyond their sizes stay undealt)."""
    sizes: np.ndarray
    """``(m, p)``: cards each seat holds (the acting seat's entry is not read)."""
    cards: int
    """Cards in the deck."""
    allowed: np.ndarray | None = None
    """``(m, p)`` sets: the cards each seat may hold (what it is known not to hold ruled out);
    ``None``: any."""
    voids: np.ndarray | None = None
    """``(m, p)`` bit sets of suits (bit ``s``: suit ``s``) each seat holds none of, as shown in
    play: none of their cards (``suits``) is dealt to it; ``None``: no such constraint."""
    suits: np.ndarray | None = None
    """``(S,)`` sets: the cards of each suit, for ``voids``."""
    known: np.ndarray | None = None
    """``(m, p)`` sets: cards the seat knows another seat holds (cards it passed it...): they stay
    there, and only the rest of that seat's hand is dealt; ``None``: none."""


def redeal_declared(game: Game, view: View, k: int, rng: np.random.Generator):
    """:meth:`Game.redeal` from the round state's declarations: public fields and the acting seat's
    own entries are the view's, repeated ``k`` times; the other seats' hands (the own field with
    ``cards=``) are dealt uniformly among the layouts the game's :meth:`Game.hidden_cards`
    allows; the game's :meth:`Game.restore` sets the rest."""
    state_class = game.View.state
    seat = np.repeat(view.seat, k)
    m, p = len(seat), view.players
    at = None  # the acting seat's cells, flat, once an own field needs them
    out: dict[str, Any] = {"p": p}
    copied, needed = _redeal_plan(state_class)
    for name, view_name, see, cards in copied:
        value = getattr(view, view_name)
        if see is None:  # one number
            out[name] = value
        elif see == PUBLIC:
            out[name] = np.repeat(value, k, axis=0)
        else:
            whole = _deal_hidden(game, view, seat, k, rng) if cards else np.zeros((m, p), value.dtype)
            at = _first_cells(m, p) + seat if at is None else at
            put(whole, at, np.repeat(value, k))
            out[name] = whole
    game.restore(view, out, k, rng)
    missing = [name for name in needed if name not in out]
    if missing:
        raise SimtoolError(f"{game.id}: its re-deal sets no {', '.join(missing)}: declare them, or set "
                           f"them in the game's restore")
    return state_class(**out)


@cache
def _redeal_plan(state_class) -> tuple[tuple, tuple[str, ...]]:
    """What a re-deal copies from the view, ``(state name, view name, PUBLIC / OWN / None for one
    number, cards)`` per field, and every field the state needs, worked out once per state class."""
    copied = tuple((name, seen.view or name, seen.see if seen.shape else None, seen.cards)
                   for name, seen in declared(state_class).items() if seen.view is not None)
    return copied, tuple(f.name for f in dataclasses.fields(state_class) if f.init)


def _deal_hidden(game: Game, view: View, seat: np.ndarray, k: int, rng) -> np.ndarray:
    """The other seats' hands dealt anew, ``(m * k, p)``; the acting seat's entry empty."""
    hidden = game.hidden_cards(view)
    allowed = hidden.allowed
    if hidden.voids is not None:
        shown = np.zeros(hidden.voids.shape, np.uint64)
        for suit, cards in enumerate(hidden.suits):
            shown |= np.where((hidden.voids >> suit) & 1, cards, bits.EMPTY)
        allowed = (bits.full(hidden.cards) if allowed is None else allowed) & ~shown
    pool, sizes = np.repeat(hidden.pool, k), np.repeat(hidden.sizes, k, axis=0)
    allowed = None if allowed is None else np.repeat(allowed, k, axis=0)
    if hidden.known is not None:
        known = np.repeat(hidden.known, k, axis=0)
        sizes = sizes - bits.count(known)
        pool = pool & ~np.bitwise_or.reduce(known, axis=1)
    sizes[np.arange(len(seat)), seat] = 0
    hands = deck.deal_among(pool, sizes, rng, hidden.cards, allowed)
    return hands if hidden.known is None else hands | known


def redeal_for(game: Game, state, kind: str, seat: np.ndarray, legal: np.ndarray, rows: np.ndarray,
               k: int, rng: np.random.Generator, resolve=None) -> Worlds:
    """``k`` re-deals of each deal ``rows`` of ``state`` (repeats allowed) as seat ``seat`` (per
    row, acting or not) sees it at the current decision: an observer's estimate of any seat's
    standing, made from what that seat may know only. ``legal``: the acting seat's legal sets."""
    view = view_of(game, state, kind, seat, legal, rows)
    view._resolve = resolve
    return view.redeal(k, rng)


def view_of(game: Game, state, kind: str, seat, legal, rows=None) -> View:
    """The view of ``state`` at decision ``kind`` for the seats ``seat`` (per deal, or per row of
    ``rows``) with every field read: a copy that outlives the decision, for the field table, a
    search's worlds, an isolated plugin's process and tests. A strategy gets its views from the
    engine, each field copied only when read."""
    view = game.View(game, state, kind, seat, legal, rows)
    for name in _fields(type(view)):
        getattr(view, name)
    return view


def _dtype(value) -> str:
    return str(value.dtype) if isinstance(value, np.ndarray) else type(value).__name__


class Worlds:
    """Re-dealt copies of a view's deals (see :meth:`View.redeal`), for search.

    ``view``: the acting seat's view in every copy (equal, field by field, to the original view
    repeated ``k`` times). ``play_out(choices, strategy)``: play each copy to the end of the round.
    """

    def __init__(self, game: Game, state, seat: np.ndarray, rng: np.random.Generator, resolve=None,
                 rows: np.ndarray | None = None):
        self._game, self._seat, self._rng = game, seat, rng
        self._resolve = resolve  # strategy names to strategies (the run's registry), see Context
        # with ``rows``, the worlds are those rows of ``state``, copied only when needed: a search
        # takes the worlds once per option and plays each take once, so each play-out copies the
        # state once (from the rows), not twice (the take, then the play-out's own copy)
        self._base, self._rows = state, rows

    @property
    def _state(self):
        """The worlds' round state (never played on: every play-out plays a copy)."""
        if self._rows is not None:
            self._base, self._rows = self._base.take(self._rows), None
        return self._base

    def __len__(self) -> int:
        return len(self._seat)

    def take(self, rows) -> Worlds:
        """The worlds ``rows`` (indices, repeats allowed) as a new :class:`Worlds`: a search plays
        one world under several options by taking its row once per option. The new worlds hold
        these worlds' state as it is now (change neither state after a take)."""
        rows = np.asarray(rows)
        if rows.dtype.kind not in "iu" and rows.size:  # floats were cut (0.5 took row 0), a mask read as rows 0 and 1
            raise WorldsMisuse(f"worlds.take: rows must be row numbers (integers); got {rows.dtype}")
        rows = rows.astype(np.int64, copy=False)
        n = len(self)
        if rows.size and (rows.min() < 0 or rows.max() >= n):  # -1 took the last world without a word
            wrong = int(rows[(rows < 0) | (rows >= n)].flat[0])
            raise WorldsMisuse(f"worlds.take: row {wrong} is not one of the {n} worlds (rows 0..{n - 1})")
        at = rows if self._rows is None else self._rows[rows]
        return Worlds(self._game, self._base, self._seat[rows], self._rng, self._resolve, at)

    @_games_code
    def _start(self):
        # every play-out starts afresh, on a copy
        state = self._base.take(np.arange(self._base.n) if self._rows is None else self._rows)
        play = self._game.play(state)
        return state, play, next(play)

    def _legal(self, d: Decision) -> np.ndarray:
        n = len(self)
        if d.seat is None:
            return np.take(np.broadcast_to(d.legal, (n, self._base.p)),
                           np.arange(n) * self._base.p + self._seat)
        return np.broadcast_to(d.legal, (n,))

    @cached_property
    def view(self) -> View:
        """The acting seat's view of every world, ``m * k`` deals."""
        state, _, d = self._start()
        return view_of(self._game, state, d.kind, self._seat, self._legal(d))

    def _player(self, strategy):
        """A play-out's strategy: a name resolved as a line-up's would be, else the callable."""
        if isinstance(strategy, str):
            if self._resolve is None:
                raise StrategyError(f"play_out: give the strategy itself, not its name {strategy!r}, "
                                    f"outside a run")
            return self._resolve(strategy, self._game.id)
        return strategy if hasattr(strategy, "name") else _Named(strategy)

    def play_on(self, strategy) -> dict[str, np.ndarray]:
        """Play every world from its decision to the end of the round with ``strategy`` (a name or
        a strategy object) at every seat, the acting one included; the round's per-seat results
        as :meth:`play_out` returns them. An observer's estimate: no seat's choice is given."""
        _not_nested("play_on")
        state, play, d = self._start()
        n = len(self)
        ctx = _WorldsContext(self._game.id, 0, n, "world", np.arange(n), resolve=self._resolve)
        lineup = Lineup([self._player(strategy)], np.zeros(state.p, np.int64))
        return self._played(play, state, lambda: _decide(self._game, state, d, lineup, self._rng, ctx), lineup, ctx)

    def play_out(self, choices, strategy) -> dict[str, np.ndarray]:
        """Apply the acting seat's ``choices`` ``(m*k,)`` in every world, play the rest of the round
        with ``strategy`` (a name, a strategy object, or one per seat), and return the round's
        per-seat results: ``score``, ``win`` and the game's columns, each ``(m*k, p)``.

        At a simultaneous decision the other seats' choices are drawn from ``strategy``.
        """
        _not_nested("play_out")
        state, play, d = self._start()
        n, p = len(self), state.p
        try:
            picks = [strategy] * p if isinstance(strategy, str) or callable(strategy) else list(strategy)
        except TypeError:  # None, a number: list() raised its bare "'NoneType' object is not iterable"
            raise WorldsMisuse(f"play_out: give one strategy (a name or a strategy), or a list of one per seat "
                               f"({p}); got {type(strategy).__name__}") from None
        if len(picks) != p:  # a shorter list played its first at every seat (or failed), a longer one lost the rest
            raise WorldsMisuse(f"play_out: give one strategy, or one per seat ({p}); got {len(picks)}")
        # each distinct strategy once: the engine then asks it once for all worlds at a decision,
        # not once per seat on a slice of them
        distinct, seats = [], []
        for s in picks:
            same = [i for i, u in enumerate(distinct) if s is u or (isinstance(s, str) and s == u)]
            seats.append(same[0] if same else len(distinct))
            if not same:
                distinct.append(s)
        lineup = Lineup([self._player(s) for s in distinct], np.array(seats))
        ctx = _WorldsContext(self._game.id, 0, n, "world", np.arange(n), resolve=self._resolve)
        choices = np.asarray(choices)
        legal = self._legal(d)
        # integers, as a strategy returns them (floats were cut to whole numbers: 2.7 played 2)
        whole = choices.dtype.kind in "iub" and choices.shape == (n,)
        choices = choices.astype(np.int64, copy=False) if whole else choices
        wrong = None if whole else f"{choices.dtype} of shape {choices.shape}"
        if wrong is None:
            bad = ((legal & bits.BIT[bits.clamp(choices, 0, 63)]) == 0) | (choices < 0) \
                | (choices >= self._game.n_actions)
            # the first world's option, not the integers of the right shape that held it
            wrong = f"option {choices[bad.argmax()]} in world {bad.argmax()}" if bad.any() else None
        if wrong is not None:
            raise WorldsMisuse(f"play_out: the choices must be {n} legal options (integers) of the "
                               f"'{d.kind}' decision in every world; got {wrong}")
        def choice():
            if d.seat is None:
                drawn = _decide(self._game, state, d, lineup, self._rng, ctx)
                drawn[np.arange(n), self._seat] = choices
                return drawn
            return choices
        return self._played(play, state, choice, lineup, ctx)

    def _played(self, play, state, choice, lineup, ctx) -> dict[str, np.ndarray]:
        """:meth:`_finish` from ``choice()``, the strategies asked as playing out."""
        token = _PLAYING_OUT.set(True)
        try:
            return self._finish(play, state, choice(), lineup, ctx)
        finally:
            _PLAYING_OUT.reset(token)

    @_games_code
    def _finish(self, play, state, choice, lineup, ctx) -> dict[str, np.ndarray]:
        """Send ``choice`` and play the round to its end with ``lineup``: its per-seat results."""
        for asked in itertools.count():
            try:
                d = play.send(choice)
            except StopIteration as done:
                results = _public(done.value)
                results["win"] = shares(results["score"], self._game.lower_wins)
                return results
            _below_cap(self._game, asked)
            choice = _decide(self._game, state, d, lineup, self._rng, ctx)


@dataclass
class Match:
    """Running match state, one row per match. Games with more to carry subclass it."""

    p: int
    rules: dict
    totals: np.ndarray  # (n, p) running totals

    @property
    def n(self) -> int:
        return self.totals.shape[0]


class Game(abc.ABC):
    """A game module's declaration. Subclasses fill in the class attributes and methods."""

    id: str
    title: str
    sheet: str
    players: tuple[int, ...]
    default_players: int
    options: tuple = ()
    n_actions: int
    default_strategy: str = "random"
    decisions: tuple[str, ...] = ()
    """The kinds of :class:`Decision` :meth:`play` may yield under any rules (a view's ``kind``):
    what a strategy's parameter may name (pimc's ``focus``). Empty: not declared, not checked."""
    lower_wins: bool = False
    total_floor: int | None = None
    """The lowest a match total may fall to, applied once per round to the total plus the round's
    score (Out-Trumped: 0); ``None``: totals are plain sums. Declared, not only applied in
    :meth:`end_round`, because what rebuilds totals from round scores (match tension, a lead
    history's standings) must floor them the same way (at most 0: every total starts at 0)."""
    tricks_label: str = "tricks"
    """What the ``tricks`` column counts in this game, for table headings."""
    columns: dict[str, Any] = {}
    """Per-seat result columns beyond ``score`` and ``tricks``, with their numpy dtypes."""
    match_columns: dict[str, Any] = {}
    """Per-seat columns of the match table beyond the engine's, from :meth:`match_results`."""
    analysis: Any = None
    """The game's :class:`~simtool.analysis.Analysis` (rates, their words, tables), or the dotted
    path of a module holding it as ``ANALYSIS``, imported only to summarise results."""
    View: type[View] = View
    deal_reads_match = False
    """Whether :meth:`deal` reads the match so far beyond its size, rules and totals (a deck that
    shrinks, a leader ``end_round`` keeps): then the copies of a duplicate match cannot be dealt
    alike after round 0, each round being dealt from a fresh match."""

    def check_rules(self, rules: dict, p: int) -> None:  # noqa: B027 (most games refuse nothing)
        """Refuse (``SimtoolError``, one line naming the limit) rule values that cannot be played
        together or at ``p`` players, such as more cards dealt than the deck holds."""

    def played(self, rules: dict, p: int) -> dict:
        """``rules`` as they are played at ``p`` players: every ``"sheet"`` value replaced by the
        number the sheet sets (which may follow other rules), so two settings that play alike are
        equal here (``limit=sheet`` and ``limit=3`` at 4p). Games with no sheet numbers: as given."""
        return dict(rules)

    def new_match(self, n: int, p: int, rules: dict) -> Match:
        return Match(p, rules, np.zeros((n, p), np.int32))

    def most_tricks(self, rules: dict, p: int) -> int | None:
        """The most a seat's ``tricks`` can be in one round under ``rules`` (every option given)
        at ``p`` players, or ``None`` (the default: not declared). A results table holding more
        is refused as it loads: no game of these rules produced it."""
        return None

    @abc.abstractmethod
    def deal(self, rng: np.random.Generator, match: Match, rnd: int):
        """A fresh round ``rnd`` for every match in ``match``; returns the round state."""

    @abc.abstractmethod
    def play(self, state) -> Generator[Decision, np.ndarray, dict[str, np.ndarray]]:
        """Yield decisions; return the per-seat results ``{column: (n, p)}``, ``score`` included.

        Entries named ``_...`` are round outcomes for :meth:`end_round` only; they are not
        written to the tables.
        """

    def end_round(self, match: Match, results: dict[str, np.ndarray]) -> None:
        match.totals += results["score"]
        if self.total_floor is not None:
            np.maximum(match.totals, self.total_floor, out=match.totals)

    @abc.abstractmethod
    def match_over(self, match: Match, rnd: int) -> np.ndarray:
        """After round ``rnd`` (0-based) has been scored: which matches have ended."""

    def match_results(self, match: Match) -> dict[str, np.ndarray]:
        """The ``match_columns`` of every match in ``match``, each ``(n, p)``."""
        return {}

    @abc.abstractmethod
    def invariants(self, state) -> dict[str, np.ndarray]:
        """Named ``(n,)`` boolean checks that hold between any two decisions (cards conserved...).

        The conformance suite evaluates them after every decision of every game.
        """

    def label(self, kind: str, option: int) -> str:
        return str(option)

    def label_at(self, state, kind: str, option: int) -> str:
        """The option's name in the round ``state``: :meth:`label`, unless the game's cards
        depend on its rules (then it reads them from the state)."""
        return self.label(kind, option)

    def redeal(self, view: View, k: int, rng: np.random.Generator):
        """A round state of ``len(view) * k`` deals: each of the view's deals ``k`` times, with
        everything the acting seat cannot know drawn uniformly among the consistent layouts, at
        the view's decision (row ``i*k + j`` is copy ``j`` of deal ``i``).

        A game whose view declares its state (``View.state``) gets it from the declarations
        (:func:`redeal_declared`) and gives only what is its own: :meth:`hidden_cards` and
        :meth:`restore`."""
        if self.View.state is None:
            raise SimtoolError(f"re-dealing is not implemented for {self.id} yet")
        return redeal_declared(self, view, k, rng)

    @property
    def redeals(self) -> bool:
        """Whether the game can re-deal what a seat does not see (its view declares its state, or
        it writes :meth:`redeal` itself): searches and lead histories need it."""
        return self.View.state is not None or type(self).redeal is not Game.redeal

    def hidden_cards(self, view: View) -> Hidden:
        """What ``view``'s seat has not seen of the hands (its state's own ``cards=`` field), for
        the re-deal: the cards to deal and each seat's hand size, and the game's constraints."""
        raise SimtoolError(f"game '{self.id}' declares hidden cards (a cards= field) but no hidden_cards(view) "
                           f"saying which cards a seat has not seen: a re-deal needs it (pimc, review, the "
                           f"conformance suite's worlds check; docs/new-game.md, 'The re-deal')")

    def restore(self, view: View, state: dict, k: int, rng: np.random.Generator) -> None:  # noqa: B027 (a game may have nothing to restore)
        """Complete a re-deal: set in ``state`` (the round state's fields by name, rows ``i*k + j``)
        what the declarations leave to the game: hidden fields, and fields the view shows through
        fields of the game's own. What the seat cannot know is drawn from ``rng``."""

    def describe(self, state, row: int) -> list[str]:
        """The deal ``row`` as dealt, for replay records."""
        return []


@dataclass
class Context:
    """Where a batch comes from, to name a reproducible deal in error messages."""

    game: str
    seed: int
    n: int  # deals (or matches) in the whole run: it fixes the last chunk's size
    unit: str
    ids: np.ndarray  # deal or match number of each row of the batch
    trace_id: int | None = None  # deal or match number to write out play by play
    trace: list[str] = field(default_factory=list)
    trace_row: int | None = None
    timeout: float | None = None  # seconds a strategy may take over one decision batch
    trace_views: bool = False  # the trace also records what each acting seat's view showed
    resolve: Callable | None = None  # strategy name, game id -> strategy: a search's play-outs by name
    leads: Any = None  # a lead-history recorder (simtool.pipeline.leads.Recorder), or None
    copies: int = 1  # with --duplicate the ids number the games, copy r of deal i being i*copies + r

    def follow(self, ids: np.ndarray) -> None:
        """The batch now holds ``ids``; find the traced deal among them."""
        self.ids = ids
        hit = np.flatnonzero(ids == self.trace_id) if self.trace_id is not None else ()
        self.trace_row = int(hit[0]) if len(hit) else None

    def where(self, row: int) -> str:
        # a duplicate run's game ids and n count copies: "--n 400 --deal 7" of a run of 100 deals
        # at 4 seats wrote out another deal than the failed one (deal 1, its copy 3)
        number, copy = divmod(int(self.ids[row]), self.copies)
        # a replay (the only play that traces a deal) failing: the hint was the command just run,
        # which plays the same chunk and fails alike, whichever of its deals it writes out
        said = NAMED if self.trace_id is not None else WHERE
        return said.format(seed=self.seed, n=self.n // self.copies, unit=self.unit, number=number,
                           copy=copy_text(copy), duplicate=" --duplicate" * (self.copies > 1))


NAMED = "{unit} {number}{copy} of the run with seed {seed}, n {n}"
"""How :meth:`Context.where` names a failed deal of a replay."""

WHERE = (NAMED + ": `simtool replay --seed {seed} --n {n}{duplicate} --{unit} {number}` with the run's other "
         "options writes it out")
"""How :meth:`Context.where` names a failed deal and says how to write it out; a run whose folder
outlives the failure names the folder instead (:func:`simtool.pipeline.executor.folder_hint`)."""


def copy_text(copy: int) -> str:
    """Which copy of a duplicate deal failed: its line-up rotated ``copy`` places (none: the first)."""
    return f" (its copy with the line-up rotated {copy} place{'s' * (copy > 1)})" if copy else ""


class _Named:
    """A plain function playing in a search's play-outs, named for error messages."""

    def __init__(self, choose):
        self.choose, self.name = choose, getattr(choose, "__name__", "play-out")

    def __call__(self, view, rng):
        return self.choose(view, rng)


class _WorldsContext(Context):
    def where(self, row: int) -> str:
        return f"re-dealt world {row} of a play-out"


@dataclass
class Lineup:
    """Which strategy sits in each seat.

    With ``rotate``, deal (or match) ``i`` moves the line-up ``i mod p`` places: seat ``s``
    plays the strategy of position ``(s + i) mod p``, so every position of the line-up sits
    in every seat equally often (to within one deal) and seat effects cancel out of the
    strategy comparison.
    """

    strategies: list  # strategy objects: callable(view, rng) -> choices, with .name
    seats: np.ndarray  # (p,) index into strategies, per line-up position
    rotate: bool = False
    sees: tuple[bool, ...] = ()
    """Per strategy: whether its ``view.redeal`` gives the true deal, not re-dealt worlds. Set by
    whoever builds the line-up (a run: only for the built-in ``clairvoyant`` reference player,
    ``strategies.sees_all``); a strategy itself cannot reach it. Missing entries: no."""
    settings: tuple[ImportSettings, ...] = ()
    """What its plugins' imports set for their play (:class:`ImportSettings`), applied by the
    runner while a chunk is played."""

    def sees_all(self, k: int) -> bool:
        return k < len(self.sees) and bool(self.sees[k])

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.strategies]

    def at(self, seat: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Index into ``strategies`` of the strategy in ``seat`` of deals ``ids`` (both ``(n,)``)."""
        if not self.rotate:
            return self.seats[seat]
        return self.seats[(seat + ids) % len(self.seats)]


def play_round(game: Game, state, lineup: Lineup, rng, ctx: Context) -> dict[str, np.ndarray]:
    """Drive one round of every deal in ``state`` to its end; returns its results."""
    if isinstance(state, RoundState) and not _watched(lineup, ctx):
        state.watched = False  # the instance's own: the class says watched
    play = game.play(state)
    choice = None
    timed = game_timer(game, ctx)
    for asked in itertools.count():
        try:
            if timed is None:  # a with-block of nullcontext would cost ~1 us a decision
                decision = play.send(choice)
            else:
                with timed("yield its next decision"):
                    decision = play.send(choice)
        except StopIteration as done:
            _check_results(game, state, done.value)
            return done.value
        _below_cap(game, asked)
        if ctx.leads is not None:  # the estimates are taken before the choice changes the state
            ctx.leads.before(game, state, decision, ctx.ids)
        choice = _decide(game, state, decision, lineup, rng, ctx)
        if ctx.leads is not None:
            ctx.leads.after()


def game_timer(game: Game, ctx: Context) -> Callable | None:
    """``timer(what)``, a with-block holding a designer's game code to ``ctx.timeout`` as each
    strategy's decision is (a game whose ``play`` looped without yielding ran on for ever whatever
    ``--timeout`` said); ``None`` with no timeout, and for simtool's own games (untimed, as before;
    a search's play-outs, under their strategy's timer, have no timeout of their own)."""
    if ctx.timeout is None or type(game).__module__.startswith("simtool."):
        return None

    @contextmanager
    def timer(what: str):
        try:
            with deadline(ctx.timeout):
                yield
        except Expired:
            units = "matches" if ctx.unit == "match" else f"{ctx.unit}s"  # it read "matchs"
            raise GameError(f"game '{game.id}' ({type(game).__module__}) did not {what} within "
                            f"{option('timeout', ctx.timeout)} s (its play of {units} {int(ctx.ids[0])} to "
                            f"{int(ctx.ids[-1])} of the run with seed {ctx.seed}, n {ctx.n})") from None

    return timer


def timed_game(game: Game, ctx: Context, what: str):
    """:func:`game_timer`'s with-block for one call of the game's code (a nullcontext untimed)."""
    timer = game_timer(game, ctx)
    return nullcontext() if timer is None else timer(what)


def _watched(lineup: Lineup, ctx: Context) -> bool:
    """Whether a round played by ``lineup`` in ``ctx`` may show its state to anything but the
    game: a view (any strategy asked without :func:`_on_legal`, or that sees the true deal), a
    trace, a lead history (see :attr:`RoundState.watched`)."""
    if ctx.leads is not None or ctx.trace_row is not None:
        return True
    return any(lineup.sees_all(k) or _on_legal(s) is None for k, s in enumerate(lineup.strategies))


def _check_results(game: Game, state, results) -> None:
    """A round's results as the tables store them: each column ``(n, p)`` numbers that its type
    holds exactly. A fractional score was cut to a whole one in the tables, silently; a missing
    column or a score beyond int16 stopped the run with a traceback."""
    want = {**RESULTS, **game.columns}
    problem = None if isinstance(results, dict) else f"returned {type(results).__name__}, not a dict"
    for name, dtype in want.items():
        if problem:
            break
        value = np.asarray(results[name]) if name in results else None
        problem = f"no '{name}'" if value is None else _column_problem(value, np.dtype(dtype), (state.n, state.p))
        problem = problem and (problem if value is None else f"'{name}' {problem}")
    if problem:
        raise GameError(f"game '{game.id}' ended a round with {problem} (each of "
                        f"{', '.join(want)} is one number per deal and seat, (n, p), of its type)")
    if np.asarray(results["score"]).dtype.kind == "f":  # whole numbers (checked): as the tables and totals hold them
        results["score"] = np.asarray(results["score"]).astype(RESULTS["score"])


def _column_problem(value: np.ndarray, dtype: np.dtype, shape: tuple[int, int]) -> str | None:
    if value.shape != shape:
        return f"of shape {value.shape}, not {shape}"
    if value.dtype.kind not in "biuf":
        return f"of {value.dtype} values, not numbers"
    if dtype.kind in "iu":
        if value.dtype.kind == "f" and not (np.isfinite(value) & (value == np.trunc(value))).all():
            return f"holding values that are not whole numbers (stored as {dtype.name})"
        info = _limits(dtype)
        if value.size and value.dtype.kind != "b" and (value.min() < info.min or value.max() > info.max):
            return f"holding values beyond {dtype.name}'s {info.min}..{info.max}"
    elif dtype.kind == "f" and not np.isfinite(value).all():
        return "holding NaN or infinite values"
    return None


@cache
def _limits(dtype: np.dtype) -> np.iinfo:
    """``np.iinfo(dtype)``, made once: every column of every round is checked against it."""
    return np.iinfo(dtype)


def _below_cap(game: Game, asked: int) -> None:
    if asked == DECISION_CAP:
        raise GameError(f"game '{game.id}' asked for more than {DECISION_CAP} decisions in one round: "
                        f"its play never ends (a loop in {type(game).__module__}.{type(game).__name__}.play "
                        f"that never reaches its return)")


def _decide(game, state, d: Decision, lineup: Lineup, rng, ctx: Context) -> np.ndarray:
    n = state.n
    if d.seat is None:
        legal = np.broadcast_to(_from_game(game, d, "legal", d.legal, (n, state.p)), (n, state.p))
        # each seat's checked choices copied as they come, not held until the last seat has
        # chosen: a plugin that reuses the array it returned must not change them meanwhile
        chosen = np.empty((n, state.p), np.int64)
        for s in range(state.p):
            chosen[:, s] = _choose(game, state, d, _per_deal_array(s, n, np.int64), legal[:, s], lineup, rng, ctx)
        return chosen
    seat = _from_game(game, d, "seat", d.seat, (n,))
    if not type(game).__module__.startswith("simtool.games."):  # see _seats_in_range
        _seats_in_range(game, d, seat, state.p)
    return _choose(game, state, d, _per_deal_array(seat, n, np.int64),
                   _per_deal_array(_from_game(game, d, "legal", d.legal, (n,)), n, np.uint64), lineup, rng, ctx)


_EXPECTED = {"seat": "seat numbers (whole numbers)", "legal": "option sets (whole numbers, bit c for option c: "
                                                            "simtool.bits; not a boolean mask)"}


def _from_game(game, d: Decision, what: str, value, shape: tuple[int, ...]):
    """The decision's ``seat`` or ``legal`` as the game gave it, once it is whole numbers that
    broadcast to ``shape``; one line naming the game otherwise (a float seat was cut down, a
    boolean mask of options read as the set of option 0, without a word)."""
    if isinstance(value, np.ndarray) and value.shape == shape and value.dtype.kind in "iu":
        return value  # the common case, at no cost
    given = np.asarray(value)
    try:
        fits = given.dtype.kind in "iu" and np.broadcast_shapes(given.shape, shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise GameError(f"game '{game.id}' gave decision '{d.kind}' a {what} of {given.dtype} of shape "
                        f"{given.shape}: expected {_EXPECTED[what]}, of shape {shape} or one for all; its "
                        f"conformance suite: python -m pytest --simtool-game {game.id}")
    return value


def _seats_in_range(game, d: Decision, seat, p: int) -> None:
    """One line naming the game where a decision's seat (whole numbers, checked by
    :func:`_from_game`) is not one of the ``p`` seats: numpy reads seat -1 as the last one, and
    the wrong seat played without a word. One reduction on the seats seen as unsigned numbers
    (a negative one is then beyond every seat); still about 1% of a run of random play, so the
    built-in games skip it: the conformance suite checks their seats (its ``Watch``)."""
    seats = np.asarray(seat)
    unsigned = seats if seats.dtype.kind == "u" else seats.view(f"u{seats.dtype.itemsize}")
    if not unsigned.size or unsigned.max() < p:
        return
    wrong = seats[(seats < 0) | (seats >= p)].reshape(-1)
    raise GameError(f"game '{game.id}' gave decision '{d.kind}' a seat of {wrong[0]}: expected seat numbers "
                    f"0..{p - 1} of its {p} players; its conformance suite: "
                    f"python -m pytest --simtool-game {game.id}")


def _per_deal_array(value, n: int, dtype) -> np.ndarray:
    """``value`` as an ``(n,)`` array; the game's own array when it already is one (the common case,
    which skips broadcast_to's Python overhead at every decision)."""
    if isinstance(value, np.ndarray) and value.shape == (n,) and value.dtype == dtype:
        return value
    value = np.asarray(value, dtype)
    if value.ndim:
        return np.broadcast_to(value, (n,))
    # one value for every deal (Black & White's colour, a wild trump): filled, a fifth of
    # broadcast_to's Python overhead
    every = np.empty(n, dtype)
    every.fill(value)
    return every


def _choose(game, state, d, seat, legal, lineup, rng, ctx) -> np.ndarray:
    n = state.n
    if len(lineup.strategies) == 1 and d.active is None:  # the common case: no regrouping
        choice = _ask(lineup.strategies[0], game, state, d, seat, legal, _all_rows(n), rng, ctx,
                      lineup.sees_all(0))
    else:
        choice = np.empty(n, np.int64)
        choice.fill(-1)  # np.full's wrapper costs more than the fill on small batches
        who = lineup.at(seat, ctx.ids)
        for k, strategy in enumerate(lineup.strategies):
            take = who == k
            if d.active is not None:
                take &= d.active
            idx = np.flatnonzero(take)
            if idx.size:
                choice[idx] = _ask(strategy, game, state, d, seat[idx], legal[idx], idx, rng, ctx,
                                   lineup.sees_all(k))
    if ctx.trace_row is not None:
        _record(game, state, d, seat, legal, choice, ctx)
    return choice


def _ask(strategy, game, state, d, seat, legal, idx, rng, ctx, sees=False) -> np.ndarray:
    """One strategy's choices for the deals ``idx``, checked against the engine's ``legal``.
    ``sees``: the strategy's ``view.redeal`` gives the true deal (see :func:`_call`)."""
    rows = None if len(idx) == state.n else idx
    on_legal = None if sees or ctx.leads is not None else _on_legal(strategy)
    if on_legal is None:
        view = game.View(game, state, d.kind, seat, legal, rows)
        view._resolve = ctx.resolve
        if ctx.leads is not None:  # a search may report its own estimates (see View._report)
            view._report = ctx.leads.reporter(idx)
    forks = _forks()
    try:
        if ctx.timeout is None:  # no timer: a with-block of nullcontext costs ~1 us a decision
            picked = (on_legal(np.ascontiguousarray(legal), rng, game.n_actions) if on_legal else
                      _call(strategy, view, rng, state, rows, seat, sees))
        else:
            with deadline(ctx.timeout):
                picked = (on_legal(np.ascontiguousarray(legal), rng, game.n_actions) if on_legal else
                          _call(strategy, view, rng, state, rows, seat, sees))
        if _ENDED:
            thread_ended()
    except (StrategyError, GameError, TimerError) as exc:
        if _forged(exc, game):  # the plugin's own raise of simtool's errors, blaming the game or another seat
            raise _raised(strategy, exc, d, game, ctx, idx) from None
        if isinstance(exc, WorldsMisuse):  # the search's own call: named with it and the deal
            raise StrategyError(f"strategy '{strategy.name}' misused its worlds: {exc} (decision '{d.kind}' of "
                                f"{game.id}, {ctx.where(int(idx[0]))})") from None
        if isinstance(exc, _InWorlds):  # the game's code failed in a world the search played: the game's error
            raise GameError(f"{exc.failed} while strategy '{strategy.name}' searched its worlds (decision "
                            f"'{d.kind}' of {game.id}, {ctx.where(int(idx[0]))}); {_suite(game)}") from exc.__cause__
        raise
    except Overtime as exc:
        if ctx.timeout is None and isinstance(ctx, _WorldsContext):  # a search's timer, run out in its play-out
            raise
        if ctx.timeout is None or not isinstance(exc, Expired):  # the plugin's own raise, timer or none
            raise _raised(strategy, exc, d, game, ctx, idx) from None
        raise StrategyError(
            f"strategy '{strategy.name}' did not return within {option('timeout', ctx.timeout)} s "
            f"(decision '{d.kind}' of {game.id}, {ctx.where(int(idx[0]))})"
        ) from None
    except KeyboardInterrupt as exc:
        # Ctrl-C, or SIGTERM (simtool's handler says so: where Ctrl-C is ignored, a background
        # job's or nohup's run was blamed on the strategy and its folder removed): the run
        # stops, its finished chunks kept. A plugin's own raise is its error (it was taken for
        # Ctrl-C: exit 130 and "resume", which stopped again)
        if by_the_user():
            raise
        raise _raised(strategy, exc, d, game, ctx, idx) from None
    except MemoryError as exc:  # the machine's limit, not the strategy's bug
        if thrown(exc):  # the plugin's own raise: "fewer --jobs" and --resume met it again
            raise _raised(strategy, exc, d, game, ctx, idx) from None
        raise OutOfMemory(f"out of memory while strategy '{strategy.name}' chose (decision "
                          f"'{d.kind}' of {game.id}): {describe(exc)}; run with fewer {option('jobs')}, or "
                          f"give the run more memory") from None
    except ProcessEnd as exc:
        raise StrategyError(f"strategy '{strategy.name}' called {exc.call}, which would end simtool's "
                            f"process (decision '{d.kind}' of {game.id}, {ctx.where(int(idx[0]))}): "
                            f"a plugin must return, never end its process") from None
    except BaseException as exc:  # a plugin's bug (even SystemExit) must name the plugin
        if isinstance(exc, ViewFailed):  # said by an isolated plugin's process, which may be untrusted: its error
            raise StrategyError(f"strategy '{strategy.name}' says from its isolated process that game '{game.id}''s "
                                f"view ({exc.where}) raised {exc.said} as it read it (decision '{d.kind}' of "
                                f"{game.id}, {ctx.where(int(idx[0]))}); {_suite(game)}") from None
        if on_legal is None and (where := views_own(game.View, exc)):
            raise GameError(f"game '{game.id}''s view ({where}) raised {describe(exc)} while strategy "
                            f"'{strategy.name}' read it (decision '{d.kind}' of {game.id}, "
                            f"{ctx.where(int(idx[0]))}); {_suite(game)}") from exc
        raise _raised(strategy, exc, d, game, ctx, idx) from None
    if _forks() != forks:
        raise StrategyError(
            f"strategy '{strategy.name}' forked its process (os.fork) at decision '{d.kind}' of "
            f"{game.id}: a strategy must not, as the copy would play on inside simtool (start "
            f"other programs with subprocess instead)"
        )
    return _checked(picked, legal, idx, strategy, game, state, d, ctx)


def _forged(exc: BaseException, game) -> bool:
    """Whether simtool's error ``exc`` was raised outside simtool's code (its packages and the
    game's module): by a plugin, whose ``raise GameError("game ... is broken")`` was reported as
    the game's failure, or another seat's, in the plugin's words."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    ours = [sys.modules.get(name) for name in (__package__, "strategies", type(game).__module__)]
    places = [os.path.dirname(m.__file__) if m.__name__ in (__package__, "strategies") else m.__file__
              for m in ours if getattr(m, "__file__", None)]
    where = os.path.realpath(tb.tb_frame.f_code.co_filename)
    return not any(where == p or where.startswith(p + os.sep)
                   for p in (os.path.realpath(place) for place in places))


class ViewFailed(Exception):
    """A game's view field that failed in an isolated plugin's process (:mod:`strategies.isolate`):
    ``where`` (its class, ``module.Class``) and ``said``, what it raised, in words."""

    def __init__(self, where: str, said: str):
        super().__init__(said)
        self.where, self.said = where, said


def views_own(view: type, exc: BaseException) -> str | None:
    """The designer's view class (``module.Class``) whose own code raised ``exc`` as a strategy read
    one of its fields, or ``None``: a view field of a game of another package that failed was
    reported as the strategy's error ("strategy 'high' raised AttributeError"). A ``__getattr__``
    answering a name the view does not have is the reader's slip, not the view's."""
    tb, ran = exc.__traceback__, []
    while tb is not None:
        ran.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    if not ran or ran[-1].co_name == "__getattr__":
        return None
    for cls in view.__mro__:
        if cls.__module__.startswith("simtool."):
            continue
        # a frame of the class's own code (its methods, properties and fields' readers, what they
        # define), not any of its file: a heuristic kept beside the game that raised in its own
        # code was taken for the view
        own = {getattr(getattr(v, "read", getattr(v, "fget", v)), "__code__", None) for v in vars(cls).values()}
        where = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if any(code in own or (where and code.co_qualname.startswith(f"{cls.__qualname__}.")
                               and os.path.realpath(code.co_filename) == os.path.realpath(where)) for code in ran):
            return f"{cls.__module__}.{cls.__qualname__}"
    return None


def _raised(strategy, exc: BaseException, d, game, ctx, idx) -> StrategyError:
    return StrategyError(f"strategy '{strategy.name}' raised {describe(exc)} "
                         f"(decision '{d.kind}' of {game.id}, {ctx.where(int(idx[0]))})")


def _on_legal(strategy):
    """The strategy's choice from the legal sets alone, where it has one: ``on_legal(legal, rng,
    n_actions)`` on its ``choose`` (a built-in such as ``random``, whose choice reads nothing but
    ``view.legal`` and ``view.n_actions``, and must draw and pick exactly as its ``choose``
    does). It is asked without a view: a view's copies and attributes were 23 us of each
    decision, and about 6% of a chunk of Black & White under ``random``. Its picks are checked
    as every strategy's are; it never writes into ``legal``, the engine's own array."""
    if getattr(strategy, "params", ()):  # a choose that takes parameters
        return None
    choose = getattr(strategy, "choose", None)
    owner, on_legal = getattr(choose, "on_legal", (None, None))
    return on_legal if owner is choose else None  # not one copied onto a wrapper


FORKED_EXIT = 70
"""The exit status of a copy a strategy forked of its process, ended on its way back."""


def _call(strategy, view, rng, state, rows, seat, sees=False):
    """``strategy(view, rng)``; a copy of the process the strategy forked ends here instead of
    returning: it would play the rest of the chunk and, in a worker, read its parent's pipe.
    ``state``, ``rows`` and ``seat`` are where the view's fields are read from (see
    :func:`_opened`), locals of this small frame, cheap to look up; ``sees``: ``view.redeal``
    gives the true deal (the clairvoyant reference player, see :attr:`Lineup.sees`)."""
    pid, results, handlers = os.getpid(), sys.stdout, stop_handlers()
    sys.stdout = _ASIDE
    try:
        # read as an array here, where the strategy's errors are its own: a ragged list, or an
        # object whose __array__ raises, ended the run in numpy's traceback
        return np.asarray(strategy(view, rng))
    finally:
        sys.stdout = results
        if os.getpid() != pid:
            os._exit(FORKED_EXIT)
        # a strategy (a library it calls) that set its own Ctrl-C or SIGTERM handler made a run
        # of one chunk, or at --jobs 1, go on to its end whatever the user pressed or sent
        put_back_stop_handlers(handlers)


class _Aside:
    """A strategy's standard output: what it prints goes to standard error, never among what the
    command prints (``simtool run -q`` prints the run's folder alone, for scripts to read);
    closing it closes nothing."""

    def _errors(self):
        """Standard error as it is now; the process's own where a plugin set ``sys.stderr`` to
        this stand-in (``sys.stderr = sys.stdout`` at import): writing to itself, each print
        recursed until a RecursionError, and simtool's own error then ended it, exit status 120,
        "lost sys.stderr"."""
        return sys.__stderr__ if sys.stderr is self else sys.stderr

    def write(self, text: str) -> int:
        errors = self._errors()
        return errors.write(text) if errors is not None else len(text)

    def flush(self) -> None:
        if (errors := self._errors()) is not None:
            errors.flush()

    def close(self) -> None:
        pass

    def __getattr__(self, name):
        return getattr(self._errors(), name)


_ASIDE = _Aside()


def umask() -> int:
    """The file mode mask, read without changing it where Linux shows it: setting it for a moment
    to read it gives a file another thread writes meanwhile (a threaded dask worker's other chunk)
    the wrong mode."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def process_state() -> Callable[[], None]:
    """What else of the process a plugin may change, saved: the function returned puts it back.
    A standard stream it closed is opened again on its descriptor (closing ``sys.stderr`` leaves
    descriptor 2 open), one it replaced is set back."""
    environ, limit, streams = dict(os.environ), sys.getrecursionlimit(), (sys.stdout, sys.stderr)
    mask = umask()
    try:
        cwd = os.open(".", os.O_RDONLY)  # by descriptor: the folder even if renamed meanwhile
    except OSError:  # a folder this user may enter but not list: only a plugin could move off it
        cwd = None

    def put_back() -> None:
        os.umask(mask)
        if cwd is not None:
            os.fchdir(cwd)
            os.close(cwd)
        sys.setrecursionlimit(limit)
        if os.environ != environ:
            for key in set(os.environ) - set(environ):
                del os.environ[key]
            os.environ.update(environ)
        for fd, (name, stream) in enumerate(zip(("stdout", "stderr"), streams, strict=True), start=1):
            if getattr(stream, "closed", False):
                stream = open(fd, "w", buffering=1, closefd=False, errors="backslashreplace")
            setattr(sys, name, stream)

    return put_back


@dataclass(frozen=True)
class ImportSettings:
    """What a plugin's import set that its own play may read, given back to it while it plays
    (a chunk's play, put back after it as all else a plugin sets there): the environment
    variables it changed (``None``: removed) and a recursion limit it raised (a recursive search
    that raised it at its top level ended in RecursionError on its first decision)."""

    environ: tuple[tuple[str, str | None], ...] = ()
    recursion_limit: int = 0

    def apply(self) -> None:
        for key, value in self.environ:
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if self.recursion_limit > sys.getrecursionlimit():
            sys.setrecursionlimit(self.recursion_limit)


def with_settings(choose: Callable, settings: tuple[ImportSettings, ...]) -> Callable:
    """``choose`` with ``settings`` (its plugin's import's) applied while it runs, and what they
    replaced put back after: where several plugins share a process, each reads what its own
    import set, as each does in a process of its own (``--isolate``)."""
    keys = {key for s in settings for key, _ in s.environ}

    def chosen(*args):
        saved, limit = {key: os.environ.get(key) for key in keys}, sys.getrecursionlimit()
        for s in settings:
            s.apply()
        try:
            return choose(*args)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                elif os.environ.get(key) != value:
                    os.environ[key] = value
            sys.setrecursionlimit(limit)

    return chosen


@contextmanager
def process_kept() -> Generator[list[ImportSettings], None, None]:
    """:func:`process_state` around a plugin's import: its ``os.umask(0o777)`` made the run's
    tables unreadable (mode 000), ``POLARS_MAX_THREADS=0`` and ``sys.setrecursionlimit(60)``
    ended the command in a traceback, its ``os.chdir`` had the plugin looked for elsewhere
    ("strategy plugin file not found"); a chunk's play is kept so by the runner. The list given
    holds, once done, the :class:`ImportSettings` its play gets back."""
    put_back = process_state()
    environ, limit = dict(os.environ), sys.getrecursionlimit()
    settings: list[ImportSettings] = []
    try:
        yield settings
    finally:
        changed = tuple((key, os.environ.get(key)) for key in sorted({*environ, *os.environ})
                        if os.environ.get(key) != environ.get(key))
        raised = sys.getrecursionlimit()
        settings.append(ImportSettings(changed, raised if raised > limit else 0))
        put_back()


@contextmanager
def printing_aside() -> Generator[None, None, None]:
    """A plugin's code run outside a decision (its module, as it is imported) prints to standard
    error as :func:`_call` has it print while it chooses: a ``print`` at a plugin's top level
    came out among what the command prints (``simtool run -q``: a forged line before the run's
    folder)."""
    results, errors = sys.stdout, sys.stderr
    sys.stdout = _ASIDE
    try:
        yield
    finally:
        # standard error too, as a chunk puts it back: one set to the stand-in (``sys.stderr =
        # sys.stdout``) would have held it after the import, every error message going through it
        sys.stdout, sys.stderr = results, errors


_OPENERS = (_call.__code__, view_of.__code__)
"""The engine functions whose frames hold a view's state while its fields may be read (see
:func:`_opened`): once they return, the view expires and unread fields stay unread."""


_FORKED = threading.local()


def _count_fork() -> None:
    _FORKED.count = _forks() + 1
    if not _launched(sys._getframe(0).f_back):
        _FORKED.bare = _bare_forks() + 1


def _forks() -> int:
    """Forks this thread has made so far (a strategy must make none)."""
    return getattr(_FORKED, "count", 0)


def _bare_forks() -> int:
    """Forks this thread has made so far whose copy goes on in the code that forked."""
    return getattr(_FORKED, "bare", 0)


def _launched(caller) -> bool:
    """Whether a fork made by ``caller`` (a frame) started another program or a process of
    ``multiprocessing``: that copy never comes back into the code that forked (it execs or runs
    its target, then ends), so a plugin's import that started a pool, or a program with
    ``preexec_fn``, was taken for one that forked its whole process and refused."""
    popen_fork = sys.modules.get("multiprocessing.popen_fork")
    launchers = {sys.modules["subprocess"].Popen._execute_child.__code__} if "subprocess" in sys.modules else set()
    if popen_fork is not None:
        launchers.add(popen_fork.Popen._launch.__code__)
    return caller is not None and caller.f_code in launchers


os.register_at_fork(after_in_parent=_count_fork)


@contextmanager
def not_forking(what: str) -> Generator[None, None, None]:
    """Code outside a decision (a plugin's module, as it is imported) that forks its process:
    the copy ends on its way back, as :func:`_call` ends a strategy's, and the parent stops with
    one line naming ``what``. Before, the copy went on as a second simtool: it played the whole
    command again, printing its tables or an error beside the parent's."""
    pid, forks = os.getpid(), _bare_forks()
    try:
        yield
    finally:
        if os.getpid() != pid:
            os._exit(FORKED_EXIT)
    if _bare_forks() != forks:
        raise SimtoolError(f"{what} forked its process (os.fork): a plugin must not, as the copy would "
                           f"go on as a second simtool (start other programs with subprocess instead)")


_HOME = os.getpid()
"""simtool's own process, the one that imported it: a forked worker, whose end the run reports
naming its plugins, has another id."""
_EXIT, _ABORT = os._exit, os.abort
_ENDING = threading.local()
_ENDING_LOCK = threading.Lock()
_ENDING_USERS = 0
_ENDED: list[str] = []
"""A plugin's ``os._exit`` or ``os.abort`` in a thread it started while a guarded one played it,
for that one to raise (see :func:`thread_ended`)."""


class ProcessEnd(BaseException):
    """A plugin's ``os._exit`` or ``os.abort`` in simtool's own process, raised instead of ending
    it (a BaseException, as :class:`Overtime`). ``call``: what it called."""

    def __init__(self, call: str):
        super().__init__(call)
        self.call = call


def _ending(call: str) -> None:
    if os.getpid() != _HOME:
        return
    if getattr(_ENDING, "guarded", False):
        raise ProcessEnd(call)
    if _ENDING_USERS:  # a thread the plugin started: it ends quietly, and the run names the plugin
        _ENDED.append(call)
        raise SystemExit


def _exit(status):
    _ending(f"os._exit({status!r})")
    _EXIT(status)


def _abort():
    _ending("os.abort()")
    _ABORT()


def thread_ended() -> None:
    """Raises :class:`ProcessEnd` for a thread of the plugin that called ``os._exit`` or
    ``os.abort`` while the plugin played here. Before, that thread ended ``simtool run --jobs 1``
    silently, exit status 0, its ``--out`` holding ``chunks/`` alone."""
    if _ENDED:
        raise ProcessEnd(f"{_ENDED.pop()} in a thread it started")


@contextmanager
def not_ending() -> Generator[None, None, None]:
    """A plugin's code run in simtool's own process (its import, a chunk's play): its
    ``os._exit`` or ``os.abort`` raises :class:`ProcessEnd`, for the caller to name it in one
    line. Before, ``os._exit(0)`` ended ``simtool run --jobs 1`` silently, exit status 0, its
    ``--out`` holding ``chunks/`` alone. Elsewhere (a forked worker, a copy the plugin forked, a
    thread it started after the guard's end) the functions end the process as ever; a thread it
    started that calls them while the guard holds ends alone, for :func:`thread_ended` to report."""
    global _ENDING_USERS
    if os.getpid() != _HOME or getattr(_ENDING, "guarded", False):
        yield
        return
    with _ENDING_LOCK:  # one replacement for every thread playing a plugin
        if _ENDING_USERS == 0:
            os._exit, os.abort = _exit, _abort
            _ENDED.clear()  # a thread's call after its plugin's last decision: no later plugin's
        _ENDING_USERS += 1
    _ENDING.guarded = True
    try:
        yield
    finally:
        _ENDING.guarded = False
        with _ENDING_LOCK:
            _ENDING_USERS -= 1
            if _ENDING_USERS == 0:
                os._exit, os.abort = _EXIT, _ABORT


def elsewhere() -> None:
    """This process is not simtool's own (an ``--isolate`` plugin's, a spawned worker): a plugin ending it is
    reported by the run's process, as a forked worker's end is."""
    global _HOME
    _HOME = -1


class Overtime(BaseException):
    """A strategy's time is up. A BaseException, so that a plugin's ``except Exception`` does
    not swallow it."""


class Expired(Overtime):
    """:class:`Overtime` raised by simtool's own timer (:func:`deadline`): a plugin may raise
    ``Overtime`` itself, at once, which is its error, not a ``--timeout`` it ran past."""


class TimerError(SimtoolError):
    """simtool's own timer (``--timeout``, ``timeout=``) cannot run: never a strategy's fault."""


@contextmanager
def deadline(seconds: float):
    """Interrupt the code inside after ``seconds`` with :class:`Overtime`.

    A SIGALRM timer: it stops a strategy stuck in Python or in a blocking call alike, in
    this process or a joblib worker (both run strategies in their main thread).
    """
    if not hasattr(signal, "setitimer"):
        raise TimerError(f"{option('timeout')} needs a system with SIGALRM timers (Linux, macOS)")
    if threading.current_thread() is not threading.main_thread():
        raise TimerError(f"{option('timeout')} works only when strategies run in a main thread")

    def expire(signum, frame):
        raise Expired

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    except (OverflowError, ValueError, OSError) as exc:
        signal.signal(signal.SIGALRM, previous)
        raise TimerError(f"the system timer refuses {option('timeout', float(seconds))}: {describe(exc)}") from None
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # a strategy that set SIGALRM aside (signal.signal, setitimer) is stopped once it returns:
    # before, a plugin sleeping past --timeout with the timer off played on for ever
    if time.monotonic() - start > seconds:
        raise Expired


def _checked(picked, legal, idx, strategy, game, state, d, ctx) -> np.ndarray:
    def fail(problem: str, row: int):
        offered = int(legal[row])
        if offered == 0 or offered >> game.n_actions:  # no strategy could have chosen right
            raise GameError(
                f"game '{game.id}' offered " + ("no legal option" if offered == 0 else
                                                f"options beyond its n_actions ({game.n_actions})")
                + f" at decision '{d.kind}' ({ctx.where(int(idx[row]))}): the game's error, not that of "
                f"strategy '{strategy.name}'; its conformance suite: python -m pytest --simtool-game {game.id}"
            )
        raise StrategyError(
            f"strategy '{strategy.name}' {problem} at decision '{d.kind}' of {game.id} "
            f"({ctx.where(int(idx[row]))})"
        )

    picked = np.asarray(picked)
    if picked.shape != idx.shape or picked.dtype.kind not in "iub":  # integers or booleans
        fail(f"returned {picked.dtype} of shape {picked.shape}, expected integers {idx.shape}", 0)
    given, picked = picked, picked.astype(np.int64, copy=False)
    options = picked.view(np.uint64)  # a negative option reads as one far beyond n_actions

    def in_range() -> None:
        # the ufunc's reduce, not ndarray.max: the latter's Python wrapper is most of its cost here
        if options.size and np.maximum.reduce(options) >= game.n_actions:
            row = int(np.argmax((picked < 0) | (picked >= game.n_actions)))
            fail(f"chose option {given[row]}, outside 0..{game.n_actions - 1},", row)  # as returned, not wrapped

    # every option's range is read from the legal sets where the game has all 64 options: numpy
    # shifts by 64 or more to 0, so an option beyond them is never held (one pass fewer)
    whole = game.n_actions >= 64
    if not whole:
        in_range()
    # bit `option` of each legal set, shifted down (fewer passes than a look-up of each option's
    # bit); every one is set where the AND of them all has its lowest bit set: one pass more
    held = legal >> options
    if not np.bitwise_and.reduce(held) & np.uint64(1):
        if whole:
            in_range()  # the same error as where the range is asked first
        row = int(np.argmax(held & np.uint64(1) == 0))
        fail(f"chose the illegal option {_illegal_label(game, state, d.kind, int(picked[row]))}", row)
    return picked


def _illegal_label(game, state, kind: str, option: int) -> str:
    """The name of an option a strategy chose illegally, or its number where the label of a game
    from another package fails on it (names only the cards it has): the game's KeyError took the
    place of the strategy's illegal choice."""
    if type(game).__module__.startswith("simtool."):
        return game.label_at(state, kind, option)
    try:
        return str(game.label_at(state, kind, option))
    except Exception:
        return str(option)


def _record(game, state, d, seat, legal, choice, ctx) -> None:
    row = ctx.trace_row
    if choice[row] < 0:
        return
    name = game.label_at(state, d.kind, int(choice[row]))
    if not (isinstance(name, str) and name.strip()):  # written out as 'seat 1 bank: None'
        raise GameError(f"game '{game.id}' ({type(game).__module__}): label_at(state, {d.kind!r}, {int(choice[row])}) "
                        f"gave {name!r:.60}, not an option's name (text); {_suite(game)}")
    ctx.trace.append(f"  seat {seat[row]} {d.kind}: {name}")
    if ctx.trace_views:
        ctx.trace.append("    view: " + _view_digest(game, state, d.kind, seat, legal, row))


def _view_digest(game, state, kind, seat, legal, row) -> str:
    """The acting seat's view of deal ``row`` in one line: its legal options, and a digest of every
    field (a change in what a seat sees, such as a leak, changes the digest)."""
    import hashlib

    view = view_of(game, state, kind, seat[row:row + 1], legal[row:row + 1], np.array([row]))
    digest = hashlib.sha1()
    for name in sorted(_fields(type(view))):  # by name: where a game declares a field is no change
        value = getattr(view, name)
        digest.update(name.encode() + np.ascontiguousarray(value).tobytes()
                      if isinstance(value, np.ndarray) else f"{name}={value!r}".encode())
    options = np.flatnonzero(bits.to_mask(view.legal, game.n_actions)[0])
    return f"legal options {' '.join(map(str, options))}; fields {digest.hexdigest()[:12]}"


def cells(n: int, p: int) -> Callable[[np.ndarray], np.ndarray]:
    """Flat positions in ``(n, p)`` arrays of one seat per deal, for ``np.take``/``np.put``.

    Reading and writing one seat per deal this way is about three times faster
    than ``array[rows, seat]`` fancy indexing, and it sits in every game's inner loop.
    A game of a designer's gets positions checked against the table (:func:`_checked_cells`).
    """
    base = _first_cells(n, p)
    if not _built_in_game(sys._getframe(1)):
        return _checked_cells(base, n, p)
    return lambda seat: base + seat


def _built_in_game(frame) -> bool:
    """Whether ``frame`` runs simtool's own code (a built-in game, the trick loop, the engine).
    Checking every seat cost Black & White's random play about 3% of its time, so the built-in
    games skip it, as they skip :func:`_seats_in_range`: the conformance suite checks their
    seats, and that their tricks add up."""
    return frame.f_globals.get("__name__", "").startswith("simtool.")


def _checked_cells(base: np.ndarray, n: int, p: int) -> Callable[[np.ndarray], np.ndarray]:
    def cell(seat):
        seats = np.asarray(seat)
        # one reduction on the seats seen as unsigned numbers, where a negative seat is beyond
        # every seat: numpy reads a seat -1 as the previous deal's last seat (deal 0's: the last
        # deal's) and a seat p as the next deal's first, without a word
        unsigned = seats.view(f"u{seats.dtype.itemsize}") if seats.dtype.kind == "i" else seats
        if unsigned.size and unsigned.max() >= p:
            raise OutsideTable(_wrong_seat(seats, n, p))
        return base + seat

    return cell


def put(per_seat: np.ndarray, at: np.ndarray, values) -> None:
    """Set one seat's entry per deal of an ``(n, p)`` array (flat cells ``at``) to ``values``.

    Assigning through a flat view in the array's own dtype is about three times faster
    than ``np.put``; a non-contiguous array (no flat view) takes the slow road.
    """
    if not _built_in_game(sys._getframe(1)):
        _refuse_negative(per_seat, at)
    values = np.asarray(values, per_seat.dtype)
    try:
        if per_seat.flags.c_contiguous:
            per_seat.reshape(-1)[at] = values
        else:
            np.put(per_seat, at, values)
    except IndexError as exc:
        raise OutsideTable(_outside(per_seat, at)) from exc


def add(per_seat: np.ndarray, at: np.ndarray, amount) -> None:
    """Add ``amount`` to one seat's entry per deal of an ``(n, p)`` array (flat cells ``at``)."""
    if not _built_in_game(sys._getframe(1)):
        _refuse_negative(per_seat, at)
    try:
        now = per_seat.take(at)
    except IndexError as exc:
        raise OutsideTable(_outside(per_seat, at)) from exc
    put(per_seat, at, now + amount)


def _refuse_negative(per_seat: np.ndarray, at) -> None:
    """A negative flat cell is never a seat's (numpy wraps it round to the end of the table)."""
    at = np.asarray(at)
    if at.size and at.min() < 0:
        raise OutsideTable(_outside(per_seat, at))


def _outside(per_seat: np.ndarray, at) -> str:
    """A game's cell beyond its ``(n, p)`` table, in words (numpy said only 'index 1600 is out of
    bounds for axis 0 with size 1600', and wrapped a negative cell round without a word): a seat
    of ``p`` or more, which in any deal but the last lands on the next deal's seats unseen."""
    n, p = per_seat.shape if per_seat.ndim == 2 else (per_seat.size, 1)
    at = np.asarray(at)
    cell = int(at[(at >= per_seat.size) | (at < 0)].flat[0])
    where = f"is seat {cell - (n - 1) * p} of the last deal" if cell >= 0 else "is before the first deal"
    return (f"a seat outside the table: cell {cell} of an array of {n} deals x {p} seats {where}; "
            f"cells(n, p)(seat) needs 0 <= seat < {p} (a seat counted on or back without % p?)")


def _wrong_seat(seats: np.ndarray, n: int, p: int) -> str:
    """The first seat outside ``0..p-1`` that a game gave :func:`cells`, in words."""
    flat = seats.reshape(-1)
    i = np.flatnonzero((flat < 0) | (flat >= p))[0]
    where = f" in deal {i}" if seats.shape == (n,) else ""
    return (f"a seat outside the table: seat {flat[i]}{where} of an array of {n} deals x {p} seats; "
            f"cells(n, p)(seat) needs 0 <= seat < {p} (a seat counted on or back without % p?)")


def take(obj, keep: np.ndarray):
    """The rows ``keep`` of a dataclass of per-deal arrays (other fields copied as they are)."""
    return _per_deal(obj, lambda a: a[keep])


def repeat(obj, k: int):
    """Each deal of a dataclass of per-deal arrays ``k`` times: row ``i*k + j`` is copy ``j`` of deal ``i``."""
    return _per_deal(obj, lambda a: np.repeat(a, k, axis=0))


def _per_deal(obj, how):
    n = obj.n
    changes = {
        f.name: how(getattr(obj, f.name))
        for f in dataclasses.fields(obj)
        if isinstance(getattr(obj, f.name), np.ndarray) and getattr(obj, f.name).shape[:1] == (n,)
    }
    return dataclasses.replace(obj, **changes)


class RoundState:
    """Mixin for a game's round state (a dataclass of arrays with the deals on the first axis).

    The position of the lockstep play (phase, trick, turn within it) lives in the state, so
    ``game.play(state)`` continues from wherever the state is. Between two decisions a state can
    be copied and the copy played on, exactly as the original would be.
    """

    watched = True
    """Whether anything but the game's own rules may read the state while :func:`play_round`
    plays it: a strategy's view, a trace, a lead history. ``play_round`` sets it ``False`` for a
    round in which no view is made, and a game may then leave what only views (and its
    invariants and descriptions) read, such as the trick history, as it is: a round played so
    keeps its results, not its history. A copy of the state (:meth:`take`, :meth:`repeat`) is
    watched."""

    def take(self, rows: np.ndarray):
        """A copy holding the deals ``rows``."""
        return take(self, rows)

    def repeat(self, k: int):
        """A copy holding every deal ``k`` times: row ``i*k + j`` is copy ``j`` of deal ``i``."""
        return repeat(self, k)


def shares(values: np.ndarray, lower_wins: bool) -> np.ndarray:
    """Win share per seat, ``(n, p)`` float32: the best value wins, tied leaders split the win."""
    best = across_seats(np.minimum if lower_wins else np.maximum, values)
    # one seat's column at a time: numpy iterates an operand broadcast from (n, 1) over rows of p
    # cells, a buffered copy per deal (several times the work of the column-wise steps)
    leaders = np.empty(values.shape, bool)
    for seat in range(values.shape[1]):
        np.equal(values[:, seat], best, out=leaders[:, seat])
    # a leader's share is 1 / count, rounded to float32 as the quotient leader / count was (a
    # leader is 1, and 0 / count is 0 as 0 * (1 / count)); the float32 quotient 1 / count is that
    # float64 quotient rounded, for every count up to 64 (tests/test_results_same.py)
    each = np.divide(np.float32(1), across_seats(np.add, leaders.view(np.uint8)))
    # the leaders as 1.0 and 0.0 in one cast of the whole table, then each column times its deal's
    # share in float32: a boolean column times a float32 one, written into a column, went
    # through numpy's buffered cast a few cells at a time (six times as long)
    out = leaders.view(np.uint8).astype(np.float32)
    for seat in range(values.shape[1]):
        np.multiply(out[:, seat], each, out=out[:, seat])
    return out


def scaled_rank(values: np.ndarray, lower_wins: bool) -> np.ndarray:
    """Each seat's scaled rank ``(p - rank) / (p - 1)``, ``(n, p)`` float64: 1 first, 0 last, tied
    seats sharing their mean rank (the scale of CardStock's and simtool's lead histories)."""
    values = np.asarray(values)
    p = values.shape[1]
    if p < 2:
        return np.ones(values.shape)
    out = np.zeros(values.shape)
    for t in range(p):
        other = values[:, t:t + 1]
        worse = other > values if lower_wins else other < values
        out += worse + 0.5 * (other == values)
    return (out - 0.5) / (p - 1)  # a seat ties with itself: take its own half back


def across_seats(ufunc: np.ufunc, per_seat: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(per_seat, axis=1)`` for an ``(n, p)`` array, in the array's dtype: one whole
    column at a time (numpy reduces a short last axis element by element, over ten times slower)."""
    out = per_seat[:, 0].copy()
    for seat in range(1, per_seat.shape[1]):
        ufunc(out, per_seat[:, seat], out=out)
    return out


@dataclass
class Outcome:
    """Per-seat results of a batch: ``rounds`` rows (deal or match round) and, for matches, finals."""

    rounds: dict[str, np.ndarray]  # columns (rows, p), and per row 'id' (and 'round') (rows,)
    matches: dict[str, np.ndarray] | None = None  # 'id' (rows,); 'total', 'win', ... (rows, p)
    leads: dict[str, np.ndarray] | None = None  # lead-history rows (simtool.pipeline.leads)


def _game_errors(play):
    """A game from another package that raises (in its deal, play, scoring or match end; even
    SystemExit, or a KeyboardInterrupt of its own) stops the run with one line naming the game,
    not a traceback from inside simtool, nor taken for Ctrl-C; the exception
    stays chained for a debugger and pytest. simtool's own games keep their traceback: a bug
    report."""
    @wraps(play)
    def guarded(game: Game, *args, **kwargs):
        try:
            return play(game, *args, **kwargs)
        except BaseException as exc:  # even SystemExit, and its own KeyboardInterrupt, as a strategy's
            failed = games_failure(game, exc)
            if failed is None:
                raise
            raise GameError(f"{failed}; {_suite(game, args[1] if len(args) > 1 else None)}") from exc
    return guarded


def games_failure(game: Game, exc: BaseException) -> str | None:
    """``exc``, raised by ``game``'s code, as the game's failure in words ("game 'G' (module)
    raised ..."); ``None`` where it is not the game's to name: an error simtool named already (a
    strategy's), the machine's memory (not the game's own ``raise``), a search's time running out
    in the game's code of a world it plays (:class:`Overtime`, the search's ``--timeout``), the
    user's Ctrl-C, and simtool's own games
    (their traceback is a bug report)."""
    if isinstance(exc, OutsideTable):  # put/add know the table, not the game
        return f"game '{game.id}' ({type(game).__module__}) wrote {exc}"
    if isinstance(exc, (SimtoolError, Overtime)) or (isinstance(exc, MemoryError) and not thrown(exc)):
        return None
    module = type(game).__module__
    if module.startswith("simtool.") or (isinstance(exc, KeyboardInterrupt) and by_the_user()):
        return None
    return f"game '{game.id}' ({module}) raised {describe(exc)}"


def _suite(game: Game, rules: dict | None = None) -> str:
    """Where the game's failure is shown: its conformance suite, which plays the default rules (a
    deal failing under this run's other rules only was sent there, and the suite passed)."""
    changed = ", ".join(f"{o.name}={rules[o.name]}" for o in game.options
                        if isinstance(rules, dict) and o.name in rules and rules[o.name] != o.default)
    where = f"its conformance suite shows where: python -m pytest --simtool-game {game.id}"
    return f"{where} (it plays the game's default rules, not this run's {changed})" if changed else where


def _described(game: Game, state, row: int) -> list[str]:
    """``game.describe(state, row)``, once it is lines of text: a string was written out a
    character a line, and a list of numbers ended replay in a traceback."""
    lines = game.describe(state, row)
    if isinstance(lines, str) or not isinstance(lines, list | tuple) or not all(isinstance(x, str) for x in lines):
        raise GameError(f"game '{game.id}' ({type(game).__module__}): describe(state, row) gave {lines!r:.60}, "
                        f"not lines of text (a list of str); {_suite(game)}")
    return list(lines)


@_game_errors  # the field table plays the game's deal and reads its views: a game's failure is its one line
def field_table(game: Game) -> list[tuple[str, str, str]]:
    """Every field of ``game``'s views as (name, dtype, meaning), read from the docstrings; the
    dtype is read off a view of a small real deal (its first decision)."""
    p = game.default_players
    state = game.deal(np.random.default_rng(0), game.new_match(2, p, {o.name: o.default for o in game.options}), 0)
    d = next(game.play(state))
    seat = np.zeros(2, np.int64) if d.seat is None else np.broadcast_to(np.asarray(d.seat), (2,))
    legal = np.broadcast_to(d.legal, (2, p))[:, 0] if d.seat is None else np.broadcast_to(d.legal, (2,))
    view = view_of(game, state, d.kind, seat, legal)
    base = [("game", "The game id."), ("kind", "The decision: lead, play, colour, pass, upgrade, bid, ..."),
            ("players", "Seats at the table, p."),
            ("n_actions", "Size of the option space: options are 0..n_actions-1."),
            ("seat", "Acting seat per deal, (m,)."),
            ("legal", "Legal options per deal as uint64 sets, (m,); the strategy's own copy.")]
    docs: dict[str, str] = dict(base)
    for klass in reversed(type(view).__mro__):
        for name, attr in vars(klass).items():
            if not name.startswith("_") and isinstance(attr, (Field, cached_property, property)):
                docs[name] = " ".join((attr.__doc__ or "").split()) or docs.get(name, "")
    return [(name, _dtype(getattr(view, name)), doc) for name, doc in docs.items()]


@_game_errors
def play_deals(game: Game, p: int, rules: dict, lineup: Lineup, n: int, deal_rng, play_rng,
               ctx: Context, duplicate: bool = False) -> Outcome:
    """``n`` independent deals, each round 0 of a fresh match. ``duplicate``: ``n / p`` deals,
    each played ``p`` times in a row (rows ``i*p .. i*p+p-1``) with the same cards."""
    match = game.new_match(n, p, rules)
    ctx.follow(ctx.ids)
    with timed_game(game, ctx, "deal its round"):
        state = _duplicate_deal(game, deal_rng, n, p, rules, 0) if duplicate else game.deal(deal_rng, match, 0)
    _dealt(game, state, n, p)
    if ctx.leads is not None:
        ctx.leads.round(0, match.totals)
    if ctx.trace_row is not None:
        ctx.trace.extend(_described(game, state, ctx.trace_row))
    results = play_round(game, state, lineup, play_rng, ctx)
    results["win"] = shares(results["score"], game.lower_wins)
    results = _public(results)
    results["id"] = ctx.ids  # per row, not per seat
    return Outcome(results)


@_game_errors
def play_matches(game: Game, p: int, rules: dict, lineup: Lineup, n: int, deal_rng, play_rng,
                 ctx: Context, duplicate: bool = False) -> Outcome:
    """``n`` whole matches, each to its end condition or the round cap. ``duplicate``: ``n / p``
    matches, each played ``p`` times in a row with the same cards in every round."""
    match = game.new_match(n, p, rules)
    ids = ctx.ids
    alive = np.arange(n)  # rows of the batch still playing, for duplicate deals
    per_round: list[dict[str, np.ndarray]] = []
    finals: list[dict[str, np.ndarray]] = []
    for rnd in range(ROUND_CAP):
        ctx.follow(ids)
        with timed_game(game, ctx, "deal its round"):
            if duplicate:
                # dealt for the whole batch, ended matches too, so that a match's copies get the
                # same cards in every round however long each lasts
                state, marks = _duplicate_deal(game, deal_rng, n, p, rules, rnd, marked=True)
                state = _copy(state, "take", alive)
                _own_totals(state, marks[alive], match.totals)
            else:
                state = game.deal(deal_rng, match, rnd)
        _dealt(game, state, len(ids), p)
        if ctx.leads is not None:
            ctx.leads.round(rnd, match.totals)
        if ctx.trace_row is not None:
            ctx.trace.append(f"round {rnd}")
            ctx.trace.extend(_described(game, state, ctx.trace_row))
        results = play_round(game, state, lineup, play_rng, ctx)
        with timed_game(game, ctx, "end its round"):
            game.end_round(match, results)
        results["win"] = shares(results["score"], game.lower_wins)
        results = _public(results)
        results["id"] = ids
        results["round"] = np.full(len(ids), rnd, np.int16)
        per_round.append(results)
        with timed_game(game, ctx, "answer match_over"):
            over = ended(game, match, rnd, len(ids))
        capped = ~over if rnd == ROUND_CAP - 1 else np.zeros(len(ids), bool)
        over = over | capped
        if over.any():
            finals.append(_final(game, match, ids, over, rnd, capped[over]))
            keep = ~over
            match, ids, alive = take(match, keep), ids[keep], alive[keep]
        if len(ids) == 0:
            break
    rounds = {k: np.concatenate([r[k] for r in per_round]) for k in per_round[0]}
    matches = {k: np.concatenate([f[k] for f in finals]) for k in finals[0]}
    order = np.argsort(matches["id"], kind="stable")
    return Outcome(rounds, {k: v[order] for k, v in matches.items()})


def _dealt(game: Game, state, n: int, p: int) -> None:
    """One line naming the game unless ``state`` holds the ``n`` deals asked for, at ``p`` players
    (the tables of a round of fewer deals, or of a 4-player round in a 3-player run, failed
    with a polars ShapeError, or a seat beyond the line-up with numpy's IndexError)."""
    if getattr(state, "n", None) != n:
        raise GameError(f"game '{game.id}' dealt {getattr(state, 'n', None)!r} deals when asked for {n}")
    if getattr(state, "p", p) != p:
        raise GameError(f"game '{game.id}' dealt a round of {state.p!r} players when asked for {p} (the match's "
                        f"p); {_suite(game)}")


def ended(game: Game, match, rnd: int, n: int) -> np.ndarray:
    """:meth:`Game.match_over`'s answer as ``(n,)`` booleans (one for every match, a single bool
    for all); one line naming the game otherwise: 0/1 integers were taken as row numbers, and a
    run of 2000 matches wrote 1,200,000 rows of 3 matches without a word."""
    over = np.asarray(game.match_over(match, rnd))
    if over.dtype != np.bool_ or over.shape not in ((), (n,)):
        raise GameError(f"game '{game.id}' match_over returned {over.dtype} of shape {over.shape}; expected "
                        f"booleans, one for each match still playing ({n},)")
    if over.shape:
        return over
    # one answer for every match is a rule of rounds alone (a fixed number of rounds), so the
    # first and last match asked alone give it too: `(totals >= target).any()`, its axis
    # forgotten, ended every match once one reached the target, and its tables were written
    for row in {0, n - 1}:
        alone = np.asarray(game.match_over(take(match, np.array([row])), rnd))
        whole = alone.dtype == np.bool_ and alone.shape in ((), (1,))
        if whole and bool(alone.reshape(-1)[0]) == bool(over):
            continue
        said = bool(alone.reshape(-1)[0]) if whole else f"{alone.dtype} of shape {alone.shape}"
        # the batch is a chunk's, or the round-cap pilot's, never the run's n: no count a designer could read for it
        raise GameError(f"game '{game.id}' match_over answered {bool(over)} for a whole batch of matches at once after "
                        f"round {rnd}, but {said} for the batch's {'first' if row == 0 else 'last'} match asked "
                        f"alone: each match ends by its own state, "
                        f"(n,) booleans (an .any() or .all() without axis=1?); {_suite(game)}")
    return np.full(n, bool(over))


def _duplicate_deal(game: Game, rng, n: int, p: int, rules: dict, rnd: int, marked: bool = False):
    """Round ``rnd`` of ``n / p`` fresh deals, each repeated ``p`` times in a row (by the engine's
    :func:`repeat` where a round state that is a plain dataclass has no method of its own).
    ``marked``: the fresh match's totals are marks (each entry its own number), returned with the
    state, repeated alike, to find the fields a deal copies them into (:func:`_own_totals`)."""
    fresh = game.new_match(n // p, p, rules)
    if marked:
        fresh.totals[...] = np.arange(MARKS, MARKS + fresh.totals.size).reshape(fresh.totals.shape)
    state = _copy(game.deal(rng, fresh, rnd), "repeat", p)
    return (state, np.repeat(fresh.totals, p, axis=0)) if marked else state


MARKS = 10_007
"""The first mark :func:`_duplicate_deal` puts in a fresh match's totals: from 1, a batch of one
match marked its seats 1, 2, ... p, as a round state's field of the seats' weights or places
holds them in every deal, and that field was taken for a copy of the totals and overwritten. A
chunk's marks end below 32,768 (16,384 rows of matches), so a deal's copy into int16 keeps them."""


def _own_totals(state, marks: np.ndarray, totals: np.ndarray) -> None:
    """The fields of a duplicate round's state that hold the match totals before the round (as a
    deal copies them: equal to the fresh match's ``marks``) set to each copy's own ``totals``: the
    copies are dealt from a fresh match, for their cards, so every view of a duplicate match
    showed totals of 0 in every round. A field that only starts at 0 (points taken this hand)
    is not one of them."""
    for name, value in state_fields(state).items():
        # compared in the field's own type, as a deal's astype wraps them: an int8 copy of the
        # totals held the marks wrapped and was left so; not a flag, which any mark would set
        if (isinstance(value, np.ndarray) and value.shape == marks.shape and value.dtype.kind in "iuf"
                and np.array_equal(value, marks.astype(value.dtype))):
            setattr(state, name, totals.astype(value.dtype))


def state_fields(state) -> dict:
    """A round state's fields by name: its attributes and its dataclass fields, which a state
    declared with ``slots=True`` keeps out of ``__dict__`` (it has none, or only its bases')."""
    found = dict(getattr(state, "__dict__", {}))
    if dataclasses.is_dataclass(state):
        found |= {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if hasattr(state, f.name)}
    return found


def _copy(state, how: str, arg):
    """``state.take(arg)`` / ``state.repeat(arg)``: the state's own copy (a :class:`RoundState`'s,
    which a game may override for a field whose deals are not its first axis), else the engine's
    :func:`take` / :func:`repeat` of a plain dataclass."""
    own = getattr(state, how, None)
    return own(arg) if callable(own) else {"take": take, "repeat": repeat}[how](state, arg)


def _public(results: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Round results without the ``_`` entries meant for ``end_round`` only."""
    return {k: v for k, v in results.items() if not k.startswith("_")}


def _final(game, match, ids, over, rnd, capped) -> dict[str, np.ndarray]:
    totals = match.totals[over]
    k, p = totals.shape
    extra = {name: values[over] for name, values in game.match_results(match).items()}
    return {
        **extra,
        "id": ids[over],
        "total": totals,
        "win": shares(totals, game.lower_wins),
        "rounds": np.full((k, p), rnd + 1, np.int16),
        "capped": np.broadcast_to(capped[:, None], (k, p)),
    }

