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
choice) costs exactly 0 for a strategy that draws no random numbers. A strategy that does (random
play, ``mistakes``, a search) is still paired on the deals, but its draws fall differently once
the line-ups differ, so a cost that is really 0 shows as a narrow interval around 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from simtool import arguments, games
from simtool.analysis.restrict import costs
from simtool.commands.plans import play
from simtool.errors import SimtoolError, shown
from simtool.pipeline.runner import RunSpec, make_spec


def plan(game: str, players: int | None = None, rules: dict | None = None, n=20_000,
         seed: int | None = None, strategy: str | None = None,
         restrictions: list[str] | None = None, isolate: bool = False,
         sweep: bool = False) -> tuple[list[RunSpec], list[dict]]:
    """The baseline run and one run per restriction (default: every restriction of the game),
    with what each adds to its ``run.json``; checked, errors in one line. ``isolate``: a plugin
    strategy plays in processes of its own and is never imported here (``strategies.isolate``).
    ``sweep``: a restricted sweep's cell, which measures every restriction (it has no
    ``--restrictions`` to name)."""
    import strategies
    from strategies import restrictions as limits

    g = games.get(arguments.text("game", game, "kansas-city"))
    arguments.text("strategy", strategy, "target", optional=True)
    arguments.names("restrictions", restrictions, "['no-upgrade']")
    # what a restriction costs is a question about fair players
    strategy = g.default_strategy if strategy is None else strategy  # an empty name is refused, not the default
    strategies.require_fair([strategy], "the strategy restricted play measures")
    name = strategies.canonical(strategy, g.id, isolate)  # isolate: see make_spec
    if limits.split(name)[1]:
        how = (": a restricted sweep measures every restriction of the game against it" if sweep
               else f" and the restrictions with {arguments.option('restrictions')}")
        raise SimtoolError(f"restricted play compares a strategy with its restricted self: give the "
                           f"strategy without restrictions (not {name!r}){how}")
    if restrictions is not None:
        _check_listed(restrictions, g.id)
    found = limits.check([str(r).strip() for r in restrictions], g.id) if restrictions is not None \
        else list(limits.of_game(g.id).values())
    if not found:
        raise SimtoolError(f"{g.id} declares no restrictions to measure")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    order = [r.name for r in found]
    base = make_spec(g.id, players, n, name, None, rules, "deal", seed, True, isolate=isolate)
    specs, extra = [base], [{"restrict": {"strategy": name, "restriction": None, "restrictions": order}}]
    for r in found:
        spec = make_spec(g.id, base.players, n, name, {0: f"{name}~{r.name}"}, rules, "deal", seed, True,
                         isolate=isolate)
        if spec.chunk != base.chunk:  # the deal stream is cut by chunks: both must cut alike
            raise SimtoolError(f"{spec.lineup[0]} plays in chunks of {spec.chunk} deals, the "
                               f"baseline in {base.chunk}: its deals would not pair")
        specs.append(spec)
        # the restriction's words travel with its run: analysis reads runs, not the strategies
        extra.append({"restrict": {"strategy": name, "restriction": r.name, "restrictions": order,
                                   "doing": r.doing, "description": r.description}})
    return specs, extra


def _check_listed(restrictions: list[str], game_id: str) -> None:
    """Refuse a list of restrictions naming none (``--restrictions ''``, which said only "bad
    restrictions ''") or holding an empty name between its commas, naming the problem and the
    game's restrictions."""
    from strategies import restrictions as limits

    valid = f"valid for {game_id}: {', '.join(limits.of_game(game_id)) or 'none'}"
    text = ",".join(map(str, restrictions)) if arguments.COMMAND_LINE.get() else list(restrictions)
    given = f"{arguments.option('restrictions')} {shown(text)}"
    if not any(str(r).strip() for r in restrictions):
        raise SimtoolError(f"bad {given}: it names no restriction (empty); give NAME,NAME,... or leave it "
                           f"out to measure every restriction; {valid}")
    if not all(str(r).strip() for r in restrictions):
        raise SimtoolError(f"bad {given}: it holds an empty name; expected NAME,NAME,...; {valid}")


@arguments.called("simtool.restrict.measure")
def measure(game: str = "kansas-city", runs_dir: str | Path = "runs/restrict", *,
            players: int | None = None, rules: dict | None = None, n=20_000,
            seed: int | None = None, strategy: str | None = None,
            restrictions: list[str] | None = None, jobs: int | None = None, force: bool = False,
            backend: str = "local", scheduler: str | None = None, progress=None,
            report: dict | None = None, timeout: float | None = None) -> tuple[pl.DataFrame, list[Path]]:
    """Play the runs of :func:`plan` into ``runs_dir`` and return each restriction's cost
    (:func:`costs`) with the run folders: what ``simtool restrict`` does, from Python."""
    runs_dir = arguments.folder("runs_dir", runs_dir)
    arguments.execution(jobs, force, progress, backend, scheduler)
    arguments.report(report)
    import strategies

    with strategies.importing_within(arguments.check_timeout(timeout)):  # a plugin's import too
        specs, extra = plan(game, players, rules, n, seed, strategy, restrictions)
    paths = play(specs, Path(runs_dir), jobs, force, backend, scheduler, progress, report, timeout, extra,
                 "restrict")
    return costs(paths), paths
