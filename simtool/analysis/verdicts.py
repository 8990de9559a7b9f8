"""Verdicts in words: figures with their 95% intervals turned into the word and the sentence a
designer can repeat, by thresholds stated here. Pure functions over figures; nothing is played.

One rule for every verdict. A figure's thresholds cut its scale into bands, each with a word
(the seat edge: ``fair`` below 1 point, ``slight`` from 1 to below 3, ``strong`` from 3 on). A
value exactly at a threshold belongs to the band above it. An interval gets a band's word when
every value in it lies in that band; an interval reaching into two bands is ``unclear``, and
the sentence says between which words and about how many more units (deals or matches) would
settle it (:func:`more_units`). Where several intervals decide one verdict (every seat's edge),
the verdict is the band of the largest of them: the lowest band it can be is the highest of the
lowest bands the intervals allow, the highest band the highest of their highest bands; the
verdict is a word when the two agree.

Seats are numbered from 0, as every simtool report and ``--seat`` number them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from simtool.stats import LUCK_MIN_DEALS, apart, percent, shown_decimals, wilson_one

SEAT_THRESHOLDS = (1.0, 3.0)
"""|edge| in points: ``fair`` below 1, ``slight`` 1 to below 3, ``strong`` 3 and more."""
SEAT_WORDS = ("fair", "slight", "strong")
SEAT_MIN_UNITS = 30
"""Units below which the seat verdict is ``unclear`` whatever the intervals say: each seat's
Wilson interval from a few units misses far more often than 1 time in 20 (one deal of six
random seats read "strong" every time: the winner's 1 of 1 is 20.7% to 100%, above 16.7% + 3
points), and a verdict reads every seat's; drawn fair games at 2-6 seats read ``slight`` or
``strong`` up to 45% of the time below 10 units, at most 9% from 30."""
SKILL_THRESHOLDS = (3.0, 10.0)
"""Gain of the stronger play in points: ``little`` below 3, ``some`` 3 to below 10, ``much``
10 and more (a loss is ``little``)."""
SKILL_WORDS = ("little", "some", "much")
LUCK_THRESHOLDS = (0.3, 0.6)
"""Share of the variance of a seat's result the cards explain: ``low`` below 30%, ``moderate``
30% to below 60%, ``high`` 60% and more."""
LUCK_WORDS = ("low", "moderate", "high")
HAZARD_THRESHOLDS = (0.01, 0.10)
"""Rate of a hazard: ``rare`` below 1%, ``occasional`` 1% to below 10%, ``common`` 10% and more."""
HAZARD_WORDS = ("rare", "occasional", "common")
TENSION_THRESHOLDS = (0.10, 0.25)
"""Share of matches whose winner was behind at half-time: ``low`` tension below 10%, ``some``
10% to below 25%, ``high`` 25% and more."""
TENSION_WORDS = ("low", "some", "high")
CONVERGED_POINTS = 1.0
"""The search has converged when doubling its samples buys less than this many points (the
whole interval of the gain below it); it is still gaining when the gain is at least this and its
interval lies above 0: :func:`simtool.analysis.ladder.converged`'s rule, in points."""
HIDDEN_THRESHOLDS = SKILL_THRESHOLDS
"""What seeing every hidden card wins, in points of win share per seat: ``little`` below 3,
``some`` 3 to below 10, ``much`` 10 and more (a loss is ``little``)."""
HIDDEN_WORDS = SKILL_WORDS
UNCLEAR = "unclear"


@dataclass(frozen=True)
class Verdict:
    """A verdict: its ``word``, the ``sentence``, the ``figures`` behind it (JSON-ready) and the
    ``thresholds`` used (band word -> the value it starts at). ``more`` (unclear verdicts): how
    many more units would settle it, assuming the estimates are the truth; ``None`` where it is
    settled, or where an estimate sits on a threshold and no number of units settles it."""

    word: str
    sentence: str
    figures: dict = field(default_factory=dict)
    thresholds: dict = field(default_factory=dict)
    more: int | None = None


def stated(words: Sequence[str], thresholds: Sequence[float]) -> dict[str, float]:
    """The thresholds as stated beside a verdict: each word above the first -> where it starts."""
    return dict(zip(words[1:], thresholds, strict=True))


def bands_text(words: Sequence[str], thresholds: Sequence[float], share: bool = False) -> str:
    """Each word's band as a console line states them, ``fair < 1 point, slight 1 to < 3,
    strong >= 3``; ``share``: thresholds that are shares, in %."""
    values = [f"{100 * t:g}%" if share else f"{t:g}" for t in thresholds]
    unit = "" if share else " point" if values[0] == "1" else " points"
    return ", ".join([f"{words[0]} < {values[0]}{unit}",
                      *(f"{w} {lo} to < {hi}" for w, lo, hi in zip(words[1:], values, values[1:], strict=False)),
                      f"{words[-1]} >= {values[-1]}"])


ROUNDING = 1e-6
"""How near a threshold (relative to it) a figure lies on it but for rounding. Binary rounding
alone is ~1e-16; the tables store a split win as float32 (a third is 0.3333333433), so a share
read from them is up to 1e-8 off, an edge up to 1e-6 of a 1-point threshold: 400 deals of
Trickster whose seat 0 won exactly 1 point over fair, one win of them split three ways, gave an
edge of 1.0000000025 points, printed "+1.000000002 pts" and read as needing "about
450,000,000,000,000 million more deals" to settle."""


def on(value: float, threshold: float) -> bool:
    """Whether ``value`` lies on ``threshold`` but for rounding (:data:`ROUNDING`); 0 within
    :data:`ROUNDING` of the figure's units (points or %: a share's float32 error, times 100)."""
    return math.isclose(value, threshold, rel_tol=ROUNDING, abs_tol=1e-12 if threshold else ROUNDING)


def reaches(value: float, threshold: float) -> bool:
    """``value >= threshold`` for an estimate, one on the threshold but for rounding included
    (the band above holds it, as :func:`fixed` shows it there): 1,344 wins of 6,400 deals at 5
    players are 21% of win share, exactly 1 point over the fair 20%, yet ``0.21 - 0.2`` is
    0.009999999999999981 and ``0.2 + 0.01`` is 0.21000000000000002."""
    return value >= threshold or on(value, threshold)


def band(value: float, thresholds: Sequence[float]) -> int:
    """The band of ``value``: how many thresholds it reaches (a value on one is in the band above)."""
    return sum(value >= t for t in thresholds)


