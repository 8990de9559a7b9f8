"""``pimc``: determinized Monte Carlo search ("perfect information Monte Carlo") for every game.

At each decision the seat re-deals what it cannot see ``samples`` times (``view.redeal``), tries
every legal option in every one of those worlds, plays each world to the end of the round with a
play-out policy (``worlds.play_out``) and picks the option with the best mean value for itself
(among equals, the one the play-out policy itself would choose).
Every option is tried on the same worlds, so options are compared on common deals: the luck of
the re-deal cancels out of the comparison and few samples suffice.

It uses only the public strategy API, so it is the model for a search of your own.

Every decision kind is one option at a time in the engine (a Kansas City pass, an Out-Trumped
discard are played card by card, a colour is one of two, a bid one number), so the largest option
space is a hand of cards: the search tries each legal option in full, pruning only options the
game calls interchangeable (``view.distinct``: in Out-Trumped, of two cards of a suit with
nothing left between them, one is tried; the play-out policy's own choice is always tried) and
those the seat's own policy deems not worth a search (``choose.worth(view)``, the options worth
it or None: Out-Trumped's trump discards while a plain card is held, bids above twice a fair
share of the tricks and two). A 3-card
pass is thus searched in steps, one card given the cards already chosen, each step judged by
playing the rest of the pass and the round out with the play-out policy.

``clairvoyant`` is the same search on one world, the true deal: not a fair player, a reference
for what seeing every hidden card is worth (docs/reference-player.md). Restricted
(``pimc~RESTRICTION``), the search plays the restriction in its imagined moves as well.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, partial

import numpy as np

import strategies
from simtool import bits, games
from simtool.errors import StrategyError

from . import restrictions
from .base import PLAYOUT, STRATEGY, Param, Strategy, file_identity, strategy

ROWS = 1 << 17
"""Play-out rows (deal x option x world) per batch: bounds memory whatever the chunk size."""

PARAMS = (
    # Out-Trumped: 16 worlds; with its own play-outs by ruffer (below) 12 won 1.3 points more than
    # 8 on the same 4000 deals, and with the worlds read from the others' plays (infer, below) 16
    # win 1.1 points more than 12 on the same 4096 deals (docs/reference-player.md)
    Param("samples", int, 8, "re-dealt worlds per decision; every option is played out in each",
          1, 4096, by_game=(("out-trumped", 16),)),
    Param("playout", STRATEGY, "default", "the strategy every seat plays in the play-outs"),
    # Out-Trumped: a deal is won by the highest score, and a point taken from the leader counts
    # twice towards that: margin measured 0.2 to 0.9 points above score. Nine Lives (with the
    # belief's guided swaps): win 0.455 and 0.445 against score's 0.426 and 0.427 on the same 4096
    # deals (seeds 11 and 12): a seat whose own bid is lost still spoils the leader's
    # (docs/reference-player.md, "Guided swaps, one draw, and the win share")
    Param("value", str, "score", "what the search maximises for its seat: the round's score (its "
          "negative where the lowest score wins), its win share of the deal, or its margin (its "
          "score less the best other seat's)", values=("score", "win", "margin"),
          by_game=(("out-trumped", "margin"), ("nine-lives", "win"))),
    # Out-Trumped: ruffer is 4 points stronger than hoarder (docs/heuristics.md); the others' seats
    # keep the game's default, the model of the opponents
    Param("own", STRATEGY, PLAYOUT, "the strategy the searching seat itself plays in the play-outs and "
          "prefers among equals ('playout': the play-out policy)", by_game=(("out-trumped", "ruffer"),)),
    # a second look: the best `keep` options of the first `samples` worlds are played out in
    # `deep` worlds more and the best of them by its mean over all its worlds is chosen, so the
    # close contenders get many worlds while the options already far behind cost no more.
    # Nine Lives (with the bid in 32 worlds, below): the best 4 options in 24 more win 0.401 and
    # 0.402 against `exact` where the best 2 in 40 more, the bid in 8, won 0.389 and 0.378 on the
    # same deals (seeds 11 and 12, 4000 deals; docs/reference-player.md, "Nine Lives: the search").
    # With the guided belief (below) and the bid in 24 worlds, 20 more win as much as 24 (0.451 and
    # 0.449 against 0.446 and 0.451, same deals) for a fifth less CPU: Nine Lives' default
    Param("keep", int, 0, "options per decision given a second look in `deep` more worlds (0: none)",
          0, 64, by_game=(("nine-lives", 4),)),
    Param("deep", int, 0, "worlds more for each option given a second look", 0, 4096,
          by_game=(("nine-lives", 20),)),
    # a budget per decision kind: a decision met once a round (a bid) may be worth many more
    # worlds than each card played, at little cost beside the play decisions (Nine Lives: the bid
    # in 32 worlds instead of 8, measured with the second look above; 24 with the guided belief
    # and 20 worlds more: 24 and 32 measured alike, docs/reference-player.md)
    # Out-Trumped's discards (with a kitty: five a hand, each searched over a dozen cards, half the
    # play-outs of a deal under kitty=bid) in 6 worlds, the best 3 in 12 more (below): +0.4 points
    # (-0.7 to +1.5) against all in 16 on the same 4096 deals, at under half the discards'
    # play-outs; in 4 worlds alone they lost 2.3 to 3.2 points, with the best 3 in 12 more 0.8
    # (docs/speed.md, "The search in Out-Trumped's variants")
    Param("focus", str, "none", "the decision kind (a view's `kind`: bid, lead, play, pass, ...) searched "
          "with `focus_samples` worlds instead of `samples`",
          by_game=(("nine-lives", "bid"), ("out-trumped", "discard"))),
    Param("focus_samples", int, 0, "re-dealt worlds per decision of the kind `focus` (0: `samples`)",
          0, 4096, by_game=(("nine-lives", 24), ("out-trumped", 6))),
    Param("focus_keep", int, 0, "options per decision of the kind `focus` given a second look in "
          "`focus_deep` more worlds (0: as `keep`)", 0, 64, by_game=(("out-trumped", 3),)),
    Param("focus_deep", int, 0, "worlds more for each option of the kind `focus` given a second look "
          "(0: as `deep`)", 0, 4096, by_game=(("out-trumped", 12),)),
    # inference from the others' choices under the play-out policy, the model of them (its
    # `choose.redeal`): Nine Lives mends the worlds by swaps towards what `exact` would have done
    # (0.428 and 0.414 against 0.401 and 0.402 on the same 4000 deals, seeds 11 and 12, when it
    # kept the better half of twice the worlds and swapped at random); since its swaps give away
    # the card `exact` would have chosen instead, drawing twice the worlds buys nothing (0.452 and
    # 0.445 for 2, 0.454 and 0.448 for 1 with 12 rounds of swaps) and costs the draws
    # (docs/reference-player.md, "Guided swaps, one draw, and the win share"); Out-Trumped's hoarder is
    # deterministic, so each of its plays rules cards out, and of 3 worlds drawn the one that fits
    # its length-showing plays best is kept: +2.7 points (docs/reference-player.md)
    Param("infer", int, 0, "read the others' choices so far under the play-out policy, the model "
          "of them: draw `infer` times the worlds, mend them to fit and keep those that fit best "
          "(0: none; only where the policy offers a belief, else as 0)", 0, 64,
          by_game=(("nine-lives", 1), ("out-trumped", 3))),
)

INFER = PARAMS[-1]

# the search on the one true world takes only what shapes its play-outs (worlds, a second look and
# a budget per decision kind mean nothing there), and the reference keeps its defaults everywhere
# (its figures in docs/reference-player.md); the ladder gives it the top pimc's playout and value
CLAIRVOYANT = (PARAMS[1], replace(PARAMS[2], by_game=()))


def cost(params) -> float:
    """Work per deal relative to a heuristic: a decision plays ``samples`` worlds per option (it
    sets the chunks' size; a second look, on a few options, is left out: larger chunks play it
    faster, and the deals stay those of the search without it)."""
    return 2.0 * params.samples


def one_world(params) -> float:
    """Work per deal of the search on one world (``clairvoyant``): ``pimc`` with one sample."""
    return 2.0


def check(params, game_id: str | None) -> None:
    """Refuse a second look given half (``keep`` without ``deep`` or the reverse plays as none;
    ``focus_keep`` and ``focus_deep`` alike), inference from a play-out policy that offers no
    belief, and a ``focus`` the game has no decision of (each would never apply), in one line each."""
    from simtool.errors import NotForGame, SimtoolError, choices

    if bool(params.keep) != bool(params.deep):
        raise SimtoolError(f"bad parameters keep={params.keep}, deep={params.deep} of strategy 'pimc': a "
                           f"second look needs both above 0 (keep=4,deep=24: the best 4 options in 24 "
                           f"worlds more), or both 0 for none")
    # the game's default inference is simply off under a policy without a belief; asked for, refused
    asked = game_id is not None and params.infer != INFER.default_for(game_id)
    if asked and params.infer and not _offers_belief(strategies.resolve(params.playout, game_id)):
        raise SimtoolError(f"bad parameter infer={params.infer} of strategy 'pimc': its play-out policy "
                           f"'{params.playout}' offers no belief to read the others' choices by; choose "
                           f"infer=0, or a play-out policy that offers one: {choices(_believers(game_id))}")
    kinds = games.get(game_id).decisions if game_id is not None and params.focus != "none" else ()
    if kinds and params.focus not in kinds:
        # another game's decision, maybe: a sweep of several games skips this one's cells
        raise NotForGame(f"bad parameter focus '{params.focus}' of strategy 'pimc': {game_id} has no "
                         f"decision of that kind; choose one of: {choices(('none', *kinds))}")
    if bool(params.focus_keep) != bool(params.focus_deep):
        raise SimtoolError(f"bad parameters focus_keep={params.focus_keep}, focus_deep={params.focus_deep} of "
                           f"strategy 'pimc': a second look at the focus needs both above 0, or both 0 "
                           f"for the one of every kind (keep, deep)")


@strategy("pimc", "determinized Monte Carlo search: re-deals the unseen cards `samples` times, "
          "plays every legal option out in the same worlds, keeps the best mean", params=PARAMS,
          cost=cost, check=check, reports="always")
def pimc(view, rng, params):
    keep, deep = look(view.kind, params)
    return search(view, rng, worlds(view.kind, params), params.playout, params.value, params.own,
                  keep, deep, params.infer)


def worlds(kind: str, params) -> int:
    """The worlds a decision of ``kind`` is searched in: ``focus_samples`` for the kind ``focus``
    (where set), else ``samples``."""
    return params.focus_samples if params.focus_samples and kind == params.focus else params.samples


def look(kind: str, params) -> tuple[int, int]:
    """The second look ``(keep, deep)`` a decision of ``kind`` gets: ``focus_keep``,
    ``focus_deep`` for the kind ``focus`` (where set), else ``keep``, ``deep``."""
    if params.focus_keep and kind == params.focus:
        return params.focus_keep, params.focus_deep
    return params.keep, params.deep


@strategy("clairvoyant", "NOT A FAIR PLAYER, a reference: pimc's search on the true deal (it sees "
          "every hidden card): one world, the true one, per option, the same play-outs; what "
          "knowing the hidden cards is worth", params=CLAIRVOYANT, cost=one_world, reports="always")
def clairvoyant(view, rng, params):
    # the engine gives this strategy, and only it, the true deal through view.redeal (see
    # engine.Lineup.sees, strategies.sees_all): the very search pimc runs, on the one true world
    return search(view, rng, 1, params.playout, params.value)


def search(view, rng, k: int, playout_spec: str, value_of: str, own_spec: str = PLAYOUT, keep: int = 0,
           deep: int = 0, infer: int = 0) -> np.ndarray:
    """The choice per deal of the search over ``k`` worlds from ``view.redeal``, played out with
    ``playout_spec`` (``own_spec`` where the acting seat plays), maximising ``value_of``
    (``score``, ``win`` or ``margin``) for the acting seat. With ``keep`` and ``deep``, the
    ``keep`` best options of each deal are played out in ``deep`` worlds more, and the best of
    them by its mean over all ``k + deep`` worlds is chosen. With ``infer``, each look draws
    ``infer`` times the worlds and keeps those that fit best what the others chose this round
    under the play-out policy, where it offers a belief (:func:`_believed`).

    Under restrictions (``view.restrictions``, from ``STRATEGY~RESTRICTION``) the seat's own
    imagined later moves obey them too: its play-out policy is restricted alike, so the search
    judges each option by the play it will really be able to make."""
    choice = bits.lowest(view.legal)
    free = bits.count(view.legal) > 1  # a forced option needs no search
    if not free.any():
        return choice
    playout = _resolve(playout_spec, view.game, view._resolve)
    mine = playout if own_spec in (None, PLAYOUT, playout_spec) else _resolve(own_spec, view.game, view._resolve)
    policy = policy_choice(mine, view, rng)
    redeal = _believed(playout, infer) if infer else None
    if infer and redeal is None and _belief_left_behind(playout):
        from simtool.errors import SimtoolError

        raise SimtoolError(f"pimc@infer={infer} cannot read the others' choices by the belief of its "
                           f"play-out policy '{playout_spec}' under --isolate (the belief would run in "
                           f"simtool's process, and without it the results would differ from the run "
                           f"without --isolate); choose infer=0, or run it without --isolate")
    # one option of each interchangeable group (the play-out policy's own choice among them)
    tried = np.where(free, view.distinct | bits.BIT[policy], bits.EMPTY)
    # of those, only the ones the seat's own policy deems worth a search, where it says
    worth = getattr(getattr(mine, "choose", mine), "worth", None)
    worthy = None if worth is None else worth(view)
    if worthy is not None:
        tried &= worthy | bits.BIT[policy]
    deal, option = np.nonzero(bits.to_mask(tried, view.n_actions))  # every (deal, option) pair to try
    # where the worlds see no difference, the play-out policy's own judgement decides
    preferred = 1e-7 * (option == policy[deal])  # below any difference of two means (1 / (60 * 4096) at least)
    report = view._report  # set only while a lead history is recorded (simtool.pipeline.leads)
    value = _values(view, rng, k, deal, option, playout, mine, value_of, report, redeal)
    if keep and deep:
        best = _best(deal, value + preferred, keep)
        more = _values(view, rng, deep, deal[best], option[best], playout, mine, value_of, None, redeal)
        kept = np.full(len(deal), -np.inf)  # only the options given the second look stay in the race
        kept[best] = (k * value[best] + deep * more) / (k + deep)
        value = kept
    value += preferred
    first = _best(deal, value, 1)
    choice[deal[first]] = option[first]
    if report is not None:
        report.chose(choice)
    return choice


def policy_choice(policy, view, rng) -> np.ndarray:
    """``policy``'s own choice at the decision being searched, read as the engine reads a
    strategy's (a list, booleans as options 0 and 1): a plugin play-out policy answering in
    booleans, valid at a seat, ended the search in numpy's IndexError; one answering with
    options no game has is named, never left to numpy. Legality is the engine's to check (a
    restricted search's policy may pick outside the narrowed options)."""
    picked = np.asarray(policy(view, rng))
    if picked.dtype == np.bool_:
        picked = picked.astype(np.int64)
    def where() -> str:  # only where it is said: a search asks at every decision it searches
        return f"as the play-out policy of a search (decision '{view.kind}' of {view.game})"

    if picked.shape != view.legal.shape or picked.dtype.kind not in "iu":
        raise StrategyError(f"strategy '{policy.name}' returned {picked.dtype} of shape {picked.shape}, expected "
                            f"integers {view.legal.shape}, {where()}")
    outside = (picked < 0) | (picked >= view.n_actions)
    if outside.any():
        raise StrategyError(f"strategy '{policy.name}' chose option {picked[outside][0]}, outside "
                            f"0..{view.n_actions - 1}, {where()}")
    return picked.astype(np.int64, copy=False)


