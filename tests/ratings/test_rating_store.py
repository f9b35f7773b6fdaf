"""Ratings stored when a match finishes (SQLite and PostgreSQL): applied once, in the result's
transaction, only for finished matches with two people; and the leaderboard SQL agrees with the
pure core in app/ratings/leaderboard.py."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.clock import Clock
from app.db.models import PlayerRating, RatingChange, User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.ratings import leaderboard as core
from app.ratings.model import Bot, BotLevel, Person, Rating, is_provisional, rate_match
from app.ratings.store import leaderboard as sql_leaderboard
from app.ratings.store import match_outcome
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import (
    migrated_database,
)


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    store = MatchStore(sessions, clock)
    rooms = RoomManager(store, clock, ActorConfig(bot_delay=0, round_pause=0),
                        rng_factory=lambda table_id: random.Random(table_id))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    yield {"sessions": sessions, "store": store, "rooms": rooms, "lobby": lobby}
    await rooms.shutdown()
    await engine.dispose()


async def make_users(sessions, *names: str, guest: bool = False) -> list[Viewer]:
    async with sessions() as db:
        users = [User(name=n, password_hash=None, is_guest=guest, created_at=Clock().now())
                 for n in names]
        db.add_all(users)
        await db.commit()
        return [Viewer(id=u.id, name=u.name) for u in users]


async def play_out(world, table_id: int, people: list[Viewer]):
    """Play every person's seat with a random legal move until the table is finished."""
    rng = random.Random(table_id)
    actor = world["rooms"].actor(table_id)
    conns = {}
    await actor.idle()
    for person in people:
        conn = Connection(person.id)
        actor.attach(conn)
        conns[person.id] = conn
    await actor.idle()
    for _ in range(20000):
        if actor.table.status == "finished":
            return actor
        progress = actor.progress
        for seat in progress.game.to_act(progress.state):
            holder = next(s for s in actor.table.seats if s.seat == seat)
            if holder.user_id is None:
                continue
            legal = progress.game.legal_actions(progress.state, seat)
            move = rng.choice([a for a in legal if a["type"] != "announce"] or legal)
            actor.act(conns[holder.user_id], {k: v for k, v in move.items() if k != "seat"})
            break
        await actor.idle()
    raise AssertionError("the match did not finish")


async def ratings_of(sessions, game: str) -> dict[int, PlayerRating]:
    async with sessions() as db:
        rows = (await db.execute(select(PlayerRating).where(PlayerRating.game == game))).scalars()
        return {r.user_id: r for r in rows}


async def test_finished_doppelkopf_match_with_two_people_is_rated_once(world):
    sessions, lobby = world["sessions"], world["lobby"]
    anna, bert = await make_users(sessions, "anna", "bert")
    table = await lobby.create_table(anna, NewTable(game="doppelkopf", deals=1, bots=2,
                                                    skill="expert"))
    await lobby.join(bert, table["id"])
    actor = await play_out(world, table["id"], [anna, bert])

    stored = await ratings_of(sessions, "doppelkopf")
    assert set(stored) == {anna.id, bert.id}
    async with sessions() as db:
        outcome = await match_outcome(db, actor.match_id, 4, game_over=True)
        history = (await db.execute(select(RatingChange))).scalars().all()
    # the stored ratings are what the pure model gives for the stored outcome
    seats = [Person(anna.id), Person(bert.id), Bot(BotLevel.EXPERT), Bot(BotLevel.EXPERT)]
    expected = rate_match("doppelkopf", seats, outcome)
    for user in (anna, bert):
        assert stored[user.id].mu == pytest.approx(expected[user.id].mu)
        assert stored[user.id].sigma == pytest.approx(expected[user.id].sigma)
        assert stored[user.id].sigma < Rating().sigma
        assert stored[user.id].matches == 1
        assert stored[user.id].provisional is is_provisional(expected[user.id])
    assert sorted((h.user_id, h.match_id) for h in history) == sorted(
        [(anna.id, actor.match_id), (bert.id, actor.match_id)])
    assert all(h.mu_before == Rating().mu for h in history)
    # anna's and bert's scores decide the direction of their change
    totals = outcome["totals"]
    if totals[0] != totals[1]:
        better, worse = (anna, bert) if totals[0] > totals[1] else (bert, anna)
        assert stored[better.id].mu > stored[worse.id].mu

    # storing the result again is refused as a whole: the ratings do not move twice
    with pytest.raises(IntegrityError):
        await world["store"].finish_match(actor.match_id, actor.table, totals, [0])
    again = await ratings_of(sessions, "doppelkopf")
    assert {k: (v.mu, v.sigma, v.matches) for k, v in again.items()} == {
        k: (v.mu, v.sigma, v.matches) for k, v in stored.items()}


