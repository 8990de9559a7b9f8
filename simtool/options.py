"""Settings and the values they take: the one value model of rule options (the tunable rules a
game declares, parsed from ``--rule name=value``), strategies' parameters (``NAME@KEY=VALUE``) and
the command line's checked options; one check, one error (:func:`simtool.errors.bad`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from .errors import SimtoolError, bad, choices, option, shown

WHOLE, NUMBER, NUMBERS, CHOICE, TEXT = "whole", "number", "numbers", "choice", "text"


@dataclass(frozen=True)
class Value:
    """What a setting may take, and its one check. ``kind``: :data:`WHOLE` (a whole number) or
    :data:`NUMBER` (any finite number) within ``low``..``high`` (both included; either may be
    open), every ``step``-th from ``low``; :data:`NUMBERS`, a list of ``items[0]..items[1]``
    whole numbers within ``low..high``, written with commas (``"0,5,10"``); :data:`CHOICE`, one
    of ``choices`` (matched by its text); :data:`TEXT`, any text. ``auto``: a word taken besides
    them (``"sheet"``: the rule sheet sets the number)."""

    kind: str
    low: float | None = None
    high: float | None = None
    step: int = 1
    items: tuple[int, int] | None = None
    choices: tuple = ()
    auto: str | None = None

    def span(self) -> str:
        """The values in short, as ``simtool games`` lists them: ``1..14``, ``3, 0, 1, 2``."""
        if self.kind == CHOICE:
            return choices(self.choices)
        if self.kind == TEXT:
            return "any text"
        if self.kind == NUMBERS:
            return (f"{self.items[0]}-{self.items[1]} whole numbers {self.low}..{self.high}, "
                    f"comma-separated")
        if self.low is not None and self.high is not None:
            steps = f" in steps of {self.step}" if self.step > 1 else ""
            return f"{_num(self.low)}..{_num(self.high)}{steps}"
        if self.low is not None:
            return f"{_num(self.low)} or more"
        return f"at most {_num(self.high)}" if self.high is not None else "any"

    def valid(self) -> str:
        """The valid values in words, as an error names them: ``sheet or a whole number 1..14``."""
        text = self.span()
        if self.kind == CHOICE:
            text = f"one of {text}"
        if self.kind in (WHOLE, NUMBER):
            what = "a whole number" if self.kind == WHOLE else "a number"
            text = what if text == "any" else f"{what}{',' if self.high is None else ''} {text}"
        return (f"{self.auto} or " if self.auto is not None else "") + text

    def check(self, name: str, value, where: str = ""):
        """``value`` (text, or a typed value from Python) as this kind's value, or the one error
        ``bad NAME VALUE[ where]; expected ...`` naming the valid values."""
        try:
            return self.parse(value)
        except (TypeError, ValueError, OverflowError):
            shown = value.strip() if isinstance(value, str) else value
            raise bad(name, shown, self.valid(), where) from None

    def parse(self, value):
        """``value`` as this kind's value; ValueError (or TypeError) when it is not one."""
        text = str(value).strip()
        if self.auto is not None and text == self.auto:
            return self.auto
        if self.kind == TEXT:
            return text
        if self.kind == CHOICE:
            for v in self.choices:
                if str(v) == text or (isinstance(v, float) and _same_float(text, v)):
                    return v
            # a listed whole number is read as a range's is (pass_count=2.0, 2e0): it was "bad rule
            # pass_count '2.0'; expected one of 3, 0, 1, 2", naming the 2 given as not valid
            numbers = [v for v in self.choices if isinstance(v, int) and not isinstance(v, bool)]
            if numbers and (number := Value(WHOLE)._number(value, WHOLE)) in numbers:
                return numbers[numbers.index(number)]
            raise ValueError(text)
        if self.kind == NUMBERS:
            # a list from Python, number by number: its text, "[np.int64(5), np.int64(3)]" (numpy 2)
            # or "[5 3]" (an array), read as no numbers though deck=np.int64(30) was taken
            listed = isinstance(value, (list, tuple)) or getattr(value, "ndim", None) == 1
            numbers = [self._number(x, WHOLE) for x in (value if listed else text.strip("[]()").split(","))]
            if not self.items[0] <= len(numbers) <= self.items[1]:
                raise ValueError(text)
            return ",".join(map(str, numbers))
        return self._number(value, self.kind)

    def _number(self, value, kind: str):
        # True is 1 to Python, never to a user; numpy's True (a notebook's frame cell) was read as 1
        if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", None) == "b":
            raise ValueError(value)
        if isinstance(value, (str, Written)):
            text = str(value)
            number = read_whole(text) if kind == WHOLE else float(text)
            if number == 0 and Decimal(text.strip()) != 0:  # 1e-400: not 0, though a float reads 0
                raise ValueError(value)
        else:
            number = value
        if not isinstance(number, int) and (not math.isfinite(number)
                                            or (kind == WHOLE and not float(number).is_integer())):
            raise ValueError(value)
        # a whole number is compared exactly: 1e400 is larger than a bound, not a float's overflow
        number = int(number) if kind == WHOLE else float(number)
        if ((self.low is not None and number < self.low) or (self.high is not None and number > self.high)
                or (self.step > 1 and (number - self.low) % self.step)):
            raise ValueError(value)
        return number


