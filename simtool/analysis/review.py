"""A review's answers, read from its finished run folders (``simtool.commands.review`` plays
them): each question's verdict (:mod:`simtool.analysis.verdicts`), sentence and figures, as the
JSON-ready dict ``review.json`` holds, and the changes between two versions of the rules.

Every run folder of a review says in its ``run.json`` which play it is (``review``: ``play``
and rule ``version``), so the answers depend on the folders alone.
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from simtool import games, options, stats
from simtool.analysis import ladder, metrics, restrict, summary, tension, verdicts
from simtool.analysis import of as analysis_of
from simtool.analysis.ladder import same_cuts_deals
from simtool.errors import SimtoolError, option
from simtool.pipeline.folders import collect, dealt_alike, load, parse_json, read_meta, read_record

SCHEMA = 1
"""The version of ``review.json``'s layout; raised when a key changes meaning."""

SUM = "sha256"
"""The key in ``review.json`` of the checksum of the rest of it (:func:`review_sum`)."""


def review_sum(data: dict) -> str:
    """The checksum of a review's content, all but :data:`SUM`: a baseline's figure edited by
    hand (its largest seat edge 0.8 points made 12.0) was read as played, and the changes table
    called the same rules "better, by 1 point or more"."""
    rest = {k: v for k, v in data.items() if k != SUM}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, allow_nan=False).encode()).hexdigest()


def lineup(meta: dict) -> str:
    """The line-up a play holds for, in words."""
    names = meta["lineup"]
    if len(set(names)) == 1:
        return f"{names[0]} at every seat"
    how = "duplicate deals" if meta.get("duplicate") else "seats rotated" if meta.get("rotate") else "seats as listed"
    return f"one {names[0]} against {len(names) - 1} {names[1]} ({how})"


def partners(folder: Path, seats, meta: dict) -> list[tuple[int, ...]]:
    """The partnerships a run's scores show (:func:`verdicts.partners`), from its seats table."""
    score = collect(folder / "seats.parquet", seats.select("seat", "score"))
    return verdicts.partners(stats.panel(score, "score", meta["players"]))


def seat_answer(game, folder: Path) -> dict:
    """The seat verdict of one run folder: every seat's win share against the fair share."""
    meta, seats, _ = load(folder)
    table = collect(folder / "seats.parquet", summary.seat_summary(game, seats, by=("seat",)).lazy())
    shares = [(r["seat"], r["win"], r["win_low"], r["win_high"]) for r in table.iter_rows(named=True)]
    v = verdicts.seat_verdict(shares, meta["players"], meta["n"], "deals", lineup(meta))
    sides = partners(folder, seats, meta)
    note = verdicts.partners_note(sides, shares)
    return {"verdict": v.word, "sentence": f"{v.sentence} {note}" if note else v.sentence, "seats": v.figures["seats"],
            "play": lineup(meta), "partners": [list(side) for side in sides],
            "n": meta["n"], "thresholds": v.thresholds, "more_deals": v.more,
            "unclear_between": v.figures["unclear_between"],
            "figure": magnitude(*largest_edge(v.figures["seats"]))}


def largest_edge(seats: list[dict]) -> tuple[float, float, float]:
    """The largest |edge| of a seat table with its interval, in points: what a change of rules
    is judged on (the seat the sentence names may be another, whose interval decides the word)."""
    top = max(seats, key=lambda e: abs(e["edge_pts"]))
    return top["edge_pts"], *top["ci_pts"]


def magnitude(value: float, low: float, high: float) -> dict:
    """The size of the largest edge, ``|value|``, with the seat's 95% interval around it: as far
    below as the edge's interval reaches toward fair, as far above as it reaches away: the figure
    a change of rules is judged on (the interval of ``|x|`` itself, cut at 0, would be narrower
    than the edge's and claim changes the deals cannot tell). Not the half-width either side: a
    seat winning its one deal, +75.0 points (-4.3 to +75.0), read 75.0 (35.4 to 114.6), an edge
    no seat of 4 can have."""
    toward, away = (value - low, high - value) if value >= 0 else (high - value, value - low)
    return {"name": "largest seat edge (points)", "value": abs(value), "ci": [abs(value) - toward, abs(value) + away]}


def seats_question(game, heuristic: Path, search: Path | None) -> dict:
    """The seat question under the default heuristic line-up, and under the search when played;
    the sentence says when the two plays disagree."""
    out = seat_answer(game, heuristic)
    out["search"] = None
    if search is not None:
        strong = seat_answer(game, search)
        out["search"] = strong
        if verdicts.UNCLEAR not in (strong["verdict"], out["verdict"]) and strong["verdict"] != out["verdict"]:
            out["sentence"] += (f" Under the strongest play ({strong['play']}) it is {strong['verdict']} "
                                f"instead: the seat advantage depends on how well the seats play.")
        elif (strong["verdict"], strong["unclear_between"]) == (out["verdict"], out["unclear_between"]):
            out["sentence"] += f" The strongest play ({strong['play']}) agrees: {strong['verdict']}."
        else:
            word = strong["verdict"]
            if word == verdicts.UNCLEAR and strong.get("unclear_between"):
                # the console prints this sentence alone: a bare "unclear" said neither between
                # what nor what would settle it (the strongest play's own card says both)
                # n: under 30 deals too few for any word, not "the estimate sits on a threshold"
                low, high = strong["unclear_between"]
                settle = verdicts._settle_text(strong["more_deals"], "deals", *strong["figure"]["ci"], n=strong["n"])
                word = f"unclear whether {low} or {high}; {settle}"
            out["sentence"] += f" Under the strongest play ({strong['play']}), {strong['n']:,} deals: {word}."
    return out


def hazards(game, heuristic: Path) -> list[dict]:
    """The game's rates in the deals of the default line-up, pooled over seats (each deal one
    unit), each with its verdict and sentence; a rate one seat has every deal (``shared``), 1/p
    pooled, as its most exposed seat's."""
    meta, seats, _ = load(heuristic)
    found = analysis_of(game)
    if not found.rates:
        return []
    row = collect(heuristic / "seats.parquet", summary.seat_summary(game, seats, by=("strategy",)).lazy()).row(
        0, named=True)
    out = []
    for name in found.rates:
        text = found.rate_text.get(name, f"has {name}")
        if name in found.shared:  # pooled over the seats it is 1/p by rule: each seat's over its fair share
            by_seat = collect(heuristic / "seats.parquet", summary.seat_summary(game, seats, by=("seat",)).lazy()
                              ).sort(name, descending=True)
            at = by_seat.row(0, named=True)  # the figure compared: the most exposed seat's rate
            what, seat = f"of deals, seat {at['seat']} (the most exposed)", at["seat"]
            v = verdicts.shared_verdict(name, text, by_seat.select("seat", name, f"{name}_low", f"{name}_high").rows(),
                                        meta["players"], meta["n"])
            # the edge is the seat's the sentence names, which need not be the most exposed
            extra = {k: v.figures[k] for k in ("seats", "edge_pts", "ci_pts")} | {"edge_seat": v.figures["seat"]}
        else:
            at, what, seat, extra = row, "of deals, seats pooled", None, {}
            v = verdicts.hazard_verdict(name, text, at[name], at[f"{name}_low"], at[f"{name}_high"], meta["n"])
        out.append({"name": name, "rate": at[name], "ci": [at[f"{name}_low"], at[f"{name}_high"]], "what": what,
                    "seat": seat, "verdict": v.word, "sentence": v.sentence, "risk": name in found.risks,
                    "thresholds": v.thresholds, "play": lineup(meta), **extra})
    return out


