"""Build the FastAPI app from Settings: routers, templates, static files, lifespan.

Lifespan: run migrations to head, rebuild the tables in play from the event log; at shutdown
tell every client to reconnect and stop the actors.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette_compress import CompressMiddleware

from app.accounts.cookies import CSRF_COOKIE, new_csrf_token
from app.accounts.service import AccountError
from app.bots import runner
from app.config import Settings
from app.db.engine import upgrade
from app.history.service import HistoryError
from app.i18n import LANG_COOKIE, N_, choose_language, gettext, set_language
from app.i18n.errors import localized
from app.lobby.friends import FriendError
from app.lobby.service import LobbyError, SeatTaken
from app.services import Services, build_services
from app.web.headers import with_security_headers

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger(__name__)
#: responses smaller than this are sent as they are (compressing them gains nothing)
COMPRESS_MIN_BYTES = 500


#: what a path parameter that cannot name anything says (a 404, as for an id nobody has):
#: the words of the services' own refusal for that parameter
PATH_NOT_FOUND = {"table_id": N_("no such table"), "tournament_id": N_("no such tournament"),
                  "puzzle_id": N_("no such puzzle")}


def not_found_words(err: RequestValidationError) -> str | None:
    """The msgid of a 404 when ``err`` refuses a path parameter (``/tables/abc``,
    ``/tables/0``): such a URL names nothing, which is not a form filled in wrongly. None when
    only the query, form or body was refused."""
    for error in err.errors():
        loc = error.get("loc") or ()
        if len(loc) >= 2 and loc[0] == "path":
            return PATH_NOT_FOUND.get(str(loc[1]), N_("There is no such page."))
    return None


def log_shutdown(tables: int) -> None:
    """The server's last line (at INFO), once everything is stored: how many tables were open;
    the log's handlers are flushed right after it, so nothing said before is lost."""
    log.info("Doppelrunde shut down: %d open %s stopped (their players were told to reconnect); "
             "log flushed", tables, "table" if tables == 1 else "tables")
    for handler in [*logging.getLogger().handlers, *log.handlers]:
        handler.flush()


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    """The site. ``services`` may be given (tests inject a clock or a seeded rng)."""
    settings = settings or Settings()
    services = services or build_services(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await asyncio.to_thread(upgrade, settings.database_url)
        await services.start()
        await services.rooms.rebuild()
        yield
        await services.close()
        await asyncio.to_thread(runner.shutdown)  # no bot worker outlives the server
        log_shutdown(services.rooms.stopped_at_shutdown or 0)

    app = FastAPI(title="Doppelrunde", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.services = services

    @app.middleware("http")
    async def csrf_cookie(request: Request, call_next):
        """Give every visitor a CSRF token cookie (double-submit pattern, see cookies.py)."""
        token = request.cookies.get(CSRF_COOKIE)
        request.state.csrf = token or new_csrf_token()
        response = await call_next(request)
        if not token:
            response.set_cookie(CSRF_COOKIE, request.state.csrf, httponly=True, samesite="lax",
                                secure=settings.cookie_secure)
        return response

    @app.middleware("http")
    async def language(request: Request, call_next):
        """The request's language (app.i18n.choose_language): request.state.lang, and the
        current language of gettext while the request runs."""
        request.state.lang = choose_language(request.cookies.get(LANG_COOKIE),
                                             request.headers.get("accept-language"))
        set_language(request.state.lang)
        response = await call_next(request)
        response.headers.setdefault("Content-Language", request.state.lang)
        if not request.url.path.startswith("/static/"):  # pages and API texts depend on both
            vary = response.headers.get("Vary")
            response.headers["Vary"] = ", ".join(filter(None, (vary, "Accept-Language, Cookie")))
        return response

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, err: LobbyError):
        body: dict[str, Any] = {"detail": localized(err)}
        if isinstance(err, SeatTaken):  # the refusal offers Return to table N / Leave it
            body.update(table=err.table, running=err.running)
        return JSONResponse(body, status_code=err.status)

    @app.exception_handler(AccountError)
    async def account_error(_request: Request, err: AccountError):
        return JSONResponse({"detail": localized(err), "field": err.field}, status_code=400)

    @app.exception_handler(FriendError)
    async def friend_error(_request: Request, err: FriendError):
        return JSONResponse({"detail": localized(err)}, status_code=400)

    @app.exception_handler(HistoryError)
    async def history_error(_request: Request, err: HistoryError):
        body: dict[str, Any] = {"detail": localized(err)}
        if isinstance(err, SeatTaken):  # the refusal offers Return to table N / Leave it
            body.update(table=err.table, running=err.running)
        return JSONResponse(body, status_code=err.status)

    def wants_page(request: Request) -> bool:
        """A person in a browser asking for a page (not /api): refusals become the error
        page in their language; programs get FastAPI's JSON."""
        return ("text/html" in request.headers.get("accept", "")
                and not request.url.path.startswith(("/api/", "/static/", "/ws")))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException):
        if not wants_page(request):
            return await http_exception_handler(request, err)
        from app.web.pages import error_page

        return await error_page(request, err.status_code, err.detail, err.headers)

    @app.exception_handler(RequestValidationError)
    async def form_error(request: Request, err: RequestValidationError):
        missing = not_found_words(err)
        if missing is not None:  # /tables/abc: no such table, as for an id nobody has
            if not wants_page(request):
                return JSONResponse({"detail": gettext(missing)}, status_code=404)
            from app.web.pages import error_page

            return await error_page(request, 404, gettext(missing))
        if not wants_page(request):  # FastAPI's shape, without the input (it may be huge,
            # hostile, or not even JSON: an inf or NaN parsed from 1e400)
            details = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))[:200],
                        "type": e.get("type")} for e in err.errors()[:20]]
            return JSONResponse({"detail": details}, status_code=422)
        from app.web.pages import error_page

        return await error_page(request, 422, None)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, err: Exception):
        log.exception("unhandled error", exc_info=err)
        return PlainTextResponse(gettext("Something went wrong on our side."), status_code=500)

    from app.api import (
        analysis_routes,
        friends_routes,
        history_routes,
        ops,
        playnow_routes,
        tournament_routes,
    )
    from app.api import practice_routes as practice_api
    from app.api import puzzle_routes as puzzle_api
    from app.api import routes as api_routes
    from app.api import ws as api_ws
    from app.web import history_pages, pages, puzzle_pages, rules_pages, tournament_pages

    app.include_router(ops.router)
    app.include_router(friends_routes.router)
    app.include_router(playnow_routes.router)
    app.include_router(api_routes.router)
    app.include_router(api_ws.router)
    app.include_router(pages.router)
    app.include_router(history_routes.router)
    app.include_router(analysis_routes.router)
    app.include_router(practice_api.router)
    app.include_router(puzzle_api.router)
    app.include_router(puzzle_pages.router)
    app.include_router(history_pages.router)
    app.include_router(rules_pages.router)
    app.include_router(tournament_routes.router)
    app.include_router(tournament_pages.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    # outermost: pages, JSON and static files compressed as the browser asks (zstd, brotli or
    # gzip; bodies under 500 bytes, ranges and 304s untouched); WebSockets pass through
    app.add_middleware(CompressMiddleware, minimum_size=COMPRESS_MIN_BYTES)
    with_security_headers(app)  # outermost: error answers carry the headers too
    return app
