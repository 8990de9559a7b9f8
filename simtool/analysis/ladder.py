"""Reading a skill ladder's runs: a chain of strategies of rising strength, each played against the one below.

Rung ``k`` plays one seat against ``p - 1`` seats of rung ``k - 1``, the line-up rotated one
seat per deal (so the climber sits in every seat equally often), and its win share per seat
is compared with the fair ``1/p``. Each pair is an ordinary run folder (``run.json`` says
which ladder and rung it is), all pairs share one seed (they play the same deals), and their
chunks go to one pool of workers through the executor (:mod:`simtool.pipeline.executor`). The ladder *flattens* at
the first rung whose edge over the rung below is not significantly positive (its 95%
interval reaches down to the fair share): past it, more skill (more search) stops paying.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simtool import stats
from simtool.errors import SimtoolError
from simtool.pipeline.folders import collect, load, read_meta


@dataclass(frozen=True)
class Rung:
    """One rung over the rung below: its win share per seat with the 95% interval."""

    rung: int
    name: str
    below: str
    share: float
    low: float
    high: float
    fair: float
    skill: float  # the edge scaled to 0 (chance) .. 1 (the climber wins every deal)
    folder: Path

    @property
    def pays(self) -> bool:
        """Significantly above the fair share: this rung is stronger than the one below."""
        return self.low > self.fair

    @property
    def weaker(self) -> bool:
        """Significantly below the fair share: the chain is not rising here."""
        return self.high < self.fair

    @property
    def verdict(self) -> str:
        return "yes" if self.pays else "no, weaker" if self.weaker else "no"


@dataclass(frozen=True)
class Ladder:
    game: str
    players: int
    rules: dict
    unit: str
    rungs: list[Rung]

    def fits(self, meta: dict) -> bool:
        """Whether the run of ``meta`` plays this ladder's game, players and rules."""
        return (meta["game"], meta["players"], meta["rules"]) == (self.game, self.players, self.rules)

    @property
    def flattens(self) -> Rung | None:
        """The first rung that does not beat the one below (None: every step pays)."""
        return next((r for r in self.rungs if not r.pays), None)

    @property
    def top(self) -> Rung:
        return self.rungs[-1]


def rung(folder: Path) -> Rung:
    """The ladder rung a finished run folder holds: the climber's win share per seat."""
    meta, seats, matches = load(folder)
    info = meta.get("ladder")
    if not isinstance(info, dict) or "rung" not in info:
        raise SimtoolError(f"{folder} is not a ladder rung (its run.json has no 'ladder')")
    p = meta["players"]
    key, table, rows = (("deal", folder / "seats.parquet", seats) if matches is None
                        else ("match", folder / "matches.parquet", matches))
    outcome = collect(table, rows.select(key, "seat", "win"))
    win = stats.panel(outcome, "win", p)
    ids = outcome[key].to_numpy().reshape(-1, p)[:, :1]
    # the line-up rotates one seat per deal: seat s of deal d plays position (s + d) mod p,
    # and the climber is position 0
    codes = np.where((np.arange(p) + ids) % p == 0, 0, 1)
    upper, lower = meta["lineup"][0], meta["lineup"][1]
    strength = stats.strategy_strength(win, codes, [upper, lower], ids[:, 0] % p)  # rotation strata
    row = strength.filter(pl.col("strategy") == upper).row(0, named=True)
    return Rung(int(info["rung"]), upper, lower, row["win"], row["win_low"], row["win_high"], 1 / p,
                row["skill"], Path(folder))


def ladders(folders: list[Path]) -> list[Ladder]:
    """The ladders among finished run folders: rungs of one game, player count, rules, seed and
    rung list, in rung order; folders that are not rungs are left out."""
    found: dict[tuple, list[Rung]] = {}
    setups = {}
    for folder in folders:
        meta = read_meta(Path(folder))
        if "ladder" not in meta:
            continue
        key = (meta["game"], meta["players"], repr(sorted(meta["rules"].items())), meta["seed"],
               meta["n"], tuple(meta["ladder"]["rungs"]))
        found.setdefault(key, []).append(rung(Path(folder)))
        setups[key] = meta
    return [Ladder(k[0], k[1], setups[k]["rules"], setups[k]["unit"], sorted(rs, key=lambda r: r.rung))
            for k, rs in found.items()]


def verdict(ladder: Ladder) -> str:
    """Where the ladder flattens, in one sentence."""
    flat = ladder.flattens
    if flat is None:
        return (f"Every rung beats the one below (95% intervals above the fair "
                f"{100 * ladder.rungs[0].fair:.1f}%): the ladder has not flattened; stronger "
                f"rungs may still pay.")
    how = (f"clearly below the fair {100 * flat.fair:.1f}%: it is weaker than the rung below, so "
           f"the chain stops rising there" if flat.weaker else
           f"not clearly above the fair {100 * flat.fair:.1f}%: from there, more skill (more "
           f"search) stops paying")
    return (f"The ladder flattens at rung {flat.rung}: {flat.name} wins "
            f"{stats.fmt_share(flat.share, flat.low, flat.high)} per seat against "
            f"{flat.below}, {how}.")
