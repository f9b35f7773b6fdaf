"""Finished matches for the statistics' tests and benchmarks/stats.py, without rooms: a match
played out with random legal actions by the rules core (seeded), stored as the site stores a
finished one (table, seats, match, rounds with outcomes, the event log, results) and rated in
the same transaction (app.ratings.store.rate_finished_match, as MatchStore.finish_match)."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ActionRow, GameTable, Match, Result, Round, Seat, User
from app.games.base import best_seats, totals
from app.games.registry import get_game
from app.ratings.model import RANK_GAMES
from app.ratings.store import SeatHolder, rate_finished_match
from app.rooms.match import outcome_json


def _choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal action, mostly as people play: Doppelkopf's healthy more often than a
    reservation, an announcement now and then."""
    healthy = [a for a in actions if a.get("value") == "healthy"]
    if healthy and rng.random() < 0.97:
        return healthy[0]
    plays = [a for a in actions if a["type"] != "announce"]
    if plays and rng.random() < 0.97:
        return rng.choice(plays)
    return rng.choice(actions)


def random_match(game_name: str, players: int, rng: random.Random, *, deals: int = 4,
                 rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A whole match of ``game_name`` played with random legal actions: a scenario document
    (Doppelkopf ends after ``deals`` deals, the others by their own rule)."""
    game = get_game(game_name)
    raw = dict(rules or {})
    if game_name == "doppelkopf":
        raw.setdefault("deals", deals)
    made = game.make_rules(raw)
    rounds, outcomes, dealer = [], [], players - 1
    while not game.match_status(made, players, outcomes).game_over:
        hands, deck = game.deal(made, players, rng)
        state = game.new_round(made, players, hands, deck, dealer)
        actions = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            action = _choose(game.legal_actions(state, seat), rng)
            state, _events = game.apply(state, action)
            actions.append(action)
        outcome = game.outcome(state)
        outcomes.append(outcome)
        rounds.append({"dealer": dealer, "deal": hands, "deck": deck, "actions": actions})
        if not outcome.redeal:
            dealer = (dealer + 1) % players
    return {"game": game_name, "rules": raw, "players": players, "rounds": rounds}


async def store_finished(db: AsyncSession, document: dict[str, Any], holders: list[int | None],
                         finished_at: datetime, *, opponents: str = "any",
                         bot_level: str = "intermediate") -> int:
    """Store ``document`` as a finished match of ``holders`` (a user id per seat; None: a
    computer player of ``bot_level``) at a table of ``opponents``, rated as the site rates it;
    returns the match id. The caller commits."""
    game = get_game(document["game"])
    rules = game.make_rules(document["rules"])
    players = document["players"]
    owner = next(user for user in holders if user is not None)
    table = GameTable(game=document["game"], preset=None, rules=document["rules"], players=players,
                      deals=document["rules"].get("deals") or len(document["rounds"]),
                      opponents=opponents, skill=bot_level, secret="s", owner_id=owner,
                      status="finished", created_at=finished_at, seated=players)
    db.add(table)
    await db.flush()
    match = Match(table_id=table.id, game=document["game"], rules=document["rules"],
                  players=players, deals=table.deals, started_at=finished_at,
                  finished_at=finished_at)
    db.add(match)
    db.add_all(Seat(table_id=table.id, seat=seat, user_id=user,
                    bot_level=None if user is not None else bot_level)
               for seat, user in enumerate(holders))
    await db.flush()
    outcomes = []
    for number, round_doc in enumerate(document["rounds"]):
        state = game.new_round(rules, players, round_doc["deal"], round_doc["deck"], round_doc["dealer"])
        for action in round_doc["actions"]:
            state, _ = game.apply(state, action)
        outcome = game.outcome(state)
        outcomes.append(outcome)
        row = Round(match_id=match.id, number=number, dealer=round_doc["dealer"],
                    deal=round_doc["deal"], deck=round_doc["deck"], outcome=outcome_json(outcome),
                    dealt_at=finished_at)
        db.add(row)
        await db.flush()
        if round_doc["actions"]:
            await db.execute(insert(ActionRow), [
                {"round_id": row.id, "idx": idx, "action": action, "created_at": finished_at}
                for idx, action in enumerate(round_doc["actions"])])
    scores = totals(outcomes, players)
    winners = best_seats(scores, lowest=RANK_GAMES.get(document["game"], False))
    db.add_all(Result(match_id=match.id, seat=seat, user_id=user,
                      bot_level=None if user is not None else bot_level, score=scores[seat],
                      winner=seat in winners) for seat, user in enumerate(holders))
    await db.flush()
    await rate_finished_match(db, match.id, document["game"],
                              [SeatHolder(seat, user, None if user is not None else bot_level)
                               for seat, user in enumerate(holders)], finished_at)
    return match.id


async def add_users(db: AsyncSession, names: list[str], created_at: datetime) -> list[int]:
    """Registered users called ``names``; their ids."""
    users = [User(name=name, password_hash=None, is_guest=False, created_at=created_at)
             for name in names]
    db.add_all(users)
    await db.flush()
    return [user.id for user in users]


async def seed_profiles(url: str, now: datetime, *, matches: int = 40) -> None:
    """A site's database with a history to look at (browser tests, screenshots): anna, bert,
    carl, dora (password "long enough"; anna is friends with bert and carl), ``matches``
    Doppelkopf matches of anna's over the last weeks (every seventh at a Friends table), a
    few of Doublehead Kids and Doppio, one analysed match of anna's; the statistics rebuilt."""
    import asyncio
    from datetime import timedelta

    from argon2 import PasswordHasher

    from app.clock import Clock
    from app.db.engine import make_engine, make_sessionmaker, upgrade
    from app.db.models import Analysis, Friendship
    from app.stats.service import Stats

    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    rng = random.Random(5)
    secret = PasswordHasher().hash("long enough")
    async with sessions() as db:
        anna, bert, carl, dora = await add_users(db, ["anna", "bert", "carl", "dora"],
                                                 now - timedelta(days=90))
        await db.execute(update(User).values(password_hash=secret))
        db.add_all([Friendship(requester_id=anna, addressee_id=bert, accepted=True, created_at=now),
                    Friendship(requester_id=carl, addressee_id=anna, accepted=True, created_at=now)])
        last = 0
        for i in range(matches):
            at = now - timedelta(days=matches - i, hours=rng.randrange(12))
            others = rng.sample([bert, carl, dora, None], 3)
            last = await store_finished(db, random_match("doppelkopf", 4, rng, deals=4), [anna, *others],
                                        at, opponents="friend" if i % 7 == 3 else "any")
        db.add(Analysis(match_id=last, seat=0, user_id=anna, status="done", done=40, total=40,
                        result={"match": {"decisions": 40, "analysed": 31, "accuracy": 71.0, "cost": 3.5}},
                        created_at=now, updated_at=now))
        for i in range(4):
            at = now - timedelta(days=10 - i)
            await store_finished(db, random_match("doppio", 3, rng), [anna, bert, None], at)
            await store_finished(db, random_match("doublehead_kids", 4, rng), [carl, anna, None, bert], at)
        await db.commit()
    await Stats(sessions, Clock()).rebuild()
    await engine.dispose()
