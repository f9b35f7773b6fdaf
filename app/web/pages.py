"""The HTML pages: lobby, table, login/register, score sheet; and their form posts.

Thin like the API: each form post calls one service and redirects (303) or shows the page
again with the error. Every form carries the CSRF token (hidden field ``csrf``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.accounts.cookies import SESSION_COOKIE
from app.accounts.service import AccountError
from app.api.deps import (
    Csrf,
    MaybeUser,
    ServicesDep,
    check_table_creation,
    login_decision,
    login_succeeded,
    retry_after,
    start_session,
    viewer,
)
from app import i18n
from app.bots import LEVELS
from app.lobby.friends import FriendError
from app.lobby.presence import online_users
from app.lobby.service import LobbyError, NewTable

ROOT = Path(__file__).resolve().parent.parent.parent
templates = Jinja2Templates(directory=ROOT / "templates")
templates.env.add_extension("jinja2.ext.i18n")
templates.env.install_gettext_callables(gettext=i18n.gettext, ngettext=i18n.ngettext,
                                        newstyle=True)
router = APIRouter()


def _page(request: Request, template: str, user, status: int = 200, **context: Any) -> HTMLResponse:
    lang = getattr(request.state, "lang", i18n.DEFAULT)
    i18n.set_language(lang)
    return templates.TemplateResponse(request, template, {
        "user": user, "csrf": request.state.csrf, "lang": lang,
        "i18n_data": {"lang": lang, "messages": i18n.browser_catalogue(lang)},
        **context}, status_code=status)


def _back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def _lobby_page(request: Request, services, user, status: int = 200,
                      error: str | None = None) -> HTMLResponse:
    tables = await services.lobby.open_tables(viewer(user))
    friends = (await services.friends.listing(user.id, online_users(services.hub, services.rooms))
               if user else None)
    return _page(request, "lobby.html", user, status, tables=tables, friends=friends,
                 games=services.lobby.games(), levels=LEVELS, error=error)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, services: ServicesDep, user: MaybeUser):
    """The lobby: open tables (live), New Game, friends."""
    return await _lobby_page(request, services, user)


@router.post("/invite-friend", dependencies=[Csrf])
async def invite_friend_form(request: Request, services: ServicesDep, user: MaybeUser,
                             name: str = Form(max_length=64), table: int = Form()) -> Response:
    """Invite a friend to one of one's own tables from the lobby's friends list."""
    from app.api.friends_routes import invite_friend

    if user is None:
        return _back("/login")
    try:
        await invite_friend(services, user, name, table)
    except (FriendError, LobbyError) as err:
        return await _lobby_page(request, services, user, 400, str(err))
    return _back("/")


@router.get("/lang/{lang}")
async def choose_language(lang: str, next: str = "/") -> Response:
    """Switch the site's language (DE | EN in the header) and remember it for a long time
    (cookie ``dr_lang``, also for guests); back to ``next`` (a path on this site only)."""
    local = next.startswith("/") and not next.startswith("//") and "\\" not in next
    target = next if local else "/"
    response = _back(target)
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.LANG_COOKIE, lang, max_age=i18n.LANG_COOKIE_AGE,
                            samesite="lax", httponly=True)
    return response


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, user: MaybeUser):
    return _page(request, "login.html", user, mode="login")


@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, user: MaybeUser):
    return _page(request, "login.html", user, mode="register")


@router.post("/login", dependencies=[Csrf])
async def login_form(request: Request, services: ServicesDep, name: str = Form(max_length=64),
                     password: str = Form(max_length=256)) -> Response:
    decision = login_decision(request, services, name)
    if not decision.allowed:
        page = _page(request, "login.html", None, 429, mode="login", name=name,
                     error="Too many login attempts; please wait a while and try again.")
        page.headers.update(retry_after(decision))
        return page
    try:
        user = await services.accounts.authenticate(name, password)
    except AccountError as err:
        return _page(request, "login.html", None, 400, mode="login", error=str(err), name=name)
    login_succeeded(services, name)
    response = _back("/")
    await start_session(response, request, services, user)
    return response


@router.post("/register", dependencies=[Csrf])
async def register_form(request: Request, services: ServicesDep, user: MaybeUser,
                        name: str = Form(max_length=64),
                        password: str = Form(max_length=256)) -> Response:
    guest_id = user.id if user is not None and user.is_guest else None
    try:
        created = await services.accounts.register(name, password, guest_id=guest_id)
    except AccountError as err:
        return _page(request, "login.html", user, 400, mode="register", error=str(err), name=name)
    response = _back("/")
    await start_session(response, request, services, created)
    return response


@router.post("/guest", dependencies=[Csrf])
async def guest_form(request: Request, services: ServicesDep) -> Response:
    user = await services.accounts.create_guest()
    response = _back("/")
    await start_session(response, request, services, user)
    return response


@router.post("/logout", dependencies=[Csrf])
async def logout_form(request: Request, services: ServicesDep) -> Response:
    sid = services.signer.unsign(request.cookies.get(SESSION_COOKIE))
    if sid is not None:
        await services.accounts.close_session(sid)
    response = _back("/")
    response.delete_cookie(SESSION_COOKIE)
    return response


@router.post("/tables", dependencies=[Csrf])
async def new_game_form(request: Request, services: ServicesDep, user: MaybeUser,
                        game: str = Form(), preset: str = Form(""), players: int | None = Form(None),
                        deals: int = Form(4),
                        opponents: str = Form("any"), skill: str = Form("beginner"),
                        bots: int = Form(0), invite: str = Form(""), turn_seconds: str = Form(""),
                        switches: str = Form(""), numbers: str = Form("")) -> Response:
    """New Game from the lobby form; on success go to the table.

    ``switches`` names the on/off rule options the form showed; each is on when its checkbox
    ``opt_<name>`` was sent. ``numbers`` names the number options (field ``opt_<name>``).
    """
    if user is None:
        return _back("/login")
    form = await request.form()
    options: dict[str, Any] = {name: f"opt_{name}" in form
                               for name in switches.split(",") if name}
    for name in (n for n in numbers.split(",") if n):
        raw = str(form.get(f"opt_{name}", "")).strip()
        try:
            value = float(raw)
        except ValueError:
            return await _lobby_page(request, services, user, 400,
                                     f"{name.replace('_', ' ')}: please enter a number")
        options[name] = int(value) if value.is_integer() else value
    decision = check_table_creation(services, user)
    if not decision.allowed:
        return await _lobby_page(request, services, user, 429,
                                 "You opened many tables recently; please wait a while.")
    try:
        spec = NewTable(game=game, preset=preset or None, options=options, players=players,
                        deals=deals, opponents=opponents,
                        skill=skill, bots=bots, turn_seconds=int(turn_seconds) if turn_seconds else None,
                        invite=[n for n in invite.replace(",", " ").split() if n])
        table = await services.lobby.create_table(viewer(user), spec)
    except (LobbyError, ValueError) as err:
        return await _lobby_page(request, services, user, 400, _short(err))
    return _back(f"/tables/{table['id']}")


def _short(err: Exception) -> str:
    text = str(err).splitlines()[0] if str(err) else "not possible"
    return text if not text.startswith("1 validation error") else "please check the form"


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: int, request: Request, services: ServicesDep, user: MaybeUser,
                     key: str | None = None):
    """The table: seats before the start, then the game (rendered by static/js/table.js)."""
    try:
        table = await services.lobby.table(viewer(user), table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=str(err))
    may_join = user is not None and await services.lobby.may_join(viewer(user), table_id, key)
    return _page(request, "table.html", user, table=table, key=key, may_join=may_join)


@router.post("/tables/{table_id}/join", dependencies=[Csrf])
async def join_form(table_id: int, request: Request, services: ServicesDep, user: MaybeUser,
                    key: str = Form("")) -> Response:
    if user is None:
        return _back("/login")
    try:
        await services.lobby.join(viewer(user), table_id, key or None)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=str(err))
    return _back(f"/tables/{table_id}")


@router.post("/tables/{table_id}/leave", dependencies=[Csrf])
async def leave_form(table_id: int, request: Request, services: ServicesDep,
                     user: MaybeUser) -> Response:
    if user is None:
        return _back("/login")
    try:
        await services.lobby.leave(viewer(user), table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=str(err))
    return _back("/")


@router.post("/tables/{table_id}/invite", dependencies=[Csrf])
async def invite_form(table_id: int, request: Request, services: ServicesDep, user: MaybeUser,
                      name: str = Form(max_length=64)) -> Response:
    if user is None:
        return _back("/login")
    try:
        await services.lobby.invite(viewer(user), table_id, name)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=str(err))
    return _back(f"/tables/{table_id}")


@router.post("/friends/{verb}", dependencies=[Csrf])
async def friends_form(verb: str, request: Request, services: ServicesDep, user: MaybeUser,
                       name: str = Form(max_length=64)) -> Response:
    """Add, accept, decline, remove, block or unblock a player by name."""
    if user is None:
        return _back("/login")
    actions = {"add": services.friends.add, "accept": services.friends.accept,
               "remove": services.friends.remove, "decline": services.friends.decline,
               "block": services.friends.block, "unblock": services.friends.unblock}
    if verb not in actions:
        return _page(request, "error.html", user, 404, error="no such page")
    try:
        await actions[verb](user.id, name)
    except FriendError as err:
        return await _lobby_page(request, services, user, 400, str(err))
    return _back("/")


@router.get("/tables/{table_id}/scores", response_class=HTMLResponse)
async def scores_page(table_id: int, request: Request, services: ServicesDep, user: MaybeUser):
    """The score sheet of a table's match (replayed from the event log)."""
    try:
        data = await services.lobby.score_sheet(table_id)
    except LobbyError as err:
        return _page(request, "error.html", user, err.status, error=str(err))
    return _page(request, "scores.html", user, **data)