def bands(low: float, high: float, thresholds: Sequence[float], magnitude: bool = False) -> tuple[int, int]:
    """The lowest and highest band an interval reaches; with ``magnitude``, of ``|x|`` for x in it.
    No interval (NaN: too few units) rules no band out: it reaches them all."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 0, len(thresholds)
    if not magnitude:
        return band(low, thresholds), band(high, thresholds)
    nearest = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return band(nearest, thresholds), band(max(abs(low), abs(high)), thresholds)


def more_units(n: int, half: float, distance: float, strict: bool = False) -> int | None:
    """How many more units shrink a 95% half-width ``half`` below ``distance``, the gap between
    the estimate and a threshold, if the estimate is the truth.

    A half-width shrinks as ``1/sqrt(n)``: at ``n'`` units it is ``half sqrt(n / n')``, which
    is below ``distance`` once ``n' > n (half / distance)²``. So about
    ``ceil(n (half / distance)²) - n`` more (at least one; one past the threshold for an end
    that must pass it, ``strict``); ``None`` for an estimate on the threshold, which no number
    of units moves off it.
    """
    if not (distance > 0 and math.isfinite(half)):  # on the threshold, or no interval to narrow
        return None
    # rounded first, so that a ratio of exact decimals is not pushed up by its binary error
    total = round(n * (half / distance) ** 2, 6)
    # ``strict``: the end must pass the threshold, not reach it, at exactly that many it lies on
    # the threshold, which the bands count as reached (0.5, 0.4 to 0.65 at 2,000 deals: at
    # 4,500, 0.5 + 0.15 sqrt(2000 / 4500) = 0.6, still "moderate or high")
    return max(1, (math.floor(total) + 1 if strict else math.ceil(total)) - n)


def _least(holds) -> float | None:
    """The least ``m`` (to 1e-12 relative) where ``holds(m)`` turns true, ``holds`` false below
    it and true above; ``None`` when it never does."""
    low, high = -30.0, 40.0  # log m: from about 1e-13 to 2e17 units
    if not holds(math.exp(high)):
        return None
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (low, mid) if holds(math.exp(mid)) else (mid, high)
    return math.exp(high)


def share_more(n: int, value: float, low: float, high: float, threshold: float) -> int | None:
    """More units to take a share's interval off ``threshold``, if ``value`` is the truth, where
    the interval is simtool's for shares, Wilson's on an effective sample size: the one whose
    Wilson interval at ``value`` is as wide as ``(low, high)``, which grows with the units.
    Unlike a half-width narrowing as ``1/sqrt(n)`` (:func:`more_units`), this holds for a share
    near 0 or 1 too, whose interval is lopsided (0.5% of 1,000 deals, 0.2% to 1.2%, needs about
    520 more deals to lie under 1%, not 1) and narrows as ``1/n`` at 0."""
    if value == threshold or not all(map(math.isfinite, (value, low, high))):
        return None

    def bounds(m: float) -> tuple[float, float]:  # m > 0: from _least
        return wilson_one(value * m, m)

    def width(m: float) -> float:
        lo, hi = bounds(m)
        return hi - lo

    now = _least(lambda m: width(m) <= high - low)
    if value < threshold:
        later = _least(lambda m: bounds(m)[1] < threshold)
    else:
        later = _least(lambda m: bounds(m)[0] >= threshold)
    if now is None or later is None:
        return None
    return max(1, math.ceil(round(n * later / now, 6)) - n)


def settle(n: int, intervals: Sequence[tuple[float, float, float]], thresholds: Sequence[float],
           magnitude: bool = False, share: bool = False) -> int | None:
    """More units to settle the band of the largest of ``intervals`` ``(value, low, high)``
    (with ``magnitude``, of their sizes ``|x|``), if each value is the truth. Per threshold an
    interval reaches across: none to settle when another interval lies wholly past it; else,
    when some estimates are past it, the first of those to leave it behind settles it (the
    fewest units); when none is, every interval across it must come to lie below it (the most
    units). The answer is the most over the thresholds; ``None`` when it cannot be settled.
    ``share``: the intervals are simtool's for shares (:func:`share_more`)."""
    def size(x: float) -> float:
        return abs(x) if magnitude else x

    def ends(v: float, lo: float, hi: float, t: float) -> list[tuple[float, float, bool]]:
        """Each end of the interval that must move, as (its part of the interval, the estimate's
        distance to where that end must come to lie, whether it must pass that place, not only
        reach it). A seat's win-share interval is lopsided: its half-width once told "about 1
        more match would settle it" of an edge of 6.3 points (-9.5 to -2.8) whose end 0.2
        points short of 3 needs about 70."""
        if not magnitude:
            return [(v - lo, v - t, False)] if v >= t else [(hi - v, t - v, True)]
        if abs(v) >= t:
            return [(v - lo, v - t, False)] if v >= 0 else [(hi - v, -v - t, False)]
        # a size under t: both ends must come within -t to t, and the end away from the
        # estimate's side may be the one that reaches past (an edge of -0.03 points, -2.96 to
        # 3.15: "about 1 more deal" by its lower end, which lies inside -3 already)
        return [(v - lo, v + t, True), (hi - v, t - v, True)]

    def units(v: float, lo: float, hi: float, t: float) -> int | None:
        # an estimate on the threshold but for rounding (a seat winning 26 of 100 deals at 4
        # players: an edge of 1.0000000000000009 points) is on it, as :func:`fixed` shows it:
        # its 1e-15 to go once read "about 7.3e+27 million more deals would settle it"
        if on(size(v), t):
            return None
        if share:
            return share_more(n, v, lo, hi, t)
        counts = [more_units(n, part, distance, strict) for part, distance, strict in ends(v, lo, hi, t)]
        return None if None in counts else max(counts)

    need = 0
    for t in thresholds:
        across = [(v, lo, hi) for v, lo, hi in intervals if bands(lo, hi, (t,), magnitude) == (0, 1)]
        if not across or any(bands(lo, hi, (t,), magnitude) == (1, 1) for _, lo, hi in intervals):
            continue
        past = [i for i in across if size(i[0]) >= t]
        counts = [units(v, lo, hi, t) for v, lo, hi in (past or across)]
        known = [c for c in counts if c is not None]
        # each interval must come below it: one that cannot (an estimate on it but for rounding,
        # 0.9999999999999991) keeps it unsettled, whatever the others need
        if not known or (not past and len(known) < len(counts)):
            return None
        need = max(need, min(known) if past else max(known))
    return need or None


def fixed(x: float, near: Sequence[float] = (), sign: str = "", digits: int = 1) -> str:
    """``x`` with ``digits`` decimals, never ``-0.0``; more where those would put it on
    one of the thresholds ``near`` (as ``|x|``) that it is not on: 0.97 beside "fair: under 1
    point" is not "1.0", which the stated rule puts in the band above. ``sign``: ``+`` to sign
    it (a figure that shows as 0 gets no sign)."""
    def on_one(v: float) -> bool:
        return any(on(abs(v), t) for t in near)

    more, shown = digits, round(x, digits) + 0.0
    # as many more as it takes (0.9996 is not "1.000" either); a figure on a threshold stays short
    while more < 15 and on_one(shown) and not on_one(x):
        more += 1
        shown = round(x, more) + 0.0
    return f"{shown:{sign if shown else ''}.{more}f}"


def signed_points(share: float, near: Sequence[float] = ()) -> str:
    """A difference of shares in signed points; one that shows as 0 has no sign (-0.04 points is
    neither "-0.0" nor "+0.0", which would claim a side); more decimals where it would show on
    one of ``near`` (points) it is not on. The one such helper of the ladder, the strength table
    and the balance report."""
    return fixed(100 * share, near, sign="+")


