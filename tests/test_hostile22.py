"""Hostile round 22: designer games whose results hang on something other than the seed (the
clock, state kept between chunks), ... Each test failed on the code before its fix."""

from __future__ import annotations

import sys

import pytest

from .test_hardening_round5 import TOY, suite

CLOCKED = TOY.replace("deck.shuffled(rng,", "deck.shuffled(np.random.default_rng(int(__import__('time').time())),")


def test_a_deal_seeded_from_the_clock_fails_the_suite(pytester):
    """A deal drawn from a generator seeded by the clock's second (``default_rng(int(time.time()))``)
    passed every check: the same seed played twice within one second gave the same deals, and a
    run's results changed from one second to the next."""
    done = suite(pytester, "clocked_game", CLOCKED, "-k", "2p and same_seed")
    assert done.ret == 1
    done.assert_outcomes(failed=1)
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and "the same deals played twice gave different results" in said[0], said
    assert "(np.random.default_rng() unseeded, random, time)" in said[0]


# the lead seat of each deal from a table drawn once per process, from the first chunk's rng
CACHED = TOY.replace("class ClimbView(View):", '''FIRST = []


class ClimbView(View):''').replace("np.full(n, rnd % p, np.int64))", '''FIRST[0][:n] % p)''').replace(
    "        hands = deck.hands(", '''        if not FIRST:
            FIRST.append(rng.integers(0, 12, 4096))
        hands = deck.hands(''')


def installed(folder, module: str, game_id: str) -> None:
    """``folder``'s ``module``.py as an installed distribution whose entry point names its
    ``GAME`` ``game_id`` (worker and fresh processes find a game by its entry point)."""
    info = folder / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[simtool.games]\n{game_id} = {module}:GAME\n")


def suite_of(pytester, checks: str):
    """The conformance suite's ``checks`` (a ``-k`` expression) on the installed game ``climb``,
    in a process of its own: the suite's jobs check imports numpy modules, which an in-process
    run takes out of sys.modules at its end, and numpy's extensions cannot be loaded twice."""
    return pytester.runpytest_subprocess("-p", "simtool.testing", "--simtool-game", "climb", "-p", "no:cacheprovider",
                                         "-q", "-n", "0", "-k", checks)


def test_a_game_keeping_a_draw_between_chunks_fails_the_suite(pytester):
    """A game that keeps what its first chunk drew (a module's cache) passed every check, the
    jobs one too (its workers were forked from the suite's process, the cache filled), while a
    run's results changed with --jobs: each worker of a fresh `simtool run` filled its own."""
    pytester.makepyfile(cached_game=CACHED)
    installed(pytester.path, "cached_game", "climb")
    done = suite_of(pytester, "3p and legal_options or jobs or fresh")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    says = ("of a run of 20 deals gave other results in a fresh process that played the chunks last to first: the "
            "game keeps state between deals outside the round")
    assert said and all(says in line for line in said), said


LABELLED = TOY.replace("    def match_over(self, match, rnd):", '''    def label(self, kind, option):
        return {"discard": "D", "play": "P"}[kind] + str(option)  # the 'bank' decision forgotten

    def match_over(self, match, rnd):''')
DESCRIBED = TOY.replace("    def match_over(self, match, rnd):", '''    def describe(self, state, row):
        return state.hands[row]  # the hands as card sets, not lines

    def match_over(self, match, rnd):''')
NAMELESS = TOY.replace("    def match_over(self, match, rnd):", '''    def label(self, kind, option):
        return None if kind == "bank" else str(option)

    def match_over(self, match, rnd):''')


@pytest.mark.parametrize("module,text,says", [
    ("labelled_game", LABELLED, "game 'climb' (labelled_game) raised KeyError: 'bank'"),
    ("described_game", DESCRIBED, "describe(state, row) gave"),
    ("nameless_game", NAMELESS, "label_at(state, 'bank', 0) gave None"),
], ids=["label-raises", "describe-no-lines", "label-no-text"])
def test_a_game_whose_replay_fails_fails_the_suite(pytester, module, text, says):
    """A label or describe that `simtool replay` could not use (a KeyError for a decision the label
    forgot; describe returning the hands' sets; a label of None, printed 'seat 1 bank: None')
    passed every check, while replay's one line sent the designer to the suite: "its conformance
    suite shows where"."""
    done = suite(pytester, module, text, "-k", "2p and replay")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and says in said[0], said


