"""The statistics' projection on played matches (SQLite and PostgreSQL): counted as each
match finishes, once; the rebuild from the event logs gives exactly the same tables; a match
that finished while no process counted it is counted at the next start."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import delete, func, select

from app.clock import Clock
from app.db.models import PlayerStats, Result, StatsMatch
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable
from app.rooms.actor import ActorConfig
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from app.stats.projection import snapshot
from app.stats.service import Stats
from tests.platform_helpers import migrated_database
from tests.ratings.test_rating_store import make_users, play_out


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    store = MatchStore(sessions, clock)
    stats = Stats(sessions, clock)
    store.on_finished = stats.match_finished
    rooms = RoomManager(store, clock, ActorConfig(bot_delay=0, round_pause=0),
                        rng_factory=lambda table_id: random.Random(table_id))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    yield {"sessions": sessions, "rooms": rooms, "lobby": lobby, "stats": stats, "store": store}
    await stats.close()
    await rooms.shutdown()
    await engine.dispose()


async def play(world, owner, others, **table):
    """Open a table (``NewTable`` fields), seat ``others`` and play it out randomly."""
    spec = NewTable(**table)
    created = await world["lobby"].create_table(owner, spec)
    for person in others:
        await world["lobby"].join(person, created["id"], key=created.get("secret"))
    return await play_out(world, created["id"], [owner, *others])


async def test_rebuild_gives_what_counting_each_finished_match_gave(world):
    anna, bert, carl = await make_users(world["sessions"], "anna", "bert", "carl")
    await play(world, anna, [bert], game="doppelkopf", deals=3, bots=2)
    await play(world, bert, [anna, carl], game="doppelkopf", deals=2, bots=1,
               opponents="invited", invite=["anna", "carl"])
    await play(world, carl, [anna], game="doublehead_kids", bots=2)
    await play(world, anna, [bert, carl], game="doppelganger_tricks", players=3)
    await play(world, bert, [carl], game="doppio", players=2)
    await play(world, anna, [], game="doppelkopf", deals=1, bots=3)  # alone against computers
    await world["stats"].idle()

    async with world["sessions"]() as db:
        counted = await snapshot(db)
        results = (await db.execute(select(func.count()).select_from(Result)
                                    .where(Result.user_id.is_not(None)))).scalar_one()
    # every person's result was counted once; both scopes and every game are there
    assert len(counted["matches"]) == results == 2 + 3 + 2 + 3 + 2 + 1
    assert {scope for (_u, _g, scope) in counted["stats"]} == {"public", "private"}
    assert {game for (_u, game, _s) in counted["stats"]} == {
        "doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio"}
    anna_dk = counted["stats"][(anna.id, "doppelkopf", "public")]
    assert anna_dk["matches"] == 2 and anna_dk["deals"] == 4
    assert anna_dk["re_deals"] + anna_dk["kontra_deals"] == 4
    assert counted["stats"][(anna.id, "doppelkopf", "private")]["deals"] == 2
    assert counted["pairs"][(anna.id, bert.id, "doppelkopf")]["matches"] == 2
    assert counted["pairs"][(bert.id, carl.id, "doppio")]["matches"] == 1

    rebuilt = await world["stats"].rebuild()
    assert rebuilt.matches == 6 and rebuilt.skipped == [] and rebuilt.caught_up == 0
    async with world["sessions"]() as db:
        assert await snapshot(db) == counted


async def test_a_match_is_counted_once_and_one_not_counted_is_counted_at_the_start(world):
    anna, bert = await make_users(world["sessions"], "anna", "bert")
    actor = await play(world, anna, [bert], game="doppelkopf", deals=1, bots=2)
    await world["stats"].idle()
    stats = world["stats"]
    assert await stats.count(actor.match_id) is False  # counted when it finished
    async with world["sessions"]() as db:
        before = await snapshot(db)
        # as if the process had gone away before counting it
        await db.execute(delete(StatsMatch))
        await db.execute(delete(PlayerStats))
        await db.commit()
    stats.start()
    await stats.idle()
    async with world["sessions"]() as db:
        after = await snapshot(db)
    assert after["matches"] == before["matches"] and after["stats"] == before["stats"]
