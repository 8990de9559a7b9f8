"""Each game's built-in heuristic as a plugin file: plugins that read their views' fields as real
strategies do (tests/test_isolate.py, bench/isolate.py)."""

from strategies.black_white import balance  # noqa: F401 - each a plugin, by its name in this file
from strategies.hearts import ducker  # noqa: F401
from strategies.kansas_city import target  # noqa: F401
from strategies.nine_lives import exact  # noqa: F401
from strategies.out_trumped import hoarder  # noqa: F401
from strategies.trickster import safe  # noqa: F401
