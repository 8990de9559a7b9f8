"""A tuning's answer in words: settings as the game plays them (the sheet's default and its
number are one setting), and the recommendation drawn from the re-measures of the best trials
and the sheet's defaults (see ``simtool.commands.tune``).

``config`` below is a tuning's ``Config``: game, players, rules, vary, n, unit and
``objective_list()``, whose objectives have a ``label`` and a ``direction`` (min or max)."""

from __future__ import annotations

import math

from simtool import games, options


def setting(config, params: dict) -> tuple:
    """The varied options of ``params`` as the game plays them (``"sheet"`` as its number, see
    ``Game.played``): two trials with equal settings are one setting, measured and named once."""
    g = games.get(config.game)
    played = games.played(g, {**options.resolve(g, config.rules), **params}, config.players)
    return tuple(played[k] for k in config.vary)


def values_text(config, params: dict) -> list[str]:
    """Each varied option's value in words: ``2``, or ``3 (the sheet's)`` where it was given as
    ``sheet`` (its number at this player count, under the other rules of ``params``)."""
    played = setting(config, params)
    return [f"{number} (the sheet's)" if params[k] == "sheet" else str(params[k])
            for k, number in zip(config.vary, played, strict=True)]


def setting_text(config, params: dict) -> str:
    """``pass_count=2, limit=3``: the setting as played, for a sentence (which names the sheet's
    itself)."""
    return ", ".join(f"{k}={v}" for k, v in zip(config.vary, setting(config, params), strict=True))


def unmoved(config, trials: list, tables: dict | None = None) -> list[str]:
    """The varied options whose every change measured alike: finished trials (on one seed, so the
    same deals) that differ in that option alone gave the same figures and intervals. Kansas City's
    ``hands`` tuned on single deals measured 3 and p alike and said "Keep the sheet" without a word
    that the deals never reach what it changes. ``tables``: trial number -> the checksums of its
    runs' tables; on single deals the warning says the deals never reach the option, so trials
    whose deals played otherwise are not alike, whatever their figures (50 deals of Kansas City at
    limit=5 and limit=9 gave one seat spread, and read "limit changed no figure ... it may matter
    only to whole matches")."""
    done = [t for t in trials if t.values]

    def measured(t) -> tuple:
        return (trial_figures(t), tables.get(t.number)) if tables and config.unit == "deal" else trial_figures(t)

    alike = []
    for i, name in enumerate(config.vary):
        groups: dict[tuple, dict] = {}
        for t in done:
            played = setting(config, {k: t.params[k] for k in config.vary})
            groups.setdefault(played[:i] + played[i + 1:], {}).setdefault(played[i], set()).add(measured(t))
        changed = [g for g in groups.values() if len(g) > 1]
        if changed and all(len(set().union(*g.values())) == 1 for g in changed):
            alike.append(name)
    return alike


def trial_figures(trial) -> tuple:
    """What a finished trial measured: its figures and their intervals."""
    return tuple(trial.values), tuple(tuple(v) for v in trial.user_attrs.get("intervals", {}).values())


def unmoved_text(config, names: list[str]) -> str:
    """The warning a tuning of :func:`unmoved` options gives before its recommendation."""
    which = ", ".join(names)
    why = ("it may matter only to whole matches (a match's length, its goal), which this tuning does not play: "
           "it plays single deals; tune it with whole matches (an objective such as match_rounds=N) or vary "
           "another rule" if config.unit == "deal" else "nothing these objectives measure depends on it")
    return (f"Warning: {which} changed no figure: its trials measured alike whatever its value, on the same "
            f"{'deals' if config.unit == 'deal' else 'matches'}; {why}.")


def advice(config, trials: list, confirmed: list[dict], chosen: list[dict], tables: dict | None = None) -> str:
    """The tuning's whole answer: the warning of :func:`unmoved` options, then the
    :func:`recommendation`, which has nothing to choose from when no varied option moved a
    figure (it said "The sheet's own hands=3 looks best" right after the warning that hands
    changed nothing). ``tables``: as :func:`unmoved` takes them."""
    alike = unmoved(config, trials, tables)
    if not alike:
        return recommendation(config, confirmed, chosen)
    # every option unmoved between trials differing in it alone can still leave a trial with no
    # such neighbour measuring otherwise (two options, each sampled anew): only where every
    # finished trial measured alike is there nothing to choose
    if set(alike) == set(config.vary) and chosen and len({trial_figures(t) for t in trials if t.values}) == 1:
        sheet = setting_text(config, sheet_defaults(config))
        return (f"{unmoved_text(config, alike)} No setting tried measured differently from the sheet's "
                f"{sheet}: there is nothing to choose. Keep the sheet.")
    return f"{unmoved_text(config, alike)} {recommendation(config, confirmed, chosen)}"


