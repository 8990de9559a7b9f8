"""The strength table: how well the search plays each game and rule variant against the game's
default heuristic, read from finished run folders.

Each cell of the table is one run: one search seat (the line-up's first entry) against ``p - 1``
seats of the game's default heuristic, the line-up rotated one seat per deal, and its win share
per seat with the 95% interval of :func:`simtool.analysis.ladder.climber`. A cell's *role* says
which search it is: ``fair`` (``pimc`` at its default budget), ``doubled`` (``pimc`` with twice
the samples, at the default rules: what a doubled budget costs and buys) or ``reference``
(``clairvoyant``, the search on the true deal: not a fair player). Speed is counted in deals per
CPU-second (the CPU time the run's processes used, so another user's load on a shared machine
does not count) and as deals/s on 2 cores (twice that: both cores busy); the wall-clock rate is
kept beside it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from simtool import stats
from simtool.analysis.ladder import climber
from simtool.analysis.verdicts import signed_points

ROLES = ("fair", "doubled", "reference")
"""The searches of a (game, variant), in the order the table shows them."""

CORES = 2
"""The cores the table's deals/s are stated for (the issue's goals: on 2 cores)."""


@dataclass(frozen=True)
class Cell:
    """One run of the table: a search seat against the default heuristic, seats rotated."""

    game: str
    variant: str  # "default", or the rules that differ from the defaults: "kitty=bid"
    role: str  # one of ROLES
    search: str
    opponent: str
    players: int
    deals: int
    share: float
    low: float
    high: float
    fair: float
    wall_seconds: float
    jobs: int
    cpu_seconds: float | None  # None: the run was kept from an earlier call, its CPU time unknown

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    @property
    def per_cpu(self) -> float | None:
        """Deals per CPU-second of the processes that played the run."""
        return per_cpu(self.deals, self.cpu_seconds)

    @property
    def on_cores(self) -> float | None:
        """Deals/s with :data:`CORES` cores busy: :data:`CORES` times :attr:`per_cpu`."""
        return None if self.per_cpu is None else CORES * self.per_cpu

    @property
    def wall_rate(self) -> float:
        """Deals per wall-clock second on ``jobs`` processes (the machine's load counts)."""
        return self.deals / self.wall_seconds if self.wall_seconds > 0 else float("nan")

    @property
    def below_fair(self) -> bool:
        """Its win share is under the fair ``1/p``."""
        return self.share < self.fair

    @property
    def clearly_below(self) -> bool:
        """Its whole 95% interval lies under the fair share."""
        return self.high < self.fair


def per_cpu(deals: int, cpu_seconds: float | None) -> float | None:
    """Deals per CPU-second; ``None`` where the CPU time is unknown or zero."""
    return deals / cpu_seconds if cpu_seconds else None


def variant(rules: dict, defaults: dict) -> str:
    """The rules that differ from the game's defaults, ``k=v, k=v``, or ``default``."""
    differ = [f"{k}={v}" for k, v in rules.items() if defaults.get(k) != v]
    return ", ".join(differ) or "default"


def cell(folder: Path, role: str, defaults: dict, cpu_seconds: float | None) -> Cell:
    """The table cell of a finished run folder (one search seat against the rest, rotated)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; valid: {', '.join(ROLES)}")
    meta, row = climber(Path(folder))
    return Cell(meta["game"], variant(meta["rules"], defaults), role, meta["lineup"][0], meta["lineup"][1],
                meta["players"], meta["n"], row["win"], row["win_low"], row["win_high"], 1 / meta["players"],
                float(meta["wall_seconds"]), int(meta["jobs"]), cpu_seconds)


def below(cells: list[Cell]) -> list[str]:
    """One line for each cell whose win share is under the fair share (none: an empty list)."""
    return [f"BELOW THE FAIR SHARE: {c.game} [{c.variant}] {c.search} ({c.role}) wins "
            f"{_share(c)} per seat against {c.opponent}, fair {100 * c.fair:.1f}%"
            f"{' (its whole 95% interval is below)' if c.clearly_below else ' (within its 95% interval)'}"
            for c in cells if c.below_fair]


def records(cells: list[Cell]) -> list[dict]:
    """The cells as flat records (JSON, CSV), rates included."""
    return [asdict(c) | {"half_width": c.half, "deals_per_cpu_second": c.per_cpu,
                         f"deals_per_second_{CORES}_cores": c.on_cores, "wall_deals_per_second": c.wall_rate,
                         "below_fair": c.below_fair} for c in cells]


def as_json(cells: list[Cell], context: dict) -> str:
    return json.dumps({"context": context, "cells": records(cells), "below_fair": below(cells)},
                      indent=1, default=str) + "\n"


def as_csv(cells: list[Cell]) -> str:
    rows = records(cells)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["game"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _share(c: Cell) -> str:
    return f"{c.share:.3f} ± {c.half:.3f}"


def _rate(c: Cell | None) -> str:
    if c is None:
        return "–"
    return f"{c.on_cores:,.0f}" if c.on_cores is not None else f"({c.wall_rate:,.0f} wall)"


def _alike(fair: Cell | None, ref: Cell | None) -> bool:
    return fair is not None and ref is not None and (fair.share, fair.low, fair.high) == (ref.share, ref.low, ref.high)


def markdown(cells: list[Cell], context: dict) -> str:
    """The table as Markdown, with the context it was measured in (``context``: date, machine,
    load, seed, deals, runtime) and a line for every cell under the fair share."""
    by = {(c.game, c.variant, c.role): c for c in cells}
    variants = list(dict.fromkeys((c.game, c.variant) for c in cells))
    lines = [
        "# Search strength: every game and rule variant against the default heuristic",
        "",
        f"Generated by `make strength` ({context.get('command', 'bench/strength.py')}) on "
        f"{context.get('date', '?')}; machine: {context.get('machine', '?')}; load average "
        f"{context.get('load', '?')} at the start, {context.get('load_end', '?')} at the end; seed "
        f"{context.get('seed', '?')}; {context.get('deals', '?')} deals a cell; runtime "
        f"{context.get('runtime', '?')} ({context.get('played', '?')} cells played, {context.get('kept', '?')} "
        f"kept from an earlier call; the cells' own wall time summed: {context.get('cells_wall', '?')}).",
        "",
        "One search seat against the game's default heuristic in every other seat, the line-up rotated "
        "one seat per deal (the search sits in every seat equally often), every cell of a game on the "
        "same deals. Win share per seat with its 95% half-width; fair = 1/players. `pimc` plays at its "
        "default budget; `clairvoyant` is the same search on the true deal: a reference, **not a fair "
        "player** (docs/reference-player.md); *hidden info* is its share less `pimc`'s, in points. "
        f"Deals/s on {CORES} cores = {CORES} × deals per CPU-second (the CPU time of the run's own "
        "processes, so the shared machine's other load does not count; both cores busy); a rate in "
        "brackets is wall-clock, where the CPU time was not measured (a cell kept from an earlier run).",
        "",
        "| game | variant | opponent | fair | `pimc` | deals/s | `clairvoyant` (not fair) | deals/s "
        "| hidden info (pts) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game, var in variants:
        fair, ref = by.get((game, var, "fair")), by.get((game, var, "reference"))
        first = fair or ref
        if first is None:
            continue
        lines.append(
            f"| {game} | {var} | {first.players - 1} × `{first.opponent}` | {first.fair:.3f} | "
            f"{_share(fair) if fair else '–'} | {_rate(fair)} | {_share(ref) if ref else '–'} | {_rate(ref)} | "
            f"{signed_points(ref.share - fair.share) if fair and ref else '–'} |")
    alike = sorted({g for g, v in variants if _alike(by.get((g, v, "fair")), by.get((g, v, "reference")))})
    if alike:
        lines += ["", f"`clairvoyant` and `pimc` win exactly the same share in {', '.join(alike)}: the game "
                  "hides nothing a search could read there, so every world `pimc` re-deals is the true deal "
                  "(and more samples change nothing)."]
    doubled = [c for c in cells if c.role == "doubled"]
    if doubled:
        lines += [
            "",
            "## What a doubled budget costs and buys (default rules)",
            "",
            "| game | `pimc` | deals/s | doubled | deals/s | gain (pts) | CPU per deal |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for d in doubled:
            base = by.get((d.game, d.variant, "fair"))
            if base is None:
                continue
            ratio = (f"× {base.per_cpu / d.per_cpu:.1f}" if base.per_cpu and d.per_cpu else
                     f"× {base.wall_rate / d.wall_rate:.1f} (wall)")
            lines.append(f"| {d.game} | {_share(base)} | {_rate(base)} | `{d.search}` {_share(d)} | "
                         f"{_rate(d)} | {signed_points(d.share - base.share)} | {ratio} |")
        lines += ["", "The gain's 95% interval is about √2 times a cell's half-width (the two runs "
                  "combined as if independent; they share their deals, so this errs on the wide side). "
                  "CPU per deal: how many times the CPU a deal of `pimc` takes the doubled budget takes."]
    flagged = below(cells)
    lines += ["", "## Below the fair share", ""]
    lines += [f"- {line}" for line in flagged] if flagged else ["None: every search wins at least the fair share."]
    return "\n".join(lines) + "\n"


def fmt(c: Cell) -> str:
    """A cell in one line, as the script prints it while it plays."""
    rate = f"{c.on_cores:,.0f} deals/s on {CORES} cores" if c.on_cores is not None else \
        f"{c.wall_rate:,.0f} deals/s wall"
    return (f"{c.game} [{c.variant}] {c.search} vs {c.opponent}: {stats.fmt_share(c.share, c.low, c.high)} "
            f"(fair {100 * c.fair:.1f}%), {rate}")
