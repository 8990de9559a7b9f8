"""Hostile round 20: plugin surfaces (strategies that misbehave, restrictions, designer games fed
to the conformance suite). Each test failed on the code before its fix."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

import simtool.games
import simtool.games.kansas_city
import strategies
from simtool import bits, cli, engine
from simtool.engine import Match, scalar
from simtool.testing import Conformance
from tests.toy_game import Climb, ClimbView, State


@dataclass
class DealerMatch(Match):
    dealer: int = 0


class DealerInMatchOver(Climb):
    """Advances its dealer as it answers match_over (end_round's work), a number, not an array."""

    id = "climb-dealer"

    def new_match(self, n, p, rules):
        m = super().new_match(n, p, rules)
        return DealerMatch(m.p, m.rules, m.totals)

    def deal(self, rng, match, rnd):
        s = super().deal(rng, match, rnd)
        s.leader[:] = match.dealer % match.p
        return s

    def match_over(self, match, rnd):
        match.dealer += 1
        return np.full(match.n, rnd >= 1)


class CountsItsCalls(Climb):
    """Keeps a count of match_over's calls on itself."""

    id = "climb-counts"

    def __init__(self):
        self.asked = 0

    def match_over(self, match, rnd):
        self.asked += 1
        return np.full(match.n, rnd >= 1)


class TotalsTouched(Climb):
    id = "climb-totals"

    def match_over(self, match, rnd):
        match.totals[0, 0] += 1
        return np.full(match.n, rnd >= 1)


@pytest.mark.parametrize(("game", "says"), [
    (DealerInMatchOver(), "match_over changed match.dealer"),
    (CountsItsCalls(), "match_over changed game.asked"),
    (TotalsTouched(), "match_over changed match.totals"),  # caught before, but in no words of its own
])
def test_the_suite_names_what_match_over_changed_beyond_the_matchs_arrays(game, says):
    # before: the check compared the match's arrays alone, so a dealer (a number) advanced in
    # match_over, or a count kept on the game, passed; and a changed array failed as a bare
    # `assert dict_keys(...) == ... and False`, naming no field
    with pytest.raises(AssertionError) as exc:
        Conformance().test_match_over_has_no_side_effects(game, 3)
    assert str(exc.value).startswith(says), str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_match_over_that_only_reads_passes_the_suites_check():
    Conformance().test_match_over_has_no_side_effects(Climb(), 3)


@pytest.mark.parametrize("entry", ["balance~higher-colour~lower-colour", "random~lower-colour~higher-colour"])
def test_two_restrictions_of_one_decision_are_refused_not_played_as_the_first(entry, tmp_path, capsys):
    # before: accepted and named 'balance~higher-colour~lower-colour', while the play was
    # balance~higher-colour's to the deal (lower-colour never bound: the two never agree), in
    # either order; after, one line naming both and the decision, exit status 2, nothing written
    out = tmp_path / "run"
    assert cli.main(["run", "--game", "black-white", "--seat", f"0={entry}", "-n", "50", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("error: restrictions 'higher-colour' and 'lower-colour' both restrict the 'colour' decision "
                   "of black-white: where they disagree only 'higher-colour' would bind; give one of them")
    assert not out.exists()


def test_restrictions_of_different_decisions_still_play_together():
    assert strategies.canonical("target~pass-high~no-upgrade", "kansas-city") == "target~no-upgrade~pass-high"
    assert strategies.canonical("random~keep-queen~no-queen-dump", "hearts") == "random~no-queen-dump~keep-queen"


ONE_GAME = '''
from simtool import bits
from strategies import strategy


@strategy("onegame", "the lowest option", games=("kansas-city"))
def onegame(view, rng):
    return bits.lowest(view.legal)
'''


def test_a_strategys_one_game_written_without_its_comma_is_that_game(tmp_path, capsys):
    # before: games=("kansas-city") is a string, read as its letters: the refusal elsewhere said
    # "plays k, a, n, s, a, s, -, c, i, t, y, not black-white", and any game whose id is a piece
    # of the string was taken as one it plays; after, the one game
    (tmp_path / "bot.py").write_text(ONE_GAME)
    bot = f"{tmp_path / 'bot.py'}:onegame"
    assert strategies.resolve(bot, "kansas-city").games == ("kansas-city",)
    assert cli.main(["run", "--game", "black-white", "--seat", f"0={bot}", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "plays kansas-city, not black-white" in err, err
    assert not (tmp_path / "run").exists()


def test_a_play_out_policy_named_playout_is_refused_as_the_line_up_is_read(tmp_path, capsys):
    # before: 'playout' (pimc's word for its own play-out policy, the default of `own`) passed as
    # the value of `playout` itself, named no strategy, and the run stopped at its first search
    # as "strategy 'pimc@playout=playout' raised SimtoolError: unknown strategy 'playout'"; after,
    # refused as the line-up is read, naming the parameter and the valid strategies
    assert cli.main(["run", "--game", "black-white", "--seat", "0=pimc@playout=playout,samples=2", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: bad parameter playout 'playout' of strategy 'pimc': unknown strategy 'playout'; "
                          "valid for black-white: balance,"), err
    assert "raised" not in err and "\n" not in err
    assert strategies.canonical("pimc@own=playout", "black-white") == "pimc"  # own's default, as before


def _tables(value, depth: int = 4, seen: set | None = None):
    """Every array reachable from ``value``: itself and its ``.base`` chain, inside tuples, lists
    and dicts, and the attributes of simtool's own objects (a Layout, Trickster's Deck)."""
    seen = set() if seen is None else seen
    if id(value) in seen or depth < 0:
        return
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        while isinstance(value, np.ndarray):
            yield value
            value = value.base
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _tables(item, depth - 1, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tables(item, depth - 1, seen)
    elif type(value).__module__.startswith("simtool.games") and not isinstance(value, type | simtool.games.Game):
        for name in dir(value):
            if not name.startswith("__") and not callable(item := getattr(value, name, None)):
                yield from _tables(item, depth - 1, seen)


@pytest.mark.parametrize("game", simtool.games.BUILT_IN, ids=lambda g: g.id)
def test_a_strategy_cannot_rewrite_a_games_tables_through_its_view(game):
    # before: `fixed` only marked a shared table read-only, and numpy lets the owner of the memory
    # mark it writable again: Kansas City's and Hearts' card ranks (view.strength.base), Out-Trumped's
    # and Nine Lives' layouts (view.layout, view._layout) and Trickster's deck (view._deck), rewritten
    # by one seat, changed the other seats' play, and every later round of the process; after,
    # the tables live in immutable bytes: the write is refused, the game plays as without it
    written = []

    def rewrites(view, rng):
        choice = bits.lowest(view.legal.copy())
        for name in dir(view):
            if name.startswith("__"):
                continue
            for table in _tables(getattr(view, name, None)):
                try:
                    table.flags.writeable = True
                except ValueError:  # memory nobody may write: the game's tables stay as they are
                    continue
                if table.size:
                    written.append((table, table.copy()))
                    table[...] = np.zeros((), table.dtype) + 1
        return choice

    def lowest(view, rng):
        return bits.lowest(view.legal.copy())

    p = game.default_players
    rules = {o.name: o.default for o in game.options}
    results = []
    try:
        for choose in (lowest, rewrites):
            state = game.deal(np.random.default_rng(5), game.new_match(200, p, rules), 0)
            lineup = engine.Lineup([strategies.Strategy(choose.__name__, choose, ""),
                                    strategies.resolve("random", game.id)], np.array([0] + [1] * (p - 1)))
            results.append(engine.play_round(game, state, lineup, np.random.default_rng(6),
                                             engine.Context(game.id, 0, 200, "deal", np.arange(200))))
    finally:
        for table, was in written:  # the failing code's tables put back for later tests
            if table.base is None and table.flags.writeable:  # the first copy of each: its original
                table[...] = was
                table.flags.writeable = False
    plain, rewritten = results
    assert all(np.array_equal(plain[key], rewritten[key]) for key in plain)
    assert not simtool.games.kansas_city.CARD_RANK.flags.writeable


CHECK_RAISES = '''
from simtool import bits
from strategies import Param, strategy


def refuses(params, game_id):
    raise ValueError("depth and width clash")


@strategy("checked", "the lowest option", params=(Param("depth", int, 1, "how deep", 0, 3),), check=refuses)
def checked(view, rng, params):
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("entry", ["checked", "checked@depth=2"])
def test_a_plugins_parameter_check_that_raises_is_its_one_line_error(entry, tmp_path, capsys):
    # before: the check's ValueError came out of `simtool run` as a traceback, exit status 1;
    # after, one line naming the strategy, exit status 2, nothing written (as its cost's error)
    (tmp_path / "bot.py").write_text(CHECK_RAISES)
    assert cli.main(["run", "--game", "black-white", "--seat", f"0={tmp_path / 'bot.py'}:{entry}", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    assert capsys.readouterr().err.strip() == ("error: strategy 'bot.py:checked' could not check its parameters: "
                                               "ValueError: depth and width clash")
    assert not (tmp_path / "run").exists()


@dataclass
class LoggedState(State):
    log: list = field(default_factory=list)


class LoggedView(ClimbView):
    log = scalar("log", "One entry per decision made so far (a list).")


class HandsOutItsLog(Climb):
    """Keeps a Python list of its decisions, scores by its length, and hands the list itself to
    every view: a strategy appending to view.log changes every score."""

    id = "climb-log"
    View = LoggedView

    def deal(self, rng, match, rnd):
        return LoggedState(**vars(super().deal(rng, match, rnd)))

    def play(self, s):
        inner, choice = super().play(s), None
        while True:
            try:
                decision = inner.send(choice)
            except StopIteration as done:
                return done.value | {"score": done.value["score"] + len(s.log)}
            choice = yield decision
            s.log.append(len(s.log))


def test_the_suite_catches_a_view_that_hands_out_the_rounds_own_list():
    # before: the scribbling strategy wrote into arrays only, so a game whose view field was the
    # round's own list passed test_a_view_is_a_copy, and a changed array failed as a bare
    # "AssertionError: score" with both arrays printed; after, it appends to every list, dict and set
    # it is handed, and the failure is one line naming the results that changed
    with pytest.raises(AssertionError) as exc:
        Conformance().test_a_view_is_a_copy(HandsOutItsLog(), 2)
    assert str(exc.value) == ("a strategy writing into its view changed the game's 'score' results: a field of "
                              "the view hands out the round's own array, list or dict (a Field must return a copy)")


CAPS_MATCHES = '''
import simtool.engine
from simtool import bits

simtool.engine.ROUND_CAP = 2


def low(view, rng):
    return bits.lowest(view.legal)
'''

DELETES_CHECK = '''
import simtool.engine
from simtool import bits

del simtool.engine._checked


def low(view, rng):
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize(("text", "replaced"), [
    (CAPS_MATCHES, "strategy plugin {path}, as it was imported, replaced simtool.engine.ROUND_CAP"),
    (DELETES_CHECK, "strategy plugin {path}, as it was imported, replaced simtool.engine._checked"),
])
def test_a_plugin_rebinding_or_deleting_simtools_names_is_named_and_put_back(text, replaced, tmp_path, capsys):
    # before: simtool.engine.ROUND_CAP = 2 at a plugin's import capped all 50 matches at 2 rounds
    # (exit status 0, while the summary spoke of the 200-round cap), and `del simtool.engine._checked`
    # went unnoticed until the engine's NameError, a traceback: only functions and classes replaced
    # were watched; after, one line naming the name, exit status 2, the name put back
    path = tmp_path / "bot.py"
    path.write_text(text)
    assert cli.main(["run", "--game", "out-trumped", "--unit", "match", "--seat", f"0={path}:low", "-n", "50",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: " + replaced.format(path=path) + ": a strategy must leave simtool's code"), err
    assert engine.ROUND_CAP == 200 and callable(engine._checked)
    assert not (tmp_path / "run").exists()


TAKES = '''
import numpy as np
from simtool import bits


def takes(view, rng):
    worlds = view.redeal(2, rng)
    taken = worlds.take(np.array([ROW]))
    taken.play_out(bits.lowest(taken.view.legal), "random")
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize("row", [-1, 40])
def test_a_search_taking_a_world_that_is_not_there_is_told_so(row, tmp_path, capsys):
    # before: worlds.take([-1]) played the last world without a word (a search's off-by-one read
    # another deal's world into its estimate), and a row past the end raised numpy's bare IndexError;
    # after, both are the search's misuse in one line, naming the row and the worlds there are
    (tmp_path / "bot.py").write_text(TAKES.replace("ROW", str(row)))
    assert cli.main(["run", "--game", "hearts", "--seat", f"0={tmp_path / 'bot.py'}:takes", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert (f"strategy 'bot.py:takes' misused its worlds: worlds.take: row {row} is not one of the 40 worlds "
            f"(rows 0..39)") in err, err


PLAYS_OUT_WITH_NONE = '''
from simtool import bits


def none(view, rng):
    worlds = view.redeal(2, rng)
    worlds.play_out(bits.lowest(worlds.view.legal), None)
    return bits.lowest(view.legal)
'''


def test_a_search_playing_out_with_no_strategy_is_told_what_play_out_takes(tmp_path, capsys):
    # before: "strategy 'bot.py:none' raised TypeError: 'NoneType' object is not iterable"; after,
    # the search's misuse, naming what play_out takes
    (tmp_path / "bot.py").write_text(PLAYS_OUT_WITH_NONE)
    assert cli.main(["run", "--game", "hearts", "--seat", f"0={tmp_path / 'bot.py'}:none", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert ("strategy 'bot.py:none' misused its worlds: play_out: give one strategy (a name or a strategy), or a "
            "list of one per seat (4); got NoneType") in err, err


REDEALS_WITH = '''
import numpy as np
from simtool import bits


def redeals(view, rng):
    view.redeal(2, RNG)
    return bits.lowest(view.legal)
'''


@pytest.mark.parametrize(("given", "named"), [("5", "int"), ("np.random.RandomState(1)", "RandomState")])
def test_a_search_redealing_with_no_generator_is_told_what_redeal_takes(given, named, tmp_path, capsys):
    # before: "raised AttributeError: 'int' object has no attribute 'random'", or for a RandomState
    # "raised TypeError: random() got an unexpected keyword argument 'dtype'"; after, the misuse named
    (tmp_path / "bot.py").write_text(REDEALS_WITH.replace("RNG", given))
    assert cli.main(["run", "--game", "hearts", "--seat", f"0={tmp_path / 'bot.py'}:redeals", "-n", "20",
                     "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert ("strategy 'bot.py:redeals' misused its worlds: view.redeal: rng must be a numpy Generator (the "
            f"strategy's rng, or np.random.default_rng(seed)); got {named}") in err, err
