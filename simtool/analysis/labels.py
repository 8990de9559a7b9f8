"""Names as plain text, of a size a chart or a table can hold.

A strategy's name is its author's (a plugin may call itself ``$\\alpha$``, ``[bold]`` or 3000
characters): matplotlib must not read it as mathtext or LaTeX, rich not as markup, and HTML shows
it escaped. A long name is clipped where it labels a chart or a table cell; the full name stays
in the cell's ``title`` (shown on hover) and in the run's set-up.
"""

from __future__ import annotations

from markupsafe import Markup, escape

LIMIT = 40
"""The longest label shown whole."""
TAIL = 12
"""Characters kept from a clipped name's end: plugin names differ most at their ends."""


def clip(name, limit: int = LIMIT) -> str:
    """``name`` whole if short, else its start, ``…`` and its end, ``limit`` characters in all."""
    name = str(name)
    if len(name) <= limit:
        return name
    return f"{name[:limit - TAIL - 1]}…{name[-TAIL:]}"


def html(name, limit: int = LIMIT, not_fair=frozenset()) -> Markup:
    """``name`` for an HTML page: escaped, clipped when long with the whole in a ``title``; marked
    as not a fair player when it is one of ``not_fair`` (a run's ``not_fair`` list)."""
    name = str(name)
    shown = escape(name) if len(name) <= limit else Markup('<span title="{}">{}</span>').format(
        name, clip(name, limit))
    return shown + NOT_FAIR if name in not_fair else shown


NOT_FAIR = " (sees every card: not a fair player)"
"""The mark after a reference player's name (``clairvoyant``) wherever a report shows it."""


def not_fair(metas) -> frozenset[str]:
    """The names the runs ``metas`` (their ``run.json``) record as not fair players."""
    return frozenset(name for meta in metas for name in meta.get("not_fair", ()))


def plain(chart) -> None:
    """Every text of a matplotlib figure as plain text (no mathtext, no LaTeX). Texts made later,
    while the figure is drawn (tick labels), need ``rcParams`` as :data:`PLAIN` sets them."""
    from matplotlib.text import Text

    for text in chart.findobj(Text):
        text.set_parse_math(False)
        text.set_usetex(False)


PLAIN = {"text.parse_math": False, "text.usetex": False}
"""matplotlib settings under which every new text is plain."""