def _pct(x: float, near: Sequence[float] = (), digits: int = 1) -> str:
    """A share as a percentage, never rounded onto a threshold of ``near`` (shares) it is not on,
    nor to 0 where it is not 0 (:func:`simtool.stats.shown_decimals`)."""
    return f"{fixed(100 * x, [100 * t for t in near], digits=shown_decimals(x, digits))}%"


def span(low: float, high: float, show=lambda x: f"{x:.1f}") -> str:
    """An interval as a sentence prints it, ``low to high`` (each end by ``show``), or ``n/a``
    where too few units give none (NaN): one match's lead changes read "(nan to nan)"."""
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):  # None: JSON's null
        return "n/a"
    return f"{show(low)} to {show(high)}"


def mean_span(value: float, low: float, high: float) -> tuple[str, str]:
    """A mean and its interval as a sentence prints them: one decimal, or as many more (up to 4)
    as the interval's ends need to show apart, and the mean apart from an end it is not on
    (:func:`apart`): 2,000 matches' 0.587 lead changes (0.556 to 0.617) read "0.6 lead changes
    (0.6 to 0.6)", as if known exactly, and Out-Trumped's 6.89 rounds (6.84 to 6.94) "6.9 rounds
    (6.8 to 6.9)". Ends that are one (every match alike) keep one decimal."""
    digits = 1
    if all(x is not None and math.isfinite(x) for x in (value, low, high)):
        digits = apart(low, high, lambda x, k: f"{x:.{k}f}", 1, value=value)

    def show(x: float) -> str:
        return f"{x:.{digits}f}"

    return show(value), span(low, high, show)


@dataclass(frozen=True)
class SeatEdge:
    """One seat's win share against the fair ``1/p``: ``edge_pts`` and ``ci_pts`` in points."""

    seat: int
    share: float
    fair: float
    edge_pts: float
    ci_pts: tuple[float, float]

    def as_dict(self) -> dict:
        return {"seat": self.seat, "share": self.share, "fair": self.fair, "edge_pts": self.edge_pts,
                "ci_pts": list(self.ci_pts)}


def seat_edges(shares: Iterable[tuple[int, float, float, float]], players: int) -> list[SeatEdge]:
    """Edges of ``(seat, share, low, high)`` win shares over the fair ``1 / players``, in points."""
    fair = 1 / players
    return [SeatEdge(int(s), float(w), fair, 100 * (w - fair), (100 * (lo - fair), 100 * (hi - fair)))
            for s, w, lo, hi in shares]


def named_seat(edges: Sequence[SeatEdge]) -> SeatEdge:
    """The seat a seat verdict names: the largest |edge|, among the seats whose intervals
    decide a settled word (each lies wholly in the verdict's band or above it), so that the
    interval its sentence gives bears the word out. A seat of a slightly larger estimate but a
    wider interval reaching below the band is not the one a "strong edge" stands on."""
    reach = [bands(*e.ci_pts, SEAT_THRESHOLDS, magnitude=True) for e in edges]
    low, high = max(r[0] for r in reach), max(r[1] for r in reach)
    deciding = [e for e, r in zip(edges, reach, strict=True) if r[0] == low] if low == high else edges
    return max(deciding, key=lambda e: abs(e.edge_pts))


def _edge_word(edges: Sequence[SeatEdge], n: int) -> tuple[str, int, int, int | None]:
    """(word, lowest band, highest band, more units) of the largest |edge| of ``edges`` (module rule)."""
    if n < SEAT_MIN_UNITS:
        return UNCLEAR, 0, len(SEAT_WORDS) - 1, None
    reach = [bands(*e.ci_pts, SEAT_THRESHOLDS, magnitude=True) for e in edges]
    low, high = max(r[0] for r in reach), max(r[1] for r in reach)
    word = SEAT_WORDS[low] if low == high else UNCLEAR
    more = settle(n, [(e.edge_pts, *e.ci_pts) for e in edges], SEAT_THRESHOLDS, magnitude=True) \
        if word == UNCLEAR else None
    return word, low, high, more


def _seat_pts(x: float, sign: str = "") -> str:
    """Points of an edge as the seat verdicts print them (never onto a threshold)."""
    return fixed(x, SEAT_THRESHOLDS, sign)


def _shown(edge: SeatEdge) -> tuple[str, str, str]:
    """(|edge| in points, share, fair share) as a verdict prints them: the share and the fair share
    each rounded, as the tables print the share, and the edge their difference, so that the
    figures of one sentence agree (rounded apart, 49.5% beside a fair 25.0% read "24.6 points").
    More decimals for all three where the difference would land on a threshold the edge is not
    on (:func:`fixed`'s rule): a rounding error never moves it across one, whose bands are whole
    units of any decimal. More decimals too where the rounded shares' difference is not the edge
    rounded: 32.656% beside a fair 33.333% read "32.7%, 0.6 points less than a fair 33.3%" for an
    edge of 0.68 points, which the report's table beside it printed "-0.7"; it reads "32.66%,
    0.67 points, 33.33%", which rounds to the table's figure."""
    def on_one(v: float) -> bool:
        return any(on(abs(v), t) for t in SEAT_THRESHOLDS)

    digits = first = shown_decimals(edge.share)  # a share that is not 0 never shows as 0
    edge_shown = round(abs(edge.edge_pts), first)
    while True:
        share, fair = round(100 * edge.share, digits) + 0.0, round(100 * edge.fair, digits) + 0.0
        gap = round(abs(share - fair), digits) + 0.0
        # an edge at a rounding tie (0.75 of exact thirds) may show either way: 1e-9 apart is agreed
        agrees = abs(round(gap, first) - edge_shown) < 1e-9 or abs(abs(edge.edge_pts) - gap) < 1e-9 \
            or math.isclose(abs(abs(edge.edge_pts) - edge_shown), 0.5 * 10 ** -first, rel_tol=1e-6)
        if digits >= 15 or ((not on_one(gap) or on_one(edge.edge_pts)) and agrees):
            return f"{gap:.{digits}f}", f"{share:.{digits}f}%", f"{fair:.{digits}f}%"
        digits += 1


def _edges_read(rows, players: int, n: int):
    """What the seat and shared verdicts read from each seat's rate: the edges, the seat named,
    :func:`_edge_word`'s word, bounds and units to settle it, and the named seat's interval."""
    edges = seat_edges(rows, players)
    top = named_seat(edges)
    # ends apart: 10 million deals put an edge at 2.17 to 2.22 points, read "2.2 to 2.2"
    lo, hi = top.ci_pts
    # an interval on one side of 0 never shows an end at 0: a fair Black & White at 2 players read
    # "-0.1 points (95% interval -0.2 to 0.0 points)" of a seat surely below fair, -0.22 to -0.029
    near = (0.0, *SEAT_THRESHOLDS) if lo > 0 or hi < 0 else SEAT_THRESHOLDS
    places = apart(lo, hi, lambda x, k: fixed(x, near, digits=k), 1)
    interval = f"95% interval {fixed(lo, near, digits=places)} to {fixed(hi, near, digits=places)} points"
    return edges, top, _edge_word(edges, n), interval


