"""``simtool review``: play what a designer's questions need and answer them in words.

The questions (:mod:`simtool.analysis.review` answers them from the run folders) and the plays
they need, every play through the one executor, all sharing one seed so that every version of
the rules plays the same deals:

* ``seats``: the game's default strategy at every seat (deals), and the strongest built-in play,
  ``pimc`` at every seat (fewer deals: a search costs ~100 times a heuristic), recording the lead
  histories of a sample of its deals; and a few all-``random`` deals (the published fairness);
* ``skill``: one ``pimc`` seat against the default strategy, and against ``random``, and one
  ``pimc`` with doubled samples against ``pimc`` (the convergence step), seats rotated as
  :mod:`simtool.commands.ladder` plays a rung; with the first, the ladder's reference rung
  (``clairvoyant`` in the ``pimc`` seat's place, the same deals) prices hidden information;
* ``luck``: duplicate deals, the default strategy at one seat and the next weaker one on its
  skill ladder (:func:`next_weaker`) at the others;
* ``restrictions``: what :mod:`simtool.commands.restrict` plays for the default strategy;
* ``match``: whole matches of the default strategy (tension and match shape); the hazards are
  the game's rates in the deals of ``seats``.

Each question is one plan in ``OUT/runs/<question>`` (its cells are the plays of every rule
version), played in turn so that the progress bar can say which question is being worked on;
Ctrl-C or a killed worker keeps the finished chunks, and running the same review again goes on
from them (each plan keeps its finished cells and resumes the rest).

How many deals each play gets: ``--effort`` is a time budget (:data:`EFFORTS`, wall seconds on
:data:`CORES` cores). What each play costs comes from the game's measured costs
(:data:`REFERENCE`) scaled by what a seeded pilot of the reviewed rules plays (:func:`pilot`), so
the sizes, and with them every answer, are the same on any machine and for any ``--jobs``; each
play gets its share of the budget (:data:`SHARES`), rounded down (:func:`round_down`). The sizes are saved
in ``OUT/sizes.json`` and reused when the same review runs again there, so a resumed review
plays exactly the deals it started with.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np

from simtool import arguments, games, options
from simtool.commands import ladder, restrict
from simtool.commands.plans import play
from simtool.errors import COMMAND_LINE, SimtoolError, choices, option, os_problem, shown
from simtool.pipeline.folders import FolderLock, let_go, parse_json, read_record, write_json
from simtool.pipeline.folders import hold as hold_folder
from simtool.pipeline.runner import BACKENDS, MAX_COUNT, RunSpec, make_spec, play_chunk

EFFORTS = {"quick": 60, "standard": 300, "thorough": 1800}
"""Wall seconds each effort aims at, on :data:`CORES` cores (more cores finish sooner; the
deals played do not depend on ``--jobs``)."""
CUSTOM = "custom"
"""The effort a review records when ``sizes`` were given from Python (or its baseline's were)."""
CORES = 2
PLAYING = 0.85
"""The part of the budget spent playing: the rest goes to starting up, the pilot, starting the
workers of each question and reading the results (measured: a few seconds in all)."""
SHARES = {"deals": 0.07, "matches": 0.10, "restrictions": 0.08, "duplicate": 0.06, "search": 0.62,
          "random": 0.01, "leads": 0.06}
"""Each play's share of the playing time. The search (``pimc``) gets most: its answers are the
widest; the heuristic plays are cheap and reach narrow intervals with a small share. ``random``:
the all-random deals of the published fairness; ``leads``: the lead histories recorded in the
search play (the published metrics that read estimated standings)."""
SMALLEST = {"deals": 1024, "matches": 128, "restrictions": 1024, "duplicate": 256, "search": 32,
            "random": 1024, "leads": 8}
LARGEST = {"deals": 1 << 20, "matches": 1 << 16, "restrictions": 1 << 18, "duplicate": 1 << 16,
           "search": 1 << 14, "random": 1 << 17, "leads": 1 << 10}
QUESTIONS = ("seats", "skill", "luck", "restrictions", "match")
"""The plans of a review, in the order they are played."""
SEARCH = "pimc"
SIZES = "sizes.json"
OUTPUTS = ("review.json", "review.html", SIZES, "runs")
"""What a review folder holds; a folder holding anything else is refused."""


@dataclass(frozen=True)
class Sizes:
    """Units each play gets: heuristic ``deals`` (seats, hazards), whole ``matches``, deals per
    restricted-play run, ``duplicate`` deals (each played once per seat), deals of each
    ``search`` play, all-``random`` deals (the published fairness) and the search deals whose
    lead histories are recorded (``leads``, at most ``search``). 0: not played (the last two
    default to 0, as in reviews written before they were played)."""

    deals: int
    matches: int
    restrictions: int
    duplicate: int
    search: int
    random: int = 0
    leads: int = 0

    def __post_init__(self):
        # numpy's whole numbers as Python's, as review() takes them for players and seed: stored
        # so, they pass sound() and are written to sizes.json as numbers
        for name in self.__dataclass_fields__:
            if arguments.whole(value := getattr(self, name)):
                object.__setattr__(self, name, int(value))


OPTIONAL = ("random", "leads")
"""Sizes that may be 0: plays a review can do without."""

@dataclass(frozen=True)
class Setup:
    """What one review plays: the game, its players, the rule versions (the reviewed one first,
    then ``--vs-rule``'s), the strategies, the seed and the sizes."""

    game: str
    players: int
    versions: tuple[dict, ...]
    default: str
    weaker: str  # the strategy the default meets in the luck question
    search: str | None  # None: no search strategy plays the game
    doubled: str | None
    restrictions: tuple[str, ...]
    seed: int
    effort: str
    sizes: Sizes
    lock: FolderLock | None = field(default=None, compare=False, repr=False)
    """The review folder's, held while the review writes it (:func:`setup`'s ``hold``)."""
    piloted: bool = True
    """Whether the sizes are those the effort's pilot chose (else given, or saved by a review of
    given sizes: ``custom``)."""


def search_names(game_id: str) -> tuple[str | None, str | None]:
    """The search and the search with doubled samples, as canonical names (``None`` without a
    search for the game, or for a game that cannot re-deal what a seat does not see, which a
    search needs)."""
    import strategies

    found = strategies.registry(game_id).get(SEARCH)
    if found is None or not games.get(game_id).redeals:
        return None, None
    samples = next(p for p in found.params if p.name == "samples").default_for(game_id)
    return (strategies.canonical(SEARCH, game_id),
            strategies.canonical(f"{SEARCH}@samples={2 * samples}", game_id))


def next_weaker(game_id: str) -> str:
    """The strategy just below the game's default on its skill ladder: its next own heuristic,
    else ``random``. Luck is measured between the two (duplicate deals): players close in skill,
    each deterministic enough that the play's own dice do not pass for the cards' luck."""
    rungs = [r for r in ladder.default_rungs(game_id) if not r.startswith(SEARCH)]
    default = games.get(game_id).default_strategy
    at = rungs.index(default) if default in rungs else 0
    return rungs[at - 1] if at > 0 else "random"


REFERENCE = {
    # game: (players, cards played a deal, rounds a match, CPU seconds a heuristic deal, a
    # heuristic match, and a search deal in a play of SEARCH_PILOT), measured with the games'
    # default rules on the 2-core development machine, 2026-11-26 (docs/review.md)
    "black-white": (3, 36.0, 3.04, 4.8e-6, 2.1e-4, 0.0157),
    "kansas-city": (4, 56.0, 3.0, 1.4e-5, 3.8e-4, 0.102),
    "trickster": (4, 112.9, 4.0, 1.2e-5, 4.6e-4, 0.0287),
    "out-trumped": (4, 60.0, 7.02, 1.5e-5, 1.25e-3, 0.117),
    "nine-lives": (4, 32.0, 25.1, 1.1e-5, 6.5e-3, 0.0209),
    "hearts": (4, 52.0, 10.97, 7.1e-6, 8.3e-4, 0.0601),
}
"""What each built-in game's plays cost where it was measured; a review scales them by what the
reviewed rules play (:func:`pilot`), so that its sizes depend on the game, players, rules and
effort only, never on this machine's speed or load, nor on ``--jobs``."""
SEARCH_PILOT = 16
"""Deals of the search play whose cost per deal :data:`REFERENCE` holds."""
SEARCH_BATCH = 0.6
"""What a search deal costs in a play of hundreds, as a share of its mean cost in a play of
:data:`SEARCH_PILOT`: the search's lockstep steps are few and wide in a large batch
(measured on Kansas City: 0.2 s a deal in a play of 384 against 0.33 s in one of 16)."""
LEADS = 1.1
"""What recording one deal's lead history costs in the search play (``pimc`` at every seat), as
a share of what the deal's search costs: at each decision an observer plays out ``samples``
worlds for each seat that is not choosing (measured, Kansas City and Hearts: docs/review.md)."""
CLAIRVOYANT = 1 / 8
"""What a ``clairvoyant`` seat costs as a share of a ``pimc`` seat: one world per option
against pimc's 8 (12 in Out-Trumped: this errs on the dear side)."""
SEARCH_START = 0.5
"""What a search play costs whatever its size, as a share of a play of :data:`SEARCH_PILOT`
deals: most of a small play's time (Kansas City, one core: 2.3 s for 1 deal, 4.0 s for 8, 5.0 s
for 16, 9.0 s for 64)."""


def per_card(game: str) -> tuple[float, float, float]:
    """Seconds a heuristic deal costs per card played, a heuristic match per card and round, and
    a search deal per card squared (its play-outs run to the end of the round from every card):
    the game's own :data:`REFERENCE`, or the median of the built-in games' for another game."""
    rows = [REFERENCE[game]] if game in REFERENCE else list(REFERENCE.values())
    return tuple(float(np.median([r[3 + k] / r[1] ** (2 if k == 2 else 1) / (r[2] if k == 1 else 1)
                                  for r in rows])) for k in range(3))


def pilot(game: str, players: int, rules: dict, default: str, search: str | None) -> dict[str, float]:
    """Seconds per unit of each kind of play, from what the reviewed rules play: a seeded pilot
    of the default strategy counts the cards played a deal and the rounds a match, and
    :func:`per_card` prices them. Seeded and counted, not timed: the same on any machine."""
    deals = play_chunk(make_spec(game, players, 512, default, None, rules, "deal", 0), 0).seats
    cards = float(deals["tricks"].sum()) * players / 512
    matches = play_chunk(make_spec(game, players, 32, default, None, rules, "match", 0), 0).matches
    rounds = float(matches.filter(matches["seat"] == 0)["rounds"].mean())
    deal, match, searched = per_card(game)
    out = {"deal": deal * cards, "match": match * cards * rounds}
    if search is not None:
        out["search"] = searched * cards ** 2
    return out


def round_down(x: float) -> int:
    """``x`` rounded down to a power of two or one and a half times one: sizes that read well
    and cut into whole chunks, at most a third under ``x``."""
    low = 1 << max(0, int(math.floor(math.log2(max(x, 1)))))
    return low * 3 // 2 if low > 1 and low * 3 // 2 <= x else low


def sizes(effort: str, seconds: dict[str, float], players: int, restrictions: int, versions: int) -> Sizes:
    """Each play's units from the effort's budget and the pilot's seconds per unit: its share
    of the playing time over the work one unit costs in every play of that kind, for every
    rule version; rounded down (:func:`round_down`) between :data:`SMALLEST` and :data:`LARGEST`."""
    budget = EFFORTS[effort] * CORES * PLAYING / versions
    p = players
    # work per unit, in units of the pilot's priced plays: a restricted run is a heuristic deal
    # (one baseline and one per restriction); a duplicate deal is p heuristic deals; the skill
    # plays hold one search seat in p (twice), and the doubled search one doubled seat among
    # p - 1 searching ones, next to the search at every seat for the seats question; the hidden
    # information play one clairvoyant seat in p; an all-random deal is priced as a heuristic one
    search = seconds.get("search", 0.0)
    cost = {"deals": seconds["deal"], "matches": seconds["match"],
            "restrictions": seconds["deal"] * (1 + restrictions), "duplicate": seconds["deal"] * p,
            "search": SEARCH_BATCH * search * (1 + 2 / p + (p + 1) / p + CLAIRVOYANT / p),
            "random": seconds["deal"], "leads": SEARCH_BATCH * search * LEADS}
    # each of the five search plays (seats, the three of skill and the clairvoyant's) costs its
    # start whatever its size
    start = {"search": 5 * SEARCH_START * SEARCH_PILOT * search}
    # a play that is not played (no search for the game) gets no units
    found = {kind: 0 if cost[kind] <= 0 else
             min(LARGEST[kind], max(SMALLEST[kind], round_down((budget * share - start.get(kind, 0.0)) / cost[kind])))
             for kind, share in SHARES.items()}
    found["leads"] = min(found["leads"], found["search"])  # a sample of the search play's deals
    return Sizes(**found)


def versions_of(game, players: int, rules: dict | None, vs_rules: dict | None) -> tuple[dict, ...]:
    """The rule versions, resolved and checked: the reviewed one, and ``--vs-rule``'s (its
    assignments over the reviewed rules) when given."""
    base = options.resolve(game, rules)
    games.check_rules(game, base, players)
    if vs_rules is None:
        return (base,)
    if not vs_rules and not game.options:  # no rule to name as an example (it raised IndexError)
        raise SimtoolError(f"vs_rules {{}} names no rule to change, and {game.id} has no rule options: "
                           f"give None for no comparison")
    if not vs_rules:  # from Python: it read "--vs-rule  gives the rules under review", naming nothing
        raise SimtoolError(f"vs_rules {{}} names no rule to change; give one such as "
                           f"{{'{game.options[0].name}': ...}} (valid: {choices(o.name for o in game.options)}), "
                           f"or None for no comparison")
    other = options.resolve(game, {**(rules or {}), **vs_rules})
    games.check_rules(game, other, players)
    # as played: hand_size=12 at 3 players is Black & White's sheet hand, the same game
    if games.played(game, other, players) == games.played(game, base, players):
        given = ", ".join(f"{k}={v}" for k, v in vs_rules.items())
        raise SimtoolError(f"{option('vs-rule', argument='vs_rules')} {given} gives the "
                           f"rules under review (as played at {players} players); give a rule value "
                           f"that differs")
    return base, other


def check_folder(out: Path) -> None:
    """Refuse a review folder that is a file or holds anything but an earlier review's files."""
    if out.exists() and not out.is_dir():
        raise SimtoolError(f"{out} is a file, not a folder for the review; choose another {option('out')}")
    try:  # a folder that cannot be made is refused now, not after the pilot has played
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimtoolError(f"cannot make the review folder {out}: {os_problem(out, exc)}; "
                           f"choose another {option('out')}") from None
    if out.is_dir():
        # a file named runs (a folder named sizes.json) is no review's either: the review wrote its
        # sizes.json beside the user's file, then stopped at "cannot write to folder runs/seats";
        # a pipe named sizes.json was waited on for ever
        strange = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")
                         and (p.name not in OUTPUTS or not (p.is_dir() if p.name == "runs" else p.is_file())))
        if strange:
            raise SimtoolError(f"{out} holds {', '.join(strange[:3])}{', ...' if len(strange) > 3 else ''}, "
                               f"which no review wrote; choose a new or empty folder for {option('out')} "
                               f"(simtool never writes over other files)")
    # a balance report written as review.html there was replaced by the review's page without a word
    page = out / "review.html"
    if page.is_file():
        from simtool.reports.balance import PAGES, is_report, page_kind

        again = option("out", argument="out folder")
        if not is_report(page):
            raise SimtoolError(f"{page} exists and is not a simtool page; simtool replaces only its own "
                               f"pages: choose another {again}")
        if (found := page_kind(page)) != "review":
            raise SimtoolError(f"{page} is a simtool {PAGES.get(found, found)} page, not a review: simtool "
                               f"replaces a page only with one of its kind; choose another {again}")


