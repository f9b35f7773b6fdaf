"""Analyses of finished matches on the site (SQLite and PostgreSQL): only a player, for their
own seat; once per match and seat; in the background on the bots' pool, with progress."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.analysis import jobs
from app.analysis.service import STALE_S, Analyses, AnalysisError
from app.bots import runner
from app.clock import Clock
from app.db.models import Analysis
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable
from app.rooms.actor import ActorConfig
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import migrated_database
from tests.ratings.test_rating_store import make_users, play_out


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    rooms = RoomManager(MatchStore(sessions, clock), clock, ActorConfig(bot_delay=0, round_pause=0),
                        rng_factory=lambda table_id: random.Random(table_id))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    analyses = Analyses(sessions, clock, lobby.scenario, budget_ms=60_000, worlds=2)
    yield {"sessions": sessions, "rooms": rooms, "lobby": lobby, "analyses": analyses}
    await analyses.close()
    await rooms.shutdown()
    await engine.dispose()


async def finished_table(world, game: str = "doppelkopf"):
    anna, bert, carl = await make_users(world["sessions"], "anna", "bert", "carl")
    table = await world["lobby"].create_table(anna, NewTable(game=game, deals=1, bots=2))
    await world["lobby"].join(bert, table["id"])
    await play_out(world, table["id"], [anna, bert])
    return table["id"], anna, bert, carl


class Gate:
    """A pool whose jobs wait until the test opens the gate; records what ran there."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.ran: list[str] = []
        self.pool = ThreadPoolExecutor(max_workers=1)

    def submit(self, fn, *args):
        def job():
            self.open.wait(30)
            self.ran.append(fn.__name__)
            return fn(*args)
        return self.pool.submit(job)

    def shutdown(self, wait=True, cancel_futures=False):
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


async def test_a_player_gets_the_analysis_of_their_own_seat_once(world, monkeypatch):
    table_id, anna, bert, _carl = await finished_table(world)
    analyses = world["analyses"]
    gate = Gate()
    monkeypatch.setattr(runner, "_pool", gate)  # not configure(): that would shut the tests' pool
    try:
        started = await analyses.request(bert.id, table_id)
        # the request returned before any work: it runs in the background, in the pool
        assert started == {"status": "running", "seat": 1, "done": 0, "total": 0, "result": None}
        again = await analyses.request(bert.id, table_id)
        assert again["status"] == "running"
        gate.open.set()
        await analyses.idle()
    finally:
        gate.shutdown()
    assert gate.ran[0] == jobs.plan_match.__name__
    assert set(gate.ran[1:]) == {jobs.value.__name__}
    status = await analyses.status(bert.id, table_id)
    assert status["status"] == "done" and status["seat"] == 1
    assert status["done"] == status["total"] == len(gate.ran) - 1 > 5
    result = status["result"]
    assert result["seat"] == 1 and result["game"] == "doppelkopf"
    assert all(d["action"]["seat"] == 1 for d in result["decisions"])
    assert len(result["decisions"]) == status["total"]
    assert (await analyses.status(anna.id, table_id)) == {"status": "none"}
    async with world["sessions"]() as db:
        assert (await db.execute(select(func.count()).select_from(Analysis))).scalar_one() == 1
    # asked again when done: nothing new runs
    assert (await analyses.request(bert.id, table_id))["status"] == "done"
    assert not analyses._tasks


async def test_only_players_may_ask_and_only_when_the_match_is_over(world):
    table_id, _anna, _bert, carl = await finished_table(world)
    with pytest.raises(AnalysisError) as refused:
        await world["analyses"].request(carl.id, table_id)
    assert refused.value.status == 403
    with pytest.raises(AnalysisError) as missing:
        await world["analyses"].status(carl.id, 999_999)
    assert missing.value.status == 404
    dora, = await make_users(world["sessions"], "dora")
    table = await world["lobby"].create_table(dora, NewTable(game="doppelkopf", deals=1, bots=2))
    with pytest.raises(AnalysisError) as early:
        await world["analyses"].request(dora.id, table["id"])
    assert early.value.status == 409


async def test_two_requests_at_once_start_one_analysis(world):
    table_id, anna, _bert, _carl = await finished_table(world)
    analyses = world["analyses"]
    first, second = await asyncio.gather(analyses.request(anna.id, table_id),
                                         analyses.request(anna.id, table_id))
    assert first["status"] == second["status"] == "running"
    await analyses.idle()
    async with world["sessions"]() as db:
        rows = (await db.execute(select(Analysis))).scalars().all()
    assert len(rows) == 1 and rows[0].status == "done" and rows[0].seat == 0


async def test_a_failed_analysis_starts_again_when_asked(world, monkeypatch):
    table_id, anna, _bert, _carl = await finished_table(world)
    analyses = world["analyses"]

    def broken(*_args):
        raise RuntimeError("estimator broke")

    monkeypatch.setattr(jobs, "value", broken)
    await analyses.request(anna.id, table_id)
    await analyses.idle()
    assert (await analyses.status(anna.id, table_id))["status"] == "failed"
    monkeypatch.undo()
    assert (await analyses.request(anna.id, table_id))["status"] == "running"
    await analyses.idle()
    assert (await analyses.status(anna.id, table_id))["status"] == "done"


async def test_an_analysis_whose_process_went_away_shows_failed_and_starts_again(world):
    table_id, anna, _bert, _carl = await finished_table(world)
    analyses = world["analyses"]
    async with world["sessions"]() as db:
        from app.db.models import Match, Result

        match_id = (await db.execute(select(Match.id).where(Match.table_id == table_id))).scalar_one()
        seat = (await db.execute(select(Result.seat).where(Result.match_id == match_id,
                                                           Result.user_id == anna.id))).scalar_one()
        long_ago = Clock().now() - timedelta(seconds=STALE_S + 60)
        db.add(Analysis(match_id=match_id, seat=seat, user_id=anna.id, status="running", done=3,
                        total=14, created_at=long_ago, updated_at=long_ago))
        await db.commit()
    assert (await analyses.status(anna.id, table_id))["status"] == "failed"
    assert (await analyses.request(anna.id, table_id))["status"] == "running"
    await analyses.idle()
    assert (await analyses.status(anna.id, table_id))["status"] == "done"


async def test_the_jobs_run_in_a_real_process_pool(monkeypatch):
    """What the site sends to the bots' pool pickles: the plan and one decision's value come
    back from a forkserver worker the same as computed here."""
    import json
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tests.analysis.test_analyse import THROWN_AWAY

    document = json.loads(THROWN_AWAY.read_text())
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    monkeypatch.setattr(runner, "_pool", pool)
    try:
        decisions, choices = await runner.run_job(jobs.plan_match, document, 0)
        rules = json.dumps(document["rules"])
        remote = await runner.run_job(jobs.value, "doppelkopf", rules, decisions[-4], 1, 60_000, 3)
    finally:
        pool.shutdown()
    assert (decisions, choices) == jobs.plan_match(document, 0)
    assert remote == jobs.value("doppelkopf", rules, decisions[-4], 1, 60_000, 3)
    assert remote["analysed"] is True
