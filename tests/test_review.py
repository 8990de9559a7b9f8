"""``simtool review``: verdicts on a game whose seat advantage is known, review.json's layout,
the changes table and its refusal of unlike comparisons, bad input, and an interrupted review
going on. Small sizes (``sizes=``) keep every review to seconds."""

from __future__ import annotations

import copy
import json

import pytest

import simtool.games
from simtool.analysis import verdicts
from simtool.commands import review as reviews
from simtool.commands.review import Sizes
from simtool.errors import SimtoolError

from . import review_game
from .conftest import REVIEW
from .test_browser import browser  # noqa: F401  (the fixture)
from .test_cli import cli, one_line_error

TINY = Sizes(**REVIEW)


@pytest.fixture
def bw(bw_review):
    out, r = bw_review
    return out, copy.deepcopy(r)


@pytest.fixture
def draw(monkeypatch):
    """Register the test game 'draw' (in-process reviews only: ``jobs=1``)."""
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))
    return review_game.GAME


def test_a_built_in_seat_advantage_is_strong_and_a_symmetric_game_fair(draw, tmp_path):
    # 'draw' is exactly fair by symmetry; with edge=first seat 0 wins 2/5 of deals at 4 players
    r = reviews.review("draw", tmp_path / "r", seed=5, jobs=1, vs_rules={"edge": "first"},
                       sizes=Sizes(1 << 16, 128, 1024, 128, 32))
    fair, strong = r["questions"]["seats"], r["versus"]["questions"]["seats"]
    assert fair["verdict"] == "fair" and all(-1 < e["ci_pts"][0] <= e["ci_pts"][1] < 1 for e in fair["seats"])
    assert strong["verdict"] == "strong"
    top = max(strong["seats"], key=lambda e: abs(e["edge_pts"]))
    assert top["seat"] == 0 and top["ci_pts"][0] < 15 < top["ci_pts"][1]  # 2/5 - 1/4 = 15 points
    assert strong["sentence"].startswith("Seat 0 wins ") and "strong edge favouring seat 0" in strong["sentence"]
    # the change of rules makes the seats less fair: worse, whatever the sign of the difference
    (seats,) = [c for c in r["changes"] if c["question"] == "seats"]
    assert seats["change"] == "worse" and seats["better"] is False and seats["ci"][0] > 10
    # a game no search can play says so rather than guessing
    assert r["questions"]["skill"]["verdict"] == "not measured" and r["plays"]["search"] is None
    assert r["versus"]["rules"] == {"edge": "first"} and r["rules"] == {"edge": "none"}


def test_too_few_deals_are_unclear_and_say_how_many_more(draw, tmp_path):
    r = reviews.review("draw", tmp_path / "r", seed=2, jobs=1, rules={"edge": "first"},
                       sizes=Sizes(1024, 128, 1024, 128, 32))
    assert r["questions"]["seats"]["verdict"] == "strong"  # 15 points show at 1,024 deals already
    small = reviews.review("draw", tmp_path / "s", seed=2, jobs=1, sizes=Sizes(1024, 128, 1024, 128, 32))
    seats = small["questions"]["seats"]
    assert seats["verdict"] == "unclear" and seats["more_deals"] > 0
    assert f"about {verdicts.rough(seats['more_deals'])} more deals would settle it" in seats["sentence"]


def schema_errors(r: dict) -> list[str]:
    """What review.json lacks of the layout the README documents."""
    bad = []
    for key, kind in (("schema", int), ("game", str), ("players", int), ("rules", dict), ("effort", str),
                      ("n", int), ("questions", dict)):
        if not isinstance(r.get(key), kind):
            bad.append(key)
    q = r["questions"]
    for name in ("seats", "skill", "luck", "tension", "match"):
        if not {"verdict", "sentence"} <= set(q.get(name, {})):
            bad.append(name)
    for name in ("hazards", "restrictions"):
        if not isinstance(q.get(name), list) or not all({"verdict", "sentence"} <= set(x) for x in q[name]):
            bad.append(name)
    if not all(set(h) >= {"name", "rate", "ci", "sentence"} for h in q["hazards"]):
        bad.append("hazard entries")
    if not isinstance(q["seats"].get("play"), str):
        bad.append("seats.play")
    for e in q["seats"].get("seats", [None]):
        keys = {"seat", "share", "fair", "edge_pts", "ci_pts"}
        if not isinstance(e, dict) or set(e) != keys or len(e["ci_pts"]) != 2:
            bad.append("seats.seats")
    for c in r.get("changes", []):
        if set(c) < {"question", "before", "after", "delta", "ci", "better"}:
            bad.append("changes")
    return bad


