"""Doublehead Kids rule options and presets (docs/rules/doublehead-kids.md).

Doublehead Kids is Doppelkopf with a fixed preset: 48 cards (nines on), the normal game's trump
order, the first of two equal cards wins (King Friedrich included), a wedding by naming the
partner, a lone game for a holder of both Prince/Princess cards who does not marry, and no
poverty, no solos, no throw-in, no swines. :class:`KidsRules` *is* a Doppelkopf
:class:`~app.games.doppelkopf.rules.Rules` with those fields fixed, plus the Kids options, so
the Doppelkopf engine plays it unchanged.

Kids options (a scenario's ``rules`` object):

- ``preset``: ``basic`` (default) or ``advanced``.
- ``scoring``: ``basic`` (1 golden coin for the winners) or ``advanced`` (thresholds 120 / 150 /
  180, Foxy and Karlchen). Set by the preset.
- ``target_coins``: the game ends after a round in which a player has this many golden coins
  (5 in ``basic``, 10 in ``advanced``; 1 to 100).
- ``announcements``: the Doppelkopf announcements (Re, Kontra, No 90 … Black) with their
  deadlines; off by default, and only with ``scoring: advanced`` (the rulebook offers them as
  the advanced game's "new announcement types").
- ``play_on_until_leader``: the rulebook's alternative end: play on until one player leads
  alone (no shared victory).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.base import RulesError, check_range
from app.games.doppelkopf.rules import Rules

SCORINGS = ("basic", "advanced")

#: what every Doublehead Kids game fixes on the Doppelkopf engine (not options)
ENGINE_PRESET: dict[str, Any] = {
    "nines": True,
    "heart_ten_second_beats_first": False,
    "heart_ten_first_wins_last_trick": False,
    "swines": False,
    "poverty": False,
    "solo_leads": "left_of_dealer",
    "wedding_clarification": "named",
    "solos": (),
    "extra_solos": (),
    "re_kontra_doubles": False,
    "no_back_door": False,
    "charlie_caught": False,
    "throw_in": False,
    "solo_requires_no90": False,
    "wedding": True,
    "deals": None,
}


@dataclass(frozen=True, slots=True)
class KidsRules(Rules):
    """The Doppelkopf rules of a Doublehead Kids game plus the Kids options.

    Build it with :func:`make_rules`; the inherited Doppelkopf fields hold ``ENGINE_PRESET``
    (and ``announcements`` per the option), so ``app.games.doppelkopf.engine`` plays it as is.

    scoring: ``basic`` or ``advanced`` (how golden coins are counted, app/games/doublehead_kids/coins.py).
    target_coins: golden coins that end the game (5 basic, 10 advanced).
    play_on_until_leader: the game ends only when one player leads alone.
    """

    scoring: str = "basic"
    target_coins: int = 5
    play_on_until_leader: bool = False

    @property
    def advanced(self) -> bool:
        """Whether the advanced game's golden-coin rules apply."""
        return self.scoring == "advanced"


PRESETS: dict[str, dict[str, Any]] = {
    "basic": {"scoring": "basic", "target_coins": 5, "announcements": False,
              "play_on_until_leader": False},
    "advanced": {"scoring": "advanced", "target_coins": 10, "announcements": False,
                 "play_on_until_leader": False},
}

OPTIONS = ("scoring", "target_coins", "announcements", "play_on_until_leader")
#: every numeric option's documented range (inclusive)
OPTION_RANGES: dict[str, tuple[float, float]] = {"target_coins": (1, 100)}


def _coerce(name: str, value: Any) -> Any:
    if name == "scoring":
        if value not in SCORINGS:
            raise RulesError(name, f"expected one of {', '.join(SCORINGS)}")
        return value
    if name == "target_coins":
        if type(value) is not int or value < 1:
            raise RulesError(name, "expected a positive whole number")
        check_range(name, value, OPTION_RANGES[name])
        return value
    if type(value) is not bool:
        raise RulesError(name, "expected true or false")
    return value


def make_rules(raw: Mapping[str, Any]) -> KidsRules:
    """Build KidsRules from ``{"preset": "basic" | "advanced", option: value, ...}``.

    The preset (default ``basic``) is applied first, then the options. Raises RulesError for an
    unknown preset or option (Doppelkopf options such as ``poverty`` included: they are fixed),
    a value of the wrong type, or announcements with basic scoring.
    """
    if not isinstance(raw, Mapping):
        raise RulesError("", "expected an object")
    preset = raw.get("preset", "basic")
    if preset not in PRESETS:
        raise RulesError("preset", f"unknown preset {preset!r} (expected one of {', '.join(PRESETS)})")
    values = dict(PRESETS[preset])
    for name, value in raw.items():
        if name == "preset":
            continue
        if name not in OPTIONS:
            raise RulesError(name, "unknown option")
        values[name] = _coerce(name, value)
    if values["announcements"] and values["scoring"] != "advanced":
        raise RulesError("announcements", "announcements belong to the advanced game (scoring advanced)")
    return KidsRules(**ENGINE_PRESET, **values)


def rules_json(rules: KidsRules) -> dict[str, Any]:
    """Every Kids option of ``rules`` as JSON (make_rules(rules_json(r)) == r)."""
    return {
        "scoring": rules.scoring,
        "target_coins": rules.target_coins,
        "announcements": rules.announcements,
        "play_on_until_leader": rules.play_on_until_leader,
    }
