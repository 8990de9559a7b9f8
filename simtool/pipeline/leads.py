"""Lead histories: every seat's estimated standing at each decision of a sample of deals.

A run asked for them (``--lead-history K``) records, for the first ``K`` deals (or matches) of
each chunk, at every decision, each seat's **estimated standing**: its expected scaled rank
``(p - rank) / (p - 1)`` at the end (1 first, 0 last, tied seats sharing their mean rank; for
whole matches, the rank of the match totals once this round is scored).

Two estimators, named in ``run.json`` beside every figure made from them:

- a search seat (``pimc``) deciding with a choice to make reports its **own play-outs**: the
  mean standing over its re-dealt worlds of the option it chose (and the spread of its options'
  means, CardStock's Spread);
- every other seat, and a search seat that is not choosing (another seat's turn, or a forced
  play), is estimated by an **observer**: ``samples`` re-deals from that seat's own view (what
  it may know, never more), each played to the end of the round with a play-out policy at every
  seat. A search seat's observer uses the search's own ``samples`` and ``playout``; any other
  seat pimc's default budget for the game with the game's default strategy. Worlds that repeat
  (every seat's, where a view hides nothing, as in Trickster) are played out once, where the
  play-out draws nothing from the stream: the estimates are those of playing every world.

The observer draws from a stream of its own (chunk ``i``: ``SeedSequence(seed, spawn_key=(i,
3))``), and a search's report draws nothing, so recording lead histories never changes a run's
play, and the histories are the same for any ``--jobs``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from simtool import bits
from simtool.engine import Decision, Lineup, redeal_for, scaled_rank

STREAM = 3
"""The observer's random stream, after the shuffle's 0, the players' 1 and the globals' 2."""

COLUMNS = ("id", "round", "decision", "seat", "acting", "estimate", "own", "choices", "spread")


@dataclass(frozen=True)
class Budget:
    """How an observer estimates one seat: ``samples`` re-deals played out with ``playout``."""

    samples: int
    playout: str


def budget(strategy, game_id: str) -> Budget:
    """A search's own budget (its ``samples`` and ``playout``), else pimc's default for the game
    with the game's default strategy."""
    values = getattr(strategy, "values", None)
    if values is not None and {"samples", "playout"} <= set(values.as_dict()):
        return Budget(int(values.samples), str(values.playout))
    import strategies

    pimc = strategies.resolve("pimc", game_id).values  # its play-out default: the game's default
    return Budget(int(pimc.samples), str(pimc.playout))


def worlds(name: str, own: Budget) -> str:
    """The worlds a search plays each option out in, in words: a reference player's is the true
    deal alone (``clairvoyant`` has no ``samples``; it read "16 worlds per option", pimc's)."""
    import strategies

    return "the true deal alone" if strategies.sees_all(name) else f"{own.samples} worlds per option"


def describe(game_id: str, lineup_names: list[str], per_chunk: int) -> dict:
    """What ``run.json`` records of a lead history: the sample and each estimator's budget."""
    import strategies

    found = {name: strategies.resolve(name, game_id) for name in dict.fromkeys(lineup_names)}
    budgets = {name: budget(s, game_id) for name, s in found.items()}
    # a restricted search chooses by its own budget (the observer keeps pimc's default there)
    own = {name: budget(getattr(s.choose, "inner", s), game_id) for name, s in found.items()}
    return {
        "per_chunk": per_chunk,
        "scale": "expected scaled rank (p - rank) / (p - 1): 1 first, 0 last, ties share the mean rank",
        "estimator": {name: (f"its own play-outs when choosing ({worlds(name, own[name])}, play-outs by "
                             f"{own[name].playout}); otherwise observer" if s.reports == "always"
                             else "observer") + f": {budgets[name].samples} re-deals from the seat's view, "
                             f"played out by {budgets[name].playout}"
                      for name, s in found.items()},
        "samples": {name: b.samples for name, b in budgets.items()},
        "playout": {name: b.playout for name, b in budgets.items()},
    }


