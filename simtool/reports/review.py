"""The review page: ``review.html`` (self-contained: inline CSS and SVG, no external URL) and
``review.json``, written from what :mod:`simtool.analysis.review` answered.

The page leads with the verdicts (word, sentence, the figure with its interval drawn against the
thresholds, the thresholds stated beside it), then the changes between two rule versions
(coloured by better or worse, never by sign), then the tables in plain English, with the
statistics folded away.
"""

from __future__ import annotations

import functools
import json
import math
import re
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from simtool import stats
from simtool.analysis import verdicts
from simtool.pipeline.folders import write_together
from simtool.reports import pages

WIDTH, HEIGHT, PAD = 320, 34, 12
TONE = {"fair": "good", "little": "mid", "some": "mid", "much": "good", "slight": "mid", "strong": "bad",
        "rare": "good", "occasional": "mid", "common": "bad", "low": "mid", "moderate": "mid", "high": "mid",
        "nearly as good": "bad", "costs": "good", "never binds": "none", "unclear": "none", "not measured": "none"}
"""How each verdict word is shaded on the page: for balance (a strong seat edge is bad, much skill
good); luck and tension words are neither."""
QUESTION_TITLES = {"seats": "Is the game fair to every seat?", "skill": "Does skill pay?",
                   "luck": "How much do the cards decide?", "tension": "Does a match stay open?",
                   "match": "How long is a match?",
                   "hidden_information": "How much does knowing the hidden cards win?"}


def interval_svg(value: float, low: float, high: float, thresholds: list[float], unit: str = "",
                 symmetric: bool = False, scale: float = 1.0) -> str:
    """The figure as a point with its 95% interval on a line where the thresholds are marked
    (mirrored for a ``symmetric`` figure such as a seat edge), as inline SVG. ``scale``
    multiplies every number shown (100 for shares shown in %)."""
    low, high = (math.nan if x is None else x for x in (low, high))  # review.json's null: no interval
    values = [x for x in (value, low, high, *thresholds) if x is not None and math.isfinite(x)]
    if not (values and value is not None and math.isfinite(value)):  # no figure to draw (a point at "nan")
        return ""
    top = max(abs(x) for x in values) * 1.15 or 1.0
    lo, hi = (-top, top) if symmetric else (min(0.0, min(values)), max(values) * 1.15 or 1.0)

    def x(v: float) -> float:
        return PAD + (v - lo) / (hi - lo) * (WIDTH - 2 * PAD)

    def shown(v: float, form: str) -> str:
        # "1 pts" on the seat card's ticks: a point, one, is singular
        text = f"{scale * v:{form}}"
        return text + (" pt" if unit == " pts" and text.lstrip("+-") == "1" else unit)

    marks = sorted([*thresholds, *(-t for t in thresholds if symmetric)])
    labelled, last = [], -math.inf
    for t in marks:  # a label too close to the one before would overlap it
        labelled.append(x(t) - last >= 28)
        last = x(t) if labelled[-1] else last
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" role="img" '
             f'aria-label="{shown(value, ".3g")}, 95% interval '
             f'{verdicts.span(low, high, lambda v: shown(v, ".3g"))}">',
             f'<line x1="{PAD}" y1="14" x2="{WIDTH - PAD}" y2="14" class="axis"/>']
    for t, label in zip(marks, labelled, strict=True):
        parts.append(f'<line x1="{x(t):.1f}" y1="6" x2="{x(t):.1f}" y2="22" class="mark"/>'
                     + (f'<text x="{x(t):.1f}" y="32" class="tick">{shown(t, "g")}</text>' if label else ""))
    if math.isfinite(low) and math.isfinite(high):
        parts.append(f'<line x1="{x(low):.1f}" y1="14" x2="{x(high):.1f}" y2="14" class="ci"/>')
    parts.append(f'<circle cx="{x(value):.1f}" cy="14" r="4" class="point"/></svg>')
    return "".join(parts)


