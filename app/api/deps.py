"""Request dependencies: the services, the current user, CSRF checks, the session cookie."""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from starlette.requests import HTTPConnection

from app.accounts.cookies import (
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    SESSION_COOKIE,
    csrf_ok,
)
from app.accounts.names import name_key
from app.db.models import User
from app.guard.ratelimit import Decision, Policy
from app.i18n import N_, gettext
from app.lobby.service import Viewer
from app.services import Services


def services_of(conn: HTTPConnection) -> Services:
    return conn.app.state.services


async def user_of(conn: HTTPConnection) -> User | None:
    """The user of the request's session cookie, or None."""
    services = services_of(conn)
    sid = services.signer.unsign(conn.cookies.get(SESSION_COOKIE))
    if sid is None:
        return None
    return await services.accounts.user_for_session(sid)


async def require_user(request: Request) -> User:
    """The logged-in user (a guest counts); 401 otherwise."""
    user = await user_of(request)
    if user is None:
        raise HTTPException(401, gettext(N_("log in or play as a guest first")))
    return user


async def check_csrf(request: Request) -> None:
    """Refuse a state-changing request whose CSRF echo (header or form field) is missing or
    wrong (403)."""
    echoed = request.headers.get(CSRF_HEADER)
    if echoed is None and request.headers.get("content-type", "").startswith(
            ("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()
        value = form.get(CSRF_FIELD)
        echoed = value if isinstance(value, str) else None
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), echoed):
        raise HTTPException(403, gettext(N_("missing or wrong CSRF token; reload the page")))


def viewer(user: User | None) -> Viewer | None:
    return None if user is None else Viewer(id=user.id, name=user.name)


def set_session_cookie(response: Response, services: Services, sid: str) -> None:
    response.set_cookie(SESSION_COOKIE, services.signer.sign(sid), httponly=True,
                        samesite="lax", secure=services.settings.cookie_secure,
                        max_age=services.settings.session_days * 86400)


async def start_session(response: Response, request: Request, services: Services,
                        user: User) -> None:
    """Log ``user`` in: drop the old session, open a fresh one (no fixation), set the cookie."""
    old = services.signer.unsign(request.cookies.get(SESSION_COOKIE))
    if old is not None:
        await services.accounts.close_session(old)
    set_session_cookie(response, services, await services.accounts.open_session(user.id))


ServicesDep = Annotated[Services, Depends(services_of)]
CurrentUser = Annotated[User, Depends(require_user)]
MaybeUser = Annotated[User | None, Depends(user_of)]
Csrf = Depends(check_csrf)


def client_address(conn: HTTPConnection) -> str:
    """The client's address: the peer's, or the one the trusted proxy wrote in
    X-Forwarded-For (uvicorn believes only Settings.forwarded_allow_ips; behind nginx, which
    sets the header to the address it saw, this is the client's real address)."""
    return conn.client.host if conn.client is not None else "unknown"


def login_decision(conn: HTTPConnection, services: Services, name: str) -> Decision:
    """Count one login try for the address and the name — the name's canonical key, so every
    spelling of it ("Jürgen", "JÜRGEN", "jürgen") is one name; checked before the password is
    verified. A refused try is not counted; a good login resets the name (``login_succeeded``)."""
    by_address = services.limits.check(Policy.LOGIN_ADDRESS, client_address(conn))
    if not by_address.allowed:
        return by_address
    return services.limits.check(Policy.LOGIN_NAME, name_key(name))


def login_succeeded(services: Services, name: str) -> None:
    """A good login: the name's failed tries are forgotten (every spelling: its key)."""
    services.limits.reset(Policy.LOGIN_NAME, name_key(name))


def retry_after(decision: Decision) -> dict[str, str]:
    """The Retry-After header (whole seconds, at least 1) of a refusal."""
    return {"Retry-After": str(max(1, math.ceil(decision.retry_after_s)))}


#: what a 429 refuses, in words (too_many's ``what``); %(wait)s is wait_words'
TOO_MANY = {"login attempts": N_("Too many login attempts; try again in %(wait)s."),
            "new tables": N_("You opened many tables recently; try again in %(wait)s."),
            "new accounts": N_("Too many new accounts from here; try again in %(wait)s."),
            "new guests": N_("Too many new guests from here; try again in %(wait)s.")}


def wait_words(seconds: float) -> str:
    """A wait in words: "45 s" up to two minutes, else whole minutes rounded up ("3 min")."""
    whole = max(1, math.ceil(seconds))
    if whole <= 120:
        return gettext("%(seconds)s s", seconds=whole)
    return gettext("%(minutes)s min", minutes=math.ceil(whole / 60))


def too_many_words(decision: Decision, what: str) -> str:
    """The refusal of ``decision`` in words, naming the wait; ``what`` a key of TOO_MANY."""
    return gettext(TOO_MANY[what], wait=wait_words(decision.retry_after_s))


def too_many(decision: Decision, what: str) -> HTTPException:
    """HTTP 429 with Retry-After for a refused ``decision``; ``what`` a key of TOO_MANY."""
    return HTTPException(429, too_many_words(decision, what), headers=retry_after(decision))


def check_table_creation(services: Services, user: User, conn: HTTPConnection) -> Decision:
    """TABLE_CREATE for the account, then TABLE_CREATE_ADDRESS for its address (so new guests
    do not escape the account's limit)."""
    by_account = services.limits.check(Policy.TABLE_CREATE, str(user.id))
    if not by_account.allowed:
        return by_account
    return services.limits.check(Policy.TABLE_CREATE_ADDRESS, client_address(conn))


def check_signup(conn: HTTPConnection, services: Services, policy: Policy) -> Decision:
    """REGISTER_ADDRESS or GUEST_ADDRESS for the client's address (one new account or guest)."""
    return services.limits.check(policy, client_address(conn))
