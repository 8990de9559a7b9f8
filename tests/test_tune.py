"""simtool tune: --vary and --objective parsing, resuming a study, known answers, the report."""

from __future__ import annotations

import json

import optuna
import polars as pl
import pytest

import simtool
from simtool import games, options
from simtool.cli import main
from simtool.commands import tune
from simtool.errors import SimtoolError

KC = games.get("kansas-city")


def test_option_kind_comes_from_its_values():
    kinds = {o.name: (o.kind, o.domain()) for o in KC.options}
    assert kinds["pass_count"] == ("integer", (0, 1, 2, 3))  # declared 3, 0, 1, 2: walked in order
    assert kinds["hands"] == ("categorical", ("3", "p"))
    assert kinds["limit"] == ("integer", tuple(range(1, 15)))  # a range: no value listed
    assert kinds["score_table"] == ("list", ())  # a tuner is given the tables to try
    ot = {o.name: o.kind for o in games.get("out-trumped").options}
    assert ot == {"wild": "categorical", "follow": "categorical", "kitty": "categorical"} | {
        k: "integer" for k in ("goal", "hand_size", "kitty_size", "sole_bonus", "trump_bonus",
                               "penalty", "ranks", "suits")}


def test_vary_forms():
    assert options.parse_vary(KC, ["pass_count"]) == {"pass_count": (0, 1, 2, 3)}
    assert options.parse_vary(KC, ["pass_count=1..3"]) == {"pass_count": (1, 2, 3)}
    assert options.parse_vary(KC, ["pass_count=3,0"]) == {"pass_count": (0, 3)}
    assert options.parse_vary(KC, ["pass_count = 0..1", "hands=p,3"]) == {
        "pass_count": (0, 1), "hands": ("3", "p")}


@pytest.mark.parametrize("vary, message", [
    ("nope", "unknown rule 'nope' to --vary for kansas-city; valid: pass_count, hands, limit, "
             "score_table, four_bonus, hand_size"),
    ("pass_count=0..9", "within 0..3"),
    ("pass_count=2..1", "A < B within 0..3"),
    ("pass_count=1..1", "A < B within 0..3"),
    ("pass_count=a..2", "whole numbers within 0..3"),
    ("pass_count=4,1", "bad rule pass_count '4' for kansas-city; expected one of 3, 0, 1, 2"),
    ("pass_count=1,1", "1 given twice"),
    ("pass_count=2", "name two values or more to vary (valid: 0, 1, 2, 3)"),
    ("pass_count=", "expected NAME, NAME=A..B or NAME=a,b,c"),
    ("hands=1..2", "a range needs whole-number values; list them instead (valid: 3, p)"),
    ("hands=3,x", "bad rule hands 'x' for kansas-city; expected one of 3, p"),
])
def test_bad_vary_is_one_line_exit_2(vary, message, capsys, tmp_path):
    code = main(["tune", "--game", "kansas-city", "--vary", vary, "--objective", "seat_spread",
                 "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("args, message", [
    (["--vary", "pass_count", "--vary", "pass_count=0..1"], "--vary pass_count given twice"),
    (["--objective", "bogus"], "unknown objective 'bogus' for kansas-city; valid: seat_spread, "
                               "first_seat_edge, skill, match_rounds, overshoot"),
    (["--objective", "overshoot"], "needs a target or a direction"),
    (["--objective", "overshoot=1.5"], "a rate's target is between 0 and 1"),
    (["--objective", "overshoot=x"], "expected overshoot=NUMBER"),
    (["--objective", "seat_spread:up"], "a direction is :min or :max"),
    (["--objective", "match_rounds=3:max"], ":max does not apply"),
    (["--objective", "skill", "--strong", "random"], "--strong and --weak are both random"),
    (["--objective", "seat_spread", "--objective", "seat_spread:min"], "given twice"),
    (["--rule", "pass_count=1"], "both varied and fixed"),
    (["--trials", "0"], "bad --trials 0"),
    (["--n", "-5"], "bad --n '-5'"),
    (["--lineup", "nosuch"], "nosuch"),
])
def test_bad_tuning_input_is_one_line_exit_2(args, message, capsys, tmp_path):
    base = ["tune", "--game", "kansas-city", "--out", str(tmp_path / "t")]
    if "--vary" not in args:
        base += ["--vary", "pass_count"]
    if "--objective" not in args:
        base += ["--objective", "seat_spread"]
    code = main(base + args)
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_sampler_covers_a_small_space_with_a_grid():
    small = tune.configure("kansas-city", ["pass_count", "hands"], ["seat_spread"], trials=8, n=100, seed=1)
    assert tune.sampler_name(small) == "grid"
    assert tune.sampler_name(tune.configure("kansas-city", ["pass_count", "hands"], ["seat_spread"],
                                            trials=5, n=100, seed=1)) == "tpe"
    assert tune.sampler_name(tune.configure("kansas-city", ["pass_count", "hands"],
                                            ["seat_spread", "skill"], trials=5, n=100, seed=1)) == "nsga2"