def test_review_json_has_the_documented_layout_for_a_real_game(bw):
    out, r = bw
    on_disk = json.loads((out / "review.json").read_text())
    assert on_disk == r and schema_errors(r) == []
    assert r["schema"] == 1 and r["game"] == "black-white" and r["players"] == 3 and r["effort"] == "custom"
    assert r["n"] == TINY.deals and r["plays"] == {"default": "balance", "search": "pimc"}
    q = r["questions"]
    assert [h["name"] for h in q["hazards"]] == ["balanced"] and q["hazards"][0]["risk"] is False
    assert [x["name"] for x in q["restrictions"]] == ["higher-colour", "lower-colour"]
    assert q["skill"]["verdict"] in ("little", "some", "much", "unclear") and "pimc" in q["skill"]["sentence"]
    assert q["seats"]["search"]["play"] == "pimc at every seat" and q["seats"]["search"]["n"] == TINY.search
    assert q["luck"]["play"] == "one balance against 2 duck (duplicate deals)"
    page = (out / "review.html").read_text()
    offline = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert page.startswith("<!DOCTYPE html>") and "http://" not in offline and "https://" not in offline
    assert page.index('id="verdicts"') < page.index('id="tables"')  # verdicts first


def test_unlike_reviews_are_not_compared(draw, tmp_path):
    reviews.review("draw", tmp_path / "four", seed=1, jobs=1, sizes=TINY)
    # refused before anything is played (it played the whole review, then said so: left19)
    with pytest.raises(SimtoolError, match="cannot be compared with this review .a different player count: 4 "
                                           "against 3; fair shares and plays differ."):
        reviews.review("draw", tmp_path / "three", players=3, seed=1, jobs=1, sizes=TINY, baseline=tmp_path / "four")
    assert not (tmp_path / "three").exists()
    like = reviews.review("draw", tmp_path / "again", rules={"edge": "first"}, jobs=1, baseline=tmp_path / "four")
    assert like["comparison"]["possible"] is True and {c["question"] for c in like["changes"]} >= {"seats", "luck"}
    # the baseline's seed and sizes: the same deals, no pilot
    assert like["seed"] == 1 and like["sizes"] == json.loads((tmp_path / "four" / "review.json").read_text())["sizes"]
    (seats,) = [c for c in like["changes"] if c["question"] == "seats"]
    assert seats["change"] == "worse"  # the edge rule gives seat 0 a strong edge


@pytest.mark.parametrize("args, needles", [
    (["--game", "nope"], ["unknown game 'nope'", "kansas-city"]),
    (["--game", "kansas-city", "--rule", "nope=1"], ["nope"]),
    (["--game", "kansas-city", "--effort", "huge"], ["unknown effort 'huge'", "quick"]),
    (["--game", "kansas-city", "--players", "9"], ["kansas-city"]),
    (["--game", "kansas-city", "--vs-rule", "pass_count=3"], ["gives the rules under review"]),
    (["--game", "kansas-city", "--vs-rule", "pass_count=2", "--baseline", "x"], ["not both"]),
    (["--game", "kansas-city", "--baseline", "nowhere"], ["holds no review.json"]),
    (["--game", "kansas-city", "--jobs", "0"], ["bad --jobs '0'", "1 or more"]),
    (["--game", "kansas-city", "--backend", "mpi"], ["unknown backend 'mpi'", "local"]),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needles):
    one_line_error(cli("review", *args, "--out", tmp_path / "r", "-q"), *needles)
    assert not (tmp_path / "r" / "review.json").exists()


def test_a_folder_holding_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    one_line_error(cli("review", "--game", "kansas-city", "--out", tmp_path, "-q"), "notes.txt", "--out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


INTERRUPTED = Sizes(1 << 16, 128, 1024, 128, 32)  # two chunks of deals for the seats question


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory) -> tuple[dict, object]:
    """The review of ``draw`` played whole, and the same review stopped after its first chunk
    (played once for the tests below, each of which goes on from a copy of it)."""
    base = tmp_path_factory.mktemp("interrupted")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))
        whole = reviews.review("draw", base / "whole", seed=9, jobs=1, sizes=INTERRUPTED)

        def stop(question: str, done: int, total: int) -> None:
            if question == "seats" and done == 1 and total > 1:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            reviews.review("draw", base / "broken", seed=9, jobs=1, sizes=INTERRUPTED, progress=stop)
    return whole, base / "broken"


