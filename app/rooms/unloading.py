"""Unloading: a table's memory goes back when nobody needs it in this process.

A finished table's actor stays ``ActorConfig.finished_linger`` seconds after the end (its
watchers see the result), then it unloads; later watchers get the result from the stored log
(app/rooms/stored.py). A table that is not in play (open, waiting for players) unloads after
``ActorConfig.idle_unload`` seconds with nobody connected. A table in play never unloads: its
timers and computer players must go on.
"""

from __future__ import annotations

from app.clock import Clock
from app.rooms.config import ActorConfig
from app.rooms.parts import Actor


class Unloading:
    """When table ``actor`` may end: one ``unload`` command queued at a time, which ends the
    actor (see :meth:`due`) or waits again for a deadline that moved."""

    def __init__(self, actor: Actor, clock: Clock, config: ActorConfig) -> None:
        self._actor, self._clock, self._config = actor, clock, config
        #: monotonic time at which the table may unload (None: it stays)
        self._at: float | None = None
        self._armed = False  # an "unload" command is queued or waiting

    def schedule(self) -> None:
        """Unload a finished table after ActorConfig.finished_linger, a table not in play
        (open, waiting for players) after idle_unload with nobody connected; never a table in
        play (its timers and computer players must go on)."""
        table = self._actor.table
        if table is None or table.status == "playing":
            return
        if table.status == "finished":
            delay: float | None = self._config.finished_linger
        else:
            delay = self._config.idle_unload if self._actor.audiences.empty() else None
        if delay is None:
            return
        self._at = self._clock.monotonic() + delay
        self._arm(delay)

    def stay(self) -> None:
        """Someone is here: a table that is not finished stays loaded."""
        table = self._actor.table
        if table is not None and table.status != "finished":
            self._at = None

    def _arm(self, delay: float) -> None:
        if not self._armed:  # one timer, however often people come and go
            self._armed = True
            self._actor.later(delay, ("unload",))

    def due(self) -> bool:
        """At the command ``unload``: whether to end now (else the timer is armed again for a
        deadline that moved, or dropped when someone is here)."""
        self._armed = False
        table, at = self._actor.table, self._at
        if table is None or table.status == "playing" or at is None:
            return False
        left = at - self._clock.monotonic()
        if left > 0:
            self._arm(left)
            return False
        return table.status == "finished" or self._actor.audiences.empty()
