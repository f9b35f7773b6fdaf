"""Issue 17 (11): an invite key that is not the shape of a key (non-ASCII, too long) is a
clear refusal everywhere it is read — the join route, the join form, the table page, the
WebSocket hello and the lobby service — never a 500 or a dropped socket."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from tests.platform_helpers import make_app, settings_for
from tests.test_attacks import ORIGIN, Person, csrf, post, register

BAD_KEYS = ["ü" * 16, "schlüssel", "\u202e" + "a" * 10, "a" * 65, "a b", "€"]


@pytest.fixture
def people(tmp_path):
    with TestClient(make_app(settings_for(tmp_path)), raise_server_exceptions=False) as client:
        yield lambda: Person(client)


def test_a_malformed_invite_key_is_refused_cleanly_everywhere(people):
    owner, guest = people(), people()
    register(owner, "owner")
    register(guest, "visitor")
    table = post(owner, "/api/tables", {"game": "doppelkopf", "opponents": "invited"}).json()
    for key in BAD_KEYS:
        joined = post(guest, f"/api/tables/{table['id']}/join", {"key": key})
        assert joined.status_code in (403, 422), (key, joined.status_code)
        page = guest.get(f"/tables/{table['id']}", params={"key": key})
        assert page.status_code in (403, 404, 422), (key, page.status_code)
        form = guest.post(f"/tables/{table['id']}/join", data={"key": key, "csrf": csrf(guest)},
                          follow_redirects=False)
        assert form.status_code in (403, 422), (key, form.status_code)
    with guest.websocket_connect("/ws", headers=ORIGIN) as ws:
        for key in BAD_KEYS:
            ws.send_text(json.dumps({"type": "hello", "table": table["id"], "key": key}))
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] in ("bad_message", "forbidden")
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json()["type"] == "pong"  # the socket is still served
    # the real key still works
    assert post(guest, f"/api/tables/{table['id']}/join", {"key": table["secret"]}).status_code == 200


async def test_the_lobby_compares_any_key_without_raising(tmp_path):
    import asyncio

    from app.db.engine import upgrade
    from app.lobby.service import LobbyError, NewTable, Viewer
    from tests.platform_helpers import make_services

    services = make_services(settings_for(tmp_path))
    await asyncio.to_thread(upgrade, services.settings.database_url)
    owner = await services.accounts.register("owner", "long enough")
    other = await services.accounts.register("other", "long enough")
    table = await services.lobby.create_table(Viewer(owner.id, owner.name),
                                              NewTable(opponents="invited"))
    for key in BAD_KEYS:
        assert not await services.lobby.may_join(Viewer(other.id, other.name), table["id"], key)
        with pytest.raises(LobbyError):
            await services.lobby.check_watch(None, table["id"], key)
    await services.close()
