"""The docs' examples, run as a designer would copy them (at a small n): docs must match the tool."""

import re
from pathlib import Path

import pytest

import simtool

pytestmark = pytest.mark.usefixtures("charts_undrawn")  # no test here looks at a report's charts

ROOT = Path(__file__).parents[1]


def blocks(doc: str, lang: str) -> list[str]:
    """The fenced code blocks of one language in a doc, indentation removed."""
    text = (ROOT / doc).read_text()
    found = re.finditer(rf"^( *)```{lang}\n(.*?)^\1```", text, re.S | re.M)
    return ["\n".join(line[len(m.group(1)):] for line in m.group(2).splitlines()) + "\n" for m in found]


def test_metrics_example_makes_every_folder_it_reads(tmp_path, monkeypatch):
    # docs/metrics.md's example read runs/hearts-random and runs/hearts-order without making them
    code = blocks("docs/metrics.md", "python")[0]
    monkeypatch.chdir(tmp_path)
    play, measure, got = simtool.run, simtool.metrics, {}

    # the doc's sizes take a minute; the same line-ups at 8 deals (2 a rotation), the search at
    # every seat recording its lead history at 2 (every metric the example names is made of 2 deals
    # as of 8, and the search's deals were two thirds of this test's CPU)
    def small(game, n, **kw):
        few = 2 if kw.get("lead_history") else 8
        return play(game, min(n, few), **{**kw, "lead_history": kw.get("lead_history") and few})

    monkeypatch.setattr(simtool, "run", small)
    monkeypatch.setattr(simtool, "metrics", lambda folders: got.update(measure(folders)))
    exec(compile(code, "docs/metrics.md", "exec"), {})
    assert {"fairness", "order", "drama", "security", "convergence"} <= set(got)


def test_plugins_doc_names_every_built_in_strategy():
    # docs/plugins.md's list of built-ins left out ruffer, ismcts, ducker and hunter
    import strategies

    listed = (ROOT / "docs/plugins.md").read_text().split("**`pimc`, the built-in search**")[0]
    searched = {"pimc", "clairvoyant"}  # the search and its reference have paragraphs of their own
    # the built-ins only: a designer's installed strategy package failed this test (['spades-basic'])
    built_in = [s.name for s in strategies.BUILT_IN]
    assert {"random", "ducker", "pimc"} <= set(built_in)
    assert [name for name in built_in if f"`{name}`" not in listed and name not in searched] == []


def test_plugins_doc_gives_pimc_infer_defaults_of_the_code():
    # docs/plugins.md said Nine Lives' default was infer=2; the code's has been 1 since 8ccf36d
    from strategies import pimc

    text = " ".join((ROOT / "docs/plugins.md").read_text().split())
    said = re.search(r"0, none, by default, (\d+) in Nine Lives and (\d+) in Out-Trumped", text)
    infer = next(p for p in pimc.pimc.params if p.name == "infer")
    assert (int(said[1]), int(said[2])) == (infer.default_for("nine-lives"), infer.default_for("out-trumped"))


def test_plugins_doc_names_every_command_with_timeout():
    # docs/plugins.md said --timeout was on run and sweep; ladder and restrict take it too
    from typer.testing import CliRunner

    from simtool.cli import app

    text = " ".join((ROOT / "docs/plugins.md").read_text().split())
    said = set(re.findall(r"`(\w+)`", re.search(r"`--timeout SECONDS` \(on (.*?), off by default", text)[1]))
    commands = ["run", "report", "sweep", "tune", "ladder", "restrict", "review", "replay"]
    taking = {c for c in commands if "--timeout" in CliRunner().invoke(app, [c, "--help"]).output}
    assert said == taking


def test_plugins_doc_names_every_pimc_parameter():
    # docs/plugins.md's list of pimc's parameters left out `own` and the value `margin`
    from strategies import pimc

    doc = (ROOT / "docs/plugins.md").read_text()
    text = doc.split("**`pimc`, the built-in search**")[1].split("**Parameters.**")[0]
    names = [p.name for p in pimc.pimc.params] + [v for p in pimc.pimc.params if p.name == "value" for v in p.values]
    assert [name for name in names if f"`{name}`" not in text] == []