def figure_text(value: float, low: float, high: float, unit: str, scale: float = 1.0, digits: int = 1,
                near=()) -> str:
    """The figure and its interval as the verdict's sentence shows them: never rounded onto a
    threshold of ``near`` (in the figure's units, before ``scale``) that it is not on, nor a share
    (``unit`` %) to 0 where it is not 0 (a rate of 0.03%, "0.03%" in its sentence, read "0.0%");
    an interval on one side of 0 never shows an end at 0, as the sentences have it (a seat's
    -0.22 to -0.029 points read "-0.2 to -0.03" in its sentence and "-0.2 to 0.0" beside it)."""
    sided = (low is not None and high is not None) and (low > 0 or high < 0)
    near = [*near, 0.0] if sided else list(near)

    def at(x: float, d: int) -> str:
        shown = stats.shown_decimals(x, d) if unit == "%" else d
        return verdicts.fixed(scale * x, [scale * t for t in near], digits=shown)

    # more decimals where the interval's ends would be written alike ("2% (95% interval 2 to 2%)")
    digits = stats.apart(low, high, at, digits, value=value)

    def f(x: float) -> str:
        return at(x, digits)

    if value is None or not math.isfinite(value):  # one deal: no share of variance to split ("nan%")
        return "n/a"
    interval = verdicts.span(low, high, f)
    interval += unit if interval != "n/a" else ""
    return f"{f(value)}{unit} (95% interval {interval})"


def cell(value: float, percent: bool, near=()) -> str:
    """A table's figure: a share in % to a tenth, another to two decimals; ``n/a`` where there
    is none (NaN: a comeback share of matches that all last one round, a figure of one deal).
    ``near``: the thresholds (shares) of the verdict the row decides, which a share is never
    rounded onto, as its sentence has it."""
    if value is None or not math.isfinite(value):  # None: review.json's null
        return "n/a"
    if percent and near:
        return f"{verdicts.fixed(100 * value, [100 * t for t in near], digits=stats.shown_decimals(value))}%"
    return f"{stats.percent(value)}%" if percent else f"{value:.2f}"


def interval_cell(low: float, high: float, percent: bool, near=()) -> str:
    """A table's 95% interval, ``low to high`` as :func:`cell` writes each end, or ``n/a``; a
    mean of no width is the same in every match (Kansas City's rounds read "3.00 to 3.00"). A
    missing end (a baseline's null, undefined in the template) is no width: :func:`verdicts.span`
    refuses it."""
    if not percent and isinstance(low, int | float) and low == high:
        return "none: the same in every match"
    return verdicts.span(low, high, lambda x: cell(x, percent, near))


DECIDING_ROWS = ("Winner was behind at half-time", "cards")
"""The rows of the tension and luck tables whose figure the question's verdict is on."""


def deciding(answer: dict, row: str) -> list[float]:
    """The thresholds a table's ``row`` is shown against: the answer's own where its verdict is on
    that row (9.98%, "low" tension in the sentence, read "10.0%" in the table), else none."""
    return marks(answer) if row in DECIDING_ROWS else []


def marks(answer: dict) -> list[float]:
    """The thresholds of an answer's verdict word (the search's convergence has its own)."""
    return [t for w, t in answer.get("thresholds", {}).items() if w != "converged_below_pts"]


def thresholds_text(thresholds: dict, unit: str = "", scale: float = 1.0, first: str = "", what: str = "") -> str:
    """``fair below 1, slight from 1, strong from 3 (points of edge)``: the thresholds beside a
    verdict, ``first`` naming the band below the first threshold."""
    numeric = [(w, t) for w, t in thresholds.items() if isinstance(t, (int, float)) and w != "converged_below_pts"]
    if not numeric:
        return ""
    head = f"{first} below {scale * numeric[0][1]:g}{unit}, " if first else ""
    return head + ", ".join(f"{w} from {scale * t:g}{unit}" for w, t in numeric) + (f" ({what})" if what else "")