def seat_verdict(shares: Iterable[tuple[int, float, float, float]], players: int, n: int,
                 unit: str = "deals", play: str | None = None) -> Verdict:
    """Is the game fair to its seats? ``shares``: each seat's win share with its 95% interval
    ``(seat, share, low, high)``, from ``n`` units (``unit``: deals or matches); ``play``
    names the line-up (in the sentence). The verdict is on the largest |edge| (module rule)."""
    edges, top, (word, low, high, more), interval = _edges_read(shares, players, n)
    under = f" under {play}" if play else ""
    side = "more" if top.edge_pts >= 0 else "less"
    pts = _seat_pts
    gap, share, fair = _shown(top)
    head = f"Seat {top.seat} wins {share} of {unit}{under}, {gap} points {side} than a fair {fair}"
    if word == "fair":
        sentence = (f"Every seat wins within 1 point of a fair {_pct(top.fair)} of {unit}{under}: fair. "
                    f"The largest edge is seat {top.seat}'s, {pts(top.edge_pts, '+')} points ({interval}).")
    elif word == UNCLEAR:
        settle_text = _settle_text(more, unit, *top.ci_pts, n=n)
        sentence = (f"{head} ({interval}): unclear whether {SEAT_WORDS[low]} or {SEAT_WORDS[high]}; "
                    f"{settle_text}.")
    else:
        who = "favouring" if top.edge_pts > 0 else "against"
        sentence = f"{head}: a {word} edge {who} seat {top.seat} ({interval})."
    return Verdict(word, sentence, {"seats": [e.as_dict() for e in edges], "seat": top.seat,
                                    "edge_pts": top.edge_pts, "ci_pts": list(top.ci_pts), "n": n,
                                    "unclear_between": [SEAT_WORDS[low], SEAT_WORDS[high]] if word == UNCLEAR
                                    else None},
                   stated(SEAT_WORDS, SEAT_THRESHOLDS), more)


PARTNER_UNITS = 30
"""Units from which seats that scored alike in every one are taken for partners (a few deals of
a game of seats alone can tie seats by chance)."""


def partners(score: np.ndarray, units: np.ndarray | None = None) -> list[tuple[int, ...]]:
    """Seats that scored alike in every unit, ``score`` ``(rows, p)``, as a game that scores
    partnerships gives every partner its side's score: the sides, where every seat has a partner
    and there are two sides or more; else none. ``units``: each row's unit where rows are not
    units (``--duplicate``: a deal's copies, the same cards, are one)."""
    # counted in units: 8 duplicate deals at 4 players (32 copies) were taken for partners
    count = len(score) if units is None else len(np.unique(units))
    if count < PARTNER_UNITS:
        return []
    alike = np.zeros((score.shape[1],) * 2, bool)
    for a, b in zip(*np.triu_indices(score.shape[1], 1), strict=True):
        alike[a, b] = np.array_equal(score[:, a], score[:, b])
    return sides_of(alike, count)


def sides_of(alike: np.ndarray | None, units: int) -> list[tuple[int, ...]]:
    """:func:`partners` from ``alike``, ``(p, p)``: whether seat ``a``'s scores equal seat
    ``b``'s in every row, ``a < b`` (``None`` where there are too few ``units`` to tell)."""
    if units < PARTNER_UNITS or alike is None:
        return []
    sides, left = [], list(range(len(alike)))
    while left:
        first = left.pop(0)
        side = (first, *(s for s in left if alike[first, s]))
        left = [s for s in left if s not in side]
        sides.append(side)
    return sides if len(sides) > 1 and all(len(side) > 1 for side in sides) else []


def partners_note(sides: list[tuple[int, ...]], shares: Iterable[tuple], unit: str = "deals") -> str:
    """What the seat figures mean where :func:`partners` found sides (else ""): simtool has no
    partnerships, partners split each win as a tie, so each seat's share and edge are its side's
    split among its seats; and each side's share (the sum of its seats')."""
    if not sides:
        return ""
    share = {row[0]: row[1] for row in shares}
    names = ["+".join(map(str, side)) for side in sides]
    won = ", ".join(f"{name} {_pct(sum(share[s] for s in side))}" for name, side in zip(names, sides, strict=True))
    # a partnership's fair share is its seats' (1/p each), as the sentence says: 50% each was
    # said of 3 seats against 2 as well, whose seats' fair shares make 60% and 40%
    p = sum(map(len, sides))
    fair = (f"{_pct(1 / len(sides))} each" if len(set(map(len, sides))) == 1 else
            ", ".join(f"{name} {_pct(len(side) / p)}" for name, side in zip(names, sides, strict=True)))
    return (f"Seats {' and '.join(names)} scored alike in every {ONE.get(unit, unit)}, as partners: simtool "
            f"compares seats, not partnerships, so partners split each win as a tie and a seat's share, fair "
            f"share and edge are its partnership's split among its seats. The partnerships win {won} of "
            f"{unit} (fair {fair}).")


def seat_line(shares: Iterable[tuple[int, float, float, float]], players: int, n: int,
              unit: str = "deals", play: str | None = None) -> str:
    """The one-line seat verdict ``simtool run`` ends with: the word, the sentence, the thresholds."""
    v = seat_verdict(shares, players, n, unit, play)
    return f"Seat verdict: {v.word}. {v.sentence} ({bands_text(SEAT_WORDS, SEAT_THRESHOLDS)}.)"


def _worded(value: float, low: float, high: float, thresholds: Sequence[float],
            words: Sequence[str], n: int, share: bool = False) -> tuple[str, str, int | None]:
    """(word, 'unclear whether A or B' text or '', more units) of one interval; ``share``: a
    share with simtool's interval for shares (:func:`share_more`)."""
    lo_band, hi_band = bands(low, high, thresholds)
    if lo_band == hi_band:
        return words[lo_band], "", None
    more = settle(n, [(value, low, high)], thresholds, share=share)
    return UNCLEAR, f"unclear whether {words[lo_band]} or {words[hi_band]}", more


ONE = {"deals": "deal", "matches": "match"}


def rough(count: int) -> str:
    """``count`` as a sentence says it: exact below 10,000, else to two significant figures (an
    estimate of deals to come is no better than that), in millions from a million."""
    if count < 10_000:
        return f"{count:,}"
    rounded = float(f"{count:.2g}")
    if rounded < 1e6:
        return f"{rounded:,.0f}"
    millions = rounded / 1e6  # from 100 million as a whole number: ":g" wrote "1e+07 million"
    return f"{millions:,.0f} million" if millions >= 100 else f"{millions:g} million"


