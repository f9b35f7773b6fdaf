"""Settings from environment variables (pydantic-settings).

Every field reads the env var of its upper-case name: DATABASE_URL, SECRET_KEY, REDIS_URL,
HOST, PORT, BOT_DELAY, ... A missing SECRET_KEY is generated once and kept in
``<DATA_DIR>/secret_key`` so sessions survive restarts.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The site's configuration; see docs/architecture.md for what each part uses."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    data_dir: Path = Path("./data")
    database_url: str = "sqlite+aiosqlite:///./data/doppelrunde.db"
    secret_key: str = ""
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000

    #: seconds a computer player waits before acting (0 in tests)
    bot_delay: float = 0.6
    #: seconds a seat has for its move before a computer player moves for it (None: no timer)
    turn_timeout: float | None = None
    #: recent server messages kept per seat for resuming clients
    resume_buffer: int = 64
    #: largest accepted WebSocket message, in bytes
    ws_max_message: int = 4096
    #: origins allowed to open the WebSocket besides the site's own host ("*" allows any)
    allowed_origins: list[str] = []
    #: mark cookies Secure (behind HTTPS)
    cookie_secure: bool = False
    session_days: int = 30
    max_open_tables_per_user: int = 5
    max_deals: int = 48

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