def setup(game: str, out: Path, players: int | None = None, rules: dict | None = None,
          effort: str = "quick", vs_rules: dict | None = None, seed: int | None = None,
          given: Sizes | None = None, hold: bool = False) -> Setup:
    """Check every input and decide what the review plays. The sizes are ``given``, else those
    the same review saved in ``out``, else the pilot's; the seed is ``seed``, else the one the same
    review saved (so that running the same command again goes on), else a fresh one. ``hold``:
    lock ``out`` before anything is read from it (``Setup.lock``, the caller's to let go)."""
    g = games.get(arguments.text("game", game, "black-white"))
    p = games.check_players(g, arguments.count("players", players, "the game's default"))
    arguments.mapping("rules", rules, "{'hand_size': 10}")
    arguments.mapping("vs_rules", vs_rules, "{'hand_size': 8}")
    if not isinstance(effort, str) or effort not in EFFORTS:  # a list raised TypeError: unhashable
        raise SimtoolError(f"unknown effort {shown(effort)}; valid: {choices(EFFORTS)}")
    arguments.seed(seed)
    versions = versions_of(g, p, rules, vs_rules)
    check_folder(out)
    # a second review there before the first had runs/ rewrote its sizes.json and played its own
    # review into the folder; the first then stopped on cells "played with other settings"
    lock = hold_folder(out, "review") if hold else None
    try:
        return replace(_decide(g, p, versions, out, effort, seed, given), lock=lock)
    except BaseException:
        if lock is not None:
            let_go(lock)
        raise


