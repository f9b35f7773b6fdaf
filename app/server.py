"""``python -m app serve``: create ./data, migrate, print the URL, serve with uvicorn."""

from __future__ import annotations

import uvicorn

from app.config import Settings


def serve(host: str | None = None, port: int | None = None) -> int:
    """Serve the site until interrupted; returns the exit status."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    host = host or settings.host
    port = port or settings.port
    from app.main import create_app

    app = create_app(settings)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Doppelrunde is running at http://{shown}:{port}/", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=settings.ws_max_message,
                proxy_headers=True)
    return 0