def card(key: str, title: str, answer: dict, value: float | None = None, ci=(math.nan, math.nan),
         unit: str = " points", scale: float = 1.0, symmetric: bool = False, first: str = "", what: str = "",
         digits: int = 1) -> dict:
    """One verdict card: the question, its word and sentence, the figure with its interval as
    text and drawn against the thresholds, the thresholds in words, and the play it holds for.
    The figure is never rounded onto a threshold, as its sentence has it."""
    found = value is not None
    short = " pts" if unit == " points" else unit
    return {"key": key, "title": title, "verdict": answer["verdict"], "sentence": answer["sentence"],
            "figure": figure_text(value, *ci, unit, scale, digits, marks(answer)) if found else "",
            "chart": interval_svg(value, *ci, marks(answer), short, symmetric, scale) if found else "",
            "thresholds": thresholds_text(answer.get("thresholds", {}), "%" if unit == "%" else "", scale, first,
                                          what) if found else "",
            "play": answer.get("play", "")}


def seat_card(key: str, title: str, answer: dict) -> dict:
    """The seat question's card: the figure of the seat its sentence names."""
    top = verdicts.named_seat([verdicts.SeatEdge(**{**e, "ci_pts": tuple(e["ci_pts"])}) for e in answer["seats"]])
    return card(key, title, answer, top.edge_pts, top.ci_pts, symmetric=True, first="fair",
                what="points of edge of the seat the verdict names: the furthest from fair whose interval "
                     "bears the word out")


def cards(q: dict) -> list[dict]:
    """The verdict cards of one version's questions, in the page's order."""
    out = [seat_card("seats", QUESTION_TITLES["seats"], q["seats"])]
    if q["seats"].get("search"):
        out.append(seat_card("seats-search", "Is it fair under the strongest play?", q["seats"]["search"]))
    k = q["skill"]
    skill = card("skill", QUESTION_TITLES["skill"], k, *((k["figure"]["value"], k["figure"]["ci"]) if k.get("figure")
                                                          else (None,)), first="little",
                 what="points one search seat wins above the fair share against random players")
    if k.get("figure"):
        skill["thresholds"] += (f"; the search has converged when doubling its samples buys under "
                                f"{k['thresholds']['converged_below_pts']:g} point")
    out.append(skill)
    h = q.get("hidden_information")  # reviews written before it was asked have none
    if h:
        hidden = card("hidden_information", QUESTION_TITLES["hidden_information"], h,
                      *((h["figure"]["value"], h["figure"]["ci"]) if h.get("figure") else (None,)), first="little",
                      what="points the search on the true deal wins above the fair search")
        hidden["tone"] = "none"  # a game of inference or of the deal: neither is better for balance
        out.append(hidden)
    # to a tenth of a percent, as their sentences (a tension card read "28% (95% interval 27 to
    # 28%)" under "27.5% of matches (95% interval 27.0% to 28.0%)")
    for key in ("luck", "tension"):
        a = q[key]
        figure = a["figure"] or {"value": None, "ci": (math.nan, math.nan), "name": ""}  # tension of one-round matches
        out.append(card(key, QUESTION_TITLES[key], a, figure["value"], figure["ci"], "%", 100,
                        first="low", what=figure["name"]))
        below = a.get("unfloored")  # reviews written before it have none
        if below:
            # the floor at 0 held the whole interval: "0.0% (95% interval 0.0 to 0.0%)", certain
            out[-1]["figure"] = verdicts.floor_cell(figure["value"], (below["value"], *below["ci"]))
    for h in q["hazards"]:
        title = f"{'Hazard' if h['risk'] else 'Rate'}: {h['name']}"
        if "seats" in h:  # one seat has it every deal: the verdict is on each seat's gap to its fair share
            out.append(seat_card(f"hazard-{h['name']}", title, h))
            continue
        found = card(f"hazard-{h['name']}", title, h, h["rate"], h["ci"], "%", 100, first="rare",
                     what=h.get("what", "of deals, seats pooled"))  # reviews before 'what': all pooled
        if not h["risk"]:  # a plain rate has no better side: 'common' is no warning (not red)
            found["tone"] = "none"
        out.append(found)
    if q.get("match"):
        from simtool.analysis.review import every_match_alike

        m = q["match"]
        # no share of no width where every match was as long, short of the cap: its sentence says so
        capped = None if "match: capped" in every_match_alike(q) else m["capped"]
        match = card("match", QUESTION_TITLES["match"], m, capped, m["capped_ci"], "%", 100, first="rare",
                     what="of matches stopped by the round cap")
        # its word stands all the same: Trickster's "rare" card (every match 4 rounds) stated no threshold
        match["thresholds"] = match["thresholds"] or thresholds_text(m.get("thresholds", {}), "%", 100, "rare",
                                                                     "of matches stopped by the round cap")
        out.append(match)
    return out


