"""Match tension, from the seat rows of whole matches: is a match decided early, or does it
stay open to the end?

Per match, from each round's scores as running totals: the lead changes (a new seat leads
alone; a tie for the lead is no one's lead and changes nothing), the round from which the
final winner leads for good (decisiveness), whether the winner was behind after the first
round and at half-time (comebacks), the final margin between first and second (closeness)
and the match's length. Lower-is-better games (Trickster) lead with the lowest total; a game
whose totals have a floor (Out-Trumped's 0) has its running totals floored as it plays them. A
match whose win is shared has no single winner: it counts for lead changes, margin and
length only; partners (seats that scored alike in every match) count as one seat, their side,
which wins the shares they split. Every interval is on matches (with ``--duplicate``, on the deal of cards
whose copies they are), through :func:`stats.unit_estimate`.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simtool import stats
from simtool.games import ROUND_CAP

TABLE = "Match tension (whole matches)"


def running_totals(seats: pl.DataFrame, floor: int | None = None) -> pl.DataFrame:
    """Every seat's match total after each round: ``match, [rotation,] round, seat, score,
    total``. ``floor`` (the game's ``total_floor``, at most 0): the total plus each round's score
    is floored there, as the game scores it; the running sum ``S`` floored so is ``S`` less the
    lowest it has been below the floor (``min(0, cummin(S) - floor)``), a reflected walk."""
    keys = ["match", "rotation"] if "rotation" in seats.columns else ["match"]
    running = (seats.select(*keys, "round", "seat", pl.col("score").cast(pl.Int64))
               .sort(*keys, "seat", "round")
               .with_columns(pl.col("score").cum_sum().over(*keys, "seat").alias("total")))
    if floor is None:
        return running
    below = (pl.col("total").cum_min().over(*keys, "seat") - floor).clip(upper_bound=0)
    return running.with_columns(pl.col("total") - below)


def per_match(seats: pl.DataFrame, matches: pl.DataFrame, lower_wins: bool,
              floor: int | None = None) -> pl.DataFrame:
    """One row per match (and copy): ``match, [rotation,] rounds, lead_changes, decided_after,
    behind_first, behind_half, margin`` (``decided_after``, ``behind_*`` null without a sole
    winner). ``seats``: ``match, [rotation,] round, seat, score``; ``matches``: the match table;
    ``floor``: the game's ``total_floor`` (:func:`running_totals`); ``behind_*`` null too in a
    match of one round."""
    keys = ["match", "rotation"] if "rotation" in seats.columns else ["match"]
    best = pl.col("total").min() if lower_wins else pl.col("total").max()
    running = running_totals(seats, floor)
    by_round = running.group_by(*keys, "round").agg(
        best.alias("best"),
        ((pl.col("total") == best).sum() == 1).alias("sole"),
        pl.col("seat").filter(pl.col("total") == best).first().alias("top"),
        pl.col("seat").sort_by("seat").alias("seats"),
        pl.col("total").sort_by("seat").alias("totals"),
    ).with_columns(pl.when("sole").then("top").alias("leader")).sort(*keys, "round")
    winner = matches.filter(pl.col("win") == 1).select(*keys, pl.col("seat").alias("winner"))
    length = matches.filter(pl.col("seat") == 0).select(*keys, "rounds")
    finals = matches.group_by(*keys).agg(pl.col("total").sort(descending=not lower_wins).head(2).alias("top2"))
    rows = by_round.join(length, on=keys).join(winner, on=keys, how="left")
    winner_total = pl.col("totals").list.get(pl.col("winner"), null_on_oob=True)
    behind = (winner_total > pl.col("best")) if lower_wins else (winner_total < pl.col("best"))
    # the round after which half the match is played; where the middle falls inside a round (an
    # odd length), the round that passes it: round 2 of 3 (docs/language.md)
    half = (pl.col("rounds") + 1) // 2 - 1
    led = rows.filter(pl.col("leader").is_not_null()).with_columns(
        (pl.col("leader") != pl.col("leader").shift(1).over(keys)).fill_null(False).alias("change"))
    changes = led.group_by(keys).agg(pl.col("change").sum().alias("lead_changes"))
    out = rows.group_by(keys).agg(
        pl.col("rounds").first(),
        pl.col("winner").first(),
        # the winner leads alone in every round after the last one it did not
        (pl.col("round").filter(pl.col("leader").ne_missing(pl.col("winner"))).max().fill_null(-1) + 2)
        .alias("decided_after"),
        behind.filter(pl.col("round") == 0).first().alias("behind_first"),
        behind.filter(pl.col("round") == half).first().alias("behind_half"),
    )
    out = out.join(changes, on=keys, how="left").join(finals, on=keys)
    return out.select(
        *keys, "rounds", pl.col("lead_changes").fill_null(0),
        # a winner by tie-break leads alone nowhere at the end: decided in the last round
        pl.when(pl.col("winner").is_not_null()).then(pl.min_horizontal("decided_after", "rounds"))
        .alias("decided_after"),
        # a one-round match has no round 1 or half-time before its end, where its winner cannot be
        # behind: no comeback figure (counted, every such match read as one without a comeback)
        *[pl.when(pl.col("rounds") > 1).then(name).alias(name) for name in ("behind_first", "behind_half")],
        (pl.col("top2").list.first() - pl.col("top2").list.last()).abs().alias("margin"),
    ).sort(keys)


FLOORS = {"mean_rounds": 1, "mean_lead_changes": 0, "mean_decided_after": 1, "mean_margin": 0}
"""What each mean can never be below (a match lasts a round at least, is decided after one, no
match has fewer than 0 lead changes or a margin under 0): the normal interval of a few matches
reached below it ("a match lasts 10 ± 11 rounds" of two Nine Lives matches), and is cut there."""
CEILINGS = {"mean_rounds": ROUND_CAP, "mean_lead_changes": ROUND_CAP - 1, "mean_decided_after": ROUND_CAP}
"""What each mean can never be above: no match lasts past the round cap, nor changes its leader
more often than between its rounds. Student's interval from two matches reached "75 (1 to 596)
rounds" with the cap at 200."""


def summary(rows: pl.DataFrame) -> pl.DataFrame:
    """The tension figures over matches, each with its 95% interval (cut at :data:`FLOORS` and
    :data:`CEILINGS`): one row."""
    tally = Tally("rotation" in rows.columns)
    tally.add(rows)
    return tally.summary()


class Tally:
    """:func:`summary` and :func:`lengths` of :func:`matchwise`'s rows given a batch of whole
    matches at a time, in match order: the same tables bit for bit (:class:`stats.UnitFold`; the
    lengths' counts are whole numbers) without a row per match held (a printed run of 1e7 matches:
    hundreds of MiB). ``duplicate``: rows per copy of a match, whose intervals are on the match."""

    FIGURES = ("mean_rounds", "mean_lead_changes", "mean_decided_after", "decided_share_of_match",
               "winner_behind_after_round_1", "winner_behind_at_half_time", "mean_margin")
    SHARES = ("decided_share_of_match", "winner_behind_after_round_1", "winner_behind_at_half_time")
    CHARTED = (("lead_changes", "lead changes per match"), ("decided_after", "winner leads for good from round"),
               ("rounds", "rounds per match"))

    def __init__(self, duplicate: bool):
        self.duplicate, self.matches = duplicate, 0
        self.folds = {name: stats.UnitFold(counted=not duplicate) for name in self.FIGURES}
        # per match length: its rows, their squares per match and times the match's rows; the rows,
        # their squares per match and the matches (stats.counted_distribution)
        self.lengths, self.rows = {}, [0, 0, 0]
        self.counts: dict[str, dict] = {name: {} for name, _ in self.CHARTED}  # value -> rows, for charts

    def add(self, rows: pl.DataFrame) -> None:
        self.matches += rows.height
        sole = rows.filter(pl.col("decided_after").is_not_null())
        put = {"mean_rounds": rows["rounds"], "mean_lead_changes": rows["lead_changes"],
               "mean_decided_after": sole["decided_after"],
               # when it was decided, as a share of its match, averaged over matches: each match weighs
               # alike (summing rounds first let a long match, such as one stopped at the round cap, count
               # as many short ones: Nine Lives printed 75.6% for a mean share of 67.8%)
               "decided_share_of_match": sole["decided_after"] / sole["rounds"], "mean_margin": rows["margin"]}
        picked = {name: rows if name in ("mean_rounds", "mean_lead_changes", "mean_margin") else sole for name in put}
        for name, column in (("winner_behind_after_round_1", "behind_first"),
                             ("winner_behind_at_half_time", "behind_half")):
            picked[name] = sole.filter(pl.col(column).is_not_null())  # matches of more than one round
            put[name] = picked[name][column].cast(pl.Float64)
        for name in self.FIGURES:
            units = picked[name]["match"].to_numpy() if self.duplicate else None
            self.folds[name].add(put[name].to_numpy(), units=units)
        _, at = np.unique(rows["match"].to_numpy(), return_inverse=True)
        m, x = np.bincount(at), rows["rounds"].to_numpy()
        for v in np.unique(x).tolist():
            k = np.bincount(at[x == v], minlength=len(m))
            sums = self.lengths.setdefault(v, [0, 0, 0])
            for i, part in enumerate((k.sum(), (k * k).sum(), (k * m).sum())):
                sums[i] += int(part)
        for i, part in enumerate((m.sum(), (m * m).sum(), len(m))):
            self.rows[i] += int(part)
        for name, _ in self.CHARTED:
            counts = self.counts[name]
            for value, n in (sole if name == "decided_after" else rows)[name].value_counts().iter_rows():
                counts[value] = counts.get(value, 0) + n

    def summary(self) -> pl.DataFrame:
        out = {"matches": self.matches}
        for name in self.FIGURES:
            value, low, high = self.folds[name].estimate(share=name in self.SHARES)
            if name in FLOORS and math.isfinite(low):
                low = max(low, FLOORS[name])
            if name in CEILINGS and math.isfinite(high):
                high = min(high, CEILINGS[name])
            out.update({name: value, f"{name}_low": low, f"{name}_high": high})
        return pl.DataFrame([out])

    def length_table(self) -> pl.DataFrame:
        """:func:`lengths`."""
        values = sorted(self.lengths)
        if not values:
            return lengths(pl.DataFrame({"match": [], "rounds": []}, schema={"match": pl.Int64, "rounds": pl.Int16}))
        K, KK, KM = (np.array([self.lengths[v][i] for v in values]) for i in range(3))
        M, MM, units = self.rows
        return stats.counted_distribution("rounds", values, K, KK, KM, float(M), float(MM), units)


def lengths(rows: pl.DataFrame) -> pl.DataFrame:
    """The share of matches lasting each number of rounds, with 95% intervals on matches."""
    values = sorted(rows["rounds"].unique().to_list())
    return stats.count_distribution(rows.select("match", "rounds"), "rounds", values)


def text(table: pl.DataFrame, lower_wins: bool, sides: list[tuple[int, ...]] = ()) -> str:
    """The tension figures in one plain sentence; ``sides``: partners counted as one seat each."""
    r = table.row(0, named=True)

    def mean(name: str) -> str:
        # cut at its floor: "10 ± 11 rounds" read as reaching -1; the ends as they are
        return stats.fmt_mean(r[name], r[f"{name}_low"], r[f"{name}_high"])

    def share(name: str) -> str:
        return stats.fmt_share(r[name], r[f"{name}_low"], r[f"{name}_high"])

    sole = math.isfinite(r["decided_share_of_match"])
    comeback = (f"the winner was behind after round 1 in {share('winner_behind_after_round_1')} of matches "
                f"and at half-time in {share('winner_behind_at_half_time')}"
                if math.isfinite(r["winner_behind_at_half_time"]) else
                "no match lasted more than one round, so no winner could be behind before the end" if sole else
                "no match had a sole winner (every win shared by seats level on total, as partners' is), so "
                "there is no winner to be behind or to lead for good")
    decided = (f"; the winner leads for good from round {mean('mean_decided_after')} on "
               f"({share('decided_share_of_match')} of the way through)" if sole else "")
    return (f"Match tension: a match lasts {mean('mean_rounds')} rounds with {mean('mean_lead_changes')} "
            f"lead changes{decided}; {comeback}; first and second end "
            f"{mean('mean_margin')} points apart{' (lowest total wins)' if lower_wins else ''}"
            + (f"; partners count as one side: {' against '.join('+'.join(map(str, s)) for s in sides)}." if sides
               else "."))


def charts(tally: Tally) -> list[tuple[str, object]]:
    """(caption, matplotlib figure): lead changes, when matches are decided, and their length."""
    from matplotlib.figure import Figure as Chart

    chart = Chart(figsize=(7.8, 2.6), layout="constrained")
    panels = chart.subplots(1, 3)
    for ax, (name, label) in zip(panels, Tally.CHARTED, strict=True):
        counts = tally.counts[name]
        x = np.array(sorted(counts))
        n = np.array([counts[v] for v in x.tolist()], np.int64)
        ax.bar(x, 100 * n / max(n.sum(), 1), color="#2f5d8c", width=0.8)
        ax.set(xlabel=label, ylabel="matches (%)")
    return [("Match tension: lead changes, the round from which the winner leads for good, "
             "and match length", chart)]


def as_sides(seats: pl.DataFrame, matches: pl.DataFrame,
             sides: list[tuple[int, ...]]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The seat and match rows with each side of partners (:func:`simtool.analysis.verdicts.partners`)
    as one seat, numbered as the sides are, winning its seats' shares: partners split every win,
    so without this no match has a sole winner to measure comebacks and leads by."""
    if not sides:
        return seats, matches
    side = {seat: i for i, members in enumerate(sides) for seat in members}
    first = [members[0] for members in sides]
    keys = ["match", "rotation"] if "rotation" in matches.columns else ["match"]

    def renumber(rows: pl.DataFrame) -> pl.DataFrame:
        return rows.with_columns(pl.col("seat").replace_strict(side, return_dtype=rows["seat"].dtype))

    won = renumber(matches).group_by(*keys, "seat").agg(pl.col("win").sum().round(6))
    matches = renumber(matches.filter(pl.col("seat").is_in(first))).drop("win").join(won, on=[*keys, "seat"])
    return renumber(seats.filter(pl.col("seat").is_in(first))), matches.sort(*keys, "seat")


def analyse(seats: pl.DataFrame, matches: pl.DataFrame, lower_wins: bool,
            floor: int | None = None,
            sides: list[tuple[int, ...]] = ()) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """``(per match rows, summary table, length table)``; ``floor``: the game's ``total_floor``;
    ``sides``: partners, each measured as one seat (:func:`as_sides`)."""
    rows = matchwise(seats, matches, lower_wins, floor, sides)
    return rows, summary(rows), lengths(rows)


BATCH_MATCHES = 1 << 13
"""Matches :func:`matchwise` reads at once: the rounds' lists and joins of :func:`per_match` over
every match at once took 320 MiB per 100,000 Kansas City matches (a printed run of 1e6 matches
2.7 GB); a batch of 8,192 about 50 (and no more CPU than one pass)."""


def matchwise(seats: pl.DataFrame, matches: pl.DataFrame, lower_wins: bool, floor: int | None = None,
              sides: list[tuple[int, ...]] = ()) -> pl.DataFrame:
    """:func:`per_match` of :func:`as_sides`, over :data:`BATCH_MATCHES` matches at a time (each
    match with all its rows and copies: both work match by match), joined in match order: the
    rows of one pass, since :func:`per_match` sorts its rows by match."""
    ids = matches["match"].unique().sort()
    if ids.len() <= BATCH_MATCHES:
        return per_match(*as_sides(seats, matches, sides), lower_wins, floor)
    parts = []
    for start in range(0, ids.len(), BATCH_MATCHES):
        inside = pl.col("match").is_between(ids[start], ids[min(start + BATCH_MATCHES, ids.len()) - 1])
        parts.append(per_match(*as_sides(seats.filter(inside), matches.filter(inside), sides), lower_wins, floor))
    return pl.concat(parts)



def streamed(seats: pl.LazyFrame, matches: pl.LazyFrame, lower_wins: bool, floor: int | None = None,
             sides: list[tuple[int, ...]] = ()) -> Tally | None:
    """:func:`matchwise` of a run's frames read a batch of whole matches at a time
    (:func:`stats._unit_batches` of each, a chunk's matches at least), tallied: a printed match
    run collected every row first (438 MiB at 1e6 Kansas City matches). ``None`` where either
    frame's rows lie in no order of matches (they are then read whole)."""
    inputs = [stats._unit_batches(seats, (), [pl.col("score")]),
              stats._unit_batches(matches, (), [pl.col(c) for c in ("win", "rounds", "total")])]
    held: list[list[pl.DataFrame]] = [[], []]
    # top: the largest match read from each frame, every row after lies past it (None: all read)
    top: list[float | None] = [-math.inf, -math.inf]
    tally = Tally("rotation" in matches.collect_schema().names())
    while any(t is not None for t in top):
        i = 0 if top[1] is None or top[0] is not None and top[0] <= top[1] else 1
        batch = next(inputs[i], False)
        if batch is None:
            return None
        if batch is False:
            top[i] = None
        else:
            held[i].append(batch)
            top[i] = batch["match"].max()
        # matches up to the lower top are whole in both frames
        whole = min(math.inf if t is None else t for t in top)
        frames = [pl.concat(h) if h else None for h in held]
        if any(f is None for f in frames):
            continue
        inside = pl.col("match") <= whole
        done = [f.filter(inside) for f in frames]
        if done[1].height:
            tally.add(matchwise(*done, lower_wins, floor, sides))
        held = [[f.filter(~inside)] for f in frames]
    return tally
