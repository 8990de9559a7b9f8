"""Hostile round 28: a designer's broken game module (one that ends the program as it loads, a
declaration that raises or is of the wrong kind, a deal failing under `strategies --fields`, an
analysis module or its tables, rates and words failing) against the conformance suite, the game
registry and the commands that read a game's analysis."""

from __future__ import annotations

import re
import sys

import pytest

import simtool
from simtool.testing import load_game

from .test_cli import cli, one_line_error
from .test_hardening_cli import main_error
from .test_hardening_round5 import TOY
from .test_hardening_round12 import installed, listed_but_refused


@pytest.fixture(autouse=True)
def forget_modules(tmp_path):
    """Takes the test's own modules (a game, its analysis, a strategy, written under ``tmp_path``)
    out of ``sys.modules`` after it, so that no other test imports them."""
    yield
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def analysed(tmp_path, monkeypatch, game_id: str, module: str, text: str) -> None:
    """Installs the toy game as ``game_id`` (module ``{game_id}_game``), its analysis the module
    ``module`` of ``text``."""
    (tmp_path / f"{module}.py").write_text(text)
    source = TOY.replace("    analysis = __name__", f'    analysis = "{module}"  #').replace(
        'id = "climb"', f'id = "{game_id}"')
    installed(tmp_path, monkeypatch, f"{game_id}_game", source, game_id, game_id)


DEAL = "    def deal(self, rng, match: Match, rnd: int) -> State:\n"


def with_method(tmp_path, monkeypatch, game_id: str, method: str) -> None:
    """Installs the toy game as ``game_id`` (module ``{game_id}_game``) with ``method`` (source
    lines, one indent) added before its deal."""
    source = TOY.replace(DEAL, method + "\n" + DEAL).replace('id = "climb"', f'id = "{game_id}"')
    installed(tmp_path, monkeypatch, f"{game_id}_game", source, game_id, game_id)


def test_a_game_module_that_exits_as_it_loads_is_the_suites_one_line_error(tmp_path, monkeypatch):
    # failed before: `python -m pytest --simtool-game quits:GAME` on a module calling sys.exit(3)
    # printed pytest's INTERNALERROR traceback ("mainloop: caught unexpected SystemExit!"), exit 3
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(tmp_path)
    with pytest.raises(pytest.UsageError) as caught:
        load_game("quits:GAME")
    assert str(caught.value) == ("--simtool-game quits:GAME: importing quits raised SystemExit: 3 "
                                 "(python -c 'import quits' shows where)")


RAISING = '''    @property
    def players(self):
        raise RuntimeError("no players for you")
'''


def test_a_game_whose_declaration_raises_leaves_simtool_games_listing_the_others(tmp_path, monkeypatch):
    # failed before: an installed game whose players is a property that raises made `simtool games`
    # (and `run --game` of it) end in its traceback, RuntimeError: no players for you, exit 1; the
    # suite on it (--simtool-game) printed INTERNALERROR
    source = TOY.replace("    players = (2, 3, 4)\n", RAISING).replace('id = "climb"', 'id = "raising"')
    installed(tmp_path, monkeypatch, "raising_game", source, "raising", "raising")
    says = ("game Climb (raising_game) raised RuntimeError: no players for you as its declarations (id, title, "
            "players, options, columns...) were read")
    with pytest.raises(pytest.UsageError, match=re.escape(says)):
        load_game("raising_game:GAME")
    listed_but_refused(tmp_path, "raising", says)  # takes raising_game out of sys.modules


def test_a_game_whose_default_strategy_is_no_name_leaves_simtool_games_listing_the_others(tmp_path, monkeypatch):
    # failed before: an installed game declaring default_strategy = 5 made `simtool games` end in
    # rich's traceback (NotRenderableError: unable to render int) for every game installed beside it
    source = TOY.replace("    n_actions = 16\n", "    n_actions = 16\n    default_strategy = 5\n") \
        .replace('id = "climb"', 'id = "numbered"')
    installed(tmp_path, monkeypatch, "numbered_game", source, "numbered", "numbered")
    listed_but_refused(tmp_path, "numbered", "game 'numbered' declares default_strategy = 5: it must be a "
                                             "strategy's name, such as 'random'")