def test_a_decision_its_game_does_not_declare_fails_the_suite(pytester):
    """A game declaring decisions = ("discard", "play") that also asks 'bank' passed every check,
    and pimc@focus=bank was refused: "climb has no decision of that kind"."""
    text = TOY.replace('    n_actions = 16\n', '    n_actions = 16\n    decisions = ("discard", "play")\n')
    pytester.makepyfile(undeclared_kinds=text)
    # in a process of its own: the check imports scipy and numpy modules through every strategy,
    # which an in-process run takes out of sys.modules, and numpy's cannot be loaded twice
    done = pytester.runpytest_subprocess("-p", "simtool.testing", "--simtool-game", "undeclared_kinds:GAME",
                                         "-p", "no:cacheprovider", "-q", "-n", "0", "-k", "2p and legal_options")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and "the game asked a decision of kind 'bank', which its decisions ('discard', 'play') " \
                               "do not declare" in said[0], said


SEEN = '''
import json
import numpy as np
from simtool import bits
from strategies import strategy

@strategy("seen", "random, writing down the match totals its views show")
def seen(view, rng):
    with open(LOG, "a") as f:
        f.write(json.dumps([int(view.rnd), view.totals.tolist()]) + "\\n")
    return bits.uniform(view.legal.copy(), rng, view.n_actions)
'''


@pytest.mark.parametrize("game", ["kansas-city", "hearts", "black-white"])
def test_duplicate_matches_show_each_copy_its_own_totals(tmp_path, game):
    """A view's totals ("Match totals before this hand") were 0 in every round of a duplicate
    match (each round was dealt from a fresh match, for its cards): a strategy that reads them
    played another game there than in the real matches (Kansas City: 0 where they reach 42)."""
    import json

    import polars as pl

    import simtool

    log = tmp_path / "seen.log"
    (tmp_path / "seen.py").write_text(f"LOG = {str(log)!r}\n" + SEEN)
    r = simtool.run(game, n=24, unit="match", duplicate=True, strategy=f"{tmp_path / 'seen.py'}:seen", seed=3, jobs=1)
    before = (r.seats.sort("round").with_columns(
        pl.col("score").cum_sum().over("match", "rotation", "seat").alias("after"))
        .with_columns((pl.col("after") - pl.col("score")).alias("before")))
    truth: dict[int, set] = {}
    for (_, _, rnd), rows in before.sort("seat").group_by(["match", "rotation", "round"]):
        truth.setdefault(rnd, set()).add(tuple(rows["before"].to_list()))
    shown = [json.loads(line) for line in log.read_text().splitlines()]
    assert max(rnd for rnd, _ in shown) >= 1
    for rnd, totals in shown:
        assert {tuple(row) for row in totals} <= truth[rnd], (rnd, totals[:3])


# the winner of a round leads the next: kept in the match by end_round, read by the deal
WINNER_LEADS = TOY.replace("class ClimbView(View):", '''@dataclass
class LeadMatch(Match):
    leader: np.ndarray = None


class ClimbView(View):''').replace("np.full(n, rnd % p, np.int64))", "match.leader.copy())").replace(
    "    def match_over(self, match, rnd):", '''    def new_match(self, n, p, rules):
        return LeadMatch(p, rules, np.zeros((n, p), np.int32), np.zeros(n, np.int64))

    def end_round(self, match, results):
        super().end_round(match, results)
        match.leader = np.argmax(results["score"], axis=1)

    def match_over(self, match, rnd):''')


def test_a_deal_reading_the_match_undeclared_fails_the_suite(pytester):
    """A deal that reads what end_round kept in the match (the last winner leads) without
    deal_reads_match passed every check, while each round of a --duplicate match was dealt from a
    fresh match: seat 0 led every round there."""
    done = suite(pytester, "winner_leads", WINNER_LEADS, "-k", "duplicate and match")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and "round 1 dealt from the match after round 0 differs from one dealt from a fresh match " \
                               "in 'leader'" in said[0], said


CHECKED = TOY.replace("    def match_over(self, match, rnd):", '''    def check_rules(self, rules, p):
        if rules["hand"] == 4 and p == 4:
            raise KeyError("hand")  # the designer's bug: a key the rules do not hold
        if rules["hand"] == 2:
            return "two cards cannot be played"  # returned, not raised

    def match_over(self, match, rnd):''')


@pytest.fixture
def checked_game(tmp_path, monkeypatch):
    import importlib

    from simtool import games

    (tmp_path / "checked_game.py").write_text(CHECKED)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("checked_game").GAME))
    yield
    sys.modules.pop("checked_game", None)


