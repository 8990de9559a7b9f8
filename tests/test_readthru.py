"""A read of what ``make demo`` wrote, as a designer and as a statistician would read it: each
test failed on the code before its fix (the demo's seven reviews said these things)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simtool import stats
from simtool.analysis import review as answers
from simtool.analysis import verdicts
from simtool.reports import review as pages


def test_the_hidden_information_plays_share_their_deals_when_one_chunk_holds_them(bw_review):
    # before: every demo review said "one seed but not the same deals (chunks of 16,384 deals
    # against 2,048)" of a search play of 256 to 2,048 deals, which both runs draw as chunk 0 of
    # the one stream (Trickster's clairvoyant, playing as pimc there, scored alike on all 1,024
    # deals), and then in the same paragraph "(wide: they share their deals)"
    out, r = bw_review
    h = r["questions"]["hidden_information"]
    assert h["same_deals"] is True
    assert h["play"].endswith("seats rotated, the same deals") and "not the same" not in h["play"]
    page = (out / "review.html").read_text()
    assert "not the same deals" not in page
    assert "the difference and its interval are taken deal by deal: they share their deals" in page


def test_chunks_that_cut_the_deals_otherwise_still_play_other_deals():
    meta = {"game": "hearts", "players": 4, "unit": "deal", "seed": 1, "n": 256, "duplicate": False,
            "chunk": 2048, "versions": {"simtool": "0.1.0", "numpy": "2"}}
    assert answers.same_cuts_deals(meta, {**meta, "chunk": 16384}) is None
    assert answers.same_cuts_deals(meta, {**meta, "chunk": 2048}) is None
    many = {**meta, "n": 4096}
    assert answers.same_cuts_deals(many, {**many, "chunk": 16384}) == "chunks of 16,384 deals against 2,048"
    assert answers.same_cuts_deals(meta, {**meta, "chunk": 128}) == "chunks of 128 deals against 2,048"
    # a --precision run draws whole chunks to its cap: another chunk length deals other cards
    capped = {**meta, "chunk": 16384, "precision": 0.01, "precision_cap": 20000}
    assert answers.same_cuts_deals(meta, capped) is not None


def test_a_review_of_other_deals_does_not_say_it_shares_them(bw_review):
    _, r = bw_review
    r = copy.deepcopy(r)
    h = r["questions"]["hidden_information"]
    h["same_deals"], h["play"] = False, h["play"].replace("the same deals", "one seed but not the same deals (x)")
    page = pages.render(r)
    assert "they share their deals" not in page
    assert "the difference's interval combines the two as if independent." in page.replace("&#39;", "'")
    del h["same_deals"]  # a review.json written before the key: its interval was combined so
    assert "they share their deals" not in pages.render(r)


def _card(page: str, question: str) -> str:
    start = page.index(f'data-question="{question}"')
    return page[start:page.index("</article>", start)]


def test_the_tension_card_shows_its_figure_as_its_sentence_does(bw_review):
    # before: Black & White's card read "28% (95% interval 27 to 28%)" under its sentence's
    # "27.5% of matches (95% interval 27.0% to 28.0%)", Hearts' "39% (95% interval 38 to 41%)"
    # under "39.4% (38.2% to 40.7%)": tension was shown to luck's whole percent
    _, r = bw_review
    r = copy.deepcopy(r)
    t = r["questions"]["tension"]
    t["figure"].update(value=0.27547, ci=[0.2703, 0.2801])
    t["sentence"] = "The winner was behind at half-time in 27.5% of matches (95% interval 27.0% to 28.0%)."
    card = _card(pages.render(r), "tension")
    assert '<p class="figure">27.5% (95% interval 27.0 to 28.0%)</p>' in card


def test_the_seat_sentence_says_what_the_strongest_play_is_unclear_between_and_what_settles_it(monkeypatch):
    # before: "Under the strongest play (pimc at every seat), 2,048 deals: unclear." ended Black &
    # White's seat sentence, the one line of it the console prints: unclear between what, and
    # settled by what, only the page's other card said ("fair or slight; about 180,000 more deals")
    def answer(shares, n, play):
        v = verdicts.seat_verdict(shares, 3, n, "deals", play)
        return {"verdict": v.word, "sentence": v.sentence, "seats": v.figures["seats"], "play": play, "n": n,
                "more_deals": v.more, "unclear_between": v.figures["unclear_between"],
                "figure": answers.magnitude(*answers.largest_edge(v.figures["seats"]))}

    third = 1 / 3
    plays = {"heuristic": answer([(0, third + 0.003, third + 0.002, third + 0.004), (1, third - 0.007,
                                  third - 0.008, third - 0.006), (2, third + 0.004, third + 0.003, third + 0.005)],
                                 1_048_576, "balance at every seat"),
             "search": answer([(0, third + 0.008, third - 0.011, third + 0.028), (1, third - 0.006, third - 0.025,
                               third + 0.014), (2, third - 0.002, third - 0.021, third + 0.018)],
                              2048, "pimc at every seat")}
    monkeypatch.setattr(answers, "seat_answer", lambda game, folder: dict(plays[folder]))
    seats = answers.seats_question(None, "heuristic", "search")
    strong = plays["search"]
    assert (seats["verdict"], strong["verdict"], strong["unclear_between"]) == ("fair", "unclear", ["fair", "slight"])
    tail = f"whether fair or slight; about {verdicts.rough(strong['more_deals'])} more deals would settle it."
    assert seats["sentence"].endswith("Under the strongest play (pimc at every seat), 2,048 deals: unclear "
                                      + tail), seats["sentence"]
    assert strong["sentence"].endswith(tail)


def test_the_published_hearts_values_stand_only_beside_the_rules_they_were_measured_under(bw_review):
    # before: the demo's Hearts review set CardStock's Hearts values ("0.87 (100 games, no
    # interval)" and five more) beside its --vs-rule jack=on version's metrics too, Omnibus
    # Hearts read against published Hearts as if one game
    from simtool import games, options
    from simtool.analysis import metrics

    hearts = games.get("hearts")
    own = options.named(hearts, options.resolve(hearts, None))
    assert answers.published_for(hearts, 4, own) == metrics.published("hearts", 4)
    assert answers.published_for(hearts, 4, options.named(hearts, options.resolve(hearts, {"jack": "on"}))) is None
    assert answers.published_for(hearts, 5, own) is None
    _, r = bw_review
    r = copy.deepcopy(r)
    r["published"] = metrics.published("hearts", 4)
    r["versus"] = {"source": "vs-rule", "rules": {"jack": "on"}, "questions": r["questions"],
                   "metrics": r["metrics"], "published": None}
    page = pages.render(r)
    theirs = page[page.index('id="metrics-1"'):]
    mine = page[page.index('id="metrics-0"'):page.index('id="metrics-1"')]
    assert "(100 games, no interval)" in mine and "(100 games, no interval)" not in theirs
    assert "CardStock blog" not in theirs


def test_a_front_no_setting_of_which_can_be_told_from_the_sheet_says_what_n_would(tmp_path):
    # before: the demo's tuning of Kansas City (seat_spread:min and skill:max) ended "None can be
    # told from the sheet at this budget: a larger --n would tell.": how much larger, and for
    # what, unsaid (the single objective's answer names the --n)
    from simtool.analysis import tuning
    from simtool.commands import tune

    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread:min", "skill:max"], trials=4, n=10_000,
                            seed=1)

    def remeasure(label, pass_count, spread, skill, trial=None):
        return {"label": label, "params": {"pass_count": pass_count}, "trials": [] if trial is None else [trial],
                "n": 40_000, "seed": 2,
                "values": {"seat_spread:min": spread, "skill:max": skill}}

    base = remeasure("defaults", 3, [0.0312, 0.0237, 0.0388], [0.5094, 0.5048, 0.5140])
    best = remeasure("trial 2", 2, [0.0274, 0.0199, 0.0350], [0.5087, 0.5041, 0.5133], 2)
    assert tune.best(config, [base, best]) == [best]
    text = tuning.recommendation(config, [base, best], [best])
    assert "a larger --n would tell" not in text
    # half-widths 0.0076 in quadrature, 0.0107, against -0.0038: 8 times the deals, a tenth over,
    # the re-measures 4 times a trial's n
    assert text.endswith("None can be told from the sheet at this budget: to tell the clearest difference "
                         "measured apart (pass_count=2 on seat_spread:min, -0.0038 ± 0.0107), tune again with "
                         "--n 8.8e4 or more (now 10,000; a new --out), so that the re-measures play "
                         "352,000 deals each."), text


def test_a_crude_rule_that_changed_no_deal_is_not_flagged_as_doing_nearly_as_well(tmp_path):
    # before: the demo's Out-Trumped review (kitty=none: no kitty bid) read "Never bidding for the
    # kitty costs hoarder 0.0 points ... (95% interval 0.0 to 0.0): under 1 point, so this crude
    # rule does nearly as well as full play (flagged)", and Kansas City's pass-high (target passes
    # its highest cards already) likewise: an alarm about crude play where nothing changed
    from simtool.commands import restrict as restricting

    _, folders = restricting.measure("out-trumped", tmp_path / "r", n=400, restrictions=["no-kitty", "no-trump-lead"],
                                     seed=1, jobs=1)
    found = {r["name"]: r for r in answers.restrictions_question(folders)}
    kitty, lead = found["no-kitty"], found["no-trump-lead"]
    assert kitty["changed"] == 0 and kitty["cost_pts"] == 0 and not kitty["flagged"]
    assert kitty["sentence"] == ("Never bidding for the kitty changed no result in 400 deals: under these rules it "
                                 "never binds, or hoarder already plays so (it costs nothing, and says nothing of "
                                 "whether crude play pays; not flagged).")
    assert lead["changed"] > 0 and "changed no result" not in lead["sentence"]


def test_the_luck_sentence_shows_its_share_to_a_tenth_as_the_tables_and_the_changes_do():
    # before: Kansas City's luck read "The cards explain 2% (95% interval 2 to 2%)" before and
    # "2% (95% interval 2 to 3%)" after pass_count=2, beside a changes row "1.7% -> 2.5%:
    # changed" and a table "1.7% (1.5% to 1.9%)"; Trickster's "31% (95% interval 30.5 to 31%)";
    # and "The rest: ... 3%, ... 96%" summed with the cards' 2% to 101%
    luck = verdicts.luck_verdict(0.016969, 0.015277, 0.018580, 65536)
    assert "The cards explain 1.7% (95% interval 1.5 to 1.9%)" in luck.sentence
    assert "30.7% (95% interval 30.5 to 30.9%)" in verdicts.luck_verdict(0.3068, 0.3052, 0.3087, 65536).sentence
    # on a threshold's edge the figure still never rounds onto it
    assert "29.98% (95% interval 29.97 to 45.0%)" in verdicts.luck_verdict(0.2998, 0.2997, 0.45, 100).sentence


def test_the_luck_card_and_the_rest_of_the_variance_read_as_the_table(bw_review):
    out, r = bw_review
    luck = r["questions"]["luck"]
    parts = {p["part"]: p["share"] for p in luck["parts"]}
    shown = {k: f"{100 * v:.1f}%" for k, v in parts.items()}
    assert f"The cards explain {shown['cards']} (95% interval" in luck["sentence"]
    # the rest as stats.percent writes a share: a tenth of a percent, more where it would read 0
    rest = {k: f"{stats.percent(v)}%" for k, v in parts.items()}
    assert luck["sentence"].endswith(f"which strategy holds which seat {rest['strategy and seat']}, how these "
                                     f"players play these particular cards (and their own chance) "
                                     f"{rest['interplay']}.")
    card = _card((out / "review.html").read_text(), "luck")
    assert f'<p class="figure">{shown["cards"]} (95% interval' in card


def test_the_duplicate_reports_luck_finding_reads_as_its_table():
    # before: the demo's duplicate report found "the cards decide about 2% (1–2%) of a match's
    # total ..., which strategy holds which seat 31% (30–32%)" beside its table's "1.7% (1.0–2.3)"
    # and "30.9% (30.2–31.7)": an interval whose top, 2.3%, read 2%
    import polars as pl

    from simtool.reports import balance

    table = pl.DataFrame({"part": ["cards", "strategy and seat", "interplay"], "total": [0.0171, 0.3093, 0.6736],
                          "total_low": [0.0102, 0.3021, 0.6632], "total_high": [0.0231, 0.3170, 0.6843]})
    text = balance.luck_text(table, "matches")
    assert text.startswith("Luck against skill: the cards decide about 1.7% (1.0–2.3) of a match's total under "
                           "these strategies, which strategy holds which seat 30.9% (30.2–31.7), and how these "
                           "strategies play these particular cards (and the play's own chance) 67.4% (66.3–68.4)")


def test_the_console_says_whose_verdicts_it_prints_and_which_way_the_changes_run(bw_review):
    # before: 'simtool review -g kansas-city --vs-rule pass_count=2' printed "review: kansas-city
    # 4p, seed 1", then "seats: slight. Seat 0 wins 27.2% ..." (pass_count=3's, the reviewed
    # rules', not the rule asked about) and "change in seats: 2.2 points -> 2.0 points", nowhere
    # saying which rules each line is of
    from simtool.commands import review as reviews

    _, r = bw_review
    r = copy.deepcopy(r)
    r["versus"] = {"source": "vs-rule", "rules": {"deck": 40}, "questions": r["questions"], "metrics": {}}
    r["comparison"] = {"possible": True, "why": None, "before": "the reviewed rules", "after": "the --vs-rule rules"}
    r["changes"] = answers.changes(r["questions"], r["questions"])
    r["rules"] = {"deck": 36}
    lines = reviews.summary_lines(r)
    assert lines[0] == ("verdicts for the reviewed rules (deck=36); the --vs-rule version's (deck=40) are in "
                        "review.html")
    assert lines[1].startswith("seats: ")
    at = next(i for i, x in enumerate(lines) if x.startswith("change in"))
    assert lines[at - 1] == "changes from the reviewed rules (deck=36) to the --vs-rule rules (deck=40):"
    # a baseline: this review's verdicts, the changes from the baseline to it
    r["versus"]["source"] = "baseline"
    r["comparison"].update(before="the baseline", after="this review")
    lines = reviews.summary_lines(r)
    assert lines[0] == "verdicts for this review (deck=36); the baseline's (deck=40) are in review.html"
    assert "changes from the baseline (deck=40) to this review (deck=36):" in lines
    # a review of one version prints its verdicts alone, as before
    plain = {k: v for k, v in r.items() if k not in ("versus", "comparison", "changes")}
    assert reviews.summary_lines(plain)[0].startswith("seats: ")


def test_the_price_of_hidden_cards_is_taken_deal_by_deal_where_the_two_plays_share_their_deals(tmp_path,
                                                                                                charts_undrawn):
    # before: Trickster, where nothing is hidden (RULINGS: tableaux face up) and the clairvoyant
    # plays as pimc on every deal, read "Seeing every hidden card is worth 0.0 points (95% interval
    # -3.8 to 3.8): unclear whether little or some; about 586 more deals would settle it": the two
    # runs' intervals combined as if independent, though they play the same deals
    from simtool import stats
    from simtool.analysis import ladder

    from .test_cli import cli

    runs = tmp_path / "t"
    assert cli("ladder", "-g", "trickster", "-n", "40", "--seed", "1", "-j", "1", "-q", "--rungs",
               "safe,pimc@samples=2", "--runs", runs, "--out", tmp_path / "t.html").exit_code == 0
    plays = {"over heuristic": runs / "trickster_4p_pimc@samples=2+safe",
             "clairvoyant": [runs / "trickster_4p_clairvoyant+safe"]}
    h = answers.hidden_question(plays, "pimc")
    # alike on all 40 deals: never known exactly (read "0.0 to 0.0", "little", certain, before
    # paired_cost's floor), the rule of three on the deals that differ, none
    three = 100 * (1 - 0.05 ** (1 / 40))
    assert h["same_deals"] and h["price_pts"] == 0.0
    assert h["price_ci_pts"] == pytest.approx([-three, three]), h["price_ci_pts"]
    assert "(95% interval 0.0 to 0.0)" not in h["sentence"], h["sentence"]
    # Black & White: the same estimate, its interval the paired one, narrower than as if independent
    runs = tmp_path / "b"
    assert cli("ladder", "-g", "black-white", "-n", "60", "--seed", "1", "-j", "1", "-q", "--rungs",
               "balance,pimc@samples=2", "--runs", runs, "--out", tmp_path / "b.html").exit_code == 0
    (climbed,) = ladder.ladders([f for f in runs.iterdir() if f.is_dir()])
    top, ref = climbed.top, climbed.reference
    gain, low, high = ladder.price(climbed)
    independent = stats.mover_difference((ref.share, ref.low, ref.high), (top.share, top.low, top.high))
    assert gain == pytest.approx(ref.share - top.share)
    # narrower than as if independent (Student's paired 22.4 to 48.7 against MOVER's of two
    # Wilsons, 21.1 to 48.6: a symmetric interval need not lie inside an asymmetric one)
    assert low < gain < high and high - low < 0.97 * (independent[2] - independent[1]), (independent, low, high)


def test_the_duplicate_table_shows_its_figures_as_its_sentence_does():
    # before: the demo's duplicate report found "balance's win per seat held ± 0.78% against
    # ± 0.78% (0% narrower, worth 1.00 times the games)" beside a table of "0.00777 | 0.00778 |
    # 0.000912 | 1" (fractions, unlabelled), and a wider interval read "-2% narrower"
    import polars as pl

    from simtool.reports import balance

    gain = pl.DataFrame({"figure": ["win per seat held", "score per seat held"], "strategy": ["balance", "balance"],
                         "half_duplicate": [0.00777, 0.073], "half_rotate": [0.00778, 0.0716],
                         "narrower": [0.000912, -0.0202], "games_ratio": [1.0, 0.961]})
    _, rows = balance.worded(balance.duplicate_cells(gain))
    assert rows == [["win per seat held", "balance", "± 0.78%", "± 0.78%", "0%", "1.00"],
                    ["score per seat held", "balance", "± 0.0730", "± 0.0716", "-2%", "0.96"]]
    text = balance.duplicate_text(gain, "matches")
    assert "balance's win per seat held ± 0.78% against ± 0.78% (0% narrower, worth 1.00 times the games)" in text
    assert "(2% wider, worth 0.96 times the games)" in text


def test_the_tuning_page_says_what_its_figures_are_and_in_what_unit():
    # before: the demo's tuning page gave "seat_spread:min 0.0312 [0.0237, 0.0388]" and "skill:max
    # 0.5094" with no unit and no meaning, beside reviews of the same game whose seat edge is "2.2
    # points" and whose skill is "+29.7 points" (a search over random): another figure, one name
    from simtool.commands import tune
    from simtool.reports import tune as page

    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread:min", "skill:max", "overshoot=0.3"],
                            trials=4, n=1000, seed=1)
    assert page.figure_words(config) == (
        "seat_spread: the largest seat's win share less the smallest's, a fraction: 0.031 is 3.1 points of win "
        "share; skill: target's win share per seat at one seat among random (fair: 1/4), a fraction: 0.509 is "
        "50.9%; overshoot: the game's rate overshoot, a share of deals, seats pooled, a fraction: 0.509 is 50.9%; "
        "its distance to 0.3 is minimised")
    template = (Path(page.__file__).parent / "templates" / "tune.html.j2").read_text()
    assert "<dt>figures</dt><dd>{{ figures }}</dd>" in template


def test_a_changes_row_names_a_hazard_as_its_card_does():
    # before: the changes table read "Rate: overshoot" (Kansas City) and "Rate: queen (the most
    # exposed seat)" (Hearts) below the cards "Hazard: overshoot" and "Hazard: queen"
    result = {"questions": {"hazards": [{"name": "queen", "risk": True}, {"name": "moon", "risk": False}]},
              "changes": [{"question": q, "before": 0.25, "after": 0.25, "delta": 0.0, "ci": [-0.01, 0.01],
                           "better": None, "change": "no clear change"}
                          for q in ("hazards: queen (the most exposed seat)", "hazards: moon")]}
    assert [r["label"] for r in pages.change_rows(result)] == ["Hazard: queen (the most exposed seat)", "Rate: moon"]