def test_a_game_whose_view_is_no_view_class_is_refused_as_it_loads(tmp_path, monkeypatch):
    # failed before: an installed game declaring View = 5 loaded; `simtool strategies --game G
    # --fields` ended in a traceback (TypeError: 'int' object is not callable), and a run said
    # the game "raised TypeError: 'int' object is not callable" as it played its first decision
    source = TOY.replace("    View = ClimbView\n", "    View = 5\n").replace('id = "climb"', 'id = "viewless"')
    installed(tmp_path, monkeypatch, "viewless_game", source, "viewless", "viewless")
    says = ("game 'viewless' declares View = 5: it must be a subclass of simtool.engine.View (the class of its "
            "seats' views), or left out for the plain one")
    one_line_error(cli("strategies", "--game", "viewless", "--fields"), says)
    listed_but_refused(tmp_path, "viewless", says)


def test_the_field_table_of_a_game_that_fails_to_deal_is_the_games_one_line_error(tmp_path, monkeypatch, capsys):
    # failed before: `simtool strategies --game G --fields`, which plays a small deal of G to read
    # its views, ended without a word and exit status 4 where G's deal called sys.exit(4) (in a
    # RuntimeError's traceback where it raised one), while `run` and `replay` named the game
    source = TOY.replace(DEAL, DEAL + "        raise SystemExit(4)\n").replace('id = "climb"', 'id = "quitter"')
    installed(tmp_path, monkeypatch, "quitter_game", source, "quitter", "quitter")
    main_error(capsys, ["strategies", "--game", "quitter", "--fields"],
               "game 'quitter' (quitter_game) raised SystemExit: 4; its conformance suite shows where")


def test_a_games_analysis_module_that_exits_as_it_loads_is_one_line(tmp_path, monkeypatch, capsys):
    # failed before: a game naming analysis = "quits_analysis", a module calling sys.exit(6), made
    # `simtool run` of it end after writing the run without a word, exit status 6
    analysed(tmp_path, monkeypatch, "unread", "quits_analysis", "import sys\nsys.exit(6)\n")
    main_error(capsys, ["run", "--game", "unread", "--n", "10", "-j", "1", "--out", tmp_path / "r"],
               "game 'unread' names analysis = 'quits_analysis', which cannot be read: SystemExit: 6")


BROKEN_TABLES = '''
from simtool.analysis import Analysis


def tables(seats, keys, matches=None, rules=None):
    raise RuntimeError("tables broke")


ANALYSIS = Analysis(tables=tables)
'''


def test_a_games_tables_that_raise_are_its_one_line_error(tmp_path, monkeypatch, capsys):
    # failed before: a game whose analysis' tables raised RuntimeError ended `simtool run` (once the
    # run was written) and `simtool report` of it in that traceback, exit 1 (SystemExit: without a word)
    analysed(tmp_path, monkeypatch, "untabled", "broken_tables", BROKEN_TABLES)
    says = "game 'untabled' (untabled_game): its analysis' tables raised RuntimeError: tables broke"
    main_error(capsys, ["run", "--game", "untabled", "--n", "10", "-j", "1", "--out", tmp_path / "r"], says)
    main_error(capsys, ["report", tmp_path / "r", "-o", tmp_path / "r.html"], says)


RAISING_RATE = '''
import polars as pl

from simtool.analysis import Analysis


def broke(values):
    raise RuntimeError("rate broke")


ANALYSIS = Analysis(rates={"broken": pl.col("score").map_batches(broke, return_dtype=pl.Float64)})
'''


def test_a_rate_whose_own_code_raises_is_the_games_one_line_error(tmp_path, monkeypatch, capsys):
    # failed before: a rate of map_batches raising RuntimeError threw the whole run away in the
    # worker's traceback (summing the chunk for the printed tables), exit 1, nothing written
    analysed(tmp_path, monkeypatch, "unrated", "raising_rate", RAISING_RATE)
    main_error(capsys, ["run", "--game", "unrated", "--n", "10", "-j", "1", "--out", tmp_path / "r"],
               "game 'unrated' has a rate 'broken' that cannot be computed on its results: RuntimeError: "
               "rate broke (a rate is a boolean, or a number from 0 to 1, per seat row")
    assert (tmp_path / "r" / "run.json").exists()  # the run is kept, as for a rate of text


WORDS_AS_A_LIST = '''
import polars as pl

from simtool.analysis import Analysis

ANALYSIS = Analysis(rates={"level": pl.col("score") == 0}, rate_text=["level"])
'''


def test_a_rates_words_not_given_as_a_dict_are_named_not_a_reports_traceback(tmp_path, monkeypatch, capsys):
    # failed before: rate_text = ["level"] played and printed its run, then `simtool report` of it
    # ended in a traceback, AttributeError: 'list' object has no attribute 'get'
    analysed(tmp_path, monkeypatch, "wordless", "listed_words", WORDS_AS_A_LIST)
    main_error(capsys, ["report", simtool.run("wordless", n=10, seed=1, out=tmp_path / "r").path,
                        "-o", tmp_path / "r.html"],
               "game 'wordless' declares rate_text = ['level'] in its analysis: it must be a dict of its rates' "
               "names and their words, such as {'moon': 'shoots the moon'}")