class Recorder:
    """Collects the lead history of the rows of a batch whose deal (or match) id is below
    ``limit``, from the engine's hooks: :meth:`round` at each round's start, :meth:`before` and
    :meth:`after` around each decision, and the searches' reports through :meth:`reporter`."""

    def __init__(self, game, lineup: Lineup, limit: int, rng: np.random.Generator, resolve):
        self.game, self.lineup, self.limit, self.rng, self.resolve = game, lineup, limit, rng, resolve
        self.budgets = [budget(s, game.id) for s in lineup.strategies]
        self.parts: list[dict[str, np.ndarray]] = []
        self.rnd, self.totals, self.index = 0, None, 0
        self.now = None
        self.drawing: set[str] = set()  # play-outs seen to draw from the stream: never deduplicated

    def round(self, rnd: int, totals: np.ndarray) -> None:
        self.rnd, self.totals, self.index = rnd, totals, 0

    def before(self, game, state, d: Decision, ids: np.ndarray) -> None:
        take = ids < self.limit
        if d.active is not None:
            take &= np.asarray(d.active, bool)
        rows = np.flatnonzero(take)
        self.now = None
        if rows.size:
            self.now = (state, d, rows, ids, [])
        self.index += 1

    def reporter(self, idx: np.ndarray) -> Report | None:
        """The ``view._report`` of a strategy asked for the rows ``idx`` of the batch. It holds
        copies only (never the state, nor this recorder): a view must lead to nothing more than
        its seat may know."""
        if self.now is None:
            return None
        idx = np.asarray(idx)
        wanted = np.isin(idx, self.now[2])
        if not wanted.any():
            return None
        totals = None if self.totals is None else self.totals[idx].copy()  # public: the scores so far
        report = Report(idx.copy(), wanted, totals, self.game.lower_wins, self.game.total_floor)
        self.now[4].append(report)
        return report

    def after(self) -> None:
        if self.now is None:
            return
        state, d, rows, ids, issued = self.now
        self.now = None
        p = state.p
        m = len(rows)
        row = np.repeat(rows, p)
        seat = np.tile(np.arange(p), m)
        if d.seat is None:
            legal = np.broadcast_to(d.legal, (state.n, p))[row, seat]
            acting = np.full(m * p, -1, np.int8)
            chooses = np.ones(m * p, bool)
        else:
            acting_seat = np.broadcast_to(np.asarray(d.seat), (state.n,))[row]
            legal = np.broadcast_to(d.legal, (state.n,))[row]
            acting = acting_seat.astype(np.int8)
            chooses = seat == acting_seat
        estimate = np.full(m * p, np.nan)
        spread = np.full(m * p, np.nan)
        own = np.zeros(m * p, bool)
        if issued:  # the searches' own estimates, at the (row, seat) pairs they reported
            r, s, value, width = (np.concatenate(c) for c in zip(*(x.found for x in issued), strict=True))
            place = np.searchsorted(rows, r)  # rows ascending, and every reported row among them
            at = place * p + s  # row-major (row, seat) pairs
            estimate[at], spread[at], own[at] = value, width, True
        missing = np.flatnonzero(~own)
        if missing.size:
            who = self.lineup.at(seat[missing], ids[row[missing]])
            for k in np.unique(who):
                pick = missing[who == k]
                estimate[pick] = self._observe(state, d, row[pick], seat[pick], legal[pick], self.budgets[k])
        self.parts.append({
            "id": ids[row].astype(np.int64), "round": np.full(m * p, self.rnd, np.int16),
            "decision": np.full(m * p, self.index - 1, np.int16), "seat": seat.astype(np.int8),
            "acting": acting, "estimate": estimate.astype(np.float32), "own": own,
            "choices": np.where(chooses, bits.count(legal), -1).astype(np.int8),
            "spread": spread.astype(np.float32),
        })

    def _observe(self, state, d: Decision, rows, seat, legal, b: Budget) -> np.ndarray:
        """Each (row, seat)'s mean standing over ``b.samples`` re-deals from that seat's view."""
        k = b.samples
        worlds = redeal_for(self.game, state, d.kind, seat.astype(np.int64), legal.astype(np.uint64),
                            rows, k, self.rng, self.resolve)
        scores = self._play_on(worlds, self.resolve(b.playout, self.game.id))
        totals = None if self.totals is None else self.totals[rows]
        return standing(totals, seat, scores.reshape(len(rows), k, -1), self.game.lower_wins,
                        self.game.total_floor)

    def _play_on(self, worlds, playout) -> np.ndarray:
        """The round's scores of ``worlds`` played on by ``playout``, each distinct world played
        once: where a seat's view hides little (late in a round; Trickster hides nothing but
        the current turn's choices) most re-deals, of every seat, are the same world. Only when
        the play-out drew nothing from the stream, so that a world's play-out is a function of
        the world alone and the stream is where playing them all leaves it; else all are played
        from the stream as it was."""
        if playout.name in self.drawing:
            return worlds.play_on(playout)["score"]
        found = distinct_worlds(worlds._state)  # the worlds' own state, made for this call
        if found is None or len(found[0]) == len(worlds):
            return worlds.play_on(playout)["score"]
        first, inverse = found
        saved = self.rng.bit_generator.state
        scores = worlds.take(first).play_on(playout)["score"]
        if self.rng.bit_generator.state == saved:
            return scores[inverse]
        self.drawing.add(playout.name)  # it draws: every later play-out of it plays all worlds
        self.rng.bit_generator.state = saved
        return worlds.play_on(playout)["score"]

    def frame(self) -> dict[str, np.ndarray]:
        """The recorded rows as columns (empty columns where no decision was sampled)."""
        if not self.parts:
            empty = {"id": np.int64, "round": np.int16, "decision": np.int16, "seat": np.int8,
                     "acting": np.int8, "estimate": np.float32, "own": bool, "choices": np.int8,
                     "spread": np.float32}
            return {k: np.zeros(0, t) for k, t in empty.items()}
        return {k: np.concatenate([part[k] for part in self.parts]) for k in COLUMNS}