def restriction_rows(q: dict) -> list[dict]:
    # an end that is not 0 never shows as 0, as in the verdict's sentence
    return [dict(r, figure=figure_text(r["cost_pts"], *r["ci_pts"], " points",
                                       near=[0.0, *r.get("thresholds", {}).values()])) for r in q["restrictions"]]


CHANGE_LABELS = {"seats": "Largest seat edge (points)",
                 "seats under the strongest play": "Largest seat edge under the strongest play (points)",
                 "skill": "Skill: search's gain over random (points)", "luck": "Luck: share the cards explain",
                 "hidden information": "Hidden information: what seeing every card wins (points)",
                 "tension": "Tension: winner behind at half-time", "match: rounds": "Rounds per match",
                 "match: capped": "Matches stopped by the round cap"}
"""The changes table's rows in plain English (hazards and restrictions are named after the game's own)."""


def change_label(question: str, risks: frozenset = frozenset()) -> str:
    """A changes row's name; a hazard's as its card names it, ``Hazard`` for one of ``risks``
    (the changes table read "Rate: overshoot" below the card "Hazard: overshoot")."""
    kind, _, name = question.partition(": ")
    if question in CHANGE_LABELS:
        return CHANGE_LABELS[question]
    if kind == "hazards":
        return f"{'Hazard' if name.removesuffix(' (the most exposed seat)') in risks else 'Rate'}: {name}"
    return f"Crude rule {name}: what it costs (points)"


def change_name(question: str, risks: frozenset = frozenset()) -> str:
    """A changes row's name on the console, as the console's verdict lines name its question
    ("rate moon", "hazard overshoot", "crude play no-upgrade"): the row's key read "hazards: moon"
    below "rate moon: rare", where the page says "Rate: moon"."""
    kind, _, name = question.partition(": ")
    if kind == "hazards":
        return f"{'hazard' if name.removesuffix(' (the most exposed seat)') in risks else 'rate'} {name}"
    if kind == "restrictions":
        return f"crude play {name}"
    return question


CHANGE_MARKS = {"seats": verdicts.SEAT_THRESHOLDS, "seats under the strongest play": verdicts.SEAT_THRESHOLDS,
                "skill": verdicts.SKILL_THRESHOLDS, "hidden information": verdicts.HIDDEN_THRESHOLDS,
                "luck": verdicts.LUCK_THRESHOLDS, "tension": verdicts.TENSION_THRESHOLDS,
                "match: capped": verdicts.HAZARD_THRESHOLDS, "restrictions": verdicts.RESTRICTION_THRESHOLDS,
                "hazards": verdicts.HAZARD_THRESHOLDS}
"""The thresholds of the verdict each changes row's figure is worded by, which the row never
rounds it onto (an edge of 2.96 points, "slight", read "3.0 points" there)."""


def change_marks(question: str) -> tuple[float, ...]:
    """:data:`CHANGE_MARKS` of a changes row; none for a rate of the most exposed seat (its
    verdict is on the seat's gap to its fair share, not on the rate) and for match length."""
    if question.endswith("(the most exposed seat)"):
        return ()
    return CHANGE_MARKS.get(question, CHANGE_MARKS.get(question.partition(": ")[0], ()))