@pytest.mark.parametrize("argv", [
    ["run", "-g", "climb", "-p", "4", "--rule", "hand=4", "-n", "10", "-q"],
    ["sweep", "-g", "climb", "-p", "3,4", "--rule", "hand=3,4", "-n", "10", "-q"],
    ["tune", "-g", "climb", "-p", "4", "--vary", "hand=3,4", "--objective", "seat_spread", "--trials", "3", "-n", "10",
     "-q", "-o", "runs/tune"],
    ["review", "-g", "climb", "-p", "4", "--rule", "hand=4", "-q", "--out", "runs/review"],
], ids=["run", "sweep", "tune", "review"])
def test_a_check_rules_that_raises_is_named_in_one_line(checked_game, tmp_path, capsys, monkeypatch, argv):
    """A designer's check_rules raising KeyError ended run, sweep and tune in a traceback (exit 1)."""
    from .test_hardening_cli import main_error

    monkeypatch.chdir(tmp_path)
    main_error(capsys, argv, "game 'climb' (checked_game) raised KeyError: 'hand' in check_rules(rules, 4)")
    # a tuning meets the value in its play, its folder left as an interrupted tuning's: no result
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.html"))
    assert argv[0] == "tune" or not (tmp_path / "runs").exists()


def test_a_check_rules_that_returns_its_refusal_is_named(checked_game, tmp_path, capsys, monkeypatch):
    """check_rules returning its reason instead of raising it played the rules it meant to refuse."""
    from .test_hardening_cli import main_error

    monkeypatch.chdir(tmp_path)
    main_error(capsys, ["run", "-g", "climb", "--rule", "hand=2", "-n", "10", "-q", "--out", "r"],
               "game 'climb' check_rules(rules, 3) returned 'two cards cannot be played'; it refuses by raising "
               "simtool.errors.SimtoolError")
    assert not (tmp_path / "r").exists()


PLAYED = TOY.replace("    def match_over(self, match, rnd):", '''    def played(self, rules, p):
        return {**rules, "hand": rules["hands"]}  # the designer's bug: a key the rules do not hold

    def match_over(self, match, rnd):''')
PLAYED_NONE = TOY.replace("    def match_over(self, match, rnd):", '''    def played(self, rules, p):
        rules = dict(rules)  # the designer's bug: the dict made, never returned

    def match_over(self, match, rnd):''')


@pytest.mark.parametrize("text,says", [
    (PLAYED, "game 'climb' (played_game) raised KeyError: 'hands' in played(rules, 3)"),
    (PLAYED_NONE, "game 'climb' played(rules, 3) returned None; it returns the rules as played, a dict"),
], ids=["raises", "returns-none"])
@pytest.mark.parametrize("argv", [
    ["sweep", "-g", "climb", "--rule", "hand=3,2", "-n", "10", "-q", "--runs", "runs/s", "-o", "s.html"],
    ["tune", "-g", "climb", "--vary", "hand=3,2", "--objective", "seat_spread", "--trials", "2", "-n", "10",
     "-q", "-o", "runs/tune"],
    ["review", "-g", "climb", "--vs-rule", "hand=2", "-q", "--out", "runs/review"],
], ids=["sweep", "tune", "review"])
def test_a_played_that_fails_is_named_in_one_line(tmp_path, capsys, monkeypatch, text, says, argv):
    """A designer's Game.played (the rules as played: "sheet" as its number) raising KeyError, or
    returning None, ended sweep, tune and review in a traceback (exit 1)."""
    import importlib

    from simtool import games

    from .test_hardening_cli import main_error

    (tmp_path / "played_game.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("played_game").GAME))
    monkeypatch.chdir(tmp_path)
    try:
        main_error(capsys, argv, says)
    finally:
        sys.modules.pop("played_game", None)
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.html"))


HAND = '''    hand = own("hands", "The acting seat's cards, ``(m,)`` sets.")'''
BROKEN_VIEW = TOY.replace(HAND, HAND + '''

    @property
    def strength(self):
        """How high each option ranks."""
        return self.ranks_of_cards  # the designer's typo: no such field''')


def test_a_view_field_that_fails_is_the_games_error_not_the_strategys(tmp_path, monkeypatch):
    """A designer's view field raising as a built-in strategy read it (high reads view.strength)
    was reported as "strategy 'high' raised AttributeError": the designer looked for a bug in
    simtool's strategy."""
    import importlib

    import simtool
    from simtool import games
    from simtool.errors import GameError

    (tmp_path / "broken_view.py").write_text(BROKEN_VIEW)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("broken_view").GAME))
    try:
        with pytest.raises(GameError) as caught:
            simtool.run("climb", n=10, strategy="high", seed=1, jobs=1)
    finally:
        sys.modules.pop("broken_view", None)
    said = str(caught.value)
    assert said.startswith("game 'climb''s view (broken_view.ClimbView) raised AttributeError: "), said
    assert "while strategy 'high' read it (decision 'discard' of climb, deal 0 of the run" in said, said
    assert "python -m pytest --simtool-game climb" in said


