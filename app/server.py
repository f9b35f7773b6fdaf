"""``python -m app serve``: create ./data, migrate, print the URL, serve with uvicorn.

:class:`GracefulServer` tells every table's clients ``closed``/``shutdown`` (reconnect) before
uvicorn closes the sockets, so a restart looks like a short reconnect to players.
"""

from __future__ import annotations

import asyncio
import gc
import logging

import uvicorn

from app.config import Settings
from app.services import Services

log = logging.getLogger(__name__)


def tune_gc(thresholds: tuple[int, int, int]) -> None:
    """Set the collector's thresholds for a long-running server (docs/performance.md).

    A full (generation 2) collection stops the process for as long as it takes to walk every
    tracked object; with hundreds of tables that was 0.4-0.7 s. A larger generation 0 lets
    the short-lived objects of one action (views, patches) die before they are promoted, so
    the old generation fills, and is walked, far less often."""
    gc.set_threshold(*thresholds)


async def freeze_after(seconds: float) -> None:
    """After start-up (migrations, modules, the rebuilt tables): collect once and move every
    surviving object to the permanent generation, which collections never walk."""
    await asyncio.sleep(seconds)
    gc.collect()
    gc.freeze()
    log.info("gc: froze %d objects after start-up", gc.get_freeze_count())


class GracefulServer(uvicorn.Server):
    """uvicorn's server, stopping the table actors (which tell their clients) first."""

    def __init__(self, config: uvicorn.Config, services: Services,
                 freeze_after: float = 0.0) -> None:
        super().__init__(config)
        self._services = services
        self._freeze_after = freeze_after
        self._freezer: asyncio.Task[None] | None = None

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if self._freeze_after > 0:
            self._freezer = asyncio.get_running_loop().create_task(
                freeze_after(self._freeze_after), name="gc-freeze")

    async def shutdown(self, sockets=None) -> None:
        if self._freezer is not None:
            self._freezer.cancel()
        await self._services.rooms.shutdown()
        await super().shutdown(sockets=sockets)


def build_server(settings: Settings, services: Services | None = None, *, host: str,
                 port: int, freeze_after: float = 0.0) -> GracefulServer:
    """The uvicorn server of the site for ``settings`` (``services`` may be injected)."""
    from app.main import create_app
    from app.services import build_services

    services = services or build_services(settings)
    app = create_app(settings, services)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=settings.ws_max_frame, proxy_headers=True,
                            forwarded_allow_ips=settings.forwarded_allow_ips,
                            ws_per_message_deflate=settings.ws_per_message_deflate)
    return GracefulServer(config, services, freeze_after)


def serve(host: str | None = None, port: int | None = None) -> int:
    """Serve the site until interrupted; returns the exit status."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    host = host or settings.host
    port = port or settings.port
    tune_gc(settings.gc_thresholds)
    server = build_server(settings, host=host, port=port, freeze_after=settings.gc_freeze_after)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Doppelrunde is running at http://{shown}:{port}/", flush=True)
    server.run()
    return 0
