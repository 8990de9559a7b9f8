"""``ismcts``: information-set Monte Carlo tree search (single observer), vectorised across deals.

``pimc`` judges each option by play-outs in which the searching seat's own later moves are those
of its play-out policy (``own``): its choice is one step better than that policy. Here those later
moves are searched too, in a tree of the seat's own decisions keyed by what the seat has seen when
it makes them (its information set: the deal's history of play, trump and hand being fixed by the
deal and its own plays). A node is shared by every world, and every option, that reaches it, so
its statistics hold over the worlds consistent with what the seat knows there, not over one world:
the tree cannot fuse strategies as a determinized search of the later moves would.

The root is searched as ``pimc`` searches it (every distinct option in every world, the same
worlds for every option, the best mean kept), with the same belief (``infer``) and play-out
policies. The ``samples`` worlds are drawn in ``waves``; in each, the worlds are played out for
every option at once (every deal of the batch in lockstep, one array per wave), and at each of
the seat's own decisions below the root the tree chooses: at a node seen before, by UCB over
what the node's visits so far have shown (an option not yet tried there valued at the node's
mean less ``urgency``, the play-out policy's own choice at the node's mean); at a node seen for
the first time, as the play-out policy, after which that world plays on by the policy alone (one
new node a world, as in single-observer IS-MCTS). Every node on a world's path gets its value.
The others play the play-out policy in every world (the model of them): no tree of theirs.

Measured in Out-Trumped against 3 x ``hoarder``, docs/reference-player.md ("Out-Trumped:
information-set search"); the default search there stays ``pimc``.
"""

from __future__ import annotations

import numpy as np

from simtool import bits

from . import pimc
from .base import PLAYOUT, Param, strategy

GAMES = ("out-trumped",)

PARAMS = (
    Param("samples", int, 16, "worlds per decision; every option is played out in each (as pimc)", 1, 4096),
    Param("waves", int, 4, "the worlds are drawn in this many waves: the tree of the seat's own later "
          "decisions built in one wave chooses in the next", 1, 64),
    Param("explore", float, 2.0, "UCB's exploration weight at the tree's nodes, in units of the value", 0.0, 1000.0),
    Param("urgency", float, 1.0, "an option not yet tried at a node is valued at the node's mean less "
          "this (the play-out policy's own choice at the mean)", 0.0, 1000.0),
    pimc.PARAMS[1],  # playout
    pimc.PARAMS[2],  # value
    pimc.PARAMS[3],  # own
    pimc.INFER,
)

HASH = np.random.default_rng(20261126).integers(1, 2**63, size=4096, dtype=np.uint64) | np.uint64(1)
"""Odd multipliers of an information set's hash, one per history cell (fixed: reproducible)."""


def cost(params) -> float:
    """As ``pimc``'s: the same play-outs per decision, so the same chunks (and deals) as ``pimc``."""
    return 2.0 * params.samples


@strategy("ismcts", "information-set tree search: pimc's root, and the seat's own later decisions "
          "searched in a tree keyed by what it has seen (shared by every world reaching it)", GAMES,
          params=PARAMS, cost=cost, reports="restricted")
def ismcts(view, rng, params):
    return search(view, rng, params)


def search(view, rng, params) -> np.ndarray:
    """The choice per deal (see the module's docstring). Under restrictions the search is
    ``pimc``'s (whose imagined moves obey them): the tree would choose outside them."""
    if view.restrictions:
        return pimc.search(view, rng, params.samples, params.playout, params.value, params.own,
                           infer=params.infer)
    choice = bits.lowest(view.legal)
    free = bits.count(view.legal) > 1
    if not free.any():
        return choice
    playout = pimc._resolve(params.playout, view.game, view._resolve)
    mine = playout if params.own in (PLAYOUT, params.playout) else pimc._resolve(params.own, view.game, view._resolve)
    policy = pimc.policy_choice(mine, view, rng)
    redeal = pimc._believed(playout, params.infer) if params.infer else None
    tried = np.where(free, view.distinct | bits.BIT[policy], bits.EMPTY)
    deal, option = np.nonzero(bits.to_mask(tried, view.n_actions))
    tree = Tree(view.n_actions)
    total = np.zeros(len(deal))
    waves = np.diff(np.linspace(0, params.samples, min(params.waves, params.samples) + 1).round().astype(int))
    for k in waves:
        worlds = view.redeal(k, rng) if redeal is None else redeal(view, k, rng)
        rows = (deal[:, None] * k + np.arange(k)).ravel()
        seats = np.repeat(view.seat[deal], k)
        results, paths = _play(worlds, rows, np.repeat(option, k), seats, np.repeat(deal, k), playout, mine,
                               tree, params)
        value = pimc._value(results, params.value, seats, view.game)
        tree.backup(paths, value)
        total += value.reshape(-1, k).sum(axis=1)
    value = total / params.samples + 1e-7 * (option == policy[deal])  # as pimc: the policy's among equals
    first = pimc._best(deal, value, 1)
    choice[deal[first]] = option[first]
    return choice


def _play(worlds, rows, options, seats, deals, playout, mine, tree, params):
    """The worlds ``rows`` played out from ``options``, the searching seat (``seats``, per row)
    choosing by the tree (:class:`TreePolicy`), one play-out per searching seat as pimc's; the
    results and every row's path through the tree, ``(row, node, option)`` arrays."""
    out: dict[str, np.ndarray] = {}
    paths = []
    for seat in np.unique(seats):
        at = np.flatnonzero(seats == seat)
        base = playout if mine is playout else pimc._seat_bound(mine, playout, int(seat))
        chooser = TreePolicy(base, int(seat), deals[at], tree, params.explore, params.urgency)
        for name, values in worlds.take(rows[at]).play_out(options[at], chooser).items():
            out.setdefault(name, np.empty((len(rows), *values.shape[1:]), values.dtype))[at] = values
        r, n, o = chooser.path()
        paths.append((at[r], n, o))
    return out, tuple(np.concatenate(p) for p in zip(*paths, strict=True))