PROBE = 512
"""Worlds looked at first for repeats: the worlds of a seat's re-deals, and of the seats of one
deal, lie together, so the first few hundred show whether the call repeats worlds."""

_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it mixes every bit of a word upwards


def distinct_worlds(state) -> tuple[np.ndarray, np.ndarray] | None:
    """The first row of each distinct deal of ``state`` (equal in every per-deal array), and each
    row's index into them; None where too few of the first :data:`PROBE` rows repeat one
    another to be worth looking for the rest (or the state is not plain arrays)."""
    n = state.n
    values = [getattr(state, f.name) for f in dataclasses.fields(state)]  # as RoundState.take reads them
    per_deal = [a for a in values if isinstance(a, np.ndarray) and a.shape[:1] == (n,)]
    if not per_deal or any(a.dtype.hasobject for a in per_deal):
        return None
    probe = min(n, PROBE)
    if len(distinct_rows(_words([a[:probe] for a in per_deal], probe))[0]) > probe * 7 // 8:
        return None
    return distinct_rows(_words(per_deal, n))


def _words(arrays: list[np.ndarray], n: int) -> np.ndarray:
    """The rows' bytes of ``arrays`` side by side, zero-padded to whole 64-bit words, ``(n, w)``."""
    parts = [np.ascontiguousarray(a).reshape(n, -1).view(np.uint8) for a in arrays]
    width = sum(part.shape[1] for part in parts)
    raw = np.zeros((n, -(-width // 8) * 8), np.uint8)
    at = 0
    for part in parts:
        raw[:, at:at + part.shape[1]] = part
        at += part.shape[1]
    return raw.view(np.uint64)


def distinct_rows(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first of each distinct row of ``words`` ``(n, w)``, and each row's index into them.
    A run of equal rows is one (the re-deals of a seat, and the seats of one deal, lie
    together), and the runs' first rows are grouped by a hash."""
    fresh = np.ones(len(words), bool)
    fresh[1:] = (words[1:] != words[:-1]).any(axis=1)
    head = np.flatnonzero(fresh)
    first, inverse = _hashed(words[head])
    return head[first], inverse[np.cumsum(fresh) - 1]


def _hashed(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`distinct_rows` by a hash of each row, the grouping checked word by word (exact: a
    hash collision falls back to sorting the rows themselves)."""
    weights = (np.arange(1, words.shape[1] + 1, dtype=np.uint64) * _MIX) | np.uint64(1)
    hashed = (words * weights).sum(axis=1, dtype=np.uint64)
    hashed ^= hashed >> np.uint64(29)
    _, first, inverse = np.unique(hashed, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    again = np.flatnonzero(first[inverse] != np.arange(len(words)))
    if (words[again] == words[first[inverse[again]]]).all():
        return first, inverse
    key = np.ascontiguousarray(words).view(np.dtype((np.void, 8 * words.shape[1]))).ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse.ravel()


def standing(totals: np.ndarray | None, seat: np.ndarray, scores: np.ndarray,
             lower_wins: bool, floor: int | None = None) -> np.ndarray:
    """Mean scaled rank of ``seat`` (per row) over the worlds ``scores`` ``(rows, k, p)``: with
    whole matches (``totals`` ``(rows, p)``, the match so far), of the totals once the round is
    scored, floored at the game's ``total_floor`` as the game floors them."""
    m, k, p = scores.shape
    values = scores if totals is None else totals[:, None, :] + scores
    if totals is not None and floor is not None:
        values = np.maximum(values, floor)
    ranks = scaled_rank(values.reshape(m * k, p), lower_wins).reshape(m, k, p)
    return ranks[np.arange(m), :, seat].mean(axis=1)


class Report:
    """A search's report channel for one decision batch: the search hands over the play-outs of
    the options it tried (:meth:`played`), then its choices (:meth:`chose`); for the rows sampled
    for the lead history it keeps (``found``, by batch row and seat) the standing of the option
    chosen and the spread of the options'."""

    def __init__(self, idx: np.ndarray, wanted: np.ndarray, totals: np.ndarray | None, lower_wins: bool,
                 floor: int | None = None):
        self.idx, self.wanted, self.totals, self.lower_wins, self.floor = idx, wanted, totals, lower_wins, floor
        self.pairs: list[tuple[np.ndarray, ...]] = []
        empty = np.zeros(0, np.int64), np.zeros(0, np.int64)
        self.found: tuple[np.ndarray, ...] = (*empty, np.zeros(0), np.zeros(0))
        """(batch row, seat, standing of the option chosen, spread of the options') per deal."""

    def played(self, deal, option, seat, scores) -> None:
        keep = self.wanted[deal]
        if keep.any():
            deal, option, seat = deal[keep], option[keep], seat[keep]
            totals = None if self.totals is None else self.totals[deal]
            self.pairs.append((deal, option, seat, standing(totals, seat, np.asarray(scores)[keep],
                                                            self.lower_wins, self.floor)))

    def chose(self, choice) -> None:
        if not self.pairs:
            return
        deal, option, seat, values = (np.concatenate(c) for c in zip(*self.pairs, strict=True))
        order = np.argsort(deal, kind="stable")  # each deal's pairs together, in the order tried
        deal, option, seat, values = deal[order], option[order], seat[order], values[order]
        start = np.flatnonzero(np.r_[True, deal[1:] != deal[:-1]])
        # the first pair of each deal with the option chosen (the search chose among those it tried)
        tried = np.flatnonzero(option == np.asarray(choice)[deal])
        _, first = np.unique(deal[tried], return_index=True)
        # one option tried of two or more legal: the game calls them all interchangeable
        spread = np.maximum.reduceat(values, start) - np.minimum.reduceat(values, start)
        self.found = (self.idx[deal[start]].astype(np.int64), seat[start].astype(np.int64),
                      values[tried[first]], spread)
