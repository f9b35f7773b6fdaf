"""What each audience of a table is told of an accepted action: the per-audience projection
of the ``action`` field of an event message (docs/protocol.md).

The acting seat gets its action whole. Everyone else gets only ``{"type", "seat"}``: what the
action did in public is in the game's events and in each audience's ``Game.view`` — the rules
core says what is public, never this module. Where the *type* itself is the secret decision
(Doppio's catch or pass while the window is open), the game lists it in ``secret_actions``
(app.games.base) with the type every other audience is told instead, the same for every
choice (``answer``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Game
from app.protocol import encode
from app.rooms.match import outcome_json


def action_for(game: Game, action: dict[str, Any] | None,
               audience: int | None) -> dict[str, Any] | None:
    """The accepted ``action`` as ``audience`` (a seat, None: spectators) may see it."""
    if action is None or audience == action.get("seat"):
        return action
    kind = action.get("type")
    secret: Mapping[Any, Any] = game.traits.secret_actions
    return {"type": secret.get(kind, kind), "seat": action.get("seat")}


class Unsendable(ValueError):
    """An accepted action whose result cannot be stored or sent (``str``: what and why)."""


#: the largest whole number the result of an action may hold: the event log and the results
#: are stored as JSON and 32-bit integer columns, and browsers read JSON numbers as doubles
MAX_RESULT_INT = 2**31 - 1


def _check_numbers(value: Any, where: str) -> None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) > MAX_RESULT_INT:
            raise Unsendable(f"{where}: a number beyond ±{MAX_RESULT_INT}")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise Unsendable(f"{where}: a number that is not finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_numbers(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for item in value:
            _check_numbers(item, where)


def check_sendable(game: Game, action: dict[str, Any], new_state: Any,
                   events: list[dict[str, Any]]) -> None:
    """Raise Unsendable unless what ``action`` leads to — the action, its events and, when it
    ends the round, the round's outcome — encodes as JSON and fits the database and a browser.
    The room calls this before it logs the action (serialize before commit): an action the
    room could not store or announce is never logged, so it cannot break the table, even after
    a restart."""
    parts: list[tuple[str, Any]] = [("action", action), ("events", events)]
    if game.is_over(new_state):
        parts.append(("outcome", outcome_json(game.outcome(new_state))))
    for where, value in parts:
        _check_numbers(value, where)
        try:
            encode(value)
        except (TypeError, ValueError) as err:
            raise Unsendable(f"{where}: {type(err).__name__}") from None
