"""Rule options: the tunable rules a game declares, parsed from ``--rule name=value``."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SimtoolError, choices


@dataclass(frozen=True)
class Option:
    """One selectable rule. ``values`` lists every allowed value, the default first, unless
    ``auto`` names a default outside them: ``"sheet"`` for a number the rule sheet sets per player
    count (the game reads ``"sheet"`` and looks the number up)."""

    name: str
    values: tuple
    help: str
    auto: str | None = None

    @property
    def default(self):
        return self.values[0] if self.auto is None else self.auto

    @property
    def kind(self) -> str:
        """``integer`` when every value is a whole number (a tuner may treat them as ordered),
        else ``categorical``: derived from the values, so a game declares nothing more."""
        ints = all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)
        return "integer" if ints else "categorical"

    def domain(self) -> tuple:
        """Every value in the order a tuner walks them: integers ascending, categories as declared."""
        return tuple(sorted(self.values)) if self.kind == "integer" else self.values

    def select(self, game: str, text: str | None) -> tuple:
        """The values ``--vary`` names: all (``None``), ``A..B`` (integer options, both ends
        included) or ``a,b,c``; each checked against the declared values."""
        valid = self.domain()
        if text is None:
            return valid
        bad = f"bad --vary {self.name}={text} for {game}"
        if ".." in text:
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
        for item in text.split(","):
            value = self.parse(game, item.strip())
            if value in picked:
                raise SimtoolError(f"{bad}: {item.strip()} given twice")
            picked.append(value)
        if len(picked) < 2:
            raise SimtoolError(f"{bad}: name two values or more to vary "
                               f"(valid: {choices(valid)}); fix one value with --rule")
        return tuple(v for v in valid if v in picked)

    def parse(self, game: str, text: str):
        for v in (*self.values, *([self.auto] if self.auto is not None else [])):
            if str(v) == text:
                return v
        valid = choices(self.values) + (f" or {self.auto}" if self.auto is not None else "")
        raise SimtoolError(f"bad value {text!r} for rule '{self.name}' of {game}; valid: {valid}")


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
