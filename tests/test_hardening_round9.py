"""Hostile round 9: the Python API, plugin strategies and a designer's own game, against the
surfaces the earlier rounds touched least. Each test failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import re
import sys

import numpy as np
import pytest

import simtool
from simtool.commands import tune
from simtool.engine import Match
from simtool.errors import SimtoolError

from .designer_games.whist import Whist
from .test_cli import cli
from .test_hardening_round5 import OPTION, TOY
from .test_hardening_round12 import installed as installed_package
from .test_hardening_round12 import listed_but_refused


@pytest.mark.parametrize(("change", "words"), [({"trials": 0}, "bad config: its trials 0"),
                                               ({"seed": -1}, "bad config: its seed -1"),
                                               ({"players": 9}, "kansas-city is for 4, 5 players, not 9")])
def test_a_tuning_changed_after_configure_is_refused_before_its_folder_is_made(tmp_path, change, words):
    # before: dataclasses.replace(config, trials=0) ended in an IndexError, players=9 in Kansas
    # City's KeyError, seed=-1 in numpy's ValueError, each after tune.json and study.db were written
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread:min"], trials=2, n=200, seed=1)
    with pytest.raises(SimtoolError, match=words):
        tune.tune(dataclasses.replace(config, **change), tmp_path / "t", jobs=1)
    assert not (tmp_path / "t").exists()


class _AnyWhist(Whist):
    id = "any-whist"

    def match_over(self, match, rnd):
        return (match.totals >= match.rules["target"]).any()  # axis=1 forgotten: one answer for all


class _ThreeRoundWhist(Whist):
    id = "three-round-whist"

    def match_over(self, match, rnd):
        return rnd >= 2  # a fixed number of rounds: one answer for every match is right


def test_a_match_over_that_answers_for_every_match_at_once_is_the_game_s_error(installed):
    # before: a designer's `(totals >= target).any()` (axis forgotten) ended every match of a
    # chunk once one reached the target: 300 matches of Whist all 6 rounds long (1.75% of the
    # totals at the target of 30, against 7.8 rounds and 33% played right), the conformance
    # suite passed, and the tables were written without a word
    installed(_AnyWhist(), _ThreeRoundWhist())
    with pytest.raises(SimtoolError, match=r"game 'any-whist' match_over answered True for a whole batch of matches "
                                           r"at once after round \d+, but False for the batch's first match "
                                           r"asked alone"):
        simtool.run("any-whist", n=300, unit="match", seed=1, strategy="random")
    fixed = simtool.run("three-round-whist", n=300, unit="match", seed=1, strategy="random")
    assert set(fixed.matches["rounds"].to_list()) == {3}


def test_a_rule_option_without_values_leaves_simtool_games_listing_the_others(tmp_path, monkeypatch):
    # before: an installed game declaring Option("hand", ()) made `simtool games` a traceback
    # (IndexError: its default is its first value), and `run --game` of any game not built in too
    empty = TOY.replace(OPTION, 'options = (Option("hand", (), "cards dealt to each player"),)') \
        .replace('id = "climb"', 'id = "empty"')
    installed_package(tmp_path, monkeypatch, "empty_game", empty, "empty", "empty")
    listed_but_refused(tmp_path, "empty", "game 'empty' declares rule option 'hand' with values = (): give its "
                                          "values in a tuple, the default first")


@pytest.mark.parametrize(("options", "says"), [
    ('(Option("hand", (3, "3", 2), "cards"),)', "declares rule option 'hand' with two values written '3' (3, '3', 2): "
                                                "--rule hand=3 cannot tell them apart; give each once"),
    ('(Option("hand", (3, 3, 2), "cards"),)', "with two values written '3' (3, 3, 2)"),
    ('(Option("hand", (3, " 2"), "cards"),)', "with the value ' 2': --rule hand=VALUE cannot give it"),
    ('(Option("hand=size", (3, 2), "cards"),)', "declares rule option 'hand=size': --rule NAME=VALUE cannot name it"),
    ('(Option(" hand", (3, 2), "cards"),)', "declares rule option ' hand': --rule NAME=VALUE cannot name it"),
])
def test_a_rule_option_the_command_line_cannot_give_is_a_declaration_problem(tmp_path, monkeypatch, options, says):
    # before: each loaded as declared: `--rule hand=3` always gave the first value written '3' (the
    # designer's other one never played from the command line), and ' 2', 'hand=size'
    # or ' hand' could not be given at all (--rule hand=size=3: "unknown rule 'hand'")
    text = TOY.replace(OPTION, f"options = {options}").replace('id = "climb"', 'id = "unsaid"')
    installed_package(tmp_path, monkeypatch, "unsaid_game", text, "unsaid", "unsaid")
    try:
        played = cli("run", "--game", "unsaid", "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1, played.output
        assert says in played.stderr, played.stderr
        assert not (tmp_path / "r").exists()
    finally:
        sys.modules.pop("unsaid_game", None)


COLOURS = '''
import numpy as np
from simtool import bits
from strategies import strategy


def parity(view):
    return view.trick[np.arange(len(view)), view.seat] % 2 == 1


@strategy("as_booleans", "announces the colour by the led card's parity, as booleans")
def as_booleans(view, rng):
    return parity(view) if view.kind == "colour" else bits.lowest(view.legal).astype(np.int64)


@strategy("as_integers", "the same, as integers")
def as_integers(view, rng):
    return parity(view).astype(np.int64) if view.kind == "colour" else bits.lowest(view.legal).astype(np.int64)
'''


def test_a_restricted_plugin_answering_in_booleans_is_restricted(tmp_path):
    # before: docs/plugins.md reads a boolean array as options 0 and 1, and the engine did, but the
    # restriction's wrapper passed booleans on unchanged ("malformed"): 'bots.py:as_booleans~higher-colour'
    # played as the unrestricted plugin, seat 0 winning 37.5% of 2,000 deals of Black & White
    # against random seats where restricted play wins 19.9%, and labelled restricted in every table
    (tmp_path / "bots.py").write_text(COLOURS)
    runs = {kind: simtool.run("black-white", n=2000, seed=3, strategy="random",
                              seats={0: f"{tmp_path / 'bots.py'}:as_{kind}~higher-colour"}).seats.drop("strategy")
            for kind in ("booleans", "integers")}
    assert runs["booleans"].equals(runs["integers"])


def test_a_search_reads_its_play_out_policy_s_choice_as_the_engine_does(tmp_path):
    # before: a plugin answering the colour in booleans (options 0 and 1, docs/plugins.md), valid at
    # a seat, ended pimc@playout=bots.py:as_booleans in "strategy 'pimc@...' raised IndexError:
    # boolean index did not match indexed array along axis 0; size of axis is 64 but size of
    # corresponding boolean axis is 60", the search using the policy's own choice as it came;
    # a policy's option 99 was "raised IndexError: index 99 is out of bounds for axis 0 with size 64"
    (tmp_path / "bots.py").write_text(COLOURS + '''

@strategy("far", "option 99")
def far(view, rng):
    return np.full(len(view), 99)
''')
    bots = tmp_path / "bots.py"
    runs = {kind: simtool.run("black-white", n=60, seed=3, strategy="random",
                              seats={0: f"pimc@playout={bots}:as_{kind},samples=2"}).seats.drop("strategy")
            for kind in ("booleans", "integers")}
    assert runs["booleans"].equals(runs["integers"])
    with pytest.raises(SimtoolError, match=r"^strategy 'bots.py:far' chose option 99, outside 0..63, as the "
                                           r"play-out policy of a search \(decision 'lead' of black-white\)$"):
        simtool.run("black-white", n=60, seed=3, strategy="random", seats={0: f"pimc@playout={bots}:far,samples=2"})


class _WordyWhist(Whist):
    id = "wordy-whist"

    def most_tricks(self, rules, p):
        return "13"  # a count, written as text


def test_a_most_tricks_that_is_no_count_is_the_game_s_error_before_anything_plays(installed, tmp_path):
    # before: the run played and wrote its folder, then "seats.parquet is not a readable table
    # (damaged inside); run it again" (the table's check compared the tricks with '13'), and the
    # same at every read and every run again
    installed(_WordyWhist())
    with pytest.raises(SimtoolError, match=r"^game 'wordy-whist' \(tests.test_hardening_round9\) most_tricks returned "
                                           r"'13' at 4 players: expected a whole number of tricks, 0 or more, or None"):
        simtool.run("wordy-whist", n=50, seed=1, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


class _FourAlways(Whist):
    id = "four-always"
    players = (3, 4)

    def deal(self, rng, match, rnd):
        four = Match(4, match.rules, np.zeros((match.n, 4), match.totals.dtype))
        return super().deal(rng, four, rnd)  # the seats of the match it was given left unread


def test_a_round_dealt_for_another_player_count_is_the_game_s_error(installed):
    # before: a designer's game declaring 3 and 4 players but dealing 4 hands whatever the match's
    # p: a 3-player run of `high` ended in polars' ShapeError ("height of column 'score' (200)
    # does not match height of column 'deal' (150)", a traceback), of `random` in "raised
    # IndexError: index 3 is out of bounds for axis 0 with size 3"
    installed(_FourAlways())
    for strategy in ("high", "random"):
        with pytest.raises(SimtoolError, match=r"^game 'four-always' dealt a round of 4 players when asked for 3"):
            simtool.run("four-always", n=50, players=3, seed=1, strategy=strategy)
    assert simtool.run("four-always", n=50, players=4, seed=1).seats.height == 200


class _EditingWhist(Whist):
    id = "editing-whist"

    def deal(self, rng, match, rnd):
        match.rules["target"] = max(5, match.rules["target"] - 1)  # a designer's slip: writes the rules it reads
        return super().deal(rng, match, rnd)


def test_a_game_that_writes_into_its_rules_is_refused_and_the_run_s_rules_stay(installed, tmp_path):
    # before: the game's edits reached the run's own rules: 300 matches of the default target 30
    # wrote run.json's rules as {'target': 23} (and the spec's, which the next chunk of this
    # process would have played from, unlike a worker's), and the conformance suite passed
    installed(_EditingWhist())
    with pytest.raises(SimtoolError, match=r"^game 'editing-whist' changed its rules as it played \(rule target was "
                                           r"30, then 2\d\): a game reads match.rules, never writes them"):
        simtool.run("editing-whist", n=300, unit="match", seed=1, out=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_metrics_of_a_result_the_caller_cut_say_what_they_read(tmp_path):
    # before: simtool.metrics of a Result whose seats were cut to its first 100 deals computed
    # fairness from those 100 and said "400 deals of random at every seat" (run.json's n); one cut
    # to seat 0, or two runs' tables joined, ended in numpy's "ValueError: seat rows are not
    # grouped p to a deal in seat order", a traceback
    import polars as pl

    r = simtool.run("hearts", n=400, seed=1, strategy="random")
    cut = simtool.metrics(dataclasses.replace(r, seats=r.seats.filter(pl.col("deal") < 100)))["fairness"]
    assert cut["estimator"].startswith("seat 0's win share: 100 deals of random at every seat"), cut["estimator"]
    assert simtool.metrics(r)["fairness"]["estimator"].startswith("seat 0's win share: 400 deals of random")
    for seats in (r.seats.filter(pl.col("seat") == 0), pl.concat([r.seats, r.seats])):
        with pytest.raises(SimtoolError, match=r"^metrics: the run's table does not hold one row per deal and seat "
                                               r"\(0\.\.3\); give a run folder, or a run's tables as simtool.run"):
            simtool.metrics(dataclasses.replace(r, seats=seats))


@pytest.mark.parametrize(("param", "says"), [
    ('Param("share", float, 2.0, "a share", 0.0, 1.0)', "parameter 'share' with the default 2.0, which it refuses: "
                                                        "a number 0..1"),
    ('Param("k", int, "3", "k")', "parameter 'k' with the default '3', which it refuses: a whole number"),
    ('Param("mode", str, "z", "m", values=("x", "y"))', "parameter 'mode' with the default 'z', which it refuses"),
    ('Param("k", int, 1, "k"), Param("k", int, 2, "k")', "parameter 'k' twice; give each once"),
    ('Param("on", bool, True, "k")', "parameter 'on' of kind 'bool': a parameter is int, float, str or STRATEGY"),
])
def test_a_plugin_s_parameters_that_cannot_be_played_as_declared_stop_it_loading(tmp_path, param, says):
    # before: each played: the strategy was handed share=2.0 outside its 0..1, k='3' (text) and
    # mode='z' unchecked; two 'k's ran as 'bots.py:bot@k=2' and '@k=5' was refused as given
    # twice; a bool parameter refused every value ("bad parameter on 'False' ...; expected a number")
    (tmp_path / "bots.py").write_text(f'''
import numpy as np
from simtool import bits
from strategies import Param, strategy


@strategy("bot", "lowest option", params=({param},))
def bot(view, rng, params):
    return bits.lowest(view.legal).astype(np.int64)
''')
    with pytest.raises(SimtoolError, match=f"strategy 'bot' declares {re.escape(says)}"):
        simtool.run("black-white", n=20, seed=1, seats={0: f"{tmp_path / 'bots.py'}:bot"})


@pytest.mark.parametrize(("line", "says"), [
    ('lower_wins = "no"', "declares lower_wins = 'no': it must be True (the lowest score wins) or False"),
    ('total_floor = "0"', "declares total_floor = '0': it must be a whole number"),
])
def test_a_scoring_declaration_read_otherwise_than_written_is_a_declaration_problem(tmp_path, monkeypatch, line,
                                                                                      says):
    # before: lower_wins = "no" was read as true: every deal won by its lowest score, tables and
    # verdicts written without a word (100 deals of a Whist, 'high' at every seat: seat 3 won 33.5%);
    # total_floor = "0" played its deals and ended its matches in numpy's UFuncTypeError
    text = TOY.replace("    n_actions = 16\n", f"    n_actions = 16\n    {line}\n")
    text = text.replace('id = "climb"', 'id = "scored"')
    installed_package(tmp_path, monkeypatch, "scored_game", text, "scored", "scored")
    try:
        played = cli("run", "--game", "scored", "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1 and says in played.stderr, played.output
        assert not (tmp_path / "r").exists()
    finally:
        sys.modules.pop("scored_game", None)


def test_a_tuning_configured_with_numpy_whole_numbers_plays(tmp_path):
    # before: configure(..., players=np.int64(4)) stored numpy's 4, written to tune.json as '4',
    # and tune() refused its own tune.json: "cannot resume OUT: tune.json is damaged ('players'
    # is '4', which no tuning writes)"; trials=np.int64(1) was "bad trials np.int64(1)", though
    # simtool.run takes numpy's whole numbers for n, players and seed
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread:min"], trials=np.int64(1), n=200, seed=1,
                            players=np.int64(4))
    assert (type(config.players), type(config.trials)) == (int, int)
    tune.tune(config, tmp_path / "t", jobs=1)
    assert tune.read_config(tmp_path / "t") == config


def test_a_result_s_record_keeps_its_rules_when_the_caller_edits_its_spec():
    # before: result.meta["rules"] was result.spec.rules itself: a notebook taking the rules of the
    # run just made to play a variant (rules = r2.spec.rules; rules["pass_count"] = 3) changed
    # r2's record to pass_count 3, and simtool.metrics([r2, r3]) took the two rule sets for one
    r2 = simtool.run("kansas-city", n=100, seed=1, strategy="random", rules={"pass_count": 2})
    rules = r2.spec.rules
    rules["pass_count"] = 3
    r3 = simtool.run("kansas-city", n=100, seed=1, strategy="random", rules=rules)
    assert r2.meta["rules"]["pass_count"] == 2
    with pytest.raises(SimtoolError, match=r"^metrics are of one game: .*pass_count=2.*pass_count=3"):
        simtool.metrics([r2, r3])


def test_a_rule_option_whose_automatic_default_is_written_as_a_value_is_a_declaration_problem(tmp_path, monkeypatch):
    # before: Option("hand", (3, 2), auto="3") loaded and played: `--rule hand=3` always gave the
    # automatic default '3' (read before the values), the value 3 never played from the command line
    text = TOY.replace(OPTION, 'options = (Option("hand", (3, 2), "cards", auto="3"),)')
    text = text.replace('id = "climb"', 'id = "auto"')
    installed_package(tmp_path, monkeypatch, "auto_game", text, "auto", "auto")
    try:
        played = cli("run", "--game", "auto", "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1, played.output
        assert "declares rule option 'hand' with two values written '3' (3, 2; auto '3'): --rule hand=3 cannot tell " \
               "them apart" in played.stderr, played.stderr
    finally:
        sys.modules.pop("auto_game", None)


def test_a_game_declaring_one_player_is_a_declaration_problem(tmp_path, monkeypatch):
    # before: a designer's Whist declaring players = (1, 4) played 1-player runs, whose one seat won
    # every deal: "Seat verdict: unclear. Seat 0 wins 100.0% of deals ... against a fair 100.0% (95%
    # interval -7.1 to 0.0 points): ... about 2,496 more deals would settle it", and
    # simtool.metrics of such a run ended in a ZeroDivisionError
    text = TOY.replace("players = (2, 3, 4)", "players = (1, 2, 3, 4)").replace('id = "climb"', 'id = "solo"')
    installed_package(tmp_path, monkeypatch, "solo_game", text, "solo", "solo")
    try:
        played = cli("run", "--game", "solo", "--players", "1", "--n", "10", "-j", "1", "--out", tmp_path / "r")
        assert played.exit_code == 2 and played.stderr.count("\n") == 1, played.output
        assert "declares players = (1, 2, 3, 4): a game of 1 player has no seats to compare" in played.stderr
        assert not (tmp_path / "r").exists()
    finally:
        sys.modules.pop("solo_game", None)


def test_a_plugin_file_without_the_strategy_named_lists_only_its_own(tmp_path):
    # before: "no strategy 'same' in two.py; it defines: strategy, first, second": the imported
    # `strategy` decorator offered as one of the file's strategies (two.py:strategy played the
    # decorator, refused as "returned object of shape ()")
    (tmp_path / "two.py").write_text(COLOURS.replace("as_booleans", "first").replace("as_integers", "second"))
    with pytest.raises(SimtoolError, match=r"^no strategy 'same' in .*two.py; it defines: parity, first, second$"):
        simtool.run("black-white", n=10, seed=1, seats={0: f"{tmp_path / 'two.py'}:same"})


def test_ismcts_s_tree_reads_its_play_out_policy_s_choices_as_the_engine_does(tmp_path):
    # before: ismcts's tree read its play-out policy's choices with np.array(..., int64): a plugin
    # policy answering its plays as floats (hoarder's card + 0.5) was cut to whole cards and the
    # run finished without a word, where the same plugin at a seat, or pimc's policy, is refused
    (tmp_path / "otf.py").write_text('''
import numpy as np
from strategies import resolve, strategy


@strategy("half", "hoarder, its plays given as floats")
def half(view, rng):
    choice = resolve("hoarder", "out-trumped")(view, rng)
    return np.asarray(choice, np.float64) + (0.5 if view.kind == "play" else 0)
''')
    with pytest.raises(SimtoolError, match=r"otf.py:half' returned float64 of shape \(\d+,\), expected integers"):
        simtool.run("out-trumped", n=20, seed=3, seats={0: f"ismcts@playout={tmp_path / 'otf.py'}:half,samples=4"})
