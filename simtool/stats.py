"""Intervals, tests and the summaries of a run.

One rule for every interval: it is computed on the unit that is independent, the deal (or
the match with ``--unit match``), whatever rows a table counts. A figure is a ratio over
those units, ``sum(k) / sum(m)``: a seat's mean score has ``k`` its score and ``m`` one row
per deal; a rate pooled over the seats a strategy holds has ``k`` the seats where it
happened and ``m`` the seats held; a rate over the rounds of whole matches has ``k`` the
rounds where it happened and ``m`` the rounds the match lasted. Its variance is the
linearised (delta-method) variance over units, within the strata of ``--rotate`` (deal
``i`` is in stratum ``i mod p``) when there are any. A share (a value between 0 and 1) gets
a Wilson interval on its effective sample size ``R(1 - R) / V``; where the units do not
vary at all, or are fewer than two, Wilson's on the number of units instead, so a tiny
run never claims a precision it has not got. A mean gets Student's interval on the units less
one per stratum (:func:`student`), and none (NaN) from fewer than two units.

Polars seat rows (one row per deal and seat) go through :func:`estimates`; ``(rows, p)``
numpy panels (one row per deal or match, one column per seat) through
:func:`unit_estimate`: the two share :func:`_estimate` and :func:`_bounds`. Every sum over
polars rows is exact, rounded to a float once (:func:`_wide_sums`), so the same rows give the
same bytes whatever threads, chunks or row order polars adds them in.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from simtool.errors import SimtoolError, null_on, rate_error

Z95 = 1.959963984540054


def student(z, df):
    """The quantile of Student's t on ``df`` degrees of freedom at the normal ``z``'s level: a
    mean's interval from few units is wider than the normal one, which from 2 deals holds the
    truth 70% of the time, not 95% (10 deals: 92%); from thousands the two agree to 1e-4.
    From 30 degrees of freedom on, Cornish and Fisher's expansion in ``1/df`` (Abramowitz and
    Stegun 26.7.5; at 30, within 3e-8 of the quantile at 95%, 2e-6 at ``z = 3``, and ever closer
    above), which spares a printed run scipy's import (0.3 s); below, scipy's."""
    df = np.asarray(df, float)
    x = float(z)
    x2 = x * x
    terms = (x * (x2 + 1) / 4, x * ((5 * x2 + 16) * x2 + 3) / 96,
             x * (((3 * x2 + 19) * x2 + 17) * x2 - 15) / 384,
             x * ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) / 92160)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = x + sum(g / df ** (i + 1) for i, g in enumerate(terms))
    few = df < 30
    if few.any():
        from scipy import special

        with np.errstate(invalid="ignore"):
            t = np.where(few, special.stdtrit(np.where(few, df, 1.0), special.ndtr(x)), t)
    return t


def mean_halfwidth(sd, n, z: float = Z95):
    """Half-width of the 95% interval for a mean from its standard deviation and count (Student's,
    :func:`student`)."""
    n = np.asarray(n, float)
    return student(z, n - 1) * np.asarray(sd, float) / np.sqrt(n)


def wilson(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``k`` successes out of ``n``: ``(low, high)``, within [0, 1]
    (NaN for ``n = 0``). ``n`` need not be whole: an effective sample size is welcome."""
    k, n = np.asarray(k, float), np.asarray(n, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        phat = k / n
        denom = 1 + z * z / n
        centre = (phat + z * z / (2 * n)) / denom
        half = z * np.sqrt(np.maximum(phat * (1 - phat), 0) / n + z * z / (4 * n * n)) / denom
    # at k = 0 (k = n) the end is 0 (1) exactly; computed as centre -/+ half it comes a rounding
    # off, and a low of 1e-19 lies above the share 0 it is to hold
    low = np.where((k <= 0) & (n > 0), 0.0, np.clip(centre - half, 0, 1))
    high = np.where((k >= n) & (n > 0), 1.0, np.clip(centre + half, 0, 1))
    return low, high


def wilson_one(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """:func:`wilson` of one share, ``n > 0``, in Python floats: the same operations in the same
    order, so the same bits, at a hundredth of numpy's cost on one value (a verdict's "more
    deals to settle it" bisects over 600 of them per share)."""
    phat = k / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(phat * (1 - phat), 0.0) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if k <= 0 else min(max(centre - half, 0.0), 1.0)
    high = 1.0 if k >= n else min(max(centre + half, 0.0), 1.0)
    return low, high


SUMS = ("K", "M", "KK", "KM", "MM", "C")
"""Per group and stratum, over units: sums of ``k``, ``m``, ``k²``, ``km``, ``m²``, and the
units where ``m > 0``. They add up over chunks, so ``--precision`` tallies them."""


def _estimate(K, M, KK, KM, MM, C, N):
    """Ratio ``sum K / sum M``, its variance, the units holding the group and the degrees of
    freedom of that variance (each stratum's units holding it, less one), from the sums of each
    stratum (last axis; ``N`` units per stratum, broadcast)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = K.sum(-1) / M.sum(-1)
        r = ratio[..., None]
        e1 = K - r * M  # sums of each unit's residual k - R m, and of its square
        e2 = KK - 2 * r * KM + r * r * MM
        within = np.where(N > 1, N / np.maximum(N - 1, 1) * (e2 - e1 * e1 / np.maximum(N, 1)),
                          np.where(C > 0, np.nan, 0.0))
        var = np.maximum(within, 0).sum(-1) / M.sum(-1) ** 2
    return ratio, var, C.sum(-1), np.maximum(C - 1, 0).sum(-1)


def _bounds(ratio, var, units, df, share: bool, z: float = Z95):
    """``(low, high)`` from an estimate, its variance, the units holding it and the variance's
    degrees of freedom (see the module)."""
    ratio, var, units, df = np.broadcast_arrays(*(np.asarray(a, float) for a in (ratio, var, units, df)))
    if not share:
        with np.errstate(invalid="ignore"):
            half = np.where((units >= 2) & (df >= 1), student(z, df) * np.sqrt(var), np.nan)
        return ratio - half, ratio + half
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = ratio * (1 - ratio)
        n_eff = spread / var
        # a variance of rounding noise (a strategy holding every seat wins exactly 1/p of each
        # deal) is no variance: the units do not vary
        known = (units >= 2) & (var > 0) & (spread > 0) & (n_eff < 1e6 * units)
        n_eff = np.where(known, n_eff, units)
    return wilson(ratio * n_eff, n_eff, z)


def unit_estimate(k, m=None, strata=None, share: bool = False, units=None,
                  z: float = Z95) -> tuple[float, float, float]:
    """``sum(k) / sum(m)`` over units (one value each; ``m`` one each by default) with its 95%
    interval: ``(value, low, high)``. ``strata``: each unit's stratum (``--rotate``).
    ``units``: the unit of each value, where several values belong to one unit (the copies of
    a ``--duplicate`` deal): their ``k`` and ``m`` are summed per unit first. ``z``: a wider
    normal quantile, for one of several intervals meant to hold together (Bonferroni)."""
    k = np.asarray(k, float)
    counted = m is None and units is None
    if not counted:
        m = np.ones_like(k) if m is None else np.asarray(m, float)
    if units is not None:
        _, at = np.unique(np.asarray(units), return_inverse=True)
        k, m = np.bincount(at, k), np.bincount(at, m)
    # one stratum: every unit's index 0, as np.unique of zeros gave it after sorting them (30-40 ms
    # a call at 1e6 deals, two calls a seat at the end of every `simtool run`)
    inv = np.zeros(len(k), np.intp) if strata is None else np.unique(np.asarray(strata), return_inverse=True)[1]
    h = int(inv.max()) + 1 if len(inv) else 1
    count = np.bincount(inv, minlength=h).astype(float)
    if counted:  # m one a unit: its sums M, MM and C are the units counted (exact below 2**53), KM is
        # K (k * 1.0 is k); four of six passes over a million deals, at the end of every printed run
        return counted_estimate(np.bincount(inv, k, minlength=h), np.bincount(inv, k * k, minlength=h), count,
                                share, z)
    sums = [np.bincount(inv, w, minlength=h) for w in (k, m, k * k, k * m, m * m, (m > 0).astype(float))]
    ratio, var, units, df = _estimate(*sums, count)
    low, high = _bounds(ratio, var, units, df, share, z)
    return float(ratio), float(low), float(high)


class UnitFold:
    """:func:`unit_estimate` of values given a batch of whole units at a time, each batch's units
    after every unit of the batches before it: the same figures bit for bit, each sum folded on as
    :func:`np.bincount` adds (:func:`folded`). ``strata``: how many (the values' strata are 0 up);
    ``counted``: ``m`` one a unit and no ``units``, as :func:`unit_estimate` counts them. A printed
    duplicate or match run's tables read so instead of every row at once (docs/speed.md)."""

    def __init__(self, strata: int = 1, counted: bool = False):
        self.counted = counted
        self.sums = np.zeros((2 if counted else len(SUMS), strata))
        self.count = np.zeros(strata, np.int64)

    def add(self, k, m=None, strata=None, units=None, at=None) -> None:
        """One batch, as :func:`unit_estimate` takes its values; ``at``: ``units`` numbered as
        ``np.unique`` numbers them (its inverse), where several folds read the same units."""
        k = np.asarray(k, float)
        if not self.counted:
            m = np.ones_like(k) if m is None else np.asarray(m, float)
        if units is not None:
            _, at = np.unique(np.asarray(units), return_inverse=True)
        if at is not None:
            k, m = np.bincount(at, k), np.bincount(at, m)
        weights = (k, k * k) if self.counted else (k, m, k * k, k * m, m * m, (m > 0).astype(float))
        for s in range(self.count.size):
            pick = slice(None) if strata is None else np.asarray(strata) == s
            self.count[s] += len(k) if strata is None else int(pick.sum())
            for j, w in enumerate(weights):
                self.sums[j, s] = folded(self.sums[j, s], w[pick])

    def estimate(self, share: bool = False, z: float = Z95) -> tuple[float, float, float]:
        held = self.count > 0  # the strata present, in order (np.unique's); none: one stratum of 0
        held = held if held.any() else np.arange(held.size) == 0
        count = self.count[held].astype(float)
        if self.counted:
            return counted_estimate(self.sums[0, held], self.sums[1, held], count, share, z)
        ratio, var, units, df = _estimate(*self.sums[:, held], count)
        low, high = _bounds(ratio, var, units, df, share, z)
        return float(ratio), float(low), float(high)


def counted_estimate(K: np.ndarray, KK: np.ndarray, count: np.ndarray, share: bool,
                     z: float = Z95) -> tuple[float, float, float]:
    """:func:`unit_estimate` without ``m`` or ``units``, from the sums of ``k`` and ``k²`` and
    the units of each stratum present (in their order)."""
    ratio, var, units, df = _estimate(K, count, KK, K, count, count, count)
    low, high = _bounds(ratio, var, units, df, share, z)
    return float(ratio), float(low), float(high)


def folded(total: float, values: np.ndarray) -> float:
    """``total`` plus each of ``values`` in turn, as :func:`np.bincount` adds a bin's weights
    (``np.cumsum`` adds in order too): batches of rows folded one after another give the bits
    of one pass over all of them."""
    return float(np.cumsum(np.concatenate(([total], values)))[-1]) if len(values) else total


def unit_key(rows: pl.LazyFrame | pl.DataFrame) -> str:
    """The column naming the independent unit of seat (or per-deal) rows: match, else deal."""
    names = rows.collect_schema().names()
    return "match" if "match" in names else "deal"


Figures = dict[str, "pl.Expr | tuple[pl.Expr, pl.Expr]"]
"""Figures of :func:`estimates`: name -> ``k`` per row, or ``(k, m)`` per row (``m`` 1 by default)."""


def unit_sums(rows: pl.LazyFrame, figures: Figures, by: Collection[str] = (),
              strata: int | None = None, block: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:data:`SUMS` per group of ``by``, figure, stratum and block of ``block`` units, and the
    units ``N`` per stratum and block. ``strata``: ``p`` with ``--rotate`` (unit id mod p)."""
    wide, count = _wide_sums(rows, figures, by, strata, block)
    long = pl.concat([wide.select(*by, pl.lit(name).alias("figure"), "stratum", "block",
                                  *[pl.col(f"{s}{i}").alias(s) for s in SUMS])
                      for i, name in enumerate(figures)])
    return long, count


WHOLE = (pl.Boolean, pl.Int8, pl.Int16, pl.Int32, pl.UInt8, pl.UInt16, pl.UInt32)
"""Figures summed as floats: whole numbers below ``2**32``, whose every sum is exact in a float
while the sums of squares stay below ``2**53`` (checked)."""

FRACTION_BITS = 32
"""Binary places a float figure keeps in :func:`_wide_sums`' fixed-point sums. Every float
simtool's tables hold (a win share ``1/j``, as a float32) is a whole multiple of ``2**-32``,
so its sums are exact."""


def _modes(rows: pl.LazyFrame, figures: Figures) -> tuple[list, set, dict]:
    """Each figure as ``(k, m)``, its float sides and the mode its sums start in (see
    :func:`_wide_sums`), from the types of ``rows``' columns."""
    pairs = [f if isinstance(f, tuple) else (f, None) for f in figures.values()]
    schema = rows.select(*[e.alias(f"_{i}{side}") for i, (k, m) in enumerate(pairs)
                           for side, e in (("k", k), ("m", m)) if e is not None]).collect_schema()
    # per figure: "whole" (float sums of whole numbers), (k bits, m bits, signed) in Int128, or None
    # (floats); signed: a float figure's values may be negative (see _checked)
    floats = {(i, side) for i in range(len(pairs)) for side, name in enumerate("km")
              if f"_{i}{name}" in schema and schema[f"_{i}{name}"].is_float()}
    modes = {i: "whole" if all(m is None and side == "m" or schema[f"_{i}{side}"] in WHOLE for side in "km")
             else (*(FRACTION_BITS if (i, side) in floats else 0 for side in (0, 1)), False)
             for i, (_, m) in enumerate(pairs)}
    return pairs, floats, modes


Parts = "tuple[pl.DataFrame, pl.DataFrame, dict]"
"""A chunk's sums for :func:`estimates` (:func:`chunk_sums`), or the run's (:func:`added_sums`):
``(wide, count, modes)``."""


def chunk_sums(rows: pl.DataFrame, figures: Figures, groups: list[tuple[str, ...]],
               strata: int | None) -> dict[tuple[str, ...], Parts | None]:
    """:func:`_wide_sums`' sums of one chunk's rows per group of each ``by`` of ``groups``, in
    the modes its rows start in; ``None`` where a figure holds NaN or an infinity (its sums are
    then floats, whose order counts), or where polars cannot evaluate one (a game's rate
    comparing a number with text: the run's end, reading the rows, says so once the run is
    written, where a worker's error threw away the whole run). A chunk holds whole units and
    every sum is exact (whole numbers, or whole numbers of ``2**-bits``), so the chunks' sums
    added up are the run's, whatever chunks and ``--jobs``. The units, the same for every
    ``by``, are counted once."""
    frame, rows = rows, rows.lazy()
    try:
        pairs, floats, modes = _modes(rows, figures)
        queries = [_fixed_queries(rows, pairs, modes, floats, list(by), strata, None) for by in groups]
        found = _numpy_sums(frame, pairs, modes, floats, groups, strata, queries)
        if found is not None:
            return {by: (w, count, modes) for by, (w, count) in found.items()}
        *wide, count = pl.collect_all([w for w, _ in queries] + [queries[0][1]], engine="streaming")
    except pl.exceptions.PolarsError:  # InvalidOperationError among them: NaN or an infinity
        return dict.fromkeys(groups)
    return {by: (w, count, modes) for by, w in zip(groups, wide, strict=True)}


EXACT = 2.0 ** 53
"""Below this, every whole number is a float and every float sum of them exact, in any order."""

SPLIT = 2 ** 18
"""A float figure's whole numbers of ``2**-bits`` are summed in numpy as ``a * SPLIT + b``
(``0 <= b < SPLIT``): the sums of ``a``, ``b`` and their products stay exact floats where the
squares would not (a win of 1 at 32 bits is 2**32, its square 2**64)."""


def _numpy_sums(frame: pl.DataFrame, pairs, modes: dict, floats: set, groups: list[tuple[str, ...]],
                strata: int | None, queries) -> dict | None:
    """:func:`chunk_sums` in numpy: the same frames (``queries``' schemas, the same values, rows
    in another order), where every sum is proved exact on the way; ``None`` elsewhere, for
    polars to sum: a figure with an ``m``, an integer figure past :data:`WHOLE`, a null, NaN,
    values or sums past :data:`EXACT`, a ``by`` column neither integers nor an enum. polars'
    group-by cost a worker 16-23 ms a chunk and left 40-55 MiB in its allocator, which it kept
    (docs/speed.md, 2026-11-28)."""
    if frame.height == 0 or any(m is not None for _, m in pairs) or any(
            mode != "whole" and not (isinstance(mode, tuple) and (i, 0) in floats) for i, mode in modes.items()):
        return None
    key, names = unit_key(frame), frame.columns
    # each row's k as _fixed_queries makes it: whole numbers, or whole numbers of 2**-bits (round:
    # half to even, as polars'); a figure that is a column is read as it is, the others (a game's
    # rates) evaluated by polars, whose expression engine touched 5-7 MiB more of a worker's memory
    plain = {i for i, (k, _) in enumerate(pairs) if k.meta.is_column()}
    if not all(_row_wise(k) for i, (k, _) in enumerate(pairs) if i not in plain):
        return None
    values = frame.select(*[k.alias(f"_{i}") for i, (k, _) in enumerate(pairs) if i not in plain]) \
        if len(plain) < len(pairs) else None
    columns = [frame[pairs[i][0].meta.output_name()] if i in plain else values[f"_{i}"] for i in range(len(pairs))]
    if any(c.null_count() for c in (*columns, frame[key])):
        return None
    k_rows = [c.to_numpy().astype(np.float64) for c in columns]
    k_rows = [k if modes[i] == "whole" else np.round(k * 2.0 ** modes[i][0]) for i, k in enumerate(k_rows)]
    if not all(np.all(np.abs(k) < EXACT) for k in k_rows):  # NaN and infinities fail too
        return None
    unit = frame[key].to_numpy().astype(np.int64)
    if unit.min() < 0:
        return None
    s = strata or 1
    stratum = unit % s
    found = {}
    for by, (wide, _) in zip(groups, queries, strict=True):
        found[by] = _numpy_wide(frame, k_rows, unit, stratum, s, modes, list(by), _rows_are_units(key, by, names),
                                wide.collect_schema())
        if found[by] is None:
            return None
    n = np.bincount(unit[_codes(unit - unit.min())[2]] % s, minlength=s)  # every unit once
    present = np.flatnonzero(n)
    count = pl.DataFrame([pl.Series(name, v).cast(dtype) for (name, dtype), v in zip(
        queries[0][1].collect_schema().items(), (present, np.zeros(len(present), np.int64), n[present]), strict=True)])
    return {by: (w, count) for by, w in found.items()}


ROW_WISE_FUNCTIONS = ("Abs", "Negate", {"Boolean": "Not"}, {"Boolean": "IsNull"}, {"Boolean": "IsNotNull"})
"""The functions of a figure :func:`_row_wise` knows to read one row each (polars' serialized names)."""


def _row_wise(e: pl.Expr) -> bool:
    """Whether each row's value of ``e`` reads that row alone (columns, scalars, arithmetic,
    comparisons, casts, when/then and :data:`ROW_WISE_FUNCTIONS`), so that :func:`_numpy_sums`
    may evaluate it over the whole chunk. polars' road evaluates a figure within each group of
    ``by`` and unit, as the rows are read at a run's end: a rate of a maximum, a window or a
    shift (``pl.col('tricks') == pl.col('tricks').max().over('deal')``) printed other shares
    than the rows give (0.897 against 1.0 pooled), and a constant (``pl.lit(True)``) beside
    column figures ended the run in numpy's "The weights and list don't have the same length".
    Anything else, or a figure of no column, is polars' to sum."""
    try:
        tree = json.loads(e.meta.serialize(format="json"))
    except (pl.exceptions.PolarsError, ValueError):
        return False
    columns = []

    def walk(node) -> bool:
        if not (isinstance(node, dict) and len(node) == 1):
            return False
        ((kind, body),) = node.items()
        if kind == "Column":
            columns.append(body)
            return isinstance(body, str)
        if kind == "Literal":
            return isinstance(body, dict) and set(body) <= {"Dyn", "Scalar"}
        if kind == "Function":
            return body["function"] in ROW_WISE_FUNCTIONS and all(walk(i) for i in body["input"])
        parts = {"BinaryExpr": ("left", "right"), "Cast": ("expr",), "Ternary": ("predicate", "truthy", "falsy"),
                 "Alias": (0,)}.get(kind)
        return parts is not None and all(walk(body[k]) for k in parts)

    return walk(tree) and bool(columns) and not e.meta.has_multiple_outputs()


def _codes(code: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """Non-negative keys as groups ``0..g-1``: each row's group, ``g``, and a row of each group."""
    top = int(code.max()) + 1
    if top <= 4 * len(code) + 4096:
        present = np.bincount(code, minlength=top) > 0
        inverse, groups = (np.cumsum(present) - 1)[code], int(present.sum())
    else:
        _, inverse = np.unique(code, return_inverse=True)
        groups = int(inverse.max()) + 1
    row = np.empty(groups, np.int64)
    row[inverse] = np.arange(len(code))
    return inverse, groups, row


def _by_code(frame: pl.DataFrame, by: list[str]) -> np.ndarray | None:
    """One non-negative key per row for the columns ``by`` (integers or an enum's codes)."""
    code, span = np.zeros(frame.height, np.int64), 1
    for name in by:
        column = frame[name]
        if isinstance(column.dtype, pl.Enum):
            column = column.to_physical()
        if not column.dtype.is_integer() or column.null_count():
            return None
        a = column.to_numpy().astype(np.int64)
        low, width = int(a.min()), int(a.max()) - int(a.min()) + 1
        span *= width
        if span >= 2 ** 40:
            return None
        code = code * width + (a - low)
    return code


def _numpy_wide(frame: pl.DataFrame, k_rows: list[np.ndarray], unit: np.ndarray, stratum: np.ndarray, s: int,
                modes: dict, by: list[str], units_are_rows: bool, schema) -> pl.DataFrame | None:
    """One ``by``'s frame of :func:`_numpy_sums`, the columns of ``schema`` (see
    :func:`_fixed_queries`)."""
    code = _by_code(frame, by)
    if code is None or not by:
        return None
    if units_are_rows:  # one row per unit and group: the rows' own values
        k_units, m, high = k_rows, None, 1
        inverse, g, at = _codes(code * s + stratum)
    else:  # each unit's sums per group first, as polars adds them: floats, exact below EXACT
        low, width = int(unit.min()), int(unit.max()) - int(unit.min()) + 1
        if (int(code.max()) + 1) * width >= 2 ** 62:
            return None
        of_unit, units, first = _codes(code * width + (unit - low))
        m = np.bincount(of_unit, minlength=units)
        high = int(m.max())
        if any(np.abs(k).max() * high >= EXACT for k in k_rows):
            return None
        k_units = [np.bincount(of_unit, weights=k, minlength=units) for k in k_rows]
        inverse, g, row = _codes((code * s + stratum)[first])
        at = first[row]
    c = np.bincount(inverse, minlength=g)
    most = int(c.max())

    def summed(weights) -> list[int]:
        return [int(x) for x in np.bincount(inverse, weights=weights, minlength=g)]

    cols: dict[str, object] = {"_C": c, "_M": c, "_MM": c}
    if m is not None:
        cols["_M"] = np.bincount(inverse, weights=m, minlength=g)
        cols["_MM"] = np.bincount(inverse, weights=m * m, minlength=g)
    for i, k in enumerate(k_units):
        if modes[i] == "whole":  # float sums, as polars makes them
            big = float(np.abs(k).max())
            if max(big * big, big * high) * most >= EXACT:
                return None
            total = np.bincount(inverse, weights=k, minlength=g)
            cols |= {f"K{i}": total, f"KK{i}": np.bincount(inverse, weights=k * k, minlength=g),
                     f"KM{i}": total if m is None else np.bincount(inverse, weights=k * m, minlength=g)}
        else:  # Int128 sums, from a * SPLIT + b
            a = np.floor(k / SPLIT)  # exact: a power of two (np.mod took 1.4 ms of a chunk's 98,304 rows)
            b = k - a * SPLIT
            top = float(np.abs(a).max())
            if max(top * top, top * SPLIT, SPLIT * SPLIT, (top + SPLIT) * high) * most >= EXACT:
                return None
            sa, sb = summed(a), summed(b)
            cols[f"K{i}"] = [x * SPLIT + y for x, y in zip(sa, sb, strict=True)]
            cols[f"KK{i}"] = [x * SPLIT * SPLIT + 2 * y * SPLIT + z
                              for x, y, z in zip(summed(a * a), summed(a * b), summed(b * b), strict=True)]
            largest = np.zeros(g)
            np.maximum.at(largest, inverse, np.abs(k))
            cols[f"Bk{i}"] = [int(x) for x in largest]
            if m is None:
                cols[f"KM{i}"], cols[f"Bm{i}"] = cols[f"K{i}"], np.ones(g, np.int64)
            else:
                cols[f"KM{i}"] = [x * SPLIT + y for x, y in zip(summed(a * m), summed(b * m), strict=True)]
                cols[f"Bm{i}"] = np.zeros(g, np.int64)
                np.maximum.at(cols[f"Bm{i}"], inverse, m)
                cols[f"Lk{i}"] = np.full(g, np.inf)  # the least value of a row
                np.minimum.at(cols[f"Lk{i}"], inverse[of_unit], k_rows[i])
        cols |= {f"M{i}": cols["_M"], f"MM{i}": cols["_MM"], f"C{i}": c}
    cols |= {"stratum": stratum[at], "block": np.zeros(g, np.int64)} | {name: frame[name][at] for name in by}
    if any(name not in cols for name in schema):
        return None
    return pl.DataFrame([pl.Series(name, cols[name], dtype=dtype) if isinstance(cols[name], list) else
                         pl.Series(name, cols[name]).cast(dtype) for name, dtype in schema.items()])


KEPT = {"A": max, "B": max, "L": min}
"""How chunks' sums add up, by the first letter of a column: the largest or least value kept
(:func:`_fixed_queries`' ``A``, ``B``, ``L``), any other column summed."""


def added_sums(parts: list, by: Collection[str]) -> Parts | None:
    """The chunks' :func:`chunk_sums` added up (the largest and least values kept as such);
    ``None`` where a chunk has none or they were summed in different modes."""
    if not parts or any(p is None or p[2] != parts[0][2] for p in parts):
        return None
    wide, keys = pl.concat([p[0] for p in parts]), [*by, "stratum", "block"]
    wide = wide.group_by(keys).agg(getattr(pl.col(c), KEPT.get(c[0], sum).__name__)()
                                   for c in wide.columns if c not in keys)
    count = pl.concat([p[1] for p in parts]).group_by("stratum", "block").agg(pl.col("N").sum())
    return wide, count, parts[0][2]


class Folded:
    """Chunks' sums (:func:`chunk_sums`) added up as they come, in Python's numbers: what
    :func:`added_sums` gives of them all, for a run's main process, which would otherwise keep
    every chunk's frames (40 KB a chunk: 11 MiB at 1e7 deals, some 110 at 1e8). No polars frame
    is made until :meth:`parts` (making one touched 7-8 MiB of polars' code in that process, whose
    workers may still be playing), nor any query. The same sums: whole numbers, exact in any
    order (a float sum past 2**53, which order could change, is refused by :func:`_checked`
    either way)."""

    def __init__(self):
        self.schemas, self.modes, self.lost = None, None, False
        self.totals: tuple[dict, dict] = ({}, {})

    def add(self, parts: Parts | None) -> None:
        if parts is None or (self.schemas is not None and parts[2] != self.modes):
            self.lost = True  # as added_sums: None where a chunk has none, or in other modes
        if self.lost:
            return
        if self.schemas is None:
            self.schemas, self.modes = (parts[0].schema, parts[1].schema), parts[2]
        for frame, schema, totals in zip(parts[:2], self.schemas, self.totals, strict=True):
            names = list(schema)
            keys = names.index("block") + 1  # the groups' columns come first: by, stratum, block
            for row in frame.iter_rows():
                was = totals.get(row[:keys])
                totals[row[:keys]] = row[keys:] if was is None else tuple(
                    _folded(c, a, b) for c, a, b in zip(names[keys:], was, row[keys:], strict=True))

    def parts(self) -> Parts | None:
        """The sums added up, one row per group in the chunks' schema; ``None`` as
        :func:`added_sums`, or where a total outgrows its column's type."""
        if self.lost or self.schemas is None:
            return None
        try:
            wide, count = (pl.DataFrame([[*k, *v] for k, v in totals.items()], schema=schema, orient="row")
                           for totals, schema in zip(self.totals, self.schemas, strict=True))
        except (OverflowError, pl.exceptions.PolarsError):
            return None
        return wide, count, self.modes


def _folded(column: str, a, b):
    """Two chunks' values of a sums' ``column`` added up, as :func:`added_sums` does. A null is
    passed over, as polars' max, min and sum pass over one: a figure null in every row of a
    group of a chunk (a designer's rate ``pl.when(...).then(x)``, summed by polars) has a null
    largest and least value there, and ended a printed run of more than one chunk in
    "TypeError: '>' not supported between instances of 'NoneType' and 'NoneType'"."""
    if a is None or b is None:
        return b if a is None else a
    kept = KEPT.get(column[0])
    return a + b if kept is None else kept(a, b)


def _wide_sums(rows: pl.LazyFrame, figures: Figures, by: Collection[str],
               strata: int | None, block: int | None, given: Parts | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`unit_sums` as one row per group of ``by``, stratum and block, the sums of figure
    ``i`` in columns ``K<i>``, ``M<i>``, ...; and ``N`` per stratum and block.

    Every sum is exact, so the same whatever threads or chunks polars adds it in (a float sum
    depends on the order, which polars' parallel group-by does not keep: the last bits of an
    interval changed from one call to the next). A figure of :data:`WHOLE` numbers is summed
    as floats, exact while its sums of squares stay below ``2**53``; any other figure, or one
    past that, in whole numbers of ``2**-bits`` (``bits`` :data:`FRACTION_BITS` for a float, 0
    for an integer) summed as Int128s, each sum rounded to a float once. ``bits`` is lowered,
    for k and for m each by its own values, where that could lose a bit: a float figure's rows
    added up within a unit past ``2**53`` (their |values| past ``2**21``), or an Int128 sum past
    ``2**127`` (values near ``2**18`` per unit at 1e8 units). A figure holding NaN or an
    infinity is summed as floats, its sums NaN or infinite whatever the order."""
    rows, names = rows.lazy(), list(figures)
    pairs, floats, modes = _modes(rows, figures)
    # sums added up over the chunks as they were played, where they were summed in the modes these
    # rows start in (else, or where those prove too narrow, the rows are summed here)
    given = given[:2] if given is not None and given[2] == modes else None
    while True:
        try:
            wide, count = given or _fixed_sums(rows, pairs, modes, floats, by, strata, block)
            given = None
        except pl.exceptions.InvalidOperationError:  # NaN, an infinity or past an Int128: no whole number of 2**-bits
            # only the figures holding one are summed as floats: all of them were, and the win
            # share's interval then changed its last bits from one call to the next; the others
            # are still checked (whole numbers past 2**53 were left in inexact float sums)
            unfit = {i for i in _unfixable(rows, pairs, floats) if modes[i] is not None}
            if not unfit:
                raise
            modes = {**modes, **dict.fromkeys(unfit)}
            continue
        n = int(count["N"].sum()) if count.height else 0
        checked = {i: _checked(wide, i, mode, n, pairs[i][1] is None) for i, mode in modes.items()}
        if checked == modes:
            break
        modes = checked
    return wide.select(*by, "stratum", "block").hstack(
        [c for i in range(len(names)) for c in _unscaled(wide, i, modes[i])]), count


UNFIXABLE = 2.0 ** 63
"""A float figure holding a value this large is summed as floats: in whole numbers of
``2**-32`` its rows' sums pass an Int128."""


def _unfixable(rows: pl.LazyFrame, pairs, floats: set) -> set[int]:
    """The figures of ``pairs`` with a NaN, an infinity or a value past :data:`UNFIXABLE` in a
    float side (``floats``)."""
    found = rows.select(*[(~pairs[i][side].is_finite() | (pairs[i][side].abs() >= UNFIXABLE)).any()
                          .alias(f"{i}_{side}")
                          for i, side in sorted(floats)]).collect(engine="streaming")
    return {i for i, side in sorted(floats) if found[f"{i}_{side}"][0]}


def _checked(wide: pl.DataFrame, i: int, mode, n: int, counted: bool):
    """Figure ``i``'s mode if its sums were exact, else the one to sum it again in. ``counted``:
    its m counts rows, whole and exact in any mode."""
    if mode == "whole":  # |k| <= k*k and |km| <= (k*k + m*m) / 2: every partial sum is below these two
        big = max(float(wide[f"KK{i}"].max() or 0), float(wide[f"MM{i}"].max() or 0)) >= 2.0 ** 53
        return (0, 0, False) if big else mode
    if mode is None:
        return mode
    # a float figure's values are added up per unit as whole floats, exact while every partial sum
    # is below 2**53: below the unit's sum where no value is negative (L: the least), else below
    # the sum of their |values| (A), which the figure is summed again with where one is
    if any((wide[c].min() or 0) < 0 for c in (f"Lk{i}", f"Lm{i}") if c in wide.columns):
        return (*mode[:2], True)
    # each side lowered by its own values only: a k of huge values once rounded the small whole
    # m of a ratio figure to multiples of 2**lower (M 0, no unit with m > 0)
    bits = list(mode[:2])
    for side, name in enumerate("km"):
        if side == 1 and counted:
            continue
        big = wide[f"B{name}{i}"].max() or 0
        exact = math.frexp(wide[f"A{name}{i}"].max() or 0)[1] if f"A{name}{i}" in wide.columns else \
            big.bit_length() if f"L{name}{i}" in wide.columns else 0
        # the largest |value| of a unit bounds every product, and n of them every Int128 sum
        lower = max((((big ** 2 * n).bit_length() - 126) + 3) // 2, exact - 53)
        bits[side] -= max(lower, 0)
    return mode if bits == list(mode[:2]) else (*bits, mode[2])


def _fixed(e: pl.Expr, mode, side: int) -> pl.Expr:
    """``e`` as a float (mode "whole" or None), or a whole number of ``2**-bits`` (Int128)."""
    if mode is None or mode == "whole":
        return e.cast(pl.Float64)
    bits = mode[side]
    return e.cast(pl.Int128) if bits == 0 else (e.cast(pl.Float64) * 2.0 ** bits).round().cast(pl.Int128)


def _fixed_sums(rows: pl.LazyFrame, pairs, modes: dict, floats: set, by: Collection[str], strata: int | None,
                block: int | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`_fixed_queries` collected, in one scan of the rows for both; whole units of about
    :data:`BATCH_ROWS` rows at a time where the rows come in order of their unit, as a run
    writes them. A query of every row at once holds each unit's sums until the end: 550 MiB in
    the main process for the printed tables of 1e6 Out-Trumped deals, 3.9 GB at 1e7. The
    batches' sums, exact, add up to the very sums of the whole (:func:`added_sums`). Only where
    every figure reads each row alone (:func:`_row_wise`): seat rows of deals by seat are summed
    row by row in one ``select``, where a maximum or a shift (``pl.col('tricks').max()``) reads
    all the rows given, and a batch's would be other figures."""
    parts, figures = [], [e for pair in pairs for e in pair if e is not None]
    for batch in _unit_batches(rows, by, figures) if all(map(_row_wise, figures)) else ():
        if batch is None:  # not in order of units: a unit's rows may lie in several batches
            parts = []
            break
        parts.append((*pl.collect_all(_fixed_queries(batch.lazy(), pairs, modes, floats, by, strata, block)), modes))
    if parts:
        wide, count, _ = added_sums(parts, by) if len(parts) > 1 else parts[0]
        return wide, count
    wide, count = pl.collect_all(_fixed_queries(rows, pairs, modes, floats, by, strata, block), engine="streaming")
    return wide, count


BATCH_ROWS = 1 << 17
"""Rows :func:`_fixed_sums` sums at once. Out-Trumped's bonus table of 1e7 deals: 2**17 rows
7.7 s and 214 MiB, 2**19 8.3 s and 333, 2**20 8.8 s and 428, all rows at once 13.1 s and 3.7 GB."""


HELD_ROWS = 1 << 22
"""Rows :func:`_unit_batches` holds waiting for a cut before it gives up: rows in no order of
units (a frame sorted by score) are then summed in one query, which keeps each unit's sums, not
every row. A match run's chunk, 2**14 matches round by round: 0.2M rows of Kansas City's, 3M of
Nine Lives' (46 rounds a match)."""


def _unit_batches(rows: pl.LazyFrame, by: Collection[str], figures: list[pl.Expr]) -> Iterator[pl.DataFrame | None]:
    """The columns of ``rows`` that ``by`` and ``figures`` read, in batches of whole units. A
    batch ends where every unit read so far lies before every unit read after it: at a deal's end
    in a deal run's rows, at a chunk's end in a match run's (a chunk's matches written round by
    round: a batch then holds a chunk at least, 2**14 matches). Every row read later must lie
    after the units given: ``None``, then stop, at the first batch where one does not (rows in
    no such order, a frame sorted by score), whose unit may lie in a batch given."""
    key, names = unit_key(rows), rows.collect_schema().names()
    roots = {r for e in figures for r in e.meta.root_names()}
    kept = {key, *by, *roots, "seat", "round", "rotation"}  # seat, round, rotation: what a row is
    named = roots <= set(names) and not any(map(_selects, figures))
    columns = [c for c in names if c in kept] if named else names
    # held: the frames read, not yet given, whose units may go on; top: the largest unit of all
    # held frames but the last; given: the largest unit given
    held, top, given = [], None, None
    for batch in rows.select(columns).collect_batches(chunk_size=BATCH_ROWS):
        if not batch.height:
            continue
        unit = batch[key]
        if unit.null_count() or given is not None and unit.min() <= given or \
                sum(h.height for h in held) > HELD_ROWS:
            yield None
            return
        if held:
            # a cut within the last frame held, where the rows before it hold lower units than every
            # row after it read so far (a cut before that frame was refused as it came: the rows
            # read since only lowered the units after it); one scan of each row, however many held
            last, least = held[-1][key].to_numpy(), unit.min()
            first = np.maximum.accumulate(last)
            if top is not None:
                first = np.maximum(first, top)
            after = np.minimum(np.append(np.minimum.accumulate(last[::-1])[::-1][1:], least), least)
            cuts = np.flatnonzero(first < after)
            if not len(cuts):
                top = int(first[-1])
            else:
                cut = int(cuts[-1]) + 1
                given = int(first[cut - 1])
                yield pl.concat([*held[:-1], held[-1][:cut]])
                held, top = ([held[-1][cut:]], int(last[cut:].max())) if cut < len(last) else ([], None)
        held.append(batch)
    if held:
        yield pl.concat(held)


def _selects(e: pl.Expr) -> bool:
    """Whether ``e`` picks columns other than by their names (``pl.all()``, a regex, a dtype,
    ``pl.nth``): its ``root_names()`` name none of them."""
    return e.meta.is_column_selection() and not e.meta.is_column() or any(map(_selects, e.meta.pop()))


def _rows_are_units(key: str, by: Collection[str], names: list[str]) -> bool:
    """Whether rows of ``names`` are one row per unit and group of ``by``: seat rows of deals, by
    seat (no rounds, no copies of a deal)."""
    return key == "deal" and "seat" in by and "round" not in names and "rotation" not in names


def _fixed_queries(rows: pl.LazyFrame, pairs, modes: dict, floats: set, by: Collection[str], strata: int | None,
                   block: int | None) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """:func:`_wide_sums` in each figure's mode, unscaled, with ``Bk<i>`` and ``Bm<i>``: the
    largest |k| and |m| of figure ``i`` in a unit, for the fixed-point ones; for each float side
    of a figure (``floats``: ``(i, 0)`` for k, ``(i, 1)`` for m) where units are summed from rows,
    ``Lk<i>`` (``Lm<i>``), its least value, or where it is signed (``modes``), ``Ak<i>``
    (``Am<i>``), the largest sum of a unit's |values|."""
    key, by = unit_key(rows), list(by)
    # every figure's k and m summed per unit and group, in one pass over the rows; seat rows of
    # deals, grouped by seat, are one row per unit and group already. The figures counting rows
    # (no m) share one m, the unit's rows, and its sums M, MM and C, summed once
    rows_are_units = _rows_are_units(key, by, rows.collect_schema().names())
    counted = {i for i, (_, m) in enumerate(pairs) if m is None}
    shared = counted and not rows_are_units  # m is 1 in rows of units: M = MM = C = units, KM = K
    per_unit = [pl.len().cast(pl.Int64).alias("_m")] if shared else []
    for i, (k, m) in enumerate(pairs):
        whole = modes[i] == "whole"
        # a float as a whole float, round(x * 2**bits), made an Int128 in the sums over units (half
        # the memory); added up per unit with its least value, or the sum of its |values| (a)
        for side, name, e in ((0, "k", k), (1, "m", m)):
            if e is None:
                continue
            if (i, side) in floats and isinstance(modes[i], tuple):
                q = (e.cast(pl.Float64) * 2.0 ** modes[i][side]).round()
                per_unit += [q.alias(f"{name}{i}")] if rows_are_units else \
                    [q.sum().alias(f"{name}{i}"), (q.abs().sum() if modes[i][2] else q.min()).alias(f"a{name}{i}")]
            elif rows_are_units:
                per_unit.append(_fixed(e, modes[i], side).alias(f"{name}{i}"))
            elif whole:  # whole numbers below 2**32 add up exactly in an Int64
                per_unit.append(e.cast(pl.Int64).sum().cast(pl.Float64).alias(f"{name}{i}"))
            else:
                per_unit.append(_fixed(e, modes[i], side).sum().alias(f"{name}{i}"))
    where = [(pl.col("_unit") % strata if strata else pl.lit(0)).cast(pl.Int64).alias("stratum"),
             (pl.col("_unit") // block if block else pl.lit(0)).cast(pl.Int64).alias("block")]
    rows_of = pl.col("_m").cast(pl.Int128)
    sums = [pl.len().alias("_C")] if counted else []
    sums += [rows_of.sum().alias("_M"), (rows_of * rows_of).sum().alias("_MM")] if shared else []
    for i in range(len(pairs)):
        wholes = [name for side, name in enumerate("km") if (i, side) in floats and isinstance(modes[i], tuple)]
        k, m = (pl.col(f"{name}{i}").cast(pl.Int128) if name in wholes else pl.col(f"{name}{i}") for name in "km")
        sums += [k.sum().alias(f"K{i}"), (k * k).sum().alias(f"KK{i}")]
        if wholes and not rows_are_units:
            sums += [pl.col(f"a{name}{i}").max().alias(f"A{name}{i}") if modes[i][2] else
                     pl.col(f"a{name}{i}").min().alias(f"L{name}{i}") for name in wholes]
        if i not in counted:
            sums += [m.sum().alias(f"M{i}"), (k * m).sum().alias(f"KM{i}"), (m * m).sum().alias(f"MM{i}"),
                     (m > 0).sum().alias(f"C{i}")]
        elif shared:
            m = pl.col("_m")
            sums.append((k * (rows_of if isinstance(modes[i], tuple) else m)).sum().alias(f"KM{i}"))
        else:
            m = pl.lit(1)
        if isinstance(modes[i], tuple):
            sums += [k.abs().max().alias(f"Bk{i}"), m.abs().max().alias(f"Bm{i}")]
    units = rows.select(*by, pl.col(key).alias("_unit"), *per_unit) if rows_are_units \
        else rows.group_by(*by, pl.col(key).alias("_unit")).agg(per_unit)
    units = units.with_columns(where)
    wide = units.group_by(*by, "stratum", "block").agg(sums)
    if counted and not shared:
        wide = wide.with_columns(pl.col("_C").alias("_M"), pl.col("_C").alias("_MM"),
                                 *[pl.col(f"K{i}").alias(f"KM{i}") for i in counted])
    wide = wide.with_columns(*[pl.col(f"_{s}").alias(f"{s}{i}") for i in counted for s in ("M", "MM", "C")])
    return wide, units.group_by("stratum", "block").agg(pl.col("_unit").n_unique().cast(pl.Float64).alias("N"))


def _unscaled(wide: pl.DataFrame, i: int, mode) -> list[pl.Series]:
    """Figure ``i``'s sums as floats, in the fixed point of ``mode`` each rounded once (Python's
    int to float)."""
    if not isinstance(mode, tuple):
        return [wide[f"{s}{i}"].cast(pl.Float64) for s in SUMS]
    fk, fm = mode[:2]
    scale = {"K": fk, "M": fm, "KK": 2 * fk, "KM": fk + fm, "MM": 2 * fm, "C": 0}
    return [pl.Series(f"{s}{i}", [math.ldexp(float(v), -scale[s]) for v in wide[f"{s}{i}"].to_list()],
                      pl.Float64) for s in SUMS]


def _dense(sums: pl.DataFrame, units: pl.DataFrame, keys: list[str]):
    """The sums as arrays ``(group, block, stratum)``, ``N`` as ``(block, stratum)``."""
    groups = sums.select(keys).unique().sort(keys)  # in one order, whatever order polars summed them in
    index = sums.join(groups.with_row_index("_g"), on=keys, how="left", nulls_equal=True,
                        maintain_order="left")["_g"].to_numpy()
    blocks = np.unique(units["block"].to_numpy())
    strata = np.unique(units["stratum"].to_numpy())
    where = (index, np.searchsorted(blocks, sums["block"].to_numpy()),
             np.searchsorted(strata, sums["stratum"].to_numpy()))
    arrays = []
    for name in SUMS:
        a = np.zeros((groups.height, len(blocks), len(strata)))
        np.add.at(a, where, sums[name].to_numpy())
        arrays.append(a)
    n = np.zeros((len(blocks), len(strata)))
    np.add.at(n, (np.searchsorted(blocks, units["block"].to_numpy()),
                  np.searchsorted(strata, units["stratum"].to_numpy())), units["N"].to_numpy())
    return groups, arrays, n, blocks


def _dense_wide(wide: pl.DataFrame, units: pl.DataFrame, by: list[str], names: list[str]):
    """:func:`_wide_sums` of one block as arrays ``(group, stratum)``, a group being a group of
    ``by`` and a figure (figures innermost); the groups as a frame ``*by, figure``; ``N`` per
    stratum. The same arrays as :func:`_dense` of :func:`unit_sums`, without making the long
    frame (one row per figure) first: most of an :func:`estimates` call on a small frame. The
    groups come in :func:`estimates`' order, by ``by`` then figure: the few keys sorted here,
    not every row of its answer by a mapping of the figures' names."""
    figure = pl.DataFrame({"figure": names})
    if by:
        keys = wide.select(by).unique().sort(by)
        index = wide.join(keys.with_row_index("_g"), on=by, how="left", nulls_equal=True,
                        maintain_order="left")["_g"].to_numpy()
        groups = keys.join(figure, how="cross", maintain_order="left_right")
    else:  # one group, if there are any rows
        index, groups = np.zeros(wide.height, dtype=np.int64), figure.head(len(names) * min(wide.height, 1))
    strata = np.unique(units["stratum"].to_numpy())
    at = np.searchsorted(strata, wide["stratum"].to_numpy())
    shape = (groups.height // len(names) if names else 0, len(names), len(strata))
    arrays = []
    for name in SUMS:
        columns = np.column_stack([wide[f"{name}{i}"].to_numpy() for i in range(len(names))]) \
            if wide.height else np.zeros((0, len(names)))
        a = np.zeros(shape)
        np.add.at(a, (index[:, None], np.arange(len(names))[None, :], at[:, None]), columns)
        arrays.append(a.reshape(shape[0] * shape[1], len(strata)))
    n = np.zeros(len(strata))
    np.add.at(n, np.searchsorted(strata, units["stratum"].to_numpy()), units["N"].to_numpy())
    return groups, arrays, n


def estimates(rows, figures: Figures, by: Collection[str] = (), means: Collection[str] = (),
              strata: int | None = None, given: Parts | None = None) -> pl.DataFrame:
    """Each figure per group of ``by``, with its 95% interval on units: one row per group and
    figure, ``*by, figure, k, n, value, low, high`` (``k``, ``n``: sums of ``k`` and ``m``
    over rows). Figures named in ``means`` get Student's interval, the others are shares.
    ``given``: the sums of ``rows`` added up over the chunks played (:func:`added_sums`)."""
    by = list(by)
    sums, units = _wide_sums(rows, figures, by, strata, None, given)
    return _estimated(*_dense_wide(sums, units, by, list(figures)), means)


def _estimated(groups: pl.DataFrame, arrays: list[np.ndarray], n: np.ndarray,
               means: Collection[str]) -> pl.DataFrame:
    """:func:`estimates`' rows from :func:`_dense_wide`'s groups, sums and units."""
    value, var, held, df = _estimate(*arrays, n)
    figure = groups["figure"].to_numpy()
    low, high = np.empty_like(value), np.empty_like(value)
    for share in (True, False):
        pick = np.isin(figure, list(means)) != share
        low[pick], high[pick] = _bounds(value[pick], var[pick], held[pick], df[pick], share)
    return groups.with_columns(pl.Series("k", arrays[0].sum(-1)), pl.Series("n", arrays[1].sum(-1)),
                               pl.Series("value", value), pl.Series("low", low), pl.Series("high", high))


def group_estimates(rows, keys: list[str], aggregates: list[pl.Expr], figures: Figures,
                    means: Collection[str] = ()) -> pl.DataFrame:
    """:func:`estimates` of ``rows`` grouped by ``keys`` (a deal's or a round's figures: how many
    seats went over a limit), ``keys`` naming the unit, so that each group lies within one unit.
    Where the rows come as a run writes them (deals in order, a match run's chunks in order), the
    groups are made and summed in batches of whole units (:func:`_unit_batches`), whose exact
    sums add up to those of all the groups at once (:func:`added_sums`): grouping a 1e7-deal
    run's rows at once held every deal, 1.8 GB in the main process of a printed run of Kansas City."""
    rows = rows.lazy()
    groups = rows.group_by(keys).agg(aggregates)
    given = None
    if unit_key(rows) in keys:
        parts = []
        for batch in _unit_batches(rows, keys, aggregates):
            # a batch out of unit order, or a figure that is NaN somewhere: all the groups at once
            parts.append(None if batch is None else
                         chunk_sums(batch.group_by(keys).agg(aggregates), figures, [()], None)[()])
            if parts[-1] is None:
                break
        given = added_sums(parts, ())
    return estimates(groups, figures, (), means, None, given)


def wide(long: pl.DataFrame, by: Collection[str]) -> pl.DataFrame:
    """:func:`estimates` rows as one row per group: ``<figure>``, ``<figure>_low``, ``<figure>_high``."""
    by = list(by)
    if not by:
        long = long.with_columns(pl.lit(0).alias("_all"))
    keys = by or ["_all"]
    out = long.pivot("figure", index=keys, values=["value", "low", "high"], aggregate_function="first")
    names = list(dict.fromkeys(long["figure"].to_list()))
    out = out.select(*keys, *[pl.col(f"{part}_{name}").alias(name + suffix) for name in names
                              for part, suffix in (("value", ""), ("low", "_low"), ("high", "_high"))])
    return out.drop("_all") if not by else out


def fmt_mean(mean: float, low: float, high: float) -> str:
    """A mean and its interval, with as many decimals as the interval allows: ``x ± h`` where it
    is symmetric (to 1% of its half-width: rounding), else its ends."""
    half = (high - low) / 2
    if not np.isfinite(half):
        return f"{mean:.3f} ± n/a"
    digits = mean_decimals(half)
    if abs((high - mean) - (mean - low)) > 0.01 * half:
        # cut where the mean can go no further (a match lasts a round at least and stops at the
        # round cap): 2 Nine Lives matches' rounds, 1 to 200, were tabled "40 ± 100", -60 to 140;
        # nor may a cut end come back in a half-width (0 to 13 hearts: "6.0 ± 6.5", -0.5 to 12.5)
        return f"{round(mean, digits) + 0.0:.{digits}f} ({low:.{digits}f} to {high:.{digits}f})"
    return f"{round(mean, digits) + 0.0:.{digits}f} ± {half:.{digits}f}"  # + 0.0: never "-0.00"


def mean_decimals(half: float) -> int:
    """The decimals :func:`fmt_mean` shows a mean with, from its interval's half-width."""
    return max(0, min(4, 1 - math.floor(math.log10(half)))) if half > 0 else 3


def shown_decimals(x: float, digits: int = 1) -> int:
    """The decimals that show the share ``x`` as a percentage: ``digits``, or as many as its first
    significant figure needs where ``digits`` would round a share that is not 0 to 0 (a share of
    0.03% over 1e6 deals printed "0.0% (0.0–0.0)": none at all, and no doubt of it)."""
    v = abs(100 * x)
    # below 1e-9 points (a share of 1 in 1e11): a bound's rounding error (Wilson's 1e-17 at 0), no share
    if v < 1e-9 or not math.isfinite(v):
        return digits
    if round(v, digits) != 0:
        # the same at the other end: 100,000 of 100,000 matches read "100.0% (100.0–100.0)", all
        # and no doubt, where Wilson's lower end is 99.996%
        short = 100 - v
        return shown_decimals(short / 100, digits) if short >= 1e-9 and round(v, digits) == 100 else digits
    places = -math.floor(math.log10(v))
    # 0.00096 rounds up to 0.001 at its first figure's place: one place fewer, else "0.0010"
    return places - 1 if round(v, places) >= 10.0 ** (1 - places) else places


def percent(x: float, digits: int = 1) -> str:
    """The share ``x`` as a percentage, without the sign ``%``: ``digits`` decimals, more for a
    share that would show as 0 but is not (:func:`shown_decimals`), never "-0.0"."""
    return _pct(x, shown_decimals(x, digits))


def _pct(x: float, digits: int) -> str:
    return f"{abs(100 * x) if round(100 * x, digits) == 0 else 100 * x:.{digits}f}"  # never "-0.0"


def apart(low: float, high: float, show, digits: int, most: int = 3, value: float | None = None) -> int:
    """``digits``, or as many more (up to ``most`` more) as ``show(x, digits)`` needs to write an
    interval's two ends apart where they are apart, and its estimate ``value`` apart from an end
    it is not on: ends written alike read as a figure known exactly, and an estimate written as an
    end as one on the interval's edge (Out-Trumped's below-zero hazard, 2.26% of deals, 2.23% to
    2.30%, read "2.3% (95% interval 2.2% to 2.3%)"). Ends that are one, or none (NaN), keep ``digits``."""
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or low == high:
        return digits
    on_end = value is not None and math.isfinite(value)
    for more in range(most + 1):
        k = digits + more
        if show(low, k) != show(high, k) and not (
                on_end and any(x != value and show(x, k) == show(value, k) for x in (low, high))):
            return k
    return digits + most


def fmt_rate(rate: float, low: float, high: float) -> str:
    """A share as a percentage with its interval: ``33.3% (32.8–33.8)``; ``n/a`` where nothing
    was counted (no share: the comeback shares of matches that all last one round). More
    decimals where the ends would show on each other or on the share (:func:`apart`): 70 of
    20,000 deals read "0.35% (0.28–0.44)", never "0.4% (0.3–0.4)"."""
    if not np.isfinite(rate):
        return "n/a"
    if not np.isfinite(high - low):
        return f"{percent(rate)}% (n/a)"
    # its interval to the share's decimals: 0.03% (0.02–0.05)
    digits = apart(low, high, percent, shown_decimals(rate), value=rate)
    return f"{percent(rate, digits)}% ({percent(low, digits)}–{percent(high, digits)})"


def fmt_share(share: float, low: float, high: float) -> str:
    """A share as ``x% ± h%`` where its interval is symmetric to a tenth of its half-width,
    else as ``x% (low–high%)`` (Wilson's near 0 or 1, or from few units); ``n/a`` where nothing
    was counted (no share: the comeback shares of matches that all last one round)."""
    if not np.isfinite(share):
        return "n/a"
    half = (high - low) / 2
    # x% ± h% where the share shows there: it stops at three decimals, to which a share of some
    # 1e8 deals may round to 0 (shown "0.000% ± 0.000%")
    if np.isfinite(half) and abs((high - share) - (share - low)) <= 0.2 * half and (
            share == 0 or round(100 * share, _half_decimals(half)) != 0):
        return fmt_pct(share, half)
    if not np.isfinite(half):
        return f"{percent(share)}% (n/a)"
    # its interval to the share's decimals: 0.03% (0.02–0.05%)
    digits = apart(low, high, percent, shown_decimals(share), value=share)
    return f"{percent(share, digits)}% ({percent(low, digits)}–{percent(high, digits)}%)"


def count_distribution(rows, column: str, values) -> pl.DataFrame:
    """Share of the rows at each value of ``column``, one row per value, with 95% intervals on
    units (the rows of one deal, or one match, are one unit): ``column, n, share, share_low,
    share_high`` (``n``: rows at that value)."""
    counted = _count_sums(rows, column, values)
    long = estimates(rows, {str(v): pl.col(column) == v for v in values}) if counted is None else \
        _estimated(*counted, ())
    return pl.DataFrame({column: list(values), "n": long["k"].cast(pl.Int64),
                         "share": long["value"], "share_low": long["low"], "share_high": long["high"]})


COUNTED_IN_NUMPY = 1 << 20
"""The most rows :func:`count_distribution` counts in numpy: it holds the rows and a count per
value and unit in memory (a 1e7-deal run's seat rows, 19 values: gigabytes), where polars'
streaming query keeps memory flat. Its gain is on the small frames of tests and short runs."""


def _count_sums(rows, column: str, values) -> tuple[pl.DataFrame, list[np.ndarray], np.ndarray] | None:
    """:func:`_dense_wide` of :func:`count_distribution`'s figures (whether ``column`` is each of
    ``values``), counted in numpy: one pass over the rows instead of a polars query of six sums
    for each value. Every sum is a whole number (counts, and products and squares of counts),
    exact in a float in any order, so these are the very numbers polars adds up. ``None`` where
    that does not hold as plainly (a column that is not whole numbers or holds nulls, values
    that are not distinct whole numbers, no rows) or more rows than :data:`COUNTED_IN_NUMPY`:
    :func:`estimates` counts those."""
    values = list(values)
    if not values or any(type(v) is not int for v in values) or len(set(values)) < len(values):
        return None
    key, rows = unit_key(rows), rows.lazy()
    if rows.select(pl.len()).collect().item() > COUNTED_IN_NUMPY:
        return None
    frame = rows.select(key, column).collect()
    x = frame[column]
    if not frame.height or not x.dtype.is_integer() or x.null_count() or frame[key].null_count():
        return None
    _, unit = np.unique(frame[key].to_numpy(), return_inverse=True)
    units = int(unit.max()) + 1
    m = np.bincount(unit, minlength=units)  # rows per unit
    if int(m.max()) * frame.height >= 1 << 53:  # a sum of squares past a float's whole numbers
        return None
    m, x = m.astype(float), x.to_numpy()
    k = np.stack([np.bincount(unit, weights=x == v, minlength=units) for v in values])  # (value, unit)
    return _counted_arrays(values, k.sum(axis=1), (k * k).sum(axis=1), (k * m).sum(axis=1), m.sum(), (m * m).sum(),
                           units)


def _counted_arrays(values, K, KK, KM, M, MM, units: int) -> tuple[pl.DataFrame, list[np.ndarray], np.ndarray]:
    """:func:`_count_sums`' answer from its sums over units: per value of ``values`` the rows at
    it (``K``), their squares per unit (``KK``) and their products with the unit's rows (``KM``);
    the rows (``M``), their squares (``MM``) and the units. Whole numbers: exact in any order."""
    ones = np.ones((len(values), 1))
    arrays = [np.asarray(K, float)[:, None], M * ones, np.asarray(KK, float)[:, None],
              np.asarray(KM, float)[:, None], MM * ones, units * ones]
    return pl.DataFrame({"figure": [str(v) for v in values]}), arrays, np.array([float(units)])


def counted_distribution(column: str, values, K, KK, KM, M: float, MM: float, units: int) -> pl.DataFrame:
    """:func:`count_distribution` from the sums of :func:`_counted_arrays`, counted elsewhere
    (a batch of units at a time: :class:`simtool.analysis.tension.Tally`)."""
    long = _estimated(*_counted_arrays(values, K, KK, KM, M, MM, units), ())
    return pl.DataFrame({column: list(values), "n": long["k"].cast(pl.Int64),
                         "share": long["value"], "share_low": long["low"], "share_high": long["high"]})


def cut(frame: pl.DataFrame, column: str, floor: float, ceiling: float, rows: pl.Expr | None = None) -> pl.DataFrame:
    """``column``'s interval (its ``_low`` and ``_high``) in ``rows`` (all by default) cut at
    what the mean can be: Student's interval of a few units reaches past it, 2 hands' hearts
    taken "6 ± 38" of 13, 2 deals' players over the limit "1.5 ± 6.4" of 4."""
    ends = [pl.col(f"{column}_{end}").clip(floor, ceiling) for end in ("low", "high")]
    return frame.with_columns([e if rows is None else pl.when(rows).then(e).otherwise(pl.col(f"{column}_{end}"))
                               .alias(f"{column}_{end}") for e, end in zip(ends, ("low", "high"), strict=True)])


def length_table(seats, what: str) -> pl.DataFrame:
    """How long whole matches last (``what``: rounds, hands): the mean with its interval over
    matches, quantiles and the longest. Every copy of a ``--duplicate`` match is a match played
    (its length its own), the deal of cards still the interval's unit."""
    copies = ["match", "rotation"] if "rotation" in seats.collect_schema().names() else ["match"]
    per_match = seats.lazy().group_by(copies).agg((pl.col("round").max() + 1).alias(what)) \
        .collect(engine="streaming")
    mean = estimates(per_match, {"mean": pl.col(what)}, means={"mean"}).row(0, named=True)
    q = per_match[what]
    return pl.DataFrame({"matches": [per_match.height], "mean": [mean["value"]],
                         "mean_low": [mean["low"]], "mean_high": [mean["high"]],
                         **{f"p{int(x * 100)}": [q.quantile(x, "nearest")] for x in (0.1, 0.5, 0.9)},
                         "max": [q.max()]})


def mean_interval(values) -> tuple[float, float]:
    """Mean of ``values`` and the half-width of its 95% interval, Student's (NaN from one value)."""
    values = np.asarray(values, float)
    if len(values) < 2:
        return (float(values.mean()) if len(values) else float("nan")), float("nan")
    return float(values.mean()), float(mean_halfwidth(values.std(ddof=1), len(values)))


BOOTSTRAP_BLOCKS = 8192
"""The most rows :func:`cluster_bootstrap` draws per stratum (measured: 65,536 duplicate deals'
duplicate_gain took 10 s unblocked, the longest step of a quick review)."""


def cluster_bootstrap(sums, statistic, strata=None, resamples: int = 2000,
                      seed: int = 0) -> tuple[float, float]:
    """Percentile-bootstrap 95% interval of ``statistic(totals)`` where ``totals`` are column sums
    of ``sums`` ``(units, q)``, one row per independent unit (a deal or match, with every copy of
    a ``--duplicate`` deal and every decision of its history summed into its row): units are
    drawn with replacement, within each stratum of ``strata`` (``--rotate``). ``statistic``
    maps ``(resamples, q)`` totals to ``(resamples,)`` values; NaN where undefined (NaN, NaN
    from fewer than two units, which cannot show their own variation), infinite where unbounded
    (an end among such resamples is infinite too)."""
    sums = np.asarray(sums, float)
    n = len(sums)
    if n < 2:
        return math.nan, math.nan
    groups = [np.arange(n)] if strata is None else \
        [np.flatnonzero(np.asarray(strata) == s) for s in np.unique(strata)]
    # a stratum of more than BOOTSTRAP_BLOCKS units is drawn in that many blocks of consecutive
    # units: the units are independent, so their blocks are too, and a statistic of column sums
    # keeps its mean and variance; the bootstrap then costs the same from there on
    blocks = [np.add.reduceat(sums[g], np.linspace(0, len(g), BOOTSTRAP_BLOCKS + 1).astype(int)[:-1], axis=0)
              if len(g) > BOOTSTRAP_BLOCKS else sums[g] for g in groups]
    sizes = tuple(len(rows) for rows in blocks)
    draws = (_kept_resample_counts if resamples * sum(sizes) <= KEPT_DRAWS else _resample_counts)(
        seed, sizes, resamples)
    values = []
    for counts in draws:
        totals = np.zeros((len(counts[0]), sums.shape[1]))
        for drawn, rows in zip(counts, blocks, strict=True):
            totals += drawn_totals(drawn, rows)
        values.append(np.asarray(statistic(totals), float))
    values = np.concatenate(values)
    values = values[~np.isnan(values)]
    if not len(values):
        return math.nan, math.nan
    if np.isfinite(values).all():
        low, high = np.quantile(values, [0.025, 0.975])
        return float(low), float(high)
    # an unbounded resample is a value, the largest there is (a ratio over a variance that is 0
    # in it): dropped, the rest put an end where there is none; numpy's quantile makes inf - inf,
    # NaN, of two of them, so each end is read off the sorted values as numpy reads it
    ordered = np.sort(values)

    def end(q: float) -> float:
        at = (len(ordered) - 1) * q
        below, above = ordered[math.floor(at)], ordered[math.ceil(at)]
        if np.isfinite(below) and np.isfinite(above):
            return float(np.quantile(ordered, q))
        return float(below if below < 0 else above)

    return end(0.025), end(0.975)


def drawn_totals(counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``counts @ rows``, each resample's totals of the rows drawn, summed in one order whatever the
    machine's BLAS threads: OpenBLAS splits a matrix product's sums among its threads, one under the
    command line (``OPENBLAS_NUM_THREADS=1``) and one per core under the Python API, and the same
    runs' luck interval ended 0.075586195049134 in ``simtool review`` and 0.07558619504913398 in
    ``simtool.review.review``. numpy's einsum adds in its own loop, one thread, at a price: 10 ms
    against one BLAS thread's 2.5 ms for 1,000 resamples of 2,000 blocks of 17 columns (luck of
    1e5 deals 44 -> 51 ms; a 1e5-unit bootstrap of 30 columns in 6 strata 3.8 -> 4.5 s)."""
    return np.einsum("ij,jk->ik", counts.astype(float), rows)


def _resample_counts(seed: int, sizes: tuple[int, ...], resamples: int):
    """How often each unit is drawn: per chunk of at most 250 resamples (bounded memory: 250
    resamples x units at a time), per stratum of ``sizes`` units, a ``(resamples, units)`` array."""
    rng = np.random.default_rng(seed)
    for start in range(0, resamples, 250):
        size = min(250, resamples - start)
        yield [rng.multinomial(n, np.full(n, 1 / n), size=size) for n in sizes]


KEPT_DRAWS = 1 << 21
"""The most unit draws (resamples x units) :func:`cluster_bootstrap` keeps for the next call (as
uint16, 4 MB): the draws depend only on the seed and the strata's sizes, so the metrics of one run
(every one of its units, the same seed) share them; drawing them was most of a bootstrap's time."""


@functools.lru_cache(maxsize=4)
def _kept_resample_counts(seed: int, sizes: tuple[int, ...], resamples: int):
    kept = tuple(tuple(drawn.astype(np.uint16) for drawn in counts)
                 for counts in _resample_counts(seed, sizes, resamples))
    for counts in kept:
        for drawn in counts:  # shared by every later call: none may change another's
            drawn.setflags(write=False)
    return kept


def paired_difference(a, b) -> tuple[float, float]:
    """Mean of ``a - b`` over paired rows (the same deals, from runs sharing a seed) and the
    half-width of its 95% interval. Pairing removes the luck of the deal both runs share."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    # numpy broadcast a column (a frame's to_numpy(), shape (n, 1)) or one value against the
    # other run's n into every pair of deals: a mean and an interval of no pairing, silently
    if a.ndim != 1 or a.shape != b.shape:
        raise SimtoolError(f"paired_difference takes one value per deal of each run, paired: two 1-D arrays "
                           f"of one length; got shapes {a.shape} and {b.shape}")
    return mean_interval(a - b)


def alike(diff) -> bool:
    """Whether paired differences, two or more, are one amount other than 0 in every unit, to
    rounding: a mean score of three seats fell by [-1.0000000000000009, -1.0], as thirds add up,
    and its normal interval of width 1e-16 read "-1.0000 ± 0.0000" (:func:`alike_interval`). The
    rounding is float32's where shares come from a run's tables (``win`` is stored so): a sixth
    lost in each of three deals, 1/2 - 1/3, 1/3 - 1/6 and 1/6 - 0, reads 0.16666666 to
    0.16666667, 1.5e-8 apart; shares a tie can split differ by 1/60 or more."""
    diff = np.asarray(diff, float)
    tiny = 1e-6 * max(1.0, float(np.abs(diff).max(initial=0.0)))
    return len(diff) > 1 and float(np.ptp(diff)) <= tiny < abs(float(diff.mean()))


def unseen(n: int) -> float:
    """The share of units a change could have moved though none of ``n`` seen moved: the rule of
    three, ``1 - 0.05^(1/n)`` (Clopper-Pearson's one-sided 95% bound at 0 of ``n``)."""
    return 1 - 0.05 ** (1 / n)


def few_moved_half(diff, bound: float, moved: int | None = None) -> float:
    """The 95% half-width of the mean of paired differences ``diff`` of which few are not 0,
    each within ``± bound``: never narrower than how far the share of units that differ could lie
    above the share seen, each such unit moving the mean by up to ``bound``. None differs: the
    rule of three (:func:`unseen`; one-sided, as the share cannot lie below 0). Some differ
    (``moved`` units, by default those of ``diff`` not 0: a unit whose parts moved and cancelled
    out counts):
    Clopper-Pearson's 97.5% upper end, as the share can then be overstated too; or the
    differences' own interval where wider. Continuous from none on: 256 units, differences of a
    whole share, 0 that differ ± 1.2 points, 1 ± 1.8, 3 ± 2.2, 29 ± 4.5, where combining the two
    runs as independent jumped from ± 1.2 at none to ± 4.2 at one. The one-sided 95% end
    (:func:`simtool.analysis.restrict.paired_cost`'s, at every count) covered the true mean in
    93.3% of samples at about 32 of 256 expected to differ by a whole share (exactly, over the
    binomial); this, below 30 that differ, 95.0% at the worst (about 3 of 256)."""
    diff = np.asarray(diff, float)
    n, k = len(diff), int(np.count_nonzero(diff)) if moved is None else moved
    return moved_half(n, k, (lambda: mean_interval(diff)[1]), bound)


def moved_half(n: int, k: int, half: Callable[[], float], bound: float) -> float:
    """:func:`few_moved_half` of ``n`` differences of which ``k`` units moved, ``half`` giving
    their own normal half-width (asked only where some moved: :class:`PairedFold` folds it)."""
    if not k:
        return bound * unseen(n) if n else math.nan
    return max(half(), (share_above(k, n, 0.975) - k / n) * bound)


EXACT_SHIFT = 1126
"""Every finite float64 is a whole number of ``2**-1126`` (frexp's least exponent, -1073, less a
mantissa's 53 bits): :func:`exact_sum` counts in them."""


def exact_sum(x: np.ndarray) -> int:
    """The sum of finite float64 ``x``, exactly, as a whole number of ``2**-EXACT_SHIFT``: sums
    of batches added give the sum of all of them to the last bit, whatever the cuts."""
    total = 0
    for start in range(0, len(x), 1 << 24):  # np.bincount's float sums of 27-bit parts stay exact
        fraction, exponent = np.frexp(x[start:start + (1 << 24)])
        whole = (fraction * 2.0 ** 53).astype(np.int64)  # each value whole * 2**(exponent - 53)
        high, low = whole >> 26, whole & ((1 << 26) - 1)
        least = int(exponent.min())
        at = exponent - least
        highs, lows = np.bincount(at, high), np.bincount(at, low)
        for i in np.flatnonzero((highs != 0) | (lows != 0)):
            total += ((int(highs[i]) << 26) + int(lows[i])) << (least + int(i) - 53 + EXACT_SHIFT)
    return total


def exact_squares(x: np.ndarray) -> int:
    """:func:`exact_sum` of the squares of ``x`` (of magnitude ``2**-500`` to ``2**500``): each
    split into halves of 26 bits (Veltkamp's), whose products are exact floats."""
    t = x * 134217729.0  # 2**27 + 1
    high = t - (t - x)
    low = x - high
    return exact_sum(high * high) + exact_sum(2 * high * low) + exact_sum(low * low)


class PairedFold:
    """Paired differences ``after - before`` of two runs' per-game values on the same games, in
    order, given a batch of whole units at a time: a report's paired comparison read two runs of
    1e7 deals in full (docs/speed.md). Games where either value is not finite are left out; with
    ``units`` (``--duplicate``: the deal of each game) a deal's games are one unit, their mean
    difference. Kept: the units, the exact sums of the differences and their squares (the mean
    and its interval are the same to the last bit however the units are cut into batches; to
    rounding, :func:`mean_interval`'s), the least and largest difference and value seen, the
    games whose values differ, the units that moved."""

    def __init__(self):
        self.n = self.games = self.moved = self.sum = self.squares = 0
        self.low, self.high = math.inf, -math.inf  # of the differences
        self.least = self.most = None  # of the values seen, in their own dtype (np.ptp's)

    def add(self, after: np.ndarray, before: np.ndarray, units: np.ndarray | None = None) -> None:
        both = np.isfinite(after) & np.isfinite(before)
        after, before = after[both], before[both]
        games = after - before
        diff = games.astype(float)
        if units is not None:
            _, at = np.unique(units[both], return_inverse=True)
            diff = np.bincount(at, diff) / np.bincount(at)
            # a duplicate deal whose copies moved and cancelled out moved all the same
            self.moved += int(np.count_nonzero(np.bincount(at, games != 0)))
        else:
            self.moved += int(np.count_nonzero(diff))
        if not len(diff):
            return
        self.n += len(diff)
        self.games += int(np.count_nonzero(games))
        self.sum += exact_sum(diff)
        self.squares += exact_squares(diff)
        self.low, self.high = min(self.low, float(diff.min())), max(self.high, float(diff.max()))
        kind = np.result_type(after, before)
        least, most = kind.type(min(after.min(), before.min())), kind.type(max(after.max(), before.max()))
        self.least = least if self.least is None else min(self.least, least)
        self.most = most if self.most is None else max(self.most, most)

    @property
    def spread(self) -> float:
        """``np.ptp`` of every value seen, in their dtype."""
        return float(self.most - self.least) if self.n else math.nan

    def interval(self) -> tuple[float, float]:
        """:func:`mean_interval` of the differences."""
        n = self.n
        if n < 2:
            return float(Fraction(self.sum, n << EXACT_SHIFT)) if n else math.nan, math.nan
        var = Fraction(self.squares * n * (1 << EXACT_SHIFT) - self.sum * self.sum, (n * (n - 1)) << 2 * EXACT_SHIFT)
        return float(Fraction(self.sum, n << EXACT_SHIFT)), float(mean_halfwidth(math.sqrt(var), n))

    def alike(self) -> bool:
        """:func:`alike` of the differences."""
        tiny = 1e-6 * max(1.0, abs(self.low), abs(self.high))
        return self.n > 1 and self.high - self.low <= tiny < abs(self.interval()[0])


def share_above(k: int, n: int, level: float) -> float:
    """Clopper-Pearson's upper end, one-sided at ``level``, of a share seen as ``k`` of ``n``
    (1 where ``k`` is ``n``)."""
    # beta's quantile itself (what scipy.stats.beta.ppf computes, to the last bit): importing
    # scipy.stats cost every review and restricted-play report 0.5 s of CPU, scipy.special 0.08 s
    from scipy import special

    return 1.0 if k == n else float(special.betaincinv(k + 1, n - k, level))


def alike_interval(mean: float, n: int, bound: float = 1.0) -> tuple[float, float]:
    """The 95% interval of ``n`` (two or more) paired differences that all equal ``mean``, each
    within ``± bound``: their normal interval has width 0 (2 deals, each half a win lost: "50.0
    pts (50.0 to 50.0)"), a certainty the units cannot give. As for a share whose units do not
    vary, Wilson's on the units, the difference taken as the share ``(mean / bound + 1) / 2``."""
    low, high = wilson((mean / bound + 1) / 2 * n, n)
    return float(bound * (2 * low - 1)), float(bound * (2 * high - 1))


def mover_difference(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float, float]:
    """``a - b`` of two independent figures ``(value, low, high)`` with its 95% interval, each
    end from the two figures' own distances to their ends on that side (Newcombe's and Zou's
    MOVER): the lower end from ``a``'s distance down and ``b``'s up. For symmetric intervals the
    half-widths in quadrature; a share's interval near 0 or 1
    is lopsided, and its half-width centred on the share puts the difference where the units do
    not (0 of 3 then 2 of 3: +66.7 points, +20.7 to +112.7, past what two shares can differ by;
    this way -5.8 to +93.9)."""
    (va, lo_a, hi_a), (vb, lo_b, hi_b) = a, b
    d = va - vb
    return d, d - math.hypot(va - lo_a, hi_b - vb), d + math.hypot(hi_a - va, vb - lo_b)


def panel(rows: pl.DataFrame, column: str, p: int) -> np.ndarray:
    """``column`` of seat rows as ``(rows / p, p)``: one row per deal (or match), seats in order.

    Runs write each deal's seats as ``p`` consecutive rows, seat 0 first, which is checked.
    """
    seat = rows["seat"].to_numpy()
    if len(seat) % p or not np.array_equal(seat.reshape(-1, p), np.broadcast_to(np.arange(p), (len(seat) // p, p))):
        raise ValueError("seat rows are not grouped p to a deal in seat order")
    return rows[column].to_numpy().reshape(-1, p)


@dataclass(frozen=True)
class SeatTest:
    """Hotelling's test that every seat has the same mean: ``statistic`` is T², and
    ``(n - df) / (df (n - 1)) T²`` follows F(``df``, ``n - df``) under equal seat means."""

    statistic: float
    df: int
    n: int
    p_value: float
    # every unit's seats deviate alike from their mean (no covariance, two units or more): no
    # Hotelling's test; statistic 0 (p 1) where the seats never differ (a tie of every seat in
    # every deal), inf where they differ alike in every unit, p then a sign test's (seat_test)
    alike: bool = False


def seat_test(values: np.ndarray) -> SeatTest:
    """Is the spread between seats' means larger than chance? ``values`` is ``(n, p)``.

    Each deal's seats are dependent (win shares sum to one), so the test works on each
    deal's deviations from its own seat average, dropping one seat (they sum to zero), and
    uses their covariance across deals: Hotelling's T², exact under normality through its F
    distribution (with two seats, the square of a t test). :class:`SeatFold` of one batch.
    """
    fold = SeatFold()
    fold.add(values)
    return fold.test()


class SeatFold:
    """:func:`seat_test` of values given a batch of units at a time: each batch's sums of the
    deviations and their centred cross-products (as :func:`np.cov` makes them), joined by Chan's
    formula, so that a report holds no row per unit (a seat test of 1e7 deals took 440 MiB). One
    batch gives :func:`np.cov`'s covariance bit for bit; several, the same to rounding."""

    def __init__(self):
        self.n, self.top = 0, 1.0
        self.total = self.m2 = self.low = self.high = None

    def add(self, values: np.ndarray) -> None:
        values = np.asarray(values, float)
        n, p = values.shape
        if not n:
            return
        dev = (values - values.mean(axis=1, keepdims=True))[:, : p - 1]
        x = np.array(dev, ndmin=2, dtype=float).T  # np.cov's rows: one per seat kept
        x -= x.mean(axis=1)[:, None]
        m2, total = np.dot(x, x.T.conj()), dev.sum(axis=0)
        self.top = max(self.top, float(np.abs(values).max()))
        if not self.n:
            self.n, self.total, self.m2, self.low, self.high = n, total, m2, dev.min(axis=0), dev.max(axis=0)
            return
        delta = total / n - self.total / self.n
        self.m2 = self.m2 + m2 + np.outer(delta, delta) * (self.n * n / (self.n + n))
        self.n, self.total = self.n + n, self.total + total
        self.low, self.high = np.minimum(self.low, dev.min(axis=0)), np.maximum(self.high, dev.max(axis=0))

    def test(self) -> SeatTest:
        n = self.n
        if n < 2:
            return SeatTest(0.0, 0, n, 1.0)
        mean = self.total / n
        # deviations alike in every unit up to rounding: at 3 seats seat 0's [2/3, -1/3] in each deal
        # had a covariance of 1e-32, and Hotelling's test on it said p < 0.001 of three deals
        tiny = 1e-9 * self.top
        if (self.high - self.low).max() <= tiny:  # "too few deals to tell" of 1,000 ties, for any n
            if not np.any(np.abs(mean) > tiny):
                return SeatTest(0.0, 0, n, 1.0, alike=True)
            # one deviation in every unit: under equal seats (a unit's deviations as likely negated)
            # at most 2 ** -n each way; p 0 said "the seats differ" of two deals won by seat 0
            return SeatTest(math.inf, 0, n, min(1.0, 2.0 ** (1 - n)), alike=True)
        cov = np.atleast_2d(self.m2 * np.true_divide(1, n - 1))
        df = int(np.linalg.matrix_rank(cov))
        if n <= df:
            return SeatTest(0.0, 0, n, 1.0)
        stat = float(n * mean @ np.linalg.pinv(cov) @ mean)
        f = (n - df) / (df * (n - 1)) * stat
        # F's survival function itself (what scipy.stats.f.sf calls, to the last bit): importing
        # scipy.stats cost every report, and a match or --duplicate run's summary, 0.5 s of CPU;
        # scipy.special 0.08 s. Below 0 (T² of seats that differ by nothing comes out as -4e-18 by
        # rounding) f.sf gives 1, below its support; fdtrc gives NaN
        from scipy import special

        return SeatTest(stat, df, n, float(special.fdtrc(df, n - df, max(f, 0.0))))


def seat_table(win: np.ndarray, score: np.ndarray, strata=None, units=None) -> pl.DataFrame:
    """Per seat: win share and mean score with 95% intervals, and the fair share ``1/p``."""
    p = win.shape[1]
    rows = []
    for s in range(p):
        w, wl, wh = unit_estimate(win[:, s], strata=strata, share=True, units=units)
        m, ml, mh = unit_estimate(score[:, s], strata=strata, units=units)
        rows.append({"seat": s, "win": w, "win_low": wl, "win_high": wh, "fair": 1 / p,
                     "score": m, "score_low": ml, "score_high": mh})
    return pl.DataFrame(rows)


def held_share(win: np.ndarray, codes: np.ndarray, k: int) -> np.ndarray:
    """Per deal, strategy ``k``'s win share per seat it holds there (NaN where it holds none)."""
    held = codes == k
    count = held.sum(axis=1)
    return np.where(count > 0, (win * held).sum(axis=1) / np.maximum(count, 1), np.nan)


def skill_index(share: float, chance: float, best: float) -> float:
    """A win share's edge over ``chance`` as a share of the most it could be: of ``best - chance``
    above chance (1: its seats win every deal), of ``chance`` below it (-1: they never win)."""
    if share < chance:
        return (share - chance) / chance
    return (share - chance) / (best - chance) if best > chance else float("nan")


def strategy_strength(win: np.ndarray, codes: np.ndarray, names: list[str], strata=None,
                      units=None) -> pl.DataFrame:
    """Each strategy's win share per seat it holds, against the ``1/p`` it would get by chance.

    ``codes`` ``(n, p)`` says which of ``names`` sits in each seat of each deal. A deal's
    seats are one unit: the share is wins over seats held, its interval on deals (within the
    strata of rotation, ``strata``; or on ``units``, each row's deal, for ``--duplicate``).
    ``edge`` is the share above chance; ``skill`` scales it to 0 (pure chance) .. 1 (the
    strategy's seats win every deal), and an edge below chance to 0 .. -1 (its seats never win):
    scaled by the winning range alone, a strategy holding three seats of four fell to -1.24.
    """
    n, p = win.shape
    rows = []
    for k, name in enumerate(names):
        held = codes == k
        seats_held = held.sum(axis=1)
        if not seats_held.any():
            continue
        share, low, high = unit_estimate((win * held).sum(axis=1), seats_held, strata, share=True, units=units)
        best = 1 / seats_held[seats_held > 0].mean()
        rows.append({"strategy": name, "seats": float(seats_held.mean()), "win": share,
                     "win_low": low, "win_high": high, "chance": 1 / p, "edge": share - 1 / p,
                     "skill": skill_index(share, 1 / p, best)})
    return pl.DataFrame(rows).sort("win", descending=True)


def duplicate_gain(figures: dict[str, np.ndarray], codes: np.ndarray, names: list[str], units) -> pl.DataFrame:
    """How much narrower ``--duplicate`` makes each strategy's interval than ``--rotate`` at the
    same number of games, for each of ``figures`` (name -> ``(games, p)``: win share, score).
    ``codes``: ``(games, p)``, the ``p`` copies of each deal in a row (copy ``r`` is rotation
    ``r``); ``units``: each game's deal.

    A rotated run plays every game on fresh cards: its interval is the one that treats each
    game as its own unit, stratified by rotation, which these games estimate (each copy is a
    rotated game with a uniform deal). ``narrower``: ``1 - duplicate / rotate`` half-widths;
    ``games_ratio``: how many times the games ``--rotate`` needs for the duplicate interval.
    """
    p = codes.shape[1]
    rotation = np.arange(len(codes)) % p
    intervals = []
    for figure, values in figures.items():
        for k, name in enumerate(names):
            held = codes == k
            k_, m_ = (values * held).sum(axis=1), held.sum(axis=1)
            share = figure == "win"
            intervals.append((figure, name, unit_estimate(k_, m_, share=share, units=units),
                              unit_estimate(k_, m_, rotation, share=share)))
    return gain_table(intervals)


def gain_table(intervals: list[tuple[str, str, tuple, tuple]]) -> pl.DataFrame:
    """:func:`duplicate_gain`'s table from ``(figure, strategy, duplicate interval, rotated
    interval)`` (each ``(value, low, high)``)."""
    rows = []
    for figure, name, (_, low, high), (_, rlow, rhigh) in intervals:
        dup, rot = (high - low) / 2, (rhigh - rlow) / 2
        rows.append({"figure": f"{figure} per seat held", "strategy": name, "half_duplicate": dup,
                     "half_rotate": rot, "narrower": 1 - dup / rot if rot > 0 else float("nan"),
                     "games_ratio": (rot / dup) ** 2 if dup > 0 else float("nan")})
    return pl.DataFrame(rows)


def fmt_pct(share: float, half: float) -> str:
    """A share and its half-width as percentages, with as many decimals as the interval allows."""
    if not np.isfinite(half):
        return f"{percent(share)}% ± n/a"
    digits = _half_decimals(half)
    # to the half-width's decimals, beside which a share or a difference rounded to 0 is honest
    return f"{_pct(share, digits)}% ± {100 * half:.{digits}f}%"


def _half_decimals(half: float) -> int:
    """The decimals of ``x% ± h%`` for the half-width ``half`` (a share): 1 to 3."""
    return max(1, min(3, -math.floor(math.log10(100 * half)))) if half > 0 else 1


def fmt_p(p_value: float) -> str:
    return "p < 0.001" if p_value < 0.001 else f"p = {p_value:.3f}"


MEANS = ("score", "total", "rating")
"""Figures of the summary tables that are means, not shares."""


def frame_cells(df: pl.DataFrame) -> tuple[list[str], list[list[str]]]:
    """A table as text cells: headers and rows. A figure with ``<figure>_low`` and
    ``<figure>_high`` columns becomes one cell with its interval: a mean if its name starts
    with ``mean``, it is in :data:`MEANS` or its row is labelled ``mean``, else a share as a
    percentage."""
    figures = [c for c in df.columns if {f"{c}_low", f"{c}_high"} <= set(df.columns)]
    shown = [c for c in df.columns if c not in {f"{f}{s}" for f in figures for s in ("_low", "_high")}]
    rows = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in shown:
            v = r[c]
            if c in figures:
                is_mean = c in MEANS or c.startswith("mean") or str(r[shown[0]]) == "mean"
                cells.append(fmt_mean(v, r[f"{c}_low"], r[f"{c}_high"]) if is_mean
                             else fmt_rate(v, r[f"{c}_low"], r[f"{c}_high"]))
            elif isinstance(v, float):
                cells.append(f"{v:.3g}")
            elif isinstance(v, int) and not isinstance(v, bool):
                cells.append(f"{v:,}")
            else:
                cells.append(str(v))
        rows.append(cells)
    return shown, rows


NULL_ROWS, ROWS = "null rows", "rows"
"""The columns of a chunk's ``--precision`` tally (:func:`simtool.analysis.summary.tally`) counting
its seat rows where a figure is null (all of them or none: a chunk null on some is refused as it is
tallied), and its seat rows."""


def partly_null(game_id: str, tallies: list[tuple[pl.DataFrame, pl.DataFrame]]) -> None:
    """Refuse in one line a rate null on every row of some chunks of ``tallies`` and on none of
    others, as a rate null on some rows of one chunk is: where it breaks on a chunk's edge, each
    chunk took it for a rate with no value there, its nulls were tallied as "no", and the run
    was refused only at its end. Tallies without the counts (none) are passed over."""
    counts = [s.select("figure", NULL_ROWS, ROWS).unique("figure", maintain_order=True)
              for s, _ in tallies if NULL_ROWS in s.columns]
    if not counts:
        return
    totals = pl.concat(counts).group_by("figure", maintain_order=True).agg(pl.col(NULL_ROWS, ROWS).sum())
    broken = totals.filter((pl.col(NULL_ROWS) > 0) & (pl.col(NULL_ROWS) < pl.col(ROWS)))
    if broken.height:
        figure, null, rows = broken.row(0)
        raise rate_error(game_id, figure.removesuffix(" rate"), null_on(null, rows))


def widest(tallies: list[tuple[pl.DataFrame, pl.DataFrame]], target: float) -> tuple[int, float, str]:
    """Over the blocks of ``tallies`` in order (every block from the first, nothing missing):
    the first block after which every tracked share's 95% half-width is at most ``target``
    (else the last), that widest half-width and its figure. Each block is looked at, so
    where a run stops never depends on how many chunks were played at once."""
    sums = pl.concat([s for s, _ in tallies])
    units = pl.concat([u for _, u in tallies])
    groups, arrays, n, blocks = _dense(sums, units, ["group", "figure"])
    value, var, held, df = _estimate(*(np.cumsum(a, axis=1) for a in arrays), np.cumsum(n, axis=0))
    low, high = _bounds(value, var, held, df, share=True)
    half = np.nan_to_num((high - low) / 2, nan=np.inf)
    worst = half.max(axis=0)
    reached = np.flatnonzero(worst <= target)
    b = int(reached[0]) if len(reached) else len(blocks) - 1
    g = int(np.argmax(half[:, b]))
    return int(blocks[b]), float(worst[b]), f"{groups['figure'][g]} of {groups['group'][g]}"


LUCK_PARTS = ("cards", "strategy and seat", "interplay")
LUCK_MIN_DEALS = 100
"""Fewest deals (blocks of deals) given a luck interval: under it the interval covered a high
share (0.8) in 86-92% of runs of 20 to 50 deals (tests/calibration.py's luck case, docs/metrics.md),
so none is printed."""


def luck_shares(y: np.ndarray, resamples: int = 1000, blocks: int = 2000,
                seed: int = 0) -> pl.DataFrame:
    """How much of the variance of a seat's result the cards explain, from duplicate deals.

    ``y`` is ``(deals, p, p)``: deal, rotation (copy), seat. Within each seat, a two-way
    analysis of variance over deals (random) and rotations (which strategy holds the seat)
    splits the variance into: ``cards``, the variance of the deal's effect (the seat's
    cards and the rest of the deal, whoever holds them); ``strategy and seat``, the spread
    of the means of the seat-by-strategy cells; ``interplay``, what is left (how these
    strategies play these cards, and the play's own chance). Unbiased components (the
    noise a mean over ``p`` copies carries is taken out, and so is the noise the seats'
    means over deals carry), pooled over seats, as shares of their sum. Intervals: the
    expanded percentile bootstrap over deals (the independent unit), on ``blocks`` groups of
    consecutive deals, whose sums the components are a function of; none (NaN) from fewer
    than :data:`LUCK_MIN_DEALS` groups, or where the results never vary (no shares: NaN).
    Returns ``part, share, share_low, share_high``.
    """
    y = np.asarray(y, float)
    n, r, p = y.shape
    return luck_split(luck_sums(y, n, blocks=blocks), r, p, resamples, seed)


def luck_sums(y: np.ndarray, n: int, first: int = 0, sums: np.ndarray | None = None,
              blocks: int = 2000) -> np.ndarray:
    """The sums per group of deals that :func:`luck_shares` splits, of ``y`` (``(deals, p, p)``),
    deals ``first`` on of ``n``, added to ``sums`` (a new array where ``None``): batches of deals
    given in order add up to the sums of all of them at once, bit for bit (``np.add.at`` adds
    each deal in turn)."""
    y = np.asarray(y, float)
    b, r, p = y.shape
    g = min(n, blocks)
    if sums is None:
        sums = np.zeros((g, 1 + r * p + 2 * p + 1))
    group = np.arange(first, first + b) * g // n
    mean = y.mean(axis=1)  # (b, p) per deal and seat, over copies
    per_deal = np.concatenate([np.ones((b, 1)), y.reshape(b, r * p), mean ** 2, (y ** 2).sum(axis=1),
                               mean.mean(axis=1, keepdims=True) ** 2], axis=1)
    np.add.at(sums, group, per_deal)
    return sums


def _luck_parts(total: np.ndarray, r: int, p: int, floored: bool = True) -> np.ndarray:
    """``(k, 3)`` shares from ``(k, columns)`` sums over deals (:func:`luck_split`); ``floored``:
    each seat's cards' part is at least 0 (a variance), else as estimated, below 0 where a seat's
    copies of a deal go opposite ways more than alike (:func:`luck_unfloored`)."""
    b = total[:, :1]
    cell = total[:, 1:1 + r * p].reshape(-1, r, p) / b[:, :, None]  # (k, r, p) cell means
    seat = cell.mean(axis=1)  # (k, p)
    sq_mean = total[:, 1 + r * p:1 + r * p + p]
    sq = total[:, 1 + r * p + p:1 + r * p + 2 * p]
    ss_deal = r * (sq_mean - b * seat ** 2)
    ss_rot = b * ((cell - seat[:, None, :]) ** 2).sum(axis=1)
    ss_all = sq - b * r * seat ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ms_rest = np.maximum(ss_all - ss_deal - ss_rot, 0) / ((b - 1) * (r - 1))
        cards = (ss_deal / (b - 1) - ms_rest) / r
        cards = (np.maximum(cards, 0) if floored else cards).sum(axis=1)
        # the seats' means over b deals carry the deal's noise, Var(m_j - mean of m) / b
        # summed over seats: left in, at 20 deals of a share of 0.8 the cards read 0.78 and
        # the strategies' and seats' part 0.13 for 0.1
        ones = b[:, 0]
        var_seats = ss_deal.sum(axis=1) / r / (ones - 1)
        var_mean = (total[:, -1] - ones * seat.mean(axis=1) ** 2) / (ones - 1)
        spread = ((seat - seat.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
        fixed = np.maximum((ss_rot - (r - 1) * ms_rest) / (b * r), 0).sum(axis=1) \
            + np.maximum(spread - (var_seats - p * var_mean) / ones, 0)
        rest = ms_rest.sum(axis=1)
        out = np.stack([cards, fixed, rest], axis=1)
        return out / out.sum(axis=1, keepdims=True)


def _luck_bounds(sums: np.ndarray, r: int, p: int, resamples: int, seed: int, floored: bool = True
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The shares of :func:`_luck_parts` with their 95% intervals (:func:`luck_split`'s)."""
    g = len(sums)
    value = _luck_parts(sums.sum(axis=0, keepdims=True), r, p, floored)[0]
    # results that never vary have no shares (0 / 0), nor have their resamples: numpy's
    # "All-NaN slice encountered" on stderr was all their bootstrap gave
    if g < LUCK_MIN_DEALS or not np.isfinite(value).all():
        low = high = np.full(3, np.nan)
    else:
        # expanded percentile (Hesterberg 2015): the tails at Phi(-sqrt(g / (g - 1)) t_{g-1}),
        # for the bootstrap's spread being too narrow by sqrt((g - 1) / g) and z for t
        from scipy import special

        tail = 100 * special.ndtr(-math.sqrt(g / (g - 1)) * special.stdtrit(g - 1, 0.975))
        boot = _luck_parts(drawn_totals(_resampled(g, resamples, seed), sums), r, p, floored)
        low, high = np.nanpercentile(boot, [tail, 100 - tail], axis=0)
    return value, low, high


def luck_split(sums: np.ndarray, r: int, p: int, resamples: int = 1000, seed: int = 0) -> pl.DataFrame:
    """:func:`luck_shares` from its :func:`luck_sums` (``r`` copies of each deal, ``p`` seats)."""
    value, low, high = _luck_bounds(sums, r, p, resamples, seed)
    return pl.DataFrame({"part": list(LUCK_PARTS), "share": value, "share_low": low, "share_high": high})


def luck_unfloored(y: np.ndarray, resamples: int = 1000, blocks: int = 2000,
                   seed: int = 0) -> tuple[float, float, float]:
    """The cards' share of :func:`luck_shares` and its 95% interval, each seat's cards' part not
    floored at 0: below 0 where a seat's copies of a deal go opposite ways more than alike,
    which no variance can. The floor held every resample of Black & White at 2 players (one
    balance against one duck, 65,536 duplicate deals) at 0: "0.0% (95% interval 0.0 to 0.0%)",
    a certainty the deals do not give, of an estimate of -4.5% (-5.1% to -3.8%). Flooring is
    monotone, so the floored upper end is never below this one's: an interval ending at 0 has
    this one at or below 0."""
    y = np.asarray(y, float)
    n, r, p = y.shape
    return luck_split_unfloored(luck_sums(y, n, blocks=blocks), r, p, resamples, seed)


def luck_split_unfloored(sums: np.ndarray, r: int, p: int, resamples: int = 1000,
                         seed: int = 0) -> tuple[float, float, float]:
    """:func:`luck_unfloored` from its :func:`luck_sums`, as :func:`luck_split` is
    :func:`luck_shares`'s (a run's luck table, read a batch of deals at a time)."""
    value, low, high = _luck_bounds(sums, r, p, resamples, seed, floored=False)
    return float(value[0]), float(low[0]), float(high[0])


@functools.lru_cache(maxsize=4)
def _resampled(g: int, resamples: int, seed: int) -> np.ndarray:
    """How many times each of ``g`` groups is drawn in each of ``resamples`` bootstrap resamples
    (:func:`luck_shares`), drawn once per process for the same sizes and seed: a report asks
    for the score's and the win's luck of one run, and the draw was most of each (110 ms at
    2,000 groups). Read-only, in the smallest type that holds ``g``."""
    counts = np.random.default_rng(seed).multinomial(g, np.full(g, 1 / g), size=resamples)
    counts = counts.astype(np.min_scalar_type(g))
    counts.flags.writeable = False
    return counts
