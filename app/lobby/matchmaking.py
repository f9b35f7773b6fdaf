"""Public matchmaking ("Play now"): a queue per game, preset and table size.

Pure and clock-injected: :class:`Matchmaker` takes a ``now_fn`` (seconds on a monotonic
clock; tests pass a fake one) and does no I/O and no sleeping. The server calls
:meth:`Matchmaker.tick` on a timer (once a second is plenty) and opens a room for each
:class:`FormedTable` it returns. The grouping itself is the pure function :func:`plan_queue`,
so a Redis-backed queue shared by several processes can reuse it.

The rules (docs/ratings.md, "Matchmaking"):

- Each waiting person has a rating window that starts narrow and widens with waiting time:
  ``window(waited) = min(initial + per_second * waited, maximum)`` in openskill mu points
  (defaults 2.0 + 0.25/s, at most 10.0: 4.5 after 10 s, 9.5 after 30 s).
- People may share a table when every two of them are within *both* their windows
  (|mu_a - mu_b| <= min(window_a, window_b)).
- The longest-waiting person is served first: their table is the closest-rated people who fit,
  taken greedily by distance to them. A full table forms at once.
- When the longest waiter has waited ``fill_after`` seconds (default 30) and the table is still
  not full, it forms with whoever fits and computer players fill the empty seats, all of the
  level nearest to the people's mean mu.
- A person is in at most one queue and at no table while queued: joining twice, or while
  seated, is refused. People at a formed table count as seated until :meth:`release`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count

from app.i18n import N_
from app.i18n.errors import LocalizedError
from app.i18n.names import GAMES, PRESETS
from app.ratings.model import Bot, Participant, Person, PlayerId, Rating, nearest_bot_level

#: The table sizes a queue may have per game (agrees with each game's ``player_counts``).
SEAT_COUNTS: dict[str, tuple[int, ...]] = {
    "doppelkopf": (4,),
    "doublehead_kids": (4,),
    "doppelganger_tricks": (3, 4),
    "doppio": (2, 3, 4),
}
#: The table size of a queue when ``join`` is not given one.
DEFAULT_SEATS: dict[str, int] = {
    "doppelkopf": 4,
    "doublehead_kids": 4,
    "doppelganger_tricks": 4,
    "doppio": 4,
}


@dataclass(frozen=True, slots=True)
class QueueKey:
    """One queue: a game, its preset and the table size."""

    game: str
    preset: str
    seats: int


@dataclass(frozen=True, slots=True)
class Window:
    """The rating window of a waiting person, in mu points: ``initial`` when they join,
    growing by ``per_second`` while they wait, never beyond ``maximum``."""

    initial: float = 2.0
    per_second: float = 0.25
    maximum: float = 10.0

    def at(self, waited: float) -> float:
        """The window after ``waited`` seconds (a negative wait counts as zero)."""
        return min(self.initial + self.per_second * max(waited, 0.0), self.maximum)


@dataclass(frozen=True, slots=True)
class QueueSettings:
    """A queue's settings: ``fill_after`` seconds after the longest waiter joined, computer
    players fill the empty seats; ``window`` is how the rating window widens."""

    fill_after: float = 30.0
    window: Window = field(default_factory=Window)


@dataclass(frozen=True, slots=True)
class Ticket:
    """A person waiting in a queue. ``number`` orders joins made at the same instant."""

    player: PlayerId
    key: QueueKey
    rating: Rating
    joined_at: float
    number: int


@dataclass(frozen=True, slots=True)
class FormedTable:
    """A table the queue formed: people in the order they joined, then computer players.

    The room may shuffle the seats with its own ``random.Random``; ``seats`` is what
    :func:`app.ratings.model.rate_match` takes once the match is over (with fresh ratings).
    """

    number: int
    key: QueueKey
    seats: tuple[Participant, ...]
    formed_at: float

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(seat.player for seat in self.seats if isinstance(seat, Person))


class MatchmakingError(LocalizedError, ValueError):
    """A request the queue refuses; ``str(err)`` is a reason a player can read (a catalogue
    msgid with ``%(name)s`` params, app/i18n/errors.py)."""


class AlreadyQueued(MatchmakingError):
    """The person is already waiting in a queue."""


class AlreadySeated(MatchmakingError):
    """The person already sits at a table."""


def compatible(a: Ticket, b: Ticket, now: float, window: Window) -> bool:
    """Whether ``a`` and ``b`` may share a table at ``now``: each is inside the other's window."""
    limit = min(window.at(now - a.joined_at), window.at(now - b.joined_at))
    return abs(a.rating.mu - b.rating.mu) <= limit


def plan_queue(
    tickets: Sequence[Ticket], seats: int, now: float, settings: QueueSettings
) -> list[tuple[list[Ticket], int]]:
    """Group one queue's waiting people into tables at ``now``.

    Returns (people, number of computer seats) per table, in the order formed; people not
    listed keep waiting. Deterministic: ties break by join time, then join number.
    """
    waiting = sorted(tickets, key=lambda t: (t.joined_at, t.number))
    formed: list[tuple[list[Ticket], int]] = []
    progress = True
    while progress:
        progress = False
        for anchor in waiting:
            group = [anchor]
            others = sorted(
                (t for t in waiting if t is not anchor),
                key=lambda t: (abs(t.rating.mu - anchor.rating.mu), t.joined_at, t.number),
            )
            for other in others:
                if len(group) == seats:
                    break
                if all(compatible(other, member, now, settings.window) for member in group):
                    group.append(other)
            due = now - anchor.joined_at >= settings.fill_after
            if len(group) == seats or due:
                group.sort(key=lambda t: (t.joined_at, t.number))
                formed.append((group, seats - len(group)))
                waiting = [t for t in waiting if t not in group]
                progress = True
                break
    return formed


