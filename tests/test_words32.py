"""What a designer reads first: the run's title line whole."""
import re

from typer.testing import CliRunner

from simtool.cli import app


def test_the_run_title_is_one_line_whatever_the_table_is_wide(tmp_path):
    # as the seat table's title it wrapped to the table's width (86 columns): "... 1.35 s (73,964"
    # and "deals/s)" on the next line, and a fresh seed's 19 digits could be cut off "seed"
    args = ["run", "--game", "kansas-city", "--n", "50", "--seed", "3631165605384430999", "-j", "1",
            "--rule", "pass_count=2", "--rule", "four_bonus=0", "--out", str(tmp_path / "run")]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    first, second = r.output.splitlines()[:2]
    assert re.fullmatch(r"Kansas City: 4 players, rules pass_count=2, four_bonus=0, 50 deals, "
                        r"seed 3631165605384430999, \d+\.\d\d s \([\d,]+ deals/s\)", first), first
    assert len(first) > len(second) and second.startswith("┏")  # the table, narrower, below it


def test_a_long_folder_is_printed_whole_on_its_line(tmp_path, capsys):
    # piped, a line is 160 columns: `simtool report` printed a 190-character path as two lines, cut
    # inside a folder's name, and the run's "Results:" its folder on the next line, cut the same way
    # (replay's note on an unfinished run, test_replay31, ended "chunk is in chunks/", "already" below)
    from simtool.cli import main

    folder = tmp_path / ("a" * 90) / ("b" * 60) / "run"
    assert main(["run", "--game", "black-white", "--n", "20", "--seed", "1", "--out", str(folder)]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "Results: " in line]
    assert len(said) == 1 and said[0].endswith(f"Results: {folder}"), said
    page = folder / "page.html"
    assert main(["report", str(folder), "--out", str(page)]) == 0
    assert capsys.readouterr().out.splitlines() == [str(page)]
