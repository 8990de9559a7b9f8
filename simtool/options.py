"""Rule options: the tunable rules a game declares, parsed from ``--rule name=value``."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SimtoolError, choices


@dataclass(frozen=True)
class Option:
    """One selectable rule. ``values`` lists every allowed value, the default first, unless
    ``auto`` names a default outside them: ``"sheet"`` for a number the rule sheet sets per player
    count (the game reads ``"sheet"`` and looks the number up; ``sheet`` says how, in words).

    A number of the game that may take any whole value in a range is declared with ``low`` and
    ``high`` (both included) instead of listing every value: ``values`` then holds the default
    alone (or nothing, with ``auto``); see :func:`number`. A list of whole numbers (a score
    table) also has ``items``, its shortest and longest length; its value is the list written
    with commas, ``"0,5,10"`` (see :func:`numbers`).

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
        """The valid values in words: ``sheet or 1..14``, ``-10..10``, ``3, 0, 1, 2``."""
        return (f"{self.auto} or " if self.auto is not None else "") + self._values_text()

    def _values_text(self) -> str:
        if self.items is not None:
            return f"{self.items[0]}-{self.items[1]} whole numbers {self.low}..{self.high}, comma-separated"
        if self.low is not None:
            return f"{self.low}..{self.high}" + (f" in steps of {self.step}" if self.step > 1 else "")
        return choices(self.values)

    def describe(self) -> str:
        """The default and the valid values, for ``simtool games``: ``sheet (3 at 4p, 2 at 5p)
        or 1..14``; ``2 (-10..10)``; ``3, 0, 1, 2`` (the default first)."""
        if self.auto is not None:
            return f"{self.auto} ({self.sheet}) or {self._values_text()}" if self.sheet else self.valid()
        if self.low is not None:
            return f"{self.default} ({self._values_text()})"
        return ", ".join(map(str, self.values))

    def select(self, game: str, text: str | None) -> tuple:
        """The values ``--vary`` names: all (``None``), ``A..B`` (integer options, both ends
        included) or ``a,b,c`` (``a;b;c`` for list options, whose values hold commas); each
        checked as ``--rule`` checks it."""
        valid = self.domain()
        if text is None:
            if not valid:
                raise SimtoolError(f"--vary {self.name} needs the values to try for {game}, "
                                   f"separated by ';' (such as {self.name}=\"0,5,10;0,5,5\")")
            return valid
        bad = f"bad --vary {self.name}={text} for {game}"
        if ".." in text and self.items is None:
            if self.kind != "integer":
                raise SimtoolError(f"{bad}: a range needs whole-number values; "
                                   f"list them instead (valid: {choices(valid)})")
            low, _, high = text.partition("..")
            try:
                low, high = int(low), int(high)
            except ValueError:
                raise SimtoolError(f"{bad}; expected A..B with whole numbers within "
                                   f"{valid[0]}..{valid[-1]}") from None
            if not valid[0] <= low < high <= valid[-1]:
                raise SimtoolError(f"{bad}; expected A..B with A < B within "
                                   f"{valid[0]}..{valid[-1]}")
            return tuple(v for v in valid if low <= v <= high)
        picked = []
        for item in text.split(";" if self.items is not None else ","):
            value = self.parse(game, item.strip())
            if value in picked:
                raise SimtoolError(f"{bad}: {item.strip()} given twice")
            picked.append(value)
        if len(picked) < 2:
            known = self.valid() if self.low is not None else choices(valid)
            raise SimtoolError(f"{bad}: name two values or more to vary "
                               f"(valid: {known}); fix one value with --rule")
        if self.items is not None:
            return tuple(picked)
        return (*([self.auto] if self.auto in picked else []), *(v for v in valid if v in picked))

    def parse(self, game: str, text: str):
        text = str(text).strip()
        if self.auto is not None and text == self.auto:
            return self.auto
        bad = f"bad value {text!r} for rule '{self.name}' of {game}; valid: {self.valid()}"
        if self.items is not None:
            try:
                numbers = [int(x) for x in text.strip("[]()").split(",")]
            except ValueError:
                raise SimtoolError(bad) from None
            if not (self.items[0] <= len(numbers) <= self.items[1]
                    and all(self.low <= x <= self.high for x in numbers)):
                raise SimtoolError(bad)
            return ",".join(map(str, numbers))
        if self.low is not None:
            try:
                value = int(text)
            except ValueError:
                raise SimtoolError(bad) from None
            if not self.low <= value <= self.high or (value - self.low) % self.step:
                raise SimtoolError(bad)
            return value
        for v in self.values:
            if str(v) == text:
                return v
        raise SimtoolError(bad)


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
            raise SimtoolError(f"unknown rule '{name}' for {game.id}; valid: {valid}")
        rules[name] = known[name].parse(game.id, str(value))
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
            raise SimtoolError(f"unknown rule '{name}' to --vary for {game.id}; valid: {valid}")
        if sep and not text:
            raise SimtoolError(f"bad --vary {item!r}; expected NAME, NAME=A..B or NAME=a,b,c")
        if name in out:
            raise SimtoolError(f"--vary {name} given twice; give each rule once")
        out[name] = known[name].select(game.id, text if sep else None)
    if not out:
        raise SimtoolError(f"nothing to tune: give --vary NAME (rules of {game.id}: "
                           f"{choices(known) if known else 'none'})")
    return out
