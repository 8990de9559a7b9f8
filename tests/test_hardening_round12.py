"""Hostile round 12: a designer's first draft of a game module (the conformance suite and the
registry), ``simtool replay``, ``review`` and ``restrict`` given odd inputs, and the listings of
``simtool games`` and ``strategies``. Each test failed on the code before its fix."""

from __future__ import annotations

import sys

import pytest

from simtool import games

from .test_cli import cli
from .test_hardening_cli import main_error
from .test_hardening_round5 import TOY, suite

# ---- a designer's game module ------------------------------------------------------------------


def installed(tmp_path, monkeypatch, module: str, source: str, dist: str, entry: str) -> None:
    """``source`` as module ``module`` of an installed distribution ``dist``, whose entry point
    ``entry`` of group simtool.games is its GAME (what pip leaves of a designer's package)."""
    (tmp_path / f"{module}.py").write_text(source)
    info = tmp_path / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[simtool.games]\n{entry} = {module}:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_an_installed_game_taking_a_built_in_name_is_listed_as_not_playable(tmp_path, monkeypatch):
    # before: `simtool games` said nothing, and `--game hearts` played simtool's Hearts for the
    # designer who had installed their own game as "hearts": results of another game, complete
    installed(tmp_path, monkeypatch, "my_hearts", TOY.replace('id = "climb"', 'id = "hearts"'), "my-hearts", "hearts")
    try:
        listed = cli("games")
        assert listed.exit_code == 0, listed.output
        line = " ".join(listed.stdout.split("not playable: ")[1].split())
        assert line.startswith("installed game 'hearts' (entry point my_hearts:GAME) takes the name of a "
                               "built-in game: --game hearts plays the built-in one"), line
        assert games.get("hearts") is games.HEARTS  # the built-in keeps its name
    finally:
        sys.modules.pop("my_hearts", None)


def test_an_installed_game_without_a_title_leaves_simtool_games_listing_the_others(tmp_path, monkeypatch):
    # before: `simtool games` ended in a traceback (AttributeError: 'Climb' object has no
    # attribute 'title') for every game installed beside it, and `run --game untitled` too
    untitled = TOY.replace('    title = "Climb (test game)"\n', "").replace('id = "climb"', 'id = "untitled"')
    installed(tmp_path, monkeypatch, "untitled_game", untitled, "untitled", "untitled")
    listed_but_refused(tmp_path, "untitled",
                       "game 'untitled' declares title = None: it must be the game's name in words")


