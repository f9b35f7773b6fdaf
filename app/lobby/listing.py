"""The open tables, loaded once for many viewers: what the lobby lists and the live feed sends.

:func:`load_listing` reads every open table (and the tables in play where one of the given
viewers sits) with a fixed number of queries, whatever the number of tables or viewers: one
for the tables with their owners' names, one for their seats, and, when viewers are given,
one for their invitations, one for the owners' friendships with them and one for the seats
their people left. A
:class:`Listing` then answers for each viewer what it may see, without another query.

Who sees what (Lobby.open_tables): a table with free seats that the viewer may join — any
``any`` table, their own, their friends' ``friend`` tables, ``invited`` tables they are
invited to — and the open tables where the viewer sits. ``mine``: the viewer sits there;
``secret``: only to the owner. Newest first, at most :data:`LIMIT`. A running table where the
viewer plays is not listed: :meth:`Listing.playing_at` names it for the lobby's "You are
playing at table N — return" (a seat its person left, app/lobby/seating.py, is not theirs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Departure, Friendship, GameTable, Invitation, Match, Seat, User
from app.rooms.match import table_end
from app.rooms.store import LEFT

#: tables listed to one viewer
LIMIT = 100
#: tables read for one change (the open ones, newest first)
READ_LIMIT = 1000


def table_mode(rules: Any) -> str | None:
    """The GameTwist table mode of a table's rules when it is not the standard one (``duel``,
    ``tournament``), so the lobby and the table title can say so; else None."""
    mode = rules.get("table_mode") if isinstance(rules, dict) else None
    return mode if mode in ("duel", "tournament") else None


@dataclass
class ListedTable:
    """One table as every viewer sees it (``json``) and what decides who sees it."""

    id: int
    status: str
    opponents: str
    owner_id: int
    secret: str
    json: dict[str, Any]
    seated: frozenset[int]
    invited: frozenset[int] = frozenset()


@dataclass
class Listing:
    """The open tables of one moment. ``friends``: owner id → the viewers (of those asked
    for) who are the owner's friends."""

    tables: list[ListedTable]
    friends: dict[int, set[int]] = field(default_factory=dict)

    def playing_at(self, viewer: int | None) -> int | None:
        """The running table where ``viewer`` plays (the newest), or None."""
        if viewer is None:
            return None
        return next((t.id for t in self.tables
                     if t.status == "playing" and viewer in t.seated), None)

    def _visible(self, table: ListedTable, viewer: int | None) -> bool:
        if table.status == "playing":
            return False  # one's own running table: the banner (playing_at), not the list
        if table.opponents == "any" or (viewer is not None and viewer == table.owner_id):
            return True
        if viewer is None:
            return False
        if table.opponents == "friend":
            return viewer in self.friends.get(table.owner_id, ())
        return viewer in table.invited

    def personal(self, viewer: int | None) -> bool:
        """Whether ``viewer`` sees anything but the public list (a private table, a table of
        its own, a seat)."""
        if viewer is None:
            return False
        return any(viewer in t.seated or viewer == t.owner_id
                   or (t.opponents != "any" and self._visible(t, viewer)) for t in self.tables)

    def for_viewer(self, viewer: int | None) -> list[dict[str, Any]]:
        """The tables ``viewer`` (a user id, None: anonymous) sees, as GET /api/tables."""
        out = []
        for table in self.tables:
            if not self._visible(table, viewer):
                continue
            item = {**table.json, "mine": viewer is not None and viewer in table.seated}
            if viewer is not None and viewer == table.owner_id:
                item["secret"] = table.secret
            out.append(item)
            if len(out) >= LIMIT:
                break
        return out


async def load_listing(db: AsyncSession, viewers: Collection[int] = ()) -> Listing:
    """The open tables, and the tables in play of ``viewers``, in a fixed number of queries
    (see the module docstring)."""
    viewers = set(viewers)
    wanted = GameTable.status == "open"
    if viewers:
        seated_viewer = exists().where(Seat.table_id == GameTable.id, Seat.user_id.in_(viewers))
        wanted = or_(wanted, and_(GameTable.status == "playing", seated_viewer))
    rows = (await db.execute(
        select(GameTable, User.name).outerjoin(User, User.id == GameTable.owner_id)
        .where(wanted).order_by(GameTable.id.desc()).limit(READ_LIMIT))).all()
    ids = [table.id for table, _owner in rows]
    seats: dict[int, list[tuple[int, int | None, str | None, str | None]]] = defaultdict(list)
    if ids:
        for table_id, seat, user_id, bot, name in (await db.execute(
                select(Seat.table_id, Seat.seat, Seat.user_id, Seat.bot_level, User.name)
                .outerjoin(User, User.id == Seat.user_id)
                .where(Seat.table_id.in_(ids)).order_by(Seat.table_id, Seat.seat))).all():
            seats[table_id].append((seat, user_id, bot, name))
    invited: dict[int, set[int]] = defaultdict(set)
    friends: dict[int, set[int]] = defaultdict(set)
    left: set[tuple[int, int]] = set()
    if viewers:
        playing = [t.id for t, _ in rows if t.status == "playing"]
        if playing:
            left = {(table_id, seat) for table_id, seat in (await db.execute(
                select(Match.table_id, Departure.seat).join(Match, Match.id == Departure.match_id)
                .where(Match.table_id.in_(playing), Departure.reason == LEFT,
                       Departure.returned_at.is_(None)))).all()}
        private = [t.id for t, _ in rows if t.opponents == "invited" and t.status == "open"]
        if private:
            for table_id, user_id in (await db.execute(
                    select(Invitation.table_id, Invitation.user_id).where(
                        Invitation.table_id.in_(private), Invitation.user_id.in_(viewers)))):
                invited[table_id].add(user_id)
        owners = {t.owner_id for t, _ in rows if t.opponents == "friend" and t.status == "open"}
        if owners:
            for a, b in (await db.execute(select(Friendship.requester_id, Friendship.addressee_id)
                                          .where(Friendship.accepted.is_(True), or_(
                                              and_(Friendship.requester_id.in_(owners),
                                                   Friendship.addressee_id.in_(viewers)),
                                              and_(Friendship.addressee_id.in_(owners),
                                                   Friendship.requester_id.in_(viewers)))))):
                owner, friend = (a, b) if a in owners else (b, a)
                friends[owner].add(friend)
    listed = []
    for table, owner_name in rows:
        held = seats.get(table.id, [])
        listed.append(ListedTable(
            id=table.id, status=table.status, opponents=table.opponents,
            owner_id=table.owner_id, secret=table.secret,
            seated=frozenset(u for s, u, _b, _n in held
                             if u is not None and (table.id, s) not in left),
            invited=frozenset(invited.get(table.id, ())),
            json={"id": table.id, "game": table.game, "preset": table.preset,
                  "players": table.players, "deals": table.deals,
                  "opponents": table.opponents, "skill": table.skill, "status": table.status,
                  "turn_seconds": table.turn_seconds, "owner": owner_name,
                  "seats": [{"seat": s, "name": n or f"Computer {s + 1} ({b})", "bot": b}
                            for s, _u, b, n in held],
                  "free": table.players - len(held), "mode": table_mode(table.rules),
                  "end": table_end(table.game, table.rules, table.players, table.deals)}))
    return Listing(listed, dict(friends))