def one_decimal(x: float, sign: str = "", near=()) -> str:
    """``x`` with one decimal, never ``-0.0``, and with ``sign`` ``+`` never ``+0.0`` either: a
    difference that rounds to 0 shows no sign (-0.04 is not "+0.0"). The verdicts' rounding
    (:func:`verdicts.fixed`), never onto a threshold of ``near``; ``n/a`` for none (review.json's null)."""
    return "n/a" if x is None or not math.isfinite(x) else verdicts.fixed(x, near, sign=sign)


def _shown(x: float | None, scale: float, sign: str = "", after: str = "", near=(), more: int = 0) -> str:
    """One figure of a changes row, times ``scale``, never rounded onto one of ``near`` (before
    ``scale``) it is not on, nor a share (``after`` %) to 0 where it is not 0; ``more`` decimals
    than that; none (review.json's null: no interval from one unit) is ``n/a``, with no unit."""
    if x is None or not math.isfinite(x):
        return "n/a"
    digits = stats.shown_decimals(x) if after == "%" else 1
    return verdicts.fixed(scale * x, [scale * t for t in near], sign, digits + more) + after


def _before_after(c: dict, scale: float, unit: str, near, delta: str | None = None) -> tuple[str, str]:
    """A changes row's before and after figures, with as many more decimals as it takes (at most
    two) for figures that differ not to show alike: Hearts' largest seat edge, 0.128 and 0.076
    points, read "0.1 points -> 0.1 points" beside a difference of -0.1 points; and for their
    difference as shown to round to the difference shown beside them, ``delta``: 12.32 and 13.35
    rounds a match, "12.3 -> 13.4 (difference +1.0)", read a difference of 1.1 the row denied."""
    for more in range(3):
        shown = tuple(_shown(c[k], scale, after=unit, near=near, more=more) for k in ("before", "after"))
        if (shown[0] != shown[1] or c["before"] == c["after"]) and _adds_up(*shown, delta):
            break
    return shown


def _adds_up(before: str, after: str, delta: str | None) -> bool:
    """Whether ``after`` less ``before``, as shown, rounds to ``delta`` as shown (at its decimals);
    ``True`` where one of them has no figure."""
    numbers = [re.match(r"[+-]?\d+(?:\.(\d*))?", t or "") for t in (before, after, delta)]
    if not all(numbers):
        return True
    digits = len(numbers[2].group(1) or "")
    b, a, d = (float(m.group(0)) for m in numbers)
    return abs(round(a - b, digits) - d) < 0.5 * 10 ** -digits


def amount(threshold: float, scale: float) -> str:
    """A changes row's threshold (:func:`simtool.analysis.review.matters`) in points, as its
    difference is shown: a share's 0.01 is "1 point", an edge's 3.0 "3 points"."""
    pts = round(scale * threshold, 9)
    return f"{pts:g} point{'' if pts == 1 else 's'}"


def size(c: dict) -> tuple[bool | None, float | None, float | None]:
    """A changes row's ``small``, ``threshold`` and ``crosses``; a review.json written before
    rows had them is judged by today's thresholds (:func:`simtool.analysis.review.matters`)."""
    from simtool.analysis.review import bands, matters

    if "threshold" in c:
        small, least = c["small"], c["threshold"]
    else:
        least = matters(c["question"])
        small = verdicts.change_small(*c["ci"], least)
    across = c.get("crosses")
    if "crosses" not in c and all(isinstance(c.get(k), (int, float)) for k in ("before", "after")):
        across = verdicts.crossed(c["before"], c["after"], bands(c["question"]))
    return small, least, across


BAND_WORDS = {"luck": (verdicts.LUCK_WORDS, "luck"), "tension": (verdicts.TENSION_WORDS, "tension")}
"""The words of the verdict's bands of each unsized changes row
(:data:`simtool.analysis.review.UNSIZED`), and what they are of."""


