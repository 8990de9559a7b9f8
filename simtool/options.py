"""Rule options: the tunable rules a game declares, parsed from ``--rule name=value``."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SimtoolError, choices


@dataclass(frozen=True)
class Option:
    """One selectable rule. ``values`` lists every allowed value, the default first."""

    name: str
    values: tuple
    help: str

    @property
    def default(self):
        return self.values[0]

    def parse(self, game: str, text: str):
        for v in self.values:
            if str(v) == text:
                return v
        raise SimtoolError(
            f"bad value {text!r} for rule '{self.name}' of {game}; valid: {choices(self.values)}"
        )


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