def _same_float(text: str, choice: float) -> bool:
    """Whether ``text`` writes the number ``choice`` (a game's choice 0.5 as ``0.50`` or ``5e-1``,
    as a grid file's float is written: its text is kept for errors, :class:`Written`)."""
    try:
        return float(text) == choice
    except ValueError:
        return False


class Written(float):
    """A number read from a file (a grid's TOML), with the text it was written as: read exactly
    where a whole number is wanted (``seed = 1e30`` is 10^30, as ``--seed 1e30``), and quoted as
    written (``1e400``, not the ``inf`` a float makes of it)."""

    text: str

    def __new__(cls, text: str) -> Written:
        number = super().__new__(cls, text)
        number.text = text
        return number

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


DIGITS = 4300
"""The most digits of a whole number read from text (Python's own limit for ``int(text)``): a
``1e999999999`` is refused, not expanded into a number of a billion digits."""


def read_whole(text: str) -> int:
    """``text`` as a whole number, exactly: ``12``, ``1_000``, ``1e6``, ``2.0``, ``２`` (any digits
    Python reads), the same number as ``int`` would give for the digits written out. A decimal
    that is not exactly whole (``4000.0000000000001``, which a float rounds to 4000) is a
    ValueError, as is text that is not a number, a NaN or an infinity."""
    text = str(text).strip()
    try:
        return int(text)
    except ValueError:
        float(text)  # Python's rules for what is a number (underscores only between digits)
    exact = Decimal(text)
    if not exact.is_finite() or exact.adjusted() > DIGITS or exact != exact.to_integral_value():
        raise ValueError(text)
    return int(exact)


def _num(x) -> str:
    """A bound as a user writes it: ``0`` for 0.0, ``0.25``, ``2**128`` for a large power of two."""
    if isinstance(x, int) and x > 2 ** 20 and x.bit_count() == 1:
        return f"2**{x.bit_length() - 1}"
    return str(int(x)) if float(x).is_integer() else repr(x)


