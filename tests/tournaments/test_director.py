"""The director end to end on SQLite and PostgreSQL: a Doppelkopf series created, people
registered, round 1 drawn at the start, tables played by computer players standing in for
absent people, standings from the tables' own results, round 2 seated by standing after the
pause, the final standings; a restart in the middle of a round; absent players."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import func, select

from app.db.models import GameTable, Match, Result, TournamentRound, TournamentSeat
from app.tournaments.spec import TournamentError
from tests.tournaments.helpers import finish_tables, people, site, spec


async def _seated_round(services, tournament_id, number):
    data = await services.tournaments.show(None, tournament_id)
    rnd = next(r for r in data["schedule"] if r["number"] == number)
    return data, rnd, [t["id"] for t in rnd["tables"]]


async def test_a_series_of_doppelkopf_from_start_to_final_standings(tmp_path, db_url):
    async with site(tmp_path, db_url) as (services, clock):
        ps = await people(services, 7)
        made = await services.tournaments.create(spec(clock, rounds=2, deals=4, pause=60))
        tid = made["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        await services.director.tick()  # not yet time
        assert (await services.tournaments.show(None, tid))["status"] == "scheduled"
        clock.advance(300)
        await services.director.tick()
        data, rnd, ids = await _seated_round(services, tid, 1)
        assert data["status"] == "running" and data["current_round"] == 1
        # 7 people at tables of 4: two tables of 4 and 3 people, a computer in the free seat
        people_at = [sorted(s["user_id"] for s in t["seats"] if s["user_id"]) for t in rnd["tables"]]
        assert sorted(len(p) for p in people_at) == [3, 4]
        assert sorted(u for group in people_at for u in group) == sorted(p.id for p in ps)
        bots = [s for t in rnd["tables"] for s in t["seats"] if s["bot"]]
        assert [b["bot"] for b in bots] == ["intermediate"]
        await finish_tables(services, ids)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert data["schedule"][0]["status"] == "done"
        # the standings are the tables' own results
        async with services.accounts._db() as db:
            results = dict((await db.execute(
                select(Result.user_id, Result.score).join(Match, Match.id == Result.match_id)
                .where(Match.table_id.in_(ids), Result.user_id.is_not(None)))).all())
        assert {p["user_id"]: p["score"] for p in data["players"]} == results
        ranked = [p["user_id"] for p in data["players"]]
        await services.director.tick()  # the pause is not over: no round 2
        assert (await services.tournaments.show(None, tid))["current_round"] == 1
        clock.advance(60)
        await services.director.tick()
        data, rnd2, ids2 = await _seated_round(services, tid, 2)
        groups = [{s["user_id"] for s in t["seats"] if s["user_id"]} for t in rnd2["tables"]]
        # leaders meet: the best four of round 1 share the first table unless that repeats
        # table-mates; at most the unavoidable repeats (7 people, 2 tables: pigeonhole)
        assert len(groups) == 2 and {len(g) for g in groups} == {3, 4}
        await finish_tables(services, ids2)
        await services.director.tick()
        final = await services.tournaments.show(None, tid)
        assert final["status"] == "finished"
        assert [p["rank"] for p in final["players"]][0] == 1
        assert all(p["played"] == 2 for p in final["players"])
        assert ranked  # round 1 had standings
        async with services.accounts._db() as db:
            rounds = (await db.execute(select(func.count()).select_from(TournamentRound)
                                       .where(TournamentRound.tournament_id == tid))).scalar_one()
            seats = (await db.execute(select(TournamentSeat.round_id, TournamentSeat.user_id)
                                      .where(TournamentSeat.tournament_id == tid))).all()
        assert rounds == 2
        assert max(Counter(seats).values()) == 1  # nobody twice in a round
        assert len(seats) == 14


async def test_a_restart_in_the_middle_of_a_round_starts_nothing_twice_and_loses_nothing(
        tmp_path, db_url):
    async with site(tmp_path, db_url) as (services, clock):
        ps = await people(services, 4)
        tid = (await services.tournaments.create(spec(clock, rounds=2, deals=4, pause=0)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        _data, _rnd, ids = await _seated_round(services, tid, 1)
        await services.rooms.shutdown()  # the process goes away with the round in play
        start = clock.now()
    async with site(tmp_path, db_url) as (again, clock2):
        clock2._start = start  # noqa: SLF001 - the same wall clock after the restart
        await again.rooms.rebuild()  # as the server's start does
        await again.director.tick()
        await again.director.tick()  # a second director tick changes nothing either
        data, rnd, same = await _seated_round(again, tid, 1)
        assert same == ids and data["current_round"] in (1, 2)
        await finish_tables(again, ids)
        await again.director.tick()
        await again.director.tick()
        data, rnd2, ids2 = await _seated_round(again, tid, 2)
        await finish_tables(again, ids2)
        await again.director.tick()
        final = await again.tournaments.show(None, tid)
        assert final["status"] == "finished"
        assert [len(r["tables"]) for r in final["schedule"]] == [1, 1]
        async with again.accounts._db() as db:
            finished = (await db.execute(select(func.count()).select_from(GameTable).where(
                GameTable.id.in_([*ids, *ids2]), GameTable.status == "finished"))).scalar_one()
            results = (await db.execute(select(func.count()).select_from(Result).join(
                Match, Match.id == Result.match_id).where(Match.table_id.in_([*ids, *ids2]))
            )).scalar_one()
        assert finished == 2 and results == 8  # every seat's result of both rounds


async def test_too_few_players_cancel_the_tournament_at_its_start(tmp_path):
    async with site(tmp_path) as (services, clock):
        (p,) = await people(services, 1)
        tid = (await services.tournaments.create(spec(clock, min_players=2)))["id"]
        await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert data["status"] == "cancelled" and data["note"] == "too_few_players"


async def test_absent_players_are_played_by_the_computer_and_withdrawn_after_two_rounds(tmp_path):
    async with site(tmp_path) as (services, clock):
        ps = await people(services, 4)
        here = {ps[0].id, ps[1].id}

        async def online():
            return set(here)

        services.director._hooks.online = online  # noqa: SLF001 - who has a page open
        tid = (await services.tournaments.create(spec(clock, rounds=3, deals=4, pause=0)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        for number in (1, 2):
            await services.director.tick()
            _d, rnd, ids = await _seated_round(services, tid, number)
            absent = {s["user_id"] for t in rnd["tables"] for s in t["seats"] if s["absent"]}
            assert absent == {ps[2].id, ps[3].id}
            await finish_tables(services, ids)  # the computer played their seats
            await services.director.tick()
        _d, rnd3, _ids = await _seated_round(services, tid, 3)
        seated = {s["user_id"] for t in rnd3["tables"] for s in t["seats"] if s["user_id"]}
        assert seated == here  # absent at two starts in a row: withdrawn
        data = await services.tournaments.show(None, tid)
        status = {p["user_id"]: (p["status"], p["absent"], p["played"]) for p in data["players"]}
        assert status[ps[2].id] == ("paused", 2, 2)  # they keep what the computer scored
        await services.tournaments.resume(ps[2], tid)
        assert {p["user_id"]: p["status"] for p in
                (await services.tournaments.show(None, tid))["players"]}[ps[2].id] == "active"


async def test_bad_registrations_are_refused_and_change_nothing(tmp_path):
    async with site(tmp_path) as (services, clock):
        a, b, c = await people(services, 3)
        tid = (await services.tournaments.create(spec(clock, max_players=2)))["id"]
        await services.tournaments.register(a, tid)
        with pytest.raises(TournamentError, match="registered already") as twice:
            await services.tournaments.register(a, tid)
        assert twice.value.status == 409
        await services.tournaments.register(b, tid)
        with pytest.raises(TournamentError, match="full"):
            await services.tournaments.register(c, tid)
        assert (await services.tournaments.show(None, tid))["registered"] == 2
        clock.advance(300)
        await services.director.tick()
        with pytest.raises(TournamentError, match="has started"):
            await services.tournaments.register(c, tid)
        _d, _r, ids = await _seated_round(services, tid, 1)
        # a tournament table is full and playing: nobody else can sit down there
        from app.lobby.service import LobbyError

        with pytest.raises(LobbyError, match="not open"):
            await services.lobby.join(c, ids[0])


async def test_duplicate_deals_give_seat_n_the_same_cards_at_every_table(tmp_path):
    async with site(tmp_path) as (services, clock):
        ps = await people(services, 12)
        tid = (await services.tournaments.create(spec(clock, format="duplicate", rounds=1,
                                                      deals=4)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        _d, rnd, ids = await _seated_round(services, tid, 1)
        assert len(ids) == 3
        await finish_tables(services, ids)
        hands = {}
        for table_id in ids:
            _mid, rounds = await services.rooms.store.load_match(table_id)
            hands[table_id] = [(r.dealer, r.deal, r.deck) for r in rounds]
        first = hands[ids[0]]
        for table_id in ids[1:]:
            # the same dealer and the same cards seat by seat, deal by deal (redeals aside)
            assert hands[table_id][0] == first[0]
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert data["boards"] and all(b["compared"] for b in data["boards"])
        assert all(len(b["tables"]) == 3 for b in data["boards"] if b["deal"] == 1)
        # how each table played those cards: the contract and the parties' card points
        assert all({"contract", "card_points"} <= set(row["played"])
                   for b in data["boards"] for row in b["tables"])


@pytest.mark.parametrize("fmt", ["series", "duplicate"])
@pytest.mark.parametrize("game,size,deals", [("doublehead_kids", 4, 2),
                                             ("doppelganger_tricks", 3, 0), ("doppio", 2, 2)])
async def test_every_game_plays_a_series_and_a_duplicate_series(tmp_path, game, size, deals, fmt):
    async with site(tmp_path) as (services, clock):
        ps = await people(services, size + 1)
        tid = (await services.tournaments.create(spec(clock, game=game, table_size=size,
                                                      rounds=1, deals=deals, format=fmt)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        _d, rnd, ids = await _seated_round(services, tid, 1)
        assert all(len(t["seats"]) == size for t in rnd["tables"])
        await finish_tables(services, ids)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert data["status"] == "finished"
        if fmt == "duplicate":  # both tables were dealt the same first deal, seat by seat
            first = [(await services.rooms.store.load_match(t))[1][0] for t in ids]
            assert len(ids) == 2 and first[0].deal == first[1].deal
            assert first[0].deck == first[1].deck and first[0].dealer == first[1].dealer
            assert data["boards"] and data["boards"][0]["compared"]
            return
        scores = [p["score"] for p in data["players"]]
        if data["lower_wins"]:
            assert scores == sorted(scores)
        else:
            assert scores == sorted(scores, reverse=True)


async def test_an_arena_pairs_free_people_again_until_its_window_closes(tmp_path):
    async with site(tmp_path) as (services, clock):
        ps = await people(services, 5)
        ids_online = {p.id for p in ps}

        async def online():
            return set(ids_online)

        services.director._hooks.online = online  # noqa: SLF001
        tid = (await services.tournaments.create(spec(clock, format="arena", rounds=1, deals=4,
                                                      duration=30, fill_wait=20)))["id"]
        for p in ps[:4]:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert len(data["tables"]) == 1
        await services.tournaments.register(ps[4], tid)  # late: an arena takes people in
        await services.director.tick()  # alone and not waited 20 s: no table yet
        assert len((await services.tournaments.show(None, tid))["tables"]) == 1
        clock.advance(21)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        late = [t for t in data["tables"] if any(s["user_id"] == ps[4].id for s in t["seats"])]
        assert len(late) == 1 and sum(1 for s in late[0]["seats"] if s["bot"]) == 3
        await finish_tables(services, [t["id"] for t in data["tables"]])
        await services.director.tick()  # the first four are free again: paired again
        data = await services.tournaments.show(None, tid)
        assert len(data["tables"]) >= 3
        clock.advance(30 * 60)
        await services.director.tick()  # the window closed: running tables finish
        await finish_tables(services, [t["id"] for t in data["tables"]])
        await services.director.tick()
        await services.director.tick()
        final = await services.tournaments.show(None, tid)
        assert final["status"] == "finished"
        assert all(p["played"] >= 1 for p in final["players"])
        points = [p["score"] for p in final["players"]]
        assert points == sorted(points, reverse=True)


@pytest.mark.parametrize("game,size,deals", [("doppio", 3, 2), ("doppelganger_tricks", 4, 1)])
async def test_an_arena_of_another_game_scores_by_placing(tmp_path, game, size, deals):
    async with site(tmp_path) as (services, clock):
        ps = await people(services, size)
        everyone = {p.id for p in ps}

        async def online():
            return set(everyone)

        services.director._hooks.online = online  # noqa: SLF001
        tid = (await services.tournaments.create(spec(clock, game=game, table_size=size,
                                                      format="arena", duration=10,
                                                      deals=deals)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        await services.director.tick()
        (table,) = (await services.tournaments.show(None, tid))["tables"]
        await finish_tables(services, [table["id"]])
        clock.advance(10 * 60)
        await services.director.tick()
        data = await services.tournaments.show(None, tid)
        assert data["status"] == "finished"
        # placing points of one match at a table of `size`: 2 per seat beaten, 1 per tie
        assert sum(p["score"] for p in data["players"]) == size * (size - 1)


async def test_one_director_holds_the_lease_and_two_at_once_seat_a_round_once(tmp_path, db_url):
    from app.cluster.leases import InProcessLeases
    from app.tournaments.director import Director

    async with site(tmp_path, db_url) as (services, clock):
        leases = InProcessLeases(clock.monotonic)
        first = Director(services.accounts._db, clock, services.director._hooks, leases, "one")  # noqa: SLF001
        second = Director(services.accounts._db, clock, services.director._hooks, leases, "two")  # noqa: SLF001
        assert [await first._hold(), await second._hold()] == [True, False]  # noqa: SLF001
        await first.close()  # releases the lease: the other process may take over
        assert await second._hold()  # noqa: SLF001
        await second.close()
        ps = await people(services, 8)
        tid = (await services.tournaments.create(spec(clock, rounds=1, deals=4)))["id"]
        for p in ps:
            await services.tournaments.register(p, tid)
        clock.advance(300)
        # the lease is timing, not proof: two directors ticking at once still seat round 1 once
        import asyncio

        await asyncio.gather(first.tick(), second.tick(), services.director.tick())
        async with services.accounts._db() as db:  # noqa: SLF001
            rounds = (await db.execute(select(func.count()).select_from(TournamentRound).where(
                TournamentRound.tournament_id == tid))).scalar_one()
            seats = (await db.execute(select(TournamentSeat.user_id).where(
                TournamentSeat.tournament_id == tid))).scalars().all()
            tables = (await db.execute(select(func.count(func.distinct(TournamentSeat.table_id)))
                                       .where(TournamentSeat.tournament_id == tid))).scalar_one()
        assert rounds == 1 and sorted(seats) == sorted(p.id for p in ps) and tables == 2