def top_keys(text: str) -> set[str]:
    """The keys of the outermost object of a sketch of JSON (``# comments`` left out)."""
    text = re.sub(r"#[^\n]*", "", text)
    depth, found = 0, set()
    for m in re.finditer(r'[{}\[\]]|"(\w+)":', text):
        if m[1] is None:
            depth += 1 if m[0] in "{[" else -1
        elif depth == 1:
            found.add(m[1])
    return found


def test_review_json_schema_says_which_keys_come_with_a_comparison(bw_review):
    # docs/review.md listed comparison and changes as keys of every review.json; they come only
    # with --vs-rule or --baseline, as versus does
    import json

    block = blocks("docs/review.md", "")[1]
    always, compared = block.split("# these three only with --vs-rule or --baseline")
    assert top_keys(always) == set(json.loads((bw_review[0] / "review.json").read_text()))
    assert top_keys("{" + compared) == {"versus", "comparison", "changes"}


def test_readme_python_names_of_the_other_commands_run(tmp_path):
    # the README named tune.tune as the Python of `simtool tune`; it takes a tune.configure(...)
    # (a Config), not the command's arguments, and docs/cli.md called the module simtool.tune
    readme = (ROOT / "README.md").read_text()
    assert "`tune.tune(tune.configure(...), out)`" in readme
    assert "`simtool.tune.configure` and `simtool.tune.tune`" in (ROOT / "docs/cli.md").read_text()
    config = simtool.tune.configure("kansas-city", ["pass_count=2,3"], ["seat_spread"], n=200, trials=2, seed=1)
    result = simtool.tune.tune(config, tmp_path / "tune", jobs=1)
    assert len(result["trials"]) == 2


@pytest.mark.parametrize("args", [["run", "--lead-history", "{}", "--n", "10", "-q", "-j", "1", "--out", "{out}"],
                                  ["replay", "--seed", "1", "--deal", "{}"]])
def test_cli_doc_on_whole_number_options_is_what_they_take(args, tmp_path):
    # docs/cli.md said --trials, --lead-history, --deal and --match take digits only, 1e3 refused;
    # since 5730c1c they read 1e3 as --n does, and refuse 1.5
    from typer.testing import CliRunner

    from simtool.cli import app

    text = " ".join((ROOT / "docs/cli.md").read_text().split())
    assert "`--deal` and `--match` read the same way (`1e3` is 1000; `1.5` is refused" in text
    run = lambda value: CliRunner().invoke(app, [a.format(value, out=tmp_path / value) for a in args])  # noqa: E731
    assert run("1e3").exit_code == 0
    refused = run("1.5")
    assert refused.exit_code == 2 and "expected a whole number" in refused.output


def test_a_sweep_of_one_cell_says_one_cell(tmp_path):
    # `simtool sweep` of one cell ended "1 cells in ...", a ladder of two rungs "1 rung runs in ..."
    from typer.testing import CliRunner

    from simtool.cli import app

    r = CliRunner().invoke(app, ["sweep", "--game", "black-white", "--n", "10", "--seed", "1", "-j", "1",
                                 "--runs", str(tmp_path / "s"), "-o", str(tmp_path / "s.html")])
    assert r.exit_code == 0 and "\n1 cell in " in r.output, r.output
    r = CliRunner().invoke(app, ["ladder", "--game", "black-white", "--rungs", "random,balance", "--n", "10", "--seed",
                                 "1", "-j", "1", "--runs", str(tmp_path / "l"), "-o", str(tmp_path / "l.html")])
    assert r.exit_code == 0 and "\n1 rung run in " in r.output, r.output