def test_rates_given_as_a_list_are_named_not_a_workers_traceback(tmp_path, monkeypatch, capsys):
    # failed before: Analysis(rates=[pl.col("score") == 0]) threw the run away in a worker's
    # traceback, AttributeError: 'list' object has no attribute 'items', exit 1
    analysed(tmp_path, monkeypatch, "unnamed", "listed_rates", WORDS_AS_A_LIST.replace(
        'rates={"level": pl.col("score") == 0}, rate_text=["level"]', 'rates=[pl.col("score") == 0]'))
    main_error(capsys, ["run", "--game", "unnamed", "--n", "10", "-j", "1", "--out", tmp_path / "r"],
               "game 'unnamed' declares its analysis' rates as a list: they must be a dict of rate names and "
               "polars expressions, such as {'moon': pl.col('moon')}")


def test_a_rate_of_numbers_beyond_0_to_1_is_refused_not_printed_as_a_percentage(tmp_path, monkeypatch, capsys):
    # failed before: a rate pl.col("score") * 1000 + 5 was printed as a share, '25500.0% (100.0–100.0)':
    # an interval that does not hold its estimate, and a percentage of nothing
    analysed(tmp_path, monkeypatch, "counted", "counted_rate", WORDS_AS_A_LIST.replace(
        'rates={"level": pl.col("score") == 0}, rate_text=["level"]', 'rates={"tally": pl.col("score") * 1000 + 5}'))
    main_error(capsys, ["run", "--game", "counted", "--n", "10", "-j", "1", "--seed", "1", "--out", tmp_path / "r"],
               "game 'counted' has a rate 'tally' that cannot be computed on its results: its values run from 5 to",
               "not within 0 to 1 (a rate is a boolean, or a number from 0 to 1, per seat row")


def test_a_deal_described_as_one_string_is_the_games_error_not_a_character_a_line(tmp_path, monkeypatch, capsys):
    # failed before: describe(state, row) returning "hands dealt" (not a list of lines) had
    # `simtool replay` write the deal a character a line, h, a, n, ..., and passed the suite
    with_method(tmp_path, monkeypatch, "told", "    def describe(self, state, row):\n        return 'hands dealt'\n")
    main_error(capsys, ["replay", "--game", "told", "--seed", "1", "--deal", "0"],
               "game 'told' (told_game): describe(state, row) gave 'hands dealt', not lines of text (a list of "
               "str); its conformance suite shows where")


def test_an_installed_strategy_described_by_a_number_leaves_simtool_strategies_listing_the_others(tmp_path,
                                                                                                  monkeypatch):
    # failed before: an installed package declaring @strategy("numbered", 5) loaded, and `simtool
    # strategies` ended in rich's traceback (NotRenderableError: unable to render int) for every
    # strategy; @strategy(5, ...) in a TypeError (int + str)
    (tmp_path / "numbered_strategy.py").write_text(
        "from simtool import bits\nfrom strategies import strategy\n\n\n@strategy('numbered', 5)\n"
        "def numbered(view, rng):\n    return bits.lowest(view.legal)\n")
    info = tmp_path / "numbered_strategy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: numbered-strategy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simtool.strategies]\nnumbered = numbered_strategy:numbered\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    says = "strategy 'numbered' declares the description 5: it is text, one line saying how it plays"
    listed = cli("strategies")
    assert listed.exit_code == 0 and "balance" in listed.stdout, listed.output
    assert says in " ".join(listed.stdout.replace("│", " ").split()), listed.stdout
    one_line_error(cli("run", "--n", "10", "-s", "numbered", "--out", tmp_path / "r"), says)


def test_an_option_named_none_is_the_games_error_not_a_replayed_none(tmp_path, monkeypatch, capsys):
    # failed before: a label returning None had `simtool replay` write 'seat 0 play: None' as if
    # the option were named so (only the suite said otherwise)
    with_method(tmp_path, monkeypatch, "unlabelled", "    def label(self, kind, option):\n        return None\n")
    main_error(capsys, ["replay", "--game", "unlabelled", "--seed", "1", "--deal", "0"],
               "game 'unlabelled' (unlabelled_game): label_at(state, ", "gave None, not an option's name (text); "
               "its conformance suite shows where")