async def test_second_match_starts_from_the_stored_rating(world):
    sessions, lobby = world["sessions"], world["lobby"]
    anna, bert = await make_users(sessions, "anna", "bert")
    for _ in range(2):
        table = await lobby.create_table(anna, NewTable(game="doppio", players=2, deals=1))
        await lobby.join(bert, table["id"])
        await play_out(world, table["id"], [anna, bert])
    stored = await ratings_of(sessions, "doppio")
    async with sessions() as db:
        history = (await db.execute(select(RatingChange).where(RatingChange.user_id == anna.id)
                                    .order_by(RatingChange.id))).scalars().all()
    assert len(history) == 2 and stored[anna.id].matches == 2
    assert history[1].mu_before == pytest.approx(history[0].mu)
    assert history[1].mu == pytest.approx(stored[anna.id].mu)


async def test_one_person_with_computer_players_is_not_rated(world):
    sessions, lobby = world["sessions"], world["lobby"]
    (anna,) = await make_users(sessions, "anna")
    table = await lobby.create_table(anna, NewTable(game="doppelkopf", deals=1, bots=3))
    await play_out(world, table["id"], [anna])
    assert await ratings_of(sessions, "doppelkopf") == {}


async def test_leaderboard_sql_agrees_with_the_pure_core(world):
    sessions = world["sessions"]
    rng = random.Random(7)
    now = datetime(2026, 6, 1, tzinfo=UTC)
    users = await make_users(sessions, *[f"p{n:03d}" for n in range(260)])
    records = []
    async with sessions() as db:
        for user in users:
            sigma = rng.choice([2.0, 3.0, 4.5, 4.5, 6.0])
            mu = rng.choice([20.0, 25.0, 30.0, 31.5, 35.0])  # repeated values: shared ranks
            last = now - timedelta(days=rng.choice([0, 5, 30, 31, 60]))
            rating = Rating(mu, sigma)
            records.append(core.RatingRecord.of(user.id, "doppelkopf", rating, last))
            db.add(PlayerRating(user_id=user.id, game="doppelkopf", mu=mu, sigma=sigma,
                                provisional=is_provisional(rating), matches=40, last_active=last))
        await db.commit()
    expected = core.leaderboard(records, "doppelkopf", now)
    async with sessions() as db:
        board = await sql_leaderboard(db, "doppelkopf", now)
        assert len(expected.entries) > 0
        assert [(e["rank"], e["user_id"]) for e in board["entries"]] == [
            (e.rank, e.player) for e in expected.entries]
        assert len(board["entries"]) == 100  # the top 100 of more eligible players
        reasons = set()
        below_top = 0
        for user in users:
            own = core.own_rank(records, "doppelkopf", user.id, now)
            got = (await sql_leaderboard(db, "doppelkopf", now, user_id=user.id))["own"]
            assert got["rank"] == own.rank
            assert got["reason"] == (own.reason.value if own.reason else None)
            reasons.add(got["reason"])
            below_top += bool(got["rank"] and got["rank"] > 100)
        assert reasons == {None, "provisional", "inactive"}
        assert below_top > 0  # own ranks outside the top 100 are given too
        (outsider,) = await make_users(sessions, "newcomer")
        got = (await sql_leaderboard(db, "doppelkopf", now, user_id=outsider.id))["own"]
        assert got == {"rank": None, "reason": "unrated"}


