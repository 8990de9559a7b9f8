"""Leftovers of earlier sessions' notes, mended (2026-11-28)."""

from __future__ import annotations

from simtool.analysis import ladder as ladders


def _rung(name, below, share, low, high, fair=1 / 3):
    return ladders.Rung(1, name, below, share, low, high, fair, 0.0, None)


def test_a_reference_against_a_search_says_its_price_may_be_low():
    # Black & White 3p, 600 deals: "knowing the hidden cards is worth -0.9 points (-5.9 to +4.2)"
    # against 2 x pimc@samples=32, with no word that the reference models them as balance
    def sentence(below, share, low, high):
        top = _rung("pimc@samples=64", below, 0.335, 0.30, 0.37)
        ref = _rung("clairvoyant", below, share, low, high)
        return ladders.reference_sentence(ladders.Ladder("black-white", 3, {}, "deal", [top], reference=ref))

    searched = sentence("pimc@samples=32", 0.326, 0.291, 0.361)
    assert "worth -0.9 points" in searched and "not as the search pimc@samples=32 is" in searched
    assert "may price the cards low" in searched
    # against the play-out policy itself its model is right: no such word
    assert "price the cards low" not in sentence("balance", 0.326, 0.291, 0.361)
    # nor where it clearly prices the cards above 0 against a search
    assert "price the cards low" not in sentence("pimc@samples=32", 0.60, 0.57, 0.63)


def test_a_line_up_of_more_seats_than_a_cells_players_skips_that_cell(tmp_path, charts_undrawn):
    # "error: line-up 'random,duck,duck,balance' names 4 seats; black-white has 3 players here":
    # the whole sweep of 3 and 4 players was refused for its 3-player cell
    from .test_cli import cli
    from .test_left23_sweep_skip import cells

    r = cli("sweep", "-g", "black-white", "-p", "3,4", "-l", "random,duck,duck,balance", "-l", "random", "-n", "100",
            "--seed", "1", "-j", "1", "-q", "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    assert r.exit_code == 0, r.output
    assert r.stderr == ("note: skipped black-white, 3 players: line-up 'random,duck,duck,balance' names 4 seats, "
                        "more than its 3 players\n")
    assert [c.split("/")[1] for c in cells(tmp_path / "runs")] == [
        "black-white_3p_random", "black-white_4p_random", "black-white_4p_random+duck+balance"]
    assert "Skipped black-white, 3 players: line-up" in (tmp_path / "sweep.html").read_text()


def test_a_line_up_no_cell_can_seat_is_refused():
    from .test_cli import cli, one_line_error

    r = cli("sweep", "-g", "black-white,kansas-city", "-p", "3,4", "-l", "random,duck,duck,duck,duck", "-n", "100")
    one_line_error(r, "line-up 'random,duck,duck,duck,duck' names 5 seats; no cell of this sweep whose game plays it "
                      "has that many players (at most 4)")


def test_a_malformed_parameter_list_names_the_built_ins_parameters():
    # "bad strategy 'balance@mistakes': expected NAME@KEY=VALUE,KEY=VALUE after the '@'" named no key
    from .test_cli import cli, one_line_error

    r = cli("run", "-g", "black-white", "-s", "balance@mistakes", "-n", "10")
    one_line_error(r, "bad strategy 'balance@mistakes': expected NAME@KEY=VALUE,KEY=VALUE after the '@'; "
                      "balance's parameters: mistakes (a number 0..1)")
    one_line_error(cli("run", "-g", "black-white", "-s", "random@x", "-n", "10"), "'random' takes no parameters")


def test_a_restricted_search_is_a_search_below_and_no_price_at_the_top():
    # names were read up to their first '@': 'pimc~higher-colour' was no search below the top, and a
    # restricted top 'pimc@samples=4~higher-colour' was taken for the search the reference runs
    searched = _rung("pimc@samples=64", "pimc~higher-colour", 0.335, 0.30, 0.37)
    below = ladders.Ladder("black-white", 3, {}, "deal", [searched],
                           reference=_rung("clairvoyant", "pimc~higher-colour", 0.326, 0.291, 0.361))
    assert "not as the search pimc~higher-colour is" in ladders.reference_sentence(below)
    restricted = _rung("pimc@samples=4~higher-colour", "random", 0.7, 0.65, 0.75)
    top = ladders.Ladder("black-white", 3, {}, "deal", [restricted],
                         reference=_rung("clairvoyant", "random", 0.8, 0.75, 0.85))
    said = ladders.reference_sentence(top)
    assert ladders.price(top) is None and "not the price" in said and "is no search" not in said
    assert "plays restrictions the reference does not" in said
