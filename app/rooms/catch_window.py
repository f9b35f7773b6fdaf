"""The room's side of a timed catch window (games with ``close_catch_window``: Doppio).

When an accepted action opens a window (event ``catch_window``), the room keeps it open for the
table's ``catch_window_seconds`` on the injected clock, or until every eligible seat has caught
or passed; then it calls ``close_catch_window``. While the window is open only answers
(``catch``/``pass``) are accepted, a seat that disconnects (or is away when it opens) passes, and
computer players answer within the window (app/rooms/clocks.py). The deadline close is not an
action in the log: after a restart the replayed window is open again and gets a fresh deadline;
in a scenario export the next turn action closes it identically.
"""

from __future__ import annotations

from typing import Any

from app.clock import Clock
from app.rooms.parts import Actor

#: the actions that answer a catch window; while one is open the room accepts nothing else
WINDOW_ANSWERS = ("catch", "pass")


class CatchWindow:
    """The deadline of the open catch window and the room's refusals around it, for the actor
    ``actor`` (whose task runs everything here)."""

    def __init__(self, actor: Actor, clock: Clock) -> None:
        self._actor, self._clock = actor, clock
        self.number = 0  # counts opened catch windows
        self.deadline: float | None = None  # monotonic time the open window closes
        self.timed_out = False  # the last window was closed by its deadline

    def is_open(self) -> bool:
        progress = self._actor.progress
        if progress is None or progress.state is None or progress.round_over():
            return False
        if progress.game.traits.close_catch_window is None:
            return False
        return getattr(progress.state, "window", None) is not None

    def seconds(self) -> float:
        assert self._actor.progress is not None
        return float(getattr(self._actor.progress.rules, "catch_window_seconds", 3))

    def left(self) -> float:
        """Seconds until the open window's deadline (its full length before one is set)."""
        if self.deadline is None:
            return self.seconds()
        return max(0.0, self.deadline - self._clock.monotonic())

    def refusal(self, action: dict[str, Any]) -> str | None:
        """The room's own refusals around a catch window (the rules core checks the rest)."""
        progress = self._actor.progress
        if progress is None or progress.game.traits.close_catch_window is None:
            return None
        answering = action.get("type") in WINDOW_ANSWERS
        if self.is_open() and not answering:
            return "wait: the catch window is still open"
        if answering and not self.is_open() and self.timed_out:
            return "too late: the catch window has closed"
        return None

    def track(self, events: list[dict[str, Any]]) -> None:
        """After an accepted action: start the deadline of a window it opened."""
        if any(e.get("type") == "catch_window_closed" for e in events):
            self.deadline = None
        if not any(e.get("type") == "catch_window" for e in events) or not self.is_open():
            return
        self.number += 1
        self.timed_out = False
        seconds = self.seconds()
        self.deadline = self._clock.monotonic() + seconds
        self._actor.later(seconds, ("window", self.number))
        self.pass_absent(self.number)

    def resume(self) -> None:
        """After a restart: a window open in the replayed state gets a fresh deadline."""
        if self.is_open() and self.deadline is None:
            self.track([{"type": "catch_window"}])

    def reset(self) -> None:
        """A new deal: no window, none closed by its deadline."""
        self.deadline, self.timed_out = None, False

    def pass_absent(self, number: int) -> None:
        """Queue a pass for every eligible person who is not connected."""
        actor = self._actor
        assert actor.progress is not None
        for seat in actor.progress.game.to_act(actor.progress.state):
            if actor.seat_bot(seat) is None and not actor.audiences.seat_connected(seat):
                actor.later(0, ("autopass", seat, number))

    async def on_deadline(self, number: int) -> None:
        """The command ``window``: window ``number``'s deadline. Close it unless it closed
        already (or a newer one is open)."""
        actor = self._actor
        progress = actor.progress
        if number != self.number or not self.is_open():
            return
        assert progress is not None
        close = progress.game.traits.close_catch_window
        assert close is not None  # is_open
        new_state, events = close(progress.state)
        # no action to log: replaying the log reopens the window, and the next turn action
        # closes it with the same result (docs/rules/doppio.md, "Closing")
        progress.state = new_state
        self.deadline = None
        self.timed_out = True
        actor.clocks.turn += 1
        actor.clocks.schedule()
        actor.audiences.broadcast(None, events)

    async def on_autopass(self, seat: int, number: int) -> None:
        """The command ``autopass``: an eligible seat that is not connected passes in window
        ``number``."""
        actor = self._actor
        if number != self.number or not self.is_open() or actor.audiences.seat_connected(seat):
            return
        assert actor.progress is not None
        if seat in actor.progress.game.to_act(actor.progress.state):
            await actor.apply(seat, {"type": "pass", "seat": seat}, None)