def points(share: float, low: float, high: float, fair: float) -> tuple[float, float, float]:
    return 100 * (share - fair), 100 * (low - fair), 100 * (high - fair)


def skill_question(plays: dict[str, Path], default: str, search: str) -> dict:
    """How much the search gains, from its rungs over the default heuristic, over random, and
    of the doubled search over the search; whether it has converged is the ladder's own answer
    (:func:`simtool.analysis.ladder.converged`) on the doubling step, so review and ladder agree."""
    rungs = {name: ladder.rung(plays[name]) for name in ("over heuristic", "over random", "doubling")}

    def gain(name: str) -> tuple[float, float, float]:
        r = rungs[name]
        return points(r.share, r.low, r.high, r.fair)

    (doubling,) = ladder.ladders([plays["doubling"]])
    n = read_meta(plays["over random"])["n"]
    v = verdicts.skill_verdict(gain("over heuristic"), gain("over random"), gain("doubling"), n, search, default,
                               converged=ladder.converged(doubling))
    meta, seats, _ = load(plays["over random"])
    sides = partners(plays["over random"], seats, meta)
    # the search's partner (random, or the heuristic) splits each win it brings its side
    times = {len(side) for side in sides}
    times_text = ("twice" if times == {2} else f"{times.pop()} times" if len(times) == 1
                  else "as many times as it has seats")
    sentence = v.sentence + (f" Partners split each win, so the search's partnership gains {times_text} these points "
                             "over its fair share, its partner's play included." if sides else "")
    return {"verdict": v.word, "sentence": sentence, **v.figures, "thresholds": v.thresholds,
            "more_deals": v.more, "n": n, "play": f"one {search} seat, seats rotated",
            "figure": {"name": "gain over random (points)", "value": v.figures["over_random_pts"],
                       "ci": v.figures["over_random_ci_pts"]}}


def hidden_question(plays: dict[str, Path], search: str) -> dict:
    """How much knowing the hidden cards wins: the ladder's reference rung (``clairvoyant`` in the
    search's seat against the default seats, the same deals) less the search's rung over them
    (:func:`simtool.analysis.ladder.price`), in points of win share per seat."""
    found = ladder.ladders([plays["over heuristic"], *plays["clairvoyant"]]) if "clairvoyant" in plays else []
    price = ladder.price(found[0]) if found else None
    if price is None:
        return {"verdict": "not measured", "figure": None,
                # the verdict word says "not measured": the console read "not measured. Not measured: ..."
                "sentence": f"The clairvoyant reference can only share {search}'s play-outs where a built-in "
                            f"strategy plays them (a plugin may not see the true deal)."}
    top, ref = found[0].top, found[0].reference
    n = read_meta(ref.folder)["n"]
    # one seed, but a search's smaller chunks draw other deals than the reference's may
    other = same_cuts_deals(read_meta(top.folder), read_meta(ref.folder))
    gain = tuple(100 * x for x in price)
    v = verdicts.hidden_verdict(gain, n, ref.name, top.name, f"{found[0].players - 1} {top.below}")
    return {"verdict": v.word, "sentence": v.sentence, **v.figures, "thresholds": v.thresholds,
            "more_deals": v.more, "n": n, "play": f"one {ref.name} seat (not a fair player) against "
            f"{found[0].players - 1} {top.below}, and one {top.name} seat against them, seats rotated, "
            + ("the same deals" if other is None else f"one seed but not the same deals ({other})"),
            "same_deals": other is None,
            "clairvoyant_share": ref.share, "clairvoyant_ci": [ref.low, ref.high],
            "search_share": top.share, "search_ci": [top.low, top.high],
            "figure": {"name": "what seeing every hidden card wins (points)", "value": gain[0], "ci": list(gain[1:])}}


def luck_question(folder: Path) -> dict:
    """The share of the variance of a seat's score that the cards explain (duplicate deals)."""
    meta = read_meta(folder)
    scores = _luck_scores(folder)
    table = stats.luck_shares(scores)
    cards = table.filter(pl.col("part") == "cards").row(0, named=True)
    # the floor at 0 held the whole interval: what lay below it, for the sentence and the card
    unfloored = stats.luck_unfloored(scores) if cards["share_high"] == 0 else None
    v = verdicts.luck_verdict(cards["share"], cards["share_low"], cards["share_high"], meta["n"], play=lineup(meta),
                              unfloored=unfloored)
    part = {r["part"]: r["share"] for r in table.iter_rows(named=True)}
    sentence = v.sentence + (f" The rest: which strategy holds which seat {stats.percent(part['strategy and seat'])}%, "
                             f"how these players play these particular cards (and their own chance) "
                             f"{stats.percent(part['interplay'])}%." if math.isfinite(cards["share"]) else "")
    return {"verdict": v.word, "sentence": sentence, "share": cards["share"],
            "ci": [cards["share_low"], cards["share_high"]], "parts": table.to_dicts(),
            "unfloored": None if unfloored is None else {"value": unfloored[0], "ci": list(unfloored[1:])},
            "thresholds": v.thresholds, "more_deals": v.more, "n": meta["n"], "play": lineup(meta),
            "figure": {"name": "share of variance the cards explain", "value": cards["share"],
                       "ci": [cards["share_low"], cards["share_high"]]}}


def _luck_scores(folder: Path) -> np.ndarray:
    """A duplicate run's scores ``(deals, copies, seats)``, as :func:`simtool.stats.luck_shares`
    takes them."""
    meta, seats, _ = load(folder)
    p = meta["players"]
    rows = collect(folder / "seats.parquet", seats.select("deal", "rotation", "seat", "score")
                   .sort("deal", "rotation", "seat"))
    return rows["score"].to_numpy().astype(float).reshape(-1, p, p)


