"""``simtool run --rotate --duplicate`` recorded ``rotate: false`` and said nothing: refused in one
line naming why (--duplicate rotates the line-up already)."""

from __future__ import annotations

from .test_cli import cli, one_line_error


def test_rotate_with_duplicate_is_refused_naming_why(tmp_path):
    r = cli("run", "--game", "kansas-city", "--n", "200", "--seed", "1", "--jobs", "1", "--seat", "0=greedy",
            "--rotate", "--duplicate", "--out", tmp_path / "d")
    one_line_error(r, "--rotate with --duplicate", "once per rotation of the line-up", "give --duplicate alone")
    assert not (tmp_path / "d").exists()


def test_duplicate_alone_still_runs(tmp_path):
    r = cli("run", "--game", "kansas-city", "--n", "200", "--seed", "1", "--jobs", "1", "--seat", "0=greedy",
            "--duplicate", "--quiet", "--out", tmp_path / "d")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "d" / "seats.parquet").is_file()


def test_the_python_api_refuses_it_too():
    import pytest

    import simtool
    from simtool.errors import SimtoolError

    with pytest.raises(SimtoolError, match=r"^rotate=True with duplicate=True: duplicate already plays every deal "
                                           r"once per rotation of the line-up, .*; give duplicate=True alone$"):
        simtool.run("kansas-city", 200, seats={0: "greedy"}, rotate=True, duplicate=True, seed=1)


def test_a_sweep_with_rotate_and_duplicate_is_refused(tmp_path):
    # before: exit 0, every cell's run.json "rotate": false, nothing said
    r = cli("sweep", "--game", "hearts", "--n", "100", "--rotate", "--duplicate", "--jobs", "1", "--quiet",
            "--runs", tmp_path / "runs", "-o", tmp_path / "sweep.html")
    one_line_error(r, "rotate with duplicate: duplicate already plays every deal once per rotation", "leave out rotate")
    assert not (tmp_path / "runs").exists()
    grid = tmp_path / "grid.toml"
    grid.write_text('games = ["hearts"]\nn = 100\nrotate = true\nduplicate = true\n')
    one_line_error(cli("sweep", grid, "--jobs", "1", "--quiet", "--runs", tmp_path / "runs"), "leave out rotate")


def test_a_replay_with_rotate_and_duplicate_is_refused():
    # before: a deal of a run no command plays written out, exit 0
    r = cli("replay", "--game", "hearts", "--seed", "1", "--deal", "0", "--rotate", "--duplicate")
    one_line_error(r, "--rotate with --duplicate", "give --duplicate alone")