def _believed(model, draw: int):
    """The re-deal of the model of the other seats (the play-out policy), where it offers one
    (``model.choose.redeal(view, k, draw, rng)``: of ``draw`` times ``k`` worlds, mended to agree
    with what the others' choices so far reveal about their hands under the model, the ``k`` per
    deal that fit them best) as ``redeal(view, k, rng)``; else None (``view.redeal``)."""
    believed = getattr(model.choose, "redeal", None)
    return None if believed is None else partial(believed, draw=draw)


def _belief_left_behind(playout) -> bool:
    """Whether the play-out policy ``playout`` plays isolated (``--isolate``: its ``choose``
    runs in the plugin's process and offers no ``redeal`` here) though the plugin offers a
    belief, as its process described it: inference would then silently play otherwise than
    in-process."""
    remote = playout.choose
    return bool(getattr(remote, "isolated", False)) and bool(getattr(remote, "belief", False))


def _offers_belief(model) -> bool:
    """Whether the play-out policy ``model`` offers a belief: here, or (isolated) in its process."""
    return _believed(model, 1) is not None or _belief_left_behind(model)


def _believers(game_id: str) -> list[str]:
    """The strategies of ``game_id`` that offer a belief for ``infer`` (``choose.redeal``)."""
    return [name for name, s in strategies.registry(game_id).items() if _offers_belief(s)] or ["none"]


