"""A game designer's read of the README and docs (designer20): what a sentence says must hold."""

from pathlib import Path

from simtool.analysis import ladder, verdicts


def test_still_gaining_does_not_claim_at_least_a_point_of_an_interval_from_below_it():
    # docs/review.md: still gaining when the doubling's gain is at least 1 point and surely above
    # 0. Hearts with jack=on (make demo) read "still buys +5.5 points (0.3 to 11.2), at least 1":
    # the interval beside it reaches 0.3, so "at least 1" read as false of the interval
    said = verdicts.skill_verdict((5.0, 4.0, 6.0), (12.0, 8.0, 16.0), (5.5, 0.3, 11.2), 500).sentence
    assert "still buys +5.5 points (0.3 to 11.2): surely above 0, and 1 point or more at its estimate" in said
    assert "at least 1" not in said
    rung = ladder.Rung(2, "pimc@samples=8", "pimc@samples=4", 0.30, 0.2502, 0.35, 0.25, 0.0, Path("."))
    text = ladder.convergence(ladder.Ladder("kansas-city", 4, {}, "deal", [rung]))
    assert text.startswith("Still gaining:") and "at least 1 point" not in text
    assert text.endswith("(surely above fair, and 1 point or more at its estimate).")


def test_the_tours_report_reads_folders_an_earlier_command_of_the_block_writes():
    # README's and docs/cli.md's blocks ran 'simtool report runs/kc-a runs/kc-b', folders no
    # command of the page writes: 'error: runs/kc-a is not a finished run folder: there is no such
    # folder' for a designer pasting the tour. Each folder a report reads is now an earlier
    # line's --out, or a cell of its --runs
    import re
    import shlex

    root = Path(__file__).parents[1]
    for doc in ("README.md", "docs/cli.md"):
        block = next(b for b in re.findall(r"```sh\n(.*?)```", (root / doc).read_text(), re.S) if "simtool report" in b)
        written: list[str] = []
        for line in block.splitlines():
            words = shlex.split(line.split("  #")[0])
            if words[1:2] == ["report"]:
                folders = words[2:words.index("-o")]
                made = [f for f in folders if any(f == w or f.startswith(w + "/") for w in written)]
                assert folders and made == folders, (doc, line)
            written += [words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--out", "--runs")]


def test_a_share_short_of_all_never_reads_all_and_no_doubt():
    # docs/language.md: a share is shown to its first significant figure where a tenth would hide
    # it, "never 0.0% (0.0–0.1), which reads as none and no doubt". The other end read so:
    # `simtool run --game kansas-city --players 5 --seat 0=greedy --rule hands=p --unit match`
    # (docs/cli.md) printed every one of 100,000 matches at 5 rounds "100.0% (100.0–100.0)",
    # Wilson's lower end being 99.996%
    from simtool import stats

    low, high = stats.wilson_one(100_000, 100_000)
    assert stats.fmt_rate(1.0, low, high) == "100.0% (99.996–100.0)"
    assert stats.fmt_share(1.0, low, high) == "100.0% (99.996–100.0%)"
    assert stats.percent(0.9997) == "99.97" and stats.percent(0.96) == "96.0" and stats.percent(1.0) == "100.0"
    assert stats.fmt_rate(1.0, 0.207, 1.0) == "100.0% (20.7–100.0)"  # as before


def test_a_tuning_page_written_elsewhere_says_where_its_study_is(tmp_path, charts_undrawn):
    # make demo writes its tuning's page to reports/tune.html, the study in runs/demo-tune: the page
    # said "The study is in study.db next to this page ... runs under runs/", neither of which is there
    import json

    from simtool import tune
    from simtool.reports import tune as page

    config = tune.configure("kansas-city", ["pass_count=0..1"], ["overshoot=0.3"], trials=2, n=200, seed=5)
    result = tune.tune(config, tmp_path / "runs" / "t", jobs=1)
    assert json.loads((tmp_path / "runs" / "t" / "tune.json").read_text())["game"] == "kansas-city"
    own = page.write(result, tmp_path / "runs" / "t" / "tune.html").read_text()
    assert "The study is in study.db next to this page" in own  # beside it: as before
    text = page.write(result, tmp_path / "reports" / "tune.html").read_text()
    assert "next to this page" not in text
    assert "The study is in ../runs/t/study.db, from this page" in text
    assert "plain run folders under ../runs/t/runs/" in text


def test_the_examples_leave_make_demos_pages_alone():
    # docs/cli.md's 'simtool restrict ... --report reports/restrict.html' replaced the page make demo
    # writes there (Kansas City and Out-Trumped with the kitty bid) with one of Kansas City alone
    import re

    root = Path(__file__).parents[1]
    demo = set(re.findall(r"--out (reports/\S+\.html)|--report (reports/\S+\.html)", (root / "Makefile").read_text()))
    pages = {a or b for a, b in demo}
    assert pages == {"reports/balance.html", "reports/duplicate.html", "reports/restrict.html", "reports/tune.html"}
    for doc in ("README.md", "docs/cli.md"):
        for block in re.findall(r"```sh\n(.*?)```", (root / doc).read_text(), re.S):
            assert not {p for p in pages if re.search(rf"(-o|--out|--report) {re.escape(p)}\b", block)}, doc


def test_a_pages_verdicts_stand_beside_their_own_thresholds(tmp_path, charts_undrawn):
    # make demo's reports/restrict.html and a ladder's page showed restricted play's and the
    # ladder's verdicts ("a rule nobody needs to think about", "every rung beats the one below")
    # over a legend of the seats' and rates' thresholds alone, verdicts they do not show
    import simtool
    from simtool.reports import balance

    _, ladder_runs = simtool.ladder.climb("black-white", tmp_path / "lad", n=200, seed=1, jobs=1,
                                          rungs=["random", "balance"])
    _, restricted = simtool.restrict.measure("kansas-city", tmp_path / "res", n=200, seed=1, jobs=1,
                                             restrictions=["no-upgrade"])
    run = tmp_path / "run"
    simtool.run("black-white", n=200, seed=1, jobs=1, out=run)

    def legend(paths) -> str:
        html = balance.write([Path(p) for p in paths], tmp_path / f"{len(paths)}-{Path(paths[0]).parent.name}.html")
        return html.read_text().split('<section class="verdicts"', 1)[1].split("</section>", 1)[0]

    seats, rung, cost = "Seats: fair when", "Skill ladder: a rung pays when", "Restricted play: Crude play is worded"
    ladder_page, restrict_page, run_page = legend(ladder_runs), legend(restricted), legend([run])
    assert rung in ladder_page and seats not in ladder_page and cost not in ladder_page
    # the review's words since tests/test_words31.py
    assert "nearly as good &lt; 1 point, costs &gt;= 1" in restrict_page
    assert seats not in restrict_page and rung not in restrict_page
    assert seats in run_page and rung not in run_page and cost not in run_page