TENSION_ROWS = (
    ("mean_rounds", "Rounds per match", False),
    ("mean_lead_changes", "Lead changes per match", False),
    ("decided_share_of_match", "How far into the match the winner leads for good", True),
    ("winner_behind_after_round_1", "Winner was behind after the first round", True),
    ("winner_behind_at_half_time", "Winner was behind at half-time", True),
    ("mean_margin", "Points between first and second at the end", False),
)
"""The tension figures with plain-English names, and whether each is a share."""


def match_questions(game, folder: Path) -> tuple[dict, dict]:
    """Tension (when the winner is settled, comebacks, lead changes) and match shape (rounds per
    match, how often the round cap stops a match), from whole matches of the default line-up."""
    meta, seats, matches = load(folder)
    seat_rows = collect(folder / "seats.parquet", seats.select("match", "round", "seat", "score"))
    match_rows = collect(folder / "matches.parquet", matches)
    sides = verdicts.partners(stats.panel(match_rows, "total", meta["players"]))
    _, table, _ = tension.analyse(seat_rows, match_rows, game.lower_wins, game.total_floor, sides)
    r = table.row(0, named=True)

    def fig(name: str) -> tuple[float, float, float]:
        return r[name], r[f"{name}_low"], r[f"{name}_high"]

    n = meta["n"]
    v = verdicts.tension_verdict(fig("winner_behind_at_half_time"), fig("mean_lead_changes"),
                                 fig("decided_share_of_match"), n, sides)
    rows = [{"figure": label, "value": r[name], "ci": [r[f"{name}_low"], r[f"{name}_high"]], "share": share}
            for name, label, share in TENSION_ROWS]
    tension_answer = {"verdict": v.word, "sentence": v.sentence, **v.figures, "table": rows,
                      "thresholds": v.thresholds, "more_matches": v.more, "n": n, "play": lineup(meta),
                      # no match of two rounds or more: no comeback figure to show or compare ("nan%")
                      "figure": {"name": "winner behind at half-time", "value": v.figures["behind_at_half"],
                                 "ci": v.figures["behind_at_half_ci"]}
                      if math.isfinite(v.figures["behind_at_half"]) else None}
    capped = match_rows.filter(pl.col("seat") == 0)["capped"].cast(pl.Float64).to_numpy()
    shape = verdicts.match_verdict(fig("mean_rounds"), stats.unit_estimate(capped, share=True), n, games.ROUND_CAP)
    match_answer = {"verdict": shape.word, "sentence": shape.sentence, **shape.figures,
                    "thresholds": shape.thresholds, "more_matches": shape.more, "n": n, "play": lineup(meta)}
    return tension_answer, match_answer


def restrictions_question(folders: list[Path]) -> list[dict]:
    """Each restriction of the default strategy: what it costs, and whether the crude rule does
    nearly as well as full play (flagged)."""
    if not folders:
        return []
    out = []
    for r in restrict.costs(folders).iter_rows(named=True):
        cost = [100 * r["win_cost"], 100 * r["win_cost_low"], 100 * r["win_cost_high"]]
        v = verdicts.restriction_verdict(r["doing"], r["strategy"], *cost, r["deals"], r["changed"])
        out.append({"name": r["restriction"], "description": r["description"], "verdict": v.word,
                    "sentence": v.sentence, "cost_pts": cost[0], "ci_pts": cost[1:], "flagged": v.figures["flagged"],
                    "changed": r["changed"],
                    "thresholds": v.thresholds, "n": r["deals"], "play": f"one {r['strategy']}~{r['restriction']} "
                    f"against {r['strategy']}, seats rotated"})
    return out


def by_play(folders: list[Path], version: int) -> dict[str, list[Path]]:
    """A question's run folders of one rule version, by the play their ``run.json`` names."""
    out: dict[str, list[Path]] = {}
    for folder in folders:
        info = read_meta(Path(folder)).get("review") or {}
        if info.get("version") == version:
            out.setdefault(info["play"], []).append(Path(folder))
    return out


def questions(game, folders: dict[str, list[Path]], version: int, default: str, search: str | None) -> dict:
    """Every question's answer for one rule version."""
    seats = by_play(folders["seats"], version)
    heuristic = seats["heuristic"][0]
    search_run = seats.get("search", [None])[0]
    out = {"seats": seats_question(game, heuristic, search_run)}
    skill_plays = by_play(folders["skill"], version)
    skill = {k: v[0] for k, v in skill_plays.items()}
    out["skill"] = skill_question(skill, default, search) if skill else {
        "verdict": "not measured", "sentence": "No search strategy plays this game: no stronger play to set against "
                                               "the default.",
        "figure": None}
    out["hidden_information"] = hidden_question({"over heuristic": skill["over heuristic"],
                                                 **({"clairvoyant": skill_plays["clairvoyant"]}
                                                    if "clairvoyant" in skill_plays else {})}, search) \
        if skill else {"verdict": "not measured", "figure": None,
                       "sentence": "No search strategy plays this game: no fair search to set one that sees the "
                                   "hidden cards against."}
    out["luck"] = luck_question(by_play(folders["luck"], version)["duplicate"][0])
    out["tension"], out["match"] = match_questions(game, by_play(folders["match"], version)["matches"][0])
    out["hazards"] = hazards(game, heuristic)
    out["restrictions"] = restrictions_question(by_play(folders["restrictions"], version).get("restricted", []))
    return out


METRIC_PLAYS = (("seats", "random"), ("skill", "over random"), ("seats", "search"), ("seats", "heuristic"),
                ("luck", "duplicate"))
"""The plays the published metrics read, in the order they are taken (each metric from the first
play that fits it, :func:`simtool.analysis.metrics.metrics`): all-random deals (fairness, and
Ludii's outcome metrics under CardStock's first mode), one search among random seats (order), the
search at every seat with its lead histories (the estimate-based metrics; CardStock's all-AI
mode), the default line-up (fairness under it) and the duplicate deals (duplicate_gain)."""


def published_metrics(folders: dict[str, list[Path]], version: int) -> dict[str, dict]:
    """The review's ``metrics``: name -> ``{value, ci, estimator, definition}`` from its own run
    folders (:data:`METRIC_PLAYS`); empty where none of them fits a metric."""
    found = [f for question, play in METRIC_PLAYS for f in by_play(folders.get(question, []), version).get(play, [])]
    root = next((f.parents[2] for f in found), None)  # DIR/runs/<question>/<play>
    return metrics.for_review(found, root) if found else {}


