"""Plans of several runs, as every command but ``run`` makes them: cells named after what sets
them apart, in one root folder, checked before anything is played, played by the executor."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from pathlib import Path

from simtool.errors import SimtoolError, option
from simtool.pipeline.executor import (
    PLAN,
    Cell,
    Plan,
    check_root,
    execute,
    finished_spec,
    finishing,
    replaying,
    saved_plan,
    saved_spec,
)
from simtool.pipeline.folders import run_kind
from simtool.pipeline.runner import RunSpec, as_recorded, game_of
from simtool.reports.balance import page_runs, runs_key


def folder_name(spec: RunSpec) -> str:
    """A readable folder name for a cell: the rules it sets apart from the defaults (a game has
    many rule options; the name stays short and the same when one is added)."""
    default = {o.name: o.default for o in game_of(spec.game).options}
    parts = [spec.game, f"{spec.players}p",
             *(f"{k}-{v}" for k, v in spec.rules.items() if default.get(k) != v)]
    parts.append("+".join(dict.fromkeys(spec.lineup)) if len(set(spec.lineup)) > 1 else spec.lineup[0])
    return short("_".join(parts).replace("/", "-").replace(":", "-"))


NAME_MAX = 255
"""Bytes of a file name most file systems take (a plugin's long path in a line-up made more)."""


def short(name: str) -> str:
    """``name`` as it is where the file system takes it; a longer one cut to fit, with a digest
    of the whole name, so that two long names that begin alike stay apart."""
    data = name.encode()
    if len(data) <= NAME_MAX:
        return name
    digest = hashlib.sha256(data).hexdigest()[:12]
    return data[:NAME_MAX - 13].decode(errors="ignore") + "-" + digest


def folder_names(specs: list[RunSpec]) -> list[str]:
    """Each cell's :func:`folder_name`, made unique in linear time (two different cells can share
    one: a plugin's path and a name with '-' for '/'): all but the last of a name get ``_<index>``."""
    names = [folder_name(s) for s in specs]
    left = Counter(names)
    unique = []
    for i, name in enumerate(names):
        left[name] -= 1
        unique.append(f"{name}_{i}" if left[name] else name)
    return unique


def make_plan(specs: list[RunSpec], runs_dir: Path, report: dict | None = None,
              extra: list[dict] | None = None, command: str = "sweep", resume: str | None = None,
              again: str = "--force") -> Plan:
    """The plan of ``specs`` in ``runs_dir``: ``extra`` per cell, more for its ``run.json`` (a
    ladder rung says which); ``report`` (its file and title) is saved for the resume; ``resume``
    and ``again``: what an error that keeps its chunks says to do (:class:`Plan`); by default the
    command's own resume (:func:`simtool.pipeline.executor.finishing`)."""
    runs_dir = Path(runs_dir)
    records = extra or [{} for _ in specs]
    cells = tuple(Cell(s, runs_dir / n, e) for s, n, e in zip(specs, folder_names(specs), records, strict=True))
    return Plan(command, cells, runs_dir, settings=report or {}, resume=resume or finishing(command, runs_dir),
                again=again)


def check(plan: Plan, force: bool = False) -> None:
    """Every refusal playing ``plan`` can make, before anything is written or played: its root
    folder (another plan left unfinished there, someone's files), its cells' folders (a run of
    other settings, unless ``force``) and its report's path."""
    check_root(plan)
    if not force:
        check_cells(plan)
    if plan.settings.get("output"):
        check_report(plan.settings["output"], plan)


def check_cells(plan: Plan) -> None:
    """Refuse a plan whose cell folder holds a run (finished or interrupted) played with other
    settings, naming what differs: the same sweep run again after a default of simtool changed
    (a cell's chunk size) or with another ``--n`` is otherwise refused as "already holds a run",
    which does not say why, and only once ``plan.json`` was already replaced."""
    if not plan.reuse:
        return
    differ = []
    for cell in plan.cells:
        kind = None if cell.folder is None else run_kind(cell.folder)
        found = {"finished": finished_spec, "interrupted": saved_spec}.get(kind, lambda _: None)(cell.folder)
        if found is not None and found != as_recorded(cell.spec, found):
            differ.append((cell, kind, found))
    if not differ:
        return
    cell, kind, found = differ[0]
    old, new = found.as_dict(), cell.spec.as_dict()
    keys = [k for k in new if old.get(k) != new[k]]
    # a plugin's record, hashes of every file beside it and all, filled kilobytes of one line
    changes = ", ".join(_plugins_changed(old.get(k) or {}, new[k] or {}) if k == "plugins"
                        else f"{k} {_setting(old.get(k))} (now {_setting(new[k])})" for k in keys)
    more = f"; {len(differ) - 1} more cells as well" if len(differ) > 1 else ""
    them = "them" if more else "it"
    # a review or a tuning has no --force, which was offered all the same
    again = (f"play {them} again with {replaying(plan)}, or choose another folder" if plan.again == "--force"
             else f"play {them} again in {plan.again}")
    why = "a plugin's file, or one beside it, changed" if keys == ["plugins"] else \
        f"the {plan.command}, or a default of simtool's, changed"
    raise SimtoolError(f"{cell.folder} holds a{'n interrupted' if kind == 'interrupted' else ''} run played "
                       f"with other settings: {changes}{more} ({why}); {again}")


def _plugins_changed(old: dict, new: dict) -> str:
    """How the plugins a run recorded (:func:`simtool.pipeline.runner.plugin_files`) differ from
    the same cell's now: ``strategy plugin /x/p.py (sha256 47578a657a2e, now a36afda72718)``,
    ``files beside /x/p.py changed: a.csv, notes.ipynb``."""
    out = []
    for name in dict.fromkeys([*old, *new]):
        a, b = old.get(name) or {}, new.get(name) or {}
        if a == b:
            continue
        if a.get("path") != b.get("path"):
            out.append(f"strategy plugin {name} at {a.get('path', 'none')} (now {b.get('path', 'none')})")
            continue
        if a.get("sha256") != b.get("sha256"):
            out.append(f"strategy plugin {b.get('path')} (sha256 {str(a.get('sha256'))[:12]}, now "
                       f"{str(b.get('sha256'))[:12]})")
        was, now = a.get("beside") or {}, b.get("beside") or {}
        if files := [f for f in dict.fromkeys([*was, *now]) if was.get(f) != now.get(f)]:
            out.append(f"files beside {b.get('path')} changed: {', '.join(files[:3])}"
                       + (f" and {len(files) - 3} more" if len(files) > 3 else ""))
        was, now = a.get("imports") or {}, b.get("imports") or {}
        if files := [f for f in dict.fromkeys([*was, *now]) if was.get(f) != now.get(f)]:
            out.append(f"modules {b.get('path')} imports changed: {', '.join(files[:3])}"
                       + (f" and {len(files) - 3} more" if len(files) > 3 else ""))
    return ", ".join(out) or "plugins"


def _setting(value) -> str:
    """A setting as the refusal names it: ``32768``, ``random,high``, ``deck=30``."""
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


def check_report(output: str | Path, plan: Plan) -> None:
    """Refuse a report path the command could not write, or that is one of the plan's own files
    (its root folder, ``plan.json``, a cell's folder or tables), before any cell is played."""
    from simtool.reports.balance import check_output

    home, where = Path(plan.root).resolve(), Path(output).resolve()
    flag = "report" if plan.command == "restrict" else "out"
    if where.parent == home and where.name.startswith(PLAN):
        raise SimtoolError(f"report {output} would replace the runs' own {PLAN}; choose another "
                           f"{option(flag, argument='report file')}")
    names = {c.folder.name for c in plan.cells}
    cells = [home / a.name for a in (where, *where.parents) if a.parent == home and a.name in names]
    check_output(output, [home, *cells], flag=flag)


def play(specs: list[RunSpec], runs_dir: Path, jobs: int | None = None, force: bool = False,
         backend: str = "local", scheduler: str | None = None, progress=None,
         report: dict | None = None, timeout: float | None = None,
         extra: list[dict] | None = None, command: str = "sweep", resume: str | None = None,
         again: str = "--force") -> list[Path]:
    """Check and play :func:`make_plan` through the executor (cells finished with the same
    specification are kept, interrupted ones resumed; ``force`` plays them again); return the
    cells' folders."""
    plan = make_plan(specs, runs_dir, report, extra, command, resume, again)
    check(plan, force)
    done = execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, force=force,
                   progress=progress, timeout=timeout)
    return [d.cell.folder for d in done]


def resumed(runs_dir: Path) -> Plan:
    """The plan saved in ``runs_dir``, to finish it (``sweep --resume``): its cells in the folders
    it named (a later simtool may name them otherwise), each a folder directly in ``runs_dir``
    (a ``plan.json`` changed by hand may name ``../elsewhere`` or an absolute path)."""
    plan = saved_plan(runs_dir)
    for cell in plan.cells:
        name = cell.folder.name
        if cell.folder.parent != Path(runs_dir) or name in ("", ".", ".."):
            raise SimtoolError(f"cannot resume {runs_dir}: {PLAN} names a cell folder outside it "
                               f"({cell.folder}); it was changed by hand")
    page = plan.settings.get("output")
    # a plan.json written before it kept its root named the page from the folder the plan was
    # started in, which it does not say: resumed from another, that page there may be another
    # plan's, which was replaced without a word; one that says it reports other runs is kept
    if page and not Path(page).is_absolute() and page_runs(Path(page)) not in (
            None, runs_key([cell.folder for cell in plan.cells])):
        plan = dataclasses.replace(plan, settings={k: v for k, v in plan.settings.items() if k != "output"})
    return plan