def test_known_answer_pass_count_against_a_target_overshoot_rate(tmp_path):
    """Plain runs measure the overshoot rate of each pass count; aimed at the rate of pass_count=1,
    the tuner (same deals: same seed and n) must measure exactly those rates and find 1."""
    n, seed = 1000, 11  # the same deals, so any n where pass_count=1's rate stands apart: 0.3615, others 0.353-0.356
    plain = {}
    for value in (0, 1, 2, 3):
        r = simtool.run("kansas-city", n, rules={"pass_count": value}, seed=seed, jobs=1)
        rate = r.seats.select((pl.col("overshoot") > 0).mean()).item()
        plain[value] = rate
    target = round(plain[1], 6)
    assert min(abs(plain[v] - target) for v in (0, 2, 3)) > abs(plain[1] - target)
    config = tune.configure("kansas-city", ["pass_count"], [f"overshoot={target}"], trials=10,
                            n=n, seed=seed)
    result = tune.tune(config, tmp_path / "t", jobs=1)
    trials = result["trials"]
    assert trials.height == 4 and set(trials["pass_count"]) == {"0", "1", "2", "3"}  # the grid, once each
    for row in trials.iter_rows(named=True):
        distance = abs(plain[int(row["pass_count"])] - target)
        assert row[f"overshoot={target}"] == pytest.approx(distance, abs=1e-9)
        assert row[f"overshoot={target}_low"] <= distance <= row[f"overshoot={target}_high"]
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(tmp_path / "t"))
    assert study.best_trial.params == {"pass_count": 1}
    # re-measured on fresh deals at 4x n, with the defaults; the best is picked on those figures
    confirmed = {c["label"]: c for c in result["confirmed"]}
    assert "defaults" in confirmed and confirmed["defaults"]["params"] == {"pass_count": 3}
    assert all(c["n"] == 4 * n and c["seed"] == seed + 1 for c in confirmed.values())
    assert f"trial {study.best_trial.number}" in confirmed


def test_known_answer_match_length(tmp_path):
    """Kansas City plays 3 hands, or one per player: a target of 4 rounds at 4 players is hands=p,
    and stays so when re-measured."""
    config = tune.configure("kansas-city", ["hands"], ["match_rounds=4"], trials=5, n=300, seed=2)
    assert config.unit == "match"
    result = tune.tune(config, tmp_path / "t", jobs=1)
    assert [b["params"] for b in result["best"]] == [{"hands": "p"}]
    assert result["best"][0]["values"]["match_rounds=4"][:1] == [0.0]


def test_skill_and_pareto_front(tmp_path):
    config = tune.configure("kansas-city", ["pass_count=1..3"], ["skill:max", "seat_spread"],
                            trials=5, n=1000, seed=4)
    result = tune.tune(config, tmp_path / "t", jobs=2)
    skill = result["trials"]["skill:max"].to_numpy()
    assert (skill > 0.25).all()  # target against random wins above the fair 1/4 per seat
    # every setting of the front stands for a trial; the sheet's pass_count=3 is one of them,
    # re-measured once as the defaults
    assert result["best"] and all(tune.trials_of(b) for b in result["best"])
    assert "Pareto front" in result["recommendation"] or "leads the re-measures" in result["recommendation"]
    html = (tmp_path / "r.html")
    from simtool.reports import tune as tune_report

    tune_report.write(result, html)
    text = html.read_text()
    assert "Pareto front" in text and text.count("<svg") == 3 and "<script" not in text


