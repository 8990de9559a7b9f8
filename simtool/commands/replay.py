"""``simtool replay --run DIR``: a deal (or match) of a run written out from the run's own folder,
its settings read from what the run saved rather than typed again."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simtool.errors import SimtoolError, option, pasted
from simtool.pipeline.executor import PLAN, with_new_options
from simtool.pipeline.folders import (
    INSTALLED,
    PLAYED_BY,
    SPEC,
    installed_by,
    native,
    parse_json,
    played_by,
    played_changed,
    played_now,
    read_meta,
    read_record,
    run_kind,
    spec_intact,
    versions_said,
)
from simtool.pipeline.runner import RunSpec, _fmt, check_beside, replayed, spec_from_dict


@dataclass(frozen=True)
class Saved:
    """What a run folder says was (or is being) played: its specification, as its chunks were
    cut (a ``--precision`` run's ``n`` is its cap), the deal (match) numbers 0..``numbers - 1``
    it holds, and what the replay must say beside the play (an unfinished run, other versions)."""

    folder: Path
    spec: RunSpec
    numbers: int
    finished: bool
    notes: list[str] = field(default_factory=list)


def replay_run(folder: Path, unit: str, number: int) -> list[str]:
    """Deal (``unit`` ``"deal"``) or match ``number`` of the run in ``folder``, written out as
    :func:`simtool.pipeline.runner.replay` writes it, with the run's notes after its first line."""
    saved = saved_run(folder)
    spec = saved.spec
    if unit != spec.unit:
        whole = "whole matches" if spec.unit == "match" else "single deals"
        raise SimtoolError(f"{folder} is a run of {whole}: give {option(spec.unit)} N, not {option(unit)}")
    if not 0 <= number < saved.numbers:
        kept = " (the deals its --precision kept)" if spec.precision and saved.finished else ""
        raise SimtoolError(f"bad {option(unit, number)}; {folder} holds {unit} numbers 0.."
                           f"{saved.numbers - 1}{kept}")
    check_beside(spec)  # files a plugin reads: changed since, the replay would play another version
    lines, seats, final = replayed(spec, number)
    chunk = folder / "chunks" / f"seats-{number // spec.chunk:06d}.parquet"
    played = [folder / "seats.parquet", folder / "matches.parquet"] if saved.finished else \
        [chunk, chunk.with_name(chunk.name.replace("seats-", "matches-", 1))]
    for table, path in zip((seats, final), played, strict=True):
        if table is not None and (unlike := _unlike(table, path, unit, number)):
            # a module a plugin imports from elsewhere (PYTHONPATH), changed since the run, plays
            # otherwise with no file of the run's changed: its results were printed as the run's
            raise SimtoolError(f"{unit} {number} plays otherwise now than the run played it ({unlike}): what "
                               f"plays it (a module its game or strategies import) or the table changed since "
                               f"the run, so this would not be the run's {unit}; run it again to replay it")
    notes = list(saved.notes)
    if not saved.finished:
        played = "is in chunks/ already" if chunk.is_file() else "is not played yet"
        notes.insert(0, f"{folder} holds an unfinished run (chunks/{SPEC}); this {unit}'s chunk {played}")
    lines[1:1] = notes
    return lines


def _unlike(replayed: pl.DataFrame, path: Path, unit: str, number: int) -> str | None:
    """How ``replayed`` (rows of ``number``) differs from the rows of ``number`` in the run's table
    ``path``, in words; ``None`` where they agree, or where there is no table to tell (a chunk
    not played yet, a table that cannot be read)."""
    try:
        held = pl.scan_parquet(native(path), glob=False).filter(pl.col(unit) == number).collect()
    except (OSError, pl.exceptions.PolarsError, SimtoolError):
        return None
    columns = [c for c in replayed.columns if c in held.columns and c != unit]
    now, then = (t.select(pl.col(c).cast(pl.String) if c == "strategy" else pl.col(c) for c in columns).rows()
                 for t in (replayed, held))
    if len(now) != len(then):
        return f"{len(now)} rows, where {path} holds {len(then)}"
    for row, was in zip(now, then, strict=True):
        if row != was:
            at = next(i for i, (a, b) in enumerate(zip(row, was, strict=True)) if a != b)
            who = " ".join(f"{c} {v}" for c, v in zip(columns, row, strict=True) if c in ("rotation", "round", "seat"))
            return f"{who}: {columns[at]}={_fmt(row[at])}, where {path} holds {_fmt(was[at])}"
    return None


def saved_run(folder: Path) -> Saved:
    """The run saved in ``folder``: a finished one's ``run.json``, an unfinished one's
    ``chunks/spec.json`` (its deals are fixed by what it plays, whether or not their chunk is
    on disk yet); any other folder refused in one line naming what it is."""
    folder = Path(folder)
    if not folder.exists():
        raise SimtoolError(f"--run {folder}: there is no such folder; give a run folder (what "
                           f"simtool run wrote, its --out)")
    if not folder.is_dir():
        holder = f": give the folder that holds it, {pasted(folder.parent)}" \
            if (folder.parent / "run.json").is_file() or folder.name == SPEC else ""
        raise SimtoolError(f"--run {folder} is a file, not a run folder{holder}")
    kind = run_kind(folder)
    if kind == "finished":
        return _finished(folder)
    if kind == "interrupted":
        return _unfinished(folder)
    if (folder / "run.json").is_file():
        # a run.json damaged or edited (not JSON, no versions) read "holds no simtool run (no
        # run.json, ...)", the file there: its own error names what is wrong with it
        read_meta(folder)
    raise SimtoolError(not_a_run(folder))


def _finished(folder: Path) -> Saved:
    meta = read_meta(folder)
    if played_changed(meta):  # its tables hold another run's deals than it says
        raise SimtoolError(f"{folder}/run.json was changed since the run wrote it, so it no longer says "
                           f"what the run played; put it back, or run it again")
    cap = {"n": meta["precision_cap"]} if meta.get("precision") else {}
    notes = [] if played_now(meta) else _changed(meta["versions"], meta, "run.json", meta["unit"])
    return Saved(folder, _spec(folder / "run.json", meta | cap), meta["n"], True, notes)


def _unfinished(folder: Path) -> Saved:
    path = folder / "chunks" / SPEC
    try:
        data = parse_json(read_record(path))
    except (OSError, ValueError) as exc:
        raise SimtoolError(f"cannot read {path} ({getattr(exc, 'strerror', None) or exc}); the folder's "
                           f"unfinished run cannot be replayed") from None
    if not isinstance(data, dict) or not spec_intact(data):
        raise SimtoolError(f"{path} was changed since the run started, so it no longer says what the run "
                           f"plays; put it back")
    spec = _spec(path, data)
    return Saved(folder, spec, spec.n, False, _changed(data.get(PLAYED_BY), data, f"chunks/{SPEC}", spec.unit))


def _changed(made, recorded: dict, record: str, unit: str) -> list[str]:
    """The notes a replay says where what played the run (``made``: simtool's and numpy's versions;
    ``recorded``: its ``record``, run.json or chunks/spec.json, with the installed game and
    strategies it played) is not what replays it."""
    notes = [] if not isinstance(made, dict) or {k: made.get(k) for k in played_by()} == played_by() else [
        f"note: {versions_said(made)} played this run, {versions_said(played_by())} replays it: where they "
        f"deal or play otherwise, this is not the run's {unit}"]
    before = recorded.get(INSTALLED)
    if isinstance(before, dict):  # none played, or recorded before 2026-11-27: as then
        # an installed game edited since read "simtool 0.1.0 with numpy 2.4.6 played this run,
        # simtool 0.1.0 with numpy 2.4.6 replays it", the change unnamed
        now = installed_by(recorded, imported_as_now=False)
        notes += [f"note: installed {name} changed since the run ({INSTALLED} in {record}): where it deals or "
                  f"plays otherwise, this is not the run's {unit}"
                  for name in sorted(before.keys() | now.keys()) if before.get(name) != now.get(name)]
    return notes


def _spec(path: Path, data: dict) -> RunSpec:
    try:
        return with_new_options(spec_from_dict(data))
    except (KeyError, TypeError, ValueError) as exc:
        raise SimtoolError(f"{path} is damaged ({type(exc).__name__}: {exc}); its run cannot be "
                           f"replayed from it") from None


READERS = {
    "review.json": ("a review's folder", "simtool review --baseline reads"),
    "tune.json": ("a tuning's folder", "simtool tune --resume reads"),
}
"""Folders of other commands, by the record they hold: what they are and which command reads them."""

PLANS = {"sweep": ("a sweep", "simtool sweep --resume"), "ladder": ("a ladder", "simtool ladder --resume"),
         "restrict": ("a restricted play", "simtool restrict --resume"), "review": ("a review", "simtool review"),
         "tune": ("a tuning", "simtool tune"), "strength": ("a strength table", "make strength")}
"""A plan's folder (``plan.json``) by the command that wrote it: what it is and the command that reads it."""


def not_a_run(folder: Path) -> str:
    """Why ``folder`` holds no run to replay, and which command reads what it holds."""
    runs = _runs_under(folder)
    them = f"; give --run one of its runs, such as {pasted(runs[0])}" if runs else ""
    for record, (what, reader) in READERS.items():
        if (folder / record).is_file():
            return f"--run {folder} is {what} ({record}), which {reader}, not a run{them}"
    plan = folder / PLAN
    if plan.is_file():
        try:
            command = parse_json(read_record(plan)).get("command", "sweep")
        except (OSError, ValueError, AttributeError):
            command = None
        if command in PLANS:
            what, reader = PLANS[command]
            return f"--run {folder} holds the runs of {what} ({PLAN}), which {reader} reads, not a run{them}"
    if runs:
        return f"--run {folder} is not a run folder but holds run folders{them}"
    return f"--run {folder} holds no simtool run (no run.json, no chunks/{SPEC}); give a run folder"


def _runs_under(folder: Path) -> list[Path]:
    """Run folders in ``folder`` (a sweep's), or in its ``runs/``'s folders (a review's, a tuning's)."""
    try:
        return sorted(p.parent for pattern in ("*/run.json", "runs/*/*/run.json") for p in folder.glob(pattern)
                      if p.is_file())
    except OSError:
        return []
