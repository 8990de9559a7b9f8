"""Where the test suite's CPU goes across tests, not test by test: pytest runs the given test files in
this process (``-n 0``) under cProfile, then the costs are summed by function over every test:

- the product's functions (``simtool/``, ``strategies/``) by cumulative time: a cost many tests
  pay again and again shows as one line (a report's charts, the typer app's build, an interval);
- each library's time (``--lib polars,matplotlib,...``) charged to the product function that
  called into it directly, so "polars is 20 s" becomes "stats.unit_sums calls polars for 5 s".

cProfile charges each Python call a few hundred nanoseconds, so Python-heavy code (matplotlib,
typer, the engine's loop) looks several times dearer than it is against numpy and polars: read
the ranks, then time what you change in turns with the base (``/usr/bin/time``, CPU seconds).

    python bench/suite_profile.py tests/test_report.py tests/test_cli.py [--top 40] [--lib polars]
    python bench/suite_profile.py --stats /tmp/suite.prof  # read a profile written before
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = (str(ROOT / "simtool") + "/", str(ROOT / "strategies") + "/")


def name(func: tuple) -> str:
    path, line, fn = func
    short = path.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
    return f"{short}:{line}({fn})"


def product_costs(stats: dict, top: int) -> list[str]:
    """The product's functions by cumulative seconds: ``cum  own  calls  function``."""
    rows = sorted(((v[3], v[2], v[1], k) for k, v in stats.items() if k[0].startswith(PRODUCT)), reverse=True)
    return [f"{cum:8.1f} {own:7.1f} {calls:9d}  {name(k)}" for cum, own, calls, k in rows[:top]]


def library_calls(stats: dict, lib: str, top: int) -> list[str]:
    """Seconds of ``lib`` (a path part: ``polars``, ``matplotlib``) called directly from each
    product function, summed over the library's entry points."""
    spent, calls = collections.Counter(), collections.Counter()
    for func, v in stats.items():
        if f"/{lib}/" not in func[0]:
            continue
        for caller, edge in v[4].items():  # edge: (primitive calls, calls, own, cumulative)
            if caller[0].startswith(PRODUCT):
                spent[name(caller)] += edge[3]
                calls[name(caller)] += edge[1]
    return [f"{t:8.1f} {calls[n]:9d}  {n}" for n, t in spent.most_common(top)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="*", help="test files (or node ids) to run in this process")
    parser.add_argument("--stats", type=Path, help="read this profile instead of running tests")
    parser.add_argument("--out", type=Path, default=Path("suite.prof"), help="where the profile is written")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--lib", default="polars,matplotlib,typer,jinja2",
                        help="libraries whose time is charged to their product callers (comma-separated)")
    args = parser.parse_args()
    if args.stats is None:
        if not args.tests:
            parser.error("give test files to run, or --stats PROFILE")
        import pytest

        profile = cProfile.Profile()
        code = profile.runcall(pytest.main, [*args.tests, "-q", "-n", "0", "-p", "no:cacheprovider"])
        profile.dump_stats(args.out)
        print(f"pytest exit {code}; profile in {args.out}")
        args.stats = args.out
    stats = pstats.Stats(str(args.stats)).stats
    total = max(v[3] for v in stats.values())
    print(f"\n{total:.1f} s profiled. The product's functions, cumulative / own seconds / calls:")
    print("\n".join(product_costs(stats, args.top)))
    for lib in filter(None, args.lib.split(",")):
        print(f"\n{lib}, by the product function calling it: seconds / calls")
        print("\n".join(library_calls(stats, lib, args.top // 2)) or "   (none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