def sheet_defaults(config) -> dict:
    """The sheet's value of each varied option."""
    g = games.get(config.game)
    return {name: next(o for o in g.options if o.name == name).default for name in config.vary}


def trials_of(c: dict) -> list[int]:
    """The candidate trials a re-measure stands for (a tuning saved before settings were merged
    named its one trial in the label)."""
    if "trials" in c:
        return c["trials"]
    return [] if c["label"] == "defaults" else [int(c["label"].split()[-1])]


# ---- the recommendation -----------------------------------------------------------------------

def difference(a: list[float], b: list[float], objective) -> tuple[float, float, str]:
    """How ``a`` (value, low, high) compares with ``b`` on ``objective``: the difference
    ``a - b``, its 95% half-width (the two intervals' half-widths in quadrature: the re-measures
    are separate runs) and ``better``, ``worse`` or ``same`` (the interval holds zero).

    Each half-width is the wider side of its interval: a distance to a target whose interval
    holds the target is [0, far], up to twice as narrow as the figure's own interval around it."""
    d = a[0] - b[0]
    half = math.hypot(wider_side(a), wider_side(b))
    if abs(d) <= half:
        return d, half, "same"
    return d, half, "better" if (d < 0) == (objective.direction == "min") else "worse"


def wider_side(measured: list[float]) -> float:
    value, low, high = measured
    return max(value - low, high - value)


def deals_to_tell(d: float, half: float, n: int) -> int | None:
    """Deals per re-measure that would bring the half-width below ``|d|`` (intervals narrow as
    one over the square root of n), or ``None`` when no difference was measured at all."""
    if d == 0 or not math.isfinite(half):
        return None
    return math.ceil(round(n * (half / abs(d)) ** 2 * 1.1, 6))  # a tenth over: the estimate has its own noise


