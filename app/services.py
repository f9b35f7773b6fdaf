"""The services of one running site, built once from Settings and shared by the routers."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts.cookies import SessionSigner
from app.accounts.service import Accounts
from app.analysis.puzzles import Puzzles
from app.analysis.service import Analyses
from app.chat.rooms import ChatRooms
from app.chat.service import ChatService
from app.clock import Clock
from app.cluster import Cluster, make_cluster
from app.config import Settings
from app.db.checkpoint import WalCheckpointer
from app.db.engine import make_engine, make_sessionmaker
from app.guard.ratelimit import Policy, RateLimits
from app.guard.sockets import SocketSlots
from app.history.service import History
from app.lobby.friends import Friends
from app.lobby.hub import LobbyHub
from app.lobby.matchmaking import QueueSettings
from app.lobby.notices import Notices
from app.lobby.playnow import PlayNow
from app.lobby.practice import Practice
from app.lobby.presence import Presence
from app.lobby.queue import SharedQueue
from app.lobby.registry import make_registry
from app.lobby.service import Lobby
from app.rooms.actor import ActorConfig
from app.rooms.cluster import ClusterRooms
from app.rooms.manager import RoomManager, Rooms
from app.rooms.store import MatchStore, UnloggedMatchStore
from app.rooms.stored import StoredTables
from app.stats.service import Stats
from app.tournaments.director import Director, Hooks
from app.tournaments.hub import TournamentHub
from app.tournaments.service import Tournaments

log = logging.getLogger(__name__)
LOBBY_CHANNEL = "lobby"


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
    rooms: Rooms
    signer: SessionSigner
    cluster: Cluster
    limits: RateLimits
    chat: ChatRooms
    history: History
    play_now: PlayNow
    presence: Presence
    #: live notices to one person on any page and process (app/lobby/notices.py)
    notices: Notices
    sockets: SocketSlots
    #: finished tables from the stored log (no actor)
    stored: StoredTables
    #: bounds the sockets' database work at once (Settings.ws_db_concurrency)
    socket_db: asyncio.Semaphore
    #: post-game analyses (app.analysis.service)
    analyses: Analyses
    #: "Play from here": tables that start at a moment of a finished match (app.lobby.practice)
    practice: Practice
    #: puzzles from the analyses' costliest decisions (app.analysis.puzzles)
    puzzles: Puzzles
    #: the players' statistics (app.stats.service), counted as each match finishes
    stats: Stats

    #: tournaments (app/tournaments): the service, the live standings, the director
    tournaments: Tournaments | None = None
    tournament_hub: TournamentHub | None = None
    director: Director | None = None
    #: background WAL checkpoints of a SQLite database (app/db/checkpoint.py)
    checkpointer: WalCheckpointer | None = None
    _feed: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start what runs in the background: with Redis, the lobby feed of every process
        follows the changes made by the others (one bus channel, ``lobby``). Redis being away
        does not stop the start: /readyz says so, and the feed subscribes once it is back."""
        self.presence.start()
        self.stats.start()
        if self.checkpointer is not None:
            self.checkpointer.start()
        if self.director is not None:
            self.director.start()
        if self.cluster.distributed and self._feed is None:
            self._feed = asyncio.get_running_loop().create_task(self._follow(),
                                                                name="lobby-feed")

    async def _follow(self) -> None:
        while True:
            try:
                events = await self.cluster.bus.events(LOBBY_CHANNEL)
                break
            except Exception:
                log.warning("cannot follow the lobby feed yet; retrying", exc_info=True)
                await asyncio.sleep(2)
        async for message in events:  # a change elsewhere (or a Gap): refresh our subscribers
            try:
                if isinstance(message, dict) and "notify" in message:  # a notice for one user
                    await self.hub.notify(message["notify"], message["message"])
                    continue
                if isinstance(message, dict) and "tournament" in message:  # live standings
                    if self.tournament_hub is not None:
                        self.tournament_hub.changed(message["tournament"])
                    continue
                self.hub.changed()
                if self.director is not None:
                    self.director.poke()
            except Exception:
                log.exception("refreshing the lobby feed failed")

    async def close(self) -> None:
        if self._feed is not None:
            self._feed.cancel()
        if self.director is not None:
            await self.director.close()
        if self.tournament_hub is not None:
            await self.tournament_hub.close()
        await self.hub.close()
        await self.analyses.close()
        await self.stats.close()
        await self.play_now.close()
        await self.presence.close()
        await self.rooms.shutdown()
        await self.cluster.close()
        if self.checkpointer is not None:
            await self.checkpointer.stop()
        await self.engine.dispose()


