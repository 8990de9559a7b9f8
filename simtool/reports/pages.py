"""The template environment every page of simtool is rendered in (balance report, review, tuning)."""

from __future__ import annotations


def environment():
    """A new environment over ``simtool/reports/templates`` (HTML autoescaped, blocks trimmed);
    each page module makes one a process and adds its own filters (jinja compiles a template once
    an environment, a tenth of a second a page)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("simtool.reports", "templates"),
                              autoescape=True, trim_blocks=True, lstrip_blocks=True)
