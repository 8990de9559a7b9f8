"""The conformance suite: what every game must do for simtool's engine, pipeline and searches to
play it right. Each check says what it protects; a failure names the game, player count and check.

Run it with ``--simtool-game`` or by subclassing :class:`Conformance` (see :mod:`simtool.testing`).
A game's own rules are checked by the game: :meth:`Game.invariants` (cards conserved, tricks add
up, ...) is evaluated before every decision and at the end of every round here.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random as pyrandom
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from types import ModuleType

import numpy as np
import polars as pl
import pytest

import strategies
from simtool import bits, engine, games, options
from simtool.analysis import summary, tension
from simtool.errors import SimtoolError, StrategyError
from simtool.games.tricks import TrickRound
from simtool.pipeline.runner import RunSpec, chunk_size, execute, play_chunk, replay

DEALS = 400
"""Deals of the rounds the suite plays for each check (a few thousand where it counts picks)."""


NOT_SEEDED = ("the same deals played twice gave different results: the game's deal or play draws from "
              "something other than the rng it is given (np.random.default_rng() unseeded, random, time)")


class Watch:
    """Wraps a strategy: before each decision checks the legal sets and the game's invariants on
    the live round, then records what was legal and what was picked."""

    def __init__(self, game, inner, state=None):
        self.game, self.inner, self.name, self.state = game, inner, inner.name, state
        self.seen: list[tuple[str, np.ndarray, np.ndarray]] = []
        self.failed: AssertionError | None = None
        """The game's fault this watch found, if any: the engine reports it as the strategy's
        error (the watch runs inside the strategy's call), :func:`watched_round` as the game's."""

    def __call__(self, view, rng):
        legal = view.legal
        try:
            self.check(view, legal)
        except AssertionError as exc:
            self.failed = exc
            raise
        picked = self.inner(view, rng)
        self.seen.append((view.kind, legal.copy(), np.asarray(picked).copy()))
        return picked

    def check(self, view, legal) -> None:
        # the engine checks the seats of a game plugin's decisions, not those of a built-in game
        wrong = view.seat[(view.seat < 0) | (view.seat >= view.players)]
        if wrong.size:
            raise AssertionError(f"seat {wrong[0]} at '{view.kind}', not one of 0..{view.players - 1}")
        fail_if(not (bits.count(legal) > 0).all(), f"empty legal set at '{view.kind}'")
        fail_if((legal & ~bits.full(self.game.n_actions) != 0).any(), f"option beyond n_actions at '{view.kind}'")
        broken(self.game, self.state, f"before '{view.kind}'")


def fail_if(failed, message: str) -> None:
    """An AssertionError of ``message`` alone: pytest's rewriting of a plain ``assert`` would add
    the arrays compared to a message that must stay one line."""
    if failed:
        raise AssertionError(message)


def broken(game, state, when: str) -> None:
    # the suite's own checks first: the game's invariants may fail on what they find, less clearly
    shared = card_in_two_hands(game, state) or card_held_and_played(game, state)
    fail_if(shared, f"invariant broken {when}: {shared}")
    for name, ok in game.invariants(state).items():
        ok = np.asarray(ok, bool)
        if not ok.all():
            where = f" (deal {np.flatnonzero(~ok)[0]})" if ok.ndim else ""
            raise AssertionError(f"invariant broken {when}: {name}{where}")


def card_held_and_played(game, state) -> str | None:
    """A card still in a hand after it was played, in a round of the shared trick loop
    (:class:`~simtool.games.tricks.TrickRound`: its ``played`` holds every card played), named
    with its deal and seat; ``None`` if none. A legal set offering a card the seat does not hold
    (another's, or one already played) plays it out of nobody's hand, or out of another's."""
    if not isinstance(state, TrickRound) or not state.books:
        return None
    both = state.hands & state.played[:, None]
    if not both.any():
        return None
    row, seat = (int(i) for i in np.argwhere(both != 0)[0])
    card = int(bits.lowest(both[row:row + 1, seat])[0])
    return (f"a played card is still held: card {card} ({game.label('play', card)}) is played and in seat {seat}'s "
            f"hand in deal {row} (did a legal set offer a card the acting seat does not hold?)")


def card_in_two_hands(game, state) -> str | None:
    """A card held by two seats at once in the round state's hands (its own field declared
    ``cards=True``), named with its deal and seats; ``None`` if none. The suite checks it itself: a
    game's own invariants are written from its deal (every card held is one dealt), so a deal giving
    a card twice kept them and passed every check."""
    if not dataclasses.is_dataclass(state):
        return None
    for name, seen in engine.declared(type(state)).items():
        if not seen.cards:
            continue
        hands = np.asarray(getattr(state, name))
        if hands.dtype != np.uint64:  # numpy refuses to mix int64 and uint64 sets, deep in the play
            return f"'{name}' holds {hands.dtype} values; card sets are uint64, bit c for card c (simtool.bits)"
        held, twice = np.zeros(hands.shape[0], np.uint64), np.zeros(hands.shape[0], np.uint64)
        for seat in range(hands.shape[1]):
            twice |= held & hands[:, seat]
            held |= hands[:, seat]
        if twice.any():
            row = int(np.flatnonzero(twice)[0])
            card = int(bits.lowest(twice[row:row + 1])[0])
            seats = [seat for seat in range(hands.shape[1]) if hands[row, seat] & bits.BIT[card]]
            return (f"no card is in two hands: card {card} ({game.label('play', card)}) is in '{name}' of "
                    f"seats {seats} in deal {row}")
    return None


def default_rules(game) -> dict:
    return {o.name: o.default for o in game.options}


def context(game, n: int, seed: int = 0) -> engine.Context:
    return engine.Context(game.id, seed, n, "deal", np.arange(n), resolve=strategies.resolve)


def watched_round(game, p: int, strategy_name: str, n: int = DEALS, unit_rules: dict | None = None,
                  seed: int = 11):
    """One round of ``n`` deals at ``p`` players, ``strategy_name`` at every seat, watched (see
    :class:`Watch`); returns the watch and the round's results."""
    rules = default_rules(game) | (unit_rules or {})
    match = game.new_match(n, p, rules)
    rng = np.random.default_rng(seed)
    state = game.deal(rng, match, 0)
    broken(game, state, "after the deal")  # here, not inside a strategy that would take the blame
    watch = Watch(game, strategies.resolve(strategy_name, game.id), state)
    try:
        results = engine.play_round(game, state, engine.Lineup([watch], np.zeros(p, np.int64)), rng,
                                    context(game, n))
    except StrategyError as exc:
        if watch.failed is None:  # the strategy's own error
            raise
        raise AssertionError(str(watch.failed)) from exc  # the game's: not "strategy 'random' raised ..."
    broken(game, state, "at the end of the round")
    unsummed = tricks_not_played(state, results)
    if unsummed:
        raise AssertionError(f"at the end of the round: {unsummed}")
    undeclared = sorted(set(results) - {*engine.RESULTS, *game.columns} - {k for k in results if k.startswith("_")})
    if undeclared:  # the tables keep only the declared columns: this one was dropped without a word
        raise AssertionError(f"the round returned '{undeclared[0]}', which the game's columns do not declare, so "
                             f"no table holds it: declare it (columns = {{'{undeclared[0]}': np.int8}}), or name "
                             f"it '_{undeclared[0]}' if only end_round reads it")
    return watch, results


def tricks_not_played(state, results) -> str | None:
    """In a round of the shared trick loop (:class:`~simtool.games.tricks.TrickRound`), the first
    deal whose ``tricks`` results add up to more than the tricks it played, in words; ``None`` if
    no deal's do. A winner's cell computed outside the table (a seat ``p`` or more
    lands on the next deal's first seats) moves a trick from one deal to another."""
    if not isinstance(state, TrickRound):
        return None
    won = np.asarray(results["tricks"]).sum(axis=1, dtype=np.int64)
    played = np.full(len(won), state.trick_no, np.int64)
    if state.books:  # each deal's own count (p cards a trick): deals of one round may play fewer
        # tricks than the longest, which ``trick_no`` counts (the trick loop's ``active``: Nine Lives)
        played = np.minimum(bits.count(state.played).astype(np.int64) // state.p, played)
    # more won than played only: fewer is a rule (Skull King's Kraken: a trick nobody wins), and a
    # trick moved to another deal shows there as one too many
    wrong = np.flatnonzero(won > played)
    if not wrong.size:
        return None
    row = int(wrong[0])
    return (f"the tricks won add up to {won[row]} in deal {row}, not the {played[row]} tricks played "
            f"(a trick credited twice, or to a seat outside the table: cells(n, p)(seat) needs "
            f"0 <= seat < p)")


def run_spec(game, players: int, n: int, unit: str = "deal", seed: int = 7, chunk: int | None = None) -> RunSpec:
    """A run of ``random`` at every seat under the default rules."""
    return RunSpec(game.id, players, default_rules(game), ("random",) * players, unit, n, seed,
                   chunk or chunk_size(unit))


def scribbles(view, rng):
    """Plays as ``random`` does, after writing into every array its view holds, those inside a
    tuple, list or dict too, and those marked read-only where numpy lets a strategy unmark them
    (a view of a writable array); and after adding an entry to every list, dict and set its view
    holds (a field that hands out the round's own list, such as a log of the plays, is no copy)."""
    choice = bits.uniform(view.legal.copy(), rng, view.n_actions)
    for name in dir(view):
        for value in arrays_in(getattr(view, name, None)):
            try:
                value.flags.writeable = True
            except ValueError:  # truly read-only: nothing a strategy can write through
                continue
            value[...] = np.zeros((), value.dtype) + 1
        if not name.startswith("__"):  # the view's own __dict__ is no field
            for held in containers_in(getattr(view, name, None)):
                if isinstance(held, list):
                    held.append(held[-1] if held else 0)
                elif isinstance(held, dict):
                    held[("scribbled",)] = 0
                else:
                    held.add(("scribbled",))
    return choice


def containers_in(value, depth: int = 3):
    """The lists, dicts and sets in ``value``: itself, or those inside its tuples, lists and dicts."""
    if isinstance(value, list | dict | set):
        yield value
    if depth and isinstance(value, tuple | list):
        for item in list(value):
            yield from containers_in(item, depth - 1)
    elif depth and isinstance(value, dict):
        for item in list(value.values()):
            yield from containers_in(item, depth - 1)


def arrays_in(value, depth: int = 3):
    """The numpy arrays in ``value``: itself and the arrays it is a view of (``.base``: a
    broadcast of a game's shared table leads to the table), or those in its tuples, lists, dicts
    and the attributes of an object (a ``Layout``'s tables)."""
    if isinstance(value, np.ndarray):
        while isinstance(value, np.ndarray):
            yield value
            value = value.base
    elif depth and isinstance(value, tuple | list):
        for item in value:
            yield from arrays_in(item, depth - 1)
    elif depth and isinstance(value, dict):
        for item in value.values():
            yield from arrays_in(item, depth - 1)
    elif depth and not callable(value) and not isinstance(value, ModuleType) and hasattr(value, "__dict__"):
        # an object the view hands out (Out-Trumped's view.layout): the tables it holds
        yield from arrays_in(vars(value), depth - 1)


class Conformance:
    """The suite, one test per check. Subclass it in a test module with ``games`` set to the games
    to check; every test then runs per game (and per player count where it takes ``players``)."""

    simtool_conformance = True  # marks the class for simtool.testing's parametrization
    games: tuple | list | None = None
    """The games to check; ``None``: those named by ``--simtool-game`` / ``simtool_games``."""

    @pytest.fixture(autouse=True)
    def _registered(self, game, monkeypatch):
        """Runs look a game up by its id: a game not installed (under the ``simtool.games`` entry
        point) is registered for the test, in this process only."""
        # a built-in game keeps its id whatever is installed (games.registry), so it needs no scan
        # of the installed packages: 3 ms of every test of the suite
        built_in = {g.id: g for g in games.BUILT_IN}
        known = game if built_in.get(game.id) is game else games.registry().get(game.id)
        if known is None:
            monkeypatch.setattr(games, "BUILT_IN", (*games.BUILT_IN, game))
        elif known is not game:
            pytest.fail(f"game id '{game.id}' is already taken by another game ({type(known).__module__})")
        return known is not None

    # -- the play ---------------------------------------------------------------------------------

    def test_legal_options_never_empty_and_invariants_hold(self, game, players):
        """Every strategy that plays the game (searches aside) gets a non-empty legal set within
        ``n_actions`` at every decision, and the game's invariants hold before every decision and
        after the round."""
        for name, s in strategies.registry(game.id).items():
            if s.relative_cost() > 1:  # a search: slow, and it plays the heuristics checked here
                continue
            watch, results = watched_round(game, players, name)
            assert watch.seen, f"{name}: no decision was asked"
            assert results["score"].shape == (DEALS, players), name
            # what a strategy's parameter may name (pimc's focus): a kind left out was refused there
            asked = next((kind for kind, _, _ in watch.seen if game.decisions and kind not in game.decisions), None)
            fail_if(asked is not None, f"the game asked a decision of kind {asked!r}, which its decisions "
                                       f"{tuple(game.decisions)} do not declare (a strategy's parameter that names "
                                       f"it, pimc@focus={asked}, is refused)")

    def test_random_is_uniform_over_the_legal_options(self, game, players):
        """The reference policy ``random`` (the game's rules page enumerates the legal options)
        picks each legal option equally often: the rank of its pick among ``c`` legal options is
        uniform on ``0..c-1`` (chi-square, p > 1e-5)."""
        watch, _ = watched_round(game, players, "random", n=3000)
        by_size: dict[int, list[np.ndarray]] = {}
        for _, legal, picked in watch.seen:
            rank = bits.count(legal & bits.below(picked)).astype(np.int64)
            size = bits.count(legal).astype(np.int64)
            for c in np.unique(size):
                by_size.setdefault(int(c), []).append(rank[size == c])
        from scipy import stats

        tested = 0
        for c, ranks in by_size.items():
            ranks = np.concatenate(ranks)
            if c < 2 or len(ranks) < 50 * c:
                continue
            counts = np.bincount(ranks, minlength=c)
            assert stats.chisquare(counts).pvalue > 1e-5, f"random not uniform over {c} options"
            tested += 1
        assert tested >= 1, "no decision offered a choice often enough to test"

    # -- what a seat sees -------------------------------------------------------------------------

    def test_every_view_field_reads_at_every_decision(self, game, players):
        """Each field of the game's views says what it is, and holds one entry per deal of the
        view (or one number) at every kind of decision, where seat 0 plays apart from the others
        (its views, and theirs, hold the deals in which their seats act: some of the batch)."""
        table = engine.field_table(game)
        assert all(doc for _, _, doc in table), [name for name, _, doc in table if not doc]
        names = [name for name, _, _ in table]
        kinds, wrong = set(), []
        random = strategies.resolve("random", game.id)

        def read_all(view, rng):
            for name in names:
                value = getattr(view, name)
                if isinstance(value, np.ndarray) and value.ndim and value.shape[0] != len(view) and not wrong:
                    wrong.append(f"field '{name}' holds {value.shape[0]} entries at '{view.kind}' in a view of "
                                 f"{len(view)} deals: a field holds one entry per deal of the view (a Field reads "
                                 f"the deals `rows` it is given, None for every deal of the batch)")
            kinds.add(view.kind)
            return random(view, rng)

        state = game.deal(np.random.default_rng(1), game.new_match(40, players, default_rules(game)), 0)
        readers = [strategies.Strategy(name, read_all, "") for name in ("read_all", "read_all_others")]
        lineup = engine.Lineup(readers, np.array([0] + [1] * (players - 1)))
        engine.play_round(game, state, lineup, np.random.default_rng(2), context(game, 40))
        assert kinds
        fail_if(wrong, wrong[0] if wrong else "")

    def test_a_view_is_a_copy(self, game, players):
        """A strategy that writes into every array of its views changes nothing of the game: the
        same deals give the same results as plain ``random`` (each field a copy, never a slice of
        the round's state)."""
        results = []
        random = strategies.resolve("random", game.id)
        for choose in (random, random, strategies.Strategy("scribbles", scribbles, "")):
            state = game.deal(np.random.default_rng(5), game.new_match(300, players, default_rules(game)), 0)
            try:
                results.append(engine.play_round(game, state, engine.Lineup([choose], np.zeros(players, np.int64)),
                                                 np.random.default_rng(6), context(game, 300)))
            except SimtoolError as exc:  # the scribbles reached the game's state and broke its play
                pytest.fail(f"a strategy writing into its view changed the game ({choose.name}: {exc})")
        plain, again, scribbled = results
        # a game drawing from another generator than the rng it is given differs with no scribbles
        assert all(np.array_equal(plain[key], again[key]) for key in plain), NOT_SEEDED
        assert plain.keys() == scribbled.keys()
        changed = any(not np.array_equal(plain[key], scribbled[key]) for key in plain)
        fail_if(changed and not plays_alike(game, players), NOT_SEEDED)
        for key in plain:
            fail_if(not np.array_equal(plain[key], scribbled[key]),
                    f"a strategy writing into its view changed the game's '{key}' results: a field of the view "
                    f"hands out the round's own array, list or dict (a Field must return a copy)")

    def test_worlds_show_the_seat_what_it_saw(self, game, players):
        """A search re-deals what a seat cannot know (``view.redeal``): every world shows the seat
        exactly its view (so the view hides what the re-deal draws anew), keeps the game's
        invariants, and plays to a legal end."""
        if not game.redeals:
            pytest.skip(f"{game.id} does not re-deal (Game.redeal): searches such as pimc cannot play it")
        random = strategies.resolve("random", game.id)
        checked, failed = [], []

        def probe(view, rng):
            # a few decisions spread over the round (each check plays its worlds to the end)
            if len(checked) < 3 * (rnd + 1) and rng.random() < 0.15:
                try:
                    check_worlds(game, view, np.random.default_rng(len(checked)))
                except (AssertionError, SimtoolError) as exc:
                    # raised below as the suite's finding: from here the engine would blame a
                    # strategy 'probe' and offer a replay of a run nobody made
                    failed.append(exc)
                checked.append(view.kind)
            return random(view, rng)

        for rnd in (0, 1):  # round 1 of a match too: totals so far, a later dealer
            match = game.new_match(30, players, default_rules(game))
            if rnd:  # totals a round of the game gave (partners' totals are equal, say), not made up
                first = game.deal(np.random.default_rng(99), match, 0)
                lineup = engine.Lineup([random], np.zeros(players, np.int64))
                game.end_round(match, engine.play_round(game, first, lineup, np.random.default_rng(98),
                                                        context(game, 30)))
            state = game.deal(np.random.default_rng(rnd), match, rnd)
            engine.play_round(game, state, engine.Lineup([strategies.Strategy("probe", probe, "")],
                                                         np.zeros(players, np.int64)),
                              np.random.default_rng(9 + rnd), context(game, 30))
            if failed:
                raise failed[0]
        assert checked, "no decision was probed"

    def test_replay_names_every_option(self, game, players):
        """`simtool replay` writes a deal and a match out: the deal as dealt (``describe(state, row)``,
        lines of text) and each play by its option's name (``label_at(state, kind, option)``, one
        line of text for every option a decision offers, as the engine's refusal of an illegal
        choice names it too)."""
        for unit in ("deal", "match"):
            try:
                lines = replay(run_spec(game, players, 3, unit=unit), 2)
            except SimtoolError as exc:
                raise AssertionError(f"simtool replay of {unit} 2 failed: {exc}") from None
            odd = next((line for line in lines if not isinstance(line, str)), None)
            fail_if(odd is not None, f"simtool replay of {unit} 2 wrote {odd!r}: describe(state, row) gave "
                                     f"{type(odd).__name__}, not lines of text (a list of str)")
        watch, _ = watched_round(game, players, "random", n=40)
        for kind, legal, _ in watch.seen:
            for option in np.flatnonzero(bits.to_mask(np.bitwise_or.reduce(legal), game.n_actions)):
                name = game.label_at(watch.state, kind, int(option))
                fail_if(not (isinstance(name, str) and name.strip()),
                        f"label_at(state, {kind!r}, {option}) gave {name!r}: an option's name is text, which "
                        f"simtool replay writes after the seat ('seat 1 {kind}: ...')")

    # -- runs -------------------------------------------------------------------------------------

    def test_tables_have_one_row_per_deal_and_seat(self, game, players):
        """A run's table: one row per deal and seat, the engine's and the game's columns, that the
        game's analysis summarises, and the win of every deal shared out in full."""
        c = play_chunk(run_spec(game, players, 150), 0)
        assert c.seats.height == 150 * players
        assert set(summary.seat_summary(game, c.seats)["seat"]) == set(range(players))  # its rates read its columns
        assert {"deal", "seat", "strategy", "score", "tricks", "win", *game.columns} <= set(c.seats.columns)
        per_deal = c.seats.group_by("deal").agg(pl.col("win").sum(), pl.len())
        assert per_deal.height == 150 and (per_deal["len"] == players).all()
        assert np.allclose(per_deal["win"].to_numpy(), 1.0, atol=1e-5)
        most = game.most_tricks(options.resolve(game, {}), players)
        if most is not None:  # what the loader holds the game's tables to
            assert 0 <= c.seats["tricks"].min() <= c.seats["tricks"].max() <= most, \
                f"tricks of {c.seats['tricks'].max()} in a round, above most_tricks' {most}"

    def test_matches_end_with_shared_wins(self, game, players):
        """Whole matches end (``match_over``), share out each match's win, and count their rounds."""
        c = play_chunk(run_spec(game, players, 60, unit="match"), 0)
        m = c.matches
        assert m.height == 60 * players
        # the engine's safety cap ends a match that match_over never ends: that is no end (a rare
        # capped match is a finding of the game's, as Nine Lives' random play shows at 4 players)
        assert not m["capped"].all(), f"none of 60 matches ended within {engine.ROUND_CAP} rounds " \
                                      f"(match_over never true?)"
        per = m.group_by("match").agg(pl.col("win").sum(), pl.col("rounds").first())
        assert np.allclose(per["win"].to_numpy(), 1.0, atol=1e-5)
        rounds = c.seats.group_by("match").agg(pl.col("round").max() + 1).sort("match")
        assert (rounds["round"].to_numpy() == m.filter(pl.col("seat") == 0).sort("match")["rounds"].to_numpy()).all()
        unsummed = total_not_its_rounds(game, c.seats, m)
        assert unsummed is None, unsummed

    @pytest.mark.parametrize("unit", ["deal", "match"])
    def test_duplicate_copies_play_alike(self, game, unit):
        """``--duplicate`` (and the review's luck question) plays every deal once per rotation of
        the line-up with the same cards: with ``high`` at every seat, a choice fixed by the
        position, every copy of a deal (of every round of a match) scores the same seat by seat."""
        if unit == "match" and game.deal_reads_match:
            pytest.skip(f"{game.id} deals each round from the match so far: no duplicate matches")
        p = game.default_players
        spec = dataclasses.replace(run_spec(game, p, 12 * p, unit), lineup=("high",) * p, duplicate=True)
        seats = play_chunk(spec, 0).seats
        key = ["deal"] if unit == "deal" else ["match", "round"]
        copies = seats.group_by(*key, "seat").agg(pl.col("score").n_unique().alias("scores"), pl.len())
        assert (copies["len"] == p).all(), "a duplicate deal was not played once per rotation"
        differ = copies.filter(pl.col("scores") > 1)
        read = match_read_by_deal(game, p) if unit == "match" else None
        fail_if((not differ.is_empty() or read) and not plays_alike(game, p), NOT_SEEDED)
        assert differ.is_empty(), (f"the {p} copies of {unit} {differ.row(0, named=True)[key[0]]} scored seat "
                                   f"{differ.row(0, named=True)['seat']} differently: the copies the engine makes "
                                   f"of a round state (engine.repeat) do not play alike")
        fail_if(read, f"round 1 dealt from the match after round 0 differs from one dealt from a fresh match in "
                      f"{read!r}: the deal reads the match so far beyond its size, rules and totals, so a duplicate "
                      f"match, each round dealt from a fresh match for its cards, plays another game; declare "
                      f"deal_reads_match = True (duplicate matches are then refused)")

    def test_a_deal_plays_alike_whatever_deals_share_its_round(self, game, players):
        """A deal's results are its own: the deals of a round played in another order, and half of
        them alone, with ``high`` at every seat (a choice fixed by what the seat holds), give each
        deal the results it got beside the others. A round that reads across its deals (a sum or a
        maximum over the whole array where one deal's was meant) passed every other check, its
        results changing with the chunk a deal fell in."""
        p, rules = players, default_rules(game)
        state = game.deal(np.random.default_rng(5), game.new_match(DEALS, p, rules), 0)
        lineup = engine.Lineup([strategies.resolve("high", game.id)], np.zeros(p, np.int64))
        order = np.random.default_rng(6).permutation(DEALS)
        played = [engine.play_round(game, engine.take(state, rows), lineup, np.random.default_rng(7),
                                    context(game, len(rows))) for rows in (np.arange(DEALS), order, order[:DEALS // 2])]
        for rows, results in zip((order, order[:DEALS // 2]), played[1:], strict=True):
            for name, whole in played[0].items():
                differ = np.flatnonzero(~np.all(np.asarray(whole)[rows] == np.asarray(results[name]),
                                                axis=tuple(range(1, np.ndim(whole)))))
                fail_if(differ.size, f"deal {rows[differ[0]] if differ.size else 0}'s {name!r} differs when the "
                                     f"round's other deals are {'another order' if len(rows) == DEALS else 'fewer'}: "
                                     f"its results read other deals than its own (a sum, maximum or index over "
                                     f"the whole array where one deal's row was meant)")

    def test_match_over_has_no_side_effects(self, game, players):
        """Asking whether a match is over changes nothing in it, nor in the game: every field of
        the match (its arrays, and its numbers, lists and dicts, such as a dealer advanced there)
        and every attribute of the game object as they were, the first one changed named."""
        match = game.new_match(50, players, default_rules(game))
        match.totals[:] = np.random.default_rng(1).integers(0, 60, match.totals.shape)
        before = snapshot(match), snapshot(game)
        for rnd in range(2 * players + 2):
            game.match_over(match, rnd)
        changed = changed_field(before[0], match, "match") or changed_field(before[1], game, "game")
        fail_if(changed, f"match_over changed {changed}: it answers whether each match is over and changes "
                         f"nothing (advance a match's state in end_round)")

    def test_same_seed_same_result(self, game, players):
        """A seed fixes the results, whatever the time; another seed gives others."""
        a = play_chunk(run_spec(game, players, 120, seed=3), 0).seats
        with clock_moved():
            b = play_chunk(run_spec(game, players, 120, seed=3), 0).seats
        c = play_chunk(run_spec(game, players, 120, seed=4), 0).seats
        assert a.equals(b), NOT_SEEDED
        assert not a.equals(c)

    @pytest.mark.parametrize("unit", ["deal", "match"])
    def test_jobs_do_not_change_results(self, game, unit, _registered):
        """Played on one process or two, a run gives the same tables, chunk by chunk."""
        if not _registered:
            pytest.skip(f"{game.id} is not installed under the simtool.games entry point, so "
                        "worker processes cannot find it")
        # four chunks, the last one short: as many hand-outs as a big run needs to be reordered
        # (small ones: a worker's own seeding or order would change any chunk, however short;
        # a long game's matches, Nine Lives', cost a second per 100)
        s = run_spec(game, game.default_players, 20, unit=unit, chunk=6)
        one, two = (list(execute(s, jobs=j)) for j in (1, 2))
        assert len(one) == 4
        assert sum(c.seats["seat"].eq(0).sum() for c in one) >= 20
        for a, b in zip(one, two, strict=True):
            assert a.seats.equals(b.seats)
            assert (a.matches is None and b.matches is None) or a.matches.equals(b.matches)

    def test_chunks_play_alike_in_a_fresh_process(self, game, _registered, tmp_path):
        """A run's chunks played last to first by a fresh interpreter give the tables this process
        gives them: a game keeping state between deals outside the round and the match it is given
        (a module's cache of its first chunk's draw, a counter) changes a run's results with
        ``--jobs``, as each worker of a `simtool run` starts afresh, while the workers of the check
        above, forked from this process, inherit what it holds."""
        if not _registered:
            pytest.skip(f"{game.id} is not installed under the simtool.games entry point, so a fresh "
                        "process cannot find it")
        specs = [run_spec(game, game.default_players, 20, unit=unit, chunk=6) for unit in ("deal", "match")]
        fresh = played_fresh(specs, tmp_path)
        for s, there in zip(specs, fresh, strict=True):
            for index, (a, b) in enumerate(zip((play_chunk(s, i) for i in range(s.n_chunks)), there, strict=True)):
                same = a.seats.equals(b[0]) and ((a.matches is None and b[1] is None) or a.matches.equals(b[1]))
                fail_if(not same, f"chunk {index} of a run of {s.n} {s.unit}s gave other results in a fresh process "
                                  f"that played the chunks last to first: the game keeps state between deals outside "
                                  f"the round and match it is given (a module's cache, a counter on the game), so a "
                                  f"run's results change with --jobs")


FRESH = """
import pickle, sys
from simtool.pipeline.runner import play_chunk
with open(sys.argv[1], "rb") as f:
    specs = pickle.load(f)
out = []
for spec in specs:
    played = {i: play_chunk(spec, i) for i in reversed(range(spec.n_chunks))}
    out.append([(played[i].seats, played[i].matches) for i in sorted(played)])
with open(sys.argv[1], "wb") as f:
    pickle.dump(out, f)
"""
"""What :func:`played_fresh` runs in a new interpreter."""


def played_fresh(specs: list[RunSpec], folder) -> list[list[tuple]]:
    """Each run's chunks, played last to first in a new interpreter (on this one's ``sys.path``),
    as ``(seats, matches)`` tables in chunk order."""
    import os
    import subprocess
    import sys

    path = folder / "fresh.pickle"
    path.write_bytes(pickle.dumps(specs))
    # another hash seed than this process's: one that tox or a CI set here for every process
    # would play a deal reading hash() of strings alike in both, and the check would pass it
    seed = os.environ.get("PYTHONHASHSEED", "random")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
           "PYTHONHASHSEED": str((int(seed) + 1) % 2**32) if seed.isdigit() else "random"}
    done = subprocess.run([sys.executable, "-c", FRESH, str(path)], env=env, capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    fail_if(done.returncode, f"a fresh process could not play the run: {lines[-1] if lines else done.returncode}")
    return pickle.loads(path.read_bytes())


CLOCK_MOVED = 1_000_003.123_457
"""Seconds :func:`clock_moved` puts the clock forward: whole seconds, milliseconds and nanoseconds
all change."""


@contextmanager
def clock_moved() -> Iterator[None]:
    """The wall clocks of ``time`` and ``datetime`` read :data:`CLOCK_MOVED` seconds later: a game
    seeding a generator of its own from the clock's second (``default_rng(int(time.time()))``)
    dealt alike twice within one second, and passed every check."""
    import datetime
    import time

    ns = int(CLOCK_MOVED * 1e9)
    later = datetime.timedelta(seconds=CLOCK_MOVED)

    class Datetime(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return super().now(tz) + later

        @classmethod
        def utcnow(cls):
            return super().utcnow() + later

        @classmethod
        def today(cls):
            return super().today() + later

    class Date(datetime.date):
        @classmethod
        def today(cls):
            return super().today() + later

    with pytest.MonkeyPatch.context() as patch:
        # the wall clock only, what a seed is taken from: the timers (monotonic, perf_counter) of
        # the test process's other threads are not moved
        patch.setattr(time, "time", lambda real=time.time: real() + CLOCK_MOVED)
        patch.setattr(time, "time_ns", lambda real=time.time_ns: real() + ns)
        for name in ("localtime", "gmtime"):
            patch.setattr(time, name, lambda secs=None, real=getattr(time, name):
                          real(time.time() if secs is None else secs))
        patch.setattr(datetime, "datetime", Datetime)
        patch.setattr(datetime, "date", Date)
        yield


def plays_alike(game, p: int, tries: int = 4) -> bool:
    """Whether a round dealt and played with the same generators comes out alike ``tries`` times,
    numpy's and Python's global generators seeded anew each time: a game drawing from those (or
    the clock) differs, where one chance draw alike twice let the checks that compare two plays
    blame a view or the match instead."""
    rules, kept = default_rules(game), (np.random.get_state(), pyrandom.getstate())
    lineup = engine.Lineup([strategies.resolve("random", game.id)], np.zeros(p, np.int64))
    played = []
    try:
        for seed in range(tries):
            np.random.seed(seed)
            pyrandom.seed(seed)
            state = game.deal(np.random.default_rng(3), game.new_match(30, p, rules), 0)
            dealt = copy.deepcopy(engine.state_fields(state))
            played.append((dealt, engine.play_round(game, state, lineup, np.random.default_rng(4), context(game, 30))))
    finally:
        np.random.set_state(kept[0])
        pyrandom.setstate(kept[1])
    return all(same(dealt, played[0][0]) and same(dict(results), dict(played[0][1])) for dealt, results in played)


def match_read_by_deal(game, p: int) -> str | None:
    """The first field of round 1's state that differs dealt from the match after round 0 and
    from a fresh match with the same generator, or ``None``; a copy of the match totals aside, which
    the engine sets to each copy's own in a duplicate match."""
    rules = default_rules(game)
    match, fresh = game.new_match(30, p, rules), game.new_match(30, p, rules)
    first = game.deal(np.random.default_rng(1), match, 0)
    lineup = engine.Lineup([strategies.resolve("random", game.id)], np.zeros(p, np.int64))
    game.end_round(match, engine.play_round(game, first, lineup, np.random.default_rng(2), context(game, 30)))
    real, anew = (engine.state_fields(game.deal(np.random.default_rng(3), m, 1)) for m in (match, fresh))

    def totals(name: str) -> bool:
        return all(isinstance(v, np.ndarray) and v.shape == m.totals.shape and np.array_equal(v, m.totals)
                   for v, m in ((real.get(name), match), (anew.get(name), fresh)))

    return next((name for name in sorted({*real, *anew})
                 if not totals(name) and not same(real.get(name), anew.get(name))), None)


def snapshot(obj) -> dict:
    """A deep copy of each attribute of ``obj``; one that cannot be copied (a lock, a file) is
    held as it is, so that only its replacement is seen."""
    kept = {}
    for name, value in vars(obj).items():
        try:
            kept[name] = copy.deepcopy(value)
        except Exception:
            kept[name] = value
    return kept


def changed_field(before: dict, obj, owner: str) -> str | None:
    """The first attribute of ``obj``, called ``owner``, added, removed or holding another value
    than ``before`` (a :func:`snapshot`), in words (``match.dealer``); ``None`` if none. Arrays
    are compared by shape, dtype and contents, NaN equal to NaN."""
    after = vars(obj)
    for name in sorted({*before, *after}):
        if name not in before and isinstance(getattr(type(obj), name, None), cached_property):
            continue  # filled on its first read, whoever read it first: a cache, as in any test order
        if name not in before or name not in after:
            return f"{owner}.{name} ({'added' if name not in before else 'removed'})"
        if before[name] is not after[name] and not same(before[name], after[name]):
            return f"{owner}.{name}"
    return None


def same(a, b) -> bool:
    """Whether two values hold the same, looking into arrays, lists, tuples, dicts and dataclasses."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, list | tuple) and type(a) is type(b):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if type(a) is type(b) and type(a).__eq__ is object.__eq__ and hasattr(a, "__dict__"):
        return same(vars(a), vars(b))  # a copy of a plain object (a dataclass holding arrays too)
    if dataclasses.is_dataclass(a) and not isinstance(a, type) and type(a) is type(b):
        return same(vars(a), vars(b))
    if type(a) is type(b) and type(a).__eq__ is object.__eq__:
        # equal only to itself (a numpy Generator): its deep copy is another object, so its state
        try:
            return pickle.dumps(a) == pickle.dumps(b)
        except Exception:
            return True
    try:
        return bool(a == b)
    except Exception:  # a value that cannot say whether it equals another: taken as unchanged
        return True


def total_not_its_rounds(game, seats: pl.DataFrame, matches: pl.DataFrame) -> str | None:
    """The first match whose total is not the sum of its rounds' scores (floored at the game's
    ``total_floor``), in words; ``None`` if every one is. Match tension, lead histories and reviews
    rebuild totals from the round scores, so a total the game's ``end_round`` made otherwise
    (a bonus added there, a round left out) is one they would contradict."""
    last = (tension.running_totals(seats, game.total_floor).group_by("match", "seat")
            .agg(pl.col("total").sort_by("round").last()))
    both = (matches.select("match", "seat", pl.col("total").cast(pl.Int64).alias("recorded"))
            .join(last, on=["match", "seat"], how="left")
            .filter(pl.col("total").is_null() | (pl.col("total") != pl.col("recorded"))))
    if both.is_empty():
        return None
    row = both.sort("match", "seat").row(0, named=True)
    floor = "" if game.total_floor is None else f", floored at {game.total_floor}"
    return (f"match {row['match']}: seat {row['seat']}'s total is {row['recorded']}, its rounds' scores sum to "
            f"{row['total']}{floor}; a match total must be the sum of the round scores (Game.end_round adds "
            "results['score'] and nothing else: a bonus belongs in a round's score)")


def check_worlds(game, view, rng, k: int = 3) -> None:
    """``k`` re-deals of ``view``'s deals: the seat's view in each equals ``view``, field by field;
    each world keeps the game's invariants and plays to the end with ``random``."""
    fields = {name: getattr(view, name) for name in type(view).fields()}
    worlds = view.redeal(k, rng)
    w = worlds.view
    assert len(w) == len(view) * k and w.kind == view.kind
    for name, value in {"seat": view.seat, "legal": view.legal, **fields}.items():
        if isinstance(value, np.ndarray):
            again = np.asarray(getattr(w, name))
            repeated = np.repeat(value, k, axis=0)
            assert again.shape == repeated.shape and again.dtype == repeated.dtype, (name, again.shape, again.dtype)
            differs = np.any(again != repeated, axis=tuple(range(1, again.ndim))).reshape(len(view), k).any(axis=1)
        else:
            differs = np.array([getattr(w, name) != value])
        fail_if(differs.any(), f"view field '{name}' at '{view.kind}' differs between deal {np.argmax(differs)} and "
                               f"the worlds re-dealt from what its seat saw: it shows the seat something hidden "
                               f"from it (another seat's cards?), or restore() sets it otherwise")
    broken(game, worlds._state, f"in a re-dealt world at '{view.kind}'")
    choice = bits.uniform(w.legal, np.random.default_rng(0), view.n_actions)
    results = worlds.play_out(choice, "random")
    assert results["score"].shape == (len(w), view.players)
    assert np.allclose(results["win"].sum(axis=1), 1)


class TestConformance(Conformance):
    """The suite on the games named by ``--simtool-game`` (or ``simtool_games``)."""
