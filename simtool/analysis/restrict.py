"""What each restriction costs (restricted play, Jaffe et al.): a strategy that may not use an
option a designer asks about, against the same strategy unrestricted, on the same deals.

For a game, player count and rule variant, one *baseline* run seats the strategy at every seat,
and one run per restriction seats ``STRATEGY~RESTRICTION`` at line-up position 0 with the
strategy everywhere else, the line-up rotated one seat per deal (deal ``i`` puts position 0 at
seat ``-i mod p``). All runs share one seed. The shuffle draws from its own stream, chunk by
chunk, and a restriction adds no work per deal (the chunks are cut alike), so deal ``i`` holds
the same cards in every run whatever the strategies do: each deal is a pair, the restricted seat
against the same seat of the baseline. The cost is the mean paired difference of that seat's win
share (and score), with a 95% interval over the deals (Student's).

A restriction that never binds (the strategy already plays that way, or the rules leave no such
choice) costs exactly 0 for a strategy that draws no random numbers: no deal differs, and the
interval is the rule of three's (:func:`paired_cost`), about ± 3/n of win share, not an exact 0.
A strategy that does (random play, ``mistakes``, a search) is still paired on the deals, but its
draws fall differently once the line-ups differ, so a cost that is really 0 shows as a narrow
interval around 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options, stats
from simtool.analysis.verdicts import (
    NEVER_BINDS,
    RESTRICTION_THRESHOLDS,
    RESTRICTION_WORDS,
    UNCLEAR,
    bands,
    bands_text,
    fixed,
    restriction_verdict,
)
from simtool.errors import SimtoolError
from simtool.pipeline.folders import collect, load, other_deals, read_meta

THRESHOLDS_TEXT = (f"Crude play is worded as in simtool review, by the whole 95% interval of its cost in points "
                   f"of win share per seat: {bands_text(RESTRICTION_WORDS, RESTRICTION_THRESHOLDS)}; "
                   f"{NEVER_BINDS}: no result changed in any deal.")
"""The thresholds of :func:`verdict`'s words, as the console and the report state them."""


@dataclass(frozen=True)
class Setup:
    """One set of restricted-play runs: a game, player count, rules, seed and strategy."""

    game: str
    players: int
    rules: dict
    strategy: str
    baseline: Path
    restricted: dict[str, Path]  # restriction name -> run folder, in the game's order
    words: dict[str, tuple[str, str]]  # restriction name -> (the play as a gerund, a one-line description)

    def fits(self, meta: dict) -> bool:
        return (meta["game"], meta["players"], meta["rules"]) == (self.game, self.players, self.rules)


def setups(folders: list[Path]) -> list[Setup]:
    """The restricted-play sets among finished run folders; a restriction whose baseline is not
    among them is left out (there is nothing to pair it with)."""
    found: dict[tuple, dict] = {}
    for folder in folders:
        meta = read_meta(Path(folder))
        info = meta.get("restrict")
        if not isinstance(info, dict):
            continue
        key = (meta["game"], meta["players"], repr(sorted(meta["rules"].items())), meta["seed"],
               meta["n"], info["strategy"])
        entry = found.setdefault(key, {"meta": meta, "baseline": None, "restricted": {}, "words": {}})
        if info.get("restriction") is None:
            entry["baseline"] = Path(folder)
        else:
            entry["restricted"][info["restriction"]] = Path(folder)
            entry["words"][info["restriction"]] = (info.get("doing", f"playing {info['restriction']}"),
                                                   info.get("description", info["restriction"]))
    out = []
    for key, entry in found.items():
        if entry["baseline"] is None or not entry["restricted"]:
            continue
        listed = entry["meta"]["restrict"].get("restrictions", [])
        order = sorted(entry["restricted"], key=lambda r: listed.index(r) if r in listed else len(listed))
        out.append(Setup(key[0], key[1], entry["meta"]["rules"], key[5], entry["baseline"],
                         {r: entry["restricted"][r] for r in order}, entry["words"]))
    return out


