"""The New Game form: its fields read into a NewTable, and every refusal worded so that it
names the field and says why ("Deals: at most 48 deals"), in the page's language.

Fields: game, preset, players, deals, opponents, skill, bots, turn_seconds (time per move;
empty: none), invite (names split at commas and spaces), ``switches`` (the on/off rule options shown; each on when ``opt_<name>`` was
sent), ``numbers`` (the number options, each in ``opt_<name>``) and ``choices`` (the
named-value options such as Doppelkopf's ``table_mode``, each in ``opt_<name>``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from app.i18n import N_, gettext
from app.i18n.errors import localized
from app.i18n.names import OPTIONS
from app.lobby.service import LobbyError, NewTable, too_many_deals

#: the form's fields and their labels (the same msgids as templates/lobby.html)
FIELDS = {
    "game": N_("Game"), "preset": N_("Rules"), "players": N_("Players"), "deals": N_("Deals"),
    "opponents": N_("Opponents"), "skill": N_("Skill level"), "bots": N_("Computer players"),
    "invite": N_("Invite (names)"), "turn_seconds": N_("Time per move"),
}
#: pydantic error types → why, with the constraint's value as %(limit)s
_WHY = {
    "greater_than_equal": N_("must be at least %(limit)s"),
    "greater_than": N_("must be more than %(limit)s"),
    "less_than_equal": N_("must be at most %(limit)s"),
    "too_long": N_("at most %(limit)s names"),
    "literal_error": N_("choose one of the offered values"),
    "int_parsing": N_("enter a whole number"),
    "int_type": N_("enter a whole number"),
    "int_from_float": N_("enter a whole number"),
}
_NOT_ALLOWED = N_("this value is not allowed")


def _whole(form: Mapping[str, Any], name: str, default: int | None) -> int | None:
    raw = str(form.get(name, "") or "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise LobbyError(N_("enter a whole number"), field=name) from None


def _options(form: Mapping[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {name: f"opt_{name}" in form
                               for name in str(form.get("switches", "")).split(",") if name}
    for name in (n for n in str(form.get("numbers", "")).split(",") if n):
        raw = str(form.get(f"opt_{name}", "")).strip()
        try:
            value = float(raw)
            if not math.isfinite(value) or abs(value) > 1e9:
                raise ValueError(raw)
        except ValueError:
            raise LobbyError(N_("rule option '%(option)s': %(problem)s"), field=name,
                             translated=("option", "problem"), option=OPTIONS.get(name, name),
                             problem=N_("enter a number")) from None
        options[name] = int(value) if value.is_integer() else value
    for name in (n for n in str(form.get("choices", "")).split(",") if n):
        options[name] = str(form.get(f"opt_{name}", ""))
    return options


def read_form(form: Mapping[str, Any]) -> NewTable:
    """The NewTable the form asks for. Raises LobbyError naming the field of a wrong value."""
    fields = {
        "game": str(form.get("game", "")), "preset": str(form.get("preset", "")) or None,
        "options": _options(form), "players": _whole(form, "players", None),
        "deals": _whole(form, "deals", 4), "opponents": str(form.get("opponents", "any")),
        "skill": str(form.get("skill", "beginner")), "bots": _whole(form, "bots", 0),
        "turn_seconds": _whole(form, "turn_seconds", None),
        "invite": [n for n in str(form.get("invite", "")).replace(",", " ").split() if n],
    }
    try:
        return NewTable(**fields)
    except ValidationError as err:
        raise _refusal(err) from None


def _refusal(err: ValidationError) -> LobbyError:
    """The first problem pydantic found, as a LobbyError on its field."""
    problem = err.errors()[0]
    field = str(problem["loc"][0]) if problem["loc"] else None
    if field == "deals" and problem["type"] == "less_than_equal":
        return too_many_deals()  # the words of the lobby's own check
    context = problem.get("ctx") or {}
    limit = next((context[k] for k in ("ge", "gt", "le", "max_length") if k in context), "")
    return LobbyError(_WHY.get(problem["type"], _NOT_ALLOWED), field=field, limit=limit)


def describe(err: Exception) -> str:
    """A New Game refusal for the page: "<field>: <why>" when it is about one of the form's
    fields (rule options name themselves), else the refusal as it is."""
    field = getattr(err, "field", None)
    if field in FIELDS:
        return gettext("%(field)s: %(problem)s", field=gettext(FIELDS[field]),
                       problem=localized(err))
    return localized(err)
