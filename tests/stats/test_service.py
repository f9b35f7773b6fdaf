"""What the profile, the API and the leaderboards read from the statistics (SQLite and
PostgreSQL): privacy (private matches count for the player's own view only; the accuracy is
the player's own; head to head only for the two who played), guests, the rating history's
thinning, and the leaderboards by period and of new players."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from app.clock import ManualClock
from app.db.models import Analysis, Friendship, User
from app.history.service import HistoryError
from app.stats import boards, profile
from app.stats.boards import period_start
from app.stats.service import Stats
from tests.platform_helpers import migrated_database
from tests.stats.history import add_users, random_match, store_finished

NOW = datetime(2026, 12, 9, 15, 0, tzinfo=UTC)  # a Wednesday


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    stats = Stats(sessions, ManualClock(NOW))
    yield {"sessions": sessions, "stats": stats}
    await stats.close()
    await engine.dispose()


async def store(world, holders, *, at, opponents="any", game="doppelkopf", players=4, seed=1):
    async with world["sessions"]() as db:
        match_id = await store_finished(db, random_match(game, players, random.Random(seed), deals=2),
                                        holders, at, opponents=opponents)
        await db.commit()
    return match_id


def figure(data, game, key):
    return next(f for f in data["stats"][game]["figures"] if f["key"] == key)


async def test_private_matches_count_for_the_player_alone_and_head_to_head_for_the_pair(world):
    async with world["sessions"]() as db:
        anna, bert, carl = await add_users(db, ["anna", "bert", "carl"], NOW - timedelta(days=90))
        db.add(Friendship(requester_id=anna, addressee_id=bert, accepted=True, created_at=NOW))
        await db.commit()
    public = await store(world, [anna, bert, None, None], at=NOW - timedelta(days=2), seed=1)
    private = await store(world, [anna, bert, None, None], at=NOW - timedelta(days=1),
                          opponents="friend", seed=2)
    stats = world["stats"]
    assert await stats.catch_up() == 2

    own = await stats.player("anna", viewer_id=anna)
    assert own["own"] is True and own["scope"] == "all"
    assert figure(own, "doppelkopf", "matches")["value"] == 2
    assert [p["match"] for p in own["stats"]["doppelkopf"]["rating"]["points"]] == [public, private]
    for viewer in (None, carl, bert):  # a stranger, another player, even the partner of both
        seen = await stats.player("anna", viewer_id=viewer)
        assert seen["own"] is False and seen["scope"] == "public"
        assert figure(seen, "doppelkopf", "matches")["value"] == 1
        assert figure(seen, "doppelkopf", "deals")["value"] == 2
        assert seen["stats"]["doppelkopf"]["accuracy"] is None  # the player's own
    # the rating history shows the points of the matches the viewer may open
    assert [p["match"] for p in (await stats.player("anna", viewer_id=None))
            ["stats"]["doppelkopf"]["rating"]["points"]] == [public]
    assert [p["match"] for p in (await stats.player("anna", viewer_id=bert))
            ["stats"]["doppelkopf"]["rating"]["points"]] == [public, private]
    # head to head: anna's own page against each friend; bert on anna's page: bert's side
    (pair,) = own["head_to_head"]
    assert pair["player"] == "bert" and pair["matches"] == 2 and pair["game"] == "doppelkopf"
    assert pair["partner_deals"] + pair["opponent_deals"] == 4
    (theirs,) = (await stats.player("anna", viewer_id=bert))["head_to_head"]
    assert theirs["player"] == "anna" and theirs["ahead"] == pair["behind"]
    assert theirs["partner_won"] == pair["partner_won"] and theirs["opponent_won"] == pair["opponent_lost"]
    assert (await stats.player("anna", viewer_id=carl))["head_to_head"] == []
    assert (await stats.player("anna", viewer_id=None))["head_to_head"] == []


async def test_the_accuracy_trend_is_the_players_own_and_a_guest_has_statistics_for_themselves(world):
    async with world["sessions"]() as db:
        (anna,) = await add_users(db, ["anna"], NOW)
        guest = User(name="Guest-123456", password_hash=None, is_guest=True, created_at=NOW)
        db.add(guest)
        await db.commit()
    match = await store(world, [anna, guest.id, None, None], at=NOW)
    async with world["sessions"]() as db:
        db.add(Analysis(match_id=match, seat=0, user_id=anna, status="done", done=3, total=3,
                        result={"match": {"decisions": 3, "analysed": 3, "accuracy": 66.7, "cost": 2.0}},
                        created_at=NOW, updated_at=NOW))
        await db.commit()
    stats = world["stats"]
    await stats.catch_up()
    accuracy = (await stats.player("anna", viewer_id=anna))["stats"]["doppelkopf"]["accuracy"]
    assert [(p["match"], p["accuracy"]) for p in accuracy["points"]] == [(match, 66.7)]
    mine = await stats.player("Guest-123456", viewer_id=guest.id)
    assert mine["guest"] is True and figure(mine, "doppelkopf", "matches")["value"] == 1
    for viewer in (None, anna):
        with pytest.raises(HistoryError):
            await stats.player("Guest-123456", viewer_id=viewer)


async def test_a_long_rating_history_is_thinned_evenly_keeping_the_first_and_the_last(world, monkeypatch):
    async with world["sessions"]() as db:
        anna, bert = await add_users(db, ["anna", "bert"], NOW)
        await db.commit()
    matches = [await store(world, [anna, bert, None, None], at=NOW - timedelta(hours=12 - i), seed=i)
               for i in range(12)]
    await world["stats"].catch_up()
    monkeypatch.setattr(profile, "MOST_POINTS", 5)
    rating = (await world["stats"].player("anna", viewer_id=anna))["stats"]["doppelkopf"]["rating"]
    # ceil(12 / 5) = 3: matches 1, 4, 7, 10 and the last
    assert rating["total"] == 12 and rating["thinned"] is True
    assert [p["match"] for p in rating["points"]] == [matches[i] for i in (0, 3, 6, 9, 11)]
    assert rating["points"][0]["provisional"] is True
    assert [p["t"] for p in rating["points"]] == sorted(p["t"] for p in rating["points"])


def test_periods_start_on_monday_and_on_the_first_of_the_month_in_utc():
    assert period_start("week", NOW) == datetime(2026, 12, 7, tzinfo=UTC)
    assert period_start("month", NOW) == datetime(2026, 12, 1, tzinfo=UTC)
    assert period_start("all", NOW) is None
    with pytest.raises(ValueError):
        period_start("year", NOW)


async def test_leaderboards_by_period_count_rated_public_wins_and_new_players_by_rating(world):
    async with world["sessions"]() as db:
        anna, bert, carl = await add_users(db, ["anna", "bert", "carl"], NOW - timedelta(days=90))
        (dora,) = await add_users(db, ["dora"], NOW - timedelta(days=3))
        await db.commit()
    # this week, last week, last month; a private match and one alone against computers
    played = [
        ([anna, bert, None, None], NOW - timedelta(days=1), "any"),
        ([anna, dora, None, None], NOW - timedelta(days=2), "any"),
        ([bert, carl, None, None], NOW - timedelta(days=5), "any"),
        ([carl, anna, None, None], NOW - timedelta(days=40), "any"),
        ([anna, bert, None, None], NOW - timedelta(hours=3), "friend"),
        ([bert, None, None, None], NOW - timedelta(hours=2), "any"),
    ]
    for seed, (holders, at, opponents) in enumerate(played):
        await store(world, holders, at=at, opponents=opponents, seed=seed)
    stats = world["stats"]
    await stats.catch_up()
    async with world["sessions"]() as db:
        from app.db.models import StatsMatch
        rows = (await db.execute(select(StatsMatch))).scalars().all()
    won = {(r.user_id, r.finished_at.replace(tzinfo=UTC) if r.finished_at.tzinfo is None else r.finished_at):
           r.placing == 1 for r in rows if r.public and r.rated}

    def expected(since):
        table = {}
        for (user, at), first in won.items():
            if since is None or at >= since:
                wins, matches = table.get(user, (0, 0))
                table[user] = (wins + first, matches + 1)
        return table

    for period in ("week", "month", "all"):
        board = await stats.board("doppelkopf", period, viewer_id=carl, now=NOW)
        got = {e["user_id"]: (e["wins"], e["matches"]) for e in board["entries"]}
        assert got == expected(period_start(period, NOW)), period
        ordered = [(-e["wins"], -e["wins"] / e["matches"]) for e in board["entries"]]
        assert ordered == sorted(ordered)
        assert all(e["rating"] is not None for e in board["entries"])
    week = await stats.board("doppelkopf", "week", viewer_id=carl, now=NOW)
    assert set(e["user_id"] for e in week["entries"]) == {anna, bert, dora}  # carl: 5 days ago
    assert week["own"] is None  # carl played nothing that counts this week
    month = await stats.board("doppelkopf", "month", viewer_id=carl, now=NOW)
    assert month["own"]["user_id"] == carl and month["own"]["matches"] == 1
    # a player's own rank below the entries shown
    full = (await stats.board("doppelkopf", "all", now=NOW))["entries"]
    last = full[-1]
    async with world["sessions"]() as db:
        cut = await boards.by_wins(db, "doppelkopf", "all", NOW, viewer_id=last["user_id"], limit=1)
    assert len(cut["entries"]) == 1 and cut["own"]["rank"] == last["rank"] > 1
    new = await stats.board("doppelkopf", "new", now=NOW)
    assert [e["name"] for e in new["entries"]] == ["dora"] and new["entries"][0]["provisional"] is True
    with pytest.raises(HistoryError):
        await stats.board("doppelkopf", "year", now=NOW)
    with pytest.raises(HistoryError):
        await stats.board("chess", "week", now=NOW)
