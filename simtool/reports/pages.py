"""The template environment every page of simtool is rendered in (balance report, review, tuning)."""

from __future__ import annotations

BIDI = {c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
"""Unicode's direction controls, as the text that escapes them: a name holding U+202E (a plugin's,
a rule value's) would otherwise turn the rest of its sentence or table cell right to left."""


def visible(value):
    """``value`` as a page shows it, its direction controls written out (:data:`BIDI`)."""
    import markupsafe

    if not isinstance(value, str):
        return value
    text = str.translate(value, BIDI)
    return markupsafe.Markup(text) if isinstance(value, markupsafe.Markup) else text


def environment():
    """A new environment over ``simtool/reports/templates`` (HTML autoescaped, blocks trimmed,
    direction controls written out); each page module makes one a process and adds its own
    filters (jinja compiles a template once an environment, a tenth of a second a page)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("simtool.reports", "templates"),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True, finalize=visible)