def _interrupted(interrupted, tmp_path) -> tuple[dict, object]:
    """The whole review's answers, and a copy of the stopped review's folder."""
    import shutil

    whole, broken = interrupted
    shutil.copytree(broken, tmp_path / "broken")
    return whole, tmp_path / "broken"


def test_an_interrupted_review_goes_on_to_the_unbroken_answers(draw, interrupted, tmp_path):
    whole, out = _interrupted(interrupted, tmp_path)
    sizes = INTERRUPTED
    assert not (out / "review.json").exists() and not (out / "review.html").exists()
    assert any((out / "runs" / "seats").rglob("chunks/*"))  # the finished chunk is kept
    again = reviews.review("draw", out, seed=9, jobs=1, sizes=sizes)
    assert again["questions"] == whole["questions"]


def test_a_reviews_interrupted_run_is_finished_by_the_run_resume_its_report_advises(draw, interrupted, tmp_path):
    # before (since a29c709 refused simtool run in a review's runs): 'simtool report CELL' of the
    # interrupted cell advised 'simtool run --resume CELL', which was refused with 'CELL is in the
    # runs of a review (review.json) ...: choose another folder'; a resume plays the review's own spec
    from .test_cli import cli

    whole, out = _interrupted(interrupted, tmp_path)
    sizes = INTERRUPTED
    (cell,) = [p for p in (out / "runs" / "seats").iterdir()
               if (p / "chunks").is_dir() and not (p / "run.json").exists()]
    advised = cli("report", cell)
    assert f"simtool run --resume {cell}" in advised.output
    r = cli("run", "--resume", cell, "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert (cell / "run.json").is_file()
    assert reviews.review("draw", out, seed=9, jobs=1, sizes=sizes)["questions"] == whole["questions"]


def test_the_sizes_of_a_review_are_kept_for_running_it_again(draw, tmp_path, monkeypatch):
    timed = []
    monkeypatch.setattr(reviews, "pilot", lambda *a: timed.append(a) or {"deal": 1e-6, "match": 1e-4})
    s1 = reviews.setup("draw", tmp_path, effort="quick")
    s2 = reviews.setup("draw", tmp_path, effort="quick")
    assert len(timed) == 1 and s1.sizes == s2.sizes and s1.search is None
    assert s1.seed == s2.seed  # the same command without --seed goes on with the seed it started with
    assert reviews.setup("draw", tmp_path, effort="quick", seed=5).seed == 5 and len(timed) == 1
    reviews.setup("draw", tmp_path, effort="quick", players=3)  # another review: timed again
    assert len(timed) == 2
    # a larger effort gets more deals from the same timings
    assert reviews.sizes("standard", timed and {"deal": 1e-4, "match": 1e-3, "search": 1e-2}, 4, 2, 1).search > \
        reviews.sizes("quick", {"deal": 1e-4, "match": 1e-3, "search": 1e-2}, 4, 2, 1).search


def test_cli_review_prints_the_verdicts_and_writes_both_files(draw, tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "pilot", lambda *a: {"deal": 1e-3, "match": 1e-2})
    r = cli("review", "--game", "draw", "--rule", "edge=first", "--out", tmp_path / "r", "--seed", "4", "-j", "1")
    assert r.exit_code == 0, r.output
    assert "seats: strong. Seat 0 wins" in r.stdout
    data = json.loads((tmp_path / "r" / "review.json").read_text())
    assert data["questions"]["seats"]["verdict"] == "strong" and (tmp_path / "r" / "review.html").is_file()


def test_review_page_in_a_real_browser(browser, draw, tmp_path):  # noqa: F811
    out = tmp_path / "r"
    r = reviews.review("draw", out, seed=1, jobs=1, sizes=TINY, vs_rules={"edge": "first"})
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems, requests = [], []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))

    def only_the_file(route):
        requests.append(route.request.url)
        route.continue_() if route.request.url.startswith("file://") else route.abort()

    page.route("**/*", only_the_file)
    uri = (out / "review.html").resolve().as_uri()
    page.goto(uri)
    assert problems == [] and requests == [uri]
    assert page.locator("#verdicts article.card").count() >= 8
    first = page.locator("#verdicts article.card").first
    assert first.locator(".verdict").inner_text().lower() == r["questions"]["seats"]["verdict"]
    assert first.locator("svg").count() == 1
    assert first.locator(".thresholds").inner_text().startswith("Thresholds: fair")
    assert page.locator("#changes tr.bad").count() >= 1  # the seat edge got worse: red, by its meaning
    assert not page.locator("details.statistics table").first.is_visible()  # folded away
    assert page.locator('#verdicts article.card[data-question="hidden_information"]').count() == 2  # both versions
    metrics = page.locator("details.metrics").first
    assert not metrics.locator("table.metrics").is_visible()  # the published metrics are folded too
    metrics.locator("summary").click()
    assert metrics.locator("table.metrics").is_visible()
    assert metrics.locator("table.metrics tbody tr").count() == len(r["metrics"])
    assert metrics.locator("table.cardstock tbody tr").count() == 7  # CardStock's six games and this review's row


