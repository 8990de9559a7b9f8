"""The game registry: built-in games, plus any installed under the ``simtool.games`` entry point."""

from __future__ import annotations

from importlib.metadata import entry_points

from ..engine import ROUND_CAP as ROUND_CAP  # the safety cap on a match's rounds, for readers of results
from ..engine import Game
from ..errors import SimtoolError, choices
from .black_white import GAME as BLACK_WHITE
from .hearts import GAME as HEARTS
from .kansas_city import GAME as KANSAS_CITY
from .nine_lives import GAME as NINE_LIVES
from .out_trumped import GAME as OUT_TRUMPED
from .trickster import GAME as TRICKSTER

BUILT_IN: tuple[Game, ...] = (BLACK_WHITE, KANSAS_CITY, TRICKSTER, OUT_TRUMPED, NINE_LIVES, HEARTS)


def registry() -> dict[str, Game]:
    games = {g.id: g for g in BUILT_IN}
    for ep in entry_points(group="simtool.games"):
        games.setdefault(ep.name, ep.load())
    return games


_BY_ID = {g.id: g for g in BUILT_IN}


def get(game_id: str) -> Game:
    # a built-in game wins over an installed one of the same name (registry), so it needs no scan
    # of the installed packages (about 3 ms, and get is asked for in every command many times)
    if game_id in _BY_ID:
        return _BY_ID[game_id]
    games = registry()
    if game_id not in games:
        raise SimtoolError(f"unknown game '{game_id}'; valid: {choices(sorted(games))}")
    return games[game_id]


def check_players(game: Game, players: int | None) -> int:
    if players is None:
        return game.default_players
    if players not in game.players:
        raise SimtoolError(
            f"{game.id} is for {choices(game.players)} players, not {players}"
        )
    return players
