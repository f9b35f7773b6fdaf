"""Issue 17 (9): registration and guest creation are limited per address (429 with
Retry-After, over the API and the forms); the per-account limits cannot be escaped by making
new guests (table creation and chat lines are limited per address too); the password is hashed
in a worker thread, after the name was found free."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from starlette.testclient import TestClient

from app.accounts import service as accounts_service
from app.guard.ratelimit import DEFAULT_POLICIES, Policy
from tests.platform_helpers import make_app, settings_for
from tests.test_attacks import ORIGIN, Person, csrf, post


def _first_window(policy: Policy) -> int:
    return int(DEFAULT_POLICIES[policy].split(";")[0].split("/")[0].split()[0])


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(settings_for(tmp_path))) as client:
        yield client


def test_registrations_from_one_address_are_limited(client):
    allowed = _first_window(Policy.REGISTER_ADDRESS)
    for number in range(allowed):
        person = Person(client)
        assert post(person, "/api/register", {"name": f"signup{number}",
                                              "password": "long enough"}).status_code == 201
    person = Person(client)
    refused = post(person, "/api/register", {"name": "onemore", "password": "long enough"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    form = person.post("/register", data={"name": "onemore", "password": "long enough",
                                          "csrf": csrf(person)})
    assert form.status_code == 429 and "Retry-After" in form.headers


def test_guests_from_one_address_are_limited(client):
    allowed = _first_window(Policy.GUEST_ADDRESS)
    for _ in range(allowed):
        assert post(Person(client), "/api/guest").status_code == 201
    person = Person(client)
    assert post(person, "/api/guest").status_code == 429
    assert person.post("/guest", data={"csrf": csrf(person)}).status_code == 429


def test_new_guests_do_not_escape_the_table_limit(tmp_path):
    """Each guest stays below its own TABLE_CREATE, but the address runs out."""
    app = make_app(settings_for(tmp_path, rate_limits={"guest_address": "1000/hour"}))
    per_address = _first_window(Policy.TABLE_CREATE_ADDRESS)
    per_account = _first_window(Policy.TABLE_CREATE)
    created = refused = 0
    with TestClient(app) as client:
        for _ in range(per_address // 4 + 2):
            guest = Person(client)
            assert post(guest, "/api/guest").status_code == 201
            for _ in range(min(4, per_account)):
                # open tables: a person plays at one running table at a time
                answer = post(guest, "/api/tables", {"game": "doppelkopf"})
                if answer.status_code == 201:
                    created += 1
                else:
                    assert answer.status_code == 429
                    refused += 1
    assert created == per_address and refused > 0


def test_new_guests_do_not_escape_the_chat_limit(tmp_path):
    app = make_app(settings_for(tmp_path, rate_limits={"guest_address": "1000/hour"}))
    per_address = _first_window(Policy.CHAT_ADDRESS)
    refusals = []
    with TestClient(app) as client:
        for number in range(per_address // 3 + 2):
            guest = Person(client)
            post(guest, "/api/guest")
            with guest.websocket_connect("/ws", headers=ORIGIN) as ws:
                ws.send_text(json.dumps({"type": "hello", "table": None}))
                ws.receive_json()  # the lobby list
                for line in range(3):
                    ws.send_text(json.dumps({"type": "chat", "text": f"hi {number} {line}"}))
                    while True:
                        message = ws.receive_json()
                        if message["type"] in ("chat", "error"):
                            break
                    if message["type"] == "error":
                        refusals.append(message["code"])
    assert refusals and set(refusals) == {"rate_limited"}


async def test_the_hash_runs_in_a_worker_thread_after_the_name_is_found_free(tmp_path, monkeypatch):
    from app.accounts.service import AccountError, Accounts
    from app.clock import Clock
    from app.db.engine import make_engine, make_sessionmaker, upgrade

    url = f"sqlite+aiosqlite:///{tmp_path}/db.sqlite"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    accounts = Accounts(make_sessionmaker(engine), Clock())
    threads: list[str] = []
    real = accounts_service._hasher

    class RecordingHasher:
        def hash(self, password: str) -> str:
            threads.append(threading.current_thread().name)
            return real.hash(password)

        def verify(self, stored: str, password: str) -> bool:
            return real.verify(stored, password)

    monkeypatch.setattr(accounts_service, "_hasher", RecordingHasher())
    await accounts.register("Hanna", "long enough")
    assert len(threads) == 1 and threads[0] != threading.main_thread().name
    with pytest.raises(AccountError, match="taken"):
        await accounts.register("HANNA", "long enough")
    assert len(threads) == 1  # refused before hashing
    await engine.dispose()
