"""Rule ranges (issue 29, item 17): the games accept every value their rules can play, checked on
hand-built deals and against the independent implementations; the one combination that means
nothing is refused; and a run of matches that will mostly stop at the round cap is warned of."""

from __future__ import annotations

import dataclasses
import random
import warnings

import numpy as np
import polars as pl
import pytest

import simtool
import strategies
from simtool import bits, games, options
from simtool.cli import main
from simtool.engine import ROUND_CAP
from simtool.errors import SimtoolError
from simtool.games import kansas_city as kc
from simtool.games import trickster
from simtool.games.trickster import GAME as TR
from simtool.games.trickster import deck_for, place
from simtool.pipeline import pilot
from simtool.pipeline.runner import make_spec, play_chunk

from .conftest import assert_matches_reference, drive, spec
from .reference_kansas_city import random_deal as kc_reference
from .reference_trickster import random_deal as tr_reference
from .test_conformance import watched_round
from .test_trickster import hand_built as tr_hand

KC, OT = games.get("kansas-city"), games.get("out-trumped")


def cheap_strategies(game_id: str) -> list[str]:
    return [n for n, s in strategies.registry(game_id).items() if s.relative_cost() <= 1]


def one_line_exit_2(capsys, argv, *needles) -> None:
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("error: "), err
    for needle in needles:
        assert needle in err, err


# -- Trickster: every pip limit 0..91 with every rank count 5..16 -------------------------------

def suit_total(ranks: int) -> int:
    return (ranks - 3) * (ranks - 2) // 2


@pytest.mark.parametrize("p", [2, 4, 6])
def test_trickster_takes_every_pip_limit_with_every_rank_count(p):
    for ranks in range(5, 17):
        top, total = ranks - 3, suit_total(ranks)
        # the edges the rules used to refuse: below the highest pip card, at and above a suit's total
        for limit in sorted({0, top - 1, top, total - 1, total, 91}):
            rules = {"ranks": str(ranks), "pip_limit": str(limit)}
            assert make_spec("trickster", p, 10, rules=rules).rules["pip_limit"] == limit


def test_trickster_pip_limit_range_is_exactly_0_to_91(capsys):
    option = {o.name: o for o in TR.options}["pip_limit"]
    assert option.domain() == tuple(range(0, 92)) and option.describe() == "13 (0..91)"
    assert trickster.MAX_PIP_LIMIT == suit_total(16) == 91
    for bad in ("-1", "92"):
        one_line_exit_2(capsys, ["run", "-g", "trickster", "--rule", f"pip_limit={bad}", "-q", "--n", "10"],
                        f"bad rule pip_limit '{bad}'", "0..91")