def test_a_plugin_reading_a_view_field_that_is_not_there_is_still_its_own_error(tmp_path):
    import simtool
    from simtool.errors import StrategyError

    (tmp_path / "typo.py").write_text("from strategies import strategy\n\n@strategy('typo', 'reads view.hnad')\n"
                                      "def typo(view, rng):\n    return view.hnad\n")
    with pytest.raises(StrategyError, match="strategy '.*typo.py:typo' raised AttributeError"):
        simtool.run("kansas-city", n=10, strategy=f"{tmp_path / 'typo.py'}:typo", seed=1, jobs=1)


# every winner banks (no decision due in some deals only), and a field read without its rows
ROWLESS = TOY.replace(", active=due)", ")").replace(HAND, HAND + '''
    leaders = Field(lambda s, rows, seat: s.leader.copy(), "The seat leading the trick, ``(m,)``.")''').replace(
    "from simtool.engine import Decision, Game, Match, View, cells, own",
    "from simtool.engine import Decision, Field, Game, Match, View, cells, own")


def test_a_view_field_that_ignores_its_rows_fails_the_suite(pytester):
    """A Field reading every deal of the batch whatever its rows passed the check that every field
    holds one entry per deal of the view, which only read views of every deal (one strategy at
    every seat); where seats play different strategies a view holds some deals, and the field
    handed a strategy other deals' values, in their places."""
    done = suite(pytester, "rowless_game", ROWLESS, "-k", "2p and view_field")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert len(said) == 1 and "field 'leaders' holds 40 entries at 'bank' in a view of 12 deals" in said[0], said


# 'totals' here are the points taken this hand, from 0: no copy of the match's
DEALT = "                     np.full(n, rnd % p, np.int64))"
SCORED = '        return {"score": s.tricks + s.banks,'
LEADER = "    leader: np.ndarray\n"
HAND_TOTALS = TOY.replace(LEADER, LEADER + "    totals: np.ndarray = None\n").replace(
    DEALT, DEALT[:-1] + ", np.zeros((n, p), np.int16))").replace(
    SCORED, '        s.totals += s.tricks + s.banks\n        return {"score": s.totals.copy(),')


def test_duplicate_matches_leave_a_field_that_only_starts_at_zero(tmp_path, monkeypatch):
    """A round state's field named totals that counts this hand's points from 0 (no copy of the
    match's) is not the match totals: duplicate matches set only what the deal copied from them."""
    import importlib

    import simtool
    from simtool import games

    (tmp_path / "hand_totals.py").write_text(HAND_TOTALS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("hand_totals").GAME))
    try:
        r = simtool.run("climb", n=30, unit="match", duplicate=True, strategy="random", seed=2, jobs=1)
    finally:
        sys.modules.pop("hand_totals", None)
    assert r.seats["round"].max() == 1 and 0 <= r.seats["score"].min() and r.seats["score"].max() <= 2 + 1


CARD_LABELS = TOY.replace("    def match_over(self, match, rnd):", '''    def label(self, kind, option):
        return {c: f"C{c}" for c in range(12)}[option] if kind == "play" else str(option)

    def match_over(self, match, rnd):''')


