"""``python -m app serve``: create ./data, migrate, print the URL, serve with uvicorn.

:class:`GracefulServer` tells every table's clients ``closed``/``shutdown`` (reconnect) before
uvicorn closes the sockets, so a restart looks like a short reconnect to players.
"""

from __future__ import annotations

import uvicorn

from app.config import Settings
from app.services import Services


class GracefulServer(uvicorn.Server):
    """uvicorn's server, stopping the table actors (which tell their clients) first."""

    def __init__(self, config: uvicorn.Config, services: Services) -> None:
        super().__init__(config)
        self._services = services

    async def shutdown(self, sockets=None) -> None:
        await self._services.rooms.shutdown()
        await super().shutdown(sockets=sockets)


def build_server(settings: Settings, services: Services | None = None, *, host: str,
                 port: int) -> GracefulServer:
    """The uvicorn server of the site for ``settings`` (``services`` may be injected)."""
    from app.main import create_app
    from app.services import build_services

    services = services or build_services(settings)
    app = create_app(settings, services)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=settings.ws_max_message, proxy_headers=True)
    return GracefulServer(config, services)


def serve(host: str | None = None, port: int | None = None) -> int:
    """Serve the site until interrupted; returns the exit status."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    host = host or settings.host
    port = port or settings.port
    server = build_server(settings, host=host, port=port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Doppelrunde is running at http://{shown}:{port}/", flush=True)
    server.run()
    return 0
