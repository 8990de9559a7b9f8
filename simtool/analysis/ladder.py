"""Reading a skill ladder's runs: a chain of strategies of rising strength, each played against the one below.

Rung ``k`` plays one seat against ``p - 1`` seats of rung ``k - 1``, the line-up rotated one
seat per deal (so the climber sits in every seat equally often), and its win share per seat
is compared with the fair ``1/p``. Each pair is an ordinary run folder (``run.json`` says
which ladder and rung it is), all pairs share one seed (the same deals where their chunks are of one
size: a search's are smaller), and their
chunks go to one pool of workers through the executor (:mod:`simtool.pipeline.executor`). The ladder *flattens* at
the first rung whose edge over the rung below is not significantly positive (its 95%
interval reaches down to the fair share): past it, more skill (more search) stops paying.

Where the chain's top step doubles a search's budget (``pimc@samples=32`` over
``pimc@samples=16``), :func:`converged` says whether the search still gains from more budget
(at least :data:`GAIN` of win share over the fair share) or has converged. A ladder may also
hold a *reference* rung: the ``clairvoyant`` player (the top search run on the true deal, not a
fair player) in the top rung's seat, against the same rung below on the same deals, kept apart
from the fair chain: its share less the top rung's prices hidden information (:func:`price`).
With ``--duplicate`` every rung plays each deal once per rotation of the line-up, with the same
cards: the cards' luck cancels out of each rung's comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simtool import stats
from simtool.analysis.restrict import paired_cost
from simtool.analysis.verdicts import SKILL_THRESHOLDS, reaches, signed_points, span
from simtool.errors import SimtoolError
from simtool.pipeline.folders import collect, load, other_deals, read_meta


@dataclass(frozen=True)
class Rung:
    """One rung over the rung below: its win share per seat with the 95% interval."""

    rung: int
    name: str
    below: str
    share: float
    low: float
    high: float
    fair: float
    skill: float  # the edge scaled to 0 (chance) .. 1 (the climber wins every deal), -1 (never)
    folder: Path

    @property
    def pays(self) -> bool:
        """Significantly above the fair share: this rung is stronger than the one below."""
        return self.low > self.fair

    @property
    def weaker(self) -> bool:
        """Significantly below the fair share: the chain is not rising here."""
        return self.high < self.fair

    @property
    def unsettled(self) -> bool:
        """Neither above nor below the fair share, and its interval still reaches past *little*
        skill (the skill verdict's first threshold, 3 points): too few units to say that the step
        stops paying (3 deals of balance winning every one against random, 43.9% to 100%, read
        "stops paying")."""
        return not self.pays and not self.weaker and reaches(100 * (self.high - self.fair), SKILL_THRESHOLDS[0])

    @property
    def verdict(self) -> str:
        return "yes" if self.pays else "no, weaker" if self.weaker else "unclear" if self.unsettled else "no"


@dataclass(frozen=True)
class Ladder:
    game: str
    players: int
    rules: dict
    unit: str
    rungs: list[Rung]

    def fits(self, meta: dict) -> bool:
        """Whether the run of ``meta`` plays this ladder's game, players and rules."""
        return (meta["game"], meta["players"], meta["rules"]) == (self.game, self.players, self.rules)

    @property
    def flattens(self) -> Rung | None:
        """The first rung that does not beat the one below (None: every step pays)."""
        return next((r for r in self.rungs if not r.pays), None)

    reference: Rung | None = None
    """The reference rung (``clairvoyant`` in the top rung's place), apart from the fair chain."""

    @property
    def top(self) -> Rung:
        return self.rungs[-1]


def rung(folder: Path) -> Rung:
    """The ladder rung a finished run folder holds: the climber's win share per seat."""
    meta = read_meta(Path(folder))
    info = meta.get("ladder")
    if not isinstance(info, dict) or "rung" not in info:
        raise SimtoolError(f"{folder} is not a ladder rung (its run.json has no 'ladder')")
    _, row = climber(folder)
    return Rung(int(info["rung"]), meta["lineup"][0], meta["lineup"][1], row["win"], row["win_low"],
                row["win_high"], 1 / meta["players"], row["skill"], Path(folder))


def climber(folder: Path) -> tuple[dict, dict]:
    """A finished run of one seat (the line-up's first entry, the climber) against the rest, the
    line-up rotated: its ``run.json`` and the climber's win share per seat with its 95% interval
    (``win``, ``win_low``, ``win_high``, ``skill``; see :func:`climber_share`)."""
    meta, seats, matches = load(folder)
    key, table, rows = (("deal", folder / "seats.parquet", seats) if matches is None
                        else ("match", folder / "matches.parquet", matches))
    duplicate = bool(meta.get("duplicate"))
    outcome = collect(table, rows.select(key, *(["rotation"] if duplicate else []), "seat", "win"))
    return meta, climber_share(outcome, meta["players"], meta["lineup"][0], meta["lineup"][1])


def climber_share(outcome: pl.DataFrame, p: int, upper: str, lower: str) -> dict:
    """The climber's (``upper``'s) win share per seat from ``outcome`` (a row per unit and seat,
    seats in order: ``deal`` or ``match``, ``seat``, ``win``, and ``rotation`` for a duplicate
    run), the line-up rotated one seat per unit (per copy of a duplicate deal): seat ``s`` of
    rotation ``r`` plays position ``(s + r) mod p``, and the climber is position 0. Its interval
    is on rotation strata, or on whole duplicate deals (their ``p`` copies are one unit)."""
    key = "deal" if "deal" in outcome.columns else "match"
    duplicate = "rotation" in outcome.columns
    win = stats.panel(outcome, "win", p)
    ids = outcome[key].to_numpy().reshape(-1, p)[:, :1]
    turn = outcome["rotation"].to_numpy().reshape(-1, p)[:, :1] if duplicate else ids % p
    codes = np.where((np.arange(p) + turn) % p == 0, 0, 1)
    strength = stats.strategy_strength(win, codes, [upper, lower], None if duplicate else turn[:, 0],
                                       ids[:, 0] if duplicate else None)
    return strength.filter(pl.col("strategy") == upper).row(0, named=True)


def ladders(folders: list[Path]) -> list[Ladder]:
    """The ladders among finished run folders: rungs of one game, player count, rules, seed and
    rung list, in rung order; folders that are not rungs are left out."""
    found: dict[tuple, list[Rung]] = {}
    setups, references = {}, {}
    for folder in folders:
        meta = read_meta(Path(folder))
        if "ladder" not in meta:
            continue
        key = (meta["game"], meta["players"], repr(sorted(meta["rules"].items())), meta["seed"],
               meta["n"], tuple(meta["ladder"]["rungs"]), bool(meta.get("duplicate")))
        found.setdefault(key, []).append(rung(Path(folder)))
        setups[key] = meta
        if meta["ladder"].get("reference"):
            references[key] = found[key].pop()
    return [Ladder(k[0], k[1], setups[k]["rules"], setups[k]["unit"], sorted(rs, key=lambda r: r.rung),
                   references.get(k)) for k, rs in found.items() if rs]


def not_whole(ladder: Ladder) -> str | None:
    """Why the rungs of ``ladder`` are not its whole chain, each rung once (``None``: they are):
    a report of some of a ladder's run folders said "Every rung beats the one below: the ladder
    has not flattened" of rung 1 alone, whose rung 2 was clearly weaker, and a ladder's folders
    given twice (a copy of its runs folder) showed every rung twice."""
    planned = read_meta(ladder.rungs[0].folder)["ladder"]["rungs"]
    steps = [r.rung for r in ladder.rungs]
    missing = [k for k in range(1, len(planned)) if k not in steps]
    twice = sorted({k for k in steps if steps.count(k) > 1})
    if not (missing or twice):
        return None
    said = [f"rung{'s' * (len(missing) > 1)} {', '.join(map(str, missing))} missing" if missing else "",
            f"rung{'s' * (len(twice) > 1)} {', '.join(map(str, twice))} given twice" if twice else ""]
    return f"the ladder {', '.join(planned)} ({'; '.join(filter(None, said))})"


def share_text(r: Rung) -> str:
    """A rung's win share with its 95% interval as :func:`simtool.stats.fmt_share` prints it, but
    as its ends where ``x% ± h%``, as printed, would put fair on the other side of an end than the
    rung's word: a rung that pays with 40.0% (33.4 to 47.0%), fair 33.3%, read "40.0% ± 6.8%"
    (down to 33.2%) beside "yes", one not clearly above fair at 56.0% (49.8 to 61.4%) "56.0% ±
    5.8%" (from 50.2%). An end is never printed as fair where it is not (33.34% as "33.3%")."""
    text = stats.fmt_share(r.share, r.low, r.high)
    if not all(np.isfinite((r.share, r.low, r.high))):
        return text
    shown = re.fullmatch(r"(\d+(?:\.(\d+))?)% ± (\d+(?:\.\d+)?)%", text)
    if shown is not None:
        digits = len(shown[2] or "")
        low, high = (round(float(shown[1]) + k * float(shown[3]), digits) for k in (-1, 1))
        fair = round(100 * r.fair, digits)
        if (low > fair) == r.pays and (high < fair) == r.weaker:
            return text
    digits = stats.shown_decimals(r.share)
    while digits < 6 and any(x != r.fair and round(100 * x, digits) == round(100 * r.fair, digits)
                             for x in (r.low, r.high)):
        digits += 1
    return f"{stats.percent(r.share, digits)}% ({stats.percent(r.low, digits)}–{stats.percent(r.high, digits)}%)"


def verdict(ladder: Ladder) -> str:
    """Where the ladder flattens, in one sentence."""
    flat = ladder.flattens
    if flat is None:
        return (f"Every rung beats the one below (95% intervals above the fair "
                f"{100 * ladder.rungs[0].fair:.1f}%): the ladder has not flattened; stronger "
                f"rungs may still pay.")
    if flat.unsettled:
        return (f"The ladder is unclear from rung {flat.rung}: {flat.name} wins {share_text(flat)} per seat "
                f"against {flat.below}, not clearly above the fair {100 * flat.fair:.1f}%, yet its interval "
                f"reaches {SKILL_THRESHOLDS[0]:.0f} points or more above it (more than little skill): play more "
                f"{'matches' if ladder.unit == 'match' else 'deals'} to tell whether "
                f"more skill still pays there.")
    # a rung above the flat one that clearly pays over its own rung below: "from there, more skill
    # (more search) stops paying" was said of Kansas City's random, greedy, target, pimc at 200
    # deals (target +/- 0 over greedy) beside pimc's "+19.7 pts (+13.6 to +25.9) yes" over target
    again = next((r for r in ladder.rungs if r.rung > flat.rung and r.pays), None)
    how = (f"clearly below the fair {100 * flat.fair:.1f}%: it is weaker than the rung below" if flat.weaker
           else f"not clearly above the fair {100 * flat.fair:.1f}%")
    if again is not None:
        how += (f"; yet rung {again.rung}, {again.name}, pays over {again.below} ({gain_points(again)}), "
                f"so more skill still pays above it")
    else:
        how += ", so the chain stops rising there" if flat.weaker else \
            ": from there, more skill (more search) stops paying"
    return (f"The ladder flattens at rung {flat.rung}: {flat.name} wins "
            f"{share_text(flat)} per seat against "
            f"{flat.below}, {how}.")


GAIN = 0.01
"""The least gain of win share over the fair share (one point) for which a search's top budget
step counts as still gaining."""


def _strategy(name: str) -> str:
    """A rung's strategy without its parameters and restrictions: ``pimc@samples=8`` -> ``pimc``."""
    return re.split(r"[@~]", name, maxsplit=1)[0]


BUDGET = frozenset({"samples", "keep", "deep", "focus_samples", "focus_keep", "focus_deep"})
"""A search's budget: its worlds per decision and the worlds more of a second look (``pimc``,
``ismcts``). Its other parameters (a play-out policy, ``waves``) and a heuristic's (``under``)
change how it plays, not how much it searches."""


def _parameters(name: str) -> tuple[str, dict[str, str], str]:
    """A rung's strategy, its parameters and its restrictions: ``pimc@samples=8~x`` ->
    ``("pimc", {"samples": "8"}, "~x")``."""
    played, tilde, restricted = name.partition("~")
    base, _, given = played.partition("@")
    return base, dict(kv.partition("=")[::2] for kv in given.split(",") if kv), tilde + restricted


def changed(r: Rung) -> list[str]:
    """The parameters the rung sets otherwise than the rung below, where both are one strategy
    under the same restrictions; none where they are not."""
    return changed_over(r.name, r.below)


def changed_over(name: str, below: str) -> list[str]:
    """:func:`changed` of the rung ``name`` over the rung ``below``."""
    (base, mine, cut), (below, theirs, below_cut) = _parameters(name), _parameters(below)
    if base != below or cut != below_cut:
        return []
    return sorted(k for k in {*mine, *theirs} if mine.get(k) != theirs.get(k))


def budget_step(r: Rung) -> bool:
    """Whether the rung is the same strategy as the rung below with another search budget only
    (:data:`BUDGET`): ``target@under=1`` over ``target`` is no budget step, and read as one it
    was "the larger budget plays worse"."""
    return bool(changed(r)) and set(changed(r)) <= BUDGET


def converged(ladder: Ladder) -> bool | None:
    """Whether the fair chain's search has converged: its top step (the top rung over the one
    below, the same strategy with a larger budget) gains less than :data:`GAIN` (one point of win
    share over the fair share) with 95% confidence.

    ``True``: converged (the top step's 95% interval lies below fair + 1 point: more budget buys
    under a point). ``False``: still gaining (the top step's share is at least fair + 1 point and
    its interval lies above the fair share). ``None``: neither can be said: the top step is no
    budget step (two different strategies), or the interval is too wide at this number of deals
    to tell (play more deals). The reference rung (``clairvoyant``) never counts."""
    top = ladder.top
    if not budget_step(top):
        return None
    if top.high < top.fair + GAIN:
        return True
    if reaches(top.share - top.fair, GAIN) and top.low > top.fair:
        return False
    return None


def convergence(ladder: Ladder) -> str:
    """:func:`converged` in one sentence, with the top step's gain and its interval in points."""
    top = ladder.top
    if not budget_step(top):
        if other := changed(top):
            return (f"Convergence: not read: the top step ({top.name} over {top.below}) changes "
                    f"{_strategy(top.name)}'s {', '.join(other)}, not a search's budget alone, so its gain says "
                    f"which setting plays better, not whether more search would still gain.")
        return (f"Convergence: the top step ({top.name} over {top.below}) does not raise a search's "
                f"budget, so the ladder cannot say whether more search would still gain.")
    gain = (f"{top.name} over {top.below} gains {gain_points(top)} of win share per seat over the "
            f"fair {100 * top.fair:.1f}%")
    flag = converged(ladder)
    if flag and top.weaker:
        # "buys almost nothing" beside a step that surely loses points would hide the loss
        return (f"Converged: {gain}, under {100 * GAIN:.0f} point with 95% confidence and clearly below fair: "
                f"the larger budget plays worse here, so more search buys nothing.")
    if flag:
        return f"Converged: {gain}, under {100 * GAIN:.0f} point with 95% confidence: more search buys almost nothing."
    if flag is False:
        return (f"Still gaining: {gain}: a larger budget still pays (surely above fair, and "
                f"{100 * GAIN:.0f} point or more at its estimate).")
    return (f"Not yet clear whether the search has converged: {gain}; the interval reaches both "
            f"below and above {100 * GAIN:.0f} point: play more deals.")


def gain_points(r: Rung) -> str:
    """A rung's gain over the fair share in points, with its 95% interval: ``+0.4 pts (-0.8 to +1.6)``;
    a figure that shows as 0 has no sign (``0.0``, not ``+0.0`` or ``-0.0``), and an end of the
    interval is never rounded onto fair, which decides whether the rung pays (+0.04: "+0.04"), nor
    any of them onto the :data:`GAIN` point that decides convergence (+0.996 read "+1.0" beside
    "under 1 point"). Where the interval lies on one side of fair (the rung pays, or is weaker),
    the gain is kept off fair too: +0.04 read "0.0 pts" beside "yes"."""
    step = (100 * GAIN,)
    sided = (0.0, *step) if r.pays or r.weaker else step
    return (f"{signed_points(r.share - r.fair, sided)} pts ({signed_points(r.low - r.fair, (0.0, *step))} to "
            f"{signed_points(r.high - r.fair, (0.0, *step))})")


def same_cuts_deals(a: dict, b: dict) -> str | None:
    """:func:`other_deals` of two runs, where chunks of two sizes that cut the first ``n`` deals
    alike are one: deal ``i`` is drawn from its chunk's stream (the chunk's number and the
    seed), so a review's search play of 256 deals in chunks of 2,048, and the reference's in
    chunks of 16,384, both play chunk 0 of 256 deals: the same deals, which the page called
    "not the same deals (chunks of 16,384 deals against 2,048)" in every demo review, and then
    "wide: they share their deals" in the same paragraph."""
    n, plain = a.get("n"), not (a.get("precision") or b.get("precision"))  # --precision draws to its cap
    if plain and isinstance(n, int) and all(isinstance(m.get("chunk"), int) and m["chunk"] > 0 for m in (a, b)) \
            and range(0, n, a["chunk"]) == range(0, n, b["chunk"]):
        b = {**b, "chunk": a["chunk"]}
    return other_deals(a, b)


def paired_wins(top: Rung, ref: Rung) -> tuple[np.ndarray, np.ndarray] | None:
    """The climber's win in each deal of the two rungs' runs, deal by deal, where they played the
    same deals (:func:`same_cuts_deals`), one seat per deal, seats rotated; ``None`` otherwise
    (rungs of no run folder, whole matches, duplicate deals)."""
    if top.folder is None or ref.folder is None or not all((Path(r.folder) / "run.json").is_file()
                                                           for r in (top, ref)):
        return None
    metas = [read_meta(Path(r.folder)) for r in (top, ref)]
    if same_cuts_deals(*metas) is not None or any(
            m.get("unit", "deal") != "deal" or m.get("duplicate") or not m.get("rotate") for m in metas):
        return None
    wins = []
    for r, m in zip((top, ref), metas, strict=True):
        _, seats, _ = load(Path(r.folder))
        p = m["players"]
        # line-up position 0, the climber, sits at seat -deal mod p (seats rotated one a deal)
        rows = collect(Path(r.folder) / "seats.parquet", seats.filter(pl.col("seat") == (-pl.col("deal")) % p)
                       .select("deal", "win").sort("deal"))
        wins.append(rows)
    if not wins[0]["deal"].equals(wins[1]["deal"]):
        return None
    return wins[0]["win"].to_numpy().astype(float), wins[1]["win"].to_numpy().astype(float)


def price(ladder: Ladder) -> tuple[float, float, float] | None:
    """What knowing the hidden cards wins: the reference rung's win share less the top rung's,
    both against the same line-up, with a 95% interval. Where the two runs played the same deals
    (a review's do), deal by deal (:func:`simtool.stats.paired_difference`): combined as if
    independent, Trickster's, where nothing is hidden and the clairvoyant plays as pimc on every
    deal, read "0.0 points (-3.8 to 3.8): unclear whether little or some". Otherwise each end
    combines the two shares' own distances to their ends on that side
    (:func:`simtool.stats.mover_difference`): the clairvoyant's share near 1 has a lopsided
    interval, whose half-width centred on it put the price where the deals do not (2 deals, the
    clairvoyant winning both, 34% to 100%, pimc neither, 0% to 66%: "+100.0 points (53.5 to
    146.5)", now 7.0 to 100.0). ``None`` without a reference rung, or when it does not face the
    top rung's opponents. It stays within -1 to 1, what a difference of two win shares can be."""
    ref, top = ladder.reference, ladder.top
    if ref is None or ref.below != top.below or not searches(top):
        return None
    paired = paired_wins(top, ref)
    if paired is not None:
        # the rungs' own shares (within rotation strata, as every rung's), the interval deal by deal
        gain, diff = ref.share - top.share, paired[1] - paired[0]
        if stats.alike(diff):  # one amount every deal: Wilson's on the deals, not a width of 0
            low, high = stats.alike_interval(gain, len(diff), 1.0)
        else:
            # never narrower than the count of deals that differ allows, as restricted play's cost:
            # Trickster's clairvoyant and pimc alike on all 300 deals read "0.0 points (0.0 to 0.0)"
            half = paired_cost(paired[1], paired[0], 1.0)[1]
            low, high = gain - half, gain + half
    else:
        gain, low, high = stats.mover_difference((ref.share, ref.low, ref.high), (top.share, top.low, top.high))
    return gain, max(low, -1.0), min(high, 1.0)


def _base(name: str) -> str:
    """A rung's strategy without its parameters and restrictions: ``pimc`` of
    ``pimc@samples=4~higher-colour`` and of ``pimc~higher-colour`` alike."""
    return re.split(r"[@~]", name, maxsplit=1)[0]


def searches(top: Rung) -> bool:
    """Whether the top rung is the search the reference rung runs on the true deal (``pimc``,
    unrestricted: the reference plays no restriction): only then is the reference's gain over it
    the price of hidden information alone."""
    return _base(top.name) == "pimc" and "~" not in top.name


def searches_below(top: Rung) -> bool:
    """Whether the rung below the top one is a search (its play differs from any play-out
    policy the reference models the others by)."""
    return _base(top.below) in ("pimc", "ismcts")


def reference_sentence(ladder: Ladder) -> str | None:
    """What knowing the hidden cards wins, from the reference rung, in one sentence."""
    ref, top = ladder.reference, ladder.top
    if ref is not None and ref.below == top.below and not searches(top):
        # clairvoyant searches, the top rung does not (or plays restrictions clairvoyant does not):
        # the gap mixes searching, or the restrictions, with seeing
        why = (f"{top.name} plays restrictions the reference does not, so the gap is what seeing the cards "
               f"and playing unrestricted win together" if _base(top.name) == "pimc" else
               f"{top.name} is no search, so the gap is what searching and seeing the cards win together")
        return (f"Reference, not a fair player: {ref.name} (a search on the true deal, seeing every hidden "
                f"card) wins {stats.fmt_share(ref.share, ref.low, ref.high)} per seat against "
                f"{ladder.players - 1} × {top.below}, where {top.name} wins "
                f"{stats.fmt_share(top.share, top.low, top.high)}; {why}, not the price of hidden "
                f"information: put pimc at the top of the ladder for that.")
    found = price(ladder)
    if found is None:
        return None
    gain, low, high = found
    # one deal gives the paired price no interval: "(+nan to +nan)"
    worth = f"knowing the hidden cards is worth {signed_points(gain)} points ({span(low, high, signed_points)})"
    if high < 0:  # as the review's answer (verdicts.hidden_verdict): a weaker reference prices nothing
        worth = (f"it surely wins less, {signed_points(gain)} points ({signed_points(low)} to "
                 f"{signed_points(high, (0.0,))}): the reference is too weak in this game to price the hidden cards")
    if low <= 0 and searches_below(top):
        # Black & White 3p, 600 deals: "knowing the hidden cards is worth -0.9 points (-5.9 to +4.2)"
        # against 2 x pimc@samples=32, where against 2 x balance the same reference wins 16 points
        # more than pimc: its one play-out per option models the others as the play-out policy
        worth += (f"; but its play-outs model the others as the play-out policy, not as the search "
                  f"{top.below} is, so against a search it may price the cards low (docs/reference-player.md)")
    return (f"Reference, not a fair player: {ref.name} (the top search on the true deal, seeing "
            f"every hidden card) wins {stats.fmt_share(ref.share, ref.low, ref.high)} per seat against "
            f"{ladder.players - 1} × {top.below}, where {top.name} wins "
            f"{stats.fmt_share(top.share, top.low, top.high)}: {worth}.")