def rounded_up(n: int) -> int:
    """``n`` rounded up to two significant figures, the --n that :func:`nice` writes."""
    digits = max(len(str(n)) - 2, 0)
    return -(-n // 10 ** digits) * 10 ** digits


def nice(n: int) -> str:
    """``n`` rounded up to two significant figures, written as --n takes it: ``2.4e5``, ``1e6``,
    ``900``."""
    value = rounded_up(n)
    if value < 10_000:
        return str(value)
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


def remeasured(per_trial: int, remeasure_n: int, n: int) -> int:
    """What each re-measure plays under the --n advised for ``per_trial``: the same multiple of a
    trial's n as now, so the sentence names what that --n gives, not the unrounded need."""
    return round(rounded_up(per_trial) * remeasure_n / n)


def recommendation(config, confirmed: list[dict], chosen: list[dict]) -> str:
    """The tuning's answer in words, from the re-measures alone: the best setting (single
    objective) or the Pareto front, against the sheet's defaults, and what would tell them
    apart when their intervals cannot."""
    if not chosen:
        return ("No setting has been re-measured yet: the tuning has not finished (go on with simtool "
                "tune --resume), or none of its trials could be played.")
    base = next((c for c in confirmed if c["label"] == "defaults"), None)
    unit = f"{config.unit}es" if config.unit == "match" else f"{config.unit}s"
    if len(config.objective_list()) > 1:
        return front_text(config, chosen, base)
    top, o = chosen[0], config.objective_list()[0]
    name = setting_text(config, top["params"])
    if base is None:
        return (f"{name} looks best; the sheet's defaults cannot be played with the fixed rules, so "
                f"there is nothing to compare it with.")
    if top is base:
        rivals = [difference(c["values"][o.label], base["values"][o.label], o)[2]
                  for c in confirmed if c is not base]
        clearly = "is best: every other setting re-measured is clearly worse" if rivals and set(rivals) == {"worse"} \
            else "looks best: no other setting re-measured is clearly better"
        return f"The sheet's own {name} {clearly} on {o.label}. Keep the sheet."
    d, half, verdict = difference(top["values"][o.label], base["values"][o.label], o)
    sheet = setting_text(config, base["params"])
    figures = (f"{measured(o)} {fmt(top['values'][o.label])} against the sheet's "
               f"{fmt(base['values'][o.label])}, each re-measured on {top['n']:,} fresh {unit}")
    if verdict == "better":
        return f"{name} is clearly better than the sheet's {sheet} ({figures}). Change to {name}."
    if verdict == "worse":
        return (f"No setting tried beats the sheet's {sheet}: the search's best, {name}, is clearly "
                f"worse on re-measure ({figures}). Keep the sheet.")
    need = deals_to_tell(d, half, top["n"])
    if need is None:
        return f"{name} and the sheet's {sheet} measured the same ({figures}): keep the sheet."
    if (d > 0) == (o.direction == "min"):  # the search's best re-measured no better than the sheet
        return (f"No setting tried beats the sheet's {sheet}: the search's best, {name}, re-measured no "
                f"better and cannot be told from it at this budget ({figures}). Keep the sheet.")
    per_trial = math.ceil(need / (top["n"] / config.n))  # re-measures play a multiple of a trial's n
    return (f"{name} looks best, but it cannot be told from the sheet's {sheet} at this budget "
            f"({figures}): to tell a difference this size apart, tune again with --n "
            f"{nice(per_trial)} or more (now {config.n:,}; a new --out), so that the re-measures "
            f"play {remeasured(per_trial, top['n'], config.n):,} {unit} each.")


def front_text(config, chosen: list[dict], base: dict | None) -> str:
    """Several objectives: the Pareto front of the re-measures, each setting where it is
    clearly better or worse than the sheet's defaults, and the one to take where one is clearly
    better on some objective and worse on none."""
    if chosen == [base]:
        return (f"The sheet's own {setting_text(config, base['params'])} leads the re-measures: no "
                f"setting re-measured beats it on one objective without losing on another. Keep the sheet.")
    parts, wins, unclear = [], [], 0
    for c in chosen:
        name = setting_text(config, c["params"])
        if base is None or c is base:
            parts.append(name + (" (the sheet's own)" if c is base else ""))
            continue
        verdicts = {o.label: difference(c["values"][o.label], base["values"][o.label], o)[2]
                    for o in config.objective_list()}
        better = [k for k, v in verdicts.items() if v == "better"]
        worse = [k for k, v in verdicts.items() if v == "worse"]
        said = ([f"better on {', '.join(better)}"] if better else []) + (
            [f"worse on {', '.join(worse)}"] if worse else [])
        parts.append(f"{name} ({'; '.join(said) or 'not clearly different from the sheet'})")
        if better and not worse:
            wins.append(name)
        unclear += not said
    against = f" against the sheet's {setting_text(config, base['params'])}" if base else ""
    head = (f"{len(chosen)} settings trade the objectives off (the Pareto front of the re-measures)"
            if len(chosen) > 1 else "One setting leads the re-measures")
    if base is None:
        last = ""
    elif wins:
        last = f" {wins[0]} is clearly better than the sheet on some objective and worse on none."
    elif unclear == sum(c is not base for c in chosen):  # the sheet's own place on the front is no rival
        last = " None can be told from the sheet at this budget" + telling(config, chosen, base) + "."
    else:
        last = (" None is clearly better than the sheet on one objective without being worse on "
                "another: the choice is the designer's.")
    return f"{head}{against}: " + "; ".join(parts) + "." + last


def telling(config, chosen: list[dict], base: dict) -> str:
    """What would tell the front's settings from the sheet's (none clearly differs on any
    objective): the --n whose re-measures bring a half-width under the largest difference
    measured, relative to it, as :func:`recommendation` says it for one objective; "a larger
    --n would tell" said neither how much larger nor that it would tell only a difference this
    size."""
    found = []
    for c in chosen:
        if c is base:
            continue
        for o in config.objective_list():
            d, half, _ = difference(c["values"][o.label], base["values"][o.label], o)
            need = deals_to_tell(d, half, c["n"])
            if need is not None:
                found.append((need, c, o, d, half))
    if not found:
        return ": they measured the same as the sheet, so more deals would not part them"
    need, c, o, d, half = min(found, key=lambda f: f[0])
    per_trial = math.ceil(need / (c["n"] / config.n))  # re-measures play a multiple of a trial's n
    unit = f"{config.unit}es" if config.unit == "match" else f"{config.unit}s"
    return (f": to tell the clearest difference measured apart ({setting_text(config, c['params'])} on "
            f"{measured(o)}, {d:+.4f} ± {half:.4f}), tune again with --n {nice(per_trial)} or more (now "
            f"{config.n:,}; a new --out), so that the re-measures play {remeasured(per_trial, c['n'], config.n):,} "
            f"{unit} each")


def measured(o) -> str:
    """What an objective's figures are, as the tables and sentences name them: the figure, or
    for a target its distance from it (``moon=0.5`` printed 0.3709 for a rate of 0.87, which read
    as a rate of 0.37)."""
    return o.label if o.target is None else f"distance to {o.label}"


def fmt(values: list[float]) -> str:
    value, low, high = values
    return f"{value:.4f} [{low:.4f}, {high:.4f}]"
