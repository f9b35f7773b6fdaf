"""The session cookie (a signed session id) and the CSRF token (double-submit cookie).

Session cookie ``dr_session``: itsdangerous-signed session id, HttpOnly, SameSite=Lax.
CSRF cookie ``dr_csrf``: a random token; every state-changing request must echo it in the form
field ``csrf`` or the header ``X-CSRF-Token`` (compared in constant time). A foreign site can
neither read the cookie nor set it, so it cannot forge the echo.
"""

from __future__ import annotations

import hmac
import secrets

from itsdangerous import BadSignature, Signer

SESSION_COOKIE = "dr_session"
CSRF_COOKIE = "dr_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"


class SessionSigner:
    """Signs and checks session ids with the site's secret key."""

    def __init__(self, secret: str) -> None:
        self._signer = Signer(secret, salt="doppelrunde.session")

    def sign(self, sid: str) -> str:
        """The cookie value for session ``sid``."""
        return self._signer.sign(sid.encode()).decode()

    def unsign(self, value: str | None) -> str | None:
        """The session id of a cookie value, or None if missing or tampered."""
        if not value:
            return None
        try:
            return self._signer.unsign(value.encode()).decode()
        except BadSignature:
            return None


def new_csrf_token() -> str:
    """A fresh random CSRF token."""
    return secrets.token_urlsafe(24)


def csrf_ok(cookie: str | None, echoed: str | None) -> bool:
    """Whether the echoed token matches the cookie (both present)."""
    return bool(cookie) and bool(echoed) and hmac.compare_digest(cookie, echoed)