def test_sizes_share_the_budget_by_the_pilot_timings():
    seconds = {"deal": 1e-4, "match": 1e-3, "search": 0.05}
    quick = reviews.sizes("quick", seconds, 4, 2, 1)
    # the search's share of 60 s on 2 cores, less the start of its 4 plays, at 0.05 s a deal
    # (in a large play, SEARCH_BATCH of it) in each of its 1 + 2/4 + 5/4 plays
    # and the clairvoyant's 1/8 of a search seat in 4 (its hidden-information play, a fifth start)
    budget = reviews.EFFORTS["quick"] * reviews.CORES * reviews.PLAYING * reviews.SHARES["search"]
    start = 5 * reviews.SEARCH_START * reviews.SEARCH_PILOT * 0.05
    assert quick.search == reviews.round_down((budget - start) / (reviews.SEARCH_BATCH * 0.05 * (2.75 + 1 / 32)))
    # the lead histories: their share of the budget at LEADS search deals each, within the search play
    leads = reviews.EFFORTS["quick"] * reviews.CORES * reviews.PLAYING * reviews.SHARES["leads"]
    assert quick.leads == min(quick.search, reviews.round_down(leads / (reviews.SEARCH_BATCH * 0.05 * reviews.LEADS)))
    assert 0 < quick.leads <= quick.search and quick.random >= reviews.SMALLEST["random"]
    assert reviews.sizes("quick", seconds, 4, 2, 2).search < quick.search  # two rule versions share it
    assert reviews.sizes("thorough", seconds, 4, 2, 1).search > reviews.sizes("standard", seconds, 4, 2, 1).search
    slow = reviews.sizes("quick", {"deal": 1.0, "match": 10.0, "search": 100.0}, 4, 2, 1)
    assert slow == Sizes(**reviews.SMALLEST)  # never fewer than the smallest sizes
    no_search = reviews.sizes("quick", {"deal": 1e-9, "match": 1e-9}, 4, 0, 1)
    assert no_search.search == 0 and no_search.leads == 0  # no search: none played, no histories


@pytest.mark.parametrize("x, rounded", [(1, 1), (2.9, 2), (3, 3), (5.9, 4), (6, 6), (1000, 768), (1100, 1024)])
def test_sizes_round_down_to_powers_of_two_and_their_halves_again(x, rounded):
    assert reviews.round_down(x) == rounded


