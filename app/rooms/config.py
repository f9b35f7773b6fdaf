"""The settings of a table actor (app/rooms/actor.py) and its parts, the same for every table
of a process (app.services builds them from the server's settings)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActorConfig:
    """bot_delay: seconds a computer player takes per move (pacing for people), its thinking
    included; bot_budget_ms: the expert's thinking time per decision (taken from bot_delay:
    ``TurnClocks.bot_pause``); round_pause: seconds between deals;
    turn_timeout: seconds a person has per move (None: no timer); resume_buffer: messages kept
    per audience for resuming clients; away_grace: see below."""

    bot_delay: float = 0.6
    bot_budget_ms: int = 300
    #: seconds a seated person may be gone (no connection) before a computer player of the
    #: table's level moves for that seat, until the person is back (None: never)
    away_grace: float | None = 30.0
    #: the longest pause between two deals; it ends early once every person present said
    #: "Next deal" (app.rooms.intermission)
    round_pause: float = 20.0
    turn_timeout: float | None = None
    #: a person whose move clock runs out this many times in a row (no move of their own in
    #: between) is taken over until "I'm back"; before that a computer moves once for them
    timeouts_before_takeover: int = 2
    resume_buffer: int = 64
    #: seconds a finished table's actor stays after the end (its watchers see the result),
    #: then it unloads; later watchers get the result from the stored log (app/rooms/stored.py)
    finished_linger: float = 60.0
    #: seconds a table that is not in play (open, waiting for players) stays loaded with
    #: nobody connected (None: until the process ends)
    idle_unload: float | None = 300.0