def test_an_interrupted_tuning_resumes_and_keeps_its_trials(tmp_path, monkeypatch, capsys, charts_undrawn):
    # its tune.html is looked for, not at: the charts are built, not drawn
    out = tmp_path / "t"
    args = ["tune", "--game", "kansas-city", "--vary", "pass_count", "--vary", "hands",
            "--objective", "seat_spread", "--n", "500", "--trials", "8", "--jobs", "1",
            "--out", str(out), "--quiet"]
    calls = {"n": 0}
    real = tune.measure

    def stop_in_the_third(*a, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(tune, "measure", stop_in_the_third)
    assert main(args) == 130
    err = capsys.readouterr().err
    assert "simtool tune --resume" in err and err.count("\n") == 1, err
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    first = {t.number: (t.params, t.values) for t in study.trials if t.state.name == "COMPLETE"}
    assert len(first) == 2
    assert not (out / "tune.html").exists()
    monkeypatch.setattr(tune, "measure", real)
    assert main(args) == 0  # the same command again (no --seed: the saved one is kept)
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    done = [t for t in study.trials if t.state.name == "COMPLETE"]
    assert len(done) == 8 and len({tuple(sorted(t.params.items())) for t in done}) == 8
    assert all(study.trials[k].params == p and study.trials[k].values == v for k, (p, v) in first.items())
    assert (out / "tune.html").exists()
    assert main(["tune", "--resume", str(out), "--quiet", "--jobs", "1"]) == 0  # nothing left: no new trial
    assert len(optuna.load_study(study_name="tune", storage=tune.storage_url(out)).trials) == len(study.trials)
    code = main(args[:-3] + ["--seed", "99", "--out", str(out)])
    assert code == 2 and "other settings (seed differs)" in capsys.readouterr().err


def test_resume_refuses_new_settings(tmp_path, capsys):
    code = main(["tune", "--resume", str(tmp_path / "none")])
    assert code == 2 and "nothing to resume" in capsys.readouterr().err
    with pytest.raises(SimtoolError, match="no tune.json"):
        tune.read_config(tmp_path)


def test_a_tuning_saved_before_new_rule_options_reads_them_at_their_defaults(tmp_path):
    config = tune.configure("kansas-city", ["pass_count=0..1"], ["overshoot=0.3"], trials=2, n=100, seed=5)
    (tmp_path / "tune.json").parent.mkdir(exist_ok=True)
    tune.save_config(tmp_path, config)
    saved = json.loads((tmp_path / "tune.json").read_text())
    saved["rules"] = {"hands": "3"}  # as written before limit, score_table... were options
    (tmp_path / "tune.json").write_text(json.dumps(saved))
    assert tune.read_config(tmp_path) == config
    tune.save_config(tmp_path, config)  # the same settings: no refusal


def test_report_has_best_settings_effects_and_every_trial(tmp_path):
    config = tune.configure("kansas-city", ["pass_count=0..1"], ["overshoot=0.3"], trials=4, n=400, seed=5)
    result = tune.tune(config, tmp_path / "t", jobs=1)
    from simtool.reports import tune as tune_report

    text = tune_report.render(result)
    assert "Best settings" in text and "defaults" in text and "overshoot=0.3 by pass_count" in text
    assert text.count("<svg") == 1 and "<script" not in text and "Pareto" not in text
    saved = json.loads((tmp_path / "t" / "tune.json").read_text())
    assert saved["sampler"] == "grid" and len(saved["confirmed"]) == 3  # defaults + both trials


def test_a_trial_cut_off_by_a_hard_stop_is_measured_again(tmp_path):
    """A killed process leaves its trial RUNNING in study.db: the next start measures that
    trial first, under its own number, so the grid is still covered once."""
    out = tmp_path / "t"
    config = tune.configure("kansas-city", ["pass_count"], ["seat_spread"], trials=4, n=300, seed=3)
    tune.save_config(out, config)
    stale = tune.open_study(config, out).ask(tune.distributions(config))
    result = tune.tune(config, out, jobs=1)
    study = optuna.load_study(study_name="tune", storage=tune.storage_url(out))
    assert study.trials[stale.number].state.name == "COMPLETE"
    assert study.trials[stale.number].params == stale.params and len(study.trials) == 4
    done = result["trials"].filter(pl.col("state") == "COMPLETE")
    assert sorted(done["pass_count"]) == ["0", "1", "2", "3"]


def test_a_tune_report_leaves_the_matplotlib_backend_as_it_was():
    """A notebook that writes a tune report keeps its inline plots: the charts are drawn on figures
    of their own, and the backend the user chose is not switched to Agg."""
    import matplotlib

    from simtool.reports import tune as tune_report

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        trials = pl.DataFrame({"trial": [0, 1, 2], "a": [1.0, 2.0, 3.0], "a_low": [.5, 1.5, 2.5],
                               "a_high": [1.5, 2.5, 3.5], "b": [3.0, 1.0, 2.0], "b_low": [2.5, .5, 1.5],
                               "b_high": [3.5, 1.5, 2.5], "pass_count": ["1", "2", "3"]})
        pareto = tune_report.pareto_plot(trials, ["a", "b"], {0, 1})
        effect = tune_report.effect_plot(trials, "pass_count", [1, 2, 3], "a", 2)
        assert matplotlib.get_backend() == "svg"
        assert pareto.startswith("<svg") and "Pareto front" in pareto
        assert effect.startswith("<svg") and "sheet default" in effect
    finally:
        matplotlib.use(before)
