"""Friends at their simplest: ask by name, accept, remove. Friendship is symmetric once accepted."""

from __future__ import annotations

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db.models import Friendship, User


class FriendError(ValueError):
    """A friend request that cannot be made; ``str`` says why."""


def _pair(a: int, b: int):
    return or_(and_(Friendship.requester_id == a, Friendship.addressee_id == b),
               and_(Friendship.requester_id == b, Friendship.addressee_id == a))


class Friends:
    """The friends service."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self._db = sessions
        self._clock = clock

    async def _user(self, db: AsyncSession, name: str) -> User:
        user = (await db.execute(select(User).where(User.name == name.strip()))).scalar_one_or_none()
        if user is None:
            raise FriendError(f"there is no player called {name.strip()!r}")
        return user

    async def add(self, user_id: int, name: str) -> str:
        """Ask ``name`` to be a friend; accepts instead if ``name`` already asked us.

        Returns "requested" or "accepted". Raises FriendError (unknown name, oneself, guests).
        """
        async with self._db() as db:
            other = await self._user(db, name)
            if other.id == user_id:
                raise FriendError("you cannot befriend yourself")
            if other.is_guest:
                raise FriendError("guests cannot have friends")
            reverse = (await db.execute(select(Friendship).where(
                Friendship.requester_id == other.id, Friendship.addressee_id == user_id))).scalar_one_or_none()
            if reverse is not None:
                reverse.accepted = True
                await db.commit()
                return "accepted"
            db.add(Friendship(requester_id=user_id, addressee_id=other.id, accepted=False,
                              created_at=self._clock.now()))
            try:
                await db.commit()
            except IntegrityError:
                pass  # asked before
            return "requested"

    async def accept(self, user_id: int, name: str) -> None:
        """Accept the request of ``name``. Raises FriendError if there is none."""
        async with self._db() as db:
            other = await self._user(db, name)
            request = (await db.execute(select(Friendship).where(
                Friendship.requester_id == other.id, Friendship.addressee_id == user_id))).scalar_one_or_none()
            if request is None:
                raise FriendError(f"{other.name} has not asked you")
            request.accepted = True
            await db.commit()

    async def remove(self, user_id: int, name: str) -> None:
        """End a friendship or withdraw/decline a request with ``name``."""
        async with self._db() as db:
            other = await self._user(db, name)
            await db.execute(delete(Friendship).where(_pair(user_id, other.id)))
            await db.commit()

    async def are_friends(self, a: int, b: int) -> bool:
        async with self._db() as db:
            row = (await db.execute(select(Friendship.id).where(
                _pair(a, b), Friendship.accepted.is_(True)))).first()
            return row is not None

    async def listing(self, user_id: int) -> dict[str, list[str]]:
        """``{"friends": [...], "incoming": [...], "outgoing": [...]}`` as sorted names."""
        async with self._db() as db:
            rows = (await db.execute(select(Friendship).where(or_(
                Friendship.requester_id == user_id, Friendship.addressee_id == user_id)))).scalars().all()
            ids = {r.requester_id for r in rows} | {r.addressee_id for r in rows}
            names = dict((await db.execute(select(User.id, User.name).where(User.id.in_(ids)))).all()) if ids else {}
        result: dict[str, list[str]] = {"friends": [], "incoming": [], "outgoing": []}
        for r in rows:
            other = r.addressee_id if r.requester_id == user_id else r.requester_id
            key = "friends" if r.accepted else ("outgoing" if r.requester_id == user_id else "incoming")
            result[key].append(names[other])
        return {k: sorted(v) for k, v in result.items()}