class Matchmaker:
    """The "Play now" queues of one site (or one process): who waits where, who is seated.

    now_fn: the clock, seconds on a monotonic scale (``time.monotonic`` in the server).
    settings: per-queue settings; queues not listed use ``default``.
    Not thread-safe: the server drives it from one task (or behind one lock).
    """

    def __init__(
        self,
        now_fn: Callable[[], float],
        *,
        settings: Mapping[QueueKey, QueueSettings] | None = None,
        default: QueueSettings | None = None,
    ) -> None:
        self._now = now_fn
        self._settings = dict(settings or {})
        self._default = default or QueueSettings()
        self._tickets: dict[PlayerId, Ticket] = {}
        self._seated: set[PlayerId] = set()
        self._join_numbers = count()
        self._table_numbers = count(1)

    def settings_for(self, key: QueueKey) -> QueueSettings:
        return self._settings.get(key, self._default)

    def join(
        self,
        player: PlayerId,
        game: str,
        preset: str,
        rating: Rating,
        seats: int | None = None,
    ) -> Ticket:
        """Put ``player`` in the queue of ``game``/``preset``/``seats`` (default: the game's
        usual table size) with their current rating in that game.

        Raises AlreadyQueued when the player waits in any queue, AlreadySeated when they sit
        at a table, MatchmakingError for an unknown game or a table size it cannot have.
        """
        size = check_queue(game, seats)
        existing = self._tickets.get(player)
        if existing is not None:
            raise AlreadyQueued(N_("already waiting for %(game)s (%(preset)s); leave that queue first"),
                                translated=("game", "preset"),
                                game=GAMES.get(existing.key.game, existing.key.game),
                                preset=PRESETS.get(existing.key.preset, existing.key.preset))
        if player in self._seated:
            raise AlreadySeated(N_("already sitting at a table; leave it first"))
        ticket = Ticket(player, QueueKey(game, preset, size), rating, self._now(),
                        next(self._join_numbers))
        self._tickets[player] = ticket
        return ticket

    def leave(self, player: PlayerId) -> Ticket | None:
        """Take ``player`` out of their queue; return their ticket, or None if not queued."""
        return self._tickets.pop(player, None)

    def mark_seated(self, player: PlayerId) -> None:
        """Record that ``player`` sat down at a table outside the queue (an open table, an
        invitation). Raises AlreadyQueued while they wait in a queue."""
        if player in self._tickets:
            raise AlreadyQueued("waiting in a queue; leave it before taking a seat")
        self._seated.add(player)

    def release(self, player: PlayerId) -> None:
        """Record that ``player`` left their table (match over, or they left); they may queue."""
        self._seated.discard(player)

    def is_queued(self, player: PlayerId) -> bool:
        return player in self._tickets

    def is_seated(self, player: PlayerId) -> bool:
        return player in self._seated

    def waiting(self, key: QueueKey | None = None) -> list[Ticket]:
        """The tickets waiting (in one queue, or in all), in join order."""
        tickets = [t for t in self._tickets.values() if key is None or t.key == key]
        return sorted(tickets, key=lambda t: (t.joined_at, t.number))

    def tick(self, now: float | None = None) -> list[FormedTable]:
        """Form every table that is due at ``now`` (default: the clock's now).

        The people at a formed table leave their queue and count as seated until released.
        Queues are handled in a fixed order (game, preset, seats), so the result is
        deterministic.
        """
        at = self._now() if now is None else now
        by_queue: dict[QueueKey, list[Ticket]] = {}
        for ticket in self._tickets.values():
            by_queue.setdefault(ticket.key, []).append(ticket)
        tables = []
        for key in sorted(by_queue, key=lambda k: (k.game, k.preset, k.seats)):
            for people, bots in plan_queue(by_queue[key], key.seats, at, self.settings_for(key)):
                tables.append(self._seat(key, people, bots, at))
        return tables

    def _seat(self, key: QueueKey, people: list[Ticket], bots: int, at: float) -> FormedTable:
        for ticket in people:
            del self._tickets[ticket.player]
            self._seated.add(ticket.player)
        return form_table(next(self._table_numbers), key, people, bots, at)


def form_table(number: int, key: QueueKey, people: Sequence[Ticket], bots: int,
               at: float) -> FormedTable:
    """The table for ``people`` (in join order) and ``bots`` computer players of the level
    nearest the people's mean rating (a plan of :func:`plan_queue`)."""
    level = nearest_bot_level(sum(t.rating.mu for t in people) / len(people))
    seats: list[Participant] = [Person(t.player, t.rating) for t in people]
    seats += [Bot(level)] * bots
    return FormedTable(number, key, tuple(seats), at)


def check_queue(game: str, seats: int | None) -> int:
    """The table size of a queue request (default: the game's usual size). Raises
    MatchmakingError for an unknown game or a size it cannot have."""
    if game not in SEAT_COUNTS:
        raise MatchmakingError(N_("no matchmaking for game '%(game)s'"), game=game)
    size = DEFAULT_SEATS[game] if seats is None else seats
    if size not in SEAT_COUNTS[game]:
        allowed = ", ".join(str(n) for n in SEAT_COUNTS[game])
        raise MatchmakingError(N_("%(game)s is played by %(allowed)s players, not %(size)s"),
                               game=game, allowed=allowed, size=size)
    return size

