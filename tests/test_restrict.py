"""Restricted play: STRATEGY~RESTRICTION wrappers, what they let a strategy choose, and what each
restriction costs on paired deals (simtool restrict, the sweep key, the report section)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simtool.games
import strategies
from simtool import bits, engine
from simtool.analysis import restrict as costs
from simtool.commands import restrict
from simtool.errors import SimtoolError, StrategyError
from simtool.games import black_white as bw
from simtool.games import kansas_city as kc
from simtool.games import nine_lives as nl
from simtool.games import out_trumped as ot
from simtool.games import trickster as tr
from simtool.pipeline.runner import make_spec, play_chunk
from simtool.reports import balance as reports
from strategies import restrictions

from .test_cli import cli, one_line_error

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

PLUGINS = Path(__file__).parent / "plugins"


@pytest.mark.parametrize("spec,game,name", [
    ("target~no-upgrade", "kansas-city", "target~no-upgrade"),
    ("target~pass-high~no-upgrade", "kansas-city", "target~no-upgrade~pass-high"),  # declared order
    ("target@under=1,mistakes=0~ no-upgrade", "kansas-city", "target@under=1~no-upgrade"),
    ("pimc@samples=4~higher-colour", "black-white", "pimc@samples=4~higher-colour"),
    ("random~no-kitty~no-trump-lead", "out-trumped", "random~no-kitty~no-trump-lead"),
])
def test_restricted_names_are_canonical(spec, game, name):
    assert strategies.canonical(spec, game) == name
    assert strategies.resolve(spec, game).name == name


def test_a_plugin_is_restricted_and_a_tilde_in_its_path_is_not_a_restriction():
    plugin = f"{PLUGINS / 'good.py'}:lowest_card"
    assert strategies.canonical(plugin + "~no-upgrade", "kansas-city") == plugin + "~no-upgrade"
    assert strategies.resolve(plugin + "~no-upgrade", "kansas-city").name == "good.py:lowest_card~no-upgrade"
    assert restrictions.split("~/bots/my.py:bot") == ("~/bots/my.py:bot", [])
    assert restrictions.split("./a~b/my.py:bot~pass-high") == ("./a~b/my.py:bot", ["pass-high"])
    assert strategies.plugin_file(plugin + "~no-upgrade") == PLUGINS / "good.py"


@pytest.mark.parametrize("spec,needles", [
    ("target~", ["empty restriction after a '~'", "target~no-upgrade"]),
    ("~", ["empty restriction after a '~'"]),
    ("target~~no-upgrade", ["empty restriction"]),
    ("~no-upgrade", ["no strategy before the '~'"]),
    ("target~never-win", ["restriction 'never-win' is unknown for kansas-city",
                          "valid for kansas-city: no-upgrade, pass-high"]),
    ("target~no-kitty", ["restriction 'no-kitty' is for out-trumped, not kansas-city",
                         "valid for kansas-city: no-upgrade, pass-high"]),
    ("target~no-upgrade~no-upgrade", ["restriction 'no-upgrade' given twice"]),
    ("genius~no-upgrade", ["unknown strategy 'genius'"]),
    ("target~no-upgrade@under=1", ["parameters go before the restrictions"]),
])
def test_bad_restrictions_are_one_line_errors_with_exit_2(tmp_path, spec, needles):
    with pytest.raises(SimtoolError) as err:
        strategies.canonical(spec, "kansas-city")
    assert all(n in str(err.value) for n in needles)
    r = cli("run", "-g", "kansas-city", "--seat", f"0={spec}", "--n", "100", "--out", tmp_path / "r")
    one_line_error(r, *needles)
    assert not (tmp_path / "r").exists()


def test_every_game_declares_restrictions_with_one_line_each():
    assert set(strategies.RESTRICTIONS) == set(simtool.games.registry())
    for game_id, found in strategies.RESTRICTIONS.items():
        assert found, game_id
        for r in found:
            assert restrictions.NAME.fullmatch(r.name) and "\n" not in r.description and r.kinds
    assert {"no-upgrade", "pass-high"} <= set(restrictions.of_game("kansas-city"))
    assert "no-kitty" in restrictions.of_game("out-trumped")
    assert "higher-colour" in restrictions.of_game("black-white")


def _recorder(seen: list):
    """Plays uniformly among what its view lets it choose, and records each decision."""

    def choose(view, rng):
        pick = bits.uniform(view.legal, rng, view.n_actions)
        fields = {name: getattr(view, name) for name in ("hand", "passing", "trick", "pips", "bid",
                                                         "trump", "tableau")
                  if hasattr(type(view), name)}
        seen.append((view.kind, view.seat.copy(), view.legal.copy(), pick, fields))
        return pick

    return strategies.Strategy("recorder", choose, "")


def _play(game_id, p, names, rules=None, n=400, seed=3):
    """One round of ``n`` deals with the restricted recorder at every seat; its decisions."""
    game = simtool.games.get(game_id)
    rules = {o.name: o.default for o in game.options} | (rules or {})
    seen: list = []
    wrapped = restrictions.wrap(_recorder(seen), restrictions.check(names, game.id), game.id)
    state = game.deal(np.random.default_rng(seed), game.new_match(n, p, rules), 0)
    ctx = engine.Context(game.id, seed, n, "deal", np.arange(n))
    engine.play_round(game, state, engine.Lineup([wrapped], np.zeros(p, np.int64)),
                      np.random.default_rng(seed + 1), ctx)
    return seen


def _of(kind, seen):
    return [s for s in seen if s[0] == kind]


def test_no_upgrade_and_pass_high_hold_at_every_decision():
    seen = _play("kansas-city", 4, ["no-upgrade", "pass-high"])
    upgrades, passes = _of("upgrade", seen), _of("pass", seen)
    assert upgrades and passes
    for _, _, legal, pick, _ in upgrades:
        assert (legal == bits.BIT[kc.DECLINE]).all() and (pick == kc.DECLINE).all()
    for _, _, _, pick, f in passes:
        free = f["hand"] & ~f["passing"]
        top = bits.highest(kc.rank_byte(free), 8)
        assert (kc.CARD_RANK[pick] - 1 == top).all()  # a card of the highest rank still held


def test_higher_colour_announces_the_colour_the_led_card_is_higher_in():
    seen = _of("colour", _play("black-white", 3, ["higher-colour"]))
    assert seen
    for _, seat, _, pick, f in seen:
        led = f["trick"][np.arange(len(seat)), seat]
        black, white = bw.values(bw.CARDS)
        higher = np.where(black[led] > white[led], bw.BLACK, bw.WHITE)
        assert (pick == higher).all()


def test_no_kitty_always_passes_the_bid():
    seen = _of("bid", _play("out-trumped", 4, ["no-kitty"], {"kitty": "bid"}))
    assert seen and all((pick == ot.PASS).all() for *_, pick, _ in seen)


def test_no_trump_lead_leads_a_plain_card_whenever_it_holds_one():
    seen = _of("lead", _play("out-trumped", 4, ["no-trump-lead"]))
    bound = forced = 0
    for _, _, _, pick, f in seen:
        trumps = ot.suit_cards(f["trump"])
        plain = f["hand"] & ~trumps
        led_trump = (trumps & bits.BIT[pick]) != 0
        assert not (led_trump & (plain != 0)).any()
        bound += int(((f["hand"] & trumps) != 0).sum())
        forced += int((led_trump & (plain == 0)).sum())  # only trumps left: it cannot bind
    assert bound > 0 and forced > 0


def test_no_collect_never_collects_while_a_card_keeps_the_hand():
    seen = _play("trickster", 4, ["no-collect"])
    kept_by_choice = forced = 0
    for _, seat, _, pick, f in seen:
        hand, pips = f["hand"], f["pips"]
        tableau = f["tableau"][np.arange(len(seat)), seat]
        suit = tr.suit_of_hand(hand)
        follow = tableau & np.where(suit >= 0, tr.DECK.layout.suit[np.maximum(suit, 0)], bits.EMPTY)
        legal = np.where(follow != 0, follow, tableau)  # the unrestricted legal set
        fits = np.array([bits.of(c for c in range(tr.DECK.cards) if tr.DECK.pips[c] <= tr.PIP_LIMIT - q)
                         for q in pips], np.uint64)
        keepers = np.where(hand == 0, legal, legal & follow & fits)
        keeps = (keepers & bits.BIT[pick]) != 0
        assert keeps[keepers != 0].all()
        kept_by_choice += int(((keepers != 0) & (keepers != legal)).sum())
        forced += int((keepers == 0).sum())
    assert kept_by_choice > 0 and forced > 0  # it binds, and where nothing keeps the hand it collects


def test_nine_lives_restrictions_bid_lowest_and_keep_bid_suit_cards():
    seen = _play("nine-lives", 4, ["lowest-bid", "no-ignored"])
    cards = nl.layout(4)
    bids = _of("bid", seen)
    assert bids
    for _, _, _, pick, f in bids:
        low = np.array([min(cards.card_rank[c] for c in range(cards.cards) if int(h) >> c & 1) for h in f["hand"]])
        assert (cards.card_rank[pick] == low).all()
    plays = _of("play", seen) + _of("lead", seen)
    for _, seat, legal, pick, f in plays:
        own = cards.card_suit[f["bid"][np.arange(len(seat)), seat]]
        ignored = cards.card_suit[pick] == own
        # an ignored card only where every card the seat may play is of its bid suit
        only = (legal & ~cards.suit[own]) == 0
        assert (~ignored | only).all()


def test_a_strategy_that_ignores_view_legal_still_plays_restricted_and_illegal_stays_illegal():
    # balance answers the colour without reading view.legal; restricted, it announces the higher one
    game = simtool.games.get("black-white")
    state = game.deal(np.random.default_rng(4), game.new_match(200, 3, {}), 0)
    picks = []

    def spy(view, rng):
        choice = strategies.resolve("balance~higher-colour", game.id)(view, rng)
        if view.kind == "colour":
            led = view.trick[np.arange(len(view)), view.seat]
            black, white = bw.values(bw.CARDS)
            picks.append((choice, np.where(black[led] > white[led], bw.BLACK, bw.WHITE)))
        return choice

    ctx = engine.Context(game.id, 4, 200, "deal", np.arange(200))
    engine.play_round(game, state, engine.Lineup([strategies.Strategy("spy", spy, "")], np.zeros(3, np.int64)),
                      np.random.default_rng(5), ctx)
    assert picks and all((c == h).all() for c, h in picks)
    cheat = strategies.resolve(f"{PLUGINS / 'good.py'}:cheats~higher-colour", game.id)
    state = game.deal(np.random.default_rng(4), game.new_match(50, 3, {}), 0)
    with pytest.raises(StrategyError, match="chose the illegal option"):
        engine.play_round(game, state, engine.Lineup([cheat], np.zeros(3, np.int64)),
                          np.random.default_rng(5), engine.Context(game.id, 4, 50, "deal", np.arange(50)))


def test_narrow_keeps_a_deal_whose_restriction_allows_nothing_and_derives_the_mask_afresh():
    game = simtool.games.get("kansas-city")
    state = game.deal(np.random.default_rng(1), game.new_match(3, 4, {o.name: o.default for o in game.options}), 0)
    legal = np.array([0b0110, 0b1000, 0b1111], np.uint64)
    view = engine.view_of(game, state, "lead", np.zeros(3, np.int64), legal)
    assert view.mask[0, 1]
    view.narrow(np.array([0b0100, 0b0001, 0b0011], np.uint64))
    assert view.legal.tolist() == [0b0100, 0b1000, 0b0011]  # deal 1: nothing left, kept
    assert view.mask[:, :4].tolist() == [[False, False, True, False], [False, False, False, True],
                                         [True, True, False, False]]
    assert legal.tolist() == [0b0110, 0b1000, 0b1111]  # the engine's own sets are untouched


def test_the_deals_do_not_depend_on_the_strategies(monkeypatch):
    game = simtool.games.get("kansas-city")
    dealt = []
    real = type(game).deal

    def record(self, rng, match, rnd):
        state = real(self, rng, match, rnd)
        dealt.append(state.hands.copy())
        return state

    monkeypatch.setattr(type(game), "deal", record)
    specs, _ = restrict.plan("kansas-city", 4, None, 600, 11, "greedy")
    assert len({s.chunk for s in specs}) == 1
    for s in specs:
        play_chunk(s, 0)
    assert len(dealt) == 3 and all(np.array_equal(d, dealt[0]) for d in dealt[1:])
    assert specs[1].lineup == ("greedy~no-upgrade", "greedy", "greedy", "greedy") and specs[1].rotate


def test_a_restriction_that_never_binds_costs_exactly_zero(tmp_path):
    # no kitty rule: there is no bid to pass; target already passes its highest cards
    table, _ = restrict.measure("out-trumped", tmp_path / "ot", n=2000, seed=2,
                                restrictions=["no-kitty"], jobs=1)
    row = table.row(0, named=True)
    # no deal differs: a cost of exactly 0, bounded by the rule of three (about 3/n), not [0, 0]
    bound = 1 - 0.05 ** (1 / 2000)
    assert (row["win_cost"], row["changed"]) == (0, 0)
    assert (row["win_cost_low"], row["win_cost_high"]) == pytest.approx((-bound, bound))
    # the review's words for the same figure (tests/test_words31.py): once "nothing", "a rule
    # nobody needs to think about"
    assert row["score_change"] == 0 and row["verdict"] == "never binds"
    assert "changed no result in 2,000 deals: under these rules it never binds" in costs.sentence(row)
    table, _ = restrict.measure("kansas-city", tmp_path / "kc", n=2000, seed=2, strategy="target",
                                restrictions=["pass-high"], jobs=1)
    assert table.row(0, named=True)["win_cost"] == 0 and table["changed"][0] == 0


def test_a_costly_restriction_has_its_interval_above_zero_and_a_sentence_saying_so(tmp_path):
    table, paths = restrict.measure("kansas-city", tmp_path / "kc", n=3000, seed=2,
                                    restrictions=["no-upgrade", "pass-high"], strategy="greedy", jobs=1)
    assert isinstance(table, pl.DataFrame) and table["restriction"].to_list() == ["no-upgrade", "pass-high"]
    costly = table.row(0, named=True)
    assert costly["win_cost_low"] > 0 and costly["verdict"] == "costs" and costly["deals"] == 3000
    assert costs.sentence(costly).startswith("Never upgrading costs greedy ")
    # the cost is the paired difference at the restricted seat, recomputed here from the tables
    base = pl.read_parquet(paths[0] / "seats.parquet").sort("deal", "seat")
    restricted = pl.read_parquet(paths[1] / "seats.parquet").sort("deal", "seat")
    mine = restricted.filter(pl.col("strategy") == "greedy~no-upgrade")
    assert mine.height == 3000 and (mine["seat"].to_numpy() == (-mine["deal"].to_numpy()) % 4).all()
    other = base.join(mine.select("deal", "seat"), on=["deal", "seat"])
    assert costly["win_cost"] == pytest.approx(other["win"].mean() - mine["win"].mean(), abs=1e-6)
    meta = json.loads((paths[1] / "run.json").read_text())
    assert meta["restrict"] == {"strategy": "greedy", "restriction": "no-upgrade",
                                "restrictions": ["no-upgrade", "pass-high"], "doing": "never upgrading",
                                "description": "never upgrades a card to trump (always declines)"}


# the review's words (tests/test_words31.py): "costs" once meant any cost surely above 0, a
# surely negative one "helps", one within ± 1 point "nothing"
@pytest.mark.parametrize("cost,low,high,verdict", [
    (0.04, 0.03, 0.05, "costs"), (-0.02, -0.03, -0.01, "nearly as good"), (0.001, -0.004, 0.006, "nearly as good"),
    (0.006, 0.005, 0.007, "nearly as good"), (0.01, -0.02, 0.04, "unclear")])
def test_verdicts(cost, low, high, verdict):
    assert costs.verdict(cost, low, high) == verdict


def test_the_report_section_renders_costs_in_plain_words(tmp_path):
    _, paths = restrict.measure("black-white", tmp_path / "bw", n=1500, seed=3, jobs=1)
    page = reports.render(paths)
    assert "Restricted play: 3 players, balance" in page
    assert 'class="restricted-table"' in page
    assert "Always announcing the lead&#39;s higher colour costs balance " in page
    assert "Runs side by side" not in page  # restricted runs are compared with their baseline only


@pytest.mark.parametrize("args,needles", [
    (["--restrictions", "never-win"], ["restriction 'never-win' is unknown for kansas-city", "no-upgrade"]),
    (["--restrictions", "no-kitty"], ["restriction 'no-kitty' is for out-trumped, not kansas-city"]),
    (["--restrictions", ""], ["bad --restrictions '': it names no restriction (empty)",
                              "valid for kansas-city: no-upgrade, pass-high"]),
    (["--strategy", "target~no-upgrade"], ["give the strategy without restrictions"]),
    (["--strategy", "balance"], ["strategy 'balance' plays black-white, not kansas-city"]),
    (["--n", "0"], ["bad --n '0'"]),
])
def test_bad_restrict_commands_are_one_line_and_exit_2(tmp_path, args, needles):
    r = cli("restrict", "-g", "kansas-city", *(["--n", "100"] if "--n" not in args else []), *args,
            "--out", tmp_path / "runs",
            "--report", tmp_path / "r.html")
    one_line_error(r, *needles)
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "runs").exists()


def test_restrict_command_end_to_end(tmp_path):
    runs, page = tmp_path / "runs", tmp_path / "r.html"
    r = cli("restrict", "-g", "kansas-city", "--strategy", "greedy", "--n", "2000", "--seed", "4",
            "-j", "1", "--out", runs, "--report", page)
    assert r.exit_code == 0, r.output
    assert "Never upgrading costs greedy" in r.stdout and "Always passing the highest cards" in r.stdout
    assert "3 runs in" in r.stdout and page.is_file() and "Restricted play" in page.read_text()
    assert sorted(p.name for p in runs.iterdir() if p.is_dir()) == [
        "kansas-city_4p_greedy",
        "kansas-city_4p_greedy~no-upgrade+greedy",
        "kansas-city_4p_greedy~pass-high+greedy"]


def test_the_sweep_key_measures_every_variant(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["out-trumped"]\nn = 800\nseed = 1\nrestrict = true\n'
                    '[rules]\nkitty = ["none", "bid"]\n')
    r = cli("sweep", grid, "--runs", tmp_path / "runs", "-o", tmp_path / "s.html", "-j", "1", "-q")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "s.html").read_text()
    assert page.count('class="restricted-table"') == 2 and "kitty=bid" in page
    assert "Never bidding for the kitty changed no result in 800 deals" in page  # kitty = none


@pytest.mark.parametrize("extra,needle", [
    ('ladder = true\n', "leave out ladder"), ('unit = "match"\n', "leave out ladder"),
    ('lineups = ["target,greedy"]\n', "lineups name the strategies to restrict"),
    ('restrict = "yes"\n', "bad restrict 'yes'"),
])
def test_bad_restrict_grids(tmp_path, extra, needle):
    grid = tmp_path / "grid.toml"
    text = 'games = ["kansas-city"]\nn = 100\n' + extra
    grid.write_text(text if "restrict =" in extra else text + "restrict = true\n")
    r = cli("sweep", grid, "--runs", tmp_path / "runs", "-o", tmp_path / "s.html")
    one_line_error(r, needle)


def test_a_restricted_seat_in_an_ordinary_run_is_named_with_its_restriction(tmp_path):
    spec = make_spec("kansas-city", 4, 500, "target", {0: "target~pass-high~no-upgrade"}, seed=1)
    assert spec.lineup[0] == "target~no-upgrade~pass-high"
    seats = play_chunk(spec, 0).seats
    assert set(seats["strategy"].unique()) == {"target", "target~no-upgrade~pass-high"}
    assert seats.filter(pl.col("strategy") == "target~no-upgrade~pass-high")["upgrades"].sum() == 0


def test_each_game_page_lists_its_restrictions():
    root = Path(__file__).parents[1]
    for game_id, found in strategies.RESTRICTIONS.items():
        text = (root / "docs" / "rules" / f"{game_id}.md").read_text()
        assert "## Restrictions (restricted play)" in text
        for r in found:
            assert f"| `{r.name}` |" in text, (game_id, r.name)


# ---- a restricted search imagines its own later moves restricted too ---------------------------

@dataclass
class _Gamble(engine.RoundState):
    """Seat 0 picks A (0) or B (1), then finishes with X (0) or Y (1): A then Y scores 10, A then X
    0, B 5 either way. Nothing is hidden."""

    p: int
    first: np.ndarray
    second: np.ndarray

    @property
    def n(self) -> int:
        return len(self.first)


class _GambleView(engine.View):
    first = engine.public("first", "the pick so far, -1 before it")
    second = engine.public("second", "the finish so far, -1 before it")


class _GambleGame(engine.Game):
    id, title, sheet = "gamble", "A then Y (test game)", "tests/test_restrict.py"
    players, default_players, n_actions = (2,), 2, 2
    default_strategy = "high"  # its play-outs finish with Y, the higher option, where they may
    View = _GambleView

    def deal(self, rng, match, rnd):
        return _Gamble(match.p, np.full(match.n, -1), np.full(match.n, -1))

    def play(self, s):
        if (s.first < 0).all():
            s.first[:] = yield engine.Decision("pick", 0, np.uint64(3))
        if (s.second < 0).all():
            s.second[:] = yield engine.Decision("finish", 0, np.uint64(3))
        score = np.where(s.first == 0, np.where(s.second == 1, 10, 0), 5)
        return {"score": np.stack([score, np.full_like(score, 5)], axis=1),
                "tricks": np.zeros((len(score), 2), np.int8)}

    def redeal(self, view, k, rng):
        return _Gamble(view.players, np.repeat(view.first, k), np.repeat(view.second, k))

    def match_over(self, match, rnd):
        return np.ones(match.n, bool)

    def invariants(self, s):
        return {}


NO_Y = restrictions.Restriction("no-y", "never finishes with Y", "never finishing with Y", ("finish",),
                                lambda view: np.full(len(view), 1, np.uint64))


def _gamble(strategy) -> np.ndarray:
    """Seat 0's score per deal with ``strategy`` in both seats (seat 1 never decides)."""
    game = _GambleGame()
    state = game.deal(None, game.new_match(4, 2, {}), 0)
    ctx = engine.Context(game.id, 0, 4, "deal", np.arange(4))
    lineup = engine.Lineup([strategy], np.zeros(2, np.int64))
    return engine.play_round(game, state, lineup, np.random.default_rng(0), ctx)["score"][:, 0]


def test_a_restricted_search_plays_the_restriction_in_its_imagined_moves(monkeypatch):
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, _GambleGame()))
    monkeypatch.setitem(strategies.RESTRICTIONS, "gamble", (NO_Y,))
    pimc = strategies.resolve("pimc@samples=2", "gamble")
    assert (_gamble(pimc) == 10).all()  # free to finish with Y, it picks A
    # restricted, it imagines its finish restricted too: A would end with X (0), so it picks B (5)
    assert (_gamble(restrictions.wrap(pimc, [NO_Y], "gamble")) == 5).all()

    def blind(view, rng):  # the restriction on its real moves only, as before: the search is fooled
        if view.kind == "finish":
            view.narrow(np.full(len(view), 1, np.uint64))
        return pimc(view, rng)

    assert (_gamble(strategies.Strategy("blind", blind, "")) == 0).all()