def _decide(g, p: int, versions: tuple[dict, ...], out: Path, effort: str, seed: int | None,
            given: Sizes | None) -> Setup:
    """:func:`setup`'s choices once its inputs are checked: the plays, the sizes and the seed."""
    from strategies import restrictions as limits

    default = g.default_strategy
    weaker = next_weaker(g.id)
    search, doubled = search_names(g.id)
    restricted = tuple(limits.of_game(g.id))
    key = {"game": g.id, "players": p, "versions": list(versions), "effort": effort}
    saved = read_state(out / SIZES, key)
    state = {**key, "sizes": asdict(given) if given else saved.get("sizes"),
             "seed": int(seed) if seed is not None else saved.get("seed"),
             "pilot_seconds_per_unit": saved.get("pilot_seconds_per_unit")}
    check_going_on(out, saved, state)
    if state["sizes"] is None:
        seconds = pilot(g.id, p, versions[0], default, search)
        state |= {"sizes": asdict(sizes(effort, seconds, p, len(restricted), len(versions))),
                  "pilot_seconds_per_unit": seconds}
    if state["seed"] is None:
        state["seed"] = int(np.random.SeedSequence().entropy % (1 << 63))
    if state != saved:
        out.mkdir(parents=True, exist_ok=True)
        write_json(out / SIZES, state)
    timed = state["pilot_seconds_per_unit"]
    piloted = timed is not None and state["sizes"] == asdict(sizes(effort, timed, p, len(restricted), len(versions)))
    return Setup(g.id, p, versions, default, weaker, search, doubled, restricted, state["seed"], effort,
                 Sizes(**state["sizes"]), piloted=piloted)


