"""Rules options of Doppelganger Tricks.

The rulings (docs/rules/doppelganger-tricks.md) leave nothing to choose: there are no options.
The one preset, ``standard``, is the empty bundle, and ``preset`` may be omitted. Any other key
is an unknown option and raises RulesError, as the scenario format demands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.base import JSON, RulesError

#: preset name → options; ``standard`` (the rulings as written) is the default.
PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one match. Empty on purpose: the rulings fix every choice."""


def make_rules(raw: Mapping[str, Any]) -> Rules:
    """Build the rules from a scenario's ``rules`` object.

    Accepts ``{}`` and ``{"preset": "standard"}``. Raises RulesError for an unknown preset, a
    preset that is not a string, or any other key (``path`` is that key).
    """
    if not isinstance(raw, Mapping):
        raise RulesError("", "expected an object")
    for key, value in raw.items():
        if key != "preset":
            raise RulesError(str(key), "unknown option")
        if not isinstance(value, str) or value not in PRESETS:
            known = ", ".join(PRESETS)
            raise RulesError("preset", f"unknown preset {value!r}, expected one of {known}")
    return Rules()


def rules_json(rules: Rules) -> JSON:
    """Every option as JSON: none, so ``{}`` (round-trips through make_rules)."""
    return {}
