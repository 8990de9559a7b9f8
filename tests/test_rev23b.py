"""Review of hostile round 23 (rev23b): the suggested commands it quoted, the tuning's check of
settings, bootstrap totals. Each test failed on the code before its fix."""

from __future__ import annotations

import shlex

from .test_cli import cli

TUNE = ["tune", "--game", "black-white", "--vary", "deck=34,36", "--trials", "2", "--seed", "1", "--jobs", "1", "-q",
        "--objective", "seat_spread"]


def test_the_resume_a_tuning_of_other_settings_suggests_runs_as_pasted(tmp_path):
    # failed before: "my t holds a tuning with other settings (n differs); resume it with --resume
    # my t": pasted, --resume got the folder "my" and an extra argument "t" (hostile23 quoted every
    # other suggested --resume)
    out = tmp_path / "my t"
    assert cli(*TUNE, "--n", "300", "--out", out).exit_code == 0
    r = cli(*TUNE, "--n", "400", "--out", out)
    assert r.exit_code == 2, r.output
    suggested = r.output.split("resume it with ", 1)[1].split(", or choose", 1)[0]
    assert shlex.split(suggested) == ["--resume", str(out)], suggested
    assert cli("tune", *shlex.split(suggested), "-q", "--jobs", "1").exit_code == 0
