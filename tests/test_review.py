"""``simtool review``: verdicts on a game whose seat advantage is known, review.json's layout,
the changes table and its refusal of unlike comparisons, bad input, and an interrupted review
going on. Small sizes (``sizes=``) keep every review to seconds."""

from __future__ import annotations

import json

import pytest

import simtool.games
from simtool.commands import review as reviews
from simtool.commands.review import Sizes

from . import review_game
from .test_browser import browser  # noqa: F401  (the fixture)
from .test_cli import cli, one_line_error

TINY = Sizes(deals=4096, matches=128, restrictions=1024, duplicate=128, search=32)


@pytest.fixture
def draw(monkeypatch):
    """Register the test game 'draw' (in-process reviews only: ``jobs=1``)."""
    monkeypatch.setattr(simtool.games, "BUILT_IN", (*simtool.games.BUILT_IN, review_game.GAME))
    return review_game.GAME


def test_a_built_in_seat_advantage_is_strong_and_a_symmetric_game_fair(draw, tmp_path):
    # 'draw' is exactly fair by symmetry; with edge=first seat 0 wins 2/5 of deals at 4 players
    r = reviews.review("draw", tmp_path / "r", seed=5, jobs=1, vs_rules={"edge": "first"},
                       sizes=Sizes(1 << 17, 128, 1024, 128, 32))
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
    assert f"about {seats['more_deals']:,} more deals would settle it" in seats["sentence"]


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


def test_review_json_has_the_documented_layout_for_a_real_game(tmp_path):
    out = tmp_path / "bw"  # Black & White: its search is the quickest to start
    r = reviews.review("black-white", out, seed=3, jobs=1, sizes=TINY)
    on_disk = json.loads((out / "review.json").read_text())
    assert on_disk == r and schema_errors(r) == []
    assert r["schema"] == 1 and r["game"] == "black-white" and r["players"] == 3 and r["effort"] == "quick"
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
    r = reviews.review("draw", tmp_path / "three", players=3, seed=1, jobs=1, sizes=TINY, baseline=tmp_path / "four")
    assert r["comparison"]["possible"] is False and "player count" in r["comparison"]["why"]
    assert r["changes"] == []
    assert "cannot be compared" in (tmp_path / "three" / "review.html").read_text()
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


def test_an_interrupted_review_goes_on_to_the_unbroken_answers(draw, tmp_path):
    sizes = Sizes(1 << 16, 128, 1024, 128, 32)  # two chunks of deals for the seats question
    whole = reviews.review("draw", tmp_path / "whole", seed=9, jobs=1, sizes=sizes)

    def stop(question: str, done: int, total: int) -> None:
        if question == "seats" and done == 1 and total > 1:
            raise KeyboardInterrupt

    out = tmp_path / "broken"
    with pytest.raises(KeyboardInterrupt):
        reviews.review("draw", out, seed=9, jobs=1, sizes=sizes, progress=stop)
    assert not (out / "review.json").exists() and not (out / "review.html").exists()
    assert any((out / "runs" / "seats").rglob("chunks/*"))  # the finished chunk is kept
    again = reviews.review("draw", out, seed=9, jobs=1, sizes=sizes)
    assert again["questions"] == whole["questions"]


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


def test_sizes_share_the_budget_by_the_pilot_timings():
    seconds = {"deal": 1e-4, "match": 1e-3, "search": 0.05}
    quick = reviews.sizes("quick", seconds, 4, 2, 1)
    # the search's share of 60 s on 2 cores, less the start of its 4 plays, at 0.05 s a deal
    # (in a large play, SEARCH_BATCH of it) in each of its 1 + 2/4 + 5/4 plays
    budget = reviews.EFFORTS["quick"] * reviews.CORES * reviews.PLAYING * reviews.SHARES["search"]
    start = 4 * reviews.SEARCH_START * reviews.SEARCH_PILOT * 0.05
    assert quick.search == reviews.round_down((budget - start) / (reviews.SEARCH_BATCH * 0.05 * 2.75))
    assert reviews.sizes("quick", seconds, 4, 2, 2).search < quick.search  # two rule versions share it
    assert reviews.sizes("thorough", seconds, 4, 2, 1).search > reviews.sizes("standard", seconds, 4, 2, 1).search
    slow = reviews.sizes("quick", {"deal": 1.0, "match": 10.0, "search": 100.0}, 4, 2, 1)
    assert slow == Sizes(**reviews.SMALLEST)  # never fewer than the smallest sizes
    assert reviews.sizes("quick", {"deal": 1e-9, "match": 1e-9}, 4, 0, 1).search == 0  # no search: none played


@pytest.mark.parametrize("x, rounded", [(1, 1), (2.9, 2), (3, 3), (5.9, 4), (6, 6), (1000, 768), (1100, 1024)])
def test_sizes_round_down_to_powers_of_two_and_their_halves_again(x, rounded):
    assert reviews.round_down(x) == rounded


def test_ctrl_c_says_how_to_go_on(tmp_path, monkeypatch):
    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(reviews, "setup", interrupted)
    r = cli("review", "--game", "kansas-city", "--out", tmp_path / "r", "-q")
    assert r.exit_code == 130 and "run the same simtool review again to go on" in r.stderr


def test_cli_vs_rule_prints_what_changes_for_balance(draw, tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "pilot", lambda *a: {"deal": 1e-3, "match": 1e-2})
    r = cli("review", "-g", "draw", "--vs-rule", "edge=first", "--out", tmp_path / "r", "--seed", "4", "-j", "1")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("change in seats:"))
    assert line.endswith(": worse")
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
