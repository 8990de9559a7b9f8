"""simtool's conformance suite as a pytest plugin: the checks every game must pass, for a game of
your own as for the built-in ones (``docs/new-game.md``).

Installed with simtool (the ``pytest11`` entry point ``simtool.testing``), it adds one option::

    python -m pytest --simtool-game my_game:GAME      # MODULE:NAME of a Game, or a game's id

(repeat it for several games, or list them under ``simtool_games`` in the ``[tool.pytest.ini_options]``
of your pyproject.toml), and pytest runs the whole suite on each game named, beside your own tests.
Or run the suite from a test module of your own, as simtool's tests do::

    from simtool.testing import Conformance

    class TestMyGame(Conformance):
        games = (GAME,)

Without the entry point (a source checkout not installed), load the plugin with ``-p simtool.testing``
or ``pytest_plugins = ["simtool.testing"]`` in your top ``conftest.py``.

This module stays light (pytest loads it in every session of an environment that has simtool):
the suite and numpy are imported only when a game is tested.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

__all__ = ["Conformance", "Watch", "load_game", "watched_round"]

SUITE = Path(__file__).with_name("suite.py")


def __getattr__(name: str):
    if name in ("Conformance", "Watch", "watched_round"):
        from . import suite

        return getattr(suite, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("simtool", "simtool conformance suite")
    group.addoption("--simtool-game", action="append", default=[], metavar="MODULE:NAME",
                    help="run simtool's conformance suite on this game: MODULE:NAME of a Game "
                         "(NAME defaults to GAME), or the id of an installed game; repeatable")
    parser.addini("simtool_games", type="linelist", default=[],
                  help="games the conformance suite runs on, as --simtool-game takes them")


def named_games(config: pytest.Config) -> list[str]:
    return [*config.getini("simtool_games"), *config.getoption("simtool_game")]


NAMED = pytest.StashKey[list]()


def pytest_configure(config: pytest.Config) -> None:
    named = named_games(config)
    loaded = [load_game(text) for text in named]  # a bad name stops pytest at once
    # a game named twice (or by its id and as MODULE:NAME) is tested once, not every test twice
    config.stash[NAMED] = list({id(g): g for g in loaded}.values())
    # a game named: collect the suite too, whatever else pytest was asked to collect (a file given
    # by path is collected whatever its name, so suite.py needs no test_ prefix)
    if named and str(SUITE) not in config.args:
        config.args.append(str(SUITE))


def load_game(text: str):
    """The game ``MODULE:NAME`` (``NAME`` defaults to ``GAME``), or the installed game of that id;
    a ``pytest.UsageError`` naming the problem otherwise."""
    from simtool.engine import Game

    module, colon, name = text.partition(":")
    if not colon:
        from simtool import games
        from simtool.errors import SimtoolError

        try:
            return games.get(text)
        except SimtoolError as exc:
            raise pytest.UsageError(f"--simtool-game {text}: {exc}, or MODULE:NAME of a Game") from None
    try:
        found = getattr(importlib.import_module(module), name or "GAME")
    except (ImportError, AttributeError) as exc:
        raise pytest.UsageError(f"--simtool-game {text}: {type(exc).__name__}: {exc}") from None
    except KeyboardInterrupt:
        raise
    # SystemExit too (a module ending the program as it loads): pytest printed INTERNALERROR and
    # a traceback, exit status 3
    except BaseException as exc:  # noqa: BLE001 - the game's module failed: one line, and where to see why
        raise pytest.UsageError(f"--simtool-game {text}: importing {module} raised {type(exc).__name__}: {exc} "
                                f"(python -c 'import {module}' shows where)") from None
    if not isinstance(found, Game):
        raise pytest.UsageError(f"--simtool-game {text}: {type(found).__name__} is not a simtool.engine.Game "
                                "(name the game object, e.g. my_game:GAME)")
    check_player_counts(found)
    return found


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test of a :class:`Conformance` class runs once per game (and per player count where
    it takes ``players``)."""
    cls = metafunc.cls
    if cls is None or not getattr(cls, "simtool_conformance", False):
        return
    games = cls.games
    if games is None:  # the suite collected for --simtool-game
        games = metafunc.config.stash[NAMED]
        if not games:
            raise pytest.UsageError("simtool's conformance suite needs a game: --simtool-game MODULE:NAME")
    check_games(cls, games)
    if "players" in metafunc.fixturenames:
        cases = [(g, p) for g in games for p in g.players]
        metafunc.parametrize("game,players", cases, ids=[f"{g.id}-{p}p" for g, p in cases])
    else:
        metafunc.parametrize("game", games, ids=[g.id for g in games])


def check_games(cls, games) -> None:
    """A ``pytest.UsageError`` unless ``games`` is a tuple or list of playable Games: ``games =
    (GAME)`` (the comma forgotten) is one game, and stopped collection with a TypeError."""
    from simtool.engine import Game

    if not isinstance(games, tuple | list) or not all(isinstance(g, Game) for g in games):
        shown = games if not isinstance(games, tuple | list) else next(g for g in games if not isinstance(g, Game))
        raise pytest.UsageError(f"{cls.__name__}.games must be a tuple of simtool.engine.Game objects, such as "
                                f"(GAME,); it holds {type(shown).__name__} {shown!r:.60}")
    for g in games:
        check_player_counts(g)


def check_player_counts(game) -> None:
    """A ``pytest.UsageError`` unless the game's player counts and rule options can be played:
    with no player count every check was skipped and the suite passed a game nobody can play;
    ``players = (4)`` stopped collection with a TypeError; a default its option refuses was
    played unchecked."""
    from simtool.games import declaration_problem

    problem = declaration_problem(game)
    if problem:
        raise pytest.UsageError(problem)
