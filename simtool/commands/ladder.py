"""The skill ladder: a chain of strategies of rising strength, each played against the one below.

Rung ``k`` plays one seat against ``p - 1`` seats of rung ``k - 1``, the line-up rotated one
seat per deal (so the climber sits in every seat equally often), and its win share per seat
is compared with the fair ``1/p``. Each pair is an ordinary run folder (``run.json`` says
which ladder and rung it is), all pairs share one seed (they play the same deals), and their
chunks go to one pool of workers through the executor (:mod:`simtool.pipeline.executor`). The ladder *flattens* at
the first rung whose edge over the rung below is not significantly positive (its 95%
interval reaches down to the fair share): past it, more skill (more search) stops paying.
Atop the chain, apart from it, the reference rung (``clairvoyant``: the top search on the true
deal, in the top rung's seat) shows what knowing the hidden cards is worth; see
:mod:`simtool.analysis.ladder`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simtool import arguments, games
from simtool.analysis.ladder import BUDGET, Ladder, changed_over, ladders
from simtool.commands.plans import play
from simtool.errors import SimtoolError
from simtool.pipeline.runner import RunSpec, make_spec

PIMC_SAMPLES = (4, 8, 16, 32, 64)
"""Rungs of the search strategy ``pimc``, when one is registered: doubling samples per decision."""


def default_rungs(game_id: str) -> list[str]:
    """``random``, then the game's own heuristics in the order they are registered with the
    game's default strategy (its strongest by the game module's choice) last, then ``pimc``
    with doubling samples if a strategy named ``pimc`` plays the game."""
    import strategies

    g = games.get(game_id)
    found = strategies.registry(game_id)
    # the heuristics: searches (pimc's rungs below; ismcts, a search of Out-Trumped's measured
    # in docs/reference-player.md) are not the game's own players
    own = [name for name, s in found.items() if s.games is not None and name not in ("pimc", "ismcts")]
    own.sort(key=lambda name: name == g.default_strategy)  # stable: the default moves last
    rungs = ["random", *own]
    if "pimc" in found:
        rungs += [f"pimc@samples={k}" for k in PIMC_SAMPLES]
    return rungs


@arguments.called("simtool.ladder.climb")
def climb(game: str = "black-white", runs_dir: str | Path = "runs/ladder", *, players: int | None = None,
          rules: dict | None = None, n=20_000, seed: int | None = None, rungs: list[str] | None = None,
          unit: str = "deal", jobs: int | None = None, force: bool = False,
          backend: str = "local", scheduler: str | None = None, progress=None,
          report: dict | None = None, timeout: float | None = None, duplicate: bool = False,
          reference: bool | None = None) -> tuple[Ladder, list[Path]]:
    """Play a ladder into ``runs_dir`` (one run folder per rung) and return it with the folders:
    what ``simtool ladder`` does, from Python. A rung already finished there is kept.
    ``duplicate``, ``reference``: see :func:`plan`."""
    runs_dir = arguments.folder("runs_dir", runs_dir)
    arguments.execution(jobs, force, progress, backend, scheduler)
    arguments.report(report)
    import strategies

    with strategies.importing_within(arguments.check_timeout(timeout)):  # a plugin's import too
        specs, extra = plan(game, players, rules, n, seed, rungs, unit, duplicate, reference)
    paths = play(specs, Path(runs_dir), jobs, force, backend, scheduler, progress, report, timeout, extra,
                 "ladder")
    (climbed,) = ladders(paths)
    return climbed, paths


def plan(game: str, players: int | None, rules: dict | None, n, seed: int | None,
         rungs: list[str] | None = None, unit: str = "deal", duplicate: bool = False,
         reference: bool | None = None) -> tuple[list[RunSpec], list[dict]]:
    """The runs of one ladder (rung ``k`` over rung ``k - 1``, for ``k = 1..``) and, for each,
    what its ``run.json`` records of the ladder; checked, errors in one line.

    ``duplicate``: every rung plays each deal once per rotation of the line-up, with the same
    cards. ``reference``: add the reference rung, ``clairvoyant`` in the top rung's place (one
    seat against the rung below the top, on the same deals; not a fair player, so never a rung
    of the chain itself); default: when the top rung is ``pimc``, whose play-out policy and value
    it then shares."""
    import strategies

    g = games.get(arguments.text("game", game, "black-white"))
    arguments.names("rungs", rungs, "['random', 'balance']")
    duplicate = arguments.flag("duplicate", duplicate)
    if reference is not None:
        reference = arguments.flag("reference", reference)
    if rungs is not None and not rungs:  # it played the game's default ladder, as None does
        raise SimtoolError(f"bad rungs {list(rungs)}: it names no rung (empty); give two or more, weakest "
                           f"first, such as ['random', '{g.default_strategy}'], or None for the game's ladder")
    if rungs is not None and not all(str(r).strip() for r in rungs):
        raise SimtoolError(f"bad rungs {','.join(map(str, rungs))!r}; expected NAME,NAME,... weakest "
                           f"first, such as random,{g.default_strategy}")
    strategies.require_fair(rungs or [], "a rung of the fair chain; the ladder adds it as its reference "
                            f"rung atop the chain ({arguments.option('reference')})")
    names = [strategies.canonical(r, g.id) for r in (rungs or default_rungs(g.id))]
    if len(names) < 2:
        raise SimtoolError(f"a ladder needs at least two rungs, got {len(names)}: "
                           f"{', '.join(names) or 'none'}")
    twice = [r for i, r in enumerate(names) if r in names[:i]]
    if twice:
        raise SimtoolError(f"rung '{twice[0]}' appears twice in the ladder {', '.join(names)}; "
                           f"give each rung once (x@a=1 and x@a=1,b=<default> are one rung)")
    for below, name in zip(names, names[1:], strict=False):
        if fell := lowered(below, name, g.id):
            raise SimtoolError(f"rung '{name}' over '{below}' lowers the search's {', '.join(fell)}: the chain climbs, "
                               f"weakest first, so a step of the budget raises it; give '{name}' before '{below}'")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    specs, extra = [], []
    for k in range(1, len(names)):
        spec = make_spec(g.id, players, n, names[k - 1], {0: names[k]}, rules, unit, seed, True,
                         duplicate=duplicate)
        specs.append(spec)
        extra.append({"ladder": {"rung": k, "rungs": names}})
    top = strategies.resolve(names[-1], g.id)
    # by default only where the reference can share the top search's play-outs: a plugin policy
    # may not play out the true deal (strategies.resolve refuses it)
    if reference or (reference is None and top.base == "pimc" and strategies.built_in(top.values.playout)):
        # against the very line-up the top rung faces: the two shares compare directly
        spec = make_spec(g.id, players, n, names[-2], {0: reference_of(top, g.id)}, rules, unit, seed,
                         True, duplicate=duplicate)
        specs.append(spec)
        extra.append({"ladder": {"rung": len(names), "rungs": names, "reference": True}})
    return specs, extra


def lowered(below: str, name: str, game_id: str) -> list[str]:
    """The budget parameters (:data:`simtool.analysis.ladder.BUDGET`) that the rung ``name``, a
    budget step over ``below``, sets lower, as played (``focus_samples=0`` plays ``samples``):
    ``pimc@samples=2`` over ``pimc@samples=16`` read as a larger budget, "Converged: ... the
    larger budget plays worse here"."""
    import strategies

    step = changed_over(name, below)
    if not step or not set(step) <= BUDGET:
        return []
    low, high = strategies.resolve(below, game_id).values, strategies.resolve(name, game_id).values

    def played(values, key: str):
        # a plugin's parameter of that name may be no number, or lack its unfocused form
        return getattr(values, key) or getattr(values, key.removeprefix("focus_"), 0)

    return [k for k in step if all(isinstance(played(v, k), int | float) for v in (low, high))
            and played(high, k) < played(low, k)]


def reference_of(top, game_id: str) -> str:
    """The reference rung in the place of the strategy ``top``: ``clairvoyant``, with the play-out policy and
    value of ``top`` when it is ``pimc`` (the same search, on the true deal)."""
    import strategies

    same = {k: v for k, v in (top.values.as_dict() if top.base == "pimc" and top.values else {}).items()
            if k in ("playout", "value")}
    return strategies.canonical("clairvoyant" + ("@" + ",".join(f"{k}={v}" for k, v in same.items())
                                                 if same else ""), game_id)