def headlines(q: dict) -> dict[str, tuple[float, float, float, str | None]]:
    """The figure of each question that a change of rules is judged on: ``key -> (value, low,
    high, better_when)``."""
    out = {}

    def put(key: str, figure: dict | None, better: str | None) -> None:
        if figure is not None:  # null in review.json: no figure, or no interval, from too few units
            out[key] = (*(math.nan if x is None else x for x in (figure["value"], *figure["ci"])), better)

    put("seats", q["seats"]["figure"], verdicts.BETTER_WHEN["seats"])
    if q["seats"].get("search"):
        put("seats under the strongest play", q["seats"]["search"]["figure"], verdicts.BETTER_WHEN["seats"])
    put("skill", q["skill"].get("figure"), verdicts.BETTER_WHEN["skill"])
    # reviews written before it was asked have none; a reference that surely lost has no price
    if q.get("hidden_information") and q["hidden_information"].get("verdict") != "not measured":
        put("hidden information", q["hidden_information"].get("figure"), verdicts.BETTER_WHEN["hidden_information"])
    put("luck", q["luck"]["figure"], verdicts.BETTER_WHEN["luck"])
    put("tension", q["tension"]["figure"], verdicts.BETTER_WHEN["tension"])
    for h in q["hazards"]:
        # the most exposed seat's rate (a rate one seat has every deal) is not the pooled rate a
        # review before it recorded (1/p by rule): the two are never set against each other
        exposed = " (the most exposed seat)" if h.get("seat") is not None else ""
        put(f"hazards: {h['name']}{exposed}", {"value": h["rate"], "ci": h["ci"]},
            verdicts.BETTER_WHEN["hazards"] if h["risk"] else None)
    for r in q["restrictions"]:
        # a crude rule that changed no result says nothing of whether crude play pays (its own
        # sentence): Hearts' keep-queen under passing=none, 2.3 points to 0.0, read "worse"
        put(f"restrictions: {r['name']}", {"value": r["cost_pts"], "ci": r["ci_pts"]},
            None if r.get("changed") == 0 else verdicts.BETTER_WHEN["restrictions"])
    m = q.get("match")
    if m:
        put("match: rounds", {"value": m["rounds"], "ci": m["rounds_ci"]}, verdicts.BETTER_WHEN["match:rounds"])
        put("match: capped", {"value": m["capped"], "ci": m["capped_ci"]}, verdicts.BETTER_WHEN["match:capped"])
    return out


BANDS = {"seats": verdicts.SEAT_THRESHOLDS, "seats under the strongest play": verdicts.SEAT_THRESHOLDS,
         "skill": verdicts.SKILL_THRESHOLDS, "hidden information": verdicts.HIDDEN_THRESHOLDS,
         "hazards": verdicts.HAZARD_THRESHOLDS, "match: capped": verdicts.HAZARD_THRESHOLDS,
         "restrictions": verdicts.RESTRICTION_THRESHOLDS, "luck": verdicts.LUCK_THRESHOLDS,
         "tension": verdicts.TENSION_THRESHOLDS}
"""Every threshold of the verdict of each changes row's question that has one, in the row's own
unit: a change across one of them moves the figure into another verdict's band."""

UNSIZED = frozenset({"luck", "tension"})
"""Rows of :data:`BANDS` with no smallest difference that matters (:data:`MATTERS`): their change
is never sized, only said as the bands its two figures lie in; Trickster's pip_limit=10 moved
luck from 30.4% to 23.3%, moderate to low, and the row said only "changed"."""

MATTERS = {question: thresholds[0] for question, thresholds in BANDS.items() if question not in UNSIZED}
"""The smallest difference that matters to each changes row's question, in the row's own unit
(points of an edge, a gain or a cost; a fraction of a share): the first threshold of the
question's verdict, its narrowest band (a seat edge under 1 point is fair). Luck has none: its
verdict's bands are 30 points of share wide, and Trickster's pip_limit=7 moving luck from 30.4%
to 49.7% is no change too small to matter; nor has tension, whose first band (*low*, under 10%)
is a level, not a negligible difference (30% to 21% of winners behind at half-time read "too
small to matter" by it), nor match length, which has no verdict."""


def bands(key: str) -> tuple[float, ...]:
    """:data:`BANDS` of a changes row; none for the most exposed seat's rate (its verdict is on
    the seat's gap to its fair share, not on the rate the row shows) and rows of no verdict's
    bands (match length)."""
    if key.endswith("(the most exposed seat)"):
        return ()
    return BANDS.get(key, BANDS.get(key.partition(": ")[0], ()))


def matters(key: str) -> float | None:
    """:data:`MATTERS` of a changes row (:func:`headlines` key); for a rate one seat has every
    deal, the most exposed seat's, the seat verdict's 1 point (its verdict is on the seat's gap
    to its fair share, which moves as the rate does); ``None`` where the row has none."""
    if key.endswith("(the most exposed seat)"):
        return verdicts.SEAT_THRESHOLDS[0] / 100
    return MATTERS.get(key, MATTERS.get(key.partition(": ")[0]))


PAIRED, INDEPENDENT = "paired on the same deals", "independent"
"""How a changes row's interval was taken (``changes[].interval``)."""
ALIKE = "paired on the same deals, every one alike in both"
"""The ``interval`` of a row whose per-deal values were the same in every deal both versions
played (a rule of whole matches leaves every deal as it was): the rule of three's interval
(:func:`paired_interval`)."""
FEW = "paired on the same deals, 1 to 29 differing"
"""The ``interval`` of a paired row whose per-deal values differed in 1 to :data:`PAIRED_LEAST`
- 1 of the deals, not all: never narrower than their count allows
(:func:`simtool.stats.few_moved_half`), not the differences' normal interval that "paired on
the same deals" alone names."""

FLOOR = "both at the floor of 0"
"""The ``interval`` of the luck row where each version's cards' share is held whole at its floor
of 0 (``questions.luck.unfloored``): "0.0% -> 0.0% (0.0 points (0.0 to 0.0))" claimed a
certainty of no change that two shares estimated below 0 do not give, and their unfloored
difference is no change of a share. No interval (``ci`` of nulls); the change is "no clear
change"."""

FIXED = "the same in every match"
"""The ``change`` of a row whose figure was the same in every match of both versions: an
interval of no width, nothing to compare. Not "fixed by the rules": a sample can miss a rare
longer match (16 matches of Black & White, none going to its tie-break round)."""


def every_match_alike(q: dict) -> dict[str, int]:
    """The :func:`headlines` keys of a figure every match played shared, to the rounds every match
    lasted: rounds per match where every match lasted as long (an interval of no width: Kansas
    City's 3 hands), and the share stopped by the round cap, which no match that short reached."""
    m = q.get("match") or {}
    rounds, ci = m.get("rounds"), m.get("rounds_ci") or (None, None)
    if rounds is None or not (ci[0] == rounds == ci[1]) or rounds != int(rounds):
        return {}
    return {"match: rounds": int(rounds), **({"match: capped": int(rounds)} if rounds < games.ROUND_CAP else {})}