def listed_but_refused(tmp_path, game: str, says: str) -> None:
    """The installed ``game`` (module ``{game}_game``) with a declaration problem: `simtool games`
    lists the others and says ``says`` of it; `run --game` of it is that one line, exit 2, nothing
    written."""
    try:
        listed = cli("games")
        assert listed.exit_code == 0 and "kansas-city" in listed.stdout, listed.output
        assert says in " ".join(listed.stdout.split())
        played = cli("run", "--game", game, "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1 and says in played.stderr, played.output
        assert not (tmp_path / "r").exists()
    finally:
        sys.modules.pop(f"{game}_game", None)


@pytest.mark.parametrize("gid", ["None", "5", '""'])
def test_a_game_whose_id_is_no_name_stops_the_suite_in_one_line(pytester, gid):
    # before: id = None collected and failed deep in a check: "strategy 'balance' plays
    # black-white, not None; valid for None: ..." (and a run: TypeError '<' from sorting ids)
    done = suite(pytester, f"noname_game_{len(gid)}", TOY.replace('id = "climb"', f"id = {gid}"))
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert any(f"game Climb declares id = {eval(gid)!r}: it must be the game's name" in line
               for line in done.errlines), done.errlines


def test_a_rate_reading_an_undeclared_column_is_named(tmp_path, monkeypatch, pytester, capsys):
    # before: the run was written, then its summary ended in polars' ColumnNotFoundError: a
    # traceback, exit 1 (the game returned 'banks' but had not declared it in its columns, so the
    # tables dropped it); the suite passed
    text = TOY.replace('    columns = {"banks": np.int8}\n', "")
    says = "game 'climb' has a rate 'banked' reading 'banks', not a column of its results: declare it in the " \
           "game's columns (now: none)"
    done = suite(pytester, "undeclared_game", text, "-k", "2p and tables")
    done.assert_outcomes(failed=1)
    assert any(says in line for line in done.outlines), done.outlines[-5:]
    import importlib

    (tmp_path / "undeclared_run.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("undeclared_run").GAME))
    main_error(capsys, ["run", "--game", "climb", "--n", "200", "-j", "1", "--out", tmp_path / "r"], says)


@pytest.mark.parametrize("analysis,says", [
    ("'no_such_analysis_module'", "ModuleNotFoundError: No module named 'no_such_analysis_module'"),
    ("'json'", "AttributeError: module 'json' has no attribute 'ANALYSIS'"),
    ("5", "AttributeError: 'int' object has no attribute 'startswith'"),
], ids=["no-module", "no-ANALYSIS", "a-number"])
def test_an_analysis_that_cannot_be_read_is_named(tmp_path, monkeypatch, capsys, analysis, says):
    # before: the run was written, then a traceback (exit 1) from importing the analysis
    import importlib

    module = f"unread_{len(analysis)}"
    (tmp_path / f"{module}.py").write_text(TOY.replace("analysis = __name__", f"analysis = {analysis}"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module(module).GAME))
    main_error(capsys, ["run", "--game", "climb", "--n", "100", "-j", "1", "--out", tmp_path / "r"],
               f"game 'climb' names analysis = {analysis}, which cannot be read: {says}")


def test_a_deal_not_drawn_from_its_rng_is_named_not_blamed_on_the_view(pytester):
    # before: a deal from np.random.default_rng() (unseeded) failed "a view is a copy" with
    # "AssertionError: score": the designer hunted a leak in their view, and "same seed" with a
    # bare assert
    text = TOY.replace("deck.shuffled(rng,", "deck.shuffled(np.random.default_rng(),")
    done = suite(pytester, "unseeded_game", text, "-k", "2p and (view_is_a_copy or same_seed)")
    assert done.ret == 1
    done.assert_outcomes(failed=2)
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 2 and all("the same deals played twice gave different results: the game's deal or play "
                                  "draws from something other than the rng it is given" in line for line in said), said


BANK = 'bank = yield Decision("bank", winner, bits.of((0, 1)), active=due)'
DISCARD = 'gone = yield Decision("discard", None, s.hands.copy())'


@pytest.mark.parametrize("where,change,says", [
    # a float seat was cut down to whole seats and played
    ("seat", (BANK, BANK.replace("winner,", "winner + 0.5,")), "a seat of float64 of shape (100,): expected seat "
                                                                 "numbers (whole numbers), of shape (100,)"),
    # a boolean mask of options (one column per option): a ValueError from numpy's broadcasting
    ("mask", (BANK, BANK.replace("bits.of((0, 1))", "np.ones((s.n, 2), bool)")),
     "a legal of bool of shape (100, 2): expected option sets (whole numbers, bit c for option c: simtool.bits; "
     "not a boolean mask), of shape (100,)"),
    # options as floats: cut to whole sets and played
    ("float", (BANK, BANK.replace("bits.of((0, 1))", "np.full(s.n, 3.0)")), "a legal of float64 of shape (100,)"),
    # one set per deal where every seat chooses at once: a ValueError from numpy's broadcasting
    ("together", (DISCARD, DISCARD.replace("s.hands.copy()", "s.hands[:, 0].copy()")),
     "gave decision 'discard' a legal of uint64 of shape (100,): expected option sets"),
], ids=["float-seat", "boolean-mask", "float-sets", "one-set-for-all-seats"])
def test_a_decision_of_the_wrong_type_or_shape_is_named(tmp_path, monkeypatch, where, change, says):
    import importlib

    import simtool
    from simtool.errors import SimtoolError

    (tmp_path / f"decides_{where}.py").write_text(TOY.replace(*change))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module(f"decides_{where}").GAME
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, game))
    with pytest.raises(SimtoolError) as raised:
        simtool.run("climb", n=100, jobs=1, strategy="random", unit="match", seed=1, out=tmp_path / "r")
    assert str(raised.value).startswith("game 'climb' gave decision '")
    assert says in str(raised.value) and "python -m pytest --simtool-game climb" in str(raised.value)
    assert not (tmp_path / "r" / "seats.parquet").exists()


