"""The skill ladder: a chain of strategies of rising strength, each played against the one below.

Rung ``k`` plays one seat against ``p - 1`` seats of rung ``k - 1``, the line-up rotated one
seat per deal (so the climber sits in every seat equally often), and its win share per seat
is compared with the fair ``1/p``. Each pair is an ordinary run folder (``run.json`` says
which ladder and rung it is), all pairs share one seed (they play the same deals), and their
chunks go to one pool of workers through :func:`simtool.sweep.run`. The ladder *flattens* at
the first rung whose edge over the rung below is not significantly positive (its 95%
interval reaches down to the fair share): past it, more skill (more search) stops paying.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from . import arguments, games, stats
from .errors import SimtoolError
from .results import collect, load, read_meta
from .runner import RunSpec, make_spec

PIMC_SAMPLES = (4, 8, 16, 32, 64)
"""Rungs of the search strategy ``pimc``, when one is registered: doubling samples per decision."""


def default_rungs(game_id: str) -> list[str]:
    """``random``, then the game's own heuristics in the order they are registered with the
    game's default strategy (its strongest by the game module's choice) last, then ``pimc``
    with doubling samples if a strategy named ``pimc`` plays the game."""
    import strategies

    g = games.get(game_id)
    found = strategies.registry(game_id)
    own = [name for name, s in found.items() if s.games is not None and name != "pimc"]
    own.sort(key=lambda name: name == g.default_strategy)  # stable: the default moves last
    rungs = ["random", *own]
    if "pimc" in found:
        rungs += [f"pimc@samples={k}" for k in PIMC_SAMPLES]
    return rungs


def climb(game: str = "black-white", runs_dir: str | Path = "runs/ladder", *, players: int | None = None,
          rules: dict | None = None, n=20_000, seed: int | None = None, rungs: list[str] | None = None,
          unit: str = "deal", jobs: int | None = None, force: bool = False,
          backend: str = "local", scheduler: str | None = None, progress=None,
          report: dict | None = None, timeout: float | None = None) -> tuple[Ladder, list[Path]]:
    """Play a ladder into ``runs_dir`` (one run folder per rung) and return it with the folders:
    what ``simtool ladder`` does, from Python. A rung already finished there is kept."""
    from . import sweep

    arguments.folder("runs_dir", runs_dir)
    arguments.execution(jobs, force, progress, backend, scheduler)
    arguments.check_timeout(timeout)
    arguments.mapping("report", report, "{'output': 'page.html', 'title': 'mine'}")
    specs, extra = plan(game, players, rules, n, seed, rungs, unit)
    paths = sweep.run(specs, Path(runs_dir), jobs, force, backend, scheduler, progress, report,
                      timeout, extra)
    (climbed,) = ladders(paths)
    return climbed, paths


def plan(game: str, players: int | None, rules: dict | None, n, seed: int | None,
         rungs: list[str] | None = None, unit: str = "deal") -> tuple[list[RunSpec], list[dict]]:
    """The runs of one ladder (rung ``k`` over rung ``k - 1``, for ``k = 1..``) and, for each,
    what its ``run.json`` records of the ladder; checked, errors in one line."""
    import strategies

    g = games.get(arguments.text("game", game, "black-white"))
    arguments.names("rungs", rungs, "['random', 'balance']")
    if rungs is not None and not all(str(r).strip() for r in rungs):
        raise SimtoolError(f"bad rungs {','.join(map(str, rungs))!r}; expected NAME,NAME,... weakest "
                           f"first, such as random,{g.default_strategy}")
    names = [strategies.canonical(r, g.id) for r in (rungs or default_rungs(g.id))]
    if len(names) < 2:
        raise SimtoolError(f"a ladder needs at least two rungs, got {len(names)}: "
                           f"{', '.join(names) or 'none'}")
    twice = [r for i, r in enumerate(names) if r in names[:i]]
    if twice:
        raise SimtoolError(f"rung '{twice[0]}' appears twice in the ladder {', '.join(names)}; "
                           f"give each rung once (x@a=1 and x@a=1,b=<default> are one rung)")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    specs, extra = [], []
    for k in range(1, len(names)):
        spec = make_spec(g.id, players, n, names[k - 1], {0: names[k]}, rules, unit, seed, True)
        specs.append(spec)
        extra.append({"ladder": {"rung": k, "rungs": names}})
    return specs, extra


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