def changes(before: dict, after: dict, paired: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
            alike: dict[str, tuple[float, float]] | None = None) -> list[dict]:
    """Each question's figure before and after, the difference with its 95% interval,
    whether the change is better for balance (:func:`verdicts.change`), and whether it is
    smaller than the smallest difference that matters to the question (``small``,
    :func:`verdicts.change_small`, by ``threshold``, :func:`matters`).

    Where ``paired`` has a row's per-deal values of both versions on the same deals
    (:func:`paired_deals`), the interval is the paired difference's, deal by deal, around the
    difference of the two figures (the luck of the deal both versions share cancels, as in the
    balance report's paired difference of the same runs, which the table once contradicted by
    combining the two versions as independent). Otherwise
    each end combines the two figures' own distances to their ends on that side
    (:func:`simtool.stats.mover_difference`), as their half-widths for symmetric intervals: a
    share's interval near 0 or 1 is lopsided, and its half-width centred on the estimate put the
    difference where the deals do not (the winner behind at half-time in 0 of 3 matches, 0% to
    56%, then 2 of 3, 21% to 94%: "+66.7 points (+20.7 to +112.7)", better; now -5.8 to +93.9,
    no clear change).

    ``alike`` (:func:`alike_rows`) has the ends of the change of a row that is no mean over deals
    and whose every deal was alike in both versions (luck's variance share)."""
    a, b = headlines(before), headlines(after)
    fixed0, fixed1 = every_match_alike(before), every_match_alike(after)
    paired, alike = paired or {}, alike or {}
    rows = []
    for key, (v0, lo0, hi0, better_when) in a.items():
        if key not in b:
            continue
        v1, lo1, hi1, better_after = b[key]
        if key in fixed0 and key in fixed1:
            # "3.0 -> 3.0, 0.0 (0.0 to 0.0): no clear change" read an interval of no width as measured
            rounds = f"{fixed0[key]}" + ("" if fixed0[key] == fixed1[key] else f", then {fixed1[key]},")
            rows.append({"question": key, "before": v0, "after": v1, "delta": v1 - v0, "ci": [v1 - v0, v1 - v0],
                         "better": None, "change": FIXED, "interval": FIXED, "small": None, "threshold": None,
                         "crosses": None, "fixed": f"every match lasted {rounds} rounds"
                         + ("" if key == "match: rounds" else f", short of the {games.ROUND_CAP}-round cap")})
            continue
        if key == "luck" and not (key in alike and v0 == v1) and all(
                (q.get("luck") or {}).get("unfloored") for q in (before, after)):
            rows.append({"question": key, "before": v0, "after": v1, "delta": v1 - v0, "ci": [None, None],
                         "better": None, "change": "no clear change", "interval": FLOOR, "small": None,
                         "threshold": None, "crosses": None})
            continue
        if better_after != better_when:  # a side one version's figure lacks is no side of the change
            better_when = None
        scale = SCALE.get(key.partition(":")[0], 1.0)
        # only where the deals' values give the figures themselves (a rung's share weighted by
        # rotation strata over deals no multiple of p does not): else the deals pair another figure
        agree = key in paired and abs(scale * float(paired[key][0].mean() - paired[key][1].mean()) - (v1 - v0)) \
            <= 1e-6 * scale
        moved = np.count_nonzero(paired[key][0] - paired[key][1]) if agree else None
        # every deal of fewer than PAIRED_LEAST moved: none unmoved for the count to bound, as before
        if key in alike and v0 == v1:
            delta, (low, high), how = 0.0, alike[key], ALIKE
        elif moved is not None and (moved < len(paired[key][0]) or moved >= PAIRED_LEAST):
            delta, low, high = paired_interval(v1 - v0, *paired[key], scale, span(key, before, after))
            # the console line and review.json told such a row from a normal paired one nowhere
            how = PAIRED if moved >= PAIRED_LEAST else FEW if moved else ALIKE
        else:
            delta, low, high = stats.mover_difference((v1, lo1, hi1), (v0, lo0, hi0))
            how = INDEPENDENT
        word = verdicts.change(better_when, delta, low, high)
        least, across = matters(key), verdicts.crossed(v0, v1, bands(key))
        rows.append({"question": key, "before": v0, "after": v1, "delta": delta, "ci": [low, high],
                     "better": {"better": True, "worse": False}.get(word), "change": word, "interval": how,
                     "small": verdicts.change_small(low, high, least), "threshold": least, "crosses": across})
    return rows


SCALE = {"seats": 100.0, "seats under the strongest play": 100.0, "skill": 100.0, "hidden information": 100.0,
         "restrictions": 100.0}
"""Points per unit of a row's per-deal values (win shares are fractions, their figures points);
a rate's figure is the fraction itself."""


PAIRED_LEAST = 30
"""Deals whose values differ between the versions from which a row's paired interval is the
normal one of its differences alone; below, a normal interval of a few nonzero differences
among many zeros is too narrow (none: 0.0 to 0.0, as a crude rule that never binds costs 0 in
every deal of both versions), and it is never narrower than the count that differ allows
(:func:`simtool.stats.few_moved_half`)."""

SPAN = {"hidden information": 2.0, "restrictions": 2.0}
"""How far one deal's value can move between the versions, per row (by default 1: a win or a
rate, each within 0 to 1; a price or a cost is a win less another)."""


EDGE_ROWS = {"seats": ("seats",), "seats under the strongest play": ("seats", "search")}
"""The changes rows of a largest seat edge, and where their seat answer lies in a version's
questions."""


def span(key: str, before: dict | None = None, after: dict | None = None) -> float:
    """:data:`SPAN` of a changes row; for a seat edge whose largest edge lies on one side of
    fair in the ``before`` version's questions and on the other in the ``after`` version's,
    ``2 - 2/p``: each version's value of a deal is taken on the side its estimate lies
    (:func:`_edge_deals`), a seat's win less 1/p in one and 1/p less a seat's win in the other,
    and a deal its seat wins in both versions moves the difference by ``2 (1 - 1/p)``, not at
    most 1 (4 seats: 1.5). Another seat on the same side is a win less a win: within ± 1."""
    tops = [_top_edge(q, EDGE_ROWS[key]) for q in (before, after)] if key in EDGE_ROWS else [None]
    if None not in tops and (tops[0]["edge_pts"] >= 0) != (tops[1]["edge_pts"] >= 0):
        return 2 - 2 / len(tops[0]["of"])
    return SPAN.get(key.partition(":")[0], 1.0)


