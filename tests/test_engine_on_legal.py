"""The engine asks a strategy whose choice reads only the legal sets (``random``) without a view
(``engine._on_legal``): the same picks, from the same draws, as through a view."""

import pytest

import simtool
from simtool import bits, engine
from strategies import basic


def _views_made(monkeypatch) -> list[int]:
    made = [0]
    real = engine.View.__init__

    def counted(self, *args, **kwargs):
        made[0] += 1
        real(self, *args, **kwargs)

    monkeypatch.setattr(engine.View, "__init__", counted)
    return made


@pytest.mark.parametrize("game,unit", [("black-white", "deal"), ("kansas-city", "match"), ("hearts", "deal")])
def test_random_without_a_view_plays_as_through_one(monkeypatch, game, unit):
    made = _views_made(monkeypatch)
    fast = simtool.run(game, n=600, strategy="random", unit=unit, seed=4, jobs=1)
    assert made[0] == 0  # every decision of an all-random run went without a view
    monkeypatch.delattr(basic.random.choose, "on_legal")
    through_views = simtool.run(game, n=600, strategy="random", unit=unit, seed=4, jobs=1)
    assert made[0] > 0
    assert fast.seats.equals(through_views.seats)
    assert fast.matches is None or fast.matches.equals(through_views.matches)


def test_a_strategy_beside_it_still_gets_its_view(monkeypatch):
    made = _views_made(monkeypatch)
    simtool.run("black-white", n=300, strategy="random", seats={0: "balance"}, seed=4, jobs=1)
    assert made[0] > 0  # balance's decisions, and none of random's
    assert engine._on_legal(basic.random) is bits.uniform
    assert engine._on_legal(basic.high) is None


def test_a_plugin_wrapping_random_with_functools_wraps_is_asked_itself(tmp_path):
    # functools.wraps copies random's attributes onto the wrapper: it must still play its own picks
    (tmp_path / "low.py").write_text(
        "import functools\n"
        "from strategies import basic, strategy\n"
        "@strategy('low', 'the lowest legal option')\n"
        "@functools.wraps(basic.random.choose)\n"
        "def low(view, rng):\n"
        "    return basic.low.choose(view, rng)\n")
    plugin = simtool.run("black-white", n=300, strategy=f"{tmp_path / 'low.py'}:low", seed=5, jobs=1)
    built_in = simtool.run("black-white", n=300, strategy="low", seed=5, jobs=1)
    assert plugin.seats["score"].equals(built_in.seats["score"])
