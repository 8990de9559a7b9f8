"""Run folders: chunk files while a run is under way, then whole tables and ``run.json``.

Every file a reader may take as a result is written under a temporary name and
renamed into place once complete; ``run.json`` comes last. An interrupted run
leaves only a ``chunks/`` folder, never a table that looks finished.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polars as pl

from .errors import SimtoolError

TABLES = ("seats", "matches")


SPEC = "spec.json"


class RunWriter:
    """Writes one run folder. ``spec`` (a dict) is saved first, so that an interrupted run can be
    resumed: finished chunks stay in ``chunks/`` until the run completes."""

    def __init__(self, out: Path, force: bool = False, spec: dict | None = None,
                 resume: bool = False):
        self.out = Path(out)
        if (self.out / "run.json").exists() and not force:
            what = "a finished run" if resume else "a run"
            raise SimtoolError(f"output folder {self.out} already holds {what}; use --force to replace it")
        if resume:
            if not (self.out / "chunks" / SPEC).is_file():
                raise SimtoolError(f"nothing to resume in {self.out}: no chunks/{SPEC} from an interrupted run")
            self.created, self.parts = False, self.out / "chunks"
            return
        if (self.out / "chunks" / SPEC).is_file() and not force:
            raise SimtoolError(f"output folder {self.out} holds an interrupted run; finish it with "
                               f"--resume {self.out}, or replace it with --force")
        self.created = not self.out.exists()
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self.parts = self.out / "chunks"
            self.parts.mkdir(exist_ok=True)
            probe = self.parts / ".probe"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise SimtoolError(f"cannot write to output folder {self.out}: {exc.strerror or exc}") from None
        for name in (*TABLES, "run"):  # a replaced run must not look complete meanwhile
            for old in self.out.glob(f"{name}.*"):
                old.unlink()
        for old in self.parts.glob("*"):
            old.unlink()
        write_json(self.parts / SPEC, spec or {})

    def spec(self) -> dict:
        return json.loads((self.parts / SPEC).read_text())

    def done(self, unit: str) -> set[int]:
        """Chunks whose tables are all on disk (each file appears only once complete)."""
        found = [{int(p.stem.split("-")[1]) for p in self.parts.glob(f"{name}-*.parquet")}
                 for name in (TABLES if unit == "match" else TABLES[:1])]
        return set.intersection(*found)

    def read_chunk(self, index: int, unit: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """The tables of a chunk already on disk (a resumed run's earlier work)."""
        seats = pl.read_parquet(self.parts / f"seats-{index:06d}.parquet")
        return seats, (pl.read_parquet(self.parts / f"matches-{index:06d}.parquet")
                       if unit == "match" else None)

    def finish(self, meta: dict, limit: tuple[str, int] | None = None) -> dict[str, Path]:
        """The whole tables and ``run.json``; ``limit`` ``(key, n)`` keeps the rows of the
        first ``n`` deals (or matches), where ``--precision`` stopped within a chunk."""
        written = {}
        for name in TABLES:
            parts = sorted(self.parts.glob(f"{name}-*.parquet"))
            if parts:
                final = self.out / f"{name}.parquet"
                tmp = final.with_suffix(".parquet.tmp")
                rows = pl.scan_parquet(parts)
                (rows.filter(pl.col(limit[0]) < limit[1]) if limit else rows).sink_parquet(tmp)
                os.replace(tmp, final)
                written[name] = final
        meta = {**meta, "files": sorted(p.name for p in written.values())}
        write_json(self.out / "run.json", meta)
        shutil.rmtree(self.parts)
        return written

    def abort(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)
        if self.created and self.out.exists() and not any(self.out.iterdir()):
            self.out.rmdir()


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
