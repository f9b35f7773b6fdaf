"""Doppio rules options: the table's settings, validated from a scenario's ``rules`` object.

Options (all optional; an omitted option takes its default):

- ``catch_window_seconds`` (number, default 3, 0 < s <= 60): how long a catch window stays open.
  The rules core has no clock: the room counts down (showing it to the players) and calls
  ``GAME.close_catch_window`` at the deadline. Kept here because it is a table setting.
- ``doppio_max_value`` (int, default 10): the highest hand value at which Doppio may be declared.
- ``failure_penalty`` (int >= 0, default 20): added to a failed declarer's hand value.
- ``game_end_total`` (int > 0, default 100): the match ends after a round in which some seat's
  running total reaches this.

Presets: ``standard`` (every default; the rulebook plus docs/rules/doppio.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from app.games.base import JSON, RulesError


@dataclass(frozen=True, slots=True)
class DoppioRules:
    """The options of one Doppio table (see the module docstring for each option)."""

    catch_window_seconds: float = 3
    doppio_max_value: int = 10
    failure_penalty: int = 20
    game_end_total: int = 100


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return _is_int(value) or isinstance(value, float)


#: option → (check of a valid value, what a valid value is)
_OPTION_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "catch_window_seconds": (lambda v: _is_number(v) and 0 < v <= 60,
                             "expected a number of seconds above 0 and at most 60"),
    "doppio_max_value": (_is_int, "expected an integer"),
    "failure_penalty": (lambda v: _is_int(v) and v >= 0, "expected an integer of at least 0"),
    "game_end_total": (lambda v: _is_int(v) and v > 0, "expected an integer above 0"),
}


def _check_option(name: str, value: object) -> None:
    """Raise RulesError unless ``name`` is an option and ``value`` a valid value of it."""
    if name not in _OPTION_CHECKS:
        raise RulesError(name, "unknown option")
    valid, expected = _OPTION_CHECKS[name]
    if not valid(value):
        raise RulesError(name, expected)


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
