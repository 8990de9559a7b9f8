from __future__ import annotations

import sqlite3
import sys
from contextlib import contextmanager

import numpy as np
import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

import simtool.games
import strategies
from simtool import engine
from simtool.pipeline import runner
from simtool.pipeline.runner import RunSpec, chunk_size, play_chunk, resolve_lineup

pytest_plugins = ["simtool.testing",  # the conformance suite, as a game's own package runs it
                  "pytester"]  # sessions of pytest of their own, in this process


@event.listens_for(Engine, "connect")
def _sqlite_without_fsync(connection, _record):
    """Tunings' study.db in tests: sqlite writes each commit but skips its fsync (seconds of
    waiting on a busy disk). A killed process loses nothing this way (the writes are the
    system's already); only a power cut could, which no test makes."""
    if isinstance(connection, sqlite3.Connection):
        connection.execute("PRAGMA synchronous = OFF")


def _alembic_scripts_read_once() -> None:
    """optuna checks every study.db it opens against the newest schema of its alembic scripts,
    which it finds by loading all of them (some 40 ms a storage, and a tuning test opens a dozen
    or more). The scripts do not change while the tests run: read once, compared as before."""
    from optuna.storages._rdb.storage import _VersionManager

    read = _VersionManager.get_head_version
    head: list[str] = []

    def get_head_version(self) -> str:
        if not head:
            head.append(read(self))
        return head[0]

    _VersionManager.get_head_version = get_head_version

    # and every new study.db is stamped with that version through a script directory of its own, read
    # again from the same files (a new study.db made and opened again: 47 ms of CPU, 27 ms with the
    # directory made once, measured): made once too. The stamp needs only the directory's revisions,
    # not the database's address it was made with (which an upgrade, not used here, reads from a
    # config of its own).
    make = _VersionManager._create_alembic_script
    script: list = []

    def create_alembic_script(self):
        if not script:
            script.append(make(self))
        return script[0]

    _VersionManager._create_alembic_script = create_alembic_script


_alembic_scripts_read_once()


def _cli_built_once() -> None:
    """typer turns simtool's app into its click command again at every call (``main``, the
    runner's ``invoke``): 6 ms of CPU each (measured), for hundreds of commands the tests give.
    The app does not change while the tests run (no test adds a command to it), and click
    commands hold no state between calls: simtool's app is built once and that command called
    as before. Any other typer app (a test's own) is built at each call, as typer does."""
    import typer.main
    import typer.testing

    build = typer.main.get_command
    built: dict = {}

    def get_command(typer_instance):
        cli = sys.modules.get("simtool.cli")
        if cli is None or typer_instance is not cli.app:
            return build(typer_instance)
        if "app" not in built:
            built["app"] = build(typer_instance)
        return built["app"]

    typer.main.get_command = get_command
    typer.testing._get_command = get_command


_cli_built_once()


def _fewer_garbage_collections() -> None:
    """Python's cycle collector runs a full pass over every object alive once enough containers
    were made, and a test process holds many (polars, matplotlib, optuna, sqlalchemy, typer, and
    the figures and tables of hundreds of commands): 4% of the CPU of the tests of commands and
    reports went to it (3.1 s of 72 s over the hardening rounds 2-9, the review, tune, report and
    pipeline tests, gc.callbacks' measure). Passes 30 times rarer (20,000 new containers, not
    700) cost 0.31 s of CPU against 1.16 s over the rounds 10-21, the peak memory 375 MB against
    369. No test counts on a collection it does not ask for (gc.collect())."""
    import gc

    gc.set_threshold(20_000, 10, 10)


_fewer_garbage_collections()


SMALL = 16
"""How much smaller a chunk is under :func:`small_chunks`."""


def stopped_after(executor, chunks: int):
    """``executor.execute_tasks`` as a Ctrl-C after ``chunks`` chunks leaves it, and the real one
    (for ``monkeypatch.setattr(executor, "execute_tasks", ...)``)."""
    real = executor.execute_tasks

    def stopped(tasks, *args, **kw):
        for done, chunk in enumerate(real(tasks, *args, **kw), start=1):
            yield chunk
            if done == chunks:
                raise KeyboardInterrupt

    return real, stopped


