"""``python -m app serve``: create ./data, migrate, print the URL, serve with uvicorn.

:class:`GracefulServer` tells every table's clients ``closed``/``shutdown`` (reconnect) before
uvicorn closes the sockets, so a restart looks like a short reconnect to players.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math

import uvicorn

from app.config import Settings
from app.services import Services

log = logging.getLogger(__name__)


def tune_gc(thresholds: tuple[int, int, int], timed_full: bool = False) -> None:
    """Set the collector's thresholds for a long-running server (docs/performance.md).

    A full (generation 2) collection stops the process for as long as it takes to walk every
    tracked object; with hundreds of tables that was 0.4-0.7 s. A larger generation 0 lets
    the short-lived objects of one action (views, patches) die before they are promoted, so
    the old generation fills, and is walked, far less often. ``timed_full``: full collections
    run on :class:`TimedCollections`' timer only (threshold 2 out of reach)."""
    young, older, full = thresholds
    gc.set_threshold(young, older, 1_000_000_000 if timed_full else full)


async def freeze_after(seconds: float) -> None:
    """After start-up (migrations, modules, the rebuilt tables): collect once and move every
    surviving object to the permanent generation, which collections never walk."""
    await asyncio.sleep(seconds)
    gc.collect()
    gc.freeze()
    log.info("gc: froze %d objects after start-up", gc.get_freeze_count())


class TimedCollections:
    """Runs the garbage collector on a timer, not only on its allocation count.

    CPython (3.11) starts a generation-0 collection when allocations minus deallocations of
    tracked objects pass threshold 0. At a server with thousands of sockets, each waiting
    coroutine that ends (an older object) is replaced by a new one, so that difference stays
    low while generation 0 grows: at 2,000 tables it held 100,000-200,000 objects and each
    of its collections took 50-190 ms (docs/performance.md). Here generation 0 is collected
    every ``every`` seconds, which bounds it by what the process makes in that time; every
    ``older_every``-th collection takes generation 1 too (the server's default: every one, so
    a survivor is walked once before it moves to the oldest generation); and a full
    collection (0.2-0.6 s with hundreds of tables) runs every ``full_every`` seconds instead
    of whenever the collector's own rule says (set its threshold 2 out of reach with
    :func:`tune_gc`). Objects freed by their reference counts, as nearly all are, go at once
    either way; only garbage in cycles that reached the oldest generation waits for the next
    full collection. A loop handle, not a task."""

    def __init__(self, every: float, older_every: int, full_every: float) -> None:
        self._every, self._older_every = every, max(1, older_every)
        #: ticks between full collections (0: never)
        self._full_ticks = max(1, round(full_every / every)) if math.isfinite(full_every) else 0
        self._ticks = 0
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._handle = asyncio.get_running_loop().call_later(self._every, self._tick)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        self._ticks += 1
        if self._full_ticks and self._ticks % self._full_ticks == 0:
            gc.collect(2)
        else:
            gc.collect(1 if self._ticks % self._older_every == 0 else 0)
        self.start()


class GracefulServer(uvicorn.Server):
    """uvicorn's server, stopping the table actors (which tell their clients) first."""

    def __init__(self, config: uvicorn.Config, services: Services,
                 freeze_after: float = 0.0, young: TimedCollections | None = None) -> None:
        super().__init__(config)
        self._services = services
        self._freeze_after = freeze_after
        self._freezer: asyncio.Task[None] | None = None
        self._young = young

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self._freeze_after > 0:
            self._freezer = asyncio.get_running_loop().create_task(
                freeze_after(self._freeze_after), name="gc-freeze")
        if self._young is not None:
            self._young.start()

    async def shutdown(self, sockets=None) -> None:
        if self._freezer is not None:
            self._freezer.cancel()
        if self._young is not None:
            self._young.stop()
        await self._services.rooms.shutdown()
        await super().shutdown(sockets=sockets)


def build_server(settings: Settings, services: Services | None = None, *, host: str,
                 port: int, freeze_after: float = 0.0,
                 young: TimedCollections | None = None) -> GracefulServer:
    """The uvicorn server of the site for ``settings`` (``services`` may be injected)."""
    from app.main import create_app
    from app.services import build_services

    services = services or build_services(settings)
    app = create_app(settings, services)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=settings.ws_max_frame, proxy_headers=True,
                            forwarded_allow_ips=settings.forwarded_allow_ips,
                            ws_per_message_deflate=settings.ws_per_message_deflate)
    return GracefulServer(config, services, freeze_after, young)


def serve(host: str | None = None, port: int | None = None) -> int:
    """Serve the site until interrupted (Ctrl-C, SIGTERM); returns the exit status. The app's
    log (INFO and above) goes to stderr unless logging was set up already."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("alembic").setLevel(logging.WARNING)  # not every migration step
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    host = host or settings.host
    port = port or settings.port
    timed = settings.gc_young_every > 0
    tune_gc(settings.gc_thresholds, timed_full=timed and settings.gc_full_every > 0)
    young = (TimedCollections(settings.gc_young_every, settings.gc_thresholds[1],
                              settings.gc_full_every or float("inf"))
             if timed else None)
    server = build_server(settings, host=host, port=port, freeze_after=settings.gc_freeze_after,
                          young=young)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Doppelrunde is running at http://{shown}:{port}/", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has shut down
        pass
    return 0