def test_ctrl_c_says_how_to_go_on(tmp_path, monkeypatch):
    def interrupted(*args, **kw):  # once its runs have begun (before them: tests/test_hostile16.py)
        (tmp_path / "r" / "runs").mkdir(parents=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(reviews, "setup", interrupted)
    r = cli("review", "--game", "kansas-city", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 130 and "run the same simtool review again to go on" in r.stderr


def test_cli_vs_rule_prints_what_changes_for_balance(draw, tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "pilot", lambda *a: {"deal": 1e-3, "match": 1e-2})
    r = cli("review", "-g", "draw", "--vs-rule", "edge=first", "--out", tmp_path / "r", "--seed", "4", "-j", "1")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("change in seats:"))
    assert line.endswith(": worse, by 1 point or more")  # a seat edge 13.6 points further from fair
    page = (tmp_path / "r" / "review.html").read_text()
    assert "Largest seat edge (points)" in page and 'class="bad"' in page


def test_a_risk_going_up_is_worse_and_a_plain_rate_only_changed():
    from simtool.analysis import review as answers

    def version(rate: float) -> dict:
        fig = {"value": 1.0, "ci": [0.5, 1.5]}
        return {"seats": {"figure": fig}, "skill": {"figure": fig}, "luck": {"figure": fig},
                "tension": {"figure": fig}, "restrictions": [], "match": None,
                "hazards": [{"name": "overshoot", "rate": rate, "ci": [rate - 0.01, rate + 0.01], "risk": True},
                            {"name": "made", "rate": rate, "ci": [rate - 0.01, rate + 0.01], "risk": False}]}

    rows = {c["question"]: c for c in answers.changes(version(0.10), version(0.20))}
    assert rows["hazards: overshoot"]["change"] == "worse" and rows["hazards: overshoot"]["better"] is False
    assert rows["hazards: made"]["change"] == "changed" and rows["hazards: made"]["better"] is None
    assert rows["seats"]["change"] == "no clear change" and rows["seats"]["delta"] == 0


def test_the_pilot_prices_what_the_rules_play_and_never_times_it(monkeypatch):
    import time

    # a clock that runs wild must change nothing: the sizes come from counted cards and rounds
    ticks = iter(range(0, 10**9, 7919))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    players, cards, rounds, deal, match, search = reviews.REFERENCE["kansas-city"]
    sheet = reviews.pilot("kansas-city", 4, {}, "target", "pimc")
    # the sheet's Kansas City plays 14 tricks of 4 cards a deal, the reference's count
    assert sheet["deal"] == pytest.approx(deal) and sheet["search"] == pytest.approx(search)
    short = reviews.pilot("kansas-city", 4, {"hand_size": 7, "limit": 2}, "target", "pimc")
    assert short["deal"] == pytest.approx(deal / 2) and short["search"] == pytest.approx(search / 4)
    assert reviews.pilot("kansas-city", 4, {}, "target", "pimc") == sheet


# ---- published metrics, convergence, hidden information, hazards --------------------------------

def test_metrics_come_from_the_reviews_own_plays_and_lead_histories(bw):
    from simtool.analysis import metrics
    from simtool.pipeline.folders import read_meta

    out, r = bw
    m = r["metrics"]
    assert r["sizes"]["leads"] == TINY.leads and r["sizes"]["random"] == TINY.random
    for name in ("fairness", "order", "convergence", "spread", "drama", "security", "balance", "lead_change",
                 "duplicate_gain", "fairness (balance play)", "fairness (pimc play)"):
        assert set(m[name]) == {"value", "ci", "estimator", "definition"}, name
        low, high = m[name]["ci"]
        if name == "convergence":  # Black & White's options per decision are alike in every deal: every
            assert (low, high) == (None, None)  # bootstrap resample gives one value, no interval (52dd010)
        else:
            assert low <= m[name]["value"] <= high
        assert m[name]["definition"] == metrics.definition(name).formula
    # each from the play its definition needs: all-random deals, one pimc among random seats, pimc
    # at every seat with lead histories of the sample --effort sized
    assert "1,024 deals of random at every seat" in m["fairness"]["estimator"]
    assert "line-up pimc, random, random (rotated)" in m["order"]["estimator"]
    assert "lead histories of 16 deals" in m["drama"]["estimator"] and "pimc at every seat" in m["drama"]["estimator"]
    runs = {read_meta(f)["review"]["play"]: read_meta(f) for f in (out / "runs" / "seats").iterdir() if f.is_dir()}
    assert runs["random"]["lineup"] == ["random"] * 3 and runs["random"]["n"] == TINY.random
    assert runs["search"]["lead_history"]["sampled"] == TINY.leads and not runs["heuristic"].get("leads")
    # the same figures as the metrics module computes from those folders, recomputed independently
    direct = metrics.metrics([out / "runs" / "seats" / f for f in sorted(p.name for p in (out / "runs" / "seats")
                                                                       .iterdir() if "random" in p.name)])
    # (the review names its folders from its own: the same review.json wherever it ran)
    assert {**direct["fairness"], "estimator": direct["fairness"]["estimator"].replace(f"{out}/", "")} \
        == m["fairness"] and "(runs/seats/" in m["fairness"]["estimator"]
    assert r["published"] is None  # Black & White is in no published table
    page = (out / "review.html").read_text()
    assert 'class="metrics"' in page and metrics.definition("drama").meaning in page


def test_the_published_values_stand_beside_the_metrics_with_their_sample():
    from simtool.analysis import metrics
    from simtool.reports import review as pages

    found = {"order": {"value": 0.459, "ci": [0.434, 0.483], "estimator": "e", "definition": "d"},
             "balance": {"value": 0.9, "ci": [0.8, 1.0], "estimator": "e", "definition": "d"}}
    rows = {r["name"]: r for r in pages.metric_rows(found, metrics.published("hearts", 4))}
    assert rows["order"]["published"] == "0.52 (100 games, no interval)"
    assert rows["order"]["ci"] == "0.434 to 0.483" and rows["order"]["meaning"] == metrics.definition("order").meaning
    assert rows["balance"]["published"] == ""  # CardStock publishes no balance
    assert all(r["published"] == "" for r in pages.metric_rows(found, None))


@pytest.mark.parametrize("gain, flag", [
    ((0.2, -0.5, 0.9), True),       # the whole interval under 1 point: converged
    ((0.2, -0.5, 1.0), None),       # reaching 1 point: not yet clear
    ((1.0, 0.1, 1.9), False),       # at least 1 point and surely above fair: still gaining
    ((1.5, -0.1, 3.1), None),       # above 1 point, but the interval holds fair: not yet clear
])
def test_the_reviews_convergence_is_the_ladders(gain, flag):
    from pathlib import Path

    from simtool.analysis import ladder, verdicts

    fair = 0.25
    share, low, high = (fair + g / 100 for g in gain)
    rung = ladder.Rung(1, "pimc@samples=16", "pimc", share, low, high, fair, 0.0, Path("."))
    assert ladder.converged(ladder.Ladder("kansas-city", 4, {}, "deal", [rung])) is flag
    assert verdicts.convergence_state(gain) is flag
    v = verdicts.skill_verdict((1, 0, 2), (12, 11, 13), gain, 100, converged=flag)
    assert v.figures["converged"] is (flag is True) and v.figures["lower_bound"] is (flag is not True)
    assert v.figures["convergence"] == {True: "converged", False: "still gaining", None: "not yet clear"}[flag]
    assert ("the search has converged" if flag else "a lower bound") in v.sentence


@pytest.mark.parametrize("price, word", [((2.99, 2.5, 2.995), "little"), ((3.0, 3.0, 3.0), "some"),
                                         ((9.99, 9.5, 9.995), "some"), ((10.0, 10.0, 12.0), "much"),
                                         ((-4.0, -6.0, -2.0), "not measured"), ((5.0, 2.0, 8.0), "unclear")])
def test_hidden_information_words_at_their_thresholds(price, word):
    from simtool.analysis import verdicts

    v = verdicts.hidden_verdict(price, 1000, "clairvoyant", "pimc", "3 target")
    assert v.word == word and v.thresholds == {"some": 3.0, "much": 10.0}
    shown = verdicts.fixed(price[0], (3.0, 10.0), "+")  # 2.99 is not "+3.0" beside "some from 3"
    assert shown == {2.99: "+2.99", 9.99: "+9.99"}.get(price[0], f"{price[0]:+.1f}")
    assert v.sentence.startswith(f"Seeing every hidden card is worth {shown} points")
    assert "not a fair player" in v.sentence
    assert (v.more is not None) == (word == "unclear")


def test_hidden_information_is_the_ladders_reference_rung_on_the_reviews_deals(bw):
    from simtool.analysis import ladder
    from simtool.pipeline.folders import read_meta

    out, r = bw
    h = r["questions"]["hidden_information"]
    skill = {read_meta(f)["review"]["play"]: f for f in (out / "runs" / "skill").iterdir() if f.is_dir()}
    seer, search = read_meta(skill["clairvoyant"]), read_meta(skill["over heuristic"])
    # clairvoyant in the search's seat, against the same default seats, the same deals, seats rotated
    assert seer["lineup"] == ["clairvoyant", "balance", "balance"]
    assert search["lineup"] == ["pimc", "balance", "balance"]
    assert (seer["seed"], seer["n"], seer["rotate"]) == (search["seed"], search["n"], True)
    (climbed,) = ladder.ladders([skill["over heuristic"], skill["clairvoyant"]])
    gain, low, high = ladder.price(climbed)
    assert h["price_pts"] == pytest.approx(100 * gain) and h["price_ci_pts"] == pytest.approx([100 * low, 100 * high])
    assert h["verdict"] in ("little", "some", "much", "unclear") and "clairvoyant" in h["sentence"]
    assert r["questions"]["skill"]["convergence"] in ("converged", "still gaining", "not yet clear")
    page = (out / "review.html").read_text()
    assert 'data-question="hidden_information"' in page and "How much does knowing the hidden cards win?" in page
    assert h["sentence"] in "".join(reviews.summary_lines(r))


def test_hidden_information_is_not_measured_without_a_search(draw, tmp_path):
    r = reviews.review("draw", tmp_path / "r", seed=1, jobs=1, sizes=TINY)
    assert r["questions"]["hidden_information"]["verdict"] == "not measured"
    assert "fairness" in r["metrics"]  # all-random deals
    # no search: order is the default's, one high seat among random ones (the luck question's deals)
    assert "win share of high" in r["metrics"]["order"]["estimator"]
    assert "drama" not in r["metrics"]  # a game that cannot re-deal records no lead histories


def test_out_trumped_marks_the_penalty_and_a_hand_below_zero_as_risks():
    import polars as pl

    from simtool.analysis import of
    from simtool.games import get

    found = of(get("out-trumped"))
    # hand-built seat rows: a hand's score is its points before the floor at 0; out-trumped is the
    # game's column (the fewest trumps), not the bonus: 0 under penalty=0, -1 for the most under
    # trump_bonus=-1
    rows = pl.DataFrame({"bonus": [-3, 0, 2, -1], "out_trumped": [True, True, False, False],
                         "score": [-1, 4, 5, 2]})
    got = rows.select(**{name: expr for name, expr in found.rates.items()})
    assert got["out-trumped"].to_list() == [True, True, False, False]
    assert got["below-zero"].to_list() == [True, False, False, False]
    assert set(found.risks) == {"out-trumped", "below-zero"} and "floor" in found.rate_text["below-zero"]


def test_what_hidden_information_is_worth_has_no_better_side():
    from simtool.analysis import review as answers

    def version(price: float) -> dict:
        fig = {"value": 1.0, "ci": [0.5, 1.5]}
        return {"seats": {"figure": fig}, "skill": {"figure": fig}, "luck": {"figure": fig},
                "tension": {"figure": fig}, "restrictions": [], "match": None, "hazards": [],
                "hidden_information": {"figure": {"value": price, "ci": [price - 1, price + 1]}}}

    (row,) = [c for c in answers.changes(version(5.0), version(20.0)) if c["question"] == "hidden information"]
    assert row["change"] == "changed" and row["better"] is None and row["delta"] == 15
    # a review written before the question was asked compares the rest
    old = version(5.0)
    del old["hidden_information"]
    assert "hidden information" not in {c["question"] for c in answers.changes(old, version(20.0))}


def test_a_review_against_a_baseline_says_the_effort_it_played(draw, tmp_path, monkeypatch):
    base = reviews.review("draw", tmp_path / "base", seed=3, jobs=1, effort="standard", sizes=TINY)
    again = reviews.review("draw", tmp_path / "again", rules={"edge": "first"}, jobs=1, baseline=tmp_path / "base")
    # the baseline's sizes were played, so its label is what this review played, not 'quick'
    # (sizes given replace the effort's: 'custom', not 'standard')
    assert base["effort"] == again["effort"] == "custom" and again["sizes"] == base["sizes"]
    # an effort's own sizes keep its name; its budget cut to the smallest sizes (50 s played in full)
    monkeypatch.setitem(reviews.EFFORTS, "standard", 0.01)
    grown = reviews.review("draw", tmp_path / "grown", seed=3, jobs=1, effort="standard")
    again = reviews.review("draw", tmp_path / "again2", rules={"edge": "first"}, jobs=1, baseline=tmp_path / "grown")
    assert grown["effort"] == again["effort"] == "standard" and again["sizes"] == grown["sizes"]
    assert again["seed"] == 3


def test_sizes_given_with_a_baseline_keep_the_baselines_seed(draw, tmp_path):
    # before: review(..., baseline=B, sizes=S) drew a fresh seed, so its deals were not the
    # baseline's although the docstring promised the baseline's seed where sizes replace its own
    base = reviews.review("draw", tmp_path / "base", seed=5, jobs=1, sizes=TINY)
    again = reviews.review("draw", tmp_path / "again", rules={"edge": "first"}, jobs=1, sizes=TINY,
                           baseline=tmp_path / "base")
    assert base["seed"] == again["seed"] == 5
