"""The security headers of every HTTP response (pages, errors, the API, static files).

Built with the ``secure`` package (its ASGI middleware writes the headers into every
``http.response.start``):

- ``Content-Security-Policy``: everything from this site only; scripts only from files
  (``script-src 'self'``: no inline code, no ``on…=`` attributes, no eval; the JSON data blocks
  ``<script type="application/json">`` are data, not script, and stay allowed); no inline
  ``style`` attributes (setting ``element.style`` from a script is allowed by CSP); no plugins;
  forms post only here; no other site may frame a page (``frame-ancestors 'none'``).
- ``X-Frame-Options: DENY`` (framing, for browsers without CSP level 2),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` (invite links carry a
  secret key: it must not leak to another site in a Referer), ``Cross-Origin-Opener-Policy``.
- ``Strict-Transport-Security`` only on responses served over HTTPS (the request's scheme,
  which uvicorn takes from the trusted proxy's ``X-Forwarded-Proto``): HSTS sent over plain
  HTTP would be ignored, and a site tried over http://127.0.0.1 must not pin itself to HTTPS.

:func:`with_security_headers` wraps the whole ASGI stack, outside Starlette's error
middleware, so a 500 answer carries the headers too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from secure import (
    ContentSecurityPolicy,
    CrossOriginOpenerPolicy,
    ReferrerPolicy,
    Secure,
    StrictTransportSecurity,
    XContentTypeOptions,
    XFrameOptions,
)
from secure.middleware import SecureASGIMiddleware

#: HSTS lifetime: one year
HSTS_SECONDS = 31_536_000


def content_security_policy() -> ContentSecurityPolicy:
    """The site's CSP (see the module docstring)."""
    return (ContentSecurityPolicy()
            .default_src("'self'")
            .script_src("'self'")
            .style_src("'self'")
            .img_src("'self'", "data:")
            .connect_src("'self'")
            .font_src("'self'")
            .object_src("'none'")
            .base_uri("'self'")
            .form_action("'self'")
            .frame_ancestors("'none'"))


def headers(*, https: bool) -> Secure:
    """The headers of a response served over HTTPS (``https``) or plain HTTP."""
    return Secure(csp=content_security_policy(),
                  xfo=XFrameOptions().deny(),
                  xcto=XContentTypeOptions(),
                  referrer=ReferrerPolicy().same_origin(),
                  coop=CrossOriginOpenerPolicy().same_origin(),
                  hsts=StrictTransportSecurity().max_age(HSTS_SECONDS) if https else None)


class SecurityHeaders:
    """ASGI middleware: the headers of :func:`headers` on every HTTP response, HSTS by the
    request's scheme."""

    def __init__(self, app: Any) -> None:
        self._plain = SecureASGIMiddleware(app, secure=headers(https=False))
        self._https = SecureASGIMiddleware(app, secure=headers(https=True))

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        chosen = self._https if scope.get("scheme") in ("https", "wss") else self._plain
        await chosen(scope, receive, send)


def with_security_headers(app: Any) -> None:
    """Make the Starlette/FastAPI ``app`` wrap its whole middleware stack (error handling
    included) in :class:`SecurityHeaders`."""
    build: Callable[[], Any] = app.build_middleware_stack

    def build_with_headers() -> Any:
        return SecurityHeaders(build())

    app.build_middleware_stack = build_with_headers