def test_sweep_help_gives_the_n_a_sweep_plays(tmp_path):
    # `simtool sweep --help` gave no default for --n (every other playing command shows its own)
    from typer.testing import CliRunner

    from simtool.cli import app

    said = re.search(r"default: the grid file's n, else (\S+?)\)", " ".join(CliRunner().invoke(
        app, ["sweep", "--help"]).output.split()))
    r = CliRunner().invoke(app, ["sweep", "--game", "black-white", "--seed", "1", "-j", "1",
                                 "--runs", str(tmp_path / "s"), "-o", str(tmp_path / "s.html")])
    assert said and f"1 cell, {int(float(said[1])):,} deals in" in r.output, r.output


def test_cli_doc_names_every_option_of_every_command():
    # docs/cli.md, 'every command in full', named no --title, --isolate, --reference, --fields,
    # --effort, --baseline, --vs-rule, --quiet, nor a sweep's --no- flags
    from typer.testing import CliRunner

    from simtool.cli import app

    doc = (ROOT / "docs/cli.md").read_text()
    commands = ["run", "report", "sweep", "tune", "ladder", "restrict", "review", "replay", "games", "strategies"]
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*(?![\w-])", doc))
    shown = {c: set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", CliRunner().invoke(app, [c, "--help"]).output))
             for c in commands}
    missing = {c: sorted(options - named - {"--help"}) for c, options in shown.items()}
    assert {c: m for c, m in missing.items() if m} == {}


@pytest.mark.parametrize("doc", ["README.md", "docs/cli.md"])
def test_python_run_example_runs(doc, monkeypatch):
    # the README's and docs/cli.md's simtool.run example, at 2,000 deals instead of 100,000
    code = next(b for b in blocks(doc, "python") if "simtool.run(" in b and "r.summary()" in b)
    play = simtool.run
    monkeypatch.setattr(simtool, "run", lambda *a, **kw: play(*a, **{**kw, "n": min(kw["n"], 2000)}))
    scope = {}
    exec(compile(code, doc, "exec"), scope)
    r = scope["r"]
    assert r.seats.height == 2000 * 3 and r.seats.to_pandas().shape[0] == 6000
    assert {"win", "win_low", "win_high", "balanced"} <= set(r.summary().columns)
    assert "By seat and strategy" in r.tables()


def test_plugins_doc_examples_are_the_readme_ones_it_runs():
    # docs/plugins.md repeats the README's my_strategy.py and my_search.py, which tests/test_readme.py
    # runs: a copy edited on one page only would go untested
    def files(doc):
        return {b.splitlines()[0]: b for b in blocks(doc, "python") if b.startswith("# my_")}

    assert files("docs/plugins.md") == files("README.md") and len(files("README.md")) == 2


def test_run_summary_names_the_rules_it_played(tmp_path):
    # `simtool run --game kansas-city --rule pass_count=2` (docs/cli.md's overshoot example) printed
    # "Kansas City: 4 players, 1,000 deals, seed 2, ...": nothing on screen said which rules
    from typer.testing import CliRunner

    from simtool.cli import app

    def first_line(*rules):
        args = ["run", "--game", "kansas-city", "--n", "50", "--seed", "1", "-j", "1",
                "--out", str(tmp_path / "_".join(("run",) + rules))]
        r = CliRunner().invoke(app, args + [a for rule in rules for a in ("--rule", rule)])
        assert r.exit_code == 0, r.output
        return r.output.splitlines()[0]

    assert "Kansas City: 4 players, rules pass_count=2, four_bonus=0, 50 deals, seed 1" in first_line(
        "pass_count=2", "four_bonus=0")
    assert "Kansas City: 4 players, 50 deals, seed 1" in first_line()