def _panels(folder: Path, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deal numbers, and win and score per deal and seat ``(n, p)``, in deal order."""
    _, seats, _ = load(folder)
    rows = collect(folder / "seats.parquet", seats.select("deal", "seat", "win", "score")
                   .sort("deal", "seat"))
    deals = rows["deal"].to_numpy()[::p]
    return (deals, rows["win"].to_numpy().astype(float).reshape(-1, p),
            rows["score"].to_numpy().astype(float).reshape(-1, p))


def costs(folders: list[Path]) -> pl.DataFrame:
    """Each restriction's cost, one row per restriction of every restricted-play set among
    ``folders``: ``win_cost`` (the unrestricted seat's win share minus the restricted one's, on
    the same deals; positive: the restriction costs), ``score_change`` (restricted minus
    unrestricted mean score), each with its 95% interval, ``changed`` (share of deals whose
    scores differ anywhere), ``deals`` and ``verdict`` (:func:`verdict`: the review's ``nearly as
    good``, ``costs``, ``unclear`` or ``never binds``)."""
    rows = []
    for s in setups(folders):
        p = s.players
        deals, base_win, base_score = _panels(s.baseline, p)
        for name, folder in s.restricted.items():
            ids, win, score = _panels(folder, p)
            why = other_deals(read_meta(s.baseline), read_meta(folder))
            if why is not None or not np.array_equal(ids, deals):
                raise SimtoolError(f"{folder} and its baseline {s.baseline} hold different deals"
                                   f"{f' ({why})' if why else ''}; play them with one seed and n, by one "
                                   f"simtool restrict")
            at = (np.arange(len(ids)), (-ids) % p)  # line-up position 0's seat in each deal
            gain, half = paired_cost(win[at], base_win[at], 1.0)
            # a seat loses or gains at most its whole win: within -1 to 1 (2 deals' normal interval
            # once printed "75.0 pts (26.0 to 124.0)")
            low, high = max(-gain - half, -1.0), min(-gain + half, 1.0)
            # every seat's scores: the measured seat's alone scored 19 in both of 2 deals of Kansas
            # City, a spread of 0, and a restriction no deal reacted to read "0.000 ± 0.000"
            seen = np.concatenate([score.ravel(), base_score.ravel()])
            change, score_half = paired_cost(score[at], base_score[at], float(np.ptp(seen)) if len(seen) else 0.0)
            changed = float((score != base_score).any(axis=1).mean())
            rows.append({
                "game": s.game, "players": p,
                "rules": ", ".join(f"{k}={v}" for k, v in options.named(games.get(s.game), s.rules).items()),
                "strategy": s.strategy, "restriction": name, "doing": s.words[name][0],
                "description": s.words[name][1],
                "win_cost": -gain, "win_cost_low": low, "win_cost_high": high,
                "score_change": change, "score_change_low": change - score_half,
                "score_change_high": change + score_half,
                "changed": changed, "deals": len(ids), "verdict": verdict(-gain, low, high, changed),
            })
    schema = {"game": pl.String, "players": pl.Int64, "rules": pl.String, "strategy": pl.String,
              "restriction": pl.String, "doing": pl.String, "description": pl.String,
              "win_cost": pl.Float64, "win_cost_low": pl.Float64, "win_cost_high": pl.Float64,
              "score_change": pl.Float64, "score_change_low": pl.Float64,
              "score_change_high": pl.Float64, "changed": pl.Float64, "deals": pl.Int64,
              "verdict": pl.String}
    return pl.DataFrame(rows, schema=schema)


def paired_cost(a, b, bound: float) -> tuple[float, float]:
    """Mean of ``a - b`` over paired deals and the half-width of its 95% interval, never narrower
    than what the count of deals that differ allows. With few such deals the normal half-width
    is too narrow (none: exactly 0), so the half-width is at least how far the share of deals
    that differ could lie above the share seen (its one-sided 95% Clopper-Pearson bound: the
    rule of three, 1 - 0.05^(1/n), where none differs), each such deal moving the mean by at most
    ``bound`` (1 for a win share; for scores, the widest spread of scores seen at any seat in the
    two runs). One deal that differs then widens the interval, as it should, instead of
    narrowing it below the bound of none."""
    mean, half = stats.paired_difference(a, b)
    n = len(np.asarray(a))
    if not n:
        return mean, half
    diff = np.asarray(a, float) - np.asarray(b, float)
    k = int(np.count_nonzero(diff))
    if stats.alike(diff):  # every deal moved by the same amount
        low, high = stats.alike_interval(mean, n, bound)
        return mean, max(mean - low, high - mean)
    return mean, max(half, (stats.share_above(k, n, 0.95) - k / n) * bound)


def verdict(cost: float, low: float, high: float, changed: float | None = None) -> str:
    """The review's word for a cost (fractions of win share) with its 95% interval: ``nearly as
    good`` under 1 point, ``costs`` from 1 point (:data:`RESTRICTION_THRESHOLDS`), ``unclear``
    across it, ``never binds`` where ``changed`` (the share of deals whose result it changed) is
    0 (:func:`simtool.analysis.verdicts.restriction_verdict`). "costs" once meant any cost surely
    above 0: Hearts' no-queen-dump, 0.6 points (0.5 to 0.7), "costs" here beside "nearly as good
    (flagged)" in the review."""
    if changed == 0:
        return NEVER_BINDS
    lowest, highest = bands(100 * low, 100 * high, RESTRICTION_THRESHOLDS)
    return RESTRICTION_WORDS[lowest] if lowest == highest else UNCLEAR


def fmt_cost(cost: float, low: float, high: float) -> str:
    """A win-share cost in points with its interval, under a column headed in points as the
    review's tables are ("win share cost (points)"): ``4.1 (3.2 to 5.0)``; a difference of
    shares, so in points, as the review says it ("4.1%" would read as a share of the share). Never
    rounded onto the 1 point of its words (:data:`RESTRICTION_THRESHOLDS`) it is not on: 300 deals
    none of which differs read "0.0 (-1.0 to 1.0)" for an interval of ± 0.99; nor onto 0,
    which says whether it surely costs or surely helps (an end of +0.02 read "0.0", as did -0.02)."""
    near = [0.0, *RESTRICTION_THRESHOLDS]
    if not (math.isfinite(low) and math.isfinite(high)):  # one deal: "100.0 (nan to nan)"
        return f"{fixed(100 * cost, near)} (95% interval n/a)"
    # ends apart: 4 million paired deals read "15.5 (15.5 to 15.5)", as if known exactly
    places = stats.apart(low, high, lambda x, k: fixed(100 * x, near, digits=k), 1)

    def pts(x: float) -> str:
        return fixed(100 * x, near, digits=places)
    return f"{pts(cost)} ({pts(low)} to {pts(high)})"


def score_heading(game: str) -> str:
    """The score change's column heading, which says the side that wins where lower scores do:
    the change is the restricted seat's mean score minus the unrestricted one's, so Hearts'
    no-queen-dump, +0.63 beside a cost of 0.5 points, read as a gain where Kansas City's
    no-upgrade, -4.53 beside a cost of 15.0, read as the loss both are."""
    return "score change" + (" (lower is better)" if games.get(game).lower_wins else "")


def sentence(row: dict) -> str:
    """One restriction's cost in plain words: the review's sentence of the same figure
    (:func:`simtool.analysis.verdicts.restriction_verdict`)."""
    cost = (100 * row[k] for k in ("win_cost", "win_cost_low", "win_cost_high"))
    return restriction_verdict(row["doing"], row["strategy"], *cost, row["deals"], row.get("changed")).sentence