def test_an_illegal_choice_is_the_strategys_even_where_the_games_label_fails(tmp_path, monkeypatch):
    """A plugin choosing option 13, no card at 3 players, was reported as the game's KeyError (its
    label names only the cards it has): the strategy's illegal choice went unsaid."""
    import importlib

    import simtool
    from simtool import games
    from simtool.errors import StrategyError

    (tmp_path / "card_labels.py").write_text(CARD_LABELS)
    (tmp_path / "thirteen.py").write_text("import numpy as np\nfrom strategies import strategy\n\n"
                                          "@strategy('thirteen', 'option 13 in play')\ndef thirteen(view, rng):\n"
                                          "    if view.kind == 'play':\n        return np.full(len(view), 13)\n"
                                          "    from simtool import bits\n    return bits.lowest(view.legal)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("card_labels").GAME))
    try:
        with pytest.raises(StrategyError, match=r"thirteen.py:thirteen' chose the illegal option 13 at decision "
                                                r"'play' of climb"):
            simtool.run("climb", n=10, seats={0: f"{tmp_path / 'thirteen.py'}:thirteen"}, seed=1, jobs=1)
    finally:
        sys.modules.pop("card_labels", None)


def test_a_plugin_whose_file_name_is_not_utf8_is_one_line(tmp_path, capsys):
    """A plugin file named in bytes that are not UTF-8 (LC_ALL=C, b'b\\xffot.py') ended the run in a
    UnicodeEncodeError traceback (exit 1) once its first chunk was played: the tables name the
    strategy by its file."""
    import os

    from simtool import cli

    name = os.fsdecode(b"b\xffot.py")
    (tmp_path / name).write_text("from strategies import strategy\nfrom simtool import bits\n\n"
                                 "@strategy('bot', 'the lowest option')\ndef bot(view, rng):\n"
                                 "    return bits.lowest(view.legal)\n")
    code = cli.main(["run", "-g", "black-white", "-n", "10", "-q", "-j", "1", "--out", str(tmp_path / "r"),
                     "--seat", f"0={tmp_path / name}:bot"])
    said = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in said, said
    assert said.startswith("error: cannot use the strategy plugin ") and "b\\udcffot.py: its file name is not UTF-8 " \
                                                                            "text" in said, said
    assert not (tmp_path / "r").exists()


# each deal's first leader from a string's hash, which Python seeds afresh in every process
HASHED = TOY.replace("np.full(n, rnd % p, np.int64))", "np.array([hash(f'deal {i}') % p for i in range(n)]))")


def test_a_game_dealing_by_a_strings_hash_fails_the_suite(pytester, monkeypatch):
    """A deal reading hash() of a string (or a set of strings' order) plays alike within a process
    and its forked workers, so the suite passed, while two runs of the same seed, each a process
    of its own (a --resume, another day's run), dealt differently."""
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    pytester.makepyfile(hashed_game=HASHED)
    installed(pytester.path, "hashed_game", "climb")
    done = suite_of(pytester, "same_seed or jobs or fresh")
    assert done.ret == 1, done.outlines[-5:]
    said = [line for line in done.outlines if line.startswith("E ") and "AssertionError: " in line]
    assert said and all("gave other results in a fresh process" in line for line in said), said


def test_a_game_edited_since_this_process_imported_it_is_refused(tmp_path, monkeypatch):
    """A notebook's second simtool.run after the designer edited their installed game's module
    played the module it had imported and recorded the edited source's SHA-256 in run.json: the
    record named a version that had not played (and a resume from a fresh process then played
    the edited one on the same record)."""
    import simtool
    from simtool.errors import SimtoolError

    source = tmp_path / "edited_in_place.py"
    source.write_text(TOY.replace('id = "climb"', 'id = "edited-climb"'))
    installed(tmp_path, "edited_in_place", "edited-climb")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        simtool.run("edited-climb", n=20, seed=1, jobs=1, out=tmp_path / "first")
        source.write_text(source.read_text().replace("s.tricks + s.banks", "2 * s.tricks + s.banks"))
        with pytest.raises(SimtoolError, match="installed game 'edited-climb' \\(edited_in_place:GAME\\) changed "
                                               "since this process imported it"):
            simtool.run("edited-climb", n=20, seed=1, jobs=1, out=tmp_path / "first", force=True)
        assert (tmp_path / "first" / "seats.parquet").is_file()  # refused before the run there was replaced
        source.write_text(source.read_text().replace("2 * s.tricks + s.banks", "s.tricks + s.banks"))
        simtool.run("edited-climb", n=20, seed=1, jobs=1, out=tmp_path / "again")  # the version it imported
    finally:
        sys.modules.pop("edited_in_place", None)


GLOBAL_DRAWS = '''
import numpy as np
from strategies import strategy

@strategy("glob", "random from numpy's global generator")
def glob(view, rng):
    return np.where(view.mask, np.random.random((len(view), view.n_actions)), -1).argmax(axis=1)
'''


def test_two_runs_in_threads_play_a_global_generators_draws_as_alone(tmp_path):
    """numpy's global generator is seeded per chunk, so a plugin drawing from it plays the same every
    time (docs/plugins.md): two simtool.run calls in threads of one process (a notebook's) seeded
    it in turns, each run's plugin drew the other's numbers, and neither gave its tables alone."""
    import threading

    import simtool

    (tmp_path / "glob.py").write_text(GLOBAL_DRAWS)
    plugin = f"{tmp_path / 'glob.py'}:glob"
    alone = simtool.run("black-white", n=3000, seed=1, strategy=plugin, jobs=1).seats
    got: dict[int, list] = {0: [], 1: []}

    def play(k: int) -> None:
        got[k].append(simtool.run("black-white", n=3000, seed=1 + k, strategy=plugin, jobs=1).seats)

    for _ in range(2):
        threads = [threading.Thread(target=play, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(got[0]) == 2 and all(seats.equals(alone) for seats in got[0])


@pytest.mark.parametrize("argv", [
    ["report", "RUN", "-o", "page.html"],
    ["sweep", "-g", "black-white", "-n", "10", "--runs", "sweep", "-o", "page.html"],
], ids=["report", "sweep"])
def test_a_title_that_is_not_utf8_is_one_line(tmp_path, capsys, monkeypatch, argv):
    """--title in bytes that are not UTF-8 (an LC_ALL=C shell's) wrote a page that is not UTF-8,
    though it says it is (a browser showed the title's byte as a question mark)."""
    import os

    import simtool
    from simtool import cli

    monkeypatch.chdir(tmp_path)
    simtool.run("black-white", n=10, seed=1, jobs=1, out=tmp_path / "RUN")
    code = cli.main([*argv, "--title", os.fsdecode(b"T\xfftle"), "-q"] if argv[0] == "sweep"
                    else [*argv, "--title", os.fsdecode(b"T\xfftle")])
    said = capsys.readouterr().err.strip()
    assert code == 2 and said.startswith("error: bad --title 'T\\udcfftle'; expected UTF-8 text"), said
    assert not (tmp_path / "page.html").exists() and not (tmp_path / "sweep").exists()


DEALS = '''        n, p, h = match.n, match.p, match.rules["hand"]
'''
FOUR_FAILS = TOY.replace(DEALS, DEALS + '''        if h == 4:
            raise ValueError("four cards")
''')


def test_a_games_error_under_other_rules_says_the_suite_plays_the_defaults(tmp_path, monkeypatch):
    """A designer's deal failing only under --rule hand=4 sent the designer to its conformance
    suite "which shows where", and the suite, playing the default rules, passed."""
    import importlib

    import simtool
    from simtool import games
    from simtool.errors import GameError

    (tmp_path / "four_fails.py").write_text(FOUR_FAILS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, importlib.import_module("four_fails").GAME))
    try:
        with pytest.raises(GameError, match=r"raised ValueError: four cards; its conformance suite shows where: "
                                            r"python -m pytest --simtool-game climb \(it plays the game's default "
                                            r"rules, not this run's hand=4\)$"):
            simtool.run("climb", n=10, rules={"hand": 4}, seed=1, jobs=1)
    finally:
        sys.modules.pop("four_fails", None)


def test_a_view_field_that_fails_in_an_isolated_plugins_process_is_the_games_error(tmp_path, monkeypatch):
    """With --isolate the plugin's process computes a view property of the game's own view class:
    its failure came back as "strategy 'strong.py:strong' raised AttributeError", naming no view.
    Said by a process that may be untrusted, it stays the strategy's error, saying what it says."""
    import simtool
    from simtool.errors import StrategyError

    (tmp_path / "broken_view_installed.py").write_text(BROKEN_VIEW.replace('id = "climb"', 'id = "broken-climb"'))
    installed(tmp_path, "broken_view_installed", "broken-climb")
    (tmp_path / "strong.py").write_text("import numpy as np\nfrom strategies import strategy\n\n"
                                        "@strategy('strong', 'the strongest option')\ndef strong(view, rng):\n"
                                        "    return np.where(view.mask, view.strength, -1).argmax(axis=1)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.raises(StrategyError, match=r"^strategy '.*strong.py:strong' says from its isolated process that "
                                                r"game 'broken-climb''s view \(broken_view_installed.ClimbView\) "
                                                r"raised AttributeError: .*ranks_of_cards.* as it read it \(decision "
                                                r"'discard'"):
            simtool.run("broken-climb", n=10, seats={0: f"{tmp_path / 'strong.py'}:strong"}, seed=1, jobs=1,
                        isolate=True)
    finally:
        sys.modules.pop("broken_view_installed", None)