def _settle_text(more: int | None, unit: str, low: float = 0.0, high: float = 0.0, n: int | None = None) -> str:
    """How many more units settle an unclear verdict; ``low``, ``high``: its interval, none
    (NaN) where too few units give one, which any word may then be; ``n``: the units of a seat
    verdict, under :data:`SEAT_MIN_UNITS` too few for any word."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"too few {unit} for a 95% interval, so any of the words may hold: play more {unit}"
    if n is not None and n < SEAT_MIN_UNITS:
        return (f"too few {unit} for the seats' intervals to decide (a seat verdict takes {SEAT_MIN_UNITS} or "
                f"more), so any of the words may hold: play more {unit}")
    if more is None:
        return f"the estimate sits on a threshold, so more {unit} alone will not settle it"
    return f"about {rough(more)} more {ONE.get(unit, unit) if more == 1 else unit} would settle it"


def convergence_state(doubling: tuple[float, float, float] | None) -> bool | None:
    """Whether doubling the search's samples buys under :data:`CONVERGED_POINTS` (``True``),
    surely buys at least that (``False``: still gaining), or neither can be said (``None``; also
    when not measured): the ladder's rule (:func:`simtool.analysis.ladder.converged`) on the gain
    in points ``(value, low, high)``."""
    if doubling is None:
        return None
    value, low, high = doubling
    if high < CONVERGED_POINTS:
        return True
    if reaches(value, CONVERGED_POINTS) and low > 0:
        return False
    return None


_FROM_FIGURES = object()


def skill_verdict(over_heuristic: tuple[float, float, float], over_random: tuple[float, float, float],
                  doubling: tuple[float, float, float] | None, n: int, strong: str = "pimc",
                  heuristic: str = "the default heuristic", unit: str = "deals",
                  converged=_FROM_FIGURES) -> Verdict:
    """Does skill pay? Each argument is a gain in points ``(value, low, high)``: the strongest
    play's win share per seat held above the fair share, with one seat against the default
    heuristic (``over_heuristic``) and against random (``over_random``), seats rotated; and
    ``doubling``, what doubling the search's samples gains over the search (the convergence
    step; ``None``: not measured). The word (:data:`SKILL_THRESHOLDS`) is on the gain over
    random, the whole range from no skill to the strongest play; an unconverged search makes
    it a lower bound. ``converged``: the ladder's answer on the doubling step (``True``,
    ``False`` still gaining, ``None`` not yet clear), else :func:`convergence_state` of ``doubling``."""
    word, between, more = _worded(*over_random, SKILL_THRESHOLDS, SKILL_WORDS, n)
    state = convergence_state(doubling) if converged is _FROM_FIGURES else converged
    converged = doubling is not None and state is True
    v, lo, hi = over_random
    h, hlo, hhi = over_heuristic
    # an interval on one side of 0 never shows an end at 0, as a seat's: a search surely better
    # than the heuristic, 0.012 to 30.2 points, read "(0.0 to 30.2)"
    near = (0.0, *SKILL_THRESHOLDS) if lo > 0 or hi < 0 else SKILL_THRESHOLDS
    sided = (0.0,) if hlo > 0 or hhi < 0 else ()
    sentence = (f"One {strong} seat wins {fixed(v, SKILL_THRESHOLDS, '+')} points over a fair share against random "
                f"players (95% interval {fixed(lo, near)} to {fixed(hi, near)}) and "
                f"{fixed(h, sign='+')} points against {heuristic} "
                f"({fixed(hlo, sided)} to {fixed(hhi, sided)}): ")
    sentence += (f"{between}; {_settle_text(more, unit, lo, hi)}." if word == UNCLEAR
                 else f"{word} skill.")
    if doubling is None:
        sentence += " The search was not checked for convergence, so this is a lower bound."
    else:
        # 0 decides too: "still buys" only from a lower end above it (+0.02 read "0.0")
        near, ends = (CONVERGED_POINTS,), (0.0, CONVERGED_POINTS)
        buys = (f"{fixed(doubling[0], near, '+')} points ({fixed(doubling[1], ends)} to "
                f"{fixed(doubling[2], ends)})")
        if converged and doubling[2] < 0:
            # "under 1: converged" beside a doubling that surely loses points would hide the loss
            sentence += (f" Doubling the search's samples buys {buys}, surely less than nothing: the doubled "
                         f"search plays worse here, so more search buys nothing and the search has converged.")
        elif converged:
            sentence += (f" Doubling the search's samples buys {buys}, under {CONVERGED_POINTS:g}: the search "
                         f"has converged.")
        elif state is False:
            # the rule is on the estimate and the lower end apart: "at least 1" beside "(0.3 to 11.2)"
            # read as a claim on the whole interval
            sentence += (f" Doubling the search's samples still buys {buys}: surely above 0, and "
                         f"{CONVERGED_POINTS:g} point or more at its estimate: stronger play gains more, "
                         f"so this is a lower bound.")
        else:
            sentence += (f" Doubling the search's samples buys {buys}, not surely under {CONVERGED_POINTS:g}: "
                         f"stronger play may gain more, so this is a lower bound.")
    return Verdict(word, sentence, {
        "over_heuristic_pts": h, "over_heuristic_ci_pts": [hlo, hhi],
        "over_random_pts": v, "over_random_ci_pts": [lo, hi],
        "doubling_pts": None if doubling is None else doubling[0],
        "doubling_ci_pts": None if doubling is None else [doubling[1], doubling[2]],
        "converged": converged, "lower_bound": not converged,
        "convergence": "not measured" if doubling is None else
        {True: "converged", False: "still gaining", None: "not yet clear"}[state]},
        stated(SKILL_WORDS, SKILL_THRESHOLDS) | {"converged_below_pts": CONVERGED_POINTS}, more)


def hidden_verdict(price: tuple[float, float, float], n: int, seer: str = "clairvoyant",
                   search: str = "pimc", opponents: str = "the default heuristic", unit: str = "deals") -> Verdict:
    """How much knowing the hidden cards wins: ``price``, the win share per seat (in points, with
    its 95% interval) that ``seer`` (the search on the true deal, not a fair player) wins above
    the fair ``search``, each as one seat against ``opponents`` on the same deals; words
    :data:`HIDDEN_THRESHOLDS` (a game of the deal shows little, a game of inference much);
    ``not measured`` where ``seer`` surely wins less than ``search``, too weak to price anything."""
    word, between, more = _worded(*price, HIDDEN_THRESHOLDS, HIDDEN_WORDS, n)
    v, lo, hi = price
    if hi < 0:  # no price, so no word of one: "little" headlined "a game of the deal" beside it
        word, more = "not measured", None
    # an interval on one side of 0 never shows reaching it: "-6.0 to 0.0" beside "surely"
    near = (0.0, *HIDDEN_THRESHOLDS) if lo > 0 or hi < 0 else HIDDEN_THRESHOLDS

    def pts(x: float, sign: str = "") -> str:
        return fixed(x, near, sign)

    # one deal gives its paired difference no interval: "(95% interval nan to nan)" beside "unclear"
    sentence = (f"Seeing every hidden card is worth {pts(v, '+')} points of win share per seat (95% interval "
                f"{span(lo, hi, pts)}): {seer} (a reference that sees every card, not a fair player) against "
                f"{search}, each as one seat against {opponents}: ")
    if hi < 0:
        # the reference surely plays worse than the fair search (its play-outs are weak in this
        # game): its price says nothing of the game, and "a game of the deal" would be read into it
        sentence += (f"{seer} surely wins less than {search} here, so this reference is too weak in this game "
                     f"to price the hidden cards; read the skill answer instead.")
    else:
        sentence += (f"{between}; {_settle_text(more, unit, lo, hi)}." if word == UNCLEAR else
                     {"little": "little, a game of the deal more than of reading the others' cards.",
                      "some": "some: reading the hidden cards pays.",
                      "much": "much: a game of inference, where reading the hidden cards pays a great deal."}[word])
    return Verdict(word, sentence, {"price_pts": v, "price_ci_pts": [lo, hi]},
                   stated(HIDDEN_WORDS, HIDDEN_THRESHOLDS), more)


def at_floor(high: float, unfloored: tuple[float, float, float] | None) -> bool:
    """Whether a luck share's interval, ending at ``high``, is held whole at the floor of 0, with
    ``unfloored`` (:func:`simtool.stats.luck_unfloored`) to say what lay below it."""
    return unfloored is not None and high == 0 and all(map(math.isfinite, unfloored))


def below_floor(unfloored: tuple[float, float, float]) -> str:
    """A luck share before the floor at 0, with its interval: "-4.5% (95% interval -5.1 to
    -3.8%)", as many decimals as the ends need to show apart."""
    u, low, high = unfloored
    places = apart(low, high, lambda x, d: fixed(100 * x, digits=d), 1, value=u)

    def below(x: float) -> str:
        return fixed(100 * x, digits=places)

    return f"{below(u)}% (95% interval {below(low)} to {below(high)}%)"


