"""Issue 17 (3): the live lobby feed computes a change once and fans out the same bytes; no
request (and no table actor) awaits the fan-out; the lobby's sockets are bounded.

300 lobby subscribers (200 anonymous, 100 people) and 60 open tables; one join:
- the database sees one open-tables query for the change (counted with an SQLAlchemy event
  listener), not one (plus two per table) per subscriber;
- when the join returns, no subscriber has been sent anything yet: the fan-out runs in the
  feed's own task; then every subscriber gets the new list, the anonymous ones the very same
  encoded text;
- a subscriber over the bound is refused.
The latency under load (a join stays under 200 ms p95 with 300 sockets and 60 tables) is a
figure, measured by benchmarks/lobby_feed.py, not asserted here."""

from __future__ import annotations

import asyncio

from sqlalchemy import event

from app.db.engine import upgrade
from app.lobby.service import NewTable, Viewer
from app.rooms.connection import Connection
from tests.platform_helpers import make_services, settings_for

SUBSCRIBERS, PEOPLE, TABLES = 300, 100, 60


def _open_table_queries(engine, counted: list[str]):
    def before(_conn, _cursor, statement, _params, _context, _many):
        text = " ".join(statement.split())
        if text.startswith("SELECT") and "FROM tables" in text and (
                "tables.status =" in text or "tables.status IN" in text):
            counted.append(text)
    event.listen(engine.sync_engine, "before_cursor_execute", before)
    return before


async def test_one_query_per_change_no_request_awaits_the_fan_out(tmp_path):
    services = make_services(settings_for(tmp_path))
    await asyncio.to_thread(upgrade, services.settings.database_url)
    await services.start()
    try:
        owners = [await services.accounts.create_guest() for _ in range(TABLES)]
        people = [await services.accounts.create_guest() for _ in range(PEOPLE)]
        tables = [await services.lobby.create_table(Viewer(o.id, o.name), NewTable())
                  for o in owners]
        conns = []
        for number in range(SUBSCRIBERS):
            viewer = (Viewer(people[number].id, people[number].name) if number < PEOPLE
                      else None)
            conn = Connection(viewer.id if viewer else None, outbox_size=1000)
            await services.hub.subscribe(conn, viewer)
            conns.append((conn, viewer))
        await services.hub.idle()
        for conn, _viewer in conns:
            first = conn.pending()
            # the list at subscribe (and, racing it, the last creation's change): the same list
            assert {m["type"] for m in first} == {"lobby"}
            assert len(first[-1]["tables"]) == TABLES
        counted: list[str] = []
        listener = _open_table_queries(services.engine, counted)
        joiner = await services.accounts.create_guest()
        await services.lobby.join(Viewer(joiner.id, joiner.name), tables[0]["id"])
        sent_before_return = sum(len(conn.pending()) for conn, _ in conns)
        await services.hub.idle()
        event.remove(services.engine.sync_engine, "before_cursor_execute", listener)
        assert sent_before_return == 0, "the join waited for the fan-out"
        assert len(counted) == 1, f"{len(counted)} open-tables queries for one change"
        after = [conn.take()[0] for conn, _ in conns]
        anonymous = {text for text, (_c, viewer) in zip(after, conns, strict=True)
                     if viewer is None}
        assert len(anonymous) == 1 and isinstance(next(iter(anonymous)), str)
        # the bound: a subscriber beyond it is refused, not served
        services.hub.max_subscribers = len(conns)
        extra = Connection(None)
        assert await services.hub.subscribe(extra, None) is False
        assert extra.pending()[0]["type"] == "error"
    finally:
        await services.close()
