"""Run folders: chunk files while a run is under way, then whole tables and ``run.json``.

Every file a reader may take as a result is written under a temporary name and
renamed into place once complete; ``run.json`` comes last. An interrupted run
leaves only a ``chunks/`` folder, never a table that looks finished.

A run folder belongs to the user as much as to simtool: simtool deletes or replaces only
files it writes itself (the names below), refuses a non-empty folder that is not a run
folder, and locks a folder while a run writes it, so two writers never mix their chunks.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from datetime import datetime
from pathlib import Path

import polars as pl

from .errors import SimtoolError

TABLES = ("seats", "matches")
SPEC = "spec.json"
WRITER = "writer.json"
OURS = ("seats.parquet", "matches.parquet", "run.json")
"""The files of a finished run, the only top-level names simtool ever replaces."""
OUR_CHUNKS = re.compile(r"(spec|writer)\.json|(seats|matches)-\d{6}\.parquet(\.damaged)?|"
                        r"\.(seats|matches)-\d{6}\.tmp|\.?[\w.]+\.json\.tmp")
"""The files simtool writes in ``chunks/``; nothing else there is touched."""


def run_kind(folder: Path) -> str | None:
    """``"finished"``, ``"interrupted"``, ``"empty"`` (or missing), or ``None`` for a folder
    that holds something other than a simtool run."""
    if not folder.exists():
        return "empty"
    if not folder.is_dir():
        return None
    if (folder / "chunks" / SPEC).is_file():
        return "interrupted"
    if (folder / "run.json").is_file():
        try:
            meta = json.loads((folder / "run.json").read_text())
        except (OSError, ValueError):
            return None
        return "finished" if isinstance(meta, dict) and "simtool" in meta.get("versions", {}) else None
    return "empty" if not any(folder.iterdir()) else None


class FolderLock:
    """An exclusive lock on a run folder for as long as one process writes it.

    ``flock`` on the folder itself: the kernel drops it when the process ends however it ends,
    so a killed run never leaves a stale lock. Who holds it is written to ``chunks/writer.json``.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise SimtoolError(f"output folder {folder} is being written by another simtool run "
                               f"({_holder(folder)}); wait for it to end or choose another folder") from None

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _holder(folder: Path) -> str:
    try:
        who = json.loads((folder / "chunks" / WRITER).read_text())
        return f"pid {who['pid']}, started {who['started']}: {who['command']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "details unknown"