def _values(view, rng, k, deal, option, playout, mine, value_of, report, redeal=None) -> np.ndarray:
    """The mean value for the acting seat of each (``deal``, ``option``) pair over ``k`` worlds
    re-dealt from the view (by ``redeal(view, k, rng)`` where given), each deal's options played
    out in the same worlds."""
    worlds = view.redeal(k, rng) if redeal is None else redeal(view, k, rng)
    own = tuple(view.restrictions)
    value = np.empty((len(deal), k))  # per pair, its value in each world
    # a slice of pairs at a time, so memory stays bounded for any batch size and sample count
    step = max(1, ROWS // k)
    for start in range(0, len(deal), step):
        d, o = deal[start:start + step], option[start:start + step]
        rows = (d[:, None] * k + np.arange(k)).ravel()  # the k worlds of each pair's deal
        seats = np.repeat(view.seat[d], k)
        results = _play_out(worlds, rows, np.repeat(o, k), playout, own, seats, view.game, mine)
        value[start:start + step] = _value(results, value_of, seats, view.game).reshape(-1, k)
        if report is not None:  # the same play-outs give the seat's estimated standing
            report.played(d, o, view.seat[d], results["score"].reshape(len(d), k, -1))
    return value.mean(axis=1)


def _best(deal: np.ndarray, value: np.ndarray, n: int) -> np.ndarray:
    """Indices of the ``n`` pairs of highest value of each deal (``deal`` ascending)."""
    order = np.lexsort((-value, deal))
    d = deal[order]
    # each deal's first pair, and the pairs of each deal, without np.r_ (its Python indexing
    # machinery costs more than the rest here, at every decision the search makes)
    first = np.empty(len(d), bool)
    first[:1] = True
    np.not_equal(d[1:], d[:-1], out=first[1:])
    start = first.nonzero()[0]
    pairs = np.empty_like(start)
    np.subtract(start[1:], start[:-1], out=pairs[:-1])
    pairs[-1:] = len(d) - start[-1:]
    rank = np.arange(len(d)) - start.repeat(pairs)
    return np.sort(order[rank < n])


def _play_out(worlds, rows, options, playout, own, seats, game_id: str, mine=None) -> dict[str, np.ndarray]:
    """The results of the worlds ``rows`` played out from ``options`` with ``playout`` at every
    seat. Under restrictions (``own``: their names) the searching seat (``seats``, per row) plays
    them too: one play-out per searching seat, with the play-out policy restricted where that
    seat acts (one strategy for all seats keeps the engine's fastest path)."""
    mine = playout if mine is None else mine
    if not own and mine is playout:
        return worlds.take(rows).play_out(options, playout)
    out: dict[str, np.ndarray] = {}
    # one searching seat in every row, the common case: np.unique's sort costs more than the test
    for seat in seats[:1] if seats.size and (seats == seats[0]).all() else np.unique(seats):
        at = np.flatnonzero(seats == seat)
        policy = _restricted(mine, own, int(seat), game_id) if own else mine
        if mine is not playout:
            policy = _seat_bound(policy, playout, int(seat))
        for name, values in worlds.take(rows[at]).play_out(options[at], policy).items():
            out.setdefault(name, np.empty((len(rows), *values.shape[1:]), values.dtype))[at] = values
    return out


def _value(results, value_of: str, seats, game_id: str) -> np.ndarray:
    """Per play-out row, what the search maximises for the seat ``seats`` (per row): its win share,
    its score (negated where the lowest score wins), or its margin over the best other seat."""
    rows = np.arange(len(seats))
    if value_of == "win":
        return results["win"][rows, seats]
    score = results["score"].astype(np.float64)
    mine = score[rows, seats]
    if _lower_wins(game_id):
        score, mine = -score, -mine
    if value_of == "score":
        return mine
    score[rows, seats] = -np.inf
    return mine - score.max(axis=1)


def _resolve(spec: str, game_id: str, run_resolve=None):
    """The play-out policy as the run resolves names (``run_resolve``, the view's: a plugin policy
    of an ``--isolate`` run plays in its own process), or as a line-up would outside a run. A
    plugin's is looked up anew once its file or a helper beside it changed (:func:`file_identity`),
    as a line-up's plugin is: a notebook's next run plays the edit."""
    file = strategies.plugin_file(spec)
    return _looked_up(spec, game_id, run_resolve, file_identity(file) if file is not None else ())


# looked up once per process: the registries read the installed packages' entry points, which
# costs more than a small decision
@cache
def _looked_up(spec: str, game_id: str, run_resolve, identity: tuple):
    return (run_resolve or strategies.resolve)(spec, game_id)


@cache
def _seat_bound(mine, others, seat: int):
    """One play-out policy that plays ``mine`` where ``seat`` acts and ``others`` elsewhere (one
    strategy for all seats keeps the engine's fastest path). A policy may offer to play both in
    one pass (``mine.choose.beside(others, seat)``, a choose function or None); else both are
    asked for every world."""
    beside = getattr(mine.choose, "beside", None)
    choose = beside(others, seat) if beside is not None else None
    if choose is None:
        def choose(view, rng):
            theirs = others(view, rng)
            at = view.seat == seat
            return np.where(at, mine(view, rng), theirs) if at.any() else theirs
    return Strategy(f"{mine.name} (seat {seat}), else {others.name}", choose, mine.description)


@cache
def _restricted(playout, names: tuple[str, ...], seat: int, game_id: str):
    """The play-out policy ``playout`` under the restrictions ``names`` where ``seat`` acts (one
    object per process, so that a play-out asks it once per decision for all its worlds)."""
    limits = tuple(restrictions.check(list(dict.fromkeys(names)), game_id))
    name = playout.name + "".join(f"~{r.name}" for r in limits) + f" (seat {seat})"
    return Strategy(name, restrictions.Restricted(playout, limits, seat), playout.description)


@cache
def _lower_wins(game_id: str) -> bool:
    return games.get(game_id).lower_wins