@dataclass(frozen=True)
class Option:
    """One selectable rule. ``values`` lists every allowed value, the default first, unless
    ``auto`` names a default outside them: ``"sheet"`` for a number the rule sheet sets per player
    count (the game reads ``"sheet"`` and looks the number up; ``sheet`` says how, in words).

    A number of the game that may take any whole value in a range is declared with ``low`` and
    ``high`` (both included) instead of listing every value: ``values`` then holds the default
    alone (or nothing, with ``auto``); see :func:`number`. A list of whole numbers (a score
    table) also has ``items``, its shortest and longest length; its value is the list written
    with commas, ``"0,5,10"`` (see :func:`numbers`). What it takes is its :attr:`value`.

    ``variant``: a rule the sheet offers as a variant (always named in records); ``False`` for a
    number of the game, named in records and run labels only when it differs from its default.
    """

    name: str
    values: tuple = ()
    help: str = ""
    auto: str | None = None
    low: int | None = None
    high: int | None = None
    items: tuple[int, int] | None = None
    sheet: str = ""
    variant: bool = True
    step: int = 1  # of a whole-number range: every step-th value from low (2: an even deck)

    @property
    def value(self) -> Value:
        """The values it takes, checked as every setting's are."""
        if self.items is not None:
            return Value(NUMBERS, self.low, self.high, items=self.items, auto=self.auto)
        if self.low is not None:
            return Value(WHOLE, self.low, self.high, self.step, auto=self.auto)
        return Value(CHOICE, choices=self.values, auto=self.auto)

    @property
    def default(self):
        return self.values[0] if self.auto is None else self.auto

    @property
    def kind(self) -> str:
        """``integer`` when every value is a whole number (a tuner may treat them as ordered),
        ``list`` for a list of whole numbers, else ``categorical``."""
        if self.items is not None:
            return "list"
        if self.low is not None:
            return "integer"
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)
        return "integer" if ints else "categorical"

    def domain(self) -> tuple:
        """Every value in the order a tuner walks them: integers ascending, categories as declared
        (a list option has too many to walk: a tuner is given them)."""
        if self.items is not None:
            return ()
        if self.low is not None:
            return tuple(range(self.low, self.high + 1, self.step))
        return tuple(sorted(self.values)) if self.kind == "integer" else self.values

    def valid(self) -> str:
        """The valid values in words: ``sheet or a whole number 1..14``, ``3, 0, 1, 2``."""
        return self.value.valid()

    def describe(self) -> str:
        """The default and the valid values, for ``simtool games``: ``sheet (3 at 4p, 2 at 5p)
        or 1..14``; ``2 (-10..10)``; ``3, 0, 1, 2`` (the default first)."""
        span = self.value.span()
        if self.auto is not None:
            return f"{self.auto} ({self.sheet}) or {span}" if self.sheet else f"{self.auto} or {span}"
        if self.low is not None:
            return f"{self.default} ({span})"
        return span

    def select(self, game: str, text: str | None) -> tuple:
        """The values ``--vary`` names: all (``None``), ``A..B`` (integer options, both ends
        included) or ``a,b,c`` (``a;b;c`` for list options, whose values hold commas); each
        checked as ``--rule`` checks it."""
        valid = self.domain()
        if text is None:
            if not valid:
                raise SimtoolError(f"{option('vary')} {self.name} needs the values to try for {game}, "
                                   f"separated by ';' (such as {self.name}=\"0,5,10;0,5,5\")")
            return valid
        wrong = f"bad {option('vary')} {self.name}={text} for {game}"
        if ".." in text and self.items is None:
            if self.kind != "integer":
                raise SimtoolError(f"{wrong}: a range needs whole-number values; "
                                   f"list them instead (valid: {choices(valid)})")
            low, _, high = text.partition("..")
            try:
                low, high = int(low), int(high)
            except ValueError:
                raise SimtoolError(f"{wrong}; expected A..B with whole numbers within "
                                   f"{valid[0]}..{valid[-1]}") from None
            if not valid[0] <= low < high <= valid[-1]:
                raise SimtoolError(f"{wrong}; expected A..B with A < B within "
                                   f"{valid[0]}..{valid[-1]}")
            return tuple(v for v in valid if low <= v <= high)
        picked = []
        for item in text.split(";" if self.items is not None else ","):
            value = self.parse(game, item.strip())
            if value in picked:
                raise SimtoolError(f"{wrong}: {item.strip()} given twice")
            picked.append(value)
        if len(picked) < 2:
            known = self.valid() if self.low is not None else choices(valid)
            raise SimtoolError(f"{wrong}: name two values or more to vary "
                               f"(valid: {known}); fix one value with {option('rule', argument='rules')}")
        if self.items is not None:
            return tuple(picked)
        return (*([self.auto] if self.auto in picked else []), *(v for v in valid if v in picked))

    def parse(self, game: str, text):
        """``text`` (or a typed value) as this rule's value for ``game``, or the one error."""
        return self.value.check(f"rule {self.name}", text, f" for {game}")


