"""The services of one running site, built once from Settings and shared by the routers."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts.cookies import SessionSigner
from app.accounts.service import Accounts
from app.clock import Clock
from app.config import Settings
from app.db.engine import make_engine, make_sessionmaker
from app.lobby.friends import Friends
from app.lobby.hub import LobbyHub
from app.lobby.service import Lobby
from app.rooms.actor import ActorConfig
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore


@dataclass
class Services:
    """Everything a request handler may use."""

    settings: Settings
    engine: AsyncEngine
    clock: Clock
    accounts: Accounts
    friends: Friends
    lobby: Lobby
    hub: LobbyHub
    rooms: RoomManager
    signer: SessionSigner

    async def close(self) -> None:
        await self.rooms.shutdown()
        await self.engine.dispose()


def build_services(settings: Settings, clock: Clock | None = None, *,
                   round_pause: float = 3.0,
                   rng_factory: Callable[[int], random.Random] | None = None) -> Services:
    """Wire the services for ``settings`` (no I/O yet; migrations run in the app's lifespan)."""
    clock = clock or Clock()
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    config = ActorConfig(bot_delay=settings.bot_delay, round_pause=round_pause,
                         turn_timeout=settings.turn_timeout, resume_buffer=settings.resume_buffer)
    rooms = RoomManager(MatchStore(sessions, clock), clock, config, rng_factory=rng_factory)
    friends = Friends(sessions, clock)
    lobby = Lobby(sessions, clock, rooms, friends, max_deals=settings.max_deals,
                  max_open_tables=settings.max_open_tables_per_user)
    hub = LobbyHub(lobby)
    lobby.on_change = hub.publish
    rooms.on_change = hub.publish
    return Services(settings=settings, engine=engine, clock=clock,
                    accounts=Accounts(sessions, clock, settings.session_days), friends=friends,
                    lobby=lobby, hub=hub, rooms=rooms,
                    signer=SessionSigner(settings.resolved_secret()))
