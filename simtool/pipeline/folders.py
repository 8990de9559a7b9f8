"""Run folders: chunk files while a run is under way, then whole tables and ``run.json``.

Every file a reader may take as a result is written under a temporary name and
renamed into place once complete; ``run.json`` comes last. An interrupted run
leaves only a ``chunks/`` folder, never a table that looks finished.

A run folder belongs to the user as much as to simtool: simtool deletes or replaces only
files it writes itself (the names below), refuses a non-empty folder that is not a run
folder, and locks a folder while a run writes it, so two writers never mix their chunks.
"""

from __future__ import annotations

import errno
import fcntl
import functools
import hashlib
import io
import json
import os
import re
import socket
import stat
import time
import weakref
from collections import Counter
from datetime import datetime
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options
from simtool.errors import (
    COMMAND_LINE,
    DiskFull,
    GameError,
    SimtoolError,
    describe,
    forcing,
    option,
    os_problem,
    pasted,
)
from simtool.pipeline import stitch

TABLES = ("seats", "matches", "leads")
SPEC = "spec.json"
WRITER = "writer.json"
OURS = ("seats.parquet", "matches.parquet", "leads.parquet", "run.json")
"""The files of a finished run, the only top-level names simtool ever replaces."""
INDEX = r"(\d{6}|[1-9]\d{6,})"
"""A chunk's number as simtool writes it: ``{index:06d}``."""
CHUNK_FILE = re.compile(rf"(seats|matches|leads)-{INDEX}\.parquet")
"""A chunk's table: the only files in ``chunks/`` a run reads."""
OUR_CHUNKS = re.compile(rf"(spec|writer)\.json|(seats|matches|leads)-{INDEX}\.parquet(\.damaged)?|"
                        rf"sums-{INDEX}\.json(\.damaged)?|"
                        rf"\.[1-9]\d*-[0-9a-f]{{8}}\.((seats|matches|leads)-{INDEX}\.parquet|sums-{INDEX}\.json)\.tmp|"
                        rf"\.(seats|matches|leads|sums)-{INDEX}\.tmp|\.?[\w.]+\.json\.tmp|"
                        rf"\.(seats|matches|leads)-joined\.tmp")
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
            meta = parse_json((folder / "run.json").read_text())
        except (OSError, ValueError):
            return None
        return "finished" if isinstance(meta, dict) and "simtool" in meta.get("versions", {}) else None
    return "empty" if not any(folder.iterdir()) or _never_started(folder) else None


NOT_STARTED = re.compile(r"writer\.json|(writer|spec)\.json\.tmp")
"""What a run writes in ``chunks/`` before its ``spec.json``: all a run killed then leaves
(:func:`write_json`'s temporary names are ``writer.json.tmp`` and ``spec.json.tmp``)."""


def _never_started(folder: Path) -> bool:
    """A run folder whose run was killed after it took the folder and before it saved what it
    plays (``chunks/`` holding its ``writer.json`` alone): nothing played, nothing of the user's,
    so a new run may start there (it was once "not empty and holds no simtool run" for good)."""
    parts = folder / "chunks"
    try:
        return ([p.name for p in folder.iterdir()] == ["chunks"] and parts.is_dir() and not parts.is_symlink()
                and all(p.is_file() and NOT_STARTED.fullmatch(p.name) for p in parts.iterdir()))
    except OSError:
        return False


def read_record(path: Path) -> str:
    """The text of one of simtool's small records (a ``review.json``, a ``sizes.json``, a
    ``writer.json``), as ``Path.read_text``, where a name that is no regular file (a pipe, a
    device, a link to one) is an :class:`OSError` like a missing one: a pipe there was waited on
    for ever, a link to ``/dev/zero`` read until memory ran out. Opened without waiting, so that
    a pipe is told before anything is read from it."""
    return read_regular(path).decode("utf-8")