class RunWriter:
    """Writes one run folder. ``spec`` (a dict) is saved first, so that an interrupted run can be
    resumed: finished chunks stay in ``chunks/`` until the run completes."""

    def __init__(self, out: Path, force: bool = False, spec: dict | None = None,
                 resume: bool = False):
        self.out = Path(out)
        self.resume = resume
        self.lock = None
        self.written: set[Path] = set()
        kind = run_kind(self.out)
        if kind is None:
            raise SimtoolError(f"output folder {self.out} is not empty and holds no simtool run; "
                               f"choose a new or empty folder (simtool never writes over other files)")
        if resume:
            if kind != "interrupted":
                raise SimtoolError(f"nothing to resume in {self.out}: "
                                   + ("it holds a finished run" if kind == "finished"
                                      else f"no chunks/{SPEC} from an interrupted run"))
        elif kind == "finished" and not force:
            raise SimtoolError(f"output folder {self.out} already holds a run; use --force to replace it")
        elif kind == "interrupted" and not force:
            raise SimtoolError(f"output folder {self.out} holds an interrupted run; finish it with "
                               f"--resume {self.out}, or replace it with --force")
        self.created = not self.out.exists()
        self.parts = self.out / "chunks"
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self.lock = FolderLock(self.out)
            if not resume:
                self._clear()  # a replaced run must not look complete meanwhile
            self.parts.mkdir(exist_ok=True)
            write_json(self.parts / WRITER, {"pid": os.getpid(),
                                              "started": f"{datetime.now():%Y-%m-%d %H:%M:%S}",
                                              "command": " ".join(_argv())})
            if not resume:
                write_json(self.parts / SPEC, spec or {})
        except OSError as exc:
            self._release()
            raise SimtoolError(f"cannot write to output folder {self.out}: {exc.strerror or exc}") from None
        except BaseException:
            self._release()
            raise

    def _clear(self) -> None:
        for name in OURS:
            (self.out / name).unlink(missing_ok=True)
            (self.out / f"{name}.tmp").unlink(missing_ok=True)
        self._clear_chunks()

    def _clear_chunks(self) -> None:
        if not self.parts.is_dir():
            return
        for f in self.parts.iterdir():
            if f.is_file() and OUR_CHUNKS.fullmatch(f.name):
                f.unlink()
        if not any(self.parts.iterdir()):
            self.parts.rmdir()

    def _release(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def spec(self) -> dict:
        try:
            data = json.loads((self.parts / SPEC).read_text())
        except (OSError, ValueError) as exc:
            raise SimtoolError(f"cannot resume {self.out}: chunks/{SPEC} is unreadable ({exc})") from None
        if not isinstance(data, dict):
            raise SimtoolError(f"cannot resume {self.out}: chunks/{SPEC} is not a run specification")
        return data

    def done(self, unit: str, rows) -> set[int]:
        """Chunks whose tables are all on disk and whole. ``rows(name, index)`` is the row count
        table ``name`` of chunk ``index`` must have (``None``: any). A damaged file (a truncated
        copy, a disk that filled up) is renamed ``*.damaged`` and its chunk played again."""
        names = TABLES if unit == "match" else TABLES[:1]
        found = {int(p.stem.split("-")[1]) for name in names for p in self.parts.glob(f"{name}-*.parquet")}
        whole = set()
        for index in found:
            files = {name: self.parts / f"{name}-{index:06d}.parquet" for name in names}
            if all(_readable(f, rows(name, index)) for name, f in files.items()):
                whole.add(index)
                continue
            for f in files.values():
                if f.exists():
                    os.replace(f, f.with_name(f.name + ".damaged"))
        return whole

    def read_chunk(self, index: int, unit: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """The tables of a chunk already on disk (a resumed run's earlier work)."""
        seats = pl.read_parquet(self.parts / f"seats-{index:06d}.parquet")
        return seats, (pl.read_parquet(self.parts / f"matches-{index:06d}.parquet")
                       if unit == "match" else None)

    def finish(self, meta: dict) -> dict[str, Path]:
        written = {}
        for name in TABLES:
            parts = sorted(self.parts.glob(f"{name}-*.parquet"))
            if parts:
                final = self.out / f"{name}.parquet"
                tmp = final.with_suffix(".parquet.tmp")
                try:
                    pl.scan_parquet(parts).sink_parquet(tmp)
                except BaseException:
                    tmp.unlink(missing_ok=True)
                    raise
                os.replace(tmp, final)
                written[name] = final
        meta = {**meta, "files": sorted(p.name for p in written.values())}
        write_json(self.out / "run.json", meta)
        self._clear_chunks()
        self._release()
        return written

    def abort(self) -> None:
        """After a failure: a new run takes back what it wrote; a resumed run leaves ``chunks/``
        as it found it, so the work done before is never lost."""
        if self.resume:
            (self.parts / WRITER).unlink(missing_ok=True)
        else:
            self._clear_chunks()
            if self.created and self.out.exists() and not any(self.out.iterdir()):
                self.out.rmdir()
        self._release()

    def interrupted(self) -> None:
        """Ctrl-C: finished chunks stay for ``--resume``; only the lock goes."""
        (self.parts / WRITER).unlink(missing_ok=True)
        self._release()


def _readable(path: Path, rows: int | None) -> bool:
    if not path.is_file():
        return False
    try:
        table = pl.read_parquet(path)
    except Exception:  # polars raises several kinds for a damaged file
        return False
    return rows is None or table.height == rows


def _argv() -> list[str]:
    import sys

    return [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else ["python"]


def write_chunk(parts: Path, index: int, **named: pl.DataFrame | None) -> None:
    """One chunk's tables as part files; snappy, as they are read once and re-encoded."""
    for name, table in named.items():
        if table is not None:
            tmp = parts / f".{name}-{index:06d}.tmp"
            table.write_parquet(tmp, compression="snappy")
            os.replace(tmp, parts / f"{name}-{index:06d}.parquet")


def write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
    os.replace(tmp, path)


def load(run_dir: Path) -> tuple[dict, pl.LazyFrame, pl.LazyFrame | None]:
    """A finished run folder: its ``run.json`` and lazy tables."""
    run_dir = Path(run_dir)
    meta_file = run_dir / "run.json"
    if not meta_file.is_file():
        raise SimtoolError(f"{run_dir} is not a finished run folder (no run.json)")
    meta = json.loads(meta_file.read_text())
    matches = run_dir / "matches.parquet"
    return (meta, pl.scan_parquet(run_dir / "seats.parquet"),
            pl.scan_parquet(matches) if matches.exists() else None)
