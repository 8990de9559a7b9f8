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

from . import games
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

    def finish(self, meta: dict) -> dict[str, Path]:
        written = {}
        for name in TABLES:
            parts = sorted(self.parts.glob(f"{name}-*.parquet"))
            if parts:
                final = self.out / f"{name}.parquet"
                tmp = final.with_suffix(".parquet.tmp")
                pl.scan_parquet(parts).sink_parquet(tmp)
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
    """A finished run folder: its ``run.json`` and lazy tables, checked against each other.

    A folder a disk, an editor or a copy has damaged is refused with one line naming the
    file and the problem, before anything is computed from it.
    """
    run_dir = Path(run_dir)
    meta = read_meta(run_dir)
    try:
        game = games.get(meta["game"])
        games.check_players(game, meta["players"])
    except SimtoolError as exc:
        raise SimtoolError(f"{run_dir / 'run.json'}: {exc}") from None
    p, n, unit = meta["players"], meta["n"], meta["unit"]
    key = ["deal"] if unit == "deal" else ["match", "round"]
    seats = _table(run_dir / "seats.parquet", {k: "integer" for k in key} | SEAT_COLUMNS
                   | {name: _kind(dtype) for name, dtype in game.columns.items()})
    matches = None
    if unit == "match":
        matches = _table(run_dir / "matches.parquet", MATCH_COLUMNS
                         | {name: _kind(dtype) for name, dtype in game.match_columns.items()})
        _check_rows(run_dir / "matches.parquet", matches, p, n, "match", "matches")
        rounds = matches.filter(pl.col("seat") == 0).select(pl.col("rounds").cast(pl.Int64).sum())
        played = collect(run_dir / "matches.parquet", rounds, "streaming").item()
        _check_rows(run_dir / "seats.parquet", seats, p, played, None, "rounds",
                    "the matches in matches.parquet played")
    else:
        _check_rows(run_dir / "seats.parquet", seats, p, n, "deal", "deals")
    return meta, seats, matches


META = {"game": str, "title": str, "players": int, "lineup": list, "rules": dict, "rotate": bool,
        "unit": str, "n": int, "seed": int, "wall_seconds": (int, float), "jobs": int,
        "versions": dict}
"""``run.json`` keys the summary and the report read, with their JSON types."""

PRECISION = {"precision": (int, float), "precision_cap": int, "precision_reached": (int, float),
             "precision_widest": str}

SEAT_COLUMNS = {"seat": "integer", "strategy": "name", "score": "integer", "tricks": "integer",
                "win": "number"}
MATCH_COLUMNS = {"match": "integer", "seat": "integer", "strategy": "name", "total": "integer",
                 "win": "number", "rounds": "integer", "capped": "boolean"}