def _top_edge(q: dict | None, path: tuple[str, ...]) -> dict | None:
    """The largest seat edge of a seat answer at ``path`` in a version's questions (``None``:
    none there), with ``of``, every seat's edge."""
    answer = q
    for name in path:
        answer = (answer or {}).get(name)
    if not answer or not answer.get("seats"):
        return None
    return {**max(answer["seats"], key=lambda e: abs(e["edge_pts"])), "of": answer["seats"]}


def paired_interval(delta: float, after: np.ndarray, before: np.ndarray, scale: float,
                    bound: float) -> tuple[float, float, float]:
    """``delta`` (the after figure less the before) with the 95% interval of the paired
    difference of the per-deal values ``after - before`` (fractions, times ``scale``), as the
    ladder's paired price takes it: the estimate from the figures themselves, the half-width from
    the deals (:func:`simtool.stats.paired_difference`); one amount in every deal, Wilson's on
    the deals (:func:`simtool.stats.alike_interval`) within ``± bound`` (the row's :data:`SPAN`),
    not a width of 0. Fewer than :data:`PAIRED_LEAST` deals that differ: as wide at least as
    their count allows, each moving by up to ``bound`` (:func:`simtool.stats.few_moved_half`;
    the rule of three where none differs). 1 to 29 deals that differed were combined as
    independent: Nine Lives' skill at 256 deals read ± 1.2 points with no deal differing and
    ± 4.2 with one, more evidence of change giving a wider interval than less; now ± 1.8."""
    diff = after - before
    if stats.alike(diff):
        # within ± 1, a crude rule's cost that rose by 1.5 in each of 40 deals read "+150 points
        # (100 to 100)": an interval of no width, wholly short of its estimate
        low, high = stats.alike_interval(delta / scale, len(diff), bound)
        return delta, scale * low, scale * high
    if np.count_nonzero(diff) < PAIRED_LEAST:
        half = scale * stats.few_moved_half(diff, bound)
    else:
        half = scale * stats.paired_difference(after, before)[1]
    return delta, delta - half, delta + half


def same_deals(a: Path, b: Path) -> bool:
    """Whether two run folders played the same deals: one seed, n, chunks (or chunks that cut
    the deals alike) and versions (:func:`simtool.analysis.ladder.same_cuts_deals`), and rules
    that deal alike (:func:`dealt_alike`)."""
    ma, mb = read_meta(a), read_meta(b)
    return same_cuts_deals(ma, mb) is None and dealt_alike(ma, mb) is True