def check_going_on(out: Path, saved: dict, state: dict) -> None:
    """Once a review has played into ``out``, only the same review (game, players, rules, effort,
    seed and sizes) may go on there: another would rewrite ``sizes.json`` and mix its runs with
    the first's, which could then never be finished. Refused before anything is written."""
    if not (out / "runs").is_dir():
        return
    if not saved:
        if differs := other_settings(out / SIZES, state):
            # a notebook's cell run again with another vs_rules read "the runs of another review,
            # or of one whose sizes.json is missing or unreadable", naming neither
            raise SimtoolError(f"{out} holds a review played with {differs}; give the same to go on there, "
                               f"or choose a new folder for {option('out')}")
        raise SimtoolError(f"{out} holds the runs of another review, or of one whose {SIZES} is missing "
                           f"or unreadable; run that review's own command to go on, or choose a new "
                           f"folder for {option('out')}")
    for key, flag in (("seed", option("seed")), ("sizes", "sizes")):
        if state[key] != saved[key]:
            raise SimtoolError(f"{out} holds a review played with {key} {saved[key]}; give the same {flag}, "
                               f"or none, to go on, or choose a new folder for {option('out')}")


def other_settings(path: Path, state: dict) -> str | None:
    """What the review whose ``sizes.json`` is at ``path`` was played with that ``state`` (this
    review's) is not: ``game trickster (this one black-white)``, ``--vs-rule deck=30 (this one
    deck=32)``; ``None`` where the file is unreadable or says the same."""
    try:
        data = parse_json(read_record(path))
        theirs, mine = data["versions"], json.loads(json.dumps(state["versions"]))
        parts = [f"{key} {data[key]} (this one {state[key]})" for key in ("game", "players", "effort")
                 if data[key] != state[key]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (isinstance(theirs, list) and theirs and all(isinstance(v, dict) for v in theirs)):
        return None

    def apart(a: dict, b: dict) -> str:  # a's rules that b does not share
        return ", ".join(f"{k}={a[k]}" for k in sorted(a) if b.get(k) != a[k]) or "none"

    if theirs[0] != mine[0] and not parts:  # another game's rules are another game's
        parts.append(f"the rules {apart(theirs[0], mine[0])} (this one {apart(mine[0], theirs[0])})")
    # a vs-rule as given: its version's rules that its reviewed rules do not share
    vs = [apart(v[1], v[0]) if len(v) > 1 else "none" for v in (theirs, mine)]
    if vs[0] != vs[1]:
        parts.append(f"{option('vs-rule', argument='vs_rules')} {vs[0]} (this one {vs[1]})")
    return "; ".join(parts) or None


def _whole(value, least: int) -> bool:
    # at most the largest count: deals=10**400 was written into sizes.json, then refused as "bad n"
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= MAX_COUNT


def sound(sizes: Sizes, unplayed: tuple[str, ...] = ()) -> bool:
    """Sizes a review plays: whole numbers, 1 or more (:data:`OPTIONAL`'s and ``unplayed``'s 0
    or more)."""
    return all(_whole(v, 0 if k in OPTIONAL + unplayed else 1) for k, v in asdict(sizes).items())


def read_state(path: Path, key: dict) -> dict:
    """What the same review (same game, players, rules and effort) saved in its folder: its
    sizes, its seed and the pilot's costs; empty for another review or none."""
    try:
        data = parse_json(read_record(path))
        if {k: data[k] for k in key} == json.loads(json.dumps(key)):
            # sizes or a seed no review writes (deals -5, 0, "7"): it failed "bad --n -5", naming
            # an option nobody gave, or played the cells again as of other settings
            # (0 where a play is not played: a game no search plays has no search deals)
            if data["sizes"] is not None and not sound(Sizes(**data["sizes"]), ("search",)) \
                    or data.get("seed") is not None and not _whole(data["seed"], 0):
                return {}
            # the pilot's costs price the sizes again: text or {} there was an AttributeError or
            # KeyError, and no seed a KeyError, once the same review was run again in the folder
            timed = data.get("pilot_seconds_per_unit")
            if "seed" not in data or timed is not None and not (
                    isinstance(timed, dict) and {"deal", "match"} <= set(timed) <= {"deal", "match", "search"}
                    and all(_figure(x) and math.isfinite(x) and x > 0 for x in timed.values())):
                return {}
            return data
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return {}


def plays(s: Setup, question: str) -> tuple[list[RunSpec], list[dict]]:
    """The cells of one question's plan, for every rule version; each records in its
    ``run.json`` which review play it is (``review``: play, version)."""
    specs, extra = [], []

    def add(spec: RunSpec, record: dict, name: str, version: int) -> None:
        specs.append(spec)
        extra.append({**record, "review": {"play": name, "version": version}})

    for v, rules in enumerate(s.versions):
        z = s.sizes
        if question == "seats":
            add(make_spec(s.game, s.players, z.deals, s.default, None, rules, "deal", s.seed), {}, "heuristic", v)
            if s.search:
                add(searched(s, rules), {}, "search", v)
            if z.random and s.default != "random":  # the published fairness reads all-random play
                add(make_spec(s.game, s.players, z.random, "random", None, rules, "deal", s.seed), {}, "random", v)
        elif question == "skill" and s.search:
            # the first play's reference rung (clairvoyant in the search's seat against the same
            # default seats, the same deals) prices hidden information, as the ladder's does
            for name, rungs in (("over heuristic", [s.default, s.search]), ("over random", ["random", s.search]),
                                ("doubling", [s.search, s.doubled])):
                found, records = ladder.plan(s.game, s.players, rules, z.search, s.seed, rungs,
                                             reference=None if name == "over heuristic" else False)
                for spec, record, play_name in zip(found, records, (name, "clairvoyant"), strict=False):
                    add(spec, record, play_name, v)
        elif question == "luck":
            add(make_spec(s.game, s.players, z.duplicate, s.weaker, {0: s.default}, rules, "deal", s.seed,
                          duplicate=True), {}, "duplicate", v)
        elif question == "restrictions" and s.restrictions:
            found, records = restrict.plan(s.game, s.players, rules, z.restrictions, s.seed, s.default)
            for spec, record in zip(found, records, strict=True):
                add(spec, record, "restricted", v)
        elif question == "match":
            add(make_spec(s.game, s.players, z.matches, s.default, None, rules, "match", s.seed), {}, "matches", v)
    return specs, extra


def searched(s: Setup, rules: dict) -> RunSpec:
    """The search at every seat (the seats question's strongest play), recording the lead
    histories of ``sizes.leads`` of its deals: the first of each chunk, as many from each that
    the chunks hold about ``leads`` together (:mod:`simtool.pipeline.leads`)."""
    spec = make_spec(s.game, s.players, s.sizes.search, s.search, None, rules, "deal", s.seed)
    if not s.sizes.leads:
        return spec
    chunks = -(-spec.n // spec.chunk)
    return make_spec(s.game, s.players, s.sizes.search, s.search, None, rules, "deal", s.seed,
                     lead_history=-(-min(s.sizes.leads, spec.n) // chunks))


Progress = Callable[[str, int, int], None]


def play_all(s: Setup, out: Path, jobs: int | None = None, progress: Progress | None = None,
             backend: str = "local", scheduler: str | None = None) -> dict[str, list[Path]]:
    """Play every question's plan into ``out/runs/<question>``, in turn; return each question's
    run folders (in :func:`plays` order)."""
    folders = {}
    for question in QUESTIONS:
        specs, extra = plays(s, question)
        if not specs:
            folders[question] = []
            continue
        tick = None
        if progress is not None:
            progress(question, 0, 0)  # named before its first chunk is in
            tick = partial(progress, question)
        # a review goes on when run again (as after Ctrl-C), not by `sweep --resume` of one
        # question's folder, and has no --force
        folders[question] = play(specs, out / "runs" / question, jobs, backend=backend, scheduler=scheduler,
                                 progress=tick, extra=extra, command="review",
                                 again=f"a new {option('out', argument='out folder')}")
    return folders


@arguments.called("simtool.review.review")
def review(game: str = "black-white", out: str | Path = "review", *, players: int | None = None,
           rules: dict | None = None, effort: str | None = None, vs_rules: dict | None = None,
           baseline: str | Path | None = None, seed: int | None = None, jobs: int | None = None,
           progress: Progress | None = None, sizes: Sizes | None = None, backend: str = "local",
           scheduler: str | None = None) -> dict:
    """What ``simtool review`` does, from Python: play, answer, and write ``out/review.json``
    and ``out/review.html``; return the review (the content of ``review.json``). With a
    ``baseline`` of the same game and player count, its seed, sizes and effort are played (an
    ``effort`` or ``sizes`` given keep the baseline's seed but play their own sizes; a ``seed``
    given replaces the baseline's), so that both versions play the same deals; without a
    baseline the effort is ``quick`` unless given. ``sizes``
    replaces the effort's sizes (small reviews for tests and notebooks); ``backend="dask"`` plays
    the chunks on the dask.distributed cluster at ``scheduler`` (without one, on a cluster of
    ``jobs`` workers started on this machine)."""
    from simtool.analysis import review as answers
    from simtool.reports import review as pages

    out = Path(arguments.folder("out", out))
    # a review's progress names the question too: it was told to take progress(done, total)
    arguments.execution(jobs, False, progress, backend, scheduler, "progress(question, done, total)")
    baseline = arguments.folder("baseline", baseline, optional=True)
    if sizes is not None and not (isinstance(sizes, Sizes) and sound(sizes)):
        # the size at fault, not the whole Sizes: a 400-digit one made the line 400 characters long
        wrong = [f"{k}={shown(v)}" for k, v in asdict(sizes).items()
                 if not _whole(v, 0 if k in OPTIONAL else 1)] if isinstance(sizes, Sizes) else [shown(sizes)]
        raise SimtoolError(f"bad sizes {', '.join(wrong)}; expected simtool.commands.review.Sizes(deals=..., "
                           f"matches=..., restrictions=..., duplicate=..., search=..., random=..., leads=...) of whole "
                           f"numbers 1 or more ({', '.join(OPTIONAL)}: 0 or more) up to 2^63 - 1, or None for "
                           f"the effort's")
    if backend not in BACKENDS:
        raise SimtoolError(f"unknown backend {shown(backend)}; valid: {choices(BACKENDS)}")
    if vs_rules is not None and baseline is not None:
        raise SimtoolError(f"give {option('vs-rule', argument='vs_rules')} or {option('baseline')}, not both: a "
                           f"review compares with one other version")
    before = answers.read_review(Path(baseline)) if baseline is not None else None
    if before is not None:
        usable_baseline(before, Path(baseline))
    if baseline is not None and Path(baseline).resolve() == out.resolve():
        raise SimtoolError(f"{option('baseline')} {baseline} is the review's own {option('out')}; give the folder "
                           f"of an earlier review")
    if before is not None:
        like_baseline(before, Path(baseline), game, players)
        answers.check_sum(before, Path(baseline))
    # sizes given are no effort's: their review was labelled "Effort quick" (or the effort
    # given, whose sizes they replaced)
    label = CUSTOM if sizes is not None else None
    if before is not None and seed is None and sizes is not None:
        # sizes given keep the baseline's seed, as an effort given does: a fresh seed played
        # other deals than the docstring's "the baseline's seed" promised
        seed = baseline_deals(before, game, players)[0]
    elif before is not None and seed is None:
        seed, sizes = baseline_deals(before, game, players)
        if effort is not None:  # the effort asked for is played, on the baseline's deals as far as they go
            sizes = None
        elif sizes is not None:  # the review says what it played: the baseline's effort
            label = before.get("effort") if before.get("effort") in (*EFFORTS, CUSTOM) else None
            effort = label if label in EFFORTS else None
    effort = "quick" if effort is None else effort
    s = setup(game, out, players, rules, effort, vs_rules, seed, sizes, hold=True)
    # sizes.json's sizes, saved by a review of given sizes, went on as "quick" in `simtool review`
    label = label or (effort if s.piloted else CUSTOM)
    try:
        folders = play_all(s, out, jobs, progress, backend, scheduler)
        if progress is not None:
            progress("writing the review", 0, 0)
        result = answers.review(s.game, s.players, list(s.versions), label or effort, asdict(s.sizes), s.seed, folders,
                                before, None if baseline is None else Path(baseline))
        pages.write(out, result)
        return result
    finally:
        let_go(s.lock)


def usable_baseline(before: dict, folder: Path) -> None:
    """Refuse, before anything is played, a baseline ``review.json`` that lacks what the changes
    table and the page read of it (an edited, truncated or foreign file)."""
    from jinja2 import TemplateError

    from simtool.analysis import review as answers
    from simtool.reports import review as pages

    try:
        missing = [key for key in ("game", "players", "plays", "rules", "seed", "sizes") if key not in before]
        if missing:
            raise KeyError(missing[0])
        # its deals are played again: a garbled seed or size once gave a fresh seed (other
        # deals, compared as if shared) or 'bad n -5' naming no file
        for key, values in (("seed", [before["seed"]]), ("sizes", asdict(Sizes(**before["sizes"])).values())):
            if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
                raise ValueError(key)
        if before["seed"] > arguments.SEED_MAX:  # read 'bad seed 1606...', naming no file
            raise ValueError("seed")
        # what the changes table pairs and the page shows, read once everything is played: a seat
        # 99 (or "2") raised IndexError there, rules as a list or metrics as text an error of the
        # page's template, plays as null an AttributeError; players "3" read "3 against 3"
        players = before["players"]
        if not (isinstance(players, int) and not isinstance(players, bool) and players >= 1):
            raise ValueError("players")
        for key in ("rules", "plays"):
            if not isinstance(before[key], dict):
                raise ValueError(key)
        q = before["questions"]
        seats = [q.get("seats") or {}, (q.get("seats") or {}).get("search") or {}]
        places = [e.get("seat") for s in seats for e in s.get("seats") or []] + \
                 [h.get("seat", None) for h in q.get("hazards") or [] if h.get("seat") is not None]
        if not all(isinstance(at, int) and not isinstance(at, bool) and 0 <= at < players for at in places):
            raise ValueError("a seat's number")
        if before.get("schema") == answers.SCHEMA:  # compared question by question
            for key, (*figures, _) in answers.headlines(before["questions"]).items():
                # its figures are subtracted once everything is played: a number given as text
                # ("0.66") ended the review there in a TypeError traceback, minutes of play lost
                if len(figures) != 3 or not all(_figure(x) for x in figures):
                    raise ValueError(f"the figure of {key}")
        if before["questions"]:  # shown beside this review's, whatever its schema
            pages.cards(before["questions"])
            pages.restriction_rows(before["questions"])
        # the page and the console read much more of it (a count as text, a list as null: errors
        # of the page's template once everything was played): both, with the baseline on both
        # sides of the changes, as the page its own review wrote them from was
        versus = {"source": "baseline", "rules": before["rules"], "players": players, "game": before["game"],
                  "questions": before["questions"], "metrics": before.get("metrics"), "published": None}
        trial = {**before, "versus": versus, "published": None,
                 "comparison": {"possible": True, "why": None, "before": "the baseline", "after": "this review"},
                 "changes": answers.changes(before["questions"], before["questions"])
                 if before.get("schema") == answers.SCHEMA else []}
        pages.render(trial)
        summary_lines(trial)
    # ArithmeticError: a count of 10**400 (JSON sets no limit) overflowed a float, a traceback
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError, TemplateError) as exc:
        raise SimtoolError(f"{folder / 'review.json'} is not a whole simtool review (it lacks or garbles "
                           f"{exc!s}); give the folder of an earlier simtool review") from None


def like_baseline(before: dict, folder: Path, game: str, players: int | None) -> None:
    """Refuse, before anything is played, a baseline of another game, player count or line-ups:
    the whole review was played, then said that no comparison was possible."""
    import strategies
    from simtool.analysis import review as answers

    g = games.get(arguments.text("game", game, "black-white"))
    p = games.check_players(g, arguments.count("players", players, "the game's default"))
    plays = {"default": strategies.canonical(str(g.default_strategy), g.id), "search": search_names(g.id)[0]}
    why = answers.unlike({"game": g.id, "players": p, "plays": plays}, before)
    if why is not None:
        # a -g or -p forgotten is the likely slip: the review that the baseline can be compared with
        # was not named
        theirs = [option(key, before[key]) for key, mine in (("game", g.id), ("players", p))
                  if before[key] != mine or before["game"] != g.id]
        also = f", or review what the baseline did: {(' ' if COMMAND_LINE.get() else ', ').join(theirs)}" \
            if theirs else ""
        raise SimtoolError(f"{option('baseline')} {folder} cannot be compared with this review ({why}); give "
                           f"an earlier review of {g.id} with {p} players and the same line-ups{also}")


def _figure(x) -> bool:
    """Whether ``x`` is a figure a review writes: a number (no NaN, as null is written), or
    :func:`~simtool.analysis.review.headlines`' NaN for null."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and (math.isfinite(x) or x != x)


def baseline_deals(before: dict, game: str, players: int | None) -> tuple[int | None, Sizes | None]:
    """The seed and sizes of a baseline review of the same game and player count, so that this
    review plays the baseline's deals (``None, None`` for another game or player count)."""
    g = games.get(arguments.text("game", game, "black-white"))
    try:
        if before.get("game") == g.id and before.get("players") == (players or g.default_players):
            return int(before["seed"]), Sizes(**before["sizes"])
    except (KeyError, TypeError, ValueError):
        pass
    return None, None


def rules_text(rules: dict | None) -> str:
    """A version's named rules as the console says them: ``pass_count=2, hands=3``."""
    return ", ".join(f"{k}={v}" for k, v in (rules or {}).items()) or "the sheet's rules"


def _scales() -> list[tuple[tuple[str, ...], bool]]:
    """Each verdict's words, and whether its thresholds are shares (printed in %) or points."""
    from simtool.analysis import verdicts as v

    return [(v.SEAT_WORDS, False), (v.SKILL_WORDS, False), (v.RESTRICTION_WORDS, False),
            (v.LUCK_WORDS, True), (v.TENSION_WORDS, True), (v.HAZARD_WORDS, True)]


def thresholds_line(answer: dict, what: str = "") -> str:
    """An answer's thresholds as the console states them beside its verdict, as ``simtool run``'s
    seat line does: `` (fair < 1 point, slight 1 to < 3, strong >= 3.)``, after ``what`` they
    are of where the sentence ends on another figure; none where the word is no band of them
    (``never binds``, ``not measured``) or the answer states none."""
    from simtool.analysis import verdicts

    stated = {w: t for w, t in (answer.get("thresholds") or {}).items() if w != "converged_below_pts"}
    words, share = next(((w, share) for w, share in _scales() if tuple(stated) == w[1:]), (None, False))
    if words is None or answer.get("verdict") not in (*words, "unclear"):
        return ""
    return f" ({what + ': ' if what else ''}{verdicts.bands_text(words, list(stated.values()), share)}.)"


def summary_lines(result: dict) -> list[str]:
    """The verdicts as ``simtool review`` prints them: one line per question, then the changes."""
    q = result["questions"]
    versus, comparison = result.get("versus") or {}, result.get("comparison") or {}
    mine, theirs, lines = result.get("rules"), versus.get("rules"), []
    if versus and comparison:
        # the lines say whose verdicts they are: after '--vs-rule pass_count=2' the reviewed rules'
        # verdicts (pass_count=3) read as the answer for the rule asked about
        label = "the --vs-rule version" if versus["source"] == "vs-rule" else "the baseline"
        lines.append(f"verdicts for {'the reviewed rules' if versus['source'] == 'vs-rule' else 'this review'} "
                     f"({rules_text(mine)}); {label}'s ({rules_text(theirs)}) are in review.html")
    # the thresholds beside each word, as the page states them under its card: "much skill" or
    # "common" read on the console with no word of where "much" or "common" begins
    of = {"tension": "winner behind at half-time"}
    lines += [f"{name.replace('_', ' ')}: {q[name]['verdict']}. {q[name]['sentence']}"
              f"{thresholds_line(q[name], of.get(name, ''))}"
              for name in ("seats", "skill", "hidden_information", "luck", "tension") if name in q]
    lines += [f"{'hazard' if h['risk'] else 'rate'} {h['name']}: {h['verdict']}. {h['sentence']}{thresholds_line(h)}"
              for h in q["hazards"]]
    lines += [f"crude play {r['name']}: {r['verdict']}. {r['sentence']}{thresholds_line(r)}"
              for r in q["restrictions"]]
    if q.get("match"):
        lines.append(f"match: {q['match']['verdict']}. {q['match']['sentence']}"
                     f"{thresholds_line(q['match'], 'matches stopped by the cap')}")
    if comparison and not comparison["possible"]:
        lines.append(f"no comparison: {comparison['why']}")
    # the page's figures, units and all: a share in %, an edge or a cost in points (the raw
    # numbers once printed a 27.3% tension as 0.273 beside the seat edge's 0.579 points)
    from simtool.reports.review import change_rows

    rows = change_rows(result)
    if rows and comparison:
        before, after = (mine, theirs) if versus.get("source") == "vs-rule" else (theirs, mine)
        lines.append(f"changes from {comparison['before']} ({rules_text(before)}) to {comparison['after']} "
                     f"({rules_text(after)}):")
    for c in rows:
        lines.append(f"change in {c['name']}: {c['before_text']} -> {c['after_text']} "
                     f"(difference {c['delta_text']}, {c['interval_text']}): {c['reads']}")
    return lines