# ---- simtool replay ----------------------------------------------------------------------------

def replayed_results(text: str) -> list[tuple[int, int]]:
    """(seat, score) of each results line of a replay."""
    rows = [dict(pair.split("=") for pair in line.split()) for line in
            text.split("results:\n")[1].strip().splitlines()]
    return [(int(r["seat"]), int(r["score"])) for r in rows]


def test_a_replay_without_n_says_which_run_it_replays(tmp_path):
    # before: a run of --n 300 played other deals than `replay --deal 12` without --n (a chunk's
    # deals depend on its size), and the replay said nothing of the n it had assumed: a designer
    # read the play of another deal as the one in their table
    import polars as pl

    assert cli("run", "--game", "black-white", "-s", "random", "--n", "300", "--seed", "7", "-j", "1", "-q",
               "--out", tmp_path / "r").exit_code == 0
    table = pl.read_parquet(tmp_path / "r" / "seats.parquet").filter(pl.col("deal") == 12).sort("seat")
    given = cli("replay", "--game", "black-white", "-s", "random", "--seed", "7", "--deal", "12", "--n", "300")
    assert given.exit_code == 0 and "as a run of --n" not in given.stdout
    assert replayed_results(given.stdout) == table.select("seat", "score").rows()
    assumed = cli("replay", "--game", "black-white", "-s", "random", "--seed", "7", "--deal", "12")
    assert assumed.exit_code == 0
    header = assumed.stdout.splitlines()[1]
    assert header.startswith("as a run of --n ") and "a run of fewer played other deals: give its --n" in header
    n = int(header.split()[5])
    assert n > 300 and replayed_results(assumed.stdout) != table.select("seat", "score").rows()


# ---- simtool restrict --------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["", " "])
def test_restrict_refuses_an_empty_strategy_as_run_does(tmp_path, strategy):
    # before: `restrict -s ""` measured the game's default strategy (target) and wrote its runs as
    # asked for; `run -s ""` refused it ("unknown strategy ''")
    out = tmp_path / "r"
    done = cli("restrict", "--game", "kansas-city", "-s", strategy, "--n", "64", "--seed", "1", "-j", "1", "-q",
               "--out", out)
    assert done.exit_code == 2 and done.stderr.count("\n") == 1, done.output
    assert done.stderr.startswith(f"error: unknown strategy '{strategy}'; valid for kansas-city: "), done.stderr
    assert not out.exists()


# ---- simtool games and strategies --------------------------------------------------------------

def test_an_installed_strategy_taking_a_built_in_name_is_listed_as_not_played(monkeypatch):
    # before: `simtool strategies` said nothing of it, and `--seat 0=greedy` played the built-in
    # greedy for the designer who had installed their own heuristic as "greedy"
    from importlib.metadata import EntryPoint

    import strategies

    group = "simtool.strategies"
    eps = [EntryPoint("greedy", "tests.plugins.good:lowest_card", group),
           EntryPoint("shipped", "tests.plugins.good:lowest_card", group)]
    monkeypatch.setattr(strategies, "entry_points", lambda group: eps if group == eps[0].group else [])
    listed = cli("strategies")
    assert listed.exit_code == 0, listed.output
    text = " ".join(listed.stdout.replace("│", " ").split())
    assert "greedy (installed) ? broken: installed strategy 'greedy'" in text and "takes the name of a built-in" in text
    assert strategies.broken() == {"greedy (installed)": "installed strategy 'greedy' (entry point tests.plugins."
                                   "good:lowest_card) takes the name of a built-in strategy: 'greedy' plays the "
                                   "built-in one; give yours another name"}
    assert "shipped" in text and "shipped (installed)" not in text
    assert strategies.registry()["greedy"] is next(s for s in strategies.BUILT_IN if s.name == "greedy")