def read_meta(run_dir: Path) -> dict:
    """``run.json`` of a finished run, with every key the summary and the report read."""
    path = run_dir / "run.json"
    if not path.is_file():
        raise SimtoolError(f"{run_dir} is not a finished run folder (no run.json)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SimtoolError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not text.strip():
        raise SimtoolError(f"{path} is empty; the run folder is damaged: run it again")
    try:
        meta = json.loads(text)
    except ValueError as exc:
        raise SimtoolError(f"{path} is not valid JSON ({exc}); the file is damaged: "
                           f"run it again") from None
    if not isinstance(meta, dict):
        raise SimtoolError(f"{path} is not a JSON object, so not a simtool run.json")
    need = META | (PRECISION if meta.get("precision") else {})
    for name, kind in need.items():
        if name not in meta:
            raise SimtoolError(f"{path} has no '{name}' key; the file is damaged: run it again")
        value = meta[name]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise SimtoolError(f"{path}: '{name}' is {value!r}, not a {_json_type(kind)}")
    if meta["unit"] not in ("deal", "match"):
        raise SimtoolError(f"{path}: 'unit' is {meta['unit']!r}, not 'deal' or 'match'")
    if meta["n"] < 1 or meta["players"] < 1:
        raise SimtoolError(f"{path}: 'n' and 'players' must be 1 or more, not {meta['n']} and "
                           f"{meta['players']}")
    lineup = meta["lineup"]
    if len(lineup) != meta["players"] or not all(isinstance(s, str) for s in lineup):
        raise SimtoolError(f"{path}: 'lineup' names {len(meta['lineup'])} seats for "
                           f"{meta['players']} players")
    missing = [k for k in ("simtool", "numpy", "polars") if k not in meta["versions"]]
    if missing:
        raise SimtoolError(f"{path}: 'versions' has no '{missing[0]}'")
    return meta


def _json_type(kind) -> str:
    names = {str: "string", int: "whole number", list: "list", dict: "JSON object",
             bool: "true or false", (int, float): "number"}
    return names[kind]


def _kind(dtype) -> str:
    if dtype == pl.Boolean:
        return "boolean"
    return "integer" if dtype.is_integer() else "number"


def _fits(dtype, kind: str) -> bool:
    if kind == "name":
        return isinstance(dtype, (pl.Enum, pl.Categorical)) or dtype == pl.String
    if kind == "boolean":
        return dtype == pl.Boolean
    return dtype.is_integer() if kind == "integer" else dtype.is_numeric()


def _table(path: Path, columns: dict[str, str]) -> pl.LazyFrame:
    """A run's table, lazily, once its file is whole (its footer reads) and has every column."""
    if not path.is_file():
        raise SimtoolError(f"{path} is missing; the run folder is incomplete: run it again")
    try:
        if path.stat().st_size == 0:
            raise SimtoolError(f"{path} is empty; the run folder is damaged: run it again")
        schema = pl.read_parquet_schema(path)
    except (pl.exceptions.PolarsError, OSError):
        raise SimtoolError(f"{path} is not a readable table (truncated or damaged); "
                           f"run it again") from None
    for name, kind in columns.items():
        if name not in schema:
            raise SimtoolError(f"{path} has no '{name}' column; the table is damaged, or "
                               f"not this game's")
        if not _fits(schema[name], kind):
            raise SimtoolError(f"{path}: column '{name}' is {schema[name]}, expected {kind} values")
    return pl.scan_parquet(path)


def collect(path: Path, query: pl.LazyFrame, engine: str = "auto") -> pl.DataFrame:
    """``query`` over the table in ``path``; a table damaged inside its pages is one line."""
    try:
        return query.collect(engine=engine)
    except (pl.exceptions.PolarsError, OSError):
        raise SimtoolError(f"{path} is not a readable table (damaged inside); "
                           f"run it again") from None


def _check_rows(path: Path, table: pl.LazyFrame, p: int, expected: int, key: str | None,
                units: str, says: str = "run.json says") -> None:
    """One row per seat per deal (or match, or round), seats in order, as many as expected."""
    per_seat = collect(path, table.group_by("seat").agg(pl.len().alias("rows")).sort("seat"),
                       "streaming")
    found = per_seat["seat"].to_list()
    if found != list(range(p)):
        raise SimtoolError(f"{path} has rows for seats {', '.join(map(str, found)) or 'none'} but "
                           f"run.json says {p} players; the table is not this run's")
    counts = set(per_seat["rows"].to_list())
    if len(counts) > 1:
        raise SimtoolError(f"{path} has unequal rows per seat ({min(counts):,} to "
                           f"{max(counts):,}); a {p}-player run has one row per seat each time")
    held = counts.pop()
    if held != expected:
        raise SimtoolError(f"{path} holds {held:,} {units} but {says} {expected:,}; "
                           f"the table is not this run's, or is incomplete")
    i = pl.col("_row")
    checks = [(pl.col("seat") != i % p).sum().alias("seat")]
    if key is not None:
        checks.append((pl.col(key) != i // p).sum().alias(key))
    bad = collect(path, table.with_row_index("_row").select(checks), "streaming").row(0, named=True)
    if bad["seat"]:
        raise SimtoolError(f"{path}: seat rows are not in seat order, {p} to each "
                           f"{units.removesuffix('es' if units == 'matches' else 's')}")
    if bad.get(key):
        raise SimtoolError(f"{path}: {key} numbers are not 0 to {expected - 1:,} in order")
