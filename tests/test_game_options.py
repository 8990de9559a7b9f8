"""Every number of Black & White, Trickster and Nine Lives is a rule option: parsed and typed,
refused with one line where it cannot be played, shown on hand-built deals to change the game,
and every built-in strategy plays under values other than the sheet's."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

import simtool
from simtool import bits, games, options
from simtool.cli import main
from simtool.commands import tune
from simtool.errors import SimtoolError
from simtool.games import black_white, nine_lives, trickster
from simtool.pipeline.runner import make_spec, play_chunk

from .conftest import drive, spec
from .test_black_white import card
from .test_black_white import hand_built as bw_hand
from .test_trickster import c as tr_card
from .test_trickster import cards as tr_cards
from .test_trickster import hand_built as tr_hand

BW, TR, NL = (games.get(g) for g in ("black-white", "trickster", "nine-lives"))

NEW = {  # game: {option: (the sheet's value, another value as text, that value typed)}
    "black-white": {"deck": (36, "20", 20), "hand_size": ("sheet", "5", 5)},
    "trickster": {"ranks": (13, "7", 7), "pip_limit": (13, "10", 10), "pip_points": (1, "0", 0),
                  "jack_points": (2, "5", 5), "queen_points": (3, "1", 1), "king_points": (4, "10", 10)},
    "nine-lives": {"lives_to_end": (9, "5", 5), "ranks": (9, "12", 12)},
}


@pytest.mark.parametrize("game,name", [(g, o) for g, opts in NEW.items() for o in opts])
def test_every_new_option_parses_typed_with_the_sheet_as_default(game, name):
    default, text, typed = NEW[game][name]
    g = games.get(game)
    assert options.resolve(g, {})[name] == default
    value = options.resolve(g, {name: text})[name]
    assert value == typed and type(value) is type(typed)
    assert {o.name: o for o in g.options}[name].kind == "integer"  # a tuner walks them in order


@pytest.mark.parametrize("args,needles", [
    (["-g", "black-white", "--rule", "deck=35"], ["bad rule deck '35'", "64"]),
    (["-g", "black-white", "--rule", "deck=66"], ["bad rule deck '66'", "64"]),
    (["-g", "black-white", "--rule", "hand_size=0"], ["bad rule hand_size '0'", "sheet"]),
    (["-g", "trickster", "--rule", "ranks=17"], ["bad rule ranks '17'", "16"]),
    (["-g", "trickster", "--rule", "pip_limit=lots"], ["bad rule pip_limit 'lots'"]),
    (["-g", "trickster", "--rule", "king_points=-1"], ["bad rule king_points '-1'"]),
    (["-g", "nine-lives", "--rule", "lives_to_end=0"], ["bad rule lives_to_end '0'"]),
    (["-g", "nine-lives", "--rule", "ranks=1"], ["bad rule ranks '1'"]),
    # values that parse but cannot be played, alone or together
    (["-g", "black-white", "-p", "2", "--rule", "deck=20"],
     ["2 hands of 11 cards (the sheet's hand) need 22 cards, more than the deck of 20",
      "hand_size 10 or less", "a deck of 22 or more"]),
    (["-g", "black-white", "--rule", "hand_size=13"],
     ["3 hands of 13 cards (hand_size) need 39 cards, more than the deck of 36", "a deck of 40"]),
    (["-g", "black-white", "-p", "4", "--rule", "hand_size=20"], ["need 80 cards", "hand_size 9 or less"]),
    (["-g", "black-white", "-p", "4", "--rule", "deck=2"], ["a deck of 2 cards deals 4 players no card"]),
    (["-g", "trickster", "--rule", "pip_limit=92"], ["bad rule pip_limit '92'", "0..91"]),
    (["-g", "nine-lives", "-p", "6", "--rule", "ranks=11"],
     ["6 suits of 11 ranks make 66 cards, more than the 64", "ranks 10 or less at 6 players"]),
])
def test_bad_and_unplayable_values_are_one_line_exit_2_and_write_nothing(tmp_path, capsys, args, needles):
    out = tmp_path / "run"
    code = main(["run", *args, "--n", "100", "--jobs", "1", "--out", str(out), "-q"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    assert not out.exists()


def test_the_limits_hold_at_their_edges():
    for game, rules, p in [("black-white", {"deck": "22"}, 2), ("black-white", {"hand_size": "12"}, 3),
                           ("black-white", {"deck": "4"}, 4), ("trickster", {"pip_limit": "54"}, 4),
                           ("trickster", {"pip_limit": "10"}, 4),
                           ("trickster", {"ranks": "5", "pip_limit": "2"}, 6),
                           ("nine-lives", {"ranks": "10"}, 6), ("nine-lives", {"ranks": "32"}, 2)]:
        assert make_spec(game, p, 10, rules=rules).rules == options.resolve(games.get(game), rules)
    with pytest.raises(SimtoolError, match="more than the 64"):
        make_spec("nine-lives", 3, 10, rules={"ranks": "22"})


# -- Black & White ------------------------------------------------------------------------------

def test_bw_deck_20_deals_cards_1_to_20_and_white_counts_21_minus_k():
    rng = np.random.default_rng(4)
    s = BW.deal(rng, BW.new_match(300, 3, {"deck": 20, "hand_size": "sheet"}), 0)
    assert s.hand_size == 6 and (bits.count(s.hands) == 6).all()  # 20 // 3, two cards unused
    assert (s.dealt & ~bits.full(20) == 0).all() and (bits.count(s.dealt) == 18).all()
    assert BW.label_at(s, "lead", card(5)) == "card 5 (black 5 / white 16)"
    assert BW.label("lead", card(5)) == "card 5 (black 5 / white 32)"  # the sheet's deck
    black, white = black_white.values(20)
    assert black[:20].tolist() == list(range(1, 21)) and white[:20].tolist() == list(range(20, 0, -1))
    assert not black[20:].any() and not white.flags.writeable


@pytest.mark.parametrize("deck,led,follows", [(20, 16, [11, 19]), (36, 32, [27, 35])])
def test_bw_a_trick_counts_white_as_deck_plus_1_minus_k(deck, led, follows):
    # cards 5, 10, 2 led white: the numbers to beat and the winner's number come from the deck
    s = dataclasses.replace(bw_hand([[5], [10], [2]]), cards=deck)
    play = BW.play(s)
    play.send(None)
    play.send(np.array([card(5)]))
    play.send(np.array([black_white.WHITE]))
    assert s.best.tolist() == [led]
    play.send(np.array([card(10)]))
    assert s.best.tolist() == [led] and s.winning.tolist() == [0]  # white follows[0] loses
    try:
        play.send(np.array([card(2)]))
    except StopIteration as done:
        assert done.value["white"].tolist() == [[0, 0, 1]]  # white follows[1] wins
    else:
        pytest.fail("a round of one card each ends after one trick")
    assert black_white.value(np.array([card(10), card(2)]), black_white.WHITE, deck).tolist() == follows


@pytest.mark.parametrize("p,hand", [(2, 5), (3, 7), (4, 1)])
def test_bw_hand_size_deals_that_many_and_plays_that_many_tricks(p, hand):
    seats = play_chunk(spec("black-white", p, n=500, rules={"deck": 36, "hand_size": hand}), 0).seats
    per_deal = seats.group_by("deal").agg(pl.col("tricks").sum())
    assert (per_deal["tricks"] == hand).all()
    rng = np.random.default_rng(1)
    s = BW.deal(rng, BW.new_match(200, p, {"deck": 36, "hand_size": hand}), 0)
    assert (bits.count(s.hands) == hand).all()


@pytest.mark.parametrize("p,rules,whole", [(3, {"hand_size": 5}, False), (2, {}, False), (3, {}, True),
                                            (4, {"deck": 20, "hand_size": 5}, True)])
def test_bw_cards_left_undealt_stay_unseen(p, rules, whole):
    from simtool import engine

    rules = options.resolve(BW, rules)
    s = BW.deal(np.random.default_rng(6), BW.new_match(50, p, rules), 0)
    d = next(BW.play(s))
    view = engine.view_of(BW, s, d.kind, np.zeros(50, np.int64), np.broadcast_to(d.legal, (50,)))
    expected = s.dealt if whole else np.full(50, bits.full(s.cards))  # a seat cannot tell
    assert (view.in_play == expected).all() and view.cards == rules["deck"]
    assert (view.unseen == expected & ~s.hands[:, 0]).all()


def test_bw_sheet_hand_is_the_whole_deck_shared_out_from_3_players():
    assert [black_white.hand_size({}, p) for p in (2, 3, 4)] == [11, 12, 9]  # the sheet's numbers
    assert [black_white.hand_size({"deck": 64, "hand_size": "sheet"}, p) for p in (2, 3, 4)] == [11, 21, 16]
    assert black_white.hand_size({"deck": 64, "hand_size": 20}, 3) == 20


# -- Trickster ----------------------------------------------------------------------------------

def test_trickster_pip_limit_10_collects_where_13_keeps():
    # a spade 2 onto 9S (9 pips): 11 stays within 13, goes over 10
    for limit, collected in ((13, 0), (10, 1)):
        s = dataclasses.replace(tr_hand([["2S"]], hands=[["9S"]], pips=[9]),
                                deck=trickster.deck_for(13, limit))
        trickster.place(s, np.array([[tr_card("2S")]]))
        assert s.collections[0, 0] == collected
        assert s.hand[0, 0] == (tr_cards(["2S"]) if collected else tr_cards(["9S", "2S"]))


def test_trickster_ranks_7_deals_only_ranks_1_to_7_with_faces_on_top():
    d = trickster.deck_for(7, 8)
    s = TR.deal(np.random.default_rng(2), TR.new_match(300, 4, {"ranks": 7, "pip_limit": 8}), 0)
    assert s.turns == 7 and (s.dealt == bits.full(28)).all()  # 4 suits of 7 ranks, 7 cards each
    assert [d.layout.label(c) for c in range(7)] == ["AS", "2S", "3S", "4S", "JS", "QS", "KS"]
    assert TR.label_at(s, "play", 8) == "2H" and TR.label("play", 8) == "9S"  # 13 ranks: the 9 of spades
    assert d.pips[:7].tolist() == [1, 2, 3, 4, 0, 0, 0]
    # 2S 3S held (5 pips): the jack (option 4) joins, adding no pips; then the 4 makes 9 > 8
    s = dataclasses.replace(tr_hand([[]]), deck=d, hand=np.array([[bits.of([1, 2])]], np.uint64),
                            pips=np.array([[5]], np.int16), tableau=np.array([[bits.of([3, 4])]], np.uint64))
    trickster.place(s, np.array([[4]]))
    assert s.hand[0, 0] == bits.of([1, 2, 4]) and s.pips[0, 0] == 5
    trickster.place(s, np.array([[3]]))
    assert s.hand[0, 0] == bits.of([3]) and s.collected[0, 0] == bits.of([1, 2, 4])


def test_trickster_card_points_count_in_the_score():
    # no suit has a sole leader (every suit ties), so nobody shoots the moon: every card scores
    collected = np.array([[tr_cards(["3S", "QH"]), tr_cards(["4S", "JD", "KC"]),
                           tr_cards(["5S", "QD", "JC", "AH"])]], np.uint64)
    sheet = trickster.score(collected, np.ones((1, 3), np.int16))["score"][0].tolist()
    assert sheet == [1 + 3, 1 + 2 + 4, 1 + 3 + 2 + 1]
    d = trickster.deck_for(13, 13, (0, 5, 1, 10))  # pip cards 0, J 5, Q 1, K 10
    changed = trickster.score(collected, np.ones((1, 3), np.int16), d)["score"][0].tolist()
    assert changed == [0 + 1, 0 + 5 + 10, 0 + 1 + 5 + 0]


def test_trickster_points_reach_the_deal_from_the_rules():
    rules = options.resolve(TR, {"jack_points": "0", "queen_points": "0", "king_points": "0", "pip_points": "0"})
    seats = play_chunk(spec("trickster", 4, n=300, rules=rules), 0).seats
    assert (seats["score"] == 0).all()
    rules = options.resolve(TR, {"king_points": "10"})
    assert trickster.rules_deck(rules).points == (1, 2, 3, 10)


# -- Nine Lives ---------------------------------------------------------------------------------

def test_nl_lives_to_end_5_ends_matches_sooner():
    match = NL.new_match(2, 4, {"lives_to_end": 5, "ranks": 9})
    match.totals[:] = [[5, 0, 0, 0], [4, 4, 4, 4]]
    assert NL.match_over(match, 0).tolist() == [True, False]
    assert NL.match_over(dataclasses.replace(match, rules={"lives_to_end": 9, "ranks": 9}), 0).tolist() \
        == [False, False]
    rounds = {}
    for lives in (5, 9):
        m = play_chunk(spec("nine-lives", 4, n=300, unit="match", rules={"lives_to_end": lives, "ranks": 9}), 0).matches
        decided = m.filter(~pl.col("capped"))
        assert (decided.group_by("match").agg(pl.col("total").max())["total"] >= lives).all()
        rounds[lives] = m.filter(pl.col("seat") == 0)["rounds"].mean()
    assert rounds[5] < rounds[9]


def test_nl_ranks_7_deals_only_ranks_1_to_7():
    s = NL.deal(np.random.default_rng(3), NL.new_match(300, 4, {"lives_to_end": 9, "ranks": 7}), 0)
    assert (s.deck == bits.full(28)).all() and (s.hand_size == 7).all()
    assert (bits.count(s.hands) == 7).all() and s.layout.ranks == 7
    assert NL.label_at(s, "bid", 7) == "B1" and NL.label("bid", 7) == "A8"
    # a bid of the 7 of suit B (option 13) scores 7 lives when made
    r = nine_lives.score(np.array([[13, 0, 14, 21]]), np.array([[7, 1, 0, 0]]), np.zeros((1, 4), np.int8), 7)
    assert r["bid"].tolist() == [[7, 1, 1, 1]] and r["score"][0, 0] == 7 and r["made"][0, :2].all()


def test_nl_ranks_12_bids_run_to_12():
    seats = play_chunk(spec("nine-lives", 2, n=2000, rules={"lives_to_end": 9, "ranks": 12}), 0).seats
    assert seats["bid"].max() == 12 and seats["bid"].min() == 1
    assert (seats.group_by("deal").agg(pl.col("tricks").sum())["tricks"] == 11).all()


def test_nl_a_hand_built_trick_with_other_ranks():
    # ranks 12: B11 exists, and beats B3 in the lead suit; seat 2's C5 is its own bid suit: ignored
    s = _nl_round([["A1", "B3"], ["A2", "B11"], ["C1", "C5"]], 12)
    card = s.layout.card
    results, seen = drive(NL, s, [[card("A1"), card("A2"), card("C1")], card("B3"), card("B11"), card("C5")])
    assert [d.kind for d in seen] == [nine_lives.BID, "lead", "play", "play"]
    assert results["tricks"].tolist() == [[0, 1, 0]]


def _nl_round(hands, ranks):
    p, lay = len(hands), nine_lives.layout(len(hands), ranks)
    sets = np.array([[lay.hand(h) for h in hands]], np.uint64)
    z = np.zeros((1, p), np.int16)
    return nine_lives.Round(
        p=p, rnd=0, hand_size=np.array([len(hands[0])]), deck=np.bitwise_or.reduce(sets, axis=1),
        leftover=np.zeros(1, np.uint64), hands=sets, bid=np.full((1, p), -1), keeper=np.array([0]),
        played=np.zeros(1, np.uint64), trick=np.full((1, p), -1, np.int8), lead_suit=np.zeros(1, np.int64),
        trump=np.zeros(1, np.int64), best=np.zeros(1, np.int64), winning=np.zeros(1, np.int64),
        tricks=z.copy(), fallback=z.copy(), totals=np.zeros((1, p), np.int32), layout=lay)


# -- every strategy under other values -----------------------------------------------------------

VARIANTS = {
    "black-white": [(2, {"deck": 64, "hand_size": 32}), (3, {"deck": 20}), (4, {"deck": 64})],
    "trickster": [(2, {"ranks": 16, "pip_limit": 40}), (4, {"ranks": 6, "pip_limit": 4}),
                  (3, {"pip_limit": 10, "jack_points": 6, "king_points": 0})],
    "nine-lives": [(2, {"ranks": 32}), (6, {"ranks": 4, "lives_to_end": 3}), (4, {"ranks": 12})],
    "hearts": [(3, {"black_maria": "on", "jack": "on", "moon": "subtract", "goal": 30}),
               (5, {"queen": 7, "lead_hearts": "any", "first_trick": "any", "passing": "right"}),
               (4, {"passing": "none", "moon": "off", "goal": 1})],
}


@pytest.mark.parametrize("game,p,rules", [(g, p, r) for g, vs in VARIANTS.items() for p, r in vs])
def test_every_strategy_plays_other_values_to_a_legal_end(game, p, rules):
    import strategies

    resolved = options.resolve(games.get(game), rules)
    games.get(game).check_rules(resolved, p)
    names = [s.name for s in strategies.BUILT_IN if s.plays(game) and s.name not in ("pimc", "clairvoyant")]
    names += [f"random~{r.name}" for r in strategies.RESTRICTIONS[game]]  # restricted play too
    for name in names:  # every seat the same strategy: the engine checks every choice is legal
        seats = play_chunk(spec(game, p, n=50, lineup=[name] * p, rules=resolved, seed=3), 0).seats
        assert seats.height == 50 * p
    mixed = (names * p)[-p:]
    played = play_chunk(spec(game, p, n=20, lineup=mixed, unit="match", rules=resolved, seed=3), 0)
    assert played.matches.height == 20 * p
    # the searches, on re-dealt worlds and on the true deal: the engine checks each of their
    # choices, so 2 deals show what 6 did at a third of their search (two thirds of this test's CPU)
    pimc = play_chunk(spec(game, p, n=2, lineup=["pimc@samples=2", "clairvoyant"] + ["random"] * (p - 2),
                           rules=resolved, seed=3), 0)
    assert pimc.seats.height == 2 * p


def test_sweep_files_and_the_tuner_vary_the_new_options(tmp_path):
    from simtool.commands import plans, sweep

    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["trickster", "nine-lives"]\nplayers = [3]\nn = 300\nseed = 1\n'
                    '[rules]\npip_limit = [10, 13]\nking_points = [4, 8]\nlives_to_end = [5]\n')
    cells = sweep.cells(sweep.make_grid(sweep.read_toml(grid)))
    assert [(c.game, c.rules.get("pip_limit"), c.rules.get("king_points"), c.rules.get("lives_to_end"))
            for c in cells] == [("trickster", 10, 4, None), ("trickster", 10, 8, None),
                                ("trickster", 13, 4, None), ("trickster", 13, 8, None), ("nine-lives", None, None, 5)]
    assert {plans.folder_name(c) for c in cells} == {
        "trickster_3p_pip_limit-10_safe", "trickster_3p_pip_limit-10_king_points-8_safe",
        "trickster_3p_safe", "trickster_3p_king_points-8_safe", "nine-lives_3p_lives_to_end-5_exact"}
    grid.write_text('games = ["trickster"]\n[rules]\npip_limit = [13, 92]\n')
    with pytest.raises(SimtoolError, match="bad rule pip_limit '92'"):
        sweep.cells(sweep.make_grid(sweep.read_toml(grid)))
    config = tune.configure("nine-lives", ["lives_to_end=4..6"], ["match_rounds=10"], trials=3, n=40, seed=2)
    result = tune.tune(config, tmp_path / "t", jobs=1)
    trials = result["trials"]
    assert trials.height == 3 and sorted(trials["lives_to_end"].cast(pl.Int64)) == [4, 5, 6]
    r = simtool.run("black-white", 200, players=2, rules={"deck": 24, "hand_size": 12}, seed=1, jobs=1)
    assert (r.seats.group_by("deal").agg(pl.col("tricks").sum())["tricks"] == 12).all()


def test_a_tuning_over_only_unplayable_values_is_refused_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "t"
    code = main(["tune", "--game", "black-white", "--vary", "hand_size=13..14", "--objective",
                 "seat_spread:min", "--trials", "5", "--n", "300", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "no combination of the --vary values can be played" in err and "more than the deck of 36" in err
    assert not out.exists()
    ok = tune.configure("black-white", ["hand_size=10..12", "deck=36,40"], ["seat_spread:min"], trials=2, n=100)
    assert ok.vary == {"hand_size": [10, 11, 12], "deck": [36, 40]}


def test_bw_two_player_rounds_of_an_even_hand_can_be_drawn():
    seats = play_chunk(spec("black-white", 2, n=2000, rules={"deck": 36, "hand_size": 10}), 0).seats
    wins = seats.group_by("deal").agg(pl.col("score").sum())["score"]
    assert (wins == 0).any() and (wins == 1).any() and (wins <= 1).all()


def test_nl_match_length_table_names_the_lives_that_end_a_match():
    from simtool import analysis

    rules = {"lives_to_end": 5, "ranks": 9}
    c = play_chunk(spec("nine-lives", 3, n=100, unit="match", rules=rules), 0)
    titles = [t for t, _ in analysis.of(NL).tables(c.seats.lazy(), ["match", "round"], c.matches.lazy(), rules)]
    assert "Rounds until someone has 5 lives (the matches that got there)" in titles