def floor_clause(unfloored: tuple[float, float, float]) -> str:
    """What a luck share held at the floor of 0 hides, in the words of the review's sentence, the
    report's and the console's: the floor held every resample, and Black & White at 2 players
    read "0.0% (95% interval 0.0 to 0.0%)", a certainty the deals do not give, of an estimate of
    -4.5% (-5.1% to -3.8%)."""
    return (f"at the floor of 0: their part was estimated below it, {below_floor(unfloored)}, as where a "
            f"seat's copies of a deal go opposite ways more often than alike, and no share is below 0")


def floor_note(unfloored: tuple[float, float, float]) -> str:
    """A table's interval of a luck share held at the floor of 0 (:func:`at_floor`), in place of
    "0.0 to 0.0": "at the floor of 0: estimated -4.5% (95% interval -5.1 to -3.8%)"."""
    return f"at the floor of 0: estimated {below_floor(unfloored)}"


def floor_cell(share: float, unfloored: tuple[float, float, float]) -> str:
    """A table's luck share held at the floor of 0 and its :func:`floor_note`: "0.0%, at the
    floor of 0: estimated -4.5% (95% interval -5.1 to -3.8%)"."""
    return f"{percent(share)}%, {floor_note(unfloored)}"


def luck_verdict(share: float, low: float, high: float, n: int, what: str = "score",
                 unit: str = "deals", play: str | None = None,
                 unfloored: tuple[float, float, float] | None = None) -> Verdict:
    """How much luck decides: ``share`` of the variance of a seat's ``what`` that the cards
    explain (from duplicate deals of the line-up ``play``), with its 95% interval; words
    :data:`LUCK_THRESHOLDS`. ``unfloored``: the share and its interval before the floor at 0
    (:func:`simtool.stats.luck_unfloored`), said where the floor holds the whole interval."""
    word, between, more = _worded(share, low, high, LUCK_THRESHOLDS, LUCK_WORDS, n)
    # a tenth of a percent, or as many decimals more as the interval's ends need to show apart:
    # a quick review of Kansas City read "The cards explain 2% (95% interval 2 to 2%)", as if exact
    digits = apart(low, high, lambda x, d: _pct(x, LUCK_THRESHOLDS, d), 1, value=share)

    def pct(x: float) -> str:
        return _pct(x, LUCK_THRESHOLDS, digits)

    with_play = f" with {play}" if play else ""
    if not math.isfinite(share):  # no variance to split ("nan%")
        if n >= 2:
            # a seat's result the same in every deal and copy (every deal a tie of all seats):
            # "too few deals ... play more deals" from 65,536 of them, which no number would change
            sentence = (f"A seat's {what}{with_play} came out the same in every one of the {n:,} {unit} and "
                        f"their copies: no variance for the cards or the play to explain, and more {unit} "
                        f"would not make one: unclear.")
        else:
            sentence = (f"Too few {unit} to split the variance of a seat's {what}{with_play} between the "
                        f"cards and the play (it takes two or more): unclear; play more {unit}.")
        return Verdict(UNCLEAR, sentence, {"share": share, "ci": [low, high]},
                       stated(LUCK_WORDS, LUCK_THRESHOLDS), None)
    if not (math.isfinite(low) and math.isfinite(high)):
        # under LUCK_MIN_DEALS no interval covers 93%: 3 deals printed "0.0 to 0.0%" and "low"
        sentence = (f"The cards explain {pct(share)} of the variance of a seat's {what}{with_play}, from too few "
                    f"{unit} for a 95% interval (it takes {LUCK_MIN_DEALS} or more): unclear, any of the words "
                    f"may hold; play more {unit}.")
        return Verdict(UNCLEAR, sentence, {"share": share, "ci": [low, high]},
                       stated(LUCK_WORDS, LUCK_THRESHOLDS), None)
    if at_floor(high, unfloored):
        sentence = (f"The cards explain {pct(share)} of the variance of a seat's {what}{with_play}, "
                    f"{floor_clause(unfloored)}: {word} luck from the deal alone.")
        return Verdict(word, sentence, {"share": share, "ci": [low, high], "unfloored": list(unfloored)},
                       stated(LUCK_WORDS, LUCK_THRESHOLDS), more)
    interval = span(low, high, lambda x: pct(x)[:-1]) + "%"
    sentence = (f"The cards explain {pct(share)} (95% interval {interval}) "
                f"of the variance of a seat's {what}{with_play}: ")
    sentence += (f"{between} luck; {_settle_text(more, unit, low, high)}." if word == UNCLEAR
                 else f"{word} luck from the deal alone.")
    return Verdict(word, sentence, {"share": share, "ci": [low, high]},
                   stated(LUCK_WORDS, LUCK_THRESHOLDS), more)


def unvalued(name: str, text: str, per: str) -> str:
    """What a rate null on every row says (the summary's n/a): it has no share to judge."""
    return f"Each seat {text} in n/a of {per}: the rate '{name}' is null on every row, so it has no share."


def hazard_verdict(name: str, text: str, rate: float, low: float, high: float, n: int,
                   per: str = "deals", unit: str = "deals") -> Verdict:
    """One hazard of the game: each seat ``text`` (the game's words, completing "a seat ...") in
    ``rate`` of ``per`` (deals, or rounds of matches), with its interval on ``n`` ``unit``;
    words :data:`HAZARD_THRESHOLDS`. A hazard one seat meets every deal (``Analysis.shared``)
    is :func:`shared_verdict`'s. A rate null on every row has none."""
    if not np.isfinite(rate):  # "in nan% of deals (95% interval nan% to nan%)"
        return Verdict("none", unvalued(name, text, per), {"name": name, "rate": None, "ci": [None, None]})
    word, between, more = _worded(rate, low, high, HAZARD_THRESHOLDS, HAZARD_WORDS, n, share=True)
    near = HAZARD_THRESHOLDS
    # ends apart: a quick review of Kansas City read "35.5% of deals (95% interval 35.5% to 35.5%)"
    places = apart(low, high, lambda x, k: _pct(x, near, k), 1, value=rate)
    # "each": the rate is seats pooled, a seat's per deal; "a seat ... in 0.53% of deals" read
    # as how often some seat has it (Hearts' moon: 2.1% of deals)
    sentence = (f"Each seat {text} in {_pct(rate, near, places)} of {per} (95% interval {_pct(low, near, places)} to "
                f"{_pct(high, near, places)}): "
                + (f"{between}; {_settle_text(more, unit, low, high)}." if word == UNCLEAR else f"{word}."))
    return Verdict(word, sentence, {"name": name, "rate": rate, "ci": [low, high]},
                   stated(HAZARD_WORDS, HAZARD_THRESHOLDS), more)


