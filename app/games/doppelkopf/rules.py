"""Doppelkopf rule options and presets (docs/rules/doppelkopf.md, ../shared/rules/doppelkopf.md).

``Rules`` holds every option; ``make_rules`` builds it from a scenario's ``rules`` object: an
optional ``preset`` (``ddv``, the default; ``gametwist``; ``gametwist_pub``) with options on top.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from app.games.base import RulesError, check_range

STANDARD_SOLOS = (
    "solo_clubs",
    "solo_spades",
    "solo_hearts",
    "solo_diamonds",
    "solo_queens",
    "solo_jacks",
    "solo_fleshless",
)
EXTRA_SOLOS = (
    "solo_kings",
    "solo_queens_jacks",
    "solo_kings_queens",
    "solo_kings_jacks",
    "solo_kings_queens_jacks",
    "solo_pure_clubs",
    "solo_pure_spades",
    "solo_pure_hearts",
    "solo_pure_diamonds",
)
PURE_SUIT_SOLOS = EXTRA_SOLOS[5:]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Doppelkopf rule option; the defaults are preset ``ddv`` (DDV tournament rules).

    nines: play with the nines (48 cards, 12 each); off: 40 cards, 10 each.
    heart_ten_second_beats_first / heart_ten_first_wins_last_trick: the house rule on two
        TH (Dullen) in one trick; the second option defaults to the first's value.
    swines: both AD in one hand rank above TH (Schweine), normal game, wedding and poverty.
    poverty: the Armut reservation. throw_in: redeal on request (Schmeißen).
    solo_leads: ``left_of_dealer`` or ``soloist``.
    wedding_clarification: which trick finds the partner (``any``, ``first_non_trump``,
        ``first_trump``), or ``named``: the bride names her partner before the first trick
        (``wedding_partner``; Doublehead Kids).
    solos: the standard solos offered; extra_solos: further solos (``solo_kings`` …).
    re_kontra_doubles, no_back_door, charlie_caught, solo_requires_no90: see the rulings.
    announcements: Re/Kontra and No 90 … Black may be announced at all.
    wedding: the Hochzeit reservation is offered.
    deals: how many deals a match has (None: the match is open-ended; else 1 to 1,000).
    table_mode: ``standard``; ``duel`` (GameTwist duel mode: people at seats 0 and 2, computer
        players at 1 and 3); ``tournament`` (GameTwist tournament mode without shown
        announcements: the view hides running card points, parties and the standing list of
        announcements until the deal is over).
    """

    nines: bool = True
    heart_ten_second_beats_first: bool = False
    heart_ten_first_wins_last_trick: bool = False
    swines: bool = False
    poverty: bool = False
    solo_leads: str = "left_of_dealer"
    wedding_clarification: str = "any"
    solos: tuple[str, ...] = STANDARD_SOLOS
    extra_solos: tuple[str, ...] = ()
    re_kontra_doubles: bool = False
    no_back_door: bool = False
    charlie_caught: bool = False
    throw_in: bool = False
    solo_requires_no90: bool = False
    announcements: bool = True
    wedding: bool = True
    deals: int | None = None
    table_mode: str = "standard"

    @property
    def hand_size(self) -> int:
        """Cards each player is dealt: 12, or 10 without nines."""
        return 12 if self.nines else 10

    @property
    def offered_solos(self) -> tuple[str, ...]:
        """Every solo a player may declare under these rules."""
        return self.solos + self.extra_solos


PRESETS: dict[str, dict[str, Any]] = {
    "ddv": {},
    "gametwist": {},
    "gametwist_pub": {
        "nines": False,
        "solo_leads": "soloist",
        "extra_solos": list(PURE_SUIT_SOLOS),
        "solo_requires_no90": True,
        "throw_in": False,
        "swines": True,
    },
}

#: every numeric option's documented range (inclusive)
OPTION_RANGES: dict[str, tuple[float, float]] = {"deals": (1, 1000)}

_CHOICES = {
    "solo_leads": ("left_of_dealer", "soloist"),
    "wedding_clarification": ("any", "first_non_trump", "first_trump", "named"),
    "table_mode": ("standard", "duel", "tournament"),
}


def option_choices(preset: str) -> dict[str, tuple[str, ...]]:
    """The options of ``preset`` that take one of a few named values, for New Game:
    ``{option: (value, ...)}``. The GameTwist table modes belong to the GameTwist presets."""
    shown = {k: v for k, v in _CHOICES.items() if k != "table_mode"}
    if preset.startswith("gametwist"):
        shown["table_mode"] = _CHOICES["table_mode"]
    return shown


def _solo_list(name: str, value: Any, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if value is True:
        return allowed
    if value is False or value is None:
        return ()
    if not isinstance(value, list):
        raise RulesError(name, "expected true, false or a list of solo names")
    names = []
    for item in value:
        full = item if isinstance(item, str) and item.startswith("solo_") else f"solo_{item}"
        if full not in allowed:
            raise RulesError(name, f"unknown solo {item!r}")
        names.append(full)
    return tuple(dict.fromkeys(names))


def _coerce(name: str, value: Any, default: Any) -> Any:
    if name in ("solos", "extra_solos"):
        return _solo_list(name, value, STANDARD_SOLOS if name == "solos" else EXTRA_SOLOS)
    if name == "deals":
        if value is None:
            return value
        if type(value) is not int or value < 1:
            raise RulesError(name, "expected a positive whole number or null")
        check_range(name, value, OPTION_RANGES[name])
        return value
    if isinstance(default, bool):
        if type(value) is not bool:
            raise RulesError(name, "expected true or false")
        return value
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise RulesError(name, f"expected one of {', '.join(_CHOICES[name])}")
        return value
    raise RulesError(name, "unknown option")  # pragma: no cover - every field is covered above


def make_rules(raw: Mapping[str, Any]) -> Rules:
    """Build Rules from ``{"preset": name, option: value, ...}``.

    The preset (default ``ddv``) is applied first, then the options. Raises RulesError for an
    unknown preset or option, or a value of the wrong type.
    """
    if not isinstance(raw, Mapping):
        raise RulesError("", "expected an object")
    preset = raw.get("preset", "ddv")
    if preset not in PRESETS:
        raise RulesError("preset", f"unknown preset {preset!r} (expected one of {', '.join(PRESETS)})")
    merged = {**PRESETS[preset], **{k: v for k, v in raw.items() if k != "preset"}}
    defaults = {f.name: f.default for f in fields(Rules)}
    values: dict[str, Any] = {}
    for name, value in merged.items():
        if name not in defaults:
            raise RulesError(name, "unknown option")
        values[name] = _coerce(name, value, defaults[name])
    if "heart_ten_first_wins_last_trick" not in values:
        values["heart_ten_first_wins_last_trick"] = values.get("heart_ten_second_beats_first", False)
    return Rules(**values)


def rules_json(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` as JSON (make_rules(rules_json(r)) == r)."""
    data = asdict(rules)
    data["solos"] = list(rules.solos)
    data["extra_solos"] = list(rules.extra_solos)
    return data