def band_move(c: dict) -> tuple[str, str, str] | None:
    """The words of the bands an unsized changes row's before and after figures lie in, and what
    they are of (``("moderate", "low", "luck")``); ``None`` for another row, or one missing a
    figure. A figure on a threshold but for rounding is in the band above, as
    :func:`verdicts.fixed` shows it there."""
    from simtool.analysis.review import bands

    words = BAND_WORDS.get(c["question"])
    figures = [c.get(k) for k in ("before", "after")]
    if words is None or not all(isinstance(x, (int, float)) and math.isfinite(x) for x in figures):
        return None
    before, after = (words[0][sum(verdicts.reaches(x, t) for t in bands(c["question"]))] for x in figures)
    return before, after, words[1]


def change_words(change: str, small: bool | None, least: float | None, scale: float,
                 across: float | None = None, moved: tuple[str, str, str] | None = None) -> str:
    """A changes row's reading: its ``change`` with how big it is against ``least``, the
    smallest difference that matters to its question (``small``: its interval lies within it):
    "worse, by under 1 point (too small to matter)", "worse, by 1 point or more", "worse,
    unclear whether by under 1 point or more", "no change that matters (under 1 point either
    way)", else "no clear change"; the bare word where the question has no threshold (luck,
    tension, match length). A clear change under ``least`` whose two figures lie either side of one of
    its verdict's thresholds (``across``) is no change too small to matter: "better, by under
    1 point but across the verdict's 1 point line". An unsized row with verdict bands (luck, tension)
    says the bands its two figures lie in, ``moved`` (:func:`band_move`): "changed: moderate ->
    low luck", "changed, moderate luck in both"; where its interval holds 0, by the estimates."""
    if least is None:
        if moved is None:
            return change
        before, after, what = moved
        if before == after:
            return change if change == "no clear change" else f"{change}, {before} {what} in both"
        if change == "no clear change":
            return f"no clear change (the estimates read {before} -> {after} {what})"
        return f"{change}: {before} -> {after} {what}"
    under = amount(least, scale)
    if across is not None and change != "no clear change" and small:
        # under the least that matters, yet into another verdict's band: no change too small
        return f"{change}, by under {under} but across the verdict's {amount(across, scale)} line"
    if change == "no clear change":
        return f"no change that matters (under {under} either way)" if small else change
    if small is None:
        return f"{change}, unclear whether by under {under} or more"
    return f"{change}, by under {under} (too small to matter)" if small else f"{change}, by {under} or more"


def size_legend() -> str:
    """The changes table's thresholds of size, stated under it as :func:`change_words` uses them."""
    from simtool.analysis.review import MATTERS

    def pts(question: str, scale: float) -> str:
        return amount(MATTERS[question], scale)

    return (f"A change is too small to matter when its whole interval lies within the smallest difference that "
            f"matters to its question, the first threshold of that question's verdict: {pts('seats', 1)} of a seat "
            f"edge, {pts('skill', 1)} of skill or of hidden information, {pts('hazards', 100)} of a rate or a "
            f"hazard's (of the most exposed seat's gap to its fair share, where one seat meets it every deal) or of "
            f"matches stopped by the cap, {pts('restrictions', 1)} of what a crude rule costs; a clear change whose "
            f"interval reaches past it is \"unclear whether by under ... or more\". "
            f"Of the differences whose interval holds 0, one that lies within it either way is \"no change that "
            f"matters\". A change under it that moves the figure across one of its verdict's thresholds says so "
            f"(\"by under ... but across the verdict's ... line\"). Luck, tension and match length have no such "
            f"threshold, and their changes are not sized; luck's and tension's say which of their verdict's bands "
            f"their two figures lie in (\"changed: moderate -> low luck\").")


NEUTRAL = frozenset(BAND_WORDS)
"""The changes rows that have no better side, whatever the review.json that is rendered says."""