def shared_verdict(name: str, text: str, rates: Iterable[tuple[int, float, float, float]], players: int,
                   n: int, per: str = "deals", unit: str = "deals") -> Verdict:
    """A hazard one seat meets every deal (``Analysis.shared``: Hearts' queen of spades), whose
    rate seats pooled is 1/p by rule and whose most exposed seat's is 1/p or more whatever the
    play: the verdict is on each seat's rate ``(seat, rate, low, high)`` over its fair share
    ``1 / players``, in points, worded and decided as the seat verdict (:func:`seat_verdict`,
    :data:`SEAT_THRESHOLDS`: the largest |gap| over every seat's interval), so a seat picked for
    being highest is not judged on its own interval alone."""
    edges, top, (word, low, high, more), interval = _edges_read(rates, players, n)
    pts = _seat_pts
    gap, share, fair_pct = _shown(top)
    fair = f"its fair share, {_pct(top.fair)} of {per}"
    head = (f"Seat {top.seat} {text} {gap} points {'more' if top.edge_pts >= 0 else 'less'} "
            f"often than its fair share, {fair_pct} of {per} ({share}; {interval})")
    if word == "fair":
        # "fair", as the seats' verdict: every interval within 1 point, so some seat may be a
        # little above its share (the largest gap, said next); never "no seat ... more"
        sentence = (f"Every seat {text} within 1 point of {fair}: fair. "
                    f"The largest gap is seat {top.seat}'s, {pts(top.edge_pts, '+')} points ({interval}).")
    elif word == UNCLEAR:
        sentence = (f"{head}: unclear whether {SEAT_WORDS[low]} or {SEAT_WORDS[high]}; "
                    f"{_settle_text(more, unit, *top.ci_pts, n=n)}.")
    else:
        sentence = f"{head}: {word}ly uneven."
    return Verdict(word, sentence, {"name": name, "seats": [e.as_dict() for e in edges], "seat": top.seat,
                                    "edge_pts": top.edge_pts, "ci_pts": list(top.ci_pts)},
                   stated(SEAT_WORDS, SEAT_THRESHOLDS), more)


def tension_verdict(behind_half: tuple[float, float, float], lead_changes: tuple[float, float, float],
                    decided: tuple[float, float, float], n: int, sides: Sequence[tuple[int, ...]] = ()) -> Verdict:
    """Does a match stay open? The word (:data:`TENSION_THRESHOLDS`) is on the share of
    matches whose winner was behind at half-time; the sentence adds the mean lead changes
    and how far into a match the winner leads for good (a share of its rounds), and the
    ``sides`` of partners the figures count as one seat each (:func:`partners`)."""
    word, between, more = _worded(*behind_half, TENSION_THRESHOLDS, TENSION_WORDS, n, share=True)
    b, blo, bhi = behind_half
    c, clo, chi = lead_changes
    d, dlo, dhi = decided
    near = TENSION_THRESHOLDS
    if not math.isfinite(b) and not math.isfinite(d):
        # no match had a sole winner (partners scored alike share every win): the one-round
        # sentence below blamed match length, beside a match verdict of 4.3 rounds
        word, more = UNCLEAR, None
        # partners only where there are some: Black & White at 2 players, hand_size=10, every
        # match level at the round cap, read "as partners always are" of two seats playing alone
        opening = ("No match had a sole winner (every match's win was shared by seats level on total"
                   + (", as partners always are" if sides else "")
                   + "), so there is no winner to be behind at half-time or to lead for good"
                   + (": simtool measures comebacks seat by seat." if sides else "."))
    elif not math.isfinite(b):  # no match of two rounds or more: more matches of one cannot tell
        word, more = UNCLEAR, None
        opening = ("No match lasted more than one round, so no winner could be behind at half-time: "
                   "these rules leave no comeback to measure.")
    else:
        places = apart(blo, bhi, lambda x, k: _pct(x, near, k), 1, value=b)
        opening = (f"The winner was behind at half-time in {_pct(b, near, places)} of matches (95% interval "
                   f"{_pct(blo, near, places)} to {_pct(bhi, near, places)}): "
                   + (f"{between} tension; {_settle_text(more, 'matches', blo, bhi)}." if word == UNCLEAR
                      else f"{word} tension."))
    changes, changes_ci = mean_span(c, clo, chi)
    decided_text = (f"; the winner leads for good from {_pct(d)} of the way through ({span(dlo, dhi, _pct)})"
                    if math.isfinite(d) else "")
    sentence = opening + f" A match has {changes} lead changes ({changes_ci}){decided_text}."
    if sides:
        sentence += f" Partners count as one side: {' against '.join('+'.join(map(str, s)) for s in sides)}."
    return Verdict(word, sentence, {"behind_at_half": b, "behind_at_half_ci": [blo, bhi],
                                    "lead_changes": c, "lead_changes_ci": [clo, chi],
                                    "decided_share": d, "decided_share_ci": [dlo, dhi]},
                   stated(TENSION_WORDS, TENSION_THRESHOLDS), more)


def match_verdict(rounds: tuple[float, float, float], capped: tuple[float, float, float], n: int,
                  cap: int) -> Verdict:
    """Match shape: rounds per match (a mean with its interval) and the share of matches the
    ``cap`` on rounds stops, worded as a hazard (:data:`HAZARD_THRESHOLDS`)."""
    word, between, more = _worded(*capped, HAZARD_THRESHOLDS, HAZARD_WORDS, n, share=True)
    r, rlo, rhi = rounds
    c, clo, chi = capped
    if rlo == r == rhi and r == int(r) and r < cap:
        # every match as long (Kansas City's 3 hands): "3.0 rounds (95% interval 3.0 to 3.0) ...
        # unclear whether rare or common; about 349 more matches would settle it". What was played,
        # not "as the rules fix it": 16 matches of Black & White can all miss its tie-break round
        return Verdict(HAZARD_WORDS[0], f"Every match played ({n:,}) lasted {int(r)} rounds, so none came near "
                       f"the {cap}-round cap.",
                       {"rounds": r, "rounds_ci": [rlo, rhi], "capped": c, "capped_ci": [clo, chi]},
                       stated(HAZARD_WORDS, HAZARD_THRESHOLDS), None)
    near = HAZARD_THRESHOLDS
    length, length_ci = mean_span(r, rlo, rhi)
    places = apart(clo, chi, lambda x, k: _pct(x, near, k), 1, value=c)
    capped_ci = span(clo, chi, lambda x: _pct(x, near, places))
    sentence = (f"A match lasts {length} rounds (95% interval {length_ci}); {_pct(c, near, places)} of matches "
                f"(95% interval {capped_ci}) hit the {cap}-round cap and stop there: "
                + (f"{between}; {_settle_text(more, 'matches', clo, chi)}." if word == UNCLEAR else f"{word}."))
    return Verdict(word, sentence, {"rounds": r, "rounds_ci": [rlo, rhi], "capped": c, "capped_ci": [clo, chi]},
                   stated(HAZARD_WORDS, HAZARD_THRESHOLDS), more)