def number(name: str, default, low: int, high: int, help: str, sheet: str = "", step: int = 1) -> Option:
    """A whole number of the game within ``low..high`` (every ``step``-th from ``low``);
    ``default`` ``"sheet"`` for one the sheet sets per player count (``sheet`` says how)."""
    auto = default if isinstance(default, str) else None
    return Option(name, () if auto else (default,), help, auto, low, high, sheet=sheet, variant=False,
                  step=step)


def numbers(name: str, default: str, items: tuple[int, int], low: int, high: int, help: str,
            sheet: str = "") -> Option:
    """A list of ``items[0]..items[1]`` whole numbers within ``low..high``, written with commas
    (``"0,5,10"``); ``default`` ``"sheet"`` for one the sheet sets (``sheet`` says how)."""
    auto = default if default == "sheet" else None
    return Option(name, () if auto else (default,), help, auto, low, high, items, sheet, False)


def as_numbers(value: str) -> tuple[int, ...]:
    """A list option's value as its numbers."""
    return tuple(int(x) for x in value.split(","))


def named(game, rules: dict) -> dict:
    """The rules a record or a label names: every variant, and each number of the game that
    differs from its default (so records of the sheet's games read as before numbers were
    options)."""
    declared = {o.name: o for o in game.options}
    return {k: v for k, v in rules.items()
            if k not in declared or declared[k].variant or v != declared[k].default}


def resolve(game, assignments: dict[str, str] | None) -> dict:
    """Every option of ``game`` with its value: the default unless assigned (values as text or typed)."""
    known = {o.name: o for o in game.options}
    rules = {o.name: o.default for o in game.options}
    for name, value in (assignments or {}).items():
        if name not in known:
            valid = choices(known) if known else "none (this game has no rule options)"
            raise SimtoolError(f"unknown rule {shown(name)} for {game.id}; valid: {valid}")
        rules[name] = known[name].parse(game.id, value)
    return rules


def parse_assignments(items: list[str] | None, what: str = "rule") -> dict[str, str]:
    """``["a=1", "b=x"]`` to ``{"a": "1", "b": "x"}``."""
    out = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise SimtoolError(f"bad --{what} {item!r}; expected NAME=VALUE")
        if name.strip() in out:
            raise SimtoolError(f"--{what} {name.strip()} given twice; give each {what} once")
        out[name.strip()] = value.strip()
    return out


def parse_vary(game, items: list[str] | None) -> dict[str, tuple]:
    """``--vary NAME``, ``--vary NAME=A..B`` or ``--vary NAME=a,b,c`` to ``{name: values}``."""
    known = {o.name: o for o in game.options}
    out: dict[str, tuple] = {}
    for item in items or []:
        name, sep, text = (part.strip() for part in item.partition("="))
        if name not in known:
            valid = choices(known) if known else "none (this game has no rule options)"
            raise SimtoolError(f"unknown rule {shown(name)} to {option('vary')} for {game.id}; valid: {valid}")
        if sep and not text:
            raise SimtoolError(f"bad {option('vary')} {item!r}; expected NAME, NAME=A..B or NAME=a,b,c")
        if name in out:
            raise SimtoolError(f"{option('vary')} {name} given twice; give each rule once")
        out[name] = known[name].select(game.id, text if sep else None)
    if not out:
        raise SimtoolError(f"nothing to tune: give {option('vary')} NAME (rules of {game.id}: "
                           f"{choices(known) if known else 'none'})")
    return out
