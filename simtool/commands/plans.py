"""Plans of several runs, as every command but ``run`` makes them: cells named after what
sets them apart, in one root folder, played by the executor."""

from __future__ import annotations

from pathlib import Path

from simtool import games
from simtool.pipeline.executor import Cell, Plan, cell_names, execute, saved_plan
from simtool.pipeline.runner import RunSpec


def folder_name(spec: RunSpec) -> str:
    """A readable, unique folder name for a cell: the rules it sets apart from the defaults
    (a game has many rule options; the name stays short and the same when one is added)."""
    default = {o.name: o.default for o in games.get(spec.game).options}
    parts = [spec.game, f"{spec.players}p",
             *(f"{k}-{v}" for k, v in spec.rules.items() if default.get(k) != v)]
    parts.append("+".join(dict.fromkeys(spec.lineup)) if len(set(spec.lineup)) > 1 else spec.lineup[0])
    return "_".join(parts).replace("/", "-").replace(":", "-")


def play(specs: list[RunSpec], runs_dir: Path, jobs: int | None = None, force: bool = False,
        backend: str = "local", scheduler: str | None = None, progress=None,
        report: dict | None = None, timeout: float | None = None,
        extra: list[dict] | None = None, command: str = "sweep") -> list[Path]:
    """Play every cell into ``runs_dir/<cell>`` through the executor (a plan of several runs:
    cells finished with the same specification are kept, interrupted ones resumed; ``force``
    plays them again). ``report`` (output and title) is saved for the resume; ``extra``: per
    cell, more for its ``run.json`` (a ladder rung says which); ``command`` names the plan."""
    runs_dir = Path(runs_dir)
    names = cell_names(specs, folder_name)
    records = extra or [{} for _ in specs]
    cells = tuple(Cell(s, runs_dir / n, e) for s, n, e in zip(specs, names, records, strict=True))
    plan = Plan(command, cells, runs_dir, settings=report or {}, resume=f"simtool sweep --resume {runs_dir}")
    done = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
                   progress=progress, timeout=timeout)
    return [d.cell.folder for d in done]


def saved(runs_dir: Path) -> tuple[list[RunSpec], dict]:
    """The cells and report settings of the plan in ``runs_dir``, for ``--resume``; the report
    settings also hold each cell's ``extra`` and the plan's ``command`` (see :func:`play`)."""
    plan = saved_plan(runs_dir)
    return ([c.spec for c in plan.cells],
            dict(plan.settings, extra=[c.record for c in plan.cells], command=plan.command))