def change_rows(result: dict) -> list[dict]:
    """The changes table's cells, with their units: a share shows in %, an edge, a gain or a
    cost in points, and a difference of shares in points too (27.3% to 30.3% is +3.0 points,
    not +3.0%, which would read as a relative change)."""
    from simtool.analysis.review import FLOOR

    rows = []
    risks = frozenset(h["name"] for h in result.get("questions", {}).get("hazards", []) if h.get("risk"))
    for c in result.get("changes", []):
        if c["question"] in NEUTRAL and c.get("change") in ("better", "worse"):
            # a review.json written while tension had a better side: read as its cards are
            c = {**c, "change": "changed", "better": None}
        percent = c["question"] in ("luck", "tension") or c["question"].startswith(("hazards", "match: capped"))
        points = percent or c["question"].startswith(("seats", "skill", "restrictions", "hidden information"))
        scale, unit = (100, "%") if percent else (1, " points" if points else "")
        apart = " points" if points else ""
        low, high = c["ci"]
        if c.get("fixed"):
            rows.append({**c, "label": change_label(c["question"], risks), "name": change_name(c["question"], risks),
                         **dict(zip(("before_text", "after_text"), _before_after(c, scale, unit, ()), strict=True)),
                         "delta_text": _shown(c["delta"], scale, "+", apart), "interval_text": c["fixed"],
                         "reads": "no interval, every match as long", "tone": "none"})
            continue

        if c.get("interval") == FLOOR:
            # no difference of shares to measure: "0.0 points (0.0 to 0.0)" claimed one of no width
            word, _, what = band_move(c)  # 0 in both: the lowest band
            rows.append({**c, "label": change_label(c["question"], risks), "name": change_name(c["question"], risks),
                         **dict(zip(("before_text", "after_text"), _before_after(c, scale, unit, ()), strict=True)),
                         "delta_text": "none measurable", "interval_text": FLOOR,
                         "reads": f"{c['change']}, {word} {what} in both", "tone": "none"})
            continue

        near = change_marks(c["question"])
        small, least, across = size(c)
        # nor onto the threshold of its size: an end of 0.996 read "+1.0" beside "by under 1 point"
        least_near = () if least is None else (least,)

        def end(x: float, digits: int = 1, scale: float = scale, least_near: tuple = least_near) -> str:
            # whether the interval holds 0 decides "no clear change": an end of +0.02 points
            # beside "better" read "0.0", as did one of -0.02 beside "no clear change"
            return verdicts.fixed(scale * x, [0.0, *(scale * t for t in least_near)], sign="+", digits=digits)

        # a clear change never shows as none: +0.04 points read "0.0" beside "worse"
        clear = ((0.0,) if c["change"] != "no clear change" else ()) + least_near
        # more decimals for the difference and its ends where it would show as none beside two
        # figures that differ (written apart), or on an end it is not on: Black & White's rounds
        # per match, 2.500 -> 2.503, read "difference 0.0 (-0.005 to +0.01)", and +0.056
        # (-0.011 to +0.122) read "+0.1 (-0.01 to +0.1)"
        for more in range(4):
            delta = _shown(c["delta"], scale, "+", "", clear, more=more)
            if not ((c["delta"] != 0 and delta != "n/a" and float(delta) == 0) or any(
                    x is not None and math.isfinite(x) and x != c["delta"] and end(x, 1 + more) == delta
                    for x in (low, high))):
                break
        places = 1 + more
        delta = _shown(c["delta"], scale, "+", apart, clear, more=more)
        before_after = _before_after(c, scale, unit, near, delta)
        rows.append({**c, "label": change_label(c["question"], risks), "name": change_name(c["question"], risks),
                     **dict(zip(("before_text", "after_text"), before_after, strict=True)),
                     "delta_text": f"{delta} ({verdicts.span(low, high, functools.partial(end, digits=places))})",
                     # a review.json written before pairing combined every row as independent
                     "interval_text": c.get("interval", "independent"),
                     "reads": change_words(c["change"], small, least, scale, across, band_move(c)),
                     # a clear change too small to matter is not set in bold beside the large ones
                     "tone": {"better": "good", "worse": "bad"}.get(c["change"], "none")
                     + (" small" if small and across is None and c["change"] != "no clear change" else "")})
    return rows


