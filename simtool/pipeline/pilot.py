"""A quick pilot of whole matches under random play, to warn before a run whose matches will
mostly stop at the round cap (a goal or a lives count the rules cannot reach in time).

The estimate is empirical, not a bound: the most points a round can award says little here (an
Out-Trumped player could score 34 a hand at 6 players, yet the leader gains about 5), and a
Nine Lives deck can get stuck with cards nobody can ever bid on. So :data:`PILOT` matches are
played with ``random`` at every seat, dropping each match as it ends, and the pilot stops as
soon as it is clear that most matches end: with the sheet's rules after a few rounds.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simtool.engine import ROUND_CAP, Context, Lineup, ended, play_round, take

PILOT = 200
"""Matches the pilot plays."""
WARN_AT = 0.5
"""Warn when at least this share of the pilot's matches reaches the round cap."""


def capped_share(game, p: int, rules: dict) -> float:
    """The share of :data:`PILOT` random-play matches that reach the round cap, or any share below
    :data:`WARN_AT` once that is certain (the pilot stops early)."""
    return _capped_share(game.id, p, tuple(sorted(rules.items())))


@cache
def _capped_share(game_id: str, p: int, rules: tuple) -> float:
    import strategies
    from simtool import games

    game, rules = games.get(game_id), dict(rules)
    rng = np.random.default_rng(0)  # the same warning for the same rules, whatever the run's seed
    lineup = Lineup([strategies.resolve("random", game_id)], np.zeros(p, np.int64))
    match, ids = game.new_match(PILOT, p, rules), np.arange(PILOT)
    ctx = Context(game_id, 0, PILOT, "match", ids)
    for rnd in range(ROUND_CAP):
        results = play_round(game, game.deal(rng, match, rnd), lineup, rng, ctx)
        game.end_round(match, results)
        # read as the run reads it: a single bool for every match was ~True, -2, taken as a row number
        going = ~ended(game, match, rnd, len(ctx.ids))
        match, ctx.ids = take(match, going), ctx.ids[going]
        if len(ctx.ids) < WARN_AT * PILOT:
            break
    return len(ctx.ids) / PILOT


class CappedWarning(UserWarning):
    """The Python API's warning before a run whose matches will mostly reach the round cap."""


def warning(spec) -> str | None:
    """One line to show before a run of whole matches that will mostly be stopped by the round
    cap; ``None`` for any other run. Single deals have no cap, and the sheet's rules are not
    piloted (every game's are known to end: ``tests/test_hardening_rules.py`` pilots them)."""
    if spec.unit != "match":
        return None
    from simtool import games, options

    game = games.get(spec.game)
    defaults = options.resolve(game, {})
    if spec.rules == defaults:
        return None
    share = capped_share(game, spec.players, spec.rules)
    if share < WARN_AT:
        return None
    changed = "".join(f", {k}={v}" for k, v in spec.rules.items() if v != defaults[k])
    return (f"{share:.0%} of {PILOT} pilot matches ({spec.game}, {spec.players} players{changed}, "
            f"random play) reached the {ROUND_CAP}-round cap: this run's matches will mostly stop "
            f"there, as draws among the leaders, not by the rules' end condition")
