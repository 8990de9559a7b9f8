"""Learn Out-Trumped's ``ot-learned`` (``ruffer`` with its leads and follows chosen by a model)
from play-outs on true deals (docs/reference-player.md, "Out-Trumped: a play-out policy learnt
from the true deal").

    python bench/ot_learn.py regenerate DIR     # the shipped weights, from scratch (about 5 CPU min)
    python bench/ot_learn.py collect OUT.npz [DEALS=20000] [SEED=1000] [WEIGHTS.npy]
    python bench/ot_learn.py fit OUT.npy DATA.npz [DATA.npz ...]
    python bench/ot_learn.py write WEIGHTS.npy  # into strategies/out_trumped.py, PLAY_WEIGHTS
    python bench/ot_learn.py heldout WEIGHTS.npy DATA.npz  # DATA collected under ruffer, not fitted on
    python bench/ot_learn.py duel [DEALS=20000] [SEED=2000] [WEIGHTS.npy ...]
    python bench/ot_learn.py seer [DEALS=8192] [SEED=3000] [WEIGHTS.npy ...]

*collect*: a seat plays the current own policy (``ruffer``, or ``ot-learned``'s play with
``WEIGHTS``) against 3 x ``hoarder``, seats rotated; at each of its free leads and follows every
candidate card (of each suit its highest legal card, its lowest and its cheapest winner,
:func:`strategies.out_trumped.play_features`) is played out on the *true* deal with the same
policy at its seat and ``hoarder`` elsewhere, and its margin (its score less the best other
seat's) is recorded beside the table entries its view gives it. *fit*: ridge least squares of
the margin on the entries (one-hot), each decision's mean taken out of both (only the
differences between a decision's candidates count). One round of policy iteration: collect
again with the fitted weights, fit on both. *regenerate* runs exactly that (seeds 1000 and
1200, 40 000 deals each) and writes the weights into the module. *duel*: each policy alone
against 3 x hoarder, paired deal by deal with ``ruffer``; *seer*: the search on the true deal
(``clairvoyant``'s) with each policy as its own play-out, paired with ``ruffer``'s. Training
seeds are 1000 and above, apart from the evaluation's (2000, 3000 here; 11 and 12 in the
strength table). ``OT_KINDS=lead`` in the environment: the model plays the leads only.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

import strategies
from simtool import bits, engine, games
from simtool.games.tricks import LEAD
from simtool.pipeline.runner import make_spec
from strategies import out_trumped as ot
from strategies import pimc

OT = games.get("out-trumped")
CHUNK = 1024
RIDGE = 1e-4
HOARDER = strategies.resolve("hoarder", OT.id)
RUFFER = strategies.resolve("ruffer", OT.id)


KINDS = tuple(os.environ.get("OT_KINDS", "lead,play").split(","))
"""The decision kinds the model plays (environment ``OT_KINDS``; default leads and follows)."""


def policy(weights):
    """The own policy: ``ruffer``, its card play of ``KINDS`` by ``weights`` where given."""
    if weights is None:
        return RUFFER
    return strategies.Strategy("learned", ot.learned_with(weights, KINDS), "")


def play(n, seed, strategy, sees=False):
    """``strategy`` in one seat against 3 x hoarder, rotated: its win share and margin per deal."""
    lineup = engine.Lineup([strategy, HOARDER], np.array([0, 1, 1, 1]), rotate=True, sees=(sees, False))
    rules = make_spec(OT.id, 4, n, "hoarder", seed=seed).rules
    win, margin = np.empty(n), np.empty(n)
    for first in range(0, n, CHUNK):
        ids = np.arange(first, min(first + CHUNK, n))
        out = engine.play_deals(OT, 4, rules, lineup, len(ids), np.random.default_rng([seed, first]),
                                np.random.default_rng([seed, first, 1]), engine.Context(OT.id, seed, n, "deal", ids))
        seat = (-ids) % 4
        rows = np.arange(len(ids))
        win[ids] = out.rounds["win"][rows, seat]
        score = out.rounds["score"].astype(float)
        mine = score[rows, seat]
        score[rows, seat] = -np.inf
        margin[ids] = mine - score.max(axis=1)
    return win, margin


def margins(view, rng, deal, option, own):
    """The margin of each (deal, option) on the true deal, ``own`` at the seat, hoarder elsewhere."""
    truth = engine.View.redeal(view, 1, rng)
    seats = np.asarray(view.seat)[deal]
    results = pimc._play_out(truth.take(deal), np.arange(len(deal)), option, HOARDER, (), seats, OT.id, own)
    return pimc._value(results, "margin", seats, OT.id)


def collect(out, n=20000, seed=1000, weights=None):
    weights = None if weights is None else np.load(weights)
    own = policy(weights)
    rows = []

    def collector(view, rng):
        choice = own(view, rng)
        if view.kind not in KINDS:
            return choice
        at = np.flatnonzero(bits.count(view.legal) > 1)
        if not at.size:
            return choice
        ruffed = RUFFER(view, rng)[at]
        cards, valid, codes = ot.play_features(view, at, ruffed)
        choice_at = choice[at]
        n = len(at)
        cards, valid = cards.reshape(-1, n).T, valid.reshape(-1, n).T  # (n, C)
        codes = codes.reshape(len(codes), -1, n).transpose(2, 1, 0)  # (n, C, tables)
        wide = max(len(ot.LEAD_TABLES), len(ot.FOLLOW_TABLES))  # the kinds' rows padded alike, by -1
        codes = np.concatenate([codes, np.full((*codes.shape[:2], wide - codes.shape[2]), -1)], axis=2)
        many = valid.sum(axis=1) > 1
        deal, c = np.nonzero(valid & many[:, None])
        if not len(deal):
            return choice
        value = margins(view, rng, at[deal], cards[deal, c], own)
        rows.append(dict(deal=deal + collector.offset, value=value.astype(np.float32),
                         codes=codes[deal, c].astype(np.int32), chosen=(cards[deal, c] == choice_at[deal]),
                         lead=np.full(len(deal), view.kind == LEAD)))
        collector.offset += len(at)
        return choice

    collector.offset = 0
    start = time.process_time()
    win, _ = play(n, seed, strategies.Strategy("collector", collector, ""), sees=True)
    data = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    np.savez_compressed(out, **data)
    print(f"{out}: {len(np.unique(data['deal']))} leads, {len(data['deal'])} candidates; the policy won "
          f"{win.mean():.3f}; {time.process_time() - start:.0f} CPU s")


def fit(out, *paths):
    """Ridge least squares of each candidate's margin, less its lead's mean, on its table entries
    (one-hot, less their lead's mean), by conjugate gradients on the normal equations."""
    from scipy.sparse.linalg import LinearOperator, cg

    data = [np.load(path) for path in paths]
    codes = np.concatenate([d["codes"] for d in data]).astype(np.int64)
    value = np.concatenate([d["value"] for d in data]).astype(np.float64)
    # leads numbered across the files (a file's leads are numbered from 0)
    group = np.concatenate([np.unique(d["deal"], return_inverse=True)[1] + k * 10**8 for k, d in enumerate(data)])
    group = np.unique(group, return_inverse=True)[1]
    size = np.bincount(group)
    _, width = ot.table_offsets(LEAD)
    codes[codes < 0] = width  # a padding entry, fitted and dropped
    width += 1

    def centred(v):
        return v - (np.bincount(group, v, len(size)) / size)[group]

    def normal(w):
        s = centred(np.take(w, codes).sum(axis=1))
        return np.bincount(codes.ravel(), np.repeat(s, codes.shape[1]), width) + RIDGE * len(value) * w

    rhs = np.bincount(codes.ravel(), np.repeat(centred(value), codes.shape[1]), width)
    w, info = cg(LinearOperator((width, width), normal), rhs, rtol=1e-6, maxiter=500)
    np.save(out, w[:-1])
    print(f"{out}: fitted on {len(value)} candidates of {len(size)} decisions ({width} weights, cg {info})")


def heldout(weights, path):
    """Per decision kind, on data ``path`` collected under ``ruffer`` (not fitted on): the mean
    true-deal margin of the candidate the true deal prefers, of the model's, and of the policy's
    own (``ruffer``'s where collected under it), and the share of the spread between a decision's
    candidates the model explains."""
    _, width = ot.table_offsets(LEAD)
    w = np.r_[np.load(weights), 0.0]  # the padding entry
    d = np.load(path)
    for kind, name in ((True, "leads"), (False, "follows")):
        at = d["lead"] == kind
        group = np.unique(d["deal"][at], return_inverse=True)[1]
        codes = d["codes"][at].astype(np.int64)
        codes[codes < 0] = width
        score, value = np.take(w, codes).sum(axis=1), d["value"][at].astype(np.float64)

        y = _centred(value, group)
        explained = 1 - ((y - _centred(score, group)) ** 2).sum() / (y ** 2).sum()
        best, model = _chosen(value, value, group), _chosen(score, value, group)
        own = _chosen(d["chosen"][at].astype(np.float64), value, group)
        print(f"{name} ({group.max() + 1}): the true deal's best {best:+.3f}, the model's {model:+.3f}, "
              f"the policy's {own:+.3f}; explained {explained:.1%}")


def _chosen(by, value, group):
    """The mean ``value`` of each group's candidate of the highest ``by``."""
    order = np.lexsort((-by, group))
    first = np.r_[True, group[order][1:] != group[order][:-1]]
    return value[order][first].mean()


def _centred(v, group):
    return v - (np.bincount(group, v) / np.bincount(group))[group]


def interval(diff):
    return f"{100 * diff.mean():+.2f} ± {196 * diff.std(ddof=1) / np.sqrt(len(diff)):.2f} points"


def duel(n=20000, seed=2000, *paths):
    start = time.process_time()
    base, _ = play(n, seed, RUFFER)
    print(f"ruffer alone: {base.mean():.4f} ({time.process_time() - start:.0f} CPU s)")
    for path in paths:
        start = time.process_time()
        win, _ = play(n, seed, policy(np.load(path)))
        print(f"{path} alone: {win.mean():.4f}, paired {interval(win - base)} "
              f"({time.process_time() - start:.0f} CPU s)")


def seer_of(own):
    """The search on the true deal (clairvoyant's) with ``own`` as the seat's play-out policy."""
    def choose(view, rng):
        choice = bits.lowest(view.legal)
        free = bits.count(view.legal) > 1
        if not free.any():
            return choice
        mine = own(view, rng)
        tried = np.where(free, view.distinct | bits.BIT[mine], bits.EMPTY)
        deal, option = np.nonzero(bits.to_mask(tried, view.n_actions))
        value = margins(view, rng, deal, option, own) + 1e-7 * (option == mine[deal])
        first = pimc._best(deal, value, 1)
        choice[deal[first]] = option[first]
        return choice
    return strategies.Strategy("seer", choose, "")


def seer(n=8192, seed=3000, *paths):
    start = time.process_time()
    base, _ = play(n, seed, seer_of(RUFFER), sees=True)
    print(f"seer, own ruffer: {base.mean():.4f} ({time.process_time() - start:.0f} CPU s)")
    for path in paths:
        start = time.process_time()
        win, _ = play(n, seed, seer_of(policy(np.load(path))), sees=True)
        print(f"seer, own {path}: {win.mean():.4f}, paired {interval(win - base)} "
              f"({time.process_time() - start:.0f} CPU s)")


def write(path):
    """Write the weights ``path`` into strategies/out_trumped.py as ``PLAY_WEIGHTS``."""
    w = np.load(path)
    w = np.where(np.abs(w) < 1e-6, 0.0, w)  # entries no candidate reached: 0 (not a rounding residue)
    rows = "\n".join("    " + ", ".join(f"{v:.4g}" for v in w[i:i + 10]) + "," for i in range(0, len(w), 10))
    module = Path(ot.__file__)
    text = module.read_text()
    start = text.index("PLAY_WEIGHTS = ")
    end = text.index('\n"""', start)
    module.write_text(text[:start] + f"PLAY_WEIGHTS = (\n{rows}\n)" + text[end:])
    print(f"wrote {path} into {module}")


def regenerate(folder):
    """The shipped weights: ``ruffer``'s data (seed 1000), a first fit, the fitted policy's data
    (seed 1200), a fit on both, written into the module."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    collect(out / "round0.npz", 40000, 1000)
    fit(out / "round1.npy", out / "round0.npz")
    collect(out / "round1.npz", 40000, 1200, out / "round1.npy")
    fit(out / "round2.npy", out / "round0.npz", out / "round1.npz")
    write(out / "round2.npy")


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "write":
        write(*args)
    elif command == "regenerate":
        regenerate(*args)
    elif command == "heldout":
        heldout(*args)
    elif command == "collect":
        collect(args[0], *[int(a) for a in args[1:3]], *args[3:])
    elif command == "fit":
        fit(*args)
    else:
        {"duel": duel, "seer": seer}[command](*[int(a) for a in args[:2]], *args[2:])