def read_regular(path: Path, most: int = -1) -> bytes:
    """The first ``most`` bytes (all, by default) of ``path``, opened without waiting: a name
    that is no regular file (a pipe, a device, a folder, a link to one) is an :class:`OSError`
    before anything is read from it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, a device or a folder)", str(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(most)
    finally:
        os.close(fd)


def parse_json(text: str, written: bool = False):
    """``json.loads``, where nesting too deep for the parser (a file of 100000 ``[``, which raised
    RecursionError out of the command) is a ``ValueError`` like any other text that is not JSON.
    ``written``: every number with a fraction or an exponent, NaN and Infinity too, is an
    :class:`simtool.options.Written`, quoted by an error as the file writes it (``1e400``, not
    the ``inf`` a float makes of it)."""
    hooks = {"parse_float": options.Written, "parse_constant": options.Written} if written else {}
    try:
        return json.loads(text, **hooks)
    except RecursionError:
        raise ValueError("nested too deep") from None


def tables_intact(folder: Path, meta: dict) -> bool:
    """Whether a finished run's tables are those its ``run.json`` records, by their checksums:
    before a plan keeps the run instead of playing it again, as a table changed by hand would
    otherwise be taken as played. A ``run.json`` without checksums (an older simtool's) cannot
    tell, and is trusted as before; checksums of another shape (a string, a list), a ``files``
    list that is not theirs or that leaves out a table on disk were changed by hand: not intact."""
    if played_changed(meta):
        return False  # what it says was played (line-up, rules, seed...) is not what was
    if "sha256" not in meta:
        return True
    sums, names = meta["sha256"], meta.get("files")
    tables = {f"{table}.parquet" for table in TABLES}
    # only the run's own tables are read: a name of another file (``/dev/zero``, a pipe) could
    # make the check read for ever; a name that is no text (a list) raised TypeError: unhashable
    if not (isinstance(sums, dict) and isinstance(names, list)
            and all(isinstance(n, str) and n in tables for n in names) and sorted(names) == sorted(sums)):
        return False
    if any((folder / name).exists() and name not in sums for name in tables):
        return False
    try:
        return all(isinstance(sums[name], str) and (folder / name).is_file()
                   and known_checksum(folder / name) == sums[name] for name in names)
    except OSError:
        return False


_KNOWN: dict[str, tuple[tuple[int, int, int, int], str]] = {}
"""Checksums this process computed or wrote, by path, with the file's identity then: the run a
command writes and then reads (its summary, its report) is not read twice to check it."""


def _identity(path: Path) -> tuple[int, int, int, int]:
    st = path.stat()
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def known_checksum(path: Path) -> str:
    """:func:`file_checksum`, computed once while the file stays the same file, unchanged."""
    key, identity = os.path.abspath(path), _identity(path)
    known = _KNOWN.get(key)
    if known is not None and known[0] == identity:
        return known[1]
    digest = file_checksum(path)
    _KNOWN[key] = (identity, digest)
    return digest


def _remember(path: Path, digest: str) -> None:
    _KNOWN[os.path.abspath(path)] = (_identity(path), digest)


PLAYED = ("game", "players", "lineup", "rules", "unit", "n", "seed", "rotate", "duplicate", "chunk")
"""The ``run.json`` keys that say what the tables hold: which seat played which strategy, under
which rules, on which deals."""
PLAYED_SUM = "played_sha256"
"""The key in ``run.json`` of the checksum of its :data:`PLAYED` keys: a line-up changed by hand
(``balance`` moved from seat 0 to seat 2) was reported above the tables of the seats as played,
balance's figures under another seat's label."""


RECORDED = ("leads", "lead_history", "precision", "precision_cap")
"""The ``run.json`` keys that say what else its tables hold: how many deals (matches) have lead
histories, and by which estimator, as every published metric states beside its figure (edited
to ``sampled: 64``, Drama read "lead histories of 64 deals" from 8), and the ``--precision`` cap
its chunks were cut for, by which two runs are told to share their deals."""
RECORDED_SUM = "recorded_sha256"
"""The key in ``run.json`` of the checksum of its :data:`RECORDED` keys, apart from
:data:`PLAYED_SUM`, so that a run written before it was kept is read as before."""


def _played_sum(meta: dict, keys: tuple[str, ...] = PLAYED) -> str:
    played = {key: meta.get(key) for key in keys}
    return hashlib.sha256(json.dumps(played, sort_keys=True, default=str).encode()).hexdigest()


def played_changed(meta: dict) -> bool:
    """Whether ``run.json``'s :data:`PLAYED` or :data:`RECORDED` keys differ from its checksum
    of them (one written before that checksum has none, and is trusted as before)."""
    return any(key in meta and meta[key] != _played_sum(meta, keys)
               for key, keys in ((PLAYED_SUM, PLAYED), (RECORDED_SUM, RECORDED)))


def check_intact(run_dir: Path, meta: dict) -> None:
    """Refuse a finished run whose tables are not those its ``run.json`` records (another run's
    ``seats.parquet`` copied in: the same shape, other deals), before a report calls them its."""
    if not tables_intact(run_dir, meta):
        if played_changed(meta):
            raise SimtoolError(f"{run_dir}: its run.json was changed since the run wrote it (what it says "
                               f"was played: {', '.join(PLAYED + RECORDED)}); its tables are not of that run: "
                               f"put it back, or run it again")
        missing, changed = damaged_tables(run_dir, meta)
        if missing:  # a deleted leads.parquet was said to be one whose SHA-256 differs
            them = "them" if len(missing) > 1 else "it"
            raise SimtoolError(f"{run_dir}: {', '.join(missing)} {'are' if len(missing) > 1 else 'is'} missing "
                               f"(its run.json records {them}): moved or deleted since the run wrote {them}; "
                               f"put {them} back, or run it again")
        which = ", ".join(changed) + (" are" if len(changed) > 1 else " is") if changed else "its tables are"
        raise SimtoolError(f"{run_dir}: {which} not what its run.json records (the SHA-256 differs): changed "
                           f"or replaced since the run wrote it; run it again")


def damaged_tables(run_dir: Path, meta: dict) -> tuple[list[str], list[str]]:
    """The tables a run's ``run.json`` records that are not there (nothing of that name), and
    those that fail their checksum (a folder in a table's place among them: it was said to be
    missing, moved or deleted), named for the user to look at."""
    sums = meta.get("sha256")
    names = [name for name in sums if isinstance(name, str)] if isinstance(sums, dict) else []
    missing = [name for name in names if not (run_dir / name).exists()]
    try:
        changed = [name for name in names if name not in missing and (
            not (run_dir / name).is_file() or known_checksum(run_dir / name) != sums[name])]
    except OSError:
        changed = []
    return missing, changed


SPEC_SUM = "sha256"
"""The key in ``chunks/spec.json`` of the checksum of the rest of it (:func:`_spec_sum`)."""
PLAYED_BY = "played_by"
"""The key in ``chunks/spec.json`` of the versions that played its chunks (:func:`played_by`)."""


def played_by() -> dict:
    """The versions whose code decides a chunk's values: simtool's rules and strategies, numpy's
    generators (whose streams a release may change)."""
    return {"simtool": simtool_version(), "numpy": np.__version__}


@functools.cache
def simtool_version() -> str:
    """The installed simtool's version, looked up once a process: the code running is the one
    imported, whatever is installed since, and each look-up scans the installation (0.24 ms to
    tens of ms), twice for every cell a review plays (its spec.json and its run.json)."""
    from importlib.metadata import version

    return version("simtool")


INSTALLED = "installed_by"
"""The key in ``chunks/spec.json`` of the installed games and strategies that played its chunks
(:func:`installed_by`), where the run plays any."""


def installed_by(spec: dict, imported_as_now: bool = True) -> dict[str, str]:
    """The installed packages' game and strategies a run (its specification) plays, each with
    :func:`simtool.games.installed_version`: a package updated (or edited, installed with
    ``pip install -e``) between a run's chunks is another version, as a changed plugin file is.
    Built-in names and plugin files are asked nothing (a plugin file has its own checksum).
    ``imported_as_now``: refuse a package this process imported in another version."""
    import strategies

    found = {}
    game = spec.get("game")
    if isinstance(game, str) and game not in {g.id for g in games.BUILT_IN}:
        version = games.installed_version("simtool.games", game, imported_as_now)
        if version is not None:
            found[f"game {game}"] = version
    built_in = {s.name for s in strategies.BUILT_IN}
    lineup = spec.get("lineup")
    entries = lineup if isinstance(lineup, (list, tuple)) else ()
    for base in dict.fromkeys(name for entry in entries for name in _strategies_named(str(entry))):
        if base not in built_in and strategies.plugin_file(base) is None:
            version = games.installed_version("simtool.strategies", base, imported_as_now)
            if version is not None:
                found[f"strategy {base}"] = version
    return found


def _strategies_named(entry: str, nested: bool = False) -> list[str]:
    """The strategy of line-up ``entry`` and the installed ones its parameters name (a search's
    play-out policy, ``pimc@playout=NAME``, plays as much as the entry: it was not recorded)."""
    import strategies
    from strategies import restrictions

    base, params = strategies.split(restrictions.split(entry)[0])
    found = [] if nested and base not in games.claimed_by("simtool.strategies") else [base]
    return found + [name for value in params.values() for name in _strategies_named(value, nested=True)]


def _installed_recorded(parts: Path) -> dict | None:
    """What ``chunks/spec.json`` recorded of the installed games and strategies (:func:`installed_by`)."""
    try:
        found = parse_json((parts / SPEC).read_text()).get(INSTALLED)
    except (OSError, ValueError, AttributeError):
        return None
    return found if isinstance(found, dict) else None


def played_now(meta: dict) -> bool:
    """Whether a finished run's ``run.json`` names the versions this process plays with, the
    installed games and strategies too (none recorded before 2026-11-27: as then): a plan keeps a
    finished cell only then, so that one report never sets cells of two versions side by side as
    if one had played them."""
    versions, installed = meta.get("versions"), meta.get(INSTALLED)
    return (isinstance(versions, dict) and {k: versions.get(k) for k in ("simtool", "numpy")} == played_by()
            and (not isinstance(installed, dict) or installed == installed_by(meta)))


def schema_of(path) -> pl.Schema:
    """The columns of the table in ``path``, read from its footer. Every reader of a path passes
    ``glob=False`` (read_parquet_schema takes none): polars read ``runs[1]`` as a pattern of one
    character, matched no file, and a table simtool had just written was "truncated or damaged"."""
    return pl.scan_parquet(native(path), glob=False).collect_schema()


def native(path) -> str:
    """``path`` as polars (and SQLite) open it: Rust takes a name as UTF-8 text, so a name this
    Python decoded under a locale that is not UTF-8 (``LC_ALL=C``: ``dé`` as two escaped bytes) is
    given as the UTF-8 it is on disk. A name whose bytes are not UTF-8 is one line naming it."""
    raw = os.fsencode(path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SimtoolError(f"cannot use the path {ascii(os.fsdecode(raw))[1:-1]}: its name is not UTF-8 "
                           f"text, which the table writer needs; rename it, or choose another path") from None


def other_deals(a: dict, b: dict) -> str | None:
    """Why run ``b`` (its ``run.json``) did not play run ``a``'s deals, or ``None``. Deal ``i`` is
    drawn from its chunk's own stream, by the shuffle of one simtool with one numpy's generators:
    one seed plays the same deals only with the same n, chunks and versions too."""
    for key in ("game", "players", "unit", "seed", "n", "duplicate"):
        if a.get(key) != b.get(key):
            return f"{key} {b.get(key)} against {a.get(key)}"
    unit = "deals" if a.get("unit") == "deal" else "matches"
    if a.get("chunk") != b.get("chunk"):
        return f"chunks of {b.get('chunk', 0):,} {unit} against {a.get('chunk', 0):,}"
    drawn = _last_drawn(b), _last_drawn(a)
    if drawn[0] != drawn[1]:
        return (f"its last chunk drawn as {drawn[0] or 0:,} {unit} against {drawn[1] or 0:,}: "
                f"a --precision run draws whole chunks up to its cap")
    for name in ("simtool", "numpy"):
        made = [m["versions"].get(name) for m in (b, a)]
        if made[0] != made[1]:
            return f"played by {name} {made[0]} against {made[1]}"
    return None


CARD_FIELDS = ("hands", "tableau", "kitty", "dealt")
"""The fields of a dealt round that hold its cards (the games name them so; a designer game's
round without any is not told apart: :func:`dealt_alike` says ``None``)."""


def dealt_alike(a: dict, b: dict) -> bool | None:
    """Whether the runs of ``a`` and ``b`` (their ``run.json``), of one seed, deal the same cards:
    a rule that changes the deck or the hands (Black & White's ``deck=30`` against 36) deals other
    cards from the same stream. Told from the first round of 16 deals under each rule set;
    ``None`` where it cannot be told."""
    if a["rules"] == b["rules"]:
        return True
    try:
        game = games.get(a["game"])
        rounds = [game.deal(np.random.default_rng(0), game.new_match(16, m["players"], m["rules"]), 0)
                  for m in (a, b)]
    except Exception:  # a designer game's deal failing here is no reason to refuse a review or report
        return None
    cards = [[np.asarray(getattr(r, f)) for r in rounds] for f in CARD_FIELDS
             if all(isinstance(getattr(r, f, None), np.ndarray) for r in rounds)]
    if not cards:
        return None
    return all(x.shape == y.shape and np.array_equal(x, y) for x, y in cards)


def _last_drawn(meta: dict) -> int | None:
    """How many deals (matches) the chunk holding a run's last one drew: a chunk of another
    length deals other cards from the same stream. A plain run's last chunk holds what is left of
    n; a ``--precision`` run draws its chunks for its cap and keeps their first n (1,024 deals of
    a whole first chunk: a plain run of 1,024 deals played others, and was "paired" with it)."""
    n, chunk = meta.get("n"), meta.get("chunk")
    drawn = meta.get("precision_cap") if meta.get("precision") else n
    if not all(isinstance(x, int) and x > 0 for x in (n, chunk, drawn)):
        return None
    return min(chunk, drawn - (n - 1) // chunk * chunk)


def versions_said(made: dict) -> str:
    return " with ".join(f"{name} {made.get(name)}" for name in ("simtool", "numpy"))


def spec_intact(data: dict) -> bool:
    """Whether a saved run specification is as its run wrote it (its checksum, :data:`SPEC_SUM`,
    taken out): one without a checksum, from a simtool before 2026-11-26, is trusted as then."""
    recorded = data.pop(SPEC_SUM, None)
    return recorded is None or recorded == _spec_sum(data)


def _spec_sum(spec: dict) -> str:
    """The checksum of a saved run specification: a resume refuses a ``spec.json`` changed by
    hand (another seed, another n), whose chunks played before would otherwise be joined with
    chunks played under the new values into one table that no run plays."""
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


class FolderLock:
    """An exclusive lock on a run folder for as long as one process writes it.

    ``flock`` on the folder itself: the kernel drops it when the process ends however it ends,
    so a killed run never leaves a stale lock. Who holds it is written to ``chunks/writer.json``.
    A forked worker closes its copy at once: the lock must go with the process that took it,
    not live on in a worker finishing its chunk.
    """

    held: weakref.WeakSet[FolderLock] = weakref.WeakSet()

    def __init__(self, folder: Path, what: str = "run", record: Path | None = None):
        """``what`` writes there (a run, a review), and ``record`` is where it says who it is
        (default ``chunks/writer.json``)."""
        self.folder = folder
        record = folder / "chunks" / WRITER if record is None else record
        self.fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise SimtoolError(f"output folder {folder} is being written by another simtool {what} "
                               f"({_holder(record)}); wait for it to end or choose another folder") from None
        except OSError:
            # a filesystem that cannot lock a folder (NFSv4 takes an exclusive flock for a write
            # lock, refused on a folder as EBADF; others say ENOLCK, EOPNOTSUPP): every run, sweep
            # and review there was "cannot write to output folder X: Bad file descriptor". It is
            # written unlocked, as before simtool had locks: a second writer there is not refused
            os.close(self.fd)
            self.fd = None
        FolderLock.held.add(self)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    @classmethod
    def forget_in_child(cls) -> None:
        for lock in list(cls.held):
            lock.release()


os.register_at_fork(after_in_child=FolderLock.forget_in_child)


def _holder(record: Path) -> str:
    try:
        who = parse_json(read_record(record))
        # a pid of another machine (a cluster's shared folder) was named as if of this one
        at = "" if who.get("host") in (None, socket.gethostname()) else f" on {who['host']}"
        return f"pid {who['pid']}{at}, started {who['started']}: {who['command']}"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):  # a record that is JSON but no object
        return "details unknown"


class RunWriter:
    """Writes one run folder. ``spec`` (a dict) is saved first, so that an interrupted run can be
    resumed: finished chunks stay in ``chunks/`` until the run completes. ``again``: how its
    refusals say to play it again from scratch ("in a new --out": a tuning's or a review's cell
    has no ``--force``); by default ``with --force`` (``force=True`` from Python)."""

    def __init__(self, out: Path, force: bool = False, spec: dict | None = None,
                 resume: bool = False, again: str | None = None):
        self.out = Path(out)
        self.resume = resume
        self.again = again or f"with {forcing()}"
        self.lock = None
        self.written: set[Path] = set()
        kind = run_kind(self.out)
        if self.out.is_dir():
            # a run writing there is named as one: before, a folder another run was writing was
            # "an interrupted run" to go on with --resume, or one not yet started "no simtool run"
            try:
                FolderLock(self.out).release()
            except OSError:  # a folder it cannot open: named where the writer takes its lock below
                pass
        self.parts = self.out / "chunks"
        # --force cleared simtool's chunk names in the folder it leads to; checked before the
        # folder's kind, whose "finish it with --resume, or replace it with --force" both met this
        if self.parts.is_symlink():
            raise SimtoolError(f"{self.parts} is a link to {os.readlink(self.parts)}: simtool writes and removes "
                               f"chunks only in a folder of the run's own; remove the link, or choose another "
                               f"folder")
        if kind is None:
            if resume:  # not a folder to write a new run in either: there is no run to go on with
                raise SimtoolError(f"nothing to resume in {self.out}: it is "
                                   + ("a file" if not self.out.is_dir() else "a folder holding no simtool run")
                                   + "; --resume takes the folder of an interrupted run")
            if not self.out.is_dir():  # it was "not empty and holds no simtool run", of a file
                raise SimtoolError(f"output folder {self.out} is a file; choose a new or empty folder for "
                                   f"the run (simtool never writes over other files)")
            raise SimtoolError(f"output folder {self.out} is not empty and holds no simtool run; "
                               f"choose a new or empty folder (simtool never writes over other files)")
        if resume:
            if kind != "interrupted":
                raise SimtoolError(f"nothing to resume in {self.out}: "
                                   + ("it holds a finished run" if kind == "finished"
                                      else f"no chunks/{SPEC} from an interrupted run"))
        elif kind == "finished" and not force:
            raise SimtoolError(f"output folder {self.out} already holds a run; use {forcing()} to replace it")
        elif kind == "interrupted" and not force:
            # simtool.run has no resume: from Python the command that finishes it, as unfinished() says
            folder = pasted(self.out)
            finish = option("resume", folder) if COMMAND_LINE.get() else f"simtool run --resume {folder}"
            raise SimtoolError(f"output folder {self.out} holds an interrupted run; finish it with "
                               f"{finish}, or replace it with {forcing()}")
        if not resume:  # asked before anything is made or cleared: it refuses a game edited since it was imported
            plain = {**json.loads(json.dumps(spec or {}, default=str)), PLAYED_BY: played_by()}
            if installed := installed_by(plain):
                plain[INSTALLED] = installed
        self.created = not self.out.exists()
        self.joining: Joining | None = None
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self.lock = FolderLock(self.out)
            if resume:
                self._same_versions()
            # who writes, before a replaced run's files go (run.json first, so that it never looks
            # complete meanwhile): a reader then was told "seats.parquet is missing; the run folder
            # is incomplete: run it again", or "not a finished run folder", not that a run was being written
            self.parts.mkdir(exist_ok=True)
            write_json(self.parts / WRITER, writer_record())
            if not resume:
                self._clear()
                named = {**plain, NAMED: True}
                write_json(self.parts / SPEC, {**named, SPEC_SUM: _spec_sum(named)})
        except OSError as exc:
            self._release()
            raise SimtoolError(f"cannot write to output folder {self.out}: {os_problem(self.out, exc)}") from None
        except BaseException:
            self._release()
            raise

    def _same_versions(self) -> None:
        """A resume plays on with the versions that played the chunks on disk: chunks of two
        versions joined are a table that no one version plays (none recorded before 2026-11-26:
        trusted as then; an unreadable spec.json is :meth:`spec`'s to report)."""
        try:
            saved = parse_json((self.parts / SPEC).read_text())
            made = saved.get(PLAYED_BY)
        except (OSError, ValueError, AttributeError):
            return
        if made is not None and made != played_by():
            raise SimtoolError(f"cannot resume {self.out}: its chunks were played by {versions_said(made)}, "
                               f"this is {versions_said(played_by())}; one run plays one version: resume it "
                               f"with that version, or play it again {self.again}")
        if not isinstance(saved.get(INSTALLED), dict):  # none played, or recorded before 2026-11-27: as then
            return
        # what played the chunks against what is installed now, which says more than "changed
        # since this process imported it"
        before, now = saved[INSTALLED], installed_by(saved, imported_as_now=False)
        changed = [name for name in sorted(before.keys() | now.keys()) if before.get(name) != now.get(name)]
        if changed:
            name = changed[0]
            raise SimtoolError(f"cannot resume {self.out}: installed {name} changed since its chunks were "
                               f"played (then {before.get(name, 'not recorded')}; now "
                               f"{now.get(name, 'not installed')}); one run plays one version: resume it with "
                               f"that version, or play it again {self.again}")

    def _clear(self) -> None:
        for name in reversed(OURS):  # run.json first
            (self.out / name).unlink(missing_ok=True)
            (self.out / f"{name}.tmp").unlink(missing_ok=True)
        self._clear_chunks(keep=WRITER)

    def _clear_chunks(self, keep: str | None = None) -> None:
        if not self.parts.is_dir():
            return
        for f in self.parts.iterdir():
            if f.is_file() and OUR_CHUNKS.fullmatch(f.name) and f.name != keep:
                f.unlink()
        if not any(self.parts.iterdir()):
            self.parts.rmdir()

    def _release(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def spec(self) -> dict:
        try:
            data = parse_json((self.parts / SPEC).read_text())
        except (OSError, ValueError) as exc:
            raise SimtoolError(f"cannot resume {self.out}: chunks/{SPEC} is unreadable ({exc})") from None
        if not isinstance(data, dict):
            raise SimtoolError(f"cannot resume {self.out}: chunks/{SPEC} is not a run specification")
        if not spec_intact(data):
            raise SimtoolError(f"cannot resume {self.out}: chunks/{SPEC} was changed since the run "
                               f"started (its finished chunks were played with what it said then); "
                               f"put it back, or play the run again {self.again}")
        data.pop(PLAYED_BY, None)  # checked as the folder was opened
        data.pop(INSTALLED, None)
        data.pop(NAMED, None)
        return data

    def done(self, unit: str, rows, span, count: int, leads: bool = False,
             columns: dict[str, set[str]] | None = None) -> set[int]:
        """Chunks whose tables are all on disk and whole, among the run's ``count``. ``rows(name,
        index)`` is the row count table ``name`` of chunk ``index`` must have (``None``: any), and
        ``span(index)`` its first deal (match) and how many it holds: a chunk whose numbers lie
        elsewhere (another chunk's files copied under its name), or played by another run (its
        checksum file names that run's ``spec.json``), is played again. A
        damaged file (a truncated copy, a disk that filled up, values changed by hand: its
        checksum differs from the one written with it) is renamed ``*.damaged`` and its chunk
        played again. Only simtool's own chunk names are read: a user's copy beside them
        (``seats-000001-backup.parquet``) is left alone, and named in ``run.json``. ``leads``:
        the run records lead histories, so a chunk is whole only with its ``leads`` file.
        ``columns``: the columns each table must have (:func:`recorded_columns`): a chunk an
        earlier simtool of the same version number played without one (Out-Trumped's
        ``out_trumped``) is played again, where joined with the new chunks it failed the run's end."""
        names = ("seats", "matches")[:2 if unit == "match" else 1] + (("leads",) if leads else ())
        found = {index for name in names for index in self.chunk_files(name, count)}
        files = {index: {name: self.parts / f"{name}-{index:06d}.parquet" for name in names} for index in found}
        whole = _whole(files, rows, columns or {}, ("deal" if unit == "deal" else "match", span))
        for index in found - whole:
            for f in [*files[index].values(), self.parts / f"sums-{index:06d}.json"]:
                if f.exists():
                    aside = f.with_name(f.name + ".damaged")
                    try:
                        os.replace(f, aside)
                    except OSError as exc:  # the name taken by a folder, a read-only chunks/
                        raise SimtoolError(f"cannot resume {self.out}: cannot set the damaged "
                                           f"chunks/{f.name} aside as {aside.name} ({why(exc)}); "
                                           f"move it out of chunks/ and resume again") from None
        return whole

    def chunk_files(self, name: str, count: int) -> dict[int, Path]:
        """Table ``name`` of each chunk below ``count`` on disk, by index, in index order."""
        found = {}
        for f in self.parts.iterdir():
            match = CHUNK_FILE.fullmatch(f.name)
            if match and match[1] == name and int(match[2]) < count and f.is_file():
                found[int(match[2])] = f
        return dict(sorted(found.items()))

    def left_alone(self) -> list[str]:
        """Files in ``chunks/`` that simtool did not write: never read, moved or deleted."""
        if not self.parts.is_dir():
            return []
        return sorted(f.name for f in self.parts.iterdir() if not OUR_CHUNKS.fullmatch(f.name))

    def read_chunk(self, index: int, unit: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """The tables of a chunk already on disk (a resumed run's earlier work)."""
        seats = pl.read_parquet(native(self.parts / f"seats-{index:06d}.parquet"), glob=False)
        return seats, (pl.read_parquet(native(self.parts / f"matches-{index:06d}.parquet"), glob=False)
                       if unit == "match" else None)

    def join_as_played(self, done: set[int]) -> None:
        """Join the whole tables while the chunks are played (:class:`Joining`); ``done``: the
        chunks on disk already (a resumed run's)."""
        self.joining = Joining(self.parts, done)

    def played(self, index: int) -> None:
        """Chunk ``index`` is whole on disk."""
        if self.joining is not None:
            self.joining.played(index)

    def _drop_joins(self) -> None:
        if self.joining is not None:
            self.joining.discard()
            self.joining = None

    def finish(self, meta: dict, limit: tuple[str, int] | None = None) -> dict:
        """The whole tables and ``run.json``, whose contents it returns; ``limit`` ``(key, n)``
        keeps the rows of the first ``n`` deals (or matches), where ``--precision`` stopped within
        a chunk. The tables are made of chunks ``0 .. n / chunk`` of ``meta``, every one of them,
        and nothing else."""
        written, sums = {}, {}
        tmp = None
        count = -(-meta["n"] // meta["chunk"])
        try:
            for name in TABLES:
                parts = list(self.chunk_files(name, count).values())
                if parts and len(parts) != count:
                    raise SimtoolError(f"cannot finish {self.out}: chunks/ holds {len(parts)} of the "
                                       f"run's {count} {name} chunks (were some removed?)")
                if parts:
                    final = self.out / f"{name}.parquet"
                    tmp = final.with_suffix(".parquet.tmp")
                    joined = self.joining.whole(name, count) if self.joining and limit is None else None
                    try:
                        if joined is not None:  # joined while the chunks were played
                            tmp, sums[final.name] = joined
                        else:
                            join_chunks(parts, tmp, limit, self.parts / f".{name}-{count - 1:06d}.tmp")
                            sums[final.name] = file_checksum(tmp)
                        os.replace(tmp, final)
                        _remember(final, sums[final.name])
                    except write_errors() as exc:
                        raise cannot_write(final, exc) from None
                    except BaseException:
                        tmp.unlink(missing_ok=True)
                        raise
                    written[name] = final
            meta = {**meta, "files": sorted(p.name for p in written.values()), "sha256": sums}
            if installed := _installed_recorded(self.parts):  # for played_now, once chunks/ is gone
                meta[INSTALLED] = installed
            read_back = json.loads(json.dumps(meta, default=str))
            meta[PLAYED_SUM], meta[RECORDED_SUM] = (_played_sum(read_back, keys) for keys in (PLAYED, RECORDED))
            if self.left_alone():
                meta["left_alone"] = [f"chunks/{name}" for name in self.left_alone()]
            write_json(self.out / "run.json", meta)
        except BaseException:  # a full disk, Ctrl-C: no table may stay behind without its run.json
            for path in [tmp, *written.values()]:
                if path is not None:
                    path.unlink(missing_ok=True)
            self._drop_joins()
            raise
        self._drop_joins()
        self._clear_chunks()
        self._release()
        return meta

    def abort(self) -> None:
        """After a failure: a new run takes back what it wrote; a resumed run leaves ``chunks/``
        as it found it, so the work done before is never lost."""
        self._drop_joins()
        if self.resume:
            (self.parts / WRITER).unlink(missing_ok=True)
        else:
            self._clear_chunks()
            if self.created and self.out.exists() and not any(self.out.iterdir()):
                self.out.rmdir()
        self._release()

    def interrupted(self) -> None:
        """Ctrl-C: finished chunks stay for ``--resume``; only the lock goes (and the tables
        being joined, which a resume joins again)."""
        self._drop_joins()
        (self.parts / WRITER).unlink(missing_ok=True)
        self._release()


class Joining:
    """The whole tables of a run joined while its chunks are played, in chunk order, each chunk
    as soon as it and every chunk before it are on disk (:class:`simtool.pipeline.stitch.Joiner`,
    into ``chunks/.NAME-joined.tmp``): joining and checksumming 300 chunk files after the
    workers ended was the serial end of every run, 35 ms of a 1e6-deal Black & White run. The
    main process does it while it waits for the next chunk. Only an accelerator: where it gave
    up (a chunk's tables not alike the others, a full disk) or does not hold every chunk of a
    table, :meth:`RunWriter.finish` joins the chunk files as before."""

    def __init__(self, parts: Path, done: set[int]):
        self.parts, self.ready, self.next = parts, set(done), 0
        self.joiners: dict[str, stitch.Joiner] = {}

    def played(self, index: int) -> None:
        self.ready.add(index)
        while self.next in self.ready:
            self.ready.discard(self.next)
            found = [n for n in TABLES if (self.parts / f"{n}-{self.next:06d}.parquet").is_file()]
            if self.next == 0:
                self.joiners = {n: stitch.Joiner(self.parts / f".{n}-joined.tmp") for n in found}
            if sorted(found) != sorted(self.joiners):  # a table missing or new: joined otherwise
                self.discard()
                return
            for name, joiner in self.joiners.items():
                joiner.add(self.parts / f"{name}-{self.next:06d}.parquet")
            self.next += 1

    def whole(self, name: str, count: int) -> tuple[Path, str] | None:
        """Table ``name`` joined from all ``count`` chunks, and its checksum: ``None`` where
        it was not (then the caller joins the chunk files)."""
        joiner = self.joiners.get(name)
        if joiner is None or self.next != count or joiner.parts != count:
            return None
        digest = joiner.close()
        return None if digest is None else (joiner.dest, digest)

    def discard(self) -> None:
        for joiner in self.joiners.values():
            joiner.discard()
        self.ready.clear()
        self.next = -1  # never whole


CHUNK_WRITE = {"compression": "zstd", "compression_level": 1, "statistics": False}
"""How every chunk file is written, and so the whole tables joined from them: zstd level 1 (15-20%
less time than the default level 3 for 13% more bytes); no column statistics (40% of a write, and
every reader scans whole tables: nothing is skipped by a row group's min and max)."""


def join_chunks(parts: list[Path], dest: Path, limit: tuple[str, int] | None, spare: Path) -> None:
    """One table in ``dest`` from the chunk files ``parts``, in order: their row groups copied
    (:mod:`simtool.pipeline.stitch`), so that the main process's work and memory do not grow
    with the chunks' rows. ``limit`` ``(key, n)``: rows of the first ``n`` deals (or matches)
    only, which cuts into the last chunk alone (written to ``spare`` first). Chunk files that
    cannot be joined by copying (written otherwise) are re-encoded, streaming."""
    try:
        if limit is not None:
            last = pl.read_parquet(native(parts[-1]), glob=False)
            if last.filter(pl.col(limit[0]) >= limit[1]).height:
                last.filter(pl.col(limit[0]) < limit[1]).write_parquet(native(spare), **CHUNK_WRITE)
                parts = [*parts[:-1], spare]
        if stitch.stitch(parts, dest):
            return
        whole = pl.scan_parquet([native(part) for part in parts], glob=False)
        (whole.filter(pl.col(limit[0]) < limit[1]) if limit else whole).sink_parquet(native(dest), **CHUNK_WRITE)
    finally:
        spare.unlink(missing_ok=True)


def _whole(files: dict[int, dict[str, Path]], rows, columns: dict[str, set[str]], span) -> set[int]:
    """The chunks whose every file reads whole, with the rows it must have and the checksum
    written with it (a file changed by hand, valid parquet with other values, would otherwise be
    joined into the tables as if played). Read in a forked
    child where polars may run there (:func:`simtool.pipeline.forked.polars_forks`): reading
    them here would start polars' threads in this process before it forks the workers, and the
    resumed run's workers could then not make their own tables."""
    from simtool.pipeline import forked

    def check() -> set[int]:
        parts = next(iter(next(iter(files.values())).values())).parent
        run, every = _run_of(parts)

        def ok(i: int, named: dict[str, Path]) -> bool:
            sums = chunk_sums(parts, i)
            # another run's chunk; one naming none is trusted only in a run begun before 2026-11-28
            if sums.get(RUN_KEY) != run and (RUN_KEY in sums or every):
                return False
            numbers = (span[0], *span[1](i))
            return all(_readable(f, rows(n, i), sums.get(n), columns.get(n, set()), numbers)
                       for n, f in named.items())

        whole = {i for i, named in files.items() if ok(i, named)}
        return whole - _odd_schema({i: files[i] for i in whole})

    return set(forked.where_polars_may_run(lambda: sorted(check()))) if files else set()


def _odd_schema(files: dict[int, dict[str, Path]]) -> set[int]:
    """The chunks with a table whose columns or types differ from those most chunks share: a
    file another run or program put there reads whole, yet cannot be joined with the others
    (its chunk is played again, like a damaged one)."""
    odd = set()
    for name in {n for named in files.values() for n in named}:
        # in index order: of two schemas as common, the earlier chunk's is kept
        schemas = {i: tuple(schema_of(files[i][name]).items()) for i in sorted(files)}
        shared = Counter(schemas.values()).most_common(1)[0][0]
        odd |= {i for i, schema in schemas.items() if schema != shared}
    return odd


def _readable(path: Path, rows: int | None, expected: str | None, need: set[str],
              numbers: tuple[str, int, int]) -> bool:
    """Whether the chunk file reads whole, with ``rows`` rows (``None``: any), every column of
    ``need``, the checksum ``expected`` written with it (``None``: none was, so it is not known
    to be whole) and, ``numbers`` being ``(key, start, count)``, every ``key`` (deal or match
    number) within ``start`` and ``start + count``."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if expected is None or checksum(data) != expected:
        return False
    try:
        table = pl.read_parquet(io.BytesIO(data))
    except Exception:  # polars raises several kinds for a damaged file
        return False
    if numbers[0] in table.columns and table.height:
        # chunk 2's files and sums copied as chunk 10's read whole with their checksum: joined,
        # the run ended "finished" with deals 65536.. twice, which every reader then refused
        key, start, count = numbers
        if not start <= table[key].min() <= table[key].max() < start + count:
            return False
    return (rows is None or table.height == rows) and need <= set(table.columns)


def writer_record() -> dict:
    """Who holds a :class:`FolderLock`, as its record says: this process, when and by what command."""
    return {"pid": os.getpid(), "host": socket.gethostname(), "started": f"{datetime.now():%Y-%m-%d %H:%M:%S}",
            "command": " ".join(_argv())}


HOLDER = ".writer.json"
"""Who is writing a folder of several runs (a plan's root, a review) now: the process holding its
lock (a run folder's is ``chunks/writer.json``)."""


def refuse_if_held(folder: Path, what: str) -> None:
    """Refuse, naming it, a folder another simtool command is writing (``what``: the kind of
    command that writes such a folder), before a check that would mistake its work for an
    unfinished or a stranger's."""
    if folder.is_dir():
        try:
            FolderLock(folder, what, folder / HOLDER).release()
        except OSError:  # a folder it cannot open: named where it is written
            pass


def hold(folder: Path, what: str) -> FolderLock:
    """Lock ``folder`` (made if need be) while this command writes it, and say who holds it in
    :data:`HOLDER`; :func:`let_go` ends both."""
    lock = FolderLock(folder, what, folder / HOLDER)
    try:
        write_json(folder / HOLDER, writer_record())
    except BaseException:
        lock.release()
        raise
    return lock


def let_go(lock: FolderLock) -> None:
    """The end of :func:`hold`: its record first, while the folder is still ours."""
    try:
        (lock.folder / HOLDER).unlink(missing_ok=True)
    except OSError:
        # a folder gone read-only: the record stays, read as no one's once the lock is gone (it
        # raised out of the finished plan, and the folder stayed locked for the rest of the process)
        pass
    finally:
        lock.release()


def _argv() -> list[str]:
    import sys

    return [Path(sys.argv[0]).name, *sys.argv[1:]] if sys.argv else ["python"]


def write_errors() -> tuple[type[Exception], ...]:
    """What a write to a full (or vanished) disk raises: polars wraps the OS error in its own.
    (A function: polars loads on first use in the command line, see simtool.lazy.)"""
    return OSError, pl.exceptions.PolarsError


def why(exc: BaseException) -> str:
    """The reason of a failed write, on one line: "No space left on device"."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    return text.rpartition("IO error: ")[2] or type(exc).__name__


FULL = (errno.ENOSPC, errno.EDQUOT)
"""A full disk and a full quota: room the user can make, then resume."""


def cannot_write(path, exc: BaseException) -> SimtoolError:
    """The one error for a failed write of ``path``: :class:`DiskFull` (the chunks are kept for
    ``--resume``) where the disk or quota is full, as the OS or polars (in its own words) says."""
    full = (isinstance(exc, OSError) and exc.errno in FULL) or any(
        os.strerror(e) in str(exc) for e in FULL)
    return (DiskFull if full else SimtoolError)(f"cannot write {path}: {why(exc)}")


def write_together(files: dict[Path, str], what: str) -> None:
    """Text files that belong together (a table's Markdown, JSON and CSV; a review's page and
    data), each written whole under a temporary name first and all renamed into place only once
    every one is written, in order: a full disk or Ctrl-C leaves the earlier set, never one file
    new and another cut short. ``what`` names them in the one-line error."""
    temps = {path: _temp_name(path) for path in files}
    try:
        for folder in dict.fromkeys(path.parent for path in files):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # a link above it broken since the command began: named, not "File exists"
                raise SimtoolError(f"cannot write {what}: {os_problem(folder, exc)}") from None
            clear_dead_temps(folder)
        for path, text in files.items():
            # a name this Python decoded from the system (LC_ALL=C) is written as its own bytes
            temps[path].write_text(text, encoding="utf-8", errors="surrogateescape")
        for path in files:
            os.replace(temps[path], path)
    except OSError as exc:
        raise SimtoolError(f"cannot write {what}: {why(exc)}") from None
    finally:
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)


TEMP_NAME = re.compile(r"\.([1-9][0-9]*)-[0-9a-f]{8}\..+\.tmp", re.DOTALL)
""":func:`_temp_name`'s names: the writer's pid, 4 random bytes in hex, the file's name."""


DEAD_TEMP_AGE = 3600
"""Seconds since a temporary file was last written before :func:`clear_dead_temps` may take it
as a killed writer's: a writer holds its temporaries for the seconds it takes to write them, and
a pid that does not run here may run elsewhere (a writer on another machine sharing the folder,
or in a container, whose pids this process cannot see)."""


def clear_dead_temps(folder: Path) -> None:
    """Remove the temporary files that writers killed outright (SIGKILL, a power cut) left in
    ``folder``: plain files of :func:`_temp_name`'s pattern whose writer's pid no longer runs
    here, untouched for :data:`DEAD_TEMP_AGE`. Nothing else is touched: not the user's files, nor
    a live writer's."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return  # an unreadable folder: the write itself says what is wrong
    for entry in entries:
        found = TEMP_NAME.fullmatch(entry.name)
        try:
            if found and entry.is_file(follow_symlinks=False) and not alive(int(found[1])) \
                    and time.time() - entry.stat(follow_symlinks=False).st_mtime > DEAD_TEMP_AGE:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already (another writer cleared it), or not ours to remove


def _temp_name(path: Path) -> Path:
    """A temporary name beside ``path`` that no other writer uses: two commands writing one report
    at once (``simtool report -o same.html`` twice) each wrote ``.same.html.tmp``, the one's file cut
    short or renamed away by the other's. The name is cut to stay within a file name's 255 bytes."""
    end = os.fsdecode(os.fsencode(path.name)[-200:])  # its end: `.json.tmp` still says what it is
    return path.with_name(f".{os.getpid()}-{os.urandom(4).hex()}.{end}.tmp")


class Encoded(bytes):
    """A chunk file's bytes with their :func:`checksum`, taken where they were encoded (a dask
    worker): the process that writes them then need not read them again."""

    sum: str


def encode_chunk(table: pl.DataFrame) -> Encoded:
    """A chunk file's bytes, as :func:`write_chunk` writes the table (a dask worker sends these),
    with their checksum."""
    buffer = io.BytesIO()
    table.write_parquet(buffer, **CHUNK_WRITE)
    data = Encoded(buffer.getvalue())
    data.sum = checksum(data)
    return data


def write_chunk(parts: Path, index: int, **named: pl.DataFrame | bytes | None) -> None:
    """One chunk's tables (or their bytes from :func:`encode_chunk`) as part files, each written
    under a temporary name and renamed into place whole: by the process that played the chunk (a
    forked worker, see :mod:`simtool.pipeline.runner`), or by this one. Encoded as the whole
    tables will be (:data:`CHUNK_WRITE`), which are joined from them without re-encoding. Then the
    checksum of every file, last (:func:`chunk_sums`): a chunk without it is not finished."""
    sums = {}
    for name, table in named.items():
        if table is not None:
            data = table if isinstance(table, bytes) else encode_chunk(table)
            _write_atomic(parts / f"{name}-{index:06d}.parquet", data)
            # bytes that came without their checksum (or lost it on the way) are summed here
            sums[name] = getattr(data, "sum", None) or checksum(data)
    if run := _run_of(parts)[0]:
        sums[RUN_KEY] = run
    _write_atomic(parts / f"sums-{index:06d}.json", json.dumps(sums, sort_keys=True).encode())


RUN_KEY = "run"
"""The key in a chunk's checksum file of the run that played it (its ``spec.json`` checksum)."""


NAMED = "named_chunks"
"""The key in ``chunks/spec.json`` of a run whose every chunk names it (:data:`RUN_KEY`), begun since
2026-11-28: a chunk naming none there was copied in from a run of an older simtool."""


def _run_of(parts: Path) -> tuple[str | None, bool]:
    """The checksum ``chunks/spec.json`` records of the run writing ``parts`` (``None``: none, a
    spec of a simtool before 2026-11-26), and whether each of its chunks names it (:data:`NAMED`).
    Written with each chunk's checksums: chunk 1 of a run of another seed, copied in with its
    checksum file (the wrong backup), read whole, its deal numbers chunk 1's, and a resume joined
    it into a run that says seed 3."""
    try:
        spec = parse_json((parts / SPEC).read_text())
        found, every = spec.get(SPEC_SUM), spec.get(NAMED) is True
    except (OSError, ValueError, AttributeError):
        return None, False
    return (found if isinstance(found, str) else None), every


def checksum(data: bytes) -> str:
    """A file's checksum as recorded beside it: SHA-256 (1.7 GB/s here, 0.2 ms for a chunk of
    32768 Black & White deals), computed on the bytes already in memory."""
    return hashlib.sha256(data).hexdigest()


def file_checksum(path: Path) -> str:
    """:func:`checksum` of a file on disk, read in blocks (a whole table may not fit in memory)."""
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as f:
        while block := f.read(1 << 22):
            digest.update(block)
    return digest.hexdigest()


SUMS_LIMIT = 1 << 16
"""Bytes a chunk's checksum file may hold (its own are under 300): a larger one is not simtool's."""


def chunk_sums(parts: Path, index: int) -> dict:
    """The checksums written with chunk ``index`` (``{}``: none, so the chunk was not finished,
    or it was written by a simtool that wrote none)."""
    file = parts / f"sums-{index:06d}.json"
    try:
        # a plain file of a checksum file's size only: a pipe or device put in its place would
        # block or fill the memory
        if not file.is_file() or file.is_symlink() or file.stat().st_size > SUMS_LIMIT:
            return {}
        sums = parse_json(file.read_text())
    except (OSError, ValueError):
        return {}
    return sums if isinstance(sums, dict) else {}


def _write_atomic(final: Path, data: bytes) -> None:
    """``data`` as ``final``, renamed into place whole from a temporary name of this writer's own:
    two processes may write one chunk at once (dask runs a task again when it takes a worker for
    lost while that worker still plays), and with one temporary name between them the one's
    rename could leave the other writing into the file read as finished."""
    tmp = _temp_name(final)
    try:
        tmp.write_bytes(data)
        os.replace(tmp, final)
    except write_errors() as exc:
        tmp.unlink(missing_ok=True)
        raise cannot_write(final, exc) from None


def write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise cannot_write(path, exc) from None


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
        rules = options.resolve(game, meta["rules"])  # rules a report would print as played: this game's
    except SimtoolError as exc:
        raise SimtoolError(f"{run_dir / 'run.json'}: {exc}") from None
    p, n, unit = meta["players"], meta["n"], meta["unit"]
    seen = _as_read(run_dir, unit, game, rules)
    if seen is not None and _LOADED.get(os.path.abspath(run_dir)) == (seen, most_tricks(game, rules, p)[0]):
        check_intact(run_dir, meta)
        return meta, pl.scan_parquet(native(run_dir / "seats.parquet"), glob=False), \
            pl.scan_parquet(native(run_dir / "matches.parquet"), glob=False) if unit == "match" else None
    copies = p if meta.get("duplicate") else 1  # a duplicate deal's p copies share its number
    key = ["deal"] if unit == "deal" else ["match", "round"]
    seats = _table(run_dir / "seats.parquet", {k: "integer" for k in key} | SEAT_COLUMNS
                   | {name: _kind(dtype) for name, dtype in game.columns.items()})
    matches, later = None, []
    if unit == "match":
        matches = _table(run_dir / "matches.parquet", MATCH_COLUMNS
                         | {name: _kind(dtype) for name, dtype in game.match_columns.items()})
        _check_rows(run_dir / "matches.parquet", matches, p, n * copies, "match", "matches", copies=copies)
        later.append(_check_values(run_dir / "matches.parquet", matches, meta))
        rounds = matches.filter(pl.col("seat") == 0).select(pl.col("rounds").cast(pl.Int64).sum())
        played = collect(run_dir / "matches.parquet", rounds, "streaming").item()
        _check_rows(run_dir / "seats.parquet", seats, p, played, None, "rounds",
                    "the matches in matches.parquet played")
    else:
        _check_rows(run_dir / "seats.parquet", seats, p, n * copies, "deal", "deals", copies=copies)
    most = most_tricks(game, rules, p)
    later.append(_check_values(run_dir / "seats.parquet", seats, meta, *most))
    # whole and of the right shape, yet perhaps another run's: refused for every reader (a summary,
    # a ladder, restricted play, the metrics), not by the report alone
    check_intact(run_dir, meta)
    # values beyond what run.json's game, rules and line-up produce: after its own checksum, which
    # names a run.json edited since (the cause) where a table read against it looks wrong
    problem = next(filter(None, later), None)
    if problem:
        raise SimtoolError(problem)
    if seen is not None:
        _LOADED[os.path.abspath(run_dir)] = (seen, most[0])
    return meta, seats, matches


_LOADED: dict[str, tuple] = {}
"""Run folders this process found whole, by path, with what :func:`load` checked them against
(:func:`_as_read`, the game's most tricks): a command reads a run folder several times (a
review, each run once per question), and each read scanned its tables three times again,
where their checksums are read once (:data:`_KNOWN`)."""


def _as_read(run_dir: Path, unit: str, game, rules: dict) -> tuple | None:
    """What :func:`load`'s checks of ``run_dir`` read: its files' identities (the same file,
    unchanged: as :func:`known_checksum` trusts them), the game's columns and the rules; ``None``
    where a file is missing (the checks say so)."""
    names = ["run.json", "seats.parquet", *(["matches.parquet"] if unit == "match" else [])]
    try:
        files = tuple(_identity(run_dir / name) for name in names)
    except OSError:
        return None
    return (files, game.id, tuple(game.columns.items()), tuple(game.match_columns.items()),
            json.dumps(rules, sort_keys=True, default=str))


META = {"game": str, "title": str, "players": int, "lineup": list, "rules": dict, "rotate": bool,
        "unit": str, "n": int, "seed": int, "wall_seconds": (int, float), "jobs": int,
        "versions": dict}
"""``run.json`` keys the summary and the report read, with their JSON types."""

PRECISION = {"precision": (int, float), "precision_cap": int, "precision_reached": (int, float),
             "precision_widest": str}

def recorded_columns(game, unit: str) -> dict[str, set[str]]:
    """The columns this simtool writes in each table of a run of ``game`` (``unit``: deal, match),
    every one a reader needs."""
    key = {"deal"} if unit == "deal" else {"match", "round"}
    return {"seats": key | set(SEAT_COLUMNS) | set(game.columns),
            "matches": set(MATCH_COLUMNS) | set(game.match_columns)}


def lacking_columns(runs: list[tuple[Path, dict[str, set[str]]]]) -> set[Path]:
    """The run folders among ``runs`` (each with :func:`recorded_columns`) whose tables lack a
    column this simtool records: an earlier simtool of the same version number wrote them, so no
    reader takes them (a plan plays them again). Read in a forked child where polars may run
    there, as :func:`_whole` reads chunks; a table that does not read is left to the readers."""
    from simtool.pipeline import forked

    def check() -> list[str]:
        out = []
        for folder, need in runs:
            for name, columns in need.items():
                path = folder / f"{name}.parquet"
                try:
                    if path.is_file() and not columns <= set(schema_of(path)):
                        out.append(str(folder))
                        break
                except Exception:  # noqa: BLE001 - polars raises several kinds for a damaged file
                    continue
        return out

    return {Path(f) for f in forked.where_polars_may_run(check)} if runs else set()


SEAT_COLUMNS = {"seat": "integer", "strategy": "name", "score": "integer", "tricks": "integer",
                "win": "number"}
MATCH_COLUMNS = {"match": "integer", "seat": "integer", "strategy": "name", "total": "integer",
                 "win": "number", "rounds": "integer", "capped": "boolean"}


def alive(pid) -> bool:
    """Whether process ``pid`` runs on this machine (another user's counts)."""
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # none, or beyond any pid (a name's digits, edited JSON)
        return False
    except PermissionError:
        return True
    return True


def locked(folder: Path) -> bool | None:
    """Whether a :class:`FolderLock` holds ``folder`` now (``None``: it cannot be asked): the
    kernel drops it when its writer ends, where the pid of a killed writer may since have been
    given to another process. A writer taking the lock while this asks would be refused."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # released at once, by the close below
    except BlockingIOError:
        return True
    except OSError:
        return None
    finally:
        os.close(fd)
    return False


def unfinished(run_dir: Path) -> str:
    """Why a folder without ``run.json`` cannot be read: a run is writing it (its pid from
    ``chunks/writer.json``, alive), its run was interrupted (``--resume`` finishes it), or it is
    no run folder."""
    if run_dir.is_file():  # a run's own file named: "r/run.json is not a finished run folder (no run.json)"
        held = " that holds it, " + str(run_dir.parent) if (run_dir.parent / "run.json").is_file() else ""
        if not held and _runs_in(run_dir.parent):  # 'simtool report runs/sweep/*' took in its plan.json
            held = f"s beside it only, as {run_dir.parent}{os.sep}*{os.sep}"
        return f"{run_dir} is a file, not a run folder; give the run folder{held}"
    try:
        who = parse_json(read_record(run_dir / "chunks" / WRITER))
        pid = who["pid"]
    except (OSError, ValueError, KeyError, TypeError):
        who, pid = None, None
    # a live pid may be another process's since the writer was killed: the lock it held says (asked
    # only then, so that the probe never meets a writer taking the lock of a folder no one holds).
    # A writer on another machine (a cluster's shared folder): its pid says nothing here, only its
    # lock does; it was "its writer has ended; finish it with --resume" while that run played on
    here = who is None or who.get("host") in (None, socket.gethostname())
    held = locked(run_dir) if who is not None and (alive(pid) or not here) else False
    if held is not False:
        at = "" if here else f" on {who['host']}"
        started = who.get("started", "at a time not recorded")
        if held is None and not here:  # a filesystem that cannot say whether it is locked
            return (f"{run_dir} is not finished: a run started on {who['host']} (pid {pid}, started {started}) may "
                    f"still be writing it; once it has ended, finish it with simtool run --resume {pasted(run_dir)}")
        return (f"{run_dir} is not finished: a run is being written there (pid {pid}{at}, started "
                f"{started}); wait for it to end, or pick another folder")
    if (run_dir / "chunks" / SPEC).is_file():
        ended = f" (its writer, pid {pid}, has ended)" if who is not None else ""
        return (f"{run_dir} holds an interrupted run{ended}; finish it with simtool run --resume {pasted(run_dir)}, "
                f"or pick another folder")
    if not run_dir.exists():  # a mistyped name read "(no run.json)", as of a folder there
        return f"{run_dir} is not a finished run folder: there is no such folder"
    # a sweep's, a ladder's or a review's folder given for its runs said only "(no run.json)"
    if runs := _runs_in(run_dir) or _runs_in(run_dir / "runs", 2):
        shown = ", ".join(map(str, runs[:2])) + (" ..." if len(runs) > 2 else "")
        return f"{run_dir} is not a run folder but holds run folders; give them: {shown}"
    return f"{run_dir} is not a finished run folder (no run.json)"


def _runs_in(folder: Path, depth: int = 1) -> list[Path]:
    """The finished run folders ``depth`` levels under ``folder`` (a review's: ``runs/QUESTION/RUN``)."""
    try:
        return sorted(p.parent for p in folder.glob("/".join(["*"] * depth + ["run.json"])) if p.is_file())
    except OSError:
        return []


def read_meta(run_dir: Path) -> dict:
    """``run.json`` of a finished run, with every key the summary and the report read."""
    path = run_dir / "run.json"
    if not path.is_file():
        raise SimtoolError(unfinished(run_dir))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SimtoolError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not text.strip():
        raise SimtoolError(f"{path} is empty; the run folder is damaged: run it again")
    try:
        meta = parse_json(text)
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
    for name, sound in _OPTIONAL.items():  # what a report reads when a run has it
        if name in meta and not sound(meta[name]):
            raise SimtoolError(f"{path}: '{name}' is {meta[name]!r}, which no simtool run writes; the file "
                               f"is damaged: run it again")
    chunk = meta.get("chunk", 1)  # which deals a seed draws: a report pairs runs by it
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise SimtoolError(f"{path}: 'chunk' is {chunk!r}, not a whole number of deals (or matches), "
                           f"1 or more")
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


def _names(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_OPTIONAL = {"duplicate": lambda v: isinstance(v, bool), "not_fair": _names,
             "ladder": lambda v: isinstance(v, dict) and isinstance(v.get("rung"), int)
             and not isinstance(v.get("rung"), bool) and _names(v.get("rungs")),
             # the metrics name each seat's estimator from it: null there was an AttributeError
             "lead_history": lambda v: isinstance(v, dict) and isinstance(v.get("estimator", {}), dict)}
"""``run.json`` keys only some runs have, and what each holds when there."""


def _json_type(kind) -> str:
    names = {str: "string", int: "whole number", list: "list", dict: "JSON object",
             bool: "true or false", (int, float): "number"}
    return names[kind]


def polars_dtype(dtype) -> pl.DataType:
    """The polars column type of a game's numpy result dtype."""
    return pl.Series(np.zeros(0, dtype)).dtype


def _kind(dtype) -> str:
    dtype = polars_dtype(dtype)
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
        schema = schema_of(path)
    except (pl.exceptions.PolarsError, OSError):
        raise SimtoolError(f"{path} is not a readable table (truncated or damaged); "
                           f"run it again") from None
    for name, kind in columns.items():
        if name not in schema:
            # a game's new column (Out-Trumped's out_trumped) is missing in older simtool's runs too
            raise SimtoolError(f"{path} has no '{name}' column; the table is damaged, not this game's, "
                               f"or written by a simtool that did not record it yet: run it again")
        if not _fits(schema[name], kind):
            raise SimtoolError(f"{path}: column '{name}' is {schema[name]}, expected {kind} values")
    return pl.scan_parquet(native(path), glob=False)


def collect(path: Path, query: pl.LazyFrame, engine: str = "auto") -> pl.DataFrame:
    """``query`` over the table in ``path``; a table damaged inside its pages is one line."""
    try:
        return query.collect(engine=engine)
    except (pl.exceptions.PolarsError, OSError):
        raise SimtoolError(f"{path} is not a readable table (damaged inside); "
                           f"run it again") from None


def most_tricks(game, rules: dict, p: int) -> tuple[int | None, str]:
    """The game's ``most_tricks`` for these rules, and what else a table beyond it may mean: a
    designer's game may declare too few (its genuine run was refused as hand-edited, and again
    once run again), or fail in it (a traceback of every reader)."""
    if type(game).__module__.startswith("simtool.games."):  # held to its own runs by its tests
        return game.most_tricks(rules, p), ""
    suite = f"python -m pytest --simtool-game {game.id}"
    try:
        most = game.most_tricks(rules, p)
    except Exception as exc:
        raise GameError(f"game '{game.id}' ({type(game).__module__}) raised {describe(exc)} in most_tricks; its "
                        f"conformance suite shows where: {suite}") from exc
    # not a count of tricks: '13' failed the table's comparison, read as "damaged inside; run it
    # again", and again once run again
    if most is not None and (isinstance(most, bool) or not isinstance(most, int | np.integer) or most < 0):
        raise GameError(f"game '{game.id}' ({type(game).__module__}) most_tricks returned {most!r} at {p} players: "
                        f"expected a whole number of tricks, 0 or more, or None (not checked); its conformance "
                        f"suite: {suite}")
    return most, f", or game '{game.id}''s most_tricks is below its play: {suite}"


def _check_values(path: Path, table: pl.LazyFrame, meta: dict, most_tricks: int | None = None,
                  or_else: str = "") -> str | None:
    """Every value present and one the game can produce: simtool writes no missing values (null, or
    NaN in a number column), and one would reach the statistics as a crash or a silently shorter
    sample; nor a share of the win outside 0..1, a count below 0 (``tricks``, a match's
    ``rounds`` below 1), more tricks than a round holds (the game's ``most_tricks``), or a
    strategy the run's line-up does not name. One pass over the table (seats and their order:
    :func:`_check_rows`). Missing values, win shares and rounds are refused here; what the run's
    ``run.json`` decides (the tricks, the names) is returned in words, for :func:`load` to refuse
    once that ``run.json`` is known to be the run's. ``or_else``: what else tricks beyond
    ``most_tricks`` may mean (:func:`most_tricks`)."""
    schema = table.collect_schema()
    missing = [(pl.col(c).is_null() | pl.col(c).is_nan() if schema[c].is_float() else pl.col(c).is_null())
               .sum().alias(c) for c in schema.names()]
    bounds = {"win": (0, 1, "a seat's share of the win")}
    if "tricks" in schema:
        bounds["tricks"] = (0, most_tricks, "a count of tricks" if most_tricks is None else
                            f"the tricks a round of {meta['players']} players holds under these rules")
    if "rounds" in schema:
        bounds["rounds"] = (1, None, "the rounds a match played")
    beyond = [((pl.col(c) < low) | (pl.col(c) > high) if high is not None else pl.col(c) < low)
              .sum().alias(f"_beyond {c}") for c, (low, high, _) in bounds.items()]
    names, files = _tabled(meta["lineup"])
    dtype = schema["strategy"]
    # an Enum's names are in its schema: a table's values are read only where one is not the run's
    # (simtool writes the line-up's names as an Enum of those alone; 10 ms of 70 over 4e6 rows)
    listed = dtype.categories.to_list() if isinstance(dtype, pl.Enum) else None
    read = listed is None or any(_stray(name, names, files) for name in listed)
    strategies = [pl.col("strategy").unique().implode().alias("_strategies")] if read else []
    p = meta["players"]
    # each deal's (round's, match's) p seat rows, in seat order (_check_rows), share one win, tied
    # leaders splitting it: a win column cast to whole numbers (a tie's halves to 0), checksums
    # written again, printed wrong seat shares. In the same pass (no time of its own at 1e7 rows)
    unshared = ((pl.col("win").cast(pl.Float64).reshape((-1, p)).arr.sum() - 1).abs() > WIN_SUM_SLACK) \
        .arg_true().first().alias("_unshared")
    counts = collect(path, table.select(*missing, *beyond, *strategies, unshared), "streaming").row(0, named=True)
    named = counts.pop("_strategies") if read else listed
    first = counts.pop("_unshared")
    outside = {c.removeprefix("_beyond "): counts.pop(c) for c in list(counts) if c.startswith("_beyond ")}
    holed = {c: k for c, k in counts.items() if k}
    if holed:
        name = next(iter(holed))
        raise SimtoolError(f"{path}: column '{name}' has {holed[name]:,} missing values (null or NaN); "
                           f"simtool writes none, so the table is damaged or hand-edited: run it again")
    if first is not None and not outside["win"]:
        raise SimtoolError(_unshared(path, table, p, first, meta))
    for name, k in outside.items():
        if k:
            low, high, what = bounds[name]
            span = f"{low}..{high}" if high is not None else f"below {low}"
            problem = f"{path}: column '{name}' has {k:,} values {'outside ' * (high is not None)}{span} ({what})"
            if name != "tricks":  # tricks: bounded by run.json's rules
                raise SimtoolError(f"{problem}; the table is damaged or hand-edited: run it again")
            return (f"{problem}; the table is damaged or hand-edited{or_else}" if or_else and high is not None
                    else f"{problem}; the table is damaged or hand-edited: run it again")
    stray = [str(name) for name in named if _stray(name, names, files)]
    if stray:
        return (f"{path}: column 'strategy' names {stray[0]!r}, which run.json's line-up does not "
                f"({', '.join(dict.fromkeys(meta['lineup']))}); the table is damaged or hand-edited: run it again")
    return None


WIN_SUM_SLACK = 1e-6
"""How far a deal's win shares may sum from 1: k tied leaders' float32 shares 1/k, each within
2^-24 / k of it, sum within 2^-24 (6e-8) of 1 for any k."""


def _unshared(path: Path, table: pl.LazyFrame, p: int, first: int, meta: dict) -> str:
    """The line naming the ``first`` group of ``p`` rows whose win shares do not sum to 1."""
    rows = collect(path, table.slice(first * p, p), "auto")
    total = float(rows["win"].cast(pl.Float64).sum())
    if "round" in rows.columns:
        where = f"match {rows['match'][0]:,} round {rows['round'][0]:,}"
    else:
        key = "match" if "match" in rows.columns else "deal"
        copies = p if meta.get("duplicate") else 1
        where = f"{key} {rows[key][0]:,}" + (f" (its copy {first % copies})" if copies > 1 else "")
    return (f"{path}: the win shares of {where} sum to {total:.6g}, not 1 (its leaders share each win, "
            f"ties split); the table is damaged or hand-edited: run it again")


def _stray(name, names: set[str], files: tuple[str, ...]) -> bool:
    """Whether a table's strategy ``name`` is none of the line-up's (see :func:`_tabled`)."""
    return name not in names and not str(name).startswith(files)


def _tabled(lineup: list[str]) -> tuple[set[str], tuple[str, ...]]:
    """The names the tables give a line-up's entries, and the ``FILE.py:`` that a plugin file's
    names begin with: a plugin is tabled by its file's name and the name it declares
    (``runs/bot.py:low`` may be ``bot.py:low-card``), which only loading it tells; a search's
    play-out keeps its whole path."""
    files = []
    for entry in lineup:
        if ".py:" in entry:  # a plugin's path, or a parameter holding one: strategies tells which
            from strategies import split

            path, sep, _ = split(entry)[0].rpartition(":")
            if sep and (path.endswith(".py") or "/" in path):  # as strategies.plugin_file reads it
                files.append(f"{Path(path).name}:")
    return set(lineup), tuple(files)


def _check_rows(path: Path, table: pl.LazyFrame, p: int, expected: int, key: str | None,
                units: str, says: str = "run.json says", copies: int = 1) -> None:
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
        checks.append((pl.col(key) != i // (p * copies)).sum().alias(key))
    bad = collect(path, table.with_row_index("_row").select(checks), "streaming").row(0, named=True)
    if bad["seat"]:
        raise SimtoolError(f"{path}: seat rows are not in seat order, {p} to each "
                           f"{units.removesuffix('es' if units == 'matches' else 's')}")
    if bad.get(key):
        raise SimtoolError(f"{path}: {key} numbers are not 0 to {expected // copies - 1:,} in order")
