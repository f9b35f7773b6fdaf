"""User names are case-insensitive ("Anna" is "anna") on SQLite and PostgreSQL; the account
keeps the spelling it registered with. The database enforces it (migration 0003_i18n)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from app.accounts.service import AccountError, Accounts
from app.clock import Clock
from app.db.models import User
from app.history.service import History
from app.lobby.friends import Friends


async def test_a_name_differing_only_in_case_is_taken(sessions):
    accounts = Accounts(sessions, Clock())
    await accounts.register("Anna", "long enough")
    with pytest.raises(AccountError, match="that name is taken"):
        await accounts.register("anna", "another password")
    with pytest.raises(AccountError, match="that name is taken"):
        await accounts.register("ANNA", "another password")


async def test_the_database_refuses_a_second_spelling_of_a_name(sessions):
    async with sessions() as db:
        db.add(User(name="Bernd", password_hash=None, is_guest=True, created_at=Clock().now()))
        await db.commit()
    async with sessions() as db:
        db.add(User(name="bERND", password_hash=None, is_guest=True, created_at=Clock().now()))
        with pytest.raises(IntegrityError):
            await db.commit()


async def test_login_ignores_case_and_keeps_the_display_spelling(sessions):
    accounts = Accounts(sessions, Clock())
    await accounts.register("Anna", "long enough")
    for spelling in ("anna", "ANNA", " aNNa "):
        user = await accounts.authenticate(spelling, "long enough")
        assert user.name == "Anna"
    with pytest.raises(AccountError, match="wrong name or password"):
        await accounts.authenticate("anna", "wrong password")


async def test_friends_and_profiles_find_a_name_in_any_case(sessions):
    clock = Clock()
    accounts = Accounts(sessions, clock)
    anna = await accounts.register("Anna", "long enough")
    await accounts.register("Carl", "long enough")
    friends = Friends(sessions, clock)
    await friends.add(anna.id, "carl")
    listing = await friends.listing(anna.id, set())
    assert listing["outgoing"] == ["Carl"]
    profile = await History(sessions, clock).profile("anna")
    assert profile["player"] == "Anna"
