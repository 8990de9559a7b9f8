"""A plugin that copies the built-in clairvoyant's Strategy object (tests/test_clairvoyant.py): it
must get re-dealt worlds, never the true deal. A file of its own: beside seer.py's function
``clairvoyant`` the name would mean two strategies, which simtool refuses."""

import strategies
from strategies import Strategy

# a Strategy object of the built-in's very name and choice function: loaded as a plugin, it is
# labelled by its file and plays with re-dealt worlds
copied = Strategy("clairvoyant", strategies.BUILT_IN[-1].choose, "a copy", None, "built-in",
                  strategies.BUILT_IN[-1].params)
