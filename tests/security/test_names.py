"""Issue 18 "User names" and issue 17 (8, 14) on SQLite and PostgreSQL: names of every script;
one canonical key (PRECIS UsernameCaseMapped + the TR39 confusable skeleton) stored in its own
unique column, so both databases agree; login and its per-name limit use the same key; the
migration fills the key and reports collisions without losing an account."""

from __future__ import annotations

import asyncio
import logging

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from app.accounts.service import AccountError, Accounts
from app.clock import Clock
from app.db.engine import alembic_config, make_engine, make_sessionmaker, upgrade
from tests.platform_helpers import make_app, settings_for
from tests.test_attacks import Person, post


async def test_letters_of_every_script_are_names(sessions):
    accounts = Accounts(sessions, Clock())
    for name in ("Zoë", "José", "Åsa", "Jürgen", "Дмитрий", "राम", "Ἀθηνᾶ", "Anna_1-b"):
        user = await accounts.register(name, "long enough")
        assert user.name == name
    for bad in ("ab", "a b", "<b>x</b>", "x" * 21, "abc\u200d", "Guest-12", "gUEST-abc",
                "a\u202eb" + "c"):
        with pytest.raises(AccountError):
            await accounts.register(bad, "long enough")


async def test_a_second_spelling_or_a_look_alike_is_taken(sessions):
    accounts = Accounts(sessions, Clock())
    await accounts.register("Jürgen", "long enough")
    await accounts.register("admin", "long enough")
    for taken in ("JÜRGEN", "jürgen", "JüRGEN", "ｊürgen", "аdmin", "ADMIN", "adrnin"):
        with pytest.raises(AccountError, match="that name is taken"):
            await accounts.register(taken, "another password")


async def test_login_with_any_spelling_finds_the_account(sessions):
    accounts = Accounts(sessions, Clock())
    await accounts.register("Jürgen", "long enough")
    for spelling in ("Jürgen", "jürgen", "JÜRGEN", " jÜrgen "):
        assert (await accounts.authenticate(spelling, "long enough")).name == "Jürgen"
    with pytest.raises(AccountError):
        await accounts.authenticate("JÜRGEN", "wrong password")


def test_the_login_limit_counts_every_spelling_as_one_name(tmp_path, db_url):
    app = make_app(settings_for(tmp_path, database_url=db_url))
    with TestClient(app) as client:
        person = Person(client)
        assert post(person, "/api/register", {"name": "Jürgen", "password": "long enough"}
                    ).status_code == 201
        post(person, "/api/logout")
        spellings = ["Jürgen", "JÜRGEN", "jürgen", "JüRGEN", "jÜrGeN"]
        for spelling in spellings:
            answer = post(person, "/api/login", {"name": spelling, "password": "wrong one!"})
            assert answer.status_code == 400, (spelling, answer.status_code)
        for spelling in [*spellings, "ｊürgen"]:
            answer = post(person, "/api/login", {"name": spelling, "password": "long enough"})
            assert answer.status_code == 429, (spelling, answer.status_code)


async def test_the_migration_fills_the_key_and_reports_collisions_without_losing_an_account(
        db_url, caplog):
    from alembic import command

    await asyncio.to_thread(command.upgrade, alembic_config(db_url), "0004_seated")
    names = ["admin", "аdmin", "Bernd"]  # the old index (lower()) allows these on both
    if db_url.startswith("sqlite"):
        names += ["Jürgen", "JÜRGEN"]  # SQLite's lower() folds A-Z only
    engine = make_engine(db_url)
    async with engine.begin() as conn:
        for name in names:
            await conn.execute(sa.text(
                "INSERT INTO users (name, password_hash, is_guest, created_at) "
                "VALUES (:n, NULL, :g, CURRENT_TIMESTAMP)"), {"n": name, "g": True})
    caplog.set_level(logging.WARNING)
    await asyncio.to_thread(upgrade, db_url)
    async with engine.connect() as conn:
        rows = (await conn.execute(sa.text("SELECT name, name_key FROM users ORDER BY id"))).all()
    await engine.dispose()
    assert [name for name, _key in rows] == names  # nobody lost
    keys = dict(rows)
    assert len(set(keys.values())) == len(names)  # unique
    assert keys["admin"] == "adrnin" and keys["аdmin"] != "adrnin"
    assert "аdmin" in caplog.text and "admin" in caplog.text  # the collision is reported
    accounts = Accounts(make_sessionmaker(make_engine(db_url)), Clock())
    # each colliding account is still found by its exact spelling
    assert (await accounts.user_by_name("аdmin")).name == "аdmin"
    assert (await accounts.user_by_name("ADMIN")).name == "admin"