def build_services(settings: Settings, clock: Clock | None = None, *,
                   round_pause: float | None = None,
                   rng_factory: Callable[[int], random.Random] | None = None,
                   limits: RateLimits | None = None) -> Services:
    """Wire the services for ``settings`` (no I/O yet; migrations run in the app's lifespan).

    With REDIS_URL the tables are shared with the other processes (ClusterRooms over Redis)
    and rate limits hold across processes; without it every table lives here (RoomManager)
    and the cluster services are in-process.
    """
    clock = clock or Clock()
    checkpointer = sqlite_checkpointer(settings.database_url, settings.sqlite_checkpoint_every)
    engine = make_engine(settings.database_url, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_max_overflow,
                         background_checkpoint=checkpointer is not None)
    sessions = make_sessionmaker(engine)
    config = ActorConfig(bot_delay=settings.bot_delay, bot_budget_ms=settings.bot_budget_ms,
                         round_pause=settings.round_pause if round_pause is None else round_pause,
                         turn_timeout=settings.turn_timeout, resume_buffer=settings.resume_buffer,
                         away_grace=settings.away_grace,
                         finished_linger=settings.finished_linger,
                         idle_unload=settings.idle_unload)
    limits = limits or RateLimits({Policy(name): spec for name, spec in settings.rate_limits.items()},
                                  redis_url=settings.redis_url or None,
                                  key_prefix=f"{settings.redis_prefix}limits")
    store = (MatchStore if settings.event_log else UnloggedMatchStore)(sessions, clock)
    stats = Stats(sessions, clock)
    store.on_finished = stats.match_finished
    cluster = make_cluster(settings.redis_url, prefix=settings.redis_prefix,
                           socket_timeout=2, socket_connect_timeout=2) \
        if settings.redis_url else make_cluster(None)
    rooms: Rooms
    if cluster.distributed:
        rooms = ClusterRooms(store, clock, config, cluster, lease_ttl=settings.lease_ttl,
                             sweep_interval=settings.sweep_interval, rng_factory=rng_factory)
    else:
        rooms = RoomManager(store, clock, config, rng_factory=rng_factory)
    friends = Friends(sessions, clock)
    lobby = Lobby(sessions, clock, rooms, friends, any_deal_count=settings.any_deal_count,
                  max_open_tables=settings.max_open_tables_per_user, claims=cluster.claims)
    hub = LobbyHub(lobby, max_subscribers=settings.lobby_subscribers)
    if cluster.distributed:  # every process's feed refreshes (Services.start follows the bus)
        announcing: set[asyncio.Task[None]] = set()

        async def announce() -> None:
            try:
                await cluster.bus.publish_event(LOBBY_CHANNEL, {"changed": True})
            except Exception:
                log.warning("cannot announce a lobby change", exc_info=True)

        async def changed(_table_id: int | None = None) -> None:
            # never waits: the request or the table actor goes on (the feed fans out)
            task = asyncio.get_running_loop().create_task(announce())
            announcing.add(task)
            task.add_done_callback(announcing.discard)

        lobby.on_change = changed
        rooms.on_change = changed
    else:
        lobby.on_change = hub.publish
        rooms.on_change = hub.publish
    rooms.on_rematch = lobby.rematch
    queue_settings = QueueSettings(fill_after=settings.play_now_fill_after)
    if cluster.distributed:  # one Play now queue and one presence for every process
        assert cluster.redis is not None

        async def notify(user_id: int, message: dict) -> None:
            await cluster.bus.publish_event(LOBBY_CHANNEL, {"notify": user_id, "message": message})

        registry = make_registry(cluster)
        play_now = PlayNow(sessions, clock, rooms, lobby, hub, deals=settings.play_now_deals,
                           queue=SharedQueue(registry, cluster.redis,
                                             settings.redis_prefix, queue_settings),
                           notify=notify)
        presence = Presence(registry)
    else:
        play_now = PlayNow(sessions, clock, rooms, lobby, hub, fill_after=settings.play_now_fill_after,
                           deals=settings.play_now_deals)
        presence = Presence()
    lobby.busy = play_now.busy
    notices = Notices(hub, friends, notify if cluster.distributed else None)
    lobby.on_invite = friends.on_notice = notices.send
    # the analysis checks that the asking person played the match: the scenario of a private
    # match is read without a viewer's check (with it, no Friend or Invited match was analysed)
    analyses = Analyses(sessions, clock, partial(lobby.scenario, check=False),
                        budget_ms=settings.analysis_budget_ms,
                        worlds=settings.analysis_worlds, thinking_ms=settings.bot_budget_ms)
    puzzles = Puzzles(sessions, clock, lobby.table)
    analyses.on_done = puzzles.make
    tournaments, tournament_hub, director = wire_tournaments(
        settings, sessions, clock, cluster, rooms, friends, lobby, notices, presence)
    return Services(settings=settings, engine=engine, clock=clock,
                    accounts=Accounts(sessions, clock, settings.session_days), friends=friends,
                    lobby=lobby, hub=hub, rooms=rooms,
                    signer=SessionSigner(settings.resolved_secret()), cluster=cluster,
                    limits=limits, chat=ChatRooms(ChatService(limits, now_fn=time.time)),
                    history=History(sessions, clock), play_now=play_now, presence=presence,
                    notices=notices,
                    sockets=SocketSlots(settings.ws_per_address, settings.ws_per_session),
                    stored=StoredTables(store, clock, config),
                    socket_db=asyncio.Semaphore(settings.ws_db_concurrency),
                    analyses=analyses, puzzles=puzzles,
                    practice=Practice(sessions, clock, lobby),
                    stats=stats, checkpointer=checkpointer, tournaments=tournaments,
                    tournament_hub=tournament_hub, director=director)