class Tree:
    """The nodes of the seat's own decisions, for one decision batch: keys (a hash of the deal
    and the history of play at the node) kept sorted for look-ups, and per node and option the
    visits and the summed value."""

    def __init__(self, n_actions: int):
        self.n_actions = n_actions
        self.keys = np.zeros(0, np.uint64)  # sorted
        self.ids = np.zeros(0, np.int64)  # node id of each sorted key
        self.nodes = 0
        self._visits = np.zeros((1024, n_actions))  # room for more nodes, doubled as needed
        self._total = np.zeros((1024, n_actions))

    def __len__(self) -> int:
        return self.nodes

    @property
    def visits(self) -> np.ndarray:
        return self._visits[:self.nodes]

    @property
    def total(self) -> np.ndarray:
        return self._total[:self.nodes]

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The node of each key, added where new (with no visits)."""
        unique, inverse = np.unique(keys, return_inverse=True)
        pos = np.searchsorted(self.keys, unique)
        known = (pos < len(self.keys)) & (self.keys[np.minimum(pos, len(self.keys) - 1)] == unique) \
            if len(self.keys) else np.zeros(len(unique), bool)
        ids = np.empty(len(unique), np.int64)
        ids[known] = self.ids[pos[known]]
        fresh = np.flatnonzero(~known)
        ids[fresh] = len(self) + np.arange(fresh.size)
        if fresh.size:
            self.nodes += fresh.size
            if self.nodes > len(self._visits):
                room = max(2 * len(self._visits), self.nodes)
                self._visits = np.concatenate([self._visits, np.zeros((room - len(self._visits), self.n_actions))])
                self._total = np.concatenate([self._total, np.zeros((room - len(self._total), self.n_actions))])
            # the new keys are sorted (np.unique) and so are their places among the old ones
            self.keys = np.insert(self.keys, pos[fresh], unique[fresh])
            self.ids = np.insert(self.ids, pos[fresh], ids[fresh])
        return ids[inverse.ravel()]

    def select(self, nodes, legal, default, explore: float, urgency: float) -> np.ndarray:
        """UCB's option at each node (``legal`` sets, ``default``: the play-out policy's choice):
        an untried option valued at the node's mean less ``urgency``, the default at the mean."""
        visits, total = self.visits[nodes], self.total[nodes]
        seen = visits.sum(axis=1)
        mean = total.sum(axis=1) / np.maximum(seen, 1)
        rows = np.arange(len(nodes))
        prior = np.broadcast_to((mean - urgency)[:, None], visits.shape).copy()
        prior[rows, default] = mean
        q = np.where(visits > 0, total / np.maximum(visits, 1), prior)
        ucb = q + explore * np.sqrt(np.log(seen + 1)[:, None] / (visits + 1))
        ucb = np.where(bits.to_mask(legal, self.n_actions), ucb, -np.inf)
        ucb[rows, default] += 1e-9  # among equals, the policy's choice
        return ucb.argmax(axis=1)

    def backup(self, paths, value: np.ndarray) -> None:
        """Each path's ``(row, node, option)`` gets its row's ``value``."""
        row, node, option = paths
        np.add.at(self._visits, (node, option), 1.0)
        np.add.at(self._total, (node, option), value[row])


class TreePolicy:
    """The play-out policy of one wave for the worlds whose searching seat is ``seat``: ``base``
    (the play-out policy, ``own`` at the seat) everywhere but at the seat's own free decisions
    while a world is still in the tree (it leaves at the first node it is the first to reach).
    ``deals``: each world's deal in the batch, which keys its tree apart from the other deals'."""

    def __init__(self, base, seat: int, deals: np.ndarray, tree: Tree, explore: float, urgency: float):
        self.base, self.seat, self.tree = base, seat, tree
        self.name = f"{base.name} with a tree at seat {seat}"
        self.explore, self.urgency = explore, urgency
        self.origin = (deals.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
        self.live = np.ones(len(deals), bool)
        self.rows, self.nodes, self.options = [], [], []

    def __call__(self, view, rng):
        # read as the engine reads a strategy's (a copy: the tree writes into it); np.array(..., int64)
        # cut a play-out policy's 2.7 to 2 where the engine refuses floats
        choice = np.array(pimc.policy_choice(self.base, view, rng))
        if len(view) != len(self.live):  # every world decides at once in a trick game's play-out
            raise ValueError("ismcts: a play-out decision that not every world takes")
        at = np.flatnonzero(self.live & (view.seat == self.seat) & (bits.count(view.legal) > 1))
        if not at.size:
            return choice
        history = view.history[at].reshape(at.size, -1).astype(np.int64) + 2
        keys = self.origin[at] ^ (history.astype(np.uint64) * HASH[:history.shape[1]]).sum(axis=1)
        nodes = self.tree.find(keys)
        known = self.tree.visits[nodes].sum(axis=1) > 0
        if known.any():
            chosen = at[known]
            choice[chosen] = self.tree.select(nodes[known], view.legal[chosen], choice[chosen], self.explore,
                                              self.urgency)
        self.live[at[~known]] = False  # a new node: the world plays on by the policy alone
        self.rows.append(at)
        self.nodes.append(nodes)
        self.options.append(choice[at])
        return choice

    def path(self):
        """Every (world, node, option) the tree chose or met, as three arrays."""
        if not self.rows:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(self.rows), np.concatenate(self.nodes), np.concatenate(self.options)