async def test_guests_are_not_on_the_leaderboard(world):
    sessions = world["sessions"]
    now = datetime(2026, 6, 1, tzinfo=UTC)
    (anna,) = await make_users(sessions, "anna")
    (guest,) = await make_users(sessions, "Guest-000001", guest=True)
    async with sessions() as db:
        for user in (anna, guest):
            db.add(PlayerRating(user_id=user.id, game="doppio", mu=30.0, sigma=2.0,
                                provisional=False, matches=40, last_active=now))
        await db.commit()
        board = await sql_leaderboard(db, "doppio", now, user_id=guest.id)
    assert [e["name"] for e in board["entries"]] == ["anna"]
    assert board["own"] == {"rank": None, "reason": "unrated"}


async def test_two_matches_of_the_same_people_finishing_at_once_both_count(world):
    """The rating rows are created if missing and locked, so concurrent finishes serialize."""
    from sqlalchemy import update

    from app.db.models import GameTable, Match, Round, Seat
    from app.ratings.store import SeatHolder, rate_finished_match

    sessions = world["sessions"]
    anna, bert = await make_users(sessions, "anna", "bert")
    now = Clock().now()
    match_ids = []
    async with sessions() as db:
        for scores in ([10, 30], [12, 40]):  # doppio: lower is better, anna wins both
            table = GameTable(game="doppio", preset=None, rules={}, players=2, deals=1,
                              opponents="any", skill="beginner", secret="s", owner_id=anna.id,
                              status="playing", seated=2, created_at=now)
            db.add(table)
            await db.flush()
            db.add_all([Seat(table_id=table.id, seat=0, user_id=anna.id),
                        Seat(table_id=table.id, seat=1, user_id=bert.id)])
            match = Match(table_id=table.id, game="doppio", rules={}, players=2, deals=1,
                          started_at=now)
            db.add(match)
            await db.flush()
            db.add(Round(match_id=match.id, number=0, dealer=1, deal=[[], []], deck=[],
                         outcome={"finished": True, "scores": scores, "details": {},
                                  "redeal": False}))
            match_ids.append(match.id)
        await db.commit()

    async def finish(match_id: int) -> None:
        async with sessions() as db:
            await db.execute(update(Match).where(Match.id == match_id).values(finished_at=now))
            await rate_finished_match(db, match_id, "doppio",
                                      [SeatHolder(0, anna.id, None), SeatHolder(1, bert.id, None)],
                                      now)
            await db.commit()

    # the first finish holds its transaction open while the second one runs up to its writes
    async with sessions() as db:
        await db.execute(update(Match).where(Match.id == match_ids[0]).values(finished_at=now))
        await rate_finished_match(db, match_ids[0], "doppio",
                                  [SeatHolder(0, anna.id, None), SeatHolder(1, bert.id, None)], now)
        await db.flush()
        second = asyncio.create_task(finish(match_ids[1]))
        await asyncio.sleep(0.5)
        assert not second.done()  # it waits for the first (row locks / SQLite's one writer)
        await db.commit()
    await second
    stored = await ratings_of(sessions, "doppio")
    assert stored[anna.id].matches == 2 and stored[bert.id].matches == 2
    async with sessions() as db:
        history = (await db.execute(select(RatingChange).where(RatingChange.user_id == anna.id)
                                    .order_by(RatingChange.id))).scalars().all()
    before, after = sorted(history, key=lambda h: h.mu_before)
    assert before.mu_before == pytest.approx(Rating().mu)
    assert after.mu_before == pytest.approx(before.mu)  # the second started from the first
    assert stored[anna.id].mu == pytest.approx(after.mu) and after.mu > before.mu