def _deal_rows(folder: Path, figures: dict[str, pl.Expr]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Deal numbers, and each of ``figures`` per deal and seat ``(n, p)``, in deal order."""
    meta, seats, _ = load(folder)
    rows = collect(folder / "seats.parquet", seats.select("deal", "seat", *(e.cast(pl.Float64).alias(k)
                                                                             for k, e in figures.items()))
                   .sort("deal", "seat"))
    p = meta["players"]
    return rows["deal"].to_numpy()[::p], {k: stats.panel(rows, k, p).astype(float) for k in figures}


def _edge_deals(folder: Path, answer: dict) -> tuple[np.ndarray, np.ndarray]:
    """The largest seat edge of a seat answer (:func:`largest_edge`), per deal: ``|edge|`` is
    the edge on the side its estimate lies, so each deal gives the seat's win less the fair
    share, with that sign (as :func:`magnitude` takes the edge's interval)."""
    top = _top_edge(answer, ())
    deals, panels = _deal_rows(folder, {"win": pl.col("win")})
    sign = 1.0 if top["edge_pts"] >= 0 else -1.0
    return deals, sign * (panels["win"][:, top["seat"]] - 1 / panels["win"].shape[1])


def _hazard_deals(game, folder: Path, hazard: dict) -> tuple[np.ndarray, np.ndarray]:
    """A hazard's rate per deal: pooled over the seats (each deal one unit), or the most exposed
    seat's where one seat has it every deal, as :func:`hazards` takes it."""
    deals, panels = _deal_rows(folder, {"rate": analysis_of(game).rates[hazard["name"]]})
    rate = panels["rate"]
    return deals, rate.mean(axis=1) if hazard.get("seat") is None else rate[:, hazard["seat"]]


def _climber_deals(folder: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """The climber's win per deal of a rung (line-up position 0, seats rotated one a deal), as
    :func:`simtool.analysis.ladder.paired_wins` reads it; ``None`` for whole matches or
    duplicate deals."""
    meta = read_meta(folder)
    if meta.get("unit", "deal") != "deal" or meta.get("duplicate") or not meta.get("rotate"):
        return None
    deals, panels = _deal_rows(folder, {"win": pl.col("win")})
    return deals, panels["win"][np.arange(len(deals)), (-deals) % meta["players"]]


def paired_deals(game, before: tuple[dict[str, list[Path]], int, dict], after: tuple[dict[str, list[Path]], int, dict]
                 ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per changes row (:func:`headlines` key), the per-deal values of the after and the before
    version, where the two versions' runs of it played the same deals (:func:`same_deals`):
    ``before`` and ``after`` are each ``(folders by question, version, answers)``. Rows whose
    figure is a mean over deals only: seat edges, hazards, skill, hidden information and crude
    play's costs; luck's variance share, the match figures and published metrics are not."""
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    (f0, v0, q0), (f1, v1, q1) = before, after

    def runs(question: str, play: str) -> tuple[Path, Path] | None:
        return _same_runs(before, after, question, play)

    def put(key: str, one, other) -> None:
        if one is not None and other is not None and np.array_equal(one[0], other[0]):
            out[key] = (other[1], one[1])

    seats = runs("seats", "heuristic")
    if seats:
        put("seats", _edge_deals(seats[0], q0["seats"]), _edge_deals(seats[1], q1["seats"]))
        for h0 in q0["hazards"]:
            h1 = next((h for h in q1["hazards"] if h["name"] == h0["name"]), None)
            if h1 is not None and (h0.get("seat") is None) == (h1.get("seat") is None):
                exposed = " (the most exposed seat)" if h0.get("seat") is not None else ""
                put(f"hazards: {h0['name']}{exposed}", _hazard_deals(game, seats[0], h0),
                    _hazard_deals(game, seats[1], h1))
    search = runs("seats", "search")
    if search and q0["seats"].get("search") and q1["seats"].get("search"):
        put("seats under the strongest play", _edge_deals(search[0], q0["seats"]["search"]),
            _edge_deals(search[1], q1["seats"]["search"]))
    skill = runs("skill", "over random")
    if skill:
        put("skill", _climber_deals(skill[0]), _climber_deals(skill[1]))
    top, seer = runs("skill", "over heuristic"), runs("skill", "clairvoyant")
    if top and seer and all(same_deals(a, b) for a, b in zip(top, seer, strict=True)):
        put("hidden information", *(_price_deals(s, t) for s, t in zip(seer, top, strict=True)))
    for name, pair in _restricted_pairs(f0, v0, f1, v1).items():
        put(f"restrictions: {name}", *(_cost_deals(*runs_of) for runs_of in pair))
    return out


def _same_runs(before: tuple, after: tuple, question: str, play: str) -> tuple[Path, Path] | None:
    """The before and the after version's run of a question's play, where both played the same
    deals (:func:`same_deals`); ``before`` and ``after`` as :func:`paired_deals` takes them."""
    a, b = (by_play(f.get(question, []), v).get(play, [None])[0] for f, v, _ in (before, after))
    return (a, b) if a is not None and b is not None and same_deals(a, b) else None


def alike_rows(before: tuple[dict[str, list[Path]], int, dict], after: tuple[dict[str, list[Path]], int, dict]
               ) -> dict[str, tuple[float, float]]:
    """Per changes row that is no mean over deals and whose every deal both versions played was
    alike, the ends of its change's 95% interval (``before`` and ``after`` as
    :func:`paired_deals`). Luck's share of variance ``C / T`` (cards over the seats' total,
    :func:`simtool.stats.luck_shares`) where every copy of every duplicate deal scored alike:
    the rule changes at most ``u = 1 - 0.05^(1/n)`` of the deals unseen (the rule of three), and
    each of ``C`` and ``T``, a variance summed over ``p`` seats, by at most ``a = p u (1 + u) s^2``
    (``s`` the widest spread of scores seen), so the share lies within ``(C - a) / (T + a)`` to
    ``(C + a) / (T - a)``. Two versions that share all but ``u`` of their deals, ``(1 - u) H +
    u G``, have variances ``(1 - u) V_H + u E_G[(X - m_H)^2] - u^2 (m_H - m_G)^2``, each term of
    ``G`` within 0 to ``s^2``: apart by at most ``u (1 + u) s^2``. A bound for the worst case,
    not reached: 3 of 65,536 Nine Lives deals made the highest score at every seat moved the
    share by 0.12 points, the bound 0.25. Nine Lives' ``lives_to_end=5`` (whole matches only)
    read "luck 26.7% -> 26.7% (difference 0.0 points (-0.4 to +0.4), independent)" of 65,536
    duplicate deals scored alike; it reads -0.3 to +0.3. Not exactly 0: the two figures are one,
    but a rule that moves a deal the sample lacks moves the share."""
    pair = _same_runs(before, after, "luck", "duplicate")
    share = (before[2].get("luck") or {}).get("share")
    if pair is None or share is None or not math.isfinite(share):
        return {}
    y, other = (_luck_scores(f) for f in pair)
    if y.shape != other.shape or not np.array_equal(y, other):
        return {}
    total = float(sum(y[:, :, seat].var() for seat in range(y.shape[2])))
    u = stats.unseen(len(y))
    reach = y.shape[2] * u * (1 + u) * float(np.ptp(y)) ** 2
    if total <= reach:  # the unseen deals could hold every part of the variance: anywhere in 0 to 1
        return {"luck": (-share, 1 - share)}
    return {"luck": (max(-share, -reach * (1 + share) / (total + reach)),
                     min(1 - share, reach * (1 + share) / (total - reach)))}


def _price_deals(seer: Path, top: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """What seeing every hidden card wins per deal: the clairvoyant's win less the search's, on
    the same deals (:func:`simtool.analysis.ladder.price`, paired)."""
    a, b = _climber_deals(seer), _climber_deals(top)
    if a is None or b is None or not np.array_equal(a[0], b[0]):
        return None
    return a[0], a[1] - b[1]


def _cost_deals(baseline: Path, restricted: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """A restriction's cost per deal: the unrestricted seat's win less the restricted one's, on
    the same deals, line-up position 0's seat of each deal (:func:`simtool.analysis.restrict.costs`)."""
    (deals, base), (ids, win) = (_deal_rows(f, {"win": pl.col("win")}) for f in (baseline, restricted))
    if not np.array_equal(deals, ids):
        return None
    at = (np.arange(len(deals)), (-deals) % base["win"].shape[1])
    return deals, base["win"][at] - win["win"][at]


def _restricted_pairs(f0: dict, v0: int, f1: dict, v1: int) -> dict[str, tuple[tuple[Path, Path], tuple[Path, Path]]]:
    """Each restriction's ``(baseline, restricted)`` runs of the before and the after version,
    where every run of the one played the same deals as its fellow of the other."""
    found = [{s.strategy: s for s in restrict.setups(by_play(f.get("restrictions", []), v).get("restricted", []))}
             for f, v in ((f0, v0), (f1, v1))]
    out = {}
    for strategy, a in found[0].items():
        b = found[1].get(strategy)
        if b is None or not same_deals(a.baseline, b.baseline):
            continue
        for name, folder in a.restricted.items():
            if name in b.restricted and same_deals(folder, b.restricted[name]):
                out[name] = ((a.baseline, folder), (b.baseline, b.restricted[name]))
    return out


def comparable(this: dict, other: dict) -> str | None:
    """Why two reviews cannot be compared question by question (``None``: they can): only like
    with like, the same game, player count and line-ups."""
    if other.get("schema") != SCHEMA:
        return f"the baseline's review.json has schema {other.get('schema')!r}, this review {SCHEMA}"
    return unlike(this, other)


def unlike(this: dict, other: dict) -> str | None:
    """Why two reviews of any schema review different things (``None``: the same game, player
    count and line-ups); ``this`` needs only those three keys, known before anything is played."""
    for key, what in (("game", "game"), ("players", "player count")):
        if this[key] != other[key]:
            return f"a different {what}: {other[key]} against {this[key]}; fair shares and plays differ"
    if this["plays"] != other["plays"]:
        return "different line-ups: " + "; ".join(
            f"{k}: {other['plays'].get(k)} against {v}" for k, v in this["plays"].items() if other["plays"].get(k) != v)
    return None


def published_for(game, players: int, rules: dict | None) -> dict | None:
    """The published values (:data:`simtool.analysis.metrics.PUBLISHED`) to set beside the
    metrics of a version whose named ``rules`` (:func:`simtool.options.named`) these are: only
    the game's own rules, which the published table measured; CardStock's Hearts stood beside
    Omnibus Hearts (``--vs-rule jack=on``) as if the two were one game."""
    if rules != options.named(game, options.resolve(game, None)):
        return None
    return metrics.published(game.id, players)


def review(game_id: str, players: int, versions: list[dict], effort: str, sizes: dict, seed: int,
           folders: dict[str, list[Path]], baseline: dict | None = None, baseline_folder: Path | None = None) -> dict:
    """The content of ``review.json``: the reviewed rules' answers, the other version's (a
    ``--vs-rule`` version played here, or a ``baseline`` review read from its folder) and the
    changes from the reference (the reviewed rules, or the baseline) to the variant; the
    baseline's run folders are read from ``baseline_folder`` (its ``runs/``), to pair what they
    played on this review's deals."""
    game = games.get(game_id)
    from_seats = by_play(folders["seats"], 0)
    default = read_meta(from_seats["heuristic"][0])["lineup"][0]
    search = read_meta(from_seats["search"][0])["lineup"][0] if "search" in from_seats else None
    plays = {"default": default, "search": search}
    out = {"schema": SCHEMA, "game": game.id, "players": players,
           "rules": options.named(game, versions[0]), "effort": effort, "n": sizes["deals"], "sizes": sizes,
           "seed": seed, "plays": plays,
           "questions": questions(game, folders, 0, default, search),
           "metrics": published_metrics(folders, 0),
           "published": published_for(game, players, options.named(game, versions[0]))}
    if len(versions) > 1:
        other = questions(game, folders, 1, default, search)
        out["versus"] = {"source": "vs-rule", "rules": options.named(game, versions[1]), "questions": other,
                         "metrics": published_metrics(folders, 1),
                         "published": published_for(game, players, options.named(game, versions[1]))}
        out["comparison"] = {"possible": True, "why": None, "before": "the reviewed rules",
                             "after": "the --vs-rule rules"}
        sides = ((folders, 0, out["questions"]), (folders, 1, other))
        out["changes"] = changes(out["questions"], other, paired_deals(game, *sides), alike_rows(*sides))
    elif baseline is not None:
        why = comparable(out, baseline)
        out["versus"] = {"source": "baseline", "rules": baseline.get("rules"), "players": baseline.get("players"),
                         "game": baseline.get("game"), "questions": baseline.get("questions"),
                         "metrics": baseline.get("metrics"),
                         "published": published_for(game, baseline.get("players"), baseline.get("rules"))
                         if baseline.get("game") == game.id else None}
        out["comparison"] = {"possible": why is None, "why": why, "before": "the baseline", "after": "this review"}
        out["changes"] = [] if why else changes(
            baseline["questions"], out["questions"],
            *(baseline_pairs(game, baseline_folder, baseline, folders, out) if baseline_folder is not None else ()))
    data = json.loads(json.dumps(_finite(out), default=_plain, allow_nan=False))
    return {**data, SUM: review_sum(data)}


def baseline_pairs(game, baseline_folder: Path, baseline: dict, folders: dict[str, list[Path]], out: dict
                   ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], dict[str, tuple[float, float]]] | tuple[()]:
    """:func:`paired_deals` and :func:`alike_rows` of the baseline's runs and this review's;
    neither (every row independent) where a baseline run can no longer be read: its figures are
    in its review.json, and a run damaged or pruned since refused the whole review after it had
    played everything."""
    sides = ((run_folders(baseline_folder), 0, baseline["questions"]), (folders, 0, out["questions"]))
    try:
        return paired_deals(game, *sides), alike_rows(*sides)
    except SimtoolError:
        return ()


def run_folders(folder: Path) -> dict[str, list[Path]]:
    """An earlier review's run folders by question (``DIR/runs/<question>/<run>``); none where
    they are gone (a baseline's ``review.json`` copied on its own)."""
    return {q.name: sorted(r for r in q.iterdir() if (r / "run.json").is_file())
            for q in sorted((Path(folder) / "runs").glob("*")) if q.is_dir()}


def _finite(value):
    """``value`` with every float that is no number (NaN: no figure, or no interval, from too few
    units; matches that all last one round have no comeback share) as ``None``, JSON's null:
    ``review.json`` held the token ``NaN``, which is no JSON (a browser's or jq's parser refuses
    the file) and which the review's own reader took back as a number no figure equals."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):
        return None
    return value


def _plain(value):
    """numpy numbers as JSON numbers."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON")


