"""Doppio rules options: the table's settings, validated from a scenario's ``rules`` object.

Options (all optional; an omitted option takes its default):

- ``catch_window_seconds`` (number, default 3, 0.1 to 60): how long a catch window stays open.
  The rules core has no clock: the room counts down (showing it to the players) and calls
  ``GAME.close_catch_window`` at the deadline. Kept here because it is a table setting.
- ``doppio_max_value`` (int, default 10, 0 to 60): the highest hand value at which Doppio may
  be declared.
- ``failure_penalty`` (int, default 20, 0 to 1,000): added to a failed declarer's hand value.
- ``game_end_total`` (int, default 100, 1 to 10,000): the match ends after a round in which some
  seat's running total reaches this.

Each range is :data:`OPTION_RANGES` (``GAME.option_ranges``): outside it, RulesError.

Presets: ``standard`` (every default; the rulebook plus docs/rules/doppio.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from app.games.base import JSON, RulesError, check_range


@dataclass(frozen=True, slots=True)
class DoppioRules:
    """The options of one Doppio table (see the module docstring for each option)."""

    catch_window_seconds: float = 3
    doppio_max_value: int = 10
    failure_penalty: int = 20
    game_end_total: int = 100


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


#: option → its documented range (inclusive)
OPTION_RANGES: dict[str, tuple[float, float]] = {
    "catch_window_seconds": (0.1, 60),
    "doppio_max_value": (0, 60),
    "failure_penalty": (0, 1000),
    "game_end_total": (1, 10_000),
}
#: the options that take a fraction (the rest are whole numbers)
FRACTIONAL_OPTIONS = frozenset({"catch_window_seconds"})


def _check_option(name: str, value: object) -> None:
    """Raise RulesError unless ``name`` is an option and ``value`` a valid value of it."""
    if name not in OPTION_RANGES:
        raise RulesError(name, "unknown option")
    if name == "catch_window_seconds":
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 60:
            raise RulesError(name, "expected a number of seconds above 0 and at most 60")
    check_range(name, value, OPTION_RANGES[name], whole=name not in FRACTIONAL_OPTIONS)


def make_rules(raw: Mapping[str, Any]) -> DoppioRules:
    """Build the rules from ``{"preset": NAME, OPTION: VALUE, ...}``.

    The preset's options apply first, then the explicit ones. Raises RulesError for an unknown
    preset or option, or a value of the wrong type or range.
    """
    options: dict[str, Any] = {}
    preset = raw.get("preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r}, expected one of {', '.join(PRESETS)}")
        options.update(PRESETS[preset])
    for name, value in raw.items():
        if name == "preset":
            continue
        _check_option(name, value)
        options[name] = value
    return DoppioRules(**options)


def rules_json(rules: DoppioRules) -> JSON:
    """Every option of ``rules`` as a JSON object (round-trips through make_rules)."""
    return asdict(rules)
