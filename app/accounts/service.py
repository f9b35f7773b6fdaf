"""Accounts: register, log in, guests, sessions.

Passwords are hashed with argon2id (argon2-cffi), in a worker thread so the slow hash never
stops the event loop; a registration checks the name (and that it is free) before it hashes.
Sessions live in the database; the browser holds only a signed reference (see cookies.py). A
guest is a user without a password; turning a guest into an account keeps the same user row,
so its games stay its own. Names: app/accounts/names.py (any script; one canonical key).
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.names import NameRefused, display_name, name_key
from app.clock import Clock
from app.db.models import Session, User
from app.i18n import N_
from app.i18n.errors import LocalizedError

MIN_PASSWORD = 8
_hasher = PasswordHasher()
#: hash used to spend the same time on an unknown name as on a wrong password
_DUMMY_HASH = _hasher.hash("not a password of anyone")


class AccountError(LocalizedError, ValueError):
    """A request the account rules refuse; ``field`` names the input, ``str(err)`` the reason
    (``message`` a catalogue msgid with ``%(name)s`` params, app/i18n/errors.py)."""

    def __init__(self, field: str, message: str, **params: Any) -> None:
        super().__init__(message, **params)
        self.field = field


def check_name(name: str) -> str:
    """The display spelling of ``name`` (app.accounts.names.display_name); raises
    AccountError("name") unless it may be a user name."""
    try:
        return display_name(name)
    except NameRefused as err:
        raise AccountError("name", err.message) from None


def name_is(name: str) -> ColumnElement[bool]:
    """The WHERE clause finding the user called ``name`` in any spelling ("anna", "ANNA" and
    "Аnna" with a Cyrillic А find "Anna"): the canonical keys are equal."""
    return User.name_key == name_key(name)


async def _hash(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def _verify(stored: str, password: str) -> None:
    await asyncio.to_thread(_hasher.verify, stored, password)


class Accounts:
    """The account service. ``sessions`` makes DB sessions; ``clock`` gives the time."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 session_days: int = 30) -> None:
        self._db = sessions
        self._clock = clock
        self._session_days = session_days

    async def register(self, name: str, password: str, *, guest_id: int | None = None) -> User:
        """Create an account, or turn guest ``guest_id`` into one (keeping its games).

        Raises AccountError("name") for a bad or taken name, ("password") for a short one.
        """
        name = check_name(name)
        if len(password) < MIN_PASSWORD:
            raise AccountError("password", N_("a password has at least %(count)s characters"),
                               count=MIN_PASSWORD)
        async with self._db() as db:  # a taken name is refused before the slow hash
            holder = (await db.execute(select(User.id).where(name_is(name)))).scalar_one_or_none()
        if holder is not None and holder != guest_id:
            raise AccountError("name", N_("that name is taken"))
        password_hash = await _hash(password)
        async with self._db() as db:
            user = await db.get(User, guest_id) if guest_id is not None else None
            if user is not None and user.is_guest:
                user.name, user.password_hash, user.is_guest = name, password_hash, False
            else:
                user = User(name=name, password_hash=password_hash, is_guest=False,
                            created_at=self._clock.now())
                db.add(user)
            try:
                await db.commit()
            except IntegrityError:
                raise AccountError("name", N_("that name is taken")) from None
            return user

    async def authenticate(self, name: str, password: str) -> User:
        """Return the user of ``name`` (any spelling: :meth:`user_by_name`) if ``password`` is
        right; else raise AccountError."""
        user = await self.user_by_name(name)
        stored = user.password_hash if user is not None and user.password_hash else _DUMMY_HASH
        try:
            await _verify(stored, password)
        except (VerificationError, InvalidHashError):
            raise AccountError("password", N_("wrong name or password")) from None
        if user is None or not user.password_hash:
            raise AccountError("password", N_("wrong name or password"))
        return user

    async def create_guest(self) -> User:
        """A new guest user named ``Guest-NNNNNN``."""
        for _ in range(20):
            user = User(name=f"Guest-{secrets.randbelow(10**6):06d}", password_hash=None,
                        is_guest=True, created_at=self._clock.now())
            async with self._db() as db:
                db.add(user)
                try:
                    await db.commit()
                    return user
                except IntegrityError:
                    continue
        raise AccountError("name", N_("no free guest name, try again"))

    async def open_session(self, user_id: int) -> str:
        """A new session for the user (always a fresh id: no fixation); returns its id."""
        sid = secrets.token_urlsafe(32)
        now = self._clock.now()
        async with self._db() as db:
            db.add(Session(id=sid, user_id=user_id, created_at=now,
                           expires_at=now + timedelta(days=self._session_days)))
            await db.commit()
        return sid

    async def close_session(self, sid: str) -> None:
        """Forget a session (logout). Unknown ids are ignored."""
        async with self._db() as db:
            await db.execute(delete(Session).where(Session.id == sid))
            await db.commit()

    async def user_for_session(self, sid: str) -> User | None:
        """The user of a live session, or None (unknown or expired)."""
        async with self._db() as db:
            row = await db.get(Session, sid)
            if row is None:
                return None
            expires = row.expires_at if row.expires_at.tzinfo else row.expires_at.replace(tzinfo=self._clock.now().tzinfo)
            if expires <= self._clock.now():
                return None
            return await db.get(User, row.user_id)

    async def user_by_name(self, name: str) -> User | None:
        """The user called ``name`` in any spelling (its canonical key), or None. The exact
        display spelling is tried first: it finds an account that collided with another one
        when the keys were introduced (migration 0005_name_key keeps both)."""
        async with self._db() as db:
            exact = (await db.execute(select(User).where(
                User.name == name.strip()))).scalar_one_or_none()
            if exact is not None:
                return exact
            return (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
