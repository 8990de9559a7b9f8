"""A plugin whose name is HTML: a report must show it as text, never as markup."""

from simtool import bits
from strategies import strategy


@strategy("<script>alert('x')</script>&<b>bold</b>", "plays its lowest legal option")
def markup(view, rng):
    return bits.lowest(view.legal)