def metric_rows(found: dict, published: dict | None) -> list[dict]:
    """The published-metrics table: each metric's value and 95% interval, its meaning in one
    line, its estimator, the published value where the game has one (with its sample), and where
    a CardStock metric stands among CardStock's published games."""
    from simtool.analysis import metrics

    rows = []
    for name, m in found.items():
        low, high = m["ci"] if m.get("ci") else (None, None)
        known = (published or {}).get("values", {}).get(name)
        rows.append({"name": name, "value": "-" if m["value"] is None else f"{m['value']:.3f}",
                     "ci": "-" if low is None or high is None else f"{low:.3f} to {high:.3f}",
                     "meaning": metrics.definition(name).meaning, "definition": m["definition"],
                     "estimator": m["estimator"], "among": metrics.among(name, m["value"], low, high) or "",
                     "published": "" if known is None else
                     f"{known:g} ({published['games']:,} games, no interval)"})
    return rows


@functools.cache
def environment():
    """The review's template environment, made once a process (:mod:`simtool.reports.pages`)."""
    import jinja2

    env = pages.environment()
    env.filters["markup"] = jinja2.utils.markupsafe.Markup
    env.filters["pct"] = lambda v: f"{stats.percent(v)}%"
    # never "+0.0" nor "-0.0"; with thresholds, never onto one (a gain of +2.96, "little" skill, read "+3.0")
    env.filters["signed"] = lambda x, near=(): one_decimal(x, "+", near)
    # a seat table's points as the seat verdict prints them: never rounded onto its 1 or 3 points
    # (an end of -0.989 read "-1.0" in the table beside "-0.99" in the sentence and the card)
    env.filters["seat_pts"] = lambda x, sign="": verdicts.fixed(x, verdicts.SEAT_THRESHOLDS, sign)
    # the cards' interval held whole at the floor of 0 read "0.0 to 0.0" under the card that said so
    env.globals.update(cell=cell, interval_cell=interval_cell, deciding=deciding, marks=marks,
                       floor_note=lambda below: verdicts.floor_note((below["value"], *below["ci"])))
    return env


def render(result: dict) -> str:
    from simtool.analysis import metrics

    env = environment()
    published = result.get("published")
    versions = [{"label": "Reviewed rules", "rules": result["rules"], "cards": cards(result["questions"]),
                 "questions": result["questions"], "restrictions": restriction_rows(result["questions"]),
                 "metrics": metric_rows(result.get("metrics") or {}, published), "published": published,
                 "partners": result["questions"]["seats"].get("partners")}]
    other = result.get("versus")
    if other and other.get("questions"):
        label = "--vs-rule version" if other["source"] == "vs-rule" else "Baseline review"
        # the other version's own: a 4-player Hearts review set CardStock's 4-player values beside
        # its 5-player baseline's figures, and beside its --vs-rule jack=on (Omnibus) version's
        theirs = other["published"] if "published" in other else \
            metrics.published(other.get("game"), other.get("players")) if other["source"] == "baseline" else None
        versions.append({"label": label, "rules": other.get("rules") or {}, "cards": cards(other["questions"]),
                         "questions": other["questions"], "restrictions": restriction_rows(other["questions"]),
                         "metrics": metric_rows(other.get("metrics") or {}, theirs), "published": theirs,
                         "partners": other["questions"].get("seats", {}).get("partners")})
    return env.get_template("review.html.j2").render(
        r=result, versions=versions, changes=change_rows(result), size_legend=size_legend(), tone=TONE,
        cardstock=metrics.CARDSTOCK_TABLE, cardstock_metrics=metrics.CARDSTOCK_METRICS,
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), version=version("simtool"))


def write(out: Path, result: dict) -> tuple[Path, Path]:
    """``review.html`` and ``review.json`` in ``out``, each whole under a temporary name first and
    renamed into place only once both are written (the JSON last): a failure or Ctrl-C leaves the
    earlier review, or none, never half a file."""
    out = Path(out)
    files = {out / "review.html": render(result), out / "review.json": json.dumps(result, indent=2) + "\n"}
    write_together(files, f"the review in {out}")
    return out / "review.html", out / "review.json"