def test_a_game_that_does_not_re_deal_lists_no_search_and_refuses_one_before_playing(tmp_path, monkeypatch, capsys):
    # before: `simtool strategies --game climb` (a game whose view declares no state) listed pimc
    # and clairvoyant, and a run of them stopped at the first decision blaming the strategy
    # ("strategy 'pimc' raised SimtoolError: re-dealing is not implemented", clairvoyant an
    # AttributeError)
    import strategies

    from . import toy_game

    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, toy_game.GAME))
    assert sorted(strategies.registry("climb")) == ["high", "low", "random"]
    assert {"pimc", "clairvoyant"} <= set(strategies.registry("hearts"))
    listed = cli("strategies", "--game", "climb")
    assert listed.exit_code == 0 and "pimc" not in listed.stdout and "clairvoyant" not in listed.stdout
    for name in ("pimc", "clairvoyant", "pimc@samples=2"):
        main_error(capsys, ["run", "--game", "climb", "-s", name, "--n", "20", "-j", "1", "--out", tmp_path / "r"],
                   f"strategy '{name.partition('@')[0]}' plays out re-dealt worlds, and climb does not re-deal",
                   "valid for climb: high, low, random")
        assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("default,why", [
    ("lowestt", "unknown strategy 'lowestt'; valid for climb: high, low, random"),
    ("ducker", "strategy 'ducker' plays hearts, not climb"),
])
def test_a_default_strategy_that_cannot_play_the_game_is_blamed_on_the_game(tmp_path, monkeypatch, capsys,
                                                                             default, why):
    # before: `simtool run --game climb` said "unknown strategy 'lowestt'", a name the user never gave
    import importlib

    module = f"defaults_{default}"
    (tmp_path / f"{module}.py").write_text(TOY.replace("    n_actions = 16\n",
                                                       f"    n_actions = 16\n    default_strategy = {default!r}\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module(module).GAME))
    main_error(capsys, ["run", "--game", "climb", "--n", "20", "-j", "1", "--out", tmp_path / "r"],
               f"game 'climb' declares default_strategy = '{default}', which cannot play it ({why}",
               "give --strategy, or fix the game")
    played = cli("run", "--game", "climb", "--n", "20", "-j", "1", "-q", "-s", "low", "--out", tmp_path / "low")
    assert played.exit_code == 0, played.output  # a strategy given: the default is not asked for


@pytest.mark.parametrize("change,says", [
    (('options = (Option("hand", (3, 2, 4), "cards dealt to each player"),)',
      'options = (Option("hand", (3, 2, 4), "cards dealt to each player"))'),
     "declares options = Option 'hand', not in a tuple: it must be a tuple of simtool.options.Option"),
    (('options = (Option("hand", (3, 2, 4), "cards dealt to each player"),)', 'options = ("hand",)'),
     "declares options = ('hand',): it must be a tuple of simtool.options.Option"),
    (('columns = {"banks": np.int8}', 'columns = ["banks"]'),
     "declares columns = ['banks']: it must be a dict of column names and numpy types"),
], ids=["one-option-comma-forgotten", "option-names", "column-list"])
def test_options_or_columns_of_another_shape_are_named_and_the_others_listed(tmp_path, monkeypatch, change, says):
    # before: `simtool games` ended in a traceback (TypeError: 'Option' object is not iterable,
    # AttributeError, ValueError) for every game installed beside it, and `run --game draft` too
    assert change[0] in TOY
    installed(tmp_path, monkeypatch, "draft_game", TOY.replace(*change).replace('id = "climb"', 'id = "draft"'),
              "draft", "draft")
    try:
        listed = cli("games")
        assert listed.exit_code == 0 and "kansas-city" in listed.stdout, listed.output
        assert f"game 'draft' {says}" in " ".join(listed.stdout.split())
        played = cli("run", "--game", "draft", "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1 and says in played.stderr, played.output
    finally:
        sys.modules.pop("draft_game", None)