def wire_tournaments(settings: Settings, sessions, clock: Clock, cluster: Cluster, rooms: Rooms,
                     friends: Friends, lobby: Lobby, notices: Notices, presence: Presence
                     ) -> tuple[Tournaments, TournamentHub, Director | None]:
    """The tournaments' service, live standings and director (app/tournaments), wired to the
    rooms (a table that starts or finishes wakes the director), the notices and, with Redis,
    the lobby bus (a change reaches the tournament's watchers on every process)."""
    from app.tournaments.recurring import Recurring

    tournaments = Tournaments(sessions, clock, friends)
    tournament_hub = TournamentHub(tournaments)
    tournaments.notify = notices.send
    if cluster.distributed:
        async def tournament_changed(tournament_id: int) -> None:
            try:
                await cluster.bus.publish_event(LOBBY_CHANNEL, {"tournament": tournament_id})
            except Exception:
                log.warning("cannot announce a tournament change", exc_info=True)

        tournaments.on_change = tournament_changed
    else:
        tournaments.on_change = tournament_hub.publish
    if not settings.tournament_director:
        return tournaments, tournament_hub, None
    recurring = (Recurring(settings.tournaments_config, tournaments, clock)
                 if settings.tournaments_config else None)
    director = Director(sessions, clock, Hooks(
        start=lambda table_id: rooms.actor(table_id).start(), notify=notices.send,
        changed=tournaments.on_change, online=presence.online, tables_changed=lobby.on_change),
        cluster.leases, cluster.process_id, tick=settings.tournament_tick,
        lease_ttl=settings.lease_ttl, recurring=recurring)
    table_changed = rooms.on_change

    async def started_or_finished(table_id: int) -> None:
        if table_changed is not None:
            await table_changed(table_id)
        director.poke(table_id)

    rooms.on_change = started_or_finished
    return tournaments, tournament_hub, director


def sqlite_checkpointer(url: str, every: float) -> WalCheckpointer | None:
    """The background WAL checkpointer of a SQLite file database (None: another database,
    an in-memory one, or ``every`` 0: SQLite checkpoints in its commits)."""
    if not url.startswith("sqlite") or every <= 0:
        return None
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return WalCheckpointer(path, every)