@contextmanager
def smaller_chunks():
    """Chunks of 2048 deals and 1024 matches, a 16th of a command's own: a test of how runs are cut
    into chunks, handed out, stopped and resumed plays as many chunks with 16 times fewer deals
    (its n divided by :data:`SMALL`). A run's chunk size is written in its specification, so a
    resume, a forked worker and a dask worker play these chunks too; tables are compared only
    between runs that both have them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "CHUNK", runner.CHUNK // SMALL)
        patch.setattr(runner, "MATCH_CHUNK", runner.MATCH_CHUNK // SMALL)
        yield


@pytest.fixture
def installed(monkeypatch):
    """Registers games for a test, as the conformance suite does for a game not installed (a module
    whose own ``installed`` fixture installs something else overrides it there)."""
    def install(*added):
        monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, *added))
    return install


@pytest.fixture
def small_chunks():
    """:func:`smaller_chunks` for the whole test."""
    with smaller_chunks():
        yield


def spec(game="black-white", players=3, n=200, lineup=None, unit="deal", seed=7, rules=None,
         chunk=None) -> RunSpec:
    g = simtool.games.get(game)
    rules = {o.name: o.default for o in g.options} | (rules or {})
    lineup = tuple(lineup or ["random"] * players)
    return RunSpec(g.id, players, rules, lineup, unit, n, seed, chunk or chunk_size(unit))


def rule_variants(game, p: int):
    """The default rules, then each option's other values one at a time, left out where the game
    refuses them at ``p`` players: every value of a categorical option, and of a whole-number
    option its lowest and highest playable values, where limits bite (every number of every
    option would take hours)."""
    from simtool.errors import SimtoolError

    default = {o.name: o.default for o in game.options}

    def playable(rules):
        try:
            game.check_rules(rules, p)
        except SimtoolError:
            return False
        return True

    yield default
    for o in game.options:
        others = [v for v in o.domain() if v != o.default and playable(default | {o.name: v})]
        if o.kind == "integer" and len(others) > 2:
            others = [others[0], others[-1]]
        for value in others:
            yield default | {o.name: value}


def chunk(**kw):
    return play_chunk(spec(**kw), 0)


def drive(game, state, script):
    """Play ``state`` with scripted choices; returns (results, decisions seen)."""
    play = game.play(state)
    seen, choice = [], None
    script = iter(script)
    while True:
        try:
            d = play.send(choice)
        except StopIteration as done:
            return done.value, seen
        seen.append(d)
        choice = np.asarray(next(script), dtype=np.int64).reshape(-1) if d.seat is not None \
            else np.atleast_2d(np.asarray(next(script), dtype=np.int64))


def ctx_for(game, n, seed=0):
    return engine.Context(game.id, seed, n, "deal", np.arange(n), resolve=strategies.resolve)


def lineup_of(game, players, names):
    return resolve_lineup(spec(game.id, players, 1, names))


def assert_matches_reference(seats, reference: list[dict], columns, n_sigma: float = 4.5) -> None:
    """Per seat means of the engine's ``seats`` agree with an independent implementation's deals
    (``reference``: one dict per deal, ``{column: [value per seat]}``) within ``n_sigma`` SE."""
    import polars as pl

    n = seats.filter(pl.col("seat") == 0).height
    for col in columns:
        mine = seats.group_by("seat").agg(pl.col(col).cast(pl.Float64).mean().alias("m"),
                                          pl.col(col).cast(pl.Float64).var().alias("v")).sort("seat")
        theirs = np.array([d[col] for d in reference], float)
        diff = mine["m"].to_numpy() - theirs.mean(axis=0)
        se = np.sqrt(mine["v"].to_numpy() / n + theirs.var(axis=0, ddof=1) / len(reference) + 1e-12)
        assert (np.abs(diff) < n_sigma * se).all(), (col, diff / se)


UNDRAWN = '<svg xmlns="http://www.w3.org/2000/svg" class="undrawn"></svg>'
"""What a chart is in a page written under :func:`charts_undrawn`."""


@contextmanager
def undrawn_charts():
    """For tests that write a report but never look at its charts: each chart is still built
    (its figure, axes and every bar and point, from the run's tables) but not laid out and drawn
    to SVG, where matplotlib spends most of a chart's CPU; the page holds :data:`UNDRAWN` in its
    place. Drawing was a fifth of the CPU of the tests that write reports (25 s of 123 s over
    this suite's command tests, measured); what the charts show is the business of the tests
    that look at them (test_report, test_browser, test_hardening_labels, test_tune)."""
    from simtool.reports import balance
    from simtool.reports import tune as tune_report

    def undrawn(chart) -> str:
        assert chart.axes, "a chart with nothing drawn on it"  # a figure was built for it
        return UNDRAWN

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(balance, "svg", undrawn)
        patch.setattr(tune_report, "svg", undrawn)
        yield


@pytest.fixture
def charts_undrawn():
    """:func:`undrawn_charts` for the whole test."""
    with undrawn_charts():
        yield


REVIEW = {"deals": 4096, "matches": 128, "restrictions": 1024, "duplicate": 128, "search": 32, "random": 1024,
          "leads": 16}
"""The sizes of the Black & White review of :func:`bw_review` (``review.Sizes`` keywords): every
play of a review, its search the quickest to start, in seconds."""


@pytest.fixture(scope="session")
def bw_review(tmp_path_factory):
    """One Black & White review at :data:`REVIEW` sizes, seed 3, ``jobs=1``, played once per test
    process (2 s of CPU) for the tests of test_review and test_hardening_review that only read it:
    its folder and what ``review`` returned, which a test copies before changing it."""
    from simtool.commands import review as reviews

    out = tmp_path_factory.mktemp("review") / "bw"
    return out, reviews.review("black-white", out, seed=3, jobs=1, sizes=reviews.Sizes(**REVIEW))
