"""What each audience of a table is told of an accepted action: the per-audience projection
of the ``action`` field of an event message (docs/protocol.md).

The acting seat gets its action whole. Everyone else gets only ``{"type", "seat"}``: what the
action did in public is in the game's events and in each audience's ``Game.view`` — the rules
core says what is public, never this module. Where the *type* itself is the secret decision
(Doppio's catch or pass while the window is open), the game lists it in ``secret_actions``
(app.games.base) with the type every other audience is told instead, the same for every
choice (``answer``)."""

from __future__ import annotations

from typing import Any

from app.games.base import Game


def action_for(game: Game, action: dict[str, Any] | None,
               audience: int | None) -> dict[str, Any] | None:
    """The accepted ``action`` as ``audience`` (a seat, None: spectators) may see it."""
    if action is None or audience == action.get("seat"):
        return action
    kind = action.get("type")
    secret: dict[str, str] = getattr(game, "secret_actions", {})
    return {"type": secret.get(kind, kind), "seat": action.get("seat")}