def test_games_lists_the_true_pip_limit_range(capsys):
    assert main(["games"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "pip_limit: 13 (0..91)" in text and "1..90" not in text


def tr5(label: str) -> int:
    """A card of 5 ranks a suit: 'JH' is the jack of hearts (ranks A 2 J Q K, pips A=1, 2=2)."""
    return "SHDC".index(label[1]) * 5 + "A2JQK".index(label[0])


def test_a_five_rank_deal_plays_and_scores_by_the_rules():
    # 5 ranks: pip cards A, 2 (a suit adds up to 3, so the post's limit of 13 is never exceeded)
    d = deck_for(5, 13)
    tableaux = [["AS", "JS", "2H"], ["2S", "KS", "QH"]]
    tab = np.array([[bits.of(tr5(x) for x in t) for t in tableaux]], np.uint64)
    s = dataclasses.replace(tr_hand([[], []]), turns=3, tableau=tab, dealt=np.bitwise_or.reduce(tab, axis=1),
                            deck=d)
    script = [[[tr5("AS"), tr5("QH")]],  # two new hands; passed right, seat 0 holds QH, seat 1 AS
              [[tr5("2H"), tr5("2S")]],  # both follow: QH 2H (2 pips), AS 2S (3 pips); passed again
              [[tr5("JS"), tr5("KS")]]]  # seat 0 adds JS to AS 2S; seat 1 cannot follow QH 2H: collects
    results, seen = drive(TR, s, script)
    assert [k.kind for k in seen] == ["play"] * 3
    held = lambda labels: bits.of(tr5(x) for x in labels)
    assert s.collected[0].tolist() == [held(["AS", "2S", "JS"]), held(["QH", "2H", "KS"])]
    # spades: seat 0 has 3 to seat 1's 1, hearts: seat 1 alone: each ignores that suit; seat 1
    # pays its king of spades (4 points, the post's)
    assert results["score"].tolist() == [[0, 4]] and results["moon"].tolist() == [[1, 1]]
    assert results["tricks"].tolist() == [[1, 2]] and results["collected"].tolist() == [[3, 3]]
    for name, ok in TR.invariants(s).items():
        assert np.asarray(ok).all(), name


def c13(label: str) -> int:
    return "SHDC".index(label[1]) * 13 + "A23456789TJQK".index(label[0])


def cards13(labels) -> np.uint64:
    return bits.of(c13(x) for x in labels)


@pytest.mark.parametrize("limit,hand,card,joins", [
    (5, [], "9S", True),  # a card above the limit still starts an empty hand
    (5, ["9S"], "JS", False),  # then even a face takes the sum (9) over the limit: collect
    (5, ["9S"], "2H", False),  # another suit collects, as ever
    (0, ["JS"], "QS", True),  # limit 0: faces join faces (0 + 0 is not over 0)
    (0, ["JS", "QS"], "AS", False),  # and any pip card collects
    (55, list("A23456789"), "TS", True),  # the whole suit (55) is within a limit of 55
    (54, list("A23456789"), "TS", False),  # one below it is not
])
def test_pip_limits_outside_the_old_range_play_the_rule_as_written(limit, hand, card, joins):
    held = [f"{x}S" if len(x) == 1 else x for x in hand]
    s = tr_hand([[card]], hands=[held], pips=[sum(int(deck_for(13, limit).pips[c13(x)]) for x in held)])
    s = dataclasses.replace(s, deck=deck_for(13, limit))
    place(s, np.array([[c13(card)]]))
    assert s.hand[0, 0] == (cards13([*held, card]) if joins else cards13([card]))
    assert s.collected[0, 0] == (0 if joins else cards13(held))
    for name, ok in TR.invariants(s).items():
        assert np.asarray(ok).all(), name


@pytest.mark.parametrize("p,ranks,limit", [(4, 5, 13), (3, 7, 10), (2, 13, 5), (6, 13, 0), (4, 16, 91)])
def test_random_play_at_the_new_values_matches_the_independent_implementation(p, ranks, limit):
    rng = random.Random(ranks * 100 + limit)
    ref = [tr_reference(rng, p, ranks, limit) for _ in range(2500)]
    rules = {"ranks": ranks, "pip_limit": limit}
    seats = play_chunk(spec("trickster", p, n=20_000, chunk=20_000, seed=5, rules=rules), 0).seats
    assert_matches_reference(seats, ref, ("score", "tricks", "collected", "moon"))


@pytest.mark.parametrize("rules", [{"ranks": 5}, {"ranks": 7}, {"pip_limit": 0}, {"pip_limit": 4},
                                   {"ranks": 16, "pip_limit": 91}])
def test_every_trickster_strategy_plays_the_new_values_with_the_invariants_held(rules):
    for p in (2, 4, 6):
        for name in cheap_strategies("trickster"):
            watch, results = watched_round(TR, p, name, n=150, unit_rules=rules)
            assert results["score"].shape == (150, p)


# -- Kansas City: hands of 1 and 2 cards ----------------------------------------------------------

@pytest.mark.parametrize("p", [4, 5])
@pytest.mark.parametrize("hand", [1, 2])
def test_kc_small_hands_play_with_the_sheets_limit_and_pass_following_the_hand(p, hand):
    rules = make_spec("kansas-city", p, 10, rules={"hand_size": str(hand)}).rules
    assert kc.limit_of(rules, p) == hand and kc.passes(rules, p) == hand
    assert kc.score_table(rules, p)[:hand + 1] == tuple(5 * t for t in range(hand + 1))
    seats = play_chunk(spec("kansas-city", p, n=400, rules={"hand_size": hand}), 0).seats
    assert (seats.group_by("deal").agg(pl.col("tricks").sum())["tricks"] == hand).all()
    assert (seats["overshoot"] == 0).all()  # the limit is the whole hand
    assert (seats["score"] == 5 * seats["tricks"].cast(pl.Int16) + 2 * seats["fours"].cast(pl.Int16)).all()


def test_kc_one_card_each_is_passed_to_the_left_and_played_as_one_trick():
    match = KC.new_match(1, 4, options.resolve(KC, {"hand_size": "1"}))
    s = KC.deal(np.random.default_rng(8), match, 0)
    dealt = [int(bits.lowest(s.hands[0, seat])) for seat in range(4)]
    held = dealt[-1:] + dealt[:-1]  # after the pass seat s holds seat s-1's card
    results, seen = drive(KC, s, [dealt, *held])
    assert [d.kind for d in seen] == ["pass", "lead", "play", "play", "play"]  # no upgrade after the last trick
    led = held[0] // 8
    best = max((c % 8 if c // 8 == led else -1, seat) for seat, c in enumerate(held))
    fours = sum(c % 8 + 1 == 4 for c in held)
    assert results["tricks"].tolist() == [[int(seat == best[1]) for seat in range(4)]]
    assert results["score"].tolist() == [[(5 + 2 * fours) * (seat == best[1]) for seat in range(4)]]


@pytest.mark.parametrize("p,hand", [(4, 1), (4, 2), (5, 2)])
def test_kc_small_hands_match_the_independent_implementation(p, hand):
    rng = random.Random(10 * p + hand)
    ref = [kc_reference(rng, p, size=hand) for _ in range(4000)]
    seats = play_chunk(spec("kansas-city", p, n=30_000, chunk=30_000, seed=3, rules={"hand_size": hand}), 0).seats
    assert_matches_reference(seats.with_columns(pl.col("overshoot") > 0), ref,
                             ("tricks", "upgrades", "fours", "score", "overshoot"))


@pytest.mark.parametrize("p,hand", [(4, 1), (5, 1), (4, 2), (5, 2)])
def test_every_kc_strategy_plays_small_hands_with_the_invariants_held(p, hand):
    for name in cheap_strategies("kansas-city"):
        watch, results = watched_round(KC, p, name, n=150, unit_rules={"hand_size": hand})
        assert results["score"].shape == (150, p)


def test_kc_an_explicit_limit_above_the_hand_is_still_refused(capsys):
    one_line_exit_2(capsys, ["run", "-g", "kansas-city", "--rule", "hand_size=2", "--rule", "limit=3",
                             "-q", "--n", "10"], "limit 3 is above the hand size of 2 at 4p: at most 2")
    assert make_spec("kansas-city", 4, 10, rules={"hand_size": "2", "limit": "2"}).rules["limit"] == 2


# -- Out-Trumped: a kitty size without a kitty ------------------------------------------------------

def test_ot_kitty_size_without_a_kitty_is_refused_in_one_line(capsys, tmp_path):
    out = tmp_path / "run"
    one_line_exit_2(capsys, ["run", "-g", "out-trumped", "--rule", "kitty_size=3", "-q", "--n", "10", "-o", out],
                    "kitty_size 3 needs a kitty", "kitty=bid or kitty=low-card")
    assert not out.exists()
    with pytest.raises(SimtoolError, match="kitty_size 7 needs a kitty"):
        make_spec("out-trumped", 4, 10, rules={"kitty": "none", "kitty_size": "7"})
    for kitty in ("bid", "low-card"):
        assert make_spec("out-trumped", 4, 10, rules={"kitty": kitty, "kitty_size": "3"}).rules["kitty_size"] == 3
    assert make_spec("out-trumped", 4, 10, rules={"kitty_size": "5"}).rules["kitty"] == "none"


# -- the capped-match warning ------------------------------------------------------------------------

CAPPED = [("out-trumped", 6, {"goal": 1000}), ("nine-lives", 2, {"lives_to_end": 40})]


@pytest.mark.parametrize("game,p,rules", CAPPED)
def test_a_run_whose_matches_will_be_capped_is_warned_of_in_one_line_first(game, p, rules, capsys, tmp_path):
    # random play, as the pilot's: the game's heuristic at every seat for 200 rounds was most of the CPU
    argv = ["run", "-g", game, "-p", str(p), *[f"--rule={k}={v}" for k, v in rules.items()], "--strategy", "random",
            "--unit", "match", "--n", "2", "--seed", "1", "--jobs", "1", "-q", "-o", str(tmp_path / "run")]
    assert main(argv) == 0  # the run is still played
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("warning: 100% of 200 pilot matches"), err
    assert f"{game}, {p} players" in err and f"reached the {ROUND_CAP}-round cap" in err, err
    capped = pl.read_parquet(tmp_path / "run" / "matches.parquet")["capped"]
    assert capped.all()  # as warned


class Started(Exception):
    """Raised by a progress callback at the start of the play (0 chunks done)."""


@pytest.mark.parametrize("game,p,rules", CAPPED)
def test_the_python_api_warns_before_the_run_starts(game, p, rules):
    seen = []

    def stop_at_the_start(done, total):  # the run to the cap is the test above's: stop before it
        seen.append(len(caught))
        if done == 0:
            raise Started

    with pytest.warns(pilot.CappedWarning, match="pilot matches") as caught, pytest.raises(Started):
        simtool.run(game, 2, players=p, rules=rules, unit="match", seed=1, progress=stop_at_the_start)
    assert seen == [1]  # given before the first chunk was played


def test_the_sheets_rules_and_reachable_goals_are_not_warned_of():
    for game in games.BUILT_IN:
        for p in game.players:
            share = pilot.capped_share(game, p, options.resolve(game, {}))
            assert share < pilot.WARN_AT, (game.id, p, share)  # what the sheet-rules exemption relies on
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for game, rules in [("out-trumped", {"goal": 30}), ("nine-lives", {"lives_to_end": 5}),
                            ("black-white", {})]:
            simtool.run(game, 20, rules=rules, unit="match", seed=1)
        simtool.run("out-trumped", 20, players=6, rules={"goal": 1000}, seed=1)  # single deals: no cap