def read_review(folder: Path) -> dict:
    """An earlier review's ``review.json`` (for ``--baseline``), refused in one line if absent
    or not a review."""
    path = Path(folder) / "review.json"
    try:
        if Path(folder).is_file():  # the review's file named: "--baseline r/review.json holds no review.json"
            raise SimtoolError(f"{option('baseline')} {folder} is a file; give the folder that holds it, "
                               f"{option('baseline', str(Path(folder).parent))}")
        data = parse_json(read_record(path))
    except OSError as exc:
        # told by what the system said: a review.json the user may not read was "not a regular
        # file (a pipe, ...)", and is_file() or exists() raised PermissionError where a folder
        # on the way is shut
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise SimtoolError(f"{option('baseline')} {folder} holds no review.json; give the {option('out')} folder "
                               f"of an earlier simtool review") from None
        if exc.errno in (errno.EINVAL, errno.ENXIO, errno.EISDIR):  # a pipe or a device was read for ever
            raise SimtoolError(f"{path} is not a regular file (a pipe, a device or a folder); give the folder of an "
                               f"earlier simtool review") from None
        raise SimtoolError(f"{path} cannot be read ({exc.strerror or exc}); give the folder of an earlier simtool "
                           f"review") from None
    except ValueError:
        raise SimtoolError(f"{path} is not readable JSON; give the folder of an earlier simtool review") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), dict) or "game" not in data:
        raise SimtoolError(f"{path} is not a simtool review; give the folder of an earlier simtool review")
    return data


def check_sum(data: dict, folder: Path) -> None:
    """Refuse a baseline ``review.json`` changed since its review wrote it (:func:`review_sum`),
    after what names the fault more closely (a garbled key, another game); one written before the
    checksum has none, and is trusted as before (as a ``run.json`` is)."""
    if SUM in data and data[SUM] != _sum_of(data):
        raise SimtoolError(f"{Path(folder) / 'review.json'} was changed since its review wrote it (its SHA-256 "
                           f"differs), so its figures are not what was played; put it back, or review the "
                           f"baseline's rules again")


def _sum_of(data: dict) -> str | None:
    """:func:`review_sum` of a parsed ``review.json``; ``None`` where no review could have
    written it (a NaN or Infinity token, which a review writes as null)."""
    try:
        return review_sum(data)
    except ValueError:
        return None
