"""The narrow interfaces the table actor's parts work through (app/rooms/actor.py).

The actor (``TableActor``) owns its parts (the audiences, the move clocks, the course of the
match, the catch window, the unloading) and hands each one itself; a part sees the actor and
its siblings only as the protocols below, each naming what the parts use of it. So no part
imports the actor, nor a sibling, to reach it: the arrows run from the actor to its parts.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.clock import Timer
from app.rooms.connection import Peer
from app.rooms.match import MatchProgress
from app.rooms.store import TableInfo


class AudiencesPart(Protocol):
    """Who is connected, and what each audience is told (app.rooms.audiences.Audiences)."""

    def broadcast(self, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None: ...

    def empty(self) -> bool: ...

    def error(self, conn: Peer | None, code: str, message: str) -> None: ...

    def seat_connected(self, seat: int) -> bool: ...

    def seat_view(self, seat: int | None) -> dict[str, Any]: ...


class ClocksPart(Protocol):
    """The move clocks and the computer players' turns (app.rooms.clocks.TurnClocks)."""

    turn: int
    taken_over: dict[int, str]
    deadlines: dict[int, float]
    stood_in: dict[int, list[dict[str, Any]]]
    stood_in_total: dict[int, int]

    def deciding_reservation(self, seat: int) -> bool: ...

    async def arrived(self, seat: int) -> None: ...

    def gone(self, seat: int) -> None: ...

    def schedule(self, keep_deadlines: bool = False) -> None: ...

    def turn_seconds(self) -> float | None: ...


class WindowPart(Protocol):
    """Doppio's catch window (app.rooms.catch_window.CatchWindow)."""

    number: int
    deadline: float | None

    def is_open(self) -> bool: ...

    def left(self) -> float: ...

    def pass_absent(self, number: int) -> None: ...

    def reset(self) -> None: ...

    def resume(self) -> None: ...


class CoursePart(Protocol):
    """The course of the match (app.rooms.course.MatchCourse)."""

    async def presence_changed(self) -> None: ...


class UnloadingPart(Protocol):
    """When an idle or finished table unloads (app.rooms.unloading.Unloading)."""

    def schedule(self) -> None: ...

    def stay(self) -> None: ...


class Actor(Protocol):
    """What the parts use of the table actor: the table and its match, the message sequence,
    its timers, applying an action, and the sibling parts."""

    table_id: int
    table: TableInfo | None
    progress: MatchProgress | None
    match_id: int | None
    seq: int
    epoch: str

    @property
    def audiences(self) -> AudiencesPart: ...

    @property
    def clocks(self) -> ClocksPart: ...

    @property
    def window(self) -> WindowPart: ...

    @property
    def course(self) -> CoursePart: ...

    @property
    def unloading(self) -> UnloadingPart: ...

    async def apply(self, seat: int, action: dict[str, Any], origin: Peer | None, *,
                    stood_in: str | None = None) -> bool: ...

    def later(self, seconds: float, command: tuple[Any, ...]) -> Timer | None: ...

    def cancel(self, timer: Timer) -> None: ...

    def seat_bot(self, seat: int) -> str | None: ...
