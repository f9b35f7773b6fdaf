"""Settings from environment variables (pydantic-settings).

Every field reads the env var of its upper-case name: DATABASE_URL, SECRET_KEY, REDIS_URL,
HOST, PORT, BOT_DELAY, ... A missing SECRET_KEY is generated once and kept in
``<DATA_DIR>/secret_key`` so sessions survive restarts.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The site's configuration; see docs/architecture.md for what each part uses."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    data_dir: Path = Path("./data")
    database_url: str = "sqlite+aiosqlite:///./data/doppelrunde.db"
    #: PostgreSQL connection pool of one process: connections kept, and opened beyond them
    #: at peaks (2,000 sockets connecting while 500 tables load exhausted 5 + 10)
    db_pool_size: int = 10
    db_max_overflow: int = 20
    secret_key: str = ""
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000

    #: seconds a computer player takes per move, its thinking included (0 in tests)
    bot_delay: float = 0.6
    #: thinking time of an expert computer player per decision (ms), taken from bot_delay
    bot_budget_ms: int = 300
    #: post-game analysis (docs/analysis.md): time cap and sampled worlds per decision
    analysis_budget_ms: int = 1000
    analysis_worlds: int = 32
    #: seconds a seat has for its move before a computer player moves for it (None: no timer)
    turn_timeout: float | None = None
    #: seconds a seated person may be gone before a computer player moves for them (unset: 30)
    away_grace: float | None = 30.0
    #: seconds a finished table's actor stays loaded after the end; then it unloads and its
    #: watchers are served from the stored log
    finished_linger: float = 60.0
    #: seconds a table not in play (open) stays loaded with nobody connected
    idle_unload: float = 300.0
    #: recent server messages kept per seat for resuming clients
    resume_buffer: int = 64
    #: largest accepted WebSocket message, in bytes (larger ones are answered ``too_large``)
    ws_max_message: int = 4096
    #: the transport's hard cap on a WebSocket frame (uvicorn ``ws_max_size``), in bytes:
    #: larger than ws_max_message, so an oversized message reaches the app and gets the
    #: documented ``too_large`` error; only frames over this cap are cut with 1009
    ws_max_frame: int = 65536
    #: WebSockets one client address may hold open in this process (a household or a school
    #: shares an address; one person needs a few) and one session (its tabs)
    ws_per_address: int = 60
    ws_per_session: int = 8
    #: sockets doing database work at once (session lookup, hello): the rest wait their turn,
    #: so sockets never take the whole connection pool from the pages and the tables
    ws_db_concurrency: int = 4
    #: lobby feed subscribers (sockets on the lobby page) one process serves at most
    lobby_subscribers: int = 5000
    #: origins allowed to open the WebSocket besides the site's own host ("*" allows any)
    allowed_origins: list[str] = []
    #: the proxies whose X-Forwarded-For/-Proto uvicorn believes (comma-separated addresses or
    #: networks): only the reverse proxy's own address, never "*" — a client could otherwise
    #: choose its own address and so its rate-limit key (docker-compose.yml: nginx's address)
    forwarded_allow_ips: str = "127.0.0.1"
    #: mark cookies Secure (behind HTTPS)
    cookie_secure: bool = False
    session_days: int = 30
    max_open_tables_per_user: int = 5
    #: development and tests only: a Doppelkopf table may have any number of deals (for short
    #: matches); otherwise a multiple of the players, so that everyone deals equally often
    any_deal_count: bool = False
    #: the longest pause between two deals at a table, to read the deal's result; it ends
    #: early once every person present said "Next deal" (app/rooms/intermission.py)
    round_pause: float = 20.0
    #: seconds a table's lease lives without renewal (REDIS_URL set): bounds how long a table
    #: is unavailable after its owner process died (docs/scaling.md)
    lease_ttl: float = 10.0
    #: seconds between two sweeps for tables in play that no process owns
    sweep_interval: float = 5.0
    #: write accepted actions to the event log (off only to measure its cost: benchmarks/load.py;
    #: tables then cannot be rebuilt after a restart)
    event_log: bool = True
    #: permessage-deflate on WebSockets: off by default, as the table messages are small
    #: patches (docs/performance.md) and compressing each one cost ~13 µs of CPU per send
    ws_per_message_deflate: bool = False
    #: the garbage collector's thresholds for ``python -m app serve`` (gen 0 allocations, gen 1
    #: and gen 2 collection counts; Python's default is 700, 10, 10), e.g. GC_THRESHOLDS=
    #: '[700, 10, 10]'; see docs/performance.md ("The collector"). With the
    #: timed collections, every tick takes generation 1 too (``gc_thresholds[1]`` = 1): what
    #: survives one tick (a connection's wait for its next frame, mostly) is walked once and
    #: moves to the oldest generation, instead of being walked again 0.2 s later. At 2,000
    #: paced tables that halved the longest pause and cut the collector's CPU by 40 % (10-50 %
    #: at full speed); the full collections found no garbage the young ones had missed
    gc_thresholds: tuple[int, int, int] = (10_000, 1, 100)
    #: seconds after start-up at which the server freezes what it built (gc.freeze: the rebuilt
    #: tables, modules, templates), so full collections no longer walk it; 0: never
    gc_freeze_after: float = 5.0
    #: seconds between the server's timed generation-0 collections (every ``gc_thresholds[1]``-th
    #: takes generation 1 too), so generation 0 stays small when the allocation count does not
    #: trigger them (app/server.py, ``TimedCollections``); 0: only the allocation count
    gc_young_every: float = 0.1
    #: seconds between the server's full collections when ``gc_young_every`` is on (then only
    #: this timer runs them: a full collection pauses a large server for 0.2-0.4 s); 0: the
    #: collector's own rule (``gc_thresholds[2]``)
    gc_full_every: float = 300.0
    #: seconds between the background WAL checkpoints of a SQLite database (app/db/checkpoint.py;
    #: commits then never checkpoint); 0: SQLite's own (in the commit past 1,000 log pages)
    sqlite_checkpoint_every: float = 1.0
    #: serve a raw WebSocket echo at /ws/echo (the baseline of benchmarks/load.py)
    bench_echo: bool = False
    #: key and channel prefix in Redis (several sites may share one Redis)
    redis_prefix: str = "dr:"
    #: rate-limit policies to override, e.g. RATE_LIMITS='{"table_create": "100/hour"}'
    #: (names and defaults: app/guard/ratelimit.py)
    rate_limits: dict[str, str] = {}
    #: Play now: seconds the longest waiter waits before computer players fill the table
    play_now_fill_after: float = 30.0
    #: Play now: deals per match of a table the queue forms
    play_now_deals: int = 4
    #: seconds between two ticks of the tournament director (it also ticks when a table
    #: starts or finishes in its process); the round-to-round seating waits at most this
    tournament_tick: float = 1.0
    #: whether this process may direct the tournaments (one process does, holding a lease)
    tournament_director: bool = True
    #: a TOML file of recurring tournaments (docs/tournaments.md, "Recurring tournaments")
    tournaments_config: Path | None = None

    @model_validator(mode="after")
    def _frame_cap_above_message_limit(self) -> Settings:
        if self.ws_max_frame <= self.ws_max_message:
            raise ValueError("WS_MAX_FRAME must be larger than WS_MAX_MESSAGE")
        return self

    def resolved_secret(self) -> str:
        """SECRET_KEY, or the one kept in data_dir/secret_key (created on first use)."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key)
        path.chmod(0o600)
        return key
