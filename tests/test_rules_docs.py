"""The project explains itself: every game's complete rules are in docs/rules, with no pointer to
files a user who clones the project does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simtool import games

ROOT = Path(__file__).parents[1]
DESIGNERS = {"black-white": "Tsutomu Dejima", "kansas-city": "Chris Wray",
             "trickster": "Prototype A", "out-trumped": "Adam Boudreaux", "nine-lives": "Pandaqi",
             "hearts": "traditional"}


def test_no_pointer_outside_the_project():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text()
        for outside in ("../shared", "RULINGS.md", "seeds/"):
            assert outside not in text, f"{path.relative_to(ROOT)} mentions {outside}"


CITED = re.compile(r"(?<![\w/<>.-])((?:(?:simtool|strategies|tests|bench|docs|notebooks|reports)/[\w./-]+"
                   r"\.(?:py|md|toml|c|ipynb|j2))|[\w.-]+\.md)\b")
"""A file of the repository named in text: a path from the top (``simtool/games/hearts.py``) or a
document at the top (``README.md``); templates such as ``docs/rules/<game>.md`` are left out."""


def test_every_file_the_code_and_the_docs_cite_is_in_the_repository():
    """A docstring, comment or page naming a file (``docs/rules/hearts.md``, ``README.md``,
    ``simtool/pipeline/runner.py``) names one a clone has: the rules live in docs/rules, not in a
    file of the designers' own, and a module that moved is cited where it is now."""
    texts = [p for folder in ("simtool", "strategies", "tests", "bench") for p in (ROOT / folder).rglob("*.py")]
    texts += [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    cited = set()
    for path in sorted(texts):
        if path.name != "test_rules_docs.py":  # it names files that must not be cited
            cited |= {(m, path) for m in CITED.findall(path.read_text())}
    assert {m for m, _ in cited} >= {"README.md", "docs/rules/hearts.md", "simtool/games/hearts.py"}
    # from the top, or (a page's link) beside the page
    missing = sorted((str(where.relative_to(ROOT)), m) for m, where in cited
                     if not (ROOT / m).is_file() and not (where.parent / m).is_file())
    assert not missing, missing


@pytest.mark.parametrize("game", games.BUILT_IN, ids=lambda g: g.id)
def test_rules_page_is_complete(game):
    text = (ROOT / "docs" / "rules" / f"{game.id}.md").read_text()
    assert DESIGNERS[game.id] in text
    for heading in ("## The rules", "**The match.**", "**What each seat knows.**",
                    "**The reference random policy (`random`).**", "## Where the"):
        assert heading in text, heading
    players = re.search(r"\*\*Players[^*]*\*\*(.*?)\n\n", text, re.S).group(1)
    low, high = min(game.players), max(game.players)
    assert f"{low} to {high}" in players or all(str(p) in players for p in game.players)
    for option in game.options:  # every rule option, with every value it takes
        row = re.search(rf"^\| `{option.name}` \|(.*)$", text, re.M)
        assert row, option.name
        listed = row.group(1)
        span = re.search(r"`(\d+)`\.\.`(\d+)`", listed) if option.kind == "integer" else None
        if span:  # a whole-number option may give its values as a range: `low`..`high`
            assert int(span[1]) == min(option.domain()) and int(span[2]) == max(option.domain()), option.name
            assert f"`{option.default}`" in listed, (option.name, option.default)
            continue
        for value in option.values:
            assert f"`{value}`" in listed, (option.name, value)
    if not game.options:
        assert "**Options.** None" in text
