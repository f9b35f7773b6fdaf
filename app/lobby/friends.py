"""Friends: requests, accept, decline, remove, block. Friendship is symmetric once accepted.

The state between two people A and B (rows in ``friendships`` and ``blocks``):

=============  ==============================  =============================================
state          rows                            transitions
=============  ==============================  =============================================
none           —                               A add B → requested (A→B)
requested A→B  friendships(A, B, accepted=0)   B accept / B add A → friends;
                                               B decline → none; A remove (withdraw) → none
friends        friendships(A, B, accepted=1)   either remove → none
blocked by A   blocks(A, B)                    A unblock → none
=============  ==============================  =============================================

Blocking ends any request or friendship between the two. While either has blocked the other,
neither can ask the other, and table invitations between them are refused (Lobby.invite).
Guests have no friends: they neither ask nor are asked. Every refusal is a FriendError.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.service import name_is
from app.clock import Clock
from app.db.models import Block, Friendship, User
from app.i18n import N_
from app.i18n.errors import LocalizedError

log = logging.getLogger(__name__)


class FriendError(LocalizedError, ValueError):
    """A friend request that cannot be made; ``str`` says why (a catalogue msgid with
    ``%(name)s`` params, app/i18n/errors.py)."""


def _pair(a: int, b: int):
    return or_(and_(Friendship.requester_id == a, Friendship.addressee_id == b),
               and_(Friendship.requester_id == b, Friendship.addressee_id == a))


def _blocked_pair(a: int, b: int):
    return or_(and_(Block.blocker_id == a, Block.blocked_id == b),
               and_(Block.blocker_id == b, Block.blocked_id == a))


class Friends:
    """The friends service."""

    #: awaited with (user id, notice) for the live notices (app/lobby/hub.py ``notify``):
    #: ``{"type": "friend_request", "from"}`` to the one asked, ``{"type": "friend_accepted",
    #: "from"}`` to the one who asked
    on_notice: Callable[[int, dict[str, Any]], Awaitable[Any]] | None = None

    async def _tell(self, user_id: int, notice: dict[str, Any]) -> None:
        if self.on_notice is not None:
            try:
                await self.on_notice(user_id, notice)
            except Exception:  # a notice lost is no reason to refuse what was done
                log.warning("friends: a live notice could not be sent", exc_info=True)

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self._db = sessions
        self._clock = clock

    async def _user(self, db: AsyncSession, name: str) -> User:
        user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
        if user is None:
            raise FriendError(N_("there is no player called '%(name)s'"), name=name.strip())
        return user

    async def _other(self, db: AsyncSession, user_id: int, name: str) -> User:
        other = await self._user(db, name)
        if other.id == user_id:
            raise FriendError(N_("you cannot befriend yourself"))
        return other

    async def add(self, user_id: int, name: str) -> str:
        """Ask ``name`` to be a friend; accepts instead if ``name`` already asked us.

        Returns "requested" or "accepted". Raises FriendError (unknown name, oneself, guests,
        a block either way, already friends).
        """
        async with self._db() as db:
            other = await self._other(db, user_id, name)
            me = await db.get(User, user_id)
            if other.is_guest or (me is not None and me.is_guest):
                raise FriendError(N_("guests cannot have friends"))
            if (await db.execute(select(Block.id).where(_blocked_pair(user_id, other.id)))).first():
                raise FriendError(N_("you cannot ask %(name)s"), name=other.name)
            existing = (await db.execute(select(Friendship).where(
                _pair(user_id, other.id)))).scalar_one_or_none()
            if existing is not None:
                if existing.accepted:
                    raise FriendError(N_("you and %(name)s are friends already"), name=other.name)
                if existing.requester_id == other.id:
                    existing.accepted = True
                    await db.commit()
                    await self._tell(other.id, {"type": "friend_accepted", "from": me.name})
                    return "accepted"
                return "requested"  # asked before
            db.add(Friendship(requester_id=user_id, addressee_id=other.id, accepted=False,
                              created_at=self._clock.now()))
            try:
                await db.commit()
            except IntegrityError:
                return await self.add(user_id, name)  # both asked at once: look again
            await self._tell(other.id, {"type": "friend_request", "from": me.name})
            return "requested"

    async def accept(self, user_id: int, name: str) -> None:
        """Accept the request of ``name``. Raises FriendError if there is none."""
        async with self._db() as db:
            other = await self._other(db, user_id, name)
            request = (await db.execute(select(Friendship).where(
                Friendship.requester_id == other.id, Friendship.addressee_id == user_id,
                Friendship.accepted.is_(False)))).scalar_one_or_none()
            if request is None:
                friends = (await db.execute(select(Friendship.id).where(
                    _pair(user_id, other.id), Friendship.accepted.is_(True)))).first()
                if friends is not None:  # accepted already (in another tab): say so
                    await self._tell(user_id, {"type": "friend_request_over", "from": other.name})
                    raise FriendError(N_("You and %(name)s are friends already."),
                                      name=other.name)
                raise FriendError(N_("%(name)s has not asked you"), name=other.name)
            request.accepted = True
            me = await db.get(User, user_id)
            await db.commit()
            await self._tell(other.id, {"type": "friend_accepted", "from": me.name})
            # the request's notice on the person's other pages goes (it would offer accept)
            await self._tell(user_id, {"type": "friend_request_over", "from": other.name})

    async def decline(self, user_id: int, name: str) -> None:
        """Decline the request of ``name``. Raises FriendError if there is none."""
        async with self._db() as db:
            other = await self._other(db, user_id, name)
            result = await db.execute(delete(Friendship).where(
                Friendship.requester_id == other.id, Friendship.addressee_id == user_id,
                Friendship.accepted.is_(False)))
            await db.commit()
            if result.rowcount == 0:
                raise FriendError(N_("%(name)s has not asked you"), name=other.name)
        await self._tell(user_id, {"type": "friend_request_over", "from": other.name})

    async def remove(self, user_id: int, name: str) -> None:
        """End a friendship, or withdraw or decline a request, with ``name``."""
        async with self._db() as db:
            other = await self._other(db, user_id, name)
            await db.execute(delete(Friendship).where(_pair(user_id, other.id)))
            await db.commit()

    async def block(self, user_id: int, name: str) -> None:
        """Block ``name``: ends any request or friendship; no requests or invitations between
        the two until unblocked."""
        async with self._db() as db:
            other_id = (await self._other(db, user_id, name)).id
            await db.execute(delete(Friendship).where(_pair(user_id, other_id)))
            db.add(Block(blocker_id=user_id, blocked_id=other_id, created_at=self._clock.now()))
            try:
                await db.commit()
            except IntegrityError:
                await db.rollback()  # blocked before; the friendship delete is redone here
                await db.execute(delete(Friendship).where(_pair(user_id, other_id)))
                await db.commit()

    async def unblock(self, user_id: int, name: str) -> None:
        """Lift one's own block of ``name``. Raises FriendError if there is none."""
        async with self._db() as db:
            other = await self._other(db, user_id, name)
            result = await db.execute(delete(Block).where(Block.blocker_id == user_id,
                                                          Block.blocked_id == other.id))
            await db.commit()
            if result.rowcount == 0:
                raise FriendError(N_("you have not blocked %(name)s"), name=other.name)

    async def are_friends(self, a: int, b: int) -> bool:
        async with self._db() as db:
            row = (await db.execute(select(Friendship.id).where(
                _pair(a, b), Friendship.accepted.is_(True)))).first()
            return row is not None

    async def blocked_between(self, a: int, b: int) -> bool:
        """Whether either of the two blocked the other."""
        async with self._db() as db:
            return (await db.execute(select(Block.id).where(_blocked_pair(a, b)))).first() is not None

    async def friend_ids(self, user_id: int) -> set[int]:
        """The user ids of ``user_id``'s accepted friends."""
        async with self._db() as db:
            rows = (await db.execute(select(Friendship).where(
                Friendship.accepted.is_(True),
                or_(Friendship.requester_id == user_id, Friendship.addressee_id == user_id)))).scalars()
            return {r.addressee_id if r.requester_id == user_id else r.requester_id for r in rows}

    async def listing(self, user_id: int, online: set[int] | None = None) -> dict[str, list[str]]:
        """``{"friends", "incoming", "outgoing", "blocked", "online"}`` as sorted names;
        ``online``: the friends among the given user ids."""
        async with self._db() as db:
            rows = (await db.execute(select(Friendship).where(or_(
                Friendship.requester_id == user_id, Friendship.addressee_id == user_id)))).scalars().all()
            blocked = (await db.execute(select(User.name).join(Block, Block.blocked_id == User.id)
                                        .where(Block.blocker_id == user_id))).scalars().all()
            ids = {r.requester_id for r in rows} | {r.addressee_id for r in rows}
            names = dict((await db.execute(select(User.id, User.name).where(User.id.in_(ids)))).all()) if ids else {}
        result: dict[str, list[str]] = {"friends": [], "incoming": [], "outgoing": [],
                                        "blocked": list(blocked), "online": []}
        for r in rows:
            other = r.addressee_id if r.requester_id == user_id else r.requester_id
            key = "friends" if r.accepted else ("outgoing" if r.requester_id == user_id else "incoming")
            result[key].append(names[other])
            if r.accepted and online is not None and other in online:
                result["online"].append(names[other])
        return {k: sorted(v) for k, v in result.items()}