BETTER_WHEN = {"seats": "lower", "skill": "higher", "hazards": "lower", "tension": None,
               "restrictions": "higher", "match:capped": "lower", "luck": None, "match:rounds": None,
               "hidden_information": None}
"""Which way each question's figure is better for balance: the largest |edge| closer to fair,
more skill, fewer hazards (a game's rates that are risks; its other rates have no better side),
a crude restriction that costs more, fewer matches stopped by the round cap. Luck, tension,
match length and what hidden information is worth have no better side: they are a matter of taste
(a game of inference or of the deal; of comebacks, or of an early lead that counts), and their
cards are neither good nor bad (:data:`simtool.reports.review.TONE`): tension's changes were
green or red beside its neutral cards."""


def change(better_when: str | None, delta: float, low: float, high: float) -> str:
    """``better``, ``worse`` or ``no clear change`` for a difference ``after - before`` of a
    figure with its 95% interval, ``better_when`` it is ``lower`` or ``higher``: an interval
    holding 0 (or none) is no clear change, and a figure without a better side (``None``) has
    ``changed`` when the interval excludes 0. Never by the sign alone."""
    if not (math.isfinite(low) and math.isfinite(high)) or low <= 0 <= high:
        return "no clear change"
    if better_when is None:
        return "changed"
    return "better" if (delta < 0) == (better_when == "lower") else "worse"


def change_small(low: float | None, high: float | None, matters: float | None) -> bool | None:
    """Whether a difference, by its 95% interval ``low`` to ``high``, is smaller than ``matters``,
    the smallest difference that matters to its question: ``True`` when the whole interval lies
    within ± it (a clear change too small to matter, or, holding 0, no change that matters),
    ``False`` when the whole interval lies at or past it on one side (a value at a threshold
    belongs to the band above, as in every verdict), ``None`` when the interval reaches across
    it, or there is no threshold or no interval. On the interval, never the estimate alone:
    hundreds of thousands of deals make a clear change of +0.10 points of a hazard (+0.02 to
    +0.18) that read "worse" as a seat edge moved 5 points did."""
    # None: review.json's null, in a review written before rows had sizes and rendered again
    if matters is None or low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return None
    if -matters < low and high < matters:
        return True
    if low >= matters or high <= -matters:
        return False
    return None


def crossed(before: float, after: float, thresholds: Sequence[float]) -> float | None:
    """The first of a verdict's ``thresholds`` that a change from ``before`` to ``after`` crosses
    (a value at a threshold belongs to the band above), else ``None``: a change under the
    smallest difference that matters can still move a figure from one verdict's band into the
    next (a crude rule costing 0.7 points, *nearly as good*, then 1.4, *costs*), and is then no
    change too small to matter."""
    low, high = sorted((before, after))
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return next((t for t in thresholds if not reaches(low, t) and reaches(high, t)), None)


RESTRICTION_THRESHOLDS = (1.0,)
"""Win share a crude rule costs, in points: below 1 point it does nearly as well as full play."""
RESTRICTION_WORDS = ("nearly as good", "costs")
NEVER_BINDS = "never binds"
"""The verdict of a crude rule that changed no deal's result: it says nothing of crude play."""


def restriction_verdict(doing: str, strategy: str, cost_pts: float, low: float, high: float,
                        n: int, changed: float | None = None) -> Verdict:
    """Does a crude rule (``doing``, a restriction of ``strategy``) do nearly as well as full
    play? ``cost_pts``: the win share per seat it costs, in points, with its 95% interval, on
    ``n`` paired deals. ``nearly as good`` (flagged: the game may reward crude play) when the
    whole interval lies below 1 point (:data:`RESTRICTION_THRESHOLDS`); :data:`NEVER_BINDS`
    where ``changed``, the share of deals whose result it changed, is 0. The review's words and
    `simtool restrict`'s, which once said "costs" of any cost surely above 0: Hearts'
    no-queen-dump, 0.6 points (0.5 to 0.7), "costs" there and "nearly as good" in the review."""
    if changed == 0:
        # the crude rule played as full play on every deal: Out-Trumped's "never bid for the
        # kitty" under kitty=none, which has no bid, was flagged "does nearly as well as full
        # play", an alarm about crude play where the rule had nothing to change; nor worded as the
        # flag: "crude play no-kitty: nearly as good." above "not flagged"
        sentence = (f"{doing[:1].upper()}{doing[1:]} changed no result in {n:,} deals: under these rules it never "
                    f"binds, or {strategy} already plays so (it costs nothing, and says nothing of whether crude "
                    f"play pays; not flagged).")
        return Verdict(NEVER_BINDS, sentence, {"cost_pts": cost_pts, "ci_pts": [low, high], "flagged": False},
                       stated(RESTRICTION_WORDS, RESTRICTION_THRESHOLDS), None)
    word, between, more = _worded(cost_pts, low, high, RESTRICTION_THRESHOLDS, RESTRICTION_WORDS, n)
    # never an end of 0 that is not 0: a restriction no deal of 131,072 reacted to, ± 0.0023
    # points by the rule of three, read "0.0 points (95% interval 0.0 to 0.0)", certain, where
    # `simtool restrict` prints "-0.002 to 0.002"
    near = (0.0, *RESTRICTION_THRESHOLDS)
    places = apart(low, high, lambda x, k: fixed(x, near, digits=k), 1, value=cost_pts)
    head = (f"{doing[:1].upper()}{doing[1:]} costs {strategy} {fixed(cost_pts, near, digits=places)} points of "
            f"win share per seat (95% interval {span(low, high, lambda x: fixed(x, near, digits=places))})")
    if word == "nearly as good" and high < 0:  # `simtool restrict`'s "helps": not merely "nearly as well"
        sentence = (f"{head}: under 1 point, and surely better than full play: {strategy} chooses worse here "
                    f"than this crude rule does (flagged).")
    elif word == "nearly as good":
        # what `simtool restrict` called "costs" before it took these words: not nothing
        surely = ", though surely above 0" if low > 0 else ""
        sentence = f"{head}: under 1 point{surely}, so this crude rule does nearly as well as full play (flagged)."
    elif word == "costs":
        sentence = f"{head}: full play is clearly better."
    else:
        sentence = f"{head}: {between}; {_settle_text(more, 'deals', low, high)}."
    return Verdict(word, sentence, {"cost_pts": cost_pts, "ci_pts": [low, high], "flagged": word == "nearly as good"},
                   stated(RESTRICTION_WORDS, RESTRICTION_THRESHOLDS), more)