def test_two_runs_in_one_second_get_two_default_folders(tmp_path, monkeypatch):
    # docs/cli.md: --out defaults to runs/<game>-<timestamp>/; two runs within one second (a loop
    # in a script) met in one folder, the second refused "use --force to replace it"
    from datetime import datetime

    from typer.testing import CliRunner

    import simtool.cli as cli

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 11, 27, 8, 0, 0)

    monkeypatch.setattr(cli, "datetime", Frozen)
    monkeypatch.chdir(tmp_path)
    folders = []
    for seed in ("1", "2"):
        r = CliRunner().invoke(cli.app, ["run", "--n", "10", "--seed", seed, "-j", "1", "-q"])
        assert r.exit_code == 0, r.output
        folders.append(r.output.strip())
    assert folders == ["runs/black-white-20261127-080000", "runs/black-white-20261127-080000-2"]
    assert all((tmp_path / f / "run.json").exists() for f in folders)


def test_new_game_pyproject_installs_beside_simtools_own_folders(tmp_path):
    # docs/new-game.md's pyproject.toml left package discovery to setuptools: once `simtool run`
    # had written runs/ in the package's folder, `pip install -e .` refused ("Multiple top-level
    # packages discovered in a flat-layout")
    import subprocess
    import sys

    (toml,) = blocks("docs/new-game.md", "toml")
    (tmp_path / "pyproject.toml").write_text(toml)
    for folder in ("my_game", "runs/my-game-1", "reports", "reviews/my-game"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "my_game" / "__init__.py").write_text("")
    done = subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "egg_info"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-400:]
    info = tmp_path / "my_game.egg-info"
    assert (info / "top_level.txt").read_text().split() == ["my_game"]
    assert "my-game = my_game.game:GAME" in (info / "entry_points.txt").read_text()


def test_new_game_review_commands_parse():
    # docs/new-game.md's 'Review it' gave `simtool review --game hearts` without the --out it
    # requires: "error: Missing option '--out'"
    import typer

    from simtool.cli import app

    text = " ".join((ROOT / "docs/new-game.md").read_text().split())
    commands = re.findall(r"`simtool review ([^`]*)`", text)
    review = typer.main.get_command(app).commands["review"]
    for args in commands:
        review.make_context("review", args.replace("my-game", "hearts").split())
    assert len(commands) == 2


def test_conformance_commands_name_the_module_the_entry_point_names():
    # the README ran the suite on `my_game:GAME` while docs/new-game.md's package keeps GAME in
    # my_game/game.py (its entry point `my_game.game:GAME`): copied, it stopped with an ImportError
    # (the misnamed `my_game.game:GAMES:` of the error example is no command)
    (toml,) = blocks("docs/new-game.md", "toml")
    (entry,) = re.findall(r'^my-game = "([^"]+)"', toml, re.M)
    named = [re.findall(r"--simtool-game (my_game[\w.]*:\w+)(?![\w:])", (ROOT / doc).read_text())
             for doc in ("README.md", "docs/new-game.md")]
    assert all(names and set(names) == {entry} for names in named), (entry, named)


def test_new_game_option_example_declares_what_the_page_says():
    # docs/new-game.md named `Option` without its module or arguments (Option(name, values, help));
    # a designer had to read simtool's code to declare a rule option
    import simtool.options

    text = " ".join((ROOT / "docs/new-game.md").read_text().split())
    assert "from `simtool.options`" in text and "`Option(name, values, help)`" in text
    example = re.search(r'`(Option\("moon", [^`]*)`', text).group(1).replace('"..."', '"moon rule"')
    option = eval(example, vars(simtool.options))
    assert (option.name, option.values[0], option.help) == ("moon", "add", "moon rule")
    from simtool.games.hearts import GAME

    assert {"moon": option.values} == {o.name: o.values for o in GAME.options if o.name == "moon"}


def test_new_game_models_are_as_long_as_the_page_says():
    # docs/new-game.md called its two model games "160 to 200 lines"; whist.py has 158
    text = " ".join((ROOT / "docs/new-game.md").read_text().split())
    low, high = map(int, re.search(r"each one module of (\d+) to (\d+) lines", text).groups())
    for model in ("whist.py", "oh_hell.py"):
        assert low <= len((ROOT / "tests/designer_games" / model).read_text().splitlines()) <= high, model
