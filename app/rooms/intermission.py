"""Between deals and after the match: the pause before the next deal and the rematch vote.

Both are room state, not game actions: nothing here is written to the event log, and a table
rebuilt after a restart starts a fresh pause (or a fresh vote).

**The pause between deals.** When a deal ends and the match goes on, the room waits up to
``round_pause`` seconds (``ROUND_PAUSE``) before it deals again, so that the people can read the
deal's result. Each person present (connected to the table) may say "Next deal"
(``{"type": "next_deal"}``); once every person present has said it, the next deal starts at
once. Computer players and people who are not connected do not hold the table up. Clients see
the pause as ``state.pause = {"remaining": seconds, "ready": [seats]}``.

**Rematch.** When the match is over, each person present may accept (``{"type": "rematch"}``)
or decline (``{"type": "rematch", "accept": false}``, also sent by "Back to lobby"). Once every
person present has accepted (and at least one has), the room asks the lobby for a new table with
the same game, rules, deals, seats and computer players; the people who accepted keep their
seats and any other person's seat goes to a computer player of the table's level. Clients see
``state.rematch = {"accepted": [seats], "declined": [seats], "table": id or null}``; a ``table``
tells them where to go. A tournament's table and a practice ("Play from here") offer no rematch
(``TableInfo.rematch`` False; ``state.rematch`` stays null and a vote is refused): the
tournament seats its next round, and a practice is begun again from its replay.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


class Intermission:
    """The pause between deals (numbered, so a stale wake-up is ignored) and the rematch vote."""

    def __init__(self) -> None:
        self.number = 0  # counts pauses; the room's delayed "deal" command names its pause
        self.until: float | None = None  # monotonic time the running pause ends, or None
        self.ready: set[int] = set()
        self.votes: dict[int, bool] = {}  # seat → accepted the rematch
        self.rematch_table: int | None = None
        self.rematch_started = False

    # --- the pause between deals -------------------------------------------------------------

    def begin(self, now: float, seconds: float) -> int | None:
        """A deal ended and another follows: start a pause of ``seconds`` (none for 0 or less).
        Returns the pause's number (for the room's delayed deal), or None without a pause."""
        self.ready = set()
        if seconds <= 0:
            self.until = None
            return None
        self.number += 1
        self.until = now + seconds
        return self.number

    def running(self) -> bool:
        return self.until is not None

    def end(self) -> None:
        """The next deal started."""
        self.until = None
        self.ready = set()

    def say_ready(self, seat: int, present: Collection[int]) -> bool:
        """``seat`` said "Next deal"; True when every person ``present`` has said it (deal now).
        Ignored (False) when no pause is running: the deal may already have started."""
        if self.until is None:
            return False
        self.ready.add(seat)
        return self.everyone_ready(present)

    def everyone_ready(self, present: Collection[int]) -> bool:
        """Whether the pause may end early: someone is present and all present are ready."""
        return self.until is not None and bool(present) and set(present) <= self.ready

    def pause_json(self, now: float) -> dict[str, Any] | None:
        """``{"remaining": seconds (one decimal), "ready": [seats]}`` while a pause runs."""
        if self.until is None:
            return None
        return {"remaining": round(max(0.0, self.until - now), 1), "ready": sorted(self.ready)}

    # --- the rematch vote --------------------------------------------------------------------

    def vote(self, seat: int, accept: bool) -> None:
        self.votes[seat] = accept

    def rematch_seats(self, present: Collection[int]) -> list[int] | None:
        """The seats that accepted, once every person present accepted (and at least one
        did) and no rematch was started yet; else None."""
        if self.rematch_started:
            return None
        accepted = [seat for seat, ok in self.votes.items() if ok]
        if not accepted or any(not self.votes.get(seat, False) for seat in present):
            return None
        return sorted(accepted)

    def rematch_json(self, match_over: bool) -> dict[str, Any] | None:
        """``{"accepted", "declined", "table"}`` once the match is over, else None."""
        if not match_over:
            return None
        return {"accepted": sorted(s for s, ok in self.votes.items() if ok),
                "declined": sorted(s for s, ok in self.votes.items() if not ok),
                "table": self.rematch_table}
